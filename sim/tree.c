/* SPDX-License-Identifier: MIT */
/*
 * Tree files and writer verbs: word splitting, verb parsing, running.
 * See sim/tree.h for the language.
 */
#define _GNU_SOURCE	/* vasprintf */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/tree.h"
#include "sim/vfs/fsops.h"
#include "sim/vfs/mount.h"

/* ------------------------------------------------------------------ */
/* words                                                                */

struct words {
	unsigned n;
	char *v[WT_VERB_MAX_ARGS + 2];
	unsigned col[WT_VERB_MAX_ARGS + 2];
};

static void words_free(struct words *ws)
{
	for (unsigned i = 0; i < ws->n; i++)
		free(ws->v[i]);
	ws->n = 0;
}

static int fail(struct wt_verb_error *e, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct wt_verb_error *e, unsigned col, const char *fmt, ...)
{
	va_list ap;

	e->col = col;
	e->err = 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* One word from s[*i]: quotes and backslashes as a shell's.  The word is
 * written into out (at least strlen(s)+1 bytes). */
static int scan_word(const char *s, size_t *i, char *out,
		     struct wt_verb_error *e)
{
	size_t o = 0;
	char quote = 0;
	unsigned qcol = 0;

	for (; s[*i]; (*i)++) {	/* bounded by the line */
		char c = s[*i];

		if (quote) {
			if (c == quote) {
				quote = 0;
			} else if (quote == '"' && c == '\\' &&
				   (s[*i + 1] == '"' || s[*i + 1] == '\\')) {
				out[o++] = s[++*i];
			} else {
				out[o++] = c;
			}
		} else if (c == ' ' || c == '\t') {
			break;
		} else if (c == '\'' || c == '"') {
			quote = c;
			qcol = (unsigned)*i + 1;
		} else if (c == '\\' && s[*i + 1]) {
			out[o++] = s[++*i];
		} else {
			out[o++] = c;
		}
	}
	out[o] = '\0';
	if (quote)
		return fail(e, qcol, "unterminated %s quote",
			    quote == '"' ? "double" : "single");
	return 0;
}

static int split_words(const char *s, struct words *ws, struct wt_verb_error *e)
{
	size_t i = 0, len = strlen(s);

	ws->n = 0;
	for (;;) {
		char *word;

		while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')
			i++;
		if (!s[i] || s[i] == '#')
			return 0;
		if (ws->n == WT_VERB_MAX_ARGS + 2)
			return fail(e, (unsigned)i + 1, "too many words (at most %d)",
				    WT_VERB_MAX_ARGS + 1);
		word = malloc(len + 1);
		if (!word)
			return fail(e, (unsigned)i + 1, "out of memory");
		ws->col[ws->n] = (unsigned)i + 1;
		ws->v[ws->n++] = word;
		if (scan_word(s, &i, word, e))
			return -1;
	}
}

/* ------------------------------------------------------------------ */
/* operands                                                             */

const char *wt_verb_names(void)
{
	return "mkdir, touch, ln, chmod, chown, mv, rm, rmdir, mount, umount, "
	       "shrink, proc-magic, remote-create, remote-mkdir, remote-symlink, "
	       "remote-rm, remote-mv, remote-invalidate, remote-expire, "
	       "acl-uncache, autofs-busy, remote-bad, remote-layer, proc-task";
}

/* Move word i of ws into v's operands (ownership passes). */
static void take(struct wt_verb *v, struct words *ws, unsigned i)
{
	v->col[v->argc] = ws->col[i];
	v->argv[v->argc++] = ws->v[i];
	ws->v[i] = NULL;
}

static int parse_mode(const char *s, unsigned col, umode_t *mode,
		      struct wt_verb_error *e)
{
	unsigned long m;
	char *end;

	if (!*s || strspn(s, "01234567") != strlen(s))
		return fail(e, col, "bad mode '%s' (octal digits, e.g. 755)", s);
	m = strtoul(s, &end, 8);
	if (m > 07777)
		return fail(e, col, "bad mode '%s' (at most 7777)", s);
	*mode = (umode_t)m;
	return 0;
}

static int parse_id(const char *s, const char *end, uint32_t *id)
{
	unsigned long long x = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || x > 0xffffffffull / 10)
			return -1;
		x = x * 10 + (unsigned)(*s - '0');
	}
	if (x > 0xffffffffull)
		return -1;
	*id = (uint32_t)x;
	return 0;
}

static int parse_owner(const char *s, unsigned col, struct wt_verb *v,
		       struct wt_verb_error *e)
{
	const char *colon = strchr(s, ':');

	if (!colon || parse_id(s, colon, &v->uid) ||
	    parse_id(colon + 1, colon + strlen(colon), &v->gid))
		return fail(e, col, "bad owner '%s' (UID:GID, numeric)", s);
	return 0;
}

/* Operands from word first on: exactly n (or at least n when min). */
static int operands(struct wt_verb *v, struct words *ws, unsigned first,
		    unsigned n, bool at_least, const char *usage,
		    struct wt_verb_error *e)
{
	/* "--" ends the options: an operand may then begin with '-' (a
	 * symlink's target, a name) */
	bool options = !(first < ws->n && !strcmp(ws->v[first], "--"));
	unsigned have;

	if (!options)
		first++;
	have = ws->n - first;
	for (unsigned i = first; options && i < ws->n; i++)
		if (ws->v[i][0] == '-' && ws->v[i][1])
			return fail(e, ws->col[i], "unknown option '%s': usage: %s",
				    ws->v[i], usage);
	if (have < n || (!at_least && have > n)) {
		unsigned col = have < n ? ws->col[ws->n - 1] : ws->col[first + n];

		return fail(e, col, "%s operands: usage: %s",
			    have < n ? "missing" : "too many", usage);
	}
	if (have > WT_VERB_MAX_ARGS)	/* mkdir a b c ...: v->argv's room */
		return fail(e, ws->col[first + WT_VERB_MAX_ARGS], "too many "
			    "operands (at most %d)", WT_VERB_MAX_ARGS);
	for (unsigned i = first; i < ws->n; i++)
		take(v, ws, i);
	return 0;
}

/* Operand i must be an absolute path. */
static int absolute(const struct wt_verb *v, unsigned i, struct wt_verb_error *e)
{
	if (i < v->argc && v->argv[i][0] != '/')
		return fail(e, v->col[i], "path '%s' is not absolute", v->argv[i]);
	return 0;
}

static int all_absolute(const struct wt_verb *v, unsigned from,
			struct wt_verb_error *e)
{
	for (unsigned i = from; i < v->argc; i++)
		if (absolute(v, i, e))
			return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* verbs                                                                */

static int parse_mkdir(struct wt_verb *v, struct words *ws,
		       struct wt_verb_error *e)
{
	unsigned i = 1;

	v->mode = 0755;
	for (; i < ws->n && ws->v[i][0] == '-' && ws->v[i][1]; i++) {
		const char *o = ws->v[i];

		if (!strcmp(o, "-p") || !strcmp(o, "--parents")) {
			v->flags |= WT_VERB_PARENTS;
		} else if (!strcmp(o, "-m") || !strcmp(o, "--mode")) {
			if (++i == ws->n)
				return fail(e, ws->col[i - 1], "-m needs a MODE");
			if (parse_mode(ws->v[i], ws->col[i], &v->mode, e))
				return -1;
		} else if (!strncmp(o, "--mode=", 7)) {
			if (parse_mode(o + 7, ws->col[i] + 7, &v->mode, e))
				return -1;
		} else {
			return fail(e, ws->col[i], "unknown option '%s': usage: "
				    "mkdir [-p] [-m MODE] PATH...", o);
		}
	}
	if (operands(v, ws, i, 1, true, "mkdir [-p] [-m MODE] PATH...", e))
		return -1;
	return all_absolute(v, 0, e);
}

static int parse_ln(struct wt_verb *v, struct words *ws, struct wt_verb_error *e)
{
	bool sym = ws->n > 1 && !strcmp(ws->v[1], "-s");

	v->kind = sym ? WT_V_SYMLINK : WT_V_LINK;
	if (operands(v, ws, sym ? 2 : 1, 2, false,
		     sym ? "ln -s TARGET PATH" : "ln TARGET PATH", e))
		return -1;
	return sym ? absolute(v, 1, e) : all_absolute(v, 0, e);
}

static int parse_mv(struct wt_verb *v, struct words *ws, struct wt_verb_error *e)
{
	unsigned i = 1;

	if (i < ws->n && !strcmp(ws->v[i], "--exchange")) {
		v->flags = WT_RENAME_EXCHANGE;
		i++;
	} else if (i < ws->n && !strcmp(ws->v[i], "--noreplace")) {
		v->flags = WT_RENAME_NOREPLACE;
		i++;
	}
	if (operands(v, ws, i, 2, false, "mv [--exchange|--noreplace] SRC DST", e))
		return -1;
	return all_absolute(v, 0, e);
}

/*
 * mount -o's options: the mount flags lookup and open check (ro:
 * MNT_READONLY, and for a new filesystem SB_RDONLY too; nosymfollow),
 * noatime (no link's atime is ever due on it: RCU-walk follows its
 * links without leaving for touch_atime), rw (the default), and those
 * nothing checks (noexec, nosuid, nodev:
 * exec, set-id and devices are not modelled; kept on the mount and
 * shown in its listing).  remount and bind only where remount = true
 * (mount -o remount[,bind],...): *bind says which.
 */
static int parse_mount_opts(struct wt_verb *v, struct words *ws, unsigned i,
			    bool remount, bool *bind, struct wt_verb_error *e)
{
	static const struct { const char *name; unsigned flag; } opts[] = {
		{ "ro", MNT_READONLY }, { "rw", 0 },
		{ "nosymfollow", MNT_NOSYMFOLLOW }, { "noexec", MNT_NOEXEC },
		{ "nosuid", MNT_NOSUID }, { "nodev", MNT_NODEV },
		{ "noatime", MNT_NOATIME },
	};
	const char *s = ws->v[i];

	while (*s) {
		size_t len = strcspn(s, ","), k;
		unsigned col = ws->col[i] + (unsigned)(s - ws->v[i]);

		if (remount && len == 7 && !strncmp(s, "remount", 7) &&
		    s == ws->v[i])
			goto next;
		if (remount && len == 4 && !strncmp(s, "bind", 4)) {
			*bind = true;
			goto next;
		}
		for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++)
			if (strlen(opts[k].name) == len &&
			    !strncmp(opts[k].name, s, len))
				break;
		if (k == sizeof(opts) / sizeof(opts[0]))
			return fail(e, col, "unknown mount option '%.*s' (valid:"
				    " ro, rw, nosymfollow, noexec, nosuid, nodev, noatime%s)",
				    (int)len, s, remount ? ", bind after remount" : "");
		if (opts[k].name[0] == 'r')	/* the last of ro/rw wins */
			v->flags &= ~(unsigned)MNT_READONLY;
		v->flags |= opts[k].flag;
next:
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

/* mount -o remount[,bind][,OPTS] PATH */
static int parse_remount(struct wt_verb *v, struct words *ws,
			 struct wt_verb_error *e)
{
	bool bind = false;

	v->kind = WT_V_REMOUNT;
	if (parse_mount_opts(v, ws, 2, true, &bind, e))
		return -1;
	if (bind)
		v->flags |= WT_VERB_REMOUNT_BIND;
	if (operands(v, ws, 3, 1, false, "mount -o remount[,bind][,OPTIONS] PATH", e))
		return -1;
	return absolute(v, 0, e);
}

static int parse_mount(struct wt_verb *v, struct words *ws,
		       struct wt_verb_error *e)
{
	static const char usage[] = "mount -t TYPE [-o OPTIONS] NAME PATH | mount --bind [-o OPTIONS] SRC DST | mount --rbind|--move SRC DST | mount -o remount[,bind][,OPTIONS] PATH";
	const char *o = ws->n > 1 ? ws->v[1] : "";
	unsigned first = 2;

	if (!strcmp(o, "-t")) {
		v->kind = WT_V_MOUNT;
		/* -t TYPE -o OPTIONS: the type is the first operand */
		if (ws->n > 4 && !strcmp(ws->v[3], "-o")) {
			if (parse_mount_opts(v, ws, 4, false, NULL, e))
				return -1;
			take(v, ws, 2);
			first = 5;
		}
		if (operands(v, ws, first, first == 2 ? 3 : 2, false, usage, e))
			return -1;
		if (!wt_fs_type_lookup(v->argv[0]))
			return fail(e, v->col[0], "unknown filesystem type '%s'"
				    " (valid: %s)", v->argv[0], wt_fs_type_names());
		return absolute(v, 2, e);
	}
	if (!strcmp(o, "-o") && ws->n > 2 && !strncmp(ws->v[2], "remount", 7) &&
	    (ws->v[2][7] == ',' || !ws->v[2][7]))
		return parse_remount(v, ws, e);
	if (!strcmp(o, "--bind")) {
		v->kind = WT_V_BIND;
		/* --bind -o OPTIONS: the new mount gets them (util-linux
		 * remounts it at once) */
		if (ws->n > 3 && !strcmp(ws->v[2], "-o")) {
			if (parse_mount_opts(v, ws, 3, false, NULL, e))
				return -1;
			first = 4;
		}
	} else if (!strcmp(o, "--rbind")) {
		v->kind = WT_V_RBIND;
	} else if (!strcmp(o, "--move")) {
		v->kind = WT_V_MOVE;
	} else {
		return fail(e, ws->n > 1 ? ws->col[1] : ws->col[0] + 5,
			    "%s option: usage: %s", ws->n > 1 ? "unknown" : "missing",
			    usage);
	}
	if (operands(v, ws, first, 2, false, usage, e))
		return -1;
	return all_absolute(v, 0, e);
}

static int parse_umount(struct wt_verb *v, struct words *ws,
			struct wt_verb_error *e)
{
	unsigned i = 1;

	if (i < ws->n && !strcmp(ws->v[i], "-l")) {
		v->flags = WT_UMOUNT_DETACH;
		i++;
	}
	if (operands(v, ws, i, 1, false, "umount [-l] PATH", e))
		return -1;
	return absolute(v, 0, e);
}

static int parse_attr(struct wt_verb *v, struct words *ws,
		      struct wt_verb_error *e)
{
	bool own = v->kind == WT_V_CHOWN;

	if (operands(v, ws, 1, 2, false, own ? "chown UID:GID PATH" :
		     "chmod MODE PATH", e))
		return -1;
	if (own ? parse_owner(v->argv[0], v->col[0], v, e) :
		  parse_mode(v->argv[0], v->col[0], &v->mode, e))
		return -1;
	return absolute(v, 1, e);
}

static const struct {
	const char *name;
	enum wt_remote_change change;
	unsigned n;		/* operands after FSPATH */
	bool mode;		/* an optional MODE after them */
	const char *usage;
} remote_verbs[] = {
	{ "remote-create", WT_REMOTE_CREATE, 1, true, "remote-create FSPATH PATH [MODE]" },
	{ "remote-mkdir", WT_REMOTE_MKDIR, 1, true, "remote-mkdir FSPATH PATH [MODE]" },
	{ "remote-symlink", WT_REMOTE_SYMLINK, 2, false, "remote-symlink FSPATH TARGET PATH" },
	{ "remote-rm", WT_REMOTE_UNLINK, 1, false, "remote-rm FSPATH PATH" },
	{ "remote-mv", WT_REMOTE_RENAME, 2, false, "remote-mv FSPATH FROM TO" },
	{ "remote-invalidate", WT_REMOTE_INVALIDATE, 1, false, "remote-invalidate FSPATH PATH" },
	{ "remote-expire", WT_REMOTE_EXPIRE, 0, false, "remote-expire FSPATH" },
};

static int parse_remote(struct wt_verb *v, struct words *ws, unsigned r,
			struct wt_verb_error *e)
{
	unsigned n = 1 + remote_verbs[r].n;
	bool with_mode = remote_verbs[r].mode && ws->n == n + 2;

	v->kind = WT_V_REMOTE;
	v->remote = remote_verbs[r].change;
	v->mode = v->remote == WT_REMOTE_MKDIR ? 0755 : 0644;
	if (with_mode && parse_mode(ws->v[n + 1], ws->col[n + 1], &v->mode, e))
		return -1;
	if (with_mode) {
		free(ws->v[--ws->n]);
		ws->v[ws->n] = NULL;
	}
	if (operands(v, ws, 1, n, false, remote_verbs[r].usage, e))
		return -1;
	return absolute(v, 0, e);
}

/* VERB FSPATH on|off */
static int parse_on_off(struct wt_verb *v, struct words *ws,
			struct wt_verb_error *e)
{
	const char *usage = v->kind == WT_V_AUTOFS_BUSY ?
		"autofs-busy FSPATH on|off" : "remote-layer FSPATH on|off";

	if (operands(v, ws, 1, 2, false, usage, e))
		return -1;
	if (strcmp(v->argv[1], "on") && strcmp(v->argv[1], "off"))
		return fail(e, v->col[1], "expected on or off, not '%s'",
			    v->argv[1]);
	v->busy = !strcmp(v->argv[1], "on");
	return absolute(v, 0, e);
}

/* touch [-h] PATH...: -h (--no-dereference) touches a symlink itself. */
static int parse_touch(struct wt_verb *v, struct words *ws,
		       struct wt_verb_error *e)
{
	unsigned i = 1;

	if (i < ws->n && (!strcmp(ws->v[i], "-h") ||
			  !strcmp(ws->v[i], "--no-dereference"))) {
		v->flags |= WT_VERB_NO_DEREF;
		i++;
	}
	if (operands(v, ws, i, 1, true, "touch [-h] PATH...", e))
		return -1;
	return all_absolute(v, 0, e);
}

static int parse_misc(struct wt_verb *v, struct words *ws,
		      struct wt_verb_error *e)
{
	switch (v->kind) {
	case WT_V_SHRINK:
		return operands(v, ws, 1, 0, false, "shrink", e);
	case WT_V_PROC_MAGIC:
		if (operands(v, ws, 1, 3, false, "proc-magic PROCPATH NAME TARGET", e))
			return -1;
		return absolute(v, 0, e) || absolute(v, 2, e) ? -1 : 0;
	case WT_V_ACL_UNCACHE:
		if (operands(v, ws, 1, 1, false, "acl-uncache PATH", e))
			return -1;
		return absolute(v, 0, e);
	case WT_V_AUTOFS_BUSY:
	case WT_V_REMOTE_LAYER:
		return parse_on_off(v, ws, e);
	case WT_V_REMOTE_BAD:
		if (operands(v, ws, 1, 2, false, "remote-bad FSPATH PATH", e))
			return -1;
		return absolute(v, 0, e);
	case WT_V_TOUCH:
		return parse_touch(v, ws, e);
	default:	/* rm, rmdir */
		if (operands(v, ws, 1, 1, true, v->kind == WT_V_RM ? "rm PATH..." :
			     "rmdir PATH...", e))
			return -1;
		return all_absolute(v, 0, e);
	}
}

/* A copy of s as the next operand of v, at column col. */
static int put(struct wt_verb *v, const char *s, unsigned col,
	       struct wt_verb_error *e)
{
	char *copy = strdup(s);

	if (!copy)
		return fail(e, col, "out of memory");
	v->col[v->argc] = col;
	v->argv[v->argc++] = copy;
	return 0;
}

/* --fd N=PATH: a descriptor number and an absolute path. */
static int parse_fd(const char *s, unsigned col, uint32_t *fd,
		    const char **path, struct wt_verb_error *e)
{
	const char *eq = strchr(s, '=');

	if (!eq || parse_id(s, eq, fd) || *fd > 1048575)
		return fail(e, col, "bad --fd '%s' (N=PATH, N a descriptor "
			    "number up to 1048575)", s);
	if (eq[1] != '/')
		return fail(e, col + (unsigned)(eq + 1 - s), "path '%s' is not "
			    "absolute", eq + 1);
	*path = eq + 1;
	return 0;
}

/*
 * proc-task [-u UID:GID] [--root DIR] [--cwd DIR] [--exe FILE]
 * [--fd N=PATH]... [--nondumpable] PID.  The operands, in order: PID,
 * ROOT, CWD, EXE ("" for none), then N and PATH for each --fd.
 */
static int parse_proc_task(struct wt_verb *v, struct words *ws,
			   struct wt_verb_error *e)
{
	static const char usage[] = "proc-task [-u UID:GID] [--root DIR] "
		"[--cwd DIR] [--exe FILE] [--fd N=PATH]... [--nondumpable] PID";
	static const char *const path_opts[] = { "--root", "--cwd", "--exe" };
	const char *paths[3] = { "/", "/", "" }, *fd_path[8];
	unsigned pcol[3] = { 0, 0, 0 }, fcol[8], pid_at = 0, nfd = 0;
	uint32_t pid, fds[8];

	for (unsigned i = 1; i < ws->n; i++) {
		const char *w = ws->v[i];
		bool valued = !strcmp(w, "-u") || !strcmp(w, "--fd");
		unsigned k;

		for (k = 0; k < 3 && strcmp(w, path_opts[k]); k++)
			;
		valued = valued || k < 3;
		if (valued && i + 1 >= ws->n)
			return fail(e, ws->col[i], "%s needs a value: usage: %s",
				    w, usage);
		if (!strcmp(w, "-u")) {
			i++;
			if (parse_owner(ws->v[i], ws->col[i], v, e))
				return -1;
		} else if (k < 3) {
			i++;
			if (ws->v[i][0] != '/')
				return fail(e, ws->col[i], "path '%s' is not "
					    "absolute", ws->v[i]);
			paths[k] = ws->v[i];
			pcol[k] = ws->col[i];
		} else if (!strcmp(w, "--fd")) {
			i++;
			if (nfd == 8)
				return fail(e, ws->col[i], "too many --fd (at "
					    "most 8)");
			if (parse_fd(ws->v[i], ws->col[i], &fds[nfd],
				     &fd_path[nfd], e))
				return -1;
			for (unsigned j = 0; j < nfd; j++)
				if (fds[j] == fds[nfd])
					return fail(e, ws->col[i], "fd %u given "
						    "twice", fds[nfd]);
			fcol[nfd++] = ws->col[i];
		} else if (!strcmp(w, "--nondumpable")) {
			v->flags |= WT_VERB_NONDUMPABLE;
		} else if (w[0] == '-') {
			return fail(e, ws->col[i], "unknown option '%s': usage: %s",
				    w, usage);
		} else if (pid_at) {
			return fail(e, ws->col[i], "too many operands: usage: %s",
				    usage);
		} else {
			pid_at = i;
		}
	}
	if (!pid_at)
		return fail(e, ws->col[ws->n - 1], "missing PID: usage: %s",
			    usage);
	if (parse_id(ws->v[pid_at], ws->v[pid_at] + strlen(ws->v[pid_at]),
		     &pid) || !pid)
		return fail(e, ws->col[pid_at], "bad PID '%s' (a number from 1)",
			    ws->v[pid_at]);
	if (put(v, ws->v[pid_at], ws->col[pid_at], e))
		return -1;
	for (unsigned k = 0; k < 3; k++)
		if (put(v, paths[k], pcol[k] ? pcol[k] : ws->col[0], e))
			return -1;
	for (unsigned j = 0; j < nfd; j++) {
		char num[16];

		snprintf(num, sizeof(num), "%u", fds[j]);
		if (put(v, num, fcol[j], e) || put(v, fd_path[j], fcol[j], e))
			return -1;
	}
	return 0;
}

static const struct {
	const char *name;
	enum wt_verb_kind kind;
} simple_verbs[] = {
	{ "mkdir", WT_V_MKDIR }, { "touch", WT_V_TOUCH }, { "ln", WT_V_LINK },
	{ "chmod", WT_V_CHMOD }, { "chown", WT_V_CHOWN }, { "mv", WT_V_MV },
	{ "rm", WT_V_RM }, { "rmdir", WT_V_RMDIR }, { "mount", WT_V_MOUNT },
	{ "umount", WT_V_UMOUNT }, { "shrink", WT_V_SHRINK },
	{ "proc-magic", WT_V_PROC_MAGIC }, { "acl-uncache", WT_V_ACL_UNCACHE },
	{ "autofs-busy", WT_V_AUTOFS_BUSY }, { "remote-bad", WT_V_REMOTE_BAD },
	{ "remote-layer", WT_V_REMOTE_LAYER }, { "proc-task", WT_V_PROC_TASK },
};

static int parse_words(struct wt_verb *v, struct words *ws,
		       struct wt_verb_error *e)
{
	const char *name = ws->v[0];

	for (unsigned r = 0; r < sizeof(remote_verbs) / sizeof(remote_verbs[0]); r++)
		if (!strcmp(name, remote_verbs[r].name))
			return parse_remote(v, ws, r, e);
	for (unsigned i = 0; i < sizeof(simple_verbs) / sizeof(simple_verbs[0]); i++) {
		if (strcmp(name, simple_verbs[i].name))
			continue;
		v->kind = simple_verbs[i].kind;
		switch (v->kind) {
		case WT_V_MKDIR:
			return parse_mkdir(v, ws, e);
		case WT_V_LINK:
			return parse_ln(v, ws, e);
		case WT_V_CHMOD:
		case WT_V_CHOWN:
			return parse_attr(v, ws, e);
		case WT_V_MV:
			return parse_mv(v, ws, e);
		case WT_V_MOUNT:
			return parse_mount(v, ws, e);
		case WT_V_UMOUNT:
			return parse_umount(v, ws, e);
		case WT_V_PROC_TASK:
			return parse_proc_task(v, ws, e);
		default:
			return parse_misc(v, ws, e);
		}
	}
	return fail(e, ws->col[0], "unknown command '%s' (valid: %s)", name,
		    wt_verb_names());
}

void wt_verb_free(struct wt_verb *v)
{
	for (unsigned i = 0; i < v->argc; i++)
		free(v->argv[i]);
	v->argc = 0;
}

int wt_verb_parse(const char *line, struct wt_verb *v, struct wt_verb_error *e)
{
	struct words ws = { 0 };
	int r;

	memset(v, 0, sizeof(*v));
	if (split_words(line, &ws, e)) {
		words_free(&ws);
		return -1;
	}
	if (ws.n == 0)
		return 1;
	r = parse_words(v, &ws, e);
	words_free(&ws);
	if (r)
		wt_verb_free(v);
	return r ? -1 : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Running verbs and tree files (parsing is in tree.c).
 */
#define _GNU_SOURCE	/* strerror of errno values, open_memstream */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/tree.h"

#define WT_TREE_MAX_BYTES	(16u << 20)	/* a tree file larger is a mistake */

struct wt_tree {
	char name[256];
	unsigned n;
	struct wt_verb *v;
};

static const char *const verb_names[WT_V__COUNT] = {
	[WT_V_MKDIR] = "mkdir", [WT_V_TOUCH] = "touch", [WT_V_SYMLINK] = "ln -s",
	[WT_V_LINK] = "ln", [WT_V_CHMOD] = "chmod", [WT_V_CHOWN] = "chown",
	[WT_V_MV] = "mv", [WT_V_RM] = "rm", [WT_V_RMDIR] = "rmdir",
	[WT_V_MOUNT] = "mount -t", [WT_V_BIND] = "mount --bind",
	[WT_V_RBIND] = "mount --rbind", [WT_V_MOVE] = "mount --move",
	[WT_V_UMOUNT] = "umount", [WT_V_SHRINK] = "shrink",
	[WT_V_PROC_MAGIC] = "proc-magic", [WT_V_REMOTE] = "remote",
	[WT_V_ACL_UNCACHE] = "acl-uncache", [WT_V_AUTOFS_BUSY] = "autofs-busy",
	[WT_V_REMOTE_BAD] = "remote-bad", [WT_V_REMOTE_LAYER] = "remote-layer",
	[WT_V_REMOUNT] = "mount -o remount",
	[WT_V_PROC_TASK] = "proc-task",
};

static int run_failed(const struct wt_verb *v, unsigned i, int err,
		      struct wt_verb_error *e)
{
	e->err = err;
	e->line = v->line;
	e->col = 0;
	snprintf(e->msg, sizeof(e->msg), "%s %s: %s (%s)", verb_names[v->kind],
		 i < v->argc ? v->argv[i] : "", wt_errno_name(err),
		 strerror(-err));
	return err;
}

/* Verbs with any number of path operands: one operation each. */
static int run_each(struct wt_world *w, const struct wt_verb *v,
		    struct wt_verb_error *e)
{
	for (unsigned i = 0; i < v->argc; i++) {
		const char *p = v->argv[i];
		int err;

		switch (v->kind) {
		case WT_V_MKDIR:
			err = wt_op_mkdir(w, p, v->mode, v->flags & WT_VERB_PARENTS);
			break;
		case WT_V_TOUCH:
			err = v->flags & WT_VERB_NO_DEREF ?
			      wt_op_touch_nofollow(w, p) : wt_op_create(w, p, 0644);
			break;
		case WT_V_RM:
			err = wt_op_unlink(w, p);
			break;
		default:
			err = wt_op_rmdir(w, p);
			break;
		}
		if (err)
			return run_failed(v, i, err, e);
	}
	return 0;
}

/*
 * proc-task: argv holds PID, ROOT, CWD, EXE ("" for none), then N and
 * PATH for each --fd (tree.c's parse_proc_task).  *bad: the operand a
 * failure is about.
 */
static int run_proc_task(struct wt_world *w, const struct wt_verb *v,
			 unsigned *bad)
{
	struct wt_process p = {
		.pid = (uint32_t)strtoul(v->argv[0], NULL, 10),
		.uid = v->uid, .gid = v->gid,
		.nondumpable = v->flags & WT_VERB_NONDUMPABLE,
		.root = v->argv[1], .cwd = v->argv[2],
		.exe = v->argv[3][0] ? v->argv[3] : NULL,
		.nfds = (v->argc - 4) / 2,
	};
	unsigned what;
	int err;

	for (unsigned k = 0; k < p.nfds; k++) {
		p.fds[k].fd = (unsigned)strtoul(v->argv[4 + 2 * k], NULL, 10);
		p.fds[k].path = v->argv[5 + 2 * k];
	}
	err = wt_op_process(w, &p, &what);
	*bad = what < 4 ? what : 5 + 2 * (what - 4);
	return err;
}

static int run_one(struct wt_world *w, const struct wt_verb *v, unsigned *bad)
{
	char *const *a = v->argv;

	switch (v->kind) {
	case WT_V_SYMLINK:
		return wt_op_symlink(w, a[0], a[1]);
	case WT_V_LINK:
		return wt_op_link(w, a[0], a[1]);
	case WT_V_CHMOD:
		return wt_op_chmod(w, a[1], v->mode);
	case WT_V_CHOWN:
		return wt_op_chown(w, a[1], v->uid, v->gid);
	case WT_V_MV:
		return wt_op_rename(w, a[0], a[1], v->flags);
	case WT_V_MOUNT:
		return wt_op_mount_flags(w, a[0], a[1], a[2], (int)v->flags);
	case WT_V_BIND:
	case WT_V_RBIND:
		return wt_op_bind_flags(w, a[0], a[1], v->kind == WT_V_RBIND,
					(int)v->flags);
	case WT_V_REMOUNT:
		return wt_op_remount(w, a[0], v->flags & WT_VERB_REMOUNT_BIND,
				     (int)(v->flags & ~WT_VERB_REMOUNT_BIND));
	case WT_V_MOVE:
		return wt_op_move_mount(w, a[0], a[1]);
	case WT_V_UMOUNT:
		return wt_op_umount(w, a[0], v->flags);
	case WT_V_SHRINK: {
		int n = wt_op_shrink(w);

		return n < 0 ? n : 0;
	}
	case WT_V_PROC_MAGIC:
		return wt_op_proc_magic(w, a[0], a[1], a[2]);
	case WT_V_PROC_TASK:
		return run_proc_task(w, v, bad);
	case WT_V_REMOTE:
		if (v->remote == WT_REMOTE_SYMLINK)	/* TARGET PATH, as ln -s */
			return wt_op_remote(w, v->remote, a[0], a[2], a[1], 0);
		return wt_op_remote(w, v->remote, a[0], v->argc > 1 ? a[1] : NULL,
				    v->argc > 2 ? a[2] : NULL, v->mode);
	case WT_V_ACL_UNCACHE:
		return wt_op_acl_uncache(w, a[0]);
	case WT_V_AUTOFS_BUSY:
		return wt_op_autofs_busy(w, a[0], v->busy);
	case WT_V_REMOTE_BAD:
		return wt_op_remote_bad(w, a[0], a[1]);
	case WT_V_REMOTE_LAYER:
		return wt_op_remote_layer(w, a[0], v->busy);
	default:
		return -EINVAL;
	}
}

int wt_verb_run(struct wt_world *w, const struct wt_verb *v,
		struct wt_verb_error *e)
{
	unsigned bad;
	int err;

	switch (v->kind) {
	case WT_V_MKDIR:
	case WT_V_TOUCH:
	case WT_V_RM:
	case WT_V_RMDIR:
		return run_each(w, v, e);
	default:
		bad = v->kind == WT_V_MOUNT ? 2 :
		      v->kind == WT_V_CHMOD || v->kind == WT_V_CHOWN ||
		      v->kind == WT_V_SYMLINK ? 1 : 0;
		err = run_one(w, v, &bad);
		if (err)
			return run_failed(v, bad, err, e);
		return 0;
	}
}

int wt_verb_exec(struct wt_world *w, const char *line, struct wt_verb_error *e)
{
	struct wt_verb v;
	int r;

	memset(e, 0, sizeof(*e));
	r = wt_verb_parse(line, &v, e);
	if (r)
		return r < 0 ? -1 : 0;
	r = wt_verb_run(w, &v, e);
	wt_verb_free(&v);
	return r;
}

void wt_verb_error_print(const struct wt_verb_error *e, FILE *f)
{
	if (e->file[0])
		fprintf(f, "%s:", e->file);
	if (e->line)
		fprintf(f, "%u:", e->line);
	if (e->line && e->col)
		fprintf(f, "%u:", e->col);
	fprintf(f, "%s%s\n", e->file[0] || e->line ? " " : "", e->msg);
}

/* ------------------------------------------------------------------ */
/* tree files                                                           */

void wt_tree_free(struct wt_tree *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < t->n; i++)
		wt_verb_free(&t->v[i]);
	free(t->v);
	free(t);
}

unsigned wt_tree_count(const struct wt_tree *t)
{
	return t->n;
}

static int tree_add(struct wt_tree *t, const struct wt_verb *v)
{
	struct wt_verb *nv = realloc(t->v, (t->n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	t->v = nv;
	t->v[t->n++] = *v;
	return 0;
}

static void error_at(struct wt_verb_error *e, const char *name, unsigned line)
{
	snprintf(e->file, sizeof(e->file), "%s", name ? name : "");
	e->line = line;
}

/* One line (NUL-terminated copy) into t: 0, or -1 with *e. */
static int parse_line(struct wt_tree *t, const char *line, unsigned lineno,
		      struct wt_verb_error *e)
{
	struct wt_verb v;
	int r = wt_verb_parse(line, &v, e);

	if (r < 0) {
		error_at(e, t->name, lineno);
		return -1;
	}
	if (r > 0)
		return 0;
	v.line = lineno;
	if (tree_add(t, &v)) {
		wt_verb_free(&v);
		error_at(e, t->name, lineno);
		snprintf(e->msg, sizeof(e->msg), "out of memory");
		return -1;
	}
	return 0;
}

int wt_tree_parse(const char *text, const char *name, struct wt_tree **out,
		  struct wt_verb_error *e)
{
	struct wt_tree *t = calloc(1, sizeof(*t));
	const char *s = text;
	unsigned lineno = 0;

	memset(e, 0, sizeof(*e));
	*out = NULL;
	if (!t)
		return -1;
	snprintf(t->name, sizeof(t->name), "%s", name ? name : "");
	while (*s) {	/* bounded by the text */
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *line = strndup(s, len);
		int r;

		lineno++;
		r = line ? parse_line(t, line, lineno, e) : -1;
		free(line);
		if (r) {
			wt_tree_free(t);
			return -1;
		}
		s += len + (nl ? 1 : 0);
	}
	*out = t;
	return 0;
}

static char *read_file(const char *path, struct wt_verb_error *e)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int rd_errno;

	if (!f) {
		snprintf(e->msg, sizeof(e->msg), "cannot open: %s", strerror(errno));
		return NULL;
	}
	buf = malloc(WT_TREE_MAX_BYTES + 1);
	n = buf ? fread(buf, 1, WT_TREE_MAX_BYTES + 1, f) : 0;
	/* a directory opens but does not read (EISDIR): not an empty tree */
	rd_errno = ferror(f) ? errno : 0;
	fclose(f);
	if (!buf || rd_errno || n > WT_TREE_MAX_BYTES || memchr(buf, '\0', n)) {
		if (!buf)
			snprintf(e->msg, sizeof(e->msg), "out of memory");
		else if (rd_errno)
			snprintf(e->msg, sizeof(e->msg), "cannot read: %s",
				 strerror(rd_errno));
		else
			snprintf(e->msg, sizeof(e->msg), "%s",
				 n > WT_TREE_MAX_BYTES ? "file too large" :
				 "not a text file (NUL byte)");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int wt_tree_parse_file(const char *path, struct wt_tree **out,
		       struct wt_verb_error *e)
{
	char *text;
	int r;

	memset(e, 0, sizeof(*e));
	*out = NULL;
	text = read_file(path, e);
	if (!text) {
		error_at(e, path, 0);
		return -1;
	}
	r = wt_tree_parse(text, path, out, e);
	free(text);
	return r;
}

int wt_tree_run(struct wt_world *w, const struct wt_tree *t,
		struct wt_verb_error *e)
{
	memset(e, 0, sizeof(*e));
	for (unsigned i = 0; i < t->n; i++) {
		int err = wt_verb_run(w, &t->v[i], e);

		if (err) {
			error_at(e, t->name, t->v[i].line);
			return err;
		}
	}
	return 0;
}

int wt_tree_build_string(struct wt_world *w, const char *text, const char *name,
			 struct wt_verb_error *e)
{
	struct wt_tree *t;
	int r = wt_tree_parse(text, name, &t, e);

	if (r)
		return r;
	r = wt_tree_run(w, t, e);
	wt_tree_free(t);
	return r;
}

int wt_tree_build_file(struct wt_world *w, const char *path,
		       struct wt_verb_error *e)
{
	struct wt_tree *t;
	int r = wt_tree_parse_file(path, &t, e);

	if (r)
		return r;
	r = wt_tree_run(w, t, e);
	wt_tree_free(t);
	return r;
}

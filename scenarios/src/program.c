/* SPDX-License-Identifier: MIT */
/*
 * Program items: a walk (an entry point, a path, flags) or a writer verb
 * (anything sim/tree's verb parser accepts).  A walk is recognised by its
 * first word; everything else goes to the verb parser, so the two
 * vocabularies must stay disjoint (they are: the walk words are not shell
 * verbs).
 *
 *	stat PATH [at=DIR] [resolve=FLAGS]
 *	lstat PATH [at=DIR] [resolve=FLAGS]
 *	open PATH [at=DIR] [O_CREAT] [O_EXCL] [O_NOFOLLOW] [O_DIRECTORY]
 *		  [O_RDONLY|O_WRONLY|O_RDWR] [O_TRUNC] [O_PATH] [mode=OCTAL]
 *	openat2 PATH [at=DIR] [O_...] [mode=OCTAL] [resolve=FLAGS]
 *	parentat PATH [at=DIR]
 *	mountpoint PATH [at=DIR]
 *	open_root ROOT PATH [O_...] [mode=OCTAL]
 *
 * FLAGS is openat2's: no-symlinks,no-magiclinks,no-xdev,beneath,in-root,
 * cached.  at=DIR and open_root's ROOT are resolved when the iteration's
 * world is built, before any thread runs, and held like an open dirfd.
 */
#define _GNU_SOURCE	/* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "core/namei.h"
#include "scenarios/src/scenario.h"

static const char *const entry_names[] = {
	[WT_WALK_STAT] = "stat", [WT_WALK_LSTAT] = "lstat",
	[WT_WALK_OPEN] = "open", [WT_WALK_OPENAT2] = "openat2",
	[WT_WALK_PARENTAT] = "parentat", [WT_WALK_MOUNTPOINT] = "mountpoint",
	[WT_WALK_OPEN_ROOT] = "open_root",
};

const char *wt_walk_entry_name(enum wt_walk_entry e)
{
	return (unsigned)e < WT_WALK__COUNT ? entry_names[e] : "?";
}

static const struct {
	const char *name;
	uint64_t bits;
	bool access;	/* one of the O_ACCMODE values */
} open_flag_names[] = {
	{ "O_RDONLY", O_RDONLY, true }, { "O_WRONLY", O_WRONLY, true },
	{ "O_RDWR", O_RDWR, true }, { "O_CREAT", O_CREAT, false },
	{ "O_EXCL", O_EXCL, false }, { "O_NOFOLLOW", O_NOFOLLOW, false },
	{ "O_DIRECTORY", O_DIRECTORY, false }, { "O_TRUNC", O_TRUNC, false },
	{ "O_PATH", O_PATH, false },
};

#define N_OPEN_FLAGS (sizeof(open_flag_names) / sizeof(open_flag_names[0]))

struct word {
	size_t off;
	size_t len;
};

/* Split on blanks; no quoting (paths in scenarios have no blanks). */
static unsigned split(const char *s, struct word *w, unsigned max)
{
	unsigned n = 0;
	size_t i = 0;

	while (s[i] && n < max) {
		while (s[i] == ' ' || s[i] == '\t')
			i++;
		if (!s[i])
			break;
		w[n].off = i;
		while (s[i] && s[i] != ' ' && s[i] != '\t')
			i++;
		w[n].len = i - w[n].off;
		n++;
	}
	return n;
}

static bool word_is(const char *s, const struct word *w, const char *lit)
{
	return strlen(lit) == w->len && !strncmp(s + w->off, lit, w->len);
}

static bool word_has_prefix(const char *s, const struct word *w,
			    const char *pre)
{
	size_t n = strlen(pre);

	return w->len > n && !strncmp(s + w->off, pre, n);
}

static int perr(size_t *col_off, char *msg, size_t msglen, size_t off,
		const char *text)
{
	*col_off = off;
	snprintf(msg, msglen, "%s", text);
	return -1;
}

int wt_open_flag_parse(const char *name, size_t len, uint64_t *flags,
		       bool *acc_set)
{
	for (size_t i = 0; i < N_OPEN_FLAGS; i++) {
		if (strlen(open_flag_names[i].name) != len ||
		    strncmp(open_flag_names[i].name, name, len))
			continue;
		if (open_flag_names[i].access) {
			if (*acc_set)
				return -1;
			*acc_set = true;
		}
		*flags |= open_flag_names[i].bits;
		return 0;
	}
	return -1;
}

static int open_flag(const char *s, const struct word *w, uint64_t *flags,
		     bool *acc_set)
{
	return wt_open_flag_parse(s + w->off, w->len, flags, acc_set);
}

static void flags_text(struct wt_scn_walk *wk)
{
	size_t len = 0, sz = sizeof(wk->flags_text);
	char *b = wk->flags_text;

	b[0] = '\0';
	for (size_t i = 0; i < N_OPEN_FLAGS && len < sz; i++)
		if (!open_flag_names[i].access && open_flag_names[i].bits &&
		    (wk->open_flags & open_flag_names[i].bits) ==
		     open_flag_names[i].bits)
			len += (size_t)snprintf(b + len, sz - len, "%s%s",
						len ? "|" : "",
						open_flag_names[i].name);
	if ((wk->open_flags & O_ACCMODE) == O_WRONLY && len < sz)
		len += (size_t)snprintf(b + len, sz - len, "%sO_WRONLY",
					len ? "|" : "");
	if ((wk->open_flags & O_ACCMODE) == O_RDWR && len < sz)
		len += (size_t)snprintf(b + len, sz - len, "%sO_RDWR",
					len ? "|" : "");
	if (wk->resolve && len < sz)
		len += (size_t)snprintf(b + len, sz - len, "%sresolve=%#llx",
					len ? " " : "",
					(unsigned long long)wk->resolve);
	if (wk->dir && len < sz)
		snprintf(b + len, sz - len, "%sat=%s", len ? " " : "", wk->dir);
}

/* Options after the path: at=, resolve=, mode=, O_*. */
static int walk_option(const char *s, const struct word *w,
		       struct wt_scn_walk *wk, bool *acc_set, size_t *col_off,
		       char *msg, size_t msglen)
{
	bool opens = wk->entry == WT_WALK_OPEN ||
		     wk->entry == WT_WALK_OPENAT2 ||
		     wk->entry == WT_WALK_OPEN_ROOT;
	char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)w->len, s + w->off);
	if (word_has_prefix(s, w, "at=") && wk->entry != WT_WALK_OPEN_ROOT) {
		if (buf[3] != '/')
			return perr(col_off, msg, msglen, w->off + 3,
				    "at=DIR must be an absolute path");
		free(wk->dir);
		wk->dir = strdup(buf + 3);
		return 0;
	}
	if (word_has_prefix(s, w, "resolve=") &&
	    wk->entry != WT_WALK_OPEN && wk->entry != WT_WALK_PARENTAT &&
	    wk->entry != WT_WALK_MOUNTPOINT) {
		const char *bad = NULL;

		if (wt_resolve_parse(buf + 8, &wk->resolve, &bad)) {
			snprintf(msg, msglen, "unknown resolve flag '%s' (valid: "
				 "no-symlinks, no-magiclinks, no-xdev, beneath, "
				 "in-root, cached)", bad ? bad : buf + 8);
			*col_off = w->off + 8 + (bad ? (size_t)(bad - (buf + 8)) : 0);
			return -1;
		}
		return 0;
	}
	if (opens && word_has_prefix(s, w, "mode=")) {
		char *end;

		wk->mode = strtoull(buf + 5, &end, 8);
		if (*end || wk->mode > 07777)
			return perr(col_off, msg, msglen, w->off + 5,
				    "mode= must be octal, at most 07777");
		return 0;
	}
	if (opens && !open_flag(s, w, &wk->open_flags, acc_set))
		return 0;
	snprintf(msg, msglen, "unknown %s option '%s'",
		 wt_walk_entry_name(wk->entry), buf);
	*col_off = w->off;
	return -1;
}

static int walk_parse(const char *s, const struct word *w, unsigned n,
		      struct wt_scn_walk *wk, size_t *col_off, char *msg,
		      size_t msglen)
{
	unsigned first = 1;
	bool acc_set = false;

	if (wk->entry == WT_WALK_OPEN_ROOT) {
		if (n < 3)
			return perr(col_off, msg, msglen, s[w[0].len] ?
				    w[0].off + w[0].len + 1 : w[0].len,
				    "open_root needs ROOT and PATH");
		wk->dir = strndup(s + w[1].off, w[1].len);
		if (wk->dir[0] != '/')
			return perr(col_off, msg, msglen, w[1].off,
				    "open_root's ROOT must be absolute");
		first = 2;
	}
	if (n <= first)
		return perr(col_off, msg, msglen, w[0].off + w[0].len,
			    "a walk needs a path");
	wk->path = strndup(s + w[first].off, w[first].len);
	wk->mode = UINT64_MAX;	/* unset */
	for (unsigned i = first + 1; i < n; i++)
		if (walk_option(s, &w[i], wk, &acc_set, col_off, msg, msglen))
			return -1;
	/* openat2 wants no mode without O_CREAT; 0644 is the creat default */
	if (wk->mode == UINT64_MAX)
		wk->mode = (wk->open_flags & O_CREAT) ? 0644 : 0;
	if ((wk->open_flags & O_EXCL) && !(wk->open_flags & O_CREAT))
		return perr(col_off, msg, msglen, w[0].off,
			    "O_EXCL without O_CREAT means nothing here");
	flags_text(wk);
	return 0;
}

/* harness-fault crash|hang|sanitizer [one-in N] (scenario.h) */
static int fault_parse(const char *text, const struct word *w, unsigned n,
		       struct wt_scn_op *op, size_t *col_off, char *msg,
		       size_t msglen)
{
	char num[24], *end;

	op->kind = WT_SCN_OP_FAULT;
	op->fault_one_in = 1;
	if (n < 2 || (!word_is(text, &w[1], "crash") &&
		      !word_is(text, &w[1], "hang") &&
		      !word_is(text, &w[1], "sanitizer")))
		return perr(col_off, msg, msglen, n < 2 ? w[0].off : w[1].off,
			    "usage: harness-fault crash|hang|sanitizer [one-in N]");
	op->fault = word_is(text, &w[1], "crash") ? WT_SCN_FAULT_CRASH :
		    word_is(text, &w[1], "hang") ? WT_SCN_FAULT_HANG :
						   WT_SCN_FAULT_SANITIZER;
	if (n == 2)
		return 0;
	if (n != 4 || !word_is(text, &w[2], "one-in"))
		return perr(col_off, msg, msglen, w[2].off,
			    "usage: harness-fault crash|hang|sanitizer [one-in N]");
	if (w[3].len >= sizeof(num) || text[w[3].off] < '0' ||
	    text[w[3].off] > '9')
		return perr(col_off, msg, msglen, w[3].off, "bad N");
	memcpy(num, text + w[3].off, w[3].len);
	num[w[3].len] = '\0';
	errno = 0;
	op->fault_one_in = strtoull(num, &end, 10);
	if (*end || errno || !op->fault_one_in)
		return perr(col_off, msg, msglen, w[3].off, "bad N (>= 1)");
	return 0;
}

int wt_scn_op_parse(const char *text, struct wt_scn_op *op, size_t *col_off,
		    char *msg, size_t msglen)
{
	struct word w[32];
	unsigned n = split(text, w, 32);

	op->text = strdup(text);
	if (n == 0)
		return perr(col_off, msg, msglen, 0, "empty program item");
	if (n == 32)
		return perr(col_off, msg, msglen, w[31].off, "too many words");
	if (word_is(text, &w[0], "harness-fault"))
		return fault_parse(text, w, n, op, col_off, msg, msglen);
	for (unsigned e = 0; e < WT_WALK__COUNT; e++) {
		if (!word_is(text, &w[0], entry_names[e]))
			continue;
		op->kind = WT_SCN_OP_WALK;
		op->walk.entry = e;
		return walk_parse(text, w, n, &op->walk, col_off, msg, msglen);
	}
	op->kind = WT_SCN_OP_VERB;
	return wt_scn_verb_parse(text, &op->verb, col_off, msg, msglen);
}

void wt_scn_op_free(struct wt_scn_op *op)
{
	free(op->text);
	free(op->walk.path);
	free(op->walk.dir);
	if (op->verb)
		wt_scn_verb_free(op->verb);
	memset(op, 0, sizeof(*op));
}

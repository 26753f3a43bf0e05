/* SPDX-License-Identifier: MIT */
/*
 * The oracle and a remote filesystem's server: what the server held at
 * each instant, replayed from the server lines its super_block facts
 * carry (sim/history.h, the format in sim/fs/remote.h), and whether a
 * correct client could have answered "absent" by the rules of the model
 * (sim/fs/remote.c) -- see oracle.h, "Remote filesystems".
 *
 * Why the replay is enough.  A client answers "absent" for NAME in a
 * directory only (a) from ->lookup or a revalidation that asked the
 * server, which lacked the name then -- in the directory's node, by
 * handle: under LOOKUP_REVAL a negative dentry is dropped unasked -- or
 * (b) from a cached negative dentry trusted without asking, which needs no
 * server change since it was validated (every change of the server moves
 * its epoch and expires the whole cache).  That dentry stays negative until
 * the client itself makes the name (a create, a link or a rename into it
 * instantiates or drops it), so while no server change and no client
 * change that gave the server the name happened since an instant the
 * server lacked it, (b) holds; otherwise it does not.  Two client
 * directories may name one server node (after a remote-mv or a
 * remote-invalidate, the old one still held, the new one looked up): a
 * create through one does not touch the other's negative dentry, but it
 * moves the epoch then (client_changed in sim/fs/remote.c), which is a
 * server change as far as the cache goes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/oracle_internal.h"
#include "sim/idmap.h"

struct rnode {
	uint64_t handle;
	uint64_t parent;	/* 0: the root */
	const char *name;	/* into the fact's text (not terminated) */
	size_t len;
	bool live;
};

struct replay {
	struct rnode *n;
	size_t nn, cap;
	struct wt_idmap idx;	/* handle -> index + 1 */
	uint64_t root;		/* the root's handle, 0 until seen */
};

static struct rnode *rnode_get(struct replay *r, uint64_t handle)
{
	uintptr_t i = (uintptr_t)wt_idmap_get(&r->idx, handle);

	if (i)
		return &r->n[i - 1];
	if (r->nn == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->n = realloc(r->n, r->cap * sizeof(*r->n));
		if (!r->n)
			abort();
	}
	r->n[r->nn] = (struct rnode){ .handle = handle };
	wt_idmap_put(&r->idx, handle, (void *)(uintptr_t)(r->nn + 1));
	return &r->n[r->nn++];
}

static void replay_reset(struct replay *r)
{
	wt_idmap_free(&r->idx);
	wt_idmap_init(&r->idx);
	r->nn = 0;
	r->root = 0;
}

/*
 * Apply one fact's server lines up to the next "|" (an instant between
 * two steps' changes, sim/fs/remote.h) or their end; *next: past that
 * "|", or NULL at the end.  False if they are malformed.
 */
static bool replay_apply(struct replay *r, const char *p, const char **next)
{
	*next = NULL;
	while (p && *p) {
		char kind = *p++, *e;
		unsigned long long h, parent, len;
		struct rnode *n;

		if (kind == '|') {
			if (*p++ != '\n')
				return false;
			*next = p;
			return true;
		} else if (kind == '=') {
			replay_reset(r);
		} else if (kind == '-') {
			h = strtoull(p, &e, 10);
			p = e;
			rnode_get(r, h)->live = false;
		} else if (kind == '+') {
			h = strtoull(p, &e, 10);
			parent = strtoull(e, &e, 10);
			len = strtoull(e, &e, 10);
			if (*e != ' ' || strnlen(e + 1, len) < len)
				return false;
			n = rnode_get(r, h);
			n->parent = parent;
			n->name = e + 1;
			n->len = len;
			n->live = true;
			if (!parent)
				r->root = h;
			p = e + 1 + len;
		} else {
			return false;
		}
		if (*p++ != '\n')
			return false;
	}
	return true;
}

/* The live child of node dir named name[0..len), or NULL. */
static const struct rnode *rchild(const struct replay *r, uint64_t dir,
				  const char *name, size_t len)
{
	for (size_t i = 0; i < r->nn; i++) {
		const struct rnode *n = &r->n[i];

		if (n->live && n->parent == dir && n->len == len &&
		    !memcmp(n->name, name, len))
			return n;
	}
	return NULL;
}

static bool rlive(struct replay *r, uint64_t handle)
{
	uintptr_t i = (uintptr_t)wt_idmap_get(&r->idx, handle);

	return i && r->n[i - 1].live;
}

/*
 * The path of directory dentry dir from its filesystem's root in the
 * namespace at t ("" for the root, "a/b" below it), or false when some
 * dentry on the way is unknown or unhashed.
 */
static bool client_path(const struct oj *j, uint64_t dir, uint64_t fsroot,
			char *buf, size_t size)
{
	const struct wt_dentry_fact *names[64];
	unsigned n = 0;
	size_t len = 0;

	while (dir != fsroot) {
		const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, dir);

		if (!d || !(d->flags & WT_DF_HASHED) || d->parent == d->id ||
		    n == sizeof(names) / sizeof(names[0]))
			return false;
		names[n++] = d;
		dir = d->parent;
	}
	buf[0] = '\0';
	while (n--) {
		int k = snprintf(buf + len, size - len, "%s%s", len ? "/" : "",
				 names[n]->name);

		if (k < 0 || (size_t)k >= size - len)
			return false;
		len += (size_t)k;
	}
	return true;
}

/* The server lines of entry e about super_block sb, or NULL. */
static const struct wt_super_fact *entry_super(const struct wt_hist_entry *e,
					       uint64_t sb)
{
	for (uint32_t i = 0; i < e->nfacts; i++)
		if (e->facts[i].kind == WT_FACT_SUPER && e->facts[i].s.id == sb)
			return &e->facts[i].s;
	return NULL;
}

/* Does the server lack name in node dir (by handle: ->lookup asks so,
 * and a LOOKUP_REVAL revalidation of a negative dentry asks nothing)? */
static bool server_lacks(struct replay *r, uint64_t dir, const char *name,
			 size_t len)
{
	return !rlive(r, dir) || !rchild(r, dir, name, len);
}

/* Could a client answer "absent" for one name, instant by instant? */
struct lack {
	bool may;	/* the server lacks it, or a trusted negative may */
	bool lacked;	/* the server lacked it at the instant before */
	uint64_t held;	/* since when the server holds it */
	uint64_t changed;	/* the last server change */
};

/*
 * The next instant of entry v: lacks says whether the server lacks the
 * name there; op is the step whose change brought it (NULL: another
 * step's, whose lines an earlier entry took, sim/fs/remote.h).
 */
static void lack_next(struct lack *l, bool lacks, const char *op, uint64_t v)
{
	/* the server API's steps log the super_block only when they
	 * changed the server (sim/ops.c wt_op_remote) */
	bool server_change = op && !strncmp(op, "remote-", 7);

	if (server_change) {
		l->may = false;	/* every cached dentry expired */
		l->changed = v;
	}
	if (lacks)
		l->may = true;
	else if (l->lacked && !server_change)
		l->may = false;	/* the client made it: no negative left */
	if (!lacks && (l->lacked || server_change))
		l->held = v;
	l->lacked = lacks;
}

bool oj_server_may_lack(struct oj *j, const struct wt_step *s,
			const char *name, size_t len)
{
	const struct wt_history *h = j->o->h;
	const struct wt_dentry_fact *dir = wt_ns_dentry(j->ns, s->from.dentry);
	const struct wt_inode_fact *ino = wt_ns_inode(j->ns, s->from.inode);
	const struct wt_super_fact *sb;
	struct replay r = { 0 };
	char path[PATH_MAX_LEN], since[48];
	uint64_t first = wt_history_first(h);
	bool complete = first == 0, seen = false, inside = false;
	struct lack l = { .lacked = true };

	if (!dir || !ino || !ino->handle)
		return true;	/* the directory's server node is not known */
	sb = wt_ns_super(j->ns, dir->sb);
	if (!sb)
		return true;
	/* A truncated log: what trust the client had is not known. */
	l.may = first > 0;
	wt_idmap_init(&r.idx);
	for (uint64_t v = first; v <= j->t; v++) {	/* positions of j->ns */
		const struct wt_hist_entry *e =
			wt_history_entry(h, wt_ns_entry_version(j->ns, v));
		const struct wt_super_fact *f = e ? entry_super(e, sb->id) : NULL;
		const char *p, *next;

		if (!f)
			continue;
		if (f->server && f->server[0] == '=')
			complete = true;
		/* each instant the entry's lines pass: between two steps'
		 * changes, then after the entry's own step */
		for (p = f->server; ; p = next) {
			if (!replay_apply(&r, p, &next)) {
				complete = false;
				goto out;
			}
			if (r.root) {	/* else nothing of this server known yet */
				seen = true;
				lack_next(&l, server_lacks(&r, ino->handle,
							   name, len),
					  next ? NULL : e->op, v);
			}
			/* an instant inside the judged entry, which the walk
			 * may have met: it began before the entry's commit */
			if (next && v == j->t && v > j->start)
				inside |= l.may;
			if (!next)
				break;
		}
	}
out:
	wt_idmap_free(&r.idx);
	free(r.n);
	if (!complete || !seen || l.may || inside)
		return true;
	if (l.changed)
		snprintf(since, sizeof(since), "the last server change (v%llu)",
			 (unsigned long long)l.changed);
	else
		snprintf(since, sizeof(since), "the mount");
	/* the path only names the directory: unhashed, it has none */
	if (!client_path(j, dir->id, sb->root, path, sizeof(path)))
		snprintf(path, sizeof(path), "?");
	oj_why(j, "the server holds '%.*s' in '/%s' (node %llu) from v%llu on, "
	       "and no negative dentry is trusted past %s: no lookup or "
	       "revalidation answers absent", (int)len, name, path,
	       (unsigned long long)ino->handle, (unsigned long long)l.held,
	       since);
	return false;
}

/*
 * Did the server hold name[0..len) in directory dir at some instant of
 * [j->t, j->end]?  ->create asks in the directory's node by its handle,
 * as ->lookup does, and a directory's inode keeps its node (a LOOKUP_REVAL
 * walk refreshes only the root's generation).  True also when the
 * oracle cannot tell (the node, its super_block or the server's tree not
 * known, a truncated log); false says why in j->why.
 */
bool oj_server_may_hold(struct oj *j, const struct wt_ident *dir,
			const char *name, size_t len)
{
	const struct wt_history *h = j->o->h;
	const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, dir->dentry);
	const struct wt_inode_fact *ino = wt_ns_inode(j->ns, dir->inode);
	const struct wt_super_fact *sb = d ? wt_ns_super(j->ns, d->sb) : NULL;
	uint64_t first = wt_history_first(h), from = j->t;
	bool complete = first == 0, held = false, seen = false;
	struct replay r = { 0 };

	if (!ino || !ino->handle || !sb)
		return true;	/* the directory's server node is not known */
	wt_idmap_init(&r.idx);
	for (uint64_t v = first; v <= j->end && !held; v++) {
		const struct wt_hist_entry *e =
			wt_history_entry(h, wt_ns_entry_version(j->ns, v));
		const struct wt_super_fact *f = e ? entry_super(e, sb->id) : NULL;
		const char *p, *next;

		if (f && f->server && f->server[0] == '=')
			complete = true;
		for (p = f ? f->server : NULL; !held; p = next) {
			if (!replay_apply(&r, p, &next)) {
				complete = false;
				goto out;
			}
			/* before the instant (an instant inside entry from
			 * came before its commit), or nothing known */
			if (v >= from && (v > from || !next) && r.root) {
				seen = true;
				held = rlive(&r, ino->handle) &&
				       rchild(&r, ino->handle, name, len);
			}
			if (!next)
				break;
		}
	}
out:
	wt_idmap_free(&r.idx);
	free(r.n);
	if (!complete || !seen || held)
		return true;
	oj_why(j, "the server lacks '%.*s' in node %llu from v%llu to v%llu",
	       (int)len, name, (unsigned long long)ino->handle,
	       (unsigned long long)from, (unsigned long long)j->end);
	return false;
}

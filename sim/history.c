/* SPDX-License-Identifier: MIT */
/*
 * The history log: reservation and ordered publication of steps, fact
 * capture from live objects, checkpoints.  See sim/history.h.
 */
#define _GNU_SOURCE	/* asprintf, vasprintf, open_memstream */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/fs/proc.h"
#include "sim/fs/remote.h"
#include "sim/history_internal.h"
#include "sim/ns.h"
#include "sim/sched/sched.h"
#include "sim/vfs/world.h"
#include "sim/zalloc.h"

/* Objects a step named, captured at commit. */
struct rec_obj {
	enum wt_fact_kind kind;
	void *obj;
};

/* A growing fact array with the live object behind each fact. */
struct fact_buf {
	struct wt_fact *facts;
	void **objs;
	uint32_t n;
	uint32_t cap;
};

struct wt_hist_rec {
	struct wt_history *h;
	uint64_t version;
	uint64_t outer;		/* its thread's hist_version before it */
	uint64_t begun_after;	/* the entry's (history.h) */
	uint32_t open;		/* 1 + its slot in h->open, 0: not there */
	const char *op;
	const char *step;
	char *args;		/* the entry's once the commit made it */
	struct rec_obj *objs;
	uint32_t nobjs;
	uint32_t cap;
	/* The facts the commit builds: the record's, not the commit's
	 * frame's, so that a run abandoned in mid-commit (a halt at one of
	 * its points) leaves them to open_free, not to nobody. */
	struct fact_buf b;
};

/* Harness bookkeeping: allocation failure has no recovery path. */
static char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		abort();
	return p;
}

/* ------------------------------------------------------------------ */
/* known table: which ids have been logged, and each mount's order      */

/* Encoded so the value is never NULL: order << 2 | attached << 1 | 1. */
static void *known_val(uint64_t order, bool attached)
{
	return (void *)(uintptr_t)((order << 2) | ((uint64_t)attached << 1) | 1);
}

static uint64_t known_order(const void *v)
{
	return (uint64_t)(uintptr_t)v >> 2;
}

static bool known_attached(const void *v)
{
	return ((uintptr_t)v >> 1) & 1;
}

/* ------------------------------------------------------------------ */
/* fact capture                                                         */

static struct wt_fact *fb_push(struct fact_buf *b, enum wt_fact_kind kind,
			       void *obj)
{
	struct wt_fact *f;

	if (b->n == b->cap) {
		/* A step names a few objects: 4 facts (~450 bytes) stay in
		 * malloc's thread cache, 16 did not (an entry a step). */
		b->cap = b->cap ? b->cap * 2 : 4;
		b->facts = realloc(b->facts, b->cap * sizeof(*b->facts));
		b->objs = realloc(b->objs, b->cap * sizeof(*b->objs));
		if (!b->facts || !b->objs)
			abort();
	}
	f = &b->facts[b->n];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	b->objs[b->n++] = obj;
	return f;
}

static bool fb_has(const struct fact_buf *b, uint64_t id)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (wt_fact_id(&b->facts[i]) == id)
			return true;
	return false;
}

/*
 * The readers of these fields are RCU walkers and other writers; the
 * loads are relaxed atomics without injection hooks, because the history
 * is bookkeeping, not part of the protocol under test (a hook here would
 * add scheduling points no kernel code has).
 */
#define LOAD_PTR(x)	__atomic_load_n(&(x), __ATOMIC_ACQUIRE)	/* rcu_dereference */

static void cap_dentry(struct fact_buf *b, struct dentry *d)
{
	struct wt_dentry_fact *f = &fb_push(b, WT_FACT_DENTRY, d)->d;
	unsigned flags = READ_ONCE(d->d_flags);
	struct inode *inode = LOAD_PTR(d->d_inode);
	char name[NAME_MAX_LEN + 1];

	f->id = d->wt.id;
	f->parent = LOAD_PTR(d->d_parent)->wt.id;
	f->inode = inode ? inode->wt.id : 0;
	f->sb = d->d_sb ? d->d_sb->wt.id : 0;
	if (flags & DCACHE_HASHED)
		f->flags |= WT_DF_HASHED;
	if (d->d_sb && d->d_sb->s_root == d)
		f->flags |= WT_DF_FSROOT;
	if (flags & DCACHE_MOUNTED)
		f->flags |= WT_DF_MOUNTED;
	if (flags & DCACHE_NEED_AUTOMOUNT)
		f->flags |= WT_DF_AUTOMOUNT;
	d_name_copy(d, name, sizeof(name));
	f->name = xstrdup(name);
}

static void cap_inode(struct fact_buf *b, struct inode *inode)
{
	struct wt_inode_fact *f = &fb_push(b, WT_FACT_INODE, inode)->i;
	const char *link = LOAD_PTR(inode->i_link);

	f->id = inode->wt.id;
	f->sb = inode->i_sb ? inode->i_sb->wt.id : 0;
	f->mode = READ_ONCE(inode->i_mode);
	f->uid = READ_ONCE(inode->i_uid);
	f->gid = READ_ONCE(inode->i_gid);
	f->nlink = READ_ONCE(inode->i_nlink);
	f->flags = READ_ONCE(inode->i_flags);
	f->generation = READ_ONCE(inode->i_generation);
	f->kind = inode->i_sb ? inode->i_sb->s_type->kind : WT_FS_PLAIN;
	f->link = link ? xstrdup(link) : NULL;
	f->handle = wt_remote_inode_handle(inode);
	if (f->flags & S_MAGICLINK) {
		struct path target;

		struct wt_proc_owner owner;

		if (wt_proc_magic_target(inode, &target)) {
			f->magic_mnt = real_mount(target.mnt)->wt.id;
			f->magic_dentry = target.dentry->wt.id;
		}
		if (wt_proc_magic_owner(inode, &owner)) {
			f->task_pid = owner.pid;
			f->task_uid = owner.uid;
			f->task_gid = owner.gid;
			f->task_nondumpable = owner.nondumpable;
		}
	}
}

static void cap_mount(struct fact_buf *b, struct mount *m,
		      const struct wt_history *h, uint64_t version)
{
	struct wt_mount_fact *f = &fb_push(b, WT_FACT_MOUNT, m)->m;
	struct dentry *mp = LOAD_PTR(m->mnt_mountpoint);
	const void *prev = h ? wt_idmap_get(&h->known, m->wt.id) : NULL;
	struct wt_world *w = m->mnt.mnt_sb->s_world;

	f->id = m->wt.id;
	f->parent = LOAD_PTR(m->mnt_parent)->wt.id;
	f->mountpoint = mp ? mp->wt.id : 0;
	f->root = m->mnt.mnt_root->wt.id;
	f->sb = m->mnt.mnt_sb->wt.id;
	f->mnt_flags = READ_ONCE(m->mnt.mnt_flags);
	if (READ_ONCE(m->mnt_attached))
		f->flags |= WT_MF_ATTACHED;
	if (w && w->root_mnt == m)
		f->flags |= WT_MF_NSROOT;
	/* A mount stacks by the version that attached it. */
	if (prev && (known_attached(prev) || !(f->flags & WT_MF_ATTACHED)))
		f->order = known_order(prev);
	else if (f->flags & WT_MF_ATTACHED)
		f->order = version;
	f->devname = xstrdup(m->mnt_devname);
}

/* full: the whole server tree (a world capture), else its changes that
 * belong to the step of this version (sim/fs/remote.h). */
static void cap_super(struct fact_buf *b, struct super_block *sb, bool full,
		      uint64_t version)
{
	struct wt_super_fact *f = &fb_push(b, WT_FACT_SUPER, sb)->s;

	f->id = sb->wt.id;
	f->root = sb->s_root ? sb->s_root->wt.id : 0;
	f->kind = sb->s_type->kind;
	f->type = xstrdup(sb->s_type->name);
	f->name = xstrdup(sb->s_name);
	f->server = wt_remote_server_take(sb, full, version);
	f->rdonly = sb_rdonly(sb);
}

static void cap_any(struct fact_buf *b, enum wt_fact_kind kind, void *obj,
		    const struct wt_history *h, uint64_t version)
{
	switch (kind) {
	case WT_FACT_DENTRY:
		cap_dentry(b, obj);
		break;
	case WT_FACT_INODE:
		cap_inode(b, obj);
		break;
	case WT_FACT_MOUNT:
		cap_mount(b, obj, h, version);
		break;
	case WT_FACT_SUPER:
		cap_super(b, obj, false, version);
		break;
	}
}

static void fact_free(struct wt_fact *f)
{
	switch (f->kind) {
	case WT_FACT_DENTRY:
		free((char *)f->d.name);
		break;
	case WT_FACT_INODE:
		free((char *)f->i.link);
		break;
	case WT_FACT_MOUNT:
		free((char *)f->m.devname);
		break;
	case WT_FACT_SUPER:
		free((char *)f->s.type);
		free((char *)f->s.name);
		free((char *)f->s.server);
		break;
	}
}

void wt_facts_free(struct wt_fact *facts, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		fact_free(&facts[i]);
	free(facts);
}

/* ------------------------------------------------------------------ */
/* closure: log what a named object refers to, if never logged          */

struct closure {
	struct fact_buf *b;
	const struct wt_history *h;
	uint64_t version;
};

static void ensure(struct closure *c, enum wt_fact_kind kind, void *obj)
{
	uint64_t id;

	if (!obj)
		return;
	id = ((struct wt_obj *)obj)->id;
	if (wt_idmap_get(&c->h->known, id) || fb_has(c->b, id))
		return;
	cap_any(c->b, kind, obj, c->h, c->version);
}

static void ensure_refs(struct closure *c, uint32_t i)
{
	struct wt_fact *f = &c->b->facts[i];
	void *obj = c->b->objs[i];

	if (f->kind == WT_FACT_DENTRY) {
		struct dentry *d = obj;

		ensure(c, WT_FACT_DENTRY, LOAD_PTR(d->d_parent));
		ensure(c, WT_FACT_INODE, LOAD_PTR(d->d_inode));
		ensure(c, WT_FACT_SUPER, d->d_sb);
	} else if (f->kind == WT_FACT_INODE) {
		ensure(c, WT_FACT_SUPER, ((struct inode *)obj)->i_sb);
	} else if (f->kind == WT_FACT_MOUNT) {
		struct mount *m = obj;

		ensure(c, WT_FACT_MOUNT, LOAD_PTR(m->mnt_parent));
		ensure(c, WT_FACT_DENTRY, LOAD_PTR(m->mnt_mountpoint));
		ensure(c, WT_FACT_DENTRY, m->mnt.mnt_root);
		ensure(c, WT_FACT_SUPER, m->mnt.mnt_sb);
	} else if (f->kind == WT_FACT_SUPER) {
		ensure(c, WT_FACT_DENTRY, ((struct super_block *)obj)->s_root);
	}
}

static void mark_known(struct wt_history *h, const struct wt_fact *f)
{
	if (f->kind == WT_FACT_MOUNT)
		wt_idmap_put(&h->known, f->m.id,
			     known_val(f->m.order, f->m.flags & WT_MF_ATTACHED));
	else
		wt_idmap_put(&h->known, wt_fact_id(f), known_val(0, false));
}

/* ------------------------------------------------------------------ */
/* the log                                                              */

static struct wt_hist_entry *slot(struct wt_history *h, uint64_t version,
				  bool alloc)
{
	uint64_t idx = version - h->first;
	uint64_t chunk = idx / WT_HIST_CHUNK;

	if (version < h->first || chunk >= WT_HIST_CHUNKS) {
		if (!alloc)
			return NULL;
		fprintf(stderr, "walktorture: !!! history overflow at version %llu"
			" (reset the history between iterations)\n",
			(unsigned long long)version);
		abort();
	}
	if (!h->chunks[chunk]) {
		if (!alloc)
			return NULL;
		h->chunks[chunk] = calloc(WT_HIST_CHUNK, sizeof(struct wt_hist_entry));
		if (!h->chunks[chunk])
			abort();
		if (chunk >= h->nchunks)
			h->nchunks = (uint32_t)chunk + 1;
	}
	return &h->chunks[chunk][idx % WT_HIST_CHUNK];
}

static void entry_set(struct wt_history *h, uint64_t version,
		      uint64_t begun_after, const char *op, const char *step,
		      char *args, struct fact_buf *b)
{
	struct wt_hist_entry *e = slot(h, version, true);

	e->version = version;
	e->begun_after = begun_after;
	e->op = op;
	e->step = step;
	e->args = args;
	e->nfacts = b->n;
	e->facts = b->facts;
	for (uint32_t i = 0; i < b->n; i++)
		mark_known(h, &b->facts[i]);
	free(b->objs);
	memset(b, 0, sizeof(*b));
}

static void entry_free(struct wt_hist_entry *e)
{
	wt_facts_free(e->facts, e->nfacts);
	free((char *)e->args);
	memset(e, 0, sizeof(*e));
}

/*
 * Free the entries of versions first..reserved (no entry lies outside:
 * slot() is only asked for reserved versions, and truncate zeroes the
 * ones it moves).  `keep': the chunks stay allocated, all zero, for the
 * next log (wt_history_retire); else they are freed too.  Only the used
 * range is visited: a small iteration's log is a few entries in one
 * chunk, and scanning every chunk and entry was its biggest cost.
 */
static void free_entries(struct wt_history *h, bool keep)
{
	uint64_t used = READ_ONCE(h->reserved) - h->first + 1;

	assert(READ_ONCE(h->reserved) >= h->first);
	for (uint64_t idx = 0; idx < used; idx++) {
		struct wt_hist_entry *chunk = h->chunks[idx / WT_HIST_CHUNK];
		struct wt_hist_entry *e;

		if (!chunk) {	/* never allocated: skip the whole chunk */
			idx |= WT_HIST_CHUNK - 1;
			continue;
		}
		e = &chunk[idx % WT_HIST_CHUNK];
		if (e->facts || e->args)
			entry_free(e);
	}
	if (keep)
		return;
	for (uint32_t c = 0; c < h->nchunks; c++) {
		free(h->chunks[c]);
		h->chunks[c] = NULL;
	}
	h->nchunks = 0;
}

static void capture_into(struct wt_world *w, const struct wt_history *h,
			 struct fact_buf *b);

struct wt_history *wt_history_create_from(struct wt_world *w,
					  struct wt_history *spare)
{
	struct wt_history *h = spare ? spare : calloc(1, sizeof(*h));
	struct fact_buf b = { 0 };

	if (!h)
		return NULL;
	/* a spare is retired: no world, no entry, nothing counted */
	assert(!h->world && !h->reserved && !h->published && !h->first);
	assert(!h->ops_done && !h->known.n && !h->origins.n);
	h->world = w;
	spin_lock_init(&h->lock);
	wt_mutex_init(&h->writer);
	wt_idmap_init(&h->known);
	wt_idmap_init(&h->origins);
	capture_into(w, h, &b);
	entry_set(h, 0, 0, "init", "init", xstrdup(""), &b);
	return h;
}

struct wt_history *wt_history_create(struct wt_world *w)
{
	return wt_history_create_from(w, NULL);
}

/*
 * The creating paths' strings.  A path is never replaced once set (a
 * hard link keeps the first), so the live table shares the mark's
 * strings: those it has at the mark are the mark's, the rest its own.
 * Free its own.
 */
static void origins_unshare(struct wt_history *h)
{
	const struct wt_idmap *live = &h->origins, *mark = &h->mark.origins;

	for (size_t i = 0; i < live->cap; i++)
		if (live->vals[i] && (!h->mark.marked ||
		    wt_idmap_get(mark, live->keys[i]) != live->vals[i]))
			free(live->vals[i]);
}

/* Does the fact name a remote server's handle (sim/fs/remote.h)? */
static bool fact_has_handle(const struct wt_fact *f)
{
	return (f->kind == WT_FACT_INODE && f->i.handle) ||
	       (f->kind == WT_FACT_SUPER && f->s.server);
}

/* Its handles as the server drew them under seed from, as under to. */
static void fact_reseed(struct wt_fact *f, uint64_t from, uint64_t to)
{
	char *text;

	if (f->kind == WT_FACT_INODE && f->i.handle) {
		f->i.handle = wt_remote_handle_reseed(f->i.handle, f->i.sb,
						      from, to);
	} else if (f->kind == WT_FACT_SUPER && f->s.server) {
		text = wt_remote_lines_reseed(f->s.server, f->s.id, from, to);
		free((char *)f->s.server);
		f->s.server = text;
	}
}

/* The facts up to the mark that name a handle: how many, each put in
 * out unless NULL. */
static uint32_t marked_handles(struct wt_history *h, struct wt_fact **out)
{
	uint32_t n = 0;

	for (uint64_t v = h->first; v <= h->mark.version; v++) {
		struct wt_hist_entry *e = slot(h, v, false);

		for (uint32_t i = 0; e && i < e->nfacts; i++) {
			if (!fact_has_handle(&e->facts[i]))
				continue;
			if (out)
				out[n] = &e->facts[i];
			n++;
		}
	}
	return n;
}

/* Listed once (h->mark.handles): a restore then touches only those. */
static void mark_handles(struct wt_history *h)
{
	uint32_t n = marked_handles(h, NULL);

	if (!n)
		return;
	h->mark.handles = wt_zalloc(n, sizeof(*h->mark.handles));
	if (!h->mark.handles)
		abort();
	h->mark.nhandles = marked_handles(h, h->mark.handles);
	assert(h->mark.nhandles == n);
}

/* The list points into the entries: gone with them (relog). */
static void handles_drop(struct wt_history *h)
{
	free(h->mark.handles);
	h->mark.handles = NULL;
	h->mark.nhandles = 0;
}

static void base_drop(struct wt_history *h)
{
	wt_ns_destroy(h->mark.base);
	h->mark.base = NULL;
}

static void mark_drop(struct wt_history *h)
{
	if (!h->mark.marked)
		return;
	base_drop(h);
	wt_idmap_free(&h->mark.known);
	for (size_t i = 0; i < h->mark.origins.cap; i++)
		free(h->mark.origins.vals[i]);
	wt_idmap_free(&h->mark.origins);
	handles_drop(h);
	memset(&h->mark, 0, sizeof(h->mark));
}

/* r in h->open while it is open, if its slot is free (a slot taken by
 * another open record: r is not tracked, and leaks only if abandoned). */
static void rec_track(struct wt_history *h, struct wt_hist_rec *r)
{
	uint32_t i = (uint32_t)(r->version % WT_HIST_OPEN);
	struct wt_hist_rec *none = NULL;

	if (__atomic_compare_exchange_n(&h->open[i], &none, r, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		r->open = i + 1;
}

static void rec_free(struct wt_hist_rec *r)
{
	free(r->args);
	free(r->objs);
	wt_facts_free(r->b.facts, r->b.n);
	free(r->b.objs);
	free(r);
}

/* At a rewind or a reset (quiescence): the records of steps a run
 * abandoned between begin and commit. */
static void open_free(struct wt_history *h)
{
	for (uint32_t i = 0; i < WT_HIST_OPEN; i++) {
		struct wt_hist_rec *r;

		/* Nearly always empty: a plain load first, the locked
		 * exchange only for a record (32 of them at every rewind
		 * were 1 % of a twin's iteration, under perf). */
		if (!__atomic_load_n(&h->open[i], __ATOMIC_RELAXED))
			continue;
		r = __atomic_exchange_n(&h->open[i], NULL, __ATOMIC_RELAXED);
		if (r)
			rec_free(r);
	}
}

/* Everything but the chunk storage; the log is then as calloc left it,
 * bar its chunks (all zero). */
static void history_empty(struct wt_history *h, bool keep)
{
	open_free(h);
	origins_unshare(h);
	/* freed, not cleared: a fresh map's capacity, so that nothing that
	 * follows slot order can tell a reused log from a new one */
	wt_idmap_free(&h->origins);
	mark_drop(h);
	free_entries(h, keep);
	wt_idmap_free(&h->known);
	h->world = NULL;
	h->reserved = 0;
	h->published = 0;
	h->first = 0;
	h->ops_done = 0;
	h->sync_umount_not_final = 0;
}

void wt_history_mark(struct wt_history *h)
{
	assert(READ_ONCE(h->reserved) == wt_history_version(h));
	assert(!h->mark.marked);	/* its strings are shared (above) */
	h->mark.marked = true;
	h->mark.version = wt_history_version(h);
	wt_idmap_copy(&h->mark.known, &h->known);
	wt_idmap_copy(&h->mark.origins, &h->origins);
	h->mark.ops_done = h->ops_done;
	h->mark.sync_umount_not_final = h->sync_umount_not_final;
	/* built before base is set, so from the first entry; NULL on
	 * ENOMEM, and snapshots are then built that way every time */
	h->mark.base = wt_ns_create(h, h->mark.version);
	h->mark.seed = h->world->cfg.seed;
	mark_handles(h);
}

void wt_history_reseed(struct wt_history *h, uint64_t seed)
{
	if (!h->mark.marked || h->mark.seed == seed)
		return;
	for (uint32_t i = 0; i < h->mark.nhandles; i++)
		fact_reseed(h->mark.handles[i], h->mark.seed, seed);
	h->mark.seed = seed;
}

bool wt_history_marked(const struct wt_history *h)
{
	return h && h->mark.marked;
}

void wt_history_rewind(struct wt_history *h)
{
	uint64_t reserved = READ_ONCE(h->reserved);

	assert(h->mark.marked && h->first <= h->mark.version);
	open_free(h);
	/* An abandoned step (begun, never committed) may have an entry
	 * slot reserved but unset: free_entries' test covers it. */
	for (uint64_t v = h->mark.version + 1; v <= reserved; v++) {
		struct wt_hist_entry *e = slot(h, v, false);

		if (e && (e->facts || e->args))
			entry_free(e);
	}
	h->reserved = h->mark.version;
	h->published = h->mark.version;
	wt_idmap_assign(&h->known, &h->mark.known);
	/* Paths are only ever added (wt_origin_set: a hard link keeps the
	 * first): a table with the mark's count is still the mark's, slot
	 * for slot, with nothing of its own to free. */
	if (h->origins.n != h->mark.origins.n) {
		origins_unshare(h);
		wt_idmap_assign(&h->origins, &h->mark.origins);
	}
	h->ops_done = h->mark.ops_done;
	h->sync_umount_not_final = h->mark.sync_umount_not_final;
	spin_lock_init(&h->lock);
	wt_mutex_init(&h->writer);
}

void wt_history_retire(struct wt_history *h)
{
	if (h)
		history_empty(h, true);
}

void wt_history_destroy(struct wt_history *h)
{
	if (!h)
		return;
	history_empty(h, false);
	free(h);
}

struct wt_hist_rec *wt_history_begin(struct wt_world *w, const char *op,
				     const char *step, const char *fmt, ...)
{
	struct wt_history *h = w->history;
	struct wt_hist_rec *r;
	va_list ap;

	if (!h)
		return NULL;
	r = wt_zalloc(1, sizeof(*r));
	if (!r)
		abort();
	r->h = h;
	r->op = op;
	r->step = step;
	va_start(ap, fmt);
	if (vasprintf(&r->args, fmt, ap) < 0)
		abort();
	va_end(ap);
	r->version = wt_atomic_add_return(&h->reserved, 1);
	rec_track(h, r);
	if (wt_self) {
		r->outer = wt_self->hist_version;
		wt_self->hist_version = r->version;
	}
	/*
	 * The reservation is visible before the step's first store: a
	 * reader that sees one of the stores and then samples
	 * wt_history_version_end() (after its acquire fence) sees this
	 * version, so its window includes the step.
	 */
	smp_mb();
	/* After the reservation: a step published before this read made
	 * its stores before this step's first. */
	r->begun_after = wt_history_version(h);
	return r;
}

static void rec_add(struct wt_hist_rec *r, enum wt_fact_kind kind, void *obj)
{
	if (!r || !obj)
		return;
	for (uint32_t i = 0; i < r->nobjs; i++)
		if (r->objs[i].obj == obj)
			return;
	if (r->nobjs == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->objs = realloc(r->objs, r->cap * sizeof(*r->objs));
		if (!r->objs)
			abort();
	}
	r->objs[r->nobjs].kind = kind;
	r->objs[r->nobjs++].obj = obj;
}

void wt_history_dentry(struct wt_hist_rec *r, struct dentry *d)
{
	rec_add(r, WT_FACT_DENTRY, d);
}

void wt_history_inode(struct wt_hist_rec *r, struct inode *inode)
{
	rec_add(r, WT_FACT_INODE, inode);
}

void wt_history_mount(struct wt_hist_rec *r, struct mount *m)
{
	rec_add(r, WT_FACT_MOUNT, m);
}

void wt_history_super(struct wt_hist_rec *r, struct super_block *sb)
{
	rec_add(r, WT_FACT_SUPER, sb);
}

struct order_wait {
	struct wt_history *h;
	uint64_t version;
};

static bool predecessor_published(const void *arg)
{
	const struct order_wait *o = arg;

	return smp_load_acquire(&o->h->published) + 1 == o->version;
}

uint64_t wt_history_commit(struct wt_hist_rec *r)
{
	struct order_wait o;
	struct fact_buf *b;
	struct closure c;
	uint64_t v;

	if (!r)
		return 0;
	o.h = r->h;
	o.version = v = r->version;
	if (wt_self && wt_self->hist_version == v)
		wt_self->hist_version = r->outer;
	/* Publish in version order; the one before us is between its begin
	 * and commit and needs nothing we hold (the rule in history.h). */
	wt_wait(WT_WAIT_SPIN, predecessor_published, &o);
	/* A step that changed a remote server's tree logs its super_block
	 * (the changes ride on its fact): the client's changes are mirrored
	 * there by the filesystem's hooks, inside the step. */
	for (uint32_t i = 0, n = r->nobjs; i < n; i++) {
		struct super_block *sb = NULL;

		if (r->objs[i].kind == WT_FACT_DENTRY)
			sb = ((struct dentry *)r->objs[i].obj)->d_sb;
		else if (r->objs[i].kind == WT_FACT_INODE)
			sb = ((struct inode *)r->objs[i].obj)->i_sb;
		if (sb && wt_remote_server_pending(sb, v))
			rec_add(r, WT_FACT_SUPER, sb);
	}
	b = &r->b;
	spin_lock(&r->h->lock);
	for (uint32_t i = 0; i < r->nobjs; i++)
		cap_any(b, r->objs[i].kind, r->objs[i].obj, r->h, v);
	c.b = b;
	c.h = r->h;
	c.version = v;
	for (uint32_t i = 0; i < b->n; i++)	/* b grows: bounded by the objects */
		ensure_refs(&c, i);
	entry_set(r->h, v, r->begun_after, r->op, r->step, r->args, b);
	r->args = NULL;		/* the entry's, as b's facts now are */
	spin_unlock(&r->h->lock);
	/* The entry and the step's stores are visible before the version. */
	smp_store_release(&r->h->published, v);
	if (r->open)
		__atomic_store_n(&r->h->open[r->open - 1], NULL,
				 __ATOMIC_RELAXED);
	rec_free(r);	/* its args and facts are the entry's now */
	return v;
}

uint64_t wt_history_version(const struct wt_history *h)
{
	return smp_load_acquire(&h->published);
}

uint64_t wt_history_version_start(const struct wt_history *h)
{
	/* Acquire: every step up to this version is visible from here on. */
	return smp_load_acquire(&h->published);
}

uint64_t wt_history_version_end(const struct wt_history *h)
{
	/* The walk's loads are ordered before the sample; pairs with the
	 * smp_mb() after the reservation in wt_history_begin(). */
	smp_rmb();
	return READ_ONCE(((struct wt_history *)h)->reserved);
}

uint64_t wt_history_first(const struct wt_history *h)
{
	return h->first;
}

const struct wt_hist_entry *wt_history_entry(const struct wt_history *h,
					     uint64_t version)
{
	if (version > wt_history_version(h))
		return NULL;
	return slot((struct wt_history *)h, version, false);
}

/* ------------------------------------------------------------------ */
/* whole-world capture                                                  */

static bool obj_live(const struct wt_obj *o)
{
	return READ_ONCE(o->magic) == WT_OBJ_LIVE;
}

static void capture_into(struct wt_world *w, const struct wt_history *h,
			 struct fact_buf *b)
{
	/* The known table gives mount orders; an automount may be
	 * committing meanwhile (it does not hold the writer mutex). */
	if (h)
		spin_lock(&((struct wt_history *)h)->lock);
	spin_lock(&w->list_lock);
	for (struct super_block *sb = w->supers; sb; sb = sb->s_next) {
		if (!obj_live(&sb->wt))
			continue;
		cap_super(b, sb, true, UINT64_MAX);
		for (struct inode *i = sb->s_inodes; i; i = i->i_sb_next)
			if (obj_live(&i->wt))
				cap_inode(b, i);
	}
	for (struct dentry *d = w->dentries; d; d = d->d_all_next)
		if (obj_live(&d->wt) &&
		    !(READ_ONCE(d->d_flags) & DCACHE_DENTRY_KILLED))
			cap_dentry(b, d);
	for (struct mount *m = w->mounts; m; m = m->mnt_all_next)
		if (obj_live(&m->wt))
			cap_mount(b, m, h, h ? wt_history_version(h) : 0);
	spin_unlock(&w->list_lock);
	if (h)
		spin_unlock(&((struct wt_history *)h)->lock);
}

void wt_capture_world(struct wt_world *w, const struct wt_history *h,
		      struct wt_fact **factsp, uint32_t *nfactsp)
{
	struct fact_buf b = { 0 };

	capture_into(w, h, &b);
	free(b.objs);
	*factsp = b.facts;
	*nfactsp = b.n;
}

/* ------------------------------------------------------------------ */
/* printing                                                             */

void wt_fact_print(const struct wt_fact *f, FILE *out)
{
	switch (f->kind) {
	case WT_FACT_DENTRY:
		fprintf(out, "dentry %llu parent=%llu name=\"%s\" inode=%llu sb=%llu"
			" flags=%#x\n", (unsigned long long)f->d.id,
			(unsigned long long)f->d.parent, f->d.name,
			(unsigned long long)f->d.inode, (unsigned long long)f->d.sb,
			f->d.flags);
		break;
	case WT_FACT_INODE:
		fprintf(out, "inode %llu sb=%llu mode=%06o uid=%u gid=%u nlink=%u"
			" flags=%#x link=%s\n", (unsigned long long)f->i.id,
			(unsigned long long)f->i.sb, f->i.mode, f->i.uid,
			f->i.gid, f->i.nlink, f->i.flags,
			f->i.link ? f->i.link : "-");
		break;
	case WT_FACT_MOUNT:
		fprintf(out, "mount %llu parent=%llu mountpoint=%llu root=%llu"
			" sb=%llu order=%llu mnt_flags=%#x flags=%#x dev=%s\n",
			(unsigned long long)f->m.id, (unsigned long long)f->m.parent,
			(unsigned long long)f->m.mountpoint,
			(unsigned long long)f->m.root, (unsigned long long)f->m.sb,
			(unsigned long long)f->m.order, (unsigned)f->m.mnt_flags,
			f->m.flags, f->m.devname);
		break;
	case WT_FACT_SUPER:
		fprintf(out, "super %llu root=%llu type=%s name=%s%s\n",
			(unsigned long long)f->s.id, (unsigned long long)f->s.root,
			f->s.type, f->s.name, f->s.server ? " server:" : "");
		for (const char *p = f->s.server; p && *p;) {
			size_t len = strcspn(p, "\n");

			/* a name may hold a newline: the lines are for eyes */
			fprintf(out, "        %.*s\n", (int)len, p);
			p += len + (p[len] == '\n');
		}
		break;
	}
}

void wt_history_print(const struct wt_history *h, FILE *out, bool facts)
{
	uint64_t last = wt_history_version(h);

	for (uint64_t v = h->first; v <= last; v++) {
		const struct wt_hist_entry *e = wt_history_entry(h, v);

		if (!e)
			continue;
		fprintf(out, "%llu %s %s %s\n", (unsigned long long)v, e->op,
			e->step, e->args);
		for (uint32_t i = 0; facts && i < e->nfacts; i++) {
			fputs("    ", out);
			wt_fact_print(&e->facts[i], out);
		}
	}
}

/* ------------------------------------------------------------------ */
/* bounding memory                                                      */

static void fact_copy(struct wt_fact *to, const struct wt_fact *from)
{
	*to = *from;
	switch (from->kind) {
	case WT_FACT_DENTRY:
		to->d.name = xstrdup(from->d.name);
		break;
	case WT_FACT_INODE:
		to->i.link = from->i.link ? xstrdup(from->i.link) : NULL;
		break;
	case WT_FACT_MOUNT:
		to->m.devname = xstrdup(from->m.devname);
		break;
	case WT_FACT_SUPER:
		to->s.type = xstrdup(from->s.type);
		to->s.name = xstrdup(from->s.name);
		/* a checkpoint keeps only a whole tree: changes alone say
		 * nothing once what they changed is folded away */
		to->s.server = from->s.server && from->s.server[0] == '=' ?
			       xstrdup(from->s.server) : NULL;
		break;
	}
}

/* Replace the log by checkpoint (at version) followed by rest[0..n). */
static void relog(struct wt_history *h, uint64_t version, struct fact_buf *cp,
		  struct wt_hist_entry *rest, uint64_t n)
{
	base_drop(h);	/* its facts are in the entries freed here */
	handles_drop(h);
	free_entries(h, true);
	wt_idmap_free(&h->known);
	wt_idmap_init(&h->known);
	h->first = version;
	/* at quiescence: no step was in flight with it */
	entry_set(h, version, version, "checkpoint", "checkpoint", xstrdup(""),
		  cp);
	for (uint64_t i = 0; i < n; i++) {
		struct wt_hist_entry *e = slot(h, rest[i].version, true);

		*e = rest[i];
		for (uint32_t j = 0; j < e->nfacts; j++)
			mark_known(h, &e->facts[j]);
	}
}

int wt_history_truncate(struct wt_history *h, uint64_t version)
{
	uint64_t last = wt_history_version(h), n = last - version;
	struct wt_ns *ns = wt_ns_create(h, version);
	struct wt_hist_entry *rest;
	const struct wt_idmap *objs;
	struct fact_buf cp = { 0 };

	if (!ns)
		return -EINVAL;
	objs = wt_ns_objects(ns);
	for (size_t i = 0; i < objs->cap; i++)
		if (objs->vals[i])
			fact_copy(fb_push(&cp, ((const struct wt_fact *)objs->vals[i])->kind,
					  NULL), objs->vals[i]);
	wt_ns_destroy(ns);
	rest = calloc(n + 1, sizeof(*rest));
	if (!rest)
		abort();
	for (uint64_t v = version + 1; v <= last; v++) {
		struct wt_hist_entry *e = slot(h, v, false);

		rest[v - version - 1] = *e;
		memset(e, 0, sizeof(*e));	/* moved, not freed */
	}
	relog(h, version, &cp, rest, n);
	free(rest);
	return 0;
}

int wt_history_reset(struct wt_history *h)
{
	uint64_t last = wt_history_version(h);
	struct fact_buf cp = { 0 };

	if (READ_ONCE(h->reserved) != last)
		return -EBUSY;	/* a step is between begin and commit */
	capture_into(h->world, h, &cp);
	relog(h, last, &cp, NULL, 0);
	return 0;
}

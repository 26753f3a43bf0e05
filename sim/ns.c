/* SPDX-License-Identifier: MIT */
/*
 * Namespace snapshots rebuilt from the history, and the canonical listing
 * shared with the live world's wt_world_dump.  See sim/ns.h.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/history_internal.h"
#include "sim/ns.h"
#include "sim/vfs/mount.h"
#include "sim/vfs/world.h"
#include "sim/zalloc.h"

/* Bounds: a listing or a mount chain longer than this is a broken model. */
#define WT_NS_MAX_LINES		(1u << 20)
#define WT_NS_MAX_DEPTH		4096u

/* A dentry fact's change to the children index, not made yet: old
 * taken out (if indexed), new put in (if indexed), each under the
 * case rule its sb had when the fact was applied. */
struct ns_deferred {
	const struct wt_fact *old;	/* or NULL */
	const struct wt_fact *new;
	bool old_cf;
	bool new_cf;
};

/* Index changes a snapshot holds back while its children table is the
 * base's; one more makes them (own_children). */
#define NS_DEFERRED_MAX		8

struct wt_ns {
	const struct wt_history *h;
	uint64_t version;
	/* wt_ns_create_moved: entry moved goes after entry after (0: the
	 * log's order); version is then a position in that order */
	uint64_t moved;
	uint64_t after;
	struct wt_idmap objs;		/* id -> const struct wt_fact * */
	struct wt_keymap children;	/* (dir, 0, folded name) -> hashed dentry */
	struct wt_keymap mounts_at;	/* (parent, mountpoint) -> attached mount */
	uint64_t root_mnt;
	struct wt_fact *own;		/* facts owned (a live capture) */
	uint32_t nown;
	/* NS_SHARED_*: tables that are still the log's base's (a copy of
	 * it, wt_ns_create), read in place and copied before their first
	 * change -- most snapshots of an iteration are taken at the mark
	 * and never advance, or change only some */
	unsigned shared;
	/*
	 * While children is still shared, a dentry fact's change to it is
	 * held back here (in order) and made at the first name lookup
	 * (wt_ns_child): the checks' snapshots never look a name up, and
	 * copying the table for them was most of what they cost.
	 */
	struct ns_deferred deferred[NS_DEFERRED_MAX];
	uint32_t ndeferred;
	/* a casefold super_block's fact was applied: without one, no name
	 * folds, and sb_casefold need not look its sb up (every lookup
	 * and every dentry fact asks) */
	bool casefold;
};

#define NS_SHARED_OBJS		0x1u
#define NS_SHARED_CHILDREN	0x2u
#define NS_SHARED_MOUNTS	0x4u

/* Before a change to a table: the snapshot's own copy of it. */
static void own_objs(struct wt_ns *ns)
{
	struct wt_idmap t;

	if (!(ns->shared & NS_SHARED_OBJS))
		return;
	wt_idmap_copy(&t, &ns->objs);
	ns->objs = t;
	ns->shared &= ~NS_SHARED_OBJS;
}

static void own_keymap(struct wt_ns *ns, struct wt_keymap *m, unsigned bit)
{
	struct wt_keymap t;

	if (!(ns->shared & bit))
		return;
	wt_keymap_copy(&t, m);
	*m = t;
	ns->shared &= ~bit;
}

static const struct wt_fact *obj(const struct wt_ns *ns, uint64_t id,
				 enum wt_fact_kind kind)
{
	const struct wt_fact *f = wt_idmap_get(&ns->objs, id);

	return f && f->kind == kind ? f : NULL;
}

const struct wt_dentry_fact *wt_ns_dentry(const struct wt_ns *ns, uint64_t id)
{
	const struct wt_fact *f = obj(ns, id, WT_FACT_DENTRY);

	return f ? &f->d : NULL;
}

const struct wt_inode_fact *wt_ns_inode(const struct wt_ns *ns, uint64_t id)
{
	const struct wt_fact *f = obj(ns, id, WT_FACT_INODE);

	return f ? &f->i : NULL;
}

const struct wt_mount_fact *wt_ns_mount(const struct wt_ns *ns, uint64_t id)
{
	const struct wt_fact *f = obj(ns, id, WT_FACT_MOUNT);

	return f ? &f->m : NULL;
}

const struct wt_super_fact *wt_ns_super(const struct wt_ns *ns, uint64_t id)
{
	const struct wt_fact *f = obj(ns, id, WT_FACT_SUPER);

	return f ? &f->s : NULL;
}

const struct wt_inode_fact *wt_ns_dentry_inode(const struct wt_ns *ns,
					       uint64_t dentry_id)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(ns, dentry_id);

	return d && d->inode ? wt_ns_inode(ns, d->inode) : NULL;
}

/* ------------------------------------------------------------------ */
/* applying facts                                                       */

static bool sb_casefold(const struct wt_ns *ns, uint64_t sb)
{
	const struct wt_super_fact *s;

	if (!ns->casefold)
		return false;
	s = wt_ns_super(ns, sb);
	return s && s->kind == WT_FS_CASEFOLD;
}

/* The index key of a name: itself, or ASCII-lowercased when cf. */
static const char *fold_as(bool cf, const char *name, size_t len, char *buf)
{
	if (len > NAME_MAX_LEN)
		len = NAME_MAX_LEN;
	for (size_t i = 0; i < len; i++)
		buf[i] = cf ? (char)tolower((unsigned char)name[i]) : name[i];
	buf[len] = '\0';
	return buf;
}

/* The same under sb's case rule (casefold d_hash/d_compare). */
static const char *fold(const struct wt_ns *ns, uint64_t sb, const char *name,
			size_t len, char *buf)
{
	return fold_as(sb_casefold(ns, sb), name, len, buf);
}

static bool indexed_dentry(const struct wt_dentry_fact *d)
{
	return (d->flags & WT_DF_HASHED) && d->parent != d->id;
}

/* The children index change of one dentry fact (children owned). */
static void index_dentry(struct wt_ns *ns, const struct ns_deferred *c)
{
	const struct wt_fact *old = c->old, *f = c->new;
	char key[NAME_MAX_LEN + 1];

	assert(!(ns->shared & NS_SHARED_CHILDREN));
	if (old && indexed_dentry(&old->d))
		wt_keymap_del(&ns->children, old->d.parent, 0,
			      fold_as(c->old_cf, old->d.name,
				      strlen(old->d.name), key), old->d.id);
	if (indexed_dentry(&f->d))
		wt_keymap_add(&ns->children, f->d.parent, 0,
			      fold_as(c->new_cf, f->d.name, strlen(f->d.name),
				      key), f->d.id);
}

/* The snapshot's own children index, with the held-back changes made
 * in the order their facts were applied. */
static void own_children(struct wt_ns *ns)
{
	own_keymap(ns, &ns->children, NS_SHARED_CHILDREN);
	for (uint32_t i = 0; i < ns->ndeferred; i++)	/* <= NS_DEFERRED_MAX */
		index_dentry(ns, &ns->deferred[i]);
	ns->ndeferred = 0;
}

static void apply_dentry(struct wt_ns *ns, const struct wt_fact *f)
{
	const struct wt_fact *old = obj(ns, f->d.id, WT_FACT_DENTRY);
	struct ns_deferred c = {
		.old = old, .new = f,
		.old_cf = old && sb_casefold(ns, old->d.sb),
		.new_cf = sb_casefold(ns, f->d.sb),
	};

	if (!(old && indexed_dentry(&old->d)) && !indexed_dentry(&f->d))
		return;
	if (ns->shared & NS_SHARED_CHILDREN) {
		if (ns->ndeferred < NS_DEFERRED_MAX) {
			ns->deferred[ns->ndeferred++] = c;
			return;
		}
		own_children(ns);
	}
	index_dentry(ns, &c);
}

static bool indexed_mount(const struct wt_mount_fact *m)
{
	return (m->flags & WT_MF_ATTACHED) && m->parent != m->id;
}

static void apply_mount(struct wt_ns *ns, const struct wt_fact *f)
{
	const struct wt_fact *old = obj(ns, f->m.id, WT_FACT_MOUNT);

	if ((old && indexed_mount(&old->m)) || indexed_mount(&f->m))
		own_keymap(ns, &ns->mounts_at, NS_SHARED_MOUNTS);
	if (old && indexed_mount(&old->m))
		wt_keymap_del(&ns->mounts_at, old->m.parent, old->m.mountpoint,
			      NULL, old->m.id);
	if (indexed_mount(&f->m))
		wt_keymap_add(&ns->mounts_at, f->m.parent, f->m.mountpoint,
			      NULL, f->m.id);
	if (f->m.flags & WT_MF_NSROOT)
		ns->root_mnt = f->m.id;
}

static void apply_fact(struct wt_ns *ns, const struct wt_fact *f)
{
	if (f->kind == WT_FACT_SUPER && f->s.kind == WT_FS_CASEFOLD)
		ns->casefold = true;
	if (f->kind == WT_FACT_DENTRY)
		apply_dentry(ns, f);
	else if (f->kind == WT_FACT_MOUNT)
		apply_mount(ns, f);
	own_objs(ns);
	wt_idmap_put(&ns->objs, wt_fact_id(f), (void *)f);
}

/* Supers first: a dentry's index key depends on its sb's case rule. */
static void apply_facts(struct wt_ns *ns, const struct wt_fact *facts,
			uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (facts[i].kind == WT_FACT_SUPER)
			apply_fact(ns, &facts[i]);
	for (uint32_t i = 0; i < n; i++)
		if (facts[i].kind != WT_FACT_SUPER)
			apply_fact(ns, &facts[i]);
}

static struct wt_ns *ns_alloc(const struct wt_history *h)
{
	struct wt_ns *ns = wt_zalloc(1, sizeof(*ns));

	if (!ns)
		return NULL;
	ns->h = h;
	wt_idmap_init(&ns->objs);
	wt_keymap_init(&ns->children);
	wt_keymap_init(&ns->mounts_at);
	return ns;
}

void wt_ns_destroy(struct wt_ns *ns)
{
	if (!ns)
		return;
	if (!(ns->shared & NS_SHARED_OBJS))
		wt_idmap_free(&ns->objs);
	if (!(ns->shared & NS_SHARED_CHILDREN))
		wt_keymap_free(&ns->children);
	if (!(ns->shared & NS_SHARED_MOUNTS))
		wt_keymap_free(&ns->mounts_at);
	wt_facts_free(ns->own, ns->nown);
	free(ns);
}

/* from as it is, its tables shared until they change (own_objs,
 * own_keymap copy them: the same slots, the same chains in order). */
static struct wt_ns *ns_copy(const struct wt_ns *from)
{
	struct wt_ns *ns = malloc(sizeof(*ns));

	/* the base owns its all */
	assert(!from->own && !from->shared && !from->ndeferred);
	if (!ns)
		return NULL;
	*ns = *from;
	ns->shared = NS_SHARED_OBJS | NS_SHARED_CHILDREN | NS_SHARED_MOUNTS;
	return ns;
}

/*
 * At or past the log's mark, a copy of its base (the namespace at the
 * mark) advanced from there: a world restored from its snapshot starts
 * every iteration at the mark, and each snapshot the oracle and the
 * checks make otherwise applied every entry up to it again.  The copy
 * is the base slot for slot and chain for chain (a table shared until
 * it changes), and the base is what a build from the first entry is at
 * the mark, so the two answer and list the same.  The base outlives
 * its copies: it goes with the entries up to the mark (a truncate, a
 * reset, the mark dropped), which no snapshot may outlive either.
 */
struct wt_ns *wt_ns_create(const struct wt_history *h, uint64_t version)
{
	const struct wt_ns *base = h->mark.base;
	const struct wt_hist_entry *e;
	struct wt_ns *ns;

	if (version < wt_history_first(h) || version > wt_history_version(h))
		return NULL;
	if (base && base->version <= version) {
		ns = ns_copy(base);
		if (ns && wt_ns_advance_to(ns, version)) {
			wt_ns_destroy(ns);
			return NULL;
		}
		return ns;
	}
	e = wt_history_entry(h, wt_history_first(h));
	ns = ns_alloc(h);
	if (!ns || !e) {
		wt_ns_destroy(ns);
		return NULL;
	}
	apply_facts(ns, e->facts, e->nfacts);
	ns->version = e->version;
	if (wt_ns_advance_to(ns, version)) {
		wt_ns_destroy(ns);
		return NULL;
	}
	return ns;
}

struct wt_ns *wt_ns_from_world(struct wt_world *w)
{
	struct wt_ns *ns = ns_alloc(w->history);

	if (!ns)
		return NULL;
	wt_capture_world(w, w->history, &ns->own, &ns->nown);
	apply_facts(ns, ns->own, ns->nown);
	ns->version = w->history ? wt_history_version(w->history) : 0;
	ns->h = NULL;	/* a live capture does not advance */
	return ns;
}

const struct wt_idmap *wt_ns_objects(const struct wt_ns *ns)
{
	return &ns->objs;
}

uint64_t wt_ns_version(const struct wt_ns *ns)
{
	return ns->version;
}

uint64_t wt_ns_entry_version(const struct wt_ns *ns, uint64_t pos)
{
	if (!ns->moved || pos < ns->moved || pos > ns->after)
		return pos;
	return pos == ns->after ? ns->moved : pos + 1;
}

int wt_ns_advance(struct wt_ns *ns)
{
	const struct wt_hist_entry *e;

	if (!ns->h)
		return -EAGAIN;
	e = wt_history_entry(ns->h, wt_ns_entry_version(ns, ns->version + 1));
	if (!e)
		return -EAGAIN;
	apply_facts(ns, e->facts, e->nfacts);
	ns->version++;	/* the log's versions have no gap */
	return 0;
}

struct wt_ns *wt_ns_create_moved(const struct wt_history *h, uint64_t version,
				 uint64_t moved, uint64_t after)
{
	struct wt_ns *ns;

	if (!moved || moved >= after || version >= moved)
		return NULL;
	ns = wt_ns_create(h, version);
	if (ns) {
		ns->moved = moved;
		ns->after = after;
	}
	return ns;
}

int wt_ns_advance_to(struct wt_ns *ns, uint64_t version)
{
	if (version < ns->version)
		return -EINVAL;
	while (ns->version < version) {	/* bounded by version */
		int err = wt_ns_advance(ns);

		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* peeking near the mark                                                */

/* Can a peek be at version (the mark's namespace and at most
 * WT_NS_PEEK_MAX entries past it)?  Reads nothing of the log. */
static bool peek_near(const struct wt_history *h, uint64_t version)
{
	const struct wt_ns *base = h->mark.base;

	return base && base->version <= version &&
	       version - base->version <= WT_NS_PEEK_MAX;
}

/* wt_ns_advance_to's loop, keeping the entries instead of applying them. */
static int peek_advance(struct wt_ns_peek *p, uint64_t version)
{
	while (p->version < version) {	/* bounded by WT_NS_PEEK_MAX */
		const struct wt_hist_entry *e =
			wt_history_entry(p->h, p->version + 1);

		if (!e)
			return -EAGAIN;
		assert(p->n < WT_NS_PEEK_MAX);
		p->ids[p->n] = 0;
		for (uint32_t i = 0; i < e->nfacts; i++)
			p->ids[p->n] |= 1ull << (wt_fact_id(&e->facts[i]) & 63);
		p->e[p->n++] = e;
		p->version = e->version;
	}
	return 0;
}

int wt_ns_peek_start(struct wt_ns_peek *p, const struct wt_history *h,
		     uint64_t version)
{
	if (!peek_near(h, version))
		return -E2BIG;
	/* wt_ns_create's test, with its loads */
	if (version < wt_history_first(h) || version > wt_history_version(h))
		return -EINVAL;
	p->h = h;
	p->version = h->mark.base->version;
	p->n = 0;
	return peek_advance(p, version);
}

int wt_ns_peek_advance_to(struct wt_ns_peek *p, uint64_t version)
{
	if (version < p->version)
		return -EINVAL;
	if (!peek_near(p->h, version))
		return -E2BIG;
	return peek_advance(p, version);
}

/* The fact of id that applying e leaves (apply_facts' order: supers
 * first, then the rest, each in order), or NULL when e has none. */
static const struct wt_fact *entry_last_fact(const struct wt_hist_entry *e,
					     uint64_t id)
{
	const struct wt_fact *super = NULL;

	/* one pass from the end: the last of the rest, else of the supers */
	for (uint32_t i = e->nfacts; i-- > 0;) {
		const struct wt_fact *f = &e->facts[i];

		if (wt_fact_id(f) != id)
			continue;
		if (f->kind != WT_FACT_SUPER)
			return f;
		if (!super)
			super = f;
	}
	return super;
}

const struct wt_fact *wt_ns_peek_fact(const struct wt_ns_peek *p, uint64_t id)
{
	for (unsigned i = p->n; i-- > 0;) {	/* newest first */
		const struct wt_fact *f;

		if (!(p->ids[i] >> (id & 63) & 1))
			continue;
		f = entry_last_fact(p->e[i], id);

		if (f)
			return f;
	}
	return wt_idmap_get(&p->h->mark.base->objs, id);
}

struct wt_ns *wt_ns_peek_snapshot(const struct wt_ns_peek *p)
{
	struct wt_ns *ns = ns_copy(p->h->mark.base);

	if (!ns)
		return NULL;
	for (unsigned i = 0; i < p->n; i++) {	/* as wt_ns_advance does */
		apply_facts(ns, p->e[i]->facts, p->e[i]->nfacts);
		ns->version = p->e[i]->version;
	}
	return ns;
}

/* ------------------------------------------------------------------ */
/* queries                                                              */

const struct wt_dentry_fact *wt_ns_child(const struct wt_ns *ns, uint64_t dir,
					 const char *name, size_t len)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(ns, dir);
	const struct wt_keynode *n;
	char key[NAME_MAX_LEN + 1];

	if (!d || len == 0 || len > NAME_MAX_LEN)
		return NULL;
	/* the index is a cache of the facts: making it is no change */
	if (ns->ndeferred)
		own_children((struct wt_ns *)ns);
	n = wt_keymap_find(&ns->children, dir, 0, fold(ns, d->sb, name, len, key));
	return n ? wt_ns_dentry(ns, n->val) : NULL;
}

const struct wt_mount_fact *wt_ns_mount_at(const struct wt_ns *ns, uint64_t mnt,
					   uint64_t dentry)
{
	const struct wt_mount_fact *top = NULL;
	const struct wt_keynode *n;

	for (n = wt_keymap_find(&ns->mounts_at, mnt, dentry, NULL); n;
	     n = wt_keymap_next(n)) {
		const struct wt_mount_fact *m = wt_ns_mount(ns, n->val);

		if (!m)
			continue;
		/* Most recently attached is on top, as __lookup_mnt finds. */
		if (!top || m->order > top->order ||
		    (m->order == top->order && m->id > top->id))
			top = m;
	}
	return top;
}

unsigned wt_ns_follow_mounts(const struct wt_ns *ns, uint64_t *mnt,
			     uint64_t *dentry)
{
	unsigned crossed = 0;

	for (; crossed < WT_NS_MAX_DEPTH; crossed++) {
		const struct wt_mount_fact *m = wt_ns_mount_at(ns, *mnt, *dentry);

		if (!m)
			break;
		*mnt = m->id;
		*dentry = m->root;
	}
	return crossed;
}

uint64_t wt_ns_root_mount(const struct wt_ns *ns)
{
	return ns->root_mnt;
}

uint64_t wt_ns_mount_parent(const struct wt_ns *ns, uint64_t mnt)
{
	const struct wt_mount_fact *m = wt_ns_mount(ns, mnt);

	return m ? m->parent : 0;
}

uint64_t wt_ns_mount_mountpoint(const struct wt_ns *ns, uint64_t mnt)
{
	const struct wt_mount_fact *m = wt_ns_mount(ns, mnt);

	return m ? m->mountpoint : 0;
}

uint64_t wt_ns_mount_root(const struct wt_ns *ns, uint64_t mnt)
{
	const struct wt_mount_fact *m = wt_ns_mount(ns, mnt);

	return m ? m->root : 0;
}

bool wt_ns_connected(const struct wt_ns *ns, const struct wt_mount_fact *m,
		     uint64_t dentry)
{
	const struct wt_super_fact *sb = m ? wt_ns_super(ns, m->sb) : NULL;

	if (!sb || m->root == sb->root)
		return true;
	for (unsigned n = 0; n < WT_NS_MAX_DEPTH; n++) {
		const struct wt_dentry_fact *d = wt_ns_dentry(ns, dentry);

		if (dentry == m->root)
			return true;
		if (!d || d->parent == d->id)
			return false;
		dentry = d->parent;
	}
	return false;
}

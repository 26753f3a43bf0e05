/* SPDX-License-Identifier: MIT */
/*
 * The dentry cache: allocation, the hash chains, the lookups, the name
 * and tree changes of writer operations, and the death of dentries (the
 * model of Linux 6.x fs/dcache.c; see sim/vfs/dcache.h for the rules).
 *
 * Chains are singly linked RCU lists, one per bucket, written under the
 * world's dcache_lock and read without locks.  Every pointer a reader
 * follows is published with a release store and read with an acquire
 * load (sim/vfs/access.h); the other shared fields with wt_load/wt_store.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/bug.h"
#include "sim/rcu.h"
#include "sim/sched/sched.h"
#include "sim/vfs/dcache.h"
#include "sim/vfs/internal.h"
#include "sim/vfs/world.h"

/* No dentry tree is deeper than this: a PATH_MAX name has at most 2048
 * components, and d_move cannot make a chain of parents grow unbounded. */
#define WT_DEPTH_MAX		(1u << 16)
/* Rounds of an optimistic seq loop before it gives up or takes the lock. */
#define WT_SEQ_ROUNDS_MAX	16
/* Lookups of one name waiting for each other (d_alloc_parallel). */
#define WT_IN_LOOKUP_ROUNDS_MAX	1024

/* ------------------------------------------------------------------ */
/* Flags and predicates                                                */

unsigned d_flags_load(const struct dentry *d)
{
	return wt_load(d, d_flags);
}

/*
 * d_lock held: every writer of d_flags holds it, so the read is stable;
 * readers load the word without the lock.  Release, so that a reader
 * which sees the new type also sees the d_inode stored before it
 * (__d_set_inode_and_type's smp_store_release).
 */
static void d_flags_update(struct dentry *d, unsigned clear, unsigned set)
{
	wt_store_release(d, d_flags, (d->d_flags & ~clear) | set);
}

bool d_is_negative(const struct dentry *d)
{
	return d_is_negative_flags(d_flags_load(d));
}

static unsigned d_entry_type(const struct dentry *d)
{
	return d_flags_load(d) & DCACHE_ENTRY_TYPE;
}

bool d_is_dir(const struct dentry *d)
{
	return d_entry_type(d) == DCACHE_DIRECTORY_TYPE;
}

bool d_can_lookup(const struct dentry *d)
{
	return d_entry_type(d) == DCACHE_DIRECTORY_TYPE;
}

bool d_is_symlink(const struct dentry *d)
{
	return d_entry_type(d) == DCACHE_SYMLINK_TYPE;
}

bool d_is_reg(const struct dentry *d)
{
	return d_entry_type(d) == DCACHE_REGULAR_TYPE;
}

bool d_unhashed(const struct dentry *d)
{
	return !(d_flags_load(d) & DCACHE_HASHED);
}

bool d_mountpoint(const struct dentry *d)
{
	return d_flags_load(d) & DCACHE_MOUNTED;
}

bool d_managed(const struct dentry *d)
{
	return d_flags_load(d) & DCACHE_MANAGED_DENTRY;
}

struct inode *d_backing_inode(const struct dentry *d)
{
	return wt_load_acquire(d, d_inode);
}

static unsigned d_type_of_mode(umode_t mode)
{
	if (WT_S_ISDIR(mode))
		return DCACHE_DIRECTORY_TYPE;
	if (WT_S_ISLNK(mode))
		return DCACHE_SYMLINK_TYPE;
	return DCACHE_REGULAR_TYPE;
}

/* Is rename_lock held for writing by the calling thread?  Then no rename
 * can run and a reader needs no seq loop (and must not wait for it). */
static bool rename_lock_mine(const struct wt_world *w)
{
	const spinlock_t *l = &w->rename_lock.lock;
	uint32_t me = wt_self ? wt_self->id + 1 : 0;

	return spin_is_locked(l) &&
	       __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me;
}

/* ------------------------------------------------------------------ */
/* Names                                                               */

static bool dname_external(const struct dentry *d, const char *name)
{
	return name != d->d_iname;
}

static struct external_name *external_name(const char *name)
{
	return container_of(name, struct external_name, name);
}

static size_t external_name_size(uint32_t len)
{
	return sizeof(struct external_name) + len + 1;
}

static struct external_name *external_name_alloc(struct wt_world *w,
						 const char *s, uint32_t len)
{
	struct external_name *n = malloc(external_name_size(len));

	if (!n)
		return NULL;
	wt_obj_init(&n->wt, WT_OBJ_NAME, wt_world_new_id(w));
	n->count = 1;
	n->len = len;
	memcpy(n->name, s, len);
	n->name[len] = '\0';
	return n;
}

/* A dentry lets go of its name: the last user of an external name frees
 * it after a grace period, for readers may still be comparing it. */
static void d_name_put(struct wt_world *w, struct dentry *d, const char *name)
{
	struct external_name *n;

	if (!dname_external(d, name))
		return;
	n = external_name(name);
	if (wt_atomic_sub_return(&n->count, 1) == 0)
		call_rcu_free(w->rcu, &n->wt, external_name_size(n->len), NULL);
}

/*
 * A lockless reader is about to read the bytes of name, d's name as it
 * loaded it: an external name must still be alive.  It is, as long as
 * the reader stayed inside its RCU section since loading the pointer; a
 * reader that trusted a name past its section (or a name freed without a
 * grace period) is reported here, and must then leave the bytes alone.
 */
static bool d_name_alive(const struct dentry *d, const char *name,
			 const struct wt_point *p)
{
	const struct wt_obj *o;

	if (!dname_external(d, name))
		return true;
	o = &external_name(name)->wt;
	wt_obj_check(o, p);
	return __atomic_load_n(&o->magic, __ATOMIC_RELAXED) == WT_OBJ_LIVE;
}

/* dentry_string_cmp: 0 when the first len bytes match.  Stops at the
 * first difference: a name being replaced ends in its NUL, which differs
 * from every byte of a component, so the compare stays in its buffer. */
static int dentry_string_cmp(const char *cs, const char *ct, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (d_name_byte(cs, i) != ct[i])
			return 1;
	return 0;
}

/* Rewrite d's inline name (d_move): byte stores readers may see torn,
 * which is what d_seq is for. */
static void d_iname_set(struct dentry *d, const char *src, uint32_t len)
{
	WT_HOOK(WT_K_STORE, NULL, "d_iname", "store ->d_iname (name bytes)", d);
	for (uint32_t i = 0; i < len; i++)
		__atomic_store_n(&d->d_iname[i], d_name_byte(src, i),
				 __ATOMIC_RELAXED);
	__atomic_store_n(&d->d_iname[len], '\0', __ATOMIC_RELAXED);
}

/* Under d_lock (writers), or for bookkeeping: the name as it is now. */
static bool d_same_name(const struct dentry *d, const struct dentry *parent,
			const struct qstr *name)
{
	if (parent->d_flags & DCACHE_OP_COMPARE)
		return parent->d_op->d_compare(d, d->d_name.len,
					       d->d_name.name, name) == 0;
	return d->d_name.len == name->len &&
	       dentry_string_cmp(d->d_name.name, name->name, name->len) == 0;
}

int d_hash_name(const struct dentry *parent, struct qstr *name)
{
	if (!(d_flags_load(parent) & DCACHE_OP_HASH))
		return 0;
	return parent->d_op->d_hash(parent, name);
}

void d_name_copy(const struct dentry *d, char *buf, size_t size)
{
	const char *name;
	uint32_t len, i = 0;

	if (!size)
		return;
	/* Bookkeeping, not protocol: no injection points beyond the RCU
	 * section that keeps an external name alive while it is copied. */
	rcu_read_lock();
	name = __atomic_load_n(&d->d_name.name, __ATOMIC_ACQUIRE);
	len = __atomic_load_n(&d->d_name.len, __ATOMIC_RELAXED);
	if (d_name_alive(d, name, NULL))
		for (; i < len && i + 1 < size; i++) {
			char c = d_name_byte(name, i);

			if (!c)
				break;
			buf[i] = c;
		}
	buf[i] = '\0';
	rcu_read_unlock();
}

/* ------------------------------------------------------------------ */
/* Hash chains (writers hold d->d_lock, then take dcache_lock)         */

static uint32_t d_bucket_of(const struct wt_world *w,
			    const struct dentry *parent, uint32_t hash)
{
	return wt_hash_bucket(parent->wt.id, hash, w->cfg.dcache_buckets);
}

/* Add d at the head of its (new parent, new name) chain.  d's link is
 * stored before the head: a reader that finds d by the head walks on
 * into the chain; a reader already standing on d (d_move) follows the
 * new link into this chain. */
static void __d_rehash(struct dentry *d)
{
	struct wt_world *w = d_world(d);
	uint32_t b = d_bucket_of(w, d->d_parent, d->d_name.hash);
	struct dentry **head = &w->dcache_hash[b];

	spin_lock(&w->dcache_lock);
	d->d_bucket = b;
	wt_store_release(d, d_hash_next, *head);
	__atomic_store_n(head, d, __ATOMIC_RELEASE);
	d_flags_update(d, 0, DCACHE_HASHED);
	spin_unlock(&w->dcache_lock);
}

/* hlist_bl_del_rcu: unlink d from its chain but keep d's own link, so a
 * reader standing on d walks on (into whatever d links to). */
static void __d_unhash(struct dentry *d)
{
	struct wt_world *w = d_world(d);
	struct dentry **head = &w->dcache_hash[d->d_bucket];
	struct dentry *prev = NULL, *cur;

	spin_lock(&w->dcache_lock);
	/* Bounded by the chain, which nobody else can change now. */
	for (cur = *head; cur && cur != d; cur = cur->d_hash_next)
		prev = cur;
	if (!cur)
		wt_violation(WT_CHECK_INVARIANT, NULL, d,
			     "hashed dentry %llu is not on its chain %u",
			     (unsigned long long)d->wt.id, d->d_bucket);
	else if (prev)
		wt_store_release(prev, d_hash_next, d->d_hash_next);
	else
		__atomic_store_n(head, d->d_hash_next, __ATOMIC_RELEASE);
	d_flags_update(d, DCACHE_HASHED, 0);
	spin_unlock(&w->dcache_lock);
}

/* write_seqcount_invalidate: +2 in one store, so every sample taken
 * before fails its retry, with no odd window for readers to wait on. */
static void d_seq_invalidate(struct dentry *d)
{
	smp_wmb();	/* the unhash is visible before the new count */
	WT_HOOK(WT_K_SEQ_WRITE, NULL, "seq", "write_seqcount_invalidate",
		&d->d_seq);
	__atomic_store_n(&d->d_seq.sequence, wt_seq_raw(&d->d_seq) + 2,
			 __ATOMIC_RELAXED);
}

void __d_drop(struct dentry *d)
{
	if (d_unhashed(d))
		return;
	__d_unhash(d);
	/* A walker that sampled d_seq before the drop must not trust what
	 * it read afterwards: the dentry is no longer reachable by name. */
	d_seq_invalidate(d);
}

void d_drop(struct dentry *d)
{
	spin_lock(&d->d_lock);
	__d_drop(d);
	spin_unlock(&d->d_lock);
}

void d_rehash(struct dentry *d)
{
	spin_lock(&d->d_lock);
	if (d_unhashed(d))
		__d_rehash(d);
	spin_unlock(&d->d_lock);
}

void d_invalidate(struct dentry *d)
{
	spin_lock(&d->d_lock);
	/* A mountpoint stays: its mounts hang on it (the kernel detaches
	 * them first; the model leaves that to the writer operations). */
	if (!(d->d_flags & DCACHE_MOUNTED))
		__d_drop(d);
	spin_unlock(&d->d_lock);
}

/* ------------------------------------------------------------------ */
/* Children (under the parent's d_lock)                                */

static void d_child_add(struct dentry *parent, struct dentry *d)
{
	d->d_sib = parent->d_subdirs;
	if (d->d_sib)
		d->d_sib->d_sib_pprev = &d->d_sib;
	parent->d_subdirs = d;
	d->d_sib_pprev = &parent->d_subdirs;
}

static void d_child_del(struct dentry *d)
{
	*d->d_sib_pprev = d->d_sib;
	if (d->d_sib)
		d->d_sib->d_sib_pprev = d->d_sib_pprev;
	d->d_sib = NULL;
	d->d_sib_pprev = NULL;
}

/* ------------------------------------------------------------------ */
/* Allocation                                                          */

/* d_set_d_op: the DCACHE_OP_* flags say which hooks a lockless walker
 * must call, so it need not chase d_op to find out.  Automount flags are
 * not derived from d_automount here: autofs marks its triggers itself. */
static void d_set_d_op(struct dentry *d, const struct dentry_operations *op)
{
	d->d_op = op;
	if (!op)
		return;
	if (op->d_hash)
		d->d_flags |= DCACHE_OP_HASH;
	if (op->d_compare)
		d->d_flags |= DCACHE_OP_COMPARE;
	if (op->d_revalidate)
		d->d_flags |= DCACHE_OP_REVALIDATE;
	if (op->d_weak_revalidate)
		d->d_flags |= DCACHE_OP_WEAK_REVALIDATE;
}

/* A fresh dentry of sb, its own parent, on no list: nobody sees it yet,
 * so plain stores initialise it. */
static struct dentry *__d_alloc(struct super_block *sb, const struct qstr *name)
{
	struct wt_world *w = sb->s_world;
	struct dentry *d;
	uint64_t id;

	if (name->len > NAME_MAX_LEN)
		return NULL;
	if (wt_alloc_should_fail(WT_ALLOC_POINT("d_alloc")))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	id = wt_world_new_id(w);
	if (name->len >= DNAME_INLINE_LEN) {
		struct external_name *n;

		n = external_name_alloc(w, name->name, name->len);
		if (!n) {
			free(d);
			return NULL;
		}
		d->d_name.name = n->name;
	} else {
		memcpy(d->d_iname, name->name, name->len);
		d->d_iname[name->len] = '\0';
		d->d_name.name = d->d_iname;
	}
	d->d_name.len = name->len;
	d->d_name.hash = name->hash;
	wt_obj_init(&d->wt, WT_OBJ_DENTRY, id);
	/* Seeded, not zero: fresh dentries must not share seq values, or a
	 * stale sample could validate against a different dentry. */
	seqcount_init(&d->d_seq, wt_world_initial_seq(w, id));
	lockref_init(&d->d_lockref, 1);
	d->d_parent = d;
	d->d_sb = sb;
	d_set_d_op(d, sb->s_type->dop);
	return d;
}

/* A dentry nobody ever saw (d_alloc_parallel lost a race). */
static void d_free_unused(struct dentry *d)
{
	if (dname_external(d, d->d_name.name))
		free(external_name(d->d_name.name));
	free(d);
}

struct dentry *d_alloc(struct dentry *parent, const struct qstr *name)
{
	struct qstr q = *name;
	struct dentry *d;

	if (d_hash_name(parent, &q))
		return NULL;
	d = __d_alloc(parent->d_sb, &q);
	if (!d)
		return NULL;
	spin_lock(&parent->d_lock);
	wt_dget_dlock(parent);		/* the child pins its parent */
	d->d_parent = parent;
	d_child_add(parent, d);
	spin_unlock(&parent->d_lock);
	/* Listed last: the history reads d_parent of listed dentries. */
	wt_world_add_dentry(d_world(d), d);
	return d;
}

struct dentry *d_alloc_root(struct super_block *sb, struct inode *inode)
{
	struct qstr q = QSTR_INIT("/", 1);
	struct dentry *d = __d_alloc(sb, &q);

	if (!d) {
		iput(inode);
		return NULL;
	}
	d_instantiate(d, inode);
	sb->s_root = d;
	wt_world_add_dentry(sb->s_world, d);
	return d;
}

/* ------------------------------------------------------------------ */
/* Positive and negative                                               */

/* d_lock held: d_inode, then the type, under d_seq (the kernel's
 * __d_set_inode_and_type inside __d_instantiate). */
static void __d_instantiate(struct dentry *d, struct inode *inode,
			    unsigned extra)
{
	unsigned type = d_type_of_mode(wt_load(inode, i_mode));

	if (d->d_inode)
		wt_violation(WT_CHECK_INVARIANT, NULL, d,
			     "d_instantiate of positive dentry %llu",
			     (unsigned long long)d->wt.id);
	write_seqcount_begin(&d->d_seq);
	wt_store_release(d, d_inode, inode);
	d_flags_update(d, DCACHE_ENTRY_TYPE, type | extra);
	write_seqcount_end(&d->d_seq);
}

static unsigned d_type_instantiate(struct dentry *d, struct inode *inode)
{
	const struct file_system_type *t = d->d_sb->s_type;

	return t->instantiate ? t->instantiate(d, inode) : 0;
}

void d_instantiate(struct dentry *d, struct inode *inode)
{
	unsigned extra;

	if (!inode)
		return;
	extra = d_type_instantiate(d, inode);
	spin_lock(&d->d_lock);
	__d_instantiate(d, inode, extra);
	spin_unlock(&d->d_lock);
}

void d_make_persistent(struct dentry *d, struct inode *inode)
{
	d_instantiate(d, inode);
	spin_lock(&d->d_lock);
	d_flags_update(d, 0, DCACHE_PERSISTENT);
	wt_dget_dlock(d);
	spin_unlock(&d->d_lock);
}

void d_make_discardable(struct dentry *d)
{
	spin_lock(&d->d_lock);
	if (!(d->d_flags & DCACHE_PERSISTENT)) {
		spin_unlock(&d->d_lock);
		wt_violation(WT_CHECK_INVARIANT, NULL, d,
			     "d_make_discardable of unpinned dentry %llu",
			     (unsigned long long)d->wt.id);
		return;
	}
	d_flags_update(d, DCACHE_PERSISTENT, 0);
	spin_unlock(&d->d_lock);
	dput(d);	/* the pin was a reference */
}

void d_add(struct dentry *d, struct inode *inode)
{
	unsigned extra = inode ? d_type_instantiate(d, inode) : 0;

	spin_lock(&d->d_lock);
	if (inode)
		__d_instantiate(d, inode, extra);
	if (d_unhashed(d))
		__d_rehash(d);
	/* Hashed first, then out of the in-lookup state: a lookup waiting
	 * on d (d_wait_lookup) wakes to a findable dentry. */
	d_flags_update(d, DCACHE_PAR_LOOKUP, 0);
	spin_unlock(&d->d_lock);
}

/* d_lock held: the kernel's dentry_unlink_inode minus the iput, which
 * the caller does once the lock is dropped.  Returns the inode. */
static struct inode *d_make_negative(struct dentry *d)
{
	struct inode *inode = d->d_inode;

	if (!inode)
		return NULL;
	write_seqcount_begin(&d->d_seq);
	/* No automount on a name that no longer is a directory. */
	d_flags_update(d, DCACHE_ENTRY_TYPE | DCACHE_NEED_AUTOMOUNT |
		       DCACHE_MANAGE_TRANSIT, 0);
	wt_store_release(d, d_inode, (struct inode *)NULL);
	write_seqcount_end(&d->d_seq);
	return inode;
}

void d_delete(struct dentry *d)
{
	const struct file_system_type *t = d->d_sb->s_type;
	struct inode *inode;

	if (t->unlink && d->d_inode)
		t->unlink(d);
	spin_lock(&d->d_lock);
	/*
	 * Are we the only user?  Then the name stays hashed, negative: the
	 * next lookup is a cached miss.  Otherwise someone still stands on
	 * the dentry with its inode, so it only leaves the hash.
	 */
	if (d->d_lockref.count == 1) {
		inode = d_make_negative(d);
		spin_unlock(&d->d_lock);
		iput(inode);
		return;
	}
	__d_drop(d);
	spin_unlock(&d->d_lock);
}

/* ------------------------------------------------------------------ */
/* References and death                                                */

struct dentry *dget(struct dentry *d)
{
	if (d)
		lockref_get(&d->d_lockref);
	return d;
}

struct dentry *dget_parent(struct dentry *d)
{
	struct dentry *parent;

	/* Lock the parent we see, then check it still is ours: a rename may
	 * move d meanwhile (rename_lock is not taken here). */
	for (unsigned round = 0;; round++) {
		rcu_read_lock();
		parent = d_parent_rcu(d);
		spin_lock(&parent->d_lock);
		if (parent == d->d_parent)
			break;
		spin_unlock(&parent->d_lock);
		rcu_read_unlock();
		/* Each round lost to a rename; renames end. */
		if (round > WT_DEPTH_MAX)
			wt_violation(WT_CHECK_INVARIANT, NULL, d,
				     "dget_parent: parent keeps moving");
	}
	rcu_read_unlock();
	/* A child pins its parent, so the count cannot be 0 here. */
	if (parent->d_lockref.count <= 0)
		wt_violation(WT_CHECK_LOCKREF, NULL, parent,
			     "dget_parent: parent %llu has count %d",
			     (unsigned long long)parent->wt.id,
			     parent->d_lockref.count);
	wt_dget_dlock(parent);
	spin_unlock(&parent->d_lock);
	return parent;
}

/* Freed after a grace period: RCU-walk readers may stand on d. */
static void d_free(struct dentry *d)
{
	struct wt_world *w = d_world(d);

	d_name_put(w, d, d->d_name.name);
	/*
	 * Zoo: WT_BUG_FREE_NO_GRACE frees (poisons) the dentry at once,
	 * under the feet of RCU-walkers still standing on it or on its
	 * chain -- the poison check catches their next load.
	 */
	if (wt_bug(w, WT_BUG_FREE_NO_GRACE))
		wt_free_now(w->rcu, &d->wt, sizeof(*d), NULL);
	else
		call_rcu_free(w->rcu, &d->wt, sizeof(*d), NULL);
}

/* The unlisted, dead dentry's last steps: out of its parent's children,
 * its inode dropped, freed.  Returns the parent, whose reference the
 * caller drops (NULL for a root). */
static struct dentry *dentry_finish_kill(struct dentry *d)
{
	struct dentry *parent = NULL;
	struct inode *inode;

	spin_lock(&d->d_lock);
	inode = d_make_negative(d);
	spin_unlock(&d->d_lock);
	if (!IS_ROOT(d)) {
		parent = d->d_parent;
		spin_lock(&parent->d_lock);
		d_child_del(d);
		spin_unlock(&parent->d_lock);
	}
	iput(inode);
	d_free(d);
	return parent;
}

/* d_lock held, the caller's is the last reference: mark dead (so
 * legitimize_path's lockref_get_not_dead fails), unhash, unlock. */
static void dentry_mark_dead(struct dentry *d)
{
	lockref_mark_dead(&d->d_lockref);
	__d_drop(d);
	d_flags_update(d, 0, DCACHE_DENTRY_KILLED);
}

static struct dentry *dentry_kill(struct dentry *d)
{
	dentry_mark_dead(d);
	spin_unlock(&d->d_lock);
	wt_world_del_dentry(d_world(d), d);
	return dentry_finish_kill(d);
}

void dput(struct dentry *d)
{
	/* Each round goes one parent up: bounded by the tree's depth. */
	for (unsigned depth = 0; d; depth++) {
		int count;

		if (depth > WT_DEPTH_MAX)
			wt_violation(WT_CHECK_INVARIANT, NULL, d,
				     "dput: deeper than any tree");
		if (lockref_put_or_lock(&d->d_lockref))
			return;
		/* d_lock held; ours is the last reference, or none. */
		count = d->d_lockref.count;
		if (count <= 0) {
			spin_unlock(&d->d_lock);
			wt_violation(WT_CHECK_LOCKREF, NULL, d,
				     "dput of dentry %llu with count %d",
				     (unsigned long long)d->wt.id, count);
			return;
		}
		if (!d_unhashed(d)) {
			/* Unused but findable: cached until the shrinker
			 * or an unhash kills it. */
			wt_dput_dlock(d);
			spin_unlock(&d->d_lock);
			return;
		}
		d = dentry_kill(d);
	}
}

/* ------------------------------------------------------------------ */
/* The shrinker and super_block teardown                               */

/* d_lock held.  Positive dentries of an in-memory filesystem are its only
 * copy of the names: only remote can look them up again. */
static bool d_shrinkable(const struct dentry *d)
{
	unsigned f = d->d_flags;

	if (d->d_lockref.count != 0 || d->d_subdirs || IS_ROOT(d))
		return false;
	if (f & (DCACHE_MOUNTED | DCACHE_DENTRY_KILLED | DCACHE_PERSISTENT |
		 DCACHE_PAR_LOOKUP) || d->d_mount_count)
		return false;
	return d_is_negative_flags(f) || d->d_sb->s_type->kind == WT_FS_REMOTE;
}

/* One pass: mark every shrinkable dentry dead under the list lock (a
 * trylock: a busy dentry is skipped, it is in use anyway), then finish
 * them with no lock held.  A victim has no children, so none is another
 * victim's parent. */
static unsigned shrink_pass(struct wt_world *w)
{
	struct dentry *victims = NULL, *d, *next;
	unsigned n = 0;

	spin_lock(&w->list_lock);
	for (d = w->dentries; d; d = next) {
		next = d->d_all_next;
		if (!spin_trylock(&d->d_lock))
			continue;
		if (!d_shrinkable(d)) {
			spin_unlock(&d->d_lock);
			continue;
		}
		dentry_mark_dead(d);
		spin_unlock(&d->d_lock);
		__wt_world_del_dentry(d);
		d->d_all_next = victims;	/* our list now */
		victims = d;
	}
	spin_unlock(&w->list_lock);
	for (d = victims; d; d = next, n++) {
		next = d->d_all_next;
		d->d_all_next = NULL;
		dput(dentry_finish_kill(d));
	}
	return n;
}

unsigned wt_dcache_shrink(struct wt_world *w)
{
	unsigned total = 0, n;

	/* Each pass kills at least one of finitely many, or ends. */
	do {
		n = shrink_pass(w);
		total += n;
	} while (n);
	return total;
}

static int d_children(const struct dentry *d)
{
	int n = 0;

	for (const struct dentry *c = d->d_subdirs; c; c = c->d_sib)
		n++;
	return n;
}

/* Mark one of a dying super_block's dentries dead; the references it may
 * hold are its children's, its filesystem's pin, and for the root the
 * super_block's. */
static void kill_sb_mark(struct super_block *sb, struct dentry *d)
{
	int busy;

	spin_lock(&d->d_lock);
	busy = d->d_lockref.count - d_children(d) - (d == sb->s_root) -
	       !!(d->d_flags & DCACHE_PERSISTENT);
	dentry_mark_dead(d);
	spin_unlock(&d->d_lock);
	if (busy > 0)
		wt_violation(WT_CHECK_INVARIANT, NULL, d,
			     "dentry %llu still in use (%d) at umount of %s",
			     (unsigned long long)d->wt.id, busy, sb->s_name);
}

void wt_dcache_kill_sb(struct super_block *sb)
{
	struct wt_world *w = sb->s_world;
	struct dentry *victims = NULL, *d, *next;

	spin_lock(&w->list_lock);
	for (d = w->dentries; d; d = next) {
		next = d->d_all_next;
		if (d->d_sb != sb)
			continue;
		__wt_world_del_dentry(d);
		d->d_all_next = victims;
		victims = d;
	}
	spin_unlock(&w->list_lock);
	/* First all dead, so no lookup finds any, then each freed: the whole
	 * tree goes, so the children lists need no unlinking. */
	for (d = victims; d; d = d->d_all_next)
		kill_sb_mark(sb, d);
	for (d = victims; d; d = next) {
		struct inode *inode;

		next = d->d_all_next;
		spin_lock(&d->d_lock);
		inode = d_make_negative(d);
		spin_unlock(&d->d_lock);
		iput(inode);
		d_free(d);
	}
}

void wt_dentry_destroy(struct dentry *d)
{
	const char *name = d->d_name.name;

	if (dname_external(d, name)) {
		struct external_name *n = external_name(name);

		if (--n->count == 0)
			free(n);
	}
	free(d);
}

/* ------------------------------------------------------------------ */
/* Lookup                                                              */

enum d_cmp { D_COMP_OK, D_COMP_NOMATCH, D_COMP_SEQRETRY };

/*
 * The name compare of __d_lookup_rcu, after the seq sample: d may be
 * renamed under us at any time, so each field is loaded once.
 */
static enum d_cmp d_cmp_rcu(const struct dentry *parent, struct dentry *d,
			    unsigned seq, const struct qstr *name,
			    bool op_compare)
{
	struct wt_world *w = d_world(parent);
	const char *tname;
	uint32_t tlen;

	if (wt_load(d, d_name.hash) != name->hash)
		return D_COMP_NOMATCH;
	tlen = wt_load(d, d_name.len);
	tname = wt_load_acquire(d, d_name.name);
	if (!op_compare) {
		/* dentry_cmp: a torn (len, name) pair at worst mismatches;
		 * the caller's seq check rejects a wrong match. */
		if (tlen != name->len ||
		    !d_name_alive(d, tname, WT_ACCESS_POINT(WT_K_LOAD,
				"d_name", "read an external name's bytes")))
			return D_COMP_NOMATCH;
		return dentry_string_cmp(tname, name->name, tlen) ?
			D_COMP_NOMATCH : D_COMP_OK;
	}
	/*
	 * slow_dentry_cmp: d_compare gets the (name, len) pair we loaded;
	 * it must be consistent, or a rename between the two loads hands
	 * d_compare a length that is not the name's.  The d_seq retry
	 * proves no rename came in since the sample.
	 * Zoo: WT_BUG_SLOW_CMP_NO_SEQ removes it (d_compare then reads a
	 * torn pair, or an external name a rename already let go of).
	 */
	if (!wt_bug(w, WT_BUG_SLOW_CMP_NO_SEQ) &&
	    read_seqcount_retry_at(&d->d_seq, seq, "d_lookup_rcu.cmp_seq"))
		return D_COMP_SEQRETRY;
	if (!d_name_alive(d, tname, WT_ACCESS_POINT(WT_K_LOAD, "d_name",
			  "d_compare reads an external name")))
		return D_COMP_NOMATCH;
	return parent->d_op->d_compare(d, tlen, tname, name) ?
		D_COMP_NOMATCH : D_COMP_OK;
}

/* One candidate of __d_lookup_rcu, from its seq sample on. */
static enum d_cmp d_match_rcu(const struct dentry *parent, struct dentry *d,
			      unsigned seq, const struct qstr *name,
			      bool op_compare)
{
	/* The parent again, now that the sample orders it: a d_move that
	 * moved d away before the sample is seen here. */
	if (wt_load(d, d_parent) != parent)
		return D_COMP_NOMATCH;
	if (d_unhashed(d))
		return D_COMP_NOMATCH;
	return d_cmp_rcu(parent, d, seq, name, op_compare);
}

/* Is the chain element alive?  A dead one (freed without a grace period,
 * or a caller outside its RCU section) is reported and ends the walk: its
 * link is poison. */
static bool d_chain_alive(const struct dentry *d)
{
	wt_obj_check(&d->wt, WT_ACCESS_POINT(WT_K_LOAD, "d_hash",
					     "a dcache chain element"));
	return __atomic_load_n(&d->wt.magic, __ATOMIC_RELAXED) == WT_OBJ_LIVE;
}

struct dentry *__d_lookup_rcu(const struct dentry *parent,
			      const struct qstr *name, unsigned *seqp)
{
	struct wt_world *w = d_world(parent);
	bool op_compare = d_flags_load(parent) & DCACHE_OP_COMPARE;
	uint32_t b = d_bucket_of(w, parent, name->hash);
	struct dentry *d = __atomic_load_n(&w->dcache_hash[b], __ATOMIC_ACQUIRE);

	/* No rename_lock: a miss (even a false one, d_move carrying the
	 * walk off into another chain) falls back to lookup_slow, whose
	 * d_lookup retries under rename_lock. */
	for (; d; d = wt_load_acquire(d, d_hash_next)) {
		enum d_cmp r;
		unsigned seq;

		WT_HOOK(WT_K_HASH_STEP, "d_lookup_rcu.hash_step", "d_hash",
			"one step along a dcache hash chain", d);
		if (!d_chain_alive(d))
			break;
		if (wt_load(d, d_parent) != parent)
			continue;
		/* The caller validates every load from d against this
		 * sample (nd->next_seq, checked in step_into). */
		seq = raw_seqcount_begin_at(&d->d_seq, "d_lookup_rcu.seq");
		for (unsigned round = 0;; round++) {
			r = d_match_rcu(parent, d, seq, name, op_compare);
			if (r != D_COMP_SEQRETRY)
				break;
			/* A rename is under way: wait for it to end and
			 * sample again (the kernel spins on raw samples;
			 * a blocked wait is the same without the livelock).
			 * Renames that never stop end in a miss, which is
			 * always safe in RCU mode. */
			if (round == WT_SEQ_ROUNDS_MAX) {
				r = D_COMP_NOMATCH;
				break;
			}
			cpu_relax();
			seq = read_seqcount_begin_at(&d->d_seq,
						     "d_lookup_rcu.seqretry");
		}
		if (r == D_COMP_OK) {
			*seqp = seq;
			WT_EVENT("d_lookup_rcu.hit", d);
			return d;
		}
	}
	WT_EVENT("d_lookup_rcu.miss", parent);
	return NULL;
}

/* __d_lookup's check of one candidate, under its d_lock. */
static bool d_lookup_match(const struct dentry *d, const struct dentry *parent,
			   const struct qstr *name)
{
	if (d->d_parent != parent || !(d->d_flags & DCACHE_HASHED))
		return false;
	return d->d_name.hash == name->hash && d_same_name(d, parent, name);
}

struct dentry *__d_lookup(const struct dentry *parent, const struct qstr *name)
{
	struct wt_world *w = d_world(parent);
	struct qstr q = *name;
	struct dentry *d, *found = NULL;

	if (d_hash_name(parent, &q))
		return NULL;
	rcu_read_lock();
	d = __atomic_load_n(&w->dcache_hash[d_bucket_of(w, parent, q.hash)],
			    __ATOMIC_ACQUIRE);
	for (; d; d = wt_load_acquire(d, d_hash_next)) {
		WT_HOOK(WT_K_HASH_STEP, "d_lookup.hash_step", "d_hash",
			"one step along a dcache hash chain (REF mode)", d);
		if (!d_chain_alive(d))
			break;
		if (wt_load(d, d_name.hash) != q.hash)
			continue;
		spin_lock(&d->d_lock);
		if (d_lookup_match(d, parent, &q)) {
			wt_dget_dlock(d);
			found = d;
		}
		spin_unlock(&d->d_lock);
		if (found)
			break;
	}
	rcu_read_unlock();
	return found;
}

struct dentry *d_lookup(const struct dentry *parent, const struct qstr *name)
{
	struct wt_world *w = d_world(parent);
	struct dentry *d;
	unsigned seq;

	/* Our own rename in progress: nothing else can move a dentry. */
	if (rename_lock_mine(w))
		return __d_lookup(parent, name);
	/*
	 * Zoo: WT_BUG_D_LOOKUP_NO_RENAME_LOCK looks once: a d_move that
	 * carries the chain walk into another bucket makes the miss final,
	 * and lookup_slow then creates a second dentry for a name that
	 * exists (or reports ENOENT for it).
	 */
	if (wt_bug(w, WT_BUG_D_LOOKUP_NO_RENAME_LOCK))
		return __d_lookup(parent, name);
	for (unsigned round = 0; round < WT_SEQ_ROUNDS_MAX; round++) {
		seq = read_seqbegin_at(&w->rename_lock, "d_lookup.rename_lock");
		d = __d_lookup(parent, name);
		if (d)
			return d;
		/* A miss is final only if no rename ran meanwhile. */
		if (!read_seqretry_at(&w->rename_lock, seq, "d_lookup.rename_retry"))
			return NULL;
	}
	/* Renames keep coming: look once with them excluded. */
	read_seqlock_excl(&w->rename_lock);
	d = __d_lookup(parent, name);
	read_sequnlock_excl(&w->rename_lock);
	return d;
}

/* ------------------------------------------------------------------ */
/* d_alloc_parallel                                                    */

/* parent->d_lock held: a child already standing for name, hashed or in
 * lookup, referenced. */
static struct dentry *d_find_child_locked(struct dentry *parent,
					  const struct qstr *name)
{
	for (struct dentry *c = parent->d_subdirs; c; c = c->d_sib) {
		bool match;

		spin_lock(&c->d_lock);
		match = !(c->d_flags & DCACHE_DENTRY_KILLED) &&
			(c->d_flags & (DCACHE_HASHED | DCACHE_PAR_LOOKUP)) &&
			c->d_name.hash == name->hash &&
			d_same_name(c, parent, name);
		if (match)
			wt_dget_dlock(c);
		spin_unlock(&c->d_lock);
		if (match)
			return c;
	}
	return NULL;
}

static bool d_lookup_finished(const void *arg)
{
	return !(d_flags_load(arg) & DCACHE_PAR_LOOKUP);
}

/* d_wait_lookup: another thread is looking the name up; its answer is
 * ours.  A sleeping wait (the kernel's wait queue). */
static bool d_wait_lookup(struct dentry *d, const struct dentry *parent,
			  const struct qstr *name)
{
	bool ok;

	wt_wait(WT_WAIT_SLEEP, d_lookup_finished, d);
	spin_lock(&d->d_lock);
	ok = d_lookup_match(d, parent, name);
	spin_unlock(&d->d_lock);
	return ok;
}

struct dentry *d_alloc_parallel(struct dentry *parent, const struct qstr *name)
{
	struct qstr q = *name;
	struct dentry *d, *other;
	int err = d_hash_name(parent, &q);

	if (err)
		return ERR_PTR(err);
	for (unsigned round = 0; round < WT_IN_LOOKUP_ROUNDS_MAX; round++) {
		d = d_lookup(parent, &q);
		if (d)
			return d;
		d = __d_alloc(parent->d_sb, &q);
		if (!d)
			return ERR_PTR(-ENOMEM);
		d->d_flags |= DCACHE_PAR_LOOKUP;
		spin_lock(&parent->d_lock);
		other = d_find_child_locked(parent, &q);
		if (!other) {
			wt_dget_dlock(parent);
			d->d_parent = parent;
			d_child_add(parent, d);
			spin_unlock(&parent->d_lock);
			wt_world_add_dentry(d_world(d), d);
			return d;
		}
		spin_unlock(&parent->d_lock);
		d_free_unused(d);
		if (!(d_flags_load(other) & DCACHE_PAR_LOOKUP) ||
		    d_wait_lookup(other, parent, &q))
			return other;
		/* Its lookup failed or it moved: start over. */
		dput(other);
	}
	return ERR_PTR(-EAGAIN);
}

void d_lookup_done(struct dentry *d)
{
	spin_lock(&d->d_lock);
	d_flags_update(d, DCACHE_PAR_LOOKUP, 0);
	spin_unlock(&d->d_lock);
}

/* ------------------------------------------------------------------ */
/* d_move and d_exchange                                               */

/* The child of p1 that is p2 or an ancestor of p2, if p1 is an ancestor
 * of p2; NULL otherwise.  rename_lock held: parents cannot change. */
static struct dentry *d_ancestor(struct dentry *p1, struct dentry *p2)
{
	unsigned depth = 0;

	for (struct dentry *p = p2; !IS_ROOT(p); p = p->d_parent) {
		if (p->d_parent == p1)
			return p;
		if (++depth > WT_DEPTH_MAX)
			break;
	}
	return NULL;
}

/* A move of a directory into its own subtree would cut it loose. */
static bool d_move_valid(struct dentry *dentry, struct dentry *target)
{
	return d_ancestor(dentry->d_parent, target) != dentry &&
	       !d_ancestor(target, dentry);
}

/*
 * The kernel's lock order for __d_move: ancestors before descendants.
 * If old_parent is an ancestor of target, it goes first; otherwise
 * target's parent does (it may be an ancestor of old_parent).  Then the
 * two dentries.
 */
static void d_move_lock(struct dentry *dentry, struct dentry *target)
{
	struct dentry *old_parent = dentry->d_parent;
	struct dentry *new_parent = target->d_parent;
	struct dentry *p = d_ancestor(old_parent, target);

	if (!p) {
		spin_lock(&new_parent->d_lock);
		spin_lock(&old_parent->d_lock);
	} else {
		spin_lock(&old_parent->d_lock);
		if (p != target)
			spin_lock(&new_parent->d_lock);
	}
	spin_lock(&dentry->d_lock);
	spin_lock(&target->d_lock);
}

static void d_move_unlock(struct dentry *dentry, struct dentry *target,
			  struct dentry *old_parent)
{
	if (dentry->d_parent != old_parent)
		spin_unlock(&dentry->d_parent->d_lock);
	spin_unlock(&old_parent->d_lock);
	spin_unlock(&target->d_lock);
	spin_unlock(&dentry->d_lock);
}

/* copy_name: dentry takes target's name (sharing an external one by
 * count).  Returns the name dentry had, for the caller to put. */
static const char *copy_name(struct dentry *dentry, struct dentry *target)
{
	const char *old = dentry->d_name.name;
	const char *tname = target->d_name.name;
	uint32_t len = target->d_name.len;

	if (dname_external(target, tname)) {
		wt_atomic_add_return(&external_name(tname)->count, 1);
		wt_store_release(dentry, d_name.name, tname);
	} else {
		/* Bytes first, then the pointer: a reader that sees our
		 * inline buffer named sees its bytes. */
		d_iname_set(dentry, tname, len);
		wt_store_release(dentry, d_name.name, (const char *)dentry->d_iname);
	}
	wt_store(dentry, d_name.hash, target->d_name.hash);
	wt_store(dentry, d_name.len, len);
	return old;
}

/* swap_names (RENAME_EXCHANGE): an inline name moves by copy into the
 * other's buffer, an external one by pointer. */
static void swap_names(struct dentry *a, struct dentry *b)
{
	const char *an = a->d_name.name, *bn = b->d_name.name;
	uint32_t alen = a->d_name.len, blen = b->d_name.len;
	uint32_t ahash = a->d_name.hash, bhash = b->d_name.hash;
	bool aext = dname_external(a, an), bext = dname_external(b, bn);

	if (aext && bext) {
		wt_store_release(a, d_name.name, bn);
		wt_store_release(b, d_name.name, an);
	} else if (bext) {
		d_iname_set(b, an, alen);
		wt_store_release(a, d_name.name, bn);
		wt_store_release(b, d_name.name, (const char *)b->d_iname);
	} else if (aext) {
		d_iname_set(a, bn, blen);
		wt_store_release(b, d_name.name, an);
		wt_store_release(a, d_name.name, (const char *)a->d_iname);
	} else {
		char tmp[DNAME_INLINE_LEN];

		for (uint32_t i = 0; i <= alen; i++)
			tmp[i] = d_name_byte(an, i);
		d_iname_set(a, bn, blen);
		d_iname_set(b, tmp, alen);
	}
	wt_store(a, d_name.hash, bhash);
	wt_store(a, d_name.len, blen);
	wt_store(b, d_name.hash, ahash);
	wt_store(b, d_name.len, alen);
}

/* Both d_locks and the parents' held: names and parents switched. */
static void __d_move_switch(struct dentry *dentry, struct dentry *target,
			    struct dentry *old_parent, bool exchange)
{
	struct dentry *new_parent = target->d_parent;

	wt_store_release(dentry, d_parent, new_parent);
	if (!exchange) {
		/* target keeps its name and parent until it dies. */
		d_name_put(d_world(dentry), dentry, copy_name(dentry, target));
		wt_dget_dlock(new_parent);
		wt_dput_dlock(old_parent);
		if (old_parent->d_lockref.count <= 0)
			wt_violation(WT_CHECK_LOCKREF, NULL, old_parent,
				     "d_move: old parent %llu lost its last ref",
				     (unsigned long long)old_parent->wt.id);
	} else {
		wt_store_release(target, d_parent, old_parent);
		swap_names(dentry, target);
		d_child_del(target);
		d_child_add(old_parent, target);
		__d_rehash(target);
	}
	d_child_del(dentry);
	d_child_add(new_parent, dentry);
	__d_rehash(dentry);
}

static void __d_move(struct dentry *dentry, struct dentry *target,
		     bool exchange)
{
	struct wt_world *w = d_world(dentry);
	const struct file_system_type *t = dentry->d_sb->s_type;
	struct dentry *old_parent = dentry->d_parent;

	if (!spin_is_locked(&w->rename_lock.lock) || dentry == target ||
	    IS_ROOT(dentry) || IS_ROOT(target) || !dentry->d_inode) {
		wt_violation(WT_CHECK_INVARIANT, NULL, dentry,
			     "d_move misuse (rename_lock not held, a root, "
			     "a negative source, or onto itself)");
		return;
	}
	if (!d_move_valid(dentry, target)) {
		wt_violation(WT_CHECK_INVARIANT, NULL, dentry,
			     "d_move into its own subtree");
		return;
	}
	if (t->rename)
		t->rename(dentry, target, exchange);
	d_move_lock(dentry, target);
	/* Both seqs, never a parent's: a walker standing in either parent
	 * is not disturbed, one standing on either dentry is. */
	write_seqcount_begin(&dentry->d_seq);
	write_seqcount_begin(&target->d_seq);
	if (!d_unhashed(dentry))
		__d_unhash(dentry);
	if (!d_unhashed(target))
		__d_unhash(target);
	__d_move_switch(dentry, target, old_parent, exchange);
	write_seqcount_end(&target->d_seq);
	write_seqcount_end(&dentry->d_seq);
	d_move_unlock(dentry, target, old_parent);
}

void d_move(struct dentry *dentry, struct dentry *target)
{
	__d_move(dentry, target, false);
}

void d_exchange(struct dentry *a, struct dentry *b)
{
	__d_move(a, b, true);
}

/* ------------------------------------------------------------------ */
/* Ancestry                                                            */

static bool d_is_descendant(const struct dentry *d, const struct dentry *ancestor)
{
	const struct dentry *p = d;

	for (unsigned depth = 0; depth <= WT_DEPTH_MAX; depth++) {
		const struct dentry *parent;

		if (p == ancestor)
			return true;
		parent = d_parent_rcu(p);
		if (parent == p)
			return false;
		p = parent;
	}
	return false;
}

bool is_subdir(const struct dentry *d, const struct dentry *ancestor)
{
	struct wt_world *w = d_world(d);
	unsigned seq;
	bool r;

	if (d == ancestor)
		return true;
	if (rename_lock_mine(w))
		return d_is_descendant(d, ancestor);
	for (unsigned round = 0; round < WT_SEQ_ROUNDS_MAX; round++) {
		seq = read_seqbegin_at(&w->rename_lock, "is_subdir.rename_lock");
		rcu_read_lock();
		r = d_is_descendant(d, ancestor);
		rcu_read_unlock();
		if (!read_seqretry_at(&w->rename_lock, seq, "is_subdir.rename_retry"))
			return r;
	}
	read_seqlock_excl(&w->rename_lock);
	r = d_is_descendant(d, ancestor);
	read_sequnlock_excl(&w->rename_lock);
	return r;
}

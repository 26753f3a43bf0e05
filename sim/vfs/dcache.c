/* SPDX-License-Identifier: MIT */
/*
 * The dentry cache (the model of Linux 6.x fs/dcache.c; the rules are in
 * sim/vfs/dcache.h): flags and names, the hash chains' writers,
 * allocation, positive and negative, references and death.  The lookups
 * are in dcache_lookup.c, d_move in dcache_move.c, the shrinker and
 * super_block teardown in dcache_shrink.c.
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
#include "sim/vfs/dcache_internal.h"
#include "sim/vfs/world.h"

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
void d_flags_update(struct dentry *d, unsigned clear, unsigned set)
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
bool rename_lock_mine(const struct wt_world *w)
{
	const spinlock_t *l = &w->rename_lock.lock;
	uint32_t me = wt_self ? wt_self->id + 1 : 0;

	return spin_is_locked(l) &&
	       __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me;
}

/* ------------------------------------------------------------------ */
/* Names                                                               */

static struct external_name *external_name_alloc(struct wt_world *w,
						 const char *s, uint32_t len)
{
	struct external_name *n = wt_world_obj_alloc(w, external_name_size(len));

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
void d_name_put(struct wt_world *w, struct dentry *d, const char *name)
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
bool d_name_alive(const struct dentry *d, const char *name,
		  const struct wt_point *p)
{
	const struct wt_obj *o;

	/*
	 * d itself may have died since the reader's chain step checked it
	 * (freed without a grace period: zoo free_no_grace); then the name
	 * pointer it loaded is poison, not a name to look behind.
	 */
	if (__atomic_load_n(&d->wt.magic, __ATOMIC_RELAXED) != WT_OBJ_LIVE) {
		wt_obj_check(&d->wt, p);
		return false;
	}
	if (!dname_external(d, name))
		return true;
	o = &external_name(name)->wt;
	wt_obj_check(o, p);
	return __atomic_load_n(&o->magic, __ATOMIC_RELAXED) == WT_OBJ_LIVE;
}

/* Rewrite d's inline name (d_move): byte stores readers may see torn,
 * which is what d_seq is for. */
void d_iname_set(struct dentry *d, const char *src, uint32_t len)
{
	WT_HOOK(WT_K_STORE, NULL, "d_iname", "store ->d_iname (name bytes)", d);
	for (uint32_t i = 0; i < len; i++)
		__atomic_store_n(&d->d_iname[i], d_name_byte(src, i),
				 __ATOMIC_RELAXED);
	__atomic_store_n(&d->d_iname[len], '\0', __ATOMIC_RELAXED);
}

/* Under d_lock (writers), or for bookkeeping: the name as it is now. */
bool d_same_name(const struct dentry *d, const struct dentry *parent,
		 const struct qstr *name)
{
	/* the parent's d_lock is not held: its other flags move */
	if (d_flags_load(parent) & DCACHE_OP_COMPARE)
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

/* Add d at the head of its (new parent, new name) chain.  d's link is
 * stored before the head: a reader that finds d by the head walks on
 * into the chain; a reader already standing on d (d_move) follows the
 * new link into this chain. */
void __d_rehash(struct dentry *d)
{
	struct wt_world *w = d_world(d);
	uint32_t b = d_bucket_of(w, d->d_parent, d->d_name.hash);
	struct dentry **head = &w->dcache_hash[b];

	spin_lock(&w->dcache_lock);
	d->d_bucket = b;
	wt_store_release(d, d_hash_next, *head);
	/* rcu_assign_pointer: through the store buffers, after the link.
	 * A raw store here reached memory before the buffered link, and a
	 * walker under tso or pso found d at the head with the old link
	 * after it: a chain cut short, a false miss (fuzz --seed 0x2202
	 * --threads 8 --policy explore, workload 3035, memory=pso). */
	wt_publish_release(head, d);
	d_flags_update(d, 0, DCACHE_HASHED);
	spin_unlock(&w->dcache_lock);
}

/* hlist_bl_del_rcu: unlink d from its chain but keep d's own link, so a
 * reader standing on d walks on (into whatever d links to). */
void __d_unhash(struct dentry *d)
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
		wt_publish_release(head, d->d_hash_next);
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

/*
 * Part of d_set_mounted (Linux eed810076685): a mountpoint whose parent,
 * grandparent, ... up to its filesystem's root has been unhashed lies in
 * a subtree no name reaches any more -- an invalidated remote directory
 * that some task still holds a cwd, a dirfd or a /proc/PID/cwd link
 * into.  A mount there would hang where no path from the root finds it.
 * Each ancestor is looked at under its own d_lock, so a d_invalidate
 * dropping it (which holds that lock) comes either before the look or
 * after it.  The dentry itself is not tested here: its caller has done
 * that.
 */
bool has_unlinked_ancestor(struct dentry *d)
{
	for (struct dentry *p = d->d_parent; !IS_ROOT(p); p = p->d_parent) {
		bool gone;	/* bounded: the chain ends at the root */

		spin_lock(&p->d_lock);
		gone = d_unhashed(p);
		spin_unlock(&p->d_lock);
		if (gone)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* Children (under the parent's d_lock)                                */

void d_child_add(struct dentry *parent, struct dentry *d)
{
	d->d_sib = parent->d_subdirs;
	if (d->d_sib)
		d->d_sib->d_sib_pprev = &d->d_sib;
	parent->d_subdirs = d;
	d->d_sib_pprev = &parent->d_subdirs;
}

void d_child_del(struct dentry *d)
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
	if (op->d_delete)
		d->d_flags |= DCACHE_OP_DELETE;
}

/* A fresh dentry of sb, its own parent, on no list: nobody sees it yet,
 * so plain stores initialise it. */
struct dentry *__d_alloc(struct super_block *sb, const struct qstr *name)
{
	struct wt_world *w = sb->s_world;
	struct dentry *d;
	uint64_t id;

	/* Any length a path can hold: a name over 255 bytes gets as far as
	 * the filesystem's ->lookup, which decides what it means. */
	if (name->len >= PATH_MAX_LEN)
		return NULL;
	if (wt_alloc_should_fail(WT_ALLOC_POINT("d_alloc")))
		return NULL;
	d = wt_world_obj_alloc(w, sizeof(*d));
	if (!d)
		return NULL;
	id = wt_world_new_id(w);
	if (name->len >= DNAME_INLINE_LEN) {
		struct external_name *n;

		n = external_name_alloc(w, name->name, name->len);
		if (!n) {
			wt_obj_free(&d->wt, sizeof(*d));
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
void d_free_unused(struct dentry *d)
{
	if (dname_external(d, d->d_name.name)) {
		struct external_name *n = external_name(d->d_name.name);

		wt_obj_free(&n->wt, external_name_size(n->len));
	}
	wt_obj_free(&d->wt, sizeof(*d));
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
	/*
	 * The type is published with a release store, so that a lockless
	 * reader whose (acquire) load of d_flags sees the dentry positive
	 * also sees its d_inode: REF-walk's traverse_mounts and step_into
	 * rely on it, with no d_seq to catch a torn pair.  Zoo
	 * WT_BUG_TYPE_BEFORE_INODE (`--bug type_before_inode`, the ordering
	 * Linux 4bf46a272647 imposed) stores it plainly: under memory=pso
	 * the type can then reach memory first.
	 */
	if (wt_bug(d_world(d), WT_BUG_TYPE_BEFORE_INODE))
		wt_store(d, d_flags, (d->d_flags & ~DCACHE_ENTRY_TYPE) | type | extra);
	else
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
struct inode *d_make_negative(struct dentry *d)
{
	struct inode *inode = d->d_inode;
	bool seq;

	if (!inode)
		return NULL;
	/*
	 * d_seq moves with d_inode whether d is hashed or not: RCU-walk may
	 * hold a sample of an unhashed dentry (the parent `..` reached, a
	 * cwd or dirfd), taken after the unhash's own invalidation, and
	 * trusts the inode it loads from it as long as the sample holds.
	 * Zoo WT_BUG_KILL_UNHASHED_NO_SEQ (`--bug kill_unhashed_no_seq`,
	 * the code Linux 4c0d7cd5c841 corrected) skips the count for an
	 * unhashed dentry, which is every dentry being killed: such a
	 * walker reads the NULL inode under a sample that still holds.
	 */
	seq = !wt_bug(d_world(d), WT_BUG_KILL_UNHASHED_NO_SEQ) || !d_unhashed(d);
	if (seq)
		write_seqcount_begin(&d->d_seq);
	/* No automount on a name that no longer is a directory. */
	d_flags_update(d, DCACHE_ENTRY_TYPE | DCACHE_NEED_AUTOMOUNT |
		       DCACHE_MANAGE_TRANSIT, 0);
	wt_store_release(d, d_inode, (struct inode *)NULL);
	if (seq)
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
void d_free(struct dentry *d)
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
struct dentry *dentry_finish_kill(struct dentry *d)
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
 * legitimize_path's lockref_get_not_dead fails) and unhash. */
void dentry_mark_dead(struct dentry *d)
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

/* d_lock held, ours the last reference: does the filesystem want the
 * unused dentry gone rather than cached (retain_dentry's d_delete)? */
static bool dentry_delete_now(const struct dentry *d)
{
	if (!(d->d_flags & DCACHE_OP_DELETE))
		return false;
	return d->d_op->d_delete(d) != 0;
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
		if (!d_unhashed(d) && !dentry_delete_now(d)) {
			/* Unused but findable: cached until the shrinker
			 * or an unhash kills it. */
			wt_dput_dlock(d);
			spin_unlock(&d->d_lock);
			return;
		}
		d = dentry_kill(d);
	}
}

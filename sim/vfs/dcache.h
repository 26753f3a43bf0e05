/* SPDX-License-Identifier: MIT */
/*
 * The dentry cache: struct dentry, the hash of RCU chains, and the lookup
 * functions the walk engine calls (the model of fs/dcache.c).
 *
 * Chains: one singly linked RCU list per bucket, keyed by (parent id,
 * name hash) -- ids, never addresses, so the chain layout depends only on
 * the seed and the operations.  Unhashing removes a dentry from its chain
 * but leaves its d_hash_next intact, so a reader standing on it can walk
 * on (hlist_bl_del_rcu); d_move unhashes and rehashes into the new chain,
 * so a reader standing on a moved dentry follows it into its new chain and
 * misses the rest of the old one -- the false negative that d_lookup's
 * rename_lock retry exists for.
 *
 * d_seq: bumped (write_seqcount_begin/end) by d_move on the moved dentry
 * and on the target it replaces, never on a parent; by d_make_negative
 * (d_delete, unlink, rmdir), d_instantiate and the kill of a positive
 * dentry on the dentry itself; __d_drop (d_drop, d_invalidate, d_delete's
 * unhash branch, the shrinker) invalidates it (+2, the kernel's
 * write_seqcount_invalidate) -- d_move's own unhash does not.  Initial
 * values are drawn from the world's seed.
 *
 * Counts, as the kernel's: a child pins its parent (d_parent holds a
 * reference); a hashed dentry whose count drops to 0 stays cached (the
 * shrinker kills it later), an unhashed one dies at once and is freed
 * after a grace period.  An in-memory filesystem (every type but remote)
 * has no other copy of its names, so writer operations pin what they
 * create with d_make_persistent() (the kernel's tmpfs extra dget) and
 * unpin with d_make_discardable() before d_delete().
 *
 * Lock order: rename_lock, then parents' d_lock before children's (d_move
 * takes up to four, in the kernel's order), then dcache_lock (the chains)
 * or an inode's i_lock, then the world's list_lock.  mount_lock comes
 * before any d_lock.
 */
#ifndef WT_SIM_VFS_DCACHE_H
#define WT_SIM_VFS_DCACHE_H

#include "sim/lockref.h"
#include "sim/obj.h"
#include "sim/seq.h"
#include "sim/vfs/access.h"
#include "sim/vfs/fsops.h"
#include "sim/vfs/types.h"

/* d_flags (the kernel's values where it has them) */
#define DCACHE_OP_HASH		0x00000001
#define DCACHE_OP_COMPARE	0x00000002
#define DCACHE_OP_REVALIDATE	0x00000004
#define DCACHE_OP_DELETE	0x00000008
#define DCACHE_OP_WEAK_REVALIDATE 0x00000800
#define DCACHE_DISCONNECTED	0x00000020
#define DCACHE_HASHED		0x00000040	/* wt: on a hash chain */
#define DCACHE_MOUNTED		0x00010000	/* something is mounted here */
#define DCACHE_NEED_AUTOMOUNT	0x00020000	/* automount point */
#define DCACHE_MANAGE_TRANSIT	0x00040000	/* d_manage() must be called */
#define DCACHE_MANAGED_DENTRY	(DCACHE_MOUNTED | DCACHE_NEED_AUTOMOUNT | \
				 DCACHE_MANAGE_TRANSIT)
#define DCACHE_ENTRY_TYPE	0x00700000
#define DCACHE_MISS_TYPE	0x00000000	/* negative */
#define DCACHE_DIRECTORY_TYPE	0x00200000
#define DCACHE_REGULAR_TYPE	0x00400000
#define DCACHE_SYMLINK_TYPE	0x00600000
#define DCACHE_PAR_LOOKUP	0x10000000	/* in-lookup (d_alloc_parallel) */
#define DCACHE_DENTRY_KILLED	0x20000000
#define DCACHE_PERSISTENT	0x40000000	/* wt: pinned (d_make_persistent) */

/*
 * An external (long) name, freed through RCU when its last user lets go
 * of it: a rename that replaces it (d_move copies the target's name,
 * sharing an external one by count, as the kernel's copy_name), or the
 * death of its dentry.  A lockless reader checks the object before
 * reading the bytes, so a read after the grace period is reported.
 */
struct external_name {
	struct wt_obj wt;
	int count;			/* dentries using it (atomic) */
	uint32_t len;
	char name[];			/* NUL-terminated */
};

struct dentry {
	struct wt_obj wt;		/* wt.id: world-unique dentry id */
	unsigned d_flags;		/* wt_load/wt_store */
	seqcount_t d_seq;
	struct dentry *d_hash_next;	/* RCU hash chain */
	uint32_t d_bucket;		/* bucket while hashed (writer side) */
	struct dentry *d_parent;	/* wt_load/wt_store; root: itself */
	struct qstr d_name;		/* .name is d_iname or an external name */
	struct inode *d_inode;		/* wt_load/wt_store; NULL: negative */
	struct lockref d_lockref;	/* d_lock is d_lockref.lock */
	const struct dentry_operations *d_op;
	struct super_block *d_sb;
	void *d_fsdata;
	/* children: writer side, under the parent's d_lock */
	struct dentry *d_subdirs;	/* first child */
	struct dentry *d_sib;		/* next sibling */
	struct dentry **d_sib_pprev;	/* what points at us on that list */
	int d_mount_count;		/* mounts on this dentry (under mount_lock) */
	/* the world's dentry list (teardown, checks), under list_lock; a
	 * dentry leaves it when it is killed */
	struct dentry *d_all_next;
	struct dentry **d_all_pprev;
	char d_iname[DNAME_INLINE_LEN];	/* bytes: relaxed atomic accesses */
};

#define d_lock d_lockref.lock

/* --- lockless predicates (RCU-safe: each is a wt_load of d_flags) --- */
unsigned d_flags_load(const struct dentry *d);
static inline bool d_is_negative_flags(unsigned f) { return (f & DCACHE_ENTRY_TYPE) == DCACHE_MISS_TYPE; }
bool d_is_negative(const struct dentry *d);
bool d_is_dir(const struct dentry *d);		/* a directory (d_can_lookup) */
bool d_can_lookup(const struct dentry *d);
bool d_is_symlink(const struct dentry *d);
bool d_is_reg(const struct dentry *d);
bool d_unhashed(const struct dentry *d);
bool d_mountpoint(const struct dentry *d);
bool d_managed(const struct dentry *d);
static inline bool IS_ROOT(const struct dentry *d) { return d == d->d_parent; }
/* d_parent for a lockless reader: an acquire load at the caller's site. */
#define d_parent_rcu(d) wt_load_acquire((d), d_parent)
/*
 * One byte of a dentry name (d_name.name[i]) that may be changing under
 * the reader (d_move rewrites inline names in place): a relaxed atomic
 * byte load.  Name compares stop at the first difference, so a NUL of a
 * shorter name being swapped in ends them inside the buffer.
 */
static inline char d_name_byte(const char *name, uint32_t i)
{
	return __atomic_load_n(&name[i], __ATOMIC_RELAXED);
}
/* The dentry's inode, loaded with wt_load (may be NULL, may change). */
struct inode *d_backing_inode(const struct dentry *d);
#define d_inode(d) d_backing_inode(d)
#define d_inode_rcu(d) d_backing_inode(d)

/* --- references --- */
struct dentry *dget(struct dentry *d);		/* d must be held or locked */
struct dentry *dget_parent(struct dentry *d);
void dput(struct dentry *d);			/* may kill a dead, unhashed dentry */
/* d_count for busy checks and quiescence */
static inline int d_count(const struct dentry *d) { return lockref_read(&d->d_lockref); }

/* --- lookup --- */
/*
 * RCU-walk hash lookup: walks parent's chain without locks, samples each
 * candidate's d_seq with raw_seqcount_begin into *seqp, rechecks d_parent,
 * skips unhashed dentries, compares the name (with d_compare under a d_seq
 * retry when DCACHE_OP_COMPARE).  The caller must validate *seqp before
 * trusting anything it loads from the result.  Emits the event
 * "d_lookup_rcu.hit" (obj = the dentry) on a hit and "d_lookup_rcu.miss"
 * on a miss.  Caller is in an RCU read section; name carries the hash
 * the parent's d_hash gives it (d_hash_name), as the walker computes it
 * -- __d_lookup, d_lookup, d_alloc_parallel and d_alloc apply d_hash
 * themselves.
 */
struct dentry *__d_lookup_rcu(const struct dentry *parent,
			      const struct qstr *name, unsigned *seqp);
/*
 * REF-mode hash lookup without rename_lock: may miss during a concurrent
 * rename (the caller falls back to the non-racy d_lookup).  Returns the
 * dentry with a reference, or NULL.
 */
struct dentry *__d_lookup(const struct dentry *parent, const struct qstr *name);
/* __d_lookup under a rename_lock read_seqbegin/read_seqretry loop. */
struct dentry *d_lookup(const struct dentry *parent, const struct qstr *name);
/*
 * lookup_slow's allocator: d_lookup, or a new in-lookup dentry
 * (DCACHE_PAR_LOOKUP, negative, on the parent's children but not yet on
 * a hash chain -- as the kernel keeps in-lookup dentries on a hash of
 * their own) that the caller fills with the filesystem's ->lookup (whose
 * d_add hashes it) and then ends with d_lookup_done.  A second lookup of
 * the same name meanwhile waits for the first (d_wait_lookup) and gets
 * its result.  A ->lookup that fails leaves the dentry unhashed: the
 * caller's dput kills it.  The parent's d_hash is applied here.  Returns
 * with a reference; ERR_PTR(-ENOMEM) when the allocation point fails.
 */
struct dentry *d_alloc_parallel(struct dentry *parent, const struct qstr *name);
void d_lookup_done(struct dentry *d);
/* Apply the parent's d_hash to name (casefold); 0 or -errno. */
int d_hash_name(const struct dentry *parent, struct qstr *name);
/* Invalidate: unhash unless it is a mountpoint (d_invalidate). */
void d_invalidate(struct dentry *d);
/* Is any ancestor of d, below its filesystem's root, unhashed?  Each
 * is tested under its d_lock (d_set_mounted's walk up). */
bool has_unlinked_ancestor(struct dentry *d);

/* --- for filesystems' ->lookup and writer operations --- */
/*
 * A new negative, unhashed child of parent, with one reference (and one
 * on parent).  The parent's d_hash is applied to name here (idempotent),
 * so the stored hash is the one lookups compute.  NULL when the
 * allocation point fails or name does not fit a path (a name over
 * NAME_MAX_LEN is allowed: the filesystem's ->lookup refuses it).
 */
struct dentry *d_alloc(struct dentry *parent, const struct qstr *name);
/* instantiate (when inode) and hash; ends an in-lookup state */
void d_add(struct dentry *d, struct inode *inode);
/*
 * Make d positive: takes over the caller's reference on inode (NULL: no
 * change).  Runs the type's ->instantiate first (remote mirrors the
 * creation on its server, autofs flags triggers), then sets d_inode and
 * the type flags under d_seq.
 */
void d_instantiate(struct dentry *d, struct inode *inode);
/* d_instantiate plus the filesystem's pin (an extra reference and
 * DCACHE_PERSISTENT): what an in-memory fs's mkdir/create/symlink do. */
void d_make_persistent(struct dentry *d, struct inode *inode);
/* Drop that pin (unlink/rmdir on an in-memory fs, before d_delete). */
void d_make_discardable(struct dentry *d);
void d_rehash(struct dentry *d);
void __d_drop(struct dentry *d);			/* unhash; d_lock held */
void d_drop(struct dentry *d);
void d_delete(struct dentry *d);	/* negative if only the caller holds it, else unhashed */
/* d_move(dentry, target): dentry takes target's name and parent; target
 * is unhashed (it keeps its name and parent until it dies).  Bumps the
 * d_seq of both, never of a parent.  Caller holds rename_lock for writing
 * (write_seqlock(&w->rename_lock)), which the kernel's d_move takes
 * itself.  Runs the type's ->rename first. */
void d_move(struct dentry *dentry, struct dentry *target);
/* d_exchange: a and b swap names and parents (RENAME_EXCHANGE); both stay
 * hashed.  Same locking and seq rules as d_move. */
void d_exchange(struct dentry *a, struct dentry *b);
/* Is d a descendant of (or equal to) ancestor, following d_parent? */
bool is_subdir(const struct dentry *d, const struct dentry *ancestor);
/* Copy the name while holding nothing: for reports and the history. */
void d_name_copy(const struct dentry *d, char *buf, size_t size);

/*
 * The shrinker: kill every unused dentry (count 0) that has no children,
 * is no mountpoint and can be had again -- a negative one, or one of a
 * filesystem that looks names up elsewhere (remote); positive dentries of
 * in-memory filesystems are the filesystem and are never unused when
 * pinned.  Unhash, mark dead, free through RCU; repeats until nothing is
 * left to kill (a parent whose last child went may go next).  Returns how
 * many it killed.
 */
unsigned wt_dcache_shrink(struct wt_world *w);

#endif /* WT_SIM_VFS_DCACHE_H */

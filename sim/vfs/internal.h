/* SPDX-License-Identifier: MIT */
/*
 * What the sim/vfs files share among themselves and show nobody else:
 * the id hash, locked-count helpers, the world's object lists, and the
 * teardown entry points of each object kind.
 */
#ifndef WT_SIM_VFS_INTERNAL_H
#define WT_SIM_VFS_INTERNAL_H

#include "sim/atomic.h"
#include "sim/mix.h"
#include "sim/vfs/world.h"


/*
 * The bucket of a pair of ids (dcache: parent id and name hash; mount
 * hash: parent mount id and mountpoint dentry id).  Ids, never
 * addresses: the chain layout is a function of the seed and the
 * operations, the same in every process.
 */
static inline uint32_t wt_hash_bucket(uint64_t a, uint64_t b, uint32_t n)
{
	return (uint32_t)(wt_mix64(wt_mix64(a) ^ (b * 0x9e3779b97f4a7c15ull)) % n);
}

static inline struct wt_world *d_world(const struct dentry *d)
{
	return d->d_sb->s_world;
}

/*
 * dget_dlock / the kernel's `count++` under d_lock: the caller holds
 * d->d_lock, so every other writer of the count (lockref.c takes the
 * same lock) is excluded; the store is atomic for lockref_read().
 */
static inline void wt_dget_dlock(struct dentry *d)
{
	WT_HOOK(WT_K_REF_GET, NULL, "lockref", "dget_dlock", d);
	__atomic_store_n(&d->d_lockref.count, d->d_lockref.count + 1,
			 __ATOMIC_RELAXED);
}

static inline void wt_dput_dlock(struct dentry *d)
{
	WT_HOOK(WT_K_REF_PUT, NULL, "lockref", "dput_dlock", d);
	__atomic_store_n(&d->d_lockref.count, d->d_lockref.count - 1,
			 __ATOMIC_RELAXED);
}

/* --- dcache.c --- */
/* The root dentry of a new super_block ("/", its own parent, unhashed,
 * one reference: the super_block's); takes over the inode reference. */
struct dentry *d_alloc_root(struct super_block *sb, struct inode *inode);
/* Kill every dentry of sb (super_block teardown); reports the busy. */
void wt_dcache_kill_sb(struct super_block *sb);
/* World teardown: free a dentry and its name at once, no questions. */
void wt_dentry_destroy(struct dentry *d);

/* --- inode.c --- */
/* Free at once, off its sb's list (world teardown, failed set-up). */
void wt_inode_destroy(struct inode *inode);
/* Free an inode still alive at super_block teardown (reported). */
void wt_inode_kill(struct inode *inode);

/* --- super.c --- */
void deactivate_super(struct super_block *sb);	/* s_active--, kill at 0 */
/* The shrinker's pin: false when sb is being killed (super.c). */
bool wt_super_pin(struct super_block *sb);
void wt_super_unpin(struct super_block *sb);
void wt_sb_destroy(struct super_block *sb);	/* world teardown */

/* --- mount.c --- */
void wt_mount_destroy(struct mount *m);		/* world teardown */
/* Set up the world's root mount (its own parent, attached). */
struct mount *wt_mnt_root_create(struct super_block *sb);

/* --- the world's lists, under w->list_lock --- */
/* list_lock held */
static inline void __wt_world_del_dentry(struct dentry *d)
{
	*d->d_all_pprev = d->d_all_next;
	if (d->d_all_next)
		d->d_all_next->d_all_pprev = d->d_all_pprev;
	d->d_all_next = NULL;
	d->d_all_pprev = NULL;
}

void wt_world_add_dentry(struct wt_world *w, struct dentry *d);
void wt_world_del_dentry(struct wt_world *w, struct dentry *d);
void wt_world_add_mount(struct wt_world *w, struct mount *m);
void wt_world_del_mount(struct wt_world *w, struct mount *m);

#endif /* WT_SIM_VFS_INTERNAL_H */

/* SPDX-License-Identifier: MIT */
/*
 * super_block, struct mount / vfsmount, the mount hash, and the mount
 * reference count (the model of fs/namespace.c's read side).
 *
 * The mount hash is keyed by (parent mount id, mountpoint dentry id),
 * with a configurable number of buckets, and is written only under
 * write_seqlock(&world->mount_lock).  A reader (__lookup_mnt) walks a
 * chain without locks and can take a false negative while a chain is
 * rewritten: that is why __follow_mount_rcu must give up when mount_lock
 * moved.
 *
 * mnt_count is per thread, as the kernel's is per CPU: each thread adds to
 * its own slot with a plain (relaxed load + store) update, which is not a
 * barrier -- the reason __legitimize_mnt needs its smp_mb() -- and the
 * busy check sums the slots.
 */
#ifndef WT_SIM_VFS_MOUNT_H
#define WT_SIM_VFS_MOUNT_H

#include "sim/obj.h"
#include "sim/vfs/access.h"
#include "sim/vfs/fsops.h"
#include "sim/vfs/types.h"

/* mnt_flags: the kernel's values, written as bit numbers */
#define MNT_NOSUID	(1 << 0)	/* set-id bits do nothing */
#define MNT_NODEV	(1 << 1)	/* device nodes do not open */
#define MNT_NOEXEC	(1 << 2)	/* nothing executes */
#define MNT_NOATIME	(1 << 3)	/* atime is never updated */
#define MNT_READONLY	(1 << 6)	/* this mount writes nothing: EROFS */
#define MNT_NOSYMFOLLOW	(1 << 7)	/* no symlink on it is followed: ELOOP */
#define MNT_INTERNAL	(1 << 14)	/* in no namespace */
#define MNT_LOCKED	(1 << 23)	/* may not be unmounted alone */
#define MNT_DOOMED	(1 << 24)	/* being torn down */
#define MNT_SYNC_UMOUNT	(1 << 25)	/* its umount does the last put */
#define MNT_MARKED	(1 << 26)	/* picked by the umount in progress */
#define MNT_UMOUNT	(1 << 27)	/* unmounted, awaiting its last put */

/* Slots of mnt_count: thread id + 1; slot 0 is "no simulated thread". */
#ifndef WT_MAX_THREADS
#define WT_MAX_THREADS 32
#endif
#define WT_MNT_SLOTS (WT_MAX_THREADS + 1)

struct super_block {
	struct wt_obj wt;
	const struct file_system_type *s_type;
	struct dentry *s_root;
	struct wt_world *s_world;
	char s_name[64];		/* the NAME of `mount -t TYPE NAME PATH` */
	uint64_t s_next_ino;
	struct inode *s_inodes;		/* all inodes (writer side) */
	int s_active;			/* mounts using it (atomic: the last
					 * mntput may come from any thread) */
	void *s_fs_info;		/* fs-private (remote: the server) */
	/* SB_RDONLY: the filesystem itself is read-only, through every
	 * mount of it (mount -t -o ro, remount ro); READ_ONCE/WRITE_ONCE,
	 * written by a remount while walkers open */
	unsigned long s_flags;
	struct super_block *s_next;	/* the world's list */
};

struct vfsmount {
	struct super_block *mnt_sb;	/* the filesystem mounted */
	struct dentry *mnt_root;	/* the dentry of it seen at the top */
	int mnt_flags;			/* wt_load/wt_store on the mount */
};

struct mount {
	struct wt_obj wt;
	struct mount *mnt_hash_next;	/* RCU mount-hash chain */
	uint32_t mnt_bucket;
	struct mount *mnt_parent;	/* wt_load/wt_store; itself if not attached */
	struct dentry *mnt_mountpoint;	/* wt_load/wt_store */
	struct vfsmount mnt;
	int mnt_pcp[WT_MNT_SLOTS];	/* per-thread counts; see above */
	struct mount *mnt_mounts;	/* children (writer side, namespace_sem) */
	struct mount *mnt_child;	/* next sibling */
	/* the world's list (teardown, checks), under list_lock; a mount
	 * leaves it at its final put */
	struct mount *mnt_all_next;
	struct mount **mnt_all_pprev;
	/* In the namespace tree: written under mount_lock, read locklessly
	 * by mntput's fast path (the kernel's mnt_ns test). */
	bool mnt_attached;
	bool mnt_hashed;		/* on a hash chain (writer side) */
	/*
	 * Who did the final put (thread id + 1; 0 for no simulated thread,
	 * or before it happened) and how many final puts there were (the
	 * MNT_DOOMED test keeps it at most 1).  Set under mount_lock, just
	 * before the mount is freed through RCU: read them inside an RCU
	 * read section, or use wt_mntput_final()'s answer.
	 */
	int mnt_final_put_by;
	uint32_t mnt_final_puts;
	char mnt_devname[64];
};

static inline struct mount *real_mount(struct vfsmount *m)
{
	return container_of(m, struct mount, mnt);
}

static inline bool mnt_has_parent(const struct mount *m)
{
	return m != m->mnt_parent;
}

int mnt_flags_load(const struct mount *m);

#define SB_RDONLY	1UL		/* the kernel's value */

static inline bool sb_rdonly(const struct super_block *sb)
{
	return READ_ONCE(sb->s_flags) & SB_RDONLY;
}

/*
 * __mnt_is_readonly: what mnt_want_write refuses with EROFS -- a
 * read-only mount (MNT_READONLY: a bind mount may be read-only over a
 * writable filesystem) or a read-only filesystem under any mount.
 */
static inline bool mnt_is_readonly(struct vfsmount *m)
{
	return (mnt_flags_load(real_mount(m)) & MNT_READONLY) ||
	       sb_rdonly(m->mnt_sb);
}

/*
 * The count.  mnt_add_count changes the calling thread's slot only, with a
 * relaxed load and store (no barrier: see the header comment).  The
 * injection point is in the caller's frame via the macro.
 */
void wt_mnt_add_count(struct mount *m, int n, const struct wt_point *p);
#define mnt_add_count(m, n)						\
	wt_mnt_add_count((m), (n), WT_POINT_OR_NULL((n) > 0 ? WT_K_REF_GET : WT_K_REF_PUT, \
			 NULL, "mnt_count", "mnt_add_count"))
int mnt_get_count(const struct mount *m);	/* sum of the slots */

struct vfsmount *mntget(struct vfsmount *m);
/*
 * mntput: drop a reference.  The last reference of a mount that is no
 * longer attached (lazy umount, or a sync umount's own final put) frees it
 * after a grace period (mntput_no_expire: the smp_mb pairing with
 * __legitimize_mnt is in there).
 */
void mntput(struct vfsmount *m);
/* mntput, answering whether this call did the final put (the check that
 * a sync umount put its mount itself); NULL m answers false. */
bool wt_mntput_final(struct vfsmount *m);

/*
 * __lookup_mnt: the child mount at (parent, dentry), or NULL.  RCU-safe,
 * no reference taken; emits "lookup_mnt.hash_step" points per chain step.
 *
 * Stacking is the kernel's: mounting on a place that already has a mount
 * mounts on the top mount's root, so the new mount's (parent, mountpoint)
 * is (top, top's root) and each (parent, dentry) has one child; resolving
 * the path to the top is the caller's (sim/ops) job.  Should two mounts
 * be attached at the same (parent, dentry) anyway, the newest is first on
 * its chain (attach adds at the head, as hlist_add_head_rcu) and is the
 * one returned: it hides the older.
 */
struct mount *__lookup_mnt(struct vfsmount *parent, const struct dentry *dentry);
/* lookup_mnt: the same with a reference: sampled under mount_lock's
 * read_seqbegin, the count taken and legitimized as __legitimize_mnt
 * does, retried while mount_lock moves.  Not inside an RCU section. */
struct vfsmount *lookup_mnt(const struct path *path);

/* lock_mount_hash: write_seqlock(&mount_lock), as the kernel. */
void lock_mount_hash(struct wt_world *w);
void unlock_mount_hash(struct wt_world *w);

/*
 * finish_automount: attach an automounted mount m (d_automount's answer,
 * with its one reference, which this takes over: on success it becomes
 * the mount tree's) at path, under namespace_sem and mount_lock.
 * Returns 0 when m is attached, and also -- as the kernel does -- when
 * something is already mounted at path (someone automounted first): m is
 * then discarded and the caller goes round its loop and crosses the
 * other mount.  -ELOOP when m would be mounted on its own root, -ENOENT
 * when the mountpoint was unhashed meanwhile; PTR_ERR(m) for an error
 * pointer; 0 for NULL.  Logged in the history as "automount".
 */
int finish_automount(struct vfsmount *m, const struct path *path);

/* --- writer side (sim/ops uses these; the caller takes the locks) --- */
/* A new super_block of type, with its root directory inode and dentry. */
struct super_block *wt_sb_create(struct wt_world *w,
				 const struct file_system_type *type,
				 const char *name);
/* Free a super_block that never got a mount (an error path). */
void wt_sb_discard(struct super_block *sb);
/*
 * A new, unattached mount of (sb, root) with one reference (the caller's;
 * attached, it becomes the tree's).  Takes a reference on root and an
 * active reference on sb; NULL when the allocation point fails.
 */
struct mount *wt_mnt_alloc(struct super_block *sb, struct dentry *root,
			   const char *devname);
/*
 * Caller holds mount_lock for writing (and namespace_sem): hash m at
 * (parent, mp) -- at the head of its chain, so on top of anything at the
 * same place --, pin parent (a count, the kernel's mnt_set_mountpoint)
 * and mp (a dentry reference), set DCACHE_MOUNTED on mp, store
 * mnt_mountpoint then mnt_parent (the kernel's order; writer steps
 * "mnt_attach.mnt_mountpoint", "mnt_attach.mnt_parent"), mark attached.
 */
void wt_mnt_attach(struct mount *m, struct mount *parent, struct dentry *mp);
/*
 * Caller holds mount_lock for writing (and namespace_sem): unhash m
 * (its chain link stays, so a reader standing on it walks on), make it
 * its own parent with its root as mountpoint (steps
 * "mnt_detach.mnt_parent", "mnt_detach.mnt_mountpoint", the kernel's
 * unhash_mnt), mark it not attached, drop its pin on the old parent (a
 * plain decrement, as umount_tree) and on the mountpoint dentry, and
 * clear DCACHE_MOUNTED when it was the last mount there.  m keeps the
 * tree's reference: the caller drops it with mntput -- after a grace
 * period (synchronize_rcu), which mntput's lockless "attached" test
 * relies on, as the kernel's namespace_unlock.  For mount --move,
 * detach then attach again under the same mount_lock section.
 */
void wt_mnt_detach(struct mount *m);
/*
 * lock_mount's get_mountpoint and unlock_mount's put_mountpoint: one
 * more (or one fewer) user of mp, which is a mountpoint (DCACHE_MOUNTED)
 * while it has any.  mount --move takes one on its destination before
 * the mount_lock section that detaches and attaches, as the kernel's
 * lock_mount does, so that mp is marked before the source is cleared.
 */
void wt_mountpoint_pin(struct dentry *mp, int n);

#endif /* WT_SIM_VFS_MOUNT_H */

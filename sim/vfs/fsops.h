/* SPDX-License-Identifier: MIT */
/*
 * The operations tables a filesystem type provides: inode_operations,
 * dentry_operations, and the type itself.  rcutorture style: designated
 * initializers, unused hooks NULL; callers check for NULL and fall back to
 * the generic behaviour (generic_permission, no revalidation, ...).
 *
 * Calling conventions follow Linux 6.x:
 *  - d_revalidate(dentry, flags): 1 valid, 0 invalid (drop and look up
 *    again), -ECHILD (flags has LOOKUP_RCU and the answer needs to block:
 *    ask again in REF mode), -ESTALE (stale handle).  It must honour
 *    LOOKUP_REVAL by revalidating strictly (asking the server).
 *  - d_weak_revalidate(dentry, flags): 1 ok, 0 -> the caller's -ESTALE.
 *  - d_hash/d_compare: casefold.  d_compare is called by __d_lookup_rcu
 *    with a name that may be changing under it; the caller rechecks d_seq.
 *  - d_automount(path): a new mount to attach at path (returned with one
 *    reference), NULL if someone else mounted, or ERR_PTR.
 *  - d_manage(path, rcu_walk): 0 go on, -EISDIR don't cross (treat as a
 *    plain dir), -ECHILD (rcu_walk and it would block).
 *  - permission(cred, inode, mask): 0, -EACCES, or -ECHILD when mask has
 *    MAY_NOT_BLOCK and the answer needs to block (uncached ACL).
 *  - get_link(cred, dentry, inode, jump): the body; in RCU mode dentry is
 *    NULL, and a body not in memory answers ERR_PTR(-ECHILD).  A magic
 *    link (proc-like) fills *jump with a referenced path and returns NULL:
 *    the walker then does nd_jump_link (REF mode only; in RCU mode a magic
 *    link answers -ECHILD).  cred is the caller's (the kernel's current
 *    credentials): proc refuses a process's links to a caller that may
 *    not read it (ERR_PTR(-EACCES)).
 *  - lookup(dir, dentry, flags): fill a fresh in-lookup dentry (d_add it
 *    positive or negative); returns NULL, or another dentry to use instead,
 *    or ERR_PTR (-ESTALE from a remote server with a stale handle).
 */
#ifndef WT_SIM_VFS_FSOPS_H
#define WT_SIM_VFS_FSOPS_H

#include "sim/vfs/types.h"

struct inode_operations {
	int (*permission)(const struct cred *cred, struct inode *inode, int mask);
	const char *(*get_link)(const struct cred *cred, struct dentry *dentry,
				struct inode *inode, struct path *jump);
	struct dentry *(*lookup)(struct inode *dir, struct dentry *dentry,
				 unsigned flags);
};

struct dentry_operations {
	int (*d_revalidate)(struct dentry *dentry, unsigned flags);
	int (*d_weak_revalidate)(struct dentry *dentry, unsigned flags);
	int (*d_hash)(const struct dentry *parent, struct qstr *name);
	int (*d_compare)(const struct dentry *dentry, uint32_t len,
			 const char *str, const struct qstr *name);
	struct vfsmount *(*d_automount)(struct path *path);
	int (*d_manage)(const struct path *path, bool rcu_walk);
	/* dput's last reference, d_lock held: nonzero kills the dentry
	 * instead of keeping it cached unused (retain_dentry). */
	int (*d_delete)(const struct dentry *dentry);
};

enum wt_fs_kind {
	WT_FS_PLAIN,		/* tmpfs-like */
	WT_FS_REMOTE,		/* NFS-like, a server truth behind the client */
	WT_FS_CASEFOLD,		/* case-insensitive names */
	WT_FS_AUTOFS,		/* automount points */
	WT_FS_PROC,		/* magic links */
	WT_FS_SLOWPERM,		/* permission() must block */
	WT_FS__COUNT
};

struct file_system_type {
	const char *name;		/* "tmpfs", "remote", "casefold", ... */
	enum wt_fs_kind kind;
	const struct inode_operations *dir_iop;
	const struct inode_operations *file_iop;
	const struct inode_operations *link_iop;
	const struct dentry_operations *dop;	/* NULL: none */
	/* Set up a new super_block's fs-private state (s_fs_info); runs
	 * before the root inode and dentry exist.  0 or -errno. */
	int (*fill_super)(struct super_block *sb);
	/* Free the fs-private state; every dentry and inode of sb is dead.
	 * RCU-walk may still read s_fs_info: free it through RCU. */
	void (*kill_super)(struct super_block *sb);
	/*
	 * The model has no inode_operations for mkdir, unlink or rename:
	 * writer operations change the dcache directly.  A type with a
	 * truth of its own (remote's server) or with per-dentry state
	 * (autofs triggers, slowperm's uncached ACLs) hears of the changes
	 * here.  Each may be NULL.  Called without dcache locks (rename:
	 * under rename_lock only), before the change is visible.
	 *  - instantiate: d is about to become positive with inode (a new
	 *    object, a hard link, a ->lookup result); returns d_flags to
	 *    add (DCACHE_NEED_AUTOMOUNT, ...).
	 *  - unlink: d (positive) is about to be deleted.
	 *  - rename: d_move(dentry, target) or d_exchange (exchange true).
	 *  - evict_inode: the last iput; teardown true when the world is
	 *    being destroyed (free memory only, take and drop nothing).
	 */
	unsigned (*instantiate)(struct dentry *d, struct inode *inode);
	void (*unlink)(struct dentry *d);
	void (*rename)(struct dentry *dentry, struct dentry *target,
		       bool exchange);
	void (*evict_inode)(struct inode *inode, bool teardown);
};

/* The registered types, by name ("tmpfs" and "plain" are one type). */
const struct file_system_type *wt_fs_type_lookup(const char *name);
/* For error messages: every valid name, comma-separated. */
const char *wt_fs_type_names(void);

#endif /* WT_SIM_VFS_FSOPS_H */

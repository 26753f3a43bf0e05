/* SPDX-License-Identifier: MIT */
/*
 * struct inode and permission checking.
 *
 * Fields an RCU-walk reader loads while a writer may change them (i_mode,
 * i_uid, i_gid, i_link, i_flags) are accessed with wt_load()/wt_store().
 */
#ifndef WT_SIM_VFS_INODE_H
#define WT_SIM_VFS_INODE_H

#include "sim/lockref.h"
#include "sim/mutex.h"
#include "sim/obj.h"
#include "sim/spinlock.h"
#include "sim/vfs/access.h"
#include "sim/vfs/fsops.h"
#include "sim/vfs/types.h"

/* i_flags */
#define S_DEAD		0x0001	/* rmdir'ed / unlinked and evicted */
#define S_ACL_UNCACHED	0x0002	/* slow-permission: the ACL must be fetched (blocks) */
#define S_NEEDS_ATIME	0x0004	/* atime_needs_update(): touch_atime due (blocks) */
#define S_LINK_UNCACHED	0x0008	/* remote: the link body is not in memory */
#define S_MAGICLINK	0x0010	/* proc-like magic link: get_link jumps (nd_jump_link) */
#define S_BAD_INODE	0x0020	/* remote: the client found it bad (is_bad_inode) */

/*
 * A symlink body: i_link points at its text.  Published with a release
 * store (wt_store_release) and freed through RCU when replaced, so a
 * lockless reader checks the object (wt_linkbody_of) before reading.
 */
struct wt_linkbody {
	struct wt_obj wt;
	uint32_t len;
	char text[];			/* NUL-terminated */
};

static inline struct wt_linkbody *wt_linkbody_of(const char *text)
{
	return container_of(text, struct wt_linkbody, text);
}

struct inode {
	struct wt_obj wt;		/* wt.id is the world-unique inode id */
	umode_t i_mode;
	uint32_t i_uid;
	uint32_t i_gid;
	uint32_t i_nlink;
	uint32_t i_flags;
	uint32_t i_generation;		/* bumped when the server reuses the handle */
	uint64_t i_ino;			/* per super_block */
	const struct inode_operations *i_op;
	struct super_block *i_sb;
	const char *i_link;		/* symlink body (a struct wt_linkbody's text) */
	spinlock_t i_lock;
	struct wt_mutex i_rwsem;	/* directory operations, lookup_slow */
	int i_count;			/* references from dentries (under i_lock) */
	void *i_private;		/* fs-private (remote: server node) */
	/* the super_block's inode list, under the world's list_lock; an
	 * inode leaves it when it is evicted */
	struct inode *i_sb_next;
	struct inode **i_sb_pprev;
};

/*
 * generic_permission() with cred: the owner/group/other bits, root's
 * CAP_DAC_OVERRIDE (any access to a directory; exec on a file only if some
 * x bit is set).  Safe in RCU mode (loads i_mode/i_uid/i_gid with
 * wt_load()).
 */
int generic_permission(const struct cred *cred, struct inode *inode, int mask);

/*
 * inode_permission(): a write to a file, directory or symlink of a
 * read-only filesystem is -EROFS first (sb_permission), for anyone; then
 * i_op->permission if the type has one, otherwise generic_permission().
 * With MAY_NOT_BLOCK in mask a check that must sleep answers -ECHILD.
 */
int inode_permission(const struct cred *cred, struct inode *inode, int mask);

/* Writer side: a new inode on sb (i_op chosen by the type from the mode),
 * one reference held by the caller (d_instantiate takes it over); NULL
 * when the allocation point fails.  i_nlink is 2 for a directory, else 1;
 * i_generation 1. */
struct inode *wt_inode_alloc(struct super_block *sb, umode_t mode,
			     uint32_t uid, uint32_t gid);
void iget(struct inode *inode);
void iput(struct inode *inode);		/* last put frees through RCU */
/* Set a symlink's body (copied; the old body is freed through RCU).
 * 0, -ENAMETOOLONG, or -ENOMEM when the allocation point fails.  Bodies
 * are meant to be set once, before the inode is published: a walker in
 * REF mode reads a body without RCU protection. */
int wt_inode_set_link(struct inode *inode, const char *body);

/*
 * atime.  The model keeps no timestamps: S_NEEDS_ATIME stands for
 * atime_needs_update()'s answer under relatime, the default -- true once
 * the inode's atime is not after its mtime (touch -h of a symlink sets
 * both to now), false again after touch_atime.  A link made by ln -s
 * counts as already read, so an ordinary tree has no atime update due
 * and RCU-walk follows its links lazily.
 */
/* mnt_flags: the MNT_* of the link's mount (the caller loaded them once).
 * A noatime mount, or a read-only filesystem (IS_NOATIME), never asks;
 * a read-only mount of a writable one still does (touch_atime then gets
 * no write access, so the update stays due). */
bool atime_needs_update(struct inode *inode, int mnt_flags);
/* touch -h: atime and mtime now, so the next access updates atime. */
void wt_inode_touch(struct inode *inode);
/* REF mode: the update atime_needs_update asked for (may block in the
 * kernel: mnt_want_write, the journal); none through a read-only mount. */
void touch_atime(struct inode *inode, int mnt_flags);

/* Group membership, for generic_permission and the oracle. */
bool in_group_p(const struct cred *cred, uint32_t gid);

#endif /* WT_SIM_VFS_INODE_H */

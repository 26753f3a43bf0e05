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
#include "sim/vfs/fsops.h"
#include "sim/vfs/types.h"

/* i_flags */
#define S_DEAD		0x0001	/* rmdir'ed / unlinked and evicted */
#define S_ACL_UNCACHED	0x0002	/* slow-permission: the ACL must be fetched (blocks) */
#define S_NEEDS_ATIME	0x0004	/* following this link wants an atime update (blocks) */
#define S_LINK_UNCACHED	0x0008	/* remote: the link body is not in memory */

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
	struct inode *i_sb_next;	/* the super_block's inode list (writer side) */
};

/*
 * generic_permission() with cred: the owner/group/other bits, root's
 * CAP_DAC_OVERRIDE (any access to a directory; exec on a file only if some
 * x bit is set).  Safe in RCU mode (loads i_mode/i_uid/i_gid with
 * wt_load()).
 */
int generic_permission(const struct cred *cred, struct inode *inode, int mask);

/*
 * inode_permission(): i_op->permission if the type has one, otherwise
 * generic_permission().  With MAY_NOT_BLOCK in mask a check that must
 * sleep answers -ECHILD.
 */
int inode_permission(const struct cred *cred, struct inode *inode, int mask);

/* Writer side: a new inode on sb (i_op chosen by the type from the mode),
 * one reference held by the caller; NULL when the allocation point fails. */
struct inode *wt_inode_alloc(struct super_block *sb, umode_t mode,
			     uint32_t uid, uint32_t gid);
void iget(struct inode *inode);
void iput(struct inode *inode);		/* last put frees through RCU */
/* Set a symlink's body (copied; the old body is freed through RCU). */
int wt_inode_set_link(struct inode *inode, const char *body);

/* Group membership, for generic_permission and the oracle. */
bool in_group_p(const struct cred *cred, uint32_t gid);

#endif /* WT_SIM_VFS_INODE_H */

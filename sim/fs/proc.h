/* SPDX-License-Identifier: MIT */
/*
 * proc: magic links, the /proc/PID/fd/N and /proc/PID/cwd kind.  A magic
 * link is a symlink inode (S_IFLNK, i_flags S_MAGICLINK) with no body:
 * its get_link, in REF mode, fills *jump with its target path (with
 * references) and returns NULL, and the walker does nd_jump_link; in RCU
 * mode (dentry NULL) it answers -ECHILD -- a jump cannot be validated
 * lazily.  The link holds references on its target (mount and dentry)
 * until its inode is evicted.
 */
#ifndef WT_SIM_FS_PROC_H
#define WT_SIM_FS_PROC_H

#include "sim/vfs/dcache.h"
#include "sim/vfs/inode.h"
#include "sim/vfs/mount.h"

/*
 * Create the magic link NAME in the root of proc super_block sb, aimed at
 * target (referenced here).  The caller holds the root's i_rwsem, as for
 * any creation.  The dentry is pinned (d_make_persistent).
 * 0, -EINVAL (not a proc sb), -EEXIST, -ENOMEM.  Not logged in the
 * history: the caller (a writer operation) logs the dentry and inode.
 */
int wt_proc_add_magic(struct super_block *sb, const char *name,
		      struct path target);
/* A magic link's target (no reference taken); false for other inodes. */
bool wt_proc_magic_target(const struct inode *inode, struct path *out);

#endif /* WT_SIM_FS_PROC_H */

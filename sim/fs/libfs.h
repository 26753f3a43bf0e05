/* SPDX-License-Identifier: MIT */
/*
 * What the filesystem types share (the model's fs/libfs.c): the simple
 * operations of an in-memory filesystem, and the registered types.
 */
#ifndef WT_SIM_FS_LIBFS_H
#define WT_SIM_FS_LIBFS_H

#include "sim/vfs/dcache.h"
#include "sim/vfs/fsops.h"
#include "sim/vfs/inode.h"

extern const struct file_system_type wt_tmpfs_type;
extern const struct file_system_type wt_plain_type;
extern const struct file_system_type wt_remote_type;
extern const struct file_system_type wt_casefold_type;
extern const struct file_system_type wt_autofs_type;
extern const struct file_system_type wt_proc_type;
extern const struct file_system_type wt_slowperm_type;

/* An in-memory filesystem has every name in the dcache: a name that is
 * not there does not exist, and lookup makes the dentry negative (or
 * answers -ENAMETOOLONG for a name over 255 bytes). */
struct dentry *simple_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned flags);
/* d_delete for a type that caches no unused dentry: always 1. */
int always_delete_dentry(const struct dentry *dentry);
/* The body in i_link (checked alive: a freed body is reported and
 * answers -EIO); -EIO for a symlink without one. */
const char *simple_get_link(const struct cred *cred, struct dentry *dentry,
			    struct inode *inode, struct path *jump);

extern const struct inode_operations wt_simple_dir_iop;
extern const struct inode_operations wt_simple_file_iop;
extern const struct inode_operations wt_simple_link_iop;

#endif /* WT_SIM_FS_LIBFS_H */

/* SPDX-License-Identifier: MIT */
/*
 * O_CREAT's creation of a file, through sim's writer API (the walk engine
 * never builds VFS objects itself: the writer side owns the publication
 * protocol and the history log).
 */
#ifndef WT_CORE_OPEN_CREATE_H
#define WT_CORE_OPEN_CREATE_H

#include <stdbool.h>

#include "sim/vfs/world.h"

/*
 * Create a regular file of mode for task at the negative dentry, a child
 * of dir (whose i_rwsem the caller holds).  0 with dentry positive, or
 * -errno (-EEXIST when excl and it exists after all).
 */
int wt_open_create(struct wt_task *task, struct inode *dir,
		   struct dentry *dentry, umode_t mode, bool excl);

#endif /* WT_CORE_OPEN_CREATE_H */

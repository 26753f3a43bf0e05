/* SPDX-License-Identifier: MIT */
#include "core/open_create.h"

/* TODO: call sim/ops.h's create when it lands. */
int wt_open_create(struct wt_task *task, struct inode *dir,
		   struct dentry *dentry, umode_t mode, bool excl)
{
	(void)task; (void)dir; (void)dentry; (void)mode; (void)excl;
	return -EROFS;
}

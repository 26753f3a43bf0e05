/* SPDX-License-Identifier: MIT */
/* slowperm: see sim/fs/slowperm.h. */
#include "sim/fs/libfs.h"
#include "sim/fs/slowperm.h"
#include "sim/sched/sched.h"

static void i_flags_update(struct inode *inode, uint32_t clear, uint32_t set)
{
	spin_lock(&inode->i_lock);
	wt_store(inode, i_flags, (inode->i_flags & ~clear) | set);
	spin_unlock(&inode->i_lock);
}

void wt_slowperm_uncache(struct inode *inode)
{
	i_flags_update(inode, 0, S_ACL_UNCACHED);
}

static int slowperm_permission(const struct cred *cred, struct inode *inode,
			       int mask)
{
	if (wt_load(inode, i_flags) & S_ACL_UNCACHED) {
		/* RCU-walk: the answer needs the ACL, and fetching it
		 * sleeps -- ask again in REF mode. */
		if (mask & MAY_NOT_BLOCK)
			return -ECHILD;
		wt_might_sleep(WT_POINT_OR_NULL(WT_K_WAIT, "slowperm.fetch_acl",
						NULL, "fetch an ACL (sleeps)"));
		i_flags_update(inode, S_ACL_UNCACHED, 0);
	}
	return generic_permission(cred, inode, mask);
}

/* Every new inode's ACL is out of memory until first checked. */
static unsigned slowperm_instantiate(struct dentry *d, struct inode *inode)
{
	(void)d;
	i_flags_update(inode, 0, S_ACL_UNCACHED);
	return 0;
}

static const struct inode_operations slowperm_dir_iop = {
	.permission = slowperm_permission,
	.lookup = simple_lookup,
};

static const struct inode_operations slowperm_file_iop = {
	.permission = slowperm_permission,
};

static const struct inode_operations slowperm_link_iop = {
	.permission = slowperm_permission,
	.get_link = simple_get_link,
};

const struct file_system_type wt_slowperm_type = {
	.name = "slowperm",
	.kind = WT_FS_SLOWPERM,
	.dir_iop = &slowperm_dir_iop,
	.file_iop = &slowperm_file_iop,
	.link_iop = &slowperm_link_iop,
	.instantiate = slowperm_instantiate,
};

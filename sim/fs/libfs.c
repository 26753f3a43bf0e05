/* SPDX-License-Identifier: MIT */
/*
 * The simple operations every in-memory filesystem type shares, and
 * tmpfs ("plain"), the type that has nothing else: no d_op, everything
 * cached, so RCU-walk never needs to fall back on it.
 */
#include "sim/fs/libfs.h"

struct dentry *simple_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned flags)
{
	(void)dir;
	(void)flags;
	d_add(dentry, NULL);
	return NULL;
}

const char *simple_get_link(struct dentry *dentry, struct inode *inode,
			    struct path *jump)
{
	const char *body = wt_load_acquire(inode, i_link);
	const struct wt_obj *o;

	(void)dentry;
	(void)jump;
	if (!body)
		return ERR_PTR(-EIO);
	/* Bodies are replaced only through RCU: a freed one here means the
	 * caller kept it past its section. */
	o = &wt_linkbody_of(body)->wt;
	wt_obj_check(o, WT_ACCESS_POINT(WT_K_LOAD, "i_link", "a symlink body"));
	if (__atomic_load_n(&o->magic, __ATOMIC_RELAXED) != WT_OBJ_LIVE)
		return ERR_PTR(-EIO);
	return body;
}

const struct inode_operations wt_simple_dir_iop = {
	.lookup = simple_lookup,
};

const struct inode_operations wt_simple_file_iop = {
	.permission = NULL,
};

const struct inode_operations wt_simple_link_iop = {
	.get_link = simple_get_link,
};

const struct file_system_type wt_tmpfs_type = {
	.name = "tmpfs",
	.kind = WT_FS_PLAIN,
	.dir_iop = &wt_simple_dir_iop,
	.file_iop = &wt_simple_file_iop,
	.link_iop = &wt_simple_link_iop,
	.dop = NULL,
};

/* SPDX-License-Identifier: MIT */
/*
 * The simple operations every in-memory filesystem type shares, and the
 * two types that have nothing else: tmpfs (its dentry operations only
 * say that unused dentries are not kept: no negative dentry stays) and
 * plain (no d_op at all: everything cached, negative names too, so
 * RCU-walk never needs to fall back on it).
 */
#include "sim/fs/libfs.h"

struct dentry *simple_lookup(struct inode *dir, struct dentry *dentry,
			     unsigned flags)
{
	(void)dir;
	(void)flags;
	/* The 255-byte limit is this filesystem's, not the walk's: proc,
	 * whose lookup knows no such limit, answers ENOENT instead. */
	if (dentry->d_name.len > NAME_MAX_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	d_add(dentry, NULL);
	return NULL;
}

/*
 * tmpfs keeps no unused dentry that has no inode: its positive dentries
 * are pinned (d_make_persistent), so the only ones that ever reach a
 * count of zero are negative -- a lookup's miss, an unlinked name -- and
 * dput kills them.  A second lookup of a missing name therefore misses
 * the dcache again, which RESOLVE_CACHED answers with EAGAIN.
 */
int always_delete_dentry(const struct dentry *dentry)
{
	(void)dentry;
	return 1;
}

static const struct dentry_operations simple_dentry_operations = {
	.d_delete = always_delete_dentry,
};

const char *simple_get_link(const struct cred *cred, struct dentry *dentry,
			    struct inode *inode, struct path *jump)
{
	const char *body = wt_load_acquire(inode, i_link);
	const struct wt_obj *o;

	(void)cred;
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
	.dop = &simple_dentry_operations,
};

/*
 * "plain": tmpfs without d_delete, so an unused negative dentry stays
 * cached until a shrink or an unhash, as on a disk filesystem (ext4,
 * xfs).  The scenarios' root filesystem: a repeated miss is a cached
 * negative hit, and RCU-walk need never fall back on it.
 */
const struct file_system_type wt_plain_type = {
	.name = "plain",
	.kind = WT_FS_PLAIN,
	.dir_iop = &wt_simple_dir_iop,
	.file_iop = &wt_simple_file_iop,
	.link_iop = &wt_simple_link_iop,
	.dop = NULL,
};

/* SPDX-License-Identifier: MIT */
/* proc: see sim/fs/proc.h. */
#include <stdlib.h>
#include <string.h>

#include "sim/fs/libfs.h"
#include "sim/fs/proc.h"

struct proc_magic {
	struct path target;
};

bool wt_proc_magic_target(const struct inode *inode, struct path *out)
{
	const struct proc_magic *pm = inode->i_private;

	if (!(wt_load(inode, i_flags) & S_MAGICLINK) || !pm)
		return false;
	*out = pm->target;
	return true;
}

static const char *proc_get_link(struct dentry *dentry, struct inode *inode,
				 struct path *jump)
{
	struct path target;

	if (!wt_proc_magic_target(inode, &target))
		return simple_get_link(dentry, inode, jump);
	/* RCU-walk: nd_jump_link needs references, which only REF mode
	 * takes -- proc_pid_get_link refuses a NULL dentry the same way. */
	if (!dentry)
		return ERR_PTR(-ECHILD);
	jump->mnt = mntget(target.mnt);
	jump->dentry = dget(target.dentry);
	return NULL;
}

static void proc_evict_inode(struct inode *inode, bool teardown)
{
	struct proc_magic *pm = inode->i_private;

	if (!(inode->i_flags & S_MAGICLINK) || !pm)
		return;
	if (!teardown) {
		dput(pm->target.dentry);
		mntput(pm->target.mnt);
	}
	inode->i_private = NULL;
	free(pm);
}

/* The inode of a new magic link, holding its target. */
static struct inode *proc_magic_inode(struct super_block *sb,
				      const struct path *target)
{
	struct inode *inode = wt_inode_alloc(sb, WT_S_IFLNK | 0777, 0, 0);
	struct proc_magic *pm;

	if (!inode)
		return NULL;
	pm = malloc(sizeof(*pm));
	if (!pm) {
		iput(inode);
		return NULL;
	}
	pm->target.mnt = mntget(target->mnt);
	pm->target.dentry = dget(target->dentry);
	inode->i_private = pm;
	inode->i_flags |= S_MAGICLINK;
	return inode;
}

int wt_proc_add_magic(struct super_block *sb, const char *name,
		      struct path target)
{
	struct dentry *root = sb->s_root, *d;
	struct qstr q = QSTR_INIT(name, (uint32_t)strlen(name));
	struct inode *inode;
	int err = 0;

	if (sb->s_type != &wt_proc_type)
		return -EINVAL;
	d = d_lookup(root, &q);
	if (d && d_backing_inode(d)) {
		err = -EEXIST;
		goto out_put;
	}
	if (!d)
		d = d_alloc(root, &q);
	if (!d) {
		return -ENOMEM;
	}
	inode = proc_magic_inode(sb, &target);
	if (!inode) {
		err = -ENOMEM;
		goto out_put;
	}
	/* Positive before it is findable, and pinned: proc has no other
	 * copy of the name. */
	d_make_persistent(d, inode);
	d_rehash(d);
out_put:
	dput(d);
	return err;
}

/*
 * proc has every name it will ever show in the dcache already (the model
 * has no pid directories to instantiate on demand): a miss is an error
 * here, not a negative dentry, whatever the name's length.  So creating
 * anything in proc (mkdir, open O_CREAT, symlink) stops at this lookup
 * with ENOENT, as proc_lookup's answer stops filename_create.
 */
static struct dentry *proc_lookup(struct inode *dir, struct dentry *dentry,
				  unsigned flags)
{
	(void)dir;
	(void)dentry;
	(void)flags;
	return ERR_PTR(-ENOENT);
}

static const struct inode_operations proc_dir_iop = {
	.lookup = proc_lookup,
};

static const struct inode_operations proc_link_iop = {
	.get_link = proc_get_link,
};

const struct file_system_type wt_proc_type = {
	.name = "proc",
	.kind = WT_FS_PROC,
	.dir_iop = &proc_dir_iop,
	.file_iop = &wt_simple_file_iop,
	.link_iop = &proc_link_iop,
	.evict_inode = proc_evict_inode,
};

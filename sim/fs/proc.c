/* SPDX-License-Identifier: MIT */
/* proc: see sim/fs/proc.h. */
#include <stdio.h>
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

/*
 * Make name in dir (a proc directory, its i_rwsem held) with inode (one
 * reference, taken over): positive before it is findable, and pinned, as
 * proc has no other copy of the name.  The dentry, referenced, or
 * ERR_PTR; the inode is put on an error.
 */
static struct dentry *proc_add(struct dentry *dir, const char *name,
			       struct inode *inode)
{
	struct qstr q = QSTR_INIT(name, (uint32_t)strlen(name));
	struct dentry *d;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	d = d_lookup(dir, &q);
	if (d && d_backing_inode(d)) {
		dput(d);
		iput(inode);
		return ERR_PTR(-EEXIST);
	}
	if (!d)
		d = d_alloc(dir, &q);
	if (!d) {
		iput(inode);
		return ERR_PTR(-ENOMEM);
	}
	d_make_persistent(d, inode);
	d_rehash(d);
	return d;
}

int wt_proc_add_magic(struct super_block *sb, const char *name,
		      struct path target)
{
	struct dentry *d;

	if (sb->s_type != &wt_proc_type)
		return -EINVAL;
	d = proc_add(sb->s_root, name, proc_magic_inode(sb, &target));
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	dput(d);
	return 0;
}

/* A made dentry: tell the caller, drop our reference. */
static int proc_made(struct dentry *d, const char *name, wt_proc_made_fn made,
		     void *arg)
{
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	if (made)
		made(arg, d, name);
	dput(d);
	return 0;
}

static struct inode *proc_dir_inode(struct super_block *sb, umode_t perm,
				    const struct wt_proc_task *t)
{
	return wt_inode_alloc(sb, WT_S_IFDIR | perm, t->uid, t->gid);
}

/* The fd directory and its links, under the PID directory pid (locked). */
static int proc_add_fds(struct super_block *sb, struct dentry *pid,
			const struct wt_proc_task *t, wt_proc_made_fn made,
			void *arg)
{
	char name[64];
	struct dentry *fd = proc_add(pid, "fd", proc_dir_inode(sb, 0500, t));
	int err;

	if (IS_ERR(fd))
		return (int)PTR_ERR(fd);
	snprintf(name, sizeof(name), "%u/fd", t->pid);
	if (made)
		made(arg, fd, name);
	mutex_lock(&fd->d_inode->i_rwsem);
	err = 0;
	for (unsigned i = 0; i < t->nfds && !err; i++) {
		char num[16];

		snprintf(num, sizeof(num), "%u", t->fds[i].fd);
		snprintf(name, sizeof(name), "%u/fd/%u", t->pid, t->fds[i].fd);
		err = proc_made(proc_add(fd, num,
					 proc_magic_inode(sb, &t->fds[i].path)),
				name, made, arg);
	}
	mutex_unlock(&fd->d_inode->i_rwsem);
	dput(fd);
	return err;
}

int wt_proc_add_task(struct super_block *sb, const struct wt_proc_task *t,
		     bool self, wt_proc_made_fn made, void *arg)
{
	static const char *const links[] = { "root", "cwd", "exe" };
	const struct path *targets[] = { &t->root, &t->cwd, &t->exe };
	char pidname[16], name[64];
	struct dentry *pid;
	int err = 0;

	if (sb->s_type != &wt_proc_type || t->nfds > WT_PROC_MAX_FDS)
		return -EINVAL;
	snprintf(pidname, sizeof(pidname), "%u", t->pid);
	pid = proc_add(sb->s_root, pidname, proc_dir_inode(sb, 0555, t));
	if (IS_ERR(pid))
		return (int)PTR_ERR(pid);
	if (made)
		made(arg, pid, pidname);
	mutex_lock(&pid->d_inode->i_rwsem);
	for (unsigned i = 0; i < 3 && !err; i++) {
		if (!targets[i]->dentry)
			continue;
		snprintf(name, sizeof(name), "%u/%s", t->pid, links[i]);
		err = proc_made(proc_add(pid, links[i],
					 proc_magic_inode(sb, targets[i])),
				name, made, arg);
	}
	if (!err)
		err = proc_add_fds(sb, pid, t, made, arg);
	mutex_unlock(&pid->d_inode->i_rwsem);
	dput(pid);
	if (!err && self) {
		struct inode *link = wt_inode_alloc(sb, WT_S_IFLNK | 0777, 0, 0);

		if (link && wt_inode_set_link(link, pidname)) {
			iput(link);
			return -ENOMEM;
		}
		err = proc_made(proc_add(sb->s_root, "self", link), "self",
				made, arg);
	}
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

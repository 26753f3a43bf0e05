/* SPDX-License-Identifier: MIT */
/* proc: see sim/fs/proc.h. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/fs/libfs.h"
#include "sim/fs/proc.h"
#include "sim/vfs/world.h"

struct proc_magic {
	struct wt_obj wt;	/* the world's memory (wt_world_obj_alloc) */
	struct path target;
	struct wt_proc_owner owner;	/* fixed for the inode's life */
};

static const struct proc_magic *magic_of(const struct inode *inode)
{
	const struct proc_magic *pm = inode->i_private;

	if (!(wt_load(inode, i_flags) & S_MAGICLINK) || !pm)
		return NULL;
	return pm;
}

bool wt_proc_magic_target(const struct inode *inode, struct path *out)
{
	const struct proc_magic *pm = magic_of(inode);

	if (!pm)
		return false;
	*out = pm->target;
	return true;
}

bool wt_proc_magic_owner(const struct inode *inode, struct wt_proc_owner *out)
{
	const struct proc_magic *pm = magic_of(inode);

	if (!pm)
		return false;
	*out = pm->owner;
	return true;
}

bool wt_proc_may_read(const struct cred *cred, const struct wt_proc_owner *t)
{
	assert(cred && t);
	if (!t->pid || t->pid == cred->tgid)	/* no process, or ourselves */
		return true;
	if (cred->cap_sys_ptrace)
		return true;
	/* the ids match, and then the process must let itself be read */
	return cred->uid == t->uid && cred->gid == t->gid && !t->nondumpable;
}

static const char *proc_get_link(const struct cred *cred,
				 struct dentry *dentry, struct inode *inode,
				 struct path *jump)
{
	const struct proc_magic *pm = magic_of(inode);
	struct path target;

	if (!pm)
		return simple_get_link(cred, dentry, inode, jump);
	/* RCU-walk: nd_jump_link needs references, which only REF mode
	 * takes -- proc_pid_get_link refuses a NULL dentry the same way. */
	if (!dentry)
		return ERR_PTR(-ECHILD);
	/*
	 * May the caller look at this process at all?  Asked here, before
	 * the walker's nd_jump_link sees the target: a refused caller gets
	 * EACCES even where RESOLVE_NO_MAGICLINKS would have answered ELOOP.
	 */
	if (!wt_proc_may_read(cred, &pm->owner))
		return ERR_PTR(-EACCES);
	target = pm->target;
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
	wt_obj_free(&pm->wt, sizeof(*pm));
}

/*
 * Who owns a process's entry of mode mode (task_dump_owner): the
 * process, unless it is not dumpable -- then root, except for the
 * world-readable PID directory, whose owner stays visible (stat of
 * /proc/PID is how tools learn a process's uid).
 */
static void proc_owner_ids(const struct wt_proc_task *t, umode_t mode,
			   uint32_t *uid, uint32_t *gid)
{
	bool shown = mode == (WT_S_IFDIR | 0555);

	*uid = t && (shown || !t->nondumpable) ? t->uid : 0;
	*gid = t && (shown || !t->nondumpable) ? t->gid : 0;
}

/* The inode of a new magic link, holding its target; t its process, or
 * NULL for none. */
static struct inode *proc_magic_inode(struct super_block *sb,
				      const struct path *target,
				      const struct wt_proc_task *t)
{
	uint32_t uid, gid;
	struct inode *inode;
	struct proc_magic *pm;

	proc_owner_ids(t, WT_S_IFLNK | 0777, &uid, &gid);
	inode = wt_inode_alloc(sb, WT_S_IFLNK | 0777, uid, gid);

	if (!inode)
		return NULL;
	pm = wt_world_obj_alloc(sb->s_world, sizeof(*pm));
	if (!pm) {
		iput(inode);
		return NULL;
	}
	/* No id of its own: readers reach it only through its inode. */
	wt_obj_init(&pm->wt, WT_OBJ_OTHER, 0);
	pm->target.mnt = mntget(target->mnt);
	pm->target.dentry = dget(target->dentry);
	pm->owner = (struct wt_proc_owner){ 0 };
	if (t) {
		pm->owner.pid = t->pid;
		pm->owner.uid = t->uid;
		pm->owner.gid = t->gid;
		pm->owner.nondumpable = t->nondumpable;
	}
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
	d = proc_add(sb->s_root, name, proc_magic_inode(sb, &target, NULL));
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
	uint32_t uid, gid;

	proc_owner_ids(t, (umode_t)(WT_S_IFDIR | perm), &uid, &gid);
	return wt_inode_alloc(sb, WT_S_IFDIR | perm, uid, gid);
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
					 proc_magic_inode(sb, &t->fds[i].path, t)),
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
					 proc_magic_inode(sb, targets[i], t)),
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

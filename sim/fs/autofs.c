/* SPDX-License-Identifier: MIT */
/* autofs: see sim/fs/autofs.h. */
#include <stdio.h>
#include <stdlib.h>

#include "sim/fs/autofs.h"
#include "sim/fs/libfs.h"
#include "sim/rcu.h"
#include "sim/sched/sched.h"
#include "sim/vfs/world.h"

#define AUTOFS_TRIGGER (DCACHE_NEED_AUTOMOUNT | DCACHE_MANAGE_TRANSIT)

/* The daemon's state; RCU-walk's d_manage reads it, so it is freed
 * through RCU. */
struct autofs_info {
	struct wt_obj wt;
	uint32_t busy;		/* atomic */
	uint32_t automounts;	/* atomic */
};

static struct autofs_info *autofs_sbi(const struct super_block *sb)
{
	return sb->s_fs_info;
}

void wt_autofs_set_trigger(struct dentry *d, bool on)
{
	spin_lock(&d->d_lock);
	wt_store_release(d, d_flags, on ? (d->d_flags | AUTOFS_TRIGGER) :
					  (d->d_flags & ~AUTOFS_TRIGGER));
	spin_unlock(&d->d_lock);
}

int wt_autofs_set_busy(struct super_block *sb, bool busy)
{
	if (sb->s_type != &wt_autofs_type)
		return -EINVAL;
	__atomic_store_n(&autofs_sbi(sb)->busy, busy, __ATOMIC_RELAXED);
	return 0;
}

unsigned wt_autofs_automounts(const struct super_block *sb)
{
	return __atomic_load_n(&autofs_sbi(sb)->automounts, __ATOMIC_RELAXED);
}

static struct vfsmount *autofs_d_automount(struct path *path)
{
	struct super_block *sb = path->dentry->d_sb;
	struct wt_world *w = sb->s_world;
	char name[NAME_MAX_LEN + 1], dev[64];
	struct super_block *nsb;
	struct mount *m;

	/* The daemon mounts: it sleeps, REF-walk only. */
	wt_might_sleep(WT_POINT_OR_NULL(WT_K_WAIT, "autofs.d_automount", NULL,
					"ask the automount daemon (sleeps)"));
	d_name_copy(path->dentry, name, sizeof(name));
	/* A long trigger name is cut: devname is a label, not a key. */
	snprintf(dev, sizeof(dev), "autofs:%.56s", name);
	nsb = wt_sb_create(w, &wt_tmpfs_type, dev);
	if (!nsb)
		return ERR_PTR(-ENOMEM);
	m = wt_mnt_alloc(nsb, nsb->s_root, dev);
	if (!m) {
		wt_sb_discard(nsb);
		return ERR_PTR(-ENOMEM);
	}
	__atomic_add_fetch(&autofs_sbi(sb)->automounts, 1, __ATOMIC_RELAXED);
	return &m->mnt;
}

static int autofs_d_manage(const struct path *path, bool rcu_walk)
{
	if (!__atomic_load_n(&autofs_sbi(path->dentry->d_sb)->busy,
			     __ATOMIC_RELAXED))
		return 0;
	/* The daemon is at work on this mount point: waiting sleeps. */
	if (rcu_walk)
		return -ECHILD;
	wt_might_sleep(WT_POINT_OR_NULL(WT_K_WAIT, "autofs.d_manage", NULL,
					"wait for the automount daemon (sleeps)"));
	return 0;
}

/* Directories directly in the root are triggers. */
static unsigned autofs_instantiate(struct dentry *d, struct inode *inode)
{
	if (!WT_S_ISDIR(inode->i_mode) || IS_ROOT(d) ||
	    d->d_parent != d->d_sb->s_root)
		return 0;
	return AUTOFS_TRIGGER;
}

static int autofs_fill_super(struct super_block *sb)
{
	struct autofs_info *sbi = wt_world_obj_alloc(sb->s_world, sizeof(*sbi));

	if (!sbi)
		return -ENOMEM;
	wt_obj_init(&sbi->wt, WT_OBJ_OTHER, wt_world_new_id(sb->s_world));
	sb->s_fs_info = sbi;
	return 0;
}

static void autofs_kill_super(struct super_block *sb)
{
	struct autofs_info *sbi = autofs_sbi(sb);

	sb->s_fs_info = NULL;
	call_rcu_free(sb->s_world->rcu, &sbi->wt, sizeof(*sbi), NULL);
}

static const struct dentry_operations autofs_dops = {
	.d_automount = autofs_d_automount,
	.d_manage = autofs_d_manage,
};

const struct file_system_type wt_autofs_type = {
	.name = "autofs",
	.kind = WT_FS_AUTOFS,
	.dir_iop = &wt_simple_dir_iop,
	.file_iop = &wt_simple_file_iop,
	.link_iop = &wt_simple_link_iop,
	.dop = &autofs_dops,
	.fill_super = autofs_fill_super,
	.kill_super = autofs_kill_super,
	.instantiate = autofs_instantiate,
};

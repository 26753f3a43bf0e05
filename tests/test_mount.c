/* SPDX-License-Identifier: MIT */
/*
 * Mounts: the hash and its stacking rule, lookup_mnt's reference, the
 * per-thread count slots, and the final put -- who did it, that it frees
 * only after a grace period, and that it takes the super_block with it.
 */
#include <criterion/criterion.h>

#include "tests/vfs_test.h"

#define DIR_MODE	(WT_S_IFDIR | 0755)

static struct mount *new_tmpfs_mount(struct wt_world *w, const char *name)
{
	struct super_block *sb = wt_sb_create(w, wt_fs_type_lookup("tmpfs"), name);

	cr_assert_not_null(sb);
	return wt_mnt_alloc(sb, sb->s_root, name);
}

static void attach(struct wt_world *w, struct mount *m, struct mount *parent,
		   struct dentry *mp)
{
	mutex_lock(&w->namespace_sem);
	lock_mount_hash(w);
	wt_mnt_attach(m, parent, mp);
	unlock_mount_hash(w);
	mutex_unlock(&w->namespace_sem);
}

static void detach(struct wt_world *w, struct mount *m)
{
	mutex_lock(&w->namespace_sem);
	lock_mount_hash(w);
	wt_mnt_detach(m);
	unlock_mount_hash(w);
	mutex_unlock(&w->namespace_sem);
}

/*
 * Stacking, the kernel's way: mounting over a mount means mounting on
 * its root, so each (parent, dentry) has its own child.  Should two land
 * on one (parent, dentry) anyway, the newest hides the older, and the
 * older shows again when the newest goes.  With one bucket, so every
 * mount shares a chain and __lookup_mnt must tell them apart by key.
 */
static void stacking(uint32_t buckets)
{
	struct wt_world *w = t_world(3, 8, buckets);
	struct mount *root = w->root_mnt, *m1, *m2, *m3;
	struct dentry *mp = t_mk(t_root(w), "mnt", DIR_MODE);

	m1 = new_tmpfs_mount(w, "one");
	m2 = new_tmpfs_mount(w, "two");
	m3 = new_tmpfs_mount(w, "three");
	cr_assert_null(__lookup_mnt(&root->mnt, mp));
	attach(w, m1, root, mp);
	cr_assert(d_mountpoint(mp));
	cr_assert_eq(__lookup_mnt(&root->mnt, mp), m1);
	cr_assert_eq(m1->mnt_parent, root);
	cr_assert_eq(m1->mnt_mountpoint, mp);

	attach(w, m2, m1, m1->mnt.mnt_root);	/* over m1: on its root */
	cr_assert_eq(__lookup_mnt(&root->mnt, mp), m1);
	cr_assert_eq(__lookup_mnt(&m1->mnt, m1->mnt.mnt_root), m2);

	attach(w, m3, root, mp);		/* same place as m1 */
	cr_assert_eq(__lookup_mnt(&root->mnt, mp), m3, "newest on top");
	detach(w, m3);
	cr_assert_eq(__lookup_mnt(&root->mnt, mp), m1, "the older shows again");
	cr_assert(d_mountpoint(mp), "m1 is still there");
	cr_assert_eq(m3->mnt_parent, m3);
	cr_assert_eq(m3->mnt_mountpoint, m3->mnt.mnt_root);
	synchronize_rcu();
	mntput(&m3->mnt);			/* the tree's reference */

	detach(w, m2);
	detach(w, m1);
	cr_assert_not(d_mountpoint(mp), "the last mount gone");
	cr_assert_null(__lookup_mnt(&root->mnt, mp));
	mntput(&m2->mnt);
	mntput(&m1->mnt);
	dput(mp);
	wt_world_destroy(w);
}

Test(mount, hash_stacking)
{
	stacking(16);
}

Test(mount, hash_stacking_one_bucket)
{
	stacking(1);
}

/* lookup_mnt returns the child with a reference of its own, which the
 * caller's mntput gives back; nothing mounted answers NULL. */
Test(mount, lookup_mnt_takes_a_reference)
{
	struct wt_world *w = t_world(5, 8, 4);
	struct mount *m = new_tmpfs_mount(w, "m");
	struct dentry *mp = t_mk(t_root(w), "mnt", DIR_MODE);
	struct path p = { &w->root_mnt->mnt, mp };
	struct path nowhere = { &w->root_mnt->mnt, t_root(w) };
	struct vfsmount *v;
	int before;

	attach(w, m, w->root_mnt, mp);
	before = mnt_get_count(m);
	v = lookup_mnt(&p);
	cr_assert_eq(v, &m->mnt);
	cr_assert_eq(mnt_get_count(m), before + 1);
	mntput(v);
	cr_assert_eq(mnt_get_count(m), before);
	cr_assert_null(lookup_mnt(&nowhere));
	detach(w, m);
	mntput(&m->mnt);
	dput(mp);
	wt_world_destroy(w);
}

/*
 * mnt_count is per thread: each thread changes its own slot (id + 1;
 * slot 0 without a thread), and the count is the sum -- a put from
 * another thread than the get leaves two non-zero slots summing to 0.
 */
Test(mount, count_slots_sum)
{
	struct wt_world *w = t_world(7, 8, 4);
	struct mount *m = new_tmpfs_mount(w, "m");
	struct t_thread a, b;

	cr_assert_eq(m->mnt_pcp[0], 1, "wt_mnt_alloc's, from no thread");
	t_enter(&a, NULL, 3);
	mntget(&m->mnt);
	mntget(&m->mnt);
	t_leave(&a);
	t_enter(&b, NULL, 5);
	mnt_add_count(m, -1);
	t_leave(&b);
	cr_assert_eq(m->mnt_pcp[4], 2);
	cr_assert_eq(m->mnt_pcp[6], -1);
	cr_assert_eq(mnt_get_count(m), 2);
	mnt_add_count(m, -1);
	cr_assert_eq(m->mnt_pcp[0], 0);
	cr_assert_eq(mnt_get_count(m), 1);
	mntput(&m->mnt);
	wt_world_destroy(w);
}

/*
 * An attached mount is never freed by mntput (the tree holds it).  Once
 * detached, the final put is recorded (thread id + 1, once), sets
 * MNT_DOOMED and frees the mount only after a grace period -- and its
 * super_block, whose last mount it was, with it.  An earlier put is not
 * final and says so.
 */
Test(mount, final_put_frees_after_grace_and_records_who)
{
	struct wt_world *w = t_world(9, 8, 4);
	struct dentry *mp = t_mk(t_root(w), "mnt", DIR_MODE);
	struct mount *m;
	struct super_block *sb;
	struct dentry *sroot;
	struct t_thread tt;

	t_enter(&tt, w, 6);
	m = new_tmpfs_mount(w, "m");
	sb = m->mnt.mnt_sb;
	sroot = sb->s_root;
	attach(w, m, w->root_mnt, mp);
	mntget(&m->mnt);
	cr_assert_not(wt_mntput_final(&m->mnt), "attached: the tree holds it");
	detach(w, m);
	mntget(&m->mnt);			/* a walker's */
	cr_assert_not(wt_mntput_final(&m->mnt), "the tree's is still there");
	cr_assert_eq(m->mnt_final_puts, 0);

	rcu_read_lock();			/* a walker still looking at it */
	cr_assert(wt_mntput_final(&m->mnt));
	cr_assert_eq(m->mnt_final_put_by, 7);
	cr_assert_eq(m->mnt_final_puts, 1);
	cr_assert(mnt_flags_load(m) & MNT_DOOMED);
	cr_assert_not(t_poisoned(&m->wt), "not while a reader may be on it");
	cr_assert_not(t_poisoned(&sb->wt));
	rcu_read_unlock();
	t_grace();
	cr_assert(t_poisoned(&m->wt), "freed after the grace period");
	cr_assert(t_poisoned(&sb->wt), "the super_block went with it");
	cr_assert(t_poisoned(&sroot->wt));
	cr_assert_not(d_mountpoint(mp));
	dput(mp);
	t_leave(&tt);
	wt_world_destroy(w);
}

/* A mount never attached (an automount that lost) dies at its one put. */
Test(mount, unattached_mount_dies_at_its_put)
{
	struct wt_world *w = t_world(11, 8, 4);
	struct mount *m = new_tmpfs_mount(w, "lost");

	cr_assert(wt_mntput_final(&m->mnt));
	cr_assert(t_poisoned(&m->wt));
	wt_world_destroy(w);
}

/* The namespace root and tasks: a task holds its root and cwd. */
Test(mount, task_holds_root_and_pwd)
{
	struct wt_world *w = t_world(13, 8, 4);
	struct dentry *root = t_root(w);
	int mc = mnt_get_count(w->root_mnt), dc = d_count(root);
	struct wt_task task;
	struct path p = wt_world_root(w);

	cr_assert_eq(p.mnt, &w->root_mnt->mnt);
	cr_assert_eq(p.dentry, root);
	cr_assert_eq(w->root_mnt->mnt_parent, w->root_mnt);
	wt_task_init(&task, w, 1000, 1000);
	cr_assert_eq(mnt_get_count(w->root_mnt), mc + 2);
	cr_assert_eq(d_count(root), dc + 2);
	cr_assert_not(task.cred.cap_dac_override);
	wt_task_release(&task);
	cr_assert_eq(mnt_get_count(w->root_mnt), mc);
	cr_assert_eq(d_count(root), dc);
	wt_task_init(&task, w, 0, 0);
	cr_assert(task.cred.cap_dac_override);
	wt_task_release(&task);
	wt_world_destroy(w);
}

/* SPDX-License-Identifier: MIT */
/*
 * Inodes: allocation, references, symlink bodies, and the permission
 * checks (the model of generic_permission and inode_permission in Linux
 * 6.x fs/namei.c, with credentials instead of the current task).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/rcu.h"
#include "sim/vfs/inode.h"
#include "sim/vfs/internal.h"
#include "sim/vfs/mount.h"
#include "sim/vfs/world.h"

#define S_IXUGO		0111

static struct wt_world *i_world(const struct inode *inode)
{
	return inode->i_sb->s_world;
}

static const struct inode_operations *i_op_for(const struct file_system_type *t,
					       umode_t mode)
{
	if (WT_S_ISDIR(mode))
		return t->dir_iop;
	if (WT_S_ISLNK(mode))
		return t->link_iop;
	return t->file_iop;
}

/* list_lock held */
static void sb_add_inode(struct super_block *sb, struct inode *inode)
{
	inode->i_sb_next = sb->s_inodes;
	if (inode->i_sb_next)
		inode->i_sb_next->i_sb_pprev = &inode->i_sb_next;
	sb->s_inodes = inode;
	inode->i_sb_pprev = &sb->s_inodes;
}

/* list_lock held */
static void sb_del_inode(struct inode *inode)
{
	*inode->i_sb_pprev = inode->i_sb_next;
	if (inode->i_sb_next)
		inode->i_sb_next->i_sb_pprev = inode->i_sb_pprev;
	inode->i_sb_next = NULL;
	inode->i_sb_pprev = NULL;
}

struct inode *wt_inode_alloc(struct super_block *sb, umode_t mode,
			     uint32_t uid, uint32_t gid)
{
	struct wt_world *w = sb->s_world;
	struct inode *inode;

	if (wt_alloc_should_fail(WT_ALLOC_POINT("inode_alloc")))
		return NULL;
	inode = wt_world_obj_alloc(w, sizeof(*inode));
	if (!inode)
		return NULL;
	wt_obj_init(&inode->wt, WT_OBJ_INODE, wt_world_new_id(w));
	inode->i_mode = mode;
	inode->i_uid = uid;
	inode->i_gid = gid;
	inode->i_nlink = WT_S_ISDIR(mode) ? 2 : 1;
	inode->i_generation = 1;
	inode->i_ino = __atomic_fetch_add(&sb->s_next_ino, 1, __ATOMIC_RELAXED);
	inode->i_op = i_op_for(sb->s_type, mode);
	inode->i_sb = sb;
	spin_lock_init(&inode->i_lock);
	wt_mutex_init(&inode->i_rwsem);
	inode->i_count = 1;
	spin_lock(&w->list_lock);
	sb_add_inode(sb, inode);
	spin_unlock(&w->list_lock);
	return inode;
}

void iget(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	/* An inode with no reference is being evicted: nobody may revive
	 * it (the caller had to hold a reference to reach it). */
	if (inode->i_count <= 0)
		wt_violation(WT_CHECK_LOCKREF, NULL, inode,
			     "iget of inode %llu with count %d",
			     (unsigned long long)inode->wt.id, inode->i_count);
	inode->i_count++;
	spin_unlock(&inode->i_lock);
}

static size_t linkbody_size(uint32_t len)
{
	return sizeof(struct wt_linkbody) + len + 1;
}

static void linkbody_free_rcu(struct wt_world *w, const char *text)
{
	struct wt_linkbody *lb;

	if (!text)
		return;
	lb = wt_linkbody_of(text);
	call_rcu_free(w->rcu, &lb->wt, linkbody_size(lb->len), NULL);
}

/* The last reference: off the super_block's list, freed after a grace
 * period (RCU-walk may still hold the pointer it loaded from d_inode). */
static void evict(struct inode *inode)
{
	struct wt_world *w = i_world(inode);
	const struct file_system_type *t = inode->i_sb->s_type;

	if (t->evict_inode)
		t->evict_inode(inode, false);
	spin_lock(&w->list_lock);
	sb_del_inode(inode);
	spin_unlock(&w->list_lock);
	linkbody_free_rcu(w, inode->i_link);
	call_rcu_free(w->rcu, &inode->wt, sizeof(*inode), NULL);
}

void iput(struct inode *inode)
{
	int count;

	if (!inode)
		return;
	spin_lock(&inode->i_lock);
	count = --inode->i_count;
	spin_unlock(&inode->i_lock);
	if (count < 0)
		wt_violation(WT_CHECK_LOCKREF, NULL, inode,
			     "iput of inode %llu below zero",
			     (unsigned long long)inode->wt.id);
	if (count == 0)
		evict(inode);
}

void wt_inode_kill(struct inode *inode)
{
	wt_violation(WT_CHECK_INVARIANT, NULL, inode,
		     "inode %llu still referenced (%d) at umount",
		     (unsigned long long)inode->wt.id, inode->i_count);
	evict(inode);
}

void wt_inode_destroy(struct inode *inode)
{
	const struct file_system_type *t = inode->i_sb->s_type;

	sb_del_inode(inode);	/* no other thread: teardown or set-up */
	if (t->evict_inode)
		t->evict_inode(inode, true);
	if (inode->i_link) {
		struct wt_linkbody *lb = wt_linkbody_of(inode->i_link);

		wt_obj_free(&lb->wt, linkbody_size(lb->len));
	}
	wt_obj_free(&inode->wt, sizeof(*inode));
}

int wt_inode_set_link(struct inode *inode, const char *body)
{
	size_t len = strlen(body);
	struct wt_linkbody *lb;
	const char *old;

	if (len >= PATH_MAX_LEN)
		return -ENAMETOOLONG;
	if (wt_alloc_should_fail(WT_ALLOC_POINT("inode_set_link")))
		return -ENOMEM;
	lb = wt_world_obj_alloc(i_world(inode), linkbody_size((uint32_t)len));
	if (!lb)
		return -ENOMEM;
	wt_obj_init(&lb->wt, WT_OBJ_LINK, wt_world_new_id(i_world(inode)));
	lb->len = (uint32_t)len;
	memcpy(lb->text, body, len + 1);
	spin_lock(&inode->i_lock);
	old = inode->i_link;
	/* The body's bytes before the pointer: pick_link reads them after
	 * an acquire load of i_link. */
	wt_store_release(inode, i_link, (const char *)lb->text);
	spin_unlock(&inode->i_lock);
	linkbody_free_rcu(i_world(inode), old);
	return 0;
}

static void i_flags_update(struct inode *inode, uint32_t clear, uint32_t set)
{
	spin_lock(&inode->i_lock);
	wt_store(inode, i_flags, (inode->i_flags & ~clear) | set);
	spin_unlock(&inode->i_lock);
}

void wt_inode_touch(struct inode *inode)
{
	assert(inode);
	i_flags_update(inode, 0, S_NEEDS_ATIME);
}

/*
 * The atime is now after the mtime: relatime asks for nothing more (the
 * model has no clock, so "a day later" never comes).  REF-walk calls this
 * for every link it follows; its one load of i_flags is the load that
 * pick_link's REF branch always made, so schedules keep their points.
 */
bool atime_needs_update(struct inode *inode, int mnt_flags)
{
	if ((mnt_flags & MNT_NOATIME) || sb_rdonly(inode->i_sb))
		return false;
	return wt_load(inode, i_flags) & S_NEEDS_ATIME;
}

void touch_atime(struct inode *inode, int mnt_flags)
{
	assert(inode);
	/* mnt_get_write_access fails on a read-only mount: no update */
	if (atime_needs_update(inode, mnt_flags) && !(mnt_flags & MNT_READONLY))
		i_flags_update(inode, S_NEEDS_ATIME, 0);
}

/* ------------------------------------------------------------------ */
/* Permission                                                          */

bool in_group_p(const struct cred *cred, uint32_t gid)
{
	if (cred->gid == gid)
		return true;
	for (uint32_t i = 0; i < cred->ngroups && i < WT_NGROUPS_MAX; i++)
		if (cred->groups[i] == gid)
			return true;
	return false;
}

/*
 * acl_permission_check without ACLs: the owner is judged by the owner
 * bits alone (an owner denied by them is denied, whatever group and
 * other allow); a group member by the group bits; everyone else by the
 * other bits.  mode is loaded once by the caller: a chmod racing with an
 * RCU-walk check must not mix two modes in one answer.
 */
static int acl_permission_check(const struct cred *cred, struct inode *inode,
				umode_t mode, int mask)
{
	unsigned m = mode;

	if (wt_load(inode, i_uid) == cred->uid) {
		mask &= 7;
		m >>= 6;
		return (mask & ~m) ? -EACCES : 0;
	}
	mask &= 7;
	/* Only when the group bits differ from the other bits in what we
	 * ask does membership matter (the kernel saves the group search). */
	if (mask & (m ^ (m >> 3))) {
		if (in_group_p(cred, wt_load(inode, i_gid)))
			m >>= 3;
	}
	return (mask & ~m) ? -EACCES : 0;
}

int generic_permission(const struct cred *cred, struct inode *inode, int mask)
{
	umode_t mode = wt_load(inode, i_mode);
	int ret = acl_permission_check(cred, inode, mode, mask);

	if (ret != -EACCES)
		return ret;
	if (WT_S_ISDIR(mode)) {
		/* DACs are overridable for directories (CAP_DAC_OVERRIDE,
		 * and CAP_DAC_READ_SEARCH for read and search). */
		if (cred->cap_dac_override)
			return 0;
		return -EACCES;
	}
	/* Read and write are always overridable; exec only when some x bit
	 * is set: root cannot run a file nobody may run. */
	if (!(mask & MAY_EXEC) || (mode & S_IXUGO))
		if (cred->cap_dac_override)
			return 0;
	return -EACCES;
}

int inode_permission(const struct cred *cred, struct inode *inode, int mask)
{
	/* sb_permission: a read-only filesystem refuses writes before any
	 * owner or mode is looked at (devices and fifos would not be
	 * written through it, but the model has none) */
	if ((mask & MAY_WRITE) && sb_rdonly(inode->i_sb)) {
		umode_t mode = wt_load(inode, i_mode);

		if (WT_S_ISREG(mode) || WT_S_ISDIR(mode) || WT_S_ISLNK(mode))
			return -EROFS;
	}
	if (inode->i_op && inode->i_op->permission)
		return inode->i_op->permission(cred, inode, mask);
	return generic_permission(cred, inode, mask);
}

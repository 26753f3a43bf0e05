/* SPDX-License-Identifier: MIT */
/*
 * "." and "..": handle_dots, follow_dotdot_rcu, follow_dotdot.
 *
 * `..` has three cases: at the walk's root it stays; at the root of a
 * mount it first goes up to the mountpoint (through every mount whose
 * mountpoint is its parent's root); then it goes to d_parent, which must
 * still be inside the mount's root subtree (a rename can move a directory
 * out of a bind mount).
 */
#include "core/internal.h"

static void record_dotdot(struct nameidata *nd, enum wt_step_kind kind,
			  const struct path *from, struct vfsmount *mnt,
			  struct dentry *to, unsigned seq, uint32_t arg)
{
	struct wt_ident a, b;

	if (!nd_recording(nd))
		return;
	a = wt_ident_of(from->mnt, from->dentry, NULL);
	b = wt_ident_of(mnt, to, NULL);
	/* MOUNT_UP waits for mount_lock, DOTDOT for the parent's seq. */
	nd_record(nd, kind, &a, &b, NULL, 0, 0, arg,
		  kind == WT_STEP_MOUNT_UP ? NULL : to, seq);
}

/*
 * RCU mode.  Returns the parent (nd->next_seq its seq) for step_into, or
 * ERR_PTR(-ECHILD).  A step REF-walk could not make is never taken here:
 * each doubtful case restarts, and REF-walk gives the real answer.
 */
static struct dentry *follow_dotdot_rcu(struct nameidata *nd)
{
	struct wt_world *w = nd->world;
	struct dentry *parent, *old;

	if (path_equal(&nd->path, &nd->root))
		goto in_root;
	if (nd->path.dentry == mnt_root_of(nd->path.mnt)) {
		struct path path;
		unsigned seq;

		if (!choose_mountpoint_rcu(real_mount(nd->path.mnt),
					   &nd->root, &path, &seq))
			goto in_root;
		if (nd->flags & LOOKUP_NO_XDEV) {
			nd_count(nd, WT_PATH_RESTART_DOTDOT_NO_XDEV);
			return ERR_PTR(-ECHILD);
		}
		record_dotdot(nd, WT_STEP_MOUNT_UP, &nd->path, path.mnt,
			      path.dentry, 0, 0);
		nd->path = path;
		nd->inode = nd_d_inode(path.dentry);
		nd->seq = seq;
		/*
		 * Validates the way up: with mount_lock unmoved since
		 * path_init, mnt_parent and mnt_mountpoint were read as one
		 * consistent pair, as REF-walk (under mount_lock) would read
		 * them.  Without it a mount --move between the two loads can
		 * leave us on a mismatched (mount, dentry) pair, and the next
		 * step up can be bogus too (Al Viro's mail in seeds/).  Zoo
		 * WT_BUG_DOTDOT_NO_MOUNT_LOCK (`--bug dotdot_no_mount_lock`)
		 * removes it.
		 */
		if (!nd_bug(nd, WT_BUG_DOTDOT_NO_MOUNT_LOCK)) {
			if (read_seqretry_at(&w->mount_lock, nd->m_seq,
					     "dotdot_rcu.mount_lock")) {
				nd_count(nd, WT_PATH_RESTART_DOTDOT_MOUNT_LOCK);
				return ERR_PTR(-ECHILD);
			}
			nd_validated_mounts(nd);
		}
		/* we know that mountpoint was pinned */
	}
	old = nd->path.dentry;
	parent = wt_load_acquire(old, d_parent);
	nd->next_seq = ND_TAGGED(&parent->wt, read_seqcount_begin_at(&parent->d_seq,
					      "dotdot_rcu.parent_seq"));
	/*
	 * Validates that old had not moved when we read its d_parent (and,
	 * after a way up, that the mountpoint is still what we sampled): a
	 * rename bumps the moved dentry's d_seq, so an unmoved seq means
	 * parent was old's parent, pinned by it, until after we sampled
	 * parent's seq.  Without it `..` could land in the old parent of a
	 * directory renamed away.  No zoo bug removes it.
	 */
	if (ND_TAGGED(&old->wt, read_seqcount_retry_at(&old->d_seq, nd->seq,
							  "dotdot_rcu.old_seq"))) {
		nd_count(nd, WT_PATH_RESTART_DOTDOT_SEQ);
		return ERR_PTR(-ECHILD);
	}
	nd_validated(nd, old, nd->seq);
	if (!path_connected(nd->path.mnt, parent)) {
		nd_count(nd, WT_PATH_RESTART_DOTDOT_DISCONNECTED);
		return ERR_PTR(-ECHILD);
	}
	record_dotdot(nd, WT_STEP_DOTDOT, &nd->path, nd->path.mnt, parent,
		      nd->next_seq, 0);
	return parent;

in_root:
	/*
	 * Validates "stay at the root": with mount_lock moved, the mount we
	 * think is the root's may have been moved above it, and REF-walk
	 * might go up where we stay.  No zoo bug removes it.
	 */
	if (read_seqretry_at(&w->mount_lock, nd->m_seq,
			     "dotdot_rcu.root.mount_lock")) {
		nd_count(nd, WT_PATH_RESTART_DOTDOT_ROOT_MOUNT_LOCK);
		return ERR_PTR(-ECHILD);
	}
	nd_validated_mounts(nd);
	if (nd->flags & LOOKUP_BENEATH) {
		nd_count(nd, WT_PATH_RESTART_DOTDOT_ROOT_BENEATH);
		return ERR_PTR(-ECHILD);
	}
	nd->next_seq = nd->seq;
	record_dotdot(nd, WT_STEP_DOTDOT, &nd->path, nd->path.mnt,
		      nd->path.dentry, nd->seq, 1);
	return nd->path.dentry;
}

/* REF mode.  Returns the parent with a reference held, or ERR_PTR. */
static struct dentry *follow_dotdot(struct nameidata *nd)
{
	struct dentry *parent;

	if (path_equal(&nd->path, &nd->root))
		goto in_root;
	if (nd->path.dentry == mnt_root_of(nd->path.mnt)) {
		struct path path;

		if (!choose_mountpoint(nd, real_mount(nd->path.mnt),
				       &nd->root, &path))
			goto in_root;
		record_dotdot(nd, WT_STEP_MOUNT_UP, &nd->path, path.mnt,
			      path.dentry, 0, 0);
		path_put(&nd->path);
		nd->path = path;
		nd->inode = d_inode(path.dentry);
		if (nd->flags & LOOKUP_NO_XDEV)
			return ERR_PTR(-EXDEV);
	}
	/* rare case of legitimate dget_parent()... */
	parent = dget_parent(nd->path.dentry);
	if (!path_connected(nd->path.mnt, parent)) {
		dput(parent);
		return ERR_PTR(-ENOENT);
	}
	record_dotdot(nd, WT_STEP_DOTDOT, &nd->path, nd->path.mnt, parent,
		      0, 0);
	return parent;

in_root:
	if (nd->flags & LOOKUP_BENEATH)
		return ERR_PTR(-EXDEV);
	record_dotdot(nd, WT_STEP_DOTDOT, &nd->path, nd->path.mnt,
		      nd->path.dentry, 0, 1);
	return dget(nd->path.dentry);
}

/* A scoped lookup's `..` must not have raced with a rename or a mount. */
static const char *scoped_dotdot_check(struct nameidata *nd)
{
	struct wt_world *w = nd->world;

	/* the reads of the walk come before the two rechecks */
	smp_rmb();
	/*
	 * Validates that no mount changed since path_init: a mount --move
	 * along our path could have let `..` climb above nd->root without
	 * our ever being at nd->root.  Without it RESOLVE_BENEATH and
	 * RESOLVE_IN_ROOT could escape their root.  In REF-walk as well as
	 * RCU-walk; no zoo bug removes it.
	 */
	if (__read_seqcount_retry_at(&w->mount_lock.seqcount, nd->m_seq,
				     "handle_dots.mount_lock")) {
		nd_count(nd, WT_PATH_EAGAIN_SCOPED_MOUNT_LOCK);
		return ERR_PTR(-EAGAIN);
	}
	/*
	 * Validates that no rename happened since path_init: a directory
	 * renamed out from under nd->root gives the same escape through
	 * `..`.  No zoo bug removes it.
	 */
	if (__read_seqcount_retry_at(&w->rename_lock.seqcount, nd->r_seq,
				     "handle_dots.rename_lock")) {
		nd_count(nd, WT_PATH_EAGAIN_SCOPED_RENAME_LOCK);
		return ERR_PTR(-EAGAIN);
	}
	return NULL;
}

/* "." needs nothing; ".." as above.  NULL, or ERR_PTR. */
const char *handle_dots(struct nameidata *nd, int type)
{
	const char *error;
	struct dentry *parent;

	if (type != LAST_DOTDOT)
		return NULL;
	if (!nd->root.mnt) {
		int err = set_root(nd);

		if (err)
			return ERR_PTR(err);
	}
	if (nd->flags & LOOKUP_RCU)
		parent = follow_dotdot_rcu(nd);
	else
		parent = follow_dotdot(nd);
	if (IS_ERR(parent))
		return ERR_CAST(parent);
	error = step_into(nd, WALK_NOFOLLOW, parent);
	if (error)
		return error;
	if (nd->flags & LOOKUP_IS_SCOPED)
		return scoped_dotdot_check(nd);
	return NULL;
}

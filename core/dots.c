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
	/*
	 * The inode the walk stands on is nd->inode, the one it validated
	 * with nd->seq; in RCU mode the dentry's d_inode may have changed
	 * since (rmdir then mkdir of the same name: the walk's `..` took
	 * effect at its seq check, before them).
	 */
	a = wt_ident_of(from->mnt, from->dentry, nd->inode);
	b = wt_ident_of(mnt, to, to == from->dentry ? nd->inode : NULL);
	/* MOUNT_UP waits for mount_lock, DOTDOT for the parent's seq. */
	nd_record(nd, kind, &a, &b, NULL, 0, 0, arg,
		  kind == WT_STEP_MOUNT_UP ? NULL : to, seq);
}

/* `..` at the top of the current mount: the mountpoint is the way up. */
static bool at_mount_top(const struct nameidata *nd)
{
	return nd->path.dentry == mnt_root_of(nd->path.mnt);
}

/*
 * RCU mode, `..` that stays where it is (the walk's root, or a mount with
 * nothing above it inside the root).  The parent is nd->path.dentry
 * itself, with its own seq.
 */
static struct dentry *dotdot_rcu_stay(struct nameidata *nd)
{
	struct wt_world *w = nd->world;

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

/*
 * RCU mode, at the top of a mount: move nd to the mountpoint below it.
 * 1 when there is nothing to climb to (stay), 0 when nd now stands on the
 * mountpoint, -ECHILD to restart.
 */
static int dotdot_rcu_mount_up(struct nameidata *nd)
{
	struct wt_world *w = nd->world;
	struct mount *here = real_mount(nd->path.mnt);
	struct path under;
	unsigned under_seq;

	if (!choose_mountpoint_rcu(w, here, &nd->root, &under, &under_seq))
		return 1;
	if (nd->flags & LOOKUP_NO_XDEV) {
		nd_count(nd, WT_PATH_RESTART_DOTDOT_NO_XDEV);
		return -ECHILD;
	}
	record_dotdot(nd, WT_STEP_MOUNT_UP, &nd->path, under.mnt,
		      under.dentry, 0, 0);
	nd->path = under;
	nd->inode = nd_d_inode(under.dentry);
	nd->seq = under_seq;
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
	if (nd_bug(nd, WT_BUG_DOTDOT_NO_MOUNT_LOCK))
		return 0;
	if (read_seqretry_at(&w->mount_lock, nd->m_seq,
			     "dotdot_rcu.mount_lock")) {
		nd_count(nd, WT_PATH_RESTART_DOTDOT_MOUNT_LOCK);
		return -ECHILD;
	}
	nd_validated_mounts(nd);
	/*
	 * No reference of our own on the mountpoint dentry: the mount we
	 * climbed from holds one for as long as it is mounted there, and
	 * the mount_lock check above says that it still was.
	 */
	return 0;
}

/*
 * RCU mode.  Returns the parent (nd->next_seq its seq) for step_into, or
 * ERR_PTR(-ECHILD).  A step REF-walk could not make is never taken here:
 * each doubtful case restarts, and REF-walk gives the real answer.
 */
static struct dentry *follow_dotdot_rcu(struct nameidata *nd)
{
	struct dentry *child, *up;

	if (path_equal(&nd->path, &nd->root))
		return dotdot_rcu_stay(nd);
	if (at_mount_top(nd)) {
		int climbed = dotdot_rcu_mount_up(nd);

		if (climbed < 0)
			return ERR_PTR(climbed);
		if (climbed > 0)
			return dotdot_rcu_stay(nd);
	}
	child = nd->path.dentry;
	up = wt_load_acquire(child, d_parent);
	nd->next_seq = ND_TAGGED(&up->wt, read_seqcount_begin_at(&up->d_seq,
					      "dotdot_rcu.parent_seq"));
	/*
	 * Validates that child had not moved when we read its d_parent
	 * (and, after a way up, that the mountpoint is still what we
	 * sampled): a rename bumps the moved dentry's d_seq, so an unmoved
	 * seq means up was child's parent, pinned by it, until after we
	 * sampled up's seq.  Without it `..` could land in the old parent
	 * of a directory renamed away.  Zoo WT_BUG_DOTDOT_WRONG_SEQ (`--bug
	 * dotdot_wrong_seq`) compares it with up's fresh sample instead: a
	 * stale seq of the wrong dentry, which never matches, so every `..`
	 * restarts (a spurious fallback; REF-walk answers right).
	 */
	if (ND_TAGGED(&child->wt, read_seqcount_retry_at(&child->d_seq,
			nd_bug(nd, WT_BUG_DOTDOT_WRONG_SEQ) ? nd->next_seq : nd->seq,
			"dotdot_rcu.old_seq"))) {
		nd_count(nd, WT_PATH_RESTART_DOTDOT_SEQ);
		return ERR_PTR(-ECHILD);
	}
	nd_validated(nd, child, nd->seq);
	/*
	 * A rename may have moved child's directory out of the subtree a
	 * bind mount shows: then `..` has nowhere to go inside the mount.
	 * Zoo WT_BUG_NO_PATH_CONNECTED (`--bug no_path_connected`, the
	 * walk before Eric Biederman's 2015 path_connected test) goes up
	 * anyway, here and in follow_dotdot, out of the mount's subtree.
	 */
	if (!nd_bug(nd, WT_BUG_NO_PATH_CONNECTED) &&
	    !path_connected(nd->path.mnt, up)) {
		nd_count(nd, WT_PATH_RESTART_DOTDOT_DISCONNECTED);
		return ERR_PTR(-ECHILD);
	}
	record_dotdot(nd, WT_STEP_DOTDOT, &nd->path, nd->path.mnt, up,
		      nd->next_seq, 0);
	return up;
}

/* REF mode, `..` that stays: a new reference on where we are. */
static struct dentry *dotdot_stay(struct nameidata *nd)
{
	if (nd->flags & LOOKUP_BENEATH)
		return ERR_PTR(-EXDEV);
	record_dotdot(nd, WT_STEP_DOTDOT, &nd->path, nd->path.mnt,
		      nd->path.dentry, 0, 1);
	return dget(nd->path.dentry);
}

/* REF mode.  Returns the parent with a reference held, or ERR_PTR. */
static struct dentry *follow_dotdot(struct nameidata *nd)
{
	struct dentry *up;

	if (path_equal(&nd->path, &nd->root))
		return dotdot_stay(nd);
	if (at_mount_top(nd)) {
		struct path under;

		if (!choose_mountpoint(nd, real_mount(nd->path.mnt),
				       &nd->root, &under))
			return dotdot_stay(nd);
		record_dotdot(nd, WT_STEP_MOUNT_UP, &nd->path, under.mnt,
			      under.dentry, 0, 0);
		/* choose_mountpoint's references replace ours */
		path_put(&nd->path);
		nd->path = under;
		nd->inode = d_inode(under.dentry);
		/* nd already stands on the mountpoint: terminate_walk puts it */
		if (nd->flags & LOOKUP_NO_XDEV)
			return ERR_PTR(-EXDEV);
	}
	/*
	 * Our reference on nd->path.dentry keeps its parent alive, so taking
	 * one on the parent through d_parent is safe here (the walk's other
	 * steps get their dentries from lookups instead).
	 */
	up = dget_parent(nd->path.dentry);
	/* Zoo WT_BUG_NO_PATH_CONNECTED removes this test too (above). */
	if (nd_bug(nd, WT_BUG_NO_PATH_CONNECTED) ||
	    path_connected(nd->path.mnt, up)) {
		record_dotdot(nd, WT_STEP_DOTDOT, &nd->path, nd->path.mnt, up,
			      0, 0);
		return up;
	}
	/* renamed out of the bind mount's subtree: no way up from here */
	dput(up);
	return ERR_PTR(-ENOENT);
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
	struct dentry *up;
	const char *res;
	int err;

	if (type != LAST_DOTDOT)
		return NULL;
	err = nd_need_root(nd);
	if (err)
		return ERR_PTR(err);
	up = (nd->flags & LOOKUP_RCU) ? follow_dotdot_rcu(nd)
				      : follow_dotdot(nd);
	if (IS_ERR(up))
		return ERR_CAST(up);
	res = step_into(nd, WALK_NOFOLLOW, up);
	if (res || !(nd->flags & LOOKUP_IS_SCOPED))
		return res;
	return scoped_dotdot_check(nd);
}

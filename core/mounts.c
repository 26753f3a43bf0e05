/* SPDX-License-Identifier: MIT */
/*
 * Mounts in the walk: __legitimize_mnt/legitimize_mnt (fs/namespace.c),
 * handle_mounts with __follow_mount_rcu (RCU mode) and traverse_mounts
 * (REF mode, automounts), choose_mountpoint for `..` at a mount root, and
 * path_is_under for scoped lookups.
 *
 * RCU-walk takes no mount references: one sample of mount_lock
 * (nd->m_seq, taken in path_init) validates every mount it crossed, as
 * long as mount_lock has not moved.
 */
#include <assert.h>

#include "core/internal.h"

/*
 * __legitimize_mnt - turn an RCU-found mount into a counted reference.
 * Called under rcu_read_lock.  0: the count is ours.  1: failed, no count
 * held.  -1: failed holding a count, which the caller must drop with a
 * real mntput() outside the RCU section.  *how says which branch.
 */
int __legitimize_mnt(struct wt_world *w, struct vfsmount *bastard,
		     unsigned seq, enum legit_mnt *how)
{
	struct mount *mnt;

	/*
	 * Validates that no mount operation ran since the walk sampled
	 * mount_lock, before we touch the count.  For a mount it is a fast
	 * path: the recheck after the increment below sees the same moved
	 * seq and undoes the count.  For bastard == NULL (the kernel's
	 * lookup_mnt passes it when it found no mount; the sim's copy is
	 * lookup_mnt_legitimize) it is the only check: without it "nothing
	 * is mounted here" would be trusted after a mount operation raced
	 * the hash lookup.  No zoo bug here.
	 */
	if (read_seqretry_at(&w->mount_lock, seq, "legitimize_mnt.early")) {
		*how = LEGIT_MNT_MOVED_EARLY;
		return 1;
	}
	*how = LEGIT_MNT_OK;
	if (bastard == NULL)
		return 0;
	mnt = real_mount(bastard);
	mnt_add_count(mnt, 1);
	/*
	 * Pairs with the barrier in do_umount() before its busy check and
	 * with mntput_no_expire(): either umount sees our count, or we see
	 * its mount_lock write below.  Without it (zoo
	 * WT_BUG_LEGITIMIZE_NO_MB, `--bug legitimize_no_mb') x86 lets our
	 * increment wait in the store buffer while the recheck below reads
	 * the old mount_lock: umount's busy check misses the count, we
	 * miss umount, and we keep a mount a sync umount takes down.  Only
	 * memory=tso can show it (sim/tso.h); WT_BUG_SEQ_NO_BARRIER removes
	 * it too, with the barrier of the other side.
	 */
	if (!wt_bug(w, WT_BUG_LEGITIMIZE_NO_MB))
		wt_seq_dekker_mb();
	/*
	 * Validates, now that the count is raised, that mount_lock still has
	 * not moved: umount's busy check (under mount_lock) then comes after
	 * our increment and sees it.  Without it a sync umount could pass
	 * its busy check and tear the mount down while we keep using it.  No
	 * zoo bug removes it; the two zoo bugs are in what happens after.
	 */
	if (!read_seqretry_at(&w->mount_lock, seq, "legitimize_mnt.mount_lock"))
		return 0;
	/*
	 * Zoo WT_BUG_LEGITIMIZE_LOCKLESS_SYNC (`--bug legitimize_lockless_sync`):
	 * the order before 2025 -- test MNT_SYNC_UMOUNT before taking the
	 * mount hash lock and only MNT_DOOMED under it.  A walker that raised
	 * the count after umount's busy check but before umount set the flag
	 * then keeps its count (-1) and does a full mntput: it steals sync
	 * umount's final put.
	 */
	if (wt_bug(w, WT_BUG_LEGITIMIZE_LOCKLESS_SYNC) &&
	    (mnt_flags_load(mnt) & MNT_SYNC_UMOUNT)) {
		mnt_add_count(mnt, -1);
		*how = LEGIT_MNT_SYNC_UMOUNT;
		return 1;
	}
	lock_mount_hash(w);
	if (mnt_flags_load(mnt) &
	    (wt_bug(w, WT_BUG_LEGITIMIZE_LOCKLESS_SYNC) ?
	     MNT_DOOMED : (MNT_SYNC_UMOUNT | MNT_DOOMED))) {
		/*
		 * The umount that set the flag verified the mount was not
		 * busy and does the final put itself: undo our increment
		 * quietly.  Zoo WT_BUG_LEGITIMIZE_FULL_MNTPUT
		 * (`--bug legitimize_full_mntput`) keeps the count instead, so
		 * the caller's mntput may be the final one.
		 */
		if (!wt_bug(w, WT_BUG_LEGITIMIZE_FULL_MNTPUT)) {
			mnt_add_count(mnt, -1);
			unlock_mount_hash(w);
			*how = LEGIT_MNT_SYNC_UMOUNT;
			return 1;
		}
	}
	unlock_mount_hash(w);
	/* the count stays raised: it is the caller's to put, outside RCU */
	*how = LEGIT_MNT_MNTPUT;
	return -1;
}

/* Called under rcu_read_lock; on failure nothing is held. */
bool legitimize_mnt(struct wt_world *w, struct vfsmount *bastard,
		    unsigned seq)
{
	enum legit_mnt how;

	switch (__legitimize_mnt(w, bastard, seq, &how)) {
	case 0:
		return true;
	case 1:
		return false;
	default:
		break;
	}
	/*
	 * Failed, but left holding a count.  Our put may be the last one,
	 * and a last mntput may sleep: it cannot run inside the RCU section.
	 */
	rcu_read_unlock();
	mntput(bastard);
	rcu_read_lock();
	return false;
}

void count_legit_mnt(struct nameidata *nd, enum legit_mnt how)
{
	static const enum wt_path path_of[] = {
		[LEGIT_MNT_OK] = WT_PATH_NONE,
		[LEGIT_MNT_MOVED_EARLY] = WT_PATH_RESTART_LEGITIMIZE_MNT_MOUNT_LOCK,
		[LEGIT_MNT_SYNC_UMOUNT] = WT_PATH_RESTART_LEGITIMIZE_MNT_SYNC_UMOUNT,
		[LEGIT_MNT_MNTPUT] = WT_PATH_RESTART_LEGITIMIZE_MNT_MNTPUT,
	};

	assert((unsigned)how < sizeof(path_of) / sizeof(path_of[0]));
	nd_count(nd, path_of[how]);
}

/*
 * path_connected - is dentry below mnt's root?  A rename can move a
 * directory out of a bind mount's subtree; `..` must then not walk out.
 */
bool path_connected(struct vfsmount *mnt, struct dentry *dentry)
{
	struct super_block *sb = mnt->mnt_sb;
	struct dentry *root = mnt_root_of(mnt);

	/*
	 * A mount of the whole filesystem contains every dentry of it; only
	 * a mount of a subtree (a bind mount) can lose one to a rename.
	 */
	return root == wt_load(sb, s_root) || is_subdir(dentry, root);
}

static bool mount_has_parent(struct mount *m)
{
	return wt_load_acquire(m, mnt_parent) != m;
}

/*
 * The mountpoint that `..` at the root of m goes to: up through every
 * mount whose mountpoint is its parent's root, stopping at the walk's
 * root.  RCU: the caller validates with mount_lock and *seqp.  w is only
 * asked for its zoo bits.
 */
bool choose_mountpoint_rcu(const struct wt_world *w, struct mount *m,
			   const struct path *root, struct path *path,
			   unsigned *seqp)
{
	unsigned hops = 0;

	while (mount_has_parent(m)) {
		struct dentry *mountpoint = wt_load_acquire(m, mnt_mountpoint);

		m = wt_load_acquire(m, mnt_parent);
		/*
		 * A mount stacked on the walker's root has the root as its
		 * mountpoint: `..` from it must stay, as `..` at the root
		 * itself does.  Handing the root back as a mountpoint would
		 * let the caller go on to the root's parent -- an escape
		 * from a chroot or an open_root/RESOLVE_IN_ROOT walk.  Zoo
		 * WT_BUG_MOUNTPOINT_PAST_ROOT (`--bug mountpoint_past_root`)
		 * removes it.
		 */
		if (root->dentry == mountpoint && root->mnt == &m->mnt &&
		    !wt_bug(w, WT_BUG_MOUNTPOINT_PAST_ROOT))
			break;
		if (mountpoint != wt_load_acquire(m, mnt.mnt_root)) {
			path->mnt = &m->mnt;
			path->dentry = mountpoint;
			*seqp = read_seqcount_begin_at(&mountpoint->d_seq,
						       "choose_mountpoint_rcu.seq");
			return true;
		}
		/* A torn mount tree can loop; mount_lock will say so. */
		if (++hops > 4096)
			break;
	}
	return false;
}

/* REF mode: the same, returning path with references held. */
bool choose_mountpoint(struct nameidata *nd, struct mount *m,
		       const struct path *root, struct path *path)
{
	struct wt_world *w = nd->world;
	bool found;

	rcu_read_lock();
	for (;;) {	/* ends when mount_lock holds still for one pass */
		unsigned seq, mseq = read_seqbegin_at(&w->mount_lock,
						      "choose_mountpoint.mount_lock");

		found = choose_mountpoint_rcu(w, m, root, path, &seq);
		if (!found) {
			/*
			 * Validates the "no mountpoint, stay at the root"
			 * answer: a mount operation in between could have torn
			 * the chain we followed, and `..` would wrongly stay.
			 * No zoo bug removes it.
			 */
			if (!read_seqretry_at(&w->mount_lock, mseq,
					      "choose_mountpoint.none"))
				break;
		} else if (legitimize_mnt(w, path->mnt, mseq)) {
			if (lockref_get_not_dead(&path->dentry->d_lockref)) {
				/*
				 * Validates the mountpoint dentry against the
				 * seq sampled with it: else it may have been
				 * renamed or killed since, and we would hold a
				 * reference on the wrong place.  Retry.  No zoo
				 * bug removes it.
				 */
				if (!read_seqcount_retry_at(&path->dentry->d_seq, seq,
							    "choose_mountpoint.seq"))
					break;
				rcu_read_unlock();
				path_put(path);
			} else {
				rcu_read_unlock();
				mntput(path->mnt);
			}
			rcu_read_lock();
		}
		nd_count(nd, WT_PATH_RETRY_CHOOSE_MOUNTPOINT);
	}
	rcu_read_unlock();
	return found;
}

/*
 * Try to skip to the top of the mount pile in RCU mode.  false: give up
 * RCU-walk here (the reason in *ok / *fail); the caller unlazies with the
 * dentry it started from.
 */
static bool __follow_mount_rcu(struct nameidata *nd, struct path *path,
			       enum wt_path *ok, enum wt_path *fail)
{
	struct wt_world *w = nd->world;
	struct dentry *dentry = path->dentry;
	unsigned int flags = nd_d_flags(dentry);

	if (nd->flags & LOOKUP_NO_XDEV) {
		*ok = WT_PATH_UNLAZY_FOLLOW_MOUNT_NO_XDEV;
		*fail = WT_PATH_RESTART_FOLLOW_MOUNT_NO_XDEV;
		return false;
	}
	for (unsigned layers = 0;; layers++) {
		/* Bounded: each pass crosses one mount; mount_lock stops a torn pile. */
		if (layers > 4096)
			goto mount_lock_moved;
		/* A non-mountpoint managed dentry may want to block transit. */
		if (flags & DCACHE_MANAGE_TRANSIT) {
			const struct dentry_operations *op = wt_load(dentry, d_op);
			int res = op && op->d_manage ? op->d_manage(path, true) : 0;

			if (res) {
				if (res == -EISDIR)
					return true;
				*ok = WT_PATH_UNLAZY_FOLLOW_MOUNT_MANAGE;
				*fail = WT_PATH_RESTART_FOLLOW_MOUNT_MANAGE;
				return false;
			}
			flags = nd_d_flags(dentry);
		}
		if (flags & DCACHE_MOUNTED) {
			struct mount *mounted = __lookup_mnt(path->mnt, dentry);

			if (mounted) {
				struct wt_ident from = wt_ident_of(path->mnt, dentry, NULL);
				struct wt_ident to;

				path->mnt = &mounted->mnt;
				dentry = path->dentry = wt_load_acquire(mounted, mnt.mnt_root);
				nd->state |= ND_JUMPED;
				nd->next_seq = ND_TAGGED(&dentry->wt, read_seqcount_begin_at(&dentry->d_seq,
								      "follow_mount_rcu.root_seq"));
				flags = nd_d_flags(dentry);
				to = wt_ident_of(path->mnt, dentry, NULL);
				if (nd_recording(nd))
					nd_record(nd, WT_STEP_MOUNT, &from, &to, NULL, 0,
						  0, 0, NULL, 0);
				/*
				 * Validates the crossing at once: with mount_lock
				 * unmoved since path_init, REF-walk could have
				 * crossed this same mount here.  Without it an
				 * umount in between leaves us in a detached tree,
				 * whose later changes (a rename exchange in its
				 * filesystem) can end the walk in a hard error
				 * before any unlazy rechecks mount_lock.  Zoo
				 * WT_BUG_FOLLOW_MOUNT_NO_RECHECK (`--bug
				 * follow_mount_no_recheck`: Linux before
				 * 20aac6c60981) goes on regardless, and so does
				 * WT_BUG_FOLLOW_MOUNT_NO_STOP (`--bug
				 * follow_mount_no_stop`, kernel b37199e6, which
				 * removes the check below as well).
				 */
				if (nd_bug(nd, WT_BUG_FOLLOW_MOUNT_NO_STOP) ||
				    nd_bug(nd, WT_BUG_FOLLOW_MOUNT_NO_RECHECK))
					continue;
				if (read_seqretry_at(&w->mount_lock, nd->m_seq,
						     "follow_mount_rcu.mount_lock"))
					goto mount_lock_moved;
				nd_validated_mounts(nd);
				continue;
			}
			/*
			 * Validates "nothing mounted here" for a dentry flagged
			 * mounted: with mount_lock unmoved, the mount belongs to
			 * another namespace and not crossing it is right; with
			 * it moved, __lookup_mnt may have missed a mount being
			 * rehashed (a false negative), and walking into the
			 * covered directory could end in a bogus hard error.
			 * Zoo WT_BUG_FOLLOW_MOUNT_NO_STOP removes it too.
			 */
			if (!nd_bug(nd, WT_BUG_FOLLOW_MOUNT_NO_STOP) &&
			    read_seqretry_at(&w->mount_lock, nd->m_seq,
					     "follow_mount_rcu.no_mount")) {
				*ok = WT_PATH_UNLAZY_FOLLOW_MOUNT_NO_MOUNT;
				*fail = WT_PATH_RESTART_FOLLOW_MOUNT_NO_MOUNT;
				return false;
			}
		}
		if (flags & DCACHE_NEED_AUTOMOUNT) {
			*ok = WT_PATH_UNLAZY_FOLLOW_MOUNT_AUTOMOUNT;
			*fail = WT_PATH_RESTART_FOLLOW_MOUNT_AUTOMOUNT;
			return false;
		}
		return true;
	}

mount_lock_moved:
	*ok = WT_PATH_UNLAZY_FOLLOW_MOUNT_MOUNT_LOCK;
	*fail = WT_PATH_RESTART_FOLLOW_MOUNT_MOUNT_LOCK;
	return false;
}

/*
 * Perform an automount.  -EISDIR tells the caller to stop and keep the
 * path it had (a stat of the point itself does not trigger a mount).
 */
static int follow_automount(struct nameidata *nd, struct path *path,
			    int *count, unsigned lookup_flags)
{
	const unsigned wants_mount = LOOKUP_PARENT | LOOKUP_DIRECTORY |
				     LOOKUP_OPEN | LOOKUP_CREATE |
				     LOOKUP_AUTOMOUNT;
	struct dentry *dentry = path->dentry;
	const struct dentry_operations *op;
	struct wt_ident at;
	int ret;

	/*
	 * Don't mount for a plain stat of the point -- unless it is looked
	 * up as a directory (trailing slash), opened, created under, or
	 * crossed.  A negative automount point always needs the daemon.
	 */
	if (!(lookup_flags & wants_mount) && d_inode(dentry))
		return -EISDIR;
	/* RESOLVE_NO_XDEV: the mount we would trigger is one we may not enter */
	if (lookup_flags & LOOKUP_NO_XDEV)
		return -EXDEV;
	/* automounts share the walk's MAXSYMLINKS budget with symlinks */
	if (count && ++*count > MAXSYMLINKS)
		return -ELOOP;
	op = wt_load(dentry, d_op);
	if (!op || !op->d_automount)
		return -EISDIR;
	at = wt_ident_of(path->mnt, dentry, d_inode(dentry));
	ret = finish_automount(op->d_automount(path), path);
	if (nd_recording(nd))
		nd_record(nd, WT_STEP_AUTOMOUNT, &at, &at, NULL, 0, ret, 0,
			  NULL, 0);
	return ret;
}

/*
 * REF mode, a dentry the filesystem manages (autofs): ask it (op, the
 * dentry's d_op, loaded by the caller) whether the walk may pass, which
 * may block.  Its answer (0, -EISDIR or -errno); *flags is reloaded after
 * it, since the filesystem may change them.
 */
static int manage_transit(struct path *path,
			  const struct dentry_operations *op,
			  unsigned lookup_flags, unsigned *flags)
{
	int verdict;

	/* RESOLVE_NO_XDEV: a managed point is a mount crossing to be */
	if (lookup_flags & LOOKUP_NO_XDEV)
		return -EXDEV;
	verdict = (op && op->d_manage) ? op->d_manage(path, false) : 0;
	*flags = nd_d_flags(path->dentry);
	return verdict;
}

/*
 * REF mode: move path from a mountpoint to the root of mounted (which
 * lookup_mnt returned referenced).  The old mount's reference is dropped
 * only when it was ours (put_mnt), not the caller's.
 */
static void cross_onto(struct nameidata *nd, struct path *path,
		       struct vfsmount *mounted, bool put_mnt)
{
	struct wt_ident from = wt_ident_of(path->mnt, path->dentry, NULL);
	struct wt_ident to;
	struct dentry *top;

	dput(path->dentry);
	if (put_mnt)
		mntput(path->mnt);
	top = dget(mnt_root_of(mounted));
	*path = (struct path){ .mnt = mounted, .dentry = top };
	to = wt_ident_of(mounted, top, d_inode(top));
	if (nd_recording(nd))
		nd_record(nd, WT_STEP_MOUNT, &from, &to, NULL, 0, 0, 0, NULL, 0);
}

static int __traverse_mounts(struct nameidata *nd, struct path *path,
			     unsigned flags, bool *jumped, int *count,
			     unsigned lookup_flags)
{
	struct vfsmount *start_mnt = path->mnt;
	bool crossed = false;	/* path->mnt is then a reference of ours */
	int err = 0;

	/* bounded by *count and by the height of the mount pile */
	while (flags & DCACHE_MANAGED_DENTRY) {
		if (flags & DCACHE_MANAGE_TRANSIT) {
			err = manage_transit(path, wt_load(path->dentry, d_op),
					     lookup_flags, &flags);
			if (err < 0)
				break;
		}
		/*
		 * DCACHE_MOUNTED says that some namespace has a mount here;
		 * lookup_mnt finds it only when it is in ours.
		 */
		if (flags & DCACHE_MOUNTED) {
			struct vfsmount *mounted = lookup_mnt(path);

			if (mounted) {
				cross_onto(nd, path, mounted, crossed);
				crossed = true;
				/* a mount's root is never a negative dentry */
				flags = nd_d_flags(path->dentry);
				if (lookup_flags & LOOKUP_NO_XDEV) {
					err = -EXDEV;
					break;
				}
				continue;
			}
		}
		if (!(flags & DCACHE_NEED_AUTOMOUNT))
			break;
		/* an automount point with nothing on it (in our namespace) yet */
		err = follow_automount(nd, path, count, lookup_flags);
		flags = nd_d_flags(path->dentry);
		if (err < 0)
			break;
	}
	/* -EISDIR: stop here and keep the path, which is no error */
	err = err == -EISDIR ? 0 : err;
	/*
	 * Racing mount --moves can bring the pile back round to the mount
	 * we started on.  The caller keeps its own reference to that one
	 * and will not put path->mnt, so ours must go now.
	 */
	if (crossed && path->mnt == start_mnt)
		mntput(start_mnt);
	if (!err && d_is_negative_flags(flags))
		err = -ENOENT;
	*jumped = crossed;
	return err;
}

/* REF mode: cross mounts and automounts at path; path keeps the refs. */
static int traverse_mounts(struct nameidata *nd, struct path *path,
			   bool *jumped, int *count, unsigned lookup_flags)
{
	unsigned flags = nd_d_flags(path->dentry);

	if (flags & DCACHE_MANAGED_DENTRY)
		return __traverse_mounts(nd, path, flags, jumped, count,
					 lookup_flags);
	/* the usual case: nothing mounted, managed or to be automounted */
	*jumped = false;
	return d_is_negative_flags(flags) ? -ENOENT : 0;
}

/*
 * RCU mode part of handle_mounts: 1 when the walk stays in RCU mode
 * (nothing to cross, or __follow_mount_rcu reached the top), 0 when it
 * gave up and the unlazy succeeded (REF mode goes on from dentry), or
 * -ECHILD.
 */
static int handle_mounts_rcu(struct nameidata *nd, struct dentry *dentry,
			     struct path *path)
{
	const struct path from = *path;
	const unsigned from_seq = nd->next_seq;
	const uint32_t mark = nd_recording(nd) ? nd->record->nsteps : 0;
	enum wt_path ok, fail;

	if (!(nd_d_flags(dentry) & DCACHE_MANAGED_DENTRY) ||
	    __follow_mount_rcu(nd, path, &ok, &fail))
		return 1;
	/*
	 * Before giving up, __follow_mount_rcu may have crossed mounts:
	 * moved *path, nd->next_seq and the record.  REF-walk will redo
	 * those crossings from dentry, so all three go back to the start.
	 */
	*path = from;
	nd->next_seq = from_seq;
	nd_record_rewind(nd, mark);
	return try_to_unlazy_next(nd, dentry, ok, fail) ? 0 : -ECHILD;
}

/*
 * handle_mounts - from dentry (found in nd->path) to the top of whatever
 * is mounted on it.  RCU mode: nd->next_seq is dentry's seq on entry and
 * the seq of *path's dentry on return.  REF mode: *path holds references
 * (dentry always, mnt when it differs from nd->path.mnt).
 */
int handle_mounts(struct nameidata *nd, struct dentry *dentry,
		  struct path *path)
{
	bool crossed;
	int err;

	*path = (struct path){ .mnt = nd->path.mnt, .dentry = dentry };
	if (nd->flags & LOOKUP_RCU) {
		int stay = handle_mounts_rcu(nd, dentry, path);

		if (stay)
			return stay > 0 ? 0 : stay;
	}
	err = traverse_mounts(nd, path, &crossed, &nd->total_link_count,
			      nd->flags);
	if (crossed)
		nd->state |= ND_JUMPED;
	if (err)
		path_put_step(path, nd->path.mnt);
	return err;
}

/*
 * Is path (mount, dentry) under root, following mounts up?  For the final
 * check of scoped lookups; serialised against mount changes.
 */
bool path_is_under(struct wt_world *w, const struct path *path,
		   const struct path *root)
{
	struct mount *m = real_mount(path->mnt);
	struct dentry *d = path->dentry;
	bool reached, under;

	read_seqlock_excl(&w->mount_lock);
	/* climb towards root's mount; each mount is left by its mountpoint */
	for (; &m->mnt != root->mnt && mnt_has_parent(m); m = m->mnt_parent)
		d = m->mnt_mountpoint;
	reached = &m->mnt == root->mnt;
	under = reached && is_subdir(d, root->dentry);
	read_sequnlock_excl(&w->mount_lock);
	return under;
}

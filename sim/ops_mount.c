/* SPDX-License-Identifier: MIT */
/*
 * Mount-tree operations: mount -t, bind, rbind, move, umount (sync and
 * lazy).  Each holds namespace_sem and changes the tree only under
 * lock_mount_hash (write_seqlock(&mount_lock)): mount_lock is the one
 * seqcount they bump.  The kernel's d_set_mounted also write-locks
 * rename_lock when a dentry first becomes a mountpoint; the model leaves
 * that out, because every reader that cares about a new mount (scoped
 * `..` included) also checks mount_lock, which moves anyway.  The two
 * things that lock does for d_set_mounted's walk up the parents are had
 * otherwise here: the chain cannot change under it (d_move is a writer
 * verb, and this verb holds the writer mutex), and d_invalidate has no
 * walk of the subtree for mountpoints to keep in step with (the model's
 * does not detach submounts: see scenarios/zoo/README.md,
 * mount_unlinked_ancestor).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/ops_internal.h"
#include "sim/rcu.h"
#include "sim/scratch.h"

/*
 * Mounts of a subtree, parents before children (an explicit queue).  Its
 * array is a scratch block (sim/scratch.h): a run that ends while the
 * verb stands at one of its points -- a halt, a stuck or deadlocked sim
 * run -- never comes back to free it, and the thread's list does.
 */
struct mnt_list {
	struct mount **v;
	size_t n;
	size_t cap;
};

static void mnt_list_add(struct mnt_list *l, struct mount *m)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct mount **v = wt_scratch_alloc(cap * sizeof(*v));

		if (!v)
			abort();	/* bookkeeping */
		if (l->n)
			memcpy(v, l->v, l->n * sizeof(*v));
		wt_scratch_free(l->v);
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = m;
}

static void mnt_list_free(struct mnt_list *l)
{
	wt_scratch_free(l->v);
	l->v = NULL;
	l->n = 0;
	l->cap = 0;
}

/* m and every mount below it, breadth first (namespace_sem held). */
static void collect_tree(struct mount *m, struct mnt_list *l)
{
	mnt_list_add(l, m);
	for (size_t i = 0; i < l->n; i++)	/* bounded: the tree is finite */
		for (struct mount *c = l->v[i]->mnt_mounts; c; c = c->mnt_child)
			mnt_list_add(l, c);
}

static bool mnt_is_attached(const struct mount *m)
{
	return READ_ONCE(m->mnt_attached);
}

/*
 * Where a mount may go: lock_mount's and d_set_mounted's tests, then
 * do_add_mount's.  The mountpoint itself must still have its name
 * (cant_mount, d_unlinked), and so must every directory above it up to
 * its filesystem's root: the subtree below an invalidated directory is
 * still reachable through a task's cwd, a dirfd or /proc/PID/cwd, and
 * a mount attached there would sit where no path from the root leads.
 */
static int mountpoint_ok(struct wt_world *w, const struct path *mp,
			 const struct mount *src_root)
{
	if (mp->dentry != mp->mnt->mnt_root && d_unhashed(mp->dentry))
		return -ENOENT;
	/* Zoo WT_BUG_MOUNT_UNLINKED_ANCESTOR (`--bug
	 * mount_unlinked_ancestor`, Linux before eed810076685): only the
	 * mountpoint itself was tested.  The bug bit is read first, so
	 * the correct model's extra loads come only from the walk up. */
	if (!wt_bug(w, WT_BUG_MOUNT_UNLINKED_ANCESTOR) &&
	    has_unlinked_ancestor(mp->dentry)) {
		WT_EVENT("d_set_mounted.unlinked_ancestor", mp->dentry);
		return -ENOENT;
	}
	if (!mnt_is_attached(real_mount(mp->mnt)))
		return -EINVAL;	/* check_mnt: not in our namespace */
	if (src_root && d_is_dir(mp->dentry) != d_is_dir(src_root->mnt.mnt_root))
		return -ENOTDIR;
	return 0;
}

static void log_tree(struct wt_hist_rec *rec, struct mnt_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		wt_history_mount(rec, l->v[i]);
		wt_history_super(rec, l->v[i]->mnt.mnt_sb);
	}
}

/*
 * lock_mount: where a mount verb attaches.  The path a verb names may
 * already have mounts on it that its resolution did not cross -- "/" is
 * the process root, and path_init does not cross what is mounted on it
 * -- so, as do_lock_mount does with namespace_sem held, go up to the top
 * of the stack and mount on the top mount's root.  This keeps one child
 * per (parent, mountpoint), which __lookup_mnt and the namespace
 * snapshot (wt_ns_mount_at) both rely on: two mounts attached at one
 * place would leave the two disagreeing about which is on top.
 */
static void lock_mount(struct path *mp)
{
	wt_follow_mounts(mp);
}

/* ------------------------------------------------------------------ */
/* mount -t                                                             */

static int do_new_mount(struct wt_world *w, const struct file_system_type *t,
			const char *name, const char *path, struct path *mp,
			int mnt_flags)
{
	struct wt_hist_rec *rec;
	struct super_block *sb;
	struct mount *m;
	int err = d_can_lookup(mp->dentry) ? mountpoint_ok(w, mp, NULL) : -ENOTDIR;

	if (err)
		return err;
	sb = wt_sb_create(w, t, name);
	if (!sb)
		return -ENOMEM;
	m = wt_mnt_alloc(sb, sb->s_root, name);
	if (!m) {
		wt_sb_discard(sb);
		return -ENOMEM;
	}
	m->mnt.mnt_flags = mnt_flags;	/* not yet published: a plain store */
	/* mount(2)'s MS_RDONLY makes the new filesystem read-only as well
	 * as the mount (the super_block's flags come from the same word) */
	if (mnt_flags & MNT_READONLY)
		sb->s_flags |= SB_RDONLY;
	wt_origin_set(w, d_inode(sb->s_root), "fsroot:", path, strlen(path));
	rec = wt_history_begin(w, "mount", "mount.attach", "-t %s %s %s",
			       t->name, name, path);
	lock_mount_hash(w);
	wt_mnt_attach(m, real_mount(mp->mnt), mp->dentry);
	unlock_mount_hash(w);
	wt_history_mount(rec, m);
	wt_history_super(rec, sb);
	wt_history_dentry(rec, mp->dentry);
	wt_history_commit(rec);
	return 0;
}

int wt_op_mount(struct wt_world *w, const char *type, const char *name,
		const char *path)
{
	return wt_op_mount_flags(w, type, name, path, 0);
}

int wt_op_mount_flags(struct wt_world *w, const char *type, const char *name,
		      const char *path, int mnt_flags)
{
	const struct file_system_type *t = wt_fs_type_lookup(type);
	struct path mp;
	int err;

	if (!t)
		return -ENODEV;
	err = wt_writer_lock(w);
	if (err)
		return err;
	err = wt_resolve(w, path, WT_RES_FOLLOW, &mp);
	if (!err) {
		mutex_lock(&w->namespace_sem);
		lock_mount(&mp);
		err = do_new_mount(w, t, name, path, &mp, mnt_flags);
		mutex_unlock(&w->namespace_sem);
		wt_path_put(&mp);
	}
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

/* ------------------------------------------------------------------ */
/* bind, rbind                                                          */

static struct mount *clone_mnt(struct mount *src, struct dentry *root)
{
	struct mount *m = wt_mnt_alloc(src->mnt.mnt_sb, root, src->mnt_devname);

	/* Not yet published: a plain store.  Umount state is not copied. */
	if (m)
		m->mnt.mnt_flags = src->mnt.mnt_flags &
			~(MNT_UMOUNT | MNT_SYNC_UMOUNT | MNT_DOOMED | MNT_MARKED);
	return m;
}

/*
 * copy_tree: clones of src's mounts whose mountpoints lie under root, in
 * srcs and clones (parents first, index 0 the top).  -ENOMEM drops them.
 */
static int copy_tree(struct mount *src, struct dentry *root, bool recursive,
		     struct mnt_list *srcs, struct mnt_list *clones)
{
	struct mount *top = clone_mnt(src, root);

	if (!top)
		return -ENOMEM;
	mnt_list_add(srcs, src);
	mnt_list_add(clones, top);
	for (size_t i = 0; recursive && i < srcs->n; i++) {
		for (struct mount *c = srcs->v[i]->mnt_mounts; c; c = c->mnt_child) {
			struct mount *cc;

			if (i == 0 && !is_subdir(c->mnt_mountpoint, root))
				continue;
			cc = clone_mnt(c, c->mnt.mnt_root);
			if (!cc)
				return -ENOMEM;
			mnt_list_add(srcs, c);
			mnt_list_add(clones, cc);
		}
	}
	return 0;
}

static size_t index_of(const struct mnt_list *l, const struct mount *m)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == m)
			return i;
	return 0;
}

static void attach_clones(struct wt_world *w, struct mnt_list *srcs,
			  struct mnt_list *clones, const struct path *mp)
{
	lock_mount_hash(w);
	wt_mnt_attach(clones->v[0], real_mount(mp->mnt), mp->dentry);
	for (size_t i = 1; i < clones->n; i++) {
		struct mount *s = srcs->v[i];

		wt_mnt_attach(clones->v[i],
			      clones->v[index_of(srcs, s->mnt_parent)],
			      s->mnt_mountpoint);
	}
	unlock_mount_hash(w);
}

static int do_bind(struct wt_world *w, const struct path *src,
		   const struct path *mp, bool recursive, int set_flags,
		   const char *args)
{
	struct mnt_list srcs = { 0 }, clones = { 0 };
	struct mount *s = real_mount(src->mnt);
	struct wt_hist_rec *rec;
	int err = mnt_is_attached(s) ? 0 : -EINVAL;

	if (!err && d_is_dir(src->dentry) != d_is_dir(mp->dentry))
		err = -ENOTDIR;
	if (!err)
		err = mountpoint_ok(w, mp, NULL);
	if (!err)
		err = copy_tree(s, src->dentry, recursive, &srcs, &clones);
	if (err) {
		for (size_t i = 0; i < clones.n; i++)
			mntput(&clones.v[i]->mnt);	/* never attached: freed */
		goto out;
	}
	/* mount --bind -o ro: util-linux remounts the new top mount at
	 * once; here it is attached with the flag already set (not yet
	 * published: a plain store) */
	clones.v[0]->mnt.mnt_flags |= set_flags;
	rec = wt_history_begin(w, recursive ? "rbind" : "bind",
			       recursive ? "rbind.attach" : "bind.attach", "%s", args);
	attach_clones(w, &srcs, &clones, mp);
	log_tree(rec, &clones);
	wt_history_dentry(rec, mp->dentry);
	wt_history_commit(rec);
out:
	mnt_list_free(&srcs);
	mnt_list_free(&clones);
	return err;
}

/* Resolve both paths of a two-path mount verb, then run fn. */
static int two_paths(struct wt_world *w, const char *a, const char *b,
		     struct path *pa, struct path *pb)
{
	int err = wt_resolve(w, a, WT_RES_FOLLOW, pa);

	if (err)
		return err;
	err = wt_resolve(w, b, WT_RES_FOLLOW, pb);
	if (err)
		wt_path_put(pa);
	return err;
}

int wt_op_bind(struct wt_world *w, const char *src, const char *dst,
	       bool recursive)
{
	return wt_op_bind_flags(w, src, dst, recursive, 0);
}

int wt_op_bind_flags(struct wt_world *w, const char *src, const char *dst,
		     bool recursive, int set_flags)
{
	char args[2 * PATH_MAX_LEN + 2];
	struct path s, d;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = two_paths(w, src, dst, &s, &d);
	if (!err) {
		snprintf(args, sizeof(args), "%s %s", src, dst);
		mutex_lock(&w->namespace_sem);
		lock_mount(&d);
		err = do_bind(w, &s, &d, recursive, set_flags, args);
		mutex_unlock(&w->namespace_sem);
		wt_path_put(&d);
		wt_path_put(&s);
	}
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

/* ------------------------------------------------------------------ */
/* mount -o remount                                                     */

/*
 * do_remount / do_reconfigure_mnt: PATH must be the root of a mount of
 * this namespace (EINVAL otherwise).  Without bind the filesystem
 * becomes read-only or writable first (reconfigure_super); then, with or
 * without, the mount's user-settable flags are replaced wholesale by the
 * ones given (set_mount_attributes, under lock_mount_hash): a remount
 * that does not repeat nosymfollow clears it.
 */
static int do_remount(struct wt_world *w, const struct path *p, bool bind,
		      int mnt_flags, const char *args)
{
	const int settable = MNT_NOSUID | MNT_NODEV | MNT_NOEXEC |
			     MNT_NOATIME | MNT_READONLY | MNT_NOSYMFOLLOW;
	struct mount *m = real_mount(p->mnt);
	struct super_block *sb = p->mnt->mnt_sb;
	struct wt_hist_rec *rec;
	int flags;

	if (!mnt_is_attached(m) || p->dentry != p->mnt->mnt_root)
		return -EINVAL;
	rec = wt_history_begin(w, "remount", "remount.mnt_flags", "%s", args);
	if (!bind) {
		unsigned long sbf = READ_ONCE(sb->s_flags);

		WRITE_ONCE(sb->s_flags, (mnt_flags & MNT_READONLY) ?
			   sbf | SB_RDONLY : sbf & ~SB_RDONLY);
	}
	lock_mount_hash(w);
	flags = (m->mnt.mnt_flags & ~settable) | (mnt_flags & settable);
	wt_store_step(m, mnt.mnt_flags, flags, "remount.mnt_flags");
	unlock_mount_hash(w);
	wt_history_mount(rec, m);
	wt_history_super(rec, sb);
	wt_history_commit(rec);
	return 0;
}

int wt_op_remount(struct wt_world *w, const char *path, bool bind,
		  int mnt_flags)
{
	char args[PATH_MAX_LEN + 64];
	struct path p;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = wt_resolve(w, path, WT_RES_FOLLOW, &p);
	if (!err) {
		snprintf(args, sizeof(args), "%s%s%s", bind ? "bind " : "",
			 (mnt_flags & MNT_READONLY) ? "ro " : "rw ", path);
		mutex_lock(&w->namespace_sem);
		err = do_remount(w, &p, bind, mnt_flags, args);
		mutex_unlock(&w->namespace_sem);
		wt_path_put(&p);
	}
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

/* ------------------------------------------------------------------ */
/* mount --move                                                         */

static int do_move(struct wt_world *w, const struct path *src,
		   const struct path *mp, const char *args)
{
	struct mount *m = real_mount(src->mnt), *p;
	struct wt_hist_rec *rec;
	struct dentry *old_mp;
	int err;

	if (src->dentry != src->mnt->mnt_root)
		return -EINVAL;		/* not a mount root */
	if (!mnt_is_attached(m) || !mnt_has_parent(m))
		return -EINVAL;		/* detached, or the namespace root */
	for (p = real_mount(mp->mnt); mnt_has_parent(p); p = p->mnt_parent)
		if (p == m)
			return -ELOOP;	/* into its own subtree */
	if (p == m)
		return -ELOOP;
	err = mountpoint_ok(w, mp, m);
	if (err)
		return err;
	old_mp = dget(m->mnt_mountpoint);	/* logged after the detach */
	/*
	 * lock_mount's get_mountpoint: the destination is a mountpoint
	 * before the section in which the source stops being one.  Marked
	 * only inside it, after the detach, a REF-walk that read both
	 * dentries' flags meanwhile saw no mount at either and went on,
	 * past lookup_mnt and mount_lock, through the covered /m (walktorture
	 * fuzz --seed 0x2127 --threads 8 --policy random, workload 1983).
	 */
	wt_mountpoint_pin(mp->dentry, 1);
	rec = wt_history_begin(w, "move_mount", "move_mount.attach", "%s", args);
	lock_mount_hash(w);
	/* One mount_lock section: readers never see the mount detached. */
	wt_mnt_detach(m);
	wt_mnt_attach(m, real_mount(mp->mnt), mp->dentry);
	unlock_mount_hash(w);
	wt_history_mount(rec, m);
	wt_history_dentry(rec, old_mp);
	wt_history_dentry(rec, mp->dentry);
	wt_history_commit(rec);
	wt_mountpoint_pin(mp->dentry, -1);	/* unlock_mount's put */
	dput(old_mp);
	return 0;
}

int wt_op_move_mount(struct wt_world *w, const char *src, const char *dst)
{
	char args[2 * PATH_MAX_LEN + 2];
	struct path s, d;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = two_paths(w, src, dst, &s, &d);
	if (!err) {
		snprintf(args, sizeof(args), "%s %s", src, dst);
		mutex_lock(&w->namespace_sem);
		lock_mount(&d);
		err = do_move(w, &s, &d, args);
		mutex_unlock(&w->namespace_sem);
		wt_path_put(&d);
		wt_path_put(&s);
	}
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

/* ------------------------------------------------------------------ */
/* umount                                                               */

/*
 * namespace_unlock's grace period.  The kernel waits for it holding
 * nothing other writers need (namespace_sem is already dropped, and
 * rename or unlink never take it), so the world's writer mutex is let
 * go for the wait: another writer may change the tree -- a filesystem
 * this umount just detached included -- while RCU walkers that crossed
 * onto the mount before the detach are still inside (zoo
 * follow_mount_no_recheck needs that window).  The mountpoints are put
 * before it; the tail, the mntputs, runs under the writer mutex again.
 */
static void umount_grace_period(struct wt_world *w)
{
	wt_writer_unlock(w);
	synchronize_rcu();
	/* cannot fail: the writer side was set up by our own first lock */
	(void)wt_writer_lock(w);
}

/*
 * Lazy (MNT_DETACH): the whole subtree leaves the tree now, top first;
 * each mount gets MNT_UMOUNT but not MNT_SYNC_UMOUNT, and after a grace
 * period the tree's references are dropped: whoever puts last -- a
 * walker still inside, or this -- frees.
 */
static void umount_lazy(struct wt_world *w, struct mount *m, const char *path)
{
	struct mnt_list l = { 0 }, mps = { 0 };
	struct wt_hist_rec *rec;

	collect_tree(m, &l);
	rec = wt_history_begin(w, "umount_lazy", "umount.detach", "-l %s", path);
	for (size_t i = 0; i < l.n; i++) {
		struct mount *c = l.v[i];

		mnt_list_add(&mps, (struct mount *)dget(c->mnt_mountpoint));
		wt_store_step(c, mnt.mnt_flags, c->mnt.mnt_flags | MNT_UMOUNT,
			      "umount.MNT_UMOUNT");
		wt_mnt_detach(c);
	}
	unlock_mount_hash(w);
	log_tree(rec, &l);
	for (size_t i = 0; i < mps.n; i++)
		wt_history_dentry(rec, (struct dentry *)mps.v[i]);
	wt_history_commit(rec);
	mutex_unlock(&w->namespace_sem);
	/*
	 * Every mountpoint reference goes before the grace period, and so
	 * before any mount's: as namespace_unlock's shrink_dentry_list of
	 * ex_mountpoints runs before its wait and its mntputs.  A mountpoint
	 * may be the root of a mount this tree hung from; once the writer
	 * mutex is let go, another writer may umount that one, and its
	 * super_block must not die while we still pin the dentry ("still in
	 * use at umount").
	 */
	for (size_t i = 0; i < mps.n; i++)
		dput((struct dentry *)mps.v[i]);
	umount_grace_period(w);	/* namespace_unlock: lazy umount waits too */
	for (size_t i = 0; i < l.n; i++)
		mntput(&l.v[i]->mnt);	/* the tree's reference */
	mnt_list_free(&l);
	mnt_list_free(&mps);
}

/*
 * Sync: busy unless the counts are exactly what the tree (1) and this
 * caller's path (1) hold; then umount_tree with UMOUNT_SYNC sets
 * MNT_SYNC_UMOUNT, the grace period passes, the tree's reference goes,
 * and the caller's final put (in wt_op_umount) frees the mount.
 */
static int umount_sync(struct wt_world *w, struct mount *m, const char *path)
{
	struct wt_hist_rec *rec;
	struct dentry *mp;

	/*
	 * Pairs with __legitimize_mnt's smp_mb() after its count increment:
	 * either that walker's increment is visible to the busy check below,
	 * or its mount_lock recheck sees our write section and it backs off.
	 * Without it (zoo WT_BUG_UMOUNT_NO_MB, `--bug umount_no_mb') the odd
	 * mount_lock count lock_mount_hash() stored can still sit in our
	 * store buffer while we sum the counts: the walker's recheck passes
	 * on the old value and we pass the busy check.  Only memory=tso can
	 * show it; WT_BUG_SEQ_NO_BARRIER removes it too.
	 */
	if (!wt_bug(w, WT_BUG_UMOUNT_NO_MB))
		wt_seq_dekker_mb();
	if (m->mnt_mounts || mnt_get_count(m) > 2) {
		unlock_mount_hash(w);
		mutex_unlock(&w->namespace_sem);
		return -EBUSY;	/* propagate_mount_busy(mnt, 2) */
	}
	mp = dget(m->mnt_mountpoint);
	rec = wt_history_begin(w, "umount", "umount.detach", "%s", path);
	wt_store_step(m, mnt.mnt_flags,
		      m->mnt.mnt_flags | MNT_UMOUNT | MNT_SYNC_UMOUNT,
		      "umount.MNT_SYNC_UMOUNT");
	wt_mnt_detach(m);
	unlock_mount_hash(w);
	wt_history_mount(rec, m);
	wt_history_dentry(rec, mp);
	wt_history_commit(rec);
	mutex_unlock(&w->namespace_sem);
	dput(mp);		/* before the wait, as in umount_lazy */
	umount_grace_period(w);
	mntput(&m->mnt);	/* the tree's reference (namespace_unlock) */
	return 0;
}

static int do_umount(struct wt_world *w, struct path *p, unsigned flags,
		     const char *path)
{
	struct mount *m = real_mount(p->mnt);
	int err;

	if (p->dentry != p->mnt->mnt_root)
		return -EINVAL;		/* PATH is no mount's root */
	if (m == w->root_mnt)
		return -EBUSY;		/* the namespace root stays */
	mutex_lock(&w->namespace_sem);
	lock_mount_hash(w);
	if (!mnt_is_attached(m)) {
		unlock_mount_hash(w);
		mutex_unlock(&w->namespace_sem);
		return -EINVAL;		/* check_mnt */
	}
	if (flags & WT_UMOUNT_DETACH) {
		umount_lazy(w, m, path);
		return 0;
	}
	err = umount_sync(w, m, path);
	if (err)
		return err;
	/* path_umount: dput, then the final mntput, done here */
	dput(p->dentry);
	p->dentry = NULL;
	if (!wt_mntput_final(p->mnt))
		w->history->sync_umount_not_final++;
	p->mnt = NULL;
	return 0;
}

int wt_op_umount(struct wt_world *w, const char *path, unsigned flags)
{
	struct path p;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	/* path_umount resolves with LOOKUP_MOUNTPOINT: "/" with a mount on
	 * it names that mount, not the namespace root under it */
	err = wt_resolve(w, path, WT_RES_FOLLOW | WT_RES_MOUNTPOINT, &p);
	if (!err) {
		err = do_umount(w, &p, flags, path);
		wt_path_put(&p);
	}
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

uint64_t wt_ops_sync_umount_not_final(const struct wt_world *w)
{
	return w->history ? w->history->sync_umount_not_final : 0;
}

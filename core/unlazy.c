/* SPDX-License-Identifier: MIT */
/*
 * Leaving RCU-walk: legitimize_path, legitimize_links, legitimize_root,
 * try_to_unlazy, try_to_unlazy_next, complete_walk, terminate_walk.
 *
 * RCU-walk holds no references: everything it stands on is kept from
 * being freed by rcu_read_lock() alone and is validated by seqcounts.  To
 * go on in REF-walk from where it is, the walker takes real references on
 * what it stands on (the mount, the dentry, the saved symlinks, the root)
 * and then checks that the seqcounts it sampled have not moved, i.e. that
 * REF-walk could have reached this same state.  When that fails the walk
 * returns -ECHILD and the entry point restarts it from the top in
 * REF-walk.  Each outcome is counted: unlazy.REASON on success,
 * restart.REASON on failure, plus the restart.legitimize* cause.
 */
#include <assert.h>

#include "core/internal.h"

void path_get(const struct path *path)
{
	mntget(path->mnt);
	dget(path->dentry);
}

void path_put(const struct path *path)
{
	/* After a failed legitimize either half may be missing. */
	if (path->dentry)
		dput(path->dentry);
	if (path->mnt)
		mntput(path->mnt);
}

/* Called in RCU mode only: the walk is in REF mode from here on. */
void leave_rcu(struct nameidata *nd)
{
	assert(nd->flags & LOOKUP_RCU);
	nd->flags &= ~LOOKUP_RCU;
	nd->seq = nd->next_seq = 0;
	rcu_read_unlock();
}

/*
 * The kernel releases each saved link's get_link cookie here.  Our bodies
 * are copies owned by the nameidata, so there is nothing to release; the
 * function stays so that the callers read as the kernel's do.
 */
void drop_links(struct nameidata *nd)
{
	assert(nd->depth <= MAXSYMLINKS);
}

/* REF mode: drop what the walk holds (where it is, its links, its root). */
static void put_walk_refs(struct nameidata *nd)
{
	const struct saved *s, *end = nd->stack + nd->depth;

	path_put(&nd->path);
	for (s = nd->stack; s < end; s++)
		path_put(&s->link);
	if (!(nd->state & ND_ROOT_GRABBED))
		return;
	nd->state &= ~ND_ROOT_GRABBED;
	path_put(&nd->root);
}

/* Must pair with every path_init(); nd is reusable afterwards. */
void terminate_walk(struct nameidata *nd)
{
	drop_links(nd);
	/* RCU mode holds no references: leaving it is all there is to undo */
	if (nd->flags & LOOKUP_RCU)
		leave_rcu(nd);
	else
		put_walk_refs(nd);
	nd->depth = 0;
	nd->path = (struct path){ .mnt = NULL, .dentry = NULL };
}

/*
 * Take a reference on a dentry the walk found locklessly.  It may be
 * dying (its lockref marked dead by __dentry_kill, its memory kept only by
 * RCU): a plain increment would resurrect it and the final put would then
 * free it twice, so only a live count may grow.
 */
static bool nd_get_dentry(struct nameidata *nd, struct dentry *dentry)
{
	/*
	 * Zoo WT_BUG_LOCKREF_GET (`--bug lockref_get`) takes lockref_get()
	 * here, which increments a dead count too: the walk then holds a
	 * "reference" on a dentry that is being freed.
	 */
	if (nd_bug(nd, WT_BUG_LOCKREF_GET)) {
		lockref_get(&dentry->d_lockref);
		return true;
	}
	return lockref_get_not_dead(&dentry->d_lockref);
}

/*
 * path_put is needed afterwards whatever the answer: the fields hold what
 * was taken (NULL where nothing was).  dead and moved name the causes to
 * count; mount failures are counted by their __legitimize_mnt branch.
 */
static bool __legitimize_path(struct nameidata *nd, struct path *path,
			      unsigned seq, unsigned mseq, enum wt_path dead,
			      enum wt_path moved)
{
	enum legit_mnt how;
	int res = __legitimize_mnt(nd->world, path->mnt, mseq, &how);

	if (res) {
		count_legit_mnt(nd, how);
		if (res > 0)
			path->mnt = NULL;
		path->dentry = NULL;
		return false;
	}
	if (!nd_get_dentry(nd, path->dentry)) {
		nd_count(nd, dead);
		path->dentry = NULL;
		return false;
	}
	/*
	 * Validates that the dentry is still what the walk saw when it
	 * sampled seq (same name, parent and inode): only then is the
	 * reference we just took a reference on the walk's state.  Without
	 * it the walk would go on in REF-walk from a dentry that was renamed
	 * or made negative under it.  No zoo bug removes this one.
	 */
	if (ND_TAGGED(&path->dentry->wt, read_seqcount_retry_at(&path->dentry->d_seq, seq,
				   "legitimize_path.seq"))) {
		nd_count(nd, moved);
		return false;
	}
	return true;
}

bool legitimize_path(struct nameidata *nd, struct path *path, unsigned seq,
		     enum wt_path dead, enum wt_path moved)
{
	return __legitimize_path(nd, path, seq, nd->m_seq, dead, moved);
}

/*
 * A failed link sets depth to cover it, so that terminate_walk() puts the
 * links before it (legitimized) and what the failed one got; the links
 * after it were never referenced.
 */
static bool legitimize_links(struct nameidata *nd)
{
	unsigned done = 0;

	while (done < nd->depth) {
		struct saved *s = &nd->stack[done++];

		if (legitimize_path(nd, &s->link, s->seq,
				    WT_PATH_RESTART_LEGITIMIZE_LINK_DEAD,
				    WT_PATH_RESTART_LEGITIMIZE_LINK_SEQ))
			continue;
		drop_links(nd);
		/*
		 * Zoo WT_BUG_LEGITIMIZE_LINKS_DEPTH (`--bug
		 * legitimize_links_depth`) leaves depth covering the links
		 * above the failed one too: terminate_walk() then puts
		 * references they never took.
		 */
		if (!nd_bug(nd, WT_BUG_LEGITIMIZE_LINKS_DEPTH))
			nd->depth = done;	/* the failed link included */
		return false;
	}
	return true;
}

static bool legitimize_root(struct nameidata *nd)
{
	/*
	 * Only a root this walk took itself needs a reference: a walk that
	 * has not needed its root yet has none (nd->root.mnt NULL), and a
	 * preset root belongs to the caller, who holds it for us.
	 */
	bool ours = nd->root.mnt && !(nd->state & ND_ROOT_PRESET);

	if (!ours)
		return true;
	/* set first: whatever the legitimize gets, terminate_walk puts */
	nd->state |= ND_ROOT_GRABBED;
	return legitimize_path(nd, &nd->root, nd->root_seq,
			       WT_PATH_RESTART_LEGITIMIZE_ROOT_DEAD,
			       WT_PATH_RESTART_LEGITIMIZE_ROOT_SEQ);
}

/* Count and record an unlazy; site is the restart path that names it. */
static void unlazy_done(struct nameidata *nd, bool ok, enum wt_path path,
			enum wt_path site)
{
	const struct wt_ident none = { 0, 0, 0 };
	struct wt_ident at = wt_ident_of(nd->path.mnt, nd->path.dentry,
					 nd->inode);

	nd_count(nd, path);
	if (ok)
		WT_EVENT("walk.unlazy", nd->path.dentry);
	else
		WT_EVENT("walk.restart", NULL);
	if (nd_recording(nd)) {
		nd_record(nd, WT_STEP_UNLAZY, &none, ok ? &at : &none, NULL, 0,
			  ok ? 0 : -ECHILD, site, NULL, 0);
		if (ok)
			nd_validated_all(nd);
	}
	if (ok)
		nd->unlazied = true;
}

/*
 * The RESOLVE_CACHED walk may not leave RCU-walk before complete_walk()
 * (which clears LOOKUP_CACHED first): any unlazy fails at once, and the
 * REF-walk retry then answers -EAGAIN from path_init().
 */
static bool unlazy_cached(struct nameidata *nd)
{
	if (!(nd->flags & LOOKUP_CACHED))
		return false;
	nd_count(nd, WT_PATH_RESTART_LEGITIMIZE_CACHED);
	drop_links(nd);
	nd->depth = 0;
	return true;
}

/*
 * What a failed unlazy holds in nd->path, for terminate_walk() to put:
 * nothing (both fields cleared here), the mount only, or whatever the
 * fields say already (legitimize_path cleared what it did not get).
 */
enum unlazy_held { HELD_NOTHING, HELD_MNT_ONLY, HELD_AS_IS };

static bool unlazy_abort(struct nameidata *nd, enum unlazy_held held,
			 enum wt_path fail)
{
	if (held == HELD_NOTHING)
		nd->path.mnt = NULL;
	if (held != HELD_AS_IS)
		nd->path.dentry = NULL;
	leave_rcu(nd);
	unlazy_done(nd, false, fail, fail);
	return false;
}

/*
 * try_to_unlazy - switch to REF-walk at nd->path.  Called in RCU mode
 * only.  true: the walk holds references on nd->path, the saved links and
 * the root, and goes on in REF mode.  false: the walk must restart
 * (-ECHILD); nothing may touch nd before terminate_walk().  ok and fail
 * are the exit paths to count (WT_PATH_NONE: count nothing).
 */
bool try_to_unlazy(struct nameidata *nd, enum wt_path ok, enum wt_path fail)
{
	struct dentry *parent = nd->path.dentry;

	assert(nd->flags & LOOKUP_RCU);
	if (unlazy_cached(nd) || (nd->depth && !legitimize_links(nd)))
		return unlazy_abort(nd, HELD_NOTHING, fail);
	if (!legitimize_path(nd, &nd->path, nd->seq,
			     WT_PATH_RESTART_LEGITIMIZE_PATH_DEAD,
			     WT_PATH_RESTART_LEGITIMIZE_PATH_SEQ) ||
	    !legitimize_root(nd))
		return unlazy_abort(nd, HELD_AS_IS, fail);
	leave_rcu(nd);
	/* The kernel's BUG_ON: a legitimized dentry keeps its inode. */
	if (nd->inode != d_inode(parent))
		wt_violation(WT_CHECK_INVARIANT, NULL, parent,
			     "try_to_unlazy: nd->inode is not the inode of the "
			     "legitimized dentry %llu",
			     (unsigned long long)parent->wt.id);
	unlazy_done(nd, true, ok, fail);
	return true;
}

/*
 * try_to_unlazy_next - the same, and also legitimize the child dentry the
 * walk picked in RCU mode (its seq is nd->next_seq).  On success the walk
 * holds a reference on dentry too.
 */
bool try_to_unlazy_next(struct nameidata *nd, struct dentry *dentry,
			enum wt_path ok, enum wt_path fail)
{
	enum legit_mnt how;
	int res;

	assert(nd->flags & LOOKUP_RCU);
	if (unlazy_cached(nd) || (nd->depth && !legitimize_links(nd)))
		return unlazy_abort(nd, HELD_NOTHING, fail);
	res = __legitimize_mnt(nd->world, nd->path.mnt, nd->m_seq, &how);
	if (res) {
		count_legit_mnt(nd, how);
		/* > 0: no count was kept; < 0: kept, terminate_walk drops it */
		return unlazy_abort(nd, res > 0 ? HELD_NOTHING : HELD_MNT_ONLY,
				    fail);
	}
	if (!nd_get_dentry(nd, nd->path.dentry)) {
		nd_count(nd, WT_PATH_RESTART_LEGITIMIZE_NEXT_DEAD);
		return unlazy_abort(nd, HELD_MNT_ONLY, fail);
	}
	if (!nd_get_dentry(nd, dentry)) {
		nd_count(nd, WT_PATH_RESTART_LEGITIMIZE_NEXT_DEAD);
		return unlazy_abort(nd, HELD_AS_IS, fail);
	}
	/*
	 * Validates the child against nd->next_seq -- and through it the
	 * parent too: the parent's seq was checked after the child's was
	 * sampled (lookup_fast.parent_seq), so a child that has not moved
	 * since means the parent was still valid when we found it.  Without
	 * it REF-walk would continue from a child that was renamed or
	 * deleted after the lookup.  No zoo bug removes this one.
	 */
	if (ND_TAGGED(&dentry->wt, read_seqcount_retry_at(&dentry->d_seq, nd->next_seq,
				   "try_to_unlazy_next.seq"))) {
		nd_count(nd, WT_PATH_RESTART_LEGITIMIZE_NEXT_SEQ);
		goto drop_child;
	}
	if (!legitimize_root(nd))
		goto drop_child;
	leave_rcu(nd);
	unlazy_done(nd, true, ok, fail);
	return true;

drop_child:
	leave_rcu(nd);
	/*
	 * The reference nd_get_dentry() took on the child is ours alone:
	 * nd->path does not hold it, so terminate_walk() will not put it.
	 * Zoo WT_BUG_UNLAZY_NEXT_LEAK (`--bug unlazy_next_leak`) forgets
	 * it: the child's count stays one too high for good.
	 */
	if (!nd_bug(nd, WT_BUG_UNLAZY_NEXT_LEAK))
		dput(dentry);
	unlazy_done(nd, false, fail, fail);
	return false;
}

/*
 * The filesystem's answer goes into the record as it came back, before
 * it is turned into the walk's: the oracle holds the attempt's result to
 * it (a 0 here can only end the attempt with -ESTALE).  Recording after
 * the test would let a walker that misreads the answer hide it.
 */
static void record_weak_revalidate(struct nameidata *nd,
				   struct dentry *dentry, int status)
{
	struct wt_ident at;

	if (!nd_recording(nd))
		return;
	at = wt_ident_of(nd->path.mnt, dentry, NULL);
	nd_record(nd, WT_STEP_WEAK_REVALIDATE, &at, &at, NULL, 0, status, 0,
		  NULL, 0);
}

static int weak_revalidate(struct nameidata *nd, struct dentry *dentry)
{
	const struct dentry_operations *op = wt_load(dentry, d_op);
	int status;

	if (!(nd_d_flags(dentry) & DCACHE_OP_WEAK_REVALIDATE) || !op ||
	    !op->d_weak_revalidate)
		return 0;
	status = op->d_weak_revalidate(dentry, nd->flags);
	record_weak_revalidate(nd, dentry, status);
	/*
	 * Only a positive answer keeps the result: 0 means the handle went
	 * stale and must become -ESTALE, so that the caller retries with
	 * LOOKUP_REVAL.  Zoo WT_BUG_WEAK_REVALIDATE_GE (`--bug
	 * weak_revalidate_ge`) reads 0 as "no error" (`status >= 0`) and
	 * hands the stale result out.
	 */
	if (status > 0 || (!status && nd_bug(nd, WT_BUG_WEAK_REVALIDATE_GE)))
		return 0;
	if (!status) {
		nd_count(nd, WT_PATH_ESTALE_WEAK_REVALIDATE);
		status = -ESTALE;
	}
	return status;
}

/*
 * complete_walk - the walk reached its end: leave RCU mode, and weakly
 * revalidate a result the walk jumped to (a remote fs never saw us look
 * it up by name).  0, or -errno; on failure the caller need not drop
 * nd->path (terminate_walk does).
 */
int complete_walk(struct nameidata *nd)
{
	if (nd->flags & LOOKUP_RCU) {
		/*
		 * The walk is over, so a root it took for its own use is
		 * forgotten rather than legitimized (one less way for the
		 * unlazy to fail).  A scoped walk keeps its root for the check
		 * below; a preset root is the caller's.
		 */
		bool keep_root = (nd->state & ND_ROOT_PRESET) ||
				 (nd->flags & LOOKUP_IS_SCOPED);

		if (!keep_root)
			nd->root.mnt = NULL;
		/* A cached lookup that got here lazily has succeeded. */
		nd->flags &= ~LOOKUP_CACHED;
		if (!try_to_unlazy(nd, WT_PATH_NONE,
				   WT_PATH_RESTART_COMPLETE_WALK))
			return -ECHILD;
		/* This unlazy is the normal end, not a reason (rcu.ok). */
		nd->unlazied = false;
	}
	if (nd->flags & LOOKUP_IS_SCOPED) {
		/*
		 * The final sanity check of a scoped lookup: never hand out a
		 * result that was outside the root when we looked.  Only `..`
		 * checks rename_lock on the way; a rename of a directory the
		 * walk stands in, below the root, carries the rest of the walk
		 * out without one.  Zoo WT_BUG_SCOPED_NO_PATH_IS_UNDER (`--bug
		 * scoped_no_path_is_under`) removes it.
		 */
		if (!nd_bug(nd, WT_BUG_SCOPED_NO_PATH_IS_UNDER) &&
		    !path_is_under(nd->world, &nd->path, &nd->root))
			return -EXDEV;
	}
	if (!(nd->state & ND_JUMPED))
		return 0;
	return weak_revalidate(nd, nd->path.dentry);
}

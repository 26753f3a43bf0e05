/* SPDX-License-Identifier: MIT */
/*
 * The walk: path_init, link_path_walk, walk_component, lookup_fast,
 * lookup_slow, may_lookup, step_into, and the entry points with their
 * ladder (LOOKUP_RCU -> REF-walk on -ECHILD -> LOOKUP_REVAL on -ESTALE):
 * filename_lookup, filename_parentat, filename_mountpoint.
 *
 * The RCU-walk invariant (Al Viro's mail in seeds/): at some instant
 * between the start of the walk and now, the name walked so far led to
 * nd->path, with nd->seq and nd->inode equal to the d_seq and d_inode of
 * nd->path.dentry.  Every step keeps it by sampling the next dentry's
 * d_seq before checking the current one's -- the hand-over-hand that
 * REF-walk does with references -- and every doubt ends in an unlazy or
 * a restart, never in an answer REF-walk could not have given.
 */
#include <assert.h>
#include <string.h>

#include "core/internal.h"

/* Tell injection rules and directed schedules which component this is. */
void nd_tag_component(struct nameidata *nd)
{
	struct wt_thread *t = wt_self;
	size_t len;

	if (!t || !t->hook_armed)
		return;
	len = nd->last.len < NAME_MAX_LEN ? nd->last.len : NAME_MAX_LEN;
	memcpy(nd->component, nd->last.name, len);
	nd->component[len] = '\0';
	t->cur_component = nd->component;
}

void nd_untag_component(void)
{
	struct wt_thread *t = wt_self;

	if (t)
		t->cur_component = NULL;
}

/*
 * d_revalidate - may we trust this cached dentry?  1 yes, 0 drop it and
 * look up again, -ECHILD (LOOKUP_RCU) ask again without it, -errno.
 */
int d_revalidate(struct nameidata *nd, struct dentry *dentry, unsigned flags)
{
	const struct dentry_operations *op;
	int ret;

	if (!(nd_d_flags(dentry) & DCACHE_OP_REVALIDATE))
		return 1;
	op = wt_load(dentry, d_op);
	if (!op || !op->d_revalidate)
		return 1;
	ret = op->d_revalidate(dentry, flags);
	if (ret == -ESTALE)
		nd_count(nd, WT_PATH_ESTALE_REVALIDATE);
	return ret;
}

static struct wt_step *record_lookup(struct nameidata *nd,
				     struct dentry *dentry, int result,
				     uint32_t how, unsigned seq)
{
	struct wt_ident from, to = { 0, 0, 0 };

	if (!nd_recording(nd))
		return NULL;
	from = wt_ident_of(nd->path.mnt, nd->path.dentry, nd->inode);
	if (dentry && !IS_ERR(dentry))
		to = wt_ident_of(nd->path.mnt, dentry, NULL);
	return nd_record(nd, WT_STEP_LOOKUP, &from, &to, nd->last.name,
			 nd->last.len, result, how,
			 dentry && !IS_ERR(dentry) ? dentry : NULL, seq);
}

/* The RCU-mode answer of d_revalidate picks the exit path. */
static void revalidate_why(int status, enum wt_path *ok, enum wt_path *fail)
{
	if (status == -ECHILD) {
		*ok = WT_PATH_UNLAZY_REVALIDATE_ECHILD;
		*fail = WT_PATH_RESTART_REVALIDATE_ECHILD;
	} else if (status == 0) {
		*ok = WT_PATH_UNLAZY_REVALIDATE_INVALID;
		*fail = WT_PATH_RESTART_REVALIDATE_INVALID;
	} else {
		*ok = WT_PATH_UNLAZY_REVALIDATE_ERROR;
		*fail = WT_PATH_RESTART_REVALIDATE_ERROR;
	}
}

/*
 * RCU mode.  A hit: the child (its seq in nd->next_seq, not yet checked:
 * step_into, __follow_mount_rcu and pick_link check it), still in RCU
 * mode, or in REF mode with a reference when revalidation needed to
 * unlazy.  A miss: NULL, in REF mode.
 */
static struct dentry *lookup_fast_rcu(struct nameidata *nd, int *status,
				      bool *ref_answer)
{
	struct dentry *dentry, *parent = nd->path.dentry;
	enum wt_path ok, fail;
	struct wt_step *step;

	dentry = __d_lookup_rcu(parent, &nd->last, &nd->next_seq);
	if (!dentry) {
		if (!try_to_unlazy(nd, UNLAZY_WHY(LOOKUP_FAST_MISS)))
			return ERR_PTR(-ECHILD);
		return NULL;
	}
	step = record_lookup(nd, dentry, 0, WT_LOOKUP_RCU, nd->next_seq);
	/*
	 * Validates that the parent had no changes (rename, unlink) while
	 * we looked up its child: together with the child's seq, sampled in
	 * the hash walk before this check, it is the hand-over-hand that
	 * REF-walk does with a reference on the parent.  read_seqcount_retry
	 * brings its own read barrier, as in 6.x: the 2015 argument that the
	 * child's sample orders it (and __read_seqcount_retry suffices) is
	 * not relied on.  Without it a child found under a parent that was renamed away,
	 * or was already a removed directory, would be taken for a child of
	 * the path we walked.  Zoo WT_BUG_LOOKUP_FAST_NO_PARENT_SEQ
	 * (`--bug lookup_fast_no_parent_seq`) removes it.
	 */
	if (!nd_bug(nd, WT_BUG_LOOKUP_FAST_NO_PARENT_SEQ)) {
		if (ND_TAGGED(&parent->wt, read_seqcount_retry_at(&parent->d_seq, nd->seq,
					   "lookup_fast.parent_seq"))) {
			nd_count(nd, WT_PATH_RESTART_LOOKUP_FAST_PARENT_SEQ);
			return ERR_PTR(-ECHILD);
		}
		nd_validated(nd, parent, nd->seq);
	}
	/*
	 * A negative dentry is revalidated like a positive one: on a remote
	 * filesystem the server may have made the name since the miss was
	 * cached, and only d_revalidate asks (an expired entry answers
	 * -ECHILD here, 0 in REF mode).  Zoo WT_BUG_NEGATIVE_NO_REVALIDATE
	 * (`--bug negative_no_revalidate`) trusts a negative dentry as
	 * local filesystems may ("nothing to revalidate"): a false ENOENT.
	 */
	if (nd_bug(nd, WT_BUG_NEGATIVE_NO_REVALIDATE) &&
	    d_is_negative_flags(nd_d_flags(dentry)))
		*status = 1;
	else
		*status = d_revalidate(nd, dentry, nd->flags);
	if (*status > 0)
		return dentry;
	revalidate_why(*status, &ok, &fail);
	if (!try_to_unlazy_next(nd, dentry, ok, fail))
		return ERR_PTR(-ECHILD);
	if (*status == -ECHILD) {
		/* -ECHILD meant "ask again when you may block": now we may */
		*status = d_revalidate(nd, dentry, nd->flags);
		*ref_answer = true;
	}
	if (step && *status <= 0)
		step->result = *status;
	return dentry;
}

/*
 * lookup_fast - the dcache lookup, no locks taken.  A dentry (RCU mode:
 * unreferenced, validated later; REF mode: referenced and revalidated),
 * NULL when the cache has nothing usable (the walk is then in REF mode
 * and goes to lookup_slow), or ERR_PTR.
 *
 * rename_lock is not taken: a rename racing with the lockless hash walk
 * can make it miss a name that is there.  Such a miss only sends the walk
 * on to lookup_slow, whose d_alloc_parallel looks again under
 * rename_lock.
 */
struct dentry *lookup_fast(struct nameidata *nd)
{
	struct dentry *dentry;
	bool ref_answer = false;
	int status = 1;

	if (nd->flags & LOOKUP_RCU) {
		dentry = lookup_fast_rcu(nd, &status, &ref_answer);
		if (IS_ERR_OR_NULL(dentry) || (nd->flags & LOOKUP_RCU))
			return dentry;
	} else {
		/* __d_lookup, not d_lookup: a miss goes to lookup_slow */
		dentry = __d_lookup(nd->path.dentry, &nd->last);
		if (!dentry)
			return NULL;
		struct wt_step *step = record_lookup(nd, dentry, 0, WT_LOOKUP_FAST, 0);

		status = d_revalidate(nd, dentry, nd->flags);
		ref_answer = true;
		if (step && status <= 0)
			step->result = status;
	}
	if (status <= 0) {
		if (!status) {
			/* drop it; lookup_slow looks the name up again */
			if (ref_answer)
				nd_count(nd, WT_PATH_RETRY_REVALIDATE_INVALID);
			d_invalidate(dentry);
		}
		dput(dentry);
		return status ? ERR_PTR(status) : NULL;
	}
	return dentry;
}

/* Called with dir's inode locked; REF mode. */
#define LOOKUP_SLOW_INVALID_MAX 1000	/* invalidations in a row: livelock */

static struct dentry *__lookup_slow(struct nameidata *nd,
				    const struct qstr *name,
				    struct dentry *dir, unsigned flags)
{
	struct inode *inode = d_inode(dir);
	const struct inode_operations *iop = wt_load(inode, i_op);
	struct dentry *dentry, *found;

	/* a directory removed while we waited for its lock has no names */
	if (wt_load(inode, i_flags) & S_DEAD)
		return ERR_PTR(-ENOENT);
	/* No length check here: a name over 255 bytes is the filesystem's
	 * to refuse (simple_lookup's ENAMETOOLONG; proc says ENOENT). */
	if (!iop || !iop->lookup)
		return ERR_PTR(-ENOTDIR);
	for (unsigned tries = 0;; tries++) {	/* bounded below: a livelock */
		dentry = d_alloc_parallel(dir, name);
		if (IS_ERR(dentry))
			return dentry;
		if (!(nd_d_flags(dentry) & DCACHE_PAR_LOOKUP)) {
			int error = d_revalidate(nd, dentry, flags);

			if (error > 0)
				break;
			if (!error && tries < LOOKUP_SLOW_INVALID_MAX) {
				nd_count(nd, WT_PATH_RETRY_LOOKUP_SLOW_INVALID);
				d_invalidate(dentry);
				dput(dentry);
				continue;
			}
			/*
			 * The kernel loops here for as long as d_revalidate
			 * says 0: a livelock, not an answer.  Report it and
			 * unwind with -ESTALE, which no oracle then has to
			 * explain as a kernel result.
			 */
			if (!error)
				wt_violation(WT_CHECK_INVARIANT, NULL, dentry,
					     "livelock: lookup_slow invalidated %u "
					     "dentries in a row (the kernel would "
					     "loop forever)", tries);
			dput(dentry);
			return ERR_PTR(error ? error : -ESTALE);
		}
		found = iop->lookup(inode, dentry, flags);
		d_lookup_done(dentry);
		/* the filesystem may answer with another dentry, or an error */
		if (found) {
			dput(dentry);
			dentry = found;
		}
		if (dentry == ERR_PTR(-ESTALE))
			nd_count(nd, WT_PATH_ESTALE_LOOKUP);
		break;
	}
	return dentry;
}

/* REF mode: ask the filesystem, under the directory's i_rwsem (shared). */
struct dentry *lookup_slow(struct nameidata *nd, const struct qstr *name,
			   struct dentry *dir, unsigned flags)
{
	struct inode *inode = d_inode(dir);
	struct dentry *res;

	assert(!(nd->flags & LOOKUP_RCU));
	/* shared, as the kernel's inode_lock_shared: d_alloc_parallel, not
	 * the lock, keeps two lookups of one name apart */
	mutex_lock_shared_at(&inode->i_rwsem, "lookup_slow.i_rwsem");
	res = __lookup_slow(nd, name, dir, flags);
	mutex_unlock_shared_at(&inode->i_rwsem, "lookup_slow.i_rwsem_unlock");
	record_lookup(nd, res, IS_ERR(res) ? (int)PTR_ERR(res) : 0,
		      WT_LOOKUP_SLOW, 0);
	return res;
}

static int nd_permission(struct nameidata *nd, int mask)
{
	int err = inode_permission(&nd->task->cred, nd->inode, mask);

	if (nd_recording(nd)) {
		struct wt_ident at = wt_ident_of(nd->path.mnt, nd->path.dentry,
						 nd->inode);

		nd_record(nd, WT_STEP_PERMISSION, &at, &at, NULL, 0, err,
			  (uint32_t)mask, nd->path.dentry, nd->seq);
	}
	return err;
}

/*
 * may_lookup - exec permission on the directory we are about to search.
 * In RCU mode the check may not block (MAY_NOT_BLOCK); any failure
 * unlazies first, so that the answer is given from REF-walk: -ECHILD
 * (the check would block: an uncached ACL) is redone blocking, a hard
 * error (EACCES) is final once the walk legitimized the directory it was
 * made on -- as Linux 6.8+ does ("make sure it wasn't transient").
 */
static int may_lookup(struct nameidata *nd)
{
	int err;

	if (!(nd->flags & LOOKUP_RCU))
		return nd_permission(nd, MAY_EXEC);
	/*
	 * MAY_NOT_BLOCK: we are inside rcu_read_lock(), and a permission
	 * check that must sleep (an ACL to fetch) answers -ECHILD instead.
	 * Zoo WT_BUG_MAY_LOOKUP_BLOCKS (`--bug may_lookup_blocks`) leaves
	 * it out, and the filesystem sleeps in the RCU read section.
	 */
	err = nd_permission(nd, MAY_EXEC | (nd_bug(nd, WT_BUG_MAY_LOOKUP_BLOCKS) ?
					    0 : MAY_NOT_BLOCK));
	if (!err)
		return 0;
	if (err != -ECHILD) {
		if (!try_to_unlazy(nd, UNLAZY_WHY(MAY_LOOKUP_DENIED)))
			return -ECHILD;
		return err;
	}
	if (!try_to_unlazy(nd, UNLAZY_WHY(MAY_LOOKUP_ECHILD)))
		return -ECHILD;
	return nd_permission(nd, MAY_EXEC);
}

static const char *step_into_link(struct nameidata *nd, int flags,
				  struct path *path, struct inode *inode)
{
	/*
	 * Zoo WT_BUG_SYMLINK_DROPS_SEQ (`--bug symlink_drops_seq`): the
	 * pre-2015 symlink case of walk_component threw the parent's seq
	 * away; here it is resampled, so a rename of the directory holding
	 * the link, between our lookup of the link and now, goes unseen by
	 * the next lookup_fast.parent_seq check.  Correct code keeps nd->seq
	 * (the parent's, sampled when the walk reached it) untouched.
	 */
	if ((nd->flags & LOOKUP_RCU) && nd_bug(nd, WT_BUG_SYMLINK_DROPS_SEQ))
		nd->seq = raw_seqcount_begin_at(&nd->path.dentry->d_seq,
						"symlink_drops_seq.resample");
	return pick_link(nd, path, inode, flags);
}

/*
 * Is a symlink met here followed?  Never for `..` (WALK_NOFOLLOW); a
 * trailing one only when the caller asked (LOOKUP_FOLLOW); one in the
 * middle of a name always.
 */
static bool follows_link(int flags, unsigned nd_flags)
{
	if (flags & WALK_NOFOLLOW)
		return false;
	return !(flags & WALK_TRAILING) || (nd_flags & LOOKUP_FOLLOW);
}

/*
 * step_into - move to dentry (nd->next_seq its seq in RCU mode; in REF
 * mode a reference the step takes over), crossing what is mounted on it,
 * or push the symlink it is.  NULL: moved, nd->path is the new place; a
 * body to walk; ERR_PTR.
 */
const char *step_into(struct nameidata *nd, int flags, struct dentry *dentry)
{
	struct path path;
	struct inode *inode;
	unsigned dflags;
	int err = handle_mounts(nd, dentry, &path);

	if (err < 0)
		return ERR_PTR(err);
	dflags = nd_d_flags(path.dentry);
	inode = nd_d_inode(path.dentry);
	if (flags_is_symlink(dflags) && follows_link(flags, nd->flags))
		return step_into_link(nd, flags, &path, inode);
	/* anything else, a link not followed included, is where nd goes */
	if (nd->flags & LOOKUP_RCU) {
		/*
		 * Validates the child against nd->next_seq, sampled when the
		 * hash walk matched its name (or when we crossed onto a mount
		 * root, or took the parent for `..`): the name still matched,
		 * the dentry is still hashed under the parent we checked, and
		 * the inode (or NULL) we loaded above is its inode.  Without
		 * it the walk could step onto a dentry renamed or unlinked
		 * after the lookup, with an inode that is not the name's.
		 * Zoo WT_BUG_STEP_INTO_NO_SEQ (`--bug step_into_no_seq`)
		 * removes it.
		 */
		if (!nd_bug(nd, WT_BUG_STEP_INTO_NO_SEQ)) {
			if (ND_TAGGED(&path.dentry->wt, read_seqcount_retry_at(&path.dentry->d_seq, nd->next_seq,
						   "step_into.child_seq"))) {
				nd_count(nd, WT_PATH_RESTART_STEP_INTO_CHILD_SEQ);
				return ERR_PTR(-ECHILD);
			}
			nd_validated(nd, path.dentry, nd->next_seq);
		}
		/*
		 * Zoo WT_BUG_INODE_NO_SEQ (`--bug inode_no_seq`): nd->inode is
		 * loaded from the dentry again, after the check -- a value the
		 * d_seq check never covered.  Correct code keeps the inode
		 * loaded before the check.
		 */
		if (nd_bug(nd, WT_BUG_INODE_NO_SEQ))
			inode = d_inode(path.dentry);
		/*
		 * Negative or not is decided from what the check covered: the
		 * inode loaded before it.  Zoo WT_BUG_NEGATIVE_AFTER_SEQ
		 * (`--bug negative_after_seq`, the order Linux 766c4cbfacd8
		 * corrected) asks d_is_negative() after the check instead:
		 * d_flags of a later state than the inode, so a dentry that
		 * was positive at the check and went negative since (a rename
		 * over it killed it) answers ENOENT, and one that was negative
		 * and has been instantiated since goes on with no inode.
		 */
		if (nd_bug(nd, WT_BUG_NEGATIVE_AFTER_SEQ)) {
			if (d_is_negative(path.dentry))
				return ERR_PTR(-ENOENT);
			if (!inode) {
				/* the kernel would go on with a NULL nd->inode */
				wt_violation(WT_CHECK_INVARIANT, NULL, path.dentry,
					     "RCU-walk stepped onto dentry %llu, positive "
					     "after its d_seq check, with the NULL inode "
					     "loaded before it",
					     (unsigned long long)path.dentry->wt.id);
				return ERR_PTR(-ENOENT);
			}
		} else if (!inode) {
			return ERR_PTR(-ENOENT);
		}
	} else {
		/*
		 * REF mode has no d_seq to catch a positive type read with a
		 * NULL inode: only the publication order does (d_inode, then
		 * the type by a release store, read back in the other order).
		 * The kernel would go on with a NULL nd->inode and oops; the
		 * model reports it.  Seen under memory=pso with zoo
		 * WT_BUG_TYPE_BEFORE_INODE.
		 */
		if (!inode && !d_is_negative_flags(dflags)) {
			wt_violation(WT_CHECK_INVARIANT, NULL, path.dentry,
				     "REF-walk read dentry %llu positive (d_flags "
				     "%#x) with no inode: the type was published "
				     "before d_inode",
				     (unsigned long long)path.dentry->wt.id, dflags);
			/* as handle_mounts' failure: the mount's reference
			 * is ours only when the step crossed onto another */
			dput(path.dentry);
			if (path.mnt != nd->path.mnt)
				mntput(path.mnt);
			return ERR_PTR(-ENOENT);
		}
		/* path's references take over from those on the old place */
		path_put_step(&nd->path, path.mnt);
	}
	nd->seq = nd->next_seq;
	nd->inode = inode;
	nd->path = path;
	return NULL;
}

static const char *walk_component(struct nameidata *nd, int flags)
{
	/* no more components in this name: a link body's is done with */
	const bool name_ends = !(flags & WALK_MORE);
	struct dentry *dentry;
	const char *res;

	/*
	 * `.` and `..` are not names to look up in the directory: `..`
	 * depends on the walk's root and on the mount tree (handle_dots).
	 */
	if (nd->last_type != LAST_NORM) {
		if (name_ends)
			put_finished_link(nd);
		return handle_dots(nd, nd->last_type);
	}
	nd_tag_component(nd);
	WT_EVENT("walk_component", nd->path.dentry);
	dentry = lookup_fast(nd);
	if (!dentry)
		dentry = lookup_slow(nd, &nd->last, nd->path.dentry, nd->flags);
	if (IS_ERR(dentry)) {
		res = ERR_CAST(dentry);
	} else {
		if (name_ends)
			put_finished_link(nd);
		res = step_into(nd, flags, dentry);
	}
	nd_untag_component();
	return res;
}

/*
 * Split the next component off name (hash_name): nd->last, its type;
 * a casefold parent hashes it its own way.  Returns the end of it.
 */
static const char *hash_name(struct nameidata *nd, const char *name,
			     int *err)
{
	uint32_t len = 0;

	while (name[len] && name[len] != '/')
		len++;
	nd->last = QSTR_INIT(name, len);
	nd->last_type = LAST_NORM;
	if (name[0] == '.' && len == 1) {
		nd->last_type = LAST_DOT;
	} else if (name[0] == '.' && len == 2 && name[1] == '.') {
		nd->last_type = LAST_DOTDOT;
		nd->state |= ND_JUMPED;
	} else {
		struct dentry *parent = nd->path.dentry;

		nd->state &= ~ND_JUMPED;
		if (nd_d_flags(parent) & DCACHE_OP_HASH) {
			const struct dentry_operations *op = wt_load(parent, d_op);

			if (op && op->d_hash) {
				*err = op->d_hash(parent, &nd->last);
				if (*err < 0)
					return name;
			}
		}
	}
	*err = 0;
	return name + len;
}

/*
 * link_path_walk - walk every component but the last.  0 with nd->last
 * the last component (nd->path its parent), or -errno.  Symlinks met on
 * the way are walked here too, without recursion: their bodies go on the
 * stack and the enclosing name resumes when a body ends.  Bounded: a
 * name is at most PATH_MAX, and at most MAXSYMLINKS bodies are walked.
 */
int link_path_walk(const char *name, struct nameidata *nd)
{
	int depth = 0;	/* link bodies open in this call: at most nd->depth */
	int err;

	nd->flags |= LOOKUP_PARENT;
	nd->last_type = LAST_ROOT;
	if (IS_ERR(name))
		return (int)PTR_ERR(name);
	name += strspn(name, "/");
	if (!*name) {
		/*
		 * Only slashes: no component, no directory of one.  Zero
		 * dir_mode so that may_follow_link's protected-symlinks test
		 * finds no sticky world-writable directory to act on.
		 */
		nd->dir_mode = 0;
		return 0;
	}
	for (;;) {
		const char *body;
		bool name_ends;

		err = may_lookup(nd);
		if (!err)
			name = hash_name(nd, name, &err);
		if (err)
			return err;
		name += strspn(name, "/");
		name_ends = !*name;
		if (name_ends && !depth) {
			/*
			 * The final component is left to the caller, with what
			 * may_follow_link will want to know of its directory.
			 */
			nd->dir_uid = wt_load(nd->inode, i_uid);
			nd->dir_mode = wt_load(nd->inode, i_mode);
			nd->flags &= ~LOOKUP_PARENT;
			return 0;
		}
		/* a body's last component: then go on with the name around it */
		if (name_ends)
			name = nd->stack[--depth].name;
		body = walk_component(nd, name_ends ? 0 : WALK_MORE);
		if (IS_ERR(body))
			return (int)PTR_ERR(body);
		if (body) {
			/* a link to follow: save where this name goes on */
			nd->stack[depth++].name = name;
			name = body;
			continue;
		}
		if (flags_can_lookup(nd_d_flags(nd->path.dentry)))
			continue;
		/* more components to come, and this is no directory */
		if ((nd->flags & LOOKUP_RCU) &&
		    !try_to_unlazy(nd, UNLAZY_WHY(NOT_DIR)))
			return -ECHILD;
		return -ENOTDIR;
	}
}

static void record_start(struct nameidata *nd, const char *s)
{
	struct wt_ident none = { 0, 0, 0 }, at;

	if (!nd_recording(nd))
		return;
	at = wt_ident_of(nd->path.mnt, nd->path.dentry, nd->inode);
	nd_record(nd, WT_STEP_START, &none, &at, s, (uint32_t)strlen(s), 0,
		  nd->flags, nd->path.dentry, nd->seq);
}

/* Start from the dirfd's path, or from the task's cwd. */
static const char *path_init_dir(struct nameidata *nd, const char *s)
{
	const struct path *start = nd->dir ? nd->dir : &nd->task->pwd;
	struct dentry *dentry = start->dentry;

	/* Only a dirfd needs checking: the cwd is a directory. */
	if (nd->dir && *s && !flags_can_lookup(nd_d_flags(dentry)))
		return ERR_PTR(-ENOTDIR);
	nd->path = *start;
	nd->inode = nd_d_inode(dentry);
	if (!(nd->flags & LOOKUP_RCU))
		path_get(&nd->path);
	else if (nd->dir)
		nd->seq = read_seqcount_begin_at(&dentry->d_seq,
						 "path_init.dir_seq");
	else
		nd->seq = read_seqcount_begin_at(&dentry->d_seq,
						 "path_init.pwd_seq");
	return s;
}

/*
 * A scoped walk's root is where it starts (the dirfd): REF mode holds it
 * as the walk's own, RCU mode checks it against the starting seq.
 */
static void root_at_start(struct nameidata *nd)
{
	nd->root = nd->path;
	if (nd->flags & LOOKUP_RCU) {
		nd->root_seq = nd->seq;
		return;
	}
	nd->state |= ND_ROOT_GRABBED;
	path_get(&nd->root);
}

/* Whatever it returns, a path_init() is followed by a terminate_walk(). */
const char *path_init(struct nameidata *nd, unsigned flags)
{
	struct wt_world *w = nd->world;
	const char *s = nd->pathname;

	nd_record_attempt_begin(nd, flags);
	WT_EVENT("path_init", NULL);
	nd->unlazied = false;
	/*
	 * RESOLVE_CACHED is RCU-walk or nothing: its REF-walk retry stops
	 * here with -EAGAIN (the caller may retry without it).
	 */
	if ((flags & (LOOKUP_RCU | LOOKUP_CACHED)) == LOOKUP_CACHED) {
		nd_count(nd, WT_PATH_EAGAIN_CACHED);
		return ERR_PTR(-EAGAIN);
	}
	if (!*s) {
		flags &= ~LOOKUP_RCU;
		nd->unlazied = true;	/* a REF walk from the start */
	}
	nd->flags = flags;
	/* the start was not reached by name: complete_walk revalidates it */
	nd->state |= ND_JUMPED;
	if (!(flags & LOOKUP_RCU)) {
		nd->seq = 0;	/* REF-walk samples no seqs */
		nd->next_seq = 0;
	} else {
		rcu_read_lock();
	}
	nd->m_seq = read_seqcount_begin_at(&w->mount_lock.seqcount,
					   "path_init.mount_lock");
	nd->r_seq = read_seqcount_begin_at(&w->rename_lock.seqcount,
					   "path_init.rename_lock");
	smp_rmb();	/* the walk's reads come after both samples */

	if (nd->state & ND_ROOT_PRESET) {
		struct dentry *root = nd->root.dentry;

		if (*s && !flags_can_lookup(nd_d_flags(root)))
			return ERR_PTR(-ENOTDIR);
		nd->path = nd->root;
		nd->inode = nd_d_inode(root);
		if (flags & LOOKUP_RCU) {
			nd->seq = read_seqcount_begin_at(&root->d_seq,
							 "path_init.root_seq");
			nd->root_seq = nd->seq;
		} else {
			path_get(&nd->path);
		}
		record_start(nd, s);
		return s;
	}
	nd->root = (struct path){ .mnt = NULL, .dentry = NULL };
	/*
	 * A name that begins with '/' begins at the root -- except under
	 * LOOKUP_IN_ROOT, whose root is the dirfd: that start is the
	 * relative one below.
	 */
	if (*s == '/' && !(flags & LOOKUP_IN_ROOT)) {
		int err = nd_jump_root(nd);

		if (err)
			return ERR_PTR(err);
	} else {
		s = path_init_dir(nd, s);
		if (IS_ERR(s))
			return s;
		if (flags & LOOKUP_IS_SCOPED)
			root_at_start(nd);
	}
	record_start(nd, s);
	return s;
}

static const char *lookup_last(struct nameidata *nd)
{
	const bool slash_after = nd->last_type == LAST_NORM &&
				 nd->last.name[nd->last.len] != '\0';

	/* "name/": follow a link there, and a directory it must be */
	if (slash_after)
		nd->flags |= LOOKUP_DIRECTORY | LOOKUP_FOLLOW;
	return walk_component(nd, WALK_TRAILING);
}

/* Step into nd->path itself: cross what is mounted on it. */
int handle_lookup_down(struct nameidata *nd)
{
	struct dentry *here = nd->path.dentry;

	/* step_into takes a seq (RCU mode) or a reference (REF mode) */
	nd->next_seq = nd->seq;
	if (!(nd->flags & LOOKUP_RCU))
		dget(here);
	return (int)PTR_ERR(step_into(nd, WALK_NOFOLLOW, here));
}

static void record_end(struct nameidata *nd, const struct path *at, int err)
{
	struct wt_ident none = { 0, 0, 0 }, to;

	if (!nd_recording(nd))
		return;
	to = at->dentry ? wt_ident_of(at->mnt, at->dentry, NULL) : none;
	nd_record(nd, WT_STEP_END, &none, &to, NULL, 0, err, 0, NULL, 0);
	if (!err)
		nd_validated_all(nd);
}

/* The end of an attempt: record it, give the result away, clean up. */
static int finish_attempt(struct nameidata *nd, int err, struct path *result)
{
	record_end(nd, &nd->path, err);
	if (!err)
		nd_hand_over_path(nd, result);
	terminate_walk(nd);
	return err;
}

/* Returns 0 and *path (referenced) on success; -errno otherwise. */
static int path_lookupat(struct nameidata *nd, unsigned flags,
			 struct path *path)
{
	int err;
	const char *s = path_init(nd, flags);

	/* LOOKUP_DOWN: start on top of what is mounted on the start */
	if (!IS_ERR(s) && (flags & LOOKUP_DOWN)) {
		err = handle_lookup_down(nd);
		s = err < 0 ? ERR_PTR(err) : s;
	}
	/* one round per trailing symlink body; bounded by MAXSYMLINKS */
	for (;;) {
		err = link_path_walk(s, nd);
		if (err)
			break;
		s = lookup_last(nd);
		if (!s)
			break;
	}
	if (!err && (nd->flags & LOOKUP_MOUNTPOINT)) {
		err = handle_lookup_down(nd);
		/*
		 * umount's walk: a weak revalidation of the result could say
		 * ESTALE, and a stale mountpoint is what umount must reach.
		 */
		nd->state &= ~ND_JUMPED;
	}
	err = err ? err : complete_walk(nd);
	if (!err && (nd->flags & LOOKUP_DIRECTORY) &&
	    !flags_can_lookup(nd_d_flags(nd->path.dentry)))
		err = -ENOTDIR;
	return finish_attempt(nd, err, path);
}

/* Returns 0 and *parent (referenced) on success; -errno otherwise. */
static int path_parentat(struct nameidata *nd, unsigned flags,
			 struct path *parent)
{
	/* nd->path ends on the parent; the last component is not walked */
	int err = link_path_walk(path_init(nd, flags), nd);

	return finish_attempt(nd, err ? err : complete_walk(nd), parent);
}

/* getname()'s checks: the empty name, and PATH_MAX with its NUL. */
int nd_check_name(const char *name, unsigned flags)
{
	size_t len;

	if (!name)
		return -EFAULT;
	len = strnlen(name, PATH_MAX_LEN);
	if (len >= PATH_MAX_LEN)
		return -ENAMETOOLONG;
	if (!len && !(flags & LOOKUP_EMPTY))
		return -ENOENT;
	return 0;
}

void set_nameidata(struct nameidata *nd, const struct wt_walker *w,
		   const struct path *dir, const char *name,
		   const struct path *root, enum wt_entry entry,
		   unsigned flags)
{
	assert(w && w->task && w->task->world);
	nd->stack = nd->internal;
	for (unsigned i = 0; i < EMBEDDED_LEVELS; i++)
		nd->internal[i].body = nd->internal_body[i];
	nd->stack_bodies = NULL;
	nd->depth = 0;
	nd->dir = dir;
	nd->pathname = name;
	nd->path.mnt = NULL;
	nd->path.dentry = NULL;
	nd->root.mnt = NULL;
	nd->root.dentry = NULL;
	nd->inode = NULL;
	nd->flags = 0;
	nd->seq = nd->next_seq = nd->m_seq = nd->r_seq = nd->root_seq = 0;
	nd->last_type = LAST_ROOT;
	/*
	 * Not reset between attempts, as in the kernel: the links followed
	 * by an abandoned RCU attempt count against the REF retry's budget.
	 */
	nd->total_link_count = 0;
	nd->dir_uid = 0;
	nd->dir_mode = 0;
	nd->state = 0;
	if (root) {
		nd->state = ND_ROOT_PRESET;
		nd->root = *root;
	}
	nd->world = w->task->world;
	nd->task = w->task;
	nd->walker = w;
	nd->stats = w->stats;
	nd->record = w->record;
	nd->attempt = 1;
	nd->unlazied = false;
	if (nd->record) {
		wt_record_reset(nd->record);
		nd->record->entry = entry;
		nd->record->flags = flags;
		nd->record->ref_only = w->ref_only;
	}
}

void restore_nameidata(struct nameidata *nd)
{
	nd_free_stack(nd);
}

/* Does the ladder try again after this answer of this attempt? */
static bool ladder_goes_on(const struct nameidata *nd, int err)
{
	if (err == -ECHILD)
		return nd->attempt == 1;
	if (err == -ESTALE)
		return nd->attempt < 3;
	return false;
}

/* Count and record how an attempt ended. */
void nd_attempt_end(struct nameidata *nd, int err)
{
	bool lazy = nd->attempt == 1 && !nd->unlazied;

	nd_record_attempt_end(nd, err);
	WT_EVENT("walk.attempt_end", NULL);
	if (ladder_goes_on(nd, err)) {
		if (err == -ESTALE)
			nd_count(nd, WT_PATH_ESTALE_REVAL);
		return;
	}
	if (err == -ESTALE)
		nd_count(nd, WT_PATH_ESTALE_FINAL);
	if (nd->attempt == 3)
		nd_count(nd, err ? WT_PATH_REVAL_ERROR : WT_PATH_REVAL_OK);
	else if (lazy)
		nd_count(nd, err ? WT_PATH_RCU_ERROR : WT_PATH_RCU_OK);
	else
		nd_count(nd, err ? WT_PATH_REF_ERROR : WT_PATH_REF_OK);
	if (nd->record)
		nd->record->result = err;
}

/* A walk that never started (a bad name) still leaves its answer. */
int nd_refuse(const struct wt_walker *w, enum wt_entry entry,
		     unsigned flags, int err)
{
	if (w->record) {
		wt_record_reset(w->record);
		w->record->entry = entry;
		w->record->flags = flags;
		w->record->result = err;
	}
	return err;
}

static int lookupat_fn(struct nameidata *nd, unsigned flags, void *res)
{
	return path_lookupat(nd, flags, res);
}

static int parentat_fn(struct nameidata *nd, unsigned flags, void *res)
{
	return path_parentat(nd, flags, res);
}

int nd_path_lookupat(struct nameidata *nd, unsigned flags, struct path *path)
{
	return path_lookupat(nd, flags, path);
}

/*
 * The ladder: RCU, then REF on -ECHILD, then REVAL on -ESTALE.  A walker's
 * ref_only (a test knob, no kernel counterpart) skips the RCU rung as if
 * it had answered -ECHILD before taking a step: attempt 2 is the first,
 * so nd_attempt_end counts ref.* and never rcu.*.
 */
int nd_ladder(struct nameidata *nd, nd_path_fn fn, unsigned flags, void *res)
{
	int retval = -ECHILD;

	assert(nd->walker);
	assert(!(flags & LOOKUP_RCU));
	if (!nd->walker->ref_only) {
		nd->attempt = 1;
		retval = fn(nd, flags | LOOKUP_RCU, res);
		nd_attempt_end(nd, retval);
	}
	if (retval == -ECHILD) {
		nd->attempt = 2;
		retval = fn(nd, flags, res);
		nd_attempt_end(nd, retval);
	}
	if (retval == -ESTALE) {
		nd->attempt = 3;
		retval = fn(nd, flags | LOOKUP_REVAL, res);
		nd_attempt_end(nd, retval);
	}
	return retval;
}

int filename_lookup(const struct wt_walker *w, const struct path *dir,
		    const char *name, unsigned flags, struct path *path,
		    const struct path *root)
{
	struct nameidata nd;
	enum wt_entry entry = (flags & LOOKUP_MOUNTPOINT) ? WT_ENTRY_MOUNTPOINT
							  : WT_ENTRY_LOOKUP;
	int retval = nd_check_name(name, flags);

	if (retval)
		return nd_refuse(w, entry, flags, retval);
	set_nameidata(&nd, w, dir, name, root, entry, flags);
	retval = nd_ladder(&nd, lookupat_fn, flags, path);
	restore_nameidata(&nd);
	return retval;
}

int filename_parentat(const struct wt_walker *w, const struct path *dir,
		      const char *name, unsigned flags, struct path *parent,
		      struct qstr *last, int *type)
{
	struct nameidata nd;
	int retval = nd_check_name(name, flags);

	if (retval)
		return nd_refuse(w, WT_ENTRY_PARENTAT, flags, retval);
	set_nameidata(&nd, w, dir, name, NULL, WT_ENTRY_PARENTAT, flags);
	retval = nd_ladder(&nd, parentat_fn, flags, parent);
	if (!retval) {
		*last = nd.last;
		*type = nd.last_type;
	}
	restore_nameidata(&nd);
	return retval;
}

int filename_mountpoint(const struct wt_walker *w, const struct path *dir,
			const char *name, unsigned flags, struct path *path)
{
	return filename_lookup(w, dir, name, flags | LOOKUP_MOUNTPOINT, path,
			       NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Symlinks and jumps: the non-recursive link stack (reserve_stack,
 * pick_link, put_link), set_root, nd_jump_root, nd_jump_link.
 *
 * As in the kernel since the 2015 rework (Al Viro's mail in seeds/),
 * link_path_walk never recurses: following a link pushes a struct saved
 * (the link, where the enclosing name stood, the link's seq) and walks
 * the body; at the body's end the walk pops back.  At most MAXSYMLINKS
 * links per walk; the first EMBEDDED_LEVELS entries live in the
 * nameidata, deeper nesting allocates the full stack once -- an
 * allocation that can fail, and in RCU mode fails over to REF-walk.
 */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

int set_root(struct nameidata *nd)
{
	/* Jumping to the real root in a scoped lookup would escape it. */
	if (nd->flags & LOOKUP_IS_SCOPED) {
		wt_violation(WT_CHECK_INVARIANT, NULL, NULL,
			     "set_root in a scoped lookup");
		return -ENOTRECOVERABLE;
	}
	nd->root = nd->task->root;
	if (nd->flags & LOOKUP_RCU) {
		nd->root_seq = read_seqcount_begin_at(&nd->root.dentry->d_seq,
						      "set_root.root_seq");
	} else {
		path_get(&nd->root);
		nd->state |= ND_ROOT_GRABBED;
	}
	return 0;
}

/* Go to the root: an absolute name, or an absolute symlink body. */
int nd_jump_root(struct nameidata *nd)
{
	if (nd->flags & LOOKUP_BENEATH)
		return -EXDEV;
	if (nd->flags & LOOKUP_NO_XDEV) {
		/* Absolute path arguments to path_init() are allowed. */
		if (nd->path.mnt != NULL && nd->path.mnt != nd->root.mnt)
			return -EXDEV;
	}
	if (!nd->root.mnt) {
		int error = set_root(nd);

		if (error)
			return error;
	}
	if (nd->flags & LOOKUP_RCU) {
		struct dentry *d;

		nd->path = nd->root;
		d = nd->path.dentry;
		nd->inode = nd_d_inode(d);
		nd->seq = nd->root_seq;
		/*
		 * Validates the root against nd->root_seq, sampled when the
		 * root was taken (set_root, or path_init for a scoped or
		 * preset root): the inode we just loaded is then the root's,
		 * and the walk's invariant holds at the root.  Without it a
		 * root renamed or made negative in between would be walked
		 * from with a stale inode.  No zoo bug removes it.
		 */
		if (ND_TAGGED(&d->wt, read_seqcount_retry_at(&d->d_seq, nd->seq,
					   "nd_jump_root.root_seq"))) {
			nd_count(nd, WT_PATH_RESTART_ND_JUMP_ROOT_SEQ);
			return -ECHILD;
		}
		nd_validated(nd, d, nd->seq);
	} else {
		path_put(&nd->path);
		nd->path = nd->root;
		path_get(&nd->path);
		nd->inode = d_inode(nd->path.dentry);
	}
	nd->state |= ND_JUMPED;
	return 0;
}

static void record_jump(struct nameidata *nd, uint32_t magic)
{
	struct wt_ident none = { 0, 0, 0 };
	struct wt_ident to;

	if (!nd_recording(nd))
		return;
	to = wt_ident_of(nd->path.mnt, nd->path.dentry, nd->inode);
	nd_record(nd, WT_STEP_JUMP, &none, &to, NULL, 0, 0, magic, NULL, 0);
}

/*
 * A magic link (proc-like) gave the walk a path to jump to, referenced.
 * REF mode only: such links refuse RCU mode.  The reference is ours to
 * keep or drop.
 */
int nd_jump_link(struct nameidata *nd, const struct path *path)
{
	int error = -ELOOP;

	if (nd->flags & LOOKUP_NO_MAGICLINKS)
		goto err;
	error = -EXDEV;
	if (nd->flags & LOOKUP_NO_XDEV) {
		if (nd->path.mnt != path->mnt)
			goto err;
	}
	/* Not currently safe for scoped-lookups. */
	if (nd->flags & LOOKUP_IS_SCOPED)
		goto err;
	path_put(&nd->path);
	nd->path = *path;
	nd->inode = d_inode(nd->path.dentry);
	nd->state |= ND_JUMPED;
	record_jump(nd, 1);
	return 0;

err:
	path_put(path);
	return error;
}

void put_link(struct nameidata *nd)
{
	struct saved *last = nd->stack + --nd->depth;

	if (!(nd->flags & LOOKUP_RCU))
		path_put(&last->link);
}

/*
 * Grow the link stack to MAXSYMLINKS entries with their body buffers.
 * The kernel allocates GFP_ATOMIC in RCU mode; here it is an injection
 * point that a rule can make fail.
 */
static bool nd_alloc_stack(struct nameidata *nd)
{
	struct saved *p;
	char *bodies;

	if (wt_alloc_should_fail(WT_ALLOC_POINT("nd_alloc_stack")))
		return false;
	p = calloc(MAXSYMLINKS, sizeof(*p));
	bodies = malloc((size_t)(MAXSYMLINKS - EMBEDDED_LEVELS) * PATH_MAX_LEN);
	if (!p || !bodies) {
		free(p);
		free(bodies);
		return false;
	}
	memcpy(p, nd->internal, sizeof(nd->internal));
	for (unsigned i = EMBEDDED_LEVELS; i < MAXSYMLINKS; i++)
		p[i].body = bodies + (size_t)(i - EMBEDDED_LEVELS) * PATH_MAX_LEN;
	nd->stack = p;
	nd->stack_bodies = bodies;
	return true;
}

void nd_free_stack(struct nameidata *nd)
{
	if (nd->stack != nd->internal) {
		free(nd->stack);
		free(nd->stack_bodies);
		nd->stack = nd->internal;
		nd->stack_bodies = NULL;
	}
}

static int reserve_stack(struct nameidata *nd, struct path *link)
{
	bool grabbed_link;

	if (nd->total_link_count++ >= MAXSYMLINKS)
		return -ELOOP;
	if (nd->depth != EMBEDDED_LEVELS)
		return 0;
	if (nd->stack != nd->internal)
		return 0;
	if (nd_alloc_stack(nd))
		return 0;
	if (!(nd->flags & LOOKUP_RCU))
		return -ENOMEM;
	/*
	 * We need to grab the link before we unlazy, and we can't skip the
	 * unlazy even if we fail to grab it: cleanup needs it.  A grabbed
	 * link with a failed unlazy, or the reverse, is a restart.
	 */
	grabbed_link = legitimize_path(nd, link, nd->next_seq,
				       WT_PATH_RESTART_LEGITIMIZE_LINK_DEAD,
				       WT_PATH_RESTART_LEGITIMIZE_LINK_SEQ);
	if (!try_to_unlazy(nd, grabbed_link ? WT_PATH_UNLAZY_LINK_STACK
					    : WT_PATH_RESTART_LINK_STACK,
			   WT_PATH_RESTART_LINK_STACK) || !grabbed_link)
		return -ECHILD;
	if (nd_alloc_stack(nd))
		return 0;
	return -ENOMEM;
}

/*
 * fs.protected_symlinks: in a sticky world-writable directory, follow a
 * trailing link only if we or the directory's owner own it.  A denial is
 * audited, which RCU mode cannot do.
 */
static int may_follow_link(struct nameidata *nd, struct inode *inode)
{
	uint32_t uid;

	if (!nd->walker->protected_symlinks)
		return 0;
	uid = wt_load(inode, i_uid);
	/* Allowed if owner and follower match. */
	if (uid == nd->task->cred.uid)
		return 0;
	/* Allowed if parent directory not sticky and world-writable. */
	if ((nd->dir_mode & (01000 | 0002)) != (01000 | 0002))
		return 0;
	/* Allowed if parent directory and link owner match. */
	if (nd->dir_uid == uid)
		return 0;
	if (nd->flags & LOOKUP_RCU) {
		nd_count(nd, WT_PATH_RESTART_MAY_FOLLOW_LINK);
		return -ECHILD;
	}
	return -EACCES;
}

/*
 * get_link, RCU mode first: with dentry NULL a filesystem that would
 * block (uncached body, magic link) answers -ECHILD; we unlazy and ask
 * again.  *jump is filled (referenced) by a magic link, which returns
 * NULL.
 */
static const char *nd_get_link(struct nameidata *nd, struct path *link,
			       struct inode *inode, struct path *jump)
{
	const struct inode_operations *iop = wt_load(inode, i_op);
	const char *res;

	if (!iop || !iop->get_link)
		return ERR_PTR(-EINVAL);
	if (!(nd->flags & LOOKUP_RCU))
		return iop->get_link(link->dentry, inode, jump);
	res = iop->get_link(NULL, inode, jump);
	if (res != ERR_PTR(-ECHILD))
		return res;
	if (!try_to_unlazy(nd, WT_PATH_NONE, WT_PATH_RESTART_GET_LINK))
		return res;
	res = iop->get_link(link->dentry, inode, jump);
	nd_count(nd, res ? WT_PATH_UNLAZY_GET_LINK : WT_PATH_UNLAZY_JUMP_LINK);
	return res;
}

/* Copy the body: the walk parses the copy, whatever happens to i_link. */
static const char *save_body(struct nameidata *nd, struct saved *last,
			     struct path *link, struct inode *inode,
			     const char *res)
{
	size_t len = strnlen(res, PATH_MAX_LEN);

	if (len >= PATH_MAX_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	memcpy(last->body, res, len + 1);
	if (nd_recording(nd)) {
		struct wt_ident at = wt_ident_of(link->mnt, link->dentry, inode);

		nd_record(nd, WT_STEP_LINK, &at, &at, last->body, (uint32_t)len,
			  0, 0, link->dentry, last->seq);
		/* the inode was validated before the read, and its body is
		 * fixed for its life */
		nd_validated(nd, link->dentry, last->seq);
	}
	return last->body;
}

static const char *pick_link_body(struct nameidata *nd, struct saved *last,
				  struct path *link, struct inode *inode)
{
	struct path jump = { NULL, NULL };
	const char *res;
	int error;

	res = wt_load_acquire(inode, i_link);
	if (res) {
		/* the body is an object of its own: alive, or reported */
		const struct wt_linkbody *lb = wt_linkbody_of(res);

		wt_access(&lb->wt, WT_ACCESS_POINT(WT_K_LOAD, "text",
						   "load ->i_link body"), lb);
	} else {
		res = nd_get_link(nd, link, inode, &jump);
		if (!res) {
			if (nd->flags & LOOKUP_RCU) {
				/* fsops.h: magic links refuse RCU mode */
				wt_violation(WT_CHECK_INVARIANT, NULL, inode,
					     "get_link jumped in RCU mode");
				return ERR_PTR(-ECHILD);
			}
			error = nd_jump_link(nd, &jump);
			if (error)
				return ERR_PTR(error);
			goto all_done;
		}
		if (res == ERR_PTR(-ESTALE))
			nd_count(nd, WT_PATH_ESTALE_GET_LINK);
		if (IS_ERR(res))
			return res;
	}
	res = save_body(nd, last, link, inode, res);
	if (IS_ERR(res))
		return res;
	if (*res == '/') {
		error = nd_jump_root(nd);
		if (error)
			return ERR_PTR(error);
		record_jump(nd, 0);
		while (*++res == '/')
			;
	}
	if (*res)
		return res;
all_done:	/* pure jump */
	put_link(nd);
	return NULL;
}

/*
 * pick_link - push the symlink at link (inode its inode) and return its
 * body to walk, NULL when there is nothing left to walk (a pure jump), or
 * ERR_PTR.  REF mode: link holds a dentry reference (and a mount one when
 * it differs from nd->path.mnt), which the stack takes over.
 */
const char *pick_link(struct nameidata *nd, struct path *link,
		      struct inode *inode, int flags)
{
	struct saved *last;
	int error;

	if (nd->flags & LOOKUP_RCU) {
		/*
		 * Validates that the d_is_symlink() we acted on and the inode
		 * we loaded belong together and to the dentry the lookup
		 * found (its seq is nd->next_seq): without it a dentry that
		 * became something else in between would have a stranger's
		 * body followed.  No zoo bug removes it.
		 */
		if (ND_TAGGED(&link->dentry->wt, read_seqcount_retry_at(&link->dentry->d_seq, nd->next_seq,
					   "pick_link.link_seq"))) {
			nd_count(nd, WT_PATH_RESTART_PICK_LINK_SEQ);
			return ERR_PTR(-ECHILD);
		}
		nd_validated(nd, link->dentry, nd->next_seq);
	} else if (link->mnt == nd->path.mnt) {
		mntget(link->mnt);
	}
	error = reserve_stack(nd, link);
	if (error) {
		if (!(nd->flags & LOOKUP_RCU))
			path_put(link);
		return ERR_PTR(error);
	}
	last = nd->stack + nd->depth++;
	last->link = *link;
	last->seq = nd->next_seq;
	if (flags & WALK_TRAILING) {
		error = may_follow_link(nd, inode);
		if (error)
			return ERR_PTR(error);
	}
	/*
	 * openat2's RESOLVE_NO_SYMLINKS: no link is followed, not even a
	 * trailing one (ELOOP).  Zoo WT_BUG_NO_SYMLINKS_IGNORED
	 * (`--bug no_symlinks_ignored`) forgets the test.
	 */
	if ((nd->flags & LOOKUP_NO_SYMLINKS) &&
	    !nd_bug(nd, WT_BUG_NO_SYMLINKS_IGNORED))
		return ERR_PTR(-ELOOP);
	/*
	 * touch_atime() may block (mnt_want_write, the journal): RCU mode
	 * leaves when an update is due (relatime: atime not after mtime,
	 * e.g. after touch -h of the link).  REF mode always touches, as
	 * the kernel does; the model only acts when one is due.
	 */
	if (!(nd->flags & LOOKUP_RCU)) {
		touch_atime(inode);
	} else if (atime_needs_update(inode)) {
		if (!try_to_unlazy(nd, UNLAZY_WHY(ATIME)))
			return ERR_PTR(-ECHILD);
		touch_atime(inode);
	}
	return pick_link_body(nd, last, link, inode);
}

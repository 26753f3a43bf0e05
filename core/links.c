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
#include "sim/scratch.h"

int set_root(struct nameidata *nd)
{
	/*
	 * A scoped walk's root is fixed by path_init (the dirfd); taking the
	 * task's root instead would let it out.  path_init never leaves a
	 * scoped walk without a root, so this cannot be reached.
	 */
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

/* RCU mode: stand on the root, checked against the seq it was taken with. */
static int jump_root_rcu(struct nameidata *nd)
{
	struct dentry *d = nd->root.dentry;

	nd->path = nd->root;
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
	return 0;
}

/* Go to the root: an absolute name, or an absolute symlink body. */
int nd_jump_root(struct nameidata *nd)
{
	int err;

	/*
	 * RESOLVE_BENEATH: a jump to a root always leaves the starting
	 * point.  RESOLVE_NO_XDEV: a jump that changes mount crosses one;
	 * but while nd->path is still unset (path_init on an absolute name)
	 * the walk has no mount to leave, so that jump is let through.
	 */
	if (nd->flags & LOOKUP_BENEATH)
		return -EXDEV;
	if ((nd->flags & LOOKUP_NO_XDEV) && nd->path.mnt &&
	    nd->path.mnt != nd->root.mnt)
		return -EXDEV;
	err = nd_need_root(nd);
	if (err)
		return err;
	if (nd->flags & LOOKUP_RCU) {
		err = jump_root_rcu(nd);
		if (err)
			return err;
	} else {
		path_put(&nd->path);
		path_get(&nd->root);
		nd->path = nd->root;
		nd->inode = d_inode(nd->root.dentry);
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
	int refuse = 0;

	/* RESOLVE_NO_MAGICLINKS: refused like a symlink would be */
	if (nd->flags & LOOKUP_NO_MAGICLINKS)
		refuse = -ELOOP;
	/* RESOLVE_NO_XDEV: the target is on another mount */
	else if ((nd->flags & LOOKUP_NO_XDEV) && path->mnt != nd->path.mnt)
		refuse = -EXDEV;
	/*
	 * A magic link can point anywhere, the far side of a scoped walk's
	 * root included, and nothing here would notice: scoped walks
	 * refuse them all.
	 */
	else if (nd->flags & LOOKUP_IS_SCOPED)
		refuse = -EXDEV;
	if (refuse) {
		path_put(path);
		return refuse;
	}
	path_put(&nd->path);
	nd->path = *path;
	nd->inode = d_inode(path->dentry);
	nd->state |= ND_JUMPED;
	record_jump(nd, 1);
	return 0;
}

/* Pop the innermost link; REF mode drops the references the stack held. */
void put_link(struct nameidata *nd)
{
	nd->depth--;
	if (nd->flags & LOOKUP_RCU)
		return;
	path_put(&nd->stack[nd->depth].link);
}

/*
 * Grow the link stack to MAXSYMLINKS entries with their body buffers.
 * The kernel allocates GFP_ATOMIC in RCU mode; here it is an injection
 * point that a rule can make fail.  Scratch blocks (sim/scratch.h), not
 * malloc: a run that ends while the walk stands at a point (a halt, a
 * stuck or deadlocked sim run) abandons the walker without unwinding
 * it, and its thread's scratch list frees the stack then.
 */
static bool nd_alloc_stack(struct nameidata *nd)
{
	struct saved *p;
	char *bodies;

	if (wt_alloc_should_fail(WT_ALLOC_POINT("nd_alloc_stack")))
		return false;
	p = wt_scratch_zalloc(MAXSYMLINKS * sizeof(*p));
	bodies = wt_scratch_alloc((size_t)(MAXSYMLINKS - EMBEDDED_LEVELS) *
				  PATH_MAX_LEN);
	if (!p || !bodies) {
		wt_scratch_free(p);
		wt_scratch_free(bodies);
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
		wt_scratch_free(nd->stack);
		wt_scratch_free(nd->stack_bodies);
		nd->stack = nd->internal;
		nd->stack_bodies = NULL;
	}
}

/* Room on the link stack for one more link: 0, -ELOOP, -ENOMEM, -ECHILD. */
static int reserve_stack(struct nameidata *nd, struct path *link)
{
	bool link_held, unlazied;

	nd->total_link_count++;
	if (nd->total_link_count > MAXSYMLINKS)
		return -ELOOP;
	/* only the step past the embedded levels needs the full stack */
	if (nd->depth != EMBEDDED_LEVELS || nd->stack != nd->internal)
		return 0;
	if (nd_alloc_stack(nd))
		return 0;
	if (!(nd->flags & LOOKUP_RCU))
		return -ENOMEM;
	/*
	 * RCU mode tries the allocation again from REF mode.  The link is
	 * not on the stack yet, so try_to_unlazy would not legitimize it:
	 * we do that first, and call try_to_unlazy whatever came of it,
	 * since only after an unlazy (good or failed) can terminate_walk
	 * drop what the link got.  Either one failing is a restart.
	 */
	link_held = legitimize_path(nd, link, nd->next_seq,
				    WT_PATH_RESTART_LEGITIMIZE_LINK_DEAD,
				    WT_PATH_RESTART_LEGITIMIZE_LINK_SEQ);
	unlazied = try_to_unlazy(nd, link_held ? WT_PATH_UNLAZY_LINK_STACK
					       : WT_PATH_RESTART_LINK_STACK,
				 WT_PATH_RESTART_LINK_STACK);
	if (!unlazied || !link_held)
		return -ECHILD;
	return nd_alloc_stack(nd) ? 0 : -ENOMEM;
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
	/*
	 * Three ways the link is trusted: the one following it owns it; the
	 * directory is not both sticky (01000) and world-writable (0002), so
	 * no stranger could have planted it there; or it belongs to the
	 * directory's owner.
	 */
	if (uid == nd->task->cred.uid ||
	    (nd->dir_mode & 01002) != 01002 ||
	    uid == nd->dir_uid)
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
	const struct cred *cred = &nd->task->cred;
	const char *res;

	if (!iop || !iop->get_link)
		return ERR_PTR(-EINVAL);
	if (!(nd->flags & LOOKUP_RCU))
		return iop->get_link(cred, link->dentry, inode, jump);
	res = iop->get_link(cred, NULL, inode, jump);
	if (res != ERR_PTR(-ECHILD))
		return res;
	if (!try_to_unlazy(nd, WT_PATH_NONE, WT_PATH_RESTART_GET_LINK))
		return res;
	res = iop->get_link(cred, link->dentry, inode, jump);
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

/* The link led nowhere further (a pure jump): done with it. */
static const char *link_done(struct nameidata *nd)
{
	put_link(nd);
	return NULL;
}

static const char *pick_link_body(struct nameidata *nd, struct saved *last,
				  struct path *link, struct inode *inode)
{
	struct path jump = { NULL, NULL };
	const char *res;
	int err;

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
			err = nd_jump_link(nd, &jump);
			return err ? ERR_PTR(err) : link_done(nd);
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
		/* an absolute body: start again from the root, past its slashes */
		err = nd_jump_root(nd);
		if (err)
			return ERR_PTR(err);
		record_jump(nd, 0);
		res += strspn(res, "/");
	}
	return *res ? res : link_done(nd);
}

/* A new top of the link stack for link (its name and body come later). */
static struct saved *push_link(struct nameidata *nd, const struct path *link)
{
	struct saved *top = &nd->stack[nd->depth];

	top->link = *link;
	top->seq = nd->next_seq;
	nd->depth++;
	return top;
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
	int mnt_flags;
	int err;

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
	err = reserve_stack(nd, link);
	if (err) {
		/* not pushed: REF mode still owns link's references here */
		if (!(nd->flags & LOOKUP_RCU))
			path_put(link);
		return ERR_PTR(err);
	}
	last = push_link(nd, link);
	/* fs.protected_symlinks judges only the last component's link */
	err = (flags & WALK_TRAILING) ? may_follow_link(nd, inode) : 0;
	if (err)
		return ERR_PTR(err);
	/*
	 * openat2's RESOLVE_NO_SYMLINKS: no link is followed, not even a
	 * trailing one (ELOOP).  Zoo WT_BUG_NO_SYMLINKS_IGNORED
	 * (`--bug no_symlinks_ignored`) forgets the test.
	 */
	if ((nd->flags & LOOKUP_NO_SYMLINKS) &&
	    !nd_bug(nd, WT_BUG_NO_SYMLINKS_IGNORED))
		return ERR_PTR(-ELOOP);
	/* a nosymfollow mount's links are refused the same way */
	mnt_flags = mnt_flags_load(real_mount(link->mnt));
	if (mnt_flags & MNT_NOSYMFOLLOW)
		return ERR_PTR(-ELOOP);
	/*
	 * touch_atime() may block (mnt_want_write, the journal): RCU mode
	 * leaves when an update is due (relatime: atime not after mtime,
	 * e.g. after touch -h of the link).  REF mode always touches, as
	 * the kernel does; the model only acts when one is due.
	 */
	if (!(nd->flags & LOOKUP_RCU)) {
		touch_atime(inode, mnt_flags);
	} else if (atime_needs_update(inode, mnt_flags)) {
		if (!try_to_unlazy(nd, UNLAZY_WHY(ATIME)))
			return ERR_PTR(-ECHILD);
		touch_atime(inode, mnt_flags);
	}
	return pick_link_body(nd, last, link, inode);
}

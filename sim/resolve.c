/* SPDX-License-Identifier: MIT */
/*
 * The writers' REF-style resolver.  See sim/resolve.h for what it is and
 * is not.  The remaining path is kept as one string; a symlink's body is
 * spliced in front of the rest, so there is no recursion and no link
 * stack: the 40-link bound and PATH_MAX bound the work.
 */
#include <assert.h>
#include <string.h>

#include "sim/resolve.h"
#include "sim/vfs/dcache.h"
#include "sim/vfs/inode.h"
#include "sim/vfs/lookup_flags.h"
#include "sim/vfs/mount.h"
#include "sim/vfs/world.h"

#define WT_MAXSYMLINKS	40

void wt_path_get(const struct path *p)
{
	mntget(p->mnt);
	dget(p->dentry);
}

void wt_path_put(struct path *p)
{
	if (p->dentry)
		dput(p->dentry);
	if (p->mnt)
		mntput(p->mnt);
	p->dentry = NULL;
	p->mnt = NULL;
}

/* Replace *p by (mnt, dentry), whose references the caller passes in. */
static void path_set(struct path *p, struct vfsmount *mnt, struct dentry *d)
{
	wt_path_put(p);
	p->mnt = mnt;
	p->dentry = d;
}

void wt_follow_mounts(struct path *p)
{
	/* Bounded: every step goes one mount up the (finite) stack. */
	while (d_mountpoint(p->dentry)) {
		struct vfsmount *m = lookup_mnt(p);

		if (!m)
			break;	/* mounted in no mount we can see from here */
		path_set(p, m, dget(m->mnt_root));
	}
}

static int revalidate(struct dentry *d)
{
	if (!d->d_op || !d->d_op->d_revalidate)
		return 1;
	return d->d_op->d_revalidate(d, 0);
}

/*
 * lookup_slow: the filesystem's ->lookup on a fresh in-lookup dentry.
 * A dentry d_alloc_parallel finds in the cache instead (someone else's,
 * hashed since the d_lookup that missed) is revalidated first, as
 * __lookup_slow does: a remote one gone bad meanwhile is dropped and
 * looked up again, not taken as the parent of a create (its i_rwsem
 * would not be the one a fresh dentry's walkers take).
 */
#define LOOKUP_SLOW_INVALID_MAX	8	/* then a livelock: no answer */

static struct dentry *lookup_slow(struct dentry *dir, const struct qstr *q)
{
	struct inode *inode = d_inode(dir);
	struct dentry *d, *old;
	int err;

	for (unsigned tries = 0;; tries++) {
		d = d_alloc_parallel(dir, q);
		if (IS_ERR(d))
			return d;
		if (d_flags_load(d) & DCACHE_PAR_LOOKUP)
			break;
		err = revalidate(d);
		if (err > 0)
			return d;
		if (err < 0 || tries == LOOKUP_SLOW_INVALID_MAX) {
			dput(d);
			return ERR_PTR(err < 0 ? err : -ESTALE);
		}
		d_invalidate(d);
		dput(d);
	}
	old = inode->i_op->lookup(inode, d, 0);
	d_lookup_done(d);
	if (old) {
		dput(d);
		d = old;
	}
	return d;
}

struct dentry *wt_lookup_one(struct wt_world *w, struct dentry *dir,
			     const char *name, uint32_t len)
{
	struct inode *inode = d_inode(dir);
	struct qstr q = QSTR_INIT(name, len);
	struct dentry *d;
	int err;

	(void)w;
	if (!inode || !WT_S_ISDIR(inode->i_mode))
		return ERR_PTR(-ENOTDIR);
	/* i_flags change under i_lock (slowperm), which is not held here */
	if (wt_load(inode, i_flags) & S_DEAD)
		return ERR_PTR(-ENOENT);	/* IS_DEADDIR */
	err = d_hash_name(dir, &q);
	if (err)
		return ERR_PTR(err);
	d = d_lookup(dir, &q);
	if (d) {
		err = revalidate(d);
		if (err > 0)
			return d;
		if (err < 0) {
			dput(d);
			return ERR_PTR(err);
		}
		d_invalidate(d);
		dput(d);
	}
	if (!inode->i_op || !inode->i_op->lookup)
		return NULL;	/* everything is cached: the miss is final */
	return lookup_slow(dir, &q);
}

/* ------------------------------------------------------------------ */
/* `..`                                                                 */

/* choose_mountpoint: the first mountpoint above m that is not a mount
 * root itself, stopping at the root; false when there is none. */
static bool choose_mountpoint(struct mount *m, const struct path *root,
			      struct path *out)
{
	while (mnt_has_parent(m)) {	/* bounded by the mount tree */
		struct dentry *mp = m->mnt_mountpoint;

		m = m->mnt_parent;
		if (root->dentry == mp && root->mnt == &m->mnt)
			break;
		if (mp != m->mnt.mnt_root) {
			out->mnt = mntget(&m->mnt);
			out->dentry = dget(mp);
			return true;
		}
	}
	return false;
}

static bool path_connected(struct vfsmount *mnt, struct dentry *d)
{
	if (mnt->mnt_root == mnt->mnt_sb->s_root)
		return true;
	return is_subdir(d, mnt->mnt_root);
}

static int follow_dotdot(struct path *cur, const struct path *root)
{
	struct dentry *parent;

	if (path_equal(cur, root))
		goto in_root;
	if (cur->dentry == cur->mnt->mnt_root) {
		struct path up;

		if (!choose_mountpoint(real_mount(cur->mnt), root, &up))
			goto in_root;
		wt_path_put(cur);
		*cur = up;
	}
	parent = dget_parent(cur->dentry);
	if (!path_connected(cur->mnt, parent)) {
		dput(parent);
		return -ENOENT;
	}
	path_set(cur, mntget(cur->mnt), parent);
	wt_follow_mounts(cur);
	return 0;
in_root:
	/* step_into on the same dentry: still crosses what is mounted here */
	wt_follow_mounts(cur);
	return 0;
}

/* ------------------------------------------------------------------ */
/* the walk                                                             */

/*
 * The remaining path lives in the walk itself, on the writer's stack, and
 * never on the heap: a run that ends at one of the walk's points (a halt,
 * a stuck or deadlocked sim run) abandons the writer's body without
 * unwinding it, and a heap copy would be leaked then.  Every path the
 * walk holds fits: PATH_MAX_LEN bounds the path given and each splice.
 */
struct walk {
	struct wt_world *w;
	struct path root;
	struct path cur;
	size_t pos;		/* where the rest of buf starts */
	unsigned links;
	char buf[PATH_MAX_LEN];	/* the path being walked */
};

/*
 * Splice body in front of the rest of the path (from pos on), in place.
 * A slash joins them; with no rest, a trailing slash after the link is
 * kept (the target must then be a directory) and none is added
 * otherwise.
 */
static int splice_link(struct walk *wk, const char *body, bool trailing)
{
	size_t blen = strlen(body), rlen = strlen(wk->buf + wk->pos);
	bool slash = rlen || trailing;

	if (++wk->links > WT_MAXSYMLINKS)
		return -ELOOP;
	if (!blen)
		return -ENOENT;
	if (blen + slash + rlen + 1 > PATH_MAX_LEN)
		return -ENAMETOOLONG;
	/* the body is the link's, never a part of buf */
	assert(body + blen <= wk->buf || body >= wk->buf + sizeof(wk->buf));
	memmove(wk->buf + blen + slash, wk->buf + wk->pos, rlen + 1);
	memcpy(wk->buf, body, blen);
	if (slash)
		wk->buf[blen] = '/';
	wk->pos = 0;
	return 0;
}

static void jump_root(struct walk *wk)
{
	path_set(&wk->cur, mntget(wk->root.mnt), dget(wk->root.dentry));
}

/* Writers resolve as root: every process's magic links are theirs to follow. */
static const struct cred resolve_cred = {
	.cap_dac_override = true,
	.cap_sys_ptrace = true,
};

/* Follow the symlink link; the walk stands in its directory. */
static int follow_link(struct walk *wk, struct dentry *link, bool trailing)
{
	struct inode *inode = d_inode(link);
	struct path jump = { 0 };
	const char *body;

	/* the link is on the directory's mount: a nosymfollow one refuses */
	if (wk->cur.mnt->mnt_flags & MNT_NOSYMFOLLOW)
		return -ELOOP;
	if (!inode->i_op || !inode->i_op->get_link)
		body = inode->i_link;
	else
		body = inode->i_op->get_link(&resolve_cred, link, inode, &jump);
	if (IS_ERR(body))
		return (int)PTR_ERR(body);
	if (!body) {
		/* nd_jump_link: a magic link names its target directly */
		if (++wk->links > WT_MAXSYMLINKS) {
			wt_path_put(&jump);
			return -ELOOP;
		}
		path_set(&wk->cur, jump.mnt, jump.dentry);
		return 0;
	}
	if (body[0] == '/')
		jump_root(wk);
	return splice_link(wk, body, trailing);
}

/* The next component: [*start, *end), and whether it is the last. */
static bool next_component(struct walk *wk, size_t *start, size_t *end,
			   bool *trailing)
{
	const char *s = wk->buf;
	size_t i = wk->pos;

	while (s[i] == '/')
		i++;
	*start = i;
	while (s[i] && s[i] != '/')
		i++;
	*end = i;
	*trailing = false;
	while (s[i] == '/') {
		i++;
		*trailing = true;
	}
	wk->pos = i;
	return s[i] == '\0';
}

static int walk_dotdot(struct walk *wk)
{
	return follow_dotdot(&wk->cur, &wk->root);
}

/* One normal component: 0 stepped into it, 1 followed a link (the walk
 * goes on with the spliced path), or -errno. */
static int walk_component(struct walk *wk, const char *name, uint32_t len,
			  bool follow, bool trailing)
{
	struct path next;
	struct dentry *d;
	int err;

	/* a name over 255 bytes: the filesystem's lookup answers */
	d = wt_lookup_one(wk->w, wk->cur.dentry, name, len);
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	if (!d || d_is_negative(d)) {
		if (d)
			dput(d);
		return -ENOENT;
	}
	next.mnt = mntget(wk->cur.mnt);
	next.dentry = d;
	wt_follow_mounts(&next);
	if (follow && d_is_symlink(next.dentry)) {
		err = follow_link(wk, next.dentry, trailing);
		wt_path_put(&next);
		return err ? err : 1;
	}
	wt_path_put(&wk->cur);
	wk->cur = next;
	return 0;
}

/* Not a memset of *wk: its buffer is 4 KiB, and the path fills what is read. */
static int walk_init(struct walk *wk, struct wt_world *w, const char *path)
{
	struct path root = wt_world_root(w);
	size_t len;

	if (!path || !*path)
		return -ENOENT;
	len = strlen(path);
	if (len >= PATH_MAX_LEN)
		return -ENAMETOOLONG;
	wk->w = w;
	wk->pos = 0;
	wk->links = 0;
	memcpy(wk->buf, path, len + 1);
	wk->root = root;
	wt_path_get(&wk->root);
	wk->cur = root;
	wt_path_get(&wk->cur);
	return 0;
}

static void walk_fini(struct walk *wk)
{
	wt_path_put(&wk->cur);
	wt_path_put(&wk->root);
}

static void set_last(struct wt_last *last, const char *name, size_t len,
		     bool trailing)
{
	last->trailing_slash = trailing;
	last->len = (uint32_t)len;
	memcpy(last->name, name, len);
	last->name[len] = '\0';
	if (len == 0)
		last->type = WT_LAST_ROOT;
	else if (len == 1 && name[0] == '.')
		last->type = WT_LAST_DOT;
	else if (len == 2 && name[0] == '.' && name[1] == '.')
		last->type = WT_LAST_DOTDOT;
	else
		last->type = WT_LAST_NORM;
}

/*
 * A last component too long for struct wt_last: what the parent's
 * filesystem says of it when the writer looks it up (filename_create's
 * lookup), which is -ENAMETOOLONG on most, -ENOENT on proc.
 */
static int long_last(struct walk *wk, const char *name, size_t len)
{
	struct dentry *d;

	if (!d_can_lookup(wk->cur.dentry))
		return -ENOTDIR;
	d = wt_lookup_one(wk->w, wk->cur.dentry, name, (uint32_t)len);
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	/* a filesystem that takes such a name: more than we can carry */
	if (d)
		dput(d);
	return -ENAMETOOLONG;
}

/*
 * link_path_walk: walk every component; with last != NULL stop before
 * the final one and describe it (parentat), else walk it too.
 */
static int walk_path(struct walk *wk, unsigned flags, struct wt_last *last)
{
	for (;;) {	/* bounded: each turn consumes a component or a link */
		size_t start, end;
		bool trailing, is_last = next_component(wk, &start, &end, &trailing);
		const char *name = wk->buf + start;
		size_t len = end - start;
		bool follow = !is_last || trailing || (flags & WT_RES_FOLLOW);
		int err;

		if (is_last && last) {
			if (len > NAME_MAX_LEN)
				return long_last(wk, name, len);
			set_last(last, name, len, trailing);
			return 0;
		}
		if (len == 0)
			return 0;	/* "/" or trailing slashes: done */
		if (!d_can_lookup(wk->cur.dentry))
			return -ENOTDIR;
		if (len == 1 && name[0] == '.')
			err = 0;
		else if (len == 2 && name[0] == '.' && name[1] == '.')
			err = walk_dotdot(wk);
		else
			err = walk_component(wk, name, (uint32_t)len, follow,
					     trailing);
		if (err < 0)
			return err;
		if (err == 0 && is_last && trailing &&
		    !d_can_lookup(wk->cur.dentry))
			return -ENOTDIR;
	}
}

int wt_resolve(struct wt_world *w, const char *path, unsigned flags,
	       struct path *out)
{
	struct walk wk;
	int err = walk_init(&wk, w, path);

	if (err)
		return err;
	err = walk_path(&wk, flags, NULL);
	/* path_lookupat's handle_lookup_down for LOOKUP_MOUNTPOINT */
	if (!err && (flags & WT_RES_MOUNTPOINT))
		wt_follow_mounts(&wk.cur);
	if (!err && (flags & WT_RES_DIRECTORY) && !d_can_lookup(wk.cur.dentry))
		err = -ENOTDIR;
	if (!err) {
		*out = wk.cur;
		wk.cur.mnt = NULL;
		wk.cur.dentry = NULL;
	}
	walk_fini(&wk);
	return err;
}

int wt_resolve_parent(struct wt_world *w, const char *path,
		      struct path *parent, struct wt_last *last)
{
	struct walk wk;
	int err = walk_init(&wk, w, path);

	if (err)
		return err;
	err = walk_path(&wk, 0, last);
	if (!err && !d_can_lookup(wk.cur.dentry))
		err = -ENOTDIR;
	if (!err) {
		*parent = wk.cur;
		wk.cur.mnt = NULL;
		wk.cur.dentry = NULL;
	}
	walk_fini(&wk);
	return err;
}

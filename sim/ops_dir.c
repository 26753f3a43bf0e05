/* SPDX-License-Identifier: MIT */
/*
 * Name operations: mkdir, create, unlink, rmdir, symlink, link, rename.
 *
 * The model has no inode_operations for these (sim/vfs/fsops.h): as an
 * in-memory filesystem's (shmem's) methods, they change the dcache
 * directly, under the kernel's locks: the parent's i_rwsem (both, for
 * rename, ancestor first), the victim's or target's i_rwsem, and
 * rename_lock around d_move.  An in-memory fs pins what it creates
 * (d_make_persistent) and unpins before d_delete.  Link counts (i_nlink)
 * are no lookup state, so they are plain stores, not writer steps.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/ops_internal.h"

/* What a last component that is not a name gives, per operation, and
 * whether a read-only mount is refused before the name is looked up
 * (unlink and rmdir take mnt_want_write first; a create looks first, so
 * that EEXIST wins over EROFS, as filename_create does). */
struct last_errors {
	int root;
	int dot;
	int dotdot;
	bool write_first;
};

static const struct last_errors create_last = { -EEXIST, -EEXIST, -EEXIST, false };
static const struct last_errors touch_last = { -EISDIR, -EISDIR, -EISDIR, false };
static const struct last_errors unlink_last = { -EISDIR, -EISDIR, -EISDIR, true };
static const struct last_errors rmdir_last = { -EBUSY, -EINVAL, -ENOTEMPTY, true };

/* A directory locked, a name looked up in it. */
struct nameop {
	struct path parent;
	struct wt_last last;
	struct inode *dir;
	struct dentry *d;	/* referenced; positive, negative or NULL */
	bool locked;
};

static int nameop_begin(struct wt_world *w, const char *path,
			const struct last_errors *le, struct nameop *n)
{
	struct dentry *d;
	int err;

	memset(n, 0, sizeof(*n));
	err = wt_resolve_parent(w, path, &n->parent, &n->last);
	if (err)
		return err;
	switch (n->last.type) {
	case WT_LAST_ROOT:
		return le->root;
	case WT_LAST_DOT:
		return le->dot;
	case WT_LAST_DOTDOT:
		return le->dotdot;
	case WT_LAST_NORM:
		break;
	}
	if (le->write_first && mnt_is_readonly(n->parent.mnt))
		return -EROFS;
	n->dir = d_inode(n->parent.dentry);
	inode_lock(n->dir);
	n->locked = true;
	d = wt_lookup_one(w, n->parent.dentry, n->last.name, n->last.len);
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	n->d = d;
	return 0;
}

static void nameop_end(struct nameop *n)
{
	if (n->d)
		dput(n->d);
	if (n->locked)
		inode_unlock(n->dir);
	wt_path_put(&n->parent);
}

static bool positive(const struct dentry *d)
{
	return d && !d_is_negative(d);
}

/* A dentry to instantiate at the name: the cached negative one, or new. */
static struct dentry *name_dentry(struct nameop *n)
{
	struct qstr q = QSTR_INIT(n->last.name, n->last.len);

	if (!n->d)
		n->d = d_alloc(n->parent.dentry, &q);
	return n->d;
}

/* Make the name positive with inode (whose reference it takes over). */
static void instantiate(struct dentry *d, struct inode *inode)
{
	if (wt_sb_in_memory(d->d_sb))
		d_make_persistent(d, inode);
	else
		d_instantiate(d, inode);
	if (d_unhashed(d))
		d_rehash(d);	/* a fresh d_alloc: findable from now on */
}

static void nlink_add(struct inode *inode, int n)
{
	WRITE_ONCE(inode->i_nlink, inode->i_nlink + (uint32_t)n);
}

/*
 * The new object at the name n stands on (locked, looked up, negative),
 * owned by owner (NULL: a writer's, 0:0); path names it in the history
 * and is its creating path.
 */
static int create_new(struct wt_world *w, struct nameop *n, const char *path,
		      umode_t mode, const char *body, const char *op,
		      const char *step, const struct cred *owner)
{
	struct inode *inode = wt_inode_alloc(n->parent.dentry->d_sb, mode,
					     owner ? owner->uid : 0,
					     owner ? owner->gid : 0);
	struct wt_hist_rec *rec;
	struct dentry *d;
	int err;

	if (!inode)
		return -ENOMEM;
	/*
	 * A directory the remote client found bad creates nothing
	 * (fuse_create_open on fuse_is_bad): a walk's open(O_CREAT) that
	 * stood in it from before meets it here.  Its i_rwsem no longer
	 * keeps out a creator that came through a fresh dentry for the same
	 * server directory (sim/fs/remote.c, remote_bad).  A raw load, no
	 * injection point: every create's schedule would move.
	 */
	if (__atomic_load_n(&n->dir->i_flags, __ATOMIC_RELAXED) & S_BAD_INODE) {
		iput(inode);
		return -EIO;
	}
	err = body ? wt_inode_set_link(inode, body) : 0;
	d = err ? NULL : name_dentry(n);
	if (!d) {
		iput(inode);
		return err ? err : -ENOMEM;
	}
	rec = wt_history_begin(w, op, step, "%s%s%s", body ? body : "",
			       body ? " " : "", path);
	if (WT_S_ISDIR(mode))
		nlink_add(n->dir, 1);
	wt_origin_set(w, inode, "", path, strlen(path));
	if (WT_S_ISDIR(mode))
		WT_OP_STEP("mkdir.d_instantiate", d);
	else if (WT_S_ISREG(mode))
		WT_OP_STEP("create.d_instantiate", d);
	else
		WT_OP_STEP("symlink.d_instantiate", d);
	instantiate(d, inode);
	wt_history_dentry(rec, d);
	wt_history_inode(rec, inode);
	wt_history_inode(rec, n->dir);
	wt_history_commit(rec);
	return 0;
}

/* mkdir, touch, ln -s: excl says whether an existing name is an error. */
static int create_at(struct wt_world *w, const char *path, umode_t mode,
		     const char *body, bool excl, const char *op,
		     const char *step)
{
	const struct last_errors *le = WT_S_ISREG(mode) ? &touch_last : &create_last;
	struct nameop n;
	int err = nameop_begin(w, path, le, &n);

	if (err)
		goto out;
	if (positive(n.d)) {
		err = excl ? -EEXIST : 0;	/* touch leaves it alone */
		if (!excl && n.last.trailing_slash && !d_is_dir(n.d))
			err = -ENOTDIR;
		goto out;
	}
	/* "a/" asks for a directory, which a create of anything else cannot
	 * give: ENOENT, as filename_create answers; open says EISDIR. */
	if (n.last.trailing_slash && !WT_S_ISDIR(mode)) {
		err = WT_S_ISREG(mode) ? -EISDIR : -ENOENT;
		goto out;
	}
	if (n.dir->i_flags & S_DEAD) {
		err = -ENOENT;
		goto out;
	}
	/* mnt_want_write: a new name on a read-only mount or filesystem */
	if (mnt_is_readonly(n.parent.mnt)) {
		err = -EROFS;
		goto out;
	}
	err = create_new(w, &n, path, mode, body, op, step, NULL);
out:
	nameop_end(&n);
	return err;
}

/* mkdir -p: every missing prefix, each with its own creating path. */
static int mkdir_parents(struct wt_world *w, const char *path, umode_t mode)
{
	char buf[PATH_MAX_LEN];
	size_t len = strlen(path);
	int err = 0;

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (size_t i = 1; i <= len && !err; i++) {	/* bounded by len */
		struct path p;

		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		if (buf[i - 1] == '/')
			continue;
		buf[i] = '\0';
		if (wt_resolve(w, buf, WT_RES_FOLLOW | WT_RES_DIRECTORY, &p) == 0) {
			wt_path_put(&p);
		} else {
			err = create_at(w, buf, (umode_t)(WT_S_IFDIR | mode), NULL,
					false, "mkdir", "mkdir.d_instantiate");
			if (!err && wt_resolve(w, buf, WT_RES_FOLLOW | WT_RES_DIRECTORY, &p) == 0)
				wt_path_put(&p);
			else if (!err)
				err = -EEXIST;	/* a non-directory is in the way */
		}
		buf[i] = path[i];
	}
	return err;
}

static int writer_end(struct wt_world *w, int err)
{
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

int wt_op_mkdir(struct wt_world *w, const char *path, umode_t mode, bool parents)
{
	int err = wt_writer_lock(w);

	if (err)
		return err;
	mode &= 07777;
	if (parents)
		err = mkdir_parents(w, path, mode);
	else
		err = create_at(w, path, (umode_t)(WT_S_IFDIR | mode), NULL, true,
				"mkdir", "mkdir.d_instantiate");
	return writer_end(w, err);
}

int wt_op_create(struct wt_world *w, const char *path, umode_t mode)
{
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = create_at(w, path, (umode_t)(WT_S_IFREG | (mode & 07777)), NULL,
			false, "create", "create.d_instantiate");
	return writer_end(w, err);
}

/* "ORIGIN-OF-DIR/name" ("/name" under the root): the new file's creating
 * path in the creating-path table and its history entry's text. */
static void open_create_path(struct wt_world *w, const struct inode *dir,
			     const char *name, uint32_t len, char *buf,
			     size_t size)
{
	const char *at = wt_inode_origin(w, dir->wt.id);

	if (!at || !strcmp(at, "/"))
		at = "";
	snprintf(buf, size, "%s/%.*s", at, (int)len, name);
}

int wt_op_create_in(struct wt_world *w, const struct path *dir,
		    const char *name, uint32_t len, umode_t mode,
		    const struct cred *cred, struct dentry **made)
{
	char path[PATH_MAX_LEN];
	struct nameop n;
	struct dentry *d;
	int err;

	assert(dir && dir->dentry && d_inode(dir->dentry));
	assert(cred && len > 0 && len <= NAME_MAX_LEN);
	memset(&n, 0, sizeof(n));
	n.parent = *dir;	/* the caller's references; not put here */
	n.last.type = WT_LAST_NORM;
	n.last.len = len;
	memcpy(n.last.name, name, len);
	n.dir = d_inode(dir->dentry);
	/* i_rwsem is the caller's: n.locked stays false */
	if (n.dir->i_flags & S_DEAD)
		return -ENOENT;
	d = wt_lookup_one(w, dir->dentry, n.last.name, len);
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	n.d = d;
	/*
	 * lookup_open saw the name negative and holds i_rwsem, so no
	 * client-side creator got in; a remote server may have the name
	 * now (made or renamed there since the client trusted its negative
	 * dentry), and the lookup above asked it.  The create refuses it,
	 * as a server-side create that is exclusive does (AFS).
	 */
	if (positive(d)) {
		err = -EEXIST;
	} else {
		open_create_path(w, n.dir, name, len, path, sizeof(path));
		err = create_new(w, &n, path,
				 (umode_t)(WT_S_IFREG | (mode & 07777)), NULL,
				 "open_create", "create.d_instantiate", cred);
	}
	if (!err && made) {
		*made = n.d;	/* the caller's reference now */
		n.d = NULL;
	}
	if (n.d)
		dput(n.d);
	return err;
}

int wt_op_symlink(struct wt_world *w, const char *target, const char *path)
{
	int err;

	/* symlink(2) copies the target in first, and an empty string is
	 * refused there (getname without LOOKUP_EMPTY): ENOENT, before the
	 * new name is even looked at */
	if (!target || !*target)
		return -ENOENT;
	err = wt_writer_lock(w);
	if (err)
		return err;
	err = create_at(w, path, (umode_t)(WT_S_IFLNK | 0777), target, true,
			"symlink", "symlink.d_instantiate");
	return writer_end(w, err);
}

/* ------------------------------------------------------------------ */
/* removal                                                              */

bool wt_dir_empty(struct dentry *d)
{
	bool empty = true;

	spin_lock(&d->d_lock);
	for (struct dentry *c = d->d_subdirs; c && empty; c = c->d_sib)
		if (READ_ONCE(c->d_inode) &&
		    (READ_ONCE(c->d_flags) & DCACHE_HASHED))
			empty = false;
	spin_unlock(&d->d_lock);
	return empty;
}

static int unlink_locked(struct wt_world *w, struct nameop *n, const char *path)
{
	struct dentry *d = n->d;
	struct wt_hist_rec *rec;
	struct inode *inode;

	if (!positive(d))
		return -ENOENT;
	if (d_is_dir(d))
		return -EISDIR;
	if (n->last.trailing_slash)
		return -ENOTDIR;
	if (d_mountpoint(d))
		return -EBUSY;	/* is_local_mountpoint */
	inode = d_inode(d);
	iget(inode);	/* d_delete may drop the dentry's: keep it to log */
	inode_lock(inode);
	rec = wt_history_begin(w, "unlink", "unlink.d_delete", "%s", path);
	nlink_add(inode, -1);
	if (d_flags_load(d) & DCACHE_PERSISTENT)
		d_make_discardable(d);
	WT_OP_STEP("unlink.d_delete", d);
	d_delete(d);
	wt_history_dentry(rec, d);
	wt_history_inode(rec, inode);
	wt_history_commit(rec);
	inode_unlock(inode);
	iput(inode);
	return 0;
}

int wt_op_unlink(struct wt_world *w, const char *path)
{
	struct nameop n;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = nameop_begin(w, path, &unlink_last, &n);
	if (!err)
		err = unlink_locked(w, &n, path);
	nameop_end(&n);
	return writer_end(w, err);
}

/*
 * rmdir publishes in two steps, as vfs_rmdir: the filesystem's rmdir
 * (link counts, the pin) and S_DEAD under the victim's lock -- a walker
 * can see a dead directory still hashed --, then d_delete.  The kernel's
 * detach_mounts between them finds nothing here: a mountpoint is EBUSY
 * (is_local_mountpoint; the model has one namespace).
 */
static int rmdir_locked(struct wt_world *w, struct nameop *n, const char *path)
{
	struct dentry *d = n->d;
	struct wt_hist_rec *rec;
	struct inode *inode;
	int err = 0;

	if (!positive(d))
		return -ENOENT;
	if (!d_is_dir(d))
		return -ENOTDIR;
	if (d_mountpoint(d))
		return -EBUSY;
	inode = d_inode(d);
	iget(inode);
	inode_lock(inode);
	if (!wt_dir_empty(d)) {
		err = -ENOTEMPTY;
		goto out;
	}
	rec = wt_history_begin(w, "rmdir", "rmdir.S_DEAD", "%s", path);
	WRITE_ONCE(inode->i_nlink, 0);
	nlink_add(n->dir, -1);
	if (d_flags_load(d) & DCACHE_PERSISTENT)
		d_make_discardable(d);
	wt_store_step(inode, i_flags, inode->i_flags | S_DEAD, "rmdir.S_DEAD");
	wt_history_inode(rec, inode);
	wt_history_inode(rec, n->dir);
	wt_history_commit(rec);
out:
	inode_unlock(inode);
	if (!err) {
		rec = wt_history_begin(w, "rmdir", "rmdir.d_delete", "%s", path);
		WT_OP_STEP("rmdir.d_delete", d);
		d_delete(d);
		wt_history_dentry(rec, d);
		wt_history_commit(rec);
	}
	iput(inode);
	return err;
}

int wt_op_rmdir(struct wt_world *w, const char *path)
{
	struct nameop n;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = nameop_begin(w, path, &rmdir_last, &n);
	if (!err)
		err = rmdir_locked(w, &n, path);
	nameop_end(&n);
	return writer_end(w, err);
}

/* ------------------------------------------------------------------ */
/* link                                                                 */

static int link_locked(struct wt_world *w, struct nameop *n,
		       const struct path *old, const char *oldpath,
		       const char *newpath)
{
	struct inode *inode = d_inode(old->dentry);
	struct wt_hist_rec *rec;
	struct dentry *d;
	int err = 0;

	/* do_linkat's order: the new name (filename_create, whose
	 * mnt_want_write comes last), the mount, then vfs_link's checks
	 * (may_create, then a directory's EPERM) */
	if (positive(n->d))
		return -EEXIST;
	if (n->last.trailing_slash)
		return -ENOENT;
	if (mnt_is_readonly(n->parent.mnt))
		return -EROFS;
	if (n->parent.mnt != old->mnt)
		return -EXDEV;
	if (n->dir->i_flags & S_DEAD)
		return -ENOENT;
	if (d_is_dir(old->dentry))
		return -EPERM;
	inode_lock(inode);
	if (inode->i_nlink == 0) {
		err = -ENOENT;	/* unlinked meanwhile, not I_LINKABLE */
		goto out;
	}
	d = name_dentry(n);
	if (!d) {
		err = -ENOMEM;
		goto out;
	}
	rec = wt_history_begin(w, "link", "link.d_instantiate", "%s %s",
			       oldpath, newpath);
	nlink_add(inode, 1);
	iget(inode);		/* the new name's reference */
	WT_OP_STEP("link.d_instantiate", d);
	instantiate(d, inode);
	wt_history_dentry(rec, d);
	wt_history_inode(rec, inode);
	wt_history_commit(rec);
out:
	inode_unlock(inode);
	return err;
}

int wt_op_link(struct wt_world *w, const char *oldpath, const char *newpath)
{
	struct path old;
	struct nameop n;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = wt_resolve(w, oldpath, 0, &old);
	if (err)
		return writer_end(w, err);
	err = nameop_begin(w, newpath, &create_last, &n);
	if (!err)
		err = link_locked(w, &n, &old, oldpath, newpath);
	nameop_end(&n);
	wt_path_put(&old);
	return writer_end(w, err);
}

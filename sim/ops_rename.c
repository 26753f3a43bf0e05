/* SPDX-License-Identifier: MIT */
/*
 * rename(2) with RENAME_NOREPLACE and RENAME_EXCHANGE: do_renameat2 and
 * vfs_rename's checks, shmem_rename2's link counts, and d_move (or
 * d_exchange) under write_seqlock(&rename_lock), which bumps the moved
 * dentry's d_seq and the replaced target's, never a parent's.
 */
#include <string.h>

#include "sim/atomic.h"
#include "sim/ops_internal.h"

struct side {
	struct path parent;
	struct wt_last last;
	struct inode *dir;
	struct dentry *d;
};

struct rename {
	struct wt_world *w;
	struct side old;
	struct side new;
	unsigned flags;
	bool locked_old;
	bool locked_new;
};

static void nlink_add(struct inode *inode, int n)
{
	WRITE_ONCE(inode->i_nlink, inode->i_nlink + (uint32_t)n);
}

/* lock_rename: one lock for one directory, else the ancestor first. */
static void lock_rename(struct rename *r)
{
	struct dentry *po = r->old.parent.dentry, *pn = r->new.parent.dentry;

	if (r->old.dir == r->new.dir) {
		inode_lock(r->old.dir);
		r->locked_old = true;
		return;
	}
	if (is_subdir(po, pn)) {
		inode_lock(r->new.dir);
		inode_lock(r->old.dir);
	} else {
		inode_lock(r->old.dir);
		inode_lock(r->new.dir);
	}
	r->locked_old = r->locked_new = true;
}

static void unlock_rename(struct rename *r)
{
	if (r->locked_new)
		inode_unlock(r->new.dir);
	if (r->locked_old)
		inode_unlock(r->old.dir);
}

static int resolve_sides(struct rename *r, const char *oldpath,
			 const char *newpath)
{
	int err = wt_resolve_parent(r->w, oldpath, &r->old.parent, &r->old.last);

	if (!err)
		err = wt_resolve_parent(r->w, newpath, &r->new.parent, &r->new.last);
	if (err)
		return err;
	if (r->old.parent.mnt != r->new.parent.mnt)
		return -EXDEV;
	if (r->old.last.type != WT_LAST_NORM)
		return -EBUSY;
	if (r->new.last.type != WT_LAST_NORM)
		return (r->flags & WT_RENAME_NOREPLACE) ? -EEXIST : -EBUSY;
	/* mnt_want_write, before either name is looked up */
	if (mnt_is_readonly(r->old.parent.mnt))
		return -EROFS;
	r->old.dir = d_inode(r->old.parent.dentry);
	r->new.dir = d_inode(r->new.parent.dentry);
	return 0;
}

static int lookup_sides(struct rename *r)
{
	struct side *o = &r->old, *n = &r->new;
	struct qstr q = QSTR_INIT(n->last.name, n->last.len);

	o->d = wt_lookup_one(r->w, o->parent.dentry, o->last.name, o->last.len);
	if (IS_ERR(o->d)) {
		int err = (int)PTR_ERR(o->d);

		o->d = NULL;
		return err;
	}
	if (!o->d || d_is_negative(o->d))
		return -ENOENT;
	n->d = wt_lookup_one(r->w, n->parent.dentry, n->last.name, n->last.len);
	if (IS_ERR(n->d)) {
		int err = (int)PTR_ERR(n->d);

		n->d = NULL;
		return err;
	}
	if (!n->d)	/* d_move needs a target: a fresh negative one */
		n->d = d_alloc(n->parent.dentry, &q);
	return n->d ? 0 : -ENOMEM;
}

/* do_renameat2's and vfs_rename's checks, in their order. */
static int rename_checks(struct rename *r)
{
	struct dentry *od = r->old.d, *nd = r->new.d;
	bool exchange = r->flags & WT_RENAME_EXCHANGE;
	bool new_pos = !d_is_negative(nd);
	bool is_dir = d_is_dir(od), new_dir = new_pos && d_is_dir(nd);

	if (!is_dir && (r->old.last.trailing_slash ||
			(!exchange && r->new.last.trailing_slash)))
		return -ENOTDIR;
	if (exchange && !new_pos)
		return -ENOENT;
	if (exchange && !new_dir && r->new.last.trailing_slash)
		return -ENOTDIR;
	if ((r->flags & WT_RENAME_NOREPLACE) && new_pos)
		return -EEXIST;
	/* lock_rename's trap: the source is an ancestor of the target */
	if (is_subdir(r->new.parent.dentry, od))
		return -EINVAL;
	if (new_pos && is_subdir(r->old.parent.dentry, nd))
		return exchange ? -EINVAL : -ENOTEMPTY;
	if (new_pos && d_inode(od) == d_inode(nd))
		return 1;	/* the same inode: nothing to do */
	if (!exchange && new_pos) {
		if (is_dir && !new_dir)
			return -ENOTDIR;
		if (!is_dir && new_dir)
			return -EISDIR;
		if (new_dir && !wt_dir_empty(nd))
			return -ENOTEMPTY;
	}
	if (d_mountpoint(od) || d_mountpoint(nd))
		return -EBUSY;	/* is_local_mountpoint */
	return 0;
}

/* shmem_rename2 / shmem_exchange: link counts and the replaced target. */
static void fs_rename(struct rename *r)
{
	struct dentry *od = r->old.d, *nd = r->new.d;
	struct inode *target = d_inode(nd);
	bool is_dir = d_is_dir(od), new_dir = target && d_is_dir(nd);
	bool cross = r->old.dir != r->new.dir;

	if (r->flags & WT_RENAME_EXCHANGE) {
		if (cross && is_dir != new_dir) {
			nlink_add(r->old.dir, is_dir ? -1 : 1);
			nlink_add(r->new.dir, is_dir ? 1 : -1);
		}
		return;
	}
	if (target) {
		if (new_dir) {
			WRITE_ONCE(target->i_nlink, 0);
			nlink_add(r->old.dir, -1);
			/* vfs_rename: a replaced directory is dead */
			wt_store_step(target, i_flags, target->i_flags | S_DEAD,
				      "rename.S_DEAD");
		} else {
			nlink_add(target, -1);
		}
		if (d_flags_load(nd) & DCACHE_PERSISTENT)
			d_make_discardable(nd);	/* shmem_unlink's dput */
	} else if (is_dir && cross) {
		nlink_add(r->old.dir, -1);
		nlink_add(r->new.dir, 1);
	}
}

static void rename_publish(struct rename *r, const char *oldpath,
			   const char *newpath)
{
	bool exchange = r->flags & WT_RENAME_EXCHANGE;
	struct inode *src = d_inode(r->old.d), *target = d_inode(r->new.d);
	struct wt_hist_rec *rec;

	if (target)
		iget(target);	/* logged after d_move: keep it */
	inode_lock(src);
	if (target)
		inode_lock(target);
	rec = wt_history_begin(r->w, exchange ? "rename_exchange" : "rename",
			       exchange ? "rename.d_exchange" : "rename.d_move",
			       "%s %s", oldpath, newpath);
	fs_rename(r);
	write_seqlock(&r->w->rename_lock);
	if (exchange) {
		WT_OP_STEP("rename.d_exchange", r->old.d);
		d_exchange(r->old.d, r->new.d);
	} else {
		WT_OP_STEP("rename.d_move", r->old.d);
		d_move(r->old.d, r->new.d);
	}
	write_sequnlock(&r->w->rename_lock);
	wt_history_dentry(rec, r->old.d);
	wt_history_dentry(rec, r->new.d);
	wt_history_inode(rec, src);
	wt_history_inode(rec, target);
	wt_history_inode(rec, r->old.dir);
	wt_history_inode(rec, r->new.dir);
	wt_history_commit(rec);
	if (target)
		inode_unlock(target);
	inode_unlock(src);
	if (target)
		iput(target);
}

static void rename_end(struct rename *r)
{
	if (r->new.d)
		dput(r->new.d);
	if (r->old.d)
		dput(r->old.d);
	unlock_rename(r);
	wt_path_put(&r->new.parent);
	wt_path_put(&r->old.parent);
}

int wt_op_rename(struct wt_world *w, const char *oldpath, const char *newpath,
		 unsigned flags)
{
	struct rename r;
	int err;

	if ((flags & WT_RENAME_EXCHANGE) && (flags & WT_RENAME_NOREPLACE))
		return -EINVAL;
	err = wt_writer_lock(w);
	if (err)
		return err;
	memset(&r, 0, sizeof(r));
	r.w = w;
	r.flags = flags;
	err = resolve_sides(&r, oldpath, newpath);
	if (!err) {
		lock_rename(&r);
		err = lookup_sides(&r);
	}
	if (!err)
		err = rename_checks(&r);
	if (!err)
		rename_publish(&r, oldpath, newpath);
	rename_end(&r);
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err > 0 ? 0 : err;
}

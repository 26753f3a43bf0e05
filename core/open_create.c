/* SPDX-License-Identifier: MIT */
/* O_CREAT through sim/ops: see open_create.h. */
#include <assert.h>
#include <string.h>

#include "core/open_create.h"
#include "sim/ops.h"
#include "sim/vfs/access.h"
#include "sim/vfs/dcache.h"
#include "sim/vfs/mount.h"

/* Prepend "/name" at *end (which walks back from the buffer's end). */
static int prepend(char *buf, char **end, const char *name, size_t len)
{
	if ((size_t)(*end - buf) < len + 1)
		return -ENAMETOOLONG;
	*end -= len;
	memcpy(*end, name, len);
	*--*end = '/';
	return 0;
}

/* One pass up from dir; the caller retries when a seqlock moved. */
static int dir_path_once(struct wt_world *w, const struct path *dir,
			 const struct path *root, char *buf, size_t size,
			 char **start)
{
	struct mount *mnt = real_mount(dir->mnt);
	struct dentry *d = dir->dentry;
	char *end = buf + size - 1;
	char name[NAME_MAX_LEN + 1];

	*end = '\0';
	for (unsigned hops = 0; hops < PATH_MAX_LEN; hops++) {
		struct dentry *parent;
		int err;

		/* the caller's root ends the name, as a chroot's does */
		if (root && d == root->dentry && &mnt->mnt == root->mnt)
			goto done;
		if (d == wt_load_acquire(mnt, mnt.mnt_root)) {
			struct mount *up = wt_load_acquire(mnt, mnt_parent);

			if (up == mnt)
				break;
			d = wt_load_acquire(mnt, mnt_mountpoint);
			mnt = up;
			continue;
		}
		parent = wt_load_acquire(d, d_parent);
		/*
		 * The object itself removed (d_unlinked: unhashed, not a
		 * root): d_path names it where it was, with " (deleted)"
		 * after; a removed directory above it cannot be (it was
		 * empty), a disconnected one has no name to give.
		 */
		if (!hops && parent != d && d_unhashed(d)) {
			static const char deleted[] = " (deleted)";

			if ((size_t)(end - buf) < sizeof(deleted))
				return -ENAMETOOLONG;
			end -= sizeof(deleted) - 1;
			memcpy(end, deleted, sizeof(deleted) - 1);
		} else if (parent == d || d_unhashed(d)) {
			return -ENOENT;	/* disconnected or removed */
		}
		d_name_copy(d, name, sizeof(name));
		err = prepend(buf, &end, name, strlen(name));
		if (err)
			return err;
		d = parent;
	}
	/* at the namespace root; a name outside the caller's root is given
	 * from here, as d_path gives it */
	if (mnt != w->root_mnt)
		return -ENOENT;	/* a lazily detached tree */
done:
	if (!*end && prepend(buf, &end, "", 0))
		return -ENAMETOOLONG;
	*start = end;
	return 0;
}

int wt_dir_path(struct wt_world *w, const struct path *dir,
		const struct path *root, char *buf, size_t size)
{
	for (unsigned tries = 0; tries < 1000; tries++) {
		unsigned mseq = read_seqbegin_at(&w->mount_lock, "dir_path.mount_lock");
		unsigned rseq = read_seqbegin_at(&w->rename_lock, "dir_path.rename_lock");
		char *start = NULL;
		int err = dir_path_once(w, dir, root, buf, size, &start);

		/*
		 * Validate the names and the mount chain we read: with either
		 * seqlock moved, a rename or a mount operation may have torn
		 * the path (a name from before, a parent from after), and the
		 * creation would land elsewhere.  Retry; no zoo bug here.
		 */
		if (read_seqretry_at(&w->mount_lock, mseq, "dir_path.mount_lock_retry") ||
		    read_seqretry_at(&w->rename_lock, rseq, "dir_path.rename_lock_retry"))
			continue;
		if (err)
			return err;
		memmove(buf, start, strlen(start) + 1);
		return 0;
	}
	return -EAGAIN;
}

int wt_open_create(struct wt_world *w, const struct path *dir,
		   const struct qstr *name, umode_t mode,
		   const struct cred *cred, struct dentry **made)
{
	assert(name->len > 0 && name->len <= NAME_MAX_LEN);
	assert(WT_S_ISREG(mode) || !(mode & WT_S_IFMT));
	/* vfs_create in the directory the walk holds, under its i_rwsem:
	 * never by a path rebuilt from names (which may lead elsewhere) */
	return wt_op_create_in(w, dir, name->name, name->len,
			       (umode_t)(mode & 07777), cred, made);
}

/* SPDX-License-Identifier: MIT */
/*
 * O_CREAT's creation of a file, through sim's writer API (sim/ops.h).
 *
 * The walk engine never builds VFS objects itself: the writer side owns
 * the publication protocol, the history log and the creating-path table.
 * The file is created as the kernel's lookup_open has vfs_create make it:
 * in the directory dentry the walk holds (nd->path), under that
 * directory's i_rwsem, which open_locked holds exclusive for O_CREAT --
 * so a mount over the directory's path or a lazy umount of its tree
 * changes nothing -- owned by the caller's fsuid:fsgid.
 * wt_op_create_in() instantiates the name's cached negative dentry (the
 * one lookup_open found or allocated).  One deviation is left: the
 * caller takes the positive dentry back with d_lookup (still under the
 * lock, still holding the one it made, which it goes on with only when
 * the name was dropped since) instead of keeping its own -- the one
 * d_lookup in the walk with no d_alloc_parallel behind it, which is
 * where d_lookup_no_rename_lock shows (scenarios/zoo/README.md).  Not
 * modelled either: the umask and a setgid directory's group
 * (inode_init_owner).
 */
#ifndef WT_CORE_OPEN_CREATE_H
#define WT_CORE_OPEN_CREATE_H

#include "sim/vfs/world.h"

/*
 * Create the regular file name (mode's permission bits) in the directory
 * dir (referenced; its i_rwsem held exclusive by the caller), owned by
 * cred's uid:gid.  0 when the name is positive afterwards, with *made
 * the dentry it was made in (referenced), or -errno.
 */
int wt_open_create(struct wt_world *w, const struct path *dir,
		   const struct qstr *name, umode_t mode,
		   const struct cred *cred, struct dentry **made);

/*
 * d_path into buf: the name of dir from root (a task's root; NULL: the
 * namespace root), or from the namespace root when dir is not under root.
 * dir itself removed (unlinked): its old name, then " (deleted)", as
 * d_path gives it.  0, -ENOENT (disconnected, or in a detached tree) or
 * -ENAMETOOLONG.
 * (walktorture lookup's display; no longer creation's.)
 */
int wt_dir_path(struct wt_world *w, const struct path *dir,
		const struct path *root, char *buf, size_t size);

#endif /* WT_CORE_OPEN_CREATE_H */

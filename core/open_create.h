/* SPDX-License-Identifier: MIT */
/*
 * O_CREAT's creation of a file, through sim's writer API (sim/ops.h).
 *
 * The walk engine never builds VFS objects itself: the writer side owns
 * the publication protocol, the history log and the creating-path table.
 * sim/ops offers path-level operations only, so the directory the open
 * reached is named by its path from the namespace root (a d_path over
 * dentries and mounts) and wt_op_create() is asked to create the name in
 * it.  Two consequences, both documented deviations from the kernel's
 * creation under the directory's i_rwsem: the creation is not atomic with
 * the walk's lookup of the negative name (the caller drops and retakes
 * i_rwsem around it and looks the name up again), and the new file is
 * owned by 0:0 (writers act as root).  A directory no longer reachable
 * from the namespace root (removed, lazily unmounted) answers -ENOENT.
 */
#ifndef WT_CORE_OPEN_CREATE_H
#define WT_CORE_OPEN_CREATE_H

#include "sim/vfs/world.h"

/*
 * Create the regular file name (mode's permission bits) in the directory
 * dir.  0 when the name exists afterwards (created now, or by someone
 * just before: the caller looks), or -errno.
 */
int wt_open_create(struct wt_world *w, const struct path *dir,
		   const struct qstr *name, umode_t mode);

/* d_path from the namespace root into buf: 0, -ENOENT (unreachable) or
 * -ENAMETOOLONG. */
int wt_dir_path(struct wt_world *w, const struct path *dir, char *buf,
		size_t size);

#endif /* WT_CORE_OPEN_CREATE_H */

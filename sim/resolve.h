/* SPDX-License-Identifier: MIT */
/*
 * The writers' path resolver: a plain REF-style walk for sim/ops.
 *
 * This is not the walk engine under test (core/ is): it runs under the
 * world's writer mutex, takes references as it goes (dget/mntget, like
 * REF-walk), never enters RCU mode and has no retry ladder.  It resolves
 * absolute paths (a relative one is taken from the root), follows every
 * intermediate symlink and the final one when asked (40 links at most:
 * ELOOP), crosses mounts to the top of each stack after every step
 * (including `..`, as step_into does), and handles `.` and `..` as
 * follow_dotdot does: at the root stay, at a mount root go to the
 * mountpoint first (choose_mountpoint), refuse a `..` that leaves a bind
 * mount's subtree (ENOENT).  Mounts on "/" itself are not crossed at the
 * start (path_init does not), only by a later `..`.  Automount points are
 * not triggered: a writer sees the autofs directory itself.  Magic links
 * jump (nd_jump_link).  Names are looked up with d_lookup, then, on a
 * miss, through the filesystem's ->lookup (d_alloc_parallel); a dentry
 * with d_revalidate is revalidated (LOOKUP_REVAL-free, REF mode) and
 * invalidated on 0.
 */
#ifndef WT_SIM_RESOLVE_H
#define WT_SIM_RESOLVE_H

#include <stdbool.h>

#include "sim/vfs/types.h"

#define WT_RES_FOLLOW		0x1	/* follow a trailing symlink */
#define WT_RES_DIRECTORY	0x2	/* the result must be a directory */
/* LOOKUP_MOUNTPOINT: cross what is mounted on the result even when the
 * last component is "/", "." or ".." (umount of a mount on the root) */
#define WT_RES_MOUNTPOINT	0x4

enum wt_last_type {
	WT_LAST_NORM,
	WT_LAST_ROOT,		/* the path was "/" */
	WT_LAST_DOT,
	WT_LAST_DOTDOT,
};

struct wt_last {
	enum wt_last_type type;
	bool trailing_slash;		/* "a/" : must be a directory */
	uint32_t len;
	char name[NAME_MAX_LEN + 1];
};

/* path_get / path_put */
void wt_path_get(const struct path *p);
void wt_path_put(struct path *p);

/* Resolve path; *out holds a reference on its mount and dentry (always
 * positive).  0 or -errno. */
int wt_resolve(struct wt_world *w, const char *path, unsigned flags,
	       struct path *out);
/* Resolve all but the last component (filename_parentat); *parent holds
 * references, the last component is in *last.  0 or -errno. */
int wt_resolve_parent(struct wt_world *w, const char *path,
		      struct path *parent, struct wt_last *last);
/*
 * Look name up in dir (a directory dentry with a reference held): the
 * dentry with a reference, positive or negative, or NULL when the
 * filesystem has no ->lookup and the dcache has no dentry (a miss there
 * is final: the name does not exist), or ERR_PTR.
 */
struct dentry *wt_lookup_one(struct wt_world *w, struct dentry *dir,
			     const char *name, uint32_t len);
/* Cross mounts at *p to the top of the stack (traverse_mounts). */
void wt_follow_mounts(struct path *p);

#endif /* WT_SIM_RESOLVE_H */

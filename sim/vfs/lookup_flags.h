/* SPDX-License-Identifier: MIT */
/*
 * LOOKUP_* flags, with the values of Linux 6.x include/linux/namei.h.
 *
 * They live in sim/ because the filesystems see them: d_revalidate and
 * ->lookup get the walk's flags (LOOKUP_RCU: answer without blocking or
 * say -ECHILD; LOOKUP_REVAL: revalidate strictly, refresh stale handles).
 * The walk engine (core/) owns their meaning otherwise.
 */
#ifndef WT_SIM_VFS_LOOKUP_FLAGS_H
#define WT_SIM_VFS_LOOKUP_FLAGS_H

/*
 * The values are the kernel's; they are written here as bit numbers and
 * grouped by who sets them.
 */

/* What the caller asks of the walk */
#define LOOKUP_FOLLOW		(1 << 0) /* a trailing symlink is followed */
#define LOOKUP_DIRECTORY	(1 << 1) /* the result must be a directory */
#define LOOKUP_AUTOMOUNT	(1 << 2) /* even a plain stat mounts */
#define LOOKUP_EMPTY		(1 << 14) /* "" is the start (AT_EMPTY_PATH) */
#define LOOKUP_DOWN		(1 << 15) /* first cross the start's mounts */
#define LOOKUP_MOUNTPOINT	(1 << 7) /* end atop the result's mounts */

/* The attempt's mode, which d_revalidate and ->lookup see */
#define LOOKUP_REVAL		(1 << 5) /* third attempt: trust no cache */
#define LOOKUP_RCU		(1 << 6) /* lockless: -ECHILD, not block */

/* The intent, set for the last component only */
#define LOOKUP_OPEN		(1 << 8) /* it is opened */
#define LOOKUP_CREATE		(1 << 9) /* it may be created */
#define LOOKUP_EXCL		(1 << 10) /* it must not exist yet */
#define LOOKUP_RENAME_TARGET	(1 << 11) /* it is what a rename replaces */

/* The walk's own: set while walking a component that is not the last */
#define LOOKUP_PARENT		(1 << 4)

/* openat2()'s RESOLVE_* flags, as the walk keeps them */
#define LOOKUP_NO_SYMLINKS	(1 << 16) /* any symlink: ELOOP */
#define LOOKUP_NO_MAGICLINKS	(1 << 17) /* a proc-style magic link: ELOOP */
#define LOOKUP_NO_XDEV		(1 << 18) /* any mount crossing: EXDEV */
#define LOOKUP_BENEATH		(1 << 19) /* leaving the dirfd's tree: EXDEV */
#define LOOKUP_IN_ROOT		(1 << 20) /* the dirfd is the walk's root */
#define LOOKUP_CACHED		(1 << 21) /* dcache only, never block: EAGAIN */
/* The two that make the dirfd the walk's boundary (nd->root). */
#define LOOKUP_IS_SCOPED	(LOOKUP_BENEATH | LOOKUP_IN_ROOT)

/* Older kernels' internal flags, kept for the walker's state. */
#define LOOKUP_JUMPED		(1 << 12)
#define LOOKUP_ROOT		(1 << 13)
#define LOOKUP_ROOT_GRABBED	(1 << 3)

#endif /* WT_SIM_VFS_LOOKUP_FLAGS_H */

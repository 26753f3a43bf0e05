/* SPDX-License-Identifier: MIT */
/*
 * Basic VFS types shared by every sim/vfs module: names, paths, modes,
 * credentials, errno helpers (ERR_PTR), container_of.
 */
#ifndef WT_SIM_VFS_TYPES_H
#define WT_SIM_VFS_TYPES_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE(ptr); }
static inline bool IS_ERR_OR_NULL(const void *ptr) { return !ptr || IS_ERR(ptr); }

/* errno the kernel has and libc does not define the same way */
#ifndef ECHILD
#error ECHILD
#endif
/* openat2/-EAGAIN, -ESTALE, -ECHILD, -EXDEV, -ELOOP all come from <errno.h>. */

#define NAME_MAX_LEN	255		/* a component: > 255 is ENAMETOOLONG */
#define PATH_MAX_LEN	4096		/* with the NUL: > 4095 bytes is ENAMETOOLONG */
#define DNAME_INLINE_LEN 32		/* names this long or longer are external */

typedef unsigned short umode_t;

/* File types in i_mode (the kernel's S_IF* values). */
#define WT_S_IFMT	0170000
#define WT_S_IFDIR	0040000
#define WT_S_IFREG	0100000
#define WT_S_IFLNK	0120000
#define WT_S_ISDIR(m)	(((m) & WT_S_IFMT) == WT_S_IFDIR)
#define WT_S_ISREG(m)	(((m) & WT_S_IFMT) == WT_S_IFREG)
#define WT_S_ISLNK(m)	(((m) & WT_S_IFMT) == WT_S_IFLNK)

/* The type word listings and `walktorture lookup' print for a mode. */
static inline const char *wt_mode_type_name(unsigned mode)
{
	if (WT_S_ISDIR(mode))
		return "dir";
	if (WT_S_ISREG(mode))
		return "file";
	if (WT_S_ISLNK(mode))
		return "symlink";
	return "other";
}

/* Permission masks (fs.h). */
#define MAY_EXEC	0x01
#define MAY_WRITE	0x02
#define MAY_READ	0x04
#define MAY_NOT_BLOCK	0x80	/* RCU-walk: a check that would sleep answers -ECHILD */

/*
 * A name with its hash, as the kernel's struct qstr (hash_len is folded
 * into hash + len here).  The hash is full_name_hash(): a deterministic
 * function of the bytes (salted per parent for the dcache bucket, by the
 * parent's id, never its address).
 */
struct qstr {
	uint32_t hash;
	uint32_t len;
	const char *name;
};

uint32_t full_name_hash(const char *name, uint32_t len);
static inline struct qstr QSTR_INIT(const char *name, uint32_t len)
{
	struct qstr q = { full_name_hash(name, len), len, name };
	return q;
}

#define WT_NGROUPS_MAX 8
struct cred {
	uint32_t uid;
	uint32_t gid;
	uint32_t ngroups;
	uint32_t groups[WT_NGROUPS_MAX];
	bool cap_dac_override;	/* root: bypass rwx bits (not x on non-dirs without any x) */
	bool cap_sys_ptrace;	/* root: proc's magic links of any process */
	/* The caller's process (thread group) as proc shows it, for proc's
	 * "is it us" tests (same_thread_group); 0: not a process in proc. */
	uint32_t tgid;
};

struct dentry;
struct inode;
struct mount;
struct vfsmount;
struct super_block;
struct wt_world;

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

static inline bool path_equal(const struct path *a, const struct path *b)
{
	return a->mnt == b->mnt && a->dentry == b->dentry;
}

#endif /* WT_SIM_VFS_TYPES_H */

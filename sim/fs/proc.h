/* SPDX-License-Identifier: MIT */
/*
 * proc: magic links, the /proc/PID/fd/N and /proc/PID/cwd kind.  A magic
 * link is a symlink inode (S_IFLNK, i_flags S_MAGICLINK) with no body:
 * its get_link, in REF mode, fills *jump with its target path (with
 * references) and returns NULL, and the walker does nd_jump_link; in RCU
 * mode (dentry NULL) it answers -ECHILD -- a jump cannot be validated
 * lazily.  The link holds references on its target (mount and dentry)
 * until its inode is evicted.
 */
#ifndef WT_SIM_FS_PROC_H
#define WT_SIM_FS_PROC_H

#include "sim/vfs/dcache.h"
#include "sim/vfs/inode.h"
#include "sim/vfs/mount.h"

/*
 * Create the magic link NAME in the root of proc super_block sb, aimed at
 * target (referenced here).  The caller holds the root's i_rwsem, as for
 * any creation.  The dentry is pinned (d_make_persistent).
 * 0, -EINVAL (not a proc sb), -EEXIST, -ENOMEM.  Not logged in the
 * history: the caller (a writer operation) logs the dentry and inode.
 */
int wt_proc_add_magic(struct super_block *sb, const char *name,
		      struct path target);
/*
 * A process as proc shows it: the directory PID in proc's root, owned by
 * uid:gid (mode 0555), with the magic links root, cwd and exe (when
 * exe.dentry is set) and the directory fd (0500) with one magic link per
 * open file; with self, also the symlink "self" -> "PID" in the root (a
 * plain link, as proc_self's is: its body is the caller's PID).  The
 * model has one such process per call, made once: what a chdir or an
 * open does later is not shown.  The caller holds sb's root i_rwsem.
 *
 * A non-dumpable process (prctl PR_SET_DUMPABLE 0, or a set-id change)
 * has its fd directory and links owned by root (task_dump_owner); its
 * PID directory, world-readable, stays the process's.
 *
 * Following one of its links is proc_pid_get_link's ptrace-style read
 * check (wt_proc_may_read), made before the jump: refused, EACCES.
 */
#define WT_PROC_MAX_FDS	8
struct wt_proc_task {
	uint32_t pid;
	uint32_t uid;			/* real, effective, saved and fs ids */
	uint32_t gid;
	bool nondumpable;
	struct path root;
	struct path cwd;
	struct path exe;		/* .dentry NULL: no exe link */
	unsigned nfds;
	struct {
		unsigned fd;
		struct path path;
	} fds[WT_PROC_MAX_FDS];
};

/* Called for each dentry made, with its name under proc ("PID/fd/3"). */
typedef void (*wt_proc_made_fn)(void *arg, struct dentry *d, const char *name);

/* 0, -EINVAL (not a proc sb, too many fds), -EEXIST (the PID or self
 * is there already), -ENOMEM.  On an error what was made stays. */
int wt_proc_add_task(struct super_block *sb, const struct wt_proc_task *t,
		     bool self, wt_proc_made_fn made, void *arg);

/* A magic link's target (no reference taken); false for other inodes. */
bool wt_proc_magic_target(const struct inode *inode, struct path *out);

/* The process a magic link belongs to; pid 0 for one of wt_proc_add_magic
 * (no process: no check). */
struct wt_proc_owner {
	uint32_t pid;
	uint32_t uid;
	uint32_t gid;
	bool nondumpable;
};

/* A magic link's process; false for other inodes. */
bool wt_proc_magic_owner(const struct inode *inode, struct wt_proc_owner *out);

/*
 * ptrace_may_access(PTRACE_MODE_READ_FSCREDS) as proc_fd_access_allowed
 * asks it, for a caller with cred: its own process always; else the same
 * uid and gid (the model's processes have one uid and one gid) and a
 * dumpable process; or CAP_SYS_PTRACE, which also passes the dumpable
 * test.  The model gives capabilities with uid 0, so the LSM's subset
 * test (the target's capabilities within the caller's) adds nothing.
 */
bool wt_proc_may_read(const struct cred *cred, const struct wt_proc_owner *t);

#endif /* WT_SIM_FS_PROC_H */

/* SPDX-License-Identifier: MIT */
/*
 * Namespace writer operations, and their publication-protocol table.
 *
 * Each operation takes the locks the kernel takes, bumps exactly the
 * seqcounts the kernel bumps, logs each visible step in the history at
 * its publication point, and returns 0 or -errno with the kernel's
 * errors.  Writers are serialised among themselves by the world's writer
 * mutex (they are not what is under test; walkers never take it; umount
 * lets go of it while it waits for its grace period, as the kernel's
 * namespace_unlock holds nothing then that other writers need) and
 * otherwise take the kernel's locks where readers care: i_rwsem of the
 * directories, rename_lock around d_move, namespace_sem and mount_lock
 * (lock_mount_hash) around every mount-tree change, d_lock inside the
 * dcache calls.  Writers act as root (no permission checks) and create
 * objects owned by 0:0 -- except wt_op_create_in, open(O_CREAT)'s
 * creation on a walker's behalf, which owns the file to the caller.
 *
 * Paths are resolved by sim/resolve (the writers' REF-style resolver, not
 * the walk engine under test).  Every operation may be called from a
 * simulated thread in the middle of a run as well as at build time; the
 * first call on a world sets the writer side up (wt_ops_init), which
 * must happen before simulated threads start.
 */
#ifndef WT_SIM_OPS_H
#define WT_SIM_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/vfs/types.h"

struct wt_history;
struct wt_world;

/* Set up the writer side of w (history with version 0 = w now, writer
 * mutex, creating-path table): idempotent; 0 or -ENOMEM. */
int wt_ops_init(struct wt_world *w);
/* Free it; call before wt_world_destroy. */
void wt_ops_fini(struct wt_world *w);
/* The same, with the history's storage kept from one world to the next
 * (sim/history.h, wt_history_retire): init_from uses spare (a retired
 * log; NULL: a new one), fini_keep returns w's log retired. */
int wt_ops_init_from(struct wt_world *w, struct wt_history *spare);
struct wt_history *wt_ops_fini_keep(struct wt_world *w);
/* A snapshot world's (sim/vfs/world.h): w's log, marked when the
 * snapshot was taken, is returned rewound to the mark (a marked spare
 * passed to init_from is retired first). */
struct wt_history *wt_ops_fini_rewind(struct wt_world *w);
/* World + writer side, and teardown of both (tests, CLI). */
struct wt_world *wt_ops_world_create(uint64_t seed);
/* The same with a root filesystem of type root_fs (NULL: "plain"). */
struct wt_world *wt_ops_world_create_fs(uint64_t seed, const char *root_fs);
void wt_ops_world_destroy(struct wt_world *w);

/* The errno name ("ENOENT"), or "E?" */
const char *wt_errno_name(int err);

/* --- names and files --- */
int wt_op_mkdir(struct wt_world *w, const char *path, umode_t mode, bool parents);
/* touch: create a regular file; an existing name is left alone (0). */
int wt_op_create(struct wt_world *w, const char *path, umode_t mode);
int wt_op_unlink(struct wt_world *w, const char *path);
int wt_op_rmdir(struct wt_world *w, const char *path);
int wt_op_symlink(struct wt_world *w, const char *target, const char *path);
int wt_op_link(struct wt_world *w, const char *oldpath, const char *newpath);
/*
 * open(O_CREAT)'s creation: lookup_open's vfs_create, not a writer verb.
 * Called by a walker with dir's i_rwsem held exclusive (open_locked), the
 * directory being the one the walk holds (dir: referenced by the caller),
 * so the name is made in that very directory whatever is mounted over
 * its path now or whether the tree is still attached.  Takes no writer
 * mutex (a writer holds it while it waits for i_rwsem: the inverse
 * order), as finish_automount logs without it.  The regular file gets
 * mode's permission bits and the owner cred->uid:cred->gid (fsuid,
 * fsgid).  0, or -ENOENT (dead directory), -EEXIST (the name is
 * positive: the caller saw it negative under the same lock, so never),
 * -ENOMEM, or the lookup's error.  On 0, *made (when made is not NULL)
 * is the dentry the file was instantiated in, referenced.
 */
int wt_op_create_in(struct wt_world *w, const struct path *dir,
		    const char *name, uint32_t len, umode_t mode,
		    const struct cred *cred, struct dentry **made);

#define WT_RENAME_NOREPLACE	0x1	/* the kernel's RENAME_NOREPLACE */
#define WT_RENAME_EXCHANGE	0x2	/* the kernel's RENAME_EXCHANGE */
int wt_op_rename(struct wt_world *w, const char *oldpath, const char *newpath,
		 unsigned flags);
/* chmod/chown follow a final symlink, as the syscalls do. */
int wt_op_chmod(struct wt_world *w, const char *path, umode_t mode);
int wt_op_chown(struct wt_world *w, const char *path, uint32_t uid, uint32_t gid);

/* --- mounts --- */
/* mount -t TYPE NAME PATH: a new super_block of type, mounted at path. */
int wt_op_mount(struct wt_world *w, const char *type, const char *name,
		const char *path);
/* The same with mount flags (MNT_NOSYMFOLLOW, MNT_NOEXEC, MNT_NOSUID,
 * MNT_NODEV of sim/vfs/mount.h: mount -o nosymfollow,noexec,...). */
int wt_op_mount_flags(struct wt_world *w, const char *type, const char *name,
		      const char *path, int mnt_flags);
/* mount --bind / --rbind SRC DST */
int wt_op_bind(struct wt_world *w, const char *src, const char *dst,
	       bool recursive);
/* The same, the new top mount getting set_flags too (mount --bind -o ro:
 * MNT_READONLY); a bind copies the source mount's flags either way. */
int wt_op_bind_flags(struct wt_world *w, const char *src, const char *dst,
		     bool recursive, int set_flags);
/* mount -o remount[,bind],ro|rw[,OPTS] PATH: PATH's mount (its root, or
 * EINVAL) gets exactly the MNT_* user flags in mnt_flags; without bind
 * the filesystem becomes read-only (MNT_READONLY in mnt_flags) or
 * writable as well. */
int wt_op_remount(struct wt_world *w, const char *path, bool bind,
		  int mnt_flags);
/* mount --move SRC DST */
int wt_op_move_mount(struct wt_world *w, const char *src, const char *dst);
#define WT_UMOUNT_DETACH	0x1	/* MNT_DETACH: lazy */
int wt_op_umount(struct wt_world *w, const char *path, unsigned flags);

/* --- the rest --- */
/* Drop every unused dentry (wt_dcache_shrink); returns how many (>= 0). */
int wt_op_shrink(struct wt_world *w);
/* A proc magic link NAME in the root of the proc fs mounted at procpath,
 * aimed at target (resolved, followed). */
int wt_op_proc_magic(struct wt_world *w, const char *procpath,
		     const char *name, const char *target);
/* A process (sim/fs/proc.h) in every proc instance of the world:
 * /proc/PID with root, cwd, exe and fd/N, and with self (the caller's
 * own process) self -> PID.  The number of proc instances (>= 0), or
 * -errno (-EEXIST: the PID is there already). */
struct wt_proc_task;
int wt_op_proc_task(struct wt_world *w, const struct wt_proc_task *t,
		    bool self);
/* The tree verb proc-task: a process given by paths, each resolved from
 * the namespace root as root, following links (root and cwd must be
 * directories; exe NULL: none).  0, or -errno with *bad saying what
 * failed: 0 the process itself (-EEXIST; -ENOENT: no proc mounted),
 * 1 root, 2 cwd, 3 exe, 4 + k the path of fds[k]. */
struct wt_process {
	uint32_t pid;
	uint32_t uid;
	uint32_t gid;
	bool nondumpable;
	const char *root;
	const char *cwd;
	const char *exe;
	unsigned nfds;
	struct {
		unsigned fd;
		const char *path;
	} fds[8];
};
int wt_op_process(struct wt_world *w, const struct wt_process *p,
		  unsigned *bad);
/* Server-side changes behind a remote fs's client (sim/fs/remote.h):
 * fspath is where it is mounted, paths are relative to its root. */
enum wt_remote_change {
	WT_REMOTE_CREATE,	/* a: path, mode */
	WT_REMOTE_MKDIR,	/* a: path, mode */
	WT_REMOTE_SYMLINK,	/* a: path, b: target */
	WT_REMOTE_UNLINK,	/* a: path */
	WT_REMOTE_RENAME,	/* a: from, b: to */
	WT_REMOTE_INVALIDATE,	/* a: path */
	WT_REMOTE_EXPIRE,	/* no argument */
};
int wt_op_remote(struct wt_world *w, enum wt_remote_change change,
		 const char *fspath, const char *a, const char *b, umode_t mode);
/* slowperm: forget an inode's ACL (the next RCU check blocks). */
int wt_op_acl_uncache(struct wt_world *w, const char *path);
/* autofs: make the daemon busy (d_manage blocks) or not. */
int wt_op_autofs_busy(struct wt_world *w, const char *fspath, bool busy);
/* remote: the client marks the inode at fspath/path bad (revalidation
 * answers 0, in RCU mode too); -EINVAL when not remote. */
int wt_op_remote_bad(struct wt_world *w, const char *fspath, const char *path);
/* remote: seen through overlayfs or not (a 0 from revalidation reaches
 * the walker as -ESTALE, in RCU mode too). */
int wt_op_remote_layer(struct wt_world *w, const char *fspath, bool on);
/* touch -h: path itself (not followed, not created) gets atime and mtime
 * now; a symlink then needs an atime update when next followed. */
int wt_op_touch_nofollow(struct wt_world *w, const char *path);

/* --- the creating path of each inode (walktorture lookup's "object") --- */
/*
 * The path the creating command used, normalised (duplicate and trailing
 * slashes removed): mkdir/touch/ln -s name their new inode; a hard link
 * keeps the first name; the root of a `mount -t` filesystem is
 * "fsroot:PATH"; the namespace root is "/".  NULL for an inode no writer
 * created (a remote lookup's, an automount's).
 */
const char *wt_inode_origin(const struct wt_world *w, uint64_t inode_id);
/* Successful sync umounts whose own final mntput was not the final put
 * (a walker stole it: the bug the MNT_SYNC_UMOUNT protocol prevents). */
uint64_t wt_ops_sync_umount_not_final(const struct wt_world *w);
/* How many writer operations succeeded so far. */
uint64_t wt_ops_done(const struct wt_world *w);

/* ------------------------------------------------------------------ */
/* The publication-protocol table                                       */

enum wt_op {
	WT_OP_MKDIR,
	WT_OP_CREATE,
	WT_OP_OPEN_CREATE,
	WT_OP_UNLINK,
	WT_OP_RMDIR,
	WT_OP_SYMLINK,
	WT_OP_LINK,
	WT_OP_RENAME,
	WT_OP_RENAME_EXCHANGE,
	WT_OP_CHMOD,
	WT_OP_CHOWN,
	WT_OP_MOUNT,
	WT_OP_BIND,
	WT_OP_RBIND,
	WT_OP_MOVE_MOUNT,
	WT_OP_UMOUNT,
	WT_OP_UMOUNT_LAZY,
	WT_OP_SHRINK,
	WT_OP_PROC_MAGIC,
	WT_OP_REMOTE,
	WT_OP_ACL_UNCACHE,
	WT_OP_AUTOFS_BUSY,
	WT_OP_REMOTE_BAD,
	WT_OP_REMOTE_LAYER,
	WT_OP_TOUCH_NOFOLLOW,
	WT_OP_REMOUNT,
	WT_OP__COUNT
};

/*
 * Symbolic seqcount targets: which counters an operation bumps, named by
 * their role for the operation's concrete arguments.  Nothing else may
 * move -- in particular never a parent's d_seq.
 */
#define WT_SEQ_CREATED_DENTRY	(1u << 0)	/* d_instantiate at the new name
						 * (a cached negative dentry, or a fresh one) */
#define WT_SEQ_VICTIM_DENTRY	(1u << 1)	/* d_delete: d_make_negative, or
						 * __d_drop when others hold it */
#define WT_SEQ_MOVED_DENTRY	(1u << 2)	/* d_move's dentry (both, exchange) */
#define WT_SEQ_TARGET_DENTRY	(1u << 3)	/* the dentry d_move replaces at
						 * the destination (negative or not) */
#define WT_SEQ_MOUNT_LOCK	(1u << 4)	/* write_seqlock(&mount_lock) */
#define WT_SEQ_RENAME_LOCK	(1u << 5)	/* write_seqlock(&rename_lock) */
#define WT_SEQ_KILLED_DENTRIES	(1u << 6)	/* shrink: each dentry it kills
						 * (invalidated, then freed) */

#define WT_OP_MAX_LOCKS		12
#define WT_OP_MAX_STORES	8
#define WT_OP_MAX_STEPS		4

struct wt_op_row {
	enum wt_op op;
	const char *name;			/* the verb */
	const char *locks[WT_OP_MAX_LOCKS];	/* in order taken; NULL ends */
	unsigned seqs;				/* WT_SEQ_* bumped */
	/* writer-step points (WT_K_OP_STEP) in the order the op hits them;
	 * a "*" suffix: once per mount of the tree; "?": only in some cases
	 * (see notes) */
	const char *stores[WT_OP_MAX_STORES];
	const char *publish[WT_OP_MAX_STEPS];	/* history step names, in order */
	const char *notes;
};

extern const struct wt_op_row wt_op_table[WT_OP__COUNT];
const struct wt_op_row *wt_op_row(enum wt_op op);
const struct wt_op_row *wt_op_row_by_name(const char *name);

#endif /* WT_SIM_OPS_H */

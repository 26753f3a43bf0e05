/* SPDX-License-Identifier: MIT */
/*
 * The history: the versioned log of every writer operation.
 *
 * What is logged.  The namespace is names -> inodes plus the mount tree.
 * Every writer operation (sim/ops) appends, at its publication point and
 * under its write-side locks, one entry per step that a reader can see:
 * mkdir is one entry (the d_instantiate), rename one (the d_move), rmdir
 * two (S_DEAD on the inode, then d_delete), mount one (the attach), umount
 * one (the detach).  finish_automount logs its attach the same way.  An
 * entry is a list of facts; each fact sets the whole state of one object
 * (a dentry, an inode, a mount or a super_block) as it is after the step.
 * Version 0 is the initial world (the root tmpfs).
 *
 * A remote filesystem's server is not the namespace, but the oracle
 * needs its truth: every step that changed the server's tree (the server
 * API, the client's changes mirrored there) logs the super_block, whose
 * fact then carries the tree's changes (server), and a remote inode's
 * fact the server node it names (handle).
 *
 * What is not logged.  Dentries that the VFS makes or drops on its own --
 * a ->lookup filling an in-lookup dentry (d_alloc_parallel), the negative
 * dentries a failed lookup leaves, a shrink or an invalidation unhashing an
 * unused dentry -- do not change names -> inodes, so they are no namespace
 * change.  A snapshot keeps a dropped dentry as it was last logged (hashed)
 * and knows nothing of a dentry that only a lookup made: dentry identity
 * for (parent, name) is whatever positive hashed dentry was logged there,
 * and the oracle matches a walker's dentry by inode where the dentry is
 * not recorded.  The first time a writer touches a dentry it has not
 * logged (a remote dentry a walker looked up, say), the commit logs it and
 * every unlogged ancestor with their inodes, so the snapshot stays a
 * connected tree.
 *
 * Versions.  A step reserves its version when it starts (before its first
 * store) and publishes it when it commits (after its last); commits are
 * published in version order.  A reader samples wt_history_version_start()
 * when a walk starts and wt_history_version_end() when it ends: every step
 * the walk may have seen is then within [start, end], never outside (the
 * window is never too narrow: start counts only published steps, end every
 * step already begun).  wt_history_version() is the last published one.
 *
 * Concurrency.  Appends come from writer ops (serialised by the world's
 * writer mutex), from a walker's open(O_CREAT) (under the directory's
 * i_rwsem) and from finish_automount (under namespace_sem and
 * mount_lock).  A step of the last two can be open while a writer's
 * begins and stores: versions are then not the order of their stores,
 * and begun_after says which steps overlapped (core/oracle_reorder.c
 * judges a walk in the orders that allows).  The log's own spinlock
 * orders the appends, taken only briefly, so
 * no lock order is imposed on the callers.  Rule for callers: between
 * begin and commit take only locks that no other appender holds while it
 * waits in its commit.  Entries up to wt_history_version() are immutable
 * and may be read concurrently with appends (the log is chunked, entries
 * never move).  truncate/reset run at quiescence with no snapshot alive.
 *
 * Memory: a run's log grows within an iteration; the runner calls
 * wt_history_reset() between iterations so memory stays bounded.
 *
 * Ownership: w->history belongs to the writer side.  wt_ops_init()
 * (sim/ops.h) creates it, wt_ops_fini() frees it before wt_world_destroy();
 * world.c only sets it to NULL.  Code outside sim/ops that logs (the VFS's
 * finish_automount) calls wt_history_begin(w, ...), which does nothing
 * while w->history is NULL.
 */
#ifndef WT_SIM_HISTORY_H
#define WT_SIM_HISTORY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/vfs/fsops.h"

struct dentry;
struct inode;
struct mount;
struct super_block;
struct wt_world;
struct wt_history;

enum wt_fact_kind {
	WT_FACT_DENTRY = 1,
	WT_FACT_INODE,
	WT_FACT_MOUNT,
	WT_FACT_SUPER,
};

/* dentry fact flags */
#define WT_DF_HASHED	0x01	/* on a hash chain: findable by name */
#define WT_DF_FSROOT	0x02	/* its super_block's s_root */
#define WT_DF_MOUNTED	0x04	/* DCACHE_MOUNTED */
#define WT_DF_AUTOMOUNT	0x08	/* DCACHE_NEED_AUTOMOUNT */

struct wt_dentry_fact {
	uint64_t id;
	uint64_t parent;	/* d_parent's id; the dentry's own for a root.
				 * An unhashed dentry keeps its last parent. */
	uint64_t inode;		/* 0: negative */
	uint64_t sb;
	uint32_t flags;		/* WT_DF_* */
	const char *name;	/* as stored (casefold keeps the case) */
};

struct wt_inode_fact {
	uint64_t id;
	uint64_t sb;
	uint32_t mode;		/* i_mode: type and permission bits */
	uint32_t uid;
	uint32_t gid;
	uint32_t nlink;
	uint32_t flags;		/* i_flags (S_DEAD, ...) */
	uint32_t generation;
	enum wt_fs_kind kind;
	const char *link;	/* symlink body, or NULL */
	uint64_t magic_mnt;	/* magic link target (mount id, dentry id), */
	uint64_t magic_dentry;	/* 0 when not a magic link */
	/* a magic link's process (proc's ptrace-style check): pid 0 when
	 * none; its uid and gid, and whether it is not dumpable */
	uint32_t task_pid;
	uint32_t task_uid;
	uint32_t task_gid;
	bool task_nondumpable;
	uint64_t handle;	/* remote: the server node it names, else 0 */
};

/* mount fact flags (beside the MNT_* flags, which go in mnt_flags) */
#define WT_MF_ATTACHED	0x01	/* in the namespace tree */
#define WT_MF_NSROOT	0x02	/* the namespace's root mount */

struct wt_mount_fact {
	uint64_t id;
	uint64_t parent;	/* mnt_parent's id; the mount's own when detached */
	uint64_t mountpoint;	/* mnt_mountpoint's dentry id */
	uint64_t root;		/* mnt_root's dentry id */
	uint64_t sb;
	uint64_t order;		/* stacking order: version of its attach */
	int mnt_flags;		/* MNT_* (MNT_UMOUNT, MNT_SYNC_UMOUNT, ...) */
	uint32_t flags;		/* WT_MF_* */
	const char *devname;
};

struct wt_super_fact {
	uint64_t id;
	uint64_t root;		/* s_root's dentry id */
	enum wt_fs_kind kind;
	const char *type;	/* "tmpfs", "remote", ... */
	const char *name;	/* the NAME of `mount -t TYPE NAME PATH` */
	/* remote: what changed on the server in this step (the lines of
	 * wt_remote_server_take, sim/fs/remote.h; a full listing in the
	 * initial entry and checkpoints), else NULL */
	const char *server;
	bool rdonly;		/* SB_RDONLY: read-only through every mount */
};

struct wt_fact {
	enum wt_fact_kind kind;
	union {
		struct wt_dentry_fact d;
		struct wt_inode_fact i;
		struct wt_mount_fact m;
		struct wt_super_fact s;
	};
};

static inline uint64_t wt_fact_id(const struct wt_fact *f)
{
	return f->d.id;	/* id is the first member of every variant */
}

struct wt_hist_entry {
	uint64_t version;
	/*
	 * The last version published when the step began (read after its
	 * reservation).  A step u with begun_after < v.version began while
	 * v was still open, so v's stores may have come after u's: the two
	 * were in flight at once, and their versions need not be the order
	 * of their effects (a walker's open(O_CREAT), which no writer mutex
	 * orders, beside a writer's step).  The oracle's reordering reads it
	 * (core/oracle_reorder.c).
	 */
	uint64_t begun_after;
	const char *op;		/* "mkdir", "rename", ... (static) */
	const char *step;	/* publication point: "rmdir.d_delete" (static) */
	const char *args;	/* the operation's arguments as text */
	uint32_t nfacts;
	struct wt_fact *facts;
};

/* --- life cycle (the writer side, sim/ops, calls these) --- */
/* A new log whose version 0 describes the world as it is now (the world
 * must be quiescent).  Returns NULL on ENOMEM. */
struct wt_history *wt_history_create(struct wt_world *w);
void wt_history_destroy(struct wt_history *h);
/*
 * Reuse across worlds (one per iteration): retire drops a log's entries
 * and its world but keeps its storage (the chunk table and the chunks,
 * zeroed: a small iteration then allocates no chunk); create_from makes
 * the log of a new world in a retired one (spare NULL: a new log).  A
 * retired log is quiescent and belongs to no world; destroy frees it.
 */
void wt_history_retire(struct wt_history *h);
struct wt_history *wt_history_create_from(struct wt_world *w,
					  struct wt_history *spare);

/*
 * A world restored from its snapshot (sim/vfs/world.h) takes its log
 * back to where the snapshot was taken: mark remembers the log as it is
 * now (quiescent: nothing between begin and commit), rewind drops every
 * entry after the mark and puts the known and creating-path tables and
 * the counters back as marked, with a fresh writer mutex and lock (an
 * abandoned iteration may have left them held).  The log keeps its world
 * pointer: the restored world is the same storage.  retire and destroy
 * drop the mark.
 */
void wt_history_mark(struct wt_history *h);
void wt_history_rewind(struct wt_history *h);
bool wt_history_marked(const struct wt_history *h);
/* The world came back under another seed (wt_world_restore): the remote
 * handles the entries up to the mark name -- inode facts' handles, super
 * facts' server lines -- become those that seed draws, as a build under
 * it would have logged them.  Nothing when not marked. */
void wt_history_reseed(struct wt_history *h, uint64_t seed);

/* --- appending --- */
struct wt_hist_rec;	/* one step being logged */

/*
 * Start a step: reserve its version.  op and step are static strings;
 * the arguments are printf-formatted.  Returns NULL when the world keeps
 * no history (every other call accepts NULL and does nothing).
 */
struct wt_hist_rec *wt_history_begin(struct wt_world *w, const char *op,
				     const char *step, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Name an object the step changed; its state is read at commit. */
void wt_history_dentry(struct wt_hist_rec *r, struct dentry *d);
void wt_history_inode(struct wt_hist_rec *r, struct inode *inode);
void wt_history_mount(struct wt_hist_rec *r, struct mount *m);
void wt_history_super(struct wt_hist_rec *r, struct super_block *sb);
/* Read the named objects' states, publish; returns the version. */
uint64_t wt_history_commit(struct wt_hist_rec *r);

/* --- reading --- */
/* The last published version (acquire). */
uint64_t wt_history_version(const struct wt_history *h);
/* A walk's window: sample start first, end last (see the header). */
uint64_t wt_history_version_start(const struct wt_history *h);
uint64_t wt_history_version_end(const struct wt_history *h);
/* The oldest version still in the log (0 until a truncate or reset). */
uint64_t wt_history_first(const struct wt_history *h);
/* A published entry, or NULL (not yet published, or truncated). */
const struct wt_hist_entry *wt_history_entry(const struct wt_history *h,
					     uint64_t version);
/* One line per entry: "VERSION OP STEP ARGS", then its facts. */
void wt_history_print(const struct wt_history *h, FILE *f, bool facts);
void wt_fact_print(const struct wt_fact *fact, FILE *f);

/* --- bounding memory (quiescent: no appender, no snapshot alive) --- */
/* Fold every entry up to version into one checkpoint entry at version. */
int wt_history_truncate(struct wt_history *h, uint64_t version);
/* Drop the log; the next version is a checkpoint of the live world. */
int wt_history_reset(struct wt_history *h);

#endif /* WT_SIM_HISTORY_H */

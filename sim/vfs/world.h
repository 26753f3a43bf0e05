/* SPDX-License-Identifier: MIT */
/*
 * The world: everything a run shares.  Dcache and mount hashes,
 * mount_lock and rename_lock, the RCU domain, the history log, the id
 * counter, the seed, and the zoo's selected bugs.  There is no global
 * mutable state outside this object and the scheduler's.
 */
#ifndef WT_SIM_VFS_WORLD_H
#define WT_SIM_VFS_WORLD_H

#include "sim/arena.h"
#include "sim/mutex.h"
#include "sim/seq.h"
#include "sim/vfs/dcache.h"
#include "sim/vfs/inode.h"
#include "sim/vfs/mount.h"
#include "sim/vfs/types.h"

struct wt_history;
struct wt_rcu_domain;
struct wt_world_snap;

struct wt_world_config {
	uint64_t seed;			/* initial d_seq values, server ids */
	uint32_t dcache_buckets;	/* >= 1; 1 forces every collision */
	uint32_t mount_buckets;		/* >= 1 */
	size_t quarantine_slots;	/* poisoned objects kept (0: free at once) */
	uint64_t bugs;			/* zoo variants (bit per enum wt_bug) */
	bool history;			/* keep the history log (default true) */
	/* the root filesystem's type name: NULL is "plain" (negative
	 * dentries stay cached); `walktorture lookup' asks for "tmpfs", to
	 * answer as a kernel tmpfs does */
	const char *root_fs;
	/* the objects come from an arena, so that the world can be
	 * snapshot and restored (wt_world_snapshot); only for a world used
	 * from one OS thread at a time (sim mode): the arena has no lock */
	bool arena;
};

void wt_world_config_default(struct wt_world_config *cfg);

struct wt_world {
	struct wt_world_config cfg;
	seqlock_t mount_lock;		/* mount hash, mnt_parent/mnt_mountpoint writers */
	seqlock_t rename_lock;		/* d_move */
	struct wt_mutex namespace_sem;	/* mount tree writers */
	spinlock_t dcache_lock;		/* writers of the dcache hash chains */
	struct dentry **dcache_hash;	/* heads; RCU */
	struct mount **mount_hash;	/* heads; RCU; written under mount_lock */
	uint64_t next_id;		/* object ids (atomic) */
	struct wt_rcu_domain *rcu;
	/* The writer side's (sim/ops wt_ops_init creates it, wt_ops_fini
	 * frees it); wt_world_create leaves it NULL. */
	struct wt_history *history;
	struct mount *root_mnt;		/* the namespace's root mount */
	/* Every live object, under list_lock (an object leaves its list when
	 * it dies, before its RCU free): the super_blocks (each with its
	 * inodes), the dentries, the mounts. */
	struct super_block *supers;
	struct dentry *dentries;
	struct mount *mounts;
	spinlock_t list_lock;		/* the three lists above */
	/* cfg.arena: where the objects are; spilled counts the objects
	 * that found it full and came from the heap */
	struct wt_arena arena;
	uint64_t spilled;
	struct wt_world_snap *snap;	/* wt_world_snapshot's, or NULL */
};

/* Build a world with a root filesystem ("rootfs"; cfg->root_fs) mounted
 * on itself at "/".
 * Bucket counts of 0 are taken as 1.  NULL on ENOMEM. */
struct wt_world *wt_world_create(const struct wt_world_config *cfg);
/* Free everything, live or waiting in RCU.  No simulated thread may still
 * use the world, and every RCU reader record made on w->rcu must have
 * been destroyed (wt_rcu_reader_destroy) first; w->history must be gone
 * (wt_ops_fini).  Also frees a retired world. */
void wt_world_destroy(struct wt_world *w);
/*
 * A run's worlds one after another: wt_world_retire frees what
 * wt_world_destroy frees but the world's own storage -- the struct, its
 * hash tables, the RCU domain and its quarantine ring -- and returns it
 * retired (every object gone, the domain reset); wt_world_create_from
 * builds the next world in it, exactly as wt_world_create would (spare
 * NULL, or of other sizes: a new one; the spare is consumed either
 * way).  Same conditions as wt_world_destroy.
 */
struct wt_world *wt_world_retire(struct wt_world *w);
struct wt_world *wt_world_create_from(const struct wt_world_config *cfg,
				      struct wt_world *spare);

/*
 * A run's worlds restored instead of built again.  Once the tree is
 * built (and the writer side set up), wt_world_snapshot copies the
 * world: the arena's objects (a remote filesystem's server and its
 * nodes among them), the struct, the hash tables and the RCU quarantine
 * (-1: not possible -- no arena, or something spilled to the heap; the
 * world is unchanged).  After the world is retired, wt_world_restore
 * makes it again from the copy, as wt_world_create_from and the same
 * build would have made it with cfg's seed: what was drawn from the
 * seed -- the seq values, the remote servers' handles -- is moved to the
 * new seed's, the rest is the copy's, ids included.  NULL when the spare
 * has no snapshot or cfg differs from the snapshot's in anything but the
 * seed; the spare is left as it was.  The writer side's log comes back
 * with the world's pointer to it: the caller rewinds it first
 * (wt_history_rewind); the restore moves the handles its entries up to
 * the mark name to the new seed's (wt_history_reseed).
 */
int wt_world_snapshot(struct wt_world *w);
struct wt_world *wt_world_restore(const struct wt_world_config *cfg,
				  struct wt_world *spare);

/* Zeroed memory for an object with a struct wt_obj header first: the
 * arena's (cfg.arena) or the heap's; wt_obj_free gives it back. */
void *wt_world_obj_alloc(struct wt_world *w, size_t size);
/* Zeroed memory without a header (a filesystem's private state: the
 * remote server's nodes and journal), from the same place; wt_world_free
 * gives it back (size: as allocated) -- the heap's to the heap, the
 * arena's poisoned until the arena is rewound, as wt_obj_free does. */
void *wt_world_zalloc(struct wt_world *w, size_t size);
void wt_world_free(struct wt_world *w, void *p, size_t size);

uint64_t wt_world_new_id(struct wt_world *w);
/* The initial d_seq of a new dentry: drawn from (seed, id), even. */
unsigned wt_world_initial_seq(const struct wt_world *w, uint64_t id);

/* Zoo bugs: sim/ and core/ test these bits; the catalogue is in core/. */
static inline bool wt_bug(const struct wt_world *w, unsigned bug)
{
	return (w->cfg.bugs >> bug) & 1;
}

/* The namespace root as a path (no reference taken). */
struct path wt_world_root(const struct wt_world *w);

/* A walker's or writer's task: credentials, root, cwd (referenced).
 * wt_task_init: uid 0 gets cap_dac_override and cap_sys_ptrace; root and
 * pwd are the namespace root, each with a mount and a dentry reference;
 * umask 022; cred.tgid 0 (no process in proc). */
struct wt_task {
	struct wt_world *world;
	struct cred cred;
	struct path root;
	struct path pwd;
	uint32_t umask;
};

void wt_task_init(struct wt_task *task, struct wt_world *w, uint32_t uid,
		  uint32_t gid);
void wt_task_release(struct wt_task *task);

#endif /* WT_SIM_VFS_WORLD_H */

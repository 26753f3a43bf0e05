/* SPDX-License-Identifier: MIT */
/*
 * remote: an NFS-like filesystem with a server behind the client's
 * dcache.  The model is described at the top of sim/fs/remote.c.
 *
 * The server API changes the server's truth behind the client's back
 * (what another client, or the server's own admin, would do).  Paths are
 * relative to the filesystem's root ("a/b" or "/a/b"; "" is the root).
 * Each change expires every cached client entry (the next RCU-walk
 * revalidation answers -ECHILD, the next REF-walk one asks the server).
 * Each returns 0 or -errno: -EINVAL (not a remote super_block, or a
 * rename into its own subtree), -ENOENT, -ENOTDIR, -EEXIST, -EBUSY (the
 * root), -ENOMEM.
 */
#ifndef WT_SIM_FS_REMOTE_H
#define WT_SIM_FS_REMOTE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/vfs/mount.h"
#include "sim/vfs/types.h"

/* A new object (mode carries the type: WT_S_IFDIR | 0755, ...). */
int wt_remote_server_create(struct super_block *sb, const char *path,
			    umode_t mode);
/* A new symlink; the client sees it with S_LINK_UNCACHED. */
int wt_remote_server_symlink(struct super_block *sb, const char *path,
			     const char *target);
/* Delete an object and everything under it: its handles go stale. */
int wt_remote_server_unlink(struct super_block *sb, const char *path);
/* Move from to to, replacing (deleting) what was at to. */
int wt_remote_server_rename(struct super_block *sb, const char *from,
			    const char *to);
/* Bump the object's generation: same handle, new object -- the client's
 * handle for it is stale (-ESTALE until a LOOKUP_REVAL walk). */
int wt_remote_server_invalidate(struct super_block *sb, const char *path);
/* Expire the client's whole cache (attribute timeouts all passed). */
void wt_remote_expire(struct super_block *sb);

/* Mount options. */
#define WT_REMOTE_ALWAYS_REVAL	0x1	/* lookupcache=none: every
					 * revalidation asks the server */
#define WT_REMOTE_OVL_LAYER	0x2	/* seen through overlayfs: d_revalidate's
					 * 0 reaches the walker as -ESTALE
					 * (ovl_revalidate_real), RCU mode too */
int wt_remote_set_options(struct super_block *sb, unsigned options);
/* Turn one option on or off, keeping the others. */
int wt_remote_option(struct super_block *sb, unsigned option, bool on);

/* The client marks its inode bad, as NFS's make_bad_inode or FUSE's
 * fuse_make_bad do when a reply shows the handle naming an object of
 * another type: every dentry of it then revalidates to 0 (RCU mode too),
 * and the next lookup makes a new inode.  -EINVAL if not remote. */
int wt_remote_make_bad(struct inode *inode);

/*
 * The server's tree for the history (sim/history.h's super_block fact),
 * so that the oracle knows what the server held at each instant.  Lines:
 * "+H P LEN NAME" -- node H is named NAME (LEN bytes) in node P (0: the
 * root), made or moved there -- and "-H" -- H is deleted.  full: "=" (the
 * replay starts afresh) and every live node, parents first; else the
 * changes since the last take up to the last that belongs to a step of
 * version <= version, in the order the server made them, which it
 * drops.  A change belongs to the history record its thread had open
 * (wt_thread.hist_version), or to none, which any take takes: a
 * walker's open(O_CREAT) changes the server without the writer mutex,
 * and a writer's step whose record was open then must not log that
 * change as its own when it came after the writer's last (the oracle
 * would date it to the writer's version, before the walker's own
 * lookup).  A later step's change made before the step's last is taken
 * with it: the lines' order is the server's, and a line "|" between
 * two steps' changes says that the server stood, for an instant, as the
 * lines before it leave it (a client may have asked it then).  NULL
 * when there is nothing (not remote, no change).  malloc'd.  Called by
 * the history's commits, which run in version order, or at quiescence.
 */
char *wt_remote_server_take(struct super_block *sb, bool full,
			    uint64_t version);
/* Are changes of a step of version <= version waiting for a take? */
bool wt_remote_server_pending(const struct super_block *sb,
			      uint64_t version);
/* The handle of the server node the client inode names (0: none). */
uint64_t wt_remote_inode_handle(const struct inode *inode);

/*
 * A world restored from its snapshot under another seed
 * (wt_world_restore): the server's handles -- the nodes', and those in
 * the changes not taken yet -- become those a build under seed draws.
 * Nothing when sb is not remote.
 */
void wt_remote_reseed(struct super_block *sb, uint64_t seed);
/* What the history logged before such a restore, made the new seed's:
 * handle, as the server of super_block sb_id drew it under seed from,
 * as it draws it under seed to (0 stays 0); server lines (the format
 * above) with each handle so moved, malloc'd. */
uint64_t wt_remote_handle_reseed(uint64_t handle, uint64_t sb_id,
				 uint64_t from, uint64_t to);
char *wt_remote_lines_reseed(const char *lines, uint64_t sb_id,
			     uint64_t from, uint64_t to);

/* How many times the client asked the server (statistics, tests). */
uint64_t wt_remote_server_asks(const struct super_block *sb);
/* Does the client's inode hold a stale handle now? (tests, oracle) */
bool wt_remote_inode_stale(struct inode *inode);

#endif /* WT_SIM_FS_REMOTE_H */

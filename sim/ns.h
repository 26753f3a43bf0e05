/* SPDX-License-Identifier: MIT */
/*
 * Namespace snapshots: the namespace as it was at a version, rebuilt from
 * the history (sim/history.h), for the oracle.
 *
 * A snapshot is the latest fact of every object logged up to its version.
 * It keeps what a walker can still stand in: dead directories (S_DEAD),
 * unhashed dentries (each keeps its last parent and name, so `..` from a
 * removed directory still reaches its old parent), lazily detached mounts
 * and their subtrees (by id: a detached mount keeps its root).  Lookups by
 * name see hashed dentries only, positive or negative, folding ASCII case
 * on casefold super_blocks as the casefold d_hash/d_compare do.
 *
 * Facts returned point into the history (or into the snapshot for one
 * made from the live world) and stay valid while the snapshot lives and
 * the history is not truncated.  A snapshot is single-threaded; several
 * may be built from one history concurrently with appends (only published
 * entries are read).
 */
#ifndef WT_SIM_NS_H
#define WT_SIM_NS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/history.h"

struct wt_ns;
struct wt_world;

/* The namespace at version (first <= version <= published), or NULL.
 * At or past a marked log's mark (wt_history_mark) it starts from a copy
 * of the namespace the mark kept, not from the first entry. */
struct wt_ns *wt_ns_create(const struct wt_history *h, uint64_t version);
/* The live world, captured now (quiescent, or under the writer mutex). */
struct wt_ns *wt_ns_from_world(struct wt_world *w);
void wt_ns_destroy(struct wt_ns *ns);

uint64_t wt_ns_version(const struct wt_ns *ns);
/* Apply the next published entry: 0, or -EAGAIN when there is none. */
int wt_ns_advance(struct wt_ns *ns);
/* Apply entries up to version: 0, -EAGAIN (not published yet) or
 * -EINVAL (version is behind the snapshot). */
int wt_ns_advance_to(struct wt_ns *ns, uint64_t version);

/*
 * A snapshot of the log in another order: entry moved applied right
 * after entry after (moved < after) instead of before those between, as
 * when a step's stores came after those of steps that began while it
 * was open (history.h, begun_after).  Its version is a position in that
 * order: at position p the entries applied are those the log's order
 * applies at p, except that from moved to after - 1 they are the ones
 * up to p + 1 but moved.  From after on the two orders agree.  It
 * starts at version (< moved) and advances as any other.
 */
struct wt_ns *wt_ns_create_moved(const struct wt_history *h, uint64_t version,
				 uint64_t moved, uint64_t after);
/* The version of the entry a snapshot applies as its position pos: pos
 * itself but in a moved snapshot's span. */
uint64_t wt_ns_entry_version(const struct wt_ns *ns, uint64_t pos);

/*
 * A peek: the namespace near a marked log's mark (wt_history_mark)
 * without a snapshot -- the mark's namespace and the entries past it,
 * at most WT_NS_PEEK_MAX of them, read from the log with the very loads
 * wt_ns_create and wt_ns_advance_to make (under memory=tso a load of
 * the published version is counted, stale or not, as any other).  For
 * a few look-ups near the mark, where a snapshot's copy would be most
 * of the cost.
 */
#define WT_NS_PEEK_MAX	8u

struct wt_ns_peek {
	const struct wt_history *h;
	uint64_t version;
	unsigned n;
	const struct wt_hist_entry *e[WT_NS_PEEK_MAX];	/* past the mark */
	/* bit (id % 64) of each fact of e[i]: a look-up skips the entries
	 * that cannot hold its id */
	uint64_t ids[WT_NS_PEEK_MAX];
};

/* As wt_ns_create(h, version): 0; -E2BIG, having read nothing, when a
 * peek cannot be at version (make the snapshot); -EINVAL or -EAGAIN
 * when wt_ns_create would fail. */
int wt_ns_peek_start(struct wt_ns_peek *p, const struct wt_history *h,
		     uint64_t version);
/* As wt_ns_advance_to: 0, -EAGAIN, -EINVAL; -E2BIG, having read no
 * entry past p's version, when a peek cannot go that far
 * (wt_ns_peek_snapshot, then wt_ns_advance_to). */
int wt_ns_peek_advance_to(struct wt_ns_peek *p, uint64_t version);
/* The fact a snapshot at p's version holds for id, of any kind (NULL:
 * never logged). */
const struct wt_fact *wt_ns_peek_fact(const struct wt_ns_peek *p, uint64_t id);
/* The snapshot at p's version, reading nothing of the log; NULL on
 * ENOMEM. */
struct wt_ns *wt_ns_peek_snapshot(const struct wt_ns_peek *p);

/* State by id (NULL: never logged). */
const struct wt_dentry_fact *wt_ns_dentry(const struct wt_ns *ns, uint64_t id);
const struct wt_inode_fact *wt_ns_inode(const struct wt_ns *ns, uint64_t id);
const struct wt_mount_fact *wt_ns_mount(const struct wt_ns *ns, uint64_t id);
const struct wt_super_fact *wt_ns_super(const struct wt_ns *ns, uint64_t id);
/* The inode of a dentry (NULL: negative or unknown). */
const struct wt_inode_fact *wt_ns_dentry_inode(const struct wt_ns *ns,
					       uint64_t dentry_id);

/*
 * The hashed child of directory dentry dir named name[0..len) (positive
 * or negative), or NULL when the namespace has no dentry there.  Dot and
 * dot-dot are not names: the caller handles them (wt_ns_mount_parent,
 * dentry->parent).
 */
const struct wt_dentry_fact *wt_ns_child(const struct wt_ns *ns, uint64_t dir,
					 const char *name, size_t len);

/* The topmost attached mount directly at (mnt, dentry), or NULL. */
const struct wt_mount_fact *wt_ns_mount_at(const struct wt_ns *ns, uint64_t mnt,
					   uint64_t dentry);
/*
 * Follow mounts from (*mnt, *dentry) to the top of the stack, as
 * traverse_mounts does: while something is mounted there, step to its
 * root.  Returns how many mounts were crossed.
 */
unsigned wt_ns_follow_mounts(const struct wt_ns *ns, uint64_t *mnt,
			     uint64_t *dentry);
/* The namespace's root mount id. */
uint64_t wt_ns_root_mount(const struct wt_ns *ns);
/* A mount's parent, mountpoint and root (0 when the mount is unknown). */
uint64_t wt_ns_mount_parent(const struct wt_ns *ns, uint64_t mnt);
uint64_t wt_ns_mount_mountpoint(const struct wt_ns *ns, uint64_t mnt);
uint64_t wt_ns_mount_root(const struct wt_ns *ns, uint64_t mnt);
/*
 * path_connected: is dentry inside the subtree of m's root (is_subdir)?
 * Always true for a mount of its filesystem's root; false for a dentry
 * cut off from the tree.
 */
bool wt_ns_connected(const struct wt_ns *ns, const struct wt_mount_fact *m,
		     uint64_t dentry);

/*
 * The canonical namespace listing: one "mount PATH TYPE NAME FLAGS" line
 * per attached mount (sorted by path, then stacking, bottom first), then
 * one "PATH inode=ID TYPE MODE UID:GID [-> TARGET]" line per dentry
 * reachable from the root through attached mounts (sorted by path).
 * Deterministic, no addresses; wt_world_dump prints the live world the
 * same way.  Bytes outside printable ASCII, space and backslash are
 * escaped as \xHH.
 */
void wt_ns_dump(const struct wt_ns *ns, FILE *f);
/* Listing of the live world (takes the writer mutex when w has one). */
void wt_world_dump(struct wt_world *w, FILE *f);
/* The same into a malloc'd string (for tests); NULL on ENOMEM. */
char *wt_ns_dump_string(const struct wt_ns *ns);
char *wt_world_dump_string(struct wt_world *w);

#endif /* WT_SIM_NS_H */

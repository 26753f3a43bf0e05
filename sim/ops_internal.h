/* SPDX-License-Identifier: MIT */
/* What the sim/ops*.c files share. */
#ifndef WT_SIM_OPS_INTERNAL_H
#define WT_SIM_OPS_INTERNAL_H

#include "sim/history_internal.h"
#include "sim/ops.h"
#include "sim/resolve.h"
#include "sim/vfs/dcache.h"
#include "sim/vfs/inode.h"
#include "sim/vfs/mount.h"
#include "sim/vfs/world.h"

/* Take the world's writer mutex (setting the writer side up on first use);
 * -ENOMEM when it cannot be set up. */
int wt_writer_lock(struct wt_world *w);
void wt_writer_unlock(struct wt_world *w);
/* Count a successful operation (writer mutex held). */
void wt_writer_done(struct wt_world *w);

/* Record inode's creating path (normalised copy of path, with prefix). */
void wt_origin_set(struct wt_world *w, const struct inode *inode,
		   const char *prefix, const char *path, size_t len);

/* simple_empty: no positive hashed child (rmdir, rename over a dir). */
bool wt_dir_empty(struct dentry *d);

/* An in-memory fs pins what it creates (d_make_persistent). */
static inline bool wt_sb_in_memory(const struct super_block *sb)
{
	return sb->s_type->kind != WT_FS_REMOTE;
}

/*
 * A named writer step with no store of ours behind it: the point just
 * before a publication the VFS performs (d_instantiate, d_delete, d_move),
 * so a schedule can stop the writer right there.  name must be a literal.
 */
#define WT_OP_STEP(name, obj)						\
	WT_HOOK(WT_K_OP_STEP, (name), NULL, "writer step: " name, (obj))

/* inode_lock / inode_unlock on i_rwsem */
#define inode_lock(i)	mutex_lock(&(i)->i_rwsem)
#define inode_unlock(i)	mutex_unlock(&(i)->i_rwsem)

#endif /* WT_SIM_OPS_INTERNAL_H */

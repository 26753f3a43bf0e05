/* SPDX-License-Identifier: MIT */
/*
 * autofs: automount points.  Every directory created directly in an
 * autofs root is a trigger (DCACHE_NEED_AUTOMOUNT | DCACHE_MANAGE_TRANSIT,
 * set by the type's instantiate hook); wt_autofs_set_trigger() makes any
 * other directory one, or stops one being one.
 *
 * d_automount(path) makes a new tmpfs super_block and mount (devname
 * "autofs:NAME") and returns it with one reference, for the walker's
 * finish_automount.  d_manage(path, rcu_walk) answers 0, unless the
 * daemon is busy (wt_autofs_set_busy): then -ECHILD in RCU-walk (waiting
 * for the daemon sleeps) and, in REF-walk, 0 after a sleeping call.
 */
#ifndef WT_SIM_FS_AUTOFS_H
#define WT_SIM_FS_AUTOFS_H

#include "sim/vfs/dcache.h"
#include "sim/vfs/mount.h"

void wt_autofs_set_trigger(struct dentry *d, bool on);
/* 0, or -EINVAL when sb is not autofs. */
int wt_autofs_set_busy(struct super_block *sb, bool busy);
/* How many automounts d_automount made on sb. */
unsigned wt_autofs_automounts(const struct super_block *sb);

#endif /* WT_SIM_FS_AUTOFS_H */

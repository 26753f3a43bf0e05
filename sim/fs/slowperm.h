/* SPDX-License-Identifier: MIT */
/*
 * slowperm: a filesystem whose permission() must sometimes block (an ACL
 * not in memory, as on a network filesystem or with a security hook).
 *
 * Every inode starts with S_ACL_UNCACHED.  permission() with
 * MAY_NOT_BLOCK (RCU-walk's may_lookup) answers -ECHILD while it is set;
 * without, it "fetches" the ACL -- a sleeping call (wt_might_sleep), so
 * doing it inside an RCU section is reported -- clears the flag and then
 * answers with generic_permission().  Once fetched, RCU-walk passes.
 */
#ifndef WT_SIM_FS_SLOWPERM_H
#define WT_SIM_FS_SLOWPERM_H

#include "sim/vfs/inode.h"

/* Forget inode's ACL: the next MAY_NOT_BLOCK check answers -ECHILD. */
void wt_slowperm_uncache(struct inode *inode);

#endif /* WT_SIM_FS_SLOWPERM_H */

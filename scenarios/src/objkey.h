/* SPDX-License-Identifier: MIT */
/*
 * The object key of a walk failure: the walk's steps name objects by id
 * ("m4/d5/i6": mount, dentry, inode); the key says what each one was at
 * the failing instant -- its path and its filesystem -- from the
 * oracle's history, as the namespace stood at the end of the walk's
 * final attempt (its version_end).
 *
 *	[ { "id": "m4", "path": "/m", "fs": "tmpfs t", "note": "mount" },
 *	  { "id": "d5", "path": "/m/d", "fs": "tmpfs t", "note": "dentry" },
 *	  { "id": "i6", "path": "/m/d", "fs": "tmpfs t", "note": "dir" }, ... ]
 *
 * A dentry's path is taken through the mount the step named with it; a
 * mount's path is its mountpoint's.  What the history cannot place
 * (never logged, detached, unhashed, cut off) says so in "note" and has
 * the last path known, or none.  Bounded: at most WT_OBJKEY_MAX objects,
 * in order of first appearance.
 */
#ifndef WT_SCENARIOS_OBJKEY_H
#define WT_SCENARIOS_OBJKEY_H

#include <jansson.h>

#include "core/record.h"
#include "sim/history.h"

#define WT_OBJKEY_MAX	48

/* The key of r's objects in history h (NULL: an empty array). */
json_t *wt_scn_objects_json(const struct wt_history *h,
			    const struct wt_record *r);

#endif /* WT_SCENARIOS_OBJKEY_H */

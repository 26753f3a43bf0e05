/* SPDX-License-Identifier: MIT */
/*
 * The object header every shared VFS object starts with (dentry, inode,
 * mount, super_block, external name).  It carries the object's stable id
 * (hashes and traces use ids, never addresses, so runs do not depend on
 * the allocator) and its life state: when an object is freed after its
 * grace period it is poisoned -- filled with WT_POISON_BYTE and marked
 * WT_OBJ_FREED -- and kept in quarantine, so that a reader that still
 * touches it is caught by wt_obj_check() at the access, with the object
 * and the point, instead of reading reused memory.
 */
#ifndef WT_SIM_OBJ_H
#define WT_SIM_OBJ_H

#include <stdint.h>

#define WT_OBJ_LIVE	0x4c495645u	/* "LIVE" */
#define WT_OBJ_FREED	0x6b6b6b6bu	/* matches the poison fill */
#define WT_POISON_BYTE	0x6b

enum wt_obj_type {
	WT_OBJ_NONE,
	WT_OBJ_DENTRY,
	WT_OBJ_INODE,
	WT_OBJ_MOUNT,
	WT_OBJ_SUPER,
	WT_OBJ_NAME,		/* an external (long) dentry name */
	WT_OBJ_LINK,		/* a symlink body */
	WT_OBJ_OTHER,
	WT_OBJ__COUNT
};

struct wt_obj {
	uint32_t magic;		/* WT_OBJ_LIVE, or WT_OBJ_FREED once poisoned */
	uint16_t type;		/* enum wt_obj_type */
	uint16_t pad;
	uint64_t id;		/* stable, world-unique */
};

const char *wt_obj_type_name(enum wt_obj_type type);

static inline void wt_obj_init(struct wt_obj *o, enum wt_obj_type type,
			       uint64_t id)
{
	o->magic = WT_OBJ_LIVE;
	o->type = (uint16_t)type;
	o->pad = 0;
	o->id = id;
}

#endif /* WT_SIM_OBJ_H */

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
#include <stdlib.h>

#ifdef WT_ASAN
#include <sanitizer/asan_interface.h>
#endif

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

/* wt_obj.flags */
#define WT_OBJ_F_ARENA	0x1	/* in the world's arena (sim/arena.h) */

struct wt_obj {
	uint32_t magic;		/* WT_OBJ_LIVE, or WT_OBJ_FREED once poisoned */
	uint16_t type;		/* enum wt_obj_type */
	uint16_t flags;		/* WT_OBJ_F_*: where the memory came from */
	uint64_t id;		/* stable, world-unique */
};

const char *wt_obj_type_name(enum wt_obj_type type);

/* o's memory came zeroed from wt_world_obj_alloc, which may have set
 * flags already: they are kept. */
static inline void wt_obj_init(struct wt_obj *o, enum wt_obj_type type,
			       uint64_t id)
{
	o->magic = WT_OBJ_LIVE;
	o->type = (uint16_t)type;
	o->id = id;
}

/*
 * Give back an object's memory (size bytes): the heap's goes back to
 * the heap; the arena's stays until the arena is rewound (sim/arena.h),
 * and under ASan it is marked unaddressable as freed heap memory would
 * be.  The header is read before anything else: it survives the poison.
 */
static inline void wt_obj_free(struct wt_obj *o, size_t size)
{
	if (!o)
		return;
	if (!(o->flags & WT_OBJ_F_ARENA)) {
		free(o);
		return;
	}
#ifdef WT_ASAN
	__asan_poison_memory_region(o, size);
#else
	(void)size;
#endif
}

#endif /* WT_SIM_OBJ_H */

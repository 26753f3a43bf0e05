/* SPDX-License-Identifier: MIT */
/*
 * A bump allocator over one reserved region, for the world's objects
 * when the world is to be snapshot and restored (sim/vfs/world.h): every
 * object of the world then lies in [base, base + used), so a copy of
 * that range taken after the tree is built, written back before each
 * iteration, restores every object at once -- pointers included, as the
 * region never moves.
 *
 * Nothing is freed one by one: a free is a no-op until the arena is
 * rewound, which frees everything above the mark at once.  Memory so
 * never goes back within an iteration, and a freed object keeps its
 * poison (sim/obj.h) until the rewind: a stale reader reads poison,
 * never another object.  The region is reserved, not committed (only
 * the pages touched cost memory); when it is full, zalloc returns NULL
 * and the caller falls back to the heap.
 */
#ifndef WT_SIM_ARENA_H
#define WT_SIM_ARENA_H

#include <stdbool.h>
#include <stddef.h>

struct wt_arena {
	char *base;		/* NULL: no region (reserve failed or none) */
	size_t cap;
	size_t used;
};

/* Reserve cap bytes; 0, or -1 (then every zalloc returns NULL). */
int wt_arena_init(struct wt_arena *a, size_t cap);
void wt_arena_fini(struct wt_arena *a);
/* size bytes, zeroed, 16-byte aligned; NULL when the region is full. */
void *wt_arena_zalloc(struct wt_arena *a, size_t size);

/* Did p come from the region? */
static inline bool wt_arena_owns(const struct wt_arena *a, const void *p)
{
	const char *c = p;

	return a->base && c >= a->base && c < a->base + a->cap;
}

/* Everything allocated after mark (a value of used) is gone. */
static inline void wt_arena_rewind(struct wt_arena *a, size_t mark)
{
	a->used = mark;
}

#endif /* WT_SIM_ARENA_H */

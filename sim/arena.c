/* SPDX-License-Identifier: MIT */
/*
 * The arena: one anonymous mapping, reserved without swap (NORESERVE),
 * handed out from the bottom.
 */
#include <string.h>
#include <sys/mman.h>

#include "sim/arena.h"

#ifdef WT_ASAN
#include <sanitizer/asan_interface.h>
#endif

#define WT_ARENA_ALIGN	16u

int wt_arena_init(struct wt_arena *a, size_t cap)
{
	void *p = mmap(NULL, cap, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	a->used = 0;
	if (p == MAP_FAILED) {
		a->base = NULL;
		a->cap = 0;
		return -1;
	}
	a->base = p;
	a->cap = cap;
	return 0;
}

void wt_arena_fini(struct wt_arena *a)
{
	if (a->base)
		munmap(a->base, a->cap);
	a->base = NULL;
	a->cap = 0;
	a->used = 0;
}

void *wt_arena_zalloc(struct wt_arena *a, size_t size)
{
	size_t n = (size + WT_ARENA_ALIGN - 1) & ~(size_t)(WT_ARENA_ALIGN - 1);
	void *p;

	if (!a->base || n < size || n > a->cap - a->used)
		return NULL;
	p = a->base + a->used;
	a->used += n;
	/* A rewound range holds the last iteration's objects (under ASan,
	 * those freed are marked unaddressable: wt_obj_free). */
#ifdef WT_ASAN
	__asan_unpoison_memory_region(p, n);
#endif
	memset(p, 0, n);
	return p;
}

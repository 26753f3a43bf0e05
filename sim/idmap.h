/* SPDX-License-Identifier: MIT */
/*
 * Small hash tables for the writer side and the snapshots (not shared
 * with readers, so no RCU): an id -> pointer map, and a multimap from a
 * key (two ids and an optional name) to ids, for "child by name" and
 * "mounts at (mount, dentry)".  Open addressing for the first, chains for
 * the second (it needs removal).  Allocation failure aborts: these are
 * harness bookkeeping, not objects under test.
 */
#ifndef WT_SIM_IDMAP_H
#define WT_SIM_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "sim/mix.h"

struct wt_idmap {
	uint64_t *keys;
	void **vals;		/* NULL: empty slot (values are never NULL) */
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};


void wt_idmap_init(struct wt_idmap *m);
void wt_idmap_free(struct wt_idmap *m);
/* to (uninitialised) as from, slot for slot; the values are shared. */
void wt_idmap_copy(struct wt_idmap *to, const struct wt_idmap *from);
/* The same into an initialised to, whose storage is kept when it has
 * from's capacity (its values are the caller's to free first). */
void wt_idmap_assign(struct wt_idmap *to, const struct wt_idmap *from);
/* Inline: the oracle's and the checks' snapshots ask it for every step. */
static inline void *wt_idmap_get(const struct wt_idmap *m, uint64_t id)
{
	size_t i;

	if (!m->cap)
		return NULL;
	/* Bounded: the table is never more than half full. */
	for (i = wt_mix64(id) & (m->cap - 1); m->vals[i] && m->keys[i] != id;
	     i = (i + 1) & (m->cap - 1))
		;
	return m->vals[i];
}
/* Insert or overwrite; returns the previous value or NULL. */
void *wt_idmap_put(struct wt_idmap *m, uint64_t id, void *val);
/* Iterate: for (i = 0; i < m->cap; i++) if (m->vals[i]) ... */

struct wt_keynode {
	struct wt_keynode *next;
	uint64_t a;
	uint64_t b;
	uint64_t hash;
	char *name;		/* in the node's own block, after it;
				 * NULL for id-only keys */
	uint64_t val;
};

struct wt_keymap {
	struct wt_keynode **buckets;
	size_t nbuckets;	/* a power of two */
	size_t n;
	/* A copy's nodes, made in one allocation (wt_keymap_copy): those
	 * in [block, block + block_size) go with it, not one by one. */
	char *block;
	size_t block_size;
};

void wt_keymap_init(struct wt_keymap *m);
void wt_keymap_free(struct wt_keymap *m);
/* to (uninitialised) as from, bucket for bucket, each chain in order. */
void wt_keymap_copy(struct wt_keymap *to, const struct wt_keymap *from);
/* Add (a, b, name) -> val at the head of its chain (name copied). */
void wt_keymap_add(struct wt_keymap *m, uint64_t a, uint64_t b,
		   const char *name, uint64_t val);
/* Remove the node (a, b, name) -> val; returns 1 if found. */
int wt_keymap_del(struct wt_keymap *m, uint64_t a, uint64_t b,
		  const char *name, uint64_t val);
/* The first node of key (a, b, name), then wt_keymap_next for others. */
const struct wt_keynode *wt_keymap_find(const struct wt_keymap *m, uint64_t a,
					uint64_t b, const char *name);
const struct wt_keynode *wt_keymap_next(const struct wt_keynode *n);

#endif /* WT_SIM_IDMAP_H */

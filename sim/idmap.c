/* SPDX-License-Identifier: MIT */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/idmap.h"
#include "sim/zalloc.h"

static void *xzalloc(size_t n, size_t size)
{
	void *p = wt_zalloc(n, size);

	if (!p)
		abort();	/* bookkeeping: see the header */
	return p;
}

static void *xmalloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		abort();	/* bookkeeping: see the header */
	return p;
}

void wt_idmap_init(struct wt_idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void wt_idmap_free(struct wt_idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static size_t idmap_slot(const struct wt_idmap *m, uint64_t id)
{
	size_t i = wt_mix64(id) & (m->cap - 1);

	/* Bounded: the table is never more than half full. */
	while (m->vals[i] && m->keys[i] != id)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void wt_idmap_copy(struct wt_idmap *to, const struct wt_idmap *from)
{
	*to = *from;
	if (!from->cap)
		return;
	to->keys = xmalloc(from->cap * sizeof(*to->keys));
	to->vals = xmalloc(from->cap * sizeof(*to->vals));
	memcpy(to->keys, from->keys, from->cap * sizeof(*to->keys));
	memcpy(to->vals, from->vals, from->cap * sizeof(*to->vals));
}

void wt_idmap_assign(struct wt_idmap *to, const struct wt_idmap *from)
{
	if (to->cap != from->cap) {
		wt_idmap_free(to);
		wt_idmap_copy(to, from);
		return;
	}
	if (from->cap) {
		memcpy(to->keys, from->keys, from->cap * sizeof(*to->keys));
		memcpy(to->vals, from->vals, from->cap * sizeof(*to->vals));
	}
	to->n = from->n;
}


static void idmap_grow(struct wt_idmap *m)
{
	struct wt_idmap bigger = { 0 };

	bigger.cap = m->cap ? m->cap * 2 : 64;
	bigger.keys = xzalloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = xzalloc(bigger.cap, sizeof(*bigger.vals));
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			wt_idmap_put(&bigger, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = bigger;
}

void *wt_idmap_put(struct wt_idmap *m, uint64_t id, void *val)
{
	size_t i;
	void *old;

	assert(val);
	if (2 * (m->n + 1) > m->cap)
		idmap_grow(m);
	i = idmap_slot(m, id);
	old = m->vals[i];
	if (!old)
		m->n++;
	m->keys[i] = id;
	m->vals[i] = val;
	return old;
}

static uint64_t key_hash(uint64_t a, uint64_t b, const char *name)
{
	uint64_t h = wt_mix64(a * 0x9e3779b97f4a7c15ull + b);

	for (const unsigned char *s = (const unsigned char *)name; s && *s; s++)
		h = (h ^ *s) * 0x100000001b3ull;	/* FNV-1a step */
	return wt_mix64(h);
}

static bool key_eq(const struct wt_keynode *n, uint64_t a, uint64_t b,
		   const char *name, uint64_t hash)
{
	if (n->hash != hash || n->a != a || n->b != b)
		return false;
	if (!n->name || !name)
		return n->name == name;
	return strcmp(n->name, name) == 0;
}

void wt_keymap_init(struct wt_keymap *m)
{
	/* Small: a namespace view is made per oracle snapshot, most of a
	 * few dozen names; keymap_grow keeps each key's order. */
	m->nbuckets = 16;
	m->buckets = xzalloc(m->nbuckets, sizeof(*m->buckets));
	m->n = 0;
	m->block = NULL;
	m->block_size = 0;
}

/* A node of the copy's block (freed with it), or one of its own. */
static bool in_block(const struct wt_keymap *m, const struct wt_keynode *n)
{
	uintptr_t at = (uintptr_t)n, b = (uintptr_t)m->block;

	return at >= b && at < b + m->block_size;
}

static void node_free(const struct wt_keymap *m, struct wt_keynode *n)
{
	if (!in_block(m, n))
		free(n);	/* its name with it */
}

void wt_keymap_free(struct wt_keymap *m)
{
	for (size_t i = 0; i < m->nbuckets; i++) {
		struct wt_keynode *n = m->buckets[i], *next;

		for (; n; n = next) {
			next = n->next;
			node_free(m, n);
		}
	}
	free(m->block);
	free(m->buckets);
	memset(m, 0, sizeof(*m));
}

/* A node and its name, rounded up so that the next node is aligned. */
static size_t node_size(const struct wt_keynode *n)
{
	size_t len = n->name ? strlen(n->name) + 1 : 0;
	size_t a = _Alignof(struct wt_keynode);

	return (sizeof(*n) + len + a - 1) / a * a;
}

static struct wt_keynode *node_copy(const struct wt_keynode *from, char *at)
{
	struct wt_keynode *n = (struct wt_keynode *)at;

	*n = *from;
	n->next = NULL;
	n->name = from->name ? strcpy((char *)(n + 1), from->name) : NULL;
	return n;
}

/*
 * The nodes in one block: a namespace snapshot copies its base's index
 * when it first changes it (sim/ns.c, own_keymap), every iteration, and
 * a malloc and a free a node were most of what that cost.
 */
void wt_keymap_copy(struct wt_keymap *to, const struct wt_keymap *from)
{
	size_t size = 0, off = 0;

	for (size_t i = 0; i < from->nbuckets; i++)
		for (const struct wt_keynode *n = from->buckets[i]; n; n = n->next)
			size += node_size(n);
	to->nbuckets = from->nbuckets;
	to->n = from->n;
	to->buckets = xzalloc(to->nbuckets, sizeof(*to->buckets));
	to->block = size ? xmalloc(size) : NULL;
	to->block_size = size;
	for (size_t i = 0; i < from->nbuckets; i++) {
		struct wt_keynode **tail = &to->buckets[i];

		/* in order: the head of a key is the one added last */
		for (const struct wt_keynode *n = from->buckets[i]; n; n = n->next) {
			*tail = node_copy(n, to->block + off);
			off += node_size(n);
			tail = &(*tail)->next;
		}
	}
	assert(off == size);
}

static void keymap_grow(struct wt_keymap *m)
{
	size_t nb = m->nbuckets * 2;
	struct wt_keynode **b = xzalloc(nb, sizeof(*b));

	/* Reversing each chain is fine: only the head order of one key
	 * matters, and rehashing keeps nodes of a key in relative order
	 * only if we append; so append at the tail. */
	for (size_t i = 0; i < m->nbuckets; i++) {
		struct wt_keynode *n = m->buckets[i], *next;

		for (; n; n = next) {
			struct wt_keynode **tail = &b[n->hash & (nb - 1)];

			next = n->next;
			while (*tail)
				tail = &(*tail)->next;
			n->next = NULL;
			*tail = n;
		}
	}
	free(m->buckets);
	m->buckets = b;
	m->nbuckets = nb;
}

void wt_keymap_add(struct wt_keymap *m, uint64_t a, uint64_t b,
		   const char *name, uint64_t val)
{
	size_t len = name ? strlen(name) + 1 : 0;
	struct wt_keynode *n = xmalloc(sizeof(*n) + len);
	size_t i;

	if (m->n + 1 > 2 * m->nbuckets)
		keymap_grow(m);
	n->a = a;
	n->b = b;
	n->hash = key_hash(a, b, name);
	n->name = name ? memcpy(n + 1, name, len) : NULL;
	n->val = val;
	i = n->hash & (m->nbuckets - 1);
	n->next = m->buckets[i];
	m->buckets[i] = n;
	m->n++;
}

int wt_keymap_del(struct wt_keymap *m, uint64_t a, uint64_t b,
		  const char *name, uint64_t val)
{
	uint64_t hash = key_hash(a, b, name);
	struct wt_keynode **pp = &m->buckets[hash & (m->nbuckets - 1)];

	for (; *pp; pp = &(*pp)->next) {
		struct wt_keynode *n = *pp;

		if (key_eq(n, a, b, name, hash) && n->val == val) {
			*pp = n->next;
			node_free(m, n);
			m->n--;
			return 1;
		}
	}
	return 0;
}

static const struct wt_keynode *find_from(const struct wt_keynode *n,
					  uint64_t a, uint64_t b,
					  const char *name, uint64_t hash)
{
	for (; n; n = n->next)
		if (key_eq(n, a, b, name, hash))
			return n;
	return NULL;
}

const struct wt_keynode *wt_keymap_find(const struct wt_keymap *m, uint64_t a,
					uint64_t b, const char *name)
{
	uint64_t hash = key_hash(a, b, name);

	return find_from(m->buckets[hash & (m->nbuckets - 1)], a, b, name, hash);
}

const struct wt_keynode *wt_keymap_next(const struct wt_keynode *n)
{
	return find_from(n->next, n->a, n->b, n->name, n->hash);
}

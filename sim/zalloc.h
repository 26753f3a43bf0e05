/* SPDX-License-Identifier: MIT */
/*
 * Zeroed heap blocks for bookkeeping that is made and freed every
 * iteration (snapshot tables, log records, per-walk checker state).
 *
 * Not calloc: glibc's calloc (2.36, Debian 12) never takes a block from
 * the per-thread cache, so each call goes through _int_malloc, and the
 * blocks freed meanwhile fill the cache until every free spills to
 * _int_free as well.  malloc + memset takes the cached block: about a
 * fifth of the instructions for the small blocks these are.
 */
#ifndef WT_SIM_ZALLOC_H
#define WT_SIM_ZALLOC_H

#include <stdlib.h>
#include <string.h>

/* n * size bytes, zeroed; NULL on ENOMEM or when n * size overflows. */
static inline void *wt_zalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	p = malloc(bytes ? bytes : 1);	/* calloc(0, x) is not NULL either */
	/* gcc folds malloc + memset of the same constant size back into
	 * calloc: hide where p came from */
	__asm__("" : "+r"(p));
	if (p)
		memset(p, 0, bytes);
	return p;
}

#endif /* WT_SIM_ZALLOC_H */

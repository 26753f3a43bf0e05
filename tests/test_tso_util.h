/* SPDX-License-Identifier: MIT */
/*
 * Word loads and stores through the calling thread's store buffer
 * (wt_tso_self), shared by the tso and pso buffer tests.
 */
#ifndef WT_TEST_TSO_UTIL_H
#define WT_TEST_TSO_UTIL_H

#include <stdint.h>

#include "sim/tso.h"

static inline uint32_t ld32(const uint32_t *p)
{
	uint32_t v;

	wt_tso_load(p, &v, sizeof(v));
	return v;
}

static inline void st32(uint32_t *p, uint32_t v)
{
	wt_tso_store(p, &v, sizeof(v));
}

#endif

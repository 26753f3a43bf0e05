/* SPDX-License-Identifier: MIT */
/*
 * The measured loop.  This file is compiled as it is (hooks as the build
 * has them) and, through bench_hooks_loop_nohooks.c, once more with the
 * hooks compiled out; BENCH_LOOP names the function of each copy.
 */
#include "bench/bench_hooks.h"

#ifndef BENCH_LOOP
#define BENCH_LOOP bench_loop_hooks
#endif

__attribute__((noinline)) uint64_t BENCH_LOOP(struct bench_obj *o, uint64_t n)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		unsigned s = raw_seqcount_begin(&o->seq);

		sum += wt_load(o, field);
		if (read_seqcount_retry(&o->seq, s))
			sum++;
	}
	return sum;
}

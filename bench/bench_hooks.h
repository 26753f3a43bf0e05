/* SPDX-License-Identifier: MIT */
/*
 * The hook-cost benchmark's loop, compiled twice into one binary: once
 * with the hooks in (unarmed: the one-branch fast path) and once with
 * -DWT_NO_HOOKS semantics, so both are measured in the same run.
 */
#ifndef WT_BENCH_HOOKS_H
#define WT_BENCH_HOOKS_H

#include <stdint.h>

#include "sim/seq.h"

struct bench_obj {
	struct wt_obj wt;
	unsigned long field;
	seqcount_t seq;
};

/* n rounds of: seq read, a wt_load of a field, seq retry. */
uint64_t bench_loop_hooks(struct bench_obj *o, uint64_t n);
uint64_t bench_loop_nohooks(struct bench_obj *o, uint64_t n);

#endif /* WT_BENCH_HOOKS_H */

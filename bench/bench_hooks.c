/* SPDX-License-Identifier: MIT */
/*
 * Hook cost per point: the same loop of primitive operations (seq read,
 * field load, seq retry: three points a round) with the hooks compiled in
 * but nothing armed, against the loop with the hooks compiled out,
 * measured in one run.  The two loops differ by the three tests alone
 * (compare them with objdump -d), so the difference per point is what one
 * unarmed point costs.  The ratio of a loop that does almost nothing but
 * reach points says little about a lookup: the 1.03 target of DESIGN.md
 * "Performance" is bench_lookup's (whole lookups, which reach about 25
 * points per component).  Best of several alternating trials, to keep
 * frequency scaling and noise out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/bench_hooks.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double time_loop(uint64_t (*loop)(struct bench_obj *, uint64_t),
			struct bench_obj *o, uint64_t n, uint64_t *sink)
{
	uint64_t t0 = now_ns();

	*sink += loop(o, n);
	return (double)(now_ns() - t0) / (double)n;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000;
	struct bench_obj o;
	struct wt_thread self;
	double best_in = 1e30, best_out = 1e30;
	uint64_t sink = 0;

	/* A simulated thread with nothing armed: the usual state of a
	 * walker, and the hook's real fast path (wt_self set, one test). */
	wt_thread_init(&self, 0, "bench");
	wt_thread_enter(&self);
	wt_obj_init(&o.wt, WT_OBJ_OTHER, 1);
	o.field = 3;
	seqcount_init(&o.seq, 0);
	for (int trial = 0; trial < 7; trial++) {
		double in = time_loop(bench_loop_hooks, &o, n, &sink);
		double out = time_loop(bench_loop_nohooks, &o, n, &sink);

		best_in = in < best_in ? in : best_in;
		best_out = out < best_out ? out : best_out;
	}
	printf("walktorture: bench=hooks build=%s rounds=%" PRIu64
	       " ns_per_round_hooks=%.3f ns_per_round_nohooks=%.3f"
	       " ratio=%.3f ns_per_point=%.3f (whole lookups: bench_lookup)"
	       " (sink %" PRIu64 ")\n",
	       WT_BUILD_TYPE, n, best_in, best_out, best_in / best_out,
	       (best_in - best_out) / 3, sink & 1);
	return 0;
}

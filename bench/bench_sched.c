/* SPDX-License-Identifier: MIT */
/*
 * Sim scheduler cost: one scheduling point that switches fibers, against
 * a bare swapcontext pair, in the same process (target: a switching
 * point <= 2x a swapcontext pair, DESIGN.md "Performance").
 *
 *   bare:   two ucontexts ping-pong; time per round trip (two
 *           swapcontext calls)
 *   switch: two sim threads, random policy with switch probability 1, so
 *           every point hands over to the other fiber; time per two
 *           points (two switches), i.e. the same amount of switching
 *   stay:   one sim thread; time per point when the scheduler keeps the
 *           running fiber (no switch), against the same pair
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <ucontext.h>

#include "sim/sched/run.h"

static ucontext_t bare_main, bare_fiber;
static uint64_t bare_rounds;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void bare_entry(void)
{
	for (;;)	/* ends when main stops resuming it */
		swapcontext(&bare_fiber, &bare_main);
}

static double bare_pair_ns(uint64_t n)
{
	static char stack[64 * 1024];
	uint64_t t0;

	getcontext(&bare_fiber);
	bare_fiber.uc_stack.ss_sp = stack;
	bare_fiber.uc_stack.ss_size = sizeof(stack);
	bare_fiber.uc_link = NULL;
	makecontext(&bare_fiber, bare_entry, 0);
	t0 = now_ns();
	for (bare_rounds = 0; bare_rounds < n; bare_rounds++)
		swapcontext(&bare_main, &bare_fiber);
	return (double)(now_ns() - t0) / (double)n;
}

static void points_body(struct wt_thread *t, void *arg)
{
	uint64_t n = *(uint64_t *)arg;

	(void)t;
	for (uint64_t i = 0; i < n; i++)
		WT_EVENT("bench.sched.point", NULL);
}

/* ns per point of nthreads threads doing n points each. */
static double sim_point_ns(unsigned nthreads, double p, uint64_t n)
{
	static const char *const names[] = { "a", "b" };
	struct wt_thread th[2], *tp[2] = { &th[0], &th[1] };
	void *args[2] = { &n, &n };
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	uint64_t t0;
	double ns;

	for (unsigned i = 0; i < nthreads; i++)
		wt_thread_init(&th[i], i, names[i]);
	cfg.random_switch_p = p;
	cfg.count_hits = false;
	cfg.max_points = UINT64_MAX;
	t0 = now_ns();
	if (wt_run(&cfg, nthreads, tp, points_body, args, &res) != WT_RUN_OK) {
		fprintf(stderr, "bench_sched: %s\n", res.report);
		exit(1);
	}
	ns = (double)(now_ns() - t0) / (double)res.points;
	wt_run_result_free(&res);
	return ns;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 500000;
	double pair = 1e30, sw = 1e30, stay = 1e30;

	wt_points_catalogue();
	for (int trial = 0; trial < 5; trial++) {
		double a = bare_pair_ns(n);
		double b = 2 * sim_point_ns(2, 1.0, n);
		double c = sim_point_ns(1, 0.0, n);

		pair = a < pair ? a : pair;
		sw = b < sw ? b : sw;
		stay = c < stay ? c : stay;
	}
	printf("walktorture: bench=sched build=%s swapcontext_pair_ns=%.1f"
	       " two_switching_points_ns=%.1f staying_point_ns=%.1f"
	       " ratio_switch=%.3f target<=2 ratio_stay=%.3f\n",
	       WT_BUILD_TYPE, pair, sw, stay, sw / pair, stay / pair);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Weak-memory mode cost on real scenarios, side by side in one run.
 *
 *	bench_tso_scenario [ITERATIONS] [SCENARIO.yaml...]
 *
 * Each scenario file (default: scenarios/umount/race.random.yaml and
 * scenarios/zoo/seq_no_barrier.yaml under the source tree) runs its
 * threads, oracle and checks exactly as `walktorture run' does, once
 * with memory=sc and once with memory=tso, the same seed and iteration
 * count, three rounds alternating; the best time of each is kept and the
 * line reads
 *
 *	bench_tso_scenario: NAME iterations=N sc=Xms tso=Yms ratio=Y/X
 *		per_point=R tso_stores=S tso_stale=T
 *
 * The two runs are the same programs but not the same interleavings (the
 * flush decisions draw from the seeded stream the scheduler draws from),
 * so a run may take more or fewer restarts: ratio is what a user pays per
 * iteration for asking for store buffers, per_point the same per
 * injection point passed (time over points, tso against sc).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "scenarios/src/runner.h"
#include "sim/inject.h"

#define ROUNDS	3

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One run of s under memory m; its wall time, or -1 when it failed. */
static uint64_t points_of(const struct wt_scn_result *r)
{
	uint64_t n = 0;

	for (uint32_t p = 0; p < r->npoints; p++)
		n += r->points[p];
	return n;
}

static double run_once(const struct wt_scenario *s, enum wt_scn_memory m,
		       uint64_t iterations, FILE *null,
		       struct wt_scn_result *keep)
{
	struct wt_scn_opts o = {
		.seed = 0x5eed, .mode = WT_SCN_SIM, .memory = (int)m,
		.iterations = iterations, .out = null,
	};
	struct wt_scn_result r;
	double t0 = now_s(), t;

	if (wt_scn_run(s, &o, &r))
		return -1;
	t = now_s() - t0;
	if (!r.pass) {
		fprintf(stderr, "bench_tso_scenario: %s under %s failed\n",
			s->name, m == WT_SCN_TSO ? "tso" : "sc");
		t = -1;
	}
	*keep = r;
	return t;
}

static int bench_one(const char *file, uint64_t iterations, FILE *null)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *s = wt_scenario_load(file, NULL, &err);
	double best[2] = { 1e30, 1e30 };
	uint64_t points[2] = { 1, 1 };
	struct wt_scn_result r = { 0 };

	if (!s) {
		fprintf(stderr, "%s\n", err.text);
		return -1;
	}
	for (int round = 0; round < ROUNDS; round++)
		for (int m = WT_SCN_SC; m <= WT_SCN_TSO; m++) {
			struct wt_scn_result cur;
			double t = run_once(s, (enum wt_scn_memory)m,
					    iterations, null, &cur);

			if (t < 0) {
				wt_scenario_free(s);
				return -1;
			}
			if (t < best[m]) {
				best[m] = t;
				points[m] = points_of(&cur) ? points_of(&cur) : 1;
			}
			if (m == WT_SCN_TSO) {
				wt_scn_result_free(&r);
				r = cur;
			} else {
				wt_scn_result_free(&cur);
			}
		}
	printf("bench_tso_scenario: %s iterations=%" PRIu64 " sc=%.1fms "
	       "tso=%.1fms ratio=%.2f per_point=%.2f tso_stores=%" PRIu64
	       " tso_stale=%" PRIu64 "\n", s->name, iterations, best[0] * 1e3,
	       best[1] * 1e3, best[1] / best[0],
	       (best[1] / (double)points[1]) / (best[0] / (double)points[0]),
	       r.tso_stores, r.tso_stale);
	wt_scn_result_free(&r);
	wt_scenario_free(s);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		WT_SOURCE_DIR "/scenarios/umount/race.random.yaml",
		WT_SOURCE_DIR "/scenarios/zoo/seq_no_barrier.yaml",
	};
	uint64_t iterations = argc > 1 ? strtoull(argv[1], NULL, 0) : 100;
	FILE *null = fopen("/dev/null", "w");
	int ret = 0;

	if (!null || !iterations) {
		fprintf(stderr, "usage: bench_tso_scenario [ITERATIONS] "
			"[SCENARIO.yaml...]\n");
		return 2;
	}
	wt_points_catalogue();
	if (argc > 2) {
		for (int i = 2; i < argc; i++)
			ret |= bench_one(argv[i], iterations, null);
	} else {
		for (size_t i = 0; i < sizeof(defaults) / sizeof(*defaults); i++)
			ret |= bench_one(defaults[i], iterations, null);
	}
	fclose(null);
	return ret ? 1 : 0;
}

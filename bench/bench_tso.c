/* SPDX-License-Identifier: MIT */
/*
 * Weak-memory mode cost, measured side by side in one run.
 *
 *   tso/sc: the same sim workload (same seed, policy, points) run with
 *           memory=sc and memory=tso; wall time of the tso run against
 *           the sc run.  The workload is a small RCU-walk-like mix: two
 *           readers sample a seqcount, load three fields through
 *           wt_load and recheck, taking a lockref every eighth object;
 *           one writer updates the fields under the object's lock
 *           inside a write section.  Every access is an injection point
 *           and goes through sim/atomic.h, so under tso every store is
 *           buffered, every load looks into the buffer, every lock
 *           drains it, and the scheduler flushes entries.
 *   off/raw: the cost of a tso-aware accessor when tso is off (the one
 *           branch on wt_tso_self): READ_ONCE/WRITE_ONCE against bare
 *           relaxed __atomic loads and stores, same loop, no simulation.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim/atomic.h"
#include "sim/lockref.h"
#include "sim/sched/run.h"
#include "sim/seq.h"

#define NOBJ	16

struct bobj {
	struct wt_obj wt;
	seqcount_t seq;
	struct lockref ref;
	unsigned long f1, f2, f3;
};

static struct bobj objs[NOBJ];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void reader(uint64_t n)
{
	unsigned long sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		struct bobj *o = &objs[i % NOBJ];
		unsigned seq = read_seqcount_begin(&o->seq);

		sum += wt_load(o, f1) + wt_load(o, f2) + wt_load(o, f3);
		if (read_seqcount_retry(&o->seq, seq))
			continue;
		if (i % 8 == 0) {
			lockref_get(&o->ref);
			lockref_put_return(&o->ref);
		}
	}
	__asm__ volatile("" : : "r"(sum));
}

static void writer(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		struct bobj *o = &objs[(i * 7) % NOBJ];

		spin_lock(&o->ref.lock);
		write_seqcount_begin(&o->seq);
		wt_store(o, f1, i);
		wt_store(o, f2, i + 1);
		wt_store(o, f3, i + 2);
		write_seqcount_end(&o->seq);
		spin_unlock(&o->ref.lock);
	}
}

static void body(struct wt_thread *t, void *arg)
{
	uint64_t n = *(uint64_t *)arg;

	if (t->id == 0)
		writer(n / 4);
	else
		reader(n);
}

struct timing {
	double ns;
	uint64_t points, flush_events, stores;
};

static struct timing run(enum wt_memory memory, uint64_t n)
{
	static const char *const names[] = { "writer", "reader1", "reader2" };
	struct wt_thread th[3], *tp[3] = { &th[0], &th[1], &th[2] };
	void *args[3] = { &n, &n, &n };
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	struct timing tm;
	uint64_t t0;

	for (unsigned i = 0; i < NOBJ; i++) {
		wt_obj_init(&objs[i].wt, WT_OBJ_OTHER, i + 1);
		seqcount_init(&objs[i].seq, 0);
		lockref_init(&objs[i].ref, 1);
		objs[i].f1 = objs[i].f2 = objs[i].f3 = 0;
	}
	for (unsigned i = 0; i < 3; i++)
		wt_thread_init(&th[i], i, names[i]);
	cfg.seed = 42;
	cfg.memory = memory;
	cfg.count_hits = false;
	cfg.max_points = UINT64_MAX;
	t0 = now_ns();
	if (wt_run(&cfg, 3, tp, body, args, &res) != WT_RUN_OK) {
		fprintf(stderr, "bench_tso: %s\n", res.report);
		exit(1);
	}
	tm.ns = (double)(now_ns() - t0);
	tm.points = res.points;
	tm.flush_events = res.tso_flush_events;
	tm.stores = res.tso_stores;
	wt_run_result_free(&res);
	return tm;
}

/* ---- the accessors with tso off ---- */

static unsigned long cells[64];

static __attribute__((noinline)) unsigned long loop_once(uint64_t n)
{
	unsigned long s = 0;

	for (uint64_t i = 0; i < n; i++) {
		unsigned long *c = &cells[i & 63];

		WRITE_ONCE(*c, READ_ONCE(*c) + i);
		s += READ_ONCE(cells[(i + 7) & 63]);
	}
	return s;
}

static __attribute__((noinline)) unsigned long loop_raw(uint64_t n)
{
	unsigned long s = 0;

	for (uint64_t i = 0; i < n; i++) {
		unsigned long *c = &cells[i & 63];

		__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + i,
				 __ATOMIC_RELAXED);
		s += __atomic_load_n(&cells[(i + 7) & 63], __ATOMIC_RELAXED);
	}
	return s;
}

static double time_loop(unsigned long (*f)(uint64_t), uint64_t n)
{
	uint64_t t0 = now_ns();
	unsigned long s = f(n);

	__asm__ volatile("" : : "r"(s));
	return (double)(now_ns() - t0) / (double)n;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 40000;
	struct timing sc = { 1e30, 0, 0, 0 }, tso = { 1e30, 0, 0, 0 };
	double once = 1e30, raw = 1e30;

	wt_points_catalogue();
	/* Interleaved, best of five: both sides see the same machine. */
	for (int trial = 0; trial < 5; trial++) {
		struct timing a = run(WT_MEMORY_SC, n), b = run(WT_MEMORY_TSO, n);
		double c = time_loop(loop_once, 20 * n * 100);
		double d = time_loop(loop_raw, 20 * n * 100);

		if (a.ns < sc.ns)
			sc = a;
		if (b.ns < tso.ns)
			tso = b;
		once = c < once ? c : once;
		raw = d < raw ? d : raw;
	}
	printf("walktorture: bench=tso build=%s sc_ns_per_point=%.1f"
	       " tso_ns_per_point=%.1f sc_points=%" PRIu64 " tso_points=%"
	       PRIu64 " tso_stores=%" PRIu64 " tso_flush_events=%" PRIu64
	       " off_accessor_ns=%.2f raw_atomic_ns=%.2f"
	       " off/raw ratio=%.3f\n", WT_BUILD_TYPE,
	       sc.ns / (double)sc.points, tso.ns / (double)tso.points,
	       sc.points, tso.points, tso.stores, tso.flush_events, once, raw,
	       once / raw);
	printf("walktorture: tso/sc cost ratio=%.2f\n", tso.ns / sc.ns);
	return 0;
}

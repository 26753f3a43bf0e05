/* SPDX-License-Identifier: MIT */
/*
 * Store-buffer litmus tests: two fibers under the sim backend, thousands
 * of seeds each, in memory=tso and in SC.
 *
 *	SB (store buffering)		MP (message passing)
 *	alice: x = 1; r1 = y		alice: data = 1; [wmb]; flag = 1
 *	bob:   y = 1; r2 = x		bob:   r1 = flag; [rmb]; r2 = data
 *	relaxed: r1 == 0 && r2 == 0	relaxed: r1 == 1 && r2 == 0
 *
 * x86-TSO allows SB's relaxed outcome (a load passes the older store,
 * which still sits in the store buffer) unless an smp_mb() separates
 * them, and never allows MP's (stores leave the FIFO in order, loads are
 * not reordered) with or without smp_wmb/smp_rmb.  SC allows neither.
 * The directed tests force SB's relaxed outcome with a schedule, and
 * with `flush' steps force the others.
 */
#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "test_sched_util.h"

#define SEEDS 2000

static const char *const names2[] = { "alice", "bob" };

/* Each variable on its own line, as separate fields of separate objects
 * would be. */
struct shared {
	unsigned x __attribute__((aligned(64)));
	unsigned y __attribute__((aligned(64)));
};

static struct shared g;

struct side {
	unsigned *mine, *theirs;
	unsigned r;
	bool fence;
};

/* ---- SB ---- */

static void sb_body(struct wt_thread *t, void *arg)
{
	struct side *a = arg;

	(void)t;
	WT_EVENT("litmus.sb.store", NULL);
	WRITE_ONCE(*a->mine, 1);
	if (a->fence)
		smp_mb();	/* the store is visible before the load */
	WT_EVENT("litmus.sb.load", NULL);
	a->r = READ_ONCE(*a->theirs);
	WT_EVENT("litmus.sb.done", NULL);
}

struct outcome {
	unsigned r1, r2;
	uint64_t digest;
	uint64_t flush_events;
};

static struct outcome run_sb(uint64_t seed, enum wt_memory memory, bool fence,
			     const struct wt_schedule *sch)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	struct side a = { &g.x, &g.y, 9, fence }, b = { &g.y, &g.x, 9, fence };
	void *args[] = { &a, &b };
	struct outcome o;
	int rc;

	tthreads_init(&ts, 2, names2);
	g.x = g.y = 0;
	cfg.seed = seed;
	cfg.memory = memory;
	cfg.random_switch_p = 0.3;
	if (sch) {
		cfg.policy = WT_POLICY_DIRECTED;
		cfg.schedule = sch;
	}
	rc = wt_run(&cfg, 2, ts.p, sb_body, args, &res);
	cr_assert_eq(rc, WT_RUN_OK, "seed %llu: %s", (unsigned long long)seed,
		     res.report);
	/* Every buffer drained by the end: memory has both stores. */
	cr_assert_eq(g.x, 1);
	cr_assert_eq(g.y, 1);
	o.r1 = a.r;
	o.r2 = b.r;
	o.digest = res.digest;
	o.flush_events = res.tso_flush_events;
	wt_run_result_free(&res);
	return o;
}

static unsigned count_sb_relaxed(enum wt_memory memory, bool fence,
				 unsigned *outcomes)
{
	unsigned relaxed = 0;

	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct outcome o = run_sb(seed, memory, fence, NULL);

		cr_assert(o.r1 <= 1 && o.r2 <= 1);
		outcomes[o.r1 * 2 + o.r2]++;
		relaxed += o.r1 == 0 && o.r2 == 0;
	}
	return relaxed;
}

/*
 * Under tso without a fence, some seeds end with r1 == r2 == 0: each
 * load passed its own thread's buffered store.  The other outcomes
 * appear too (the run explores, it is not stuck on one order).
 */
Test(litmus, sb_relaxed_outcome_appears_under_tso_without_fence)
{
	unsigned out[4] = { 0 };
	unsigned relaxed = count_sb_relaxed(WT_MEMORY_TSO, false, out);

	cr_log_info("SB tso: 00=%u 01=%u 10=%u 11=%u", out[0], out[1],
		    out[2], out[3]);
	cr_assert_gt(relaxed, 0, "no store->load reordering in %u seeds", SEEDS);
	cr_assert_gt(out[1] + out[2], 0);
}

/* With smp_mb() between store and load the buffer drains first: never. */
Test(litmus, sb_never_relaxed_with_smp_mb)
{
	unsigned out[4] = { 0 };

	cr_assert_eq(count_sb_relaxed(WT_MEMORY_TSO, true, out), 0);
	cr_assert_gt(out[1] + out[2], 0);
}

/* SC: one fiber at a time, every store visible at once: never. */
Test(litmus, sb_never_relaxed_under_sc)
{
	unsigned out[4] = { 0 };

	cr_assert_eq(count_sb_relaxed(WT_MEMORY_SC, false, out), 0);
	cr_assert_gt(out[1] + out[2], 0);
}

/* ---- MP ---- */

struct mp {
	unsigned r1, r2;
	bool fences;
};

static void mp_writer(struct mp *m)
{
	WT_EVENT("litmus.mp.data", NULL);
	WRITE_ONCE(g.x, 1);
	if (m->fences)
		smp_wmb();
	WT_EVENT("litmus.mp.flag", NULL);
	WRITE_ONCE(g.y, 1);
	WT_EVENT("litmus.mp.written", NULL);
}

static void mp_reader(struct mp *m)
{
	WT_EVENT("litmus.mp.read_flag", NULL);
	m->r1 = READ_ONCE(g.y);
	if (m->fences)
		smp_rmb();
	WT_EVENT("litmus.mp.read_data", NULL);
	m->r2 = READ_ONCE(g.x);
}

static void mp_body(struct wt_thread *t, void *arg)
{
	if (t->id == 0)
		mp_writer(arg);
	else
		mp_reader(arg);
}

static unsigned count_mp_relaxed(bool fences, unsigned *flag_seen)
{
	unsigned relaxed = 0;

	*flag_seen = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		struct mp m = { 9, 9, fences };
		void *args[] = { &m, &m };

		tthreads_init(&ts, 2, names2);
		g.x = g.y = 0;
		cfg.seed = seed;
		cfg.memory = WT_MEMORY_TSO;
		cfg.random_switch_p = 0.3;
		cr_assert_eq(wt_run(&cfg, 2, ts.p, mp_body, args, &res),
			     WT_RUN_OK, "%s", res.report);
		wt_run_result_free(&res);
		*flag_seen += m.r1 == 1;
		relaxed += m.r1 == 1 && m.r2 == 0;
	}
	return relaxed;
}

/*
 * MP under tso: the reader sees the flag in many seeds, and never
 * without the data -- with or without smp_wmb/smp_rmb, which x86-TSO
 * does not need (they drain nothing in this model).
 */
Test(litmus, mp_never_relaxed_under_tso_with_or_without_wmb_rmb)
{
	unsigned seen;

	cr_assert_eq(count_mp_relaxed(false, &seen), 0);
	cr_assert_gt(seen, 0);
	cr_assert_lt(seen, SEEDS, "the flag is not always visible either");
	cr_assert_eq(count_mp_relaxed(true, &seen), 0);
	cr_assert_gt(seen, 0);
}

/* ---- directed ---- */

/*
 * A directed schedule gives SB's relaxed outcome for every seed: both
 * threads store, then both load, while the scheduler flushes nothing of
 * its own accord during the schedule (after it, the random policy may).
 */
Test(litmus, directed_schedule_forces_the_sb_relaxed_outcome)
{
	struct wt_schedule *sch = tsched_parse(
		"alice until litmus.sb.load   # x = 1 is in alice's buffer\n"
		"bob until litmus.sb.load     # y = 1 is in bob's\n"
		"alice until litmus.sb.done   # r1 = y: 0\n"
		"bob until litmus.sb.done     # r2 = x: 0\n");

	for (uint64_t seed = 1; seed <= 50; seed++) {
		struct outcome o = run_sb(seed, WT_MEMORY_TSO, false, sch);

		cr_assert_eq(o.r1, 0, "seed %llu", (unsigned long long)seed);
		cr_assert_eq(o.r2, 0, "seed %llu", (unsigned long long)seed);
	}
	wt_schedule_free(sch);
}

/* The same order with a `flush' step: x reaches memory before bob's
 * load, so bob sees it; alice still misses bob's buffered y. */
Test(litmus, directed_flush_step_makes_a_store_visible)
{
	struct wt_schedule *sch = tsched_parse(
		"alice until litmus.sb.load\n"
		"bob until litmus.sb.load\n"
		"flush alice                  # x = 1 reaches memory\n"
		"alice until litmus.sb.done   # r1 = y: 0\n"
		"bob until litmus.sb.done     # r2 = x: 1\n");
	struct outcome o = run_sb(3, WT_MEMORY_TSO, false, sch);

	cr_assert_eq(o.r1, 0);
	cr_assert_eq(o.r2, 1);
	/* The step's, and maybe random ones once the schedule is done. */
	cr_assert_geq(o.flush_events, 1);
	wt_schedule_free(sch);
	sch = tsched_parse("alice until litmus.sb.load\n"
			   "bob until litmus.sb.load\n"
			   "flush bob all\n"
			   "flush alice all\n"
			   "flush alice all              # empty: nothing to do\n"
			   "alice finish\n"
			   "bob finish\n");
	o = run_sb(3, WT_MEMORY_TSO, false, sch);
	cr_assert_eq(o.r1, 1);
	cr_assert_eq(o.r2, 1);
	cr_assert_eq(o.flush_events, 2);
	wt_schedule_free(sch);
}

/* The SC run of the relaxed schedule: the stores are visible at once. */
Test(litmus, directed_sb_schedule_under_sc_sees_both_stores)
{
	struct wt_schedule *sch = tsched_parse(
		"alice until litmus.sb.load\n"
		"bob until litmus.sb.load\n"
		"alice until litmus.sb.done\n"
		"bob until litmus.sb.done\n");
	struct outcome o = run_sb(3, WT_MEMORY_SC, false, sch);

	cr_assert_eq(o.r1, 1);
	cr_assert_eq(o.r2, 1);
	wt_schedule_free(sch);
}

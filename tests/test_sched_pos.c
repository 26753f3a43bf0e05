/* SPDX-License-Identifier: MIT */
/*
 * POS (sim/sched/pos.c): determinism, replay, a litmus race that PCT at
 * depth 1 cannot produce, preemption points, and reads-from feedback.
 */
#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "test_sched_util.h"

static const char *const names2[] = { "alice", "bob" };

/* ---- the lost update: load x, store x + 1, in both threads ---- */

struct lu {
	unsigned x;
	unsigned priv[2];
	unsigned nprivate;
};

static struct lu g;
static unsigned g_nprivate = 20;

static void lu_body(struct wt_thread *t, void *arg)
{
	unsigned v;

	(void)arg;
	/* Steps on the thread's own object: they race with nothing. */
	for (unsigned i = 0; i < g.nprivate; i++) {
		WT_HOOK(WT_K_STORE, "test.pos.private", "priv", "own word",
			&g.priv[t->id]);
		g.priv[t->id]++;
	}
	WT_HOOK(WT_K_LOAD, "test.pos.load", "x", "load x", &g.x);
	v = g.x;
	WT_HOOK(WT_K_STORE, "test.pos.store", "x", "store x", &g.x);
	g.x = v + 1;
	WT_EVENT("test.pos.done", NULL);
}

static int run_lu(uint64_t seed, enum wt_policy policy, unsigned depth,
		  const struct wt_run_config *extra, struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;

	if (extra)
		cfg = *extra;
	tthreads_init(&ts, 2, names2);
	cfg.seed = seed;
	cfg.policy = policy;
	cfg.pct_depth = depth;
	cfg.pct_steps = 60;
	cfg.trace = true;
	memset(&g, 0, sizeof(g));
	g.nprivate = g_nprivate;
	return wt_run(&cfg, ts.n, ts.p, lu_body, NULL, res);
}

/* Seeds (of n) whose run lost an update. */
static unsigned lost(enum wt_policy policy, unsigned depth, unsigned n)
{
	unsigned k = 0;

	for (unsigned seed = 1; seed <= n; seed++) {
		struct wt_run_result res;

		cr_assert_eq(run_lu(seed, policy, depth, NULL, &res), WT_RUN_OK,
			     "%s", res.report);
		k += g.x == 1;
		wt_run_result_free(&res);
	}
	return k;
}

/*
 * The lost update needs one preemption between a thread's load and its
 * store.  PCT at depth 1 has no change point: each thread runs to its
 * end, never losing one.  POS re-draws the priorities of both threads
 * whenever one performs a step on x while the other's next step is on x
 * too, one of them a store, so either may run first at each racing
 * step: over 400 seeds it loses the update twice as often as PCT at
 * depth 3 and more often than random switching (measured: pos 88, pct
 * d=3 12, random 45, pct d=1 0).  Steps that race with nothing dilute
 * POS, though: the waiting thread keeps its priority while the other
 * draws afresh at every private step, so each is another draw it must
 * win (with 20 private steps before the load, pos 7, pct d=3 11,
 * random 23 -- README, "Policies").
 */
Test(sched_pos, finds_the_lost_update_pct_depth_1_cannot)
{
	unsigned pos, pct1, pct3, rnd;

	g_nprivate = 0;
	pos = lost(WT_POLICY_POS, 3, 400);
	pct1 = lost(WT_POLICY_PCT, 1, 400);
	pct3 = lost(WT_POLICY_PCT, 3, 400);
	rnd = lost(WT_POLICY_RANDOM, 3, 400);
	g_nprivate = 20;
	cr_log_info("lost update in 400 seeds: pos %u, pct d=1 %u, pct d=3 %u, "
		    "random %u", pos, pct1, pct3, rnd);
	cr_assert_eq(pct1, 0);
	cr_assert_geq(pos, 60, "pos lost the update in %u of 400 seeds", pos);
	cr_assert_gt(pos, 2 * pct3);
	cr_assert_gt(pos, rnd);
}

Test(sched_pos, same_seed_same_trace_other_seeds_other_orders)
{
	struct wt_run_result a, b, c;
	unsigned differ = 0;

	cr_assert_eq(run_lu(7, WT_POLICY_POS, 3, NULL, &a), WT_RUN_OK);
	cr_assert_eq(run_lu(7, WT_POLICY_POS, 3, NULL, &b), WT_RUN_OK);
	cr_assert_eq(a.trace->n, b.trace->n);
	cr_assert_eq(memcmp(a.trace->ev, b.trace->ev,
			    a.trace->n * sizeof(a.trace->ev[0])), 0);
	cr_assert_eq(a.digest, b.digest);
	for (uint64_t seed = 8; seed < 18; seed++) {
		cr_assert_eq(run_lu(seed, WT_POLICY_POS, 3, NULL, &c), WT_RUN_OK);
		differ += !same_order(a.trace, c.trace);
		wt_run_result_free(&c);
	}
	cr_assert_geq(differ, 8, "only %u of 10 other seeds ran another order",
		      differ);
	wt_run_result_free(&a);
	wt_run_result_free(&b);
}

/* A POS run's trace replays to the same digest, with the same outcome,
 * without diverging -- for a run that lost the update and one that did
 * not. */
Test(sched_pos, a_pos_trace_replays)
{
	bool seen[2] = { false, false };

	for (uint64_t seed = 1; seed <= 60 && !(seen[0] && seen[1]); seed++) {
		struct wt_run_result a, b;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		unsigned x;

		cr_assert_eq(run_lu(seed, WT_POLICY_POS, 3, NULL, &a), WT_RUN_OK);
		x = g.x;
		seen[x == 1] = true;
		cfg.replay = a.trace->ev;
		cfg.nreplay = a.trace->n;
		/* Another seed: the record alone decides. */
		cr_assert_eq(run_lu(seed + 1000, WT_POLICY_RANDOM, 3, &cfg, &b),
			     WT_RUN_OK);
		cr_assert_not(b.diverged, "%s", b.diverge_report);
		cr_assert_eq(b.digest, a.digest);
		cr_assert_eq(g.x, x);
		wt_run_result_free(&a);
		wt_run_result_free(&b);
	}
	cr_assert(seen[0] && seen[1]);
}

/* The index of the first event of thread t at point p at or after k. */
static size_t find(const struct wt_trace *tr, size_t k, uint32_t t,
		   const struct wt_point *p)
{
	for (; k < tr->n; k++)
		if (tr->ev[k].thread == t && tr->ev[k].point == wt_point_id(p))
			return k;
	return tr->n;
}

/*
 * A preemption point pins the thread's priority at that arrival: demoted
 * at its load, alice waits there until bob is done (bob's whole program
 * runs between alice's arrival at the load and her store); promoted at
 * her first private step, she runs to her end before bob does anything
 * more.  Either way no update is lost, under every seed.
 */
Test(sched_pos, preemption_points_pin_a_priority)
{
	const struct wt_point *load, *store, *done, *priv;

	wt_points_catalogue();
	load = wt_point_lookup("test.pos.load");
	store = wt_point_lookup("test.pos.store");
	done = wt_point_lookup("test.pos.done");
	priv = wt_point_lookup("test.pos.private");
	cr_assert(load && store && done && priv);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct wt_preempt demote = { .thread = 0,
					     .point = wt_point_id(load), .nth = 1 };
		struct wt_preempt promote = { .thread = 0, .promote = true,
					      .point = wt_point_id(priv), .nth = 1 };
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		size_t at, bob_done, next;

		cfg.preempts = &demote;
		cfg.npreempts = 1;
		cr_assert_eq(run_lu(seed, WT_POLICY_POS, 3, &cfg, &res), WT_RUN_OK);
		cr_assert_eq(res.preempts_hit, 1);
		cr_assert_eq(g.x, 2);
		at = find(res.trace, 0, 0, load);
		bob_done = find(res.trace, 0, 1, done);
		next = find(res.trace, at + 1, 0, store);
		cr_assert(at < next && bob_done < next,
			  "seed %llu: alice load %zu, bob done %zu, alice store %zu",
			  (unsigned long long)seed, at, bob_done, next);
		wt_run_result_free(&res);

		cfg.preempts = &promote;
		cr_assert_eq(run_lu(seed, WT_POLICY_POS, 3, &cfg, &res), WT_RUN_OK);
		cr_assert_eq(res.preempts_hit, 1);
		cr_assert_eq(g.x, 2);
		at = find(res.trace, 0, 0, priv);
		for (size_t k = at; k < find(res.trace, 0, 0, done); k++)
			cr_assert_eq(res.trace->ev[k].thread, 0,
				     "seed %llu: bob ran at event %zu",
				     (unsigned long long)seed, k);
		wt_run_result_free(&res);
	}
}

Test(sched_pos, preemption_points_need_pos)
{
	struct wt_preempt p = { .thread = 0, .point = 0, .nth = 1 };
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	cfg.preempts = &p;
	cfg.npreempts = 1;
	cr_assert_eq(run_lu(1, WT_POLICY_PCT, 3, &cfg, &res),
		     WT_RUN_CONFIG_ERROR);
	wt_run_result_free(&res);
}

static bool has_item(const struct wt_run_result *r, uint64_t h)
{
	for (size_t i = 0; i < r->nfeedback; i++)
		if (r->feedback[i] == h)
			return true;
	return false;
}

static bool is_event(const struct wt_run_result *r, uint32_t i,
		     uint32_t thread, const struct wt_point *p)
{
	return i < r->nevents && r->events[i].thread == thread &&
	       r->events[i].point == wt_point_id(p);
}

/* Where reads-from item h (thread w's store read by r's load) was first
 * seen: w's arrival at the store, r's at the load, r's next (its own
 * store). */
static void check_at(const struct wt_run_result *res, uint64_t h,
		     uint32_t w, uint32_t r, const struct wt_point *load,
		     const struct wt_point *store)
{
	for (size_t i = 0; i < res->nfeedback; i++) {
		const struct wt_run_item_at *at = &res->feedback_at[i];

		if (res->feedback[i] != h)
			continue;
		cr_assert(is_event(res, at->write, w, store));
		cr_assert(is_event(res, at->read, r, load));
		cr_assert(is_event(res, at->next, r, store));
		cr_assert_lt(at->read, at->next);
		return;
	}
}

/*
 * Reads-from feedback: bob's load of x read alice's store exactly when
 * alice's store was performed before it (and vice versa), first seen
 * where the run's arrivals say; a lost update has neither pair.  The items name points and threads, so they are the
 * same in every run that orders the two the same way.
 */
Test(sched_pos, feedback_reports_who_read_whose_store)
{
	const struct wt_point *load, *store;
	unsigned kinds[3] = { 0 };

	wt_points_catalogue();
	load = wt_point_lookup("test.pos.load");
	store = wt_point_lookup("test.pos.store");
	for (uint64_t seed = 1; seed <= 100; seed++) {
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		uint64_t ab = wt_run_feedback_item(WT_FB_READS_FROM,
						   wt_point_id(store), 0,
						   wt_point_id(load), 1);
		uint64_t ba = wt_run_feedback_item(WT_FB_READS_FROM,
						   wt_point_id(store), 1,
						   wt_point_id(load), 0);
		size_t a_store, b_load, b_store, a_load;

		cfg.feedback = true;
		cr_assert_eq(run_lu(seed, WT_POLICY_POS, 3, &cfg, &res), WT_RUN_OK);
		cr_assert_gt(res.nfeedback, 0);
		cr_assert_gt(res.nevents, 40);
		/* an operation is performed when its thread next moves on:
		 * at its next event */
		a_store = find(res.trace, find(res.trace, 0, 0, store) + 1, 0,
			       wt_point_lookup("test.pos.done"));
		b_store = find(res.trace, find(res.trace, 0, 1, store) + 1, 1,
			       wt_point_lookup("test.pos.done"));
		a_load = find(res.trace, find(res.trace, 0, 0, load) + 1, 0, store);
		b_load = find(res.trace, find(res.trace, 0, 1, load) + 1, 1, store);
		cr_assert_eq(has_item(&res, ab), a_store < b_load,
			     "seed %llu", (unsigned long long)seed);
		cr_assert_eq(has_item(&res, ba), b_store < a_load,
			     "seed %llu", (unsigned long long)seed);
		check_at(&res, ab, 0, 1, load, store);
		check_at(&res, ba, 1, 0, load, store);
		kinds[has_item(&res, ab) ? 0 : has_item(&res, ba) ? 1 : 2]++;
		cr_assert_eq(g.x == 1, !has_item(&res, ab) && !has_item(&res, ba),
			     "seed %llu", (unsigned long long)seed);
		wt_run_result_free(&res);
	}
	cr_assert(kinds[0] && kinds[1] && kinds[2], "%u %u %u", kinds[0],
		  kinds[1], kinds[2]);
}

/* ---- store buffers: stale reads, and flush points ---- */

/* Message passing with no barrier: the writer stores data, then flag;
 * the reader loads flag, then data.  Each word on a line of its own. */
struct mpx {
	uint64_t data __attribute__((aligned(64)));
	uint64_t flag __attribute__((aligned(64)));
	uint64_t r1, r2;
};

static struct mpx mpx;

static void mpx_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		WT_HOOK(WT_K_STORE, "test.mpx.store_data", "data", "data = 1",
			&mpx);
		WRITE_ONCE(mpx.data, 1);
		WT_HOOK(WT_K_STORE, "test.mpx.store_flag", "flag", "flag = 1",
			&mpx);
		WRITE_ONCE(mpx.flag, 1);
		WT_EVENT("test.mpx.written", NULL);
	} else {
		WT_EVENT("test.mpx.start", NULL);
		WT_HOOK(WT_K_LOAD, "test.mpx.load_flag", "flag", "r1 = flag",
			&mpx);
		mpx.r1 = READ_ONCE(mpx.flag);
		WT_HOOK(WT_K_LOAD, "test.mpx.load_data", "data", "r2 = data",
			&mpx);
		mpx.r2 = READ_ONCE(mpx.data);
		WT_EVENT("test.mpx.done", NULL);
	}
}

/* The reader waits at its start until the writer has both stores
 * buffered and waits at its last point; then the reader runs, with the
 * flush point `extra' if any.  Random flushes with chance flush_p a
 * decision (run_mpx: none); `hold', if any, goes between the two pins
 * (the writer's arrivals come between them).  True when every point
 * fired: the seed let the reader reach its start before the writer
 * ended (else the writer's end drained its buffer). */
static bool run_mpx_full(uint64_t seed, enum wt_memory memory,
			 const struct wt_preempt *hold,
			 const struct wt_preempt *extra, double flush_p,
			 struct wt_run_result *res)
{
	const struct wt_point *start, *written;
	struct wt_preempt p[4];
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct tthreads ts;
	unsigned n = 1;

	wt_points_catalogue();
	start = wt_point_lookup("test.mpx.start");
	written = wt_point_lookup("test.mpx.written");
	cr_assert(start && written);
	p[0] = (struct wt_preempt){ .thread = 1, .point = wt_point_id(start),
				    .nth = 1 };
	if (hold)
		p[n++] = *hold;
	p[n++] = (struct wt_preempt){ .thread = 0,
				      .point = wt_point_id(written), .nth = 1 };
	if (extra)
		p[n++] = *extra;
	tthreads_init(&ts, 2, names2);
	memset(&mpx, 0, sizeof(mpx));
	cfg.seed = seed;
	cfg.policy = WT_POLICY_POS;
	cfg.memory = memory;
	cfg.tso_flush_p = flush_p;
	cfg.feedback = true;
	cfg.trace = true;
	cfg.preempts = p;
	cfg.npreempts = n;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, mpx_body, NULL, res), WT_RUN_OK,
		     "%s", res->report);
	return res->preempts_hit == n;
}

static bool run_mpx(uint64_t seed, enum wt_memory memory,
		    const struct wt_preempt *extra, struct wt_run_result *res)
{
	return run_mpx_full(seed, memory, NULL, extra, 0, res);
}

static uint64_t mpx_item(const char *store, uint32_t w, const char *load)
{
	return wt_run_feedback_item(WT_FB_READS_FROM,
				    wt_point_id(wt_point_lookup(store)), w,
				    wt_point_id(wt_point_lookup(load)), 1);
}

/*
 * Under pso the reader runs while both stores wait in the writer's
 * buffer: it reads 0 twice, and the feedback says so -- two stale reads
 * (the writer's thread marked WT_FB_STALE), no reads-from of the
 * writer's stores, which a write counted at its program point would
 * have claimed.  A flush point at the reader's load of flag (the
 * writer's store number 1) sends flag alone to memory (pso lets it pass
 * data): r1 1, r2 0, a reads-from for flag and a stale read of data
 * (store 0, first seen at the reader's load of data); at store number 0,
 * data alone.  Under tso the flag's flush takes data along.  A flush
 * point at a store that is not buffered does nothing.  Every seed whose
 * priorities let the reader reach its start before the writer's end
 * (the same seeds with and without the flush point: it fires after).
 */
Test(sched_pos, feedback_sees_buffered_stores_and_flush_points_send_them)
{
	const char *sf = "test.mpx.store_flag", *sd = "test.mpx.store_data";
	const char *lf = "test.mpx.load_flag", *ld = "test.mpx.load_data";
	unsigned applied = 0;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct wt_preempt fl = { .thread = 1, .nth = 1, .flush = true,
					 .flush_thread = 0, .flush_sn = 1 };
		struct wt_run_result res;
		bool stale_data = false;

		wt_points_catalogue();
		fl.point = wt_point_id(wt_point_lookup(lf));
		if (!run_mpx(seed, WT_MEMORY_PSO, NULL, &res)) {
			wt_run_result_free(&res);
			continue;
		}
		applied++;
		cr_assert_eq(mpx.r1, 0);
		cr_assert_eq(mpx.r2, 0);
		cr_assert(has_item(&res, mpx_item(sf, 0 | WT_FB_STALE, lf)));
		cr_assert(has_item(&res, mpx_item(sd, 0 | WT_FB_STALE, ld)));
		cr_assert_not(has_item(&res, mpx_item(sf, 0, lf)));
		cr_assert_not(has_item(&res, mpx_item(sd, 0, ld)));
		wt_run_result_free(&res);

		cr_assert(run_mpx(seed, WT_MEMORY_PSO, &fl, &res));
		cr_assert_eq(mpx.r1, 1, "seed %llu", (unsigned long long)seed);
		cr_assert_eq(mpx.r2, 0);
		cr_assert(has_item(&res, mpx_item(sf, 0, lf)));
		cr_assert_not(has_item(&res, mpx_item(sf, 0 | WT_FB_STALE, lf)));
		for (size_t i = 0; i < res.nfeedback; i++) {
			const struct wt_run_item_at *at = &res.feedback_at[i];

			if (res.feedback[i] != mpx_item(sd, 0 | WT_FB_STALE, ld))
				continue;
			stale_data = true;
			cr_assert_eq(at->stale_thread, 0);
			cr_assert_eq(at->stale_sn, 0);
			cr_assert(is_event(&res, at->read, 1,
					   wt_point_lookup(ld)));
		}
		cr_assert(stale_data);
		wt_run_result_free(&res);

		fl.flush_sn = 0;
		cr_assert(run_mpx(seed, WT_MEMORY_PSO, &fl, &res));
		cr_assert_eq(mpx.r1, 0);
		cr_assert_eq(mpx.r2, 1);
		wt_run_result_free(&res);

		fl.flush_sn = 1;
		cr_assert(run_mpx(seed, WT_MEMORY_TSO, &fl, &res));
		cr_assert_eq(mpx.r1, 1);
		cr_assert_eq(mpx.r2, 1);
		cr_assert(has_item(&res, mpx_item(sd, 0, ld)));
		wt_run_result_free(&res);

		fl.flush_sn = 7;
		cr_assert(run_mpx(seed, WT_MEMORY_PSO, &fl, &res));
		cr_assert_eq(mpx.r1, 0);
		cr_assert_eq(mpx.r2, 0);
		wt_run_result_free(&res);
	}
	cr_assert_geq(applied, 5, "%u of 40 seeds", applied);
}

/* The item at of reads-from item h in res (NULL: not seen). */
static const struct wt_run_item_at *item_at(const struct wt_run_result *res,
					    uint64_t h)
{
	for (size_t i = 0; i < res->nfeedback; i++)
		if (res->feedback[i] == h)
			return &res->feedback_at[i];
	return NULL;
}

/*
 * A hold point (struct wt_preempt.hold) keeps one store out of the
 * random flushes.  With a flush at every decision (tso_flush_p 1) the
 * writer's store of data is in memory before its next arrival: the
 * reader reads it, and the feedback says that store had waited (its
 * number, 0, for the explorer to hold).  Held from the writer's arrival
 * at the flag store, it is still buffered when the reader loads it --
 * under pso the flag passes it (r2 0 whatever r1), under tso nothing
 * passes it (r1 0, r2 0).  Every seed whose priorities let the points
 * fire.
 */
Test(sched_pos, a_hold_point_keeps_a_store_from_the_random_flushes)
{
	const char *sd = "test.mpx.store_data", *ld = "test.mpx.load_data";
	unsigned applied = 0, tso = 0;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct wt_preempt h = { .thread = 0, .nth = 1, .hold = true,
					.flush_thread = 0, .flush_sn = 0 };
		const struct wt_run_item_at *at;
		struct wt_run_result res;

		wt_points_catalogue();
		h.point = wt_point_id(wt_point_lookup("test.mpx.store_flag"));
		/* the hold fires only when the reader was pinned first */
		if (!run_mpx_full(seed, WT_MEMORY_PSO, &h, NULL, 1, &res)) {
			wt_run_result_free(&res);
			continue;
		}
		applied++;
		cr_assert_eq(mpx.r2, 0, "seed %llu", (unsigned long long)seed);
		cr_assert(has_item(&res, mpx_item(sd, 0 | WT_FB_STALE, ld)));
		wt_run_result_free(&res);

		cr_assert(run_mpx_full(seed, WT_MEMORY_PSO, NULL, NULL, 1, &res));
		cr_assert_eq(mpx.r1, 1, "seed %llu", (unsigned long long)seed);
		cr_assert_eq(mpx.r2, 1);
		at = item_at(&res, mpx_item(sd, 0, ld));
		cr_assert_not_null(at);
		cr_assert_eq(at->waited_thread, 0);
		cr_assert_eq(at->waited_sn, 0);
		wt_run_result_free(&res);

		if (run_mpx_full(seed, WT_MEMORY_TSO, &h, NULL, 1, &res)) {
			tso++;
			cr_assert_eq(mpx.r1, 0);
			cr_assert_eq(mpx.r2, 0);
		}
		wt_run_result_free(&res);
	}
	cr_assert_geq(applied, 5, "%u of 40 seeds", applied);
	cr_assert_geq(tso, 5, "%u of 40 seeds", tso);
}

/* SPDX-License-Identifier: MIT */
/*
 * The sim backend: determinism, waits that cannot livelock, deadlock and
 * stuck detection, directed schedules, stopping and aborting threads.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/sched/sched.h"
#include "sim/mutex.h"
#include "sim/spinlock.h"
#include "test_sched_util.h"
#include "sim/rules.h"	/* WT_POINT_SET_CACHE */

static const char *const names2[] = { "alice", "bob" };
static const char *const names3[] = { "alice", "bob", "carol" };

/* ---- workloads ---- */

static struct tlog g_log;

static void steps_body(struct wt_thread *t, void *arg)
{
	unsigned n = arg ? *(unsigned *)arg : 200;

	for (unsigned i = 0; i < n; i++) {
		WT_EVENT("test.sched.step", NULL);
		tlog_add(&g_log, t->name);
	}
}

/* The three step threads under cfg's options, with seed, policy, cache. */
static int run_steps_with(struct wt_run_config cfg, struct wt_run_cache *cache,
			  uint64_t seed, enum wt_policy policy,
			  struct wt_run_result *res)
{
	struct tthreads ts;

	tthreads_init(&ts, 3, names3);
	cfg.seed = seed;
	cfg.policy = policy;
	cfg.cache = cache;
	memset(&g_log, 0, sizeof(g_log));
	return wt_run(&cfg, ts.n, ts.p, steps_body, NULL, res);
}

static int run_steps_in(struct wt_run_cache *cache, uint64_t seed,
			enum wt_policy policy, struct wt_run_result *res)
{
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;

	cfg.trace = true;
	return run_steps_with(cfg, cache, seed, policy, res);
}

static int run_steps(uint64_t seed, enum wt_policy policy,
		     struct wt_run_result *res)
{
	return run_steps_in(NULL, seed, policy, res);
}

static spinlock_t g_lock;
static unsigned g_counter;

static void lock_body(struct wt_thread *t, void *arg)
{
	(void)t;
	(void)arg;
	for (int i = 0; i < 50; i++) {
		spin_lock(&g_lock);
		unsigned v = g_counter;

		WT_EVENT("test.sched.in_lock", NULL);
		g_counter = v + 1;
		spin_unlock(&g_lock);
	}
}

/* ---- determinism ---- */

/*
 * Running the same seed twice gives byte-identical traces (every field of
 * every event) and equal digests; a different seed gives another
 * interleaving of the same 600 points (another digest and event order).
 */
Test(sched_sim, same_seed_same_trace_other_seed_other_order)
{
	struct wt_run_result a, b, c;

	cr_assert_eq(run_steps(7, WT_POLICY_RANDOM, &a), WT_RUN_OK, "%s", a.report);
	cr_assert_eq(run_steps(7, WT_POLICY_RANDOM, &b), WT_RUN_OK);
	cr_assert_eq(run_steps(8, WT_POLICY_RANDOM, &c), WT_RUN_OK);
	cr_assert_eq(a.trace->n, 600);
	cr_assert_eq(a.trace->n, b.trace->n);
	cr_assert_eq(memcmp(a.trace->ev, b.trace->ev,
			    a.trace->n * sizeof(a.trace->ev[0])), 0);
	cr_assert_eq(a.digest, b.digest);
	cr_assert_eq(a.digest, a.trace->digest);
	cr_assert_neq(a.digest, c.digest);
	cr_assert_not(same_order(a.trace, c.trace));
	wt_run_result_free(&a);
	wt_run_result_free(&b);
	wt_run_result_free(&c);
}

/*
 * The digest is a property of (seed, build), not of the process: a forked
 * child computes it afresh for the same seed and PCT policy and sends it
 * through a pipe; it equals the parent's.
 */
Test(sched_sim, digest_is_stable_across_processes)
{
	struct wt_run_result res;
	uint64_t child_digest = 0;
	int fds[2], status;
	pid_t pid;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	/* No Criterion call in the child: with --full-stats even a passing
	 * assertion talks to the runner, and the child would block on it. */
	if (pid == 0) {
		close(fds[0]);
		if (run_steps(99, WT_POLICY_PCT, &res) != WT_RUN_OK)
			_exit(1);
		if (write(fds[1], &res.digest, sizeof(res.digest)) !=
		    (ssize_t)sizeof(res.digest))
			_exit(1);
		_exit(0);
	}
	cr_assert_geq(pid, 0);
	close(fds[1]);
	cr_assert_eq(run_steps(99, WT_POLICY_PCT, &res), WT_RUN_OK);
	cr_assert_eq(read(fds[0], &child_digest, sizeof(child_digest)),
		     (ssize_t)sizeof(child_digest));
	close(fds[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_assert_eq(child_digest, res.digest);
	cr_assert_gt(res.pct_bound, 0.0);
	wt_run_result_free(&res);
}

/* ---- waits ---- */

static unsigned run_lock_workload(enum wt_policy policy, uint64_t seed,
				  double p)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	unsigned waits = 0;

	tthreads_init(&ts, 3, names3);
	cfg.seed = seed;
	cfg.policy = policy;
	cfg.random_switch_p = p;
	cfg.pct_steps = 800;
	cfg.trace = true;
	cfg.max_points = 100000;
	spin_lock_init(&g_lock);
	g_counter = 0;
	cr_assert_eq(wt_run(&cfg, ts.n, ts.p, lock_body, NULL, &res), WT_RUN_OK,
		     "policy %s seed %llu: %s", wt_policy_name(policy),
		     (unsigned long long)seed, res.report);
	cr_assert_eq(g_counter, 150, "lost updates under the lock");
	for (size_t i = 0; i < res.trace->n; i++)
		waits += !!(res.trace->ev[i].flags & WT_EV_WAIT);
	wt_run_result_free(&res);
	return waits;
}

/*
 * A spinlock waiter is blocked on a condition, not spinning: PCT (whose
 * highest-priority thread would spin forever on a lock a lower one holds)
 * and random (with a high switch rate) finish a contended lock workload
 * well within max_points, over several seeds, with contended acquires
 * (wait events) seen and no update lost.
 */
Test(sched_sim, pct_and_random_do_not_livelock_on_a_spinlock)
{
	unsigned waits = 0;

	for (uint64_t seed = 1; seed <= 8; seed++) {
		waits += run_lock_workload(WT_POLICY_PCT, seed, 0);
		waits += run_lock_workload(WT_POLICY_RANDOM, seed, 0.5);
	}
	cr_assert_gt(waits, 0, "the workload never contended: proves nothing");
}

static spinlock_t g_l1, g_l2;

static void ab_body(struct wt_thread *t, void *arg)
{
	spinlock_t *first = t->id == 0 ? &g_l1 : &g_l2;
	spinlock_t *second = t->id == 0 ? &g_l2 : &g_l1;

	(void)arg;
	spin_lock_at(first, "test.dl.first");
	WT_EVENT("test.dl.holding", NULL);
	spin_lock_at(second, "test.dl.second");
	spin_unlock(second);
	spin_unlock(first);
}

/*
 * Two threads taking two locks in opposite order, driven into the
 * deadlock by a directed schedule (each holds its first lock, then alice
 * runs on): the run ends with WT_RUN_DEADLOCK, not a hang, and the report
 * names both threads as blocked at their second acquire (point name and
 * file:line).
 */
Test(sched_sim, abba_deadlock_is_detected_and_reported)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	struct wt_parse_error err;
	struct wt_schedule *sch = wt_schedule_parse(
		"alice until test.dl.holding\n"
		"bob until test.dl.holding\n"
		"alice finish\n", &err);

	cr_assert_not_null(sch, "%s", err.msg);
	tthreads_init(&ts, 2, names2);
	spin_lock_init(&g_l1);
	spin_lock_init(&g_l2);
	cfg.policy = WT_POLICY_DIRECTED;
	cfg.schedule = sch;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, ab_body, NULL, &res), WT_RUN_DEADLOCK,
		     "%s", res.report);
	cr_assert(strstr(res.report, "thread alice (#0) blocked, last point "
			 "test.dl.second at "), "%s", res.report);
	cr_assert(strstr(res.report, "thread bob (#1) blocked, last point "
			 "test.dl.second at "), "%s", res.report);
	cr_assert(strstr(res.report, "test_sched_sim.c:"), "%s", res.report);
	cr_assert(res.threads[0].blocked && res.threads[1].blocked);
	cr_assert_not(res.threads[0].finished);
	wt_run_result_free(&res);
	wt_schedule_free(sch);
}

static void forever_body(struct wt_thread *t, void *arg)
{
	(void)t;
	(void)arg;
	for (;;)	/* never ends, on purpose: max_points must catch it */
		WT_EVENT("test.sched.forever", NULL);
}

/*
 * A thread that never ends is reported as stuck once max_points points
 * have passed, with its last point, instead of hanging the run.
 */
Test(sched_sim, no_progress_within_max_points_is_reported)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 1, names2);
	cfg.max_points = 1000;
	cr_assert_eq(wt_run(&cfg, 1, ts.p, forever_body, NULL, &res),
		     WT_RUN_STUCK);
	cr_assert_eq(res.points, 1001);
	cr_assert(strstr(res.report, "alice (#0) runnable, last point "
			 "test.sched.forever"), "%s", res.report);
	wt_run_result_free(&res);
}

/* alice halts at her tenth step, noting bob's count of his (g_halt) */
static struct {
	unsigned bob_steps, bob_at_halt;
	const struct wt_point *at;
} g_halt;

static void halt_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < 40; i++) {
		WT_EVENT("test.sched.step", NULL);
		if (t->id == 0 && i == 9) {
			g_halt.bob_at_halt = g_halt.bob_steps;
			g_halt.at = WT_POINT(WT_K_EVENT, "test.sched.halt", NULL,
					     "halt_body's halt");
			wt_halt(g_halt.at, "alice read poison");
		}
		if (t->id == 1)
			g_halt.bob_steps++;
	}
}

/*
 * wt_halt ends a sim run where the fiber stands, as a stuck one is ended:
 * status WT_RUN_HALTED, the reason and every thread's state in the
 * report, nothing run after it, and the halt's point the trace's last
 * event, alice's.  Outside a run it returns (the thread goes on).
 */
Test(sched_sim, halt_ends_the_run_where_the_fiber_stands)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 2, names2);
	cfg.policy = WT_POLICY_RANDOM;
	cfg.seed = 7;
	cfg.trace = true;
	memset(&g_halt, 0, sizeof(g_halt));
	cr_assert_eq(wt_run(&cfg, 2, ts.p, halt_body, NULL, &res),
		     WT_RUN_HALTED, "%s", res.report);
	cr_assert_str_eq(wt_run_status_name(res.status), "halted");
	cr_assert(strstr(res.report, "halted: alice read poison"), "%s",
		  res.report);
	cr_assert(strstr(res.report, "alice (#0) runnable"), "%s", res.report);
	cr_assert_not(res.threads[0].finished);
	cr_assert_eq(g_halt.bob_steps, g_halt.bob_at_halt);
	cr_assert(res.trace && res.trace->n > 0);
	cr_assert_eq(res.trace->ev[res.trace->n - 1].thread, 0);
	cr_assert_eq(res.trace->ev[res.trace->n - 1].point,
		     wt_point_id(g_halt.at));
	wt_run_result_free(&res);
	wt_halt(NULL, "outside a run: nothing happens");
}

#if !defined(WT_ASAN) && !defined(WT_TSAN)	/* their handlers report a fault */
/* The poison a freed object's pointer fields hold (sim/obj.h). */
#define POISON_PTR ((volatile const char *)(uintptr_t)0x6b6b6b6b6b6b6b6bull)

static struct {
	enum wt_check check;
	unsigned n;
	char msg[256];
	char seen;
} g_fault;

static void fault_sink(struct wt_thread *t, enum wt_check check,
		       const struct wt_point *p, const void *obj,
		       const char *msg)
{
	(void)t;
	(void)p;
	(void)obj;
	g_fault.check = check;
	g_fault.n++;
	snprintf(g_fault.msg, sizeof(g_fault.msg), "%s", msg);
}

/* alice follows a poison pointer at her sixth step */
static void fault_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < 10; i++) {
		WT_EVENT("test.sched.step", NULL);
		if (t->id == 0 && i == 5)
			g_fault.seen = *POISON_PTR;
	}
}

/*
 * The fault net: a sim fiber that faults (a poison pointer followed) is
 * a `fault' failure at its last point and halts the run, as a poisoned
 * read does; the process goes on, and runs again.  (A signal sent
 * rather than a fault goes to the old handler: test_isolation's
 * harness-fault crash.)
 */
Test(sched_sim, a_fault_in_a_fiber_halts_the_run_not_the_process)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 2, names2);
	for (unsigned k = 0; k < 2; k++) {
		memset(&g_fault, 0, sizeof(g_fault));
		for (unsigned i = 0; i < 2; i++)
			ts.p[i]->on_violation = fault_sink;
		cr_assert_eq(wt_run(&cfg, 2, ts.p, fault_body, NULL, &res),
			     WT_RUN_HALTED, "%s", res.report);
		cr_assert_eq(g_fault.n, 1);
		cr_assert_eq(g_fault.check, WT_CHECK_FAULT);
		cr_assert_str_eq(wt_check_name(WT_CHECK_FAULT), "fault");
		cr_assert(strstr(g_fault.msg, "SIGSEGV at address"), "%s",
			  g_fault.msg);
		cr_assert(strstr(g_fault.msg, "after test.sched.step"), "%s",
			  g_fault.msg);
		cr_assert(strstr(res.report, "halted: the thread faulted"),
			  "%s", res.report);
		wt_run_result_free(&res);
	}
}
#endif

/* ---- directed ---- */

static void ab_effects_body(struct wt_thread *t, void *arg)
{
	char what[16];

	(void)arg;
	snprintf(what, sizeof(what), "%s1", t->name);
	tlog_add(&g_log, what);
	if (t->id == 0)
		WT_EVENT("test.stop", NULL);
	else
		WT_EVENT("test.sched.bob_mid", NULL);
	snprintf(what, sizeof(what), "%s2", t->name);
	tlog_add(&g_log, what);
}

static int run_directed(const char *text, struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_schedule *sch = tsched_parse(text);
	int rc;

	tthreads_init(&ts, 2, names2);
	cfg.policy = WT_POLICY_DIRECTED;
	cfg.schedule = sch;
	cfg.seed = 3;
	memset(&g_log, 0, sizeof(g_log));
	rc = wt_run(&cfg, 2, ts.p, ab_effects_body, NULL, res);
	wt_schedule_free(sch);
	return rc;
}

/*
 * A directed schedule stops alice at test.stop (after her first effect,
 * before her second), runs bob to completion, then resumes alice: the
 * effects come exactly in that order; the opposite schedule gives the
 * opposite order, so the order is the schedule's, not an accident.
 */
Test(sched_sim, directed_stop_run_other_resume)
{
	struct wt_run_result res;
	char buf[256];

	cr_assert_eq(run_directed("# stop alice at her point\n"
				  "alice until test.stop\n"
				  "bob finish\n"
				  "alice finish\n", &res), WT_RUN_OK, "%s",
		     res.report);
	tlog_join(&g_log, buf, sizeof(buf));
	cr_assert_str_eq(buf, "alice1 bob1 bob2 alice2");
	cr_assert_eq(res.steps_done, 3);
	wt_run_result_free(&res);

	cr_assert_eq(run_directed("bob until test.sched.bob_mid\n"
				  "alice finish\n"
				  "bob finish\n", &res), WT_RUN_OK);
	tlog_join(&g_log, buf, sizeof(buf));
	cr_assert_str_eq(buf, "bob1 alice1 alice2 bob2");
	wt_run_result_free(&res);
}

/*
 * A step that cannot happen (alice never reaches bob's point: she
 * finishes first) is reported as a schedule error naming the step and
 * its line; the run still ends with every thread finished.
 */
Test(sched_sim, impossible_step_is_an_error_not_a_hang)
{
	struct wt_run_result res;

	cr_assert_eq(run_directed("bob run 1\n"
				  "alice until test.sched.bob_mid\n", &res),
		     WT_RUN_SCHEDULE_ERROR);
	cr_assert_eq(res.step_failed, 2);
	cr_assert(strstr(res.report, "step 2 (line 2)"), "%s", res.report);
	cr_assert(res.threads[0].finished && res.threads[1].finished);
	wt_run_result_free(&res);
}

/*
 * Schedule text errors are rejected with the line and column of the
 * offending word.
 */
Test(sched_sim, schedule_parser_reports_positions)
{
	struct wt_parse_error err;

	cr_assert_null(wt_schedule_parse("alice finish\nbob walk 3\n", &err));
	cr_assert_eq(err.line, 2);
	cr_assert_eq(err.col, 5, "col %u: %s", err.col, err.msg);
	cr_assert_null(wt_schedule_parse("alice until no.such.point\n", &err));
	cr_assert_eq(err.line, 1);
	cr_assert_eq(err.col, 13, "col %u: %s", err.col, err.msg);
	cr_assert_null(wt_schedule_parse("alice run x\n", &err));
	cr_assert_eq(err.col, 11);
	cr_assert_null(wt_schedule_parse("alice until test.stop nth=2 junk\n", &err));
	cr_assert_eq(err.col, 29, "col %u: %s", err.col, err.msg);
}

/* ---- stopping ---- */

static void looper_body(struct wt_thread *t, void *arg)
{
	unsigned *loops = arg;

	(void)t;
	while (!wt_should_stop()) {
		WT_EVENT("test.sched.loop", NULL);
		(*loops)++;
	}
}

static void stopper_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	for (int i = 0; i < 20; i++)
		WT_EVENT("test.sched.before_stop", NULL);
	(void)t;
	wt_request_stop();
}

static void mixed_body(struct wt_thread *t, void *arg)
{
	if (t->id == 0)
		looper_body(t, arg);
	else
		stopper_body(t, arg);
}

/*
 * A looping body ends when another thread requests the stop: the run
 * finishes (status ok) and the looper ran some laps, not forever.
 */
Test(sched_sim, stop_request_ends_looping_bodies)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	unsigned loops = 0;
	void *args[2] = { &loops, NULL };

	tthreads_init(&ts, 2, names2);
	cfg.max_points = 100000;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, mixed_body, args, &res), WT_RUN_OK,
		     "%s", res.report);
	cr_assert_gt(loops, 0);
	cr_assert(res.threads[0].finished && res.threads[1].finished);
	wt_run_result_free(&res);
}

/* ---- fairness: a forever thread under PCT and POS ---- */

/* A shrinker-like loop: never waits, ends a turn every few points. */
static void fair_forever_body(struct wt_thread *t, void *arg)
{
	const bool *yield = arg;

	(void)t;
	while (!wt_should_stop()) {
		WT_EVENT("test.sched.fair_turn", NULL);
		WT_EVENT("test.sched.fair_turn_end", NULL);
		if (*yield)
			wt_yield();
	}
}

static void fair_body(struct wt_thread *t, void *arg)
{
	if (t->id == 0)
		fair_forever_body(t, arg);
	else
		stopper_body(t, NULL);
}

/* Seeds of runs (of 40) that ended OK; demotions summed into *demoted. */
static unsigned fair_runs(enum wt_policy policy, bool yield, bool promote,
			  uint64_t *demoted)
{
	struct wt_preempt pin = { .thread = 0, .promote = true, .nth = 1 };
	unsigned ok = 0;

	wt_points_catalogue();
	pin.point = wt_point_id(wt_point_lookup("test.sched.fair_turn"));
	*demoted = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		bool y = yield;
		void *args[2] = { &y, NULL };

		tthreads_init(&ts, 2, names2);
		cfg.seed = seed;
		cfg.policy = policy;
		cfg.pct_depth = 1;	/* no change point: priorities stay */
		cfg.max_points = 20000;
		if (promote) {
			cfg.preempts = &pin;
			cfg.npreempts = 1;
		}
		ok += wt_run(&cfg, 2, ts.p, fair_body, args, &res) == WT_RUN_OK;
		*demoted += res.fair_demotions;
		wt_run_result_free(&res);
	}
	return ok;
}

/*
 * A thread that loops for ever without waiting, on top under PCT with no
 * change point left (or under POS pinned on top, as explore's promotions
 * pin), starves the finite thread until max_points: in about half the
 * seeds (its priority is drawn) without wt_yield.  With wt_yield at the
 * end of each turn, fairness puts it below the other and every run ends.
 */
Test(sched_sim, a_forever_thread_that_yields_cannot_starve_the_others)
{
	uint64_t demoted;
	unsigned ok;

	ok = fair_runs(WT_POLICY_PCT, false, false, &demoted);
	cr_assert(ok > 0 && ok < 40, "PCT without yields: %u of 40 ok", ok);
	cr_assert_eq(demoted, 0);
	cr_assert_eq(fair_runs(WT_POLICY_PCT, true, false, &demoted), 40);
	cr_assert_gt(demoted, 0);
	cr_assert_lt(fair_runs(WT_POLICY_POS, false, true, &demoted), 40);
	cr_assert_eq(fair_runs(WT_POLICY_POS, true, true, &demoted), 40);
	cr_assert_gt(demoted, 0);
	/* the random policy switches by itself: no demotion, all end */
	cr_assert_eq(fair_runs(WT_POLICY_RANDOM, true, false, &demoted), 40);
	cr_assert_eq(demoted, 0);
}

/*
 * A forever thread that shares the CPU is never demoted, and its yields
 * then change nothing: the same trace as without them.  Fairness only
 * changes runs that would otherwise starve a thread for turns on end.
 */
Test(sched_sim, fairness_leaves_a_forever_thread_that_shares_alone)
{
	unsigned same = 0;

	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result a, b;
		bool y = true, n = false;
		void *ya[2] = { &y, NULL }, *na[2] = { &n, NULL };

		/* POS draws again at every operation: they share the CPU */
		cfg.seed = seed;
		cfg.policy = WT_POLICY_POS;
		tthreads_init(&ts, 2, names2);
		cr_assert_eq(wt_run(&cfg, 2, ts.p, fair_body, ya, &a), WT_RUN_OK);
		tthreads_init(&ts, 2, names2);
		cr_assert_eq(wt_run(&cfg, 2, ts.p, fair_body, na, &b), WT_RUN_OK);
		if (a.fair_demotions == 0) {
			cr_assert_eq(a.digest, b.digest, "seed %lu", (unsigned long)seed);
			same++;
		}
		wt_run_result_free(&a);
		wt_run_result_free(&b);
	}
	cr_assert_gt(same, 0);
}

static void exit_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	WT_EVENT("test.sched.exit_before", NULL);
	if (t->id == 0)
		wt_thread_exit();
	tlog_add(&g_log, t->name);
}

/*
 * wt_thread_exit() abandons the calling body at once (its later effect
 * never happens, it is marked aborted and not finished) while the other
 * threads run to their end.
 */
Test(sched_sim, thread_exit_abandons_only_that_body)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	char buf[64];

	tthreads_init(&ts, 2, names2);
	memset(&g_log, 0, sizeof(g_log));
	cr_assert_eq(wt_run(&cfg, 2, ts.p, exit_body, NULL, &res), WT_RUN_OK);
	tlog_join(&g_log, buf, sizeof(buf));
	cr_assert_str_eq(buf, "bob");
	cr_assert(res.threads[0].aborted && !res.threads[0].finished);
	cr_assert(res.threads[1].finished && !res.threads[1].aborted);
	cr_assert_null(ts.t[0].sched, "runtime fields are cleared after a run");
	wt_run_result_free(&res);
}

/*
 * wt_self is the running fiber's thread inside a body and is restored to
 * the caller's value after the run.
 */
static void self_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++) {
		WT_EVENT("test.sched.self", NULL);
		cr_assert_eq(wt_self, t);
	}
}

Test(sched_sim, wt_self_follows_the_fibers)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 3, names3);
	cfg.random_switch_p = 0.5;
	cr_assert_null(wt_self);
	cr_assert_eq(wt_run(&cfg, 3, ts.p, self_body, NULL, &res), WT_RUN_OK);
	cr_assert_null(wt_self);
	cr_assert_eq(res.hits[wt_point_id(wt_point_lookup("test.sched.self"))], 30);
	wt_run_result_free(&res);
}

/* ---- fibers kept across runs (wt_run_cache) ---- */

static spinlock_t g_held;

/* alice takes the lock and ends holding it; bob blocks on it (the
 * schedule has him try while alice still runs). */
static void hold_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		spin_lock_at(&g_held, "test.cache.take");
		WT_EVENT("test.cache.held", NULL);
		return;
	}
	spin_lock_at(&g_held, "test.cache.block");
	spin_unlock(&g_held);
}

static int run_in(struct wt_run_cache *cache, const char *text,
		  void (*body)(struct wt_thread *, void *),
		  struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_parse_error err;
	struct wt_schedule *sch = text ? wt_schedule_parse(text, &err) : NULL;
	int rc;

	cr_assert(!text || sch, "%s", err.msg);
	tthreads_init(&ts, 2, names2);
	cfg.cache = cache;
	cfg.schedule = sch;
	cfg.policy = sch ? WT_POLICY_DIRECTED : WT_POLICY_RANDOM;
	cfg.max_points = 1000;
	rc = wt_run(&cfg, 2, ts.p, body, NULL, res);
	wt_schedule_free(sch);
	return rc;
}

/* The two step threads under random, with one rule, in cache. */
static int run_rule_in(struct wt_run_cache *cache, const struct wt_rule *rule,
		       struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;

	tthreads_init(&ts, 2, names2);
	cfg.cache = cache;
	cfg.policy = WT_POLICY_RANDOM;
	cfg.rules = rule;
	cfg.nrules = 1;
	cfg.max_points = 1000;
	return wt_run(&cfg, 2, ts.p, steps_body, NULL, res);
}

/* a's counters are b's, per thread and summed, and a's touched list has
 * every point with hits exactly once. */
static void assert_same_hits(const struct wt_run_result *a,
			     const struct wt_run_result *b)
{
	uint8_t *listed = calloc(a->npoints + 1, 1);
	uint32_t nonzero = 0;

	cr_assert_not_null(listed);
	cr_assert_eq(a->npoints, b->npoints);
	cr_assert_eq(a->nthreads, b->nthreads);
	for (uint32_t p = 0; p < a->npoints; p++) {
		cr_assert_eq(a->hits[p], b->hits[p], "%s",
			     wt_point_name(wt_point_by_id(p)));
		for (unsigned i = 0; i < a->nthreads; i++) {
			size_t at = (size_t)i * a->npoints + p;

			cr_assert_eq(a->thread_hits[at], b->thread_hits[at]);
		}
		nonzero += a->hits[p] != 0;
	}
	cr_assert_eq(a->ntouched, nonzero);
	for (uint32_t k = 0; k < a->ntouched; k++) {
		uint32_t p = a->touched[k];

		cr_assert(p < a->npoints && a->hits[p] && !listed[p]);
		listed[p] = 1;
	}
	free(listed);
}

/*
 * Runs that end early leave a cache as good as new: a deadlock found when
 * a thread's body ends (alice ends holding the lock bob waits for: the
 * run is abandoned from alice's parked fiber), a deadlock found when the
 * last thread blocks (ABBA), and a stuck run (max_points) are each
 * followed, on the same cache, by a run whose trace is byte-identical to
 * the same seed's run on fresh fibers, with the same hit counters (the
 * cache's, cleared where the runs before touched them, for 2 threads then
 * 3).  A parked fiber that the abandon overwrote, or an abandoned one
 * resumed, would crash or change the trace; a count left over would
 * change the hits.
 */
Test(sched_sim, a_cache_survives_runs_that_end_early)
{
	struct wt_run_cache *cache = wt_run_cache_create();
	struct wt_run_result fresh, res;

	cr_assert_not_null(cache);
	cr_assert_eq(run_steps(7, WT_POLICY_RANDOM, &fresh), WT_RUN_OK);
	for (int round = 0; round < 3; round++) {
		spin_lock_init(&g_held);
		cr_assert_eq(run_in(cache, "alice until test.cache.held\n"
				    "bob finish\n", hold_body, &res),
			     WT_RUN_DEADLOCK, "%s", res.report);
		cr_assert(res.threads[0].finished && res.threads[1].blocked,
			  "%s", res.report);
		wt_run_result_free(&res);
		spin_lock_init(&g_l1);
		spin_lock_init(&g_l2);
		cr_assert_eq(run_in(cache, "alice until test.dl.holding\n"
				    "bob until test.dl.holding\n"
				    "alice finish\n", ab_body, &res),
			     WT_RUN_DEADLOCK, "%s", res.report);
		wt_run_result_free(&res);
		cr_assert_eq(run_in(cache, NULL, forever_body, &res),
			     WT_RUN_STUCK, "%s", res.report);
		wt_run_result_free(&res);
		cr_assert_eq(run_steps_in(cache, 7, WT_POLICY_RANDOM, &res),
			     WT_RUN_OK, "%s", res.report);
		cr_assert_eq(res.trace->n, fresh.trace->n);
		cr_assert_eq(memcmp(res.trace->ev, fresh.trace->ev,
				    res.trace->n * sizeof(res.trace->ev[0])), 0);
		cr_assert_eq(res.digest, fresh.digest);
		cr_assert(res.counters_cached && !fresh.counters_cached);
		assert_same_hits(&res, &fresh);
		assert_same_hits(&fresh, &res);
		wt_run_result_free(&res);
	}
	wt_run_result_free(&fresh);
	wt_run_cache_destroy(cache);
}

/*
 * A traced run with a cache and trace_on_demand leaves the trace in the
 * cache's ring: the result has none, the digest is the same, and
 * wt_run_cache_trace makes the very trace an eager run returns (every
 * field of every event), as often as asked until the next run; a run
 * traced eagerly, or not traced, leaves nothing to ask for.
 */
Test(sched_sim, a_trace_on_demand_is_the_trace_an_eager_run_returns)
{
	struct wt_run_cache *cache = wt_run_cache_create();
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result eager, lazy;
	struct wt_trace *tr;

	cr_assert_not_null(cache);
	cr_assert_eq(run_steps(7, WT_POLICY_RANDOM, &eager), WT_RUN_OK);
	cfg.trace = true;
	cfg.trace_on_demand = true;
	cr_assert_eq(run_steps_with(cfg, cache, 7, WT_POLICY_RANDOM, &lazy),
		     WT_RUN_OK);
	cr_assert_null(lazy.trace);
	cr_assert_eq(lazy.digest, eager.digest);
	for (int round = 0; round < 2; round++) {
		tr = wt_run_cache_trace(cache);
		cr_assert_not_null(tr);
		cr_assert_eq(tr->n, eager.trace->n);
		cr_assert_eq(tr->total, eager.trace->total);
		cr_assert_eq(tr->digest, eager.trace->digest);
		cr_assert_eq(memcmp(tr->ev, eager.trace->ev,
				    tr->n * sizeof(tr->ev[0])), 0);
		wt_trace_free(tr);
	}
	wt_run_result_free(&lazy);
	cr_assert_eq(run_steps_in(cache, 7, WT_POLICY_RANDOM, &lazy), WT_RUN_OK);
	cr_assert_not_null(lazy.trace);
	cr_assert_null(wt_run_cache_trace(cache));
	wt_run_result_free(&lazy);
	wt_run_result_free(&eager);
	wt_run_cache_destroy(cache);
}

/*
 * hits_by_thread leaves the sum to the caller: in a cache that a summed
 * run used before (so its totals must have been cleared), the result's
 * hits are all zero and its touched list empty, while each thread's row
 * and its touched list (threads[i].ntouched entries) are those of a
 * summed run of the same seed, and the rows add up to its hits.
 * wt_run_take_hits adds them up the same, with their total, and leaves
 * the rows zero; the cache's next run, which then clears nothing, has
 * the rows a fresh cache gives.
 */
Test(sched_sim, hits_by_thread_are_the_rows_of_a_summed_run)
{
	struct wt_run_cache *cache = wt_run_cache_create();
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result summed, rows;
	uint64_t *sum, total;

	cr_assert_not_null(cache);
	cr_assert_eq(run_steps(7, WT_POLICY_RANDOM, &summed), WT_RUN_OK);
	cr_assert_eq(run_steps_in(cache, 8, WT_POLICY_RANDOM, &rows), WT_RUN_OK);
	wt_run_result_free(&rows);
	cfg.hits_by_thread = true;
	cr_assert_eq(run_steps_with(cfg, cache, 7, WT_POLICY_RANDOM, &rows),
		     WT_RUN_OK);
	cr_assert_eq(rows.ntouched, 0);
	sum = calloc(rows.npoints + 1, sizeof(*sum));
	cr_assert_not_null(sum);
	for (unsigned i = 0; i < rows.nthreads; i++) {
		const uint64_t *row = &rows.thread_hits[(size_t)i * rows.npoints];
		const uint32_t *tl = &rows.thread_touched[(size_t)i * rows.npoints];
		uint32_t nonzero = 0;

		for (uint32_t p = 0; p < rows.npoints; p++) {
			cr_assert_eq(rows.hits[p], 0);
			cr_assert_eq(row[p], summed.thread_hits[(size_t)i *
							      rows.npoints + p]);
			nonzero += row[p] != 0;
		}
		cr_assert_eq(rows.threads[i].ntouched, nonzero);
		for (uint32_t k = 0; k < rows.threads[i].ntouched; k++)
			sum[tl[k]] += row[tl[k]];
	}
	total = 0;
	for (uint32_t p = 0; p < rows.npoints; p++) {
		cr_assert_eq(sum[p], summed.hits[p], "%s",
			     wt_point_name(wt_point_by_id(p)));
		total += sum[p];
	}
	memset(sum, 0, (rows.npoints + 1) * sizeof(*sum));
	cr_assert_eq(wt_run_take_hits(&rows, sum, rows.npoints), total);
	for (uint32_t p = 0; p < rows.npoints; p++) {
		cr_assert_eq(sum[p], summed.hits[p]);
		for (unsigned i = 0; i < rows.nthreads; i++)
			cr_assert_eq(rows.thread_hits[(size_t)i * rows.npoints + p], 0);
	}
	for (unsigned i = 0; i < rows.nthreads; i++)
		cr_assert_eq(rows.threads[i].ntouched, 0);
	wt_run_result_free(&rows);
	/* the next run in the cache: another seed's rows, nothing left over */
	wt_run_result_free(&summed);
	cr_assert_eq(run_steps(8, WT_POLICY_RANDOM, &summed), WT_RUN_OK);
	cr_assert_eq(run_steps_with(cfg, cache, 8, WT_POLICY_RANDOM, &rows),
		     WT_RUN_OK);
	for (unsigned i = 0; i < rows.nthreads; i++)
		for (uint32_t p = 0; p < rows.npoints; p++)
			cr_assert_eq(rows.thread_hits[(size_t)i * rows.npoints + p],
				     summed.thread_hits[(size_t)i * rows.npoints + p]);
	free(sum);
	wt_run_result_free(&rows);
	wt_run_result_free(&summed);
	wt_run_cache_destroy(cache);
}

/*
 * hits_sum counts in place: a run given it (in a cache a summed run used
 * before) adds each point's arrivals to the caller's array, over what it
 * held, and leaves the result's hits, rows and touched lists empty; the
 * sum is the summed run's hits of the same seed, the schedule the same
 * (digest), and wt_run_take_hits returns the same total without
 * touching the array.  The cache's next run without it has the rows a
 * fresh run has: nothing was left in them.
 */
Test(sched_sim, hits_in_place_are_what_a_summed_run_counts)
{
	struct wt_run_cache *cache = wt_run_cache_create();
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result summed, inplace;
	uint64_t *sum, total = 0;

	cr_assert_not_null(cache);
	cr_assert_eq(run_steps(7, WT_POLICY_RANDOM, &summed), WT_RUN_OK);
	cr_assert_eq(run_steps_in(cache, 8, WT_POLICY_RANDOM, &inplace),
		     WT_RUN_OK);
	wt_run_result_free(&inplace);
	sum = calloc(summed.npoints + 1, sizeof(*sum));
	cr_assert_not_null(sum);
	for (uint32_t p = 0; p < summed.npoints; p++)
		sum[p] = 1;		/* added to, not overwritten */
	cfg.trace = true;
	cfg.hits_sum = sum;
	cr_assert_eq(run_steps_with(cfg, cache, 7, WT_POLICY_RANDOM, &inplace),
		     WT_RUN_OK);
	cr_assert(inplace.hits_in_place);
	cr_assert_eq(inplace.digest, summed.digest);
	cr_assert_eq(inplace.ntouched, 0);
	for (uint32_t p = 0; p < summed.npoints; p++) {
		cr_assert_eq(sum[p], summed.hits[p] + 1, "%s",
			     wt_point_name(wt_point_by_id(p)));
		cr_assert_eq(inplace.hits[p], 0);
		for (unsigned i = 0; i < inplace.nthreads; i++)
			cr_assert_eq(inplace.thread_hits[(size_t)i *
							 summed.npoints + p], 0);
		total += summed.hits[p];
	}
	for (unsigned i = 0; i < inplace.nthreads; i++)
		cr_assert_eq(inplace.threads[i].ntouched, 0);
	cr_assert_eq(wt_run_take_hits(&inplace, NULL, 0), total);
	for (uint32_t p = 0; p < summed.npoints; p++)
		cr_assert_eq(sum[p], summed.hits[p] + 1);
	wt_run_result_free(&inplace);
	/* the next run in the cache, counted in rows as a fresh one is */
	cr_assert_eq(run_steps_in(cache, 7, WT_POLICY_RANDOM, &inplace),
		     WT_RUN_OK);
	cr_assert_not(inplace.hits_in_place);
	for (uint32_t p = 0; p < summed.npoints; p++) {
		cr_assert_eq(inplace.hits[p], summed.hits[p]);
		for (unsigned i = 0; i < inplace.nthreads; i++)
			cr_assert_eq(inplace.thread_hits[(size_t)i *
							 summed.npoints + p],
				     summed.thread_hits[(size_t)i *
							summed.npoints + p]);
	}
	free(sum);
	wt_run_result_free(&inplace);
	wt_run_result_free(&summed);
	wt_run_cache_destroy(cache);
}

/* ---- the sim's own hook target ---- */

static bool g_slow;			/* either_body: wt_hook_slow */
#ifdef WT_HOOK_THUNK
static const void *g_target;		/* the thunk's target, seen by a fiber */
#endif

/* 200 steps at one point, through the hook (and the sim's own target,
 * with the thunk) or straight through the hook's generic slow path. */
static void either_body(struct wt_thread *t, void *arg)
{
	(void)arg;
#ifdef WT_HOOK_THUNK
	g_target = (const void *)wt_hook_target;
#endif
	for (unsigned i = 0; i < 200; i++) {
		const struct wt_point *p = WT_POINT(WT_K_EVENT,
			"test.sched.either", NULL, "either_body's step");

		if (g_slow)
			wt_hook_slow(t, p, NULL);
		else
			wt_hook(p, NULL);
	}
}

static int run_either(bool slow, enum wt_policy policy,
		      const struct wt_rule *rule, struct wt_run_result *res)
{
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct tthreads ts;

	tthreads_init(&ts, 3, names3);
	cfg.seed = 11;
	cfg.policy = policy;
	cfg.rules = rule;
	cfg.nrules = rule ? 1 : 0;
	g_slow = slow;
	return wt_run(&cfg, ts.n, ts.p, either_body, NULL, res);
}

/*
 * A fiber's hook goes to the sim's own target (sim_hook_self: the hook's
 * slow path and the sim's point in one) and does what the generic slow
 * path does: the same seed through either gives the same schedule
 * (digest), points and hits, under random and PCT, with no rule and with
 * a delay rule on some hits of one thread (the target's path for fibers
 * with rules); main's target is back after the run.
 */
Test(sched_sim, the_sims_hook_target_is_the_generic_slow_path)
{
	static const enum wt_policy policy[] = { WT_POLICY_RANDOM,
						 WT_POLICY_PCT };
	struct wt_parse_error err;
	struct wt_rule r;

	cr_assert_eq(wt_rule_parse("at=test.sched.either thread=bob nth=3 "
				   "delay=2us", &r, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < 2 * sizeof(policy) / sizeof(policy[0]); i++) {
		const struct wt_rule *rule = i % 2 ? &r : NULL;
		struct wt_run_result fused, slow;

		cr_assert_eq(run_either(false, policy[i / 2], rule, &fused),
			     WT_RUN_OK);
#ifdef WT_HOOK_THUNK
		cr_assert_neq(g_target, (const void *)wt_hook_slow_self);
		cr_assert_eq(wt_hook_target, wt_hook_slow_self);
#endif
		cr_assert_eq(run_either(true, policy[i / 2], rule, &slow),
			     WT_RUN_OK);
		cr_assert_eq(fused.digest, slow.digest);
		cr_assert_eq(fused.points, slow.points);
		cr_assert_eq(fused.points, 600);
		cr_assert_eq(fused.npoints, slow.npoints);
		for (uint32_t p = 0; p < fused.npoints; p++)
			cr_assert_eq(fused.hits[p], slow.hits[p], "%s",
				     wt_point_name(wt_point_by_id(p)));
		if (rule) {
			cr_assert_gt(fused.rule_matches[0], 0);
			cr_assert_eq(fused.rule_matches[0],
				     slow.rule_matches[0]);
		}
		wt_run_result_free(&fused);
		wt_run_result_free(&slow);
	}
}

/* ---- staying, decided without the candidates ---- */

static unsigned g_evals;
static bool g_flag;
static enum wt_wait_kind g_kind;

static bool flag_counted(const void *arg)
{
	(void)arg;
	g_evals++;
	return g_flag;
}

/* alice waits for the flag bob sets after 100 points; 50 more each. */
static void flag_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		wt_wait(g_kind, flag_counted, NULL);
	} else {
		for (int i = 0; i < 100; i++)
			WT_EVENT("test.sched.step", NULL);
		g_flag = true;
	}
	for (int i = 0; i < 50; i++)
		WT_EVENT("test.sched.step", NULL);
}

/* Directed: alice's first arrival is her wait; bob's first 120 steps
 * then run while she is blocked, all his own step's, and at his 120th
 * the step passes to alice while bob could go on. */
static const char flag_schedule[] =
	"alice run 1\nbob run 120\nalice finish\nbob finish\n";

static void run_flag(uint64_t seed, enum wt_wait_kind kind,
		     enum wt_policy policy, struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_schedule *sch = NULL;

	tthreads_init(&ts, 2, names2);
	cfg.seed = seed;
	cfg.policy = policy;
	/* PCT: both change points at the first two arrivals, so when
	 * alice runs first her wait drops her below bob */
	cfg.pct_steps = 2;
	cfg.trace = true;
	if (policy == WT_POLICY_DIRECTED) {
		sch = tsched_parse(flag_schedule);
		cfg.schedule = sch;
	}
	g_kind = kind;
	g_flag = false;
	g_evals = 0;
	cr_assert_eq(wt_run(&cfg, ts.n, ts.p, flag_body, NULL, res), WT_RUN_OK,
		     "%s", res->report);
	wt_schedule_free(sch);
}

static void assert_stay_is_full_decision(enum wt_policy policy)
{
	unsigned waited = 0, pure = 0, polls = 0;

	for (uint64_t seed = 1; seed <= 16; seed++) {
		struct wt_run_result a, b;

		run_flag(seed, WT_WAIT_SLEEP, policy, &a);
		pure += g_evals;
		run_flag(seed, WT_WAIT_SLEEP_POLL, policy, &b);
		polls += g_evals;
		cr_assert_eq(a.trace->n, b.trace->n, "%s seed %llu",
			     wt_policy_name(policy), (unsigned long long)seed);
		cr_assert_eq(memcmp(a.trace->ev, b.trace->ev,
				    a.trace->n * sizeof(a.trace->ev[0])), 0,
			     "%s seed %llu", wt_policy_name(policy),
			     (unsigned long long)seed);
		cr_assert_eq(a.digest, b.digest);
		for (size_t i = 0; i < a.trace->n; i++)
			waited += !!(a.trace->ev[i].flags & WT_EV_WAIT);
		wt_run_result_free(&a);
		wt_run_result_free(&b);
	}
	cr_assert_gt(waited, 0, "alice never had to wait: proves nothing");
	cr_assert_lt(pure, polls, "%s: every decision evaluated the pure "
		     "condition (%u, polling %u): the short cut was not taken",
		     wt_policy_name(policy), pure, polls);
}

/*
 * While the only blocked fiber's ready() only reads (WT_WAIT_SLEEP), a
 * decision that keeps the running fiber does not evaluate it; while it
 * polls (WT_WAIT_SLEEP_POLL, a grace period's) every decision does.  The
 * two runs of a seed are the same run -- byte-identical traces, equal
 * digests -- so the short cut picks what the full decision picks and
 * draws the same numbers; and it was taken (fewer evaluations).  Under
 * random the stay is the first draw's; under PCT and POS no other fiber
 * has a priority that could win; in a directed schedule the step is the
 * running fiber's.
 */
Test(sched_sim, staying_without_candidates_is_the_full_decision)
{
	assert_stay_is_full_decision(WT_POLICY_RANDOM);
}

Test(sched_sim, staying_without_candidates_is_the_full_decision_pct_pos)
{
	assert_stay_is_full_decision(WT_POLICY_PCT);
	assert_stay_is_full_decision(WT_POLICY_POS);
}

Test(sched_sim, staying_without_candidates_is_the_full_decision_directed)
{
	assert_stay_is_full_decision(WT_POLICY_DIRECTED);
}

/* ---- the short cuts against the full decision ---- */

static unsigned g_carol_evals;

static bool flag_seen(const void *arg)
{
	if (arg)
		g_carol_evals++;
	return g_flag;
}

/* alice (always a pure wait) and carol (g_kind) wait for the flag bob
 * sets after 100 points; then 50 points each. */
static void flag3_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 1) {
		for (int i = 0; i < 100; i++)
			WT_EVENT("test.sched.step", NULL);
		g_flag = true;
	} else {
		wt_wait(t->id == 0 ? WT_WAIT_SLEEP : g_kind, flag_seen,
			t->id == 2 ? t : NULL);
	}
	for (int i = 0; i < 50; i++)
		WT_EVENT("test.sched.step", NULL);
}

static void run_flag3(uint64_t seed, enum wt_wait_kind kind,
		      enum wt_policy policy, bool full,
		      struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;

	tthreads_init(&ts, 3, names3);
	cfg.seed = seed;
	cfg.policy = policy;
	cfg.pct_steps = 300;
	cfg.trace = true;
	cfg.decide_full = full;
	g_kind = kind;
	g_flag = false;
	g_carol_evals = 0;
	cr_assert_eq(wt_run(&cfg, ts.n, ts.p, flag3_body, NULL, res),
		     WT_RUN_OK, "%s", res->report);
}

/*
 * Each run of a seed, with carol's wait pure or polling, is the same run
 * as the one whose every decision computes the candidates (decide_full):
 * byte-identical traces, equal digests.  So the decisions that keep the
 * running fiber or pick without the candidates -- random's first draw,
 * PCT's and POS's top, and, while the top is blocked, the conditions of
 * the fibers that beat the running one alone -- pick what the full
 * decision picks and draw the same numbers; and they were taken: carol's
 * pure condition is evaluated less often than the full decisions
 * evaluate it, her polling one as often.
 */
static void assert_short_cuts_are_full_decisions(enum wt_policy policy)
{
	unsigned fast[2] = { 0, 0 }, full[2] = { 0, 0 };
	enum wt_wait_kind kind[2] = { WT_WAIT_SLEEP, WT_WAIT_SLEEP_POLL };

	for (unsigned k = 0; k < 2; k++)
		for (uint64_t seed = 1; seed <= 24; seed++) {
			struct wt_run_result a, b;

			run_flag3(seed, kind[k], policy, false, &a);
			fast[k] += g_carol_evals;
			run_flag3(seed, kind[k], policy, true, &b);
			full[k] += g_carol_evals;
			cr_assert_eq(a.trace->n, b.trace->n, "%s seed %llu",
				     wt_policy_name(policy),
				     (unsigned long long)seed);
			cr_assert_eq(memcmp(a.trace->ev, b.trace->ev,
					    a.trace->n * sizeof(a.trace->ev[0])),
				     0, "%s seed %llu", wt_policy_name(policy),
				     (unsigned long long)seed);
			cr_assert_eq(a.digest, b.digest);
			wt_run_result_free(&a);
			wt_run_result_free(&b);
		}
	cr_assert_lt(fast[0], full[0], "%s: no short cut was taken",
		     wt_policy_name(policy));
	cr_assert_eq(fast[1], full[1], "%s: a poll was skipped",
		     wt_policy_name(policy));
}

Test(sched_sim, short_cuts_are_the_full_decision)
{
	assert_short_cuts_are_full_decisions(WT_POLICY_RANDOM);
	assert_short_cuts_are_full_decisions(WT_POLICY_PCT);
	assert_short_cuts_are_full_decisions(WT_POLICY_POS);
}

/* ---- free runs ---- */

#define FREE_STEPS	400
static struct wt_mutex g_free_mutex;
static uint64_t g_free_arrivals[3][FREE_STEPS];

/* Steps, with a shared mutex every 40 (waits, and a top that blocks),
 * each thread noting its arrivals as it goes (wt_thread_arrivals). */
static void free_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < FREE_STEPS; i++) {
		WT_EVENT("test.sched.free", NULL);
		if (i % 40 == 7) {
			wt_mutex_lock(&g_free_mutex, WT_POINT(WT_K_LOCK,
				"test.sched.free_lock", NULL,
				"free_body's lock"));
			WT_EVENT("test.sched.free_locked", NULL);
			wt_mutex_unlock(&g_free_mutex, WT_POINT(WT_K_UNLOCK,
				"test.sched.free_unlock", NULL,
				"free_body's unlock"));
		}
		g_free_arrivals[t->id][i] = wt_thread_arrivals(t);
	}
}

/* sch: a directed schedule, for policy WT_POLICY_DIRECTED. */
static void run_free(uint64_t seed, enum wt_policy policy,
		     const struct wt_schedule *sch, bool full, bool trace,
		     struct wt_run_result *res,
		     uint64_t arrivals[3][FREE_STEPS])
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;

	tthreads_init(&ts, 3, names3);
	cfg.seed = seed;
	cfg.policy = policy;
	cfg.schedule = sch;
	cfg.pct_steps = 3 * FREE_STEPS;
	cfg.decide_full = full;
	cfg.trace = trace;
	wt_mutex_init(&g_free_mutex);
	memset(g_free_arrivals, 0, sizeof(g_free_arrivals));
	cr_assert_eq(wt_run(&cfg, ts.n, ts.p, free_body, NULL, res),
		     WT_RUN_OK, "%s", res->report);
	memcpy(arrivals, g_free_arrivals, sizeof(g_free_arrivals));
}

/*
 * The free runs of 12 seeds, against the runs whose every decision
 * computes the candidates, which take no free run: the same digest,
 * points, hits, each thread's arrivals, clock and last point, and what
 * the body read of its own arrivals mid-run; and the same digest as the
 * traced run (whose points are all traced, none free).  More than half
 * the points were free.
 */
static void assert_free_runs_are_full_decisions(enum wt_policy policy,
						const struct wt_schedule *sch)
{
	static uint64_t fa[3][FREE_STEPS], sa[3][FREE_STEPS], ta[3][FREE_STEPS];
	uint64_t free_points = 0, points = 0;

	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct wt_run_result fast, full, traced;

		run_free(seed, policy, sch, false, false, &fast, fa);
		run_free(seed, policy, sch, true, false, &full, sa);
		run_free(seed, policy, sch, false, true, &traced, ta);
		cr_assert_eq(fast.digest, full.digest, "seed %llu",
			     (unsigned long long)seed);
		cr_assert_eq(fast.digest, traced.digest);
		cr_assert_eq(traced.digest, traced.trace->digest);
		cr_assert_eq(fast.points, full.points);
		cr_assert_eq(full.free_points, 0);
		cr_assert_eq(traced.free_points, 0);
		for (uint32_t p = 0; p < fast.npoints; p++)
			cr_assert_eq(fast.hits[p], full.hits[p], "%s",
				     wt_point_name(wt_point_by_id(p)));
		for (unsigned i = 0; i < 3; i++) {
			cr_assert_eq(fast.threads[i].arrivals,
				     full.threads[i].arrivals);
			cr_assert_eq(fast.threads[i].clock_ns,
				     full.threads[i].clock_ns);
			cr_assert_eq(fast.threads[i].last_point,
				     full.threads[i].last_point);
		}
		cr_assert_eq(memcmp(fa, sa, sizeof(fa)), 0, "seed %llu",
			     (unsigned long long)seed);
		cr_assert_eq(memcmp(fa, ta, sizeof(fa)), 0);
		free_points += fast.free_points;
		points += fast.points;
		wt_run_result_free(&fast);
		wt_run_result_free(&full);
		wt_run_result_free(&traced);
	}
	cr_assert_gt(free_points * 2, points, "%llu of %llu points free",
		     (unsigned long long)free_points,
		     (unsigned long long)points);
}

/*
 * Under PCT, the points at which nothing can be decided pass the hook as
 * free runs (sim.c).
 */
Test(sched_sim, free_runs_are_the_full_decisions)
{
	assert_free_runs_are_full_decisions(WT_POLICY_PCT, NULL);
}

/*
 * A directed schedule's `finish' step decides nothing until its thread
 * waits or ends, so its points pass as free runs too; an `until' or a
 * `run' step counts each point, and takes none.  The schedule leaves a
 * thread holding the mutex another waits for (a wait inside a finish),
 * and ends before the threads do (the random policy's rest).
 */
Test(sched_sim, directed_free_runs_are_the_full_decisions)
{
	struct wt_parse_error err;
	struct wt_schedule *sch = wt_schedule_parse(
		"alice until test.sched.free_locked\n"
		"bob finish\n"
		"carol run 30\n"
		"alice finish\n"
		"carol until test.sched.free_locked nth=3\n", &err);

	cr_assert_not_null(sch, "%s", err.msg);
	assert_free_runs_are_full_decisions(WT_POLICY_DIRECTED, sch);
	wt_schedule_free(sch);
}

/* ---- directed steps' point sets kept in the run cache ---- */

/*
 * A run cache keeps the point set of each `until' pattern it has met
 * (16 of them; later patterns get a set of their own a run): runs that
 * share one cache, with more patterns than it holds, some reached and
 * some never reached (an impossible step), each end as the same run
 * without a cache does -- status, steps done, digest -- and so do the
 * first patterns asked again.
 */
Test(sched_sim, until_sets_kept_in_the_cache_are_the_patterns_sets)
{
	static const char *const pattern[] = {
		"test.sched.step", "test.sched.ste*", "test.cache.held",
		"test.sched.st*", "test.sched.s*", "test.dl.holding",
		"test.sched.*", "test.sche*", "test.sch*", "test.sc*",
		"test.cache.*", "test.s*", "tes*", "te*", "*step", "*tep",
		"test.dl.*", "*ep", "*.step", "*sched.step",
	};
	unsigned n = sizeof(pattern) / sizeof(pattern[0]);
	struct wt_run_cache *cache = wt_run_cache_create();

	cr_assert_not_null(cache);
	cr_assert_gt(n, WT_POINT_SET_CACHE);
	for (unsigned lap = 0; lap < 2; lap++)
		for (unsigned i = 0; i < n; i++) {
			struct wt_run_result a, b;
			char text[256];
			int ra, rb;

			snprintf(text, sizeof(text), "alice until %s nth=%u\n"
				 "bob finish\nalice finish\n", pattern[i],
				 1 + i % 7);
			ra = run_in(cache, text, steps_body, &a);
			rb = run_in(NULL, text, steps_body, &b);
			cr_assert_eq(ra, rb, "%s: %s / %s", pattern[i],
				     a.report, b.report);
			cr_assert_eq(a.steps_done, b.steps_done, "%s", pattern[i]);
			cr_assert_eq(a.digest, b.digest, "%s", pattern[i]);
			/* steps_body's only point is test.sched.step */
			cr_assert_eq(ra == WT_RUN_SCHEDULE_ERROR,
				     fnmatch(pattern[i], "test.sched.step", 0) != 0,
				     "%s: %s", pattern[i], a.report);
			wt_run_result_free(&a);
			wt_run_result_free(&b);
		}
	wt_run_cache_destroy(cache);
}

/*
 * The rules' point sets come from the same cache: runs of a rule on each
 * of those patterns (a delay at half its hits, the second lap on sets
 * the first kept, the patterns past the sixteenth on sets of their own)
 * give the run without a cache: status, digest, the rule's matches and
 * fires.  A pattern met first as an until step serves a rule after it.
 */
Test(sched_sim, rule_sets_kept_in_the_cache_are_the_patterns_sets)
{
	static const char *const pattern[] = {
		"test.sched.step", "test.cache.held", "test.sched.ste*",
		"test.dl.holding", "test.sched.st*", "test.cache.*",
		"test.sched.*", "test.dl.*", "test.sche*", "test.sc*",
		"test.s*", "tes*", "*step", "*tep", "*ep", "*.step",
		"*sched.step", "test.sched.ste?", "test.sched.st?p",
		"test.*.step", "t*p",
	};
	unsigned n = sizeof(pattern) / sizeof(pattern[0]);
	struct wt_run_cache *cache = wt_run_cache_create();
	struct wt_run_result u;

	cr_assert_not_null(cache);
	cr_assert_gt(n, WT_POINT_SET_CACHE);
	cr_assert_neq(run_in(cache, "alice until test.sched.st?p nth=3\n"
			     "bob finish\nalice finish\n", steps_body, &u),
		      WT_RUN_SCHEDULE_ERROR, "%s", u.report);
	wt_run_result_free(&u);
	for (unsigned lap = 0; lap < 2; lap++)
		for (unsigned i = 0; i < n; i++) {
			struct wt_run_result a, b;
			struct wt_parse_error pe;
			struct wt_rule rule;
			char text[256];
			int ra, rb;

			snprintf(text, sizeof(text), "at=%s delay=1us p=0.5",
				 pattern[i]);
			cr_assert_eq(wt_rule_parse(text, &rule, &pe), 0, "%s",
				     pe.msg);
			ra = run_rule_in(cache, &rule, &a);
			rb = run_rule_in(NULL, &rule, &b);
			cr_assert_eq(ra, WT_RUN_OK, "%s: %s", pattern[i],
				     a.report);
			cr_assert_eq(ra, rb);
			cr_assert_eq(a.digest, b.digest, "%s", pattern[i]);
			cr_assert_eq(a.rule_matches[0], b.rule_matches[0]);
			cr_assert_eq(a.rule_fires[0], b.rule_fires[0]);
			/* steps_body's only point is test.sched.step */
			if (fnmatch(pattern[i], "test.sched.step", 0)) {
				cr_assert_eq(a.rule_matches[0], 0, "%s",
					     pattern[i]);
			} else {
				cr_assert_eq(a.rule_matches[0], 2 * 200, "%s",
					     pattern[i]);
				cr_assert_gt(a.rule_fires[0], 0);
				cr_assert_lt(a.rule_fires[0],
					     a.rule_matches[0]);
			}
			wt_run_result_free(&a);
			wt_run_result_free(&b);
		}
	wt_run_cache_destroy(cache);
}

/* SPDX-License-Identifier: MIT */
/*
 * The stress backend: pinned pthreads, real delays, real waits.
 */
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/spinlock.h"
#include "test_sched_util.h"

static const char *const names[] = { "walker", "renamer" };

static spinlock_t g_lock;
static unsigned long g_counter;

static void lock_body(struct wt_thread *t, void *arg)
{
	(void)t;
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		spin_lock(&g_lock);
		/* Under the lock: a plain increment, so TSan would see a
		 * race if the lock did not order the threads. */
		g_counter++;
		spin_unlock(&g_lock);
	}
}

static void self_body(struct wt_thread *t, void *arg)
{
	struct wt_thread **seen = arg;

	*seen = wt_self == t ? t : NULL;
	WT_EVENT("test.stress.point", NULL);
}

/*
 * Each thread is pinned to one PU and the binding says which: on this
 * 2-core machine, two threads get two different PUs (spread over the
 * cores); an explicit cpus list is honoured; wt_self is each thread's
 * own wt_thread.
 */
Test(sched_stress, threads_are_pinned_and_the_binding_is_reported)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	struct wt_thread *seen[2] = { NULL, NULL };
	void *args[2] = { &seen[0], &seen[1] };
	unsigned a, b;

	tthreads_init(&ts, 2, names);
	cfg.backend = WT_BACKEND_STRESS;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, self_body, args, &res), WT_RUN_OK,
		     "%s", res.report);
	cr_assert_eq(sscanf(res.binding, "walker:PU#%u renamer:PU#%u", &a, &b),
		     2, "binding '%s'", res.binding);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2)
		cr_assert_neq(a, b, "binding '%s'", res.binding);
	cr_assert_eq(seen[0], &ts.t[0]);
	cr_assert_eq(seen[1], &ts.t[1]);
	wt_run_result_free(&res);

	cfg.cpus = "0";
	cr_assert_eq(wt_run(&cfg, 2, ts.p, self_body, args, &res), WT_RUN_OK);
	cr_assert_str_eq(res.binding, "walker:PU#0 renamer:PU#0");
	wt_run_result_free(&res);

	cfg.cpus = "0-x";
	cr_assert_eq(wt_run(&cfg, 2, ts.p, self_body, args, &res),
		     WT_RUN_CONFIG_ERROR);
	cr_assert(strstr(res.report, "bad cpus"), "%s", res.report);
	wt_run_result_free(&res);
}

/*
 * Real threads contending for a spinlock with its bounded-spin-then-yield
 * wait lose no update (and, under TSan, show no race).
 */
Test(sched_stress, spinlock_workload_is_exact)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 2, names);
	cfg.backend = WT_BACKEND_STRESS;
	spin_lock_init(&g_lock);
	g_counter = 0;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, lock_body, NULL, &res), WT_RUN_OK);
	cr_assert_eq(g_counter, 4000);
	wt_run_result_free(&res);
}

static void delay_body(struct wt_thread *t, void *arg)
{
	(void)t;
	(void)arg;
	for (int i = 0; i < 10; i++)
		WT_EVENT("test.stress.delayed", NULL);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * A stress-mode delay is real time: ten fixed 50 us delays (busy-wait)
 * and one 2 ms delay (sleep) make the run take at least their sum.
 */
Test(sched_stress, delays_take_real_time)
{
	struct wt_rule r[2];
	struct wt_parse_error err;
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	uint64_t t0;

	cr_assert_eq(wt_rule_parse("at=test.stress.delayed thread=walker delay=50us",
				   &r[0], &err), 0);
	cr_assert_eq(wt_rule_parse("at=test.stress.delayed thread=walker nth=3 "
				   "delay=2ms", &r[1], &err), 0);
	tthreads_init(&ts, 2, names);
	cfg.backend = WT_BACKEND_STRESS;
	cfg.rules = r;
	cfg.nrules = 2;
	t0 = mono_ns();
	cr_assert_eq(wt_run(&cfg, 2, ts.p, delay_body, NULL, &res), WT_RUN_OK);
	cr_assert_geq(mono_ns() - t0, 10 * 50000 + 2000000);
	cr_assert_eq(res.rule_fires[0], 10);
	cr_assert_eq(res.hits[wt_point_id(wt_point_lookup("test.stress.delayed"))], 20);
	wt_run_result_free(&res);
}

static void order_body(struct wt_thread *t, void *arg)
{
	if (t->id == 0) {
		WT_EVENT("test.stress.wait_here", NULL);
		tlog_add(arg, "walker");
	} else {
		tlog_add(arg, "renamer");
		WT_EVENT("test.stress.target", NULL);
	}
}

/*
 * preempt-until in stress mode holds the walker until the renamer has
 * reached its point (the renamer's effect, made before that point,
 * comes first in every one of 20 runs) without timing out.
 */
Test(sched_stress, preempt_until_waits_for_the_other_thread)
{
	struct wt_rule r;
	struct wt_parse_error err;
	static struct tlog log;

	cr_assert_eq(wt_rule_parse("at=test.stress.wait_here "
				   "preempt-until=renamer@test.stress.target "
				   "timeout=2s", &r, &err), 0, "%s", err.msg);
	for (int i = 0; i < 20; i++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		void *args[2] = { &log, &log };

		memset(&log, 0, sizeof(log));
		tthreads_init(&ts, 2, names);
		cfg.backend = WT_BACKEND_STRESS;
		cfg.rules = &r;
		cfg.nrules = 1;
		cfg.count_hits = false;	/* the rule turns counting on */
		cr_assert_eq(wt_run(&cfg, 2, ts.p, order_body, args, &res),
			     WT_RUN_OK);
		cr_assert_str_eq(log.what[0], "renamer");
		cr_assert_eq(res.preempt_timeouts, 0);
		wt_run_result_free(&res);
	}
}

static void holder_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		spin_lock(&g_lock);
		wt_thread_exit();	/* leaves with the lock held */
	}
	while (!spin_is_locked(&g_lock))	/* let the walker take it */
		WT_EVENT("test.stress.before", NULL);
	spin_lock(&g_lock);
	spin_unlock(&g_lock);
}

/*
 * A thread abandoned while holding a lock leaves the other blocked
 * forever: the watchdog ends the run after timeout_ms with WT_RUN_STUCK,
 * naming the waiter and its last point, and the waiter leaves its wait
 * through wt_thread_exit() so that the run returns.
 */
Test(sched_stress, watchdog_ends_a_stuck_run)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 2, names);
	cfg.backend = WT_BACKEND_STRESS;
	cfg.timeout_ms = 300;
	spin_lock_init(&g_lock);
	cr_assert_eq(wt_run(&cfg, 2, ts.p, holder_body, NULL, &res), WT_RUN_STUCK,
		     "%s", res.report);
	cr_assert(strstr(res.report, "thread renamer (#1) running"), "%s",
		  res.report);
	cr_assert(res.threads[0].aborted && res.threads[1].aborted);
	wt_run_result_free(&res);

	/* The same bodies in sim mode: a deadlock, found at once. */
	cfg.backend = WT_BACKEND_SIM;
	spin_lock_init(&g_lock);
	cr_assert_eq(wt_run(&cfg, 2, ts.p, holder_body, NULL, &res),
		     WT_RUN_DEADLOCK, "%s", res.report);
	cr_assert(strstr(res.report, "thread renamer (#1) blocked"), "%s",
		  res.report);
	wt_run_result_free(&res);
}

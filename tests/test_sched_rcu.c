/* SPDX-License-Identifier: MIT */
/*
 * The grace-period wait under the sim backend: synchronize_rcu blocks the
 * writer fiber on a condition that only the reader's leaving can make
 * true.
 */
#include <criterion/criterion.h>

#include "sim/rcu.h"
#include "test_sched_util.h"

static const char *const names[] = { "reader", "writer" };
static struct tlog g_log;

static void rcu_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		rcu_read_lock();
		WT_EVENT("test.rcu.inside", NULL);
		for (int i = 0; i < 5; i++)
			WT_EVENT("test.rcu.reading", NULL);
		tlog_add(&g_log, "reader-out");
		rcu_read_unlock();
		WT_EVENT("test.rcu.after_unlock", NULL);
	} else {
		WT_EVENT("test.rcu.writer_start", NULL);
		synchronize_rcu();
		tlog_add(&g_log, "writer-after");
	}
}

/*
 * The reader is stopped inside its read section; the writer is then told
 * to finish and blocks in synchronize_rcu.  The writer is not picked
 * again until the reader has left the section: in the trace, after the
 * writer's wait event, every event up to the reader's rcu_read_unlock is
 * the reader's, and the writer's effect comes after the reader's.
 */
Test(sched_rcu, synchronize_rcu_waits_for_the_reader_fiber)
{
	struct wt_rcu_domain *d = wt_rcu_domain_create(0);
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	struct wt_parse_error err;
	struct wt_schedule *sch = wt_schedule_parse("reader until test.rcu.inside\n"
						    "writer finish\n"
						    "reader finish\n", &err);
	size_t wait_at = 0, exit_at = 0;
	char buf[128];

	cr_assert_not_null(d);
	cr_assert_not_null(sch, "%s", err.msg);
	tthreads_init(&ts, 2, names);
	for (unsigned i = 0; i < 2; i++)
		ts.t[i].rcu = wt_rcu_reader_create(d);
	cfg.policy = WT_POLICY_DIRECTED;
	cfg.schedule = sch;
	cfg.trace = true;
	memset(&g_log, 0, sizeof(g_log));
	cr_assert_eq(wt_run(&cfg, 2, ts.p, rcu_body, NULL, &res), WT_RUN_OK,
		     "%s", res.report);
	tlog_join(&g_log, buf, sizeof(buf));
	cr_assert_str_eq(buf, "reader-out writer-after");
	for (size_t i = 0; i < res.trace->n; i++) {
		const struct wt_trace_event *e = &res.trace->ev[i];
		const struct wt_point *p = wt_point_by_id(e->point);

		if (!wait_at && e->thread == 1 && (e->flags & WT_EV_WAIT))
			wait_at = i;
		if (!exit_at && e->thread == 0 && p->kind == WT_K_RCU_EXIT)
			exit_at = i;
	}
	cr_assert_gt(wait_at, 0, "the writer never blocked: proves nothing");
	cr_assert_gt(exit_at, wait_at);
	for (size_t i = wait_at + 1; i <= exit_at; i++)
		cr_assert_eq(res.trace->ev[i].thread, 0,
			     "writer ran at event %zu while the reader was inside", i);
	for (unsigned i = 0; i < 2; i++)
		wt_rcu_reader_destroy(ts.t[i].rcu);
	wt_rcu_domain_destroy(d);
	wt_run_result_free(&res);
	wt_schedule_free(sch);
}

/*
 * Under the random and PCT policies, over many seeds, every run ends with
 * both effects made: the grace-period wait is a blocked-on-condition wait
 * that neither policy can livelock on (PCT would otherwise keep running
 * a high-priority waiter forever).
 */
Test(sched_rcu, grace_period_under_random_and_pct)
{
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct wt_rcu_domain *d = wt_rcu_domain_create(0);
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;

		tthreads_init(&ts, 2, names);
		for (unsigned i = 0; i < 2; i++)
			ts.t[i].rcu = wt_rcu_reader_create(d);
		cfg.seed = seed;
		cfg.policy = seed % 2 ? WT_POLICY_PCT : WT_POLICY_RANDOM;
		cfg.pct_steps = 20;
		cfg.random_switch_p = 0.5;
		memset(&g_log, 0, sizeof(g_log));
		cr_assert_eq(wt_run(&cfg, 2, ts.p, rcu_body, NULL, &res),
			     WT_RUN_OK, "seed %llu: %s",
			     (unsigned long long)seed, res.report);
		cr_assert_eq(g_log.n, 2);
		for (unsigned i = 0; i < 2; i++)
			wt_rcu_reader_destroy(ts.t[i].rcu);
		wt_rcu_domain_destroy(d);
		wt_run_result_free(&res);
	}
}

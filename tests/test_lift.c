/* SPDX-License-Identifier: MIT */
/*
 * Lift: a stress-mode run, traced, replayed in sim mode from its recorded
 * order, reproduces the walker's exit-path counts exactly.  The workload
 * forces fallbacks: a walker looks through /a/b while a renamer moves it
 * back and forth, with delays at the walker's seq reads; the stress run
 * must see RCU-walk give up (unlazy and restart paths), and the replay
 * must count every path the same number of times, without diverging.
 * Then one event of the record is edited (its point swapped for another
 * point's): the replay reports divergence at exactly that event and
 * still finishes under the random policy.
 *
 * Each run builds the same world afresh (same seed, same object ids), so
 * the only thing the replay takes from the stress run is its order.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/namei.h"
#include "core/paths.h"
#include "sim/ops.h"
#include "sim/rcu.h"
#include "sim/sched/run.h"
#include "sim/vfs/world.h"

#define WALKS		1500
#define RENAMES_MAX	100000	/* the walker stops the renamer first */

static const char *const paths[] = {
	"/a/b/c/f", "/a/b/c/..", "/a/b", "/a/b/c",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

struct lift {
	struct wt_world *w;
	struct wt_path_counts counts;	/* the walker's */
	uint64_t renames;
};

static void walker_body(struct lift *l)
{
	struct wt_task task;
	struct wt_walker wk = { .task = &task, .stats = &l->counts };

	wt_task_init(&task, l->w, 0, 0);
	for (unsigned i = 0; i < WALKS; i++) {
		struct path p;

		if (!filename_lookup(&wk, NULL, paths[i % NPATHS], 0, &p, NULL))
			path_put(&p);
		if (i % 64 == 0)
			wt_rcu_poll();
	}
	wt_task_release(&task);
	wt_request_stop();
}

static void renamer_body(struct lift *l)
{
	while (!wt_should_stop() && l->renames < RENAMES_MAX) {
		bool there = l->renames % 2 == 0;

		(void)wt_op_rename(l->w, there ? "/a/b" : "/a/x",
				   there ? "/a/x" : "/a/b", 0);
		l->renames++;
		if (l->renames % 32 == 0)
			wt_rcu_poll();
	}
}

static void body(struct wt_thread *t, void *arg)
{
	if (t->id == 0)
		walker_body(arg);
	else
		renamer_body(arg);
}

static struct wt_world *world_create(void)
{
	struct wt_world_config cfg;
	struct wt_world *w;

	wt_world_config_default(&cfg);
	cfg.history = false;
	w = wt_world_create(&cfg);
	cr_assert_not_null(w);
	cr_assert_eq(wt_ops_init(w), 0);
	cr_assert_eq(wt_op_mkdir(w, "/a/b/c", 0755, true), 0);
	cr_assert_eq(wt_op_create(w, "/a/b/c/f", 0644), 0);
	return w;
}

/* One run on a fresh world: stress traced, or a sim replay of ev[]. */
static int run_once(enum wt_backend backend, const struct wt_trace_event *ev,
		    size_t nev, struct wt_path_counts *counts,
		    struct wt_run_result *res)
{
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_thread wt, rt, *ts[] = { &wt, &rt };
	struct lift l = { .w = world_create() };
	void *args[] = { &l, &l };
	struct wt_parse_error err;
	struct wt_rule rule;
	int rc;

	cr_assert_eq(wt_rule_parse("at=seq.read thread=walker "
				   "delay=uniform(0,2us) p=0.3", &rule, &err),
		     0, "%s", err.msg);
	wt_thread_init(&wt, 0, "walker");
	wt_thread_init(&rt, 1, "renamer");
	wt.rcu = wt_rcu_reader_create(l.w->rcu);
	rt.rcu = wt_rcu_reader_create(l.w->rcu);
	cfg.backend = backend;
	cfg.seed = 0x11f7;
	cfg.cpus = "0,1";
	cfg.rules = &rule;
	cfg.nrules = 1;
	cfg.trace = true;
	cfg.trace_capacity = 1u << 21;
	cfg.replay = ev;
	cfg.nreplay = nev;
	cfg.timeout_ms = 120000;
	rc = wt_run(&cfg, 2, ts, body, args, res);
	*counts = l.counts;
	wt_rcu_reader_destroy(wt.rcu);
	wt_rcu_reader_destroy(rt.rcu);
	wt_ops_world_destroy(l.w);
	return rc;
}

static uint64_t fallbacks(const struct wt_path_counts *c)
{
	return wt_path_counts_kind(c, WT_PATH_KIND_UNLAZY) +
	       wt_path_counts_kind(c, WT_PATH_KIND_RESTART);
}

static void assert_same_counts(const struct wt_path_counts *a,
			       const struct wt_path_counts *b)
{
	for (unsigned i = 0; i < WT_PATH__COUNT; i++)
		cr_assert_eq(a->counts[i], b->counts[i],
			     "%s: stress %llu, replay %llu",
			     wt_path_info((enum wt_path)i)->name,
			     (unsigned long long)a->counts[i],
			     (unsigned long long)b->counts[i]);
}

Test(lift, stress_order_replays_with_the_same_exit_path_counts)
{
	struct wt_path_counts st_counts, rp_counts;
	struct wt_run_result st, rp;

	cr_assert_eq(run_once(WT_BACKEND_STRESS, NULL, 0, &st_counts, &st),
		     WT_RUN_OK, "%s", st.report);
	cr_assert_not_null(st.trace);
	cr_assert_eq(st.trace->dropped, 0, "the whole order is needed");
	cr_assert_gt(fallbacks(&st_counts), 0,
		     "the workload must force RCU-walk fallbacks");
	cr_assert_eq(run_once(WT_BACKEND_SIM, st.trace->ev, st.trace->n,
			      &rp_counts, &rp), WT_RUN_OK, "%s", rp.report);
	cr_assert_not(rp.diverged, "%s", rp.diverge_report);
	assert_same_counts(&st_counts, &rp_counts);
	cr_log_info("lift: events=%zu fallbacks=%llu rcu.ok=%llu",
		    st.trace->n, (unsigned long long)fallbacks(&st_counts),
		    (unsigned long long)st_counts.counts[WT_PATH_RCU_OK]);
	wt_run_result_free(&st);
	wt_run_result_free(&rp);
}

Test(lift, an_edited_stress_trace_diverges_where_it_was_edited)
{
	struct wt_path_counts st_counts, bad_counts;
	struct wt_run_result st, bad;
	struct wt_trace_event *edited;
	size_t n, k;

	cr_assert_eq(run_once(WT_BACKEND_STRESS, NULL, 0, &st_counts, &st),
		     WT_RUN_OK, "%s", st.report);
	n = st.trace->n;
	cr_assert_gt(n, 100);
	edited = malloc(n * sizeof(*edited));
	memcpy(edited, st.trace->ev, n * sizeof(*edited));
	/* a walker event in the middle, given a point it is not at */
	for (k = n / 2; k < n && (edited[k].thread != 0 ||
				  edited[k].point == edited[0].point); k++)
		;
	cr_assert_lt(k, n);
	edited[k].point = edited[0].point;
	cr_assert_eq(run_once(WT_BACKEND_SIM, edited, n, &bad_counts, &bad),
		     WT_RUN_OK, "%s", bad.report);
	cr_assert(bad.diverged);
	cr_assert_eq(bad.diverged_at, k, "diverged at %zu, edited %zu: %s",
		     bad.diverged_at, k, bad.diverge_report);
	free(edited);
	wt_run_result_free(&st);
	wt_run_result_free(&bad);
}

/* SPDX-License-Identifier: MIT */
/*
 * Scratch blocks (sim/scratch.h): a thread's list holds what its body
 * took until it gives it back, and wt_run frees what a body it
 * abandoned never gave back -- a halt, a stuck run, a deadlock --
 * counted in res.scratch_freed.  Under ASan, LeakSanitizer checks the
 * same at exit: each test here leaks if the teardown does not free.
 */
#include <stdlib.h>

#include <criterion/criterion.h>

#include "sim/sched/sched.h"
#include "sim/scratch.h"
#include "sim/spinlock.h"
#include "test_sched_util.h"

static const char *const names2[] = { "alice", "bob" };

/* The blocks on t's list, head first. */
static unsigned list_len(const struct wt_thread *t)
{
	unsigned n = 0;

	for (const struct wt_scratch *s = t->scratch; s; s = s->next)
		n++;
	return n;
}

/*
 * Blocks come back in any order and leave the list as they were never
 * there; what is left is freed by wt_scratch_free_all, which says how
 * many.  With no simulated thread a block is on no list.
 */
Test(scratch, blocks_go_back_in_any_order_and_free_all_takes_the_rest)
{
	struct wt_thread t;
	char *a, *b, *c, *d;

	wt_thread_init(&t, 0, "alice");
	wt_thread_enter(&t);
	a = wt_scratch_alloc(10);
	b = wt_scratch_zalloc(100);
	c = wt_scratch_alloc(1000);
	cr_assert(a && b && c);
	cr_assert_eq((uintptr_t)b % _Alignof(max_align_t), 0);
	cr_assert_eq(b[99], 0);
	cr_assert_eq(list_len(&t), 3);
	wt_scratch_free(b);		/* the middle */
	cr_assert_eq(list_len(&t), 2);
	wt_scratch_free(c);		/* the head */
	cr_assert_eq(list_len(&t), 1);
	wt_scratch_free(NULL);
	d = wt_scratch_alloc(0);
	cr_assert_not_null(d);
	cr_assert_eq(list_len(&t), 2);
	wt_thread_enter(NULL);
	c = wt_scratch_alloc(16);	/* no thread: on no list */
	cr_assert_not_null(c);
	cr_assert_eq(list_len(&t), 2);
	wt_scratch_free(c);
	cr_assert_eq(wt_scratch_free_all(&t), 2);	/* a and d */
	cr_assert_null(t.scratch);
	cr_assert_eq(wt_scratch_free_all(&t), 0);
	(void)a;
}

/*
 * alice takes a block and halts before she gives it back; bob takes and
 * gives back one a step, and holds one when the run ends.  Halted:
 * neither body resumes, and the run frees the two blocks they held.
 */
static void halt_holding_body(struct wt_thread *t, void *arg)
{
	char *mine = wt_scratch_alloc(64);

	(void)arg;
	cr_assert_not_null(mine);
	for (unsigned i = 0; i < 40; i++) {
		char *step = wt_scratch_alloc(32);

		WT_EVENT("test.scratch.step", NULL);
		wt_scratch_free(step);
		if (t->id == 0 && i == 9)
			wt_halt(WT_POINT(WT_K_EVENT, "test.scratch.halt", NULL,
					 "halt_holding_body's halt"),
				"alice read poison");
	}
	wt_scratch_free(mine);
}

Test(scratch, a_halted_run_frees_what_its_fibers_held)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 2, names2);
	cfg.policy = WT_POLICY_RANDOM;
	cfg.seed = 7;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, halt_holding_body, NULL, &res),
		     WT_RUN_HALTED, "%s", res.report);
	cr_assert_not(res.threads[0].finished);
	cr_assert_not(res.threads[1].finished);
	/* alice's own, and bob's own or his own and a step's */
	cr_assert_geq(res.scratch_freed, 2);
	cr_assert_leq(res.scratch_freed, 3);
	cr_assert_null(ts.t[0].scratch);
	cr_assert_null(ts.t[1].scratch);
	wt_run_result_free(&res);
}

/* A run whose bodies give back what they took frees nothing itself. */
static void tidy_body(struct wt_thread *t, void *arg)
{
	(void)t;
	(void)arg;
	for (unsigned i = 0; i < 20; i++) {
		char *step = wt_scratch_alloc(32);

		WT_EVENT("test.scratch.step", NULL);
		wt_scratch_free(step);
	}
}

Test(scratch, a_run_that_ends_frees_nothing)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 2, names2);
	cr_assert_eq(wt_run(&cfg, 2, ts.p, tidy_body, NULL, &res), WT_RUN_OK,
		     "%s", res.report);
	cr_assert_eq(res.scratch_freed, 0);
	wt_run_result_free(&res);
}

/* One block held through a loop that never ends: stuck. */
static void stuck_holding_body(struct wt_thread *t, void *arg)
{
	char *mine = wt_scratch_alloc(64);

	(void)t;
	(void)arg;
	for (;;)	/* never ends: the run's max_points does */
		WT_EVENT("test.scratch.forever", NULL);
	wt_scratch_free(mine);
}

Test(scratch, a_stuck_run_frees_what_its_fiber_held)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 1, names2);
	cfg.max_points = 100;
	cr_assert_eq(wt_run(&cfg, 1, ts.p, stuck_holding_body, NULL, &res),
		     WT_RUN_STUCK, "%s", res.report);
	cr_assert_eq(res.scratch_freed, 1);
	wt_run_result_free(&res);
}

/*
 * Each thread takes a block and then the two locks, in opposite orders,
 * with a point between: some schedules deadlock, abandoning both fibers
 * with their blocks; the others end, each thread giving its block back.
 */
static spinlock_t g_lock[2];

static void deadlock_body(struct wt_thread *t, void *arg)
{
	char *mine = wt_scratch_alloc(64);
	unsigned first = t->id, second = !t->id;

	(void)arg;
	spin_lock(&g_lock[first]);
	WT_EVENT("test.scratch.between", NULL);
	spin_lock(&g_lock[second]);
	spin_unlock(&g_lock[second]);
	spin_unlock(&g_lock[first]);
	wt_scratch_free(mine);
}

Test(scratch, a_deadlocked_run_frees_what_its_fibers_held)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	unsigned deadlocks = 0;

	for (uint64_t seed = 1; seed <= 64; seed++) {
		tthreads_init(&ts, 2, names2);
		spin_lock_init(&g_lock[0]);
		spin_lock_init(&g_lock[1]);
		cfg.seed = seed;
		cfg.random_switch_p = 0.5;
		wt_run(&cfg, 2, ts.p, deadlock_body, NULL, &res);
		if (res.status == WT_RUN_DEADLOCK) {
			deadlocks++;
			cr_assert_eq(res.scratch_freed, 2, "seed %llu",
				     (unsigned long long)seed);
		} else {
			cr_assert_eq(res.status, WT_RUN_OK, "%s", res.report);
			cr_assert_eq(res.scratch_freed, 0);
		}
		wt_run_result_free(&res);
	}
	cr_assert_gt(deadlocks, 0, "no seed deadlocked");
}

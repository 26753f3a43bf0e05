/* SPDX-License-Identifier: MIT */
/*
 * The native backend: plain pthreads (and code with no simulated thread).
 * A wait spins WT_SPIN_BOUND times, then yields the CPU between checks, so
 * with more runnable threads than cores a preempted lock holder gets to run.
 */
#include <sched.h>

#include "sim/atomic.h"
#include "sim/sched/sched.h"

static void native_wait(struct wt_sched *s, struct wt_thread *t,
			const struct wt_point *p, enum wt_wait_kind kind,
			wt_ready_fn ready, const void *arg)
{
	unsigned spins = 0;

	(void)s;
	(void)t;
	(void)p;
	(void)kind;
	while (!ready(arg)) {
		if (spins < WT_SPIN_BOUND) {
			spins++;
			cpu_relax();
		} else {
			sched_yield();
		}
	}
}

const struct wt_sched_ops wt_native_ops = {
	.name = "native",
	.point = NULL,
	.wait = native_wait,
};

void wt_might_sleep(const struct wt_point *p)
{
	struct wt_thread *t = wt_self;

	/* Sleeping under rcu_read_lock would stall every grace period. */
	if (t && t->rcu_depth > 0)
		wt_violation(WT_CHECK_RCU_SLEEP, p, NULL,
			     "sleeping call inside an RCU read section (depth %u)",
			     t->rcu_depth);
}

void wt_yield(void)
{
	struct wt_thread *t = wt_self;

	if (t && t->sched && t->sched->ops->yield)
		t->sched->ops->yield(t->sched, t);
}

void wt_halt(const struct wt_point *p, const char *why)
{
	struct wt_thread *t = wt_self;

	if (t && t->sched && t->sched->ops->halt)
		t->sched->ops->halt(t->sched, t, p, why);
}

void wt_wait_at(const struct wt_point *p, enum wt_wait_kind kind,
		wt_ready_fn ready, const void *arg)
{
	struct wt_thread *t = wt_self;

	if (kind != WT_WAIT_SPIN)
		wt_might_sleep(p);
	if (ready(arg))
		return;
	if (t && t->sched && t->sched->ops->wait)
		t->sched->ops->wait(t->sched, t, p, kind, ready, arg);
	else
		native_wait(NULL, t, p, kind, ready, arg);
}

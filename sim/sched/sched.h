/* SPDX-License-Identifier: MIT */
/*
 * Execution backends: who runs the simulated threads, and what a wait is.
 *
 * A backend is an ops table (rcutorture style: designated initializers,
 * unused hooks NULL).  The primitives never spin on their own: every wait
 * -- an odd seqcount, a held lock, a grace period, an EBUSY retry -- is
 * wt_wait(ready, arg), which the backend implements.  The native backend
 * (plain pthreads, and code running with no simulated thread) spins a
 * bounded number of times and then yields, so a preempted lock holder on
 * a 2-core machine cannot stall the run.  The sim backend blocks the fiber
 * on the condition and never picks it until ready() holds, so random and
 * PCT schedules cannot livelock on a spinner.
 */
#ifndef WT_SIM_SCHED_H
#define WT_SIM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/inject.h"

/* What kind of wait: spinning is allowed inside an RCU read section,
 * sleeping is not (the kernel forbids blocking under rcu_read_lock). */
enum wt_wait_kind {
	WT_WAIT_SPIN,		/* spinlock, odd seqcount */
	WT_WAIT_SLEEP,		/* grace period, mutex, blocking permission */
};

typedef bool (*wt_ready_fn)(const void *arg);

struct wt_sched_ops {
	const char *name;
	/* An injection point was reached by t (hook_armed set). */
	void (*point)(struct wt_sched *s, struct wt_thread *t,
		      const struct wt_point *p, const void *obj);
	/* Block t until ready(arg); returns with ready(arg) true. */
	void (*wait)(struct wt_sched *s, struct wt_thread *t,
		     const struct wt_point *p, enum wt_wait_kind kind,
		     wt_ready_fn ready, const void *arg);
};

struct wt_sched {
	const struct wt_sched_ops *ops;
	void *priv;
};

/* Spins before the native backend starts yielding (override with -D). */
#ifndef WT_SPIN_BOUND
#define WT_SPIN_BOUND 128
#endif

/*
 * Wait until ready(arg).  Dispatches to the current thread's backend, or
 * to the native spin-then-yield wait when there is none.  A sleeping wait
 * inside an RCU read section is reported (WT_CHECK_RCU_SLEEP) before
 * waiting.
 */
void wt_wait_at(const struct wt_point *p, enum wt_wait_kind kind,
		wt_ready_fn ready, const void *arg);

/* The kernel's might_sleep(): report a sleeping call inside an RCU read
 * section even when it would not have to wait this time. */
void wt_might_sleep(const struct wt_point *p);

#define wt_wait(kind, ready, arg)					\
	wt_wait_at(WT_POINT_OR_NULL(WT_K_WAIT, NULL, NULL, "wait"),	\
		   (kind), (ready), (arg))

/* The native backend (bounded spin, then sched_yield). */
extern const struct wt_sched_ops wt_native_ops;

#endif /* WT_SIM_SCHED_H */

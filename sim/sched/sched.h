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
 *
 * The backends that run a whole set of threads (sim and stress) are
 * driven through wt_run() in run.h; the model of the sim backend:
 *
 * Sim mode (default): every simulated thread is a ucontext fiber and all
 * fibers run on the calling OS thread.  At every point the running fiber
 * "arrives" (its trace event), the rules decide their actions, and the
 * scheduler picks who runs next -- possibly the same fiber, which costs
 * no switch.  One seed, one build configuration and the same bodies give
 * the same decisions, the same trace and the same digest, byte for byte.
 *
 *   Sim mode is sequentially consistent: only one fiber runs at a time and
 *   every access sees the latest store.  TSan cannot see races between
 *   fibers (each switch is a happens-before edge, __tsan_switch_to_fiber
 *   with flag 0): data races and barrier bugs are the business of stress
 *   mode and of the later weak-memory mode.  Under ASan the switches are
 *   announced with __sanitizer_start/finish_switch_fiber.
 *
 *   Virtual time.  Each thread has a clock (ns).  Reaching a point costs
 *   step_ns (default 10); a delay of d adds d to the thread's clock and
 *   puts it to sleep: a sleeping thread is not picked while any other
 *   runnable thread's clock is behind its own -- it sleeps until the
 *   others have caught up with the time it woke at -- and when every
 *   runnable thread sleeps the lowest clock runs (time jumps).  So an
 *   80us delay lets the other threads pass about 8000 points.  Threads
 *   that do not sleep are not held to each other's clocks: a policy may
 *   run one far ahead (that is what a preemption is).  A thread woken
 *   from a wait has its clock raised to the clock of the thread that ran
 *   last.
 *
 *   Waits.  ops->wait marks the fiber blocked on (ready, arg) and
 *   switches away; each decision re-evaluates ready() of the blocked
 *   fibers (as that thread: wt_self is switched to it) and only a fiber
 *   whose condition holds can be picked, so PCT cannot livelock on a
 *   spinner.  (One exception changes nothing: a random-policy decision
 *   that keeps the running fiber evaluates none while every blocked
 *   ready() only reads -- see stay_fast in policy.c.)  preempt-until blocks a fiber the same way, until the other
 *   thread's hit count at the point moves (or it finishes; and if nothing
 *   else can run it is released, counted in preempt_timeouts).
 *
 *   Policies.  random: at each point, with probability random_switch_p,
 *   switch to another awake thread chosen uniformly (a yield forces the
 *   switch); pct (Burckhardt et al., ASPLOS 2010): random initial
 *   priorities d..d+n-1, d-1 change points drawn uniformly over the
 *   estimated k = pct_steps points, the highest-priority awake thread
 *   runs, at the i-th change point the running thread drops to d-i; the
 *   bound of finding a depth-d bug, 1/(n k^(d-1)), is in the result;
 *   pos (Yuan et al., CAV 2018; pos.c): every thread has a random
 *   priority and the highest awake one runs, as under PCT, but after a
 *   thread performed the operation of its point, its priority is drawn
 *   again, and so is that of every thread whose next operation is on
 *   the same object (the pointer its hook was given) with at least one
 *   of the two a write (wt_point_kind_access); explore's preemption
 *   points (run.h, struct wt_preempt) pin a priority over POS;
 *   directed: schedule.h.  Replay: a recorded event order (thread, point)
 *   is run as "thread T runs to its next point, which must be POINT"; at
 *   the first difference the result says at which event index, and the
 *   rest runs under the random policy.
 *
 *   Deadlock (no thread can run, some not finished) and no progress
 *   within max_points are reported with every thread's last point (name
 *   and file:line); the unfinished fibers are abandoned (never resumed,
 *   their stacks reused without unwinding: what they held on the heap is
 *   in their threads' scratch blocks, sim/scratch.h, or in history
 *   records, and the run frees it).
 *   A body loop must pass points: a loop with none never gives the
 *   scheduler a chance and cannot be bounded.
 *
 * Stress mode: see stress.c -- pinned pthreads, real delays.
 */
#ifndef WT_SIM_SCHED_H
#define WT_SIM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/inject.h"

/* What kind of wait: spinning is allowed inside an RCU read section,
 * sleeping is not (the kernel forbids blocking under rcu_read_lock).
 * Every ready() but a grace period's only reads; a grace-period wait's
 * polls the waiter's RCU record, which may run its due callbacks: the
 * sim evaluates that one at every decision, when the others only when
 * the decision needs their answer (policy.c). */
enum wt_wait_kind {
	WT_WAIT_SPIN,		/* spinlock, odd seqcount, history order */
	WT_WAIT_SLEEP,		/* mutex, parallel lookup */
	WT_WAIT_SLEEP_POLL,	/* grace period: ready() polls (has effects) */
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
	/* t ended a turn of a loop that may never end (NULL: nothing). */
	void (*yield)(struct wt_sched *s, struct wt_thread *t);
	/* t cannot go on at p (wt_halt): end the run there, never
	 * returning; NULL, or a return: the backend cannot, t goes on. */
	void (*halt)(struct wt_sched *s, struct wt_thread *t,
		     const struct wt_point *p, const char *why);
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

/*
 * The current thread ended one turn of a loop that may never end (a
 * forever writer, a shrinker): a backend whose scheduler could otherwise
 * keep it running while another thread waits for the CPU lets the
 * others run (the sim's priority policies: policy.c, "Fairness").  Not a
 * point: no event, no decision of its own.  Nothing outside a run.
 */
void wt_yield(void);

/*
 * The current thread met a fault it cannot go on from at point p (NULL:
 * none), one a check has already reported: it read a poisoned object's
 * memory (sim/atomic.h), and the pointers in it lead nowhere.  The kernel
 * would oops there sooner or later; a run must not.  The sim traces an
 * arrival at p -- the thread's last event, so that a schedule made from
 * the trace (minimize) runs the thread up to p last -- and ends the run
 * (status WT_RUN_HALTED, `why' in the report), as it ends a stuck one.
 * Other backends cannot stop one thread of a run: there the call
 * returns and the thread goes on (a stress run is a child process of
 * its own, whose crash is reported as one).
 */
void wt_halt(const struct wt_point *p, const char *why);

/* The kernel's might_sleep(): report a sleeping call inside an RCU read
 * section even when it would not have to wait this time. */
void wt_might_sleep(const struct wt_point *p);

#define wt_wait(kind, ready, arg)					\
	wt_wait_at(WT_POINT_OR_NULL(WT_K_WAIT, NULL, NULL, "wait"),	\
		   (kind), (ready), (arg))

/* The native backend (bounded spin, then sched_yield). */
extern const struct wt_sched_ops wt_native_ops;

/*
 * memory=tso, pso: does the sim drain the arriving thread's store buffer
 * at a point of this kind (sim/sched/sim.c; sim/tso.h says why each)?  A
 * lock or unlock, a grace period, and the end of the outermost RCU read
 * section -- `outermost': whether an RCU exit is that one, which only
 * the running thread's depth tells.
 */
static inline bool wt_point_kind_drains(enum wt_point_kind kind,
					bool outermost)
{
	switch (kind) {
	case WT_K_LOCK:
	case WT_K_UNLOCK:
	case WT_K_RCU_SYNC:
		return true;
	case WT_K_RCU_EXIT:
		return outermost;
	default:
		return false;
	}
}

#endif /* WT_SIM_SCHED_H */

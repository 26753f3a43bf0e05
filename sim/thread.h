/* SPDX-License-Identifier: MIT */
/*
 * The simulated thread: the one piece of per-thread state the primitives
 * need.  Each walker and writer of a run is a struct wt_thread; the backend
 * that runs it (native pthread, sim fiber, stress pthread) owns it.  The
 * current thread is found through the thread-local wt_self, which the
 * backend sets when it starts (or switches to) the thread; code that runs
 * with no simulated thread (start-up, the tree builder) sees NULL and gets
 * the plain sequential behaviour.
 */
#ifndef WT_SIM_THREAD_H
#define WT_SIM_THREAD_H

#include <stdbool.h>
#include <stdint.h>

struct wt_point;
struct wt_sched;
struct wt_rcu_domain;
struct wt_thread;

/* The checks a violation can come from (see "The oracle" in DESIGN.md). */
enum wt_check {
	WT_CHECK_POISON,	/* access to a freed (poisoned) object */
	WT_CHECK_RCU_SLEEP,	/* blocking wait inside an RCU read section */
	WT_CHECK_RCU_BALANCE,	/* unbalanced rcu_read_lock/unlock */
	WT_CHECK_LOCKREF,	/* refcount underflow or a get on a dead lockref */
	WT_CHECK_INVARIANT,	/* a model invariant (assert-like) */
	WT_CHECK__COUNT
};

const char *wt_check_name(enum wt_check check);

/*
 * Where violations go.  The default (no sink set) prints the report with
 * the "!!!" marker and aborts; tests and the runner install a sink.
 */
typedef void (*wt_violation_fn)(struct wt_thread *t, enum wt_check check,
				const struct wt_point *p, const void *obj,
				const char *msg);

struct wt_rcu_reader;

struct wt_thread {
	uint32_t id;			/* 0..n-1 within the run */
	const char *name;		/* role name, e.g. "walker" */
	bool hook_armed;		/* anything to do in wt_hook()? */
	struct wt_sched *sched;		/* the backend running this thread */
	struct wt_rcu_reader *rcu;	/* this thread's RCU record, or NULL */
	uint32_t rcu_depth;		/* rcu_read_lock nesting */
	const struct wt_point *last_point;
	wt_violation_fn on_violation;
	void *violation_arg;		/* for the sink */
	uint64_t violations;		/* how many were reported */
	void *owner;			/* the run's per-thread context */
};

extern __thread struct wt_thread *wt_self;

void wt_thread_init(struct wt_thread *t, uint32_t id, const char *name);
/* Make t the current thread of this OS thread (NULL to leave). */
void wt_thread_enter(struct wt_thread *t);

/*
 * Report a violation from the current thread (or from no thread).  Always
 * returns when a sink is installed: the caller must leave the memory it
 * touched alone (a poisoned object is still mapped, in quarantine).
 */
void wt_violation(enum wt_check check, const struct wt_point *p,
		  const void *obj, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* WT_SIM_THREAD_H */

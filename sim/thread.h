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

#include "sim/obj.h"
#include "sim/sched/prng.h"

struct wt_point;
struct wt_obj;
struct wt_sched;
struct wt_rcu_domain;
struct wt_thread;

/*
 * The thread-locals every hook and accessor tests are local-exec: each
 * test is then one %fs-relative instruction with a constant offset.  The
 * default for PIE code (initial-exec) loads the offset from the GOT; the
 * linker turns that load into a constant move, but too late: gcc has
 * already hoisted the move out of loops into a callee-saved register
 * (one more push in every hot function, one register fewer in the walk).
 * Local-exec is right because every TLS variable here is defined in a
 * static library linked into the executable; it would not be in a
 * shared library.
 */
#define WT_TLS_LE __attribute__((tls_model("local-exec")))

/* The checks a violation can come from (see "The oracle" in DESIGN.md). */
enum wt_check {
	WT_CHECK_POISON,	/* access to a freed (poisoned) object */
	WT_CHECK_RCU_SLEEP,	/* blocking wait inside an RCU read section */
	WT_CHECK_RCU_BALANCE,	/* unbalanced rcu_read_lock/unlock */
	WT_CHECK_LOCKREF,	/* refcount underflow or a get on a dead lockref */
	WT_CHECK_INVARIANT,	/* a model invariant (assert-like) */
	WT_CHECK_FAULT,		/* the thread faulted (SIGSEGV, SIGBUS): a
				 * poison pointer followed (sim only) */
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

struct wt_rule_state;
struct wt_trace_buf;
struct wt_scratch;

/*
 * Fields up to `owner` are set by whoever creates the thread (the caller
 * of wt_run sets name, role, rcu and the violation sink after
 * wt_thread_init).  The rest is the runtime's: wt_run sets it up before
 * the body runs and clears it when the run ends.
 */
struct wt_thread {
	uint32_t id;			/* 0..n-1 within the run */
	const char *name;		/* thread name, e.g. "walker" */
	bool hook_armed;		/* anything to do in wt_hook()? */
	struct wt_sched *sched;		/* the backend running this thread */
	struct wt_rcu_reader *rcu;	/* this thread's RCU record, or NULL */
	uint32_t rcu_depth;		/* rcu_read_lock nesting */
	/* The last point this thread reached; written with a relaxed atomic
	 * store (stress mode: other threads and the watchdog read it). */
	const struct wt_point *last_point;
	wt_violation_fn on_violation;
	void *violation_arg;		/* for the sink */
	uint64_t violations;		/* how many were reported */
	void *owner;			/* the run's per-thread context */

	/* Selection context for injection rules and directed schedules. */
	const char *role;		/* role for thread=/role= (NULL: name) */
	/* The path component being looked up, set by the walk engine (NULL
	 * outside a lookup); rules and `where name=` steps match on it. */
	const char *cur_component;
	/* The object a point is about, for points whose obj argument is not
	 * the object (a seqcount, a lock): callers may tag it here.  Field
	 * loads and stores pass the object itself and need no tag. */
	const struct wt_obj *cur_obj;
	/* The version of the history record this thread has open, between
	 * wt_history_begin and its commit (0: none; sim/history.c): a
	 * remote server tags the journal lines a step writes with it, so
	 * that another step's commit does not log them as its own. */
	uint64_t hist_version;

	/* Runtime state (wt_run). */
	/* The backend's own handler of a point, given the point's id (the
	 * sim's, for its fibers): the hook calls it straight instead of
	 * sched->ops->point, which is the same handler but for the id.
	 * NULL: the ops table's. */
	void (*sched_point)(struct wt_thread *t, const struct wt_point *p,
			    uint32_t id, const void *obj);
	uint64_t *hits;			/* arrivals per point id, or NULL */
	/* With hits: the ids whose count left 0, in that order, so that
	 * summing and clearing the counters visits only those. */
	uint32_t *touched;
	uint32_t ntouched;
	uint64_t arrivals;		/* points reached (relaxed atomic) */
	struct wt_rule_state *rules;	/* compiled rules, or NULL */
	struct wt_prng prng;		/* this thread's stream (rules, delays) */
	uint64_t clock_ns;		/* sim: virtual clock; stress: unused */
	/* Actions the rules decided at the current point, for the backend.
	 * pending: one of them may be set (rules.c sets it with them); the
	 * hook resets them only then, and a backend with pending clear
	 * need test none of them. */
	bool pending;
	uint64_t pending_delay_ns;
	bool pending_yield;
	bool pending_fail;
	int32_t pending_preempt_thread;	/* -1: none */
	uint32_t pending_preempt_rule;	/* which rule (its point set) */
	uint64_t pending_preempt_timeout_ns;
	struct wt_trace_buf *trace_buf;	/* where this thread's events go */
	uint16_t trace_note;		/* current op tag (0: none) */
	uint32_t *stop_flag;		/* the run's stop request (atomic) */
	void *exit_env;			/* sigjmp_buf * of the thread's entry */
	/*
	 * The last seq retry of this thread that failed since its last seq
	 * sample (sim/seq.h), cleared at every sample: the evidence that an
	 * exit path naming a seq or a lock records for the oracle's "no
	 * spurious fallback" judgement (core/oracle.h).
	 */
	struct wt_seq_moved {
		bool set;
		unsigned birth;		/* the seqcount's first value */
		unsigned start;		/* the value the retry compared with */
		unsigned now;		/* the value it read instead */
		uint64_t obj;		/* the tagged object's id, or 0 */
	} seq_moved;
	bool finished;			/* the body returned */
	bool aborted;			/* left through wt_thread_exit() */
	/* The scratch blocks this thread holds (sim/scratch.h): freed by
	 * wt_run when a run ends without resuming the body that took them. */
	struct wt_scratch *scratch;
};

extern __thread struct wt_thread *wt_self WT_TLS_LE;
/*
 * wt_self && wt_self->hook_armed, kept beside wt_self so that the hook's
 * fast path is one thread-local test.  Whoever changes wt_self goes
 * through wt_self_set(); whoever changes the hook_armed of a thread that
 * may be current goes through wt_thread_arm().
 */
extern __thread bool wt_self_armed WT_TLS_LE;

/*
 * The magic an object must carry for wt_access() (sim/atomic.h) to skip
 * both of its checks at once: WT_OBJ_LIVE while the current thread has
 * nothing armed, WT_ACCESS_KEY_ARMED -- no object's magic -- while it has,
 * so that every access then takes the slow path (the poison check, then
 * the hook).  One compare of the object's magic with this stands for the
 * poison test and the armed test: field accesses are most of a lookup's
 * points (83 of 135), and each test costs about 0.13 ns (bench_hooks).
 * Kept with wt_self_armed by wt_self_armed_set().
 */
#define WT_ACCESS_KEY_ARMED	0x41524d44u	/* "ARMD" */
extern __thread uint32_t wt_access_key WT_TLS_LE;

static inline void wt_self_armed_set(bool armed)
{
	wt_self_armed = armed;
	wt_access_key = armed ? WT_ACCESS_KEY_ARMED : WT_OBJ_LIVE;
}

static inline void wt_self_set(struct wt_thread *t)
{
	wt_self = t;
	wt_self_armed_set(t && t->hook_armed);
}

void wt_thread_init(struct wt_thread *t, uint32_t id, const char *name);
/* wt_thread_init of a t that is zero already (calloc, an array just
 * zeroed): what it sets, without zeroing it again. */
static inline void wt_thread_init_zeroed(struct wt_thread *t, uint32_t id,
					 const char *name)
{
	t->id = id;
	t->name = name;
}
/* Make t the current thread of this OS thread (NULL to leave). */
void wt_thread_enter(struct wt_thread *t);
/* Set t->hook_armed (and the fast-path flag when t is current). */
void wt_thread_arm(struct wt_thread *t, bool armed);

/*
 * Stopping.  wt_should_stop() is the stop test every looping body polls:
 * true once the run asked its threads to stop (wt_request_stop(), the
 * budget, a fatal violation).  wt_thread_exit() abandons the current
 * thread's body at once and returns to the thread's entry in the backend
 * (siglongjmp to the fiber or pthread entry): nothing of the body is
 * unwound, so locks it holds stay held and the other threads may then
 * block on them -- which the sim backend reports as a deadlock.  Without a
 * backend entry (no wt_run) it aborts the process.
 */
bool wt_should_stop(void);
void wt_request_stop(void);
_Noreturn void wt_thread_exit(void);

/*
 * Report a violation from the current thread (or from no thread).  Always
 * returns when a sink is installed: the caller must leave the memory it
 * touched alone (a poisoned object is still mapped, in quarantine).
 */
void wt_violation(enum wt_check check, const struct wt_point *p,
		  const void *obj, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* WT_SIM_THREAD_H */

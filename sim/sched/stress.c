/* SPDX-License-Identifier: MIT */
/*
 * The stress backend: every simulated thread is a pthread pinned by hwloc
 * to one PU, all started together behind a gate.  Injection rules act in
 * real time: a delay busy-waits on CLOCK_MONOTONIC when short (a sleep
 * would cost more than it waits) and sleeps when long; yield is
 * sched_yield(); preempt-until spins and yields until the other thread's
 * hit counter at the point moves, it finishes, or the rule's timeout
 * passes.  Waits are the native bounded spin, then sched_yield.
 *
 * Tracing (off by default when hunting: it serialises the threads and
 * hides races) gives each event a ticket from one atomic counter into the
 * thread's own ring; merging the rings by ticket gives the observed
 * order, which replays in sim mode.  For that order to be the order in
 * which the code ran, a traced run hands one token (a FIFO ticket lock)
 * from thread to thread: a thread runs its stretch between two points
 * holding it, takes the event's ticket still holding it, and lets go at
 * the point -- for its delay, its yield, its preempt-until and its waits,
 * which run without it.  Without the token, the loads before one
 * thread's ticket could straddle another's stores after its ticket, and
 * a replay would follow an order in which the same code reads other
 * values (tests/test_lift.c: the exit-path counts then differ).
 *
 * A watchdog in the calling thread ends a run that takes longer than
 * cfg->timeout_ms: it asks every thread to stop, and threads that are in
 * a wait or reach a point leave through wt_thread_exit().
 */
#define _GNU_SOURCE	/* pthread_timedjoin_np */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hwloc.h>

#include "sim/atomic.h"
#include "sim/sched/cpus.h"
#include "sim/sched/interrupt.h"
#include "sim/sched/run.h"
#include "sim/tso.h"
#include "sim/sched/sched.h"


/* Below this a delay busy-waits; above it, it sleeps. */
#ifndef WT_STRESS_SPIN_DELAY_NS
#define WT_STRESS_SPIN_DELAY_NS 100000ull
#endif

struct wt_stress;

struct wt_stress_thread {
	struct wt_stress *s;
	struct wt_thread *t;
	pthread_t tid;
	bool joined;
	bool token;			/* holds s->token (own thread only) */
	hwloc_cpuset_t set;
	unsigned pu;
	uint32_t done;			/* atomic */
};

struct wt_stress {
	struct wt_sched base;
	const struct wt_run_config *cfg;
	unsigned n;
	struct wt_thread **threads;
	void (*body)(struct wt_thread *t, void *arg);
	void **args;
	hwloc_topology_t topo;
	struct wt_stress_thread th[WT_RUN_MAX_THREADS];
	struct wt_trace_buf bufs[WT_RUN_MAX_THREADS];
	bool trace_on;
	uint64_t ticket;		/* atomic */
	uint64_t token_next;		/* atomic: traced runs' FIFO token */
	uint64_t token_serving;		/* atomic */
	uint64_t t0_ns;
	uint32_t gate;			/* atomic: threads at the start gate */
	uint32_t abandon;		/* atomic: the watchdog fired */
	uint64_t preempt_timeouts;	/* atomic */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void stress_check_abandon(struct wt_stress *s)
{
	if (__atomic_load_n(&s->abandon, __ATOMIC_RELAXED))
		wt_thread_exit();
}

static void stress_record(struct wt_stress *s, struct wt_thread *t,
			  const struct wt_point *p, uint16_t flags)
{
	/* A full RMW: the tickets' order is the order the threads passed
	 * this instruction, the closest thing to "observed order". */
	uint64_t ticket = __atomic_fetch_add(&s->ticket, 1, __ATOMIC_SEQ_CST);

	wt_trace_buf_record(&s->bufs[t->id], ticket, now_ns() - s->t0_ns,
			    t->id, p, flags, t->trace_note);
}

/*
 * The traced run's token.  No abandon check while queued: leaving the
 * queue would strand the tickets behind; the holder lets go at its next
 * point or wait, where it leaves too once the watchdog fired.
 */
static void token_take(struct wt_stress *s, struct wt_stress_thread *st)
{
	uint64_t mine;
	unsigned spins = 0;

	if (!s->trace_on || st->token)
		return;
	mine = __atomic_fetch_add(&s->token_next, 1, __ATOMIC_RELAXED);
	/* Acquire: what the previous holder wrote is visible. */
	while (__atomic_load_n(&s->token_serving, __ATOMIC_ACQUIRE) != mine) {
		if (spins++ < WT_SPIN_BOUND)
			cpu_relax();
		else
			sched_yield();
	}
	st->token = true;
}

static void token_give(struct wt_stress *s, struct wt_stress_thread *st)
{
	if (!st->token)
		return;
	st->token = false;
	/* Release: the stretch's stores before the next holder's loads. */
	__atomic_fetch_add(&s->token_serving, 1, __ATOMIC_RELEASE);
}

/* Slices of a long delay: the watchdog's abandon is seen within one. */
#define WT_STRESS_DELAY_SLICE_NS 10000000ull

/*
 * A delay the watchdog can end: a long one sleeps in slices and leaves
 * through wt_thread_exit() once the run is abandoned (an injected 300 s
 * delay must not outlive the scenario's timeout).
 */
static void stress_delay(struct wt_stress *s, uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	if (ns < WT_STRESS_SPIN_DELAY_NS) {
		while (now_ns() < end)
			cpu_relax();
		return;
	}
	for (uint64_t now = now_ns(); now < end; now = now_ns()) {
		uint64_t left = end - now < WT_STRESS_DELAY_SLICE_NS ?
				end - now : WT_STRESS_DELAY_SLICE_NS;
		struct timespec ts = {
			.tv_sec = (time_t)(left / 1000000000ull),
			.tv_nsec = (long)(left % 1000000000ull),
		};

		nanosleep(&ts, NULL);	/* EINTR: the loop sleeps again */
		stress_check_abandon(s);
		if (wt_interrupted())	/* SIGINT: the run stops, not waits */
			return;
	}
}

static void stress_preempt(struct wt_stress *s, struct wt_thread *t)
{
	struct wt_stress_thread *o = &s->th[t->pending_preempt_thread];
	uint64_t base = wt_rule_preempt_progress(t, o->t);
	uint64_t end = now_ns() + t->pending_preempt_timeout_ns;
	unsigned spins = 0;

	while (wt_rule_preempt_progress(t, o->t) == base &&
	       !__atomic_load_n(&o->done, __ATOMIC_ACQUIRE)) {
		stress_check_abandon(s);
		if (now_ns() >= end) {
			__atomic_fetch_add(&s->preempt_timeouts, 1,
					   __ATOMIC_RELAXED);
			return;
		}
		if (spins++ < WT_SPIN_BOUND)
			cpu_relax();
		else
			sched_yield();
	}
}

static void stress_point(struct wt_sched *base, struct wt_thread *t,
			 const struct wt_point *p, const void *obj)
{
	struct wt_stress *s = base->priv;
	struct wt_stress_thread *st = &s->th[t->id];

	(void)obj;
	if (s->trace_on) {
		stress_record(s, t, p, t->pending_delay_ns ? WT_EV_DELAY : 0);
		token_give(s, st);	/* the others may run a stretch */
	}
	stress_check_abandon(s);
	if (t->pending_delay_ns)
		stress_delay(s, t->pending_delay_ns);
	if (t->pending_yield)
		sched_yield();
	if (t->pending_preempt_thread >= 0)
		stress_preempt(s, t);
	token_take(s, st);
}

static void traced_wait(struct wt_stress *s, struct wt_thread *t,
			const struct wt_point *p, wt_ready_fn ready,
			const void *arg);

static void stress_wait(struct wt_sched *base, struct wt_thread *t,
			const struct wt_point *p, enum wt_wait_kind kind,
			wt_ready_fn ready, const void *arg)
{
	struct wt_stress *s = base->priv;
	unsigned spins = 0;

	(void)kind;
	if (s->trace_on) {
		traced_wait(s, t, p, ready, arg);
		return;
	}
	while (!ready(arg)) {
		stress_check_abandon(s);
		if (spins < WT_SPIN_BOUND) {
			spins++;
			cpu_relax();
		} else {
			sched_yield();
		}
	}
}

/*
 * A traced wait: one event, then without the token until ready() holds
 * with it (as the sim picks a waiter only when its condition holds).
 * ready() runs with the hooks off: a point inside it would hand the
 * token over in the middle of the wait.
 */
static void traced_wait(struct wt_stress *s, struct wt_thread *t,
			const struct wt_point *p, wt_ready_fn ready,
			const void *arg)
{
	struct wt_stress_thread *st = &s->th[t->id];
	bool armed = t->hook_armed;
	unsigned spins = 0;

	if (p)
		stress_record(s, t, p, WT_EV_WAIT);
	wt_thread_arm(t, false);
	for (;;) {	/* until ready, or the watchdog */
		token_give(s, st);
		while (!ready(arg)) {
			if (__atomic_load_n(&s->abandon, __ATOMIC_RELAXED)) {
				wt_thread_arm(t, armed);
				wt_thread_exit();
			}
			if (spins++ < WT_SPIN_BOUND)
				cpu_relax();
			else
				sched_yield();
		}
		token_take(s, st);
		if (ready(arg))
			break;
	}
	wt_thread_arm(t, armed);
}

static const struct wt_sched_ops stress_ops = {
	.name = "stress",
	.point = stress_point,
	.wait = stress_wait,
};

static void *stress_entry(void *arg)
{
	struct wt_stress_thread *st = arg;
	struct wt_stress *s = st->s;
	struct wt_thread *t = st->t;
	sigjmp_buf env;

	/* Binding failure is not fatal: the run is still a valid stress
	 * run, only less controlled (the binding string says what was
	 * asked). */
	(void)hwloc_set_cpubind(s->topo, st->set, HWLOC_CPUBIND_THREAD);
	wt_primitive_bugs = s->cfg->bugs;	/* what sim/seq.h tests */
	wt_thread_enter(t);
	__atomic_add_fetch(&s->gate, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&s->gate, __ATOMIC_ACQUIRE) < s->n)
		sched_yield();
	token_take(s, st);
	if (sigsetjmp(env, 0) == 0) {
		t->exit_env = &env;
		s->body(t, s->args ? s->args[t->id] : NULL);
	}
	t->exit_env = NULL;
	token_give(s, st);
	t->finished = !t->aborted;
	wt_thread_enter(NULL);
	__atomic_store_n(&st->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* ---- binding ---- */

/* The PU of thread i: spread over the cores first, then over each
 * core's hardware threads. */
static hwloc_obj_t default_pu(hwloc_topology_t topo, unsigned i)
{
	int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	int npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	hwloc_obj_t core;
	int inner;

	if (ncores <= 0)
		return hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU,
					     (unsigned)i % (unsigned)npus);
	core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, i % (unsigned)ncores);
	inner = hwloc_get_nbobjs_inside_cpuset_by_type(topo, core->cpuset,
						       HWLOC_OBJ_PU);
	if (inner <= 0)
		return NULL;
	return hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset,
		HWLOC_OBJ_PU, (i / (unsigned)ncores) % (unsigned)inner);
}

static int stress_bind(struct wt_stress *s, struct wt_run_result *out)
{
	unsigned cpus[WT_CPUS_MAX];
	int ncpus = 0;
	size_t len = 0;

	if (s->cfg->cpus && *s->cfg->cpus) {
		char msg[512];

		/* The callers checked it already (bad input, exit 2); this
		 * is a library's last line of defence. */
		ncpus = wt_cpus_parse(s->cfg->cpus, cpus, WT_CPUS_MAX, msg,
				      sizeof(msg));
		if (ncpus <= 0) {
			snprintf(out->report, sizeof(out->report),
				 "stress: bad cpus %s", msg);
			return -1;
		}
	}
	for (unsigned i = 0; i < s->n; i++) {
		hwloc_obj_t pu = ncpus > 0 ?
			hwloc_get_pu_obj_by_os_index(s->topo, cpus[i % (unsigned)ncpus]) :
			default_pu(s->topo, i);

		if (!pu) {
			snprintf(out->report, sizeof(out->report),
				 "stress: no PU for thread %u (cpus '%s')", i,
				 s->cfg->cpus ? s->cfg->cpus : "");
			return -1;
		}
		s->th[i].set = hwloc_bitmap_dup(pu->cpuset);
		s->th[i].pu = pu->os_index;
		len += (size_t)snprintf(out->binding + len,
			len < sizeof(out->binding) ? sizeof(out->binding) - len : 0,
			"%s%s:PU#%u", i ? " " : "",
			s->threads[i]->name ? s->threads[i]->name : "-",
			pu->os_index);
	}
	return 0;
}

/* ---- the run ---- */

static void stress_watchdog(struct wt_stress *s, struct wt_run_result *out)
{
	const char *state[WT_RUN_MAX_THREADS];
	uint64_t ms = s->cfg->timeout_ms ? s->cfg->timeout_ms : 60000;
	struct timespec dl;

	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += (time_t)(ms / 1000);
	dl.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	for (unsigned i = 0; i < s->n; i++)
		if (pthread_timedjoin_np(s->th[i].tid, NULL, &dl) == 0)
			s->th[i].joined = true;
	for (unsigned i = 0; i < s->n; i++)
		state[i] = s->th[i].joined ? "finished" : "running";
	for (unsigned i = 0; i < s->n; i++) {
		if (s->th[i].joined)
			continue;
		out->status = WT_RUN_STUCK;
		snprintf(out->report, sizeof(out->report),
			 "stuck: no end within timeout_ms=%llu",
			 (unsigned long long)ms);
		wt_run_report_threads(out->report, sizeof(out->report), s->n,
				      s->threads, state);
		if (s->cfg->stuck)
			s->cfg->stuck(out->report, s->cfg->stuck_arg);
		/* Waits and points now leave through wt_thread_exit(); a
		 * thread spinning with neither cannot be stopped. */
		__atomic_store_n(&s->abandon, 1, __ATOMIC_RELAXED);
		__atomic_store_n(s->threads[0]->stop_flag, 1, __ATOMIC_RELAXED);
		break;
	}
	for (unsigned i = 0; i < s->n; i++)
		if (!s->th[i].joined)
			pthread_join(s->th[i].tid, NULL);
}

static int stress_setup(struct wt_stress *s, struct wt_run_result *out)
{
	if (hwloc_topology_init(&s->topo) || hwloc_topology_load(s->topo)) {
		snprintf(out->report, sizeof(out->report), "stress: hwloc failed");
		return -1;
	}
	if (stress_bind(s, out))
		return -1;
	for (unsigned i = 0; i < s->n; i++) {
		if (s->trace_on &&
		    wt_trace_buf_init(&s->bufs[i], s->cfg->trace_capacity))
			return -1;
		s->th[i].s = s;
		s->th[i].t = s->threads[i];
		s->threads[i]->sched = &s->base;
		s->threads[i]->trace_buf = s->trace_on ? &s->bufs[i] : NULL;
	}
	return 0;
}

static void stress_teardown(struct wt_stress *s, struct wt_run_result *out)
{
	struct wt_trace_buf *bufs[WT_RUN_MAX_THREADS];

	if (s->trace_on) {
		for (unsigned i = 0; i < s->n; i++)
			bufs[i] = &s->bufs[i];
		out->trace = wt_trace_merge(bufs, s->n);
		if (out->trace)
			out->digest = out->trace->digest;
		out->points = out->trace ? out->trace->total : 0;
	}
	for (unsigned i = 0; i < s->n; i++) {
		wt_trace_buf_fini(&s->bufs[i]);
		if (s->th[i].set)
			hwloc_bitmap_free(s->th[i].set);
	}
	if (s->topo)
		hwloc_topology_destroy(s->topo);
	out->preempt_timeouts = s->preempt_timeouts;
}

int wt_run_stress(const struct wt_run_config *cfg, unsigned n,
		  struct wt_thread **threads,
		  void (*body)(struct wt_thread *t, void *arg), void **args,
		  struct wt_run_result *out)
{
	struct wt_stress *s = calloc(1, sizeof(*s));
	unsigned started = 0;

	if (!s)
		return WT_RUN_CONFIG_ERROR;
	s->base.ops = &stress_ops;
	s->base.priv = s;
	s->cfg = cfg;
	s->n = n;
	s->threads = threads;
	s->body = body;
	s->args = args;
	s->trace_on = cfg->trace;
	s->t0_ns = now_ns();
	if (stress_setup(s, out))
		goto fail;
	for (; started < n; started++)
		if (pthread_create(&s->th[started].tid, NULL, stress_entry,
				   &s->th[started]))
			break;
	if (started < n) {
		/* Let the started ones through the gate, then wait. */
		__atomic_add_fetch(&s->gate, n - started, __ATOMIC_ACQ_REL);
		__atomic_store_n(threads[0]->stop_flag, 1, __ATOMIC_RELAXED);
		for (unsigned i = 0; i < started; i++)
			pthread_join(s->th[i].tid, NULL);
		snprintf(out->report, sizeof(out->report),
			 "stress: pthread_create failed");
		goto fail;
	}
	stress_watchdog(s, out);
	stress_teardown(s, out);
	free(s);
	return out->status;
fail:
	stress_teardown(s, out);
	free(s);
	out->status = WT_RUN_CONFIG_ERROR;
	return WT_RUN_CONFIG_ERROR;
}

/* SPDX-License-Identifier: MIT */
/*
 * The sim backend: every simulated thread is a fiber, all run by the
 * calling OS thread; at every point the scheduler decides who runs next
 * (sched.h has the model: virtual time, waits, policies).
 *
 * A decision is taken inside the fiber that reached the point, and a
 * switch is one _setjmp/_longjmp pair straight to the chosen fiber (never
 * through a scheduler context, and never a signal-mask system call, which
 * swapcontext makes every time), so a point that does not switch costs no
 * context switch at all and one that does costs one.  The calling
 * thread's own context ("main") is switched back to when every fiber is
 * done, or when the run must end early (deadlock, stuck).
 *
 * Fibers outlive runs (struct wt_run_cache): a fiber is made once per
 * slot with makecontext, runs a loop -- run the body it is given, then
 * park at the top of the loop and switch away -- and the next run starts
 * its body with one jump.  Fibers that never finished a run are
 * abandoned: their stacks are reused without unwinding, and their slot
 * makes a fresh fiber before it runs anything again.  The sanitizers are
 * told of every switch (ASan: stack bounds and fake stacks; TSan: one
 * TSan fiber per slot, switched to before the jump, whose setjmp buffers
 * are its own).
 *
 * memory=tso: every fiber has an x86-TSO store buffer (sim/tso.h), and
 * wt_tso_self follows the running fiber as wt_self does.  What drains a
 * buffer without any smp_mb() written in the code:
 *
 *   - a lock or unlock point (spin_lock/trylock, mutex_lock, and so the
 *     lockrefs, which take their spinlock).  Acquire is a locked
 *     cmpxchg on x86, which drains.  Release is a plain store on x86,
 *     but spinlock.c and mutex.c make it directly (not through a
 *     buffer), so what the thread buffered before it must reach memory
 *     first or the FIFO would be broken; the x86 freedom of a later load
 *     passing the unlock is therefore not modelled (stronger than x86);
 *   - the end of the outermost RCU read section, and every grace-period
 *     point (synchronize_rcu, call_rcu, reader teardown).  rcu_read_unlock
 *     is no barrier on x86, but a grace period ends only after each
 *     reader's stores in its section are visible (RCU's quiescent-state
 *     barriers): draining at the unlock is the simplest way to give that,
 *     and it keeps a late flush out of an object freed after the grace
 *     period (stronger than x86 across rcu_read_unlock only);
 *   - the thread's end (then the point tso.thread_end, see below), and,
 *     when the run ends, every buffer left (the abandoned fibers' too),
 *     so the world is complete afterwards.
 *
 * Everything else -- which buffered store reaches memory when -- is the
 * scheduler's decision (policy.c), recorded as a flush event.
 */
#include <assert.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#ifdef WT_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef WT_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#include "sim/sched/policy.h"
#include "sim/sched/run.h"
#include "sim/rules.h"
#include "sim/tso.h"


/* The simulation of the calling OS thread (fiber entry finds it here:
 * makecontext passes no pointer portably). */
static __thread struct wt_sim *sim_current;

/* A fiber kept across runs: its stack, where it resumes, and the
 * sanitizers' view of it. */
struct wt_fiber_slot {
	void *stack;
	size_t stack_size;
	jmp_buf env;		/* parked: the top of fiber_main's loop */
	bool ready;		/* made, parked, usable */
	void *tsan_fiber;
	void *asan_fake;
};

struct wt_run_cache {
	struct wt_sim *sim;	/* zeroed per run */
	struct wt_fiber_slot slot[WT_RUN_MAX_THREADS];
	struct wt_run_counters counters;	/* run.c's */
	struct wt_point_set_cache sets;	/* until steps' and rules' point sets */
	struct wt_sim_fb_cache fb;	/* feedback tables (pos.c) */
};

/* Making a fiber: the slot, and the context to return to once it has
 * parked (makecontext passes no pointer portably). */
static __thread struct {
	struct wt_fiber_slot *slot;
	ucontext_t *back;
	void *tsan;
	void *asan_fake;
	const void *bottom;
	size_t size;
} boot;

/* The point of a flush event: never reached through a hook. */
static const struct wt_point *tso_flush_point(void)
{
	return WT_POINT(WT_K_STORE, "tso.flush", "store buffer",
			"memory=tso: the oldest entry of THREAD's store buffer "
			"reaches memory (a scheduler decision, not a hook)");
}

void wt_sim_flush_event(struct wt_sim *s, unsigned i, unsigned entry)
{
	struct wt_thread *t = s->f[i].t;
	const struct wt_point *p = tso_flush_point();
	/* On the owner's lane, at the time of the decision. */
	uint64_t when = t->clock_ns > s->now_ns ? t->clock_ns : s->now_ns;

	/* the policy flushes only entries that may go (tso: the oldest) */
	if (!wt_tso_flush_at(wt_sim_tso_buf(s, (int)i), entry))
		abort();
	s->out->tso_flush_events++;
	if (s->trace_on)
		wt_trace_buf_record(&s->trace, s->trace.total, when, t->id, p,
				    WT_EV_FLUSH, 0)->arg = entry;
	else
		wt_digest_event(&s->trace.dg, t->id, wt_point_name_hash(p),
				WT_EV_FLUSH);
	if (entry)
		wt_digest_arg(&s->trace.dg, entry);
}

/*
 * memory=tso: the end of a body is a point of its own, traced like a
 * hook's, reached after the final drain.  A replay runs "thread T to its
 * next point"; without this one the stretch after a thread's last hook
 * -- and the drain of its buffer at its end -- would run wherever the
 * replay first picks T again, not where the record ran it (what is left
 * after the point touches no memory).  Only under tso, so SC traces stay
 * as they are.
 */
static const struct wt_point *tso_end_point(void)
{
	return WT_POINT(WT_K_EVENT, "tso.thread_end", NULL,
			"memory=tso: the thread's body returned; its store "
			"buffer drains (a scheduler point, not a hook)");
}

/* The points that drain the arriving thread's buffer (see the top). */
static bool tso_drain_point(const struct wt_thread *t, const struct wt_point *p)
{
	/* at an RCU exit the depth is not yet decremented */
	return wt_point_kind_drains(p->kind, t->rcu_depth == 1);
}

static void sim_after_switch(struct wt_sim *s)
{
#ifdef WT_ASAN
	void *fake = s->cur < 0 ? s->main_fake : s->f[s->cur].slot->asan_fake;
	const void *bottom;
	size_t size;

	__sanitizer_finish_switch_fiber(fake, &bottom, &size);
	if (s->from < 0 && !s->main_bottom) {
		s->main_bottom = bottom;
		s->main_size = size;
	}
#else
	(void)s;
#endif
}

#ifdef WT_HOOK_THUNK
static void sim_hook_self(const struct wt_point *p, const void *obj);
#endif

/*
 * Free runs (sim/inject.h).  Under PCT, once the running fiber is top --
 * ready, awake, not yielding, with no other fiber that is not done at a
 * higher priority or an equal one at a lower index -- nothing but its
 * own next change point can take that from it while it runs: no other
 * fiber runs, so none changes state or priority, and the decision at
 * each point until then is a stay that draws no random number.  So its
 * next points up to the one before the change point (and up to
 * max_points) are granted to the hook as a free run, for a thread that
 * counts hits and has no rules (which act at points, or count them).
 * The digest is what it would have been (sim/sched/trace.h folds a
 * thread's run of plain arrivals as a sum), and so are the schedule,
 * the hits and every count: the scheduler settles the run -- points,
 * the thread's clock and arrivals, the digest's run, its last point --
 * whenever the fiber enters it again: at its next point that is not
 * free, at a wait, a yield, a halt, a fault or its end.  It must have
 * settled before anything switches fibers.  A directed schedule's
 * `finish' step is the same case: its thread runs until it waits or
 * ends, whatever its points are, and no point of it moves the schedule
 * on (sim_point_directed grants; an `until' or `run' step counts its
 * thread's points, so takes none).
 */
static __attribute__((noinline)) void
sim_free_grant(struct wt_sim *s, struct wt_thread *t)
{
	uintptr_t base = (uintptr_t)__start_wt_points >> 3;
	uint64_t n = s->max_points - s->points;

	if (!t->hits || t->rules)
		return;
	if (s->change_at > s->points && s->change_at - s->points - 1 < n)
		n = s->change_at - s->points - 1;
	if (!n)
		return;
	s->entered = -1;	/* the next point settles */
	wt_free.left = n;
	wt_free.granted = n;
	wt_free.hits = (uintptr_t)t->hits - base;
	wt_free.hashes = (uintptr_t)wt_point_hashes - base;
	wt_free.sum = 0;
}

/* at_point: t is at a point that sets its last point itself. */
static __attribute__((noinline)) void
sim_free_settle(struct wt_sim *s, struct wt_thread *t, bool at_point)
{
	uint64_t used = wt_free.granted - wt_free.left;

	wt_free.granted = 0;
	wt_free.left = 0;
	if (!used)
		return;
	s->points += used;
	s->out->free_points += used;
	t->clock_ns += used * s->step_ns;
	s->now_ns = t->clock_ns;
	__atomic_store_n(&t->arrivals, t->arrivals + used, __ATOMIC_RELAXED);
	wt_digest_run(&s->trace.dg, wt_free.sum, used);
	if (!at_point)
		__atomic_store_n(&t->last_point, wt_free.last,
				 __ATOMIC_RELAXED);
}

/* The running fiber's thread enters the sim other than at a point. */
static void sim_free_end(struct wt_sim *s)
{
	if (wt_free.granted && s->cur >= 0)
		sim_free_settle(s, s->f[s->cur].t, false);
}

/* wt_self and, with the thunk, its hook target: the sim's own for a
 * fiber (sim_hook_self), main's for main. */
static void sim_self_set(struct wt_sim *s, int to)
{
	wt_self_set(to < 0 ? s->main_self : s->f[to].t);
#ifdef WT_HOOK_THUNK
	wt_hook_target = to < 0 ? s->main_hook_target : sim_hook_self;
#endif
}

/*
 * Switch from fiber `from' (-1: main) to `to' (-1: main).  `dying': the
 * current fiber's body is over and it has parked (fiber_main): where it
 * resumes is saved already.
 */
static void sim_switch(struct wt_sim *s, int from, int to, bool dying)
{
	jmp_buf *fe = from < 0 ? &s->main_env : &s->f[from].slot->env;
	jmp_buf *te = to < 0 ? &s->main_env : &s->f[to].slot->env;

	/* a free run settles before anything switches (sim_free_grant) */
	if (__builtin_expect(wt_free.granted != 0, 0))
		abort();
	/* the next fiber's first point takes its turn in the digest, which
	 * an event between (a thread's end, a flush) may have moved */
	s->entered = -1;
	s->from = from;
	s->cur = to;
	s->switches++;
	if (to >= 0)
		s->f[to].ran_at = s->switches;
	sim_self_set(s, to);
	wt_tso_self = wt_sim_tso_buf(s, to);
#ifdef WT_ASAN
	{
		void **fake = from < 0 ? &s->main_fake :
			      &s->f[from].slot->asan_fake;

		__sanitizer_start_switch_fiber(fake,
			to < 0 ? s->main_bottom : s->f[to].slot->stack,
			to < 0 ? s->main_size : s->f[to].slot->stack_size);
	}
#endif
#ifdef WT_TSAN
	/* Flag 0: the switch is a happens-before edge, as a fiber switch on
	 * one OS thread really is (sim mode is sequentially consistent). */
	__tsan_switch_to_fiber(to < 0 ? s->main_tsan : s->f[to].slot->tsan_fiber,
			       0);
#endif
	if (dying || !_setjmp(*fe))
		_longjmp(*te, 1);
	sim_after_switch(s);
}

/* End the run early: report and go back to main, never to return. */
static _Noreturn void sim_abandon(struct wt_sim *s, enum wt_run_status st,
				  const char *why)
{
	const char *state[WT_RUN_MAX_THREADS];

	sim_free_end(s);
	s->status = st;
	snprintf(s->out->report, sizeof(s->out->report), "%s: %s",
		 wt_run_status_name(st), why);
	for (unsigned i = 0; i < s->n; i++)
		state[i] = s->f[i].state == WT_FIBER_DONE ? "finished" :
			   s->f[i].state == WT_FIBER_BLOCKED ? "blocked" :
			   s->f[i].started ? "runnable" : "not started";
	wt_run_report_threads(s->out->report, sizeof(s->out->report), s->n,
			      s->threads, state);
	/* A fiber whose body is over has parked (fiber_main): saving this
	 * place over its parking place would make the next run resume it
	 * here.  One that is not over is made again (wt_run_sim). */
	sim_switch(s, s->cur, -1,
		   s->cur >= 0 && s->f[s->cur].state == WT_FIBER_DONE);
	abort();	/* main never resumes an abandoned fiber */
}

/* Switch to next, the decision's pick (or stay).  From a dying fiber,
 * never returns. */
static void sim_go(struct wt_sim *s, int next, bool dying)
{
	int me = s->cur;

	if (next < 0) {
		bool all_done = true;

		for (unsigned i = 0; i < s->n; i++)
			if (s->f[i].state != WT_FIBER_DONE)
				all_done = false;
		if (!all_done)
			sim_abandon(s, WT_RUN_DEADLOCK,
				    "no runnable thread, some not finished");
		sim_switch(s, me, -1, dying);
		abort();
	}
	if (next == me && !dying)
		return;
	sim_switch(s, me, next, dying);
	if (dying)
		abort();
}

/* Pick the next fiber and switch to it (or stay).  From a dying fiber,
 * never returns. */
static void sim_reschedule(struct wt_sim *s, bool dying)
{
	sim_go(s, wt_sim_decide(s), dying);
}

/* Out of line: its report's buffer would give every point a frame. */
static __attribute__((noinline, cold)) _Noreturn void
sim_stuck(struct wt_sim *s)
{
	char why[128];

	snprintf(why, sizeof(why), "no end within max_points=%llu points",
		 (unsigned long long)s->cfg->max_points);
	sim_abandon(s, WT_RUN_STUCK, why);
}

/* Account for fiber f reaching p (a point, or a wait when flags say so).
 * Inline: it is most of what a point that stays costs. */
static inline __attribute__((always_inline))
void sim_arrive(struct wt_sim *s, struct wt_fiber *f, const struct wt_point *p,
		const void *obj, uint16_t flags)
{
	struct wt_thread *t = f->t;

	s->points++;
	t->clock_ns += s->step_ns;
	if (p) {
		__atomic_store_n(&t->last_point, p, __ATOMIC_RELAXED);
		if (s->trace_on)
			wt_trace_buf_record(&s->trace, s->trace.total,
					    t->clock_ns, t->id, p, flags,
					    t->trace_note);
		else
			wt_digest_event(&s->trace.dg, t->id,
					wt_point_name_hash(p), flags);
	}
	wt_sim_policy_arrive(s, f, p, obj);
	if (__builtin_expect(s->points > s->max_points, 0))
		sim_stuck(s);
}

/* A point at which a rule left an action: a delay, a yield, a
 * preempt-until. */
static __attribute__((noinline)) void
sim_point_pending(struct wt_sim *s, struct wt_thread *t, struct wt_fiber *f,
		  const struct wt_point *p, const void *obj)
{
	uint16_t flags = t->pending_delay_ns ? WT_EV_DELAY : 0;

	/* The delay counts from the arrival: it is time spent at the point. */
	if (t->pending_delay_ns) {
		t->clock_ns += t->pending_delay_ns;
		f->sleeping = true;
	}
	f->yield = t->pending_yield;
	if (t->pending_preempt_thread >= 0) {
		f->state = WT_FIBER_BLOCKED;
		f->preempt = true;
		f->preempt_other = (unsigned)t->pending_preempt_thread;
		f->preempt_base = wt_rule_preempt_progress(
			t, s->f[f->preempt_other].t);
	}
	sim_arrive(s, f, p, obj, flags);
	sim_reschedule(s, false);
}

/*
 * A point clears the yield a rule left at the one before.  Where
 * wt_sim_decide_point follows (sim_point_tso, sim_point_any), without a
 * store when there is none, as at nearly every point: the decision loads
 * sleeping and yield as one word, which a byte store just before cannot
 * forward to, and that load then waits for the store to retire (36 % of
 * sim_point_tso's samples, under perf, sat there).  sim_point_at's plain
 * path and sim_point_directed read neither after it, and store: the test
 * would be two more instructions a point for nothing.
 */
static inline void fiber_unyield(struct wt_fiber *f)
{
	if (f->yield)
		f->yield = false;
}

/*
 * The arrival of a plain point (sim_point, sim_point_tso): what
 * sim_arrive does for it, with the digest from the name-hash table
 * (built in wt_run, before any thread runs) and no trace ring.
 */
static inline __attribute__((always_inline))
void plain_arrive(struct wt_sim *s, struct wt_fiber *f, struct wt_thread *t,
		  uint32_t id)
{
	s->points++;
	t->clock_ns += s->step_ns;
	wt_digest_same(&s->trace.dg, wt_point_hashes[id]);
	s->now_ns = t->clock_ns;
}

/*
 * A point with nothing pending, under random, PCT or POS with store
 * buffers but no POS or feedback and no trace ring (s->plain_tso):
 * sim_point_any's steps without the tests that cannot hold -- the hook
 * stored last_point, no replay or schedule runs -- and the digest from
 * the name-hash table.
 */
static __attribute__((noinline)) void
sim_point_tso(struct wt_sim *s, struct wt_thread *t, const struct wt_point *p,
	      uint32_t id)
{
	struct wt_fiber *f = &s->f[t->id];
	int next;

	if (tso_drain_point(t, p))
		wt_tso_drain(s->tbuf[t->id]);
	fiber_unyield(f);
	plain_arrive(s, f, t, id);
	if (__builtin_expect(s->points == s->change_at, 0))
		wt_sim_pct_change_at(s, f);
	if (__builtin_expect(s->points > s->max_points, 0))
		sim_stuck(s);
	next = wt_sim_decide_point(s);
	if (__builtin_expect(next != s->cur, 0))
		sim_go(s, next, false);
}

/* A point at which a rule left an action pending, or one that is not
 * plain (s->plain).  Most keep the running fiber: the arrival and the
 * decision (wt_sim_decide_point) are inline. */
static __attribute__((noinline)) void
sim_point_any(struct wt_sim *s, struct wt_thread *t, const struct wt_point *p,
	      const void *obj)
{
	struct wt_fiber *f = &s->f[t->id];
	int next;

	if (s->tso && p && tso_drain_point(t, p))
		wt_tso_drain(wt_sim_tso_buf(s, (int)t->id));
	if (t->pending && (t->pending_delay_ns || t->pending_yield ||
			   t->pending_preempt_thread >= 0)) {
		sim_point_pending(s, t, f, p, obj);
		return;
	}
	fiber_unyield(f);
	sim_arrive(s, f, p, obj, 0);
	next = wt_sim_decide_point(s);
	if (__builtin_expect(next != s->cur, 0))
		sim_go(s, next, false);
}

/*
 * A point of a directed schedule with nothing pending, no store buffers
 * and no POS or feedback (s->plain_directed): sim_point_any's steps
 * without the tests that cannot hold -- the hook stored last_point, no
 * replay runs beside a schedule -- and the trace event or the digest.
 */
static __attribute__((noinline)) void
sim_point_directed_rest(struct wt_sim *s, struct wt_fiber *f,
			const struct wt_point *p)
{
	int next;

	if (__builtin_expect(s->points == s->change_at, 0))
		wt_sim_pct_change_at(s, f);
	wt_sim_directed_arrive(s, f, p);
	if (__builtin_expect(s->points > s->max_points, 0))
		sim_stuck(s);
	next = wt_sim_decide_point(s);
	if (__builtin_expect(next != s->cur, 0))
		sim_go(s, next, false);
}

/*
 * Most points of a directed run are the running step's thread's at a
 * point its step does not count, and that thread stays: what
 * sim_point_directed_rest would do then (directed_arrive nothing,
 * wt_sim_decide_point's directed stay: the fiber awake) is done here
 * with no call, so the arrival saves no register; everything else is
 * the rest's, entered by a tail call.
 */
static __attribute__((noinline)) void
sim_point_directed(struct wt_sim *s, struct wt_thread *t,
		   const struct wt_point *p)
{
	struct wt_fiber *f = &s->f[t->id];
	const struct wt_sim_step *ss;
	const struct wt_sched_step *st;

	f->yield = false;
	s->points++;
	t->clock_ns += s->step_ns;
	/* the name-hash table, as plain_arrive: built before any thread
	 * ran (wt_run), and a hook's point is never NULL */
	if (s->trace_on)
		wt_trace_buf_record_hash(&s->trace, s->trace.total,
					 t->clock_ns, t->id, p, 0,
					 t->trace_note,
					 wt_point_hashes[wt_point_id(p)]);
	else
		wt_digest_same(&s->trace.dg, wt_point_hashes[wt_point_id(p)]);
	s->now_ns = t->clock_ns;
	ss = &s->steps[s->step];
	st = ss->step;
	if (__builtin_expect(s->points == s->change_at ||
			     s->points > s->max_points ||
			     ss->thread != t->id || (int)t->id != s->cur ||
			     st->kind == WT_SCHED_RUN ||
			     st->kind == WT_SCHED_FLUSH ||
			     (st->kind == WT_SCHED_UNTIL &&
			      wt_point_set_has(ss->points, wt_point_id(p))) ||
			     f->state != WT_FIBER_READY, 0)) {
		sim_point_directed_rest(s, f, p);
		return;
	}
	f->sleeping = false;	/* the stay's grant */
	if (st->kind == WT_SCHED_FINISH && !s->trace_on)
		sim_free_grant(s, t);
}

/* The rest of a plain point's decision, when it is not a stay. */
static __attribute__((noinline)) void sim_point_decide(struct wt_sim *s)
{
	sim_go(s, wt_sim_decide_point(s), false);
}

/* A plain point of PCT or POS whose fiber is not known to be top. */
static __attribute__((noinline)) void sim_point_below(struct wt_sim *s)
{
	int next = wt_sim_decide_prio(s);

	if (next != s->cur)
		sim_go(s, next, false);
}

/* A plain point that is PCT's next change point: the rest of it (out
 * of line: the change inline made every plain point save registers). */
static __attribute__((noinline)) void sim_point_change(struct wt_sim *s,
						       struct wt_fiber *f)
{
	wt_sim_pct_change_at(s, f);
	if (__builtin_expect(s->points > s->max_points, 0))
		sim_stuck(s);
	sim_go(s, wt_sim_decide_point(s), false);
}

/* A plain point whose random draw said switch. */
static __attribute__((noinline)) void sim_point_switched(struct wt_sim *s)
{
	sim_go(s, wt_sim_decide_switch(s), false);
}

static void sim_point_enter(struct wt_sim *s, struct wt_thread *t,
			    const struct wt_point *p, uint32_t id,
			    const void *obj);

/*
 * A hook's point (never NULL: wt_hook_slow returns before on one), id
 * its id.  Most are plain (s->plain: SC, random or PCT, no trace ring,
 * no replay, schedule or feedback), have no action pending and keep the
 * running fiber: sim_arrive and wt_sim_decide_point, cut to what such a
 * point does, with no call left -- the hook stored last_point already,
 * a fiber at a point with nothing pending is ready, awake and not
 * yielding -- and everything else out of line.
 */
static inline __attribute__((always_inline))
void sim_point_at(struct wt_sim *s, struct wt_thread *t,
		  const struct wt_point *p, uint32_t id, const void *obj)
{
	struct wt_fiber *f;

	if (__builtin_expect(s->entered != (int)t->id, 0)) {
		sim_point_enter(s, t, p, id, obj);
		return;
	}
	if (__builtin_expect(!s->plain || t->pending, 0)) {
		if (s->plain_tso && !t->pending)
			sim_point_tso(s, t, p, id);
		else if (s->plain_directed && !t->pending)
			sim_point_directed(s, t, p);
		else
			sim_point_any(s, t, p, obj);
		return;
	}
	f = &s->f[t->id];
	f->yield = false;
	plain_arrive(s, f, t, id);
	if (__builtin_expect(s->points == s->change_at, 0)) {
		sim_point_change(s, f);
		return;
	}
	if (__builtin_expect(s->points > s->max_points, 0))
		sim_stuck(s);
	if (__builtin_expect(f->state != WT_FIBER_READY || f->sleeping, 0)) {
		sim_point_decide(s);
		return;
	}
	if (s->stay == WT_STAY_RANDOM) {
		if (__builtin_expect(wt_prng_chance_p(&s->rng, &s->switch_p),
				     0))
			sim_point_switched(s);
		return;
	}
	if (__builtin_expect(s->top != s->cur, 0)) {
		sim_point_below(s);
		return;
	}
	sim_free_grant(s, t);
}

/*
 * A point after a free run, or the first of a thread's turn in the
 * digest (its run begins, sim/sched/trace.h): the run settled or the
 * turn taken, then the point as any other, whose arrival may then add to
 * the open run with no test (plain_arrive, sim_point_directed).  Out of
 * line: a call that returns would make every point save registers.
 */
static __attribute__((noinline)) void
sim_point_enter(struct wt_sim *s, struct wt_thread *t,
		const struct wt_point *p, uint32_t id, const void *obj)
{
	if (wt_free.granted)
		sim_free_settle(s, t, true);
	if (s->trace.dg.run_thread != t->id)
		wt_digest_turn(&s->trace.dg, t->id);
	s->entered = (int)t->id;
	sim_point_at(s, t, p, id, obj);
}

/* The ops table's point handler (a thread whose sched was set by hand:
 * the tests'). */
static void sim_point(struct wt_sched *base, struct wt_thread *t,
		      const struct wt_point *p, const void *obj)
{
	sim_point_at(base->priv, t, p, wt_point_id(p), obj);
}

/* The same, as the hook calls it for the sim's own fibers (fiber_init
 * sets t->sched_point): the id given, the sim the one running them. */
static void sim_point_fast(struct wt_thread *t, const struct wt_point *p,
			   uint32_t id, const void *obj)
{
	assert(sim_current == t->sched->priv);
	assert(id == wt_point_id(p));
	sim_point_at(sim_current, t, p, id, obj);
}

#ifdef WT_HOOK_THUNK
/* A fiber's hit in some rule's points (hook_rules, inject.c): out of
 * line, so that a hit in none keeps no register across a call. */
static __attribute__((noinline)) void
sim_hook_apply(struct wt_thread *t, const struct wt_point *p, uint32_t id,
	       const void *obj)
{
	wt_rules_apply(t, p, obj);
	sim_point_at(sim_current, t, p, id, obj);
}

/* sim_hook_self for a fiber with rules: out of line, so that the
 * fibers without test nothing more. */
static __attribute__((noinline)) void
sim_hook_rules(struct wt_thread *t, const struct wt_point *p, const void *obj)
{
	uint32_t id = wt_hook_arrive(t, p);

	if (wt_rules_may_select(t, id)) {
		sim_hook_apply(t, p, id, obj);
		return;
	}
	sim_point_at(sim_current, t, p, id, obj);
}

/*
 * The thunk's target while a fiber runs (sim_self_set): the hook's slow
 * path (hook_slow, inject.c) with sim_point_fast inline, the handler it
 * calls for a fiber's thread -- wt_self is one while this is the target
 * -- so that the hook's dispatch and the sim's re-tests of what the hook
 * just did go.
 */
static void sim_hook_self(const struct wt_point *p, const void *obj)
{
	struct wt_thread *t = wt_self;

	assert(t->sched_point == sim_point_fast);
	assert(sim_current == t->sched->priv);
	if (__builtin_expect(!p, 0))
		return;
	if (__builtin_expect(t->rules != NULL, 0)) {
		sim_hook_rules(t, p, obj);
		return;
	}
	sim_point_at(sim_current, t, p, wt_hook_arrive(t, p), obj);
}
#endif

/* ready() as the policy evaluated it: under tso in the waiter's view with
 * its buffer in direct mode (policy.c, condition_holds). */
static bool sim_still_ready(struct wt_sim *s, struct wt_thread *t,
			    wt_ready_fn ready, const void *arg)
{
	struct wt_tso_buf *b = wt_sim_tso_buf(s, (int)t->id);
	bool old, ok;

	if (!b)
		return ready(arg);
	old = wt_tso_set_direct(b, true);
	ok = ready(arg);
	wt_tso_set_direct(b, old);
	return ok;
}

static void sim_wait(struct wt_sched *base, struct wt_thread *t,
		     const struct wt_point *p, enum wt_wait_kind kind,
		     wt_ready_fn ready, const void *arg)
{
	struct wt_sim *s = base->priv;
	struct wt_fiber *f = &s->f[t->id];

	sim_free_end(s);
	f->state = WT_FIBER_BLOCKED;
	f->ready = ready;
	f->ready_arg = arg;
	f->ready_polls = kind == WT_WAIT_SLEEP_POLL;
	s->polling += f->ready_polls;
	wt_sim_stay_update(s);
	sim_arrive(s, f, p, NULL, WT_EV_WAIT);
	sim_reschedule(s, false);
	/* Picked only once ready() held, and nothing ran in between. */
	if (!sim_still_ready(s, t, ready, arg))
		abort();
}

static void sim_yield(struct wt_sched *base, struct wt_thread *t)
{
	struct wt_sim *s = base->priv;

	sim_free_end(s);
	wt_sim_yield(s, &s->f[t->id]);
}

/* wt_halt: only the running fiber's thread is halted.  Main (building
 * the world, checking at quiescence) goes on, and so does a waiter whose
 * condition the policy evaluates while another fiber runs.  What the
 * abandoned bodies still held on the heap is freed when the run ends
 * (sim/scratch.h), so the sanitizer builds halt as the others do. */
static void sim_halt(struct wt_sched *base, struct wt_thread *t,
		     const struct wt_point *p, const char *why)
{
	struct wt_sim *s = base->priv;

	if (s->cur < 0 || s->f[s->cur].t != t)
		return;
	sim_free_end(s);
	if (p)
		sim_arrive(s, &s->f[s->cur], p, NULL, 0);
	sim_abandon(s, WT_RUN_HALTED, why);
}

/*
 * The fault net.  A thread that follows a pointer out of a poisoned
 * object (a zoo bug that frees without a grace period, and a plain read
 * of a freed object's field: d->d_sb, the checks see only sim/atomic.h's
 * accesses) faults on the poison's non-canonical address, where the
 * kernel would oops.  In a sim fiber the fault is a failure of its own
 * (check `fault', at the thread's last point) and the run halts there,
 * as after a poisoned read: a deterministic result of the seed, which
 * replay and minimize rebuild, not a dead process -- fuzz runs its
 * workloads in its own.  Anywhere else, and for a signal sent rather
 * than a fault, the handler that was there before takes it again.
 * Installed once, for the process (a signal's disposition is the
 * process's, and a sigaction an iteration would cost more than the
 * twin's points); not in the sanitizer builds, whose own handlers
 * report a fault.
 */
#if !defined(WT_ASAN) && !defined(WT_TSAN)
static struct sigaction sim_fault_old[2];	/* SIGSEGV, SIGBUS */

static void sim_fault(int sig, siginfo_t *si, void *uc)
{
	struct wt_sim *s = sim_current;
	struct wt_thread *t = wt_self;
	const struct wt_point *p;

	(void)uc;
	/* si_code <= 0: sent (raise, kill), not the thread's own access --
	 * harness-fault crash, the tests of crash isolation, sends one */
	if (si->si_code <= 0 || !s || s->cur < 0 || !t ||
	    s->f[s->cur].t != t) {
		sigaction(sig, &sim_fault_old[sig == SIGBUS], NULL);
		if (si->si_code <= 0)
			raise(sig);	/* sent: again, to the old handler */
		return;		/* a fault: the access again, faulting */
	}
	sim_free_end(s);
	p = __atomic_load_n(&t->last_point, __ATOMIC_RELAXED);
	/* a non-canonical address (the poison's) comes as 0 */
	wt_violation(WT_CHECK_FAULT, p, NULL, "%s at address %p after %s",
		     sig == SIGBUS ? "SIGBUS" : "SIGSEGV", si->si_addr,
		     wt_point_name(p));
	/* a sink that does not halt (the runner's does) */
	sim_abandon(s, WT_RUN_HALTED, "the thread faulted");
}

static void sim_fault_net(void)
{
	static bool done;	/* the process's, as the handler is */
	struct sigaction sa = { .sa_sigaction = sim_fault };

	if (__atomic_exchange_n(&done, true, __ATOMIC_RELAXED))
		return;
	/* SA_NODEFER: the handler leaves by longjmp, with nothing to
	 * unblock the signal again */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &sim_fault_old[0]);
	sigaction(SIGBUS, &sa, &sim_fault_old[1]);
}
#else
static void sim_fault_net(void)
{
}
#endif

static const struct wt_sched_ops sim_ops = {
	.name = "sim",
	.point = sim_point,
	.wait = sim_wait,
	.yield = sim_yield,
	.halt = sim_halt,
};

/* The body of the current fiber's thread, to its end. */
static void fiber_run(struct wt_sim *s)
{
	struct wt_fiber *f = &s->f[s->cur];
	struct wt_thread *t = f->t;

	f->started = true;
	if (sigsetjmp(f->exit_env, 0) == 0) {
		t->exit_env = &f->exit_env;
		s->body(t, s->args ? s->args[t->id] : NULL);
	}
	t->exit_env = NULL;
	sim_free_end(s);
	if (s->tso) {
		/* Its last stores reach memory before the thread is gone,
		 * and before the point that pins where that happened. */
		wt_tso_drain(wt_sim_tso_buf(s, (int)t->id));
		sim_arrive(s, f, tso_end_point(), NULL, 0);
		sim_reschedule(s, false);
	}
	t->finished = !t->aborted;
	f->state = WT_FIBER_DONE;
	if (s->top == s->cur)	/* a done fiber is no one's rival */
		s->top = -1;
	wt_sim_policy_finished(s, f);
}

/*
 * A fiber's whole life: park once made (back to slot_make), then, each
 * time a run jumps here, run a body and park again -- the jump that
 * leaves saves nothing (sim_switch `dying'): the next run resumes at the
 * _setjmp that parked it.
 */
static void fiber_main(void)
{
	struct wt_fiber_slot *slot = boot.slot;

#ifdef WT_ASAN
	__sanitizer_finish_switch_fiber(NULL, &boot.bottom, &boot.size);
#endif
	if (!_setjmp(slot->env)) {
#ifdef WT_ASAN
		__sanitizer_start_switch_fiber(&slot->asan_fake, boot.bottom,
					       boot.size);
#endif
#ifdef WT_TSAN
		__tsan_switch_to_fiber(boot.tsan, 0);
#endif
		setcontext(boot.back);
		abort();
	}
	for (;;) {
		sim_after_switch(sim_current);
		fiber_run(sim_current);
		if (!_setjmp(slot->env))
			sim_reschedule(sim_current, true);
	}
}

/* Make slot's fiber (again, when a run abandoned it): it parks at once. */
static int slot_make(struct wt_fiber_slot *slot, size_t stack_size)
{
	ucontext_t ctx, back;

	if (slot->ready && slot->stack_size == stack_size)
		return 0;
	slot->ready = false;
	if (slot->stack_size != stack_size) {
		free(slot->stack);
		slot->stack_size = 0;
		if (posix_memalign(&slot->stack, 4096, stack_size)) {
			slot->stack = NULL;
			return -1;
		}
		slot->stack_size = stack_size;
	}
#ifdef WT_ASAN
	/* An abandoned fiber leaves its frames' redzones poisoned. */
	__asan_unpoison_memory_region(slot->stack, slot->stack_size);
	slot->asan_fake = NULL;
#endif
#ifdef WT_TSAN
	if (slot->tsan_fiber)
		__tsan_destroy_fiber(slot->tsan_fiber);
	slot->tsan_fiber = __tsan_create_fiber(0);
	boot.tsan = __tsan_get_current_fiber();
#endif
	if (getcontext(&ctx))
		return -1;
	ctx.uc_stack.ss_sp = slot->stack;
	ctx.uc_stack.ss_size = slot->stack_size;
	ctx.uc_link = NULL;
	makecontext(&ctx, fiber_main, 0);
	boot.slot = slot;
	boot.back = &back;
#ifdef WT_ASAN
	__sanitizer_start_switch_fiber(&boot.asan_fake, slot->stack,
				       slot->stack_size);
#endif
#ifdef WT_TSAN
	__tsan_switch_to_fiber(slot->tsan_fiber, 0);
#endif
	if (swapcontext(&back, &ctx))
		return -1;
#ifdef WT_ASAN
	__sanitizer_finish_switch_fiber(boot.asan_fake, NULL, NULL);
#endif
	slot->ready = true;
	return 0;
}

static void slot_free(struct wt_fiber_slot *slot)
{
#ifdef WT_TSAN
	if (slot->tsan_fiber)
		__tsan_destroy_fiber(slot->tsan_fiber);
#endif
#ifdef WT_ASAN
	if (slot->stack)
		__asan_unpoison_memory_region(slot->stack, slot->stack_size);
#endif
	free(slot->stack);
	memset(slot, 0, sizeof(*slot));
}

struct wt_run_cache *wt_run_cache_create(void)
{
	struct wt_run_cache *c = calloc(1, sizeof(*c));

	if (c && !(c->sim = calloc(1, sizeof(*c->sim)))) {
		free(c);
		c = NULL;
	}
	return c;
}

void wt_run_cache_destroy(struct wt_run_cache *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < WT_RUN_MAX_THREADS; i++)
		slot_free(&c->slot[i]);
	wt_trace_buf_fini(&c->sim->trace);
	wt_run_counters_free(&c->counters);
	wt_point_set_cache_free(&c->sets);
	wt_sim_fb_cache_free(&c->fb);
	free(c->sim);
	free(c);
}

struct wt_trace *wt_run_cache_trace(const struct wt_run_cache *c)
{
	const struct wt_sim *s = c->sim;

	/* trace_kept holds until the next run zeroes s */
	return s->trace_kept ? wt_trace_from_buf(&s->trace) : NULL;
}

struct wt_run_counters *wt_run_cache_counters(struct wt_run_cache *c)
{
	return &c->counters;
}

struct wt_point_set_cache *wt_run_cache_sets(struct wt_run_cache *c)
{
	return &c->sets;
}

static int fiber_init(struct wt_sim *s, struct wt_fiber *f,
		      struct wt_thread *t, struct wt_fiber_slot *slot)
{
	f->t = t;
	f->slot = slot;
	if (slot_make(slot, s->cfg->stack_size ? s->cfg->stack_size
					       : 256 * 1024))
		return -1;
	t->sched = &s->base;
	t->sched_point = sim_point_fast;	/* the ops' sim_point, faster */
	/* Without a ring (capacity 1, never read) the ops' notes would be
	 * formatted into it for nothing (wt_trace_note), and its total
	 * stays 0, as for no buffer (wt_scn_event_now). */
	t->trace_buf = s->trace_on ? &s->trace : NULL;
	return 0;
}

static void sim_results(struct wt_sim *s, struct wt_run_result *out)
{
	out->status = s->status;
	out->points = s->points;
	out->digest = wt_digest_value(&s->trace.dg);
	s->trace_kept = s->trace_on && s->cfg->trace_on_demand && s->cfg->cache;
	if (s->trace_on && !s->trace_kept)
		out->trace = wt_trace_from_buf(&s->trace);
	for (unsigned i = 0; i < s->n; i++)
		out->threads[i].blocked = s->f[i].state == WT_FIBER_BLOCKED;
	if (s->tso) {
		struct wt_tso_stats st;

		wt_tso_get_stats(s->tso, &st);
		out->tso_stores = st.stores;
		out->tso_flushes = st.flushes;
		out->tso_forwards = st.forwards;
		out->tso_stale = st.stale;
	}
}

int wt_run_sim(const struct wt_run_config *cfg, unsigned n,
	       struct wt_thread **threads,
	       void (*body)(struct wt_thread *t, void *arg), void **args,
	       struct wt_run_result *out)
{
	struct wt_run_cache *own = cfg->cache ? NULL : wt_run_cache_create();
	struct wt_run_cache *cache = cfg->cache ? cfg->cache : own;
	struct wt_sim *s = cache ? cache->sim : NULL;
	struct wt_sim *saved = sim_current;
	struct wt_tso_buf *saved_tso = wt_tso_self;
	size_t capacity = !cfg->trace ? 1 : cfg->trace_capacity ?
			  cfg->trace_capacity : WT_TRACE_CAPACITY_DEFAULT;
	struct wt_trace_buf keep;
	int rc = -1;

	if (!s)
		return WT_RUN_CONFIG_ERROR;
	keep = s->trace;	/* the last run's ring: kept when it fits */
	/* All of it zeroed but the fibers beyond n, which nothing reads:
	 * the whole array is most of the struct (~10 KiB). */
	memset(s, 0, offsetof(struct wt_sim, f) + n * sizeof(s->f[0]));
	memset(&s->f[WT_RUN_MAX_THREADS], 0,
	       sizeof(*s) - offsetof(struct wt_sim, f[WT_RUN_MAX_THREADS]));
	if (keep.ev && keep.capacity == capacity) {
		s->trace = keep;
		wt_trace_buf_reset(&s->trace);
	} else {
		wt_trace_buf_fini(&keep);
		if (wt_trace_buf_init(&s->trace, capacity))
			goto out_free;
	}
	s->entered = -1;
	memset(&wt_free, 0, sizeof(wt_free));
	s->base.ops = &sim_ops;
	s->base.priv = s;
	s->sets = &cache->sets;
	s->fbc = &cache->fb;
	s->cfg = cfg;
	s->n = n;
	s->threads = threads;
	s->body = body;
	s->args = args;
	s->out = out;
	s->cur = -1;
	s->main_self = wt_self;
#ifdef WT_HOOK_THUNK
	s->main_hook_target = wt_hook_target;
#endif
	s->trace_on = cfg->trace;
	for (unsigned i = 0; i < n; i++)
		if (fiber_init(s, &s->f[i], threads[i], &cache->slot[i]))
			goto out_fibers;
	if (cfg->memory != WT_MEMORY_SC && !(s->tso = wt_tso_create(n)))
		goto out_fibers;
	if (s->tso) {
		wt_tso_set_partial(s->tso, cfg->memory == WT_MEMORY_PSO);
		for (unsigned i = 0; i < n; i++)
			s->tbuf[i] = wt_tso_buf_of(s->tso, i);
	}
	if (wt_sim_policy_init(s, out)) {
		wt_sim_policy_fini(s, out);
		goto out_fibers;
	}
#ifdef WT_TSAN
	s->main_tsan = __tsan_get_current_fiber();
#endif
	sim_fault_net();
	sim_current = s;
	sim_reschedule(s, false);	/* from main: returns when the run ends */
	sim_current = saved;
	sim_self_set(s, -1);
	wt_tso_self = saved_tso;
	if (s->tso)
		wt_tso_drain_all(s->tso);	/* abandoned fibers' too */
	wt_sim_policy_fini(s, out);
	sim_results(s, out);
	rc = out->status;
out_fibers:
	/* A fiber that started and did not finish is in the middle of its
	 * body: its slot makes a fresh one before it is used again. */
	for (unsigned i = 0; i < n; i++)
		if (s->f[i].started && s->f[i].state != WT_FIBER_DONE)
			cache->slot[i].ready = false;
	wt_tso_destroy(s->tso);
out_free:
	if (rc < 0) {
		out->status = WT_RUN_CONFIG_ERROR;
		if (!out->report[0])
			snprintf(out->report, sizeof(out->report),
				 "sim: cannot set up the fibers");
		rc = WT_RUN_CONFIG_ERROR;
	}
	wt_run_cache_destroy(own);
	return rc;
}

/* SPDX-License-Identifier: MIT */
/*
 * Internal to the sim backend: the fibers, the simulation state, and the
 * policies (random, PCT, directed, replay) that decide who runs next.
 */
#ifndef WT_SIM_SCHED_POLICY_H
#define WT_SIM_SCHED_POLICY_H

#include <setjmp.h>
#include <string.h>

#include "sim/sched/run.h"
#include "sim/sched/sched.h"
#include "sim/tso.h"

enum wt_fiber_state {
	WT_FIBER_READY,		/* not started, or stopped at a point */
	WT_FIBER_BLOCKED,	/* in a wait (or a preempt-until) */
	WT_FIBER_DONE,
};

struct wt_fiber_slot;			/* sim.c: stack and context, kept */

struct wt_fiber {
	struct wt_thread *t;
	struct wt_fiber_slot *slot;
	enum wt_fiber_state state;
	bool started;
	wt_ready_fn ready;		/* blocked on ready(ready_arg) */
	const void *ready_arg;
	bool ready_polls;		/* blocked, ready() has effects
					 * (WT_WAIT_SLEEP_POLL): in polling */
	bool preempt;			/* blocked until another reaches a point */
	unsigned preempt_other;
	uint64_t preempt_base;
	bool sleeping;			/* delayed: see "Virtual time" */
	bool yield;			/* must let another run at this point */
	uint64_t prio;			/* PCT, POS */
	/* POS and feedback: the operation the fiber stopped before (the
	 * point it reached and the object its hook was given), which it
	 * performs when it next runs. */
	const struct wt_point *next_p;
	const void *next_obj;
	bool pinned;			/* POS: a preemption point set prio */
	/* Fairness (wt_sim_yield): s->switches when it last got the CPU
	 * and at its last yield, its yields in a row that found another
	 * ready fiber not run since the one before, and whether its
	 * priority is the bottom fairness put it at. */
	uint64_t ran_at, yield_at;
	unsigned starved_turns;
	bool fair_low;
	uint32_t ev;			/* feedback: its last arrival's index in
					 * out->events (WT_RUN_AT_NONE) */
	uint64_t sn;			/* feedback, tso: its buffer's store
					 * count at that arrival */
	sigjmp_buf exit_env;
};

struct wt_sim_step {			/* a directed step, resolved */
	const struct wt_sched_step *step;
	unsigned thread;
	const struct wt_point_set *points;	/* until: the cache's, or own */
	struct wt_point_set own;	/* until, when the cache had no room */
};

/*
 * The feedback tables of pos.c kept from one run to the next (struct
 * wt_run_cache), cleared where used: a calloc of each per run (~25 KiB)
 * was most of what an explore iteration paid outside its points.  What
 * a table holds is found by key, so its size changes nothing but where
 * (pos.c, grow_writers); only tables up to WT_SIM_FB_KEEP slots are
 * kept, so that one large run does not make every later one scan it.
 */
#define WT_SIM_FB_KEEP	2048

struct wt_sim_writer;

struct wt_sim_fb_cache {
	struct wt_sim_writer *writers;	/* NULL: none kept */
	unsigned wcap;
	uint64_t *items;
	unsigned icap;
};

void wt_sim_fb_cache_free(struct wt_sim_fb_cache *c);

struct wt_sim {
	struct wt_sched base;
	const struct wt_run_config *cfg;
	struct wt_run_result *out;
	unsigned n;
	struct wt_thread **threads;
	/* memory=tso/pso: fiber i's store buffer, NULL under SC (asked at
	 * every decision, for every thread: kept at hand, not looked up) */
	struct wt_tso_buf *tbuf[WT_RUN_MAX_THREADS];
	struct wt_fiber f[WT_RUN_MAX_THREADS];
	void (*body)(struct wt_thread *t, void *arg);
	void **args;
	int cur;			/* running fiber, -1: main */
	int from;			/* the one switched away from */
	uint64_t switches;
	jmp_buf main_env;
	struct wt_thread *main_self;
	/* main's wt_hook_target, set back with main_self (sim_switch) */
	void (*main_hook_target)(const struct wt_point *p, const void *obj);
	void *main_tsan;
	void *main_fake;
	const void *main_bottom;
	size_t main_size;
	enum wt_run_status status;
	uint64_t points;
	uint64_t now_ns;		/* clock of the last thread that ran */
	unsigned polling;		/* blocked fibers whose ready() polls */
	bool trace_on;
	bool trace_kept;		/* the ring is the result's trace
					 * (cfg->trace_on_demand) */
	struct wt_trace_buf trace;	/* ring (capacity 1 when off) + digest */
	struct wt_prng rng;		/* the scheduler's stream */
	/* random_switch_p, tso_flush_p, ready for wt_prng_chance_p */
	struct wt_prng_p switch_p, flush_p;
	enum wt_policy policy;		/* what runs when no directed/replay */
	/* What a point's decision may take without the candidates
	 * (wt_sim_decide_point): a function of replaying, directed,
	 * polling and policy, kept by wt_sim_stay_update at each change
	 * of one of them, so that a point tests one byte, not four. */
	uint8_t stay;
	/* PCT, POS: the fiber no other that is not done beats in
	 * pick_pct (highest prio, the first of equals); -1: not known
	 * (a prio or a fiber's state changed: wt_sim_set_prio). */
	int top;
	/* No store buffers, no POS or feedback, no trace ring, and s->stay
	 * is not WT_STAY_NONE: a point with nothing pending takes
	 * sim_point's shortest path (kept by wt_sim_stay_update). */
	bool plain;
	/* The same but in a directed schedule (s->stay WT_STAY_DIRECTED),
	 * trace ring or not: sim_point_directed. */
	bool plain_directed;
	/* The same as plain but with store buffers (sim.c: sim_point_tso) */
	bool plain_tso;
	/* The thread whose points need nothing done before sim_point_at's
	 * paths: no free run to settle, and the digest's run its own, as
	 * wt_digest_same assumes (sim.c: sim_point_enter).  -1: none, and
	 * so after every switch and at a free run's grant. */
	int entered;
	uint64_t step_ns, max_points;	/* the config's, at hand */
	/* PCT */
	uint64_t *change_points;	/* d-1 sorted step indexes */
	unsigned nchange;
	unsigned next_change;
	uint64_t change_at;		/* change_points[next_change], or
					 * UINT64_MAX when none is left */
	/* directed */
	struct wt_point_set_cache *sets; /* NULL: none (sets built per run) */
	struct wt_sim_fb_cache *fbc;	/* NULL: none (tables made per run) */
	struct wt_sim_step *steps;
	unsigned nsteps;
	unsigned step;			/* current; == nsteps: done */
	uint64_t step_count;
	bool directed;
	/* replay */
	bool replaying;
	size_t replay_i;
	/* memory=tso: the store buffers (NULL under SC) */
	struct wt_tso *tso;
	/* POS (pos.c) */
	bool pos_on;			/* wt_pos_arrive has a consumer: POS,
					 * preemption points or feedback */
	unsigned pins;			/* preemption points fired so far */
	/* a hold point's store (struct wt_preempt.hold), while holding */
	bool holding;
	uint32_t hold_thread;
	uint64_t hold_sn;
	/* feedback (pos.c): the last writer of each object, the run's
	 * items, the last operation performed */
	struct wt_sim_writer *writers;	/* open addressing, wcap slots */
	unsigned nwriters, wcap;
	uint64_t wstamp;		/* writes so far (wt_sim_writer.stamp) */
	uint64_t *items;		/* set, icap slots (0: empty) */
	unsigned icap;
	struct wt_sim_ev_obj *ev_obj;	/* the object of out->events[i] */
	size_t evcap;			/* out->events and ev_obj */
	unsigned wgrows;		/* times writers grew (its slots moved) */
	size_t fbcap;			/* out->feedback */
	int last_thread;		/* -1: none yet */
	uint32_t last_point;
	/* feedback, tso: each thread's writes still in its store buffer
	 * (WT_TSO_ENTRIES a thread), and how many */
	struct wt_sim_pending *pend;
	unsigned npend[WT_RUN_MAX_THREADS];
};

/* The object of a recorded arrival's operation, and its entry in the
 * writers table once the operation is done (slot + 1; 0: unknown, or
 * moved since: the table grew). */
struct wt_sim_ev_obj {
	const void *obj;
	uint32_t slot;
};

/* A write that went into the writer's store buffer: the location it
 * will update when its last store (number sn) reaches memory. */
struct wt_sim_pending {
	uint64_t sn;
	const void *obj;
	uint32_t field;
};

/* A location the run's operations touched: a field of an object
 * (field != 0, a hash of the point's `what`) or the object as a whole
 * (field 0: seqcounts, locks, and the named writer steps that store no
 * field of ours).  The object's entry also keeps its last write of any
 * kind, which is what a whole-object read observes, and the threads
 * that wrote and touched the object (pos.c). */
struct wt_sim_writer {
	const void *obj;		/* NULL: empty slot */
	uint32_t field;			/* 0: the object as a whole */
	bool written;			/* thread, point, stamp: its last write */
	uint32_t thread;
	uint32_t point;
	uint32_t ev;			/* the writer's arrival before it */
	uint64_t stamp;
	bool waited;			/* its store waited in the buffer: */
	uint64_t wsn;			/* that store's number */
	/* field 0 only: any write to the object, a field's included */
	bool any_written;
	uint32_t any_thread, any_point, any_ev;
	bool any_waited;
	uint64_t any_wsn;
	uint32_t any_writers;		/* threads that wrote it (bit i) */
	uint32_t any_accessors;		/* threads that read or wrote it */
	/* tso: a write still in its thread's store buffer (the newest):
	 * the others read the last write above until it reaches memory */
	bool pending;
	uint32_t pthread, ppoint, pev;
	uint64_t psn;
};

/* The tables start small and double up to these: a run of a few
 * hundred operations must not pay for page faults on the largest. */
#define WT_SIM_WRITERS	16384		/* locations tracked per run */
#define WT_SIM_ITEMS	(2 * WT_RUN_FEEDBACK_MAX)

int wt_sim_policy_init(struct wt_sim *s, struct wt_run_result *out);
void wt_sim_policy_fini(struct wt_sim *s, struct wt_run_result *out);

/* pos.c: POS priorities, preemption points, feedback. */
int wt_pos_init(struct wt_sim *s, struct wt_run_result *out);
void wt_pos_fini(struct wt_sim *s);
/* f performed the operation it had stopped before, and stops before p
 * (on obj) now. */
void wt_pos_arrive(struct wt_sim *s, struct wt_fiber *f,
		   const struct wt_point *p, const void *obj);
/* The replay's and the directed schedule's progress at f's arrival. */
void wt_sim_replay_arrive(struct wt_sim *s, struct wt_fiber *f,
			  const struct wt_point *p);
/* The directed schedule's step is done: on to the next (policy.c). */
void wt_sim_step_advance(struct wt_sim *s);

/* What decides a point without the candidates (struct wt_sim, stay). */
enum wt_sim_stay {
	WT_STAY_NONE,		/* a replay, a directed schedule or a polling
				 * waiter: wt_sim_decide, all of it */
	WT_STAY_RANDOM,		/* random: stay unless the draw says switch */
	WT_STAY_PRIO,		/* PCT, POS: stay while the fiber is top */
	WT_STAY_DIRECTED,	/* a directed schedule: stay while the step
				 * is the running fiber's */
};

/* Called wherever replaying, directed, polling or policy changes. */
static inline void wt_sim_stay_update(struct wt_sim *s)
{
	if (s->replaying || s->polling || s->cfg->decide_full)
		s->stay = WT_STAY_NONE;
	else if (s->directed)
		s->stay = WT_STAY_DIRECTED;
	else if (s->policy == WT_POLICY_RANDOM)
		s->stay = WT_STAY_RANDOM;
	else if (s->policy == WT_POLICY_PCT || s->policy == WT_POLICY_POS)
		s->stay = WT_STAY_PRIO;
	else
		s->stay = WT_STAY_NONE;
	s->plain = (s->stay == WT_STAY_RANDOM || s->stay == WT_STAY_PRIO) &&
		   !s->tso && !s->pos_on && !s->trace_on;
	s->plain_directed = s->stay == WT_STAY_DIRECTED && !s->tso &&
			    !s->pos_on;
	s->plain_tso = (s->stay == WT_STAY_RANDOM || s->stay == WT_STAY_PRIO) &&
		       s->tso && !s->pos_on && !s->trace_on;
}

/*
 * Every change of a fiber's priority goes through here, which keeps
 * s->top when it can: the top fiber raised (or kept) still beats every
 * other, another that now beats the top beats every other too (the order
 * is total), and one that does not leaves the top as it was.  Only the
 * top lowered makes it unknown.  POS draws a priority at every arrival.
 */
static inline void wt_sim_set_prio(struct wt_sim *s, struct wt_fiber *f,
				   uint64_t prio)
{
	int i = (int)(f - s->f), top = s->top;
	uint64_t old = f->prio;

	f->prio = prio;
	if (top < 0)
		return;
	if (i == top) {
		if (prio < old)
			s->top = -1;
	} else if (f->state != WT_FIBER_DONE &&
		   (prio > s->f[top].prio ||
		    (prio == s->f[top].prio && i < top))) {
		s->top = i;
	}
}

/* PCT: the arrival that was the next change point (inline: a call
 * would make every point that reaches none save registers for it). */
static inline void wt_sim_pct_change_at(struct wt_sim *s, struct wt_fiber *f)
{
	/* The i-th change point drops the running thread to d - i. */
	wt_sim_set_prio(s, f, s->nchange - s->next_change);
	s->next_change++;
	s->change_at = s->next_change < s->nchange ?
		       s->change_points[s->next_change] : UINT64_MAX;
}
/* Fiber f reached p (NULL: a wait with no point) with obj: step
 * progress, POS priorities, feedback.  Inline: the sim calls it at
 * every point, and under random and PCT it rarely does anything. */
/*
 * The directed schedule's progress at f's arrival at p.  Inline: a
 * directed run asks at every point, and most are another thread's than
 * the step's, or not the point it waits for.
 */
static inline void wt_sim_directed_arrive(struct wt_sim *s,
					  struct wt_fiber *f,
					  const struct wt_point *p)
{
	struct wt_sim_step *ss = &s->steps[s->step];
	const struct wt_sched_step *st = ss->step;
	const char *comp = f->t->cur_component;

	if (ss->thread != f->t->id)
		return;
	if (st->kind == WT_SCHED_RUN) {
		if (++s->step_count == st->count)
			wt_sim_step_advance(s);
	} else if (st->kind == WT_SCHED_UNTIL && p &&
		   wt_point_set_has(ss->points, wt_point_id(p)) &&
		   (!st->component[0] || (comp && !strcmp(comp, st->component)))) {
		if (++s->step_count == st->nth)
			wt_sim_step_advance(s);
	}
}

static inline void wt_sim_policy_arrive(struct wt_sim *s, struct wt_fiber *f,
					const struct wt_point *p,
					const void *obj)
{
	s->now_ns = f->t->clock_ns;
	if (s->pos_on)
		wt_pos_arrive(s, f, p, obj);
	if (__builtin_expect(s->points == s->change_at, 0))
		wt_sim_pct_change_at(s, f);
	if (s->replaying)
		wt_sim_replay_arrive(s, f, p);
	else if (s->directed)
		wt_sim_directed_arrive(s, f, p);
}

/* Fiber f's body returned (or was abandoned). */
void wt_sim_policy_finished(struct wt_sim *s, struct wt_fiber *f);
/* Fiber f ended a turn of a loop that may never end (wt_yield). */
void wt_sim_yield(struct wt_sim *s, struct wt_fiber *f);
/* Who runs next: a fiber index, or -1 when none can run. */
int wt_sim_decide(struct wt_sim *s);

/* The running fiber does not simply stay (policy.c): the candidates,
 * then a replay, a directed step or the policy picks; `switched': the
 * random policy's draw was made already, and said switch. */
int wt_sim_decide_full(struct wt_sim *s, bool switched);
/* PCT, POS: the running fiber, ready, awake and not yielding, is not
 * top (no replay, schedule or polling waiter): the pick, from the
 * conditions of the fibers that beat it when those decide it. */
int wt_sim_decide_prio(struct wt_sim *s);
/* Random: the same fiber's draw said switch (no replay or schedule). */
int wt_sim_decide_switch(struct wt_sim *s);
/* memory=tso, pso: the flushes drawn at a decision outside a replay and
 * a directed schedule. */
void wt_sim_random_flushes(struct wt_sim *s);
/* memory=tso, pso: does a hold point keep entry `entry' of `thread''s
 * buffer from a random flush?  (pos.c; false once the store is out) */
bool wt_pos_held(struct wt_sim *s, unsigned thread, unsigned entry);
/* PCT, POS: s->top computed again. */
int wt_sim_top(struct wt_sim *s);

/*
 * The decision at a point the running fiber reached (after its
 * arrival), as wt_sim_decide takes it, but inline: most points keep the
 * running fiber, and what decides that is here -- under random a draw,
 * under PCT and POS whether the fiber is top, in a directed schedule
 * whether the step is its own (see stay_fast, stay_fast_prio and
 * stay_fast_directed in policy.c, which say why the candidates need not
 * be computed); the fiber's part of running_may_stay (ready, awake, not
 * yielding) is tested, the rest is s->stay.  A fiber index, or -1 when
 * none can run.
 */
static inline __attribute__((always_inline)) int
wt_sim_decide_point(struct wt_sim *s)
{
	struct wt_fiber *f = &s->f[s->cur];

	if (s->stay == WT_STAY_DIRECTED) {
		const struct wt_sim_step *ss = &s->steps[s->step];

		/*
		 * stay_fast_directed, without the store buffers (whose
		 * flush steps come first, in wt_sim_decide): the step is
		 * the running fiber's, which is ready -- so not done, and
		 * directed_settle has nothing to pass.  Its grant: awake.
		 */
		if (!s->tso && f->state == WT_FIBER_READY &&
		    ss->thread == (unsigned)s->cur &&
		    ss->step->kind != WT_SCHED_FLUSH) {
			f->yield = false;
			f->sleeping = false;
			return s->cur;
		}
		return wt_sim_decide(s);
	}
	if (s->stay == WT_STAY_NONE)
		return wt_sim_decide(s);
	/* wt_sim_random_flushes draws nothing while nothing is buffered */
	if (s->tso && wt_tso_pending(s->tso))
		wt_sim_random_flushes(s);
	if (f->state != WT_FIBER_READY || f->sleeping || f->yield)
		return wt_sim_decide_full(s, false);
	if (s->stay == WT_STAY_RANDOM) {
		if (wt_prng_chance_p(&s->rng, &s->switch_p))
			return wt_sim_decide_switch(s);
	} else if ((s->top < 0 ? wt_sim_top(s) : s->top) != s->cur) {
		return wt_sim_decide_prio(s);
	}
	/* The stay's grant: ready and awake already, nothing to wake. */
	return s->cur;
}

/* memory=tso: fiber i's store buffer (NULL under SC, and for i < 0). */
static inline struct wt_tso_buf *wt_sim_tso_buf(struct wt_sim *s, int i)
{
	return i >= 0 ? s->tbuf[i] : NULL;
}
/* Entry `entry' (0 = oldest) of thread's buffer reaches memory, after
 * whatever must go before it, each a flush event (policy.c). */
void wt_sim_flush_through(struct wt_sim *s, unsigned thread, unsigned entry);
/* memory=tso/pso: the scheduler flushes entry `entry' (0: the oldest;
 * under tso always 0) of thread i's buffer, which must be allowed to go
 * (wt_tso_flush_at) -- a trace event (WT_EV_FLUSH, arg = entry). */
void wt_sim_flush_event(struct wt_sim *s, unsigned i, unsigned entry);

#endif /* WT_SIM_SCHED_POLICY_H */

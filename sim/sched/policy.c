/* SPDX-License-Identifier: MIT */
/*
 * Sim-mode policies: who runs next at a point.
 *
 * Every decision first computes the candidates: fibers stopped at a point
 * or not started, and blocked fibers whose condition holds now (ready()
 * is evaluated afresh at each decision, as the blocked thread itself:
 * wt_self is switched to it, since a grace-period predicate polls its own
 * RCU record).  A blocked fiber becomes runnable only when picked.  Then,
 * in order: a replay in progress picks the recorded thread; a directed
 * schedule in progress picks the step's thread; otherwise (and when the
 * step's thread is blocked) the policy picks among the candidates that are
 * awake (see "Virtual time" in sched.h).
 *
 * memory=tso: before the candidates, a decision may flush store-buffer
 * entries (each one a trace event, "flush THREAD"): a replay redoes the
 * record's flushes, a directed schedule does its `flush' steps, and
 * otherwise, while some buffer is not empty, the scheduler flushes the
 * oldest entry of a buffer chosen uniformly with probability tso_flush_p,
 * again until the draw fails.  When no fiber can run, entries are
 * flushed (forced, one buffer chosen at random each time) until one can
 * or every buffer is empty -- a waiter may be waiting for a buffered
 * store; only then is it a deadlock.  Wait predicates are evaluated in
 * the waiter's view (its own buffer first) with its buffer in direct
 * mode, so that evaluating one buffers nothing and drains nothing.
 * Under SC none of this runs, and no random number is drawn for it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sched/policy.h"
#include "sim/tso.h"
#include "sim/zalloc.h"

/* ---- candidates ---- */

/* Fiber i's condition (f: s->f + i, its index given, not divided out;
 * inline: candidates() asks it of every blocked fiber).
 * It leaves wt_self and wt_tso_self the waiter's: candidates() puts
 * them back once, after the last. */
static inline __attribute__((always_inline))
bool condition_holds(struct wt_sim *s, struct wt_fiber *f, unsigned i)
{
	struct wt_tso_buf *b;
	bool ok, direct = false;

	if (f->preempt) {
		struct wt_fiber *o = &s->f[f->preempt_other];

		return o->state == WT_FIBER_DONE ||
		       wt_rule_preempt_progress(f->t, o->t) > f->preempt_base;
	}
	/* As the waiter, but with its hooks off: a point reached inside a
	 * predicate must not reenter the scheduler in mid-decision. */
	wt_self = f->t;
	wt_self_armed_set(false);
	b = s->tbuf[i];
	wt_tso_self = b;
	if (b)
		direct = wt_tso_set_direct(b, true);
	ok = f->ready(f->ready_arg);
	if (b)
		wt_tso_set_direct(b, direct);
	return ok;
}

static bool candidate(struct wt_sim *s, unsigned i)
{
	struct wt_fiber *f = &s->f[i];

	if (f->state == WT_FIBER_READY)
		return true;
	return f->state == WT_FIBER_BLOCKED && condition_holds(s, f, i);
}

/*
 * A delayed (sleeping) fiber is awake once no other candidate's clock is
 * behind its own: the others have caught up with the time it slept.
 */
static bool awake(struct wt_sim *s, const int *cand, unsigned nc, int c)
{
	uint64_t clock = s->f[c].t->clock_ns;

	if (!s->f[c].sleeping)
		return true;
	for (unsigned i = 0; i < nc; i++)
		if (cand[i] != c && s->f[cand[i]].t->clock_ns < clock)
			return false;
	return true;
}

/* ---- random and PCT ---- */

/* switched: the draw to stay or switch was made already (stay_fast), and
 * said switch. */
static int pick_random(struct wt_sim *s, const int *aw, unsigned na,
		       int cur, bool cur_awake, bool yield, bool switched)
{
	int others[WT_RUN_MAX_THREADS];
	unsigned no = 0;

	if (cur_awake && !yield && !switched &&
	    !wt_prng_chance_p(&s->rng, &s->switch_p))
		return cur;
	for (unsigned i = 0; i < na; i++)
		if (aw[i] != cur)
			others[no++] = aw[i];
	if (no == 0)
		return cur;
	return others[wt_prng_below(&s->rng, no)];
}

/*
 * PCT's order, which POS shares: fiber i beats fiber j, whose priority
 * is prio, when it has a higher priority, or the same one and a lower
 * index (the first of the highest wins).  A fiber that is done beats
 * nothing.  Every fast path of the prio decisions below asks this, so
 * that they pick as pick_pct.  j's priority comes with it: a loop that
 * compares all with one fiber keeps it in a register, across the
 * conditions it evaluates too (PCT asks at every point of a fiber that
 * is not top: a load each was 12 % of wt_sim_decide_prio).
 */
static inline bool prio_beats(const struct wt_sim *s, unsigned i,
			      uint64_t prio, unsigned j)
{
	const struct wt_fiber *g = &s->f[i];

	return g->state != WT_FIBER_DONE &&
	       (g->prio > prio || (g->prio == prio && i < j));
}

static int pick_pct(struct wt_sim *s, const int *aw, unsigned na, int cur,
		    bool yield)
{
	int best = -1;

	/* aw in index order, and no candidate is done */
	for (unsigned i = 0; i < na; i++) {
		if (yield && aw[i] == cur && na > 1)
			continue;
		if (best < 0 || prio_beats(s, (unsigned)aw[i], s->f[best].prio,
					   (unsigned)best))
			best = aw[i];
	}
	return best;
}

static int pick_policy(struct wt_sim *s, const int *cand, unsigned nc,
		       bool switched)
{
	int aw[WT_RUN_MAX_THREADS];
	unsigned na = 0;
	int cur = s->cur;
	bool cur_awake = false;
	bool yield = cur >= 0 && s->f[cur].yield;

	for (unsigned i = 0; i < nc; i++)
		if (awake(s, cand, nc, cand[i])) {
			aw[na++] = cand[i];
			if (cand[i] == cur)
				cur_awake = true;
		}
	/* The lowest clock among the candidates is always awake. */
	if (na == 0)
		abort();
	/* POS picks as PCT does; pos.c keeps the priorities. */
	if (s->policy == WT_POLICY_PCT || s->policy == WT_POLICY_POS)
		return pick_pct(s, aw, na, cur, yield);
	return pick_random(s, aw, na, cur, cur_awake, yield, switched);
}

/*
 * What every undirected stay without the candidates asks first: no
 * replay or schedule decides, and the running fiber is ready, awake and
 * not yielding, while no blocked waiter's ready() polls (s->polling: its
 * polls have effects, so the full decision must evaluate it).
 */
static bool running_may_stay(const struct wt_sim *s)
{
	const struct wt_fiber *f;

	if (s->replaying || s->directed || s->cur < 0 || s->polling)
		return false;
	f = &s->f[s->cur];
	return f->state == WT_FIBER_READY && !f->sleeping && !f->yield;
}

/*
 * The random policy's common case, decided without the candidates: the
 * running fiber is ready, awake (not sleeping: a fiber that is not
 * sleeping is awake whatever the others' clocks) and not yielding, so
 * pick_random's first draw -- stay, or switch -- comes before anything
 * the candidates decide.  Staying needs no candidate at all; switching
 * computes them after the draw, which is the same draw, so the choice and
 * every random number are those of the full decision.  What the stay
 * skips is evaluating the blocked fibers' ready(), which is no loss when
 * every such ready() only reads (a grace period's polls, with effects:
 * while one such waiter is blocked, s->polling, the full decision runs,
 * as before).  Under tso the flushes were drawn before (tso_decide), as
 * in the full decision.
 */
static bool stay_fast(struct wt_sim *s)
{
	return s->policy == WT_POLICY_RANDOM && running_may_stay(s);
}

/*
 * PCT's and POS's common case, decided without the candidates: the
 * running fiber is ready, not sleeping (so awake) and not yielding, and
 * no other fiber that is not done could beat it in pick_pct -- none has
 * a higher priority, nor an equal one at a lower index (pick_pct keeps
 * the first of equals).  Whatever the others' conditions and clocks,
 * pick_pct would pick the running fiber, and the full decision draws no
 * random number under these policies: the same choice, without
 * evaluating the blocked fibers' ready(), which only read (while a
 * waiter whose ready() polls is blocked, s->polling, the full decision
 * runs).
 */
int wt_sim_top(struct wt_sim *s)
{
	int top = -1;

	for (unsigned i = 0; i < s->n; i++)
		if (top < 0 ? s->f[i].state != WT_FIBER_DONE
			    : prio_beats(s, i, s->f[top].prio, (unsigned)top))
			top = (int)i;
	s->top = top;
	return top;
}

/* The running fiber is top: no other that is not done has a higher
 * priority, nor an equal one at a lower index. */
static bool stay_fast_prio(struct wt_sim *s)
{
	if ((s->policy != WT_POLICY_PCT && s->policy != WT_POLICY_POS) ||
	    !running_may_stay(s))
		return false;
	return (s->top < 0 ? wt_sim_top(s) : s->top) == s->cur;
}

/*
 * A directed schedule whose step belongs to the running fiber, which is
 * ready: pick_directed picks it whatever the other candidates are (it
 * looks neither at sleeping nor at yield), so the candidates need not be
 * computed.  Settling first instead of after the candidates changes
 * nothing: evaluating them has no effect while no polling waiter is
 * blocked, and directed_settle is idempotent.
 */
static void directed_settle(struct wt_sim *s);

static bool stay_fast_directed(struct wt_sim *s)
{
	const struct wt_sim_step *ss;

	if (!s->directed || s->replaying || s->cur < 0 || s->polling ||
	    s->f[s->cur].state != WT_FIBER_READY)
		return false;
	directed_settle(s);
	if (!s->directed)
		return false;
	ss = &s->steps[s->step];
	return ss->step->kind != WT_SCHED_FLUSH && ss->thread == (unsigned)s->cur;
}

/* ---- replay ---- */

static void diverge(struct wt_sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void diverge(struct wt_sim *s, const char *fmt, ...)
{
	va_list ap;

	s->out->diverged = true;
	s->out->diverged_at = s->replay_i;
	s->replaying = false;
	s->policy = WT_POLICY_RANDOM;
	wt_sim_stay_update(s);
	va_start(ap, fmt);
	vsnprintf(s->out->diverge_report, sizeof(s->out->diverge_report),
		  fmt, ap);
	va_end(ap);
}

static bool in_set(const int *cand, unsigned nc, int i)
{
	for (unsigned k = 0; k < nc; k++)
		if (cand[k] == i)
			return true;
	return false;
}

static int pick_replay(struct wt_sim *s, const int *cand, unsigned nc)
{
	const struct wt_trace_event *e;

	if (s->replay_i >= s->cfg->nreplay) {
		s->replaying = false;
		wt_sim_stay_update(s);
		return -1;
	}
	e = &s->cfg->replay[s->replay_i];
	if (e->flags & WT_EV_FLUSH) {
		/* Under tso, tso_decide() took it before the candidates. */
		diverge(s, "event %zu: a store-buffer flush; the record was "
			"made with memory=tso", s->replay_i);
		return -1;
	}
	if (e->thread < s->n && in_set(cand, nc, (int)e->thread))
		return (int)e->thread;
	diverge(s, "event %zu: thread #%u is not runnable (finished or blocked)",
		s->replay_i, e->thread);
	return -1;
}

void wt_sim_replay_arrive(struct wt_sim *s, struct wt_fiber *f,
			  const struct wt_point *p)
{
	const struct wt_trace_event *e = &s->cfg->replay[s->replay_i];

	if (f->t->id == e->thread && p && wt_point_id(p) == e->point) {
		if (++s->replay_i == s->cfg->nreplay) {
			s->replaying = false;
			s->policy = WT_POLICY_RANDOM;
			wt_sim_stay_update(s);
		}
		return;
	}
	diverge(s, "event %zu: thread %s reached %s, the record has #%u at %s",
		s->replay_i, f->t->name ? f->t->name : "-", wt_point_name(p),
		e->thread, wt_point_name(wt_point_by_id(e->point)));
}

/* ---- directed ---- */

void wt_sim_step_advance(struct wt_sim *s)
{
	s->step++;
	s->step_count = 0;
	s->out->steps_done = s->step;
	if (s->step == s->nsteps) {
		s->directed = false;
		s->policy = WT_POLICY_RANDOM;
		wt_sim_stay_update(s);
	}
}

static void step_error(struct wt_sim *s, const char *why)
{
	const struct wt_sched_step *st = s->steps[s->step].step;
	char text[256];

	wt_step_format(st, text, sizeof(text));
	s->status = WT_RUN_SCHEDULE_ERROR;
	s->out->step_failed = s->step + 1;
	snprintf(s->out->report, sizeof(s->out->report),
		 "schedule-error: step %u (line %u) '%s': %s", s->step + 1,
		 st->line, text, why);
	s->directed = false;
	s->policy = WT_POLICY_RANDOM;
	wt_sim_stay_update(s);
}

/* Pass the steps whose thread has finished: done for `finish', an
 * impossible step for the others. */
static void directed_settle(struct wt_sim *s)
{
	while (s->directed) {
		struct wt_sim_step *ss = &s->steps[s->step];

		if (s->f[ss->thread].state != WT_FIBER_DONE)
			return;
		/* A flush step is done by tso_decide() at the next
		 * decision, finished thread or not. */
		if (ss->step->kind == WT_SCHED_FLUSH)
			return;
		if (ss->step->kind != WT_SCHED_FINISH) {
			step_error(s, "the thread finished before the step's "
				   "condition held");
			return;
		}
		wt_sim_step_advance(s);
	}
}

static int pick_directed(struct wt_sim *s, const int *cand, unsigned nc)
{
	unsigned t;

	directed_settle(s);
	if (!s->directed)
		return -1;
	/* Cannot be a flush step: tso_decide() took those first, and
	 * nothing between it and here advances the schedule. */
	if (s->steps[s->step].step->kind == WT_SCHED_FLUSH)
		return -1;
	t = s->steps[s->step].thread;
	if (in_set(cand, nc, (int)t))
		return (int)t;
	/* Blocked: the others run until it can go on. */
	return -1;
}


/* ---- candidates and grants ---- */

static void grant(struct wt_sim *s, int pick)
{
	struct wt_fiber *f = &s->f[pick];

	if (f->state == WT_FIBER_BLOCKED) {
		/* Woken by what the others did: not before their time. */
		f->state = WT_FIBER_READY;
		f->preempt = false;
		s->polling -= f->ready_polls;
		f->ready_polls = false;
		wt_sim_stay_update(s);
		if (f->t->clock_ns < s->now_ns)
			f->t->clock_ns = s->now_ns;
	}
	f->sleeping = false;
}

static unsigned release_preempted(struct wt_sim *s, int *cand)
{
	unsigned nc = 0;

	/* Nothing else can run: a preempt-until must not make a deadlock. */
	for (unsigned i = 0; i < s->n; i++)
		if (s->f[i].state == WT_FIBER_BLOCKED && s->f[i].preempt) {
			s->f[i].preempt = false;
			s->f[i].state = WT_FIBER_READY;
			s->out->preempt_timeouts++;
			cand[nc++] = (int)i;
		}
	return nc;
}

static unsigned candidates(struct wt_sim *s, int *cand)
{
	struct wt_thread *saved = wt_self;
	struct wt_tso_buf *saved_tso = wt_tso_self;
	bool waited = false;	/* some ready() ran as its waiter */
	unsigned nc = 0;

	for (unsigned i = 0; i < s->n; i++) {
		waited |= s->f[i].state == WT_FIBER_BLOCKED && !s->f[i].preempt;
		if (candidate(s, i))
			cand[nc++] = (int)i;
	}
	/* As they were before the first condition (condition_holds). */
	if (waited) {
		wt_tso_self = saved_tso;
		wt_self_set(saved);
	}
	return nc;
}

/*
 * The conditions a decision that the running fiber may stay through
 * needs (decide_few): those of the fibers in `need', and those of every
 * waiter whose ready() polls -- it has effects, and the full decision
 * evaluates it at every decision -- in index order, as candidates()
 * does.  The other blocked fibers' ready() only read (mutex, spinlock,
 * seqcount, history and dcache waits): leaving them out changes nothing
 * that an evaluated one sees.  Returns the fibers of `need' whose
 * condition holds.
 */
static uint32_t conditions_few(struct wt_sim *s, uint32_t need)
{
	struct wt_thread *saved = wt_self;
	struct wt_tso_buf *saved_tso = wt_tso_self;
	bool waited = false;
	uint32_t holds = 0;

	for (unsigned i = 0; i < s->n; i++) {
		struct wt_fiber *f = &s->f[i];
		bool needed = need >> i & 1;

		if (f->state != WT_FIBER_BLOCKED || (!needed && !f->ready_polls))
			continue;
		waited |= !f->preempt;
		if (condition_holds(s, f, i) && needed)
			holds |= 1u << i;
	}
	if (waited) {
		wt_tso_self = saved_tso;
		wt_self_set(saved);
	}
	return holds;
}

/* ---- memory=tso: flushes ---- */

/* A thread with a non-empty store buffer, uniformly; -1 when none. */
static int pick_nonempty(struct wt_sim *s)
{
	int ne[WT_RUN_MAX_THREADS];
	unsigned n = 0;

	for (unsigned i = 0; i < s->n; i++)
		if (wt_tso_depth(wt_sim_tso_buf(s, (int)i)))
			ne[n++] = (int)i;
	if (n == 0)
		return -1;
	return ne[wt_prng_below(&s->rng, n)];
}

static void replay_flushes(struct wt_sim *s)
{
	while (s->replaying) {
		const struct wt_trace_event *e = &s->cfg->replay[s->replay_i];

		if (!(e->flags & WT_EV_FLUSH))
			return;
		if (e->thread >= s->n ||
		    !wt_tso_depth(wt_sim_tso_buf(s, (int)e->thread))) {
			diverge(s, "event %zu: flush of #%u, whose store "
				"buffer is empty", s->replay_i, e->thread);
			return;
		}
		if (e->arg >= wt_tso_depth(wt_sim_tso_buf(s, (int)e->thread))) {
			diverge(s, "event %zu: flush of entry %u of #%u, whose "
				"store buffer is shorter", s->replay_i, e->arg,
				e->thread);
			return;
		}
		wt_sim_flush_event(s, e->thread, e->arg);
		if (++s->replay_i == s->cfg->nreplay) {
			s->replaying = false;
			s->policy = WT_POLICY_RANDOM;
			wt_sim_stay_update(s);
		}
	}
}

/*
 * `flush THREAD ENTRY': entry ENTRY-1 (0 = the oldest) reaches memory,
 * after whatever must go before it (under tso every older entry; under pso
 * the older ones on its word or behind a barrier), each its own event.
 */
void wt_sim_flush_through(struct wt_sim *s, unsigned thread, unsigned entry)
{
	struct wt_tso_buf *b = wt_sim_tso_buf(s, (int)thread);

	/* Bounded by entry: each lap flushes one entry before it, or it. */
	while (entry < wt_tso_depth(b)) {
		unsigned k = 0;

		/* the oldest entry that must go first, else the target */
		while (k < entry && !wt_tso_must_precede(b, k, entry))
			k++;
		wt_sim_flush_event(s, thread, k);
		if (k == entry)
			return;
		entry--;
	}
}

/* The `flush THREAD [all|ENTRY]' steps at the head of the schedule. */
static void directed_flushes(struct wt_sim *s)
{
	while (s->directed) {
		struct wt_sim_step *ss;
		struct wt_tso_buf *b;

		directed_settle(s);
		if (!s->directed)
			return;
		ss = &s->steps[s->step];
		if (ss->step->kind != WT_SCHED_FLUSH)
			return;
		b = wt_sim_tso_buf(s, (int)ss->thread);
		if (!ss->step->all && !wt_tso_depth(b)) {
			step_error(s, "the thread's store buffer is empty");
			return;
		}
		if (ss->step->entry > wt_tso_depth(b)) {
			step_error(s, "the thread's store buffer has no such entry");
			return;
		}
		if (ss->step->entry) {
			wt_sim_flush_through(s, ss->thread, ss->step->entry - 1);
			wt_sim_step_advance(s);
			continue;
		}
		/* Bounded by the buffer's entries. */
		do {
			if (wt_tso_depth(b))
				wt_sim_flush_event(s, ss->thread, 0);
		} while (ss->step->all && wt_tso_depth(b));
		wt_sim_step_advance(s);
	}
}

/* Asked at every decision under tso: one count, not a depth a thread. */
static bool any_buffered(struct wt_sim *s)
{
	return s->tso && wt_tso_pending(s->tso) != 0;
}

/* Under pso one of the thread's entries that may go, uniformly (no draw
 * when only the oldest may: tso runs draw exactly as before). */
static unsigned pick_entry(struct wt_sim *s, unsigned i)
{
	struct wt_tso_buf *b = wt_sim_tso_buf(s, (int)i);
	unsigned n = wt_tso_flushable(b);

	return n > 1 ? (unsigned)wt_tso_flushable_nth(b, wt_prng_below(&s->rng, n))
		     : 0;
}

void wt_sim_random_flushes(struct wt_sim *s)
{
	/* Bounded: each lap flushes one of the finitely many entries.  No
	 * draw while nothing is buffered. */
	while (any_buffered(s) &&
	       wt_prng_chance_p(&s->rng, &s->flush_p)) {
		unsigned i = (unsigned)pick_nonempty(s);
		unsigned e = pick_entry(s, i);

		/* a hold point's store stays: this decision's flushes end */
		if (s->holding && wt_pos_held(s, i, e))
			break;
		wt_sim_flush_event(s, i, e);
	}
}

static void tso_decide(struct wt_sim *s)
{
	if (s->replaying)
		replay_flushes(s);
	else if (s->directed)
		directed_flushes(s);
	else
		wt_sim_random_flushes(s);
}

/* No fiber can run: flush until one can, or nothing is buffered. */
static unsigned tso_force(struct wt_sim *s, int *cand)
{
	unsigned nc = 0;
	int i;

	/* Bounded by the entries buffered. */
	while (nc == 0 && (i = pick_nonempty(s)) >= 0) {
		wt_sim_flush_event(s, (unsigned)i, pick_entry(s, (unsigned)i));
		nc = candidates(s, cand);
	}
	return nc;
}

/* ---- the decision ---- */

/*
 * The rest of a decision, when the running fiber does not simply stay:
 * the candidates, then a replay, a directed step or the policy picks.
 * Out of line (and out of wt_sim_decide_point), so that a stay (most
 * points) pays for none of it.
 */
int wt_sim_decide_full(struct wt_sim *s, bool switched)
{
	int cand[WT_RUN_MAX_THREADS];
	unsigned nc;
	int pick = -1;

	nc = candidates(s, cand);
	if (nc == 0 && s->tso)
		nc = tso_force(s, cand);
	if (nc == 0)
		nc = release_preempted(s, cand);
	if (nc == 0)
		return -1;
	if (s->replaying)
		pick = pick_replay(s, cand, nc);
	else if (s->directed)
		pick = pick_directed(s, cand, nc);
	if (pick < 0)
		pick = pick_policy(s, cand, nc, switched);
	if (s->cur >= 0)
		s->f[s->cur].yield = false;
	grant(s, pick);
	return pick;
}

/*
 * PCT, POS: the running fiber is ready, awake and not yielding, but not
 * top.  When every fiber that beats it in pick_pct (a higher priority,
 * or an equal one at a lower index) is blocked and not sleeping -- a
 * waiter for a lock the running fiber holds, most often -- only their
 * conditions decide: none holds, and the running fiber is the best
 * awake candidate; some hold, and the first of the highest among them
 * is (a blocked fiber that is not sleeping is awake, and every fiber
 * that does not beat the running one loses to each that does).  The
 * full decision's pick, without evaluating the other waiters' ready(),
 * which only read.  -1: some beater is ready or sleeping (the full
 * decision decides).
 */
static int decide_prio_few(struct wt_sim *s)
{
	uint64_t prio = s->f[s->cur].prio;
	uint32_t beat = 0, holds;
	int pick = s->cur;

	for (unsigned i = 0; i < s->n; i++) {
		const struct wt_fiber *g = &s->f[i];

		if (!prio_beats(s, i, prio, (unsigned)s->cur))
			continue;
		if (g->state != WT_FIBER_BLOCKED || g->sleeping)
			return -1;
		beat |= 1u << i;
	}
	holds = conditions_few(s, beat);
	for (unsigned i = 0; i < s->n && holds >> i; i++)
		if (holds >> i & 1 &&
		    (pick == s->cur ||
		     prio_beats(s, i, s->f[pick].prio, (unsigned)pick)))
			pick = (int)i;
	grant(s, pick);
	return pick;
}

/*
 * decide_prio_few in one pass, with no polling waiter: every condition
 * only reads, so one evaluated before a beater that is ready or sleeping
 * turns up (the full decision then evaluates it again) changes nothing,
 * and neither does one skipped because its fiber could not beat the
 * pick so far (a priority no higher, a higher index).
 */
static int decide_prio_pure(struct wt_sim *s)
{
	struct wt_thread *saved = wt_self;
	struct wt_tso_buf *saved_tso = wt_tso_self;
	int cur = s->cur, pick = cur;
	uint64_t prio = s->f[cur].prio;
	bool waited = false;

	for (unsigned i = 0; i < s->n; i++) {
		struct wt_fiber *g = &s->f[i];

		if (!prio_beats(s, i, prio, (unsigned)cur))
			continue;
		if (g->state != WT_FIBER_BLOCKED || g->sleeping) {
			pick = -1;
			break;
		}
		if (pick != cur &&
		    !prio_beats(s, i, s->f[pick].prio, (unsigned)pick))
			continue;
		waited |= !g->preempt;
		if (condition_holds(s, g, i))
			pick = (int)i;
	}
	if (waited) {
		wt_tso_self = saved_tso;
		wt_self_set(saved);
	}
	return pick;
}

int wt_sim_decide_prio(struct wt_sim *s)
{
	int pick;

	if (s->polling)
		pick = decide_prio_few(s);
	else if ((s->top < 0 ? wt_sim_top(s) : s->top) == s->cur)
		return s->cur;	/* ready and awake already: nothing to grant */
	else if ((pick = decide_prio_pure(s)) >= 0 && pick != s->cur)
		grant(s, pick);
	return pick >= 0 ? pick : wt_sim_decide_full(s, false);
}

/*
 * Random, with no polling waiter, replay or schedule: the running fiber
 * (ready, awake, not yielding) drew switch.  pick_random then picks
 * uniformly among the other candidates that are awake -- each that is
 * not sleeping is -- in index order, or stays when there is none: that
 * in one pass, without the candidates' array or the awake filter.  A
 * sleeping fiber (awake or not by the others' clocks) sends the decision
 * to the full one; the conditions evaluated before only read.
 */
static int decide_switch_pure(struct wt_sim *s)
{
	struct wt_thread *saved = wt_self;
	struct wt_tso_buf *saved_tso = wt_tso_self;
	int others[WT_RUN_MAX_THREADS];
	unsigned no = 0;
	bool waited = false, sleeper = false;

	for (unsigned i = 0; i < s->n; i++) {
		struct wt_fiber *g = &s->f[i];

		if ((int)i == s->cur || g->state == WT_FIBER_DONE)
			continue;
		if (g->sleeping) {
			sleeper = true;
			break;
		}
		if (g->state == WT_FIBER_BLOCKED) {
			waited |= !g->preempt;
			if (!condition_holds(s, g, i))
				continue;
		}
		others[no++] = (int)i;
	}
	if (waited) {
		wt_tso_self = saved_tso;
		wt_self_set(saved);
	}
	if (sleeper)
		return -1;
	return no ? others[wt_prng_below(&s->rng, no)] : s->cur;
}

int wt_sim_decide_switch(struct wt_sim *s)
{
	int pick = s->polling ? -1 : decide_switch_pure(s);

	if (pick < 0)
		return wt_sim_decide_full(s, true);
	if (pick != s->cur)
		grant(s, pick);
	return pick;
}

/*
 * An undirected decision whose running fiber is ready, awake and not
 * yielding, without the candidates where they cannot change the pick:
 * under PCT and POS decide_prio_few; under random the draw comes first
 * (pick_random's first draw, before anything the candidates decide), and
 * a stay evaluates only the polling waiters' conditions.
 */
static int decide_few(struct wt_sim *s)
{
	if (s->policy == WT_POLICY_PCT || s->policy == WT_POLICY_POS)
		return wt_sim_decide_prio(s);
	if (wt_prng_chance_p(&s->rng, &s->switch_p))
		return wt_sim_decide_switch(s);
	conditions_few(s, 0);
	grant(s, s->cur);
	return s->cur;
}

/* running_may_stay but for the polling waiters (decide_few evaluates
 * their conditions). */
static bool running_may_stay_polled(const struct wt_sim *s)
{
	const struct wt_fiber *f;

	if (s->replaying || s->directed || s->cur < 0)
		return false;
	f = &s->f[s->cur];
	return f->state == WT_FIBER_READY && !f->sleeping && !f->yield;
}

int wt_sim_decide(struct wt_sim *s)
{
	if (s->tso)
		tso_decide(s);
	if (s->cfg->decide_full)
		return wt_sim_decide_full(s, false);
	/* a polling waiter: none of the stays below applies
	 * (running_may_stay), and no schedule is to settle */
	if (s->polling && !s->directed && !s->replaying)
		return running_may_stay_polled(s) ? decide_few(s) :
		       wt_sim_decide_full(s, false);
	if (!stay_fast_prio(s) && !stay_fast_directed(s)) {
		if (!stay_fast(s))
			return running_may_stay_polled(s) ? decide_few(s) :
			       wt_sim_decide_full(s, false);
		if (wt_prng_chance_p(&s->rng, &s->switch_p))
			return wt_sim_decide_switch(s);
	}
	s->f[s->cur].yield = false;	/* used up, as in wt_sim_decide_full */
	grant(s, s->cur);
	return s->cur;
}

void wt_sim_policy_finished(struct wt_sim *s, struct wt_fiber *f)
{
	s->now_ns = f->t->clock_ns;
	if (s->pos_on)
		wt_pos_arrive(s, f, NULL, NULL);	/* its last operation */
	if (s->directed && !s->replaying)
		directed_settle(s);
}

/*
 * Fairness.  Under PCT and POS the highest priority runs, and neither
 * makes a fiber that never blocks give the CPU away: PCT lowers one only
 * at its d-1 change points, and an explore pin puts one above every
 * drawn priority for the rest of the run.  A thread that loops for ever
 * without waiting (a `loop: forever' shrinker) on top would starve the
 * finite threads until max_points calls the run stuck: a failure of the
 * harness, not of the code under test.  So, as CHESS's fair scheduler
 * does (Musuvathi and Qadeer, PLDI 2008), such a thread says where a
 * turn of its loop ends (wt_yield), and one whose WT_SIM_FAIR_TURNS
 * yields in a row each found another fiber (not done, nor asleep until a
 * time past f's clock) that had not run since the yield before goes
 * below every other fiber.  Under POS it stays there, pinned, until a
 * yield finds that every other one ran; PCT never draws again anyway.
 * A forever thread that shares the CPU (or waits, as a writer in
 * synchronize_rcu does) is never touched, so the rule changes only runs
 * that would otherwise have starved a thread for several turns.  It
 * reads only the switch count and the fibers' states: replays and seeds
 * decide it the same way.
 */
#define WT_SIM_FAIR_TURNS	4

void wt_sim_yield(struct wt_sim *s, struct wt_fiber *f)
{
	uint64_t low = UINT64_MAX;
	bool starved = false;

	if (s->policy != WT_POLICY_PCT && s->policy != WT_POLICY_POS)
		return;
	for (unsigned i = 0; i < s->n; i++) {
		const struct wt_fiber *g = &s->f[i];

		if (g == f || g->state == WT_FIBER_DONE)
			continue;
		if (g->prio < low)
			low = g->prio;
		/* A blocked fiber counts: the lock it waits for may be
		 * free at every decision and taken again by f before it
		 * runs.  Putting f lower never stops it when nobody else
		 * can run.  A sleeping one whose clock is ahead of f's
		 * waits for f's clock, not for f to go lower. */
		if ((!g->sleeping || g->t->clock_ns <= f->t->clock_ns) &&
		    g->ran_at <= f->yield_at)
			starved = true;
	}
	f->yield_at = s->switches;
	if (!starved) {
		f->starved_turns = 0;
		if (f->fair_low)
			f->pinned = f->fair_low = false;
		return;
	}
	if (++f->starved_turns < WT_SIM_FAIR_TURNS)
		return;
	f->starved_turns = 0;
	if (f->prio < low)	/* below them all already: they cannot run */
		return;
	f->pinned = f->fair_low = true;
	wt_sim_set_prio(s, f, low ? low - 1 : 0);
	s->out->fair_demotions++;
}

/* ---- set-up ---- */

static int pct_init(struct wt_sim *s, struct wt_run_result *out)
{
	unsigned d = s->cfg->pct_depth;
	uint64_t k = s->cfg->pct_steps ? s->cfg->pct_steps : 1;
	unsigned perm[WT_RUN_MAX_THREADS];
	double bound = 1.0 / s->n;

	/* Initial priorities: a random permutation of d .. d+n-1. */
	for (unsigned i = 0; i < s->n; i++)
		perm[i] = i;
	for (unsigned i = s->n - 1; i > 0; i--) {
		unsigned j = (unsigned)wt_prng_below(&s->rng, i + 1), x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	for (unsigned i = 0; i < s->n; i++)
		wt_sim_set_prio(s, &s->f[i], d + perm[i]);
	s->nchange = d - 1 < k ? d - 1 : (unsigned)k;
	s->change_points = wt_zalloc(s->nchange + 1, sizeof(uint64_t));
	if (!s->change_points)
		return -1;
	for (unsigned i = 0; i < s->nchange; i++) {
		uint64_t c;
		unsigned j;
		bool dup;

		do {	/* distinct steps in [1, k]; nchange <= k ends it */
			c = 1 + wt_prng_below(&s->rng, k);
			dup = false;
			for (j = 0; j < i; j++)
				dup |= s->change_points[j] == c;
		} while (dup);
		/* kept sorted as drawn (d - 1 of them, a handful): qsort's
		 * calls cost more than the run's first points */
		for (j = i; j > 0 && s->change_points[j - 1] > c; j--)
			s->change_points[j] = s->change_points[j - 1];
		s->change_points[j] = c;
	}
	if (s->nchange)
		s->change_at = s->change_points[0];
	for (unsigned i = 1; i < d; i++)
		bound /= (double)k;
	out->pct_bound = bound;
	return 0;
}

/* An until step's points: the run cache's, or the step's own. */
static int step_points(struct wt_sim *s, struct wt_sim_step *ss,
		       struct wt_parse_error *pe)
{
	ss->points = wt_point_set_cached(s->sets, ss->step->point, &ss->own,
					 pe);
	return ss->points ? 0 : -1;
}

static int directed_init(struct wt_sim *s, struct wt_run_result *out)
{
	const struct wt_schedule *sch = s->cfg->schedule;

	s->steps = wt_zalloc(sch->nsteps + 1, sizeof(*s->steps));
	if (!s->steps)
		return -1;
	s->nsteps = sch->nsteps;
	for (unsigned i = 0; i < sch->nsteps; i++) {
		struct wt_sim_step *ss = &s->steps[i];
		struct wt_parse_error pe = { 0 };
		unsigned t;

		ss->step = &sch->steps[i];
		for (t = 0; t < s->n; t++)
			if (wt_thread_matches(s->threads[t], ss->step->thread, false))
				break;
		if (t == s->n) {
			snprintf(out->report, sizeof(out->report),
				 "schedule line %u: no thread '%s'",
				 ss->step->line, ss->step->thread);
			return -1;
		}
		ss->thread = t;
		if (ss->step->kind == WT_SCHED_FLUSH && !s->tso) {
			snprintf(out->report, sizeof(out->report),
				 "schedule line %u: a flush step needs memory=tso or pso",
				 ss->step->line);
			return -1;
		}
		if (ss->step->kind == WT_SCHED_UNTIL &&
		    step_points(s, ss, &pe)) {
			snprintf(out->report, sizeof(out->report),
				 "schedule line %u: %s", ss->step->line, pe.msg);
			return -1;
		}
	}
	s->directed = s->nsteps > 0;
	return 0;
}

int wt_sim_policy_init(struct wt_sim *s, struct wt_run_result *out)
{
	const struct wt_run_config *cfg = s->cfg;
	uint64_t iteration_seed = wt_seed_iteration(cfg->seed, cfg->iteration);

	wt_prng_seed(&s->rng, wt_seed_derive(iteration_seed, WT_SEED_SCHED));
	wt_prng_p_set(&s->switch_p, cfg->random_switch_p);
	wt_prng_p_set(&s->flush_p, cfg->tso_flush_p);
	s->policy = cfg->policy == WT_POLICY_PCT || cfg->policy == WT_POLICY_POS ?
		    cfg->policy : WT_POLICY_RANDOM;
	s->top = -1;
	s->change_at = UINT64_MAX;
	s->step_ns = cfg->step_ns;
	s->max_points = cfg->max_points;
	if (cfg->policy == WT_POLICY_PCT && pct_init(s, out))
		return -1;
	if (wt_pos_init(s, out))
		return -1;
	if (cfg->replay)
		s->replaying = cfg->nreplay > 0;
	else if (cfg->policy == WT_POLICY_DIRECTED && directed_init(s, out))
		return -1;
	wt_sim_stay_update(s);
	return 0;
}

void wt_sim_policy_fini(struct wt_sim *s, struct wt_run_result *out)
{
	(void)out;
	for (unsigned i = 0; s->steps && i < s->nsteps; i++)
		if (s->steps[i].own.bits)
			wt_point_set_free(&s->steps[i].own);
	free(s->steps);
	free(s->change_points);
	wt_pos_fini(s);
	s->steps = NULL;
	s->change_points = NULL;
}

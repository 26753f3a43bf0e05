/* SPDX-License-Identifier: MIT */
/*
 * The explore policy's loop state: corpus, item counts, mutations, and
 * the text form of a schedule (explore.h says what and why).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/src/explore.h"
#include "sim/inject.h"
#include "sim/sched/sched.h"
#include "sim/sched/prng.h"

#define EXPLORE_SEED_TAG	0x500000000ull
#define RARE_MAX		4	/* items an entry remembers it found */
#define HOT_MAX			12	/* arrivals around its new pairs */
#define STALE_MAX		(HOT_MAX / 3)	/* its new stale reads */
#define HOLD_MAX		8	/* stores that waited, others read */
#define HOLD_CANDIDATES		64	/* of them, looked at in a run */

struct entry {
	struct wt_preempt p[WT_EXPLORE_MAX_PREEMPTS];
	uint32_t at[WT_EXPLORE_MAX_PREEMPTS];	/* p[i]'s arrival in the run */
	unsigned np;
	uint64_t seed;			/* the iteration seed of its run */
	struct wt_run_event *ev;	/* [WT_EXPLORE_EVENTS] */
	uint32_t *evi;			/* ev[i]'s index among the arrivals */
	unsigned nev;
	/* the arrivals around the first sightings of the reads-from pairs
	 * it found (struct wt_run_item_at), with their indexes */
	struct wt_run_event hot[HOT_MAX];
	uint32_t hoti[HOT_MAX];
	unsigned nhot;
	/* the stale reads it found: the reader's arrival before the read,
	 * and the store that waited (a flush point there makes the read
	 * see it) */
	struct stale {
		struct wt_run_event ev;
		uint32_t evi;
		uint32_t thread;
		uint64_t sn;
	} stale[STALE_MAX];
	unsigned nstale;
	/* stores of its run that waited in their buffer while or before
	 * another thread read their location (stale reads and reads of
	 * them once flushed), at the writer's arrival after the write:
	 * held from there, the reads miss them */
	struct hold {
		struct stale st;
		/* the writer's last arrival before it drains */
		struct wt_run_event pin;
		uint32_t pini;
	} hold[HOLD_MAX];
	unsigned nhold;
	uint64_t rare[RARE_MAX];
	unsigned nrare;
	uint64_t picks;
};

struct slot {
	uint64_t h;			/* 0: empty */
	uint64_t count;
};

struct wt_explore {
	struct wt_prng rng;
	struct entry corpus[WT_EXPLORE_CORPUS];
	unsigned ncorpus;
	struct slot *items;		/* [WT_EXPLORE_ITEMS] */
	uint64_t nitems;
	struct wt_explore_stats st;
};

struct wt_explore *wt_explore_new(uint64_t scenario_seed)
{
	struct wt_explore *ex = calloc(1, sizeof(*ex));

	if (!ex)
		return NULL;
	ex->items = calloc(WT_EXPLORE_ITEMS, sizeof(*ex->items));
	if (!ex->items) {
		free(ex);
		return NULL;
	}
	wt_prng_seed(&ex->rng, wt_seed_derive(scenario_seed, EXPLORE_SEED_TAG));
	return ex;
}

void wt_explore_free(struct wt_explore *ex)
{
	if (!ex)
		return;
	for (unsigned i = 0; i < ex->ncorpus; i++) {
		free(ex->corpus[i].ev);
		free(ex->corpus[i].evi);
	}
	free(ex->items);
	free(ex);
}

/* ---- items ---- */

static struct slot *item_slot(struct wt_explore *ex, uint64_t h)
{
	size_t i = h & (WT_EXPLORE_ITEMS - 1);

	while (ex->items[i].h && ex->items[i].h != h)
		i = (i + 1) & (WT_EXPLORE_ITEMS - 1);
	return &ex->items[i];
}

/* Count h; true when it was new (and there was room for it). */
static bool item_see(struct wt_explore *ex, uint64_t h)
{
	struct slot *sl = item_slot(ex, h);

	if (sl->h) {
		sl->count++;
		return false;
	}
	if (ex->nitems >= WT_EXPLORE_ITEMS / 4 * 3)
		return false;	/* full: no new item is recorded */
	sl->h = h;
	sl->count = 1;
	ex->nitems++;
	return true;
}

static uint64_t item_count(struct wt_explore *ex, uint64_t h)
{
	struct slot *sl = item_slot(ex, h);

	return sl->h ? sl->count : 0;
}

/* The count of the rarest item e found (the most common possible when
 * it remembers none). */
static uint64_t rarest(struct wt_explore *ex, const struct entry *e)
{
	uint64_t m = UINT64_MAX;

	for (unsigned i = 0; i < e->nrare; i++) {
		uint64_t c = item_count(ex, e->rare[i]);

		if (c < m)
			m = c;
	}
	return m;
}

/* ---- choosing and mutating ---- */

static uint64_t weight(struct wt_explore *ex, const struct entry *e)
{
	uint64_t m = rarest(ex, e);

	if (m == UINT64_MAX)
		m = 1u << 20;
	return (1ull << 24) / ((1 + m) * (1 + e->picks / 8)) + 1;
}

static struct entry *choose(struct wt_explore *ex)
{
	uint64_t total = 0, r;

	for (unsigned i = 0; i < ex->ncorpus; i++)
		total += weight(ex, &ex->corpus[i]);
	r = wt_prng_below(&ex->rng, total);
	for (unsigned i = 0; i < ex->ncorpus; i++) {
		uint64_t w = weight(ex, &ex->corpus[i]);

		if (r < w)
			return &ex->corpus[i];
		r -= w;
	}
	return &ex->corpus[ex->ncorpus - 1];
}

static bool same_point(const struct wt_preempt *a, const struct wt_preempt *b)
{
	return a->thread == b->thread && a->point == b->point &&
	       a->nth == b->nth && a->flush == b->flush &&
	       a->hold == b->hold &&
	       (!(a->flush || a->hold) ||
		(a->flush_thread == b->flush_thread &&
		 a->flush_sn == b->flush_sn));
}

/*
 * A flush or hold point for e (explore.h, "Store buffers") into *q, its
 * arrival's index into *evi; *pin: the hold's writer is also to stop at
 * its last arrival before it drains (*pini, its index), else false.
 * False when e found no such store or the draw is for a plain point.
 */
static bool store_point(struct wt_explore *ex, const struct entry *e,
			struct wt_preempt *q, uint32_t *evi,
			struct wt_preempt *pin, uint32_t *pini)
{
	const struct stale *st;
	bool hold;

	if ((!e->nstale && !e->nhold) || wt_prng_below(&ex->rng, 2))
		return false;
	/* a flush point: the store a stale read missed reaches memory
	 * right before that read; or a hold point: a store others read
	 * stays buffered from its write on, so that they miss it */
	hold = e->nhold && (!e->nstale || wt_prng_below(&ex->rng, 2));
	pin->thread = WT_RUN_AT_NONE;
	if (hold) {
		const struct hold *h = &e->hold[wt_prng_below(&ex->rng,
							      e->nhold)];

		st = &h->st;
		if (wt_prng_below(&ex->rng, 2)) {
			*pin = (struct wt_preempt){ .thread = h->pin.thread,
						    .point = h->pin.point,
						    .nth = h->pin.nth };
			*pini = h->pini;
		}
	} else {
		st = &e->stale[wt_prng_below(&ex->rng, e->nstale)];
	}
	*evi = st->evi;
	*q = (struct wt_preempt){ .thread = st->ev.thread,
				  .point = st->ev.point, .nth = st->ev.nth,
				  .flush = !hold, .hold = hold,
				  .flush_thread = st->thread,
				  .flush_sn = st->sn };
	return true;
}

/*
 * q (its arrival evi in e's run) into p[*np], where its arrival was in
 * e's run among the points of the list that still are e's own (each
 * fired there, at e->at[i]), and at `from' or after: only the next
 * point of the list is armed, so one put before a point that came
 * earlier could never fire, nor could any after it.  Once the list was
 * reordered (swap) or points were deleted, the place is a guess; then
 * it is drawn.  Its place, or -1 when it is there already or p is full.
 */
static int place(struct wt_explore *ex, const struct entry *e,
		 struct wt_preempt *p, unsigned *np, bool own, unsigned from,
		 const struct wt_preempt *q, uint32_t evi)
{
	unsigned at;

	if (*np >= WT_EXPLORE_MAX_PREEMPTS)
		return -1;
	for (unsigned i = 0; i < *np; i++)
		if (same_point(&p[i], q))
			return -1;
	if (own)
		for (at = 0; at < *np && at < e->np && e->at[at] < evi;)
			at++;
	else
		at = from + (unsigned)wt_prng_below(&ex->rng, *np - from + 1);
	if (at < from)
		at = from;
	memmove(&p[at + 1], &p[at], (*np - at) * sizeof(*p));
	p[at] = *q;
	(*np)++;
	return (int)at;
}

/*
 * A new point: a flush or hold point (store_point), else one drawn from
 * e's arrivals -- half the time from those around its new pairs.  A
 * hold may come with a demotion of its writer right before the writer
 * drains its buffer: the store-buffering window needs both, the store
 * kept and its writer stopped (past the reads it must make first) while
 * the others read, and apart they are two mutations that must meet.
 */
static void insert(struct wt_explore *ex, const struct entry *e,
		   struct wt_preempt *p, unsigned *np, bool own)
{
	const struct wt_run_event *ev;
	struct wt_preempt q, pin;
	uint32_t evi, pini = 0;
	unsigned k;
	int at;

	if (!e->nev || *np >= WT_EXPLORE_MAX_PREEMPTS)
		return;
	if (!store_point(ex, e, &q, &evi, &pin, &pini)) {
		pin.thread = WT_RUN_AT_NONE;
		if (e->nhot && wt_prng_below(&ex->rng, 2)) {
			k = (unsigned)wt_prng_below(&ex->rng, e->nhot);
			ev = &e->hot[k];
			evi = e->hoti[k];
		} else {
			k = (unsigned)wt_prng_below(&ex->rng, e->nev);
			ev = &e->ev[k];
			evi = e->evi[k];
		}
		q = (struct wt_preempt){ .thread = ev->thread,
					 .point = ev->point, .nth = ev->nth,
					 .promote = wt_prng_below(&ex->rng, 4) == 0 };
	}
	at = place(ex, e, p, np, own, 0, &q, evi);
	if (at >= 0 && pin.thread != WT_RUN_AT_NONE)
		place(ex, e, p, np, own, (unsigned)at + 1, &pin, pini);
}

/* *own: p[] still lists e's points in their order (insert). */
static void mutate(struct wt_explore *ex, const struct entry *e,
		   struct wt_preempt *p, unsigned *np, bool *own)
{
	unsigned i;

	switch (wt_prng_below(&ex->rng, 4)) {
	case 0:		/* insert */
		insert(ex, e, p, np, *own);
		break;
	case 1:		/* delete */
		if (!*np)
			return insert(ex, e, p, np, *own);
		i = (unsigned)wt_prng_below(&ex->rng, *np);
		memmove(&p[i], &p[i + 1], (*np - i - 1) * sizeof(*p));
		(*np)--;
		*own = false;
		break;
	case 2:		/* swap two neighbours */
		if (*np < 2)
			return insert(ex, e, p, np, *own);
		i = (unsigned)wt_prng_below(&ex->rng, *np - 1);
		{
			struct wt_preempt t = p[i];

			p[i] = p[i + 1];
			p[i + 1] = t;
		}
		*own = false;
		break;
	default:	/* negate (a flush or hold point has no direction) */
		if (!*np)
			return insert(ex, e, p, np, *own);
		i = (unsigned)wt_prng_below(&ex->rng, *np);
		p[i].promote = !p[i].promote && !p[i].flush && !p[i].hold;
		break;
	}
}

unsigned wt_explore_next(struct wt_explore *ex, struct wt_preempt *p,
			 bool *reseed, uint64_t *seed)
{
	struct entry *e;
	unsigned np, rounds;
	bool own = true;

	*reseed = false;
	if (!ex->ncorpus || wt_prng_below(&ex->rng, 8) == 0) {
		ex->st.plain++;
		return 0;
	}
	e = choose(ex);
	e->picks++;
	np = e->np;
	memcpy(p, e->p, np * sizeof(*p));
	rounds = 1 + (unsigned)wt_prng_below(&ex->rng, 3);
	for (unsigned i = 0; i < rounds; i++)
		mutate(ex, e, p, &np, &own);
	/* half the time the entry's own run, changed only from where the
	 * mutation takes effect: its seed (explore.h, "Seeds") */
	if (wt_prng_below(&ex->rng, 2)) {
		*reseed = true;
		*seed = e->seed;
		ex->st.reseeded++;
	}
	ex->st.mutated++;
	return np;
}

/* ---- feedback ---- */

/* The slot a new entry goes to: a free one, else the entry whose rarest
 * item is the most common (the first of them). */
static struct entry *victim(struct wt_explore *ex)
{
	struct entry *v = NULL;
	uint64_t worst = 0;

	if (ex->ncorpus < WT_EXPLORE_CORPUS)
		return &ex->corpus[ex->ncorpus++];
	for (unsigned i = 0; i < ex->ncorpus; i++) {
		uint64_t m = rarest(ex, &ex->corpus[i]);

		if (!v || m > worst) {
			v = &ex->corpus[i];
			worst = m;
		}
	}
	return v;
}

/* The index of p's arrival among res's (UINT32_MAX: not recorded). */
static uint32_t arrival(const struct wt_run_result *res,
			const struct wt_preempt *p)
{
	for (size_t i = 0; i < res->nevents; i++)
		if (res->events[i].thread == p->thread &&
		    res->events[i].point == p->point &&
		    res->events[i].nth == p->nth)
			return (uint32_t)i;
	return UINT32_MAX;
}

/* Does a thread's arrival at point id drain its store buffer?  The
 * sim's rule; an RCU exit counts, whether outermost is not known here. */
static bool drains(uint32_t id)
{
	const struct wt_point *pt = wt_point_by_id(id);

	return pt && wt_point_kind_drains(pt->kind, true);
}

/* Item i's store that waited in its writer's buffer while, or before,
 * another thread read it: its writer and number into h->st (the
 * arrivals not yet); false: none. */
static bool waited_store(const struct wt_run_result *res, size_t i,
			 struct hold *h)
{
	const struct wt_run_item_at *at = &res->feedback_at[i];
	bool stale = at->stale_thread != WT_RUN_AT_NONE;
	uint32_t t = stale ? at->stale_thread : at->waited_thread;

	if (t == WT_RUN_AT_NONE || at->write >= res->nevents ||
	    res->events[at->write].thread != t)
		return false;
	h->st = (struct stale){ .evi = at->write, .thread = t,
				.sn = stale ? at->stale_sn : at->waited_sn };
	return true;
}

/*
 * h's arrivals, from its write's (h->st.evi): the hold at the writer's
 * next arrival (the store is in the buffer there), the pin at its last
 * one before it drains.  False when the writer drains at that very
 * arrival (a hold there holds nothing) or has none.
 */
static bool hold_arrivals(const struct wt_run_result *res, struct hold *h)
{
	uint32_t t = h->st.thread;
	size_t k = h->st.evi + 1;

	while (k < res->nevents && res->events[k].thread != t)
		k++;
	if (k == res->nevents || drains(res->events[k].point))
		return false;
	h->st.ev = res->events[k];
	h->st.evi = (uint32_t)k;
	h->pin = res->events[k];
	h->pini = (uint32_t)k;
	for (k++; k < res->nevents; k++) {
		if (res->events[k].thread != t)
			continue;
		if (drains(res->events[k].point))
			break;
		h->pin = res->events[k];
		h->pini = (uint32_t)k;
	}
	return true;
}

static bool same_store(const struct hold *a, const struct hold *b)
{
	return a->st.thread == b->st.thread && a->st.sn == b->st.sn;
}

/*
 * The stores of e's run worth a hold: those of its new pairs first,
 * then an even sample of the run's other distinct ones (a store
 * buffering race needs a store held that the runs before saw flushed:
 * its pair is seldom new, the schedule around it is).  At most
 * HOLD_CANDIDATES distinct stores have their arrivals looked up.
 */
static void keep_holds(struct entry *e, const struct wt_run_result *res,
		       const size_t *pairs, unsigned npairs)
{
	struct hold c[HOLD_CANDIDATES], h;
	unsigned nc = 0, stride;

	e->nhold = 0;
	if (!res->feedback_at)
		return;
	for (unsigned i = 0; i < npairs && e->nhold < HOLD_MAX; i++)
		if (waited_store(res, pairs[i], &h) && hold_arrivals(res, &h))
			e->hold[e->nhold++] = h;
	for (size_t i = 0; i < res->nfeedback && nc < HOLD_CANDIDATES; i++) {
		bool dup = false;

		if (!waited_store(res, i, &h))
			continue;
		for (unsigned j = 0; j < nc && !dup; j++)
			dup = same_store(&c[j], &h);
		for (unsigned j = 0; j < e->nhold && !dup; j++)
			dup = same_store(&e->hold[j], &h);
		if (!dup)
			c[nc++] = h;
	}
	stride = nc / (HOLD_MAX - e->nhold + 1) + 1;
	for (unsigned j = 0; j < nc && e->nhold < HOLD_MAX; j += stride)
		if (hold_arrivals(res, &c[j]))
			e->hold[e->nhold++] = c[j];
}

/*
 * Only the points that fired are kept: the first res->preempts_hit of
 * the list (one is armed at a time, so a point that did not fire
 * disarmed the rest); the run would have been the same without the
 * others, and they would make most later insertions land behind a
 * point that never fires.
 */
static void keep(struct wt_explore *ex, const struct wt_preempt *p,
		 unsigned np, uint64_t seed, const struct wt_run_result *res,
		 const uint64_t *fresh, unsigned nfresh, const size_t *pairs,
		 unsigned npairs, const size_t *stales, unsigned nstales)
{
	struct entry *e = victim(ex);
	size_t stride, nconf;

	if (!e->ev)
		e->ev = calloc(WT_EXPLORE_EVENTS, sizeof(*e->ev));
	if (!e->evi)
		e->evi = calloc(WT_EXPLORE_EVENTS, sizeof(*e->evi));
	if (!e->ev || !e->evi) {
		free(e->ev);
		free(e->evi);
		e->ev = NULL;
		e->evi = NULL;
	}
	if (res->preempts_hit < np)
		np = res->preempts_hit;
	e->np = np;
	memcpy(e->p, p, np * sizeof(*p));
	for (unsigned i = 0; i < np; i++)
		e->at[i] = arrival(res, &p[i]);
	e->seed = seed;
	e->nev = 0;
	e->picks = 0;
	/* an even sample of the run's conflicting arrivals (all of them
	 * when none conflicts) */
	nconf = 0;
	for (size_t i = 0; i < res->nevents; i++)
		nconf += res->events[i].conflict;
	stride = (nconf ? nconf : res->nevents) / WT_EXPLORE_EVENTS + 1;
	for (size_t i = 0, k = 0; e->ev && i < res->nevents &&
	     e->nev < WT_EXPLORE_EVENTS; i++) {
		if (nconf && !res->events[i].conflict)
			continue;
		if (k++ % stride == 0) {
			e->evi[e->nev] = (uint32_t)i;
			e->ev[e->nev++] = res->events[i];
		}
	}
	e->nrare = nfresh < RARE_MAX ? nfresh : RARE_MAX;
	memcpy(e->rare, fresh, e->nrare * sizeof(*fresh));
	/* where the new pairs were first seen: a preemption there changes
	 * what that read sees (the writer's or the reader's arrival) or
	 * what follows it (the reader's next) */
	e->nstale = 0;
	for (unsigned i = 0; i < nstales; i++) {
		const struct wt_run_item_at *at = &res->feedback_at[stales[i]];

		if (at->read < res->nevents)
			e->stale[e->nstale++] = (struct stale){
				.ev = res->events[at->read], .evi = at->read,
				.thread = at->stale_thread,
				.sn = at->stale_sn };
	}
	keep_holds(e, res, pairs, npairs);
	e->nhot = 0;
	for (unsigned i = 0; i < npairs && res->feedback_at; i++) {
		const struct wt_run_item_at *at = &res->feedback_at[pairs[i]];
		const uint32_t w[3] = { at->write, at->read, at->next };

		for (unsigned j = 0; j < 3 && e->nhot < HOT_MAX; j++) {
			if (w[j] >= res->nevents)
				continue;
			e->hot[e->nhot] = res->events[w[j]];
			e->hoti[e->nhot++] = w[j];
		}
	}
}

/*
 * Does a new item of h's kind make the iteration worth keeping?  Not an
 * adjacency: almost any reordering makes a new one (about 60% of the
 * iterations added one), so a corpus kept for them is a corpus of
 * noise, and the power schedule, which favours entries with rare items,
 * spends its picks on them.  Adjacencies are still counted.
 */
static bool novel_kind(uint64_t h)
{
	return wt_run_feedback_kind(h) != WT_FB_ADJACENT;
}

unsigned wt_explore_feed(struct wt_explore *ex, const struct wt_preempt *p,
			 unsigned np, uint64_t seed,
			 const struct wt_run_result *res,
			 const uint64_t *extra, unsigned nextra)
{
	uint64_t fresh[RARE_MAX];
	size_t pairs[HOT_MAX / 3], stales[STALE_MAX];
	unsigned nnew = 0, npairs = 0, nstales = 0;

	for (size_t i = 0; i < res->nfeedback + nextra; i++) {
		uint64_t h = i < res->nfeedback ? res->feedback[i]
						: extra[i - res->nfeedback];

		if (!item_see(ex, h) || !novel_kind(h))
			continue;
		if (nnew < RARE_MAX)	/* the first few it found */
			fresh[nnew] = h;
		nnew++;
		if (i >= res->nfeedback ||
		    wt_run_feedback_kind(h) != WT_FB_READS_FROM)
			continue;
		if (npairs < HOT_MAX / 3)
			pairs[npairs++] = i;
		if (nstales < STALE_MAX && res->feedback_at &&
		    res->feedback_at[i].stale_thread != WT_RUN_AT_NONE)
			stales[nstales++] = i;
	}
	if (nnew) {
		keep(ex, p, np, seed, res, fresh, nnew, pairs, npairs, stales,
		     nstales);
		ex->st.added++;
	}
	return nnew;
}

void wt_explore_get_stats(const struct wt_explore *ex,
			  struct wt_explore_stats *st)
{
	*st = ex->st;
	st->items = ex->nitems;
	st->corpus = ex->ncorpus;
}

/* ---- the text form ---- */

int wt_explore_format(const struct wt_scenario *s, const struct wt_preempt *p,
		      unsigned n, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		const struct wt_point *pt = wt_point_by_id(p[i].point);
		int w;

		if (p[i].thread >= s->nthreads || !pt)
			return -1;
		w = snprintf(buf + k, len - k, "%s%s%s:%s:%u", i ? "," : "",
			     p[i].promote && !p[i].flush && !p[i].hold ? "+" : "",
			     s->threads[p[i].thread].name, wt_point_name(pt),
			     p[i].nth);
		if (w < 0 || (size_t)w >= len - k)
			return -1;
		k += (size_t)w;
		if (!p[i].flush && !p[i].hold)
			continue;
		if (p[i].flush_thread >= s->nthreads)
			return -1;
		w = snprintf(buf + k, len - k, "%c%s#%llu",
			     p[i].flush ? '>' : '<',
			     s->threads[p[i].flush_thread].name,
			     (unsigned long long)p[i].flush_sn);
		if (w < 0 || (size_t)w >= len - k)
			return -1;
		k += (size_t)w;
	}
	return 0;
}

int wt_explore_parse(const struct wt_scenario *s, const char *spec,
		     struct wt_preempt *p, unsigned *n, char *msg,
		     size_t msglen)
{
	const char *c = spec;

	*n = 0;
	wt_points_catalogue();
	while (*c) {
		char item[512], *th, *pt, *nth, *end, *fl;
		const struct wt_point *point;
		size_t l = strcspn(c, ",");
		unsigned long v;
		int t, ft;

		if (*n == WT_EXPLORE_MAX_PREEMPTS) {
			snprintf(msg, msglen, "more than %d preemption points",
				 WT_EXPLORE_MAX_PREEMPTS);
			return -1;
		}
		if (l >= sizeof(item)) {
			snprintf(msg, msglen, "preemption point too long");
			return -1;
		}
		memcpy(item, c, l);
		item[l] = '\0';
		c += l + (c[l] == ',');
		p[*n].promote = item[0] == '+';
		th = item + p[*n].promote;
		pt = strchr(th, ':');
		nth = pt ? strchr(pt + 1, ':') : NULL;
		if (!nth) {
			snprintf(msg, msglen, "'%s': expected [+]THREAD:POINT:NTH",
				 item);
			return -1;
		}
		*pt++ = '\0';
		*nth++ = '\0';
		t = -1;
		for (unsigned i = 0; i < s->nthreads; i++)
			if (!strcmp(s->threads[i].name, th))
				t = (int)i;
		if (t < 0) {
			snprintf(msg, msglen, "no thread '%s' in %s", th, s->name);
			return -1;
		}
		point = wt_point_lookup(pt);
		if (!point) {
			snprintf(msg, msglen, "no point '%s'", pt);
			return -1;
		}
		p[*n].flush = false;
		p[*n].hold = false;
		if ((fl = strpbrk(nth, "<>")) != NULL) {
			char *hash = strrchr(fl + 1, '#');
			unsigned long long sn;
			bool hold = *fl == '<';

			*fl++ = '\0';
			if (!hash) {
				snprintf(msg, msglen, "'%s': expected "
					 "THREAD:POINT:NTH%cTHREAD#STORE", fl,
					 hold ? '<' : '>');
				return -1;
			}
			*hash++ = '\0';
			ft = -1;
			for (unsigned i = 0; i < s->nthreads; i++)
				if (!strcmp(s->threads[i].name, fl))
					ft = (int)i;
			if (ft < 0) {
				snprintf(msg, msglen, "no thread '%s' in %s", fl,
					 s->name);
				return -1;
			}
			sn = strtoull(hash, &end, 10);
			if (*end || !*hash || hash[0] == '-') {
				snprintf(msg, msglen, "bad store number '%s' (from 0)",
					 hash);
				return -1;
			}
			if (p[*n].promote) {
				snprintf(msg, msglen, "a %s point ('%c') takes no '+'",
					 hold ? "hold" : "flush", hold ? '<' : '>');
				return -1;
			}
			p[*n].flush = !hold;
			p[*n].hold = hold;
			p[*n].flush_thread = (uint32_t)ft;
			p[*n].flush_sn = sn;
		}
		v = strtoul(nth, &end, 10);
		if (*end || !*nth || v == 0 || v > UINT32_MAX) {
			snprintf(msg, msglen, "bad count '%s' (an arrival, from 1)",
				 nth);
			return -1;
		}
		p[*n].thread = (uint32_t)t;
		p[*n].point = wt_point_id(point);
		p[*n].nth = (uint32_t)v;
		(*n)++;
	}
	return 0;
}

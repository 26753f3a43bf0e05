/* SPDX-License-Identifier: MIT */
/*
 * POS, preemption points and feedback: what the sim knows about the
 * operation each fiber stopped before.
 *
 * A fiber stopped at a point is about to perform that point's operation
 * on the object its hook was given (the hook runs before the access): a
 * seqcount, a lock, a lockref, a dentry or mount whose field is loaded
 * or stored.  It performs it when it next runs, so the operation a fiber
 * "did" is known when it reaches its next point (or finishes).
 *
 * POS (partial order sampling, Yuan et al., CAV 2018).  Every fiber has
 * a random priority, drawn from the scheduler's stream; the highest
 * awake one runs (policy.c, the same pick as PCT).  When a fiber has
 * performed an operation, its own priority is drawn again, and so is
 * that of every fiber whose next operation is on the same object with
 * at least one of the two a write (wt_point_kind_access, sim/inject.h).
 * A fiber whose next operation races with nothing keeps its priority,
 * however many steps the others take: unlike random switching, POS
 * samples the orders of racing operations, not the interleavings of
 * everything else, each partial order with a probability that does not
 * shrink with the number of unrelated steps.  Objects are compared by
 * address, only within a run (objects are quarantined when freed, so no
 * two objects of a run share one), so the decisions depend on the seed
 * alone; nothing is hashed from an address.
 *
 * Preemption points (cfg.preempts, the explorer's schedules), in list
 * order -- only the next one is armed: at that thread's nth arrival at
 * that point its priority is pinned, below every drawn one (later pins
 * lower) or above (promote); pinned fibers are not drawn again.  A
 * flush point (memory=tso, pso) instead sends one buffered store of a
 * thread to memory there, with what must go before it; a hold point
 * keeps one there, out of the random flushes, until its thread drains
 * (wt_pos_held).  So a
 * preemption point is a PCT change point put at a place rather than at
 * a step count, and the list is an ordered script of them.
 *
 * Feedback (cfg.feedback): the distinct items of the run, as hashes of
 * point ids and thread indexes --
 *   reads-from: a read (load, seq read or retry, hash step, lock acquire,
 *     refcount step) by thread R at point P observed the last write (or
 *     release) of the object, made by another thread W at point Q:
 *     (Q, W, P, R);
 *   stale read (memory=tso, pso): R's read at P saw an older value
 *     while W's store at Q waited in W's store buffer: (Q, W|WT_FB_STALE,
 *     P, R), a reads-from item of its own (a write whose store is
 *     buffered counts for the others when it reaches memory: the tso
 *     flush hook, feedback_flushed);
 *   adjacency: the operation at P of thread B was performed right after
 *     thread A's at Q, A != B: (Q, A, P, B);
 * each reads-from pair with where it was first seen (feedback_at: the
 * writer's arrival before the write, the reader's before the read, and
 * the reader's next one, as indexes of the recorded arrivals; and
 * whether the write's store had waited in the writer's buffer, the
 * stores a hold point keeps there), and the
 * first WT_RUN_EVENTS_MAX arrivals (thread, point, nth), from
 * which the explorer draws new preemption points, each marked at the
 * end of the run when its operation conflicts: its object was written
 * by another thread, or it writes one another thread touched (only
 * there can a preemption change what somebody reads).  The last writer
 * of each location and the threads that wrote and touched each object
 * are kept in a table of at most WT_SIM_WRITERS locations; once it is
 * full new ones are not tracked (which ones depends on the order of first accesses,
 * not on addresses).  The tables and arrays start small and double, so
 * a short run does not pay for the largest.  No random number is drawn
 * for feedback.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/sched/policy.h"
#include "sim/sched/prng.h"
#include "sim/tso.h"

/* Drawn priorities are in [2^62, 2^63): pins go below and above. */
#define POS_DRAWN	(1ull << 62)
#define POS_LOW		(1ull << 61)
#define POS_HIGH	(1ull << 63)

static uint64_t pos_draw(struct wt_sim *s)
{
	return (wt_prng_next(&s->rng) >> 2) | POS_DRAWN;
}

/*
 * The location a point's operation touches: a field of the object
 * (a hash of the point's `what`, by content: the same field named in
 * two files is one location) for loads, stores, writer steps that store
 * a field and refcount steps; the object as a whole (0) for seqcounts,
 * locks, events and the writer steps that name no field.
 */
static uint32_t point_field_hash(const struct wt_point *p)
{
	uint32_t h = 2166136261u;

	switch (p->kind) {
	case WT_K_LOAD:
	case WT_K_STORE:
	case WT_K_OP_STEP:
	case WT_K_REF_GET:
	case WT_K_REF_PUT:
		break;
	default:
		return 0;
	}
	if (!p->what)
		return 0;
	for (const char *c = p->what; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	return h | 1;
}

/* point_field_hash of every point, by id: made once (a function of the
 * catalogue, which is the program's), not a string hashed an arrival. */
static uint32_t *point_fields;
static pthread_once_t point_fields_once = PTHREAD_ONCE_INIT;

static void point_fields_make(void)
{
	uint32_t n = wt_point_count();
	uint32_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		abort();
	for (uint32_t i = 0; i < n; i++)
		v[i] = point_field_hash(&__start_wt_points[i]);
	point_fields = v;
}

static uint32_t point_field(const struct wt_point *p)
{
	return point_fields[wt_point_id(p)];
}

static void feedback_flushed(void *ctx, unsigned thread, uint64_t sn);

int wt_pos_init(struct wt_sim *s, struct wt_run_result *out)
{
	(void)out;
	/* Nothing else reads what wt_pos_arrive keeps (next_p, ev, sn):
	 * under random and PCT without preemption points or feedback the
	 * sim does not call it at all (policy.c). */
	s->pos_on = s->cfg->policy == WT_POLICY_POS || s->cfg->feedback ||
		    s->cfg->npreempts;
	s->last_thread = -1;
	for (unsigned i = 0; i < s->n; i++)
		s->f[i].ev = WT_RUN_AT_NONE;
	if (s->cfg->policy == WT_POLICY_POS)
		for (unsigned i = 0; i < s->n; i++)
			wt_sim_set_prio(s, &s->f[i], pos_draw(s));
	if (!s->cfg->feedback)
		return 0;
	pthread_once(&point_fields_once, point_fields_make);
	if (s->fbc && s->fbc->writers) {
		/* The last run's, empty again (fb_keep). */
		s->writers = s->fbc->writers;
		s->wcap = s->fbc->wcap;
		s->items = s->fbc->items;
		s->icap = s->fbc->icap;
		s->fbc->writers = NULL;
		s->fbc->items = NULL;
	} else {
		/* Small first: the tables double as the run grows
		 * (grow_*). */
		s->wcap = 256;
		s->icap = 512;
		s->writers = calloc(s->wcap, sizeof(*s->writers));
		s->items = calloc(s->icap, sizeof(*s->items));
	}
	if (!s->writers || !s->items)
		return -1;
	if (s->tso) {
		s->pend = calloc((size_t)s->n * WT_TSO_ENTRIES,
				 sizeof(*s->pend));
		if (!s->pend)
			return -1;
		wt_tso_set_flush_hook(s->tso, feedback_flushed, s);
	}
	return 0;
}

static struct wt_sim_writer *writer_slot(struct wt_sim *s, const void *obj,
					 uint32_t field)
{
	uintptr_t a = (uintptr_t)obj;
	size_t i = (size_t)wt_splitmix64_mix(a ^ ((uint64_t)field << 32)) &
		   (s->wcap - 1);

	/* Never full: inserts stop at half the size (grow_writers). */
	while (s->writers[i].obj &&
	       (s->writers[i].obj != obj || s->writers[i].field != field))
		i = (i + 1) & (s->wcap - 1);
	return &s->writers[i];
}

/*
 * The conflict flag of every recorded arrival (struct wt_run_event).
 * Object-granular, unlike reads-from: a preemption before a load of
 * d_inode that another thread's d_lockref or d_flags step precedes can
 * still reorder the walk against that writer's next field store, and
 * flags computed per field made explore slower (20 runs x 3000
 * iterations: inode_no_seq found in 5 runs against 12, step_into_no_seq
 * a median 277 iterations against 187).
 */
static void mark_conflicts(struct wt_sim *s)
{
	struct wt_run_result *out = s->out;

	for (size_t i = 0; i < out->nevents; i++) {
		struct wt_run_event *ev = &out->events[i];
		const struct wt_point *p = wt_point_by_id(ev->point);
		const struct wt_sim_writer *o;
		uint32_t others = ~(1u << ev->thread);
		enum wt_access a;

		if (!s->ev_obj[i].obj || !p)
			continue;
		a = wt_point_kind_access(p->kind);
		/* The entry its operation found, when it is still there. */
		o = s->ev_obj[i].slot ? &s->writers[s->ev_obj[i].slot - 1] :
		    writer_slot(s, s->ev_obj[i].obj, 0);
		if (a == WT_ACC_NONE || !o->obj)
			continue;
		ev->conflict = (o->any_writers & others) ||
			       ((a & WT_ACC_WRITE) &&
				(o->any_accessors & others));
	}
}

void wt_sim_fb_cache_free(struct wt_sim_fb_cache *c)
{
	free(c->writers);
	free(c->items);
	c->writers = NULL;
	c->items = NULL;
}

/* Give the run's tables back to the cache, emptied slot by slot (most
 * slots are empty: a scan, not a memset of the whole; the items are
 * out->feedback's, each found from its home slot -- it is there, so the
 * probe passes the slots emptied before it), when they are small enough
 * to keep.  False: the caller frees them. */
static bool fb_keep(struct wt_sim *s)
{
	struct wt_sim_fb_cache *c = s->fbc;

	if (!c || c->writers || !s->writers || !s->items ||
	    s->wcap > WT_SIM_FB_KEEP || s->icap > WT_SIM_FB_KEEP)
		return false;
	for (unsigned i = 0; i < s->wcap; i++)
		if (s->writers[i].obj)
			s->writers[i] = (struct wt_sim_writer){ 0 };
	for (size_t k = 0; s->out && k < s->out->nfeedback; k++) {
		uint64_t h = s->out->feedback[k];
		size_t i = h & (s->icap - 1);

		while (s->items[i] != h)
			i = (i + 1) & (s->icap - 1);
		s->items[i] = 0;
	}
	for (unsigned i = 0; !s->out && i < s->icap; i++)
		s->items[i] = 0;
	c->writers = s->writers;
	c->wcap = s->wcap;
	c->items = s->items;
	c->icap = s->icap;
	return true;
}

void wt_pos_fini(struct wt_sim *s)
{
	if (s->writers && s->ev_obj && s->out)
		mark_conflicts(s);
	if (s->tso)
		wt_tso_set_flush_hook(s->tso, NULL, NULL);
	free(s->pend);
	s->pend = NULL;
	if (!fb_keep(s)) {
		free(s->writers);
		free(s->items);
	}
	free(s->ev_obj);
	s->writers = NULL;
	s->items = NULL;
	s->ev_obj = NULL;
}

/* ---- feedback ---- */

uint64_t wt_run_feedback_item(enum wt_feedback_kind kind, uint32_t q,
			      uint32_t w, uint32_t p, uint32_t r)
{
	uint64_t h = wt_splitmix64_mix(0x6665656462616b00ull + kind);

	h = wt_splitmix64_mix(h ^ ((uint64_t)q << 32 | w));
	h = wt_splitmix64_mix(h ^ ((uint64_t)p << 32 | r));
	return (h & ~3ull) | (kind & 3);
}

/* Double a power-of-two open-addressed table, re-inserting by key.
 * The slot a key lands in changes; nothing depends on it. */
static int grow_items(struct wt_sim *s)
{
	unsigned ncap = s->icap * 2;
	uint64_t *n = calloc(ncap, sizeof(*n));

	if (!n)
		return -1;
	for (unsigned i = 0; i < s->icap; i++) {
		size_t j;

		if (!s->items[i])
			continue;
		j = s->items[i] & (ncap - 1);
		while (n[j])
			j = (j + 1) & (ncap - 1);
		n[j] = s->items[i];
	}
	free(s->items);
	s->items = n;
	s->icap = ncap;
	return 0;
}

static int grow_writers(struct wt_sim *s)
{
	struct wt_sim_writer *old = s->writers;
	unsigned ocap = s->wcap;

	s->writers = calloc(ocap * 2, sizeof(*s->writers));
	if (!s->writers) {
		s->writers = old;
		return -1;
	}
	s->wcap = ocap * 2;
	for (unsigned i = 0; i < ocap; i++)
		if (old[i].obj)
			*writer_slot(s, old[i].obj, old[i].field) = old[i];
	free(old);
	/* The entries moved: what pointed at them is stale. */
	s->wgrows++;
	for (size_t i = 0; s->ev_obj && s->out && i < s->out->nevents; i++)
		s->ev_obj[i].slot = 0;
	return 0;
}

/* Make room for one more element of an array that doubles up to max. */
static int grow_array(void **v, size_t *cap, size_t n, size_t max,
		      size_t size)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return 0;
	if (*cap >= max)
		return -1;
	ncap = *cap ? *cap * 2 : 256;
	if (ncap > max)
		ncap = max;
	nv = realloc(*v, ncap * size);
	if (!nv)
		return -1;
	*v = nv;
	*cap = ncap;
	return 0;
}

/* h, where it was first seen (feedback_at), when it is new in the run. */
static void add_item(struct wt_sim *s, uint64_t h, struct wt_run_item_at at)
{
	struct wt_run_result *out = s->out;
	size_t i, cap = s->fbcap;

	if (out->nfeedback >= WT_RUN_FEEDBACK_MAX)
		return;
	if (out->nfeedback * 2 >= s->icap && grow_items(s))
		return;
	i = h & (s->icap - 1);
	while (s->items[i]) {
		if (s->items[i] == h)
			return;
		i = (i + 1) & (s->icap - 1);
	}
	if (grow_array((void **)&out->feedback_at, &cap, out->nfeedback,
		       WT_RUN_FEEDBACK_MAX, sizeof(*out->feedback_at)) ||
	    grow_array((void **)&out->feedback, &s->fbcap, out->nfeedback,
		       WT_RUN_FEEDBACK_MAX, sizeof(*out->feedback)))
		return;
	s->items[i] = h;
	out->feedback_at[out->nfeedback] = at;
	out->feedback[out->nfeedback++] = h;
}

static const struct wt_run_item_at no_at = {
	WT_RUN_AT_NONE, WT_RUN_AT_NONE, WT_RUN_AT_NONE, WT_RUN_AT_NONE, 0,
	WT_RUN_AT_NONE, 0 };

/* The entry of (obj, field), made when there is room (NULL: not
 * tracked). */
static inline __attribute__((always_inline)) struct wt_sim_writer *
location(struct wt_sim *s, const void *obj, uint32_t field)
{
	struct wt_sim_writer *w;

	if (!obj)
		return NULL;
	w = writer_slot(s, obj, field);
	if (w->obj)
		return w;
	if (s->nwriters + 1 >= WT_SIM_WRITERS)
		return NULL;
	if ((s->nwriters + 1) * 2 > s->wcap) {
		if (grow_writers(s))
			return NULL;
		w = writer_slot(s, obj, field);
	}
	s->nwriters++;
	w->obj = obj;
	w->field = field;
	return w;
}

/* f (thread me) read at pid what w wrote; next: f's arrival now. */
static void reads_from(struct wt_sim *s, const struct wt_sim_writer *w,
		       bool any, const struct wt_fiber *f, uint32_t pid,
		       uint32_t me, uint32_t next)
{
	uint32_t wthread = any ? w->any_thread : w->thread;
	uint32_t wpoint = any ? w->any_point : w->point;
	struct wt_run_item_at at = {
		.write = any ? w->any_ev : w->ev, .read = f->ev, .next = next,
		.stale_thread = WT_RUN_AT_NONE,
		.waited_thread = WT_RUN_AT_NONE };

	if (any ? w->any_waited : w->waited) {
		at.waited_thread = wthread;
		at.waited_sn = any ? w->any_wsn : w->wsn;
	}
	if (wthread != me)
		add_item(s, wt_run_feedback_item(WT_FB_READS_FROM, wpoint,
						 wthread, pid, me), at);
}

/* l's write by thread `thread' at `point' (arrival ev) is what the
 * others read from now on (o: the object's entry, l's own or its
 * field's); sn: its store's number when it waited in the buffer, else
 * NULL. */
static void commit_write(struct wt_sim *s, struct wt_sim_writer *l,
			 struct wt_sim_writer *o, uint32_t thread,
			 uint32_t point, uint32_t ev, const uint64_t *sn)
{
	l->written = true;
	l->thread = thread;
	l->point = point;
	l->ev = ev;
	l->stamp = ++s->wstamp;
	l->waited = sn != NULL;
	l->wsn = sn ? *sn : 0;
	o->any_written = true;
	o->any_thread = thread;
	o->any_point = point;
	o->any_ev = ev;
	o->any_waited = sn != NULL;
	o->any_wsn = sn ? *sn : 0;
}

/*
 * memory=tso, pso: an entry of `thread''s buffer reached memory.  When
 * it is the last store of a write the feedback holds back, that write
 * becomes what the others read (the location's newest pending one; an
 * older one of the same location, overtaken, is dropped).
 */
static void feedback_flushed(void *ctx, unsigned thread, uint64_t sn)
{
	struct wt_sim *s = ctx;
	struct wt_sim_pending *p = s->pend + (size_t)thread * WT_TSO_ENTRIES;
	unsigned *n = &s->npend[thread];

	for (unsigned i = 0; i < *n; i++) {
		struct wt_sim_writer *l, *o;

		if (p[i].sn != sn)
			continue;
		l = writer_slot(s, p[i].obj, p[i].field);
		o = writer_slot(s, p[i].obj, 0);
		if (l->obj && o->obj && l->pending && l->psn == sn &&
		    l->pthread == thread) {
			l->pending = false;
			commit_write(s, l, o, thread, l->ppoint, l->pev, &sn);
		}
		p[i] = p[--*n];
		return;
	}
}

/* Did f's operation leave its last store in f's buffer?  Its number. */
static bool write_buffered(struct wt_sim *s, const struct wt_fiber *f,
			   uint64_t *sn)
{
	struct wt_tso_buf *b = s->pend ? wt_sim_tso_buf(s, (int)f->t->id)
				       : NULL;
	uint64_t next;

	if (!b || (next = wt_tso_next_sn(b)) == f->sn)
		return false;
	*sn = next - 1;
	return wt_tso_buffered(b, *sn);
}

/*
 * Reads-from is field-sensitive: a load of d_inode observes the last
 * store to d_inode (or the last writer step on the dentry as a whole),
 * not the last refcount step on the same dentry.  Keyed by the object
 * only, most pairs were of that kind -- a mount's mnt_mountpoint "read
 * from" an mntput -- and the pair a race turns on (mnt_parent loaded
 * after mnt_attach stored it) was indistinguishable from them.
 *
 * Under tso and pso a write whose store waits in the writer's buffer is
 * seen by the others only when it reaches memory (feedback_flushed), as
 * the loads see it: until then a read by another thread reads from the
 * write before it, and is also a stale read of the waiting one (a
 * reads-from item whose writer thread carries WT_FB_STALE) -- the
 * windows weak-memory races live in, which a write counted at its
 * program point would hide (the read would look like any later one).
 * A read by the writer itself sees its own store: no item.
 */
static void feedback_op(struct wt_sim *s, struct wt_fiber *f,
			const struct wt_point *done, const void *obj,
			enum wt_access a, uint32_t next)
{
	uint32_t me = f->t->id, pid = wt_point_id(done), field;
	struct wt_sim_writer *o, *e = NULL, *l;
	unsigned grows;
	uint64_t sn;

	if (s->last_thread >= 0 && (uint32_t)s->last_thread != me)
		add_item(s, wt_run_feedback_item(WT_FB_ADJACENT, s->last_point,
				      (uint32_t)s->last_thread, pid, me), no_at);
	s->last_thread = (int)me;
	s->last_point = pid;
	if (a == WT_ACC_NONE || !(o = location(s, obj, 0)))
		return;
	field = point_field(done);
	if (field) {
		grows = s->wgrows;
		if (!(e = location(s, obj, field)))
			return;
		/* the table may have grown under o: it is there */
		if (s->wgrows != grows)
			o = writer_slot(s, obj, 0);
	}
	/* For mark_conflicts: the entry of the arrival's object. */
	if (f->ev != WT_RUN_AT_NONE && s->ev_obj[f->ev].obj == obj)
		s->ev_obj[f->ev].slot = (uint32_t)(o - s->writers) + 1;
	l = e ? e : o;
	o->any_accessors |= 1u << me;
	if ((a & WT_ACC_READ) && !(l->pending && l->pthread == me)) {
		/* a field: the later of its last write and the object's
		 * last whole-object write; the object: its last write of
		 * any kind */
		if (!e) {
			if (o->any_written)
				reads_from(s, o, true, f, pid, me, next);
		} else if (e->written && (!o->written || e->stamp > o->stamp))
			reads_from(s, e, false, f, pid, me, next);
		else if (o->written)
			reads_from(s, o, false, f, pid, me, next);
		if (l->pending)
			add_item(s, wt_run_feedback_item(WT_FB_READS_FROM,
					l->ppoint, l->pthread | WT_FB_STALE,
					pid, me),
				 (struct wt_run_item_at){ .write = l->pev,
					.read = f->ev, .next = next,
					.stale_thread = l->pthread,
					.stale_sn = l->psn,
					.waited_thread = WT_RUN_AT_NONE });
	}
	if (!(a & WT_ACC_WRITE))
		return;
	o->any_writers |= 1u << me;
	if (write_buffered(s, f, &sn) && s->npend[me] < WT_TSO_ENTRIES) {
		l->pending = true;
		l->pthread = me;
		l->ppoint = pid;
		l->pev = f->ev;
		l->psn = sn;
		s->pend[(size_t)me * WT_TSO_ENTRIES + s->npend[me]++] =
			(struct wt_sim_pending){ .sn = sn, .obj = obj,
						 .field = field };
		return;
	}
	commit_write(s, l, o, me, pid, f->ev, NULL);
}

/* ---- POS and preemption points ---- */

static void pos_redraw(struct wt_sim *s, struct wt_fiber *f,
		       const void *obj, enum wt_access a)
{
	if (obj && a != WT_ACC_NONE)
		for (unsigned i = 0; i < s->n; i++) {
			struct wt_fiber *g = &s->f[i];
			enum wt_access b;

			if (g == f || g->pinned || g->next_obj != obj ||
			    !g->next_p || g->state == WT_FIBER_DONE)
				continue;
			b = wt_point_kind_access(g->next_p->kind);
			if (b != WT_ACC_NONE &&
			    ((a & WT_ACC_WRITE) || (b & WT_ACC_WRITE)))
				wt_sim_set_prio(s, g, pos_draw(s));
		}
	if (!f->pinned)
		wt_sim_set_prio(s, f, pos_draw(s));
}

/* A flush point: thread's store number sn reaches memory, with what
 * must go before it, if it is buffered now. */
static void flush_store(struct wt_sim *s, uint32_t thread, uint64_t sn)
{
	struct wt_tso_buf *b = thread < s->n ? wt_sim_tso_buf(s, (int)thread)
					     : NULL;
	int i = b ? wt_tso_index_of(b, sn) : -1;

	if (i >= 0)
		wt_sim_flush_through(s, thread, (unsigned)i);
}

/* A hold point: thread's store number sn stays in its buffer, if it is
 * there now (wt_pos_held); a later hold replaces it. */
static void hold_store(struct wt_sim *s, uint32_t thread, uint64_t sn)
{
	struct wt_tso_buf *b = thread < s->n ? wt_sim_tso_buf(s, (int)thread)
					     : NULL;

	if (!b || wt_tso_index_of(b, sn) < 0)
		return;
	s->holding = true;
	s->hold_thread = thread;
	s->hold_sn = sn;
}

/*
 * The held store and the entries that must follow it are passed over by
 * the random flushes; the older ones may go.  The hold ends when the
 * store leaves the buffer -- its thread's drain, a flush forced because
 * no thread could run (a waiter may need it: holding it then would be a
 * deadlock the program does not have), or a flush point.
 */
bool wt_pos_held(struct wt_sim *s, unsigned thread, unsigned entry)
{
	struct wt_tso_buf *b;
	int h;

	assert(s->holding);
	if (thread != s->hold_thread)
		return false;
	b = wt_sim_tso_buf(s, (int)thread);
	h = wt_tso_index_of(b, s->hold_sn);
	if (h < 0) {
		s->holding = false;
		return false;
	}
	return entry == (unsigned)h ||
	       (entry > (unsigned)h &&
		wt_tso_must_precede(b, (unsigned)h, entry));
}

/* Only the next preemption point in list order is armed; the ones after
 * it that name the same arrival fire with it (a pin and a flush or a
 * hold). */
static void preempt_points(struct wt_sim *s, struct wt_fiber *f,
			   const struct wt_point *p)
{
	uint32_t id = wt_point_id(p), nth;

	if (!f->t->hits)
		return;
	nth = (uint32_t)f->t->hits[id];
	while (s->pins < s->cfg->npreempts) {
		const struct wt_preempt *pp = &s->cfg->preempts[s->pins];

		if (pp->thread != f->t->id || pp->point != id || pp->nth != nth)
			return;
		s->pins++;
		s->out->preempts_hit++;
		if (pp->flush) {
			flush_store(s, pp->flush_thread, pp->flush_sn);
			continue;
		}
		if (pp->hold) {
			hold_store(s, pp->flush_thread, pp->flush_sn);
			continue;
		}
		f->pinned = true;
		wt_sim_set_prio(s, f, pp->promote ? POS_HIGH + s->pins
						   : POS_LOW - s->pins);
	}
}

void wt_pos_arrive(struct wt_sim *s, struct wt_fiber *f,
		   const struct wt_point *p, const void *obj)
{
	const struct wt_point *done = f->next_p;
	const void *dobj = f->next_obj;
	enum wt_access a = done ? wt_point_kind_access(done->kind)
				: WT_ACC_NONE;
	struct wt_run_result *out = s->out;

	if (s->cfg->feedback && done)
		feedback_op(s, f, done, dobj, a,
			    p && out->nevents < WT_RUN_EVENTS_MAX ?
			    (uint32_t)out->nevents : WT_RUN_AT_NONE);
	if (s->cfg->policy == WT_POLICY_POS && f->started)
		pos_redraw(s, f, dobj, a);
	f->next_p = p;
	f->next_obj = obj;
	f->ev = WT_RUN_AT_NONE;		/* until this arrival is recorded */
	if (s->pend)
		f->sn = wt_tso_next_sn(wt_sim_tso_buf(s, (int)f->t->id));
	if (!p)
		return;
	if (s->cfg->npreempts)
		preempt_points(s, f, p);
	if (s->cfg->feedback && out->nevents < WT_RUN_EVENTS_MAX) {
		uint32_t id = wt_point_id(p);
		size_t cap = s->evcap;

		if (grow_array((void **)&out->events, &cap, out->nevents,
			       WT_RUN_EVENTS_MAX, sizeof(*out->events)) ||
		    grow_array((void **)&s->ev_obj, &s->evcap, out->nevents,
			       WT_RUN_EVENTS_MAX, sizeof(*s->ev_obj)))
			return;
		s->ev_obj[out->nevents] = (struct wt_sim_ev_obj){ .obj = obj };
		f->ev = (uint32_t)out->nevents;
		out->events[out->nevents++] = (struct wt_run_event){
			.thread = f->t->id, .point = id,
			.nth = f->t->hits ? (uint32_t)f->t->hits[id] : 0,
		};
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * The safety checks beside the step oracle: place, resolve, sync_umount
 * holds and the walk bound after every walk, refcount at quiescence (see
 * checks.h for what each one asserts and why REF-walk never violates it).
 *
 * The walk checks read only the walk's record and the published history
 * (through a namespace snapshot each thread keeps and advances); hooks are
 * disarmed meanwhile, so a check is never a scheduling point and never
 * shows in a trace or its digest.  The quiescence check runs on the
 * runner's own thread after wt_run, when no simulated thread exists any
 * more, and reads the world's lists directly.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/namei.h"
#include "core/record.h"
#include "scenarios/src/checks.h"
#include "scenarios/src/iter.h"
#include "sim/fs/proc.h"
#include "sim/history.h"
#include "sim/ns.h"
#include "sim/sched/trace.h"
#include "sim/vfs/world.h"

/* Objects one refcount failure lists before "... and N more". */
#define CHECK_REFCOUNT_LISTED	4

/* ------------------------------------------------------------------ */
/* failure records                                                      */

/* A violation found after a walk: the check, the walk, the step. */
static void walk_fail(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
		      int err, int step, const char *check,
		      const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void walk_fail(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
		      int err, int step, const char *check,
		      const char *fmt, ...)
{
	const struct wt_record *r = tc->record;
	char msg[768];
	size_t n;
	va_list ap;
	json_t *f;

	n = (size_t)snprintf(msg, sizeof(msg), "%s: %s: %.200s -> %s: ", check,
			     tc->th->name, op->text, wt_scn_errno_name(err));
	va_start(ap, fmt);
	if (n < sizeof(msg))
		vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	tc->checks++;
	f = wt_scn_failure_new(tc->it, "check", check, tc->th->name, msg);
	json_object_set_new(f, "walk", json_pack("{s:s, s:s, s:s, s:s, s:i}",
		"entry", wt_walk_entry_name(op->walk.entry),
		"path", op->walk.path, "flags", op->walk.flags_text,
		"result", wt_scn_errno_name(err),
		"attempt", (int)r->nattempts));
	json_object_set_new(f, "walk_steps", wt_scn_steps_json(r));
	json_object_set_new(f, "step", step >= 0 && (uint32_t)step < r->nsteps ?
			    json_integer(step) : json_null());
	json_object_set_new(f, "history_window",
			    wt_scn_history_window(tc->it->world->history, r));
	json_object_set_new(f, "failing_event", wt_scn_event_now(&tc->thread));
	wt_scn_add_failure(tc, f);
}

/* ------------------------------------------------------------------ */
/* place                                                                */

/*
 * Near the mark: the peek moved to v as the snapshot would be.  0, 1
 * to go on with the snapshot (made from the peek, or still to make),
 * -1 for no check.
 */
static int checker_peek(struct wt_scn_checker *c, const struct wt_history *h,
			uint64_t v)
{
	int err;

	if (c->peeking && c->peek.version > v)	/* a reset log */
		c->peeking = false;
	if (!c->peeking) {
		err = wt_ns_peek_start(&c->peek, h, v);
		if (err == -E2BIG)
			return 1;	/* wt_ns_create's loads are its own */
		c->peeking = !err;
		return err ? -1 : 0;
	}
	err = wt_ns_peek_advance_to(&c->peek, v);
	if (err != -E2BIG)
		return err ? -1 : 0;
	c->peeking = false;
	c->ns = wt_ns_peek_snapshot(&c->peek);
	return c->ns ? 1 : -1;
}

/*
 * The thread's view of the namespace, advanced to the last published
 * version: *peek set (the checker's peek), or its snapshot; NULL: no
 * check.  Either reads the log as a snapshot advanced walk by walk
 * does, so a memory=tso run counts the same loads.
 */
static const struct wt_ns *checker_ns(struct wt_scn_tctx *tc,
				      const struct wt_ns_peek **peek)
{
	const struct wt_history *h = tc->it->world->history;
	struct wt_scn_checker *c = &tc->checker;	/* zero: nothing yet */
	uint64_t v;

	*peek = NULL;
	if (!h)
		return NULL;
	v = wt_history_version(h);
	if (c->ns && wt_ns_version(c->ns) > v) {	/* a reset log */
		wt_ns_destroy(c->ns);
		c->ns = NULL;
	}
	if (!c->ns) {
		switch (checker_peek(c, h, v)) {
		case 0:
			*peek = &c->peek;
			return NULL;
		case -1:
			return NULL;
		}
	}
	if (!c->ns)
		c->ns = wt_ns_create(h, v);
	else if (wt_ns_advance_to(c->ns, v))
		return NULL;
	return c->ns;
}

static const struct wt_mount_fact *view_mount(const struct wt_ns *ns,
					      const struct wt_ns_peek *peek,
					      uint64_t id)
{
	const struct wt_fact *f;

	if (!peek)
		return wt_ns_mount(ns, id);
	f = wt_ns_peek_fact(peek, id);
	return f && f->kind == WT_FACT_MOUNT ? &f->m : NULL;
}

static const struct wt_dentry_fact *view_dentry(const struct wt_ns *ns,
						const struct wt_ns_peek *peek,
						uint64_t id)
{
	const struct wt_fact *f;

	if (!peek)
		return wt_ns_dentry(ns, id);
	f = wt_ns_peek_fact(peek, id);
	return f && f->kind == WT_FACT_DENTRY ? &f->d : NULL;
}

/*
 * Does (mnt, dentry) hold together: the dentry one of the mount's super
 * block?  Unknown objects (a dentry only a lookup made, an object logged
 * after the snapshot) are given the benefit of the doubt.
 */
struct mount_seen {		/* the last mount place_holds looked up */
	uint64_t id;		/* 0: none yet */
	const struct wt_mount_fact *m;
};

static bool place_holds(const struct wt_ns *ns, const struct wt_ns_peek *peek,
			const struct wt_ident *id, struct mount_seen *seen,
			uint64_t *msb, uint64_t *dsb)
{
	const struct wt_mount_fact *m;
	const struct wt_dentry_fact *d;

	if (!id->mnt || !id->dentry)
		return true;
	/* a walk's places are mostly on one mount, and the view does not
	 * move during the check: its fact once, not per place */
	if (seen->id != id->mnt) {
		seen->id = id->mnt;
		seen->m = view_mount(ns, peek, id->mnt);
	}
	m = seen->m;
	d = view_dentry(ns, peek, id->dentry);
	if (!m || !d)
		return true;
	*msb = m->sb;
	*dsb = d->sb;
	return m->sb == d->sb;
}

/*
 * Places that held, by dentry: a walk stands on a few places over and
 * over (a step starts where the last one ended, the attempts go the same
 * way), and the snapshot does not move meanwhile, so a place that held
 * holds again.  Direct-mapped (a slot a dentry id modulo PLACES_HELD,
 * the newest kept): a look-up is one compare, and a place pushed out is
 * only checked again.  All zero at first: a place with no mount or no
 * dentry holds anyway (place_holds).
 */
#define PLACES_HELD	16	/* a power of two */

struct places_held {
	uint64_t mnt[PLACES_HELD];
	uint64_t dentry[PLACES_HELD];
};

static bool place_held(const struct places_held *h, const struct wt_ident *id)
{
	unsigned i = id->dentry & (PLACES_HELD - 1);

	return h->dentry[i] == id->dentry && h->mnt[i] == id->mnt;
}

static void place_keep(struct places_held *h, const struct wt_ident *id)
{
	unsigned i = id->dentry & (PLACES_HELD - 1);

	h->mnt[i] = id->mnt;
	h->dentry[i] = id->dentry;
}

static void check_place(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
			int err, const struct wt_record_attempt *a)
{
	const struct wt_record *r = tc->record;
	const struct wt_ns_peek *peek;
	const struct wt_ns *ns = checker_ns(tc, &peek);
	struct places_held held;
	struct mount_seen seen = { 0, NULL };

	if (!ns && !peek)
		return;
	memset(&held, 0, sizeof(held));
	for (uint32_t i = a->first; i < a->first + a->count; i++) {
		const struct wt_step *s = &r->steps[i];
		const struct wt_ident *ids[2] = { &s->from, &s->to };

		if (!s->validated)
			continue;
		for (unsigned k = 0; k < 2; k++) {
			uint64_t msb = 0, dsb = 0;

			if (place_held(&held, ids[k]))
				continue;
			if (place_holds(ns, peek, ids[k], &seen, &msb, &dsb)) {
				place_keep(&held, ids[k]);
				continue;
			}
			walk_fail(tc, op, err, (int)i, "place", "step %u %s "
				  "stands on mount %" PRIu64 " (super_block %"
				  PRIu64 ") with dentry %" PRIu64 " of super_block %"
				  PRIu64 ": no REF-walk holds a dentry of one "
				  "filesystem under another's mount (a torn "
				  "mnt_parent/mnt_mountpoint pair)", i,
				  wt_step_kind_name(s->kind), ids[k]->mnt, msb,
				  ids[k]->dentry, dsb);
			return;
		}
	}
}

/* ------------------------------------------------------------------ */
/* resolve                                                              */

/* Depth below the scoped root of each place the walk stood on. */
struct depth_map {
	struct wt_ident at[WT_RECORD_DEFAULT_STEPS + 1];
	int depth[WT_RECORD_DEFAULT_STEPS + 1];
	unsigned n;
};

static bool depth_of(const struct depth_map *m, const struct wt_ident *id,
		     int *depth)
{
	for (unsigned i = m->n; i-- > 0;)
		if (m->at[i].mnt == id->mnt && m->at[i].dentry == id->dentry) {
			*depth = m->depth[i];
			return true;
		}
	return false;
}

static void depth_set(struct depth_map *m, const struct wt_ident *id,
		      int depth)
{
	if (m->n == sizeof(m->depth) / sizeof(m->depth[0]))
		return;	/* bounded by the record's steps */
	m->at[m->n] = *id;
	m->depth[m->n++] = depth;
}

/*
 * RESOLVE_BENEATH / IN_ROOT: follow the depth below the root through
 * the steps; `..` that moves from depth 0 left the root.  -1 when the
 * walk stayed beneath, else the index of the step that left.
 */
static int scoped_escape(const struct wt_record *r,
			 const struct wt_record_attempt *a)
{
	/* not zeroed (14 KiB, a memset each scoped walk): n says what is
	 * set */
	struct depth_map *m = malloc(sizeof(*m));
	int escape = -1;

	if (!m)
		return -1;
	m->n = 0;
	for (uint32_t i = a->first; i < a->first + a->count && escape < 0; i++) {
		const struct wt_step *s = &r->steps[i];
		int d;

		switch (s->kind) {
		case WT_STEP_START:
			depth_set(m, &s->to, 0);
			break;
		case WT_STEP_LOOKUP:
		case WT_STEP_CREATE:
			if (s->to.inode && depth_of(m, &s->from, &d))
				depth_set(m, &s->to, d + 1);
			break;
		case WT_STEP_MOUNT:
		case WT_STEP_MOUNT_UP:
			if (depth_of(m, &s->from, &d))
				depth_set(m, &s->to, d);
			break;
		case WT_STEP_DOTDOT:
			if (!depth_of(m, &s->from, &d))
				break;
			if (s->arg == 1) {
				depth_set(m, &s->to, d);
			} else if (d == 0) {
				escape = (int)i;
			} else {
				depth_set(m, &s->to, d - 1);
			}
			break;
		case WT_STEP_JUMP:
			/* nd_jump_root of a scoped walk goes to its root */
			if (s->arg == 0)
				depth_set(m, &s->to, 0);
			else
				escape = (int)i;	/* magic links are refused */
			break;
		default:
			break;
		}
	}
	free(m);
	return escape;
}

/* RESOLVE_NO_XDEV: the index of a step on another mount than START's. */
static int xdev_crossing(const struct wt_record *r,
			 const struct wt_record_attempt *a)
{
	uint64_t mnt = 0;

	for (uint32_t i = a->first; i < a->first + a->count; i++) {
		const struct wt_step *s = &r->steps[i];

		if (s->kind == WT_STEP_START) {
			mnt = s->to.mnt;
			continue;
		}
		if (s->kind == WT_STEP_UNLAZY || !mnt)
			continue;
		if ((s->from.mnt && s->from.mnt != mnt) ||
		    (s->to.mnt && s->to.mnt != mnt))
			return (int)i;
	}
	return -1;
}

/* The index of the first LINK (or magic JUMP, when magic) step, or -1. */
static int link_followed(const struct wt_record *r,
			 const struct wt_record_attempt *a, bool magic)
{
	for (uint32_t i = a->first; i < a->first + a->count; i++) {
		const struct wt_step *s = &r->steps[i];

		if (s->kind == WT_STEP_JUMP && s->arg == 1)
			return (int)i;
		if (!magic && s->kind == WT_STEP_LINK && s->result == 0)
			return (int)i;
	}
	return -1;
}

static void check_resolve(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
			  int err, const struct wt_record_attempt *a)
{
	const struct wt_record *r = tc->record;
	unsigned flags = r->flags | a->flags;
	int i;

	if ((flags & LOOKUP_NO_SYMLINKS) && (i = link_followed(r, a, false)) >= 0) {
		walk_fail(tc, op, err, i, "resolve", "RESOLVE_NO_SYMLINKS, but "
			  "step %d followed a link", i);
		return;
	}
	if ((flags & LOOKUP_NO_MAGICLINKS) && (i = link_followed(r, a, true)) >= 0) {
		walk_fail(tc, op, err, i, "resolve", "RESOLVE_NO_MAGICLINKS, but "
			  "step %d jumped through a magic link", i);
		return;
	}
	if (err)
		return;		/* an error hands out nothing beyond the root */
	if ((flags & LOOKUP_NO_XDEV) && (i = xdev_crossing(r, a)) >= 0) {
		walk_fail(tc, op, err, i, "resolve", "RESOLVE_NO_XDEV, but "
			  "step %d is on another mount than the start", i);
		return;
	}
	if ((flags & LOOKUP_IS_SCOPED) && (i = scoped_escape(r, a)) >= 0)
		walk_fail(tc, op, err, i, "resolve", "%s, but step %d went "
			  "above the root", (flags & LOOKUP_BENEATH) ?
			  "RESOLVE_BENEATH" : "RESOLVE_IN_ROOT", i);
}

/* ------------------------------------------------------------------ */
/* sync umount: nobody holds the mount afterwards                       */

/* The version of a sync umount of mount mnt in [from, to], or 0. */
static uint64_t sync_umount_in(const struct wt_history *h, uint64_t mnt,
			       uint64_t from, uint64_t to)
{
	for (uint64_t v = from; v <= to; v++) {
		const struct wt_hist_entry *e = wt_history_entry(h, v);

		if (!e || !e->op || strcmp(e->op, "umount"))
			continue;
		for (uint32_t k = 0; k < e->nfacts; k++) {
			const struct wt_fact *f = &e->facts[k];

			if (f->kind == WT_FACT_MOUNT && f->m.id == mnt &&
			    (f->m.mnt_flags & MNT_SYNC_UMOUNT))
				return v;
		}
	}
	return 0;
}

static void check_umount_hold(struct wt_scn_tctx *tc,
			      const struct wt_scn_op *op, int err,
			      const struct wt_record_attempt *a)
{
	const struct wt_history *h = tc->it->world->history;
	const struct wt_record *r = tc->record;
	const struct wt_step *end;
	uint64_t v;

	if (err || !h || !a->count)
		return;
	end = &r->steps[a->first + a->count - 1];
	if (end->kind != WT_STEP_END || !end->to.mnt)
		return;
	v = sync_umount_in(h, end->to.mnt, a->version_start, a->version_end);
	if (v)
		walk_fail(tc, op, err, (int)(a->first + a->count - 1),
			  "sync_umount", "the walk returned holding mount %"
			  PRIu64 ", which a sync umount took down at v%" PRIu64
			  " inside its window: umount passed its busy check "
			  "while a walker could still get the mount", end->to.mnt,
			  v);
}

/* ------------------------------------------------------------------ */
/* the walk bound                                                       */

static void check_bound(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
			int err, uint64_t points_before)
{
	const struct wt_scn_iter *it = tc->it;
	enum wt_scn_mode mode = wt_scn_mode_of(it->s, it->opts);
	uint64_t points = wt_thread_arrivals(&tc->thread) - points_before;

	if (tc->record->nattempts > WT_RECORD_MAX_ATTEMPTS)
		walk_fail(tc, op, err, -1, "bound", "%u attempts (the ladder "
			  "has three)", tc->record->nattempts);
	else if (mode == WT_SCN_SIM && points > WT_SCN_WALK_POINTS_MAX)
		walk_fail(tc, op, err, -1, "bound", "%" PRIu64 " points in one "
			  "walk (bound %u): a retry loop without end", points,
			  (unsigned)WT_SCN_WALK_POINTS_MAX);
}

void wt_scn_check_walk(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
		       int err, uint64_t points_before)
{
	const struct wt_record_attempt *a = wt_record_final(tc->record);
	struct wt_thread *t = &tc->thread;
	bool armed = t->hook_armed;

	wt_thread_arm(t, false);
	check_bound(tc, op, err, points_before);
	if (a && !tc->record->overflow) {
		check_place(tc, op, err, a);
		check_resolve(tc, op, err, a);
		check_umount_hold(tc, op, err, a);
	}
	wt_thread_arm(t, armed);
}

/* ------------------------------------------------------------------ */
/* refcount at quiescence                                               */

/* Pins held without the heap: a scenario's world has a few dozen. */
#define PINS_INLINE	64

/* What the holders outside the VFS hold: one entry per reference. */
struct pins {
	const void **v;		/* first, the inline array */
	size_t n;
	size_t cap;
	const void *inline_v[PINS_INLINE];
};

static void pins_init(struct pins *p)
{
	p->v = p->inline_v;
	p->n = 0;
	p->cap = PINS_INLINE;
}

static void pins_fini(struct pins *p)
{
	if (p->v != p->inline_v)
		free(p->v);
}

static void pin(struct pins *p, const void *obj)
{
	if (!obj)
		return;
	if (p->n == p->cap) {
		size_t cap = 2 * p->cap;
		const void **v = malloc(cap * sizeof(*v));

		if (!v)
			abort();	/* bookkeeping of a check */
		memcpy(v, p->v, p->n * sizeof(*v));
		pins_fini(p);
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n++] = obj;
}

static void pin_path(struct pins *dentries, struct pins *mounts,
		     const struct path *p)
{
	if (!p->dentry)
		return;
	pin(dentries, p->dentry);
	if (p->mnt)
		pin(mounts, real_mount(p->mnt));
}

static int ptr_cmp(const void *a, const void *b)
{
	const void *x = *(const void *const *)a, *y = *(const void *const *)b;

	return x < y ? -1 : x > y;
}

/* By address; a few dozen are sorted in place, without qsort's calls
 * through ptr_cmp (equal entries are the same pointer: no order to keep). */
static void pins_sort(struct pins *p)
{
	if (p->n > PINS_INLINE) {
		qsort(p->v, p->n, sizeof(*p->v), ptr_cmp);
		return;
	}
	for (size_t i = 1; i < p->n; i++) {	/* insertion: n <= 64 */
		const void *x = p->v[i];
		size_t j = i;

		for (; j > 0 && (const char *)p->v[j - 1] > (const char *)x; j--)
			p->v[j] = p->v[j - 1];
		p->v[j] = x;
	}
}

/* How many times obj is in the sorted pins. */
static int pins_of(const struct pins *p, const void *obj)
{
	size_t lo = 0, hi = p->n;
	int n = 0;

	while (lo < hi) {	/* the first entry >= obj */
		size_t mid = lo + (hi - lo) / 2;

		if ((const char *)p->v[mid] < (const char *)obj)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n && p->v[lo] == obj; lo++)
		n++;
	return n;
}

/* The threads' tasks and dirfds, and every magic link's target. */
static void collect_pins(struct wt_scn_iter *it, struct pins *dentries,
			 struct pins *mounts)
{
	struct wt_world *w = it->world;

	for (unsigned i = 0; i < it->nthreads; i++) {
		struct wt_scn_tctx *tc = &it->t[i];

		if (tc->task_live) {
			pin_path(dentries, mounts, &tc->task.root);
			pin_path(dentries, mounts, &tc->task.pwd);
		}
		for (unsigned j = 0; tc->dirs && j < tc->th->nops; j++)
			pin_path(dentries, mounts, &tc->dirs[j]);
	}
	for (struct super_block *sb = w->supers; sb; sb = sb->s_next)
		for (struct inode *ino = sb->s_inodes; ino; ino = ino->i_sb_next) {
			struct path target;

			if (wt_proc_magic_target(ino, &target))
				pin_path(dentries, mounts, &target);
		}
	/* the mounts' own references on dentries */
	for (struct mount *m = w->mounts; m; m = m->mnt_all_next) {
		pin(dentries, m->mnt.mnt_root);
		if (m->mnt_attached && m->mnt_parent != m) {
			pin(dentries, m->mnt_mountpoint);
			pin(mounts, m->mnt_parent);	/* mnt_set_mountpoint */
		}
		if (m->mnt_attached)
			pin(mounts, m);			/* the tree's */
	}
	pins_sort(dentries);
	pins_sort(mounts);
}

static int dentry_expected(const struct dentry *d, const struct pins *pins)
{
	int n = pins_of(pins, d);

	for (const struct dentry *c = d->d_subdirs; c; c = c->d_sib)
		n++;				/* each child's d_parent */
	if (d->d_flags & DCACHE_PERSISTENT)
		n++;				/* its filesystem's pin */
	if (d->d_sb && d->d_sb->s_root == d)
		n++;				/* the super_block's */
	return n;
}

struct refcount_report {
	char text[1024];
	size_t len;
	unsigned bad;
};

static void report_add(struct refcount_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void report_add(struct refcount_report *rep, const char *fmt, ...)
{
	va_list ap;

	if (rep->bad++ >= CHECK_REFCOUNT_LISTED || rep->len >= sizeof(rep->text))
		return;
	va_start(ap, fmt);
	rep->len += (size_t)vsnprintf(rep->text + rep->len,
				      sizeof(rep->text) - rep->len, fmt, ap);
	va_end(ap);
	if (rep->len > sizeof(rep->text))
		rep->len = sizeof(rep->text);
}

static void check_refcounts(struct wt_scn_iter *it)
{
	struct pins dentries, mounts;	/* not zeroed: 1 KiB inline */
	struct refcount_report rep;
	struct wt_world *w = it->world;
	char msg[1200];
	json_t *f;

	rep.text[0] = '\0';
	rep.len = 0;
	rep.bad = 0;
	pins_init(&dentries);
	pins_init(&mounts);
	collect_pins(it, &dentries, &mounts);
	for (struct dentry *d = w->dentries; d; d = d->d_all_next) {
		int want = dentry_expected(d, &dentries), have = d_count(d);

		if (have != want)
			report_add(&rep, "%sdentry %" PRIu64 " '%.40s' count %d, "
				   "expected %d", rep.len ? "; " : "", d->wt.id,
				   d->d_name.name, have, want);
	}
	for (struct mount *m = w->mounts; m; m = m->mnt_all_next) {
		int want = pins_of(&mounts, m), have = mnt_get_count(m);

		if (have != want)
			report_add(&rep, "%smount %" PRIu64 " (%s%s) count %d, "
				   "expected %d", rep.len ? "; " : "", m->wt.id,
				   m->mnt_devname, m->mnt_attached ? "" :
				   ", detached", have, want);
	}
	pins_fini(&dentries);
	pins_fini(&mounts);
	if (!rep.bad || !it->nthreads)
		return;
	snprintf(msg, sizeof(msg), "refcount: at quiescence %u object%s not "
		 "back to what holds %s: %s%s", rep.bad, rep.bad > 1 ? "s" : "",
		 rep.bad > 1 ? "them" : "it", rep.text,
		 rep.bad > CHECK_REFCOUNT_LISTED ? "; ..." : "");
	it->t[0].checks++;
	f = wt_scn_failure_new(it, "check", "refcount", NULL, msg);
	json_object_set_new(f, "failing_event", json_null());
	wt_scn_add_failure(&it->t[0], f);
}

/* ------------------------------------------------------------------ */
/* mount_tree at quiescence                                             */

/*
 * Every attached mount hangs under an attached parent: `umount -l` takes
 * a whole subtree out, a sync umount refuses a mount with children, and
 * finish_automount refuses a trigger whose mount is detached.  A mount
 * attached under a detached one is reached by no path and taken down by
 * no umount, and its pin keeps the detached parent alive: a leak the
 * refcount check cannot see (the parent's count is its child's).
 */
static void check_mount_tree(struct wt_scn_iter *it)
{
	char msg[512];
	json_t *f;

	if (!it->nthreads)
		return;
	for (struct mount *m = it->world->mounts; m; m = m->mnt_all_next) {
		struct mount *p = m->mnt_parent;

		if (!m->mnt_attached || p == m || p->mnt_attached)
			continue;
		snprintf(msg, sizeof(msg), "mount_tree: at quiescence mount %"
			 PRIu64 " (%s) is attached under the detached mount %"
			 PRIu64 " (%s): no path reaches it, no umount can take "
			 "it, and it keeps its parent alive", m->wt.id,
			 m->mnt_devname, p->wt.id, p->mnt_devname);
		it->t[0].checks++;
		f = wt_scn_failure_new(it, "check", "mount_tree", NULL, msg);
		json_object_set_new(f, "failing_event", json_null());
		wt_scn_add_failure(&it->t[0], f);
		return;
	}
}

void wt_scn_check_quiescence(struct wt_scn_iter *it, bool finished)
{
	for (unsigned i = 0; it->t && i < it->nthreads; i++) {
		struct wt_scn_checker *c = &it->t[i].checker;

		if (c->ns)
			wt_ns_destroy(c->ns);
		memset(c, 0, sizeof(*c));
	}
	if (finished && it->world && it->t) {
		check_refcounts(it);
		check_mount_tree(it);
	}
}

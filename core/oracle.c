/* SPDX-License-Identifier: MIT */
/*
 * The step oracle: the context and its snapshots, the cursor over a
 * window's instants, and the judgement loop that follows the walk step by
 * step.  The matchers are in oracle_steps.c, the answer and the protocol
 * in oracle_answer.c, the explanations in oracle_explain.c.  See oracle.h.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/oracle_internal.h"

/* ------------------------------------------------------------------ */
/* the context                                                          */

struct wt_oracle *wt_oracle_create(const struct wt_history *h)
{
	struct wt_oracle *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->h = h;
	o->first = h ? wt_history_first(h) : 0;
	return o;
}

void wt_oracle_reset(struct wt_oracle *o)
{
	for (unsigned k = 0; k < 2; k++) {
		wt_ns_destroy(o->snap[k]);
		o->snap[k] = NULL;
	}
	o->first = o->h ? wt_history_first(o->h) : 0;
}

void wt_oracle_renew(struct wt_oracle *o, const struct wt_history *h)
{
	assert(o);
	for (unsigned k = 0; k < 2; k++)
		wt_ns_destroy(o->snap[k]);
	memset(o, 0, sizeof(*o));
	o->h = h;
	o->first = h ? wt_history_first(h) : 0;
}

void wt_oracle_destroy(struct wt_oracle *o)
{
	if (!o)
		return;
	wt_oracle_reset(o);
	free(o);
}

const struct wt_oracle_stats *wt_oracle_stats(const struct wt_oracle *o)
{
	return &o->stats;
}

const char *wt_verdict_name(enum wt_verdict v)
{
	switch (v) {
	case WT_VERDICT_OK:
		return "ok";
	case WT_VERDICT_REJECTED:
		return "rejected";
	case WT_VERDICT_NOT_JUDGED:
		return "not-judged";
	}
	return "?";
}

bool wt_oracle_ready(const struct wt_history *h, const struct wt_record *r)
{
	const struct wt_record_attempt *a = r ? wt_record_final(r) : NULL;

	if (!h || !a)
		return true;	/* nothing to wait for */
	return a->version_end <= wt_history_version(h);
}

/* ------------------------------------------------------------------ */
/* the cursor: the namespace at instant j->t                            */

/*
 * The snapshot to move to t: the one closest below t, so that the other
 * stays behind for a later walk whose window starts earlier.  When both
 * are ahead of t (or missing), the one furthest ahead is rebuilt.
 */
static struct wt_ns **pick_snapshot(struct wt_oracle *o, uint64_t t)
{
	struct wt_ns **best = NULL, **slot;

	for (unsigned k = 0; k < 2; k++) {
		struct wt_ns *s = o->snap[k];

		if (s && wt_ns_version(s) <= t &&
		    (!best || wt_ns_version(s) > wt_ns_version(*best)))
			best = &o->snap[k];
	}
	if (best)
		return best;
	if (!o->snap[0])
		slot = &o->snap[0];
	else if (!o->snap[1])
		slot = &o->snap[1];
	else
		slot = wt_ns_version(o->snap[0]) > wt_ns_version(o->snap[1]) ?
		       &o->snap[0] : &o->snap[1];
	wt_ns_destroy(*slot);
	*slot = wt_ns_create(o->h, t);
	o->stats.rebuilds++;
	return slot;
}

/* oj_seek in a moved order: the judgement's own snapshot (the cache's
 * are in the log's order), rebuilt only to go back. */
static int seek_moved(struct oj *j, uint64_t t)
{
	int err;

	if (!j->own || wt_ns_version(j->own) > t) {
		wt_ns_destroy(j->own);
		j->own = wt_ns_create_moved(j->o->h,
					    t < j->moved ? t : j->moved - 1,
					    j->moved, j->after);
		if (!j->own)
			return -ENOMEM;
		j->o->stats.rebuilds++;
	}
	err = wt_ns_advance_to(j->own, t);
	if (err)
		return err;
	j->ns = j->own;
	j->t = t;
	return 0;
}

int oj_seek(struct oj *j, uint64_t t)
{
	struct wt_oracle *o = j->o;
	struct wt_ns **slot;
	uint64_t before;
	int err;

	if (j->moved)
		return seek_moved(j, t);
	/* a reset or truncated log invalidates every snapshot */
	if (o->first != wt_history_first(o->h))
		wt_oracle_reset(o);
	slot = pick_snapshot(o, t);
	if (!*slot)
		return -ENOMEM;
	before = wt_ns_version(*slot);
	err = wt_ns_advance_to(*slot, t);
	o->stats.advances += wt_ns_version(*slot) - before;
	if (err)
		return err;
	j->ns = *slot;
	j->t = t;
	return 0;
}

bool oj_next(struct oj *j)
{
	if (wt_ns_advance(j->ns))
		return false;
	j->o->stats.advances++;
	j->t = wt_ns_version(j->ns);
	return true;
}

void oj_why(struct oj *j, const char *fmt, ...)
{
	va_list ap;

	if (j->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(j->why, sizeof(j->why), fmt, ap);
	va_end(ap);
}

bool oj_reject(struct oj *j, int idx, const char *fmt, ...)
{
	struct wt_oracle_result *res = j->res;
	char head[160] = "";
	int n = 0;
	va_list ap;

	res->verdict = WT_VERDICT_REJECTED;
	res->step = idx;
	if (idx >= 0) {
		char desc[128];

		oj_describe_step(j, &j->r->steps[idx], desc, sizeof(desc));
		snprintf(head, sizeof(head), "step %d %s: ", idx, desc);
	}
	n = snprintf(res->explain, sizeof(res->explain), "%s", head);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(res->explain))
		vsnprintf(res->explain + n, sizeof(res->explain) - (size_t)n,
			  fmt, ap);
	va_end(ap);
	return false;
}

/*
 * A step no instant of the window explains.  The explanation names the
 * instants tried, what the namespace said at the first and at the last,
 * and the writer steps in between that touched the step's objects.
 */
static bool reject_step(struct oj *j, int idx, const struct wt_step *s,
			uint64_t from, const char *what)
{
	struct wt_oracle_result *res = j->res;
	char changes[384] = "";

	oj_describe_changes(j, s, from, j->t, changes, sizeof(changes));
	if (what)
		oj_reject(j, idx, "%s: at v%llu..v%llu %s%s%s%s", what,
			  (unsigned long long)from, (unsigned long long)j->t,
			  j->why_first[0] ? j->why_first : "it never holds",
			  from != j->t && strcmp(j->why, j->why_first) ? "; at the end " : "",
			  from != j->t && strcmp(j->why, j->why_first) ? j->why : "",
			  changes);
	else
		oj_reject(j, idx, "at v%llu..v%llu %s%s%s%s",
			  (unsigned long long)from, (unsigned long long)j->t,
			  j->why_first[0] ? j->why_first : "it never holds",
			  from != j->t && strcmp(j->why, j->why_first) ? "; at the end " : "",
			  from != j->t && strcmp(j->why, j->why_first) ? j->why : "",
			  changes);
	res->tried_from = from;
	res->tried_to = j->t;
	return false;
}

/*
 * What the namespace said of a step no instant explains, at the last
 * instant tried (why, where j stands) and at the first (why_first).
 * The window is searched with the matchers quiet: nearly every step
 * holds at some instant, and a reason formatted at each instant that
 * failed was a fifth of the CPU time of a file whose writer loops for
 * ever (echild/random.shrink: its walks' windows span many versions).
 * So the matcher runs again at those two instants, aloud: a matcher
 * reads the walk's state and the snapshot and writes nothing but
 * j->why, so each says what it said during the search.  The first
 * instant is read in a snapshot of its own, built for it, so that j
 * and the oracle's cursors stay where the search left them (the
 * rejection names the window it tried); without memory for it the
 * explanation says only the last.
 */
static void explain_instants(struct oj *j, const struct wt_step *s,
			     oj_holds_fn fn, uint64_t from)
{
	struct oj first;

	j->why[0] = '\0';
	fn(j, s);
	j->why_first[0] = '\0';
	if (from == j->t) {
		memcpy(j->why_first, j->why, sizeof(j->why));
		return;
	}
	first = *j;
	first.ns = wt_ns_create(j->o->h, from);
	if (!first.ns)
		return;
	first.t = from;
	first.why[0] = '\0';
	if (fn(&first, s) != HOLDS)
		memcpy(j->why_first, first.why, sizeof(first.why));
	wt_ns_destroy(first.ns);
}

bool oj_at_some_instant(struct oj *j, int idx, const struct wt_step *s,
			oj_holds_fn fn, const char *what)
{
	uint64_t from = j->t;
	bool quiet = j->quiet;

	j->quiet = true;
	for (;;) {	/* bounded: one pass per version of the window */
		/*
		 * UNKNOWN: an object the history did not know at this
		 * instant (a dentry a remote ->lookup made, which a writer
		 * may log later, once it touches it).  The matcher vouched
		 * that the rest is consistent, so the step is taken here,
		 * at the first such instant -- also when a later instant,
		 * the commit that logged the object, would hold: taking the
		 * step there would push every later step of the walk past
		 * that commit (a REF lookup of g in the remote directory e
		 * that a client `rm e/g' logged, found before the unlink:
		 * rejected as absent).  So nothing after it is looked at.
		 */
		if (fn(j, s) != FAILS)
			goto found;
		if (j->t >= j->end || !oj_next(j))
			break;
	}
	j->quiet = quiet;
	if (!quiet)
		explain_instants(j, s, fn, from);
	return reject_step(j, idx, s, from, what);
found:
	j->quiet = quiet;
	j->res->judged++;
	j->res->last_instant = j->t;
	j->o->stats.steps++;
	return true;
}

/* ------------------------------------------------------------------ */
/* following the walk                                                   */

/* Same place: mount and dentry (and inode when both are known). */
static bool same_place(const struct wt_ident *a, const struct wt_ident *b)
{
	if (a->mnt != b->mnt || a->dentry != b->dentry)
		return false;
	return !a->inode || !b->inode || a->inode == b->inode;
}

static const char *place(char *buf, size_t size, const struct wt_ident *id)
{
	snprintf(buf, size, "mount %llu dentry %llu inode %llu",
		 (unsigned long long)id->mnt, (unsigned long long)id->dentry,
		 (unsigned long long)id->inode);
	return buf;
}

static bool resolve_landing(struct oj *j);

/* step_into moved the walk to at: what is mounted there waits for the
 * next step (a crossing, or the check that nothing is). */
static void land(struct oj *j, int idx, const struct wt_ident *at)
{
	j->pos = *at;
	j->pos_known = true;
	j->landing = true;
	j->land = *at;
	j->land_step = idx;
}


/*
 * REF-walk's lookup holds the dentry it found, negative or not, and
 * step_into reads its inode again: a create that instantiated that very
 * dentry in between (d_instantiate of a cached negative dentry) makes the
 * walk go on from it.  The record's LOOKUP says negative (as it was when
 * looked up); the next step says where the walk went.
 */
bool oj_can_adopt(const struct oj *j, const struct wt_ident *id)
{
	return j->neg_known && id->inode && id->mnt == j->neg.mnt &&
	       id->dentry == j->neg.dentry;
}

bool oj_adopt_instantiated(struct oj *j, int idx, const struct wt_ident *id)
{
	assert(oj_can_adopt(j, id));
	j->neg_known = false;
	j->inst = *id;
	if (!oj_at_some_instant(j, idx, &j->r->steps[idx], holds_instantiated,
				"the negative dentry looked up became positive"))
		return false;
	j->negative = false;
	land(j, idx, id);
	return resolve_landing(j);
}

/*
 * Where the oracle lost track of the walk (a skipped, unvalidated step),
 * the place a step starts from is at least checked for what every REF-walk
 * place satisfies: the dentry is of the mount's filesystem.  A torn
 * mnt_parent/mnt_mountpoint pair read without the mount_lock recheck
 * shows here.
 */
static bool check_place(struct oj *j, int idx, const struct wt_ident *at)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, at->mnt);
	const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, at->dentry);

	if (!m || !d || m->sb == d->sb)
		return true;
	return oj_reject(j, idx, "the walk stands on mount %llu (super_block "
			 "%llu) with dentry %llu of super_block %llu: no REF-walk "
			 "holds a dentry of one filesystem under another's mount",
			 (unsigned long long)m->id, (unsigned long long)m->sb,
			 (unsigned long long)d->id, (unsigned long long)d->sb);
}

static bool check_from(struct oj *j, int idx, const struct wt_ident *from,
		       const char *what)
{
	char a[96], b[96];

	if (!j->pos_known)
		return check_place(j, idx, from);
	if (same_place(from, &j->pos))
		return true;
	if (oj_can_adopt(j, from))
		return oj_adopt_instantiated(j, idx, from);
	return oj_reject(j, idx, "%s %s, but the walk stands on %s", what,
			 place(a, sizeof(a), from), place(b, sizeof(b), &j->pos));
}

static bool check_perm(struct oj *j, int idx, const char *what)
{
	if (j->perm || j->perm_unknown)
		return true;
	return oj_reject(j, idx, "no granted exec check on the directory "
			 "before %s (may_lookup precedes every component)", what);
}

/* A step the walker never validated: the oracle loses track of where the
 * walk is until the next landing, and does not insist on exec checks. */
static void skip_step(struct oj *j)
{
	j->last_judged = -1;
	j->pos_known = false;
	j->landing = false;
	j->perm_unknown = true;
}

/*
 * handle_dots checks a scoped walk's mount_lock and rename_lock after
 * step_into has taken the `..` and crossed whatever is mounted where it
 * landed -- an automount there included: traverse_mounts triggers it
 * before handle_dots looks at the seqs (scoped/eagain.dotdot_automount)
 * -- and EAGAIN is explained only there (explain_scoped_eagain).  So
 * nothing but mount crossings may stand between the `..` and the end.
 * Validated or not: the walker that took a `..` whose d_seq check then
 * failed, or crossed a mount while mount_lock moved, still reaches the
 * scoped check -- that moved mount_lock is exactly what it catches.
 * Leaving RCU-walk, a fallback's evidence and complete_walk's weak
 * revalidation are no steps of the walk.
 */
static void note_dotdot(struct oj *j, const struct wt_step *s)
{
	if (oj_stays_put(s))
		return;
	if (s->kind == WT_STEP_DOTDOT)
		j->dotdot_last = true;
	else if (s->kind != WT_STEP_MOUNT && s->kind != WT_STEP_AUTOMOUNT)
		j->dotdot_last = false;
}

static const char *step_name(const struct oj *j, const struct wt_step *s)
{
	const char *t = wt_step_text(j->r, s);

	return t ? t : "";
}

/*
 * A LOOKUP that repeats the one just before it, for that name in that
 * directory: d_revalidate said 0 to what the first found (positive, or a
 * remote negative dentry), or -ECHILD and then 0 in REF mode, and
 * lookup_slow looked again.  The exec check covered both.  Or open's
 * look-up of the name it has just created (core/open.c create_last),
 * right after the CREATE, from the directory again.
 */
static bool is_relookup(const struct oj *j, const struct wt_step *s)
{
	const struct wt_step *p;

	if (j->last_lookup < 0 || s->kind != WT_STEP_LOOKUP ||
	    j->last_judged < 0)
		return false;
	p = &j->r->steps[j->last_judged];
	if (j->last_judged != j->last_lookup && p->kind != WT_STEP_CREATE)
		return false;
	if (!same_place(&p->from, &s->from) || p->text_len != s->text_len)
		return false;
	return !strcmp(step_name(j, p), step_name(j, s));
}

/* Does s carry on from the pending landing (crossing a mount there)? */
static bool continues_landing(const struct oj *j, const struct wt_step *s)
{
	if ((s->kind == WT_STEP_MOUNT || s->kind == WT_STEP_AUTOMOUNT) &&
	    s->from.mnt == j->land.mnt && s->from.dentry == j->land.dentry)
		return true;
	return is_relookup(j, s);
}

static bool resolve_landing(struct oj *j)
{
	if (!j->landing)
		return true;
	j->landing = false;
	return oj_at_some_instant(j, j->land_step, &j->r->steps[j->land_step],
				  holds_no_mount, "then nothing is mounted there");
}

static void infer_root(struct oj *j, const struct wt_step *s)
{
	const char *text = wt_step_text(j->r, s);
	unsigned flags = j->a->flags;

	if (j->root_known)
		return;
	if ((flags & LOOKUP_IS_SCOPED) || j->r->entry == WT_ENTRY_OPEN_ROOT ||
	    (text && text[0] == '/' && !(flags & LOOKUP_IN_ROOT))) {
		j->root_known = true;
		j->root_mnt = s->to.mnt;
		j->root_dentry = s->to.dentry;
	}
}

static bool judge_kind(struct oj *j, int idx, const struct wt_step *s);

static bool judge_lookup(struct oj *j, int idx, const struct wt_step *s)
{
	bool relookup = is_relookup(j, s);
	bool positive;

	if (relookup) {
		j->pos = j->dir;
		j->pos_known = true;
		j->landing = false;
	} else {
		if (!check_from(j, idx, &s->from, "looks up in"))
			return false;
		if (!check_perm(j, idx, "a lookup"))
			return false;
	}
	if (s->to.mnt && s->to.mnt != s->from.mnt)
		return oj_reject(j, idx, "a lookup changed mounts (%llu -> %llu)",
				 (unsigned long long)s->from.mnt,
				 (unsigned long long)s->to.mnt);
	if (!oj_at_some_instant(j, idx, s, holds_lookup, NULL))
		return false;
	j->dir = s->from;
	j->last_lookup = idx;
	j->perm = false;
	if (s->result == -ESTALE)
		j->estale_seen = true;
	positive = s->to.inode && (s->result == 0 || s->result == -ECHILD);
	j->negative = !positive;
	j->neg_known = !positive && s->to.dentry && !s->result;
	j->neg = s->to;
	if (positive)
		land(j, idx, &s->to);
	else
		j->pos = s->from;
	return true;
}

static bool judge_dots(struct oj *j, int idx, const struct wt_step *s)
{
	if (!check_from(j, idx, &s->from, "`..` from"))
		return false;
	if (!check_perm(j, idx, "`..`"))
		return false;
	if (s->kind == WT_STEP_MOUNT_UP) {
		if (!oj_at_some_instant(j, idx, s, holds_mount_up, NULL))
			return false;
		j->pos = s->to;
		j->pos_known = true;
		return true;
	}
	if (s->arg == 1 && !same_place(&s->from, &s->to))
		return oj_reject(j, idx, "`..` says it stayed but moved");
	/*
	 * A `..` stays only where the walk stands on its root (or on a
	 * mount root with nothing above it); under RESOLVE_BENEATH that is
	 * an escape, refused with EXDEV (-ECHILD first in RCU-walk), never
	 * a stay.  IN_ROOT is the flag that stays: a model that tests one
	 * for the other answers like an unscoped walk, which the answer
	 * alone would let pass.
	 */
	if (s->arg == 1 && (oj_walk_flags(j) & LOOKUP_BENEATH))
		return oj_reject(j, idx, "`..` stayed at the root of a "
				 "RESOLVE_BENEATH walk: follow_dotdot refuses "
				 "it there (EXDEV)");
	if (!oj_at_some_instant(j, idx, s, holds_dotdot, NULL))
		return false;
	j->perm = false;
	j->dotdot_seen = true;
	j->negative = false;
	land(j, idx, &s->to);
	return true;
}

static bool judge_link(struct oj *j, int idx, const struct wt_step *s)
{
	if (!check_from(j, idx, &s->from, "reads the link"))
		return false;
	if (!oj_at_some_instant(j, idx, s, holds_link, NULL))
		return false;
	if (s->result == -ESTALE)
		j->estale_seen = true;
	j->links++;
	j->last_link = s->from;
	/* the body is walked from the directory that holds the link */
	if (j->last_lookup >= 0) {
		j->pos = j->dir;
	} else {
		j->pos_known = false;
	}
	j->negative = false;
	return true;
}

static bool judge_jump(struct oj *j, int idx, const struct wt_step *s)
{
	unsigned flags = oj_walk_flags(j);

	/*
	 * nd_jump_link refuses a magic link to RESOLVE_NO_MAGICLINKS (ELOOP)
	 * and to a scoped walk (EXDEV: the link's target may lie anywhere,
	 * outside the root the walk must stay under) before it jumps, so a
	 * jump recorded under either flag is a walk that escaped.
	 */
	if (s->arg == 1 && (flags & (LOOKUP_NO_MAGICLINKS | LOOKUP_IS_SCOPED)))
		return oj_reject(j, idx, "a magic link followed by a walk with "
				 "%s: nd_jump_link refuses it", flags &
				 LOOKUP_NO_MAGICLINKS ? "RESOLVE_NO_MAGICLINKS" :
				 "a scoping flag");
	if (s->arg == 1) {
		if (j->pos_known)
			j->last_link = j->pos;
		j->links++;
	} else if (!j->root_known) {
		j->root_known = true;
		j->root_mnt = s->to.mnt;
		j->root_dentry = s->to.dentry;
	}
	if (!oj_at_some_instant(j, idx, s, holds_jump, NULL))
		return false;
	/* neither nd_jump_root nor nd_jump_link crosses mounts */
	j->pos = s->to;
	j->pos_known = true;
	j->perm = false;
	j->negative = false;
	return true;
}

static bool judge_mounts(struct oj *j, int idx, const struct wt_step *s)
{
	if (!check_from(j, idx, &s->from, s->kind == WT_STEP_MOUNT ?
			"crosses a mount at" : "automounts at"))
		return false;
	if (s->kind == WT_STEP_AUTOMOUNT) {
		if (!oj_at_some_instant(j, idx, s, holds_automount, NULL))
			return false;
		j->links++;	/* traverse_mounts counts automounts as links */
		land(j, idx, &j->pos);
		return true;
	}
	if (!oj_at_some_instant(j, idx, s, holds_mount, NULL))
		return false;
	land(j, idx, &s->to);
	return true;
}

static bool judge_step(struct oj *j, int idx, const struct wt_step *s)
{
	bool ok;

	/* leaving RCU-walk is no namespace step: it changes nothing; nor
	 * is a fallback's evidence (oj_check_fallbacks judged it), nor the
	 * weak revalidation (oj_check_answer holds the answer to it) */
	if (oj_stays_put(s))
		return true;
	if (j->landing && !continues_landing(j, s) && !resolve_landing(j))
		return false;
	ok = judge_kind(j, idx, s);
	j->last_judged = idx;
	if (s->kind != WT_STEP_LOOKUP)
		j->neg_known = false;
	return ok;
}

static bool judge_kind(struct oj *j, int idx, const struct wt_step *s)
{
	switch (s->kind) {
	case WT_STEP_START:
		if (!oj_at_some_instant(j, idx, s, holds_start, NULL))
			return false;
		infer_root(j, s);
		j->pos = s->to;
		j->pos_known = true;
		j->perm = false;
		j->perm_unknown = false;
		if (j->a->flags & LOOKUP_DOWN)
			land(j, idx, &s->to);
		return true;
	case WT_STEP_PERMISSION:
		if (!check_from(j, idx, &s->to, "checks exec permission on"))
			return false;
		if (!oj_at_some_instant(j, idx, s, holds_permission, NULL))
			return false;
		j->last_perm = idx;
		j->last_perm_denied = s->result == -EACCES;
		if (s->result == 0)
			j->perm = true;
		return true;
	case WT_STEP_LOOKUP:
		return judge_lookup(j, idx, s);
	case WT_STEP_MOUNT:
	case WT_STEP_AUTOMOUNT:
		return judge_mounts(j, idx, s);
	case WT_STEP_MOUNT_UP:
	case WT_STEP_DOTDOT:
		return judge_dots(j, idx, s);
	case WT_STEP_LINK:
		return judge_link(j, idx, s);
	case WT_STEP_JUMP:
		return judge_jump(j, idx, s);
	case WT_STEP_CREATE:
		if (!check_from(j, idx, &s->from, "creates in"))
			return false;
		if (!oj_at_some_instant(j, idx, s, holds_create, NULL))
			return false;
		j->negative = false;
		land(j, idx, &s->to);
		return true;
	case WT_STEP_UNLAZY:
	case WT_STEP_FALLBACK:
	case WT_STEP_WEAK_REVALIDATE:
	case WT_STEP_END:
		return true;
	}
	return oj_reject(j, idx, "unknown step kind %u", s->kind);
}

/* ------------------------------------------------------------------ */
/* the judgement                                                        */

static const struct cred root_cred = { .uid = 0, .gid = 0,
				       .cap_dac_override = true,
				       .cap_sys_ptrace = true };

static enum wt_verdict not_judged(struct oj *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static enum wt_verdict not_judged(struct oj *j, const char *fmt, ...)
{
	va_list ap;

	j->res->verdict = WT_VERDICT_NOT_JUDGED;
	va_start(ap, fmt);
	vsnprintf(j->res->explain, sizeof(j->res->explain), fmt, ap);
	va_end(ap);
	return WT_VERDICT_NOT_JUDGED;
}

/* A walk refused before path_init (getname's checks): syntax only. */
static enum wt_verdict judge_refused(struct oj *j)
{
	const char *name = j->in->name;
	int err = j->r->result;
	size_t len = name ? strnlen(name, PATH_MAX_LEN) : 0;

	if (err == -ENAMETOOLONG && (!name || len >= PATH_MAX_LEN))
		return WT_VERDICT_OK;
	if (err == -ENOENT && (!name || len == 0))
		return WT_VERDICT_OK;
	if (err == -EFAULT && !name)
		return WT_VERDICT_OK;
	if (err == -ELOOP && j->r->entry == WT_ENTRY_OPEN_ROOT)
		return WT_VERDICT_OK;
	oj_reject(j, -1, "refused before path_init with %d, which the name "
		  "(%zu bytes) does not explain", err, len);
	return WT_VERDICT_REJECTED;
}

static enum wt_verdict judge_walk(struct oj *j)
{
	const struct wt_record_attempt *a = j->a;
	const struct wt_history *h = j->o->h;
	int end_idx = -1;
	int err;

	if (!h)
		return not_judged(j, "the world keeps no history");
	if (!wt_oracle_ready(h, j->r))
		return not_judged(j, "window v%llu..v%llu not published yet "
				  "(last published v%llu)",
				  (unsigned long long)a->version_start,
				  (unsigned long long)a->version_end,
				  (unsigned long long)wt_history_version(h));
	if (a->version_start < wt_history_first(h))
		return not_judged(j, "window v%llu.. truncated from the log",
				  (unsigned long long)a->version_start);
	if (a->version_end < a->version_start)
		return not_judged(j, "window ends before it starts");
	if (a->first + a->count > j->r->nsteps)
		return not_judged(j, "attempt steps out of the record");
	err = oj_seek(j, a->version_start);
	if (err)
		return not_judged(j, "no snapshot at v%llu (%d)",
				  (unsigned long long)a->version_start, err);
	if (!oj_check_ladder(j))
		return WT_VERDICT_REJECTED;
	if (!oj_check_fallbacks(j))
		return WT_VERDICT_REJECTED;
	for (uint32_t i = a->first; i < a->first + a->count; i++) {
		const struct wt_step *s = &j->r->steps[i];

		if (s->kind == WT_STEP_END) {
			end_idx = (int)i;
			continue;
		}
		note_dotdot(j, s);
		if (!s->validated) {
			/* where a walk starts is a reference it holds (the
			 * dirfd, cwd or root), whatever its d_seq said: the
			 * root of a scoped walk is known all the same */
			if (s->kind == WT_STEP_START)
				infer_root(j, s);
			skip_step(j);
			continue;
		}
		if (!judge_step(j, (int)i, s))
			return WT_VERDICT_REJECTED;
	}
	/* RESOLVE_NO_XDEV: traverse_mounts crossed one mount, then refused */
	if (a->result == -EXDEV && (oj_walk_flags(j) & LOOKUP_NO_XDEV) &&
	    j->landing && j->r->steps[j->land_step].kind == WT_STEP_MOUNT)
		j->landing = false;
	if (!resolve_landing(j))
		return WT_VERDICT_REJECTED;
	return oj_check_answer(j, end_idx);
}

enum wt_verdict oj_judge(struct wt_oracle *o, const struct wt_oracle_input *in,
			 struct wt_oracle_result *res, uint64_t moved,
			 uint64_t after)
{
	struct oj j;
	enum wt_verdict v;

	/* the explanation buffers are written only on a rejection: this
	 * runs on every walk, so they are not cleared here */
	memset(&j, 0, offsetof(struct oj, why));
	j.why[0] = j.why_first[0] = '\0';
	memset(res, 0, offsetof(struct wt_oracle_result, explain));
	res->explain[0] = '\0';
	res->verdict = WT_VERDICT_OK;
	res->step = -1;
	j.o = o;
	j.in = in;
	j.r = in->record;
	j.res = res;
	j.cred = in->cred ? in->cred : &root_cred;
	j.last_lookup = -1;
	j.last_judged = -1;
	j.last_perm = -1;
	j.land_step = -1;
	if (in->root_mnt) {
		j.root_known = true;
		j.root_mnt = in->root_mnt;
		j.root_dentry = in->root_dentry;
	}
	/* another order is tried only for its verdict: no explanation */
	j.moved = moved;
	j.after = after;
	j.quiet = moved != 0;
	if (!j.r)
		v = not_judged(&j, "no record");
	else if (j.r->overflow)
		v = not_judged(&j, "record overflow (%u steps)", j.r->nsteps);
	else if (!(j.a = wt_record_final(j.r)))
		v = judge_refused(&j);
	else {
		j.start = j.a->version_start;
		j.end = j.a->version_end;
		v = judge_walk(&j);
	}
	wt_ns_destroy(j.own);
	res->verdict = v;
	return v;
}

enum wt_verdict wt_oracle_judge(struct wt_oracle *o,
				const struct wt_oracle_input *in,
				struct wt_oracle_result *res)
{
	enum wt_verdict v;

	assert(o && in && res);
	o->stats.walks++;
	v = oj_judge(o, in, res, 0, 0);
	res->reordered = false;
	if (v == WT_VERDICT_REJECTED && oj_reordered_holds(o, in, res)) {
		v = WT_VERDICT_OK;
		res->reordered = true;
		o->stats.reordered++;
	}
	if (v == WT_VERDICT_OK)
		o->stats.ok++;
	else if (v == WT_VERDICT_REJECTED)
		o->stats.rejected++;
	else
		o->stats.not_judged++;
	return v;
}

enum wt_verdict wt_oracle_check(const struct wt_history *h,
				const struct wt_oracle_input *in,
				struct wt_oracle_result *res)
{
	struct wt_oracle *o = wt_oracle_create(h);
	enum wt_verdict v;

	if (!o) {
		memset(res, 0, sizeof(*res));
		res->verdict = WT_VERDICT_NOT_JUDGED;
		res->step = -1;
		snprintf(res->explain, sizeof(res->explain), "out of memory");
		return WT_VERDICT_NOT_JUDGED;
	}
	v = wt_oracle_judge(o, in, res);
	wt_oracle_destroy(o);
	return v;
}

/* SPDX-License-Identifier: MIT */
/*
 * The step record: the buffer (bounded, allocated once), and the
 * walker's side -- appending steps and marking them validated as the
 * checks that cover them succeed.  See record.h for the format.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "sim/history.h"

struct wt_record *wt_record_create(uint32_t max_steps, uint32_t text_bytes)
{
	struct wt_record *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->max_steps = max_steps ? max_steps : WT_RECORD_DEFAULT_STEPS;
	r->text_max = text_bytes ? text_bytes : WT_RECORD_DEFAULT_TEXT;
	r->steps = calloc(r->max_steps, sizeof(*r->steps));
	r->text = malloc(r->text_max);
	if (!r->steps || !r->text) {
		wt_record_destroy(r);
		return NULL;
	}
	wt_record_reset(r);
	return r;
}

void wt_record_destroy(struct wt_record *r)
{
	if (!r)
		return;
	free(r->steps);
	free(r->text);
	free(r);
}

void wt_record_reset(struct wt_record *r)
{
	r->nsteps = 0;
	r->text_len = 0;
	r->overflow = false;
	r->ref_only = false;
	r->result = 0;
	r->nattempts = 0;
	r->first_unvalidated = 0;
	memset(r->attempts, 0, sizeof(r->attempts));
}

static const char *const step_names[WT_STEP__COUNT] = {
	[WT_STEP_START] = "start",
	[WT_STEP_PERMISSION] = "permission",
	[WT_STEP_LOOKUP] = "lookup",
	[WT_STEP_MOUNT] = "mount",
	[WT_STEP_MOUNT_UP] = "mount_up",
	[WT_STEP_DOTDOT] = "dotdot",
	[WT_STEP_LINK] = "link",
	[WT_STEP_JUMP] = "jump",
	[WT_STEP_AUTOMOUNT] = "automount",
	[WT_STEP_CREATE] = "create",
	[WT_STEP_UNLAZY] = "unlazy",
	[WT_STEP_FALLBACK] = "fallback",
	[WT_STEP_END] = "end",
	[WT_STEP_WEAK_REVALIDATE] = "weak_revalidate",
};

const char *wt_step_kind_name(enum wt_step_kind kind)
{
	return (unsigned)kind < WT_STEP__COUNT ? step_names[kind] : "?";
}

const char *wt_step_text(const struct wt_record *r, const struct wt_step *s)
{
	if (s->text == WT_RECORD_NO_TEXT)
		return NULL;
	assert(s->text < r->text_len);
	return r->text + s->text;
}

const struct wt_record_attempt *wt_record_final(const struct wt_record *r)
{
	return r->nattempts ? &r->attempts[r->nattempts - 1] : NULL;
}

static void print_ident(FILE *f, const char *what, const struct wt_ident *id)
{
	fprintf(f, " %s=%llu:%llu:%llu", what, (unsigned long long)id->mnt,
		(unsigned long long)id->dentry, (unsigned long long)id->inode);
}

void wt_record_print(const struct wt_record *r, FILE *f)
{
	fprintf(f, "record entry=%d flags=%#x result=%d attempts=%u steps=%u%s%s\n",
		r->entry, r->flags, r->result, r->nattempts, r->nsteps,
		r->ref_only ? " ref_only=1" : "",
		r->overflow ? " overflow=1 !!!" : "");
	for (uint32_t i = 0; i < r->nattempts; i++) {
		const struct wt_record_attempt *a = &r->attempts[i];

		fprintf(f, "attempt %u first=%u count=%u flags=%#x result=%d "
			"versions=%llu..%llu\n", i + 1, a->first, a->count,
			a->flags, a->result, (unsigned long long)a->version_start,
			(unsigned long long)a->version_end);
	}
	for (uint32_t i = 0; i < r->nsteps; i++) {
		const struct wt_step *s = &r->steps[i];
		const char *text = wt_step_text(r, s);

		fprintf(f, "%3u a%u %s%s %-10s", i, s->attempt,
			s->rcu ? "rcu" : "ref", s->validated ? "+v" : "  ",
			wt_step_kind_name(s->kind));
		print_ident(f, "from", &s->from);
		print_ident(f, "to", &s->to);
		fprintf(f, " result=%d arg=%#x", s->result, s->arg);
		if (text)
			fprintf(f, " text=\"%s\"", text);
		if (s->kind == WT_STEP_FALLBACK)
			fprintf(f, " seq=%u first=%u read=%u", s->dep_seq,
				s->seq_birth, s->seq_now);
		fputc('\n', f);
	}
}

/*
 * Identities are read without injection points: recording must not
 * change a schedule.  The objects are alive (RCU section or references),
 * and the header id never changes.
 */
/*
 * The inode as the walk sees it: the entry type in d_flags first, then
 * d_inode.  __d_instantiate stores d_inode and then releases the type, so
 * a dentry caught in between has an inode but still reads as negative --
 * and the walk decides on the type (traverse_mounts answers -ENOENT on a
 * negative d_flags).  Recording d_inode alone would claim a positive
 * lookup for a walk that went on to fail with ENOENT, which no instant
 * explains (found by symlinks/swap.random).
 */
static struct inode *recorded_inode(const struct dentry *dentry)
{
	/* in the walker's own view of memory (memory=tso/pso: its store
	 * buffer's), with no injection point: what the walk itself could see */
	unsigned flags = wt_load_order(&dentry->d_flags, __ATOMIC_ACQUIRE);

	if (d_is_negative_flags(flags))
		return NULL;
	return wt_load_order(&dentry->d_inode, __ATOMIC_RELAXED);
}

struct wt_ident wt_ident_of(struct vfsmount *mnt, struct dentry *dentry,
			    struct inode *inode)
{
	struct wt_ident id = { 0, 0, 0 };

	if (mnt)
		id.mnt = real_mount(mnt)->wt.id;
	if (dentry) {
		id.dentry = dentry->wt.id;
		/*
		 * A dentry freed without a grace period (zoo free_no_grace)
		 * is poison: its d_inode is no pointer.  The walker's next
		 * checked access reports it; recording must not crash first.
		 */
		if (!inode && __atomic_load_n(&dentry->wt.magic,
					      __ATOMIC_RELAXED) == WT_OBJ_LIVE)
			inode = recorded_inode(dentry);
	}
	if (inode)
		id.inode = inode->wt.id;
	return id;
}

static uint32_t record_text(struct wt_record *r, const char *text,
			    uint32_t len)
{
	uint32_t at = r->text_len;

	if (!text)
		return WT_RECORD_NO_TEXT;
	if ((uint64_t)r->text_len + len + 1 > r->text_max) {
		r->overflow = true;
		return WT_RECORD_NO_TEXT;
	}
	memcpy(r->text + at, text, len);
	r->text[at + len] = '\0';
	r->text_len += len + 1;
	return at;
}

struct wt_step *nd_record(struct nameidata *nd, enum wt_step_kind kind,
			  const struct wt_ident *from,
			  const struct wt_ident *to,
			  const char *text, uint32_t text_len, int result,
			  uint32_t arg, const struct dentry *dep,
			  unsigned seq)
{
	struct wt_record *r = nd->record;
	struct wt_step *s;

	if (!r)
		return NULL;
	if (r->nsteps == r->max_steps) {
		r->overflow = true;
		return NULL;
	}
	s = &r->steps[r->nsteps++];
	s->kind = (uint16_t)kind;
	s->attempt = (uint8_t)nd->attempt;
	s->rcu = (nd->flags & LOOKUP_RCU) != 0;
	s->validated = !s->rcu;
	s->result = result;
	s->arg = arg;
	s->from = *from;
	s->to = *to;
	s->text = record_text(r, text, text_len);
	s->text_len = s->text == WT_RECORD_NO_TEXT ? 0 : text_len;
	s->dep_dentry = dep ? dep->wt.id : 0;
	s->dep_seq = seq;
	s->seq_birth = s->seq_now = 0;
	if (r->nattempts)
		r->attempts[r->nattempts - 1].count++;
	return s;
}

/*
 * The evidence is the current thread's last failed seq retry since its
 * last sample (sim/seq.h keeps it): the check that counted this path was
 * that retry, unless the walk sampled again in between -- then nothing
 * moved that the walk had sampled, and the fallback is spurious.
 */
void nd_record_fallback(struct nameidata *nd, enum wt_path id)
{
	const struct wt_ident none = { 0, 0, 0 };
	const struct wt_seq_moved *m = wt_self ? &wt_self->seq_moved : NULL;
	bool known = m && m->set;
	struct wt_ident obj = none;
	struct wt_step *s;

	if (known)
		obj.dentry = m->obj;
	s = nd_record(nd, WT_STEP_FALLBACK, &none, &obj, NULL, 0, known,
		      (uint32_t)id, NULL, known ? m->start : 0);
	if (!s)
		return;
	s->validated = 1;
	s->seq_birth = known ? m->birth : 0;
	s->seq_now = known ? m->now : 0;
}

/* Advance the cursor past steps that are validated already. */
static void advance_cursor(struct wt_record *r)
{
	while (r->first_unvalidated < r->nsteps &&
	       r->steps[r->first_unvalidated].validated)
		r->first_unvalidated++;
}

void nd_validated(struct nameidata *nd, const struct dentry *dentry,
		  unsigned seq)
{
	struct wt_record *r = nd->record;

	if (!r)
		return;
	for (uint32_t i = r->first_unvalidated; i < r->nsteps; i++) {
		struct wt_step *s = &r->steps[i];

		if (s->dep_dentry == dentry->wt.id && s->dep_seq == seq &&
		    s->kind != WT_STEP_MOUNT && s->kind != WT_STEP_MOUNT_UP)
			s->validated = 1;
	}
	advance_cursor(r);
}

void nd_validated_mounts(struct nameidata *nd)
{
	struct wt_record *r = nd->record;

	if (!r)
		return;
	for (uint32_t i = r->first_unvalidated; i < r->nsteps; i++) {
		struct wt_step *s = &r->steps[i];

		if (s->kind == WT_STEP_MOUNT || s->kind == WT_STEP_MOUNT_UP)
			s->validated = 1;
	}
	advance_cursor(r);
}

void nd_validated_all(struct nameidata *nd)
{
	struct wt_record *r = nd->record;
	uint32_t first;

	if (!r || !r->nattempts)
		return;
	first = r->attempts[r->nattempts - 1].first;
	for (uint32_t i = first; i < r->nsteps; i++)
		r->steps[i].validated = 1;
	advance_cursor(r);
}

void nd_record_rewind(struct nameidata *nd, uint32_t mark)
{
	struct wt_record *r = nd->record;

	if (!r || mark >= r->nsteps)
		return;
	if (r->nattempts)
		r->attempts[r->nattempts - 1].count -= r->nsteps - mark;
	r->nsteps = mark;
	if (r->first_unvalidated > mark)
		r->first_unvalidated = mark;
}

static uint64_t history_now(struct nameidata *nd, bool start)
{
	struct wt_history *h = nd->world->history;

	if (!h)
		return 0;
	return start ? wt_history_version_start(h) : wt_history_version_end(h);
}

void nd_record_attempt_begin(struct nameidata *nd, unsigned flags)
{
	struct wt_record *r = nd->record;
	struct wt_record_attempt *a;

	if (!r)
		return;
	assert(r->nattempts < WT_RECORD_MAX_ATTEMPTS);
	a = &r->attempts[r->nattempts++];
	a->first = r->nsteps;
	a->count = 0;
	a->flags = flags;
	a->result = 0;
	a->version_start = history_now(nd, true);
	a->version_end = a->version_start;
	/* steps of an abandoned attempt are never judged */
	r->first_unvalidated = r->nsteps;
}

void nd_record_attempt_end(struct nameidata *nd, int result)
{
	struct wt_record *r = nd->record;
	struct wt_record_attempt *a;

	if (!r || !r->nattempts)
		return;
	a = &r->attempts[r->nattempts - 1];
	a->result = result;
	a->version_end = history_now(nd, false);
	r->result = result;
}

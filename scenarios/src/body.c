/* SPDX-License-Identifier: MIT */
/*
 * The thread body: one simulated thread runs its program -- walks through
 * the entry points of core/namei.h, writer verbs through sim/tree -- and
 * every walk is checked on the spot: its result against the scenario's
 * `result' expectations, -ECHILD never reaching the caller, and its step
 * record against the history by the oracle.
 *
 * Stopping: a thread that loops forever (or sits in a `loop: forever'
 * block) polls wt_should_stop() between ops; the last finite thread to
 * finish asks the run to stop, so forever-writers end when the walkers
 * are done.  Each turn of a forever loop ends with wt_yield(), so that a
 * priority policy never lets a forever thread starve the finite ones.
 */
#define _GNU_SOURCE	/* O_PATH */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/namei.h"
#include "core/oracle.h"
#include "scenarios/src/checks.h"
#include "scenarios/src/explore.h"
#include "scenarios/src/iter.h"
#include "scenarios/src/objkey.h"
#include "scenarios/src/sanitizer.h"
#include "sim/history.h"
#include "sim/ops.h"
#include "sim/rcu.h"
#include "sim/resolve.h"
#include "sim/sched/sched.h"
#include "sim/sched/trace.h"
#include "sim/tso.h"

/* A walk whose window was not yet published when it ended. */
struct wt_scn_pending {
	struct wt_scn_pending *next;
	const struct wt_scn_op *op;
	unsigned op_index;
	uint64_t failing_event;
	struct wt_record *rec;
	char exit_path[96];		/* the walk's (wt_scn_tctx) */
};

static const char *exit_path_of(struct wt_scn_tctx *tc);

void wt_scn_add_failure(struct wt_scn_tctx *tc, json_t *f)
{
	/* a walk's failure says how the walk left (its signature has it) */
	if (json_object_get(f, "walk") && !json_object_get(f, "exit_path"))
		json_object_set_new(f, "exit_path", exit_path_of(tc)[0] ?
				    json_string(tc->exit_path) : json_null());
	tc->nfailures++;
	/* made at the first: most iterations have none */
	if (!tc->failures)
		tc->failures = json_array();
	if (tc->failures &&
	    json_array_size(tc->failures) < WT_SCN_THREAD_FAILURES)
		json_array_append(tc->failures, f);
	json_decref(f);
}

json_t *wt_scn_schedule_json(const struct wt_scenario *s)
{
	json_t *sched;

	if (!s->nsteps)
		return json_null();
	sched = json_array();
	for (unsigned i = 0; i < s->nsteps; i++)
		json_array_append_new(sched, json_string(s->steps[i].text));
	return sched;
}

json_t *wt_scn_failure_new(const struct wt_scn_iter *it, const char *kind,
			   const char *check, const char *thread,
			   const char *message)
{
	char seed[24], replay[4096], spec[WT_EXPLORE_SPEC_MAX];

	json_t *f, *sched;

	snprintf(seed, sizeof(seed), "%#" PRIx64, it->seed);
	wt_scn_replay_cmd(replay, sizeof(replay), it->s, it->seed, it->opts);
	/* a directed iteration is replayed by its seed and this schedule */
	sched = wt_scn_schedule_json(it->s);
	f = json_pack("{s:s, s:s?, s:s, s:I, s:s, s:s?, s:s, s:n, s:n, s:o}",
		      "kind", kind, "check", check, "message", message,
		      "iteration", (json_int_t)it->index, "seed", seed,
		      "thread", thread, "replay", replay, "trace", "step",
		      "schedule", sched);
	/* an explore iteration's schedule (explore.h) */
	if (wt_scn_policy_of(it->s, it->opts) == WT_SCN_EXPLORE &&
	    !wt_explore_format(it->s, it->opts->preempts, it->opts->npreempts,
			       spec, sizeof(spec)))
		json_object_set_new(f, "preempts", json_string(spec));
	return f;
}

/* The trace's latest event, as the failing_event of a record made now
 * (runner.c narrows it to the failing thread's own event). */
json_t *wt_scn_event_now(const struct wt_thread *t)
{
	const struct wt_trace_buf *b = t->trace_buf;

	if (!b || !b->total)
		return json_null();
	return json_integer((json_int_t)(b->total - 1));
}

static void violation(struct wt_thread *t, enum wt_check check,
		      const struct wt_point *p, const void *obj,
		      const char *msg)
{
	struct wt_scn_tctx *tc = t->violation_arg;
	char text[768];
	json_t *f;

	(void)obj;
	tc->checks++;
	snprintf(text, sizeof(text), "%s at %s: %s", wt_check_name(check),
		 wt_point_name(p), msg);
	f = wt_scn_failure_new(tc->it, "check", wt_check_name(check),
			       tc->th->name, text);
	json_object_set_new(f, "failing_event", wt_scn_event_now(t));
	/* the check fires before the arrival at p is traced (runner.c) */
	if (p)
		json_object_set_new(f, "failing_point",
				    json_integer(wt_point_id(p)));
	wt_scn_add_failure(tc, f);
	/* what follows would read the poison as pointers: stop here */
	if (check == WT_CHECK_POISON || check == WT_CHECK_FAULT)
		wt_halt(p, check == WT_CHECK_POISON ?
			"a poisoned object was read (the poison failure)" :
			"the thread faulted (the fault failure)");
}

/* --- failure details from a record --- */

static void ident(char *buf, size_t len, const struct wt_ident *id)
{
	snprintf(buf, len, "m%" PRIu64 "/d%" PRIu64 "/i%" PRIu64, id->mnt,
		 id->dentry, id->inode);
}

json_t *wt_scn_steps_json(const struct wt_record *r)
{
	json_t *a = json_array();

	for (uint32_t i = 0; i < r->nsteps; i++) {
		const struct wt_step *st = &r->steps[i];
		const char *txt = wt_step_text(r, st);
		char from[80], to[80], line[512];

		ident(from, sizeof(from), &st->from);
		ident(to, sizeof(to), &st->to);
		/* an UNLAZY's arg is the exit path that names its site */
		bool site = st->kind == WT_STEP_UNLAZY && st->arg < WT_PATH__COUNT;

		snprintf(line, sizeof(line), "%s%s%s%s %s -> %s%s%s%s%s%s",
			 txt ? "'" : "", txt ? txt : "", txt ? "' " : "",
			 st->rcu ? "rcu" : "ref", from, to,
			 st->result ? " = " : "",
			 st->result ? wt_scn_errno_name(st->result) : "",
			 site ? " [" : "", site ? wt_path_info(st->arg)->name : "",
			 site ? "]" : "");
		json_array_append_new(a, json_pack("{s:i, s:s, s:s, s:b}",
			"attempt", st->attempt,
			"kind", wt_step_kind_name(st->kind), "text", line,
			"validated", st->validated));
	}
	return a;
}

json_t *wt_scn_history_window(const struct wt_history *h,
			      const struct wt_record *r)
{
	const struct wt_record_attempt *a = wt_record_final(r);
	json_t *arr = json_array();

	if (!h || !a)
		return arr;
	for (uint64_t v = a->version_start; v <= a->version_end &&
	     json_array_size(arr) < 64; v++) {
		const struct wt_hist_entry *e = wt_history_entry(h, v);
		char line[512];

		if (!e)
			continue;
		snprintf(line, sizeof(line), "v%" PRIu64 " %s %s", v,
			 e->step ? e->step : e->op, e->args ? e->args : "");
		json_array_append_new(arr, json_string(line));
	}
	return arr;
}

static json_t *walk_json(const struct wt_scn_op *op, const struct wt_record *r,
			 int err)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:i}",
			 "entry", wt_walk_entry_name(op->walk.entry),
			 "path", op->walk.path, "flags", op->walk.flags_text,
			 "result", wt_scn_errno_name(err),
			 "attempt", r ? (int)r->nattempts : 0);
}

/* --- the oracle --- */

static void oracle_failure(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
			   const struct wt_record *rec,
			   const struct wt_oracle_result *res, json_t *ev)
{
	char msg[WT_ORACLE_EXPLAIN_MAX + 512];
	json_t *f;

	snprintf(msg, sizeof(msg), "oracle: %s: %.256s -> %s: %s", tc->th->name,
		 op->text, wt_scn_errno_name(rec->result), res->explain);
	f = wt_scn_failure_new(tc->it, "oracle", NULL, tc->th->name, msg);
	json_object_set_new(f, "walk", walk_json(op, rec, rec->result));
	json_object_set_new(f, "walk_steps", wt_scn_steps_json(rec));
	json_object_set_new(f, "step", res->step >= 0 &&
			    (uint32_t)res->step < rec->nsteps ?
			    json_integer(res->step) : json_null());
	json_object_set_new(f, "explanation", json_string(res->explain));
	json_object_set_new(f, "history_window",
			    wt_scn_history_window(tc->it->world->history, rec));
	json_object_set_new(f, "objects",
			    wt_scn_objects_json(tc->it->world->history, rec));
	json_object_set_new(f, "failing_event", ev);
	wt_scn_add_failure(tc, f);
}

static void judge_now(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
		      unsigned op_index, const struct wt_record *rec,
		      json_t *ev)
{
	struct wt_oracle_input in = {
		.record = rec, .cred = &tc->task.cred, .name = op->walk.path,
		.protected_symlinks = tc->it->s->protected_symlinks,
	};
	struct wt_oracle_result res;

	if (op->walk.entry == WT_WALK_OPEN_ROOT && tc->dirs[op_index].dentry) {
		in.root_mnt = real_mount(tc->dirs[op_index].mnt)->wt.id;
		in.root_dentry = tc->dirs[op_index].dentry->wt.id;
	}
	/* not zeroed: wt_oracle_judge sets all but the explanation's tail
	 * (1 KiB, written on a rejection) */
	switch (wt_oracle_judge(tc->oracle, &in, &res)) {
	case WT_VERDICT_OK:
		tc->oracle_ok++;
		tc->oracle_reordered += res.reordered;
		json_decref(ev);
		break;
	case WT_VERDICT_REJECTED:
		tc->oracle_rejected++;
		oracle_failure(tc, op, rec, &res, ev);
		break;
	case WT_VERDICT_NOT_JUDGED:
		tc->oracle_not_judged++;
		json_decref(ev);
		break;
	}
}

/*
 * A copy of a finished record, to be judged and freed: its steps and text
 * only, each at the size used (a full-size record is a 64 KiB text and a
 * zeroed step array: under tso, where most walks wait for their window,
 * making those was ~2% of an iteration).  Nothing appends to it.
 */
static struct wt_record *record_copy(const struct wt_record *r)
{
	struct wt_record *c = malloc(sizeof(*c));
	uint32_t nsteps = r->nsteps ? r->nsteps : 1;
	uint32_t text = r->text_len ? r->text_len : 1;

	if (!c)
		return NULL;
	*c = *r;
	c->steps = malloc(nsteps * sizeof(*c->steps));
	c->text = malloc(text);
	if (!c->steps || !c->text) {
		wt_record_destroy(c);
		return NULL;
	}
	c->max_steps = nsteps;
	c->text_max = text;
	memcpy(c->steps, r->steps, r->nsteps * sizeof(*r->steps));
	memcpy(c->text, r->text, r->text_len);
	return c;
}

/*
 * Judge the kept walks oldest first.  The list is newest first, and the
 * oracle's snapshots only move forward cheaply: newest first rebuilt the
 * namespace from the start of the history for every walk, quadratic in a
 * long stress iteration (100 000 walks beside a renamer did not end).
 */
static void judge_pending_list(struct wt_scn_tctx *tc)
{
	struct wt_scn_pending *p, *old = NULL;

	while (tc->pending) {		/* reverse: bounded by the list */
		p = tc->pending;
		tc->pending = p->next;
		p->next = old;
		old = p;
	}
	while (old) {
		p = old;
		old = p->next;
		memcpy(tc->exit_path, p->exit_path, sizeof(tc->exit_path));
		judge_now(tc, p->op, p->op_index, p->rec,
			  p->failing_event ?
			  json_integer((json_int_t)p->failing_event - 1) :
			  json_null());
		wt_record_destroy(p->rec);
		free(p);
	}
}

/* The thread's oracle over h: the last iteration's made new, or one
 * made now; NULL on ENOMEM. */
static struct wt_oracle *oracle_take(struct wt_scn_tctx *tc,
				     const struct wt_history *h)
{
	struct wt_scn_reuse *u = tc->it->reuse;
	struct wt_oracle *o = u ? u->oracle[tc->idx] : NULL;

	if (!o)
		return wt_oracle_create(h);
	u->oracle[tc->idx] = NULL;
	wt_oracle_renew(o, h);
	return o;
}

/*
 * Judge now when the window is published, else keep a copy for after the
 * run.  Hooks are disarmed meanwhile: the oracle reads only published,
 * immutable history, and in sim mode it must not become a scheduling
 * point (nor show in the trace and its digest).  Under store buffers
 * its loads (the log's published version) are the runtime's, not the
 * walker's: direct mode keeps them out of the tso counts, where an
 * oracle that looked at more instants counted more stale loads
 * (tso_stale= of soak/mixed.sim under pso: 245, then 23 once the
 * search stopped at an unknown object, and 17 without them).
 */
static void judge(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
		  unsigned op_index)
{
	const struct wt_history *h = tc->it->world->history;
	struct wt_thread *t = &tc->thread;
	struct wt_tso_buf *tso = wt_tso_self;
	bool armed = t->hook_armed, direct = false;
	struct wt_scn_pending *p;

	if (!h) {
		tc->oracle_not_judged++;
		return;
	}
	wt_thread_arm(t, false);
	if (tso)
		direct = wt_tso_set_direct(tso, true);
	/* made at the thread's first walk: a writer's was made and
	 * dropped every iteration for nothing */
	if (!tc->oracle && !(tc->oracle = oracle_take(tc, h))) {
		tc->oracle_not_judged++;
		goto out;
	}
	if (wt_oracle_ready(h, tc->record)) {
		judge_now(tc, op, op_index, tc->record, wt_scn_event_now(t));
	} else if ((p = calloc(1, sizeof(*p))) &&
		   (p->rec = record_copy(tc->record))) {
		p->op = op;
		p->op_index = op_index;
		p->failing_event = t->trace_buf ? t->trace_buf->total : 0;
		memcpy(p->exit_path, exit_path_of(tc), sizeof(p->exit_path));
		p->next = tc->pending;
		tc->pending = p;
	} else {
		free(p);
		tc->oracle_not_judged++;
	}
out:
	if (tso)
		wt_tso_set_direct(tso, direct);
	wt_thread_arm(t, armed);
}

/*
 * A successful sync umount must have done the final put of its mount
 * itself: a walker that did it instead stole it (the MNT_SYNC_UMOUNT
 * protocol of __legitimize_mnt exists to prevent exactly that).
 */
static void check_sync_umount(struct wt_scn_iter *it)
{
	uint64_t stolen = wt_ops_sync_umount_not_final(it->world);
	char msg[256];
	json_t *f;

	if (!stolen || !it->nthreads)
		return;
	/* named like every check's line: `sync_umount: ...' */
	snprintf(msg, sizeof(msg), "sync_umount: %" PRIu64 " successful sync "
		 "umount%s did not do the final put of the mount (a walker "
		 "did)", stolen, stolen > 1 ? "s" : "");
	it->t[0].checks++;
	f = wt_scn_failure_new(it, "check", "sync_umount", NULL, msg);
	json_object_set_new(f, "failing_event", json_null());
	wt_scn_add_failure(&it->t[0], f);
}

void wt_scn_iter_judge_pending(struct wt_scn_iter *it)
{
	check_sync_umount(it);
	for (unsigned i = 0; i < it->nthreads; i++) {
		struct wt_scn_tctx *tc = &it->t[i];

		judge_pending_list(tc);
	}
}

/* --- walks and verbs --- */

int wt_scn_walk_run(struct wt_task *task, struct wt_path_counts *counts,
		    struct wt_record *record, bool protected_symlinks,
		    const struct wt_scn_walk *wk, const struct path *dir)
{
	struct wt_walker w = {
		.task = task, .stats = counts, .record = record,
		.protected_symlinks = protected_symlinks,
	};
	struct open_how how = { .flags = wk->open_flags, .mode = wk->mode,
				.resolve = wk->resolve };
	unsigned rflags = wt_resolve_lookup_flags(wk->resolve);
	struct open_flags of;
	struct wt_file file;
	struct path p = { 0 };
	struct qstr last;
	int err, type;

	switch (wk->entry) {
	case WT_WALK_STAT:
	case WT_WALK_LSTAT:
		err = filename_lookup(&w, dir, wk->path, rflags |
				      (wk->entry == WT_WALK_STAT ?
				       LOOKUP_FOLLOW : 0), &p, NULL);
		break;
	case WT_WALK_PARENTAT:
		err = filename_parentat(&w, dir, wk->path, 0, &p, &last, &type);
		break;
	case WT_WALK_MOUNTPOINT:
		err = filename_mountpoint(&w, dir, wk->path, 0, &p);
		break;
	case WT_WALK_OPEN:
	case WT_WALK_OPENAT2:
		err = do_openat2(&w, dir, wk->path, &how, &file);
		if (!err)
			wt_file_close(&file);
		return err;
	case WT_WALK_OPEN_ROOT:
		err = build_open_flags(&how, &of);
		if (!err)
			err = do_file_open_root(&w, dir, wk->path, &of, &file);
		if (!err)
			wt_file_close(&file);
		return err;
	default:
		return -EINVAL;
	}
	if (!err)
		path_put(&p);
	return err;
}

static void check_results(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
			  int err)
{
	const struct wt_scenario *s = tc->it->s;

	for (unsigned i = 0; i < s->nexpects; i++) {
		const struct wt_expect *e = &s->expects[i];
		char msg[512];
		json_t *f;

		if (e->kind != WT_EXPECT_RESULT || e->thread != tc->idx ||
		    (e->nth && e->nth != tc->ops))
			continue;
		tc->expect_seen[i] = true;
		if (wt_expect_result_ok(e, err))
			continue;
		tc->expect_bad[i]++;
		tc->mismatches++;
		snprintf(msg, sizeof(msg), "%s: got %s (op %" PRIu64 ": %s)",
			 e->text, wt_scn_errno_name(err), tc->ops, op->text);
		f = wt_scn_failure_new(tc->it, "expectation", NULL,
				       tc->th->name, msg);
		if (op->kind == WT_SCN_OP_WALK)
			json_object_set_new(f, "walk", walk_json(op, tc->record,
								 err));
		json_object_set_new(f, "failing_event", wt_scn_event_now(&tc->thread));
		wt_scn_add_failure(tc, f);
	}
}

/*
 * Append s to buf[n..len) as snprintf(buf + n, len - n, "%s", s) does:
 * cut to fit, terminated; returns n plus the whole length of s.
 */
static size_t append_cut(char *buf, size_t len, size_t n, const char *s)
{
	size_t slen = strlen(s), room = len - n - 1;
	size_t k = slen < room ? slen : room;

	assert(n < len);
	memcpy(buf + n, s, k);
	buf[n + k] = '\0';
	return n + slen;
}

/* The paths whose counters the walk moved, in catalogue order (copied,
 * not printed). */
static void exit_paths(struct wt_scn_tctx *tc,
		       const struct wt_path_counts *before)
{
	size_t n = 0, len = sizeof(tc->exit_path);

	tc->exit_path[0] = '\0';
	for (unsigned p = 0; p < WT_PATH__COUNT && n < len; p++) {
		if (tc->counts.counts[p] == before->counts[p])
			continue;
		if (n)
			n = append_cut(tc->exit_path, len, n, ",");
		if (n < len)
			n = append_cut(tc->exit_path, len, n,
				       wt_path_info(p)->name);
	}
}

/*
 * The exit paths of the walk being checked, made at the first read: a
 * failure of the walk names them, a walk kept to be judged after the run
 * keeps them; most walks have neither, and making them was 1% of a
 * twin's iteration (110 counters compared a walk).  Read only while
 * the walk's checks run (run_walk), or after judge_pending_list copied
 * a kept walk's back.
 */
static const char *exit_path_of(struct wt_scn_tctx *tc)
{
	if (tc->walk_before) {
		exit_paths(tc, tc->walk_before);
		tc->walk_before = NULL;
	}
	return tc->exit_path;
}

static void run_walk(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
		     unsigned idx)
{
	struct wt_path_counts before;
	const struct path *dir = tc->dirs[idx].dentry ? &tc->dirs[idx] : NULL;
	uint64_t points = wt_thread_arrivals(&tc->thread);
	int err;

	wt_record_reset(tc->record);
	tc->record->result = INT32_MIN;
	memcpy(&before, &tc->counts, sizeof(before));
	wt_trace_note(op->text);
	err = wt_scn_walk_run(&tc->task, &tc->counts, tc->record,
			      tc->it->s->protected_symlinks, &op->walk, dir);
	wt_trace_note(NULL);
	tc->walk_before = &before;	/* exit_path_of: made if read */
	tc->ops++;
	tc->walks++;
	if (err == -ECHILD) {
		char msg[256];
		json_t *f;

		/* -ECHILD means "redo in REF-walk", never an answer. */
		snprintf(msg, sizeof(msg), "-ECHILD reached the caller of %s",
			 op->text);
		tc->checks++;
		f = wt_scn_failure_new(tc->it, "check", "echild_leak",
				       tc->th->name, msg);
		json_object_set_new(f, "walk", walk_json(op, tc->record, err));
		json_object_set_new(f, "failing_event",
				    wt_scn_event_now(&tc->thread));
		wt_scn_add_failure(tc, f);
	}
	check_results(tc, op, err);
	/* refused before the engine saw it (openat2's flag checks): no walk */
	if (tc->record->nattempts || tc->record->result == err)
		judge(tc, op, idx);
	wt_scn_check_walk(tc, op, err, points);	/* scenarios/src/checks.h */
	tc->walk_before = NULL;		/* before goes with this frame */
}

static void run_verb(struct wt_scn_tctx *tc, const struct wt_scn_op *op)
{
	int err;

	wt_trace_note(op->text);
	err = wt_scn_verb_exec(op->verb, tc->it->world, &tc->task);
	wt_trace_note(NULL);
	tc->ops++;
	check_results(tc, op, err);
}

/* harness-fault (scenario.h): the harness's own crash or hang, for the
 * tests of crash isolation. */
static void run_fault(struct wt_scn_tctx *tc, const struct wt_scn_op *op)
{
	if (tc->it->seed % op->fault_one_in)
		return;
	tc->ops++;
	if (op->fault == WT_SCN_FAULT_CRASH)
		raise(SIGSEGV);
	if (op->fault == WT_SCN_FAULT_SANITIZER) {
		wt_sanitizer_fault();
		return;
	}
	for (;;)	/* no point again: nothing can switch away */
		sleep(1);
}

/* One pass over the program; false when the run asked to stop. */
static bool run_program(struct wt_scn_tctx *tc)
{
	const struct wt_scn_thread *th = tc->th;
	uint64_t left[WT_SCN_LOOP_DEPTH];
	unsigned depth = 0, pc = 0;

	while (pc < th->nops) {
		const struct wt_scn_op *op = &th->ops[pc];

		if (wt_should_stop())
			return false;
		switch (op->kind) {
		case WT_SCN_OP_WALK:
			run_walk(tc, op, pc++);
			break;
		case WT_SCN_OP_VERB:
			run_verb(tc, op);
			pc++;
			break;
		case WT_SCN_OP_FAULT:
			run_fault(tc, op);
			pc++;
			break;
		case WT_SCN_OP_LOOP:
			left[depth++] = op->count;
			pc++;
			break;
		case WT_SCN_OP_END:
			/* count 0 loops until the run stops, letting the
			 * others run at every turn */
			if (left[depth - 1] == 0)
				wt_yield();
			if (left[depth - 1] == 0 || --left[depth - 1] > 0) {
				pc = op->match + 1;
			} else {
				depth--;
				pc++;
			}
			break;
		}
	}
	return true;
}

void wt_scn_body(struct wt_thread *t, void *arg)
{
	struct wt_scn_tctx *tc = arg;
	uint64_t done = 0;

	(void)t;
	while (run_program(tc)) {
		done++;
		if (tc->th->forever)
			wt_yield();	/* a turn ends: the others may run */
		else if (done >= tc->th->loop)
			break;
	}
	if (!tc->th->forever &&
	    __atomic_sub_fetch(&tc->it->running, 1, __ATOMIC_ACQ_REL) == 0)
		wt_request_stop();
}

/* --- setting an iteration up --- */

static int setup_dirs(struct wt_scn_tctx *tc, struct wt_scn_error *err)
{
	const struct wt_scenario *s = tc->it->s;
	const struct wt_scn_thread *th = tc->th;

	for (unsigned i = 0; i < th->nops; i++) {
		const struct wt_scn_op *op = &th->ops[i];
		int e;

		if (op->kind != WT_SCN_OP_WALK || !op->walk.dir)
			continue;
		e = wt_scn_resolve(tc->it->world, op->walk.dir, &tc->dirs[i]);
		if (e)
			return wt_scn_fail(err, s->file, op->pos, "%s: %s in the "
					   "initial tree", op->walk.dir,
					   wt_scn_errno_name(e));
	}
	if (th->cwd) {
		struct path cwd;
		int e = wt_scn_resolve(tc->it->world, th->cwd, &cwd);

		if (e)
			return wt_scn_fail(err, s->file, th->pos, "cwd %s: %s in "
					   "the initial tree", th->cwd,
					   wt_scn_errno_name(e));
		wt_path_put(&tc->task.pwd);
		tc->task.pwd = cwd;
	}
	return 0;
}

/*
 * A thread's per-iteration arrays in one zeroed block (tc->dirs its
 * start, freed with it): dirs, expect_bad, expect_seen -- three callocs
 * and frees a thread every iteration were one, and none when they fit
 * in the context's own tc->arrays_inline (zeroed with it: most
 * programs are a few ops).  -1 on ENOMEM.
 */
static int thread_arrays(struct wt_scn_tctx *tc, const struct wt_scenario *s)
{
	size_t ndirs = tc->th->nops ? tc->th->nops : 1, nexp = s->nexpects + 1;
	size_t bad = ndirs * sizeof(*tc->dirs);
	size_t seen = bad + nexp * sizeof(*tc->expect_bad);
	size_t size = seen + nexp * sizeof(*tc->expect_seen);
	char *block = size <= sizeof(tc->arrays_inline) ?
		      (char *)tc->arrays_inline : calloc(1, size);

	_Static_assert(_Alignof(struct path) >= _Alignof(uint64_t),
		       "expect_bad follows the dirs");
	_Static_assert(_Alignof(struct path) <= _Alignof(uint64_t),
		       "the dirs start the inline block");
	if (!block)
		return -1;
	tc->dirs = (struct path *)block;
	tc->expect_bad = (uint64_t *)(block + bad);
	tc->expect_seen = (bool *)(block + seen);
	return 0;
}

static int setup_thread(struct wt_scn_iter *it, unsigned i,
			struct wt_scn_error *err)
{
	const struct wt_scenario *s = it->s;
	struct wt_scn_tctx *tc = &it->t[i];
	const struct wt_scn_thread *th = &s->threads[i];

	tc->it = it;
	tc->th = th;
	tc->idx = i;
	/* it->t was zeroed (wt_scn_iter_setup) */
	wt_thread_init_zeroed(&tc->thread, i, th->name);
	tc->thread.role = th->role;
	tc->thread.rcu = wt_rcu_reader_create(it->world->rcu);
	tc->thread.on_violation = violation;
	tc->thread.violation_arg = tc;
	tc->thread.owner = tc;
	wt_task_init(&tc->task, it->world, th->uid, th->gid);
	tc->task_live = true;
	if (it->reuse && it->reuse->record[i]) {
		tc->record = it->reuse->record[i];
		it->reuse->record[i] = NULL;
	} else {
		tc->record = wt_record_create(0, 0);
	}
	if (!tc->thread.rcu || !tc->record || thread_arrays(tc, s))
		return wt_scn_fail(err, s->file, th->pos, "out of memory");
	if (!th->forever)
		it->running++;
	return setup_dirs(tc, err);
}

int wt_scn_iter_setup(struct wt_scn_iter *it, struct wt_scn_error *err)
{
	const struct wt_scenario *s = it->s;

	it->nthreads = s->nthreads;
	it->running = 0;
	it->world = wt_scn_world_build_from(s, it->seed, it->opts->bugs,
					    it->reuse, err);
	if (!it->world)
		return -1;
	if (it->reuse && it->reuse->t && it->reuse->nt == s->nthreads) {
		it->t = memset(it->reuse->t, 0, s->nthreads * sizeof(*it->t));
		it->reuse->t = NULL;
	} else {
		it->t = calloc(s->nthreads, sizeof(*it->t));
	}
	if (!it->t)
		return wt_scn_fail(err, s->file, s->threads[0].pos,
				   "out of memory");
	for (unsigned i = 0; i < s->nthreads; i++)
		if (setup_thread(it, i, err))
			return -1;
	return 0;
}

/*
 * Did a thread of the iteration not finish its body?  A stuck or
 * deadlocked run abandons its fibers at whatever point they reached, a
 * stress watchdog its threads (wt_thread_exit); one that never started
 * is counted too (a setup that failed half-way: nothing ran).  A body
 * that returned has put what it took.
 */
static bool iter_abandoned(const struct wt_scn_iter *it)
{
	for (unsigned i = 0; it->t && i < it->nthreads; i++)
		if (!it->t[i].thread.finished)
			return true;
	return false;
}

/*
 * Teardown of an iteration whose threads may have been abandoned half-way.
 *
 * An abandoned thread may hold a d_lock, a mount_lock write section (odd
 * count), an i_rwsem, references it never put, and it may have stopped in
 * the middle of changing the structures those protect.  Its locks are not
 * released for it: whoever took one next (a dput below) would go on from
 * a half-done update -- a dentry killed but not unhashed, a count raised
 * but not yet stored.  The world is thrown away whole instead: no
 * reference of the threads' is put (no lock is taken), and
 * wt_world_destroy frees every object through the world's lists, which
 * are changed only under list_lock with no point in between, so they are
 * whole whatever the threads were doing.  Only the RCU read sections are
 * ended (wt_rcu_thread_abandoned): each reader's deferred frees must
 * still pass a grace period before its record goes, and an abandoned
 * section would hold every grace period off.  An object an abandoned
 * thread held off every list (between d_alloc and its listing, or
 * between unlisting and call_rcu) is not freed; it is not used again
 * either (the isolated child _exits; the next world is a new one).
 *
 * A failed iteration's world is thrown away whole too (it->failed).  A
 * bug that leaked or lost a reference -- the zoo's unlazy_next_leak --
 * would meet its consequence in a put here: the last put of a mount a
 * lazy umount detached kills its super_block, which finds the leaked
 * dentry still in use.  That invariant fires outside any thread, where
 * it has no iteration left to fail and ends the process (a zoo-bench
 * search of generated workloads did, on a walk's at= directory inside
 * /auto); the failure it would add is already reported.
 * Nothing the next iteration uses is shared with this world: fibers are
 * made again (sim.c), the history's kept storage is re-initialised, the
 * world's kept storage is emptied (wt_world_retire: its objects freed
 * through the lists, its RCU domain reset).
 */
void wt_scn_iter_teardown(struct wt_scn_iter *it)
{
	bool abandoned = iter_abandoned(it);
	bool drop = abandoned || it->failed;

	/* A stuck iteration's threads stopped wherever they were: none may
	 * keep a grace period from passing while the others drain. */
	for (unsigned i = 0; it->t && i < it->nthreads; i++)
		wt_rcu_thread_abandoned(&it->t[i].thread);
	for (unsigned i = 0; it->t && i < it->nthreads; i++) {
		struct wt_scn_tctx *tc = &it->t[i];

		while (tc->pending) {
			struct wt_scn_pending *p = tc->pending;

			tc->pending = p->next;
			wt_record_destroy(p->rec);
			free(p);
		}
		/* Abandoned or failed: the references go with the world
		 * (above). */
		for (unsigned j = 0; !drop && tc->dirs &&
		     j < tc->th->nops; j++)
			if (tc->dirs[j].dentry)
				wt_path_put(&tc->dirs[j]);
		if (tc->dirs != (struct path *)tc->arrays_inline)
			free(tc->dirs);
		if (tc->task_live && !drop)
			wt_task_release(&tc->task);
		/* its snapshots go before the history's rewind either way */
		if (it->reuse && tc->oracle && !it->reuse->oracle[i]) {
			wt_oracle_reset(tc->oracle);
			it->reuse->oracle[i] = tc->oracle;
		} else {
			wt_oracle_destroy(tc->oracle);
		}
		tc->oracle = NULL;
		if (it->reuse && !it->reuse->record[i])
			it->reuse->record[i] = tc->record;
		else
			wt_record_destroy(tc->record);
		tc->record = NULL;
		if (tc->thread.rcu)
			wt_rcu_reader_destroy(tc->thread.rcu);
		/* expect_bad and expect_seen are in the dirs' block */
		json_decref(tc->failures);
	}
	if (it->reuse && !it->reuse->t) {
		it->reuse->t = it->t;
		it->reuse->nt = it->nthreads;
	} else {
		free(it->t);
	}
	it->t = NULL;
	if (it->world)
		wt_scn_world_destroy_keep(it->world, it->reuse);
	it->world = NULL;
}

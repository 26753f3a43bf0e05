/* SPDX-License-Identifier: MIT */
/*
 * The runner: a scenario's iterations under wt_run, the sums, the
 * expectations, and the rcutorture-style lines.
 *
 * Each iteration gets a fresh world built from the tree (seeded with the
 * iteration seed), one wt_thread + wt_task + RCU reader + exit-path
 * counters + step record per thread (body.c), and runs under the
 * scenario's rules, schedule and policy.  Sim runs go untraced (the
 * digest is computed anyway); an iteration that failed is run again with
 * the trace on -- the same seed gives the same interleaving -- so its
 * failure records carry a trace window, and a rerun whose digest differs
 * is itself an anomaly.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/oracle.h"
#include "core/record.h"
#include "scenarios/src/checks.h"
#include "scenarios/src/explore.h"
#include "scenarios/src/iter.h"
#include "scenarios/src/triage.h"
#include "sim/history.h"
#include "sim/sched/interrupt.h"
#include "sim/sched/run.h"

uint64_t wt_scn_seed(uint64_t run_seed, const char *name)
{
	uint64_t h = wt_fnv1a(WT_FNV1A_INIT, name, strlen(name));

	return wt_seed_derive(run_seed, WT_SCN_SEED_TAG +
			      (uint32_t)(h ^ (h >> 32)));
}

enum wt_scn_mode wt_scn_mode_of(const struct wt_scenario *s,
				const struct wt_scn_opts *o)
{
	return o->mode >= 0 ? (enum wt_scn_mode)o->mode : s->mode;
}

enum wt_scn_memory wt_scn_memory_of(const struct wt_scenario *s,
				    const struct wt_scn_opts *o,
				    enum wt_scn_mode mode)
{
	if (mode == WT_SCN_STRESS)
		return WT_SCN_SC;
	return o && o->memory >= 0 ? (enum wt_scn_memory)o->memory : s->memory;
}

const char *wt_scn_memory_str(enum wt_scn_memory m)
{
	return m == WT_SCN_PSO ? "pso" : m == WT_SCN_TSO ? "tso" : "sc";
}

const char *wt_scn_memory_name(const struct wt_scn_result *r)
{
	if (r->mode == WT_SCN_STRESS)
		return "hw";
	return wt_scn_memory_str(r->memory);
}

static const char *const policy_names[WT_SCN_POLICY__COUNT] = {
	[WT_SCN_RANDOM] = "random", [WT_SCN_PCT] = "pct",
	[WT_SCN_DIRECTED] = "directed", [WT_SCN_POS] = "pos",
	[WT_SCN_EXPLORE] = "explore",
};

const char *wt_scn_policy_name(enum wt_scn_policy p)
{
	return (unsigned)p < WT_SCN_POLICY__COUNT ? policy_names[p] : "?";
}

int wt_scn_policy_parse(const char *s)
{
	for (int i = 0; i < WT_SCN_POLICY__COUNT; i++)
		if (!strcmp(s, policy_names[i]))
			return i;
	return -1;
}

enum wt_scn_policy wt_scn_policy_of(const struct wt_scenario *s,
				    const struct wt_scn_opts *o)
{
	if (!o || !o->policy_set || s->policy == WT_SCN_DIRECTED)
		return s->policy;
	return (enum wt_scn_policy)o->policy;
}

/* ` --policy P' when s runs under another policy than its replay would
 * load it with: the command line chose it, or s is an explore twin (a
 * replay's --undirected loads the PCT twin). */
static const char *policy_arg(const struct wt_scenario *s,
			      const struct wt_scn_opts *o, char *buf,
			      size_t len)
{
	enum wt_scn_policy p = wt_scn_policy_of(s, o);
	enum wt_scn_policy loaded = s->twin_of ? WT_SCN_PCT : s->policy;

	buf[0] = '\0';
	if (p != loaded)
		snprintf(buf, len, " --policy %s", wt_scn_policy_name(p));
	return buf;
}

/* ` --memory M' when the command line chose the memory model: a replay
 * must run under the model the failure happened under. */
static const char *memory_arg(const struct wt_scn_opts *o)
{
	if (!o || o->memory < 0)
		return "";
	return o->memory == WT_SCN_PSO ? " --memory pso" :
	       o->memory == WT_SCN_TSO ? " --memory tso" : " --memory sc";
}

/* " FILE[ --bug NAME][ --memory M][ --undirected][ --policy P]
 * [ --preempts SPEC]", shell-quoted where needed: the tail shared by
 * replay and run commands (a twin's file is its directed scenario's;
 * SPEC an explore iteration's schedule, explore.h). */
static void file_args(char *buf, size_t len, const struct wt_scenario *s,
		      const struct wt_scn_opts *o)
{
	char file[1024], bug[128] = "", pol[64], spec[WT_EXPLORE_SPEC_MAX];
	char pre[WT_EXPLORE_SPEC_MAX + 64] = "";

	wt_scn_shell_quote(file, sizeof(file), s->file);
	if (o && o->bug)
		wt_scn_shell_quote(bug, sizeof(bug), o->bug);
	if (o && o->npreempts && wt_scn_policy_of(s, o) == WT_SCN_EXPLORE &&
	    !wt_explore_format(s, o->preempts, o->npreempts, spec,
			       sizeof(spec))) {
		memcpy(pre, " --preempts ", 12);
		wt_scn_shell_quote(pre + 12, sizeof(pre) - 12, spec);
	}
	snprintf(buf, len, " %s%s%s%s%s%s%s", file, bug[0] ? " --bug " : "",
		 bug, memory_arg(o), s->twin_of ? " --undirected" : "",
		 policy_arg(s, o, pol, sizeof(pol)), pre);
}

void wt_scn_replay_cmd(char *buf, size_t len, const struct wt_scenario *s,
		       uint64_t iteration_seed, const struct wt_scn_opts *o)
{
	char tail[3072];

	file_args(tail, sizeof(tail), s, o);
	snprintf(buf, len, "walktorture replay %#" PRIx64 "%s", iteration_seed,
		 tail);
}

double wt_scn_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- one iteration --- */

static void cpus_of(const struct wt_scenario *s, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < s->nthreads; i++) {
		if (s->threads[i].cpu < 0) {
			buf[0] = '\0';	/* any thread unpinned: spread all */
			return;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "",
				      s->threads[i].cpu);
		if (n >= len)
			return;
	}
}

static void reuse_destroy(struct wt_scn_reuse *u)
{
	if (!u)
		return;
	wt_run_cache_destroy(u->run);
	for (unsigned i = 0; i < WT_SCN_THREADS_MAX; i++) {
		wt_record_destroy(u->record[i]);
		wt_oracle_destroy(u->oracle[i]);
	}
	wt_history_destroy(u->history);
	wt_world_destroy(u->world);
	wt_scn_reuse_tree_free(u);
	free(u->t);
	free(u);
}

static struct wt_scn_reuse *reuse_create(void)
{
	struct wt_scn_reuse *u = calloc(1, sizeof(*u));

	if (u && !(u->run = wt_run_cache_create())) {
		reuse_destroy(u);
		u = NULL;
	}
	return u;
}

/* The stress watchdog's report, where the parent finds it if this
 * child never gets to send its result (isolate.c's hang). */
static void keep_stuck(const char *report, void *arg)
{
	struct wt_scn_live *live = arg;
	size_t n = strnlen(report, sizeof(live->stuck) - 1);

	memcpy(live->stuck, report, n);
	live->stuck[n] = '\0';
	__atomic_store_n(&live->stuck_len, (uint32_t)n, __ATOMIC_RELEASE);
}

static void make_config(struct wt_run_config *cfg, const struct wt_scenario *s,
			const struct wt_scn_opts *o, enum wt_scn_mode mode,
			uint64_t seed, uint64_t pct_steps, bool traced,
			char *cpus, size_t cpus_len)
{
	static const enum wt_policy policies[] = {
		[WT_SCN_RANDOM] = WT_POLICY_RANDOM, [WT_SCN_PCT] = WT_POLICY_PCT,
		[WT_SCN_DIRECTED] = WT_POLICY_DIRECTED,
		[WT_SCN_POS] = WT_POLICY_POS, [WT_SCN_EXPLORE] = WT_POLICY_POS,
	};
	enum wt_scn_policy policy = wt_scn_policy_of(s, o);
	struct wt_run_config init = WT_RUN_CONFIG_INIT;

	*cfg = init;
	cfg->backend = mode == WT_SCN_STRESS ? WT_BACKEND_STRESS
					     : WT_BACKEND_SIM;
	cfg->seed = seed;	/* the iteration seed: see runner.h */
	cfg->iteration = 0;
	cfg->policy = policies[policy];
	if (policy == WT_SCN_EXPLORE && mode == WT_SCN_SIM) {
		cfg->preempts = o->preempts;
		cfg->npreempts = o->npreempts;
	}
	cfg->random_switch_p = s->switch_p;
	cfg->pct_depth = s->pct_depth;
	cfg->pct_steps = pct_steps ? pct_steps : s->pct_steps;
	cfg->step_ns = s->step_ns;
	cfg->rules = s->rules;
	cfg->nrules = s->nrules;
	cfg->schedule = s->schedule;
	cfg->trace = traced;
	/* made when a failure or a replay needs it (run_iteration) */
	cfg->trace_on_demand = traced;
	cfg->trace_capacity = o->replay || mode == WT_SCN_STRESS ? (1u << 20) : 0;
	cfg->replay = o->order;
	cfg->nreplay = o->norder;
	cfg->count_hits = true;
	cfg->hits_by_thread = true;	/* summed where they are added up */
	cfg->max_points = s->max_points;
	cfg->timeout_ms = s->timeout_ms;
	if (o->live) {
		cfg->stuck = keep_stuck;
		cfg->stuck_arg = o->live;
	}
	cfg->bugs = o->bugs;	/* the primitives' zoo bits (sim/tso.h) */
	switch (wt_scn_memory_of(s, o, mode)) {
	case WT_SCN_PSO:
		cfg->memory = WT_MEMORY_PSO;
		break;
	case WT_SCN_TSO:
		cfg->memory = WT_MEMORY_TSO;
		break;
	default:
		cfg->memory = WT_MEMORY_SC;
	}
	cfg->tso_flush_p = s->flush_p;
	if (o->cpus) {
		snprintf(cpus, cpus_len, "%s", o->cpus);
	} else {
		cpus_of(s, cpus, cpus_len);
	}
	cfg->cpus = cpus[0] ? cpus : NULL;
}

struct iter_out {
	json_t *failures;	/* this iteration's, capped; NULL: none yet
				 * (most iterations have none) */
	uint64_t nfailures;
	uint64_t digest;
	uint64_t points;	/* points passed, all threads */
	bool failed;
	struct wt_trace *trace;	/* traced runs: taken from the result */
	char diverged[300];	/* replay --order: where it left the order;
				 * last (only emptied: iter_out_free) */
};
_Static_assert(sizeof(struct iter_out) - offsetof(struct iter_out, diverged) <
	       sizeof(((struct iter_out *)0)->diverged) + 8,
	       "a field after diverged");

/* io->failures, made at its first failure; NULL on ENOMEM (the
 * append then drops the record, as an append to a full heap would). */
static json_t *io_failures(struct iter_out *io)
{
	if (!io->failures)
		io->failures = json_array();
	return io->failures;
}

static void status_failure(struct wt_scn_iter *it,
			   const struct wt_run_result *res, struct iter_out *io)
{
	static const char *const kinds[] = {
		[WT_RUN_DEADLOCK] = "deadlock", [WT_RUN_STUCK] = "stuck",
		[WT_RUN_SCHEDULE_ERROR] = "check",
		[WT_RUN_CONFIG_ERROR] = "check",
	};
	char msg[sizeof(res->report) + 32];
	json_t *f;

	/* the report names the status itself */
	snprintf(msg, sizeof(msg), "%s", res->report[0] ? res->report :
		 wt_run_status_name(res->status));
	f = wt_scn_failure_new(it, kinds[res->status],
			       res->status == WT_RUN_SCHEDULE_ERROR ? "schedule" :
			       res->status == WT_RUN_CONFIG_ERROR ? "config" : NULL,
			       NULL, msg);
	json_object_set_new(f, "failing_event",
			    res->trace && res->trace->total ?
			    json_integer((json_int_t)res->trace->total - 1) :
			    json_null());
	io->nfailures++;
	json_array_append_new(io_failures(io), f);
}

/* A twin's targets: this iteration's count of each, and whether it
 * happened at all. */
static void count_targets(struct wt_scn_result *r, const struct wt_scn_iter *it)
{
	const struct wt_scenario *s = it->s;

	for (unsigned k = 0; k < s->ntargets; k++) {
		uint64_t n = 0;

		for (unsigned i = 0; i < it->nthreads; i++)
			n += it->t[i].counts.counts[s->targets[k]];
		r->target_count[k] += n;
		if (!n)
			continue;
		r->target_iterations[k]++;
		if (!r->target_first[k])
			r->target_first[k] = it->index + 1;
	}
}

/* Fold the iteration's sums into r. */
/* to[i] += from[i], two at a time (gcc -O2 does not vectorise it). */
static void add_counts(uint64_t *restrict to, const uint64_t *restrict from,
		       size_t n)
{
	size_t i = 0;

	for (; i + 2 <= n; i += 2) {
		uint64_t a = from[i], b = from[i + 1];

		to[i] += a;
		to[i + 1] += b;
	}
	if (i < n)
		to[i] += from[i];
}

static void accumulate(struct wt_scn_result *r, struct wt_scn_iter *it,
		       const struct wt_run_result *res)
{
	uint64_t vmax = 0;

	for (unsigned i = 0; i < it->nthreads; i++) {
		struct wt_scn_tctx *tc = &it->t[i];

		/* only walks count paths: a thread that finished without
		 * one (a writer) has none to add */
		if (tc->walks || !tc->thread.finished)
			add_counts(r->paths, tc->counts.counts, WT_PATH__COUNT);
		r->walks += tc->walks;
		r->ops += tc->ops;
		r->thread_ops[i] += tc->ops;
		r->oracle_ok += tc->oracle_ok;
		r->oracle_rejected += tc->oracle_rejected;
		r->oracle_reordered += tc->oracle_reordered;
		r->oracle_not_judged += tc->oracle_not_judged;
		r->checks += tc->checks;
		r->result_mismatches += tc->mismatches;
		for (unsigned e = 0; e < it->s->nexpects; e++)
			r->expect_bad[e] += tc->expect_bad[e];
		if (res->threads[i].clock_ns > vmax)
			vmax = res->threads[i].clock_ns;
	}
	r->virtual_ns += vmax;
	count_targets(r, it);
	r->tso_stores += res->tso_stores;
	r->tso_stale += res->tso_stale;
	r->tso_flush_events += res->tso_flush_events;
	r->fair_demotions += res->fair_demotions;
	r->deadlocks += res->status == WT_RUN_DEADLOCK;
	r->stuck += res->status == WT_RUN_STUCK;
	r->schedule_errors += res->status == WT_RUN_SCHEDULE_ERROR;
	if (res->pct_bound > 0)
		r->pct_bound = res->pct_bound;
	if (res->binding[0])
		snprintf(r->binding, sizeof(r->binding), "%s", res->binding);
}

/* `result T[K]': an iteration in which T finished without a K-th op
 * (counted in unseen unless NULL: a traced rerun makes the records again,
 * the counts are the first run's). */
static void unseen_ops(struct wt_scn_iter *it, const struct wt_run_result *res,
		       struct iter_out *io, uint64_t *unseen)
{
	const struct wt_scenario *s = it->s;

	for (unsigned i = 0; i < s->nexpects; i++) {
		const struct wt_expect *e = &s->expects[i];
		struct wt_scn_tctx *tc = &it->t[e->thread];
		char msg[512];

		if (e->kind != WT_EXPECT_RESULT || !e->nth ||
		    tc->expect_seen[i] || !res->threads[e->thread].finished)
			continue;
		if (unseen)
			unseen[i]++;
		snprintf(msg, sizeof(msg), "%s: thread %s did only %" PRIu64
			 " ops", e->text, tc->th->name, tc->ops);
		io->nfailures++;
		json_array_append_new(io_failures(io), wt_scn_failure_new(it,
			"expectation", NULL, tc->th->name, msg));
	}
}

/* The explorer's extra items: each thread's exit paths taken. */
static void explore_feed(struct wt_explore *ex, const struct wt_scn_opts *o,
			 const struct wt_scn_iter *it,
			 const struct wt_run_result *res)
{
	uint64_t extra[WT_SCN_THREADS_MAX * 16];
	unsigned n = 0;

	for (unsigned i = 0; i < it->nthreads; i++)
		for (unsigned p = 0; p < WT_PATH__COUNT; p++)
			if (it->t[i].counts.counts[p] &&
			    n < sizeof(extra) / sizeof(extra[0]))
				extra[n++] = wt_run_feedback_item(WT_FB_PATH, p,
								  i, 0, 0);
	wt_explore_feed(ex, o->preempts, o->npreempts, it->seed, res, extra, n);
}

/* ex: the explore loop's state, fed with the iteration's feedback. */
/*
 * A traced sim run keeps its trace in the cache's ring (trace_on_demand):
 * made for a replay, and for an iteration with a failure to show it
 * with (a status failure's event index, every record's window); the
 * rest pass and never read it.
 */
static void take_trace(const struct wt_run_config *cfg,
		       struct wt_run_result *res, bool wanted)
{
	if (wanted && cfg->trace_on_demand && cfg->cache && !res->trace)
		res->trace = wt_run_cache_trace(cfg->cache);
}

static int run_iteration(struct wt_scn_result *r, const struct wt_scenario *s,
			 const struct wt_scn_opts *o, enum wt_scn_mode mode,
			 uint64_t index, uint64_t seed, bool traced,
			 bool sum, uint64_t *unseen, struct iter_out *io,
			 struct wt_explore *ex)
{
	struct wt_scn_iter it = { .s = s, .opts = o, .index = index,
				  .seed = seed, .traced = traced,
				  .reuse = r->reuse };
	struct wt_thread *ts[WT_SCN_THREADS_MAX];
	void *args[WT_SCN_THREADS_MAX];
	struct wt_scn_error err;	/* not zeroed: only read once set */
	struct wt_run_config cfg;
	struct wt_run_result res;
	char cpus[256];

	err.text[0] = '\0';
	err.set = false;
	/* the text emptied, not cleared (read only to its end) */
	memset(io, 0, offsetof(struct iter_out, diverged));
	io->diverged[0] = '\0';
	if (wt_scn_iter_setup(&it, &err)) {
		fprintf(stderr, "%s\n", err.text);
		wt_scn_iter_teardown(&it);
		return -1;
	}
	for (unsigned i = 0; i < it.nthreads; i++) {
		ts[i] = &it.t[i].thread;
		args[i] = &it.t[i];
	}
	make_config(&cfg, s, o, mode, seed, r->pct_steps, traced, cpus,
		    sizeof(cpus));
	cfg.feedback = ex != NULL;	/* no decision depends on it */
	cfg.cache = r->reuse ? r->reuse->run : NULL;
	/* sim: counted straight into the sums (r->npoints is every id),
	 * when nothing needs a thread's own row (wt_run decides) */
	cfg.hits_sum = sum ? r->points : NULL;
	wt_run(&cfg, it.nthreads, ts, wt_scn_body, args, &res);
	wt_scn_iter_judge_pending(&it);
	wt_scn_check_quiescence(&it, res.status == WT_RUN_OK);	/* checks.h */
	if (res.status == WT_RUN_CONFIG_ERROR) {
		fprintf(stderr, "walktorture: %s: !!! %s\n", s->name, res.report);
		wt_run_result_free(&res);
		wt_scn_iter_teardown(&it);
		return -1;
	}
	take_trace(&cfg, &res, o->replay || res.status != WT_RUN_OK);
	/* a halt's failure is the check's that halted it (wt_halt) */
	if (res.status != WT_RUN_OK && res.status != WT_RUN_HALTED)
		status_failure(&it, &res, io);
	for (unsigned i = 0; i < it.nthreads; i++) {
		size_t k;
		json_t *f;

		io->nfailures += it.t[i].nfailures;
		json_array_foreach(it.t[i].failures, k, f)
			json_array_append(io_failures(io), f);
	}
	unseen_ops(&it, &res, io, sum ? unseen : NULL);
	take_trace(&cfg, &res, io->nfailures > 0);
	if (sum)
		accumulate(r, &it, &res);
	if (ex && res.status != WT_RUN_CONFIG_ERROR)
		explore_feed(ex, o, &it, &res);
	io->digest = res.digest;
	/* in place (hits_sum), or by thread (make_config): added here,
	 * cleared for the next run */
	io->points = wt_run_take_hits(&res, sum ? r->points : NULL, r->npoints);
	io->failed = io->nfailures > 0;
	it.failed = io->failed;
	io->trace = res.trace;
	res.trace = NULL;
	if (res.diverged)
		snprintf(io->diverged, sizeof(io->diverged), "event %zu: %s",
			 res.diverged_at, res.diverge_report);
	wt_run_result_free(&res);
	wt_scn_iter_teardown(&it);
	return 0;
}

/* --- trace windows --- */

static const char *rel(const char *file)
{
	size_t n = strlen(WT_SOURCE_DIR);

	if (!strncmp(file, WT_SOURCE_DIR, n) && file[n] == '/')
		return file + n + 1;
	return file;
}

/* The index of thread name in s, or -1 (no thread, or not one of s's). */
static int thread_index(const struct wt_scenario *s, const char *name)
{
	for (unsigned i = 0; name && i < s->nthreads; i++)
		if (!strcmp(s->threads[i].name, name))
			return (int)i;
	return -1;
}

/*
 * The event a failure was found at, in the whole trace.  Its record
 * holds the trace's latest event when it was made (failing_event), and
 * for a check fired at a point that point (failing_point).  The latest
 * event may be another thread's -- in sim mode the failing thread ran on
 * from its own last point after others reached theirs -- and a check at
 * a point fires before the arrival there is recorded.  So: the failing
 * thread's arrival at the check's point when that is its next event,
 * else its latest event so far; a record without a thread or position
 * (found after the run) keeps the trace's last event.
 */
static uint64_t failing_index(const struct wt_scenario *s,
			      const struct wt_trace *tr, json_t *f)
{
	uint64_t first = tr->total - tr->n, fail, k;
	json_t *ev = json_object_get(f, "failing_event");
	json_t *pt = json_object_get(f, "failing_point");
	int t = thread_index(s, json_string_value(json_object_get(f, "thread")));

	if (!json_is_integer(ev) || json_integer_value(ev) < 0)
		return tr->total - 1;
	fail = (uint64_t)json_integer_value(ev);
	if (fail >= tr->total)
		return tr->total - 1;
	if (t < 0 || fail < first)
		return fail;
	for (k = fail + 1; json_is_integer(pt) && k < tr->total; k++) {
		const struct wt_trace_event *e = &tr->ev[k - first];

		if (e->thread != (uint32_t)t)
			continue;
		if (e->point == (uint32_t)json_integer_value(pt))
			return k;
		break;
	}
	for (k = fail + 1; k-- > first;)
		if (tr->ev[k - first].thread == (uint32_t)t)
			return k;
	return fail;
}

static json_t *trace_window(const struct wt_scenario *s,
			    const struct wt_trace *tr, json_t *f)
{
	uint64_t first = tr->total - tr->n, fail, lo, hi;
	json_t *names = json_array(), *evs = json_array();

	for (unsigned i = 0; i < s->nthreads; i++)
		json_array_append_new(names, json_string(s->threads[i].name));
	fail = failing_index(s, tr, f);
	lo = fail > first + WT_SCN_TRACE_BEFORE ? fail - WT_SCN_TRACE_BEFORE
						 : first;
	hi = fail + WT_SCN_TRACE_AFTER < tr->total ? fail + WT_SCN_TRACE_AFTER + 1
						   : tr->total;
	for (uint64_t k = lo; k < hi; k++) {
		const struct wt_trace_event *e = &tr->ev[k - first];
		const struct wt_point *p = wt_point_by_id(e->point);
		const char *note = wt_trace_event_note(tr, e);
		char site[256];

		snprintf(site, sizeof(site), "%s:%u", p ? rel(p->file) : "-",
			 p ? p->line : 0);
		json_array_append_new(evs, json_pack("{s:I, s:I, s:i, s:s, s:s, "
			"s:s, s:s?, s:n, s:b}",
			"t", (json_int_t)e->seq, "clock_ns", (json_int_t)e->time_ns,
			"thread", (int)e->thread, "point", wt_point_name(p),
			"kind", p ? wt_point_kind_name(p->kind) : "?",
			"site", site, "op", note, "step",
			"wait", (e->flags & WT_EV_WAIT) != 0));
	}
	return json_pack("{s:s, s:o, s:I, s:I, s:o, s:I, s:I}",
			 "time_unit", "virtual", "threads", names,
			 "total_events", (json_int_t)tr->total,
			 "dropped", (json_int_t)tr->dropped, "events", evs,
			 "first_index", (json_int_t)lo,
			 "failing_event", (json_int_t)fail);
}

static void attach_traces(const struct wt_scenario *s, struct iter_out *io)
{
	size_t i;
	json_t *f;

	json_array_foreach(io->failures, i, f) {
		if (io->trace && io->trace->n)
			json_object_set_new(f, "trace",
					    trace_window(s, io->trace, f));
		json_object_del(f, "failing_event");
		json_object_del(f, "failing_point");
	}
}

/*
 * Keep a record: the first `keep' of the run, and past them the first of
 * each signature (bounded by WT_SCN_GROUPS_MAX), which becomes its
 * group's representative.
 */
static void keep_one(struct wt_scn_result *r, json_t *f, unsigned keep)
{
	json_t *g = wt_scn_group(r->groups,
				 json_string_value(json_object_get(f, "signature")));
	size_t n = json_array_size(r->failures);
	bool first = g && json_is_null(json_object_get(g, "representative"));

	if (n >= keep && !(first && n < (size_t)keep + WT_SCN_GROUPS_MAX))
		return;
	json_array_append(r->failures, f);
	wt_scn_group_represent(g, n);
}

static void keep_failures(struct wt_scn_result *r, struct iter_out *io,
			  unsigned keep)
{
	size_t i;
	json_t *f;

	wt_scn_sign_all(io->failures);	/* before failing_point goes */
	wt_scn_groups_count(r->groups, io->failures);
	attach_traces(r->s, io);
	r->nfailures += io->nfailures;
	r->failing_iterations += io->failed;
	json_array_foreach(io->failures, i, f)
		keep_one(r, f, keep);
}

static void iter_out_free(struct iter_out *io)
{
	json_decref(io->failures);
	wt_trace_free(io->trace);
	memset(io, 0, offsetof(struct iter_out, diverged));
	io->diverged[0] = '\0';
}

/* --- the budget --- */

struct budget {
	uint64_t iterations;	/* 0: no count */
	uint64_t duration_ns;
	uint64_t virtual_ns;
};

static struct budget budget_of(const struct wt_scenario *s,
			       const struct wt_scn_opts *o, enum wt_scn_mode mode)
{
	struct budget b = { s->iterations, s->duration_ns, s->virtual_ns };

	/* stress has no virtual clock: the same amount of real time */
	if (mode == WT_SCN_STRESS && b.virtual_ns) {
		b.duration_ns = b.duration_ns ? b.duration_ns : b.virtual_ns;
		b.virtual_ns = 0;
	}

	if (o->nightly && s->nightly_iterations)
		b.iterations = s->nightly_iterations;
	if (o->nightly && s->nightly_duration_ns)
		b.duration_ns = s->nightly_duration_ns;
	if (o->iterations) {
		b.iterations = o->iterations;
		b.duration_ns = b.virtual_ns = 0;
	} else if (o->duration_ns) {
		b.duration_ns = o->duration_ns;
		b.iterations = b.virtual_ns = 0;
	}
	if (o->replay) {
		b.iterations = 1;
		b.duration_ns = b.virtual_ns = 0;
	}
	if (!b.iterations && !b.duration_ns && !b.virtual_ns)
		b.iterations = 1;
	return b;
}

static bool budget_done(const struct budget *b, const struct wt_scn_result *r,
			double t0)
{
	if (b->iterations && r->iterations >= b->iterations)
		return true;
	if (b->duration_ns && (wt_scn_now_s() - t0) * 1e9 >= (double)b->duration_ns)
		return true;
	if (b->virtual_ns && r->virtual_ns >= b->virtual_ns)
		return true;
	return false;
}

static void progress(const struct wt_scenario *s, const struct wt_scn_opts *o,
		     const struct budget *b, const struct wt_scn_result *r,
		     double t0, double *last)
{
	double t = wt_scn_now_s(), eta = -1;

	if (t - *last < 0.25)
		return;
	*last = t;
	if (b->iterations && r->iterations)
		eta = (t - t0) / (double)r->iterations *
		      (double)(b->iterations - r->iterations);
	else if (b->duration_ns)
		eta = (double)b->duration_ns * 1e-9 - (t - t0);
	fprintf(stderr, "\r\033[Kwalktorture: ");
	if (o->progress_n)
		fprintf(stderr, "[%u/%u %.0fs] ", o->progress_k, o->progress_n,
			t - o->progress_t0);
	fprintf(stderr, "%s iteration %" PRIu64, s->name, r->iterations);
	if (b->iterations)
		fprintf(stderr, "/%" PRIu64, b->iterations);
	fprintf(stderr, " failures=%" PRIu64, r->nfailures);
	if (eta >= 0)
		fprintf(stderr, " eta=%.0fs", eta);
	fflush(stderr);
}

/* --- expectations --- */

static const char *const cmp_names[] = {
	[WT_CMP_EQ] = "==", [WT_CMP_NE] = "!=", [WT_CMP_GE] = ">=",
	[WT_CMP_LE] = "<=", [WT_CMP_GT] = ">", [WT_CMP_LT] = "<",
};

/*
 * The iterations a file's counts are written for: its budget's, 1 when
 * it has none; 0 when its budget is a time (no count of iterations).
 */
static uint64_t counted_over(const struct wt_scenario *s)
{
	if (s->iterations)
		return s->iterations;
	return s->duration_ns || s->virtual_ns ? 0 : 1;
}

/*
 * Is expectation e's count held to a rate in r?  A count in a file is
 * written for the file's own budget of *b iterations: `path rcu.ok == 1'
 * in a file of one iteration says one an iteration.  A run of *i
 * iterations instead (--iterations, a nightly's budget) is held to the
 * same rate -- except a lower bound when *i > *b (what the file asks for
 * in B iterations is still owed in more, not multiplied), a file
 * budgeted in time (no B), and a run of the file's own budget.
 */
static bool count_scaled(const struct wt_expect *e,
			 const struct wt_scn_result *r, uint64_t *b,
			 uint64_t *i)
{
	*b = counted_over(r->s);
	*i = r->iterations;
	return *b && *i && *b != *i &&
	       !((e->cmp == WT_CMP_GE || e->cmp == WT_CMP_GT) && *i > *b);
}

/*
 * Does count v hold?  Held to a rate (count_scaled): == and != compare
 * v * B with N * I; an upper bound allows N * I / B rounded up; a lower
 * bound (only when I < B) asks for N * I / B rounded down -- a rare path
 * the file asks for once in 300 iterations cannot be owed in 3.
 */
static bool count_holds(const struct wt_expect *e,
			const struct wt_scn_result *r, uint64_t v)
{
	typedef unsigned __int128 u128;
	uint64_t b, i;
	u128 n = e->value;

	if (!count_scaled(e, r, &b, &i))
		return wt_cmp_holds(e->cmp, v, e->value);
	switch (e->cmp) {
	case WT_CMP_EQ:
		return (u128)v * b == n * i;
	case WT_CMP_NE:
		return (u128)v * b != n * i;
	case WT_CMP_GT:		/* > N is >= N + 1 */
		n++;
		/* fall through */
	case WT_CMP_GE:
		return v >= n * i / b;
	case WT_CMP_LT:		/* < N is <= N - 1 */
		if (!n)
			return false;
		n--;
		/* fall through */
	case WT_CMP_LE:
		return v <= (n * i + b - 1) / b;
	}
	return false;
}

/* " (N per B iterations, over I)" when count_holds held it to a rate. */
static void scaled_note(const struct wt_expect *e,
			const struct wt_scn_result *r, char *actual, size_t len)
{
	size_t n = strlen(actual);
	uint64_t b, i;

	if (!count_scaled(e, r, &b, &i) || e->value == 0 || n >= len)
		return;
	snprintf(actual + n, len - n, " (%s %" PRIu64 " per %" PRIu64
		 " iteration%s, over %" PRIu64 ")", cmp_names[e->cmp], e->value,
		 b, b == 1 ? "" : "s", i);
}

static bool eval_path(const struct wt_expect *e, const struct wt_scn_result *r,
		      char *actual, size_t len)
{
	size_t n = 0;
	bool ok = true;

	actual[0] = '\0';
	for (unsigned i = 0; i < e->npaths; i++) {
		uint64_t v = r->paths[e->paths[i]];

		if (count_holds(e, r, v))
			continue;
		ok = false;
		if (n < len)
			n += (size_t)snprintf(actual + n, len - n, "%s%s=%" PRIu64,
				n ? " " : "", wt_path_info(e->paths[i])->name, v);
	}
	if (e->npaths == 1)
		snprintf(actual, len, "%" PRIu64, r->paths[e->paths[0]]);
	else if (ok)
		snprintf(actual, len, "all %u %s %" PRIu64, e->npaths,
			 cmp_names[e->cmp], e->value);
	scaled_note(e, r, actual, len);
	return ok;
}

static bool eval_one(const struct wt_expect *e, const struct wt_scn_result *r,
		     uint64_t unseen, char *actual, size_t len)
{
	uint64_t v = 0;

	switch (e->kind) {
	case WT_EXPECT_PATH:
		return eval_path(e, r, actual, len);
	case WT_EXPECT_POINT:
		for (uint32_t p = 0; p < r->npoints; p++)
			if (wt_point_set_has(&e->points, p))
				v += r->points[p];
		snprintf(actual, len, "%" PRIu64, v);
		scaled_note(e, r, actual, len);
		return count_holds(e, r, v);
	case WT_EXPECT_WALKS:
		snprintf(actual, len, "%" PRIu64, r->walks);
		scaled_note(e, r, actual, len);
		return count_holds(e, r, r->walks);
	case WT_EXPECT_RESULT:
		/* the per-op mismatches are counted in expect_bad */
		return unseen == 0;
	case WT_EXPECT_ORACLE:
		snprintf(actual, len, "judged=%" PRIu64 " rejected=%" PRIu64
			 " not_judged=%" PRIu64 " checks=%" PRIu64,
			 r->oracle_ok + r->oracle_rejected, r->oracle_rejected,
			 r->oracle_not_judged, r->checks);
		return !r->oracle_rejected && !r->oracle_not_judged &&
		       !r->checks;
	}
	return false;
}

/* A scenario-level failure: its replay is the whole run when the count
 * is over several iterations. */
static json_t *aggregate_failure(const struct wt_scn_result *r,
				 const struct wt_scn_opts *o, const char *msg,
				 uint64_t run_seed)
{
	char replay[3584], seed[24], tail[3072];
	/* a replay's one iteration runs under the seed it was given */
	uint64_t iseed = o->replay ? r->seed : wt_seed_iteration(r->seed, 0);

	if (r->iterations == 1) {
		wt_scn_replay_cmd(replay, sizeof(replay), r->s, iseed, o);
	} else {
		file_args(tail, sizeof(tail), r->s, o);
		snprintf(replay, sizeof(replay), "walktorture run%s --seed %#"
			 PRIx64 " --mode %s --iterations %" PRIu64, tail,
			 run_seed, r->mode == WT_SCN_STRESS ? "stress" : "sim",
			 r->iterations);
	}
	snprintf(seed, sizeof(seed), "%#" PRIx64,
		 r->iterations == 1 ? iseed : r->seed);
	/* Every iteration ran under the scenario's schedule (if any), so a
	 * count summed over several still has one. */
	return json_pack("{s:s, s:n, s:s, s:n, s:s, s:n, s:s, s:o}", "kind",
			 "expectation", "check", "message", msg, "iteration",
			 "seed", seed, "thread", "replay", replay, "schedule",
			 wt_scn_schedule_json(r->s));
}

static void evaluate(struct wt_scn_result *r, const struct wt_scn_opts *o,
		     unsigned keep)
{
	const struct wt_scenario *s = r->s;
	const uint64_t *bad = r->expect_bad, *unseen = r->expect_unseen;
	json_t *one = json_array(), *f;
	size_t k;

	for (unsigned i = 0; i < s->nexpects; i++) {
		const struct wt_expect *e = &s->expects[i];
		char msg[512];
		bool ok;

		ok = eval_one(e, r, unseen[i], r->expect_actual[i],
			      sizeof(r->expect_actual[i]));
		/* A count over the scenario's iterations says nothing about
		 * the one iteration a replay runs. */
		if (o->replay && s->iterations != 1 &&
		    (e->kind == WT_EXPECT_PATH || e->kind == WT_EXPECT_POINT ||
		     e->kind == WT_EXPECT_WALKS)) {
			snprintf(r->expect_actual[i], sizeof(r->expect_actual[i]),
				 "not evaluated in a replay");
			ok = true;
		}
		if (e->kind == WT_EXPECT_RESULT) {
			ok = ok && !bad[i];
			snprintf(r->expect_actual[i], sizeof(r->expect_actual[i]),
				 "%" PRIu64 " mismatches, %" PRIu64
				 " iterations without the op", bad[i], unseen[i]);
		}
		r->expect_ok[i] = ok;
		if (ok || e->kind == WT_EXPECT_RESULT ||
		    e->kind == WT_EXPECT_ORACLE)
			continue;	/* those have per-iteration records */
		snprintf(msg, sizeof(msg), "%s: got %s", e->text,
			 r->expect_actual[i]);
		r->nfailures++;
		f = aggregate_failure(r, o, msg, o->seed);
		json_array_append_new(one, f);
	}
	if (r->capped) {	/* the budget would have run on and on */
		char msg[512];

		snprintf(msg, sizeof(msg), "the scenario ran past its real-"
			 "time cap of %.3g s (--scenario-cap): stopped after %"
			 PRIu64 " iterations, its budget unfinished",
			 (double)o->cap_ns * 1e-9, r->iterations);
		r->nfailures++;
		f = aggregate_failure(r, o, msg, o->seed);
		json_object_set_new(f, "kind", json_string("hang"));
		json_array_append_new(one, f);
	}
	/* counts over the run: each its own group, counted once */
	wt_scn_sign_all(one);
	wt_scn_groups_count(r->groups, one);
	json_array_foreach(one, k, f)
		keep_one(r, f, keep);
	json_decref(one);
	/* checks and oracle rejections fail a scenario even unasked */
	r->pass = r->nfailures == 0 && !r->anomaly[0];
	for (unsigned i = 0; i < s->nexpects; i++)
		r->pass &= r->expect_ok[i];
}

/* --- replay output --- */

/* The timeline: runs of consecutive events of one thread, one line each,
 * in that thread's lane. */
static void print_timeline(FILE *f, const struct wt_scenario *s,
			   const struct wt_trace *tr)
{
	uint64_t first = tr->total - tr->n;
	size_t i = 0;

	fprintf(f, "# timeline (one lane per thread:");
	for (unsigned t = 0; t < s->nthreads; t++)
		fprintf(f, " %s", s->threads[t].name);
	fprintf(f, ")\n");
	while (i < tr->n) {
		const struct wt_trace_event *a = &tr->ev[i];
		const char *note = wt_trace_event_note(tr, a);
		size_t j = i;
		bool wait = false;

		while (j + 1 < tr->n && tr->ev[j + 1].thread == a->thread &&
		       wt_trace_event_note(tr, &tr->ev[j + 1]) == note)
			wait |= (tr->ev[++j].flags & WT_EV_WAIT) != 0;
		fprintf(f, "%8" PRIu64 "-%-8" PRIu64 " %*s%-10s %4zu pts  %s .. %s%s%s%s\n",
			first + i, first + j, (int)(a->thread * 4), "",
			a->thread < s->nthreads ? s->threads[a->thread].name : "?",
			j - i + 1, wt_point_name(wt_point_by_id(a->point)),
			wt_point_name(wt_point_by_id(tr->ev[j].point)),
			wait ? " [waited]" : "", note ? "  op: " : "",
			note ? note : "");
		i = j + 1;
	}
}

static void print_replay(const struct wt_scn_opts *o,
			 const struct wt_scenario *s, const struct iter_out *io)
{
	const char *names[WT_SCN_THREADS_MAX];
	FILE *f = o->trace_out ? o->trace_out : stdout;

	if (o->order)
		fprintf(f, "# order: %zu events, %s\n", o->norder,
			io->diverged[0] ? "diverged" : "followed to the end");
	if (io->diverged[0])
		fprintf(f, "walktorture: %s replay diverged from the order at %s; "
			"the rest ran under the seeded policy\n", s->name,
			io->diverged);
	if (!io->trace) {
		fprintf(f, "# no trace\n");
		return;
	}
	for (unsigned i = 0; i < s->nthreads; i++)
		names[i] = s->threads[i].name;
	wt_trace_write(f, io->trace, names, s->nthreads);
	print_timeline(f, s, io->trace);
}

/* --- the lines --- */

static void print_failures(FILE *out, const struct wt_scn_result *r)
{
	size_t i;
	json_t *f;

	json_array_foreach(r->failures, i, f) {
		json_t *it = json_object_get(f, "iteration");

		fprintf(out, "walktorture: %s !!! %s", r->s->name,
			json_string_value(json_object_get(f, "kind")));
		if (json_is_integer(it))
			fprintf(out, " iteration=%lld", (long long)
				json_integer_value(it));
		if (json_is_string(json_object_get(f, "seed")))
			fprintf(out, " seed=%s", json_string_value(
				json_object_get(f, "seed")));
		fprintf(out, ": %s\nreplay: %s\n", json_string_value(
				json_object_get(f, "message")),
			json_string_value(json_object_get(f, "replay")));
	}
	if (r->nfailures > json_array_size(r->failures))
		fprintf(out, "walktorture: %s !!! %" PRIu64 " more failures not "
			"kept\n", r->s->name,
			r->nfailures - (uint64_t)json_array_size(r->failures));
	if (r->orders_unsaved)
		fprintf(out, "walktorture: %s !!! --trace: %" PRIu64 " failing "
			"iterations past the order files' cap have none\n",
			r->s->name, r->orders_unsaved);
	if (!r->nfailures)
		return;
	fprintf(out, "walktorture: %s failing_iterations=%" PRIu64 "/%" PRIu64
		" records=%" PRIu64 " kept=%zu signatures=%zu\n", r->s->name,
		r->failing_iterations, r->iterations, r->nfailures,
		json_array_size(r->failures), json_array_size(r->groups));
	json_array_foreach(r->groups, i, f) {
		json_t *rep = json_object_get(f, "representative");

		fprintf(out, "walktorture: %s signature %zu count=%lld first=%s "
			"last=%s", r->s->name, i + 1, (long long)
			json_integer_value(json_object_get(f, "count")),
			json_string_value(json_object_get(f, "first_seed")) ?:
			"-", json_string_value(json_object_get(f, "last_seed")) ?:
			"-");
		if (json_is_integer(rep))
			fprintf(out, " failure=%lld", (long long)
				json_integer_value(rep));
		fprintf(out, ": %s\n", json_string_value(
				json_object_get(f, "signature")));
	}
}

static void print_stats(FILE *out, const struct wt_scn_result *r)
{
	const struct wt_scenario *s = r->s;
	unsigned shown = 0;

	fprintf(out, "walktorture: %s paths", s->name);
	for (unsigned p = 0; p < WT_PATH__COUNT; p++)
		if (r->paths[p]) {
			fprintf(out, " %s=%" PRIu64, wt_path_info(p)->name,
				r->paths[p]);
			shown++;
		}
	fprintf(out, "%s\n", shown ? "" : " none");
	fprintf(out, "walktorture: %s walks=%" PRIu64 " ops=%" PRIu64
		" oracle_ok=%" PRIu64 " oracle_rejected=%" PRIu64
		" oracle_reordered=%" PRIu64 " not_judged=%" PRIu64
		" checks=%" PRIu64 " virtual_ns=%" PRIu64, s->name, r->walks,
		r->ops, r->oracle_ok, r->oracle_rejected, r->oracle_reordered,
		r->oracle_not_judged, r->checks,
		r->virtual_ns);
	if (r->pct_bound > 0)
		fprintf(out, " pct_bound=%.3g", r->pct_bound);
	if (r->pct_steps)
		fprintf(out, " pct_steps=%" PRIu64, r->pct_steps);
	if (r->memory != WT_SCN_SC && r->mode == WT_SCN_SIM)
		fprintf(out, " memory=%s tso_stores=%" PRIu64 " tso_stale=%"
			PRIu64 " tso_flush_events=%" PRIu64,
			wt_scn_memory_str(r->memory), r->tso_stores,
			r->tso_stale, r->tso_flush_events);
	if (r->fair_demotions)
		fprintf(out, " fair_demotions=%" PRIu64, r->fair_demotions);
	if (r->binding[0])
		fprintf(out, " binding=\"%s\"", r->binding);
	if (r->policy == WT_SCN_EXPLORE && r->explore_items)
		fprintf(out, " explore_items=%" PRIu64 " explore_corpus=%"
			PRIu64 " explore_added=%" PRIu64, r->explore_items,
			r->explore_corpus, r->explore_added);
	fputc('\n', out);
	for (unsigned k = 0; k < s->ntargets; k++) {
		fprintf(out, "walktorture: %s target %s count=%" PRIu64
			" iterations=%" PRIu64 "/%" PRIu64, s->name,
			wt_path_info(s->targets[k])->name, r->target_count[k],
			r->target_iterations[k], r->iterations);
		if (r->target_first[k])
			fprintf(out, " first=%" PRIu64 "\n", r->target_first[k] - 1);
		else
			fprintf(out, " first=none\n");
	}
	for (unsigned i = 0; i < s->nexpects; i++)
		fprintf(out, "walktorture: %s expect \"%s\" %s actual=%s\n",
			s->name, s->expects[i].text,
			r->expect_ok[i] ? "ok" : "!!! FAILED",
			r->expect_actual[i]);
	if (r->anomaly[0])
		fprintf(out, "walktorture: %s !!! %s\n", s->name, r->anomaly);
}

static void print_verdict(FILE *out, const struct wt_scn_result *r)
{
	fprintf(out, "walktorture: %s mode=%s seed=%#" PRIx64 " iterations=%"
		PRIu64 " failures=%" PRIu64 " digest=%016" PRIx64 " %s",
		r->s->name, r->mode == WT_SCN_STRESS ? "stress" : "sim",
		r->seed, r->iterations, r->nfailures, r->digest,
		r->skipped ? "SKIP" : r->pass ? "PASS" : "FAIL");
	if (r->skipped)
		fprintf(out, " (%s)", r->skip_reason);
	fputc('\n', out);
	fflush(out);
}

void wt_scn_print_outcome(FILE *out, const struct wt_scn_result *r)
{
	print_failures(out, r);
	print_verdict(out, r);
}

/* --- a scenario --- */

int wt_scn_result_init(struct wt_scn_result *r, const struct wt_scenario *s,
		       const struct wt_scn_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->s = s;
	r->mode = wt_scn_mode_of(s, o);
	r->policy = wt_scn_policy_of(s, o);
	r->memory = wt_scn_memory_of(s, o, r->mode);
	r->seed = o->replay ? o->seed : wt_scn_seed(o->seed, s->name);
	wt_points_catalogue();
	r->npoints = wt_point_count();
	r->points = calloc(r->npoints + 1, sizeof(*r->points));
	r->expect_ok = calloc(s->nexpects + 1, sizeof(*r->expect_ok));
	r->expect_bad = calloc(s->nexpects + 1, sizeof(*r->expect_bad));
	r->expect_unseen = calloc(s->nexpects + 1, sizeof(*r->expect_unseen));
	r->expect_actual = calloc(s->nexpects + 1, sizeof(*r->expect_actual));
	r->failures = json_array();
	r->groups = json_array();
	r->digest = WT_FNV1A_INIT;
	return r->points && r->expect_ok && r->expect_actual && r->failures &&
	       r->groups &&
	       r->expect_bad && r->expect_unseen ?
		0 : -1;
}

/*
 * Lift: a failing traced stress iteration's observed order goes to a file
 * (the trace's text form), and its failures' replay commands follow it:
 * `walktorture replay SEED FILE --order NAME-SEED.order' runs the same
 * iteration in sim mode in that order.
 */
static void save_order(struct wt_scn_result *r, const struct wt_scn_opts *o,
		       uint64_t seed, struct iter_out *io)
{
	const struct wt_scenario *s = r->s;
	const char *names[WT_SCN_THREADS_MAX];
	char path[1024], cmd[4096], quoted[1100];
	uint64_t cap = o->order_max_bytes ? o->order_max_bytes
					  : WT_SCN_ORDER_BYTES_MAX;
	long size;
	size_t i;
	json_t *f;
	FILE *fp;

	/* a failure in every iteration wrote hundreds of MB a minute:
	 * past the cap the failures are counted and kept as ever, with
	 * the plain replay command (sim mode, the seeded policy) */
	if (r->order_bytes >= cap) {
		if (!r->orders_unsaved++)
			fprintf(o->out ? o->out : stdout, "walktorture: %s !!! "
				"--trace: its order files reached %" PRIu64
				" bytes (cap %" PRIu64 ", WT_TRACE_MAX_BYTES): no "
				"more are written\n", s->name, r->order_bytes, cap);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s-%#" PRIx64 ".order",
		 o->order_dir ? o->order_dir : ".", s->name, seed);
	fp = fopen(path, "w");
	if (!fp) {
		fprintf(stderr, "walktorture: !!! %s: %s\n", path, strerror(errno));
		return;
	}
	for (unsigned k = 0; k < s->nthreads; k++)
		names[k] = s->threads[k].name;
	wt_trace_write(fp, io->trace, names, s->nthreads);
	size = ftell(fp);
	r->order_bytes += size > 0 ? (uint64_t)size : 0;
	if (fclose(fp)) {
		fprintf(stderr, "walktorture: !!! %s: %s\n", path, strerror(errno));
		return;
	}
	wt_scn_replay_cmd(cmd, sizeof(cmd), s, seed, o);
	wt_scn_shell_quote(quoted, sizeof(quoted), path);
	json_array_foreach(io->failures, i, f) {
		char replay[5300];

		snprintf(replay, sizeof(replay), "%s --order %s", cmd, quoted);
		json_object_set_new(f, "replay", json_string(replay));
		json_object_set_new(f, "order", json_string(path));
	}
}

/*
 * One iteration, and in sim mode its traced rerun when it failed (the
 * same seed: the same interleaving, now with the events to show).
 */
static int one(struct wt_scn_result *r, const struct wt_scn_opts *o,
	       uint64_t index, uint64_t *unseen, unsigned *reruns,
	       unsigned keep, struct wt_explore *ex)
{
	const struct wt_scenario *s = r->s;
	uint64_t seed = o->replay ? r->seed :
			o->reseed ? o->iteration_seed :
			wt_seed_iteration(r->seed, index);
	bool traced = o->replay;
	struct iter_out io, again;

	if (r->mode == WT_SCN_STRESS)	/* the token serialises: asked only */
		traced = o->trace_stress;
	if (o->live) {	/* the parent names this iteration if it dies */
		__atomic_store_n(&o->live->iteration, index, __ATOMIC_RELAXED);
		__atomic_store_n(&o->live->seed, seed, __ATOMIC_RELAXED);
		__atomic_fetch_add(&o->live->beat, 1, __ATOMIC_RELEASE);
	}
	if (run_iteration(r, s, o, r->mode, index, seed, traced, true, unseen,
			  &io, ex))
		return -1;
	if (r->mode == WT_SCN_STRESS && io.failed && io.trace && io.trace->n)
		save_order(r, o, seed, &io);
	r->digest = wt_fnv1a(r->digest, &io.digest, sizeof(io.digest));
	/* the first failing iterations, and the first of each signature,
	 * get a trace */
	wt_scn_sign_all(io.failures);
	if (io.failed && !traced && r->mode == WT_SCN_SIM &&
	    (*reruns < keep || wt_scn_groups_new(r->groups, io.failures))) {
		(*reruns)++;
		if (!run_iteration(r, s, o, r->mode, index, seed, true, false,
				   unseen, &again, NULL)) {
			if (again.digest != io.digest && !r->anomaly[0])
				snprintf(r->anomaly, sizeof(r->anomaly),
					 "rerun of iteration %" PRIu64 " (seed %#"
					 PRIx64 ") diverged: digest %016" PRIx64
					 " then %016" PRIx64, index, seed,
					 io.digest, again.digest);
			/* The rerun's records say where in its trace each
			 * failure was found (the first run had no trace to
			 * point into); after a divergence only the first
			 * run's records are the failures that counted. */
			if (again.digest != io.digest ||
			    again.nfailures != io.nfailures) {
				json_decref(again.failures);
				again.failures = json_incref(io.failures);
				again.nfailures = io.nfailures;
			}
			iter_out_free(&io);
			io = again;
		}
	}
	if (o->replay)
		print_replay(o, s, &io);
	keep_failures(r, &io, keep);
	iter_out_free(&io);
	if (o->live) {
		__atomic_store_n(&o->live->done, index + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&o->live->nfailures, r->nfailures,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&o->live->failing_iterations,
				 r->failing_iterations, __ATOMIC_RELAXED);
		__atomic_fetch_add(&o->live->beat, 1, __ATOMIC_RELEASE);
	}
	return 0;
}

/*
 * A twin's PCT k (and that of a file saying `pct_steps: auto'): the
 * points one iteration passes (twin.c says why).  The
 * calibration run's seed comes from the name alone, so a replay, which
 * knows only its iteration's seed, calibrates to the same k (and does
 * not follow a replay's --order there).  Its failures, if any, are not
 * counted: the iterations proper find them.
 */
static int calibrate_pct(struct wt_scn_result *r, const struct wt_scn_opts *o)
{
	const struct wt_scenario *s = r->s;
	struct wt_scn_opts plain = *o;	/* not a replay's recorded order */
	struct iter_out io;

	if ((!s->twin_of && !s->pct_auto) || r->policy != WT_SCN_PCT ||
	    r->mode != WT_SCN_SIM)
		return 0;
	plain.order = NULL;
	plain.norder = 0;
	plain.replay = false;
	if (run_iteration(r, s, &plain, r->mode, 0, wt_scn_seed(0, s->name),
			  false, false, NULL, &io, NULL))
		return -1;
	r->pct_steps = io.points ? io.points : 1;
	iter_out_free(&io);
	return 0;
}

int wt_scn_iteration(const struct wt_scenario *s, const struct wt_scn_opts *o,
		     uint64_t seed, bool traced, json_t **failures,
		     struct wt_trace **trace)
{
	struct wt_scn_opts one = *o;
	struct wt_scn_result r;
	struct iter_out io;
	int ret = -1;

	one.replay = true;
	one.seed = seed;
	*failures = NULL;
	if (trace)
		*trace = NULL;
	if (wt_scn_result_init(&r, s, &one))
		goto out;
	if (r.mode != WT_SCN_SIM || calibrate_pct(&r, &one))
		goto out;
	if (run_iteration(&r, s, &one, r.mode, 0, seed, traced, false, NULL,
			  &io, NULL))
		goto out;
	wt_scn_sign_all(io.failures);
	/* the caller's is an array, empty or not */
	*failures = io.failures ? json_incref(io.failures) : json_array();
	if (trace) {
		*trace = io.trace;
		io.trace = NULL;
	}
	iter_out_free(&io);
	ret = 0;
out:
	wt_scn_result_free(&r);
	return ret;
}

int wt_scn_run(const struct wt_scenario *s, const struct wt_scn_opts *o,
	       struct wt_scn_result *r)
{
	unsigned keep = o->keep_failures ? o->keep_failures
					 : WT_SCN_KEEP_FAILURES;
	FILE *out = o->out ? o->out : stdout;
	struct budget b;
	double t0, last = 0;
	unsigned reruns = 0;
	int ret = 0;
	struct wt_explore *ex = NULL;
	struct wt_preempt pre[WT_EXPLORE_MAX_PREEMPTS];
	struct wt_scn_opts eo;

	if (wt_scn_result_init(r, s, o))
		return -1;
	if (r->mode == WT_SCN_STRESS && r->policy == WT_SCN_DIRECTED) {
		r->skipped = true;
		snprintf(r->skip_reason, sizeof(r->skip_reason),
			 "directed schedule: sim mode only");
		r->pass = true;
		r->digest = 0;
		print_verdict(out, r);
		return 0;
	}
	b = budget_of(s, o, r->mode);
	t0 = wt_scn_now_s();
	if (r->mode == WT_SCN_SIM && !(r->reuse = reuse_create()))
		ret = -1;
	if (!ret && calibrate_pct(r, o))
		ret = -1;
	/* explore: the loop's state (a replay runs the schedule it is
	 * given, under POS) */
	if (r->policy == WT_SCN_EXPLORE && r->mode == WT_SCN_SIM &&
	    !o->replay && !(ex = wt_explore_new(r->seed)))
		ret = -1;
	while (!ret && !budget_done(&b, r, t0)) {
		const struct wt_scn_opts *io = o;

		if (ex) {
			eo = *o;
			eo.preempts = pre;
			eo.npreempts = wt_explore_next(ex, pre, &eo.reseed,
						       &eo.iteration_seed);
			io = &eo;
		}
		if (one(r, io, r->iterations, r->expect_unseen, &reruns, keep,
			ex)) {
			ret = -1;
			break;
		}
		r->iterations++;
		if (o->stop && o->stop(r, o->stop_arg))
			break;
		if (o->cap_ns && !budget_done(&b, r, t0) &&
		    (wt_scn_now_s() - t0) * 1e9 >= (double)o->cap_ns) {
			r->capped = true;
			break;
		}
		/* SIGINT/SIGTERM: at this boundary, with what it has */
		if (wt_interrupted()) {
			r->interrupted = !budget_done(&b, r, t0);
			break;
		}
		if (o->progress)
			progress(s, o, &b, r, t0, &last);
	}
	reuse_destroy(r->reuse);
	r->reuse = NULL;
	if (o->progress)
		fputs("\r\033[K", stderr);
	r->duration_s = wt_scn_now_s() - t0;
	if (ex) {
		struct wt_explore_stats st;

		wt_explore_get_stats(ex, &st);
		r->explore_items = st.items;
		r->explore_corpus = st.corpus;
		r->explore_added = st.added;
		wt_explore_free(ex);
	}
	if (ret) {
		snprintf(r->anomaly, sizeof(r->anomaly), "the scenario could "
			 "not run (see above)");
		r->pass = false;
		print_verdict(out, r);
		return -1;
	}
	evaluate(r, o, keep);
	print_failures(out, r);
	if (!o->quiet || !r->pass)
		print_stats(out, r);
	print_verdict(out, r);
	return 0;
}

void wt_scn_result_free(struct wt_scn_result *r)
{
	free(r->points);
	free(r->expect_ok);
	free(r->expect_bad);
	free(r->expect_unseen);
	free(r->expect_actual);
	json_decref(r->failures);
	json_decref(r->groups);
	memset(r, 0, sizeof(*r));
}

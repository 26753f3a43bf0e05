/* SPDX-License-Identifier: MIT */
/*
 * wt_run: what both backends share -- checking the configuration, setting
 * up each thread's runtime state (hit counters, compiled rules, seeded
 * PRNG, stop flag), and collecting the results.
 */
#include <assert.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sched/run.h"
#include "sim/scratch.h"
#include "sim/tso.h"

static const char *const status_names[] = {
	[WT_RUN_OK] = "ok",
	[WT_RUN_DEADLOCK] = "deadlock",
	[WT_RUN_STUCK] = "stuck",
	[WT_RUN_SCHEDULE_ERROR] = "schedule-error",
	[WT_RUN_CONFIG_ERROR] = "config-error",
	[WT_RUN_HALTED] = "halted",
};

const char *wt_run_status_name(enum wt_run_status s)
{
	return (unsigned)s <= WT_RUN_HALTED ? status_names[s] : "?";
}

static const char *const backend_names[] = { "sim", "stress" };
static const char *const policy_names[] = { "random", "pct", "directed",
						  "pos" };

const char *wt_backend_name(enum wt_backend b)
{
	return (unsigned)b <= WT_BACKEND_STRESS ? backend_names[b] : "?";
}

int wt_backend_parse(const char *s)
{
	for (int i = 0; i <= WT_BACKEND_STRESS; i++)
		if (strcmp(s, backend_names[i]) == 0)
			return i;
	return -1;
}

const char *wt_policy_name(enum wt_policy p)
{
	return (unsigned)p <= WT_POLICY_POS ? policy_names[p] : "?";
}

int wt_policy_parse(const char *s)
{
	for (int i = 0; i <= WT_POLICY_POS; i++)
		if (strcmp(s, policy_names[i]) == 0)
			return i;
	return -1;
}

static const char *const memory_names[] = { "sc", "tso", "pso" };

const char *wt_memory_name(enum wt_memory m)
{
	return (unsigned)m <= WT_MEMORY_PSO ? memory_names[m] : "?";
}

int wt_memory_parse(const char *s)
{
	for (int i = 0; i <= WT_MEMORY_PSO; i++)
		if (strcmp(s, memory_names[i]) == 0)
			return i;
	return -1;
}

static int config_error(struct wt_run_result *out, const char *msg)
{
	out->status = WT_RUN_CONFIG_ERROR;
	snprintf(out->report, sizeof(out->report), "%s", msg);
	return WT_RUN_CONFIG_ERROR;
}

static int check_memory(const struct wt_run_config *cfg,
			struct wt_run_result *out)
{
	if ((unsigned)cfg->memory > WT_MEMORY_PSO)
		return config_error(out, "memory must be sc, tso or pso");
	if (cfg->memory == WT_MEMORY_SC)
		return 0;
	/* Real threads on real cores have their own store buffers. */
	if (cfg->backend != WT_BACKEND_SIM)
		return config_error(out, "memory=tso/pso runs in sim mode only");
#ifdef WT_NO_HOOKS
	/* Lock operations drain the buffers at their points. */
	return config_error(out, "memory=tso/pso needs the injection hooks");
#endif
	if (!(cfg->tso_flush_p >= 0.0 && cfg->tso_flush_p <= 1.0))
		return config_error(out, "tso_flush_p must be in [0, 1]");
	return 0;
}

static int check_config(const struct wt_run_config *cfg, unsigned n,
			struct wt_thread **threads, struct wt_run_result *out)
{
	if (n == 0 || n > WT_RUN_MAX_THREADS)
		return config_error(out, "thread count must be 1..WT_RUN_MAX_THREADS");
	for (unsigned i = 0; i < n; i++)
		if (!threads[i] || threads[i]->id != i)
			return config_error(out, "thread ids must be 0..n-1 in array order");
	if (cfg->backend == WT_BACKEND_STRESS && cfg->replay)
		return config_error(out, "replay runs in sim mode only");
	if (cfg->policy == WT_POLICY_DIRECTED && !cfg->schedule &&
	    cfg->backend == WT_BACKEND_SIM)
		return config_error(out, "policy directed needs a schedule");
	if (cfg->policy == WT_POLICY_PCT && cfg->pct_depth == 0)
		return config_error(out, "pct depth must be at least 1");
	if (cfg->npreempts && cfg->policy != WT_POLICY_POS)
		return config_error(out, "preemption points need policy pos");
	return check_memory(cfg, out);
}

static void setup_thread(struct wt_thread *t, const struct wt_run_config *cfg,
			 uint64_t iteration_seed, uint64_t *hits,
			 uint32_t *touched, struct wt_ruleset *rs,
			 uint32_t *stop)
{
	t->hits = hits;
	t->touched = hits ? touched : NULL;
	t->ntouched = 0;
	t->rules = wt_ruleset_thread(rs, t);
	wt_prng_seed(&t->prng, wt_seed_thread(iteration_seed, t->id));
	t->arrivals = 0;
	t->clock_ns = 0;
	t->hist_version = 0;	/* a run abandoned mid-step left one */
	t->pending = false;
	t->pending_delay_ns = 0;
	t->pending_yield = false;
	t->pending_fail = false;
	t->pending_preempt_thread = -1;
	t->trace_buf = NULL;
	t->trace_note = 0;
	t->stop_flag = stop;
	t->exit_env = NULL;
	t->finished = false;
	t->aborted = false;
	t->last_point = NULL;
	/* the last run's teardown freed what its body left: anything held
	 * now is someone else's, which this run's teardown would free */
	assert(!t->scratch);
	wt_thread_arm(t, cfg->backend == WT_BACKEND_SIM || hits || t->rules ||
			 cfg->trace);
}

/*
 * The runtime fields cleared, and the scratch blocks the thread's body
 * still held freed: what a body took and the run never let it give back
 * (abandoned by a halt, a fault, a stuck or deadlocked sim run, or left
 * through wt_thread_exit).  Its body can no longer run: the sim's fibers
 * are parked or abandoned, the stress threads joined.  Returns how many.
 */
static unsigned clear_thread(struct wt_thread *t)
{
	wt_thread_arm(t, false);
	t->sched = NULL;
	t->sched_point = NULL;
	t->hits = NULL;
	t->touched = NULL;
	t->ntouched = 0;
	t->rules = NULL;
	t->trace_buf = NULL;
	t->trace_note = 0;
	t->stop_flag = NULL;
	t->exit_env = NULL;
	t->pending_preempt_thread = -1;
	return wt_scratch_free_all(t);
}

/*
 * Thread i's row summed into out->hits, over the points it reached (its
 * row is 0 elsewhere); the ones no earlier thread reached appended to
 * out->touched.  In locals: a store through out->touched could be one to
 * out->ntouched for all the compiler knows.
 */
static void collect_row(struct wt_run_result *out, unsigned i,
			const struct wt_thread *t)
{
	const uint64_t *row = &out->thread_hits[(size_t)i * out->npoints];
	uint64_t *hits = out->hits;
	uint32_t *touched = out->touched, nt = out->ntouched;

	for (uint32_t k = 0; k < t->ntouched; k++) {
		uint32_t p = t->touched[k];

		if (!hits[p])
			touched[nt++] = p;
		hits[p] += row[p];
	}
	out->ntouched = nt;
}

static void collect(struct wt_run_result *out, unsigned n,
		    struct wt_thread **threads, struct wt_ruleset *rs,
		    unsigned nrules, bool by_thread)
{
	for (unsigned i = 0; i < n; i++) {
		struct wt_run_thread_result *tr = &out->threads[i];
		struct wt_thread *t = threads[i];

		tr->last_point = t->last_point;
		tr->arrivals = t->arrivals;
		tr->ntouched = t->hits ? t->ntouched : 0;
		tr->clock_ns = t->clock_ns;
		tr->finished = t->finished;
		tr->aborted = t->aborted;
		if (t->hits && !by_thread)
			collect_row(out, i, t);
	}
	out->nrules = nrules;
	for (unsigned i = 0; rs && i < nrules && i < 64; i++)
		wt_ruleset_stats(rs, i, &out->rule_matches[i], &out->rule_fires[i]);
}

void wt_run_counters_free(struct wt_run_counters *k)
{
	free(k->hits);
	free(k->thread_hits);
	free(k->touched);
	free(k->thread_touched);
	memset(k, 0, sizeof(*k));
}

/* Zeroed counters for n threads: a cache's, cleared where its last run
 * touched them (each row where its own thread did: what the union did
 * not reach of a row is 0 already), or new ones (the old freed) when
 * they do not fit. */
static int counters_take(struct wt_run_counters *k, unsigned n, uint32_t np)
{
	if (k->hits && k->npoints == np && k->rows >= n) {
		for (uint32_t j = 0; j < k->ntouched; j++)
			k->hits[k->touched[j]] = 0;
		for (unsigned i = 0; i < k->used; i++) {
			uint64_t *row = &k->thread_hits[(size_t)i * np];
			const uint32_t *tl = &k->thread_touched[(size_t)i * np];

			for (uint32_t j = 0; j < k->row_touched[i]; j++)
				row[tl[j]] = 0;
			k->row_touched[i] = 0;
		}
	} else {
		wt_run_counters_free(k);
		k->hits = calloc((size_t)np + 1, sizeof(*k->hits));
		k->thread_hits = calloc((size_t)n * np + 1,
					sizeof(*k->thread_hits));
		k->touched = calloc((size_t)np + 1, sizeof(*k->touched));
		k->thread_touched = calloc((size_t)n * np + 1,
					   sizeof(*k->thread_touched));
		k->npoints = np;
		k->rows = n;
		if (!k->hits || !k->thread_hits || !k->touched ||
		    !k->thread_touched) {
			wt_run_counters_free(k);
			return -1;
		}
	}
	k->used = n;
	k->ntouched = 0;
	return 0;
}

/*
 * Zero *out but for its text buffers, which are emptied (they are most
 * of its 7 KiB, and a string is read only to its end), the rows of
 * threads past n and the rule counters (1 KiB): a row is read only
 * below nthreads, a rule's counters only below nrules, and collect()
 * sets those.  What stays is never read (the result is often a fresh
 * stack variable: garbage, not a last run's values).
 */
static void result_clear(struct wt_run_result *out, unsigned n)
{
	char *o = (char *)out;
	const size_t report = offsetof(struct wt_run_result, report),
		     after_report = offsetof(struct wt_run_result, nthreads),
		     threads = offsetof(struct wt_run_result, threads),
		     after_threads = offsetof(struct wt_run_result, points),
		     binding = offsetof(struct wt_run_result, binding),
		     after_binding = offsetof(struct wt_run_result, pct_bound),
		     rules = offsetof(struct wt_run_result, rule_matches),
		     after_rules = offsetof(struct wt_run_result,
					    preempt_timeouts),
		     diverge = offsetof(struct wt_run_result, diverge_report),
		     after_diverge = offsetof(struct wt_run_result, feedback);

	/* Nothing between a buffer and what follows it but padding. */
	_Static_assert(offsetof(struct wt_run_result, nthreads) -
		       offsetof(struct wt_run_result, report) <
		       sizeof(out->report) + 8, "a field after report");
	_Static_assert(offsetof(struct wt_run_result, pct_bound) -
		       offsetof(struct wt_run_result, binding) <
		       sizeof(out->binding) + 8, "a field after binding");
	_Static_assert(offsetof(struct wt_run_result, feedback) -
		       offsetof(struct wt_run_result, diverge_report) <
		       sizeof(out->diverge_report) + 8,
		       "a field after diverge_report");
	/* The rows and the rule counters are what the skips say. */
	_Static_assert(offsetof(struct wt_run_result, points) -
		       offsetof(struct wt_run_result, threads) ==
		       sizeof(out->threads), "a field among the rows");
	_Static_assert(offsetof(struct wt_run_result, preempt_timeouts) -
		       offsetof(struct wt_run_result, rule_matches) ==
		       sizeof(out->rule_matches) + sizeof(out->rule_fires),
		       "a field among the rule counters");
	assert(n <= WT_RUN_MAX_THREADS);
	memset(o, 0, report);
	out->report[0] = 0;
	memset(o + after_report, 0, threads - after_report);
	memset(out->threads, 0, n * sizeof(out->threads[0]));
	memset(o + after_threads, 0, binding - after_threads);
	out->binding[0] = 0;
	memset(o + after_binding, 0, rules - after_binding);
	memset(o + after_rules, 0, diverge - after_rules);
	out->diverge_report[0] = 0;
	memset(o + after_diverge, 0, sizeof(*out) - after_diverge);
}

int wt_run(const struct wt_run_config *config, unsigned nthreads,
	   struct wt_thread **threads,
	   void (*body)(struct wt_thread *t, void *arg), void **args,
	   struct wt_run_result *out)
{
	/* A zeroed config must not mean "stuck at the first point". */
	struct wt_run_config local = *config;
	const struct wt_run_config *cfg = &local;
	struct wt_ruleset *rs = NULL;
	uint64_t iteration_seed, saved_bugs;
	uint32_t stop = 0;
	bool count;
	struct wt_run_counters own = { 0 }, *k;
	char err[256];
	int rc;

	if (!local.max_points)
		local.max_points = 10000000;
	result_clear(out, nthreads <= WT_RUN_MAX_THREADS ? nthreads
						       : WT_RUN_MAX_THREADS);
	out->nthreads = nthreads;
	out->memory = cfg->memory;
	wt_points_catalogue();
	/* Build the name-hash table before any thread can race for it. */
	(void)wt_point_name_hash(wt_point_by_id(0));
	out->npoints = wt_point_count();
	if (check_config(cfg, nthreads, threads, out))
		return WT_RUN_CONFIG_ERROR;
	if (cfg->nrules) {
		rs = wt_ruleset_create(cfg->rules, cfg->nrules, threads,
				       nthreads,
				       cfg->cache && cfg->backend == WT_BACKEND_SIM ?
				       wt_run_cache_sets(cfg->cache) : NULL,
				       err, sizeof(err));
		if (!rs)
			return config_error(out, err);
	}
	/* Kept by a sim cache (stress threads get fresh ones each run). */
	k = cfg->cache && cfg->backend == WT_BACKEND_SIM ?
	    wt_run_cache_counters(cfg->cache) : &own;
	if (counters_take(k, nthreads, out->npoints)) {
		wt_ruleset_destroy(rs);
		return config_error(out, "out of memory");
	}
	out->hits = k->hits;
	out->thread_hits = k->thread_hits;
	out->touched = k->touched;
	out->thread_touched = k->thread_touched;
	out->counters_cached = k != &own;
	out->counters = out->counters_cached ? k : NULL;
	/* Preemption points count arrivals per thread and point. */
	count = cfg->count_hits || wt_ruleset_needs_hits(rs) ||
		cfg->npreempts || cfg->feedback;
	/* Nothing reads a row during the run: every thread counts into the
	 * caller's sum (one fiber at a time), and there are no rows to add
	 * up and clear afterwards.  The touched rows are scratch then: a
	 * sum leaves 0 once, so a thread appends at most npoints a run. */
	out->hits_in_place = count && cfg->hits_sum &&
			     cfg->backend == WT_BACKEND_SIM &&
			     !wt_ruleset_needs_hits(rs) && !cfg->npreempts &&
			     !cfg->feedback;
	iteration_seed = wt_seed_iteration(cfg->seed, cfg->iteration);
	/* The sim's fibers run on this OS thread; stress threads copy it. */
	saved_bugs = wt_primitive_bugs;
	wt_primitive_bugs = cfg->bugs;
	for (unsigned i = 0; i < nthreads; i++)
		setup_thread(threads[i], cfg, iteration_seed,
			     out->hits_in_place ? cfg->hits_sum :
			     count ? &out->thread_hits[(size_t)i * out->npoints]
				   : NULL,
			     &out->thread_touched[(size_t)i * out->npoints],
			     rs, &stop);
	if (cfg->backend == WT_BACKEND_SIM)
		rc = wt_run_sim(cfg, nthreads, threads, body, args, out);
	else
		rc = wt_run_stress(cfg, nthreads, threads, body, args, out);
	wt_primitive_bugs = saved_bugs;
	if (out->hits_in_place)		/* the scratch lists: not rows */
		for (unsigned i = 0; i < nthreads; i++)
			threads[i]->ntouched = 0;
	collect(out, nthreads, threads, rs, cfg->nrules, cfg->hits_by_thread);
	k->ntouched = out->ntouched;	/* what the next run clears */
	for (unsigned i = 0; i < nthreads; i++)
		k->row_touched[i] = threads[i]->ntouched;
	for (unsigned i = 0; i < nthreads; i++)
		out->scratch_freed += clear_thread(threads[i]);
	wt_ruleset_destroy(rs);
	return rc;
}

uint64_t wt_run_take_hits(struct wt_run_result *res, uint64_t *sums,
			  uint32_t nsums)
{
	/* every id is < npoints: no bound to test when sums covers them */
	bool all = sums && nsums >= res->npoints;
	uint64_t total = 0;

	if (res->hits_in_place) {	/* in cfg.hits_sum already */
		for (unsigned i = 0; i < res->nthreads; i++)
			total += res->threads[i].arrivals;
		return total;
	}
	for (unsigned i = 0; i < res->nthreads; i++) {
		uint64_t *row = &res->thread_hits[(size_t)i * res->npoints];
		const uint32_t *tl = &res->thread_touched[(size_t)i * res->npoints];
		const uint32_t n = res->threads[i].ntouched;

		if (all) {	/* the usual case, without a test an entry */
			for (uint32_t k = 0; k < n; k++) {
				uint32_t p = tl[k];
				uint64_t v = row[p];

				row[p] = 0;
				total += v;
				sums[p] += v;
			}
		} else {
			for (uint32_t k = 0; k < n; k++) {
				uint32_t p = tl[k];
				uint64_t v = row[p];

				row[p] = 0;
				total += v;
				if (sums && p < nsums)
					sums[p] += v;
			}
		}
		res->threads[i].ntouched = 0;
		if (res->counters)	/* nothing left in the row to clear */
			res->counters->row_touched[i] = 0;
	}
	return total;
}

void wt_run_result_free(struct wt_run_result *r)
{
	if (!r->counters_cached) {
		free(r->hits);
		free(r->thread_hits);
		free(r->touched);
		free(r->thread_touched);
	}
	r->touched = NULL;
	r->thread_touched = NULL;
	r->ntouched = 0;
	r->counters_cached = false;
	r->counters = NULL;
	wt_trace_free(r->trace);
	free(r->feedback);
	free(r->feedback_at);
	free(r->events);
	r->feedback = NULL;
	r->feedback_at = NULL;
	r->events = NULL;
	r->hits = NULL;
	r->thread_hits = NULL;
	r->trace = NULL;
}

void wt_run_result_print(FILE *f, const struct wt_run_result *r)
{
	fprintf(f, "walktorture: status=%s%s points=%" PRIu64 " digest=%016"
		PRIx64, wt_run_status_name(r->status),
		r->status == WT_RUN_OK ? "" : " !!!", r->points, r->digest);
	if (r->pct_bound > 0)
		fprintf(f, " pct_bound=%.3g", r->pct_bound);
	if (r->binding[0])
		fprintf(f, " binding=\"%s\"", r->binding);
	if (r->trace)
		fprintf(f, " events=%zu dropped=%" PRIu64, r->trace->n,
			r->trace->dropped);
	if (r->diverged)
		fprintf(f, " diverged_at=%zu", r->diverged_at);
	if (r->fair_demotions)
		fprintf(f, " fair_demotions=%" PRIu64, r->fair_demotions);
	if (r->memory != WT_MEMORY_SC)
		fprintf(f, " memory=%s tso_stores=%" PRIu64 " tso_flush_events=%"
			PRIu64, wt_memory_name(r->memory), r->tso_stores,
			r->tso_flush_events);
	fputc('\n', f);
	if (r->report[0])
		fprintf(f, "%s\n", r->report);
	if (r->diverged)
		fprintf(f, "walktorture: replay diverged: %s\n", r->diverge_report);
}

/* Append every thread's state and last point to a report (both
 * backends). */
void wt_run_report_threads(char *buf, size_t size, unsigned n,
			   struct wt_thread **threads, const char *const *state)
{
	size_t len = strlen(buf);

	for (unsigned i = 0; i < n && len < size; i++) {
		const struct wt_thread *t = threads[i];
		const struct wt_point *p = __atomic_load_n(&t->last_point,
							   __ATOMIC_RELAXED);

		len += (size_t)snprintf(buf + len, size - len,
			"\n  thread %s (#%u) %s, last point %s at %s:%u",
			t->name ? t->name : "-", t->id, state[i],
			wt_point_name(p), p ? p->file : "-", p ? p->line : 0);
	}
}

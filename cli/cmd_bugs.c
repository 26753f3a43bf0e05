/* SPDX-License-Identifier: MIT */
/*
 * walktorture bugs: the zoo's catalogue (core/zoo.c), one bug a line --
 * name, then tab-separated description, reference, the scenario that
 * catches it (scenarios/zoo/) and the check expected to fire there -- or,
 * with --json, the same as a JSON array (with the stress-mode scenario
 * and whether only exact path counts see it).
 */
#define _GNU_SOURCE	/* fdopen */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "core/zoo.h"
#include "reports/results.h"
#include "scenarios/src/driver.h"
#include "scenarios/src/fuzz.h"
#include "sim/rules.h"

static json_t *bug_json(const struct wt_zoo_bug *b)
{
	char scenario[256], stress[256];

	snprintf(scenario, sizeof(scenario), "scenarios/%s", b->scenario);
	snprintf(stress, sizeof(stress), "scenarios/%s", b->stress);
	return json_pack("{s:s, s:i, s:s, s:s, s:s?, s:s, s:s?, s:b}",
			 "name", b->name, "id", (int)b->id,
			 "description", b->description,
			 "reference", b->reference,
			 "scenario", b->scenario ? scenario : NULL,
			 "check", b->fires, "stress", b->stress ? stress : NULL,
			 "counts_only", b->counts_only);
}

static int print_json(void)
{
	const struct wt_zoo_bug *bugs;
	json_t *arr = json_array();
	unsigned n;

	bugs = wt_zoo_bugs(&n);
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(arr, bug_json(&bugs[i]));
	json_dumpf(arr, stdout, JSON_INDENT(1));
	putchar('\n');
	json_decref(arr);
	return WT_EXIT_OK;
}

const struct wt_opt wt_opts_bugs[] = {
	WT_OPT("json", 1, 'j', NULL, "print the zoo as a JSON array"),
	{ 0 }
};

int wt_cmd_bugs(int argc, char **argv)
{
	const struct wt_zoo_bug *bugs;
	bool json = false;
	unsigned n;
	unsigned flags;
	int r = wt_opts_flags(argc, argv, &flags);

	if (r)
		return wt_opts_exit(r);
	json = flags & 1u << 1;
	if (json)
		return print_json();
	bugs = wt_zoo_bugs(&n);
	/* an entry without a scenario yet says so in both fields */
	for (unsigned i = 0; i < n; i++)
		printf("%s\t%s\t%s\t%s%s\t%s\n", bugs[i].name,
		       bugs[i].description, bugs[i].reference,
		       bugs[i].scenario ? "scenarios/" : "-",
		       bugs[i].scenario ? bugs[i].scenario : "",
		       bugs[i].scenario ? bugs[i].fires : "(pending)");
	return WT_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/*
 * walktorture zoo-bench [BUG...] [--seed S] [--seeds N] [--sim-cap T]
 *		[--undirected-cap T] [--policy-seeds K] [--policies LIST]
 *		[--generated-cap T] [--stress-cap T]
 *		[--stress-clean T] [--json FILE]
 *
 * For every bug of the catalogue (or the ones named):
 *   clean   its targeted scenario without the bug, one iteration under
 *           each of N seeds: every one must pass (the zoo's "no false
 *           positive");
 *   sim     the same with the bug, seed after seed, until the expected
 *           check fired (at least the first N seeds are run, to count in
 *           how many it fires), capped at --sim-cap: the time and
 *           iterations to first detection;
 *   random, pct, pos, explore
 *           the scenario with its directed schedule (and expectations)
 *           dropped, under each policy in turn: one run of N iterations
 *           without the bug, which the oracle and the safety checks must
 *           all pass, then K runs (--policy-seeds, run seeds derived from
 *           S) with it, each until its first failing iteration or
 *           --undirected-cap (0: skip; --pct-cap is the older name) of
 *           this thread's CPU time -- or --policy-iters --
 *           runs out: how hard the race is to find when nobody says
 *           where it is.  Iterations and CPU seconds to first detection
 *           are the median over the runs that found it (CPU time, not
 *           wall time: the figures do not depend on the machine's load).
 *           The last two lines give the median over the bugs both found
 *           of the ratio of PCT's iterations to explore's, and the
 *           median ratio over the bugs PCT needs >= 100 iterations for,
 *           medians over every run with the runs the cap stopped
 *           counted at their iterations (censored: bench_ratio_hard);
 *   gen_mix, gen_explore
 *           generated workloads with the bug (`walktorture fuzz --bug',
 *           fuzz's own mix of policies, then --policy explore): K runs
 *           (fuzz seeds derived from S), each until the first workload
 *           that fails with the bug's witness or --generated-cap (0, the
 *           default: skip) of this thread's CPU time runs out: would a
 *           search that knows neither the scenario nor the race have
 *           found it?  Workloads, iterations (of every workload until
 *           then) and CPU seconds to first detection, medians over the
 *           runs that found it;
 *   stress  the bug's plain uninjected load (scenarios/zoo/stress/) in
 *           stress mode, iteration after iteration until the expected
 *           check fires or --stress-cap runs out ("not found" is an
 *           outcome), after --stress-clean of the same load without the
 *           bug.  Each stress measurement runs in a child process: a
 *           bug that frees memory under a walker may crash it, which is
 *           recorded as such.
 * One line per bug, then the verdict; --json writes a results file whose
 * scenarios[] are the detecting runs, each with its "detection".
 * Exit 0 when every bug was caught in sim mode and every clean run
 * passed, 1 otherwise, 2 on bad usage.
 */

struct bench_opts {
	uint64_t seed;
	unsigned seeds;
	unsigned policy_seeds;
	unsigned policies;	/* bit k: measure bp_names[k] */
	double sim_cap_s;
	double pct_cap_s;	/* each undirected policy's cap, CPU s */
	double gen_cap_s;	/* each generated search's cap, CPU s (0: none) */
	uint64_t policy_iters;	/* and its iteration cap (0: none) */
	double stress_cap_s;
	double stress_clean_s;
	FILE *null;
};

struct detection {
	bool run;		/* measured at all */
	bool found;
	bool crashed;
	int signal;
	double seconds;
	uint64_t iterations;
	uint64_t seed;		/* the run seed of the detecting run */
	char kind[32];		/* the first failure seen, whatever it was */
	char check[32];
};

/* Clean-run tallies: the zoo's "no false positive" over N seeds. */
struct clean {
	unsigned pass;
	unsigned runs;
	uint64_t fail_seed;
};

/* The undirected policies zoo-bench measures, in column order. */
enum { BP_RANDOM, BP_PCT, BP_POS, BP_EXPLORE, BP__COUNT };
static const char *const bp_names[BP__COUNT] = { "random", "pct", "pos",
						 "explore" };
static const enum wt_scn_policy bp_policy[BP__COUNT] = {
	WT_SCN_RANDOM, WT_SCN_PCT, WT_SCN_POS, WT_SCN_EXPLORE };

/* One undirected policy: clean, and K runs with the bug. */
struct bench_policy {
	struct clean clean;	/* N iterations without the bug */
	struct detection det;	/* medians over the detecting runs */
	unsigned found;		/* runs that found it */
	unsigned runs;
	/* every run: its iterations, and whether it stopped at the cap
	 * (then the bug needs more: censored) */
	double iters[64];
	bool missed[64];
};

/* The generated workloads' searches, in column order: fuzz's mix of
 * policies (-1) and explore. */
enum { GP_MIX, GP_EXPLORE, GP__COUNT };
static const char *const gp_names[GP__COUNT] = { "gen_mix", "gen_explore" };
static const int gp_policy[GP__COUNT] = { -1, WT_SCN_EXPLORE };

/* K fuzz runs with the bug: medians over the runs that found it. */
struct bench_gen {
	struct detection det;	/* iterations: of every workload run */
	uint64_t workloads;	/* to the first detecting one, included */
	unsigned found;
	unsigned runs;
};

struct bench_row {
	const struct wt_zoo_bug *bug;
	struct clean clean;
	unsigned found_seeds;	/* of the first `seeds' with the bug */
	struct detection sim;
	struct bench_policy pol[BP__COUNT];
	struct bench_gen gen[GP__COUNT];
	struct detection stress;
	bool stress_clean;	/* the plain load passed without the bug */
	struct wt_scn_result result;	/* the detecting (or last) sim run */
	bool have_result;
	struct wt_scenario *scenario;	/* result.s: freed last */
};

static struct wt_scenario *bench_load(const char *rel)
{
	struct wt_scn_error err = { .set = false };
	struct wt_scenario *s;
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", wt_scn_root(), rel);
	s = wt_scenario_load(path, "zoo", &err);
	if (!s)
		fprintf(stderr, "walktorture: !!! %s\n", err.text);
	return s;
}

/* The failure of r that is the bug's detection, or the first one. */
static bool bench_fired(const struct wt_zoo_bug *b, const struct wt_scn_result *r,
			struct detection *d)
{
	size_t i;
	json_t *f;

	json_array_foreach(r->failures, i, f) {
		const char *kind = json_string_value(json_object_get(f, "kind"));
		const char *check = json_string_value(json_object_get(f, "check"));

		if (!d->kind[0] && kind) {
			snprintf(d->kind, sizeof(d->kind), "%s", kind);
			snprintf(d->check, sizeof(d->check), "%s", check ? check : "");
		}
		if (wt_zoo_fired(b, kind, check)) {
			snprintf(d->kind, sizeof(d->kind), "%s", kind);
			snprintf(d->check, sizeof(d->check), "%s", check ? check : "");
			return true;
		}
	}
	return false;
}

static void bench_opts_init(struct wt_scn_opts *o, const struct bench_opts *bo,
			    uint64_t seed, uint64_t bugs, const char *bug,
			    int mode)
{
	wt_cli_scn_defaults(o);
	o->seed = seed;
	o->iterations = 1;
	o->bugs = bugs;
	o->bug = bug;
	o->mode = mode;
	o->progress = false;
	o->progress_log = false;
	o->out = bo->null;
}

/* Without the bug, one iteration under each of the first N seeds. */
static void bench_clean(struct clean *c, const struct wt_scenario *s,
			const struct bench_opts *bo)
{
	for (unsigned k = 0; k < bo->seeds; k++) {
		struct wt_scn_opts o;
		struct wt_scn_result r;
		uint64_t seed = wt_scn_night_seed(bo->seed, k);

		bench_opts_init(&o, bo, seed, 0, NULL, -1);
		if (wt_scn_run(s, &o, &r))
			memset(&r, 0, sizeof(r));
		c->runs++;
		if (r.pass)
			c->pass++;
		else if (!c->fail_seed)
			c->fail_seed = seed;
		wt_scn_result_free(&r);
	}
}

/* Keep r as the row's result when it is the detecting run (or the first). */
static void bench_keep(struct bench_row *row, struct wt_scn_result *r,
		       bool detecting)
{
	if (detecting || !row->have_result) {
		if (row->have_result)
			wt_scn_result_free(&row->result);
		row->result = *r;
		row->have_result = true;
	} else {
		wt_scn_result_free(r);
	}
}

/*
 * With the bug, seed after seed, until found (and N seeds done) or cap:
 * into d, counting in how many of the first N seeds it fired.  keep: the
 * row whose result is the detecting run, or NULL.
 */
static void bench_search(const struct wt_zoo_bug *b, const struct wt_scenario *s,
			 const struct bench_opts *bo, double cap_s,
			 struct detection *det, unsigned *found_seeds,
			 struct bench_row *keep)
{
	double t0 = wt_scn_now_s();
	uint64_t k;

	det->run = true;
	for (k = 0;; k++) {
		struct wt_scn_opts o;
		struct wt_scn_result r;
		struct detection d = { .run = true };
		uint64_t seed = wt_scn_night_seed(bo->seed, (unsigned)k);
		bool hit;

		if ((det->found && k >= bo->seeds) || wt_scn_now_s() - t0 > cap_s)
			break;
		bench_opts_init(&o, bo, seed, 1ull << b->id, b->name, -1);
		if (wt_scn_run(s, &o, &r)) {
			wt_scn_result_free(&r);
			break;
		}
		hit = bench_fired(b, &r, &d);
		if (k < bo->seeds)
			*found_seeds += hit;
		if (!det->kind[0])
			memcpy(det->kind, d.kind, sizeof(d.kind));
		if (hit && !det->found) {
			det->found = true;
			det->seconds = wt_scn_now_s() - t0;
			det->iterations = k + 1;
			det->seed = seed;
			memcpy(det->kind, d.kind, sizeof(d.kind));
			memcpy(det->check, d.check, sizeof(d.check));
		}
		if (keep)
			bench_keep(keep, &r, hit && det->seed == seed);
		else
			wt_scn_result_free(&r);
	}
	if (!det->found) {	/* "not found" after this many tries */
		det->seconds = wt_scn_now_s() - t0;
		det->iterations = k;
	}
}

/*
 * The targeted scenario without being told where the race is: how hard
 * it is to find.  A directed one runs as its undirected twin (twin.c:
 * the schedule and the exact expectations dropped, PCT with its k
 * calibrated); one that was never directed runs as it is, under PCT,
 * without its expectations.  Only the oracle and the safety checks
 * judge then (they fail a run unasked): a bug whose only witness is an
 * expectation cannot be found here.  NULL when the file cannot be
 * loaded again (reported).
 */
static struct wt_scenario *bench_undirected(const struct wt_scenario *s)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *u = wt_scenario_load(s->file, s->suite, &err);

	if (u && u->policy == WT_SCN_DIRECTED && wt_scenario_undirect(u, &err)) {
		wt_scenario_free(u);
		u = NULL;
	}
	if (!u) {
		fprintf(stderr, "%s\n", err.set ? err.text : "out of memory");
		return NULL;
	}
	if (!u->twin_of) {
		for (unsigned i = 0; i < u->nexpects; i++)
			wt_expect_free(&u->expects[i]);
		u->nexpects = 0;
		u->policy = WT_SCN_PCT;
	}
	return u;
}

/* The CPU time of this thread: an undirected search is capped and
 * timed in it ("10 s of one core"), so the figures do not depend on how
 * many other processes share the machine. */
static double bench_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct bench_stop_arg {
	const struct wt_zoo_bug *bug;
	double cpu0, cap_s;
};

/* The runner's stop predicate: the bug's check fired in r, or the CPU
 * cap ran out. */
static bool bench_stop(const struct wt_scn_result *r, void *arg)
{
	const struct bench_stop_arg *a = arg;
	struct detection d = { .run = true };

	return bench_fired(a->bug, r, &d) || bench_cpu() - a->cpu0 >= a->cap_s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The figures of K runs with the bug: medians of iters and secs over the
 * `found' runs that found it; when none did, d holds what the runs spent
 * before the cap, summed, and gets their mean.
 */
static void det_settle(struct detection *d, unsigned found, unsigned runs,
		       double *iters, double *secs)
{
	if (found) {
		d->found = true;
		d->iterations = (uint64_t)(median(iters, found) + 0.5);
		d->seconds = median(secs, found);
	} else if (runs) {
		d->iterations /= runs;
		d->seconds /= runs;
	}
}

/*
 * Policy k without the schedule: one run of N iterations without the
 * bug (the oracle and the checks must pass every one), then K runs with
 * it, each ended by its first failing iteration or the cap.
 */
static void bench_policy(struct bench_row *row, const struct wt_scenario *s,
			 const struct bench_opts *bo, unsigned k)
{
	struct bench_policy *bp = &row->pol[k];
	double iters[64], secs[64];
	struct wt_scenario *u;
	struct wt_scn_opts o;
	struct wt_scn_result r;

	if (bo->pct_cap_s <= 0)
		return;
	u = bench_undirected(s);
	if (!u) {
		bp->clean.runs = 1;	/* a clean run that failed */
		return;
	}
	u->policy = bp_policy[k];
	bench_opts_init(&o, bo, bo->seed, 0, NULL, -1);
	o.iterations = bo->seeds;
	if (wt_scn_run(u, &o, &r))
		memset(&r, 0, sizeof(r));
	bp->clean.runs = bo->seeds;
	bp->clean.pass = r.pass ? bo->seeds :
			 bo->seeds - (r.nfailures < bo->seeds ?
				      (unsigned)r.nfailures : bo->seeds);
	if (!r.pass) {
		json_t *f = json_array_get(r.failures, 0);

		if (wt_scn_parse_seed(json_string_value(json_object_get(f,
				      "seed")) ?: "0", &bp->clean.fail_seed))
			bp->clean.fail_seed = 0;
		if (!bp->clean.fail_seed)
			bp->clean.fail_seed = r.seed;
		if (bp->clean.pass == bo->seeds)
			bp->clean.pass--;	/* an anomaly, not a failure */
	}
	wt_scn_result_free(&r);
	/* an expectation was its only witness, and it went with them */
	if (!strcmp(row->bug->fires, "expectation")) {
		wt_scenario_free(u);
		return;
	}
	bp->det.run = true;
	for (unsigned j = 0; j < bo->policy_seeds; j++) {
		struct detection d = { .run = true };
		uint64_t seed = wt_scn_night_seed(bo->seed ^ 0xe4b1, j);
		struct bench_stop_arg sa = { .bug = row->bug,
					     .cpu0 = bench_cpu(),
					     .cap_s = bo->pct_cap_s };
		bool hit;

		bench_opts_init(&o, bo, seed, 1ull << row->bug->id,
				row->bug->name, -1);
		o.iterations = bo->policy_iters ? bo->policy_iters : UINT64_MAX;
		o.duration_ns = 0;
		o.stop = bench_stop;
		o.stop_arg = &sa;
		o.keep_failures = 64;	/* other failures may come first */
		if (wt_scn_run(u, &o, &r)) {
			wt_scn_result_free(&r);
			break;
		}
		hit = bench_fired(row->bug, &r, &d);
		bp->iters[bp->runs] = (double)r.iterations;
		bp->missed[bp->runs] = !hit;
		bp->runs++;
		if (!bp->det.kind[0] || (hit && !bp->found)) {
			memcpy(bp->det.kind, d.kind, sizeof(d.kind));
			memcpy(bp->det.check, d.check, sizeof(d.check));
		}
		if (hit) {
			if (!bp->found)
				bp->det.seed = seed;
			iters[bp->found] = (double)r.iterations;
			secs[bp->found] = bench_cpu() - sa.cpu0;
			bp->found++;
		} else if (!bp->found) {	/* what was spent before the cap */
			bp->det.iterations += r.iterations;
			bp->det.seconds += bench_cpu() - sa.cpu0;
		}
		wt_scn_result_free(&r);
	}
	det_settle(&bp->det, bp->found, bp->runs, iters, secs);
	wt_scenario_free(u);
}

struct gen_search {
	const struct wt_zoo_bug *bug;
	double cpu0, cap_s;
	double hit_s;		/* CPU s to the detecting workload's end */
	struct detection hit;	/* its witness (kind, check) */
};

/* fuzz's sought(): a failing workload whose failure is the bug's. */
static bool gen_sought(const struct wt_scn_result *r, void *arg)
{
	struct gen_search *g = arg;

	if (!bench_fired(g->bug, r, &g->hit))
		return false;
	g->hit_s = bench_cpu() - g->cpu0;
	return true;
}

/* fuzz's enough(): the CPU cap ran out. */
static bool gen_enough(void *arg)
{
	const struct gen_search *g = arg;

	return bench_cpu() - g->cpu0 >= g->cap_s;
}

/* Generated workloads with the bug under search k (gp_names): K runs. */
static void bench_generated(struct bench_row *row, const struct bench_opts *bo,
			    unsigned k)
{
	struct bench_gen *bg = &row->gen[k];
	double works[64], iters[64], secs[64];

	/* no generated workload has an expectation to miss */
	if (bo->gen_cap_s <= 0 || !strcmp(row->bug->fires, "expectation"))
		return;
	bg->det.run = true;
	for (unsigned j = 0; j < bo->policy_seeds; j++) {
		struct gen_search g = { .bug = row->bug, .cpu0 = bench_cpu(),
					.cap_s = bo->gen_cap_s };
		struct wt_fuzz_opts o = { .gen = { .policy = gp_policy[k] },
					  .sought = gen_sought,
					  .enough = gen_enough,
					  .search_arg = &g };
		struct wt_fuzz_result res;

		bench_opts_init(&o.run, bo, wt_scn_night_seed(bo->seed ^ 0x6e6, j),
				1ull << row->bug->id, row->bug->name, -1);
		o.run.iterations = 0;	/* each workload's own budget */
		if (wt_scn_fuzz(&o, &res))
			break;	/* a generator bug: reported */
		bg->runs++;
		if (res.first) {
			if (!bg->found) {
				bg->det.seed = o.run.seed;
				memcpy(bg->det.kind, g.hit.kind, sizeof(g.hit.kind));
				memcpy(bg->det.check, g.hit.check,
				       sizeof(g.hit.check));
			}
			works[bg->found] = (double)res.first;
			iters[bg->found] = (double)res.first_iterations;
			secs[bg->found] = g.hit_s;
			bg->found++;
		} else if (!bg->found) {	/* what was spent before the cap */
			bg->workloads += res.workloads;
			bg->det.iterations += res.iterations;
			bg->det.seconds += bench_cpu() - g.cpu0;
		}
	}
	det_settle(&bg->det, bg->found, bg->runs, iters, secs);
	if (bg->found)
		bg->workloads = (uint64_t)(median(works, bg->found) + 0.5);
	else if (bg->runs)
		bg->workloads /= bg->runs;
}

/*
 * In a child: stress iterations of s until the bug's check fires or cap
 * seconds passed (bugs 0: the clean run, which must not fail at all).
 * The answer comes back through fd as one line.
 */
static void bench_stress_child(const struct wt_zoo_bug *b,
			       const struct wt_scenario *s,
			       const struct bench_opts *bo, bool with_bug,
			       double cap_s, int fd)
{
	struct detection d = { .run = true };
	double t0 = wt_scn_now_s();
	FILE *f = fdopen(fd, "w");
	uint64_t k;

	for (k = 0; wt_scn_now_s() - t0 < cap_s; k++) {
		struct wt_scn_opts o;
		struct wt_scn_result r;
		bool hit;

		bench_opts_init(&o, bo, wt_scn_night_seed(bo->seed ^ 0x57e55, (unsigned)k),
				with_bug ? 1ull << b->id : 0,
				with_bug ? b->name : NULL, WT_SCN_STRESS);
		if (wt_scn_run(s, &o, &r)) {
			wt_scn_result_free(&r);
			break;
		}
		hit = with_bug ? bench_fired(b, &r, &d) : !r.pass;
		if (!with_bug && hit)
			bench_fired(b, &r, &d);	/* name the first failure */
		wt_scn_result_free(&r);
		if (hit) {
			d.found = true;
			d.iterations = k + 1;
			break;
		}
	}
	d.seconds = wt_scn_now_s() - t0;
	if (!d.found)
		d.iterations = k;
	fprintf(f, "%d %.6f %" PRIu64 " %s %s\n", d.found, d.seconds,
		d.iterations, d.kind[0] ? d.kind : "-",
		d.check[0] ? d.check : "-");
	fclose(f);
	_exit(0);
}

static void bench_stress_one(const struct wt_zoo_bug *b,
			     const struct wt_scenario *s,
			     const struct bench_opts *bo, bool with_bug,
			     double cap_s, struct detection *d)
{
	char line[256] = "", kind[32], check[32];
	double t0 = wt_scn_now_s();
	int fds[2], status = 0, found = 0;
	pid_t pid;
	FILE *f;

	d->run = true;
	fflush(NULL);
	if (pipe(fds) || (pid = fork()) < 0) {
		snprintf(d->kind, sizeof(d->kind), "fork: %s", strerror(errno));
		return;
	}
	if (!pid) {
		close(fds[0]);
		bench_stress_child(b, s, bo, with_bug, cap_s, fds[1]);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (f && !fgets(line, sizeof(line), f))
		line[0] = '\0';
	if (f)
		fclose(f);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status) || !line[0]) {
		d->crashed = true;
		d->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		d->seconds = wt_scn_now_s() - t0;
		snprintf(d->kind, sizeof(d->kind), "crash");
		return;
	}
	if (sscanf(line, "%d %lf %" SCNu64 " %31s %31s", &found, &d->seconds,
		   &d->iterations, kind, check) == 5) {
		d->found = found;
		snprintf(d->kind, sizeof(d->kind), "%s", strcmp(kind, "-") ? kind : "");
		snprintf(d->check, sizeof(d->check), "%s", strcmp(check, "-") ? check : "");
	}
}

static void bench_stress(struct bench_row *row, const struct bench_opts *bo)
{
	struct detection clean = { .run = false };
	struct wt_scenario *s;

	if (!row->bug->stress || bo->stress_cap_s <= 0)
		return;
	s = bench_load(row->bug->stress);
	if (!s)
		return;
	if (bo->stress_clean_s > 0)
		bench_stress_one(row->bug, s, bo, false, bo->stress_clean_s, &clean);
	row->stress_clean = !clean.found && !clean.crashed;
	bench_stress_one(row->bug, s, bo, true, bo->stress_cap_s, &row->stress);
	wt_scenario_free(s);
}

static json_t *detection_json(const struct detection *d)
{
	char seed[24];

	if (!d->run)
		return json_null();
	snprintf(seed, sizeof(seed), "%#" PRIx64, d->seed);
	return json_pack("{s:b, s:f, s:I, s:s?, s:s?, s:b, s:s?}",
			 "found", d->found, "seconds", d->seconds,
			 "iterations", (json_int_t)d->iterations,
			 "kind", d->kind[0] ? d->kind : NULL,
			 "check", d->check[0] ? d->check : NULL,
			 "crashed", d->crashed,
			 "seed", d->found && d->seed ? seed : NULL);
}

static json_t *clean_json(const struct clean *c)
{
	return json_pack("{s:i, s:i}", "passed", (int)c->pass, "runs",
			 (int)c->runs);
}

static void bench_print_det(const char *what, const struct detection *d)
{
	if (!d->run) {
		printf(" %s: n/a", what);
		return;
	}
	printf(" %s: found=%d seconds=%.4f iterations=%" PRIu64, what, d->found,
	       d->seconds, d->iterations);
	if (d->crashed)
		printf(" crashed=%d", d->signal);
	if (d->kind[0])
		printf(" first=%s%s%s", d->kind, d->check[0] ? ":" : "", d->check);
}

static bool clean_ok(const struct clean *c)
{
	return c->pass == c->runs;
}

static void bench_print_clean(const char *what, const struct clean *c)
{
	printf(" %s=%u/%u", what, c->pass, c->runs);
	if (!clean_ok(c))
		printf(" !!! %s_fail_seed=%#" PRIx64, what, c->fail_seed);
}

static bool bench_row_ok(const struct bench_row *row)
{
	for (unsigned k = 0; k < BP__COUNT; k++)
		if (!clean_ok(&row->pol[k].clean))
			return false;
	return clean_ok(&row->clean) &&
	       row->sim.found && (!row->stress.run || row->stress_clean);
}

static void bench_print(const struct bench_row *row)
{
	bool ok = bench_row_ok(row);

	printf("walktorture: zoo %s check=%s", row->bug->name, row->bug->fires);
	bench_print_clean("clean", &row->clean);
	bench_print_det("sim", &row->sim);
	printf(" seeds=%u", row->found_seeds);
	for (unsigned k = 0; k < BP__COUNT; k++) {
		char what[32];

		if (!row->pol[k].clean.runs)
			continue;
		snprintf(what, sizeof(what), "%s_clean", bp_names[k]);
		bench_print_clean(what, &row->pol[k].clean);
		bench_print_det(bp_names[k], &row->pol[k].det);
		if (row->pol[k].det.run)
			printf(" %s_runs=%u/%u", bp_names[k], row->pol[k].found,
			       row->pol[k].runs);
	}
	for (unsigned k = 0; k < GP__COUNT; k++) {
		const struct bench_gen *bg = &row->gen[k];

		if (!bg->det.run)
			continue;
		bench_print_det(gp_names[k], &bg->det);
		printf(" workloads=%" PRIu64 " %s_runs=%u/%u", bg->workloads,
		       gp_names[k], bg->found, bg->runs);
	}
	bench_print_det("stress", &row->stress);
	if (row->stress.run && !row->stress_clean)
		printf(" !!! stress load fails without the bug");
	printf(" %s\n", ok ? "PASS" : "FAIL");
	fflush(stdout);
}

/*
 * The median over the bugs both found of PCT's iterations to first
 * detection over explore's, and how many each found that the other did
 * not.
 */
static void bench_ratio(const struct bench_row *rows, unsigned n)
{
	double *ratio = calloc(n + 1, sizeof(*ratio));
	unsigned both = 0, pct_only = 0, explore_only = 0, measured = 0;

	for (unsigned i = 0; ratio && i < n; i++) {
		const struct detection *p = &rows[i].pol[BP_PCT].det;
		const struct detection *e = &rows[i].pol[BP_EXPLORE].det;

		if (!p->run || !e->run)
			continue;
		measured++;
		if (p->found && e->found)
			ratio[both++] = (double)p->iterations /
					(double)(e->iterations ? e->iterations : 1);
		else if (p->found)
			pct_only++;
		else if (e->found)
			explore_only++;
	}
	if (measured)
		printf("walktorture: zoo-bench iterations to first detection, "
		       "pct/explore: median %.2f over the %u bugs both found; "
		       "explore alone found %u, pct alone %u (of %u measured)\n",
		       both ? median(ratio, both) : 0.0, both, explore_only,
		       pct_only, measured);
	free(ratio);
}

/*
 * The median of a policy's iterations to first detection over ALL its
 * runs, a run that the cap stopped counting as the iterations it made:
 * a censored value (the bug needs more).  No value is above the true
 * one, so the median is a lower bound of the true median; *censored
 * says whether it may be below it (a censored run sorts at or below the
 * middle).  false when no run was made.
 */
static bool censored_median(const struct bench_policy *bp, double *med,
			    bool *censored)
{
	unsigned idx[64], n = bp->runs;

	if (!n)
		return false;
	for (unsigned i = 0; i < n; i++)
		idx[i] = i;
	/* insertion sort by value, a finished run before a censored tie */
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0; j--) {
			unsigned a = idx[j - 1], b = idx[j];

			if (bp->iters[a] < bp->iters[b] ||
			    (bp->iters[a] == bp->iters[b] &&
			     bp->missed[a] <= bp->missed[b]))
				break;
			idx[j - 1] = b;
			idx[j] = a;
		}
	*med = n % 2 ? bp->iters[idx[n / 2]] :
	       (bp->iters[idx[n / 2 - 1]] + bp->iters[idx[n / 2]]) / 2;
	*censored = false;
	for (unsigned i = 0; i <= n / 2; i++)
		*censored |= bp->missed[idx[i]];
	return true;
}

/* The bugs the second ratio is over: PCT needs at least this many. */
#define BENCH_HARD_ITERS	100

/*
 * What the issue's "median ratio PCT/explore" means, as far as one run
 * can say it.  The plain median (bench_ratio) is over the bugs both
 * found, so it is dominated by the bugs PCT finds in a handful of
 * iterations (where no policy can be 10x faster) and leaves out the
 * ones only explore finds.  This one is over the bugs whose PCT median
 * (every run, misses counted at their iterations: censored_median) is
 * at least BENCH_HARD_ITERS, each ratio a lower bound when PCT's median
 * is censored, an upper bound when explore's is; both censored says
 * nothing and is left out.
 */
static void bench_ratio_hard(const struct bench_row *rows, unsigned n)
{
	double *ratio = calloc(n + 1, sizeof(*ratio));
	unsigned k = 0, lower = 0, upper = 0, unknown = 0, measured = 0;
	char list[2048] = "";
	size_t len = 0;

	for (unsigned i = 0; ratio && i < n; i++) {
		const struct bench_policy *p = &rows[i].pol[BP_PCT];
		const struct bench_policy *e = &rows[i].pol[BP_EXPLORE];
		double pm, em, r;
		bool pc, ec;
		int w;

		if (!p->det.run || !e->det.run ||
		    !censored_median(p, &pm, &pc) ||
		    !censored_median(e, &em, &ec))
			continue;
		measured++;
		if (pm < BENCH_HARD_ITERS)
			continue;
		if (pc && ec) {
			unknown++;
			continue;
		}
		r = pm / (em >= 1 ? em : 1);
		ratio[k++] = r;
		lower += pc;
		upper += ec;
		w = snprintf(list + len, sizeof(list) - len, " %s=%s%.3g",
			     rows[i].bug->name, pc ? ">=" : ec ? "<=" : "", r);
		if (w > 0 && (size_t)w < sizeof(list) - len)
			len += (size_t)w;
	}
	if (measured)
		printf("walktorture: zoo-bench iterations to first detection, "
		       "pct/explore over the %u bugs pct needs >= %d for "
		       "(medians over every run, a run stopped by the cap "
		       "counted at its iterations: censored): median %s%.2f "
		       "(%u ratios lower bounds: pct censored; %u upper bounds: "
		       "explore censored; %u left out: both censored)%s%s\n",
		       k, BENCH_HARD_ITERS,
		       !k ? "" : lower && upper ? "~" : lower ? ">=" :
		       upper ? "<=" : "", k ? median(ratio, k) : 0.0, lower,
		       upper, unknown, k ? ":" : "", list);
	free(ratio);
}

static int bench_write(const char *file, struct bench_row *rows, unsigned n,
		       const struct bench_opts *bo, int argc, char **argv,
		       double duration_s, time_t started)
{
	struct wt_scn_result *res = calloc(n + 1, sizeof(*res));
	struct wt_scn_opts o;
	unsigned m = 0;
	char err[1024], *cmd = wt_scn_command_line(argc, argv);
	struct wt_scn_run_info info = {
		.command = cmd, .started = started, .duration_s = duration_s,
		.mode = "sim", .binding = "",
	};
	json_t *doc, *scs;
	int ret = 0;

	bench_opts_init(&o, bo, bo->seed, 0, NULL, -1);
	for (unsigned i = 0; i < n; i++)
		if (rows[i].have_result)
			res[m++] = rows[i].result;
	doc = wt_scn_results_json(res, m, &o, &info);
	scs = json_object_get(doc, "scenarios");
	for (unsigned i = 0, j = 0; i < n && scs; i++) {
		json_t *sc;

		if (!rows[i].have_result)
			continue;
		sc = json_array_get(scs, j++);
		json_object_set_new(sc, "bug", json_string(rows[i].bug->name));
		json_t *det = json_pack(
			"{s:s, s:s, s:o, s:i, s:o, s:o, s:b}",
			"bug", rows[i].bug->name, "check", rows[i].bug->fires,
			"clean", clean_json(&rows[i].clean),
			"found_seeds", (int)rows[i].found_seeds,
			"sim", detection_json(&rows[i].sim),
			"stress", detection_json(&rows[i].stress),
			"stress_clean", rows[i].stress_clean);

		for (unsigned k = 0; k < BP__COUNT; k++) {
			const struct bench_policy *bp = &rows[i].pol[k];
			char key[32];
			json_t *d = detection_json(&bp->det);
			double med = 0;
			bool cens = false;

			snprintf(key, sizeof(key), "%s_clean", bp_names[k]);
			json_object_set_new(det, key, bp->clean.runs ?
					    clean_json(&bp->clean) : json_null());
			if (json_is_object(d)) {
				censored_median(bp, &med, &cens);
				json_object_set_new(d, "runs", json_pack(
					"{s:i, s:i, s:f, s:b}", "found",
					(int)bp->found, "runs", (int)bp->runs,
					"median_all", med,
					"median_censored", cens));
			}
			json_object_set_new(det, bp_names[k], d);
		}
		for (unsigned k = 0; k < GP__COUNT; k++) {
			const struct bench_gen *bg = &rows[i].gen[k];
			json_t *d = detection_json(&bg->det);

			if (json_is_object(d)) {
				json_object_set_new(d, "workloads",
					json_integer((json_int_t)bg->workloads));
				json_object_set_new(d, "runs", json_pack(
					"{s:i, s:i}", "found", (int)bg->found,
					"runs", (int)bg->runs));
			}
			json_object_set_new(det, gp_names[k], d);
		}
		json_object_set_new(sc, "detection", det);
	}
	if (wt_results_write(file, doc, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		ret = -1;
	}
	json_decref(doc);
	free(res);
	free(cmd);
	return ret;
}

static int bench_duration(const char *v, double *s)
{
	uint64_t ns;
	const char *end;

	if (!strcmp(v, "0")) {		/* --stress-cap 0: no stress runs */
		*s = 0;
		return 0;
	}
	if (wt_duration_parse(v, &ns, &end) || *end)
		return wt_usage_error("zoo-bench: bad duration '%s' (e.g. 10s, 500ms)", v);
	*s = (double)ns * 1e-9;
	return 0;
}

enum {
	OPT_SEED = 1, OPT_SEEDS, OPT_SIM_CAP, OPT_PCT_CAP, OPT_STRESS_CAP,
	OPT_STRESS_CLEAN, OPT_JSON, OPT_UNDIRECTED_CAP, OPT_POLICY_SEEDS,
	OPT_POLICIES, OPT_POLICY_ITERATIONS, OPT_GENERATED_CAP,
};

const struct wt_opt wt_opts_zoo_bench[] = {
	WT_OPT("seed", OPT_SEED, 's', "S", "the first seed of the search (default 0x5eed)"),
	WT_OPT("seeds", OPT_SEEDS, 0, "N", "seeds per bug and backend (default 20)"),
	WT_OPT("sim-cap", OPT_SIM_CAP, 0, "T", "time cap of one sim search (default 10s)"),
	WT_OPT("undirected-cap", OPT_UNDIRECTED_CAP, 0, "T", "CPU-time cap of one search of each undirected policy; 0: none (default 10s)"),
	WT_OPT("policy-iters", OPT_POLICY_ITERATIONS, 0, "N", "also cap each of those searches at N iterations (default: no cap)"),
	WT_OPT("pct-cap", OPT_PCT_CAP, 0, "T", "the older name of --undirected-cap"),
	WT_OPT("policy-seeds", OPT_POLICY_SEEDS, 0, "K", "runs (run seeds) per bug and undirected policy, 1 to 64 (default 1)"),
	WT_OPT("policies", OPT_POLICIES, 0, "LIST", "the undirected policies measured (default random,pct,pos,explore)"),
	WT_OPT("generated-cap", OPT_GENERATED_CAP, 0, "T", "CPU-time cap of one search of generated workloads (fuzz, mix and explore, --policy-seeds runs); 0: none (default 0)"),
	WT_OPT("stress-cap", OPT_STRESS_CAP, 0, "T", "time cap of one stress search; 0: no stress runs (default 60s)"),
	WT_OPT("stress-clean", OPT_STRESS_CLEAN, 0, "T", "time of the clean stress run (default 1s)"),
	WT_OPT("json", OPT_JSON, 'j', "FILE", "write the table as JSON to FILE"),
	{ 0 }
};

/* An unknown bug name: the message, a suggestion and every name. */
static int unknown_bug(const char *name)
{
	wt_cli_unknown_bug("zoo-bench", name);
	return WT_EXIT_USAGE;
}

/* --policies random,pct,pos,explore (any of them) into a mask. */
static int bench_policies(const char *v, unsigned *mask)
{
	const char *c = v;

	*mask = 0;
	while (*c) {
		size_t n = strcspn(c, ",");
		unsigned k;

		for (k = 0; k < BP__COUNT; k++)
			if (strlen(bp_names[k]) == n && !strncmp(c, bp_names[k], n))
				break;
		if (k == BP__COUNT)
			return wt_usage_error("zoo-bench: bad --policies '%s' "
					      "(valid: random,pct,pos,explore)", v);
		*mask |= 1u << k;
		c += n + (c[n] == ',');
	}
	return *mask ? 0 : wt_usage_error("zoo-bench: empty --policies");
}

static int bench_option(int id, const char *v, struct bench_opts *bo,
			const char **json)
{
	uint64_t x;

	switch (id) {
	case OPT_SEED:
		if (wt_scn_parse_seed(v, &bo->seed))
			return wt_usage_error("zoo-bench: bad seed '%s'", v);
		break;
	case OPT_SEEDS:
		if (wt_scn_parse_seed(v, &x) || !x || x > 1000000)
			return wt_usage_error("zoo-bench: bad --seeds '%s'", v);
		bo->seeds = (unsigned)x;
		break;
	case OPT_SIM_CAP:
		return bench_duration(v, &bo->sim_cap_s);
	case OPT_PCT_CAP:
	case OPT_UNDIRECTED_CAP:
		return bench_duration(v, &bo->pct_cap_s);
	case OPT_POLICY_SEEDS:
		if (wt_scn_parse_seed(v, &x) || !x || x > 64)
			return wt_usage_error("zoo-bench: bad --policy-seeds '%s' "
					      "(1 to 64)", v);
		bo->policy_seeds = (unsigned)x;
		break;
	case OPT_POLICIES:
		return bench_policies(v, &bo->policies);
	case OPT_POLICY_ITERATIONS:
		if (wt_scn_parse_seed(v, &x) || !x)
			return wt_usage_error("zoo-bench: bad "
					      "--policy-iters '%s'", v);
		bo->policy_iters = x;
		break;
	case OPT_GENERATED_CAP:
		return bench_duration(v, &bo->gen_cap_s);
	case OPT_STRESS_CAP:
		return bench_duration(v, &bo->stress_cap_s);
	case OPT_STRESS_CLEAN:
		return bench_duration(v, &bo->stress_clean_s);
	case OPT_JSON:
		*json = v;
		break;
	}
	return 0;
}

static int bench_args(int argc, char **argv, struct bench_opts *bo,
		      const char **json, const struct wt_zoo_bug **sel,
		      unsigned *nsel)
{
	struct wt_opts p;
	const char *v;
	int id, ret = 0;

	if (wt_opts_begin(&p, argc, argv))
		return WT_EXIT_USAGE;
	while (!ret && (id = wt_opts_next(&p, &v)) > 0)
		ret = bench_option(id, v, bo, json);
	if (!ret && id < 0)
		ret = id == WT_OPTS_HELP ? -1 : WT_EXIT_USAGE;
	for (unsigned i = 0; !ret && i < p.npos; i++) {
		const struct wt_zoo_bug *b = wt_zoo_by_name(p.pos[i]);

		if (!b)
			ret = unknown_bug(p.pos[i]);
		else
			sel[(*nsel)++] = b;
	}
	wt_opts_end(&p);
	return ret;
}

int wt_cmd_zoo_bench(int argc, char **argv)
{
	struct bench_opts bo = { .seed = 0x5eed, .seeds = 20, .policy_seeds = 1,
				 .policies = (1u << BP__COUNT) - 1,
				 .sim_cap_s = 10,
				 .pct_cap_s = 10, .stress_cap_s = 60, .stress_clean_s = 1 };
	const struct wt_zoo_bug *all, **sel;
	struct bench_row *rows;
	const char *json = NULL;
	unsigned n, nsel = 0, bad = 0;
	time_t started = time(NULL);
	double t0 = wt_scn_now_s();
	int ret;

	all = wt_zoo_bugs(&n);
	sel = calloc((size_t)argc + n, sizeof(*sel));
	rows = calloc((size_t)argc + n, sizeof(*rows));
	bo.null = fopen("/dev/null", "w");
	if (!sel || !rows || !bo.null) {
		fprintf(stderr, "walktorture: !!! zoo-bench: out of memory\n");
		ret = WT_EXIT_USAGE;
		goto out;
	}
	ret = bench_args(argc, argv, &bo, &json, sel, &nsel);
	if (ret) {
		ret = ret < 0 ? WT_EXIT_OK : ret;	/* -1: --help */
		goto out;
	}
	if (!nsel)	/* every bug the zoo has a scenario for */
		for (unsigned i = 0; i < n; i++)
			if (all[i].scenario)
				sel[nsel++] = &all[i];
	printf("walktorture: zoo-bench seed=%#" PRIx64 " seeds=%u sim_cap=%.1fs "
	       "undirected_cap=%.1fs(cpu) policy_iters=%" PRIu64
	       " policy_seeds=%u generated_cap=%.1fs(cpu) stress_cap=%.1fs "
	       "bugs=%u\n",
	       bo.seed, bo.seeds, bo.sim_cap_s, bo.pct_cap_s, bo.policy_iters,
	       bo.policy_seeds, bo.gen_cap_s, bo.stress_cap_s, nsel);
	for (unsigned i = 0; i < nsel; i++) {
		struct bench_row *row = &rows[i];
		struct wt_scenario *s;

		row->bug = sel[i];
		if (!sel[i]->scenario) {
			printf("walktorture: zoo %s pending (no scenario yet) SKIP\n",
			       sel[i]->name);
			continue;
		}
		s = bench_load(sel[i]->scenario);
		if (!s) {
			ret = WT_EXIT_USAGE;
			goto out;
		}
		row->scenario = s;
		bench_clean(&row->clean, s, &bo);
		bench_search(row->bug, s, &bo, bo.sim_cap_s, &row->sim,
			     &row->found_seeds, row);
		for (unsigned k = 0; k < BP__COUNT; k++)
			if (bo.policies & (1u << k))
				bench_policy(row, s, &bo, k);
		for (unsigned k = 0; k < GP__COUNT; k++)
			bench_generated(row, &bo, k);
		bench_stress(row, &bo);
		bench_print(row);
		bad += !bench_row_ok(row);
	}
	printf("walktorture: zoo-bench %u caught, %u not\n", nsel - bad, bad);
	bench_ratio(rows, nsel);
	bench_ratio_hard(rows, nsel);
	ret = bad ? WT_EXIT_FAIL : WT_EXIT_OK;
	if (json && bench_write(json, rows, nsel, &bo, argc, argv,
				wt_scn_now_s() - t0, started))
		ret = WT_EXIT_USAGE;
out:
	for (unsigned i = 0; rows && i < nsel; i++) {
		if (rows[i].have_result)
			wt_scn_result_free(&rows[i].result);
		if (rows[i].scenario)
			wt_scenario_free(rows[i].scenario);
	}
	if (bo.null)
		fclose(bo.null);
	free(rows);
	free(sel);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * walktorture nightly [SUITES...] [OPTIONS] (wt_opts_nightly below)
 *
 * Every scenario of the suites (all shipped suites by default) under N
 * seeds derived from one night seed, with the scenarios' nightly budgets.
 * The jobs are the (seed, scenario) pairs in that order; --shard K/N runs
 * job j when j % N == K-1, so N shards together run every job once and a
 * merge of their results is the unsharded night.  The night's id is its
 * start second, made unique in OUT (claim_night_id); each seed's run
 * writes OUT/ID/results-SHARD-K.json, so a later night into the same OUT
 * keeps this one's results beside its reports.  The nightly index
 * (reports/) then records the night in the history database, writes one
 * HTML report per run into OUT/ID and OUT/index.html.
 *
 * Each directed scenario's undirected twin (scenario.h) runs after the
 * scenarios, with its nightly budget: the night measures how often
 * each path the directed files force happens with nobody forcing it.
 * Then each one's explore twin (NAME.explore, the schedule fuzzer of
 * scenarios/src/explore.h): --explore T per suite (default 15 s; 0:
 * none), shared evenly among the suite's directed scenarios -- in the
 * night's first seed only.  An explore run is a search that learns as
 * it goes: one run of T finds more than N runs of T/N, and a budget per
 * seed made a four-seed night (8 suites) spend 8 minutes of wall time
 * on explore alone, a thousand-seed night 33 hours.  So the night's
 * explore cost is 8 x T of CPU (2 minutes by default) whatever --seeds
 * says; under --shard the twins are spread over the shards like any
 * job.
 *
 * The default night is one seed, run --jobs at once (the online CPUs;
 * driver.c): every scenario at its nightly budget, the twins, the
 * explore twins and the generated workloads in under 3 minutes of an
 * idle 2-core machine (2 min 35 s, 459 scenarios, thirteenth session).
 * A farm with more time gives more --seeds; each adds the scenarios
 * and twins again, not the explore budget.
 *
 * Then --generated N generated workloads (`walktorture fuzz',
 * scenarios/src/generate.h; default 100 when no suite is named, or when
 * the pseudo-suite `generated' is), drawn from the night seed and
 * written to OUT/ID/generated/ before anything runs, so each failure's
 * replay command names a file that exists: workloads nobody wrote,
 * judged by the oracle and the safety checks.
 */

#define WT_NIGHT_EXPLORE_NS	(15ull * 1000000000ull)
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/night_dir.h"
#include "cli/results_journal.h"
#include "reports/reports.h"
#include "reports/unfinished.h"
#include "scenarios/src/driver.h"
#include "scenarios/src/fuzz.h"
#include "sim/sched/interrupt.h"

#define WT_NIGHT_GENERATED	100	/* generated workloads a night runs */
#define WT_NIGHT_SCENARIO_CAP_NS (1800ull * 1000000000ull) /* --scenario-cap */
#define WT_NIGHT_SEEDS_MAX	100000	/* --seeds: a year of nights is 365 */
#define WT_NIGHT_GENERATED_MAX	1000000	/* --generated: a file each */

struct night {
	unsigned seeds;
	uint64_t explore_ns;	/* per suite; 0: no explore twins */
	unsigned shard_k;	/* 1-based; 0: no sharding */
	unsigned shard_n;
	const char *out;
	const char *history;
	const char *ktap;	/* --ktap, --junit: of the whole night */
	const char *junit;
	unsigned generated;	/* generated workloads (scenarios/src/fuzz.h) */
};

static int parse_shard(const char *s, struct night *n)
{
	char *end;

	unsigned long k, of;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		return -1;
	k = strtoul(s, &end, 10);
	if (*end != '/' || !isdigit((unsigned char)end[1]))
		return -1;
	of = strtoul(end + 1, &end, 10);
	if (*end || errno || !k || !of || k > of || of > UINT_MAX)
		return -1;
	n->shard_k = (unsigned)k;
	n->shard_n = (unsigned)of;
	return 0;
}

/* Every shipped suite (the folders under the root), sorted. */
static unsigned all_suites(const char **v, unsigned max)
{
	const char *root = wt_scn_root();
	struct dirent **ents;
	int n = scandir(root, &ents, NULL, alphasort);
	unsigned k = 0;

	for (int i = 0; i < n; i++) {
		char *p;
		struct stat st;

		if (ents[i]->d_name[0] != '.' && strcmp(ents[i]->d_name, "src") &&
		    asprintf(&p, "%s/%s", root, ents[i]->d_name) >= 0) {
			if (!stat(p, &st) && S_ISDIR(st.st_mode) && k < max)
				v[k++] = p;
			else
				free(p);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	return k;
}

/* This shard's scenarios of seed k (jobs k*n .. k*n+n-1). */
/* An explore twin (wt_scn_list_explore_twins): run in seed 0 only. */
static bool explore_twin(const struct wt_scenario *s)
{
	return s->twin_of && s->policy == WT_SCN_EXPLORE;
}

static void shard_list(const struct wt_scn_list *all, unsigned k,
		       const struct night *n, struct wt_scn_list *mine)
{
	mine->n = 0;
	for (unsigned j = 0; j < all->n; j++) {
		uint64_t job = (uint64_t)k * all->n + j;

		if (k && explore_twin(all->v[j]))
			continue;
		if (!n->shard_n || job % n->shard_n == n->shard_k - 1)
			mine->v[mine->n++] = all->v[j];
	}
}

static int one_seed(const struct wt_scn_list *mine, struct wt_scn_opts *o,
		    const struct night *n, const char *id, unsigned k,
		    char **results, unsigned *failed_total, bool *sanitizer,
		    int argc, char **argv)
{
	char shard[32] = "", err[1024];
	struct wt_scn_result *r = NULL;
	unsigned nr = 0, failed = 0;
	time_t started = time(NULL);
	/* each scenario's result on disk as soon as it ends, so a night
	 * that is killed keeps what finished: the next night makes its
	 * results from it (reports/unfinished.h) */
	struct wt_cli_journal sj;
	struct wt_scn_run_info info;
	double t0 = wt_scn_now_s();
	bool written;
	json_t *doc;
	char *cmd;
	int ret;

	if (n->shard_n)
		snprintf(shard, sizeof(shard), "%u/%u", n->shard_k, n->shard_n);
	cmd = wt_scn_command_line(argc, argv);
	info = (struct wt_scn_run_info){
		.command = cmd, .shard = shard[0] ? shard : NULL,
		.started = started,
		.mode = o->mode == WT_SCN_STRESS ? "stress" : "sim",
		.binding = "",
	};
	if (asprintf(&results[k], "%s/%s/results-%u-%u-%u.json", n->out, id,
		     n->shard_n ? n->shard_k : 1, n->shard_n ? n->shard_n : 1,
		     k) < 0 ||
	    wt_cli_journal_start(&sj, results[k], o, &info)) {
		free(cmd);
		return -1;
	}
	fprintf(o->out, "walktorture: nightly run %u/%u seed=%#" PRIx64
		" scenarios=%u%s%s\n", k + 1, n->seeds, o->seed, mine->n,
		shard[0] ? " shard=" : "", shard);
	ret = wt_scn_run_all(mine, o, &r, &nr, &failed);
	*failed_total += failed;
	*sanitizer |= wt_scn_results_sanitizer(r, nr);
	info.duration_s = wt_scn_now_s() - t0;
	info.interrupted = wt_interrupted() ?
		wt_interrupt_name(wt_interrupted()) : NULL;
	doc = wt_scn_results_json(r, nr, o, &info);
	written = doc && !wt_results_write(results[k], doc, err, sizeof(err));
	if (!written) {
		fprintf(stderr, "walktorture: !!! %s\n", doc ? err : "out of memory");
		ret = -1;
	}
	/* the journal is kept when the results file could not be written */
	wt_cli_journal_end(&sj, written);
	json_decref(doc);
	free(cmd);
	wt_scn_results_free(r, nr);
	return ret;
}

static int night_index(const struct night *n, const char *id, char **results,
		       unsigned cnt, uint64_t night_seed)
{
	struct wt_night_run *runs = calloc(cnt + 1, sizeof(*runs));
	char err[1024], seed[24];
	int ret;

	if (!runs)
		return -1;
	for (unsigned i = 0; i < cnt; i++)
		runs[i].results = results[i];	/* the index writes each report */
	snprintf(seed, sizeof(seed), "%#" PRIx64, night_seed);
	ret = wt_nightly_index_runs(n->out, n->history, id, seed, runs, cnt,
				    err, sizeof(err));
	if (ret)
		fprintf(stderr, "walktorture: !!! nightly index: %s\n", err);
	else
		fprintf(stdout, "walktorture: nightly index %s/index.html\n",
			n->out);
	free(runs);
	return ret;
}

/* --ktap and --junit: every seed's results merged, a case per scenario. */
static int night_ci(const struct night *n, char **results)
{
	char err[1024];
	json_t *doc;
	int ret;

	if (!n->ktap && !n->junit)
		return 0;
	for (unsigned k = 0; k < n->seeds; k++)
		if (!results[k])
			return -1;	/* that seed's file was not written */
	if (wt_results_load_all((const char *const *)results, n->seeds, &doc,
				err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		return -1;
	}
	ret = wt_cli_ci_write(doc, n->ktap, n->junit);
	json_decref(doc);
	return ret;
}

/*
 * The night's generated workloads (`walktorture fuzz', generate.h): the
 * first n of the night seed, written to OUT/ID/generated/gen.HEX.yaml
 * before anything runs -- a failure's replay command names its file --
 * and loaded from there as suite "generated".  0, or -1 (reported).
 */
static int add_generated(struct wt_scn_list *all, const struct night *n,
			 const char *id, uint64_t night_seed)
{
	struct wt_gen_config cfg = { .policy = -1 };
	char err[1024], *dir = NULL;
	int ret = -1;

	if (!n->generated)
		return 0;
	if (asprintf(&dir, "%s/%s/%s", n->out, id, WT_FUZZ_SUITE) < 0 ||
	    wt_mkdirs(dir, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", dir ? err : "out of memory");
		free(dir);
		return -1;
	}
	for (unsigned j = 0; j < n->generated; j++) {
		struct wt_scn_error e = { 0 };
		struct wt_scenario *s;
		struct wt_atomic_file a;
		char name[64], *path = NULL;
		char *text = wt_gen_workload(wt_gen_seed(night_seed, j), &cfg,
					     name, sizeof(name));

		if (!text || asprintf(&path, "%s/%s.yaml", dir, name) < 0) {
			free(text);
			fprintf(stderr, "walktorture: !!! out of memory\n");
			goto out;
		}
		if (wt_atomic_open(&a, path, err, sizeof(err)) ||
		    fputs(text, a.f) < 0 ||
		    wt_atomic_commit(&a, err, sizeof(err))) {
			fprintf(stderr, "walktorture: !!! %s\n", err);
			free(text);
			free(path);
			goto out;
		}
		free(text);
		s = wt_scenario_load(path, WT_FUZZ_SUITE, &e);
		free(path);
		if (!s || wt_scn_list_add(all, s)) {
			fprintf(stderr, "walktorture: !!! generated workload %u: "
				"%s\n", j, e.set ? e.text : "out of memory");
			wt_scenario_free(s);
			goto out;
		}
	}
	ret = 0;
out:
	free(dir);
	return ret;
}

static int run_night(const char **args, unsigned nargs, struct wt_scn_opts *o,
		     const struct night *n, int argc, char **argv)
{
	struct wt_scn_list all = { 0 }, mine = { 0 };
	uint64_t night_seed = o->seed;
	char **results = calloc(n->seeds + 1, sizeof(*results));
	unsigned failed = 0;
	bool sanitizer = false;
	int ret = WT_EXIT_USAGE;
	char id[64], *history = NULL, *dir = NULL, err[1024];
	int lock = -1;

	if (!results || (nargs && wt_scn_list_load(&all, args, nargs, stderr)) ||
	    wt_scn_list_twins(&all, false, stderr) ||
	    (n->explore_ns &&
	     wt_scn_list_explore_twins(&all, n->explore_ns, stderr)) ||
	    wt_scn_list_check_machine(&all, o, stderr))
		goto out;	/* nothing runs half-parsed */
	/* where the night goes, before anything runs */
	if (wt_cli_output_dir("--out", n->out) ||
	    (!n->history && asprintf(&history, "%s/history.sqlite", n->out) < 0) ||
	    wt_cli_history_check("--history", n->history ? n->history : history) ||
	    wt_cli_output_file("--ktap", n->ktap) ||
	    wt_cli_output_file("--junit", n->junit))
		goto out;
	wt_night_tidy(n->out, n->history ? n->history : history, o->out);
	if (wt_night_claim_id(n->out, n->history ? n->history : history,
			      time(NULL), id, sizeof(id)))
		goto out;
	if (asprintf(&dir, "%s/%s", n->out, id) < 0)
		goto out;
	/* held while the night runs: the next night tells it from a dead one */
	if (wt_night_lock(dir, &lock, err, sizeof(err)))
		fprintf(stderr, "walktorture: !!! %s (if this night dies, the "
			"next one will not report it)\n", err);
	if (add_generated(&all, n, id, night_seed))
		goto out;
	mine.v = calloc(all.n + 1, sizeof(*mine.v));
	if (!mine.v)
		goto out;
	fprintf(o->out, "walktorture: night seed=%#" PRIx64 " seeds=%u "
		"scenarios=%u\n", night_seed, n->seeds, all.n);
	ret = WT_EXIT_OK;
	/* SIGINT/SIGTERM: the scenario running stops at an iteration
	 * boundary, its seed's results are written marked partial, and
	 * the night is not recorded (the history holds whole nights) */
	wt_interrupt_install();
	for (unsigned k = 0; k < n->seeds && !wt_interrupted(); k++) {
		o->seed = wt_scn_night_seed(night_seed, k);
		shard_list(&all, k, n, &mine);
		if (one_seed(&mine, o, n, id, k, results, &failed, &sanitizer,
			     argc, argv))
			ret = WT_EXIT_USAGE;
	}
	if (wt_interrupted()) {
		int sig = wt_interrupted();

		fprintf(o->out, "walktorture: night seed=%#" PRIx64 " interrupted "
			"by %s: partial results in %s/%s, not recorded in the "
			"history, no index\n", night_seed, wt_interrupt_name(sig),
			n->out, id);
		ret = 128 + sig;
		goto out;
	}
	if (night_index(n, id, results, n->seeds, night_seed) &&
	    ret == WT_EXIT_OK)
		ret = WT_EXIT_USAGE;
	if (night_ci(n, results) && ret == WT_EXIT_OK)
		ret = WT_EXIT_USAGE;
	if (ret == WT_EXIT_OK && failed)
		ret = WT_EXIT_FAIL;
	if (sanitizer)	/* a bug in the harness: not a night that failed */
		ret = WT_EXIT_SANITIZER;
out:
	if (lock >= 0)
		close(lock);
	free(dir);
	free(history);
	for (unsigned k = 0; results && k < n->seeds; k++)
		free(results[k]);
	free(results);
	free(mine.v);
	wt_scn_list_free(&all);
	return ret;
}

enum {
	OPT_SEEDS = WT_OPT_SCN__END, OPT_SHARD, OPT_OUT, OPT_HISTORY,
	OPT_EXPLORE, OPT_GENERATED, OPT_QUIET,
};

const struct wt_opt wt_opts_nightly[] = {
	WT_OPT_ENTRIES_SCN,
	WT_OPT("seeds", OPT_SEEDS, 0, "N", "seeds derived from the night's seed (default 1)"),
	WT_OPT("shard", OPT_SHARD, 0, "K/N", "run shard K of N (merge the N shards' results)"),
	WT_OPT("out", OPT_OUT, 'o', "DIR", "the nights' directory: results, reports, index (default nightly)"),
	WT_OPT("history", OPT_HISTORY, 0, "DB", "the history database (default DIR/history.sqlite)"),
	WT_OPT_ENTRIES_CI,
	WT_OPT("explore", OPT_EXPLORE, 0, "T", "each suite's explore-twin budget, in the first seed (default 15s; 0: none)"),
	WT_OPT("generated", OPT_GENERATED, 0, "N", "generated workloads to run besides the suites (default 100; 0: none)"),
	WT_OPT("quiet", OPT_QUIET, 'q', NULL, "verdicts and failures only: a passing scenario prints its verdict line; no progress"),
	WT_OPT_ENTRY_SCENARIO_CAP("1800s"),
	{ 0 }
};

int wt_cmd_nightly(int argc, char **argv)
{
	const char **args = calloc((size_t)argc + 64, sizeof(*args));
	struct night n = { .seeds = 1, .out = "nightly",
			   .explore_ns = WT_NIGHT_EXPLORE_NS };
	struct wt_scn_opts o;
	struct wt_opts p;
	unsigned nargs = 0, found = 0;
	bool seed_set = false, generated_set = false, only_generated = false;
	int ret = WT_EXIT_USAGE, id;
	const char *v;

	wt_cli_scn_defaults(&o);
	o.nightly = true;
	/* one scenario with a huge budget must not hold the night up */
	o.cap_ns = WT_NIGHT_SCENARIO_CAP_NS;
	if (!args || wt_opts_begin(&p, argc, argv)) {
		free(args);
		return WT_EXIT_USAGE;
	}
	while ((id = wt_opts_next(&p, &v)) > 0) {
		if (wt_cli_scn_option(id, v, &o, &seed_set) < 0)
			goto out;
		switch (id) {
		case OPT_SEEDS:
			if (wt_cli_count("nightly", "--seeds", v, 1,
					 WT_NIGHT_SEEDS_MAX, &n.seeds))
				goto out;
			break;
		case OPT_SHARD:
			if (parse_shard(v, &n)) {
				wt_usage_error("bad --shard '%s' (K/N, 1 <= K <= N)", v);
				goto out;
			}
			break;
		case OPT_OUT:
			n.out = v;
			break;
		case OPT_HISTORY:
			n.history = v;
			break;
		case WT_OPT_KTAP:
			n.ktap = v;
			break;
		case WT_OPT_JUNIT:
			n.junit = v;
			break;
		case OPT_EXPLORE:
			if (!strcmp(v, "0"))
				n.explore_ns = 0;
			else if (wt_cli_duration("--explore", v, &n.explore_ns))
				goto out;
			break;
		case OPT_GENERATED:
			if (wt_cli_count("nightly", "--generated", v, 0,
					 WT_NIGHT_GENERATED_MAX, &n.generated))
				goto out;
			generated_set = true;
			break;
		case OPT_QUIET:
			o.quiet = true;
			o.progress = false;
			break;
		case WT_OPT_SCENARIO_CAP:
			if (wt_cli_scenario_cap(v, &o))
				goto out;
			break;
		}
	}
	if (id < 0) {
		ret = wt_opts_exit(id);
		goto out;
	}
	for (unsigned i = 0; i < p.npos; i++) {
		if (!strcmp(p.pos[i], WT_FUZZ_SUITE))
			only_generated = true;
		else
			args[nargs++] = p.pos[i];
	}
	if (!seed_set)
		o.seed = wt_scn_random_seed();
	/* the generated workloads run by default, and alone when named */
	if (!generated_set && (!nargs || only_generated))
		n.generated = WT_NIGHT_GENERATED;
	if (!nargs && !only_generated)
		nargs = found = all_suites(args, 63);
	if (!nargs && !n.generated) {
		wt_usage_error("nightly: no suites under %s", wt_scn_root());
		goto out;
	}
	ret = run_night(args, nargs, &o, &n, argc, argv);
out:
	for (unsigned i = 0; i < found; i++)
		free((char *)args[i]);
	free(args);
	wt_opts_end(&p);
	return ret;
}

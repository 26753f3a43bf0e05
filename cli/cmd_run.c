/* SPDX-License-Identifier: MIT */
/*
 * walktorture run SCENARIO|SUITE... [OPTIONS] (wt_opts_run below)
 *
 * --undirected runs each directed scenario's undirected twin in its
 * place (scenario.h: the schedule and the exact expectations dropped,
 * PCT, a twin's budget), and measures how often each path the directed
 * file forces happens on its own; scenarios without a schedule run as
 * they are.
 *
 * --trace (stress mode): trace every iteration, and write a failing
 * iteration's observed order to DIR (--out, else the current directory)
 * as NAME-SEED.order; its replay command replays that order in sim mode.
 *
 * --policy P runs every scenario without a schedule under P (an
 * undirected twin's too; a directed scenario keeps its schedule), and
 * its failures' replay lines say so (README, "Policies").
 *
 * --memory overrides the memory model of every sim-mode scenario (its
 * `memory:' key); stress-mode scenarios run on the machine's memory.
 *
 * --generate runs generated workloads instead of files: the rest of the
 * line is `walktorture fuzz''s (cmd_fuzz.c), which does the work, so the
 * two spellings cannot drift apart.
 *
 * Every file is loaded and validated before the first iteration runs; a
 * bad file is reported as file:line:col and nothing runs (exit 2).
 */
#define _GNU_SOURCE	/* asprintf */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/results_journal.h"
#include "core/zoo.h"
#include "sim/nearest.h"
#include "reports/reports.h"
#include "scenarios/src/driver.h"
#include "sim/sched/cpus.h"
#include "sim/sched/interrupt.h"

/* --cpus LIST: its syntax, and every PU on this machine, whatever the
 * mode (a stress-mode scenario in the list would bind to it), before
 * anything runs.  0, or -1 (reported). */
static int cpus_option(const char *v)
{
	unsigned cpus[WT_CPUS_MAX];
	char msg[512];
	int n = wt_cpus_parse(v, cpus, WT_CPUS_MAX, msg, sizeof(msg));

	if (n < 0) {
		wt_usage_error("--cpus %s", msg);
		return -1;
	}
	if (wt_cpus_check(cpus, (unsigned)n, NULL, msg, sizeof(msg))) {
		wt_usage_error("--cpus '%s': %s", v, msg);
		return -1;
	}
	return 0;
}

void wt_cli_unknown_bug(const char *cmd, const char *name)
{
	const struct wt_zoo_bug *bugs;
	const char **names;
	char dym[128] = "";
	unsigned n;

	bugs = wt_zoo_bugs(&n);
	names = calloc(n + 1, sizeof(*names));
	for (unsigned i = 0; names && i < n; i++)
		names[i] = bugs[i].name;
	if (names)
		wt_nearest_text(dym, sizeof(dym), name, names, n);
	wt_usage_error("%s: unknown bug '%s'%s", cmd, name, dym);
	wt_scn_bug_print(stderr);
	free(names);
}

int wt_cli_duration(const char *opt, const char *v, uint64_t *ns)
{
	const char *end;

	if (wt_duration_parse(v, ns, &end) || *end || !*ns) {
		wt_usage_error("bad %s '%s' (a duration, e.g. 30s, 500ms, 25m)", opt, v);
		return -1;
	}
	/* a bare number: the parser's nanoseconds, never what was meant */
	if (!isalpha((unsigned char)end[-1])) {
		wt_usage_error("%s '%s': give a unit (ns, us, ms, s, m or h), e.g. "
			       "%ss", opt, v, v);
		return -1;
	}
	return 0;
}

/* Options shared by run, nightly and replay; 1 applied, 0 not ours, -1
 * bad (reported). */
int wt_cli_scn_option(int id, const char *v, struct wt_scn_opts *o,
		      bool *seed_set)
{
	switch (id) {
	case WT_OPT_SEED:
		if (wt_scn_parse_seed(v, &o->seed)) {
			wt_usage_error("bad seed '%s'", v);
			return -1;
		}
		*seed_set = true;
		break;
	case WT_OPT_MODE:
		if (strcmp(v, "sim") && strcmp(v, "stress")) {
			wt_usage_error("unknown mode '%s' (valid: sim, stress)", v);
			return -1;
		}
		o->mode = strcmp(v, "sim") ? WT_SCN_STRESS : WT_SCN_SIM;
		break;
	case WT_OPT_ITERATIONS:
		if (wt_scn_parse_seed(v, &o->iterations) || !o->iterations) {
			wt_usage_error("bad --iterations '%s' (a count >= 1)", v);
			return -1;
		}
		break;
	case WT_OPT_DURATION:
		if (wt_cli_duration("--duration", v, &o->duration_ns))
			return -1;
		break;
	case WT_OPT_MEMORY:
		return wt_cli_memory_parse(v, o) ? -1 : 1;
	case WT_OPT_POLICY:
		return wt_cli_policy_parse(v, o) ? -1 : 1;
	case WT_OPT_CPUS:
		if (cpus_option(v))
			return -1;
		o->cpus = v;
		break;
	case WT_OPT_JOBS:
		return wt_cli_jobs(v, o) ? -1 : 1;
	case WT_OPT_BUG:
		if (wt_scn_bug_parse(v, &o->bugs)) {
			wt_cli_unknown_bug("--bug", v);
			return -1;
		}
		o->bug = v;
		break;
	default:
		return 0;
	}
	return 1;
}

int wt_cli_memory_parse(const char *v, struct wt_scn_opts *o)
{
	if (!strcmp(v, "sc"))
		o->memory = WT_SCN_SC;
	else if (!strcmp(v, "tso"))
		o->memory = WT_SCN_TSO;
	else if (!strcmp(v, "pso"))
		o->memory = WT_SCN_PSO;
	else {
		wt_usage_error("unknown memory model '%s' (valid: sc, tso, pso)", v);
		return -1;
	}
	return 0;
}

int wt_cli_policy_parse(const char *v, struct wt_scn_opts *o)
{
	int p = wt_scn_policy_parse(v);

	/* directed needs a schedule, which --policy cannot give */
	if (p < 0 || p == WT_SCN_DIRECTED) {
		wt_usage_error("unknown policy '%s' (valid: random, pct, pos, "
			       "explore)", v);
		return -1;
	}
	o->policy_set = true;
	o->policy = (enum wt_scn_policy)p;
	return 0;
}

/* Digits only: strtoul takes "-1" as ULONG_MAX, which once sized a
 * calloc that wrapped. */
int wt_cli_count(const char *cmd, const char *opt, const char *v,
		 unsigned lo, unsigned hi, unsigned *out)
{
	unsigned long x;
	char *end;

	errno = 0;
	x = isdigit((unsigned char)*v) ? strtoul(v, &end, 10) : 0;
	if (!isdigit((unsigned char)*v) || *end || errno || x < lo || x > hi) {
		wt_usage_error("%s%sbad %s '%s' (a count from %u to %u)",
			       cmd ? cmd : "", cmd ? ": " : "", opt, v, lo, hi);
		return -1;
	}
	*out = (unsigned)x;
	return 0;
}

/* --jobs N: 1 to WT_CLI_JOBS_MAX; 0, or -1 (reported). */
int wt_cli_jobs(const char *v, struct wt_scn_opts *o)
{
	return wt_cli_count(NULL, "--jobs", v, 1, WT_CLI_JOBS_MAX, &o->jobs);
}

/* The default of --jobs: a child per online CPU (at least one). */
static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > WT_CLI_JOBS_MAX ? WT_CLI_JOBS_MAX : (unsigned)n;
}

void wt_cli_scn_defaults(struct wt_scn_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = -1;
	o->memory = -1;
	o->out = stdout;
	o->progress = isatty(STDERR_FILENO);
	/* a log: a progress line every WT_PROGRESS_INTERVAL seconds (30) */
	o->progress_log = !o->progress;
	o->progress_every_s = getenv("WT_PROGRESS_INTERVAL") ?
			      atof(getenv("WT_PROGRESS_INTERVAL")) : 30;
	/* WT_ISOLATE=0: every scenario in this process (a debugger's view
	 * of a crash); else each in a child (scenarios/src/isolate.c) */
	o->isolate = !getenv("WT_ISOLATE") || strcmp(getenv("WT_ISOLATE"), "0");
	o->jobs = online_cpus();
}

/* *json_written: --json's file is whole (its journal may go). */
static int write_outputs(const char *json_file, const char *out_dir,
			 json_t *doc, bool *json_written)
{
	char err[1024], *path = NULL, *html = NULL;
	int ret = 0;

	*json_written = json_file && doc &&
			!wt_results_write(json_file, doc, err, sizeof(err));
	if (json_file && !*json_written) {
		fprintf(stderr, "walktorture: !!! %s\n",
			doc ? err : "out of memory");
		ret = -1;
	}
	if (!out_dir)
		return ret;
	if (wt_mkdirs(out_dir, err, sizeof(err)) ||
	    asprintf(&path, "%s/results.json", out_dir) < 0 ||
	    asprintf(&html, "%s/report.html", out_dir) < 0 ||
	    wt_results_write(path, doc, err, sizeof(err)) ||
	    wt_report_write(html, (const char *const *)&path, 1, err,
			    sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		ret = -1;
	}
	free(path);
	free(html);
	return ret;
}

enum {
	OPT_JSON = WT_OPT_SCN__END, OPT_OUT, OPT_TRACE, OPT_UNDIRECTED,
	OPT_QUIET, OPT_GENERATE,
};

const struct wt_opt wt_opts_run[] = {
	WT_OPT_ENTRIES_SCN,
	WT_OPT("out", OPT_OUT, 'o', "DIR", "write DIR/results.json and DIR/report.html (and --trace's orders)"),
	WT_OPT("json", OPT_JSON, 'j', "FILE", "write the results as JSON to FILE (reports/SCHEMA.md)"),
	WT_OPT_ENTRIES_CI,
	WT_OPT("trace", OPT_TRACE, 0, NULL, "stress mode: trace, and write a failure's order as NAME-SEED.order"),
	WT_OPT("undirected", OPT_UNDIRECTED, 0, NULL, "run each directed scenario's undirected twin instead"),
	WT_OPT("quiet", OPT_QUIET, 'q', NULL, "verdicts and failures only: a passing scenario prints its verdict line; no progress"),
	WT_OPT_ENTRY_SCENARIO_CAP("none"),
	WT_OPT("generate", OPT_GENERATE, 0, NULL, "generated workloads instead of files: the other options are fuzz's (walktorture fuzz)"),
	{ 0 }
};

int wt_cli_scenario_cap(const char *v, struct wt_scn_opts *o)
{
	if (!strcmp(v, "0")) {
		o->cap_ns = 0;
		return 0;
	}
	return wt_cli_duration("--scenario-cap", v, &o->cap_ns);
}

/*
 * `run --generate ARGS' is `fuzz ARGS'.  Looked for before run's own
 * options are parsed, since the rest are fuzz's (--workloads, ...); up
 * to a `--', as getopt would.  0 when absent, else fuzz's exit status.
 */
static int run_generate(int argc, char **argv, bool *found)
{
	char **fargv;
	int k = 1, ret;

	*found = false;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--generate"))
			*found = true;
	if (!*found)
		return 0;
	fargv = calloc((size_t)argc + 1, sizeof(*fargv));
	if (!fargv) {
		wt_usage_error("run: out of memory");
		return WT_EXIT_USAGE;
	}
	fargv[0] = (char *)"fuzz";
	for (int i = 1, past = 0; i < argc; i++) {
		past |= !strcmp(argv[i], "--");
		if (past || strcmp(argv[i], "--generate"))
			fargv[k++] = argv[i];
	}
	ret = wt_cmd_fuzz(k, fargv);
	free(fargv);
	return ret;
}

/*
 * A journal of FILE left by a run that did not finish (killed before it
 * wrote FILE) holds that run's finished scenarios: it is not overwritten
 * (exit 2 before anything runs) but named, with the command that makes
 * its results.
 */
static bool journal_left(const char *json_file)
{
	char *path = wt_cli_journal_path(json_file);
	bool left = path && access(path, F_OK) == 0;

	if (left)
		fprintf(stderr, "walktorture: %s: the journal of a run that did "
			"not finish (its finished scenarios): make its results "
			"with `walktorture merge %s -o %s', or remove it\n",
			path, path, json_file);
	else if (!path)
		fprintf(stderr, "walktorture: out of memory\n");
	free(path);
	return left || !path;
}

int wt_cmd_run(int argc, char **argv)
{
	const char *json_file = NULL, *out_dir = NULL, *v;
	const char *ktap = NULL, *junit = NULL;
	const char *const *args = NULL;
	struct wt_scn_list l = { 0 };
	struct wt_scn_result *r = NULL;
	struct wt_scn_opts o;
	struct wt_opts p;
	unsigned nargs = 0, nr = 0, failed = 0;
	bool seed_set = false, iters = false, dur = false, undirected = false;
	int ret = WT_EXIT_USAGE, id, sig = 0;
	time_t started = time(NULL);
	struct timespec t0, t1;
	struct wt_cli_journal journal;
	bool generate, journaling = false;
	char *jcmd = NULL;

	ret = run_generate(argc, argv, &generate);
	if (generate)
		return ret;
	ret = WT_EXIT_USAGE;
	wt_cli_scn_defaults(&o);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (wt_opts_begin(&p, argc, argv))
		return WT_EXIT_USAGE;
	while ((id = wt_opts_next(&p, &v)) > 0) {
		int k = wt_cli_scn_option(id, v, &o, &seed_set);

		if (k < 0)
			goto out;
		iters |= id == WT_OPT_ITERATIONS;
		dur |= id == WT_OPT_DURATION;
		if (id == OPT_JSON)
			json_file = v;
		else if (id == OPT_OUT)
			out_dir = v;
		else if (id == WT_OPT_KTAP)
			ktap = v;
		else if (id == WT_OPT_JUNIT)
			junit = v;
		else if (id == OPT_TRACE)
			o.trace_stress = true;
		else if (id == OPT_UNDIRECTED)
			undirected = true;
		else if (id == OPT_QUIET)
			o.quiet = true;
		else if (id == WT_OPT_SCENARIO_CAP &&
			 wt_cli_scenario_cap(v, &o))
			goto out;
		else if (id == OPT_GENERATE) {
			/* an abbreviation getopt expanded (run_generate
			 * looks for the whole word) */
			wt_usage_error("run: write --generate in full");
			goto out;
		}
	}
	if (id < 0) {
		ret = wt_opts_exit(id);
		goto out;
	}
	args = p.pos;
	nargs = p.npos;
	if (o.quiet)
		o.progress = false;
	if (!nargs) {
		wt_usage_error("run: no scenario or suite given");
		wt_scn_print_suites(stderr);
		goto out;
	}
	if (iters && dur) {
		wt_usage_error("run: --iterations and --duration exclude each other");
		goto out;
	}
	if ((o.memory == WT_SCN_TSO || o.memory == WT_SCN_PSO) &&
	    o.mode == WT_SCN_STRESS) {
		wt_usage_error("run: --memory tso/pso is the sim backend's; stress "
			       "runs on the machine's memory");
		goto out;
	}
	if (o.trace_stress && o.mode != WT_SCN_STRESS) {
		wt_usage_error("run: --trace is for --mode stress (sim runs "
			       "trace what fails anyway)");
		goto out;
	}
	/* the cap on a scenario's --trace order files (runner.h) */
	if (getenv("WT_TRACE_MAX_BYTES")) {
		const char *cap = getenv("WT_TRACE_MAX_BYTES");
		char *end;

		errno = 0;
		o.order_max_bytes = strtoull(cap, &end, 10);
		if (!isdigit((unsigned char)*cap) || *end || errno ||
		    !o.order_max_bytes) {
			wt_usage_error("run: bad WT_TRACE_MAX_BYTES '%s' (a "
				       "number of bytes, at least 1)", cap);
			goto out;
		}
	}
	/* where the results go, before anything runs */
	if (wt_cli_output_dir("--out", out_dir) ||
	    wt_cli_output_file("--json", json_file) ||
	    wt_cli_output_file("--ktap", ktap) ||
	    wt_cli_output_file("--junit", junit))
		goto out;
	if (json_file && journal_left(json_file))
		goto out;
	o.order_dir = out_dir;
	if (!seed_set)
		o.seed = wt_scn_random_seed();
	if (wt_scn_list_load(&l, args, nargs, stderr) ||
	    (undirected && wt_scn_list_twins(&l, true, stderr)) ||
	    wt_scn_list_check_machine(&l, &o, stderr))
		goto out;	/* nothing runs half-parsed */
	fprintf(o.out, "walktorture: run seed=%#" PRIx64 " scenarios=%u\n",
		o.seed, l.n);
	/* SIGINT/SIGTERM: the run stops at an iteration boundary and
	 * writes what it has, marked partial; a second one exits at once */
	wt_interrupt_install();
	/* --json: each scenario's result on disk as soon as it ends, so a
	 * run that is killed keeps what finished (results_journal.h) */
	if (json_file) {
		struct wt_scn_run_info ji = {
			.command = jcmd = wt_scn_command_line(argc, argv),
			.started = started, .binding = "",
			.mode = o.mode == WT_SCN_STRESS ? "stress" : "sim",
		};

		if (!jcmd || wt_cli_journal_start(&journal, json_file, &o, &ji))
			goto out;
		journaling = true;
	}
	ret = wt_scn_run_all(&l, &o, &r, &nr, &failed) ? WT_EXIT_USAGE :
	      failed ? WT_EXIT_FAIL : WT_EXIT_OK;
	if (wt_scn_results_sanitizer(r, nr))
		ret = WT_EXIT_SANITIZER;
	sig = wt_interrupted();
	if (sig) {
		fprintf(o.out, "walktorture: run seed=%#" PRIx64 " interrupted "
			"by %s: %u of %u scenarios ran; results partial\n",
			o.seed, wt_interrupt_name(sig), nr, l.n);
		ret = 128 + sig;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (json_file || out_dir || ktap || junit) {
		char *cmd = wt_scn_command_line(argc, argv);
		struct wt_scn_run_info info = {
			.command = cmd, .started = started,
			.duration_s = (double)(t1.tv_sec - t0.tv_sec) +
				      (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9,
			.mode = o.mode == WT_SCN_STRESS ? "stress" : "sim",
			.binding = nr && r[0].binding[0] ? r[0].binding : "",
			.interrupted = sig ? wt_interrupt_name(sig) : NULL,
		};
		json_t *doc = wt_scn_results_json(r, nr, &o, &info);
		bool written;

		if ((write_outputs(json_file, out_dir, doc, &written) |
		     wt_cli_ci_write(doc, ktap, junit)) && !sig &&
		    ret == WT_EXIT_OK)
			ret = WT_EXIT_USAGE;
		if (journaling)
			wt_cli_journal_end(&journal, written);
		journaling = false;
		json_decref(doc);
		free(cmd);
	}
out:
	if (journaling)
		wt_cli_journal_end(&journal, false);
	free(jcmd);
	wt_scn_results_free(r, nr);
	wt_scn_list_free(&l);
	wt_opts_end(&p);
	return ret;
}

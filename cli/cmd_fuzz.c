/* SPDX-License-Identifier: MIT */
/*
 * walktorture fuzz [OPTION...]		(wt_opts_fuzz below)
 *
 * Generated workloads (scenarios/src/generate.h), judged by the oracle
 * and the safety checks only.  It stops at the first failing workload
 * (--keep-going: runs them all) and writes that workload as a scenario
 * file, DIR/gen.HEX.yaml (DIR: --out, else the current directory), whose
 * `rerun:' and `replay:' lines reproduce the failure.  Exit 0 when every
 * workload passed, 1 when one failed, 2 on bad usage or a generator
 * error.  Sim mode only: a generated failure must replay.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "reports/reports.h"
#include "scenarios/src/driver.h"
#include "scenarios/src/fuzz.h"

/* The reproducer, written atomically (reports/). */
static int save(const char *path, const char *text, void *arg)
{
	struct wt_atomic_file a;
	char err[1024];

	(void)arg;
	if (wt_atomic_open(&a, path, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		return -1;
	}
	fputs(text, a.f);
	if (wt_atomic_commit(&a, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		wt_atomic_abort(&a);
		return -1;
	}
	return 0;
}

static int count(const char *opt, const char *v, uint64_t max, uint64_t *out)
{
	if (wt_scn_parse_seed(v, out) || !*out || *out > max) {
		wt_usage_error("fuzz: bad %s '%s' (a count, 1 to %" PRIu64 ")",
			       opt, v, max);
		return -1;
	}
	return 0;
}

enum {
	OPT_WORKLOADS = WT_OPT_SCN__END, OPT_FIRST, OPT_THREADS, OPT_POLICY,
	OPT_OUT, OPT_KEEP_GOING, OPT_VERBOSE,
};

const struct wt_opt wt_opts_fuzz[] = {
	WT_OPT_ENTRY_SEED,
	WT_OPT("workloads", OPT_WORKLOADS, 'w', "N", "generated workloads to run (default 100)"),
	WT_OPT("duration", WT_OPT_DURATION, 'd', "T", "generate until T is up, e.g. 60s (instead of --workloads)"),
	WT_OPT("first", OPT_FIRST, 0, "J", "start at workload J of the seed (default 0)"),
	WT_OPT("iterations", WT_OPT_ITERATIONS, 'n', "N", "iterations per workload (default 20)"),
	WT_OPT("threads", OPT_THREADS, 't', "N", "threads per workload, 2 to 8 (default: drawn, 2 to 4)"),
	WT_OPT("policy", OPT_POLICY, 0, "P", "the schedule policy: mix (default: PCT 3 in 4, else random), pct, random, pos, explore"),
	WT_OPT_ENTRY_BUG,
	WT_OPT("memory", WT_OPT_MEMORY, 0, "sc|tso|pso", "every workload under this memory model (default: drawn, tso 1 in 8, pso 1 in 8, else sc)"),
	WT_OPT("out", OPT_OUT, 'o', "DIR", "where a failing workload's scenario file goes (default .)"),
	WT_OPT("keep-going", OPT_KEEP_GOING, 'k', NULL, "run every workload, not only up to the first failure"),
	WT_OPT("verbose", OPT_VERBOSE, 'v', NULL, "every workload's lines, not only a failure's"),
	{ 0 }
};

/* One option: 0, or -1 (reported). */
static int option(int id, const char *v, struct wt_fuzz_opts *o,
		  bool *seed_set)
{
	uint64_t x;

	switch (id) {
	case WT_OPT_SEED:
	case WT_OPT_BUG:
	case WT_OPT_MEMORY:
		return wt_cli_scn_option(id, v, &o->run, seed_set) < 0 ? -1 : 0;
	case OPT_WORKLOADS:
		return count("--workloads", v, UINT64_MAX >> 1, &o->workloads);
	case OPT_FIRST:
		if (wt_scn_parse_seed(v, &o->first))
			return wt_usage_error("fuzz: bad --first '%s'", v), -1;
		return 0;
	case WT_OPT_DURATION:
		return wt_cli_duration("--duration", v, &o->duration_ns);
	case WT_OPT_ITERATIONS:
		return count("--iterations", v, 1000000, &o->gen.iterations);
	case OPT_THREADS:
		if (count("--threads", v, WT_GEN_THREADS_MAX, &x))
			return -1;
		if (x < 2)
			return wt_usage_error("fuzz: bad --threads '%s' (2 to %d: "
					      "a walker and a writer)", v,
					      WT_GEN_THREADS_MAX), -1;
		o->gen.threads = (unsigned)x;
		return 0;
	case OPT_POLICY:
		if (!strcmp(v, "mix"))
			o->gen.policy = -1;
		else if (!strcmp(v, "pct"))
			o->gen.policy = WT_SCN_PCT;
		else if (!strcmp(v, "random"))
			o->gen.policy = WT_SCN_RANDOM;
		else if (!strcmp(v, "pos"))
			o->gen.policy = WT_SCN_POS;
		else if (!strcmp(v, "explore"))
			o->gen.policy = WT_SCN_EXPLORE;
		else
			return wt_usage_error("fuzz: unknown policy '%s' (valid: "
					      "mix, pct, random, pos, explore)",
					      v), -1;
		return 0;
	case OPT_OUT:
		o->dir = v;
		return 0;
	case OPT_KEEP_GOING:
		o->keep_going = true;
		return 0;
	case OPT_VERBOSE:
		o->verbose = true;
		return 0;
	}
	return 0;
}

int wt_cmd_fuzz(int argc, char **argv)
{
	struct wt_fuzz_opts o = { .gen = { .policy = -1 } };
	struct wt_fuzz_result res;
	bool seed_set = false, count_set = false, dur = false;
	struct wt_opts p;
	const char *v;
	char err[1024];
	int id, ret = WT_EXIT_USAGE;

	wt_cli_scn_defaults(&o.run);
	if (wt_opts_begin(&p, argc, argv))
		return WT_EXIT_USAGE;
	while ((id = wt_opts_next(&p, &v)) > 0) {
		count_set |= id == OPT_WORKLOADS;
		dur |= id == WT_OPT_DURATION;
		if (option(id, v, &o, &seed_set))
			goto out;
	}
	if (id < 0) {
		ret = wt_opts_exit(id);
		goto out;
	}
	if (p.npos) {
		wt_usage_error("fuzz: no operands (got '%s'): the workloads are "
			       "generated", p.pos[0]);
		goto out;
	}
	if (count_set && dur) {
		wt_usage_error("fuzz: --workloads and --duration exclude each "
			       "other");
		goto out;
	}
	if (o.dir && wt_mkdirs(o.dir, err, sizeof(err))) {
		wt_usage_error("fuzz: %s", err);
		goto out;
	}
	if (!seed_set)
		o.run.seed = wt_scn_random_seed();
	o.save = save;
	fprintf(o.run.out, "walktorture: fuzz seed=%#" PRIx64 "%s%s\n",
		o.run.seed, o.run.bug ? " bug=" : "", o.run.bug ? o.run.bug : "");
	if (wt_scn_fuzz(&o, &res))
		goto out;
	ret = res.failed ? WT_EXIT_FAIL : WT_EXIT_OK;
out:
	wt_opts_end(&p);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * Results JSON (reports/SCHEMA.md, schema version 1): the document.  The
 * cli writes it with reports/' wt_results_write (temporary file beside
 * the target, fsync, rename), the one atomic writer: scenarios/ does not
 * link reports/, and writes no files.
 */
#define _GNU_SOURCE	/* strdup, gethostname */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenarios/src/runner.h"
#include "sim/inject.h"
#include "wt_git_rev.h"	/* generated at build time */

static void hex(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%#" PRIx64, v);
}

static char *cpu_model(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	if (!f)
		return strdup("unknown");
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !c)
			continue;
		fclose(f);
		c += 1 + strspn(c + 1, " \t");
		c[strcspn(c, "\n")] = '\0';
		return strdup(c);
	}
	fclose(f);
	return strdup("unknown");
}

static json_t *machine(void)
{
	char host[256] = "unknown";
	char *model = cpu_model();
	json_t *m;

	gethostname(host, sizeof(host) - 1);
	m = json_pack("{s:s, s:I, s:s}", "hostname", host, "cpus",
		      (json_int_t)sysconf(_SC_NPROCESSORS_ONLN), "model",
		      model ? model : "unknown");
	free(model);
	return m;
}

/* The run's memory model: the one every scenario ran under, else "mixed". */
static const char *run_memory(const struct wt_scn_result *r, unsigned n)
{
	const char *m = NULL;

	for (unsigned i = 0; i < n; i++) {
		if (r[i].skipped)
			continue;
		if (m && strcmp(m, wt_scn_memory_name(&r[i])))
			return "mixed";
		m = wt_scn_memory_name(&r[i]);
	}
	return m ? m : "sc";
}

static json_t *run_json(const struct wt_scn_opts *o,
			const struct wt_scn_run_info *info, const char *memory)
{
	char seed[24], started[32];
	struct tm tm;

	hex(seed, sizeof(seed), o->seed);
	gmtime_r(&info->started, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_t *run = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s?, s:s?, s:s, "
			 "s:f, s:s, s:o, s:s}",
			 "version", WT_VERSION, "git_rev", WT_GIT_REV,
			 "build_type", WT_BUILD_TYPE, "mode", info->mode,
			 "memory", memory, "seed", seed, "bug", o->bug,
			 "shard", info->shard, "started", started,
			 "duration_s", info->duration_s, "command",
			 info->command ? info->command : "walktorture",
			 "machine", machine(), "binding",
			 info->binding ? info->binding : "");

	if (run && info->interrupted) {
		json_object_set_new(run, "partial", json_true());
		json_object_set_new(run, "interrupted",
				    json_string(info->interrupted));
	}
	return run;
}

static json_t *counts_json(const struct wt_scn_result *r)
{
	json_t *paths = json_object();

	for (unsigned p = 0; p < WT_PATH__COUNT; p++)
		json_object_set_new(paths, wt_path_info(p)->name,
				    json_integer((json_int_t)r->paths[p]));
	return paths;
}

static json_t *points_json(const struct wt_scn_result *r)
{
	json_t *points = json_object();

	for (uint32_t p = 0; p < r->npoints; p++)
		if (r->points[p])
			json_object_set_new(points,
				wt_point_name(wt_point_by_id(p)),
				json_integer((json_int_t)r->points[p]));
	return points;
}

static json_t *scenario_fields(const struct wt_scn_result *r)
{
	const struct wt_scenario *s = r->s;
	json_t *threads = json_array(), *ex = json_array();
	char seed[24], digest[24];

	hex(seed, sizeof(seed), r->seed);
	snprintf(digest, sizeof(digest), "%016" PRIx64, r->digest);
	for (unsigned i = 0; i < s->nthreads; i++)
		json_array_append_new(threads, json_string(s->threads[i].name));
	for (unsigned i = 0; i < s->nexpects; i++)
		json_array_append_new(ex, json_pack("{s:s, s:b, s:s}",
			"text", s->expects[i].text, "ok", r->expect_ok[i],
			"actual", r->expect_actual[i]));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:f, "
			 "s:s, s:s, s:o, s:o, s:o, s:o, s:O, s:n, s:I, s:{s:I, "
			 "s:I, s:I, s:I, s:I}}",
			 "name", s->name, "suite", s->suite, "file", s->file,
			 "description", s->description ? s->description : "",
			 "mode", r->mode == WT_SCN_STRESS ? "stress" : "sim",
			 "memory", wt_scn_memory_name(r),
			 "policy", wt_scn_policy_name(r->policy), "seed", seed,
			 "iterations", (json_int_t)r->iterations,
			 "duration_s", r->duration_s, "digest", digest,
			 "verdict", r->pass ? "PASS" : "FAIL",
			 "threads", threads, "paths", counts_json(r),
			 "points", points_json(r), "expectations", ex,
			 "failures", r->failures, "detection",
			 "walks", (json_int_t)r->walks, "oracle",
			 "ok", (json_int_t)r->oracle_ok,
			 "rejected", (json_int_t)r->oracle_rejected,
			 "reordered", (json_int_t)r->oracle_reordered,
			 "not_judged", (json_int_t)r->oracle_not_judged,
			 "checks", (json_int_t)r->checks);
}

/* An undirected twin's measurement (SCHEMA.md, "twin"); NULL otherwise. */
static json_t *twin_json(const struct wt_scn_result *r)
{
	const struct wt_scenario *s = r->s;
	json_t *targets;

	if (!s->twin_of)
		return NULL;
	targets = json_array();
	for (unsigned k = 0; k < s->ntargets; k++)
		json_array_append_new(targets, json_pack("{s:s, s:I, s:I, s:o}",
			"path", wt_path_info(s->targets[k])->name,
			"count", (json_int_t)r->target_count[k],
			"iterations", (json_int_t)r->target_iterations[k],
			"first_iteration", r->target_first[k] ?
			json_integer((json_int_t)r->target_first[k] - 1) :
			json_null()));
	return json_pack("{s:s, s:I, s:o}", "of", s->twin_of, "pct_steps",
			 (json_int_t)r->pct_steps, "targets", targets);
}

static json_t *scenario_json(const struct wt_scn_result *r)
{
	json_t *j = scenario_fields(r), *twin = twin_json(r);

	/* every failing iteration counted, kept records or not (SCHEMA.md) */
	json_object_set_new(j, "failing_iterations",
			    json_integer((json_int_t)r->failing_iterations));
	json_object_set_new(j, "failure_records",
			    json_integer((json_int_t)r->nfailures));
	json_object_set(j, "groups", r->groups);

	if (twin)
		json_object_set_new(j, "twin", twin);
	if (r->interrupted || r->capped)	/* its budget was cut short */
		json_object_set_new(j, "partial", json_true());
	return j;
}

json_t *wt_scn_results_json(const struct wt_scn_result *r, unsigned n,
			    const struct wt_scn_opts *o,
			    const struct wt_scn_run_info *info)
{
	json_t *scs = json_array(), *skipped = json_array();
	unsigned passed = 0, failed = 0;

	for (unsigned i = 0; i < n; i++) {
		if (r[i].skipped) {
			json_array_append_new(skipped, json_pack("{s:s, s:s, s:s}",
				"name", r[i].s->name, "suite", r[i].s->suite,
				"reason", r[i].skip_reason));
			continue;
		}
		json_array_append_new(scs, scenario_json(&r[i]));
		r[i].pass ? passed++ : failed++;
	}
	return json_pack("{s:s, s:i, s:o, s:o, s:o, s:{s:i, s:i}}",
			 "schema", "walktorture-results", "schema_version", 1,
			 "run", run_json(o, info, run_memory(r, n)),
			 "scenarios", scs,
			 "skipped", skipped, "summary", "passed", (int)passed,
			 "failed", (int)failed);
}

/* Characters a POSIX shell takes literally in a word; '#' only inside
 * one (at its start it begins a comment). */
static bool needs_quotes(const char *a)
{
	if (!*a || *a == '#')
		return true;
	for (; *a; a++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789-_./,:=+@%#", *a))
			return true;
	return false;
}

/* One byte into buf if it fits beside the NUL; counted either way. */
static void put(char *buf, size_t len, size_t *n, char c)
{
	if (*n + 1 < len)
		buf[*n] = c;
	(*n)++;
}

size_t wt_scn_shell_quote(char *buf, size_t len, const char *arg)
{
	size_t n = 0;
	bool q = needs_quotes(arg);

	if (q)
		put(buf, len, &n, '\'');
	for (const char *a = arg; *a; a++) {
		if (q && *a == '\'') {
			/* close the quotes, an escaped quote, reopen */
			for (const char *e = "'\\''"; *e; e++)
				put(buf, len, &n, *e);
			continue;
		}
		put(buf, len, &n, *a);
	}
	if (q)
		put(buf, len, &n, '\'');
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}

char *wt_scn_command_line(int argc, char **argv)
{
	size_t len = sizeof("walktorture"), n;
	char *s;

	for (int i = 0; i < argc; i++)
		len += 1 + wt_scn_shell_quote(NULL, 0, argv[i]);
	s = malloc(len);
	if (!s)
		return NULL;
	n = (size_t)snprintf(s, len, "walktorture");
	for (int i = 0; i < argc; i++) {
		s[n++] = ' ';
		n += wt_scn_shell_quote(s + n, len - n, argv[i]);
	}
	return s;
}

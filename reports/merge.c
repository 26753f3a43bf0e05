/* SPDX-License-Identifier: MIT */
/*
 * Merging results documents (shards of a nightly, or runs of one scenario
 * under different seeds): scenarios keyed by (suite, name), counts summed,
 * failures concatenated in input order, the summary recomputed.  The merged
 * "run" is the first input's, with the earliest start, the summed duration
 * and the shard set; every input's run is kept in "runs".
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/results.h"

static int set_int(json_t *obj, const char *key, long long v)
{
	return json_object_set_new(obj, key, json_integer(v));
}

/* a + b, never wrapping to a negative count (inputs are validated to
 * at most WT_RESULTS_INT_MAX each: 8192 of them cannot get here) */
static long long add_count(long long a, long long b)
{
	long long sum;

	return __builtin_add_overflow(a, b, &sum) ? LLONG_MAX : sum;
}

/* dst[key] += src[key] for each count in src (names absent in dst are added). */
static int sum_counts(json_t *dst, json_t *src, const char *key)
{
	json_t *d = json_object_get(dst, key), *s = json_object_get(src, key);
	const char *name;
	json_t *x;

	if (!json_is_object(s))
		return 0;
	if (!json_is_object(d)) {
		d = json_object();
		if (json_object_set_new(dst, key, d))
			return -1;
	}
	json_object_foreach(s, name, x) {
		long long sum = add_count(json_integer_value(x),
					  wt_json_int(d, name, 0));

		if (set_int(d, name, sum))
			return -1;
	}
	return 0;
}

/* Append the strings of src[key] missing from dst[key] (thread names). */
static int union_strings(json_t *dst, json_t *src, const char *key)
{
	json_t *d = json_object_get(dst, key), *s = json_object_get(src, key);
	size_t i, j;
	json_t *x, *y;

	if (!json_is_array(s))
		return 0;
	if (!json_is_array(d))
		return json_object_set_new(dst, key, json_deep_copy(s));
	json_array_foreach(s, i, x) {
		int found = 0;

		json_array_foreach(d, j, y)
			found |= json_equal(x, y);
		if (!found && json_array_append(d, x))
			return -1;
	}
	return 0;
}

/* Expectations by text: met only if met in every input; differing actuals joined. */
static int merge_expectations(json_t *dst, json_t *src)
{
	json_t *d = json_object_get(dst, "expectations");
	json_t *s = json_object_get(src, "expectations");
	json_t *e, *f;
	size_t i, j;

	if (!json_is_array(s))
		return 0;
	if (!json_is_array(d))
		return json_object_set_new(dst, "expectations", json_deep_copy(s));
	json_array_foreach(s, i, e) {
		json_t *match = NULL;

		json_array_foreach(d, j, f)
			if (!match && json_equal(json_object_get(e, "text"),
						 json_object_get(f, "text")))
				match = f;
		if (!match) {
			if (json_array_append_new(d, json_deep_copy(e)))
				return -1;
			continue;
		}
		if (!json_is_true(json_object_get(e, "ok")))
			json_object_set_new(match, "ok", json_false());
		if (!json_equal(json_object_get(e, "actual"),
				json_object_get(match, "actual"))) {
			char *joined = NULL;
			const char *a = wt_json_str(match, "actual");
			const char *b = wt_json_str(e, "actual");

			if (asprintf(&joined, "%s; %s", a ? a : "-", b ? b : "-") < 0)
				return -1;
			json_object_set_new(match, "actual", json_string(joined));
			free(joined);
		}
	}
	return 0;
}

/*
 * d.first_iteration = the smaller non-null of d's and s's.  Each input
 * counts its iterations from 0, so in a merge this is the earliest
 * within any one run, not an index into the summed iterations.
 */
static int min_first_iteration(json_t *d, json_t *s)
{
	json_t *a = json_object_get(d, "first_iteration");
	json_t *b = json_object_get(s, "first_iteration");

	if (!json_is_integer(b))
		return 0;
	if (json_is_integer(a) && json_integer_value(a) <= json_integer_value(b))
		return 0;
	return set_int(d, "first_iteration", json_integer_value(b));
}

static json_t *find_target(json_t *targets, const char *path)
{
	json_t *t;
	size_t i;

	json_array_foreach(targets, i, t)
		if (!strcmp(wt_json_str(t, "path"), path))
			return t;
	return NULL;
}

/*
 * A twin's targets by path (validation made them unique in each input):
 * count and iterations summed, first_iteration the smallest; a target of
 * src alone is appended.  of and pct_steps stay dst's, the first input's.
 */
static int merge_twin(json_t *dst, json_t *src)
{
	json_t *dt = json_object_get(dst, "twin"), *st = json_object_get(src, "twin");
	json_t *targets, *t, *match;
	size_t i;

	if (!st)
		return 0;
	/* A twin merged with a non-twin of its name keeps the twin's. */
	if (!dt)
		return json_object_set_new(dst, "twin", json_deep_copy(st));
	targets = json_object_get(dt, "targets");
	json_array_foreach(json_object_get(st, "targets"), i, t) {
		match = find_target(targets, wt_json_str(t, "path"));
		if (!match) {
			if (json_array_append_new(targets, json_deep_copy(t)))
				return -1;
			continue;
		}
		if (set_int(match, "count", add_count(wt_json_int(match, "count", 0),
						      wt_json_int(t, "count", 0))) ||
		    set_int(match, "iterations", add_count(
				wt_json_int(match, "iterations", 0),
				wt_json_int(t, "iterations", 0))) ||
		    min_first_iteration(match, t))
			return -1;
	}
	return 0;
}

/*
 * Groups by signature: counts summed, the last seed the later input's, a
 * representative re-indexed past the failures already in dst (offset).
 */
static int merge_groups(json_t *dst, json_t *src, size_t offset)
{
	json_t *dg = json_object_get(dst, "groups"), *sg = wt_scenario_groups(src);
	json_t *g, *m, *rep;
	size_t i, k;

	json_array_foreach(sg, i, g) {
		rep = json_object_get(g, "representative");
		m = NULL;
		json_array_foreach(dg, k, m)
			if (!strcmp(wt_json_str(m, "signature"),
				    wt_json_str(g, "signature")))
				break;
		if (k == json_array_size(dg)) {
			m = json_deep_copy(g);
			json_array_append_new(dg, m);
			json_object_set_new(m, "representative", json_null());
			json_object_set_new(m, "count", json_integer(0));
		}
		set_int(m, "count", wt_json_int(m, "count", 0) +
				    wt_json_int(g, "count", 0));
		json_object_set(m, "last_seed",
				json_object_get(g, "last_seed") ?: json_null());
		json_object_set(m, "last_iteration",
				json_object_get(g, "last_iteration") ?: json_null());
		if (json_is_null(json_object_get(m, "representative")) &&
		    json_is_integer(rep))
			set_int(m, "representative",
				json_integer_value(rep) + (long long)offset);
	}
	json_decref(sg);
	return 0;
}

/* A scenario as first seen: its counts and groups made explicit (an
 * older file's derived), so later inputs add to them. */
static json_t *first_scenario(json_t *sc)
{
	json_t *d = json_deep_copy(sc);

	if (!d)
		return NULL;
	set_int(d, "failing_iterations", wt_scenario_failing_iterations(sc));
	set_int(d, "failure_records", wt_scenario_failure_records(sc));
	json_object_set_new(d, "groups", wt_scenario_groups(sc));
	return d;
}

static int merge_scenario(json_t *dst, json_t *src)
{
	json_t *df = json_object_get(dst, "failures");
	double dur = wt_json_num(dst, "duration_s", 0) +
		     wt_json_num(src, "duration_s", 0);

	if (set_int(dst, "iterations", add_count(wt_json_int(dst, "iterations", 0),
						 wt_json_int(src, "iterations", 0))) ||
	    json_object_set_new(dst, "duration_s", json_real(dur)) ||
	    sum_counts(dst, src, "paths") || sum_counts(dst, src, "points") ||
	    union_strings(dst, src, "threads") || merge_expectations(dst, src) ||
	    merge_twin(dst, src) ||
	    set_int(dst, "failing_iterations",
		    wt_json_int(dst, "failing_iterations", 0) +
		    wt_scenario_failing_iterations(src)) ||
	    set_int(dst, "failure_records",
		    wt_json_int(dst, "failure_records", 0) +
		    wt_scenario_failure_records(src)) ||
	    merge_groups(dst, src, json_array_size(df)))
		return -1;
	if (!strcmp(wt_scenario_verdict(src), "FAIL"))
		json_object_set_new(dst, "verdict", json_string("FAIL"));
	/* One digest stands for one trace; two different ones stand for none. */
	if (!json_equal(json_object_get(dst, "digest"),
			json_object_get(src, "digest")))
		json_object_set_new(dst, "digest", json_null());
	if (json_is_null(json_object_get(dst, "detection")) ||
	    !json_object_get(dst, "detection"))
		json_object_set(dst, "detection",
				json_object_get(src, "detection") ?: json_null());
	return json_array_extend(df, json_object_get(src, "failures"));
}

static json_t *find_scenario(json_t *arr, json_t *sc)
{
	const char *suite = wt_json_str(sc, "suite");
	const char *name = wt_json_str(sc, "name");
	json_t *x;
	size_t i;

	json_array_foreach(arr, i, x)
		if (!strcmp(wt_json_str(x, "suite"), suite) &&
		    !strcmp(wt_json_str(x, "name"), name))
			return x;
	return NULL;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The merged shard: null when there were no shards or every K of one N is
 * present exactly once; otherwise the distinct shards, sorted and
 * comma-separated ("1/4,3/4"), so an incomplete merge shows.
 */
static json_t *merged_shard(json_t *runs)
{
	size_t n = json_array_size(runs), have = 0, i, len = 1;
	const char **v = calloc(n ? n : 1, sizeof(*v));
	int complete = 1, shards_n = -1;
	json_t *run, *ret;
	char *buf;

	if (!v)
		return NULL;
	json_array_foreach(runs, i, run) {
		const char *s = wt_json_str(run, "shard");
		int k, sn;

		if (!s)
			continue;
		v[have++] = s;
		if (sscanf(s, "%d/%d", &k, &sn) != 2 || k < 1 || k > sn ||
		    (shards_n >= 0 && sn != shards_n))
			complete = 0;
		shards_n = sn;
		len += strlen(s) + 1;
	}
	qsort(v, have, sizeof(*v), compare_strings);
	/*
	 * Complete: every input sharded, each K/N present the same number
	 * of times -- the N shards of each of several seeds (nightly --seeds
	 * M writes M x N files).
	 */
	if (complete && shards_n > 0 && have == n && have % (size_t)shards_n == 0) {
		size_t per = have / (size_t)shards_n, run_len = 1;

		for (i = 1; i < have; i++) {
			if (!strcmp(v[i], v[i - 1])) {
				run_len++;
				continue;
			}
			complete &= run_len == per;
			run_len = 1;
		}
		complete &= run_len == per;
		/* the distinct ones are N of them */
		for (i = 0, run_len = 0; i < have; i++)
			run_len += !i || strcmp(v[i], v[i - 1]);
		complete &= run_len == (size_t)shards_n;
	} else {
		complete = 0;
	}
	if (!have || complete) {
		free(v);
		return json_null();
	}
	buf = calloc(1, len);
	for (i = 0; buf && i < have; i++) {
		if (i && !strcmp(v[i], v[i - 1]))
			continue;
		if (buf[0])
			strcat(buf, ",");
		strcat(buf, v[i]);
	}
	ret = buf ? json_string(buf) : NULL;
	free(buf);
	free(v);
	return ret;
}

/* Every input's run (flattening inputs that are merges themselves). */
static json_t *collect_runs(json_t *const *docs, const char *const *files,
			    unsigned n)
{
	json_t *runs = json_array();

	for (unsigned i = 0; runs && i < n; i++) {
		json_t *inner = json_object_get(docs[i], "runs");
		json_t *run;

		if (json_is_array(inner) && json_array_size(inner)) {
			json_array_extend(runs, inner);
			continue;
		}
		run = json_deep_copy(json_object_get(docs[i], "run"));
		if (!run || (!json_object_get(run, "source") &&
			     json_object_set_new(run, "source",
						 json_string(files[i])))) {
			json_decref(run);
			json_decref(runs);
			return NULL;
		}
		json_array_append_new(runs, run);
	}
	return runs;
}

static json_t *merged_run(json_t *runs)
{
	json_t *run = json_deep_copy(json_array_get(runs, 0)), *r;
	const char *started = wt_json_str(run, "started");
	double dur = 0;
	size_t i;

	if (!run)
		return NULL;
	json_array_foreach(runs, i, r) {
		const char *s = wt_json_str(r, "started");

		if (s && (!started || strcmp(s, started) < 0))
			started = s;
		dur += wt_json_num(r, "duration_s", 0);
	}
	json_object_del(run, "source");
	json_object_set_new(run, "started", json_string(started));
	json_object_set_new(run, "duration_s", json_real(dur));
	json_object_set_new(run, "shard", merged_shard(runs));
	return run;
}

static json_t *merged_scenarios(json_t *const *docs, unsigned n)
{
	json_t *out = json_array(), *sc;
	size_t j;

	for (unsigned i = 0; out && i < n; i++) {
		json_array_foreach(json_object_get(docs[i], "scenarios"), j, sc) {
			json_t *dst = find_scenario(out, sc);
			int bad = dst ? merge_scenario(dst, sc) :
				  json_array_append_new(out, first_scenario(sc));

			if (bad) {
				json_decref(out);
				return NULL;
			}
		}
	}
	return out;
}

/* Every input's skipped scenarios (SCHEMA.md "skipped"), each once, in
 * first-seen order. */
static json_t *merged_skipped(json_t *const *docs, unsigned n)
{
	json_t *out = json_array(), *x, *y;
	size_t i, j;

	for (unsigned k = 0; out && k < n; k++) {
		json_array_foreach(json_object_get(docs[k], "skipped"), i, x) {
			bool seen = false;

			json_array_foreach(out, j, y)
				seen |= json_equal(x, y);
			if (!seen && json_array_append(out, x)) {
				json_decref(out);
				return NULL;
			}
		}
	}
	return out;
}

json_t *wt_results_merge(json_t *const *docs, const char *const *files,
			 unsigned n)
{
	json_t *doc = json_object(), *runs, *run, *scenarios, *sc, *skipped;
	long long passed = 0, failed = 0;
	size_t i;

	runs = collect_runs(docs, files, n);
	run = runs ? merged_run(runs) : NULL;
	scenarios = merged_scenarios(docs, n);
	if (!doc || !runs || !run || !scenarios)
		goto fail;
	json_array_foreach(scenarios, i, sc)
		strcmp(wt_scenario_verdict(sc), "FAIL") ? passed++ : failed++;
	if (json_object_set_new(doc, "schema", json_string(WT_RESULTS_SCHEMA)) ||
	    set_int(doc, "schema_version", WT_RESULTS_VERSION) ||
	    json_object_set_new(doc, "run", run) ||
	    json_object_set_new(doc, "runs", runs) ||
	    json_object_set_new(doc, "scenarios", scenarios) ||
	    json_object_set_new(doc, "summary",
				json_pack("{s:I, s:I}", "passed", (json_int_t)passed,
					  "failed", (json_int_t)failed)))
		goto fail_owned;
	skipped = merged_skipped(docs, n);
	if (!skipped)
		goto fail_owned;
	if (!json_array_size(skipped))
		json_decref(skipped);	/* no inputs' skips: no key, as before */
	else if (json_object_set_new(doc, "skipped", skipped))
		goto fail_owned;
	return doc;
fail:
	json_decref(runs);
	json_decref(run);
	json_decref(scenarios);
fail_owned:
	json_decref(doc);
	return NULL;
}

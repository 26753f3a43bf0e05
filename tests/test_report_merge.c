/* SPDX-License-Identifier: MIT */
/*
 * walktorture merge: merging the two shard fixtures sums every count of a
 * scenario present in both, keeps the others, concatenates failures in
 * input order, recomputes the summary and writes a valid results file;
 * merging is associative (merging a merge flattens it).
 */
#include <criterion/criterion.h>
#include <jansson.h>

#include "reports/reports.h"
#include "tests/test_report_util.h"

static json_t *merge_files(const char *const *files, unsigned n)
{
	const char *out = path_in(tmpdir(), "merged.json");
	struct wt_results_totals t;
	char err[1024];
	json_t *doc;

	cr_assert_eq(wt_merge_write(out, files, n, &t, err, sizeof(err)), 0, "%s", err);
	/* The output is itself a valid results file. */
	cr_assert_eq(wt_results_load(out, &doc, err, sizeof(err)), 0, "%s", err);
	return doc;
}

static json_t *scenario(json_t *doc, const char *suite, const char *name)
{
	json_t *sc;
	size_t i;

	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		if (!strcmp(json_string_value(json_object_get(sc, "suite")), suite) &&
		    !strcmp(json_string_value(json_object_get(sc, "name")), name))
			return sc;
	cr_assert_fail("no scenario %s/%s", suite, name);
	return NULL;
}

static long long count(json_t *sc, const char *map, const char *key)
{
	return json_integer_value(json_object_get(json_object_get(sc, map), key));
}

TestSuite(merge, .fini = tmpdirs_remove);

Test(merge, counts_of_a_scenario_in_both_shards_are_summed)
{
	/* step_into.child_seq runs in both shards: iterations, paths, points add up. */
	const char *files[] = { fixture("shard1.json"), fixture("shard2.json") };
	json_t *doc = merge_files(files, 2);
	json_t *sc = scenario(doc, "echild", "step_into.child_seq");

	cr_assert_eq(json_integer_value(json_object_get(sc, "iterations")), 10000);
	cr_assert_eq(count(sc, "paths", "rcu.ok"), 4930 + 4941);
	cr_assert_eq(count(sc, "paths", "restart.step_into.child_seq"), 60 + 52);
	cr_assert_eq(count(sc, "paths", "unlazy.lookup_fast.miss"), 10 + 7);
	cr_assert_eq(count(sc, "paths", "restart.get_link"), 0, "zeros stay listed");
	cr_assert_eq(json_object_size(json_object_get(sc, "paths")), 75);
	cr_assert_eq(count(sc, "points", "d_seq.read"), 182000);
	cr_assert_eq(count(sc, "points", "d_lookup_rcu.miss"), 7, "a point of one shard is kept");
	cr_assert(json_is_null(json_object_get(sc, "digest")), "two traces have no one digest");
	sc = scenario(doc, "basic", "symlink.chain");
	cr_assert_eq(json_integer_value(json_object_get(sc, "iterations")), 2000);
	cr_assert_eq(count(sc, "paths", "unlazy.get_link"), 25);
	json_decref(doc);
}

Test(merge, failures_are_concatenated_and_the_summary_recomputed)
{
	/*
	 * fail_zoo.json and shard2.json both hold the failing zoo scenario with
	 * two failures each: the merge has four, fail_zoo's first, the verdict
	 * FAIL, and a summary matching the merged scenarios.
	 */
	const char *files[] = { fixture("fail_zoo.json"), fixture("shard2.json") };
	json_t *doc = merge_files(files, 2);
	json_t *sc = scenario(doc, "zoo", "legitimize_mnt.sync_umount_steal");
	json_t *fl = json_object_get(sc, "failures");
	json_t *expect, *summary = json_object_get(doc, "summary");

	cr_assert_eq(json_array_size(fl), 4);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(fl, 0), "kind")), "check");
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(fl, 2), "kind")), "check");
	cr_assert_str_eq(json_string_value(json_object_get(sc, "verdict")), "FAIL");
	cr_assert_eq(json_integer_value(json_object_get(sc, "iterations")), 80);
	/* 3 + 3 scenarios, 1 in common: 5, one of them failing. */
	cr_assert_eq(json_array_size(json_object_get(doc, "scenarios")), 5);
	cr_assert_eq(json_integer_value(json_object_get(summary, "passed")), 4);
	cr_assert_eq(json_integer_value(json_object_get(summary, "failed")), 1);
	/* An expectation failed in either input is failed in the merge. */
	expect = json_array_get(json_object_get(sc, "expectations"), 0);
	cr_assert(json_is_false(json_object_get(expect, "ok")));
	json_decref(doc);
}

Test(merge, runs_are_listed_and_a_complete_shard_set_is_recognised)
{
	/* The merged run: earliest start, summed duration, shard null when 1/2 and 2/2 are both in. */
	const char *both[] = { fixture("shard1.json"), fixture("shard2.json") };
	const char *one[] = { fixture("shard1.json") };
	json_t *doc = merge_files(both, 2), *run = json_object_get(doc, "run");
	json_t *runs = json_object_get(doc, "runs");

	cr_assert_eq(json_array_size(runs), 2);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(runs, 1), "source")),
			 both[1]);
	cr_assert(json_is_null(json_object_get(run, "shard")));
	cr_assert_str_eq(json_string_value(json_object_get(run, "started")),
			 "2026-12-06T02:00:01Z");
	cr_assert_float_eq(json_number_value(json_object_get(run, "duration_s")), 61.5, 1e-9);
	json_decref(doc);
	doc = merge_files(one, 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "run"), "shard")),
			 "1/2", "an incomplete merge says which shards it holds");
	json_decref(doc);
}

Test(merge, merging_a_merge_flattens_it)
{
	/* merge(merge(a, b), c) has the same scenarios and runs as merge(a, b, c). */
	const char *dir = tmpdir(), *ab = path_in(dir, "ab.json");
	const char *abc[] = { fixture("shard1.json"), fixture("shard2.json"),
			      fixture("fail_zoo.json") };
	const char *ab_c[] = { ab, fixture("fail_zoo.json") };
	json_t *flat, *nested;
	char err[1024];

	cr_assert_eq(wt_merge_write(ab, abc, 2, NULL, err, sizeof(err)), 0, "%s", err);
	flat = merge_files(abc, 3);
	nested = merge_files(ab_c, 2);
	cr_assert(json_equal(json_object_get(flat, "scenarios"),
			     json_object_get(nested, "scenarios")));
	cr_assert_eq(json_array_size(json_object_get(nested, "runs")), 3);
	cr_assert(json_equal(json_object_get(flat, "summary"), json_object_get(nested, "summary")));
	json_decref(flat);
	json_decref(nested);
}

Test(merge, bad_input_writes_nothing)
{
	/* One malformed shard: the merge fails naming it, and no output file appears. */
	const char *out = path_in(tmpdir(), "merged.json");
	const char *files[] = { fixture("shard1.json"), fixture("bad_type.json") };
	char err[1024];

	cr_assert_eq(wt_merge_write(out, files, 2, NULL, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "bad_type.json: scenarios[3]"), "%s", err);
	cr_assert(!file_exists(out));
}

Test(merge, cli_merges_and_refuses_bad_input)
{
	/* walktorture merge: exit 0 with the merged file, exit 2 on a bad shard. */
	const char *dir = tmpdir(), *out = path_in(dir, "m.json"), *errf = path_in(dir, "err");
	char *ok[] = { "walktorture", "merge", (char *)fixture("shard1.json"),
		       (char *)fixture("shard2.json"), "-o", (char *)out, NULL };
	char *bad[] = { "walktorture", "merge", (char *)fixture("shard1.json"),
			(char *)fixture("bad_schema.json"), "-o", (char *)out, NULL };
	json_t *doc;
	char err[512];

	cr_assert_eq(run_cli(errf, ok), 0);
	cr_assert_eq(wt_results_load(out, &doc, err, sizeof(err)), 0, "%s", err);
	json_decref(doc);
	cr_assert_eq(run_cli(errf, bad), 2);
}

Test(merge, a_run_merged_already_is_refused)
{
	/*
	 * The same file twice, or a shard beside a merge that holds it:
	 * exit 2, naming both files, and nothing written (the counts would
	 * be doubled).  Two different shards still merge.
	 */
	const char *dir = tmpdir(), *out = path_in(dir, "m.json"),
		   *m12 = path_in(dir, "m12.json"), *errf = path_in(dir, "err");
	const char *both[] = { fixture("shard1.json"), fixture("shard2.json") };
	char *twice[] = { "walktorture", "merge", (char *)fixture("shard1.json"),
			  (char *)fixture("shard1.json"), "-o", (char *)out, NULL };
	char *again[] = { "walktorture", "merge", (char *)m12,
			  (char *)fixture("shard2.json"), "-o", (char *)out, NULL };
	char err[512], *text;

	cr_assert_eq(wt_merge_write(m12, both, 2, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(run_cli(errf, twice), 2);
	text = slurp(errf);
	cr_assert_not_null(strstr(text, "shard1.json: its run (seed "), "%s", text);
	cr_assert_not_null(strstr(text, "shard1.json: merging it again would "
				  "count it twice"), "%s", text);
	free(text);
	cr_assert_eq(access(out, F_OK), -1, "a merged file was written");
	cr_assert_eq(run_cli(errf, again), 2);
	text = slurp(errf);
	cr_assert_not_null(strstr(text, "shard2.json: its run"), "%s", text);
	cr_assert_not_null(strstr(text, "is already in "), "%s", text);
	free(text);
	cr_assert_eq(access(out, F_OK), -1, "a merged file was written");
}

static json_t *twin_of(json_t *sc)
{
	json_t *twin = json_object_get(sc, "twin");

	cr_assert(json_is_object(twin), "%s has no twin",
		  json_string_value(json_object_get(sc, "name")));
	return twin;
}

static json_t *target(json_t *sc, size_t k)
{
	json_t *t = json_array_get(json_object_get(twin_of(sc), "targets"), k);

	cr_assert_not_null(t, "no target %zu", k);
	return t;
}

static void target_is(json_t *t, const char *path, long long count,
		      long long iterations, long long first)
{
	json_t *fi = json_object_get(t, "first_iteration");

	cr_assert_str_eq(json_string_value(json_object_get(t, "path")), path);
	cr_assert_eq(json_integer_value(json_object_get(t, "count")), count, "%s", path);
	cr_assert_eq(json_integer_value(json_object_get(t, "iterations")), iterations,
		     "%s", path);
	if (first < 0)
		cr_assert(json_is_null(fi), "%s: first_iteration should be null", path);
	else
		cr_assert_eq(json_integer_value(fi), first, "%s", path);
}

/*
 * A second run of twin.json's twins, written to dir/twin-b.json: in
 * step_into's twin child_seq seen 10 times in 10 iterations from 2,
 * legitimize.next.seq (unseen in twin.json) 3 in 3 from 50, a new
 * target restart.dotdot.seq once at 7, pct_steps 999; lookup_fast's
 * scenario without a twin.
 */
static const char *second_twin_run(const char *dir)
{
	json_t *doc = json_load_file(fixture("twin.json"), 0, NULL), *scs, *twin, *t;
	const char *out = path_in(dir, "twin-b.json");

	cr_assert_not_null(doc);
	/* another run: merge refuses a run it already holds */
	json_object_set_new(json_object_get(doc, "run"), "started",
			    json_string("2026-12-04T06:00:00Z"));
	scs = json_object_get(doc, "scenarios");
	twin = json_object_get(json_array_get(scs, 1), "twin");
	json_object_set_new(twin, "pct_steps", json_integer(999));
	t = json_array_get(json_object_get(twin, "targets"), 0);
	json_object_set_new(t, "count", json_integer(10));
	json_object_set_new(t, "iterations", json_integer(10));
	json_object_set_new(t, "first_iteration", json_integer(2));
	t = json_array_get(json_object_get(twin, "targets"), 1);
	json_object_set_new(t, "count", json_integer(3));
	json_object_set_new(t, "iterations", json_integer(3));
	json_object_set_new(t, "first_iteration", json_integer(50));
	json_array_append_new(json_object_get(twin, "targets"),
			      json_pack("{s:s, s:i, s:i, s:i}", "path", "restart.dotdot.seq",
					"count", 1, "iterations", 1, "first_iteration", 7));
	json_object_del(json_array_get(scs, 2), "twin");
	cr_assert_eq(json_dump_file(doc, out, JSON_INDENT(1)), 0);
	json_decref(doc);
	return out;
}

Test(merge, twin_targets_are_summed_by_path)
{
	/*
	 * twin.json + second_twin_run: targets matched by path have count and
	 * iterations summed and the smaller non-null first_iteration (2 < 4;
	 * 50 over null), the target of the second run alone is appended,
	 * pct_steps and of are the first's, and lookup_fast's twin, merged
	 * with a scenario of its name without one, is twin.json's as it was.
	 * The merged file validates (merge_files loads it).
	 */
	const char *files[] = { fixture("twin.json"), second_twin_run(tmpdir()) };
	json_t *orig = json_load_file(files[0], 0, NULL);
	json_t *doc = merge_files(files, 2), *sc;

	sc = scenario(doc, "echild", "step_into.child_seq.undirected");
	cr_assert_eq(json_integer_value(json_object_get(sc, "iterations")), 400);
	cr_assert_eq(json_integer_value(json_object_get(twin_of(sc), "pct_steps")), 412);
	cr_assert_str_eq(json_string_value(json_object_get(twin_of(sc), "of")),
			 "step_into.child_seq");
	cr_assert_eq(json_array_size(json_object_get(twin_of(sc), "targets")), 3);
	target_is(target(sc, 0), "restart.step_into.child_seq", 47, 45, 2);
	target_is(target(sc, 1), "restart.legitimize.next.seq", 3, 3, 50);
	target_is(target(sc, 2), "restart.dotdot.seq", 1, 1, 7);
	sc = scenario(doc, "echild", "lookup_fast.parent_seq.undirected");
	cr_assert(json_equal(twin_of(sc), json_object_get(json_array_get(
		json_object_get(orig, "scenarios"), 2), "twin")));
	sc = scenario(doc, "echild", "quiet.siblings.undirected");
	cr_assert_eq(json_array_size(json_object_get(twin_of(sc), "targets")), 0);
	sc = scenario(doc, "echild", "step_into.child_seq");
	cr_assert_null(json_object_get(sc, "twin"), "a directed scenario gains no twin");
	json_decref(doc);
	json_decref(orig);
}

Test(merge, twin_merge_in_the_other_order)
{
	/*
	 * second_twin_run first: its pct_steps (999) and target order stay,
	 * the sums and minima are the same, twin.json's first_iteration 4
	 * does not replace 2, and lookup_fast's twin comes from the second
	 * input because the first has none.  Merging the merge with itself
	 * is refused: it would double every count.
	 */
	const char *dir = tmpdir(), *ab = path_in(dir, "ab.json");
	const char *files[] = { second_twin_run(dir), fixture("twin.json") };
	const char *twice[] = { ab, ab };
	json_t *doc = merge_files(files, 2), *sc;
	char err[512];

	sc = scenario(doc, "echild", "step_into.child_seq.undirected");
	cr_assert_eq(json_integer_value(json_object_get(twin_of(sc), "pct_steps")), 999);
	target_is(target(sc, 0), "restart.step_into.child_seq", 47, 45, 2);
	target_is(target(sc, 1), "restart.legitimize.next.seq", 3, 3, 50);
	target_is(target(sc, 2), "restart.dotdot.seq", 1, 1, 7);
	sc = scenario(doc, "echild", "lookup_fast.parent_seq.undirected");
	target_is(target(sc, 0), "restart.lookup_fast.parent_seq", 0, 0, -1);
	json_decref(doc);
	cr_assert_eq(wt_merge_write(ab, files, 2, NULL, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(wt_merge_write(path_in(dir, "abab.json"), twice, 2, NULL,
				    err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "is already in"), "%s", err);
}

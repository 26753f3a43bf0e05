/* SPDX-License-Identifier: MIT */
/*
 * Triage, as a user does it with the walktorture binary: a failure in a
 * results file replays as it happened (`replay RESULTS.json#N' re-applies
 * the bug, the memory model, a twin's policy, a lifted stress failure's
 * order); every failing iteration is counted and grouped by signature;
 * an undirected failure minimises into a directed regression scenario.
 */
#define _GNU_SOURCE	/* asprintf */
#include <jansson.h>

#include "tests/test_scenario_util.h"

static char *zoo(const char *name)
{
	const char *src = getenv("WT_SOURCE_DIR");
	char *p;

	cr_assert(asprintf(&p, "%s/scenarios/zoo/%s.yaml",
			   src ? src : WT_SOURCE_DIR, name) > 0);
	return p;
}

static json_t *load(const char *file)
{
	json_error_t je;
	json_t *doc = json_load_file(file, 0, &je);

	cr_assert(doc, "%s:%d: %s", file, je.line, je.text);
	return doc;
}

static json_t *failures_of(json_t *doc)
{
	return json_object_get(json_array_get(json_object_get(doc, "scenarios"),
					      0), "failures");
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* Does a failure with f's kind, check and message happen in doc? */
static bool has_failure(json_t *doc, json_t *f)
{
	size_t i;
	json_t *g;

	json_array_foreach(failures_of(doc), i, g)
		if (!strcmp(str(f, "kind"), str(g, "kind")) &&
		    !strcmp(str(f, "check"), str(g, "check")) &&
		    !strcmp(str(f, "message"), str(g, "message")))
			return true;
	return false;
}

/*
 * Replay every one-iteration failure of results file `json' by
 * RESULTS.json#N alone: each must fail again (exit 1) with the same
 * kind, check and message.  Returns how many were replayed.
 */
static unsigned replay_all(struct wt_test_dir *d, const char *json)
{
	json_t *doc = load(json), *f;
	unsigned n = 0;
	size_t i;

	cr_assert(json_array_size(failures_of(doc)) > 0, "%s: no failure",
		  json);
	json_array_foreach(failures_of(doc), i, f) {
		struct wt_test_run rp;
		char *arg, *out;
		json_t *again;

		if (strncmp(str(f, "replay"), "walktorture replay ", 19))
			continue;	/* a count over several iterations */
		cr_assert(asprintf(&arg, "%s#%zu", json, i) > 0);
		cr_assert(asprintf(&out, "%s/replay-%zu.json", d->path, i) > 0);
		wt_test_run(&rp, (const char *[]){ "replay", arg, "--json", out,
						   NULL });
		cr_expect_eq(rp.status, 1, "replay %s exits %d, not 1 (the "
			     "failure again):\n%s%s", arg, rp.status,
			     rp.out ? "" : "", rp.err);
		if (rp.status == 1) {
			again = load(out);
			cr_expect(has_failure(again, f), "replay %s: no '%s %s: "
				  "%s'", arg, str(f, "kind"), str(f, "check"),
				  str(f, "message"));
			json_decref(again);
		}
		n++;
		wt_test_run_free(&rp);
		free(arg);
		free(out);
	}
	json_decref(doc);
	return n;
}

static void run_expect_fail(const char **args)
{
	struct wt_test_run r;

	wt_test_run(&r, args);
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	wt_test_run_free(&r);
}

/* A directed zoo failure: --bug was dropped, and it replayed as PASS. */
Test(triage, replay_of_a_directed_failure)
{
	struct wt_test_dir d;
	char *file = zoo("step_into_no_seq"), *json;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	run_expect_fail((const char *[]){ "run", file, "--bug",
					  "step_into_no_seq", "--json", json,
					  NULL });
	cr_expect_geq(replay_all(&d, json), 2);
	free(json);
	free(file);
	wt_test_dir_remove(&d);
}

/* A PCT twin's failure: the twin (policy, calibrated k) and the bug. */
Test(triage, replay_of_a_pct_twin_failure)
{
	struct wt_test_dir d;
	char *file = zoo("step_into_no_seq"), *json;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	run_expect_fail((const char *[]){ "run", "--undirected", file, "--bug",
					  "step_into_no_seq", "--iterations",
					  "2000", "--seed", "0x5eed", "--json",
					  json, NULL });
	cr_expect_geq(replay_all(&d, json), 1);
	free(json);
	free(file);
	wt_test_dir_remove(&d);
}

/* x86-TSO under random schedules and random flushes: the memory model
 * and the bug (under sc the iteration passes). */
Test(triage, replay_of_a_tso_failure)
{
	struct wt_test_dir d;
	char *file = zoo("seq_no_barrier"), *json;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	run_expect_fail((const char *[]){ "run", file, "--bug",
					  "seq_no_barrier", "--seed", "0x5eed",
					  "--json", json, NULL });
	cr_expect_geq(replay_all(&d, json), 1);
	free(json);
	free(file);
	wt_test_dir_remove(&d);
}

/* A traced stress failure lifted to sim: its order file. */
Test(triage, replay_of_a_lifted_stress_failure, .timeout = 300)
{
	struct wt_test_dir d;
	const char *src = getenv("WT_SOURCE_DIR");
	char *file, *json;

	cr_assert(asprintf(&file, "%s/scenarios/zoo/stress/may_lookup_blocks."
			   "yaml", src ? src : WT_SOURCE_DIR) > 0);
	wt_test_dir_make(&d);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	run_expect_fail((const char *[]){ "run", file, "--mode", "stress",
					  "--trace", "--iterations", "1",
					  "--bug", "may_lookup_blocks", "--seed",
					  "0x5eed", "--out", d.path, "--json",
					  json, NULL });
	cr_expect_geq(replay_all(&d, json), 1);
	free(json);
	free(file);
	wt_test_dir_remove(&d);
}

/*
 * Every failing iteration is counted, not only the kept records: the
 * step_into_no_seq twin fails in some iterations of 3000 (each exactly
 * one oracle rejection: one walk an iteration), more than the 8 records
 * kept; the results, the text and the report say how many, and they
 * form one group whose representative is a kept record.
 */
Test(triage, every_failing_iteration_is_counted_and_grouped)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *file = zoo("step_into_no_seq"), *json, *html, *line, want[96];
	json_t *doc, *sc, *g;
	long long n, rejected;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	cr_assert(asprintf(&html, "%s/r.html", d.path) > 0);
	wt_test_run(&r, (const char *[]){ "run", "--undirected", file, "--bug",
					  "step_into_no_seq", "--iterations",
					  "3000", "--seed", "0x5eed", "--json",
					  json, NULL });
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	doc = load(json);
	sc = json_array_get(json_object_get(doc, "scenarios"), 0);
	n = json_integer_value(json_object_get(sc, "failing_iterations"));
	rejected = json_integer_value(json_object_get(json_object_get(sc,
		"oracle"), "rejected"));
	cr_expect_eq(n, rejected, "failing iterations %lld, oracle rejections "
		     "%lld", n, rejected);
	cr_expect_gt(n, 8, "more failing iterations than records kept");
	cr_expect_eq(json_array_size(json_object_get(sc, "failures")), 8);
	cr_expect_eq(json_integer_value(json_object_get(sc, "failure_records")),
		     n);
	cr_assert_eq(json_array_size(json_object_get(sc, "groups")), 1);
	g = json_array_get(json_object_get(sc, "groups"), 0);
	cr_expect_eq(json_integer_value(json_object_get(g, "count")), n);
	cr_expect_eq(json_integer_value(json_object_get(g, "representative")), 0);
	cr_expect_str_eq(str(g, "first_seed"), str(json_array_get(
		json_object_get(sc, "failures"), 0), "seed"));
	cr_expect_str_eq(str(g, "signature"),
			 "oracle | stat -> ENOENT | step end | rcu.error");
	snprintf(want, sizeof(want), "failing_iterations=%lld/3000 records=%lld "
		 "kept=8 signatures=1", n, n);
	line = wt_test_line(r.out, "walktorture: step_into_no_seq.undirected "
			    "failing_iterations=");
	cr_expect(line && strstr(line, want), "%s, not %s", line, want);
	free(line);
	wt_test_run_free(&r);
	wt_test_run(&r, (const char *[]){ "report", json, "-o", html, NULL });
	cr_expect_eq(r.status, 0);
	snprintf(want, sizeof(want), " failures=%lld ", n);
	cr_expect(strstr(r.out, want), "report: %s", r.out);
	wt_test_run_free(&r);
	line = wt_test_slurp(html);
	snprintf(want, sizeof(want), "<h2>Failures: %lld failing iterations, 1 "
		 "signatures</h2>", n);
	cr_expect(line && strstr(line, want), "no '%s' in the report", want);
	free(line);
	json_decref(doc);
	free(html);
	free(json);
	free(file);
	wt_test_dir_remove(&d);
}

/* A copy of results file `from' at `to' with run.shard set. */
static void with_shard(const char *from, const char *to, const char *shard)
{
	json_t *doc = load(from);

	json_object_set_new(json_object_get(doc, "run"), "shard",
			    json_string(shard));
	cr_assert_eq(json_dump_file(doc, to, 0), 0);
	json_decref(doc);
}

/* Merging every shard of every seed (nightly --seeds 2 with 2 shards)
 * gives shard null; a shard missing lists the ones present. */
Test(triage, merge_of_all_shards_of_all_seeds_is_unsharded)
{
	const char *src = getenv("WT_SOURCE_DIR");
	const char *shards[] = { "1/2", "2/2", "1/2", "2/2" };
	struct wt_test_dir d;
	struct wt_test_run r;
	char *pass, *files[4], *out;
	json_t *doc;

	cr_assert(asprintf(&pass, "%s/tests/data/pass.json",
			   src ? src : WT_SOURCE_DIR) > 0);
	wt_test_dir_make(&d);
	for (int i = 0; i < 4; i++) {
		cr_assert(asprintf(&files[i], "%s/s%d.json", d.path, i) > 0);
		with_shard(pass, files[i], shards[i]);
	}
	cr_assert(asprintf(&out, "%s/m.json", d.path) > 0);
	wt_test_run(&r, (const char *[]){ "merge", files[0], files[1], files[2],
					  files[3], "-o", out, NULL });
	cr_assert_eq(r.status, 0, "%s", r.err);
	wt_test_run_free(&r);
	doc = load(out);
	cr_expect(json_is_null(json_object_get(json_object_get(doc, "run"),
					       "shard")));
	json_decref(doc);
	wt_test_run(&r, (const char *[]){ "merge", files[0], files[1], files[2],
					  "-o", out, NULL });
	cr_assert_eq(r.status, 0, "%s", r.err);
	wt_test_run_free(&r);
	doc = load(out);
	cr_expect_str_eq(str(json_object_get(doc, "run"), "shard"), "1/2,2/2");
	json_decref(doc);
	for (int i = 0; i < 4; i++)
		free(files[i]);
	free(out);
	free(pass);
	wt_test_dir_remove(&d);
}

/* The number in "kept K of N ..., S schedule steps" of a minimize run. */
static unsigned steps_of(const char *out)
{
	const char *p = strstr(out, " scheduling decisions, ");
	unsigned s = 0;

	cr_assert(p, "%s", out);
	cr_assert_eq(sscanf(p, " scheduling decisions, %u schedule steps", &s), 1);
	return s;
}

/*
 * minimize turns an undirected failure of bug `bug' (its twin under
 * PCT, seed, iterations) into a directed scenario of at most a handful
 * of steps that fails with the bug, with the same signature, and passes
 * without it -- checked here by running the file written as a user
 * would, not by minimize's own word.
 */
static void minimizes(const char *bug, const char *seed, const char *iters)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *file = zoo(bug), *json, *out, *arg, *line;
	json_t *doc;
	unsigned steps;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	cr_assert(asprintf(&out, "%s/%s.min.yaml", d.path, bug) > 0);
	cr_assert(asprintf(&arg, "%s#0", json) > 0);
	run_expect_fail((const char *[]){ "run", "--undirected", file, "--bug",
					  bug, "--iterations", iters, "--seed",
					  seed, "--json", json, NULL });
	wt_test_run(&r, (const char *[]){ "minimize", arg, "-o", out, NULL });
	cr_assert_eq(r.status, 0, "minimize %s: %d\n%s%s", bug, r.status,
		     r.out, r.err);
	steps = steps_of(r.out);
	printf("minimize %s: %s", bug, r.out);
	cr_expect_leq(steps, 5, "%s: %u schedule steps", bug, steps);
	doc = load(json);
	line = wt_test_line(r.out, "walktorture: minimize signature: ");
	cr_expect(line && !strcmp(line + 33, str(json_array_get(
		failures_of(doc), 0), "signature")), "%s", line);
	free(line);
	json_decref(doc);
	wt_test_run_free(&r);
	/* the regression scenario, as written: a schedule, the bug fails it */
	line = wt_test_slurp(out);
	cr_assert(line && strstr(line, "\nschedule:\n"), "%s", line);
	free(line);
	wt_test_run(&r, (const char *[]){ "run", out, "--bug", bug, NULL });
	cr_expect_eq(r.status, 1, "%s with --bug %s: %d\n%s%s", out, bug,
		     r.status, r.out, r.err);
	wt_test_run_free(&r);
	wt_test_run(&r, (const char *[]){ "run", out, NULL });
	cr_expect_eq(r.status, 0, "%s without the bug: %d\n%s%s", out,
		     r.status, r.out, r.err);
	wt_test_run_free(&r);
	free(arg);
	free(out);
	free(json);
	free(file);
	wt_test_dir_remove(&d);
}

Test(triage, minimize_step_into_no_seq)
{
	minimizes("step_into_no_seq", "0x5eed", "2000");
}

Test(triage, minimize_free_no_grace)
{
	minimizes("free_no_grace", "0x5eed", "500");
}

Test(triage, minimize_unlazy_next_leak)
{
	minimizes("unlazy_next_leak", "0x5eed", "500");
}

/* x86-TSO: the walker's increment in its store buffer */
Test(triage, minimize_legitimize_no_mb)
{
	minimizes("legitimize_no_mb", "5", "1500");
}

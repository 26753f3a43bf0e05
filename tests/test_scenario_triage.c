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

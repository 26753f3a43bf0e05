/* SPDX-License-Identifier: MIT */
/*
 * The runner as its users see it: an expectation that does not hold makes
 * `walktorture run` say FAIL, print the exact replay command and exit 1,
 * while one that holds exits 0; the results JSON passes reports/' schema
 * validator and carries every exit path; a results file is replaced
 * atomically (a writer killed mid-write leaves the old file whole); and
 * the same scenario and seed give the same digest line twice.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <time.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "core/paths.h"
#include "reports/results.h"
#include "scenarios/src/runner.h"
#include "tests/test_scenario_util.h"

static const char *const passing =
	"name: holds\n"
	"threads:\n"
	"  walker: { do: [\"stat /\", \"stat /nonexistent\"] }\n"
	"budget: { iterations: 3 }\n"
	"expect:\n"
	"  - result walker[1] == ok\n"
	"  - result walker[2] == ENOENT\n"
	"  - walks == 6\n"
	"  - oracle clean\n";

Test(scenario, true_expectations_pass)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *f;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "holds.yaml", passing);
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "7", NULL });
	cr_expect_eq(r.status, 0, "status %d\n%s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "walktorture: holds mode=sim seed="));
	cr_expect(strstr(r.out, " iterations=3 failures=0 "));
	cr_expect(strstr(r.out, " PASS\n"));
	cr_expect(strstr(r.out, "walktorture: 1 passed, 0 failed\n"));
	cr_expect(!strstr(r.out, "!!!"), "%s", r.out);
	wt_test_run_free(&r);
	free(f);
	wt_test_dir_remove(&d);
}

/* Each false expectation alone turns the verdict. */
static void expect_fails(const char *expect, const char *why)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *text, *f, *replay;

	cr_assert(asprintf(&text, "name: fails\n"
			   "threads:\n"
			   "  walker: { do: [\"stat /\", \"stat /nonexistent\"] }\n"
			   "expect:\n"
			   "  - %s\n", expect) > 0);
	wt_test_dir_make(&d);
	f = wt_test_write(&d, "fails.yaml", text);
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "7", NULL });
	cr_expect_eq(r.status, 1, "%s: status %d\n%s", expect, r.status, r.out);
	cr_expect(strstr(r.out, " FAIL\n"), "%s", r.out);
	cr_expect(strstr(r.out, "walktorture: 0 passed, 1 failed\n"));
	cr_expect(strstr(r.out, "!!!"), "anomalies are marked: %s", r.out);
	cr_expect(strstr(r.out, why), "%s: want '%s' in\n%s", expect, why,
		  r.out);
	replay = wt_test_line(r.out, "replay: ");
	cr_expect_not_null(replay, "a failure prints its replay command");
	if (replay)
		cr_expect(strstr(replay, "walktorture replay 0x") &&
			  strstr(replay, f), "%s", replay);
	free(replay);
	wt_test_run_free(&r);
	free(f);
	free(text);
	wt_test_dir_remove(&d);
}

Test(scenario, false_expectations_fail)
{
	expect_fails("path rcu.ok == 3", "path rcu.ok == 3: got 1");
	expect_fails("path unlazy.lookup_fast.miss >= 5",
		     "path unlazy.lookup_fast.miss >= 5: got 1");
	expect_fails("result walker == ok", "result walker == ok: got ENOENT");
	expect_fails("result walker[2] in [ok, EACCES]",
		     "got ENOENT (op 2: stat /nonexistent)");
	expect_fails("result walker[3] == ok", "thread walker did only 2 ops");
	expect_fails("walks > 2", "walks > 2: got 2");
	expect_fails("point path_init.rcu.enter == 0",
		     "point path_init.rcu.enter == 0: got ");
}

Test(scenario, replaying_a_failure_fails_again)
{
	struct wt_test_dir d;
	struct wt_test_run r, again;
	char *f, *replay, *cmd[8] = { 0 }, *save = NULL;
	unsigned n = 0;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "fails.yaml",
			  "name: fails\n"
			  "threads:\n"
			  "  walker: { do: [\"stat /nonexistent\"] }\n"
			  "expect:\n"
			  "  - result walker == ok\n");
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "9", NULL });
	replay = wt_test_line(r.out, "replay: walktorture ");
	cr_assert_not_null(replay, "%s", r.out);
	for (char *w = strtok_r(replay + strlen("replay: walktorture "), " ",
				&save); w && n < 7; w = strtok_r(NULL, " ", &save))
		cmd[n++] = w;
	wt_test_run(&again, (const char **)cmd);
	cr_expect_eq(again.status, 1, "%s\n%s", again.out, again.err);
	cr_expect(strstr(again.out, "# trace events="), "the trace is printed");
	cr_expect(strstr(again.out, "# timeline"), "and the timeline");
	cr_expect(strstr(again.out, "result walker == ok: got ENOENT"));
	free(replay);
	wt_test_run_free(&r);
	wt_test_run_free(&again);
	free(f);
	wt_test_dir_remove(&d);
}

Test(scenario, results_json_validates)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *f, *json, err[512];
	json_t *doc, *sc, *paths;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "holds.yaml", passing);
	cr_assert(asprintf(&json, "%s/results.json", d.path) > 0);
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "7", "--json",
					  json, NULL });
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_assert_eq(wt_results_load(json, &doc, err, sizeof(err)), 0, "%s", err);
	cr_expect_str_eq(json_string_value(json_object_get(doc, "schema")),
			 "walktorture-results");
	cr_expect_eq(json_integer_value(json_object_get(doc, "schema_version")), 1);
	cr_expect_str_eq(json_string_value(json_object_get(
		json_object_get(doc, "run"), "seed")), "0x7");
	sc = json_array_get(json_object_get(doc, "scenarios"), 0);
	cr_assert_not_null(sc);
	cr_expect_str_eq(json_string_value(json_object_get(sc, "name")), "holds");
	cr_expect_str_eq(json_string_value(json_object_get(sc, "verdict")), "PASS");
	cr_expect_eq(json_integer_value(json_object_get(sc, "iterations")), 3);
	paths = json_object_get(sc, "paths");
	/* every exit path, zeros included */
	cr_expect_eq(json_object_size(paths), WT_PATH__COUNT);
	cr_expect_eq(json_integer_value(json_object_get(paths, "rcu.ok")), 3);
	cr_expect_eq(json_array_size(json_object_get(sc, "expectations")), 4);
	json_decref(doc);
	wt_test_run_free(&r);
	free(json);
	free(f);
	wt_test_dir_remove(&d);
}

Test(scenario, failing_results_json_validates)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *f, *json, err[512];
	json_t *doc, *fl;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "fails.yaml",
			  "name: fails\n"
			  "threads:\n"
			  "  walker: { do: [\"stat /nonexistent\"] }\n"
			  "budget: { iterations: 2 }\n"
			  "expect:\n"
			  "  - result walker == ok\n"
			  "  - path rcu.ok == 1\n");
	cr_assert(asprintf(&json, "%s/results.json", d.path) > 0);
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "7", "--json",
					  json, NULL });
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_assert_eq(wt_results_load(json, &doc, err, sizeof(err)), 0, "%s", err);
	fl = json_object_get(json_array_get(json_object_get(doc, "scenarios"), 0),
			     "failures");
	/* two per-iteration result mismatches and the count */
	if (json_array_size(fl) != 3) {
		char *dump = json_dumps(fl, 0);

		cr_expect_fail("want 3 failure records: %s", dump);
		free(dump);
	}
	cr_expect_str_eq(json_string_value(json_object_get(
		json_array_get(fl, 0), "kind")), "expectation");
	cr_expect_not_null(json_object_get(json_array_get(fl, 0), "trace"),
			   "a failing sim iteration is rerun with its trace");
	json_decref(doc);
	wt_test_run_free(&r);
	free(json);
	free(f);
	wt_test_dir_remove(&d);
}

/* A document big enough that writing it takes a while. */
static json_t *big_doc(void)
{
	json_t *a = json_array();

	for (int i = 0; i < 400000; i++)
		json_array_append_new(a, json_string("a line of padding text"));
	return json_pack("{s:s, s:o}", "schema", "big", "pad", a);
}

static bool has_entry(const char *dir, const char *prefix)
{
	DIR *dd = opendir(dir);
	struct dirent *e;
	bool found = false;

	while (dd && !found && (e = readdir(dd)))
		found = !strncmp(e->d_name, prefix, strlen(prefix));
	if (dd)
		closedir(dd);
	return found;
}

Test(scenario, results_write_is_atomic)
{
	struct wt_test_dir d;
	char *target, *tmp_prefix, *got, err[256];
	const char *old = "{\"schema\": \"old\"}\n";
	json_t *doc = big_doc();
	int kills = 0;

	wt_test_dir_make(&d);
	target = wt_test_write(&d, "results.json", old);
	cr_assert(asprintf(&tmp_prefix, "%s.tmp.", "results.json") > 0);
	for (int round = 0; round < 5; round++) {
		pid_t pid = fork();

		/* no assertion in the child (see wt_test_run) */
		if (pid == 0)
			_exit(wt_scn_write_json(target, doc, err, sizeof(err)));
		cr_assert(pid > 0);
		/* kill it once its temporary file exists (or it is done) */
		for (int spin = 0; spin < 200000 && !has_entry(d.path, tmp_prefix);
		     spin++)
			;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		got = wt_test_slurp(target);
		if (!strcmp(got, old)) {
			kills++;
		} else {
			json_error_t je;
			json_t *back = json_loads(got, 0, &je);

			cr_expect_not_null(back, "the target is whole: %s", je.text);
			json_decref(back);
		}
		free(got);
	}
	cr_expect_gt(kills, 0, "some writer was killed before its rename");
	json_decref(doc);
	free(tmp_prefix);
	free(target);
	wt_test_dir_remove(&d);
}

/* A scenario with two threads and a random schedule: the digest is the
 * interleaving's. */
static const char *const racy =
	"name: racy\n"
	"tree: |\n"
	"  mkdir -p /a/b\n"
	"threads:\n"
	"  walker: { do: [\"stat /a/b\", \"stat /a/b/..\"], loop: 5 }\n"
	"  renamer: { do: [\"mv /a/b /a/c\", \"mv /a/c /a/b\"], loop: forever }\n"
	"inject:\n"
	"  - at=seq.read delay=uniform(0,2us) p=0.3\n"
	"budget: { iterations: 20 }\n"
	"expect:\n"
	"  - result walker in [ok, ENOENT]\n";

Test(scenario, same_seed_same_digest)
{
	struct wt_test_dir d;
	struct wt_test_run a, b, c;
	char *f, *la, *lb, *lc;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "racy.yaml", racy);
	wt_test_run(&a, (const char *[]){ "run", f, "--seed", "0x1234", NULL });
	wt_test_run(&b, (const char *[]){ "run", f, "--seed", "0x1234", NULL });
	wt_test_run(&c, (const char *[]){ "run", f, "--seed", "0x1235", NULL });
	la = wt_test_line(a.out, "walktorture: racy mode=");
	lb = wt_test_line(b.out, "walktorture: racy mode=");
	lc = wt_test_line(c.out, "walktorture: racy mode=");
	cr_assert_not_null(la, "%s%s", a.out, a.err);
	cr_assert_not_null(lb);
	cr_assert_not_null(lc);
	cr_expect_str_eq(la, lb);
	cr_expect(strstr(la, " digest="));
	/* another seed, another interleaving (and another scenario seed) */
	cr_expect_str_neq(strstr(la, " digest="), strstr(lc, " digest="),
			  "%s / %s", la, lc);
	free(la);
	free(lb);
	free(lc);
	wt_test_run_free(&a);
	wt_test_run_free(&b);
	wt_test_run_free(&c);
	free(f);
	wt_test_dir_remove(&d);
}

/*
 * Determinism holds under memory=tso too: the store buffers' flushes are
 * scheduler decisions, seeded and traced like the switches, so the same
 * seed gives the same digest in two processes, another seed another one,
 * and the tso run is not the sc run (its flush events are in the trace).
 */
Test(scenario, same_seed_same_digest_under_tso)
{
	struct wt_test_dir d;
	struct wt_test_run a, b, c, sc;
	char *f, *la, *lb, *lc, *ls;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "racy.yaml", racy);
	wt_test_run(&a, (const char *[]){ "run", f, "--seed", "0x1234",
					  "--memory", "tso", NULL });
	wt_test_run(&b, (const char *[]){ "run", f, "--seed", "0x1234",
					  "--memory", "tso", NULL });
	wt_test_run(&c, (const char *[]){ "run", f, "--seed", "0x1235",
					  "--memory", "tso", NULL });
	wt_test_run(&sc, (const char *[]){ "run", f, "--seed", "0x1234", NULL });
	la = wt_test_line(a.out, "walktorture: racy mode=");
	lb = wt_test_line(b.out, "walktorture: racy mode=");
	lc = wt_test_line(c.out, "walktorture: racy mode=");
	ls = wt_test_line(sc.out, "walktorture: racy mode=");
	cr_assert(la && lb && lc && ls, "%s%s", a.out, a.err);
	cr_expect(strstr(a.out, " memory=tso "), "%s", a.out);
	cr_expect(!strstr(a.out, " tso_flush_events=0\n") &&
		  !strstr(a.out, " tso_flush_events=0 "),
		  "the scheduler flushed something: %s", a.out);
	cr_expect_str_eq(la, lb);
	cr_expect_str_neq(strstr(la, " digest="), strstr(lc, " digest="),
			  "%s / %s", la, lc);
	cr_expect_str_neq(strstr(la, " digest="), strstr(ls, " digest="),
			  "tso %s / sc %s", la, ls);
	free(la);
	free(lb);
	free(lc);
	free(ls);
	wt_test_run_free(&a);
	wt_test_run_free(&b);
	wt_test_run_free(&c);
	wt_test_run_free(&sc);
	free(f);
	wt_test_dir_remove(&d);
}

/* SPDX-License-Identifier: MIT */
/*
 * Crash isolation (scenarios/src/isolate.c): a scenario that kills or
 * hangs the harness is a failure of kind crash or hang, with its
 * iteration, seed and replay, and the run or the night goes on.  The
 * scenarios of tests/data/isolation do it on purpose (`harness-fault').
 */
#include "test_scenario_util.h"

#include <glob.h>
#include <time.h>

#include <jansson.h>

#include "reports/results.h"

#define SUITE WT_SOURCE_DIR "/tests/data/isolation"

static json_t *first_failure(json_t *sc)
{
	return json_array_get(json_object_get(sc, "failures"), 0);
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

Test(isolation, a_night_reports_a_crash_and_a_hang_and_goes_on)
{
	alarm(300);	/* not .timeout: see watchdog() in test_rcu.c */
	struct wt_test_dir d;
	struct wt_test_run r;
	char *pat, *index, *html, err[512];
	json_t *doc, *sc, *f;
	glob_t g;

	wt_test_dir_make(&d);
	wt_test_run(&r, (const char *[]){ "nightly", SUITE, "--seeds", "1",
		"--seed", "3", "--iterations", "20", "--out", d.path, NULL });
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_assert(asprintf(&pat, "%s/*/results-*.json", d.path) > 0);
	cr_assert_eq(glob(pat, 0, NULL, &g), 0, "no results: %s", r.out);
	cr_assert_eq(g.gl_pathc, 1);
	cr_assert_eq(wt_results_load(g.gl_pathv[0], &doc, err, sizeof(err)), 0,
		     "%s", err);

	sc = wt_test_scenario_named(doc, "a_crash");
	cr_assert_not_null(sc);
	cr_expect_str_eq(str(sc, "verdict"), "FAIL");
	f = first_failure(sc);
	cr_assert_not_null(f);
	cr_expect_str_eq(str(f, "kind"), "crash");
	/* SIGSEGV; under ASan its report ends in abort(); TSan reports
	 * it and exits (66): then there is no signal */
	cr_expect(!strcmp(str(f, "signal"), "SIGSEGV") ||
		  !strcmp(str(f, "signal"), "SIGABRT") ||
		  (!json_object_get(f, "signal") &&
		   strstr(str(f, "message"), "without a result")),
		  "%s", str(f, "message"));
	cr_expect(json_is_integer(json_object_get(f, "iteration")));
	cr_expect(strstr(str(f, "replay"), "walktorture replay 0x") &&
		  strstr(str(f, "replay"), str(f, "seed")), "%s", str(f, "replay"));

	sc = wt_test_scenario_named(doc, "b_hang");
	cr_assert_not_null(sc);
	f = first_failure(sc);
	cr_assert_not_null(f);
	cr_expect_str_eq(str(f, "kind"), "hang");
	{	/* the stall is the watchdog's (1 s + 5 s), not the run's age */
		double stall = 0, age = 0;
		unsigned long long it = 0;

		cr_expect_eq(sscanf(str(f, "message"), "no progress for %lf s "
				    "in iteration %llu, %lf s into the run",
				    &stall, &it, &age), 3, "%s", str(f, "message"));
		cr_expect(stall >= 6 && stall <= age, "%s", str(f, "message"));
	}

	/* the night went on: the scenario after them ran */
	sc = wt_test_scenario_named(doc, "c_quiet");
	cr_expect_str_eq(str(sc, "verdict"), "PASS");
	cr_expect_eq(json_integer_value(json_object_get(sc, "iterations")), 20);
	json_decref(doc);

	/* the index and the night's report show them like any failure */
	cr_assert(asprintf(&index, "%s/index.html", d.path) > 0);
	html = wt_test_slurp(index);
	cr_expect(strstr(html, "a_crash"), "index without the crash");
	free(html);
	g.gl_pathv[0][strlen(g.gl_pathv[0]) - 4] = '\0';
	free(index);
	cr_assert(asprintf(&index, "%shtml", g.gl_pathv[0]) > 0);
	html = wt_test_slurp(index);
	cr_expect(strstr(html, "the harness died of") ||
		  strstr(html, "the harness exited with"), "report without it");
	cr_expect(strstr(html, "no progress for"), "report without the hang");
	free(html);
	free(index);
	globfree(&g);
	free(pat);
	wt_test_run_free(&r);
	wt_test_dir_remove(&d);
}

/* The replay of a crash's seed crashes again, and says so. */
Test(isolation, the_replay_of_a_crash_crashes_again)
{
	alarm(120);	/* not .timeout: see watchdog() in test_rcu.c */
	struct wt_test_dir d;
	struct wt_test_run r, rr;
	char *json, *seed, err[512];
	json_t *doc, *f;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	wt_test_run(&r, (const char *[]){ "run", SUITE "/a_crash.yaml", "--seed",
		"11", "--json", json, NULL });
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_assert_eq(wt_results_load(json, &doc, err, sizeof(err)), 0, "%s", err);
	f = first_failure(json_array_get(json_object_get(doc, "scenarios"), 0));
	cr_assert_not_null(f);
	cr_assert_str_eq(str(f, "kind"), "crash");
	seed = strdup(str(f, "seed"));
	json_decref(doc);
	wt_test_run(&rr, (const char *[]){ "replay", seed, SUITE "/a_crash.yaml",
		NULL });
	cr_expect_eq(rr.status, 1, "%s%s", rr.out, rr.err);
	cr_expect(strstr(rr.out, "!!! crash iteration=0 seed="), "%s", rr.out);
	cr_expect(strstr(rr.out, seed), "%s", rr.out);
	wt_test_run_free(&rr);
	/* in this process (WT_ISOLATE=0) it is the harness's own crash */
	setenv("WT_ISOLATE", "0", 1);
	wt_test_run(&rr, (const char *[]){ "replay", seed, SUITE "/a_crash.yaml",
		NULL });
	unsetenv("WT_ISOLATE");
	/* a signal, or a sanitizer's own exit status (TSan: 66) */
	cr_expect_geq(rr.status, 3, "exit %d", rr.status);
	wt_test_run_free(&rr);
	free(seed);
	free(json);
	wt_test_run_free(&r);
	wt_test_dir_remove(&d);
}

/* A scenario's lines and digest are the same in a child as in-process. */
Test(isolation, a_child_gives_the_in_process_result)
{
	alarm(120);	/* not .timeout: see watchdog() in test_rcu.c */
	const char *file = WT_SOURCE_DIR "/scenarios/basic/negative.yaml";
	struct wt_test_run a, b;

	wt_test_run(&a, (const char *[]){ "run", file, "--seed", "5", NULL });
	setenv("WT_ISOLATE", "0", 1);
	wt_test_run(&b, (const char *[]){ "run", file, "--seed", "5", NULL });
	unsetenv("WT_ISOLATE");
	cr_expect_eq(a.status, 0, "%s%s", a.out, a.err);
	cr_expect_eq(b.status, 0, "%s%s", b.out, b.err);
	cr_expect_str_eq(a.out, b.out);
	wt_test_run_free(&a);
	wt_test_run_free(&b);
}

/* The stress watchdog honours `timeout' through an injected delay: a
 * long delay sleeps in slices and leaves once the run is abandoned. */
Test(isolation, a_long_injected_delay_ends_at_the_stress_timeout)
{
	alarm(120);	/* not .timeout: see watchdog() in test_rcu.c */
	static const char yaml[] =
		"name: delay300\n"
		"description: a 300 s delay must end at the 1 s timeout\n"
		"mode: stress\n"
		"sched: {timeout: 1s}\n"
		"tree: |\n  mkdir -p /a/b\n"
		"inject:\n  - at=seq.read thread=walker delay=300s\n"
		"threads:\n  walker:\n    do:\n      - stat /a/b\n";
	struct wt_test_dir d;
	struct wt_test_run r;
	struct timespec t0, t1;
	char *f;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "delay.yaml", yaml);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "1", NULL });
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "!!! stuck iteration=0"), "%s", r.out);
	/* the watchdog, not the isolation's kill (timeout + 5 s) */
	cr_expect_lt(t1.tv_sec - t0.tv_sec, 5, "took %lld s",
		     (long long)(t1.tv_sec - t0.tv_sec));
	wt_test_run_free(&r);
	free(f);
	wt_test_dir_remove(&d);
}

/* --jobs: scenarios at once, each in its own child; what a run prints
 * is a serial run's, in list order. */
Test(isolation, jobs_at_once_print_what_one_at_a_time_prints)
{
	alarm(300);	/* not .timeout: see watchdog() in test_rcu.c */
	const char *suite = WT_SOURCE_DIR "/scenarios/basic";
	struct wt_test_run a, b;

	wt_test_run(&a, (const char *[]){ "run", suite, "--seed", "5",
		"--jobs", "1", NULL });
	wt_test_run(&b, (const char *[]){ "run", suite, "--seed", "5",
		"--jobs", "3", NULL });
	cr_expect_eq(a.status, 0, "%s%s", a.out, a.err);
	cr_expect_eq(b.status, 0, "%s%s", b.out, b.err);
	cr_expect(strstr(a.out, " passed, 0 failed"), "%s", a.out);
	cr_expect_str_eq(a.out, b.out);
	wt_test_run_free(&a);
	wt_test_run_free(&b);
}

/* A crash and a hang beside each other and beside a quiet scenario:
 * each is its own failure, the quiet one runs whole, and the verdicts
 * come in list order. */
Test(isolation, jobs_keep_a_crash_and_a_hang_apart)
{
	alarm(300);	/* not .timeout: see watchdog() in test_rcu.c */
	struct wt_test_run r;
	const char *a, *b, *c;

	wt_test_run(&r, (const char *[]){ "run", SUITE, "--seed", "3",
		"--iterations", "20", "--jobs", "3", NULL });
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	a = strstr(r.out, "walktorture: a_crash mode=");
	b = strstr(r.out, "walktorture: b_hang mode=");
	c = strstr(r.out, "walktorture: c_quiet mode=");
	cr_assert(a && b && c && a < b && b < c, "%s", r.out);
	cr_expect(strstr(a, "FAIL") < b, "%s", r.out);
	cr_expect(strstr(b, "FAIL") < c, "%s", r.out);
	cr_expect(strstr(c, "iterations=20 failures=0"), "%s", r.out);
	cr_expect(strstr(r.out, "no progress for"), "%s", r.out);
	cr_expect(strstr(r.out, "1 passed, 2 failed"), "%s", r.out);
	wt_test_run_free(&r);
}

/* A stress thread that the watchdog cannot stop (it never reaches a
 * point again) keeps the child from sending its result; the parent's
 * hang still says what the watchdog found: each thread and its last
 * point. */
Test(isolation, a_hang_in_stress_mode_keeps_the_watchdogs_report)
{
	alarm(120);	/* not .timeout: see watchdog() in test_rcu.c */
	static const char yaml[] =
		"name: spinner\n"
		"description: a stress thread that never reaches a point again\n"
		"mode: stress\n"
		"sched: {timeout: 1s}\n"
		"budget: {iterations: 1}\n"
		"tree: |\n  mkdir -p /a/b\n"
		"threads:\n  walker:\n    do:\n      - stat /a/b\n"
		"      - harness-fault hang\n"
		"  other:\n    do:\n      - stat /a\n";
	struct wt_test_dir d;
	struct wt_test_run r;
	char *f;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "spinner.yaml", yaml);
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "1", NULL });
	cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "!!! hang iteration=0"), "%s", r.out);
	cr_expect(strstr(r.out, "the stress watchdog had found it stuck: "
			 "no end within timeout_ms=1000"), "%s", r.out);
	cr_expect(strstr(r.out, "thread walker (#0) running, last point"),
		  "%s", r.out);
	cr_expect(strstr(r.out, "thread other (#1) finished"), "%s", r.out);
	wt_test_run_free(&r);
	free(f);
	wt_test_dir_remove(&d);
}

/* SPDX-License-Identifier: MIT */
/*
 * Undirected twins (scenarios/src/twin.c): what a twin keeps and drops
 * of its directed file, which paths it measures, that its counts agree
 * with the run's, that PCT's calibrated k is what lets it find a narrow
 * window, that a replay of a twin's iteration is that iteration (the
 * calibration depends on the name only), and the command line: `run
 * --undirected', a twin's replay line, `replay --undirected', and
 * `nightly' running the twins beside the directed scenarios.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <inttypes.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "core/paths.h"
#include "reports/results.h"
#include "scenarios/src/runner.h"
#include "sim/sched/prng.h"
#include "tests/test_scenario_util.h"

#define CHILD_SEQ WT_SOURCE_DIR "/scenarios/echild/restart.step_into.child_seq.yaml"
#define ZOO_STEP WT_SOURCE_DIR "/scenarios/zoo/step_into_no_seq.yaml"

static struct wt_scenario *load(const char *file)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *s = wt_scenario_load(file, NULL, &err);

	cr_assert_not_null(s, "%s", err.text);
	return s;
}

static struct wt_scenario *twin(const char *file)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *s = load(file);

	cr_assert_eq(wt_scenario_undirect(s, &err), 0, "%s", err.text);
	return s;
}

static int path(const char *name)
{
	int id = wt_path_lookup(name);

	cr_assert(id >= 0, "no path %s", name);
	return id;
}

static void run(const struct wt_scenario *s, uint64_t seed, uint64_t iters,
		uint64_t bugs, struct wt_scn_result *r)
{
	struct wt_scn_opts o = { .seed = seed, .mode = -1, .memory = -1,
				 .iterations = iters, .bugs = bugs,
				 .out = fopen("/dev/null", "w") };

	cr_assert_not_null(o.out);
	cr_assert_eq(wt_scn_run(s, &o, r), 0);
	fclose(o.out);
}

Test(twin, keeps_the_file_drops_the_schedule)
{
	struct wt_scenario *d = load(CHILD_SEQ), *t = twin(CHILD_SEQ);

	cr_expect_eq(d->policy, WT_SCN_DIRECTED);
	cr_expect_str_eq(t->name, "restart.step_into.child_seq.undirected");
	cr_expect_str_eq(t->twin_of, "restart.step_into.child_seq");
	cr_expect_str_eq(t->suite, d->suite);
	cr_expect_str_eq(t->file, d->file);
	cr_expect_eq(t->policy, WT_SCN_PCT);
	cr_expect_eq(t->nsteps, 0);
	cr_expect_null(t->schedule);
	cr_expect_eq(t->iterations, WT_SCN_TWIN_ITERATIONS);
	cr_expect_eq(t->nightly_iterations, WT_SCN_TWIN_NIGHTLY);
	/* the tree and the threads are the file's */
	cr_expect_eq(t->ntree, d->ntree);
	cr_expect_eq(t->nthreads, d->nthreads);
	for (unsigned i = 0; i < t->nthreads && i < d->nthreads; i++)
		cr_expect_eq(t->threads[i].nops, d->threads[i].nops);
	/* of five expectations only `oracle clean' is left; the one exit
	 * path pinned above zero is the target, not ref.error (an outcome)
	 * nor unlazy.* == 0 */
	cr_expect_eq(d->nexpects, 5);
	cr_assert_eq(t->nexpects, 1);
	cr_expect_eq(t->expects[0].kind, WT_EXPECT_ORACLE);
	cr_assert_eq(t->ntargets, 1);
	cr_expect_eq(t->targets[0], (unsigned)path("restart.step_into.child_seq"));
	cr_expect_eq(d->ntargets, 0);
	cr_expect_null(d->twin_of);
	wt_scenario_free(d);
	wt_scenario_free(t);
}

Test(twin, targets_are_the_paths_the_file_forces)
{
	struct wt_test_dir dir;
	struct wt_scenario *t;
	char *f;

	wt_test_dir_make(&dir);
	f = wt_test_write(&dir, "forces.yaml",
		"name: forces\n"
		"threads:\n"
		"  walker: { do: [\"stat /\"] }\n"
		"schedule:\n"
		"  - walker finish\n"
		"expect:\n"
		"  - path restart.dotdot.seq == 1\n"	/* target */
		"  - path restart.* == 0\n"		/* a glob: no */
		"  - path rcu.ok == 1\n"		/* an outcome: no */
		"  - path unlazy.atime == 0\n"		/* must not happen */
		"  - path unlazy.get_link <= 3\n"	/* may not happen */
		"  - path unlazy.lookup_fast.miss >= 2\n"	/* target */
		"  - path unlazy.not_dir > 0\n"		/* target */
		"  - path restart.dotdot.seq >= 1\n"	/* again: once */
		"  - path unlazy.jump_link >= 0\n"	/* always holds: no */
		"  - result walker == ok\n");
	t = twin(f);
	cr_assert_eq(t->ntargets, 3);
	cr_expect_eq(t->targets[0], (unsigned)path("restart.dotdot.seq"));
	cr_expect_eq(t->targets[1], (unsigned)path("unlazy.lookup_fast.miss"));
	cr_expect_eq(t->targets[2], (unsigned)path("unlazy.not_dir"));
	cr_expect_eq(t->nexpects, 0, "no `oracle clean' in the file: none left");
	wt_scenario_free(t);
	free(f);
	wt_test_dir_remove(&dir);
}

/* More forced paths than a twin measures: an error at the one too many,
 * not a target dropped without a word. */
Test(twin, too_many_targets_is_an_error)
{
	static const char *const names[] = {
		"lookup_fast.miss", "lookup_fast.parent_seq",
		"revalidate.echild", "revalidate.invalid", "revalidate.error",
		"may_lookup.echild", "may_lookup.denied", "not_dir",
		"step_into.child_seq", "follow_mount.mount_lock",
		"follow_mount.no_mount", "follow_mount.manage",
		"follow_mount.automount", "follow_mount.no_xdev",
		"pick_link.link_seq", "get_link", "link_stack",
	};
	struct wt_scn_error err = { 0 };
	struct wt_test_dir dir;
	struct wt_scenario *s;
	char text[4096], *f, want[64];
	size_t n;

	cr_assert_eq(sizeof(names) / sizeof(names[0]), WT_SCN_TARGETS_MAX + 1);
	n = (size_t)snprintf(text, sizeof(text), "name: many\nthreads:\n"
			     "  walker: { do: [\"stat /\"] }\nschedule:\n"
			     "  - walker finish\nexpect:\n");
	for (unsigned i = 0; i <= WT_SCN_TARGETS_MAX; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "  - path restart.%s >= 1\n", names[i]);
	wt_test_dir_make(&dir);
	f = wt_test_write(&dir, "many.yaml", text);
	s = load(f);
	cr_expect_eq(wt_scenario_undirect(s, &err), -1);
	/* the 17th expectation is on line 7 + 16 */
	snprintf(want, sizeof(want), "many.yaml:%d:5: more than %d exit paths",
		 7 + WT_SCN_TARGETS_MAX, WT_SCN_TARGETS_MAX);
	cr_expect(strstr(err.text, want), "want '%s' in %s", want, err.text);
	wt_scenario_free(s);
	free(f);
	wt_test_dir_remove(&dir);
}

Test(twin, an_undirected_scenario_has_none)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *s = load(WT_SOURCE_DIR "/scenarios/echild/random.rename.yaml");

	cr_expect_eq(wt_scenario_undirect(s, &err), -1);
	cr_expect(strstr(err.text, "random.rename.yaml:1:1: ") &&
		  strstr(err.text, "has no schedule"), "%s", err.text);
	cr_expect_str_eq(s->name, "random.rename", "left as it was");
	wt_scenario_free(s);
}

Test(twin, counts_agree_with_the_run)
{
	struct wt_scenario *t = twin(CHILD_SEQ);
	struct wt_scn_result r;
	unsigned id = t->targets[0];

	run(t, 0x5eed, 300, 0, &r);
	cr_expect(r.pass);
	cr_expect_eq(r.iterations, 300);
	cr_expect_eq(r.target_count[0], r.paths[id]);
	cr_expect_leq(r.target_iterations[0], r.target_count[0]);
	cr_expect_leq(r.target_iterations[0], r.iterations);
	cr_expect(r.target_iterations[0] == 0 || r.target_first[0] >= 1);
	/* k is one iteration's points: a directed scenario's two ops pass a
	 * few hundred, far below the scheduler's default estimate */
	cr_expect_gt(r.pct_steps, 50);
	cr_expect_lt(r.pct_steps, 2000);
	wt_scn_result_free(&r);
	wt_scenario_free(t);
}

/*
 * The race window of step_into.child_seq is a few points of the
 * walker's: with change points drawn over the default k = 10000, PCT
 * almost never preempts inside it; with the calibrated k it does.  The
 * same twin with its calibration turned off (no twin_of) is the
 * control, measured in the same run under the same seed.
 */
Test(twin, calibrated_pct_finds_the_window)
{
	struct wt_scenario *t = twin(CHILD_SEQ), *control = twin(CHILD_SEQ);
	struct wt_scn_result r, c;
	unsigned id = t->targets[0];

	free(control->twin_of);
	control->twin_of = NULL;
	run(t, 0x5eed, 2000, 0, &r);
	run(control, 0x5eed, 2000, 0, &c);
	cr_expect_eq(c.pct_steps, 0, "the control is not calibrated");
	cr_expect_gt(r.paths[id], 0, "calibrated: %" PRIu64 " of 2000",
		     r.target_iterations[0]);
	cr_expect_gt(r.paths[id], 4 * c.paths[id] + 1,
		     "calibrated %" PRIu64 ", uncalibrated %" PRIu64,
		     r.paths[id], c.paths[id]);
	wt_scn_result_free(&r);
	wt_scn_result_free(&c);
	wt_scenario_free(t);
	wt_scenario_free(control);
}

/* A replay knows its iteration's seed only: it must calibrate to the
 * same k and so run the same interleaving. */
Test(twin, replay_runs_the_same_iteration)
{
	struct wt_scenario *t = twin(CHILD_SEQ);
	struct wt_scn_result r, again;
	struct wt_scn_opts o = { .mode = WT_SCN_SIM, .memory = -1,
				 .replay = true,
				 .out = fopen("/dev/null", "w"),
				 .trace_out = fopen("/dev/null", "w") };
	uint64_t first;

	run(t, 0x5eed, 2000, 0, &r);
	cr_assert_gt(r.target_first[0], 0, "the window was never hit");
	first = r.target_first[0] - 1;
	o.seed = wt_seed_iteration(r.seed, first);
	cr_assert_eq(wt_scn_run(t, &o, &again), 0);
	cr_expect_eq(again.pct_steps, r.pct_steps);
	cr_expect_eq(again.target_iterations[0], 1,
		     "iteration %" PRIu64 " hit the target; its replay did not",
		     first);
	fclose(o.out);
	fclose(o.trace_out);
	wt_scn_result_free(&r);
	wt_scn_result_free(&again);
	wt_scenario_free(t);
}

Test(twin, run_undirected_prints_the_targets)
{
	struct wt_test_run r;

	wt_test_run(&r, (const char *[]){ "run", "--undirected", CHILD_SEQ,
		    "--seed", "0x5eed", NULL });
	cr_expect_eq(r.status, 0, "status %d\n%s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "walktorture: restart.step_into.child_seq."
			 "undirected target restart.step_into.child_seq count="),
		  "%s", r.out);
	cr_expect(strstr(r.out, " iterations=200 failures=0 "), "%s", r.out);
	cr_expect(strstr(r.out, " pct_steps="), "%s", r.out);
	wt_test_run_free(&r);
}

/* A twin's failure replays as the twin: --undirected in its replay line,
 * and that line fails again. */
Test(twin, a_twin_failure_replays_undirected)
{
	struct wt_test_run r, again;
	char *replay, *cmd[12] = { 0 }, *save = NULL;
	unsigned n = 0;

	wt_test_run(&r, (const char *[]){ "run", "--undirected", ZOO_STEP,
		    "--bug", "step_into_no_seq", "--seed", "0x5eed",
		    "--iterations", "3000", NULL });
	cr_expect_eq(r.status, 1, "PCT finds step_into_no_seq: %s", r.out);
	replay = wt_test_line(r.out, "replay: walktorture ");
	cr_assert_not_null(replay, "%s", r.out);
	cr_expect(strstr(replay, " --undirected"), "%s", replay);
	for (char *w = strtok_r(replay + strlen("replay: walktorture "), " ",
				&save); w && n < 11; w = strtok_r(NULL, " ", &save))
		cmd[n++] = w;
	wt_test_run(&again, (const char **)cmd);
	cr_expect_eq(again.status, 1, "%s\n%s", replay, again.out);
	cr_expect(strstr(again.out, "step_into_no_seq.undirected !!! oracle"),
		  "%s", again.out);
	wt_test_run_free(&again);
	free(replay);
	wt_test_run_free(&r);
}

Test(twin, replay_undirected_needs_a_schedule)
{
	struct wt_test_run r;

	wt_test_run(&r, (const char *[]){ "replay", "0x1",
		    WT_SOURCE_DIR "/scenarios/echild/random.rename.yaml",
		    "--undirected", NULL });
	cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "has no schedule"), "%s", r.err);
	cr_expect(!strstr(r.out, "mode=sim"), "nothing ran: %s", r.out);
	wt_test_run_free(&r);
}

/* nightly: every directed scenario, then its twin; the twin's results
 * carry its measurement, and the document validates. */
Test(twin, nightly_runs_twins_beside_the_directed)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *suite, *f, *out, *results, err[1024];
	json_t *doc, *tw, *t0;
	struct dirent *e;
	DIR *dir;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&suite, "%s/pair", d.path) > 0);
	cr_assert_eq(mkdir(suite, 0777), 0);
	cr_assert(asprintf(&f, "%s/child_seq.yaml", suite) > 0);
	cr_assert_eq(symlink(CHILD_SEQ, f), 0);
	cr_assert(asprintf(&out, "%s/out", d.path) > 0);
	wt_test_run(&r, (const char *[]){ "nightly", suite, "--seeds", "1",
		    "--seed", "7", "--out", out, "--explore", "0", NULL });
	cr_expect_eq(r.status, 0, "status %d\n%s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, " scenarios=2\n"), "%s", r.out);
	cr_expect(strstr(r.out, "walktorture: restart.step_into.child_seq mode="),
		  "%s", r.out);
	cr_expect(strstr(r.out, "walktorture: restart.step_into.child_seq."
			 "undirected mode="), "%s", r.out);
	/* OUT/NIGHT/results-1-1-0.json */
	results = NULL;
	dir = opendir(out);
	cr_assert_not_null(dir);
	while ((e = readdir(dir)))
		if (e->d_name[0] == '2' && !results)
			cr_assert(asprintf(&results, "%s/%s/results-1-1-0.json",
					   out, e->d_name) > 0);
	closedir(dir);
	cr_assert_not_null(results);
	cr_assert_eq(wt_results_load(results, &doc, err, sizeof(err)), 0,
		     "%s", err);
	cr_expect_null(json_object_get(wt_test_scenario_named(doc,
			"restart.step_into.child_seq"), "twin"));
	tw = json_object_get(wt_test_scenario_named(doc,
			"restart.step_into.child_seq.undirected"), "twin");
	cr_assert(json_is_object(tw));
	cr_expect_str_eq(json_string_value(json_object_get(tw, "of")),
			 "restart.step_into.child_seq");
	cr_expect_gt(json_integer_value(json_object_get(tw, "pct_steps")), 0);
	cr_assert_eq(json_array_size(json_object_get(tw, "targets")), 1);
	t0 = json_array_get(json_object_get(tw, "targets"), 0);
	cr_expect_str_eq(json_string_value(json_object_get(t0, "path")),
			 "restart.step_into.child_seq");
	cr_expect_leq(json_integer_value(json_object_get(t0, "iterations")),
		      WT_SCN_TWIN_NIGHTLY);
	cr_expect_eq(json_integer_value(json_object_get(wt_test_scenario_named(doc,
			"restart.step_into.child_seq.undirected"), "iterations")),
		     WT_SCN_TWIN_NIGHTLY, "the twin's nightly budget");
	json_decref(doc);
	free(results);
	free(out);
	free(f);
	free(suite);
	wt_test_run_free(&r);
	wt_test_dir_remove(&d);
}

/* The number of times line appears in out. */
static unsigned count_of(const char *out, const char *line)
{
	unsigned n = 0;

	for (const char *p = out; (p = strstr(p, line)); p++)
		n++;
	return n;
}

/* nightly's explore twins run in the night's first seed only: their
 * cost is --explore per suite, whatever --seeds says (cmd_nightly.c). */
Test(twin, nightly_explores_in_the_first_seed_only)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *suite, *f, *out;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&suite, "%s/pair", d.path) > 0);
	cr_assert_eq(mkdir(suite, 0777), 0);
	cr_assert(asprintf(&f, "%s/child_seq.yaml", suite) > 0);
	cr_assert_eq(symlink(CHILD_SEQ, f), 0);
	cr_assert(asprintf(&out, "%s/out", d.path) > 0);
	/* one iteration a scenario: quick under the sanitizers too */
	wt_test_run(&r, (const char *[]){ "nightly", suite, "--seeds", "3",
		    "--seed", "7", "--out", out, "--explore", "200ms",
		    "--generated", "0", "--iterations", "1", NULL });
	cr_expect_eq(r.status, 0, "status %d\n%s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, " scenarios=3\n"), "%s", r.out);
	cr_expect_eq(count_of(r.out, "walktorture: restart.step_into."
			      "child_seq mode="), 3, "%s", r.out);
	cr_expect_eq(count_of(r.out, "walktorture: restart.step_into."
			      "child_seq.explore mode="), 1, "%s", r.out);
	free(out);
	free(f);
	free(suite);
	wt_test_run_free(&r);
	wt_test_dir_remove(&d);
}

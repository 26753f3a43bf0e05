/* SPDX-License-Identifier: MIT */
/*
 * The policies at the scenario level: `policy: pos' in a file and
 * `--policy' on the command line (an undirected twin's included), the
 * replay lines that carry it, and replays that print the same bytes in
 * two processes.
 */
#define _GNU_SOURCE
#include <inttypes.h>

#include <criterion/criterion.h>

#include "sim/sched/prng.h"
#include "tests/test_scenario_util.h"

#define ZOO_STEP WT_SOURCE_DIR "/scenarios/zoo/step_into_no_seq.yaml"
#define ZOO_TYPE WT_SOURCE_DIR "/scenarios/zoo/type_before_inode.yaml"
#define ZOO_LNM WT_SOURCE_DIR "/scenarios/zoo/legitimize_no_mb.yaml"

/*
 * Under the tsan preset the walktorture runs these tests spawn were
 * measured at over 100 s each on a loaded 2-core machine (5 s from a
 * shell), past the suite's 600 s timeout; sim mode runs every fiber on
 * one OS thread, so TSan has nothing to see there.  test_sched_pos
 * runs the same scheduler code in process under every preset.
 */
#if defined(__SANITIZE_THREAD__)
#define SPAWNS() cr_skip_test("spawns walktorture runs: too slow under TSan")
#else
#define SPAWNS() do { } while (0)
#endif

/* The words of a `replay: walktorture ...' line (modified in place; at
 * most max - 1, NULL-terminated), honouring single quotes. */
static unsigned words(char *line, char **w, unsigned max)
{
	unsigned n = 0;
	char *p = line;

	while (*p && n + 1 < max) {
		char *out;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		w[n++] = out = p;
		while (*p && *p != ' ') {
			if (*p == '\'') {
				for (p++; *p && *p != '\''; )
					*out++ = *p++;
				if (*p)
					p++;
			} else {
				*out++ = *p++;
			}
		}
		if (*p)
			p++;
		*out = '\0';
	}
	w[n] = NULL;
	return n;
}

/* Run `replay' of the first failure of out; the command must carry
 * want, and two runs of it print the same bytes and fail again. */
static void replay_twice(const char *out, const char *want)
{
	struct wt_test_run a, b;
	char *line = wt_test_line(out, "replay: walktorture ");
	char *cmd[32];

	cr_assert_not_null(line, "%s", out);
	cr_expect(strstr(line, want), "%s", line);
	words(line + strlen("replay: walktorture "), cmd, 32);
	wt_test_run(&a, (const char **)cmd);
	wt_test_run(&b, (const char **)cmd);
	cr_expect_eq(a.status, 1, "%s\n%s%s", line, a.out, a.err);
	cr_expect_str_eq(a.out, b.out, "two replays printed different bytes");
	cr_expect(strstr(a.out, " FAIL"), "%s", a.out);
	wt_test_run_free(&a);
	wt_test_run_free(&b);
	free(line);
}

Test(policy, a_pos_twin_failure_replays_under_pos)
{
	struct wt_test_run r;
	SPAWNS();

	wt_test_run(&r, (const char *[]){ "run", "--undirected", "--policy",
		    "pos", ZOO_STEP, "--bug", "step_into_no_seq", "--seed",
		    "3", "--iterations", "40", NULL });
	cr_expect_eq(r.status, 1, "POS finds step_into_no_seq: %s", r.out);
	cr_expect(strstr(r.out, "step_into_no_seq.undirected !!! oracle"),
		  "%s", r.out);
	replay_twice(r.out, " --undirected --policy pos");
	wt_test_run_free(&r);
}

Test(policy, an_unknown_policy_is_bad_usage)
{
	struct wt_test_run r;

	wt_test_run(&r, (const char *[]){ "run", "--policy", "directed",
		    ZOO_STEP, NULL });
	cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "unknown policy 'directed'"), "%s", r.err);
	wt_test_run_free(&r);
}

/*
 * (Seeds and budgets are chosen so that the first failure comes within
 * tens of iterations: the sanitizer builds run these too.)
 *
 * An explore run is deterministic from its seed, loop included: two
 * processes run the same iterations (the run's digest folds every
 * iteration's), and the corpus grew.  Each failure's replay line carries
 * its iteration's schedule (--preempts) and fails again, printing the
 * same bytes in two processes.
 */
Test(policy, explore_runs_and_replays_the_same_in_two_processes)
{
	struct wt_test_run a, b;
	const char *args[] = { "run", "--undirected", "--policy", "explore",
			       ZOO_STEP, "--bug", "step_into_no_seq", "--seed",
			       "1", "--iterations", "120", NULL };
	char *va, *vb;
	SPAWNS();

	wt_test_run(&a, args);
	wt_test_run(&b, args);
	cr_expect_eq(a.status, 1, "explore finds step_into_no_seq: %s", a.out);
	va = wt_test_line(a.out, "walktorture: step_into_no_seq.undirected mode=");
	vb = wt_test_line(b.out, "walktorture: step_into_no_seq.undirected mode=");
	cr_assert(va && vb, "%s", a.out);
	cr_expect_str_eq(va, vb);
	cr_expect(strstr(a.out, " explore_corpus="), "%s", a.out);
	replay_twice(a.out, " --undirected --policy explore --preempts ");
	free(va);
	free(vb);
	wt_test_run_free(&a);
	wt_test_run_free(&b);
}

/* A schedule that names no thread or point of the file is bad usage. */
Test(policy, a_bad_preempts_spec_is_bad_usage)
{
	struct wt_test_run r;

	wt_test_run(&r, (const char *[]){ "replay", "0x1", ZOO_STEP,
		    "--undirected", "--policy", "explore", "--preempts",
		    "nobody:lookup_fast.parent_seq:1", NULL });
	cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "no thread 'nobody'"), "%s", r.err);
	wt_test_run_free(&r);
	wt_test_run(&r, (const char *[]){ "replay", "0x1", ZOO_STEP,
		    "--undirected", "--policy", "pos", "--preempts",
		    "walker:lookup_fast.parent_seq:1", NULL });
	cr_expect_eq(r.status, 2, "%s%s", r.out, r.err);
	wt_test_run_free(&r);
}

/*
 * A flush point (explore.h, "Store buffers"): under memory=pso, at the
 * walker's fifth arrival at the REF-walk d_flags load the maker's store
 * number 13 -- d_instantiate's d_flags -- reaches memory, and only the
 * entries that must go before it (its seq store) go along; d_inode
 * stays in the buffer, and the walker reads x positive with no inode.
 * The same seed without the point passes: the flush is the whole
 * difference.  Two replays print the same bytes.  (An explore run of
 * the twin found this schedule, seed 4, 6000 iterations; if the model's
 * points move, take the new one from such a run's replay line.)
 */
Test(policy, a_flush_point_sends_one_store_and_replays)
{
	const char *with[] = { "replay", "0x8a1aa28655972bc6", ZOO_TYPE,
			       "--bug", "type_before_inode", "--undirected",
			       "--policy", "explore", "--preempts",
			       "walker:nd_d_flags.load.d_flags#4:5>maker#13",
			       NULL };
	struct wt_test_run a, b;
	SPAWNS();

	wt_test_run(&a, with);
	wt_test_run(&b, with);
	cr_expect_eq(a.status, 1, "%s%s", a.out, a.err);
	cr_expect(strstr(a.out, "!!! check iteration=0") &&
		  strstr(a.out, "invariant"), "%s", a.out);
	cr_expect(strstr(a.out, "tso.flush flush@1"), "%s", a.out);
	cr_expect_str_eq(a.out, b.out, "two replays printed different bytes");
	wt_test_run_free(&a);
	wt_test_run_free(&b);
	with[8] = NULL;		/* no --preempts: plain POS, the same seed */
	wt_test_run(&a, with);
	cr_expect_eq(a.status, 0, "%s%s", a.out, a.err);
	wt_test_run_free(&a);
}

/*
 * A hold point (explore.h, "Store buffers"): under memory=tso, from the
 * walker's arrival after __legitimize_mnt's increment (its store number
 * 0) the increment stays in the walker's buffer until the walker
 * drains it; umount's busy check misses the count while the walker's
 * recheck missed umount, and the walk keeps a mount a sync umount took
 * down.  The same seed without the point passes, and so does a flush
 * point there instead: the hold is the whole difference.  Two replays
 * print the same bytes.  (An explore run of the twin found this
 * schedule, seed 1, 57 iterations; if the model's points move, take
 * the new one from such a run's replay line.)
 */
Test(policy, a_hold_point_keeps_one_store_and_replays)
{
	const char *with[] = { "replay", "0x8d8f17945bbf5ad2", ZOO_LNM,
			       "--bug", "legitimize_no_mb", "--undirected",
			       "--policy", "explore", "--preempts",
			       "walker:legitimize_mnt.mount_lock:1<walker#0",
			       NULL };
	struct wt_test_run a, b;
	SPAWNS();

	wt_test_run(&a, with);
	wt_test_run(&b, with);
	cr_expect_eq(a.status, 1, "%s%s", a.out, a.err);
	cr_expect(strstr(a.out, "!!! check iteration=0") &&
		  strstr(a.out, "sync_umount"), "%s", a.out);
	/* its replay line quotes the '<' for the shell */
	cr_expect(strstr(a.out, "--preempts "
			 "'walker:legitimize_mnt.mount_lock:1<walker#0'"),
		  "%s", a.out);
	cr_expect_str_eq(a.out, b.out, "two replays printed different bytes");
	wt_test_run_free(&a);
	wt_test_run_free(&b);
	with[9] = "walker:legitimize_mnt.mount_lock:1>walker#0";
	wt_test_run(&a, with);
	cr_expect_eq(a.status, 0, "%s%s", a.out, a.err);
	wt_test_run_free(&a);
	with[8] = NULL;		/* no --preempts: plain POS, the same seed */
	wt_test_run(&a, with);
	cr_expect_eq(a.status, 0, "%s%s", a.out, a.err);
	wt_test_run_free(&a);
}

/* A flush or hold point names a thread of the file and a store
 * number. */
Test(policy, a_bad_flush_point_is_bad_usage)
{
	static const struct { const char *spec, *msg; } bad[] = {
		{ "walker:nd_d_flags.load.d_flags:1>nobody#1",
		  "no thread 'nobody'" },
		{ "walker:nd_d_flags.load.d_flags:1>maker#x",
		  "bad store number 'x'" },
		{ "walker:nd_d_flags.load.d_flags:1>maker", "expected" },
		{ "+walker:nd_d_flags.load.d_flags:1>maker#1", "takes no '+'" },
		{ "walker:nd_d_flags.load.d_flags:1<nobody#1",
		  "no thread 'nobody'" },
		{ "walker:nd_d_flags.load.d_flags:1<maker#-1",
		  "bad store number '-1'" },
		{ "walker:nd_d_flags.load.d_flags:1<maker", "NTH<THREAD#STORE" },
		{ "+walker:nd_d_flags.load.d_flags:1<maker#1",
		  "a hold point ('<') takes no '+'" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct wt_test_run r;

		wt_test_run(&r, (const char *[]){ "replay", "0x1", ZOO_TYPE,
			    "--undirected", "--policy", "explore",
			    "--preempts", bad[i].spec, NULL });
		cr_expect_eq(r.status, 2, "%s: %s%s", bad[i].spec, r.out, r.err);
		cr_expect(strstr(r.err, bad[i].msg), "%s: %s", bad[i].spec,
			  r.err);
		wt_test_run_free(&r);
	}
}

/* A results file's explore failure replays from RESULTS.json#N: its
 * recorded command carries the schedule.  Failure 0 of this run (seed
 * 1) came from an iteration that ran under a corpus entry's iteration
 * seed, not its own (explore.h, "Seeds"): the seed it records is the
 * one it ran under, so its replay needs nothing more. */
Test(policy, an_explore_failure_replays_from_the_results_file)
{
	struct wt_test_dir d;
	struct wt_test_run r, again;
	char *json, *arg;
	SPAWNS();

	wt_test_dir_make(&d);
	json = wt_test_write(&d, "r.json", "");
	wt_test_run(&r, (const char *[]){ "run", "--undirected", "--policy",
		    "explore", ZOO_STEP, "--bug", "step_into_no_seq", "--seed",
		    "1", "--iterations", "120", "--json", json, NULL });
	cr_expect_eq(r.status, 1, "%s", r.out);
	{
		json_t *doc = json_load_file(json, 0, NULL);
		json_t *sc = json_array_get(json_object_get(doc, "scenarios"), 0);
		json_t *f = json_array_get(json_object_get(sc, "failures"), 0);
		uint64_t run_seed, seed;

		cr_assert_not_null(f, "%s", r.out);
		cr_assert_eq(sscanf(json_string_value(json_object_get(sc,
				    "seed")), "%" SCNx64, &run_seed), 1);
		cr_assert_eq(sscanf(json_string_value(json_object_get(f,
				    "seed")), "%" SCNx64, &seed), 1);
		cr_expect_neq(seed, wt_seed_iteration(run_seed,
			(uint64_t)json_integer_value(json_object_get(f,
							"iteration"))),
			"failure 0 ran under its own iteration's seed");
		json_decref(doc);
	}
	cr_assert(asprintf(&arg, "%s#0", json) > 0);
	wt_test_run(&again, (const char *[]){ "replay", arg, NULL });
	cr_expect_eq(again.status, 1, "%s%s", again.out, again.err);
	cr_expect(strstr(again.out, "step_into_no_seq.undirected !!! oracle"),
		  "%s", again.out);
	free(arg);
	free(json);
	wt_test_run_free(&again);
	wt_test_run_free(&r);
	wt_test_dir_remove(&d);
}

/* SPDX-License-Identifier: MIT */
/*
 * Malformed scenario files: each kind of mistake (unknown key, wrong type,
 * bad verb, unknown path name, unknown point or a point glob matching
 * none, bad schedule step, unknown thread, impossible schedule, a `where
 * name=' named nowhere, YAML syntax; a bad --cpus list, a CPU the machine
 * lacks) is reported by
 * `walktorture run` as exactly one "file:line:col: message" line on
 * stderr with exit status 2, and nothing runs -- not even the other,
 * valid file of the same invocation.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "scenarios/src/runner.h"
#include "tests/test_scenario_util.h"

static const char *const good =
	"name: good\n"
	"threads:\n"
	"  walker: { do: [\"stat /\"] }\n"
	"expect:\n"
	"  - result walker == ok\n";

/* Run `walktorture run BAD GOOD' and check the one error line. */
static void expect_error(const char *text, const char *want_suffix)
{
	struct wt_test_dir d;
	struct wt_test_run r;
	char *bad, *ok, *want;

	wt_test_dir_make(&d);
	bad = wt_test_write(&d, "bad.yaml", text);
	ok = wt_test_write(&d, "good.yaml", good);
	wt_test_run(&r, (const char *[]){ "run", bad, ok, "--seed", "1", NULL });
	cr_assert_eq(asprintf(&want, "%s:%s\n", bad, want_suffix) > 0, 1);
	cr_expect_eq(r.status, 2, "exit status %d, want 2", r.status);
	cr_expect_str_eq(r.err, want);
	/* nothing ran: not even the good file's verdict line */
	cr_expect_str_eq(r.out, "", "stdout: %s", r.out);
	free(want);
	free(bad);
	free(ok);
	wt_test_run_free(&r);
	wt_test_dir_remove(&d);
}

Test(scenario_load, unknown_key)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"], colour: blue }\n",
		     "3:29: unknown key 'colour' in a thread (valid: role, cpu, "
		     "uid, gid, cwd, do, loop)");
}

Test(scenario_load, unknown_top_level_key)
{
	expect_error("name: x\n"
		     "thread:\n"
		     "  walker: { do: [\"stat /\"] }\n",
		     "2:1: unknown key 'thread' in a scenario (valid: name, "
		     "description, tree, threads, inject, schedule, mode, policy, "
		     "sched, world, budget, expect, memory)");
}

Test(scenario_load, wrong_type)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker:\n"
		     "    do: \"stat /\"\n",
		     "4:9: 'do' must be a list, not a scalar");
}

Test(scenario_load, wrong_type_integer)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "budget: { iterations: many }\n",
		     "4:23: 'iterations' must be an integer, not 'many'");
}

Test(scenario_load, wrong_type_nightly_duration)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "budget: { nightly_duration: soon }\n",
		     "4:29: 'nightly_duration' must be a duration (500ns, 3us, "
		     "1.5ms, 2s), not 'soon'");
}

/* The night's real-time cap ends a scenario whose count it would not
 * reach; a run that is not a night does not see it. */
Test(scenario_load, nightly_duration_caps_the_night)
{
	alarm(120);	/* not .timeout: see watchdog() in test_rcu.c */
	struct wt_scn_error e = { 0 };
	struct wt_scenario *s = wt_scenario_load_text("capped.yaml", "t",
		"name: capped\n"
		"tree: |\n  mkdir -p /a/b\n"
		"threads:\n  walker: { do: [\"stat /a/b\"] }\n"
		"budget: { iterations: 3, nightly_iterations: 1000000000,"
		" nightly_duration: 300ms }\n", &e);
	struct wt_scn_opts o = { .seed = 1, .mode = -1, .memory = -1 };
	struct wt_scn_result r;
	FILE *devnull = fopen("/dev/null", "w");

	cr_assert_not_null(s, "%s", e.text);
	cr_assert_eq(s->nightly_duration_ns, 300000000ull);
	o.out = devnull;
	cr_assert_eq(wt_scn_run(s, &o, &r), 0);
	cr_expect_eq(r.iterations, 3);
	wt_scn_result_free(&r);
	o.nightly = true;
	cr_assert_eq(wt_scn_run(s, &o, &r), 0);
	cr_expect(r.pass);
	cr_expect_gt(r.iterations, 3);
	cr_expect_lt(r.iterations, 1000000000ull);
	cr_expect_geq(r.duration_s, 0.3);
	wt_scn_result_free(&r);
	wt_scenario_free(s);
	fclose(devnull);
}

Test(scenario_load, bad_walk_option)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker:\n"
		     "    do:\n"
		     "      - stat /\n"
		     "      - open /a O_CRAET\n",
		     "6:17: unknown open option 'O_CRAET'");
}

Test(scenario_load, bad_verb)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  writer:\n"
		     "    do:\n"
		     "      - frobnicate /a\n",
		     "5:9: unknown command 'frobnicate' (valid: mkdir, touch, ln, "
		     "chmod, chown, mv, rm, rmdir, mount, umount, shrink, "
		     "proc-magic, remote-create, remote-mkdir, remote-symlink, "
		     "remote-rm, remote-mv, remote-invalidate, remote-expire, "
		     "acl-uncache, autofs-busy, remote-bad, remote-layer, proc-task); "
		     "or a walk: stat, lstat, open, "
		     "openat2, parentat, mountpoint, open_root");
}

Test(scenario_load, bad_verb_operand)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  writer:\n"
		     "    do:\n"
		     "      - chmod 9z9 /a\n",
		     "5:15: bad mode '9z9' (octal digits, e.g. 755)");
}

Test(scenario_load, tree_line_that_fails)
{
	expect_error("name: x\n"
		     "tree: |\n"
		     "  mkdir /a\n"
		     "  mkdir /b/c\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /a\"] }\n",
		     "4:3: mkdir /b/c: ENOENT (No such file or directory)");
}

Test(scenario_load, unknown_path_name)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "expect:\n"
		     "  - path unlazy.nonesuch == 0\n",
		     "5:10: unknown exit path 'unlazy.nonesuch' (see "
		     "`walktorture paths`)");
}

Test(scenario_load, unknown_point)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "inject:\n"
		     "  - at=no.such.point delay=3us\n",
		     "5:8: unknown point 'no.such.point' (see walktorture points)");
}

Test(scenario_load, bad_schedule_step)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "schedule:\n"
		     "  - walker jump\n",
		     "5:12: unknown step 'jump' (until, run, finish)");
}

Test(scenario_load, unknown_thread_in_schedule)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "schedule:\n"
		     "  - renamer finish\n",
		     "5:5: unknown thread 'renamer' in schedule");
}

Test(scenario_load, unknown_thread_in_rule)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "inject:\n"
		     "  - { at: \"seq.read\", thread: renamer, delay: 3us }\n",
		     "5:31: unknown thread 'renamer' in rule");
}

Test(scenario_load, unknown_thread_in_expectation)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "expect:\n"
		     "  - result renamer == ok\n",
		     "5:12: unknown thread 'renamer'");
}

Test(scenario_load, impossible_schedule)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "schedule:\n"
		     "  - walker finish\n"
		     "  - walker run 1\n",
		     "6:5: impossible step: thread 'walker' finished at line 5");
}

Test(scenario_load, forever_thread_cannot_finish)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "  spinner: { do: [\"stat /\"], loop: forever }\n"
		     "schedule:\n"
		     "  - spinner finish\n",
		     "6:5: impossible step: 'spinner' loops forever and cannot "
		     "finish while it alone runs");
}

Test(scenario_load, yaml_syntax)
{
	expect_error("name: x\n"
		     "threads: [\n",
		     "3:1: YAML: did not find expected node content while "
		     "parsing a flow node");
}

Test(scenario_load, unknown_suite_lists_the_suites)
{
	struct wt_test_run r;

	wt_test_run(&r, (const char *[]){ "run", "no-such-suite", NULL });
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "unknown scenario or suite 'no-such-suite'"));
	cr_expect(strstr(r.err, "walktorture: suites:"));
	cr_expect(strstr(r.err, " basic"), "%s", r.err);
	cr_expect_str_eq(r.out, "");
	wt_test_run_free(&r);
}

Test(scenario_load, unknown_mode_and_bug_list_the_names)
{
	struct wt_test_run r;

	wt_test_run(&r, (const char *[]){ "run", "basic", "--mode", "fast",
					  NULL });
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "unknown mode 'fast' (valid: sim, stress)"),
		  "%s", r.err);
	wt_test_run_free(&r);
	wt_test_run(&r, (const char *[]){ "run", "basic", "--bug", "nope",
					  NULL });
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "walktorture: bugs:"), "%s", r.err);
	wt_test_run_free(&r);
	wt_test_run(&r, (const char *[]){ "run", "basic", "--frobnicate",
					  NULL });
	cr_expect_eq(r.status, 2);
	wt_test_run_free(&r);
}

Test(scenario_load, bad_memory_model)
{
	expect_error("name: x\n"
		     "memory: weak\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n",
		     "2:9: unknown memory model 'weak' (valid: sc, tso, pso)");
	expect_error("name: x\n"
		     "mode: stress\n"
		     "memory: tso\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n",
		     "3:9: 'memory: tso' needs mode sim");
	expect_error("name: x\n"
		     "sched: { flush_p: 0.5 }\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n",
		     "2:19: 'flush_p' needs 'memory: tso' or "
		     "'memory: pso'");
}

Test(scenario_load, flush_step_needs_tso)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "schedule:\n"
		     "  - walker run 1\n"
		     "  - flush walker\n",
		     "6:5: a 'flush' step needs 'memory: tso' or 'memory: pso'");
}

Test(scenario_load, point_glob_matching_nothing)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "expect:\n"
		     "  - point nosuch.* >= 1\n",
		     "5:11: no injection point matches 'nosuch.*' (see "
		     "walktorture points)");
}

/* An injection rule on a glob that matches nothing would never fire:
 * random.shrink's `at=lockref.*' did so, silently, for three sessions. */
Test(scenario_load, inject_glob_matching_nothing)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "inject:\n"
		     "  - at=lockref.* delay=3us\n",
		     "5:8: no injection point matches 'lockref.*' (see "
		     "walktorture points)");
}

Test(scenario_load, schedule_component_named_nowhere)
{
	expect_error("name: x\n"
		     "tree: |\n"
		     "  mkdir -p /a/b\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /a/b\"] }\n"
		     "  renamer: { do: [\"mv /a/b /a/c\"] }\n"
		     "schedule:\n"
		     "  - walker until lookup_fast.parent_seq where name=zzz\n"
		     "  - walker finish\n",
		     "8:52: impossible step: no walk of 'walker' looks up 'zzz' "
		     "(no path of its walks, no tree line and no writer verb "
		     "names it)");
}

/* A name the thread's walks do not spell but a symlink body (a tree
 * line) or a writer verb does may be looked up: accepted. */
Test(scenario_load, schedule_component_from_a_symlink_or_a_writer)
{
	static const char *const files[] = {
		"name: x\n"
		"tree: |\n"
		"  mkdir -p /a/b\n"
		"  ln -s b /a/l\n"
		"threads:\n"
		"  walker: { do: [\"stat /a/l\"] }\n"
		"schedule:\n"
		"  - walker until lookup_fast.parent_seq where name=b\n"
		"  - walker finish\n",
		"name: x\n"
		"tree: |\n"
		"  mkdir -p /a\n"
		"  ln -s c /a/l\n"
		"threads:\n"
		"  walker: { do: [\"stat /a/l\"] }\n"
		"  maker: { do: [\"mkdir /a/c\"] }\n"
		"schedule:\n"
		"  - maker finish\n"
		"  - walker until lookup_fast.parent_seq where name=c\n"
		"  - walker finish\n",
	};

	for (unsigned i = 0; i < 2; i++) {
		struct wt_test_dir d;
		struct wt_test_run r;
		char *f;

		wt_test_dir_make(&d);
		f = wt_test_write(&d, "ok.yaml", files[i]);
		wt_test_run(&r, (const char *[]){ "run", f, "--seed", "1", NULL });
		cr_expect_eq(r.status, 0, "file %u: exit %d: %s", i, r.status,
			     r.err);
		free(f);
		wt_test_run_free(&r);
		wt_test_dir_remove(&d);
	}
}

/* Run `walktorture run FILE ARGS...' on text; exit 2, nothing on stdout
 * (no FAIL line, no "0 passed, 1 failed"), stderr starting with want
 * (FILE: in front of it when file_prefix).  The machine's PU list ends
 * the message, so only its start is compared. */
static void expect_refused(const char *text, const char *const *args,
			   bool file_prefix, const char *want)
{
	const char *argv[16] = { "run" };
	struct wt_test_dir d;
	struct wt_test_run r;
	char *f, *w;
	unsigned n = 2;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "x.yaml", text);
	argv[1] = f;
	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	wt_test_run(&r, argv);
	cr_assert(asprintf(&w, "%s%s%s", file_prefix ? f : "",
			   file_prefix ? ":" : "", want) > 0);
	cr_expect_eq(r.status, 2, "exit status %d, want 2: %s", r.status, r.err);
	cr_expect_str_eq(r.out, "", "stdout: %s", r.out);
	cr_expect(!strncmp(r.err, w, strlen(w)), "stderr: %s\nwant: %s...",
		  r.err, w);
	cr_expect(!strchr(r.err, '\n') || !strchr(r.err, '\n')[1],
		  "one line: %s", r.err);
	free(w);
	free(f);
	wt_test_run_free(&r);
	wt_test_dir_remove(&d);
}

static const char *const stress_file =
	"name: x\n"
	"mode: stress\n"
	"threads:\n"
	"  walker: { do: [\"stat /\"] }\n"
	"  other: { do: [\"stat /\"] }\n"
	"expect:\n"
	"  - result walker == ok\n";

/* --cpus: the syntax in every mode, the PUs against the machine, both
 * before anything runs. */
Test(scenario_load, bad_cpus_list_runs_nothing)
{
	expect_refused(good, (const char *[]){ "--cpus", "99-1", NULL }, false,
		       "walktorture: --cpus '99-1': range 99-1 runs backwards\n");
	expect_refused(good, (const char *[]){ "--cpus", "0,,1", NULL }, false,
		       "walktorture: --cpus '0,,1': an empty item\n");
	expect_refused(good, (const char *[]){ "--cpus", "0-x", NULL }, false,
		       "walktorture: --cpus '0-x': bad CPU list at '0-x'");
	expect_refused(stress_file, (const char *[]){ "--cpus", "4095", NULL },
		       false, "walktorture: --cpus '4095': no PU 4095 on this "
		       "machine (PUs: ");
	expect_refused(good, (const char *[]){ "--mode", "stress", "--cpus",
					      "0,4095", NULL }, false,
		       "walktorture: --cpus '0,4095': no PU 4095 on this "
		       "machine (PUs: ");
}

/* A thread pinned to a PU the machine lacks: an error at its `cpu:'
 * when the scenario runs in stress mode (the file's or --mode), pinned
 * alone or with every thread; ignored in sim mode. */
Test(scenario_load, cpu_pin_the_machine_lacks)
{
	static const char *const alone =
		"name: x\n"
		"mode: stress\n"
		"threads:\n"
		"  walker: { cpu: 4095, do: [\"stat /\"] }\n"
		"  other: { do: [\"stat /\"] }\n";
	static const char *const all =
		"name: x\n"
		"threads:\n"
		"  walker: { cpu: 0, do: [\"stat /\"] }\n"
		"  other: { cpu: 4095, do: [\"stat /\"] }\n";
	struct wt_test_dir d;
	struct wt_test_run r;
	char *f;

	expect_refused(alone, (const char *[]){ NULL }, true,
		       "4:18: thread 'walker': no PU 4095 on this machine");
	expect_refused(all, (const char *[]){ "--mode", "stress", NULL }, true,
		       "4:17: thread 'other': no PU 4095 on this machine");
	wt_test_dir_make(&d);
	f = wt_test_write(&d, "x.yaml", all);
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "1", NULL });
	cr_expect_eq(r.status, 0, "sim mode: exit %d: %s", r.status, r.err);
	free(f);
	wt_test_run_free(&r);
	wt_test_dir_remove(&d);
}

/* ---- the tree parsed once a scenario run ---- */

#include "scenarios/src/iter.h"
#include "sim/history.h"
#include "sim/ns.h"

/* The namespace of w as text (sim/ns.c's dump of its facts). */
static char *world_text(struct wt_world *w)
{
	struct wt_ns *ns = wt_ns_from_world(w);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(ns);
	cr_assert_not_null(f);
	wt_ns_dump(ns, f);
	fclose(f);
	wt_ns_destroy(ns);
	return buf;
}

/*
 * A run's worlds are built from the tree's lines parsed at the first
 * build and kept (struct wt_scn_reuse): the first and the next worlds
 * are the world a build without anything kept makes, comments and blank
 * lines included; a line that fails reports the same error either way.
 */
Test(scenario_load, the_tree_parsed_once_builds_the_same_world)
{
	struct wt_scn_error e = { 0 };
	struct wt_scenario *s = wt_scenario_load_text("tree.yaml", "t",
		"name: tree\n"
		"tree: |\n  mkdir -p /a/b /m\n\n  # a comment\n"
		"  ln -s a/b /l\n  mount -t tmpfs t /m\n  touch /m/f\n"
		"threads:\n  walker: { do: [\"stat /l\"] }\n", &e);
	struct wt_scn_reuse *u = calloc(1, sizeof(*u));
	struct wt_world *w;
	char *fresh, *text;
	const struct wt_verb *parsed;

	cr_assert_not_null(s, "%s", e.text);
	cr_assert_not_null(u);
	w = wt_scn_world_build(s, 7, 0, &e);
	cr_assert_not_null(w, "%s", e.text);
	fresh = world_text(w);
	wt_scn_world_destroy(w);
	cr_assert_gt(strlen(fresh), 0);
	for (int round = 0; round < 2; round++) {
		w = wt_scn_world_build_from(s, 7, 0, u, &e);
		cr_assert_not_null(w, "%s", e.text);
		cr_assert_not_null(u->tree);
		if (round == 0)
			parsed = u->tree;
		cr_assert_eq(u->tree, parsed, "the tree was parsed again");
		text = world_text(w);
		cr_assert_str_eq(text, fresh, "round %d", round);
		free(text);
		wt_scn_world_destroy_keep(w, u);
	}
	free(fresh);
	wt_scn_reuse_tree_free(u);
	wt_history_destroy(u->history);
	u->history = NULL;

	/* the fourth line fails at its run: the same error, kept or not */
	free(s->tree[3].text);
	s->tree[3].text = strdup("mkdir /no/such");
	cr_assert_null(wt_scn_world_build(s, 7, 0, &e));
	text = strdup(e.text);
	memset(&e, 0, sizeof(e));
	cr_assert_null(wt_scn_world_build_from(s, 7, 0, u, &e));
	cr_assert_str_eq(e.text, text);
	cr_assert(strstr(text, "ENOENT"), "%s", text);
	free(text);
	wt_scn_reuse_tree_free(u);
	wt_history_destroy(u->history);
	free(u);
	wt_scenario_free(s);
}

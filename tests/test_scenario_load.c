/* SPDX-License-Identifier: MIT */
/*
 * Malformed scenario files: each kind of mistake (unknown key, wrong type,
 * bad verb, unknown path name, unknown point, bad schedule step, unknown
 * thread, impossible schedule, YAML syntax) is reported by
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
		     "acl-uncache, autofs-busy); or a walk: stat, lstat, open, "
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
		     "2:9: unknown memory model 'weak' (valid: sc, tso)");
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
		     "2:19: 'flush_p' needs 'memory: tso'");
}

Test(scenario_load, flush_step_needs_tso)
{
	expect_error("name: x\n"
		     "threads:\n"
		     "  walker: { do: [\"stat /\"] }\n"
		     "schedule:\n"
		     "  - walker run 1\n"
		     "  - flush walker\n",
		     "6:5: a 'flush' step needs 'memory: tso'");
}

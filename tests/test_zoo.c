/* SPDX-License-Identifier: MIT */
/*
 * The bug zoo proves the harness catches what it claims to: for every
 * entry of the catalogue (core/zoo.c), its scenario run with the bug
 * exits 1 and the results JSON carries a failure of the check the
 * catalogue names, and the same scenario without any bug exits 0.  Also:
 * the catalogue covers every bug id of sim/bug.h, each entry's scenario
 * exists and every file in scenarios/zoo/ belongs to an entry, `walktorture
 * bugs` prints exactly the catalogue (text and --json), and an unknown
 * --bug name exits 2 listing every valid one.  Each run is the
 * walktorture binary as its users call it.
 */
#define _GNU_SOURCE	/* asprintf */
#include <dirent.h>

#include <jansson.h>

#include "core/zoo.h"
#include "sim/bug.h"
#include "tests/test_scenario_util.h"

static char *scenario_path(const char *rel)
{
	const char *src = getenv("WT_SOURCE_DIR");
	char *p;

	cr_assert(asprintf(&p, "%s/scenarios/%s", src ? src : WT_SOURCE_DIR,
			   rel) > 0);
	return p;
}

/* Does some failure of the results file match the bug's check? */
static bool results_fired(const struct wt_zoo_bug *b, const char *file,
			  char *seen, size_t len)
{
	json_error_t jerr;
	json_t *doc = json_load_file(file, 0, &jerr), *sc, *f;
	size_t i, k, n = 0;
	bool hit = false;

	seen[0] = '\0';
	if (!doc)
		return false;
	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		json_array_foreach(json_object_get(sc, "failures"), k, f) {
			const char *kind = json_string_value(json_object_get(f, "kind"));
			const char *check = json_string_value(json_object_get(f, "check"));

			hit |= wt_zoo_fired(b, kind, check);
			if (n < len)
				n += (size_t)snprintf(seen + n, len - n, " %s%s%s",
						      kind ? kind : "?",
						      check ? ":" : "",
						      check ? check : "");
		}
	json_decref(doc);
	return hit;
}

Test(zoo, every_bug_both_directions)
{
	const struct wt_zoo_bug *bugs;
	struct wt_test_dir d;
	unsigned n;

	bugs = wt_zoo_bugs(&n);
	wt_test_dir_make(&d);
	for (unsigned i = 0; i < n; i++) {
		const struct wt_zoo_bug *b = &bugs[i];
		char *file, *json, seen[512];
		struct wt_test_run r;

		if (!b->scenario)
			continue;	/* listed, never claimed caught */
		file = scenario_path(b->scenario);

		cr_assert(asprintf(&json, "%s/%s.json", d.path, b->name) > 0);
		wt_test_run(&r, (const char *[]){ "run", file, "--seed", "0x5eed",
						  NULL });
		cr_expect_eq(r.status, 0, "%s without the bug: status %d\n%s%s",
			     b->name, r.status, r.out, r.err);
		wt_test_run_free(&r);
		wt_test_run(&r, (const char *[]){ "run", file, "--seed", "0x5eed",
						  "--bug", b->name, "--json", json,
						  NULL });
		cr_expect_eq(r.status, 1, "%s with the bug: status %d\n%s%s",
			     b->name, r.status, r.out, r.err);
		cr_expect(strstr(r.out, " FAIL\n"), "%s: %s", b->name, r.out);
		cr_expect(strstr(r.out, "replay: walktorture replay 0x"),
			  "%s: a failure prints its replay: %s", b->name, r.out);
		cr_expect(results_fired(b, json, seen, sizeof(seen)),
			  "%s: want a failure '%s', got:%s", b->name, b->fires,
			  seen);
		wt_test_run_free(&r);
		free(json);
		free(file);
	}
	wt_test_dir_remove(&d);
}

Test(zoo, catalogue_covers_the_ids_and_files)
{
	const struct wt_zoo_bug *bugs;
	struct dirent *e;
	unsigned n, files = 0;
	char *dir = scenario_path("zoo");
	DIR *dd;

	bugs = wt_zoo_bugs(&n);
	for (unsigned id = 0; id < WT_BUG__COUNT; id++)
		cr_expect_not_null(wt_zoo_by_id(id), "bug id %u has no zoo entry",
				   id);
	for (unsigned i = 0; i < n; i++) {
		char *f, want[128];

		cr_expect_eq(wt_zoo_by_name(bugs[i].name), &bugs[i]);
		if (!bugs[i].scenario) {
			files++;	/* pending: no file to find below */
			continue;
		}
		f = scenario_path(bugs[i].scenario);
		cr_expect_eq(access(f, R_OK), 0, "%s: no %s", bugs[i].name, f);
		snprintf(want, sizeof(want), "zoo/%s.yaml", bugs[i].name);
		cr_expect_str_eq(bugs[i].scenario, want);
		free(f);
		if (bugs[i].stress) {
			f = scenario_path(bugs[i].stress);
			cr_expect_eq(access(f, R_OK), 0, "%s: no %s",
				     bugs[i].name, f);
			free(f);
		}
	}
	dd = opendir(dir);
	cr_assert_not_null(dd, "%s", dir);
	while ((e = readdir(dd))) {
		size_t len = strlen(e->d_name);
		char name[256];

		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(len - 5), e->d_name);
		cr_expect_not_null(wt_zoo_by_name(name),
				   "scenarios/zoo/%s belongs to no bug", e->d_name);
		files++;
	}
	closedir(dd);
	cr_expect_eq(files, n, "%u zoo scenarios for %u bugs", files, n);
	free(dir);
}

Test(zoo, bugs_command_prints_the_catalogue)
{
	const struct wt_zoo_bug *bugs;
	struct wt_test_run r;
	json_error_t jerr;
	json_t *arr;
	unsigned n;
	char *line;

	bugs = wt_zoo_bugs(&n);
	wt_test_run(&r, (const char *[]){ "bugs", NULL });
	cr_assert_eq(r.status, 0, "%s", r.err);
	line = r.out;
	for (unsigned i = 0; i < n; i++) {
		char *nl = strchr(line, '\n'), want[1024];

		cr_assert_not_null(nl, "line %u missing:\n%s", i, r.out);
		snprintf(want, sizeof(want), "%s\t%s\t%s\t%s%s\t%s",
			 bugs[i].name, bugs[i].description, bugs[i].reference,
			 bugs[i].scenario ? "scenarios/" : "-",
			 bugs[i].scenario ? bugs[i].scenario : "",
			 bugs[i].scenario ? bugs[i].fires : "(pending)");
		cr_expect(!strncmp(line, want, strlen(want)) &&
			  (size_t)(nl - line) == strlen(want),
			  "line %u: %.*s", i, (int)(nl - line), line);
		line = nl + 1;
	}
	cr_expect_eq(*line, '\0', "extra output: %s", line);
	wt_test_run_free(&r);

	wt_test_run(&r, (const char *[]){ "bugs", "--json", NULL });
	cr_assert_eq(r.status, 0, "%s", r.err);
	arr = json_loads(r.out, 0, &jerr);
	cr_assert(json_is_array(arr), "%s", r.out);
	cr_expect_eq(json_array_size(arr), n);
	for (unsigned i = 0; i < n && i < json_array_size(arr); i++) {
		json_t *o = json_array_get(arr, i);

		cr_expect_str_eq(json_string_value(json_object_get(o, "name")),
				 bugs[i].name);
		cr_expect_str_eq(json_string_value(json_object_get(o, "check")),
				 bugs[i].fires);
	}
	json_decref(arr);
	wt_test_run_free(&r);
}

Test(zoo, unknown_bug_lists_every_name)
{
	const struct wt_zoo_bug *bugs;
	struct wt_test_run r;
	char *file = scenario_path("zoo/free_no_grace.yaml");
	unsigned n;

	bugs = wt_zoo_bugs(&n);
	wt_test_run(&r, (const char *[]){ "run", file, "--bug", "no_such_bug",
					  NULL });
	cr_expect_eq(r.status, 2, "status %d", r.status);
	for (unsigned i = 0; i < n; i++)
		cr_expect(strstr(r.err, bugs[i].name), "%s not listed in:\n%s",
			  bugs[i].name, r.err);
	wt_test_run_free(&r);
	free(file);
}

/*
 * The barrier bugs live in the store buffers: each one's scenario, which
 * says `memory: tso', catches it (every_bug_both_directions), and the same
 * scenario with the same bug under --memory sc passes -- the reason SC
 * simulation cannot find them.  A failure's replay (RESULTS.json#0, which
 * takes the memory model from the results) reproduces it, twice with
 * byte-identical traces, flushes included.
 */
static const char *const barrier_bugs[] = {
	"legitimize_no_mb", "umount_no_mb", "seq_no_barrier",
};

Test(zoo, barrier_bugs_pass_under_sc)
{
	for (size_t i = 0; i < sizeof(barrier_bugs) / sizeof(*barrier_bugs); i++) {
		const struct wt_zoo_bug *b = wt_zoo_by_name(barrier_bugs[i]);
		struct wt_test_run r;
		char *file;

		cr_assert(b && b->scenario, "%s has a scenario", barrier_bugs[i]);
		file = scenario_path(b->scenario);
		wt_test_run(&r, (const char *[]){ "run", file, "--seed", "0x5eed",
						  "--bug", b->name, "--memory", "sc",
						  NULL });
		cr_expect_eq(r.status, 0, "%s under sc: status %d\n%s%s", b->name,
			     r.status, r.out, r.err);
		cr_expect(!strstr(r.out, "memory=tso"), "%s: %s", b->name, r.out);
		wt_test_run_free(&r);
		free(file);
	}
}

static void replay_twice(const struct wt_zoo_bug *bug, const char *results,
			 const char *dir)
{
	struct wt_test_run a, b;
	char *arg, *json, seen[512];

	cr_assert(asprintf(&arg, "%s#0", results) > 0);
	cr_assert(asprintf(&json, "%s/%s.replay.json", dir, bug->name) > 0);
	wt_test_run(&a, (const char *[]){ "replay", arg, "--bug", bug->name,
					  "--json", json, NULL });
	wt_test_run(&b, (const char *[]){ "replay", arg, "--bug", bug->name,
					  NULL });
	cr_expect_eq(a.status, 1, "%s: the replay fails again: %d\n%s", bug->name,
		     a.status, a.err);
	cr_expect(results_fired(bug, json, seen, sizeof(seen)),
		  "%s: the replay's failures:%s", bug->name, seen);
	cr_expect(strstr(a.out, " memory=tso "), "%s: replayed under tso",
		  bug->name);
	/* Not cr_expect_str_eq: a trace is megabytes, too long to print. */
	cr_expect(!strcmp(a.out, b.out), "%s: two replays, two traces (%zu and "
		  "%zu bytes)", bug->name, strlen(a.out), strlen(b.out));
	wt_test_run_free(&a);
	wt_test_run_free(&b);
	free(json);
	free(arg);
}

Test(zoo, barrier_bugs_replay_from_their_seed)
{
	struct wt_test_dir d;

	wt_test_dir_make(&d);
	for (size_t i = 0; i < sizeof(barrier_bugs) / sizeof(*barrier_bugs); i++) {
		const struct wt_zoo_bug *b = wt_zoo_by_name(barrier_bugs[i]);
		struct wt_test_run r;
		char *file, *json;

		file = scenario_path(b->scenario);
		cr_assert(asprintf(&json, "%s/%s.json", d.path, b->name) > 0);
		wt_test_run(&r, (const char *[]){ "run", file, "--seed", "0x5eed",
						  "--bug", b->name, "--json", json,
						  NULL });
		cr_expect_eq(r.status, 1, "%s: %s%s", b->name, r.out, r.err);
		wt_test_run_free(&r);
		replay_twice(b, json, d.path);
		free(json);
		free(file);
	}
	wt_test_dir_remove(&d);
}

/* --memory takes sc or tso, and tso is the sim backend's alone. */
Test(zoo, memory_option_is_checked)
{
	struct wt_test_run r;

	wt_test_run(&r, (const char *[]){ "run", "basic", "--memory", "arm",
					  NULL });
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "unknown memory model 'arm' (valid: sc, tso, pso)"),
		  "%s", r.err);
	cr_expect_str_eq(r.out, "");
	wt_test_run_free(&r);
	wt_test_run(&r, (const char *[]){ "run", "basic", "--memory", "tso",
					  "--mode", "stress", NULL });
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "--memory tso/pso is the sim backend's"), "%s",
		  r.err);
	cr_expect_str_eq(r.out, "");
	wt_test_run_free(&r);
	wt_test_run(&r, (const char *[]){ "replay", "1", "basic", "--memory",
					  "weak", NULL });
	cr_expect_eq(r.status, 2);
	wt_test_run_free(&r);
}

/* The "walktorture: NAME paths ..." line of an output (caller frees). */
static char *paths_line(const char *out)
{
	return wt_test_line(out, "walktorture: may_lookup_blocks.stress paths");
}

/* Swap the point of the order's line for event k with another point's. */
static void edit_order(const char *file, unsigned long k)
{
	char *text = wt_test_slurp(file), *line, *sp;
	char want[32];
	FILE *f;

	cr_assert(text);
	snprintf(want, sizeof(want), "\n%lu ", k);
	line = strstr(text, want);
	cr_assert(line, "event %lu in %s", k, file);
	/* "SEQ TIME THREAD POINT ...": the fourth field becomes another point */
	sp = line + 1;
	for (int field = 0; field < 3; field++)
		sp = strchr(sp, ' ') + 1;
	f = fopen(file, "w");
	cr_assert(f);
	fwrite(text, 1, (size_t)(sp - text), f);
	/* another point of the catalogue than the recorded one */
	fputs(strncmp(sp, "path_init.rcu.enter ", 20) ? "path_init.rcu.enter" :
	      "path_init.mount_lock", f);
	fputs(sp + strcspn(sp, " \n"), f);
	fclose(f);
	free(text);
}

/*
 * Lift, as a user does it: a traced stress run (--trace) of a zoo bug's
 * plain load fails; its replay command, which names the order file the
 * run wrote, replays that iteration in sim mode in the observed order:
 * followed to the end, the same check, the same exit-path counts.  An
 * order edited at one event makes replay say it diverged at exactly
 * that event, and the iteration still ends.
 */
Test(zoo, stress_failure_lifts_to_a_sim_replay, .timeout = 600)
{
	const struct wt_zoo_bug *b = wt_zoo_by_name("may_lookup_blocks");
	struct wt_test_dir d;
	struct wt_test_run run, rp;
	char *file, *json, *order, *pr, *pp;
	json_t *doc, *f;
	uint64_t seed;
	const char *seedstr;

	cr_assert(b && b->stress);
	file = scenario_path(b->stress);
	wt_test_dir_make(&d);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	wt_test_run(&run, (const char *[]){ "run", file, "--mode", "stress",
					    "--trace", "--iterations", "1",
					    "--bug", b->name, "--seed", "0x5eed",
					    "--out", d.path, "--json", json,
					    NULL });
	cr_assert_eq(run.status, 1, "%s%s", run.out, run.err);
	doc = json_load_file(json, 0, NULL);
	cr_assert(doc);
	f = json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "scenarios"), 0), "failures"), 0);
	cr_assert(f);
	cr_assert(strstr(json_string_value(json_object_get(f, "replay")),
			 " --order "), "the replay follows the order");
	order = strdup(json_string_value(json_object_get(f, "order")));
	seedstr = json_string_value(json_object_get(f, "seed"));
	cr_assert(order && seedstr);
	seed = strtoull(seedstr, NULL, 0);
	cr_assert(seed);
	wt_test_run(&rp, (const char *[]){ "replay", seedstr, file, "--bug",
					   b->name, "--order", order, NULL });
	cr_expect_eq(rp.status, 1, "%s", rp.err);
	cr_expect(strstr(rp.out, "followed to the end"), "no divergence");
	cr_expect(strstr(rp.out, "rcu_sleep"), "the same check");
	pr = paths_line(run.out);
	pp = paths_line(rp.out);
	cr_assert(pr && pp);
	cr_expect_str_eq(pr, pp, "the stress run's exit paths, replayed");
	free(pr);
	free(pp);
	wt_test_run_free(&rp);
	edit_order(order, 40);
	wt_test_run(&rp, (const char *[]){ "replay", seedstr, file, "--bug",
					   b->name, "--order", order, NULL });
	cr_expect(strstr(rp.out, "replay diverged from the order at event 40:"),
		  "divergence at the edited event");
	cr_expect(rp.status == 0 || rp.status == 1, "it ends: %d\n%s",
		  rp.status, rp.err);
	wt_test_run_free(&rp);
	wt_test_run_free(&run);
	json_decref(doc);
	free(order);
	free(json);
	free(file);
	wt_test_dir_remove(&d);
}

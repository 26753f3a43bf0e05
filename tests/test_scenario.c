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
#include <errno.h>
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
	cr_assert(asprintf(&tmp_prefix, ".%s.tmp.", "results.json") > 0);
	for (int round = 0; round < 5; round++) {
		pid_t pid = fork();

		/* no assertion in the child (see wt_test_run) */
		if (pid == 0)
			_exit(wt_results_write(target, doc, err, sizeof(err)));
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

/* --- replay commands are shell words --- */

/*
 * Run line through /bin/sh -c with `walktorture' on PATH (a link in
 * d/bin), captured like wt_test_run: a replay command is run exactly as a
 * user pasting it would.
 */
static void sh_run(struct wt_test_run *r, struct wt_test_dir *d,
		   const char *line)
{
	char *bin, *link, *script;

	cr_assert(asprintf(&bin, "%s/bin", d->path) > 0);
	cr_assert(asprintf(&link, "%s/walktorture", bin) > 0);
	if (access(link, X_OK)) {
		cr_assert(!mkdir(bin, 0755) || errno == EEXIST);
		cr_assert_eq(symlink(WT_WALKTORTURE, link), 0);
	}
	cr_assert(asprintf(&script, "PATH='%s':\"$PATH\"\n%s\n", bin, line) > 0);
	wt_test_spawn(r, "/bin/sh", (const char *const[]){ "sh", "-c", script,
							   NULL });
	free(script);
	free(link);
	free(bin);
}

Test(scenario, shell_quote)
{
	static const char *const words[] = {
		"plain/file-1.yaml", "a b", "it's", "$HOME", "a;b|c&d", "#x",
		"x#y", "", "'", "tab\there", "*", "new\nline",
	};
	struct wt_test_dir d;
	char buf[256];

	cr_assert_eq(wt_scn_shell_quote(buf, sizeof(buf), "plain/f.yaml"), 12);
	cr_assert_str_eq(buf, "plain/f.yaml");
	wt_scn_shell_quote(buf, sizeof(buf), "a b");
	cr_assert_str_eq(buf, "'a b'");
	wt_scn_shell_quote(buf, sizeof(buf), "it's");
	cr_assert_str_eq(buf, "'it'\\''s'");
	wt_scn_shell_quote(buf, sizeof(buf), "#x");
	cr_assert_str_eq(buf, "'#x'", "a leading # starts a comment");
	/* snprintf-like: cut to fit, the length it needs returned */
	cr_assert_eq(wt_scn_shell_quote(buf, 4, "a b"), 5);
	cr_assert_str_eq(buf, "'a ");
	cr_assert_eq(wt_scn_shell_quote(NULL, 0, "it's"), 9);
	/* and what sh makes of each word is the word */
	wt_test_dir_make(&d);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct wt_test_run r;
		char *line;

		wt_scn_shell_quote(buf, sizeof(buf), words[i]);
		cr_assert(asprintf(&line, "printf '[%%s]' %s", buf) > 0);
		sh_run(&r, &d, line);
		cr_assert_eq(r.status, 0, "%s: %s", line, r.err);
		cr_assert_eq(strlen(r.out), strlen(words[i]) + 2, "%s -> %s",
			     line, r.out);
		cr_assert(!strncmp(r.out + 1, words[i], strlen(words[i])),
			  "%s -> %s", line, r.out);
		wt_test_run_free(&r);
		free(line);
	}
	wt_test_dir_remove(&d);
}

/* Every "replay: " line of out, in order (NULL-terminated; caller frees). */
static char **replay_lines(const char *out)
{
	char **v = calloc(64, sizeof(*v));
	unsigned n = 0;

	cr_assert_not_null(v);
	for (const char *l = out; l && *l && n < 63; ) {
		const char *e = strchr(l, '\n');

		if (!strncmp(l, "replay: ", 8))
			v[n++] = strndup(l + 8, e ? (size_t)(e - l - 8) : strlen(l + 8));
		l = e ? e + 1 : NULL;
	}
	return v;
}

static void lines_free(char **v)
{
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

/*
 * A scenario under a directory whose name a shell would split and expand:
 * every printed replay command -- an iteration's, a one-iteration run's
 * count, a several-iteration run's count -- run through sh as it is,
 * fails again with its message.
 */
Test(scenario, replay_commands_survive_the_shell)
{
	struct wt_test_dir d;
	char *dir, *f, *text;
	unsigned checked = 0;

	wt_test_dir_make(&d);
	cr_assert(asprintf(&dir, "%s/it's a $HOME;dir `x`", d.path) > 0);
	cr_assert_eq(mkdir(dir, 0755), 0);
	for (int iters = 1; iters <= 2; iters++) {
		struct wt_test_run r;
		char **lines;
		FILE *fp;

		cr_assert(asprintf(&text, "name: q%d\n"
				   "threads:\n"
				   "  walker: { do: [\"stat /nonexistent\"] }\n"
				   "budget: { iterations: %d }\n"
				   "expect:\n"
				   "  - result walker == ok\n"
				   "  - path rcu.ok == 3\n", iters, iters) > 0);
		cr_assert(asprintf(&f, "%s/q%d.yaml", dir, iters) > 0);
		fp = fopen(f, "w");
		cr_assert_not_null(fp);
		fputs(text, fp);
		fclose(fp);
		wt_test_run(&r, (const char *[]){ "run", f, "--seed", "9", NULL });
		cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
		lines = replay_lines(r.out);
		cr_assert_not_null(lines[1], "%s", r.out);
		for (char **l = lines; *l; l++) {
			struct wt_test_run again;

			sh_run(&again, &d, *l);
			cr_assert_eq(again.status, 1, "%s: exit %d\n%s%s", *l,
				     again.status, again.out, again.err);
			cr_assert(strstr(again.out, "result walker == ok: got ENOENT"),
				  "%s:\n%s", *l, again.out);
			/* a replay of a several-iteration file counts nothing */
			if (iters == 1 || strstr(*l, "walktorture run "))
				cr_assert(strstr(again.out, "path rcu.ok == 3: got "),
					  "%s:\n%s", *l, again.out);
			wt_test_run_free(&again);
			checked++;
		}
		lines_free(lines);
		wt_test_run_free(&r);
		free(f);
		free(text);
	}
	cr_assert_geq(checked, 5);
	free(dir);
	wt_test_dir_remove(&d);
}

/* The failure record of r's results whose message starts with msg. */
static json_t *failure_with(json_t *doc, const char *msg)
{
	json_t *sc = json_array_get(json_object_get(doc, "scenarios"), 0), *f;
	size_t i;

	json_array_foreach(json_object_get(sc, "failures"), i, f)
		if (!strncmp(json_string_value(json_object_get(f, "message")),
			     msg, strlen(msg)))
			return f;
	return NULL;
}

static json_t *load(const char *file)
{
	json_error_t je;
	json_t *doc = json_load_file(file, 0, &je);

	cr_assert_not_null(doc, "%s: %s", file, je.text);
	return doc;
}

/*
 * A count expectation over the run: its printed command, run as it is,
 * fails with the same record -- the same seed and the same command
 * again, so the command is a fixed point -- for a one-iteration run (a
 * replay) and a several-iteration one (the run again).
 */
Test(scenario, count_failure_replays_with_its_seed)
{
	struct wt_test_dir d;

	wt_test_dir_make(&d);
	for (int iters = 1; iters <= 3; iters += 2) {
		struct wt_test_run r, again;
		char *text, *f, *json, *json2, *line;
		json_t *doc, *doc2, *fl, *fl2;

		cr_assert(asprintf(&text, "name: count%d\n"
				   "threads:\n"
				   "  walker: { do: [\"stat /\"] }\n"
				   "budget: { iterations: 1 }\n"
				   "expect:\n"
				   "  - path rcu.ok == 7\n", iters) > 0);
		f = wt_test_write(&d, "count.yaml", text);
		cr_assert(asprintf(&json, "%s/run.json", d.path) > 0);
		cr_assert(asprintf(&json2, "%s/again.json", d.path) > 0);
		wt_test_run(&r, (const char *[]){ "run", f, "--seed", "0x77",
			    "--iterations", iters == 1 ? "1" : "3", "--json", json,
			    NULL });
		cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
		doc = load(json);
		fl = failure_with(doc, "path rcu.ok == 7: got ");
		cr_assert_not_null(fl, "%s", r.out);
		cr_assert(strstr(json_string_value(json_object_get(fl, "replay")),
				 iters == 1 ? "walktorture replay " : "walktorture run "));
		cr_assert(asprintf(&line, "%s --json '%s'", json_string_value(
			json_object_get(fl, "replay")), json2) > 0);
		sh_run(&again, &d, line);
		cr_assert_eq(again.status, 1, "%s\n%s%s", line, again.out, again.err);
		doc2 = load(json2);
		fl2 = failure_with(doc2, "path rcu.ok == 7: got ");
		cr_assert_not_null(fl2, "%s:\n%s", line, again.out);
		cr_assert_str_eq(json_string_value(json_object_get(fl2, "message")),
				 json_string_value(json_object_get(fl, "message")));
		cr_assert_str_eq(json_string_value(json_object_get(fl2, "seed")),
				 json_string_value(json_object_get(fl, "seed")), "%s", line);
		cr_assert_str_eq(json_string_value(json_object_get(fl2, "replay")),
				 json_string_value(json_object_get(fl, "replay")));
		json_decref(doc);
		json_decref(doc2);
		wt_test_run_free(&r);
		wt_test_run_free(&again);
		free(line);
		free(json2);
		free(json);
		free(f);
		free(text);
	}
	wt_test_dir_remove(&d);
}

/* --json and --out write a file like any other: 0666 less the umask. */
Test(scenario, results_file_mode_follows_umask)
{
	static const mode_t masks[] = { 022, 002, 077 };
	struct wt_test_dir d;
	char *f, *json, *out, *rj;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "holds.yaml", passing);
	cr_assert(asprintf(&json, "%s/r.json", d.path) > 0);
	cr_assert(asprintf(&out, "%s/out", d.path) > 0);
	cr_assert(asprintf(&rj, "%s/results.json", out) > 0);
	for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
		mode_t old = umask(masks[i]);
		struct wt_test_run r;
		struct stat st;

		wt_test_run(&r, (const char *[]){ "run", f, "--seed", "7",
			    "--json", json, "--out", out, NULL });
		umask(old);
		cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
		cr_assert_eq(stat(json, &st), 0);
		cr_assert_eq(st.st_mode & 07777, 0666 & ~masks[i],
			     "umask %03o: --json file mode %03o", masks[i],
			     st.st_mode & 07777);
		cr_assert_eq(stat(rj, &st), 0);
		cr_assert_eq(st.st_mode & 07777, 0666 & ~masks[i],
			     "umask %03o: --out results mode %03o", masks[i],
			     st.st_mode & 07777);
		wt_test_run_free(&r);
	}
	free(rj);
	free(out);
	free(json);
	free(f);
	wt_test_dir_remove(&d);
}

/* A count over several iterations is no one iteration's: replay of that
 * failure from the results says so and names the run that reproduces it. */
Test(scenario, replay_of_a_several_iteration_count_names_the_run)
{
	static const char *const agg =
		"name: agg\n"
		"threads:\n"
		"  walker: { do: [\"stat /\"] }\n"
		"budget: { iterations: 3 }\n"
		"expect:\n"
		"  - path rcu.ok == 1\n";
	struct wt_test_dir d;
	struct wt_test_run r;
	char *f, *json, *arg;

	wt_test_dir_make(&d);
	f = wt_test_write(&d, "agg.yaml", agg);
	cr_assert(asprintf(&json, "%s/agg.json", d.path) > 0);
	cr_assert(asprintf(&arg, "%s#0", json) > 0);
	wt_test_run(&r, (const char *[]){ "run", f, "--seed", "1", "--json",
					  json, NULL });
	cr_assert_eq(r.status, 1, "%s", r.out);
	wt_test_run_free(&r);
	wt_test_run(&r, (const char *[]){ "replay", arg, NULL });
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "is over several iterations, not one; replay it "
			 "with: walktorture run "), "%s", r.err);
	cr_expect(strstr(r.err, "--iterations 3"), "%s", r.err);
	cr_expect_str_eq(r.out, "");
	wt_test_run_free(&r);
	free(arg);
	free(json);
	free(f);
	wt_test_dir_remove(&d);
}

/*
 * A file's counts are written for its own budget; `run --iterations I'
 * holds them to the same rate (runner.c, count_holds): one walk an
 * iteration is 5 in 5 iterations, a wrong rate still fails and says the
 * rate it was held to, and a lower bound asked for in 300 iterations is
 * not owed in 3 nor multiplied in 600.
 */
Test(scenario, counts_follow_the_files_budget_under_iterations)
{
	static const struct {
		const char *expect;
		const char *budget;
		const char *iterations;
		int status;
		const char *out;
	} cases[] = {
		{ "walks == 1", "", "5", 0, "actual=5 (== 1 per 1 iteration, over 5)" },
		{ "walks == 2", "", "5", 1, "actual=5 (== 2 per 1 iteration, over 5)" },
		{ "walks == 4", "budget: { iterations: 4 }\n", "3", 0, "actual=3 (== 4 per 4 iterations, over 3)" },
		{ "walks <= 2", "budget: { iterations: 2 }\n", "5", 0, "actual=5 (<= 2 per 2 iterations, over 5)" },
		{ "walks <= 1", "budget: { iterations: 2 }\n", "5", 1, "actual=5 (<= 1 per 2 iterations, over 5)" },
		{ "path restart.* >= 1", "budget: { iterations: 300 }\n", "3", 0, "(>= 1 per 300 iterations, over 3)" },
		{ "path restart.* >= 1", "budget: { iterations: 3 }\n", "6", 1, "FAILED actual=restart." },
		{ "walks > 1", "budget: { iterations: 3 }\n", "6", 0, "actual=6\n" },
		{ "walks == 1", "budget: { duration: 10ms }\n", "4", 1, "FAILED actual=4\n" },
	};
	struct wt_test_dir d;

	wt_test_dir_make(&d);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct wt_test_run r;
		char *doc, *f;

		cr_assert(asprintf(&doc, "name: rate\n"
				   "threads:\n"
				   "  walker: { do: [\"stat /\"] }\n"
				   "%sexpect:\n"
				   "  - %s\n", cases[i].budget,
				   cases[i].expect) > 0);
		f = wt_test_write(&d, "rate.yaml", doc);
		wt_test_run(&r, (const char *[]){ "run", f, "--seed", "1",
						  "--iterations",
						  cases[i].iterations, NULL });
		cr_expect_eq(r.status, cases[i].status, "case %u: %s%s", i,
			     r.out, r.err);
		cr_expect(strstr(r.out, cases[i].out), "case %u: no '%s' in %s",
			  i, cases[i].out, r.out);
		wt_test_run_free(&r);
		free(f);
		free(doc);
	}
	wt_test_dir_remove(&d);
}

/* An expectation summed over several iterations of a directed scenario
 * carries the scenario's schedule (every iteration ran under it); one of
 * a scenario without a schedule carries null. */
Test(scenario, count_failure_carries_the_schedule)
{
	static const char *const files[] = {
		"name: agg\n"
		"tree: |\n"
		"  mkdir -p /a/b\n"
		"threads:\n"
		"  walker: { do: [\"stat /a/b\"] }\n"
		"schedule:\n"
		"  - walker until lookup_fast.parent_seq where name=b\n"
		"  - walker finish\n"
		"budget: { iterations: 3 }\n"
		"expect:\n"
		"  - walks == 1\n",
		"name: agg\n"
		"threads:\n"
		"  walker: { do: [\"stat /\"] }\n"
		"budget: { iterations: 3 }\n"
		"expect:\n"
		"  - walks == 1\n",
	};
	struct wt_test_dir d;

	wt_test_dir_make(&d);
	for (unsigned i = 0; i < 2; i++) {
		struct wt_test_run r;
		char *f, *json;
		json_t *doc, *fl, *sched;

		f = wt_test_write(&d, "agg.yaml", files[i]);
		cr_assert(asprintf(&json, "%s/agg.json", d.path) > 0);
		wt_test_run(&r, (const char *[]){ "run", f, "--seed", "1",
						  "--json", json, NULL });
		cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
		doc = load(json);
		fl = failure_with(doc, "walks == 1: got 3");
		cr_assert_not_null(fl, "%s", r.out);
		sched = json_object_get(fl, "schedule");
		if (i == 0) {
			cr_assert(json_is_array(sched));
			cr_expect_eq(json_array_size(sched), 2);
			cr_expect_str_eq(json_string_value(json_array_get(sched, 1)),
					 "walker finish");
		} else {
			cr_expect(json_is_null(sched));
		}
		json_decref(doc);
		wt_test_run_free(&r);
		free(json);
		free(f);
	}
	wt_test_dir_remove(&d);
}

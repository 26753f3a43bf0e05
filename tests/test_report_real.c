/* SPDX-License-Identifier: MIT */
/*
 * Reports of real runs, not fixtures: `walktorture run` on a passing suite,
 * on a zoo scenario with its bug (directed: an expectation, the oracle and
 * a summary expectation fail) and on a PCT variant of another zoo scenario
 * (tests/data/unlazy_next_leak.pct.yaml: which iteration fails depends on
 * its seed); `walktorture report` renders each results file.  The page
 * parses strictly, has the verdict, one section per scenario, and every
 * failure either a timeline with one lane per thread of its trace (each
 * holding that thread's events, one operation block where its op changes,
 * the failing event -- the failing thread's, inside the window -- marked)
 * or says it has no trace.  The replay command is taken from the page
 * (entities decoded), run as it is plus --json, and must fail again (exit
 * 1) with the same kind, check, step, message, seed, replay command and
 * trace, failing event included; the same command with the bug removed,
 * or with another seed where the seed matters, must not.  A random-policy
 * zoo run (may_lookup_blocks: untraced, then rerun traced) checks that
 * each failure's window is centred where it was found.  Nightlies into
 * one OUT each keep their night (a taken id gets a suffix).
 */
#define _GNU_SOURCE	/* asprintf */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <jansson.h>
#include <sqlite3.h>
#include <time.h>

#include "tests/test_report_html.h"
#include "tests/test_report_util.h"

#define MAX_ARGS 32

static json_t *load_json(const char *path)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);

	cr_assert_not_null(doc, "%s:%d: %s", path, je.line, je.text);
	return doc;
}

/* walktorture run SCENARIO --seed S [--iterations N] [--bug B] --json OUT. */
static int wt_run(const char *dir, const char *scn, const char *seed,
		  const char *iterations, const char *bug, const char *out)
{
	char *argv[MAX_ARGS] = { "walktorture", "run", (char *)scn, "--seed",
				 (char *)seed, "--json", (char *)out };
	int n = 7;

	if (iterations) {
		argv[n++] = "--iterations";
		argv[n++] = (char *)iterations;
	}
	if (bug) {
		argv[n++] = "--bug";
		argv[n++] = (char *)bug;
	}
	argv[n] = NULL;
	return run_cli(path_in(dir, "run.stderr"), argv);
}

/* walktorture report JSON -o HTML, then the page, parsed. */
static char *render(struct ht_doc *d, const char *dir, const char *json)
{
	const char *html_file = path_in(dir, "report.html");
	char *argv[] = { "walktorture", "report", (char *)json, "-o",
			 (char *)html_file, NULL };
	char *html;

	cr_assert_eq(run_cli(path_in(dir, "report.stderr"), argv), 0,
		     "walktorture report %s failed", json);
	html = slurp(html_file);
	cr_assert_not_null(html);
	cr_assert_eq(ht_parse(d, html), 0, "report does not parse: %s", d->err);
	return html;
}

static void check_verdict(struct ht_doc *d, const char *expect)
{
	char *v = text_of_id(d, "verdict");

	cr_assert_str_eq(v, expect);
	free(v);
}

/* Events of thread k inside the window [first, first + shown). */
static size_t events_of(json_t *tr, size_t k, long long first, long long shown)
{
	long long base = json_integer_value(json_object_get(tr, "first_index"));
	json_t *ev;
	size_t i, n = 0;

	json_array_foreach(json_object_get(tr, "events"), i, ev) {
		long long idx = base + (long long)i;

		if (idx >= first && idx < first + shown &&
		    (size_t)json_integer_value(json_object_get(ev, "thread")) == k)
			n++;
	}
	return n;
}

/*
 * Operations thread k begins inside the window: events whose "op" differs
 * from its previous event's (a real trace names the running op on every
 * event; the timeline draws a block only where it changes).
 */
static size_t op_starts_of(json_t *tr, size_t k, long long first, long long shown)
{
	long long base = json_integer_value(json_object_get(tr, "first_index"));
	const char *prev = NULL, *op;
	json_t *ev;
	size_t i, n = 0;

	json_array_foreach(json_object_get(tr, "events"), i, ev) {
		long long idx = base + (long long)i;

		if (idx < first || idx >= first + shown ||
		    (size_t)json_integer_value(json_object_get(ev, "thread")) != k)
			continue;
		op = json_string_value(json_object_get(ev, "op"));
		n += op && (!prev || strcmp(op, prev));
		prev = op;
	}
	return n;
}

static long long attr_ll(struct ht_doc *d, long i, const char *name)
{
	const char *v = ht_attr(d, (size_t)i, name);

	cr_assert_not_null(v, "no %s attribute", name);
	return strtoll(v, NULL, 10);
}

/*
 * The failing event of a real trace: inside the window the runner kept
 * around it, and the failing thread's own event when the failure names a
 * thread (the failure was found on that thread, at that point).
 */
static void check_failing_event(json_t *fl, json_t *tr)
{
	json_t *fe = json_object_get(tr, "failing_event");
	long long first = json_integer_value(json_object_get(tr, "first_index"));
	long long n = (long long)json_array_size(json_object_get(tr, "events"));
	const char *who = json_string_value(json_object_get(fl, "thread"));
	json_t *ev, *name;
	size_t k;

	cr_assert(json_is_integer(fe), "a real trace names its failing event");
	cr_assert(json_integer_value(fe) >= first &&
		  json_integer_value(fe) < first + n,
		  "failing event %lld outside the kept window [%lld, %lld)",
		  json_integer_value(fe), first, first + n);
	if (!who)
		return;
	ev = json_array_get(json_object_get(tr, "events"),
			    (size_t)(json_integer_value(fe) - first));
	k = (size_t)json_integer_value(json_object_get(ev, "thread"));
	name = json_array_get(json_object_get(tr, "threads"), k);
	cr_assert_str_eq(json_string_value(name), who,
			 "the failing event is %s's, not the failing thread's",
			 json_string_value(name));
}

/* The failing event is marked once (the report's window holds the
 * runner's: its default is wider). */
static void check_failing_mark(struct ht_doc *d, long tl, json_t *tr)
{
	long long failing = json_integer_value(json_object_get(tr, "failing_event"));
	long long first = attr_ll(d, tl, "data-first");
	long long shown = attr_ll(d, tl, "data-events");
	char buf[32];
	long ev;

	cr_assert(failing >= first && failing < first + shown,
		  "failing event %lld not shown (%lld..%lld)", failing, first,
		  first + shown);
	cr_assert_eq(ht_count(d, tl, "g", "failing"), 1);
	ev = ht_next(d, tl, d->nodes[tl].last, "g", "failing");
	snprintf(buf, sizeof(buf), "%lld", failing);
	cr_assert_str_eq(ht_attr(d, (size_t)ev, "data-index"), buf);
}

/* One lane per trace thread, in order, each holding its own events. */
static void check_timeline(struct ht_doc *d, const char *id, json_t *tr)
{
	json_t *threads = json_object_get(tr, "threads");
	long tl = ht_by_id(d, id), lane;
	long long first, shown;
	char buf[32];

	cr_assert_geq(tl, 0, "failure with a trace has no timeline %s", id);
	snprintf(buf, sizeof(buf), "%zu", json_array_size(threads));
	cr_assert_str_eq(ht_attr(d, (size_t)tl, "data-lanes"), buf);
	cr_assert_eq(ht_children(d, (size_t)tl, "g", "lane"),
		     json_array_size(threads), "%s: one lane per thread", id);
	first = attr_ll(d, tl, "data-first");
	shown = attr_ll(d, tl, "data-events");
	cr_assert_gt(shown, 0, "%s shows no event", id);
	lane = tl;
	for (size_t k = 0; k < json_array_size(threads); k++) {
		const char *name = json_string_value(json_array_get(threads, k));

		lane = ht_next(d, lane, d->nodes[tl].last, "g", "lane");
		cr_assert_geq(lane, 0);
		cr_assert_str_eq(ht_attr(d, (size_t)lane, "data-thread"), name);
		cr_assert_eq(ht_count(d, lane, "g", "ev"),
			     events_of(tr, k, first, shown),
			     "%s: lane %s holds its own events", id, name);
		cr_assert_eq(ht_count(d, lane, "g", "op"),
			     op_starts_of(tr, k, first, shown),
			     "%s: lane %s: one block per operation it begins", id, name);
	}
	check_failing_mark(d, tl, tr);
}

/* Failure k of scenario i: its block, timeline (or none) and replay text. */
static void check_failure(struct ht_doc *d, size_t i, size_t k, json_t *fl)
{
	json_t *tr = json_object_get(fl, "trace");
	char id[64], *s;
	long div;

	snprintf(id, sizeof(id), "f-%zu-%zu", i, k);
	div = ht_by_id(d, id);
	cr_assert_geq(div, 0, "no block for failure %s", id);
	snprintf(id, sizeof(id), "tl-%zu-%zu", i, k);
	if (json_is_object(tr)) {
		check_failing_event(fl, tr);
		check_timeline(d, id, tr);
	} else {
		cr_assert_lt(ht_by_id(d, id), 0);
		s = ht_text_of(d, (size_t)div);
		cr_assert_not_null(strstr(s, "no trace recorded for this failure"));
		free(s);
	}
	snprintf(id, sizeof(id), "r-%zu-%zu", i, k);
	s = text_of_id(d, id);
	cr_assert_str_eq(s, json_string_value(json_object_get(fl, "replay")));
	free(s);
}

/* The page against its results: sections, charts, failures. */
static void check_structure(struct ht_doc *d, json_t *doc, const char *verdict)
{
	json_t *scs = json_object_get(doc, "scenarios"), *sc, *fl;
	size_t i, k, nfail = 0;

	check_verdict(d, verdict);
	cr_assert_eq(ht_count(d, -1, "section", "scn"), json_array_size(scs));
	cr_assert_eq(ht_count(d, -1, "svg", "paths"), json_array_size(scs));
	json_array_foreach(scs, i, sc) {
		char id[64], *h;
		long sec;

		snprintf(id, sizeof(id), "s-%zu", i);
		sec = ht_by_id(d, id);
		cr_assert_geq(sec, 0);
		h = ht_text_of(d, (size_t)ht_next(d, sec, d->nodes[sec].last, "h2", NULL));
		cr_assert_not_null(strstr(h, json_string_value(json_object_get(sc, "name"))));
		free(h);
		json_array_foreach(json_object_get(sc, "failures"), k, fl) {
			check_failure(d, i, k, fl);
			nfail++;
		}
	}
	cr_assert_eq(ht_count(d, -1, "div", "failure"), nfail);
}

/* Split a replay command at blanks; argv[0] must be "walktorture". */
static int split_cmd(char *cmd, char **argv, int max)
{
	int n = 0;

	for (char *t = strtok(cmd, " \t\n"); t && n < max - 1; t = strtok(NULL, " \t\n"))
		argv[n++] = t;
	argv[n] = NULL;
	cr_assert_geq(n, 3, "replay command too short");
	cr_assert_str_eq(argv[0], "walktorture");
	cr_assert_str_eq(argv[1], "replay");
	return n;
}

/* Run a replay command line with --json OUT; returns its exit status. */
static int run_replay(const char *dir, const char *cmd, const char *out)
{
	char *copy = strdup(cmd), *argv[MAX_ARGS];
	int n = split_cmd(copy, argv, MAX_ARGS - 2), status;

	argv[n++] = "--json";
	argv[n++] = (char *)out;
	argv[n] = NULL;
	status = run_cli(path_in(dir, "replay.stderr"), argv);
	free(copy);
	return status;
}

static int same_field(json_t *a, json_t *b, const char *key)
{
	json_t *x = json_object_get(a, key), *y = json_object_get(b, key);

	return (!x || json_is_null(x)) ? (!y || json_is_null(y)) : json_equal(x, y);
}

/* The events both traces hold are equal, as are the totals and failing event. */
static int same_trace(json_t *a, json_t *b)
{
	json_t *ea = json_object_get(a, "events"), *eb = json_object_get(b, "events");
	long long fa = json_integer_value(json_object_get(a, "first_index"));
	long long fb = json_integer_value(json_object_get(b, "first_index"));
	long long lo = fa > fb ? fa : fb;
	long long ha = fa + (long long)json_array_size(ea);
	long long hb = fb + (long long)json_array_size(eb);

	if (!same_field(a, b, "threads") || !same_field(a, b, "total_events") ||
	    !same_field(a, b, "failing_event") || lo >= (ha < hb ? ha : hb))
		return 0;
	for (long long i = lo; i < ha && i < hb; i++)
		if (!json_equal(json_array_get(ea, (size_t)(i - fa)),
				json_array_get(eb, (size_t)(i - fb))))
			return 0;
	return 1;
}

static int same_failure(json_t *a, json_t *b)
{
	/* the seed and the command too: a replay's record replays itself */
	static const char *const keys[] = { "kind", "check", "step", "message",
					    "thread", "walk", "seed", "replay" };
	json_t *ta = json_object_get(a, "trace"), *tb = json_object_get(b, "trace");

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!same_field(a, b, keys[i]))
			return 0;
	if (json_is_object(ta) != json_is_object(tb))
		return 0;
	return !json_is_object(ta) || same_trace(ta, tb);
}

/* Does the replay's results file hold failure fl again? */
static int reproduced(const char *file, json_t *fl)
{
	json_t *doc = load_json(file), *sc, *f;
	size_t i, k;
	int hit = 0;

	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		json_array_foreach(json_object_get(sc, "failures"), k, f)
			hit |= same_failure(f, fl);
	json_decref(doc);
	return hit;
}

/* The page's replay command of failure k of scenario i, decoded. */
static char *replay_from_page(struct ht_doc *d, size_t i, size_t k)
{
	char id[64];

	snprintf(id, sizeof(id), "r-%zu-%zu", i, k);
	return text_of_id(d, id);
}

/* Every failure's replay command, taken from the page, fails the same way. */
static void check_replays(struct ht_doc *d, const char *dir, json_t *doc)
{
	json_t *sc, *fl;
	size_t i, k;

	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		json_array_foreach(json_object_get(sc, "failures"), k, fl) {
			const char *out = path_in(dir, "replay.json");
			char *cmd = replay_from_page(d, i, k);

			cr_assert_eq(run_replay(dir, cmd, out), 1,
				     "replay did not fail: %s", cmd);
			cr_assert(reproduced(out, fl),
				  "%s: not the same failure as %s", cmd,
				  json_string_value(json_object_get(fl, "message")));
			free(cmd);
		}
}

/* cmd without its " --bug NAME" (which it must have). */
static char *without_bug(const char *cmd)
{
	const char *b = strstr(cmd, " --bug ");
	const char *end;
	char *out;

	cr_assert_not_null(b, "no --bug in %s", cmd);
	end = strchr(b + 7, ' ');
	end = end ? end : b + strlen(b);
	cr_assert(asprintf(&out, "%.*s%s", (int)(b - cmd), cmd, end) > 0);
	return out;
}

/* cmd with its seed (the third word) replaced by seed + delta. */
static char *other_seed(const char *cmd, uint64_t delta)
{
	const char *s = cmd + strlen("walktorture replay ");
	uint64_t seed = strtoull(s, NULL, 0);
	char *out;

	cr_assert(!strncmp(cmd, "walktorture replay 0x", 21), "%s", cmd);
	cr_assert(asprintf(&out, "walktorture replay %#" PRIx64 "%s", seed + delta,
			   s + strcspn(s, " ")) > 0);
	return out;
}

/* A tampered command must not bring failure fl back. */
static void check_not_reproduced(const char *dir, const char *cmd, json_t *fl)
{
	const char *out = path_in(dir, "tampered.json");
	int status = run_replay(dir, cmd, out);

	cr_assert(status == 0 || status == 1, "%s: exit %d", cmd, status);
	cr_assert(!reproduced(out, fl), "%s reproduces the failure too", cmd);
}

/* The first failure of scenario 0 of this kind; *k its index. */
static json_t *failure_of_kind(json_t *doc, const char *kind, size_t *k)
{
	json_t *fls = json_object_get(json_array_get(json_object_get(doc, "scenarios"), 0),
				      "failures"), *fl;
	size_t i;

	json_array_foreach(fls, i, fl)
		if (!strcmp(json_string_value(json_object_get(fl, "kind")), kind)) {
			*k = i;
			return fl;
		}
	cr_assert_fail("no %s failure", kind);
	return NULL;
}

TestSuite(report_real, .fini = tmpdirs_remove);

Test(report_real, passing_suite)
{
	/* scenarios/basic under one seed: PASS, a section and charts per scenario. */
	const char *dir = tmpdir(), *json = path_in(dir, "basic.json");
	struct ht_doc d;
	json_t *doc;
	char *html;

	cr_assert_eq(wt_run(dir, source_path("scenarios/basic"), "0x5eed", NULL, NULL,
			    json), 0, "scenarios/basic does not pass");
	doc = load_json(json);
	cr_assert_gt(json_array_size(json_object_get(doc, "scenarios")), 1);
	html = render(&d, dir, json);
	check_structure(&d, doc, "PASS");
	cr_assert_eq(ht_count(&d, -1, "svg", "timeline"), 0);
	cr_assert_not_null(strstr(html, "0x5eed"), "the run seed is shown");
	free(html);
	ht_free(&d);
	json_decref(doc);
}

Test(report_real, zoo_failure_replays_from_the_page)
{
	/*
	 * step_into_no_seq with its bug: an expectation and the oracle fail
	 * in the iteration (traced, three threads), a count expectation over
	 * the run (no trace).  Each replay command on the page fails again the
	 * same way; without --bug it passes.
	 */
	const char *dir = tmpdir(), *json = path_in(dir, "zoo.json");
	struct ht_doc d;
	json_t *doc, *fl;
	char *html, *cmd, *plain, id[64];
	size_t k;

	cr_assert_eq(wt_run(dir, source_path("scenarios/zoo/step_into_no_seq.yaml"),
			    "0x5eed", NULL, "step_into_no_seq", json), 1);
	doc = load_json(json);
	html = render(&d, dir, json);
	check_structure(&d, doc, "FAIL");
	cr_assert_geq(ht_count(&d, -1, "svg", "timeline"), 1);
	fl = failure_of_kind(doc, "oracle", &k);
	snprintf(id, sizeof(id), "tl-0-%zu", k);
	cr_assert_str_eq(ht_attr(&d, (size_t)ht_by_id(&d, id), "data-lanes"), "3");
	check_replays(&d, dir, doc);
	cmd = replay_from_page(&d, 0, k);
	plain = without_bug(cmd);
	cr_assert_eq(run_replay(dir, plain, path_in(dir, "plain.json")), 0,
		     "%s still fails", plain);
	cr_assert(!reproduced(path_in(dir, "plain.json"), fl));
	free(plain);
	free(cmd);
	free(html);
	ht_free(&d);
	json_decref(doc);
}

Test(report_real, pct_failure_needs_its_seed)
{
	/*
	 * unlazy_next_leak without its directed schedule, under PCT: a few of
	 * the iterations leak a count (the refcount check).  The first one's
	 * replay from the page reproduces it, trace and all; its neighbour
	 * seeds and the command without --bug do not.
	 */
	const char *dir = tmpdir(), *json = path_in(dir, "pct.json");
	struct ht_doc d;
	json_t *doc, *fl;
	char *html, *cmd, *t;
	size_t k;

	cr_assert_eq(wt_run(dir, fixture("unlazy_next_leak.pct.yaml"), "0x7",
			    "1500", "unlazy_next_leak", json), 1,
		     "no leak found in 1500 PCT iterations (seed 0x7)");
	doc = load_json(json);
	html = render(&d, dir, json);
	check_structure(&d, doc, "FAIL");
	fl = failure_of_kind(doc, "check", &k);
	cr_assert_str_eq(json_string_value(json_object_get(fl, "check")), "refcount");
	cmd = replay_from_page(&d, 0, k);
	cr_assert_eq(run_replay(dir, cmd, path_in(dir, "replay.json")), 1, "%s", cmd);
	cr_assert(reproduced(path_in(dir, "replay.json"), fl), "%s", cmd);
	for (uint64_t delta = 1; delta <= 2; delta++) {
		t = other_seed(cmd, delta);
		check_not_reproduced(dir, t, fl);
		free(t);
	}
	t = without_bug(cmd);
	cr_assert_eq(run_replay(dir, t, path_in(dir, "plain.json")), 0, "%s", t);
	free(t);
	free(cmd);
	free(html);
	ht_free(&d);
	json_decref(doc);
}

/* The failures of scenario 0 with a trace, of iteration it. */
static size_t traced_failures(json_t *doc, long long it, json_t **out, size_t max)
{
	json_t *fls = json_object_get(json_array_get(json_object_get(doc, "scenarios"), 0),
				      "failures"), *fl;
	size_t i, n = 0;

	json_array_foreach(fls, i, fl)
		if (json_is_object(json_object_get(fl, "trace")) && n < max &&
		    json_integer_value(json_object_get(fl, "iteration")) == it)
			out[n++] = fl;
	return n;
}

Test(report_real, untraced_failure_marks_where_it_was_found)
{
	/*
	 * may_lookup_blocks with its bug, under a random schedule: the
	 * iteration runs untraced, fails (two rcu_sleep checks, one per
	 * walk), and is rerun traced for its window.  Each failure's failing
	 * event is the walker's, where that check fired -- not the trace's
	 * last event, not one window for both -- and is the one its replay
	 * from the page finds (check_replays compares failing_event).
	 */
	const char *dir = tmpdir(), *json = path_in(dir, "sleep.json");
	struct ht_doc d;
	json_t *doc, *fl[4], *ta, *tb;
	char *html;

	cr_assert_eq(wt_run(dir, source_path("scenarios/zoo/may_lookup_blocks.yaml"),
			    "0x5eed", NULL, "may_lookup_blocks", json), 1);
	doc = load_json(json);
	html = render(&d, dir, json);
	check_structure(&d, doc, "FAIL");
	cr_assert_eq(traced_failures(doc, 0, fl, 4), 2, "two traced failures in iteration 0");
	ta = json_object_get(fl[0], "trace");
	tb = json_object_get(fl[1], "trace");
	for (int i = 0; i < 2; i++) {
		json_t *tr = json_object_get(fl[i], "trace");

		cr_assert_str_eq(json_string_value(json_object_get(fl[i], "check")),
				 "rcu_sleep");
		cr_assert_lt(json_integer_value(json_object_get(tr, "failing_event")),
			     json_integer_value(json_object_get(tr, "total_events")) - 1,
			     "a check during a walk is not at the trace's end");
	}
	cr_assert_neq(json_integer_value(json_object_get(ta, "failing_event")),
		      json_integer_value(json_object_get(tb, "failing_event")),
		      "two checks at two moments, two failing events");
	check_replays(&d, dir, doc);
	free(html);
	ht_free(&d);
	json_decref(doc);
}

Test(report_real, failing_event_is_the_failing_threads)
{
	/*
	 * A walker whose every answer is "wrong" beside a renamer, switching
	 * at nine points in ten: the walker's checks run after the renamer
	 * has had its turn, so the trace's latest event when each failure is
	 * found is often the renamer's.  Each failure still marks the
	 * walker's own event (check_structure), its four walks four distinct
	 * ones, and each replay finds the same.
	 */
	const char *dir = tmpdir(), *json = path_in(dir, "narrow.json");
	const char *scn = path_in(dir, "narrow.yaml");
	struct ht_doc d;
	json_t *doc, *fl[4];
	FILE *f = fopen(scn, "w");
	char *html;

	cr_assert_not_null(f);
	fputs("name: narrow\n"
	      "tree: |\n"
	      "  mkdir -p /a/b\n"
	      "threads:\n"
	      "  walker: { do: [\"stat /a/b\"], loop: 4 }\n"
	      "  renamer: { do: [\"mv /a/b /a/c\", \"mv /a/c /a/b\"], loop: forever }\n"
	      "sched: { switch_p: 0.9 }\n"
	      "expect:\n"
	      "  - result walker == EACCES\n", f);
	fclose(f);
	cr_assert_eq(wt_run(dir, scn, "0x5eed", NULL, NULL, json), 1);
	doc = load_json(json);
	html = render(&d, dir, json);
	check_structure(&d, doc, "FAIL");
	cr_assert_eq(traced_failures(doc, 0, fl, 4), 4);
	for (int i = 1; i < 4; i++)
		cr_assert_gt(json_integer_value(json_object_get(json_object_get(fl[i], "trace"),
								"failing_event")),
			     json_integer_value(json_object_get(json_object_get(fl[i - 1], "trace"),
								"failing_event")),
			     "walk %d is found after walk %d", i + 1, i);
	check_replays(&d, dir, doc);
	free(html);
	ht_free(&d);
	json_decref(doc);
}

/* --- nightly: one id per night --- */

/* The night id `walktorture nightly' derives from start second t. */
static void night_id_of(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H%M%SZ", &tm);
}

/* walktorture nightly basic/quiet.yaml --seeds 1 --seed S --out OUT. */
static void nightly(const char *dir, const char *out, const char *seed)
{
	char *argv[] = { "walktorture", "nightly",
			 (char *)source_path("scenarios/basic/quiet.yaml"),
			 "--seeds", "1", "--seed", (char *)seed, "--out",
			 (char *)out, "--explore", "0", NULL };

	cr_assert_eq(run_cli(path_in(dir, "nightly.stderr"), argv), 0,
		     "nightly into %s failed", out);
}

/* One integer from the history of OUT (the first column of sql's first row). */
static long long db_int(const char *out, const char *sql, const char *arg)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	cr_assert_eq(sqlite3_open_v2(path_in(out, "history.sqlite"), &db,
				     SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK,
		     "%s: %s", sql, sqlite3_errmsg(db));
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void db_exec(const char *out, const char *sql, const char *arg)
{
	sqlite3 *db;
	sqlite3_stmt *st;

	cr_assert_eq(sqlite3_open(path_in(out, "history.sqlite"), &db), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK,
		     "%s: %s", sql, sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
	cr_assert_eq(sqlite3_step(st), SQLITE_DONE, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/*
 * Every night recorded in out still has its results file beside its
 * report: a later night into the same OUT writes its own.  The count.
 */
static int nights_keep_results(const char *out)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char path[PATH_MAX];
	int n = 0;

	cr_assert_eq(sqlite3_open_v2(path_in(out, "history.sqlite"), &db,
				     SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, "SELECT night_id FROM nights", -1,
					&st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		cr_assert_lt(snprintf(path, sizeof(path), "%s/%s/results-1-1-0.json",
				      out, sqlite3_column_text(st, 0)),
			     (int)sizeof(path));
		cr_assert(file_exists(path), "no %s", path);
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

#define NIGHT_AHEAD 300	/* seconds of ids taken in advance: the run starts in them
			 * (a night under TSan on a loaded machine takes over 30 s) */

/*
 * The night of the nightly just run into out, whose start second's id
 * was taken: it is that id plus "-2", with its report, and the taken id
 * is untouched (no results recorded under it, its directory as it was).
 */
static void check_suffixed(const char *out, time_t t0, time_t t1)
{
	char id[48], id2[64], rel[96];
	int found = 0;

	for (time_t t = t0; t <= t1 && !found; t++) {
		night_id_of(t, id, sizeof(id));
		snprintf(id2, sizeof(id2), "%s-2", id);
		found = db_int(out, "SELECT count(*) FROM nights WHERE night_id = ?",
			       id2) == 1;
	}
	cr_assert(found, "no night <start>-2 recorded");
	/* basic/quiet is directed: it and its undirected twin */
	cr_assert_eq(db_int(out, "SELECT count(*) FROM results WHERE night_id = ?",
			    id2), 2, "the night's scenario rows");
	cr_assert_eq(db_int(out, "SELECT count(*) FROM results WHERE night_id = ?",
			    id), 0, "the taken night %s was recorded over", id);
	snprintf(rel, sizeof(rel), "%s/results-1-1-0.html", id2);
	cr_assert(file_exists(path_in(out, rel)), "no report %s", rel);
	snprintf(rel, sizeof(rel), "%s/results-1-1-0.html", id);
	cr_assert(!file_exists(path_in(out, rel)), "a report in the taken %s", id);
}

/* Remove the directories under out (the nights' reports), not its files. */
static void rm_subdirs(const char *out)
{
	DIR *d = opendir(out);
	struct dirent *e;
	char path[PATH_MAX + sizeof(e->d_name)];
	struct stat st;

	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", out, e->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			rm_tree(path);
	}
	closedir(d);
}

/* Take the ids of the seconds [t0, t0 + NIGHT_AHEAD] in out. */
static void take_ids(const char *out, time_t t0, int dirs)
{
	char id[48], path[PATH_MAX];

	for (time_t t = t0; t <= t0 + NIGHT_AHEAD; t++) {
		night_id_of(t, id, sizeof(id));
		/* the length checked: gcc -O3 sees out may fill path */
		cr_assert_lt(snprintf(path, sizeof(path), "%s/%s", out, id),
			     (int)sizeof(path));
		if (dirs)
			cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
		else
			db_exec(out, "INSERT INTO nights(night_id, verdict) "
				"VALUES (?, 'PASS')", id);
	}
}

Test(report_real, nightly_ids_are_unique_in_out)
{
	/*
	 * Two nightlies in one OUT each get their night, back to back (in
	 * the same second or not); a night whose start second's directory
	 * exists, or whose history row exists (its directory removed), gets
	 * the id with "-2" instead of recording over the other.
	 */
	const char *dir = tmpdir();
	char pair[PATH_MAX], dirs[PATH_MAX], rows[PATH_MAX];
	time_t t0, t1;

	snprintf(pair, sizeof(pair), "%s/pair", dir);
	snprintf(dirs, sizeof(dirs), "%s/dirs", dir);
	snprintf(rows, sizeof(rows), "%s/rows", dir);
	nightly(dir, pair, "1");
	nightly(dir, pair, "2");
	cr_assert_eq(db_int(pair, "SELECT count(*) FROM nights", NULL), 2,
		     "two nightlies, two nights");
	cr_assert_eq(nights_keep_results(pair), 2);

	/* directories taken for the next seconds */
	cr_assert_eq(mkdir(dirs, 0755), 0);
	t0 = time(NULL);
	take_ids(dirs, t0, 1);
	nightly(dir, dirs, "3");
	t1 = time(NULL);
	cr_assert_leq(t1, t0 + NIGHT_AHEAD, "the night took too long to test");
	check_suffixed(dirs, t0, t1);

	/* rows taken, no directories: a history whose nights were moved */
	nightly(dir, rows, "4");
	db_exec(rows, "DELETE FROM results WHERE night_id != ?", "");
	db_exec(rows, "DELETE FROM nights WHERE night_id != ?", "");
	rm_subdirs(rows);
	t0 = time(NULL);
	take_ids(rows, t0, 0);
	nightly(dir, rows, "5");
	t1 = time(NULL);
	cr_assert_leq(t1, t0 + NIGHT_AHEAD, "the night took too long to test");
	check_suffixed(rows, t0, t1);
}

/* The object key entry of id ("d5") in a failure, or NULL. */
static json_t *object_of(json_t *fl, const char *id)
{
	json_t *o;
	size_t i;

	json_array_foreach(json_object_get(fl, "objects"), i, o)
		if (!strcmp(json_string_value(json_object_get(o, "id")), id))
			return o;
	return NULL;
}

/* The "to" identity of a walk step's text ("'a' rcu m4/d3/i2 -> m4/d5/i6"). */
static int step_to(const char *text, unsigned long long *m, unsigned long long *d,
		   unsigned long long *i)
{
	const char *arrow = strstr(text, " -> ");

	return arrow && sscanf(arrow, " -> m%llu/d%llu/i%llu", m, d, i) == 3;
}

Test(report_real, the_object_key_names_every_id_of_the_walk)
{
	/*
	 * step_into_no_seq's oracle failure: every mount, dentry and inode id
	 * its walk steps name (m4/d5/i6, not 0) has an entry in the failure's
	 * "objects" with a path and a filesystem; the root's is "/", the
	 * dentry the lookup of 'a' reached is "/a"; the report's card shows
	 * the key as a table with one row per object, ids in order.
	 */
	const char *dir = tmpdir(), *json = path_in(dir, "zoo.json");
	struct ht_doc d;
	json_t *doc, *fl, *st, *o;
	char *html, id[64], *cell;
	size_t k, i, rows = 0;
	long div, table, tr;
	int saw_a = 0;

	cr_assert_eq(wt_run(dir, source_path("scenarios/zoo/step_into_no_seq.yaml"),
			    "0x5eed", NULL, "step_into_no_seq", json), 1);
	doc = load_json(json);
	fl = failure_of_kind(doc, "oracle", &k);
	cr_assert_gt(json_array_size(json_object_get(fl, "objects")), 0);
	json_array_foreach(json_object_get(fl, "walk_steps"), i, st) {
		const char *text = json_string_value(json_object_get(st, "text"));
		unsigned long long m, de, in;
		const char *want[3] = { "m", "d", "i" };
		unsigned long long ids[3];

		cr_assert(step_to(text, &m, &de, &in), "step %zu: %s", i, text);
		ids[0] = m;
		ids[1] = de;
		ids[2] = in;
		for (int w = 0; w < 3; w++) {
			if (!ids[w])
				continue;
			snprintf(id, sizeof(id), "%s%llu", want[w], ids[w]);
			o = object_of(fl, id);
			cr_assert(o, "step %zu (%s): no key for %s", i, text, id);
			cr_expect(json_string_value(json_object_get(o, "fs")),
				  "%s has no filesystem", id);
		}
		if (i == 0) {
			snprintf(id, sizeof(id), "d%llu", de);
			cr_expect_str_eq(json_string_value(json_object_get(
				object_of(fl, id), "path")), "/", "the start");
		}
		if (!strncmp(text, "'a' ", 4)) {
			snprintf(id, sizeof(id), "d%llu", de);
			cr_expect_str_eq(json_string_value(json_object_get(
				object_of(fl, id), "path")), "/a", "%s", text);
			saw_a = 1;
		}
	}
	cr_expect(saw_a, "no lookup of 'a' in the walk");
	html = render(&d, dir, json);
	snprintf(id, sizeof(id), "f-0-%zu", k);
	div = ht_by_id(&d, id);
	cr_assert_geq(div, 0);
	table = ht_next(&d, div, d.nodes[div].last, "table", "objects");
	cr_assert_geq(table, 0, "no object key in card %s", id);
	for (tr = ht_next(&d, table, d.nodes[table].last, "tr", NULL); tr >= 0;
	     tr = ht_next(&d, tr, d.nodes[table].last, "tr", NULL)) {
		long td = ht_next(&d, tr, d.nodes[tr].last, "td", NULL);

		if (td < 0)
			continue;	/* the header */
		cell = ht_text_of(&d, (size_t)td);
		cr_expect_str_eq(cell, json_string_value(json_object_get(
			json_array_get(json_object_get(fl, "objects"), rows), "id")));
		free(cell);
		rows++;
	}
	cr_expect_eq(rows, json_array_size(json_object_get(fl, "objects")));
	free(html);
	ht_free(&d);
	json_decref(doc);
}

/* SPDX-License-Identifier: MIT */
/*
 * The HTML report, built from the fixtures in tests/data/ and checked with
 * the strict checker in test_report_html.h: the page is well formed, the
 * verdict is right, every failure with a trace has one timeline lane per
 * thread with its failing event marked, big traces are cut to a window
 * that says what it left out, every string from the results is escaped,
 * and bad input is refused with "file: message" without touching the output.
 */
#include <criterion/criterion.h>
#include <jansson.h>

#include "reports/reports.h"
#include "tests/test_report_html.h"
#include "tests/test_report_util.h"

/* Write a report of files into dir/report.html, parse it, return the source. */
static char *build(struct ht_doc *d, const char *dir, const char *const *files,
		   unsigned n, const struct wt_report_opts *o)
{
	const char *out = path_in(dir, "report.html");
	char err[1024], *html;

	cr_assert_eq(wt_report_write_opts(out, files, n, o, NULL, err, sizeof(err)),
		     0, "%s", err);
	html = slurp(out);
	cr_assert_not_null(html);
	cr_assert_eq(ht_parse(d, html), 0, "report does not parse: %s", d->err);
	return html;
}

TestSuite(report, .fini = tmpdirs_remove);

Test(report, passing_run_has_verdict_charts_and_no_timeline)
{
	/* pass.json: PASS verdict, one section and one path chart per scenario, no failure. */
	const char *files[] = { fixture("pass.json") };
	struct ht_doc d;
	char *html = build(&d, tmpdir(), files, 1, NULL), *v = text_of_id(&d, "verdict");

	cr_assert_str_eq(v, "PASS");
	cr_assert_eq(ht_count(&d, -1, "section", "scn"), 5);
	cr_assert_eq(ht_count(&d, -1, "svg", "paths"), 5);
	cr_assert_eq(ht_count(&d, -1, "svg", "points"), 5);
	cr_assert_eq(ht_count(&d, -1, "svg", "timeline"), 0);
	cr_assert_eq(ht_count(&d, -1, "div", "failure"), 0);
	cr_assert_not_null(strstr(html, "0x5eed"), "the replay seed is shown");
	/* No network: nothing is fetched, so no src= and no external href. */
	cr_assert_null(strstr(html, " src=\""));
	cr_assert_null(strstr(html, "href=\"http"));
	free(v);
	free(html);
	ht_free(&d);
}

/* The events of a fixture failure's trace, by thread; returns the writer ops. */
static size_t events_per_thread(const char *file, size_t sc, size_t fl, size_t *count,
				size_t nthreads)
{
	json_t *doc = json_load_file(file, 0, NULL), *ev;
	json_t *tr = json_object_get(json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "scenarios"), sc), "failures"), fl), "trace");
	size_t i, ops = 0;

	cr_assert_not_null(tr);
	memset(count, 0, nthreads * sizeof(*count));
	json_array_foreach(json_object_get(tr, "events"), i, ev) {
		count[json_integer_value(json_object_get(ev, "thread"))]++;
		ops += json_is_string(json_object_get(ev, "op"));
	}
	json_decref(doc);
	return ops;
}

Test(report, failure_timeline_has_one_lane_per_thread_and_marks_the_failure)
{
	/*
	 * fail_zoo.json: the traced failure gets one lane per trace thread, in
	 * order, each holding exactly that thread's events, one event marked
	 * failing (#32) and the failing walk step (4) marked in the step table.
	 */
	static const char *const threads[] = { "walker", "umounter", "reclaimer" };
	const char *files[] = { fixture("fail_zoo.json") };
	struct ht_doc d;
	char *html = build(&d, tmpdir(), files, 1, NULL), *v = text_of_id(&d, "verdict");
	long tl = ht_by_id(&d, "tl-0-0"), lane = tl, ev;
	size_t per_thread[3], ops;

	cr_assert_str_eq(v, "FAIL");
	cr_assert_eq(ht_count(&d, -1, "div", "failure"), 2);
	cr_assert_geq(tl, 0);
	cr_assert_str_eq(ht_attr(&d, (size_t)tl, "data-lanes"), "3");
	cr_assert_eq(ht_children(&d, (size_t)tl, "g", "lane"), 3);
	ops = events_per_thread(files[0], 0, 0, per_thread, 3);
	for (size_t k = 0; k < 3; k++) {
		lane = ht_next(&d, lane, d.nodes[tl].last, "g", "lane");
		cr_assert_geq(lane, 0);
		cr_assert_str_eq(ht_attr(&d, (size_t)lane, "data-thread"), threads[k]);
		cr_assert_eq(ht_count(&d, lane, "g", "ev"), per_thread[k],
			     "lane %s holds its own events", threads[k]);
	}
	cr_assert_eq(ht_count(&d, tl, "g", "failing"), 1);
	ev = ht_next(&d, tl, d.nodes[tl].last, "g", "failing");
	cr_assert_str_eq(ht_attr(&d, (size_t)ev, "data-index"), "32");
	cr_assert_eq(ht_count(&d, tl, "g", "failing-rule"), 1);
	cr_assert_eq(ht_count(&d, -1, "tr", "failing-step"), 1);
	cr_assert_gt(ops, 0);
	cr_assert_eq(ht_count(&d, tl, "g", "op"), ops, "writer operations are drawn");
	cr_assert_not_null(strstr(html, "no trace recorded for this failure"),
			   "the second failure has no trace and says so");
	free(v);
	free(html);
	ht_free(&d);
}

/*
 * fail_zoo.json's first failure with the kinds of some trace events
 * changed (edits: index, kind pairs), rendered; returns the data-index of
 * the decisive event named under its timeline (-1: none named) and checks
 * that the same event, and only it, is ringed in the timeline.
 */
static long decisive_after(const char *const *edits, size_t nedits, long *write)
{
	json_t *doc = json_load_file(fixture("fail_zoo.json"), 0, NULL);
	json_t *evs = json_object_get(json_object_get(json_array_get(json_object_get(
		json_array_get(json_object_get(doc, "scenarios"), 0), "failures"), 0),
		"trace"), "events");
	const char *dir = tmpdir(), *file = path_in(dir, "edited.json");
	const char *files[] = { file };
	struct ht_doc d;
	char *html;
	long p, tl, ring, idx = -1;

	cr_assert_not_null(evs);
	for (size_t k = 0; k + 1 < nedits; k += 2)
		json_object_set_new(json_array_get(evs, (size_t)atoi(edits[k])), "kind",
				    json_string(edits[k + 1]));
	cr_assert_eq(json_dump_file(doc, file, 0), 0);
	json_decref(doc);
	html = build(&d, dir, files, 1, NULL);
	tl = ht_by_id(&d, "tl-0-0");
	cr_assert_geq(tl, 0);
	p = ht_next(&d, -1, d.n, "p", "decisive");
	ring = ht_next(&d, tl, d.nodes[tl].last, "g", "decisive");
	*write = -1;
	if (p >= 0) {
		idx = atol(ht_attr(&d, (size_t)p, "data-index"));
		*write = atol(ht_attr(&d, (size_t)p, "data-write"));
		cr_assert_eq(ht_count(&d, -1, "p", "decisive"), 1,
			     "named once: one failure has a trace");
		cr_assert_geq(ring, 0, "the decisive event is ringed");
		cr_assert_eq(atol(ht_attr(&d, (size_t)ring, "data-index")), idx);
		cr_assert_eq(ht_count(&d, tl, "g", "decisive"), 1);
	} else {
		cr_assert_lt(ring, 0, "nothing ringed when nothing is named");
	}
	free(html);
	ht_free(&d);
	return idx;
}

Test(report, timeline_names_the_decisive_event)
{
	/*
	 * fail_zoo.json: the walker sampled mount_lock (#10, a seq read), then
	 * the umounter stored (#13) and wrote mount_lock (#14, #16) before the
	 * failing event #32: #10 is the read the race made stale.
	 */
	static const char *const load_after[] = { "11", "load" };
	static const char *const no_seq[] = { "2", "load", "10", "load", "11", "load" };
	static const char *const no_write[] = { "13", "load", "14", "load", "15", "load",
						"16", "load" };
	long write;

	cr_assert_eq(decisive_after(NULL, 0, &write), 10);
	cr_assert_eq(write, 13, "the first write after the read");
	/* a later plain load of the walker does not displace the seq read */
	cr_assert_eq(decisive_after(load_after, 2, &write), 10);
	/* with no seq read, the walker's last load before the write */
	cr_assert_eq(decisive_after(no_seq, 6, &write), 11);
	/* nobody wrote: nothing was made stale, nothing is named */
	cr_assert_eq(decisive_after(no_write, 8, &write), -1);
}

Test(report, replay_command_and_explanation_are_verbatim)
{
	/* The <code> of each failure decodes to exactly the replay string of the JSON. */
	const char *files[] = { fixture("fail_zoo.json"), };
	json_t *doc = json_load_file(files[0], 0, NULL);
	json_t *fls = json_object_get(json_array_get(json_object_get(doc, "scenarios"), 0),
				      "failures");
	struct ht_doc d;
	char *html = build(&d, tmpdir(), files, 1, NULL);

	for (size_t k = 0; k < json_array_size(fls); k++) {
		char id[32], *code;

		snprintf(id, sizeof(id), "r-0-%zu", k);
		code = text_of_id(&d, id);
		cr_assert_str_eq(code, json_string_value(json_object_get(
			json_array_get(fls, k), "replay")));
		free(code);
	}
	cr_assert_not_null(strstr(html, "REF-walk cannot reach this state"));
	json_decref(doc);
	free(html);
	ht_free(&d);
}

/* A copy of fail_zoo.json whose traced failure has n events from first_index. */
static const char *big_trace(const char *dir, long long n, long long first,
			     long long total, long long failing)
{
	json_t *doc = json_load_file(fixture("fail_zoo.json"), 0, NULL);
	json_t *fl = json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "scenarios"), 0), "failures"), 0);
	json_t *tr = json_object_get(fl, "trace"), *events = json_array();
	const char *out = path_in(dir, "big.json");

	for (long long i = 0; i < n; i++) {
		long long idx = first + i;

		json_array_append_new(events, json_pack("{s:I, s:I, s:s, s:s, s:s, s:o, s:o}",
			"t", (json_int_t)(idx * 3), "thread", (json_int_t)(idx % 3),
			"point", "d_seq.read", "kind", "seq.read", "site", "sim/seq.h:61",
			"op", idx % 97 ? json_null() : json_string("mv /a/b /a/c"),
			"step", idx == failing ? json_integer(4) : json_null()));
	}
	json_object_set_new(tr, "events", events);
	json_object_set_new(tr, "first_index", json_integer(first));
	json_object_set_new(tr, "total_events", json_integer(total));
	json_object_set_new(tr, "failing_event", json_integer(failing));
	cr_assert_eq(json_dump_file(doc, out, JSON_COMPACT), 0);
	json_decref(doc);
	return out;
}

static void check_window(const char *file, const char *cut, long long shown,
			 const char *failing, const struct wt_report_opts *o)
{
	const char *files[] = { file };
	struct ht_doc d;
	char *html = build(&d, tmpdir(), files, 1, o), *msg;
	long tl = ht_by_id(&d, "tl-0-0"), p, ev;
	char buf[32];

	cr_assert_geq(tl, 0);
	snprintf(buf, sizeof(buf), "%lld", shown);
	cr_assert_str_eq(ht_attr(&d, (size_t)tl, "data-events"), buf);
	cr_assert_eq(ht_count(&d, tl, "g", "ev"), (size_t)shown);
	p = ht_next(&d, -1, d.n - 1, "p", "cut");
	cr_assert_geq(p, 0, "a cut message is shown");
	msg = ht_text_of(&d, (size_t)p);
	cr_assert_str_eq(msg, cut);
	ev = ht_next(&d, tl, d.nodes[tl].last, "g", "failing");
	cr_assert_geq(ev, 0, "the failing event is inside the window");
	cr_assert_str_eq(ht_attr(&d, (size_t)ev, "data-index"), failing);
	free(msg);
	free(html);
	ht_free(&d);
}

Test(report, big_trace_is_windowed_around_the_failing_event)
{
	/*
	 * A 20000-event trace shows the 500 events around the failing one and
	 * says how many it cut; the cut counts against total_events, also when
	 * the file itself only holds an excerpt; --window changes the width.
	 */
	const char *dir = tmpdir();
	struct wt_report_opts narrow = { .window_events = 50 };

	check_window(big_trace(dir, 20000, 0, 20000, 15000),
		     "showing events 14750\u201315249 of 20000; 19500 not shown",
		     500, "15000", NULL);
	check_window(big_trace(dir, 500, 4900, 12000, 5150),
		     "showing events 4900\u20135399 of 12000; 11500 not shown",
		     500, "5150", NULL);
	/* Failing event near the start: the window is clamped, not centred. */
	check_window(big_trace(dir, 20000, 0, 20000, 10),
		     "showing events 0\u2013499 of 20000; 19500 not shown", 500, "10", NULL);
	check_window(big_trace(dir, 20000, 0, 20000, 15000),
		     "showing events 14975\u201315024 of 20000; 19950 not shown",
		     50, "15000", &narrow);
}

Test(report, big_trace_report_stays_small)
{
	/* Windowing bounds the page: 20000 events make a report under 400 kB. */
	const char *dir = tmpdir();
	const char *files[] = { big_trace(dir, 20000, 0, 20000, 15000) };
	char err[512];
	struct stat st;

	cr_assert_eq(wt_report_write(path_in(dir, "r.html"), files, 1, err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(stat(path_in(dir, "r.html"), &st), 0);
	cr_assert_lt(st.st_size, 400 * 1024, "report is %lld bytes", (long long)st.st_size);
}

/* Does any element carry an event-handler attribute (on...)? */
static int has_handler_attr(const struct ht_doc *d)
{
	for (size_t i = 0; i < d->n; i++)
		for (int k = 0; k < d->nodes[i].nattrs; k++)
			if (!strncmp(d->nodes[i].attrs[k].name, "on", 2))
				return 1;
	return 0;
}

Test(report, every_string_from_results_is_escaped)
{
	/*
	 * xss.json puts markup in the scenario name, suite, file, description,
	 * messages, thread and point names, sites, ops and the replay command:
	 * the page still parses strictly, has only our own <script>, no
	 * injected element or handler, and shows each string as text.
	 */
	const char *files[] = { fixture("xss.json") };
	json_t *doc = json_load_file(files[0], 0, NULL);
	json_t *fl = json_array_get(json_object_get(json_array_get(
		json_object_get(doc, "scenarios"), 0), "failures"), 0);
	struct ht_doc d;
	char *html = build(&d, tmpdir(), files, 1, NULL), *s;
	long sec = ht_by_id(&d, "s-0"), tl = ht_by_id(&d, "tl-0-0"), lane;

	cr_assert_eq(ht_count(&d, -1, "script", NULL), 1);
	s = ht_text_of(&d, (size_t)ht_next(&d, -1, d.n - 1, "script", NULL));
	cr_assert(!strncmp(s, "\ndocument.addEventListener('click'", 34), "only our script");
	free(s);
	cr_assert_eq(ht_count(&d, -1, "img", NULL), 0);
	for (long b = ht_next(&d, -1, d.n - 1, "b", NULL); b >= 0;
	     b = ht_next(&d, b, d.n - 1, "b", NULL)) {
		s = ht_text_of(&d, (size_t)b);
		cr_assert(strcmp(s, "resolve") && strcmp(s, "bold"), "injected <b>");
		free(s);
	}
	cr_assert_eq(ht_count(&d, -1, "svg", NULL), ht_count(&d, -1, "svg", "bars") +
		     ht_count(&d, -1, "svg", "timeline"), "no injected <svg>");
	cr_assert(!has_handler_attr(&d), "no on* attribute anywhere");
	cr_assert_null(strstr(html, "<script>alert"));
	cr_assert_null(strstr(html, "\x01"), "control characters are replaced");
	/* Shown as text: the heading, the lanes' names, the replay command. */
	s = ht_text_of(&d, (size_t)ht_next(&d, sec, d.nodes[sec].last, "h2", NULL));
	cr_assert_not_null(strstr(s, "<script>alert(1)</script>"), "heading: %s", s);
	cr_assert_not_null(strstr(s, "\"><img src=x onerror=alert(2)>"));
	free(s);
	lane = ht_next(&d, tl, d.nodes[tl].last, "g", "lane");
	cr_assert_str_eq(ht_attr(&d, (size_t)lane, "data-thread"), "<walker>");
	lane = ht_next(&d, lane, d.nodes[tl].last, "g", "lane");
	cr_assert_str_eq(ht_attr(&d, (size_t)lane, "data-thread"), "re\"namer");
	s = text_of_id(&d, "tl-0-0");
	cr_assert_not_null(strstr(s, "core/namei.c:1\"><script>alert(5)</script>"),
			   "sites shown in <title> as text");
	cr_assert_not_null(strstr(s, "\"><svg onload=alert(4)>"));
	free(s);
	s = text_of_id(&d, "r-0-0");
	cr_assert_str_eq(s, json_string_value(json_object_get(fl, "replay")));
	free(s);
	json_decref(doc);
	free(html);
	ht_free(&d);
}

Test(report, several_files_make_one_report_with_their_runs)
{
	/* Two shards: one report, a runs table of two, counts summed per scenario. */
	const char *files[] = { fixture("shard1.json"), fixture("shard2.json") };
	struct ht_doc d;
	char *html = build(&d, tmpdir(), files, 2, NULL), *v = text_of_id(&d, "verdict");

	cr_assert_str_eq(v, "FAIL");
	cr_assert_not_null(strstr(html, "merged from 2 runs"));
	cr_assert_eq(ht_count(&d, -1, "section", "scn"), 3);
	cr_assert_not_null(strstr(html, "<td class=\"n\">10,000</td>"),
			   "step_into.child_seq: 5000 + 5000 iterations");
	free(v);
	free(html);
	ht_free(&d);
}

static void refused(const char *name, const char *expect)
{
	const char *dir = tmpdir(), *out = path_in(dir, "report.html");
	const char *files[] = { fixture("pass.json"), fixture(name) };
	char err[1024], *after;
	FILE *f = fopen(out, "w");

	fputs("previous report", f);
	fclose(f);
	cr_assert_eq(wt_report_write(out, files, 2, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, expect), "%s: error was: %s", name, err);
	cr_assert(!strncmp(err, fixture(name), strlen(fixture(name))),
		  "the error starts with the file name: %s", err);
	after = slurp(out);
	cr_assert_str_eq(after, "previous report", "a failed report leaves the old file");
	free(after);
}

Test(report, malformed_input_is_refused_with_file_and_position)
{
	/* Each bad fixture is refused with a message naming the file and the place. */
	refused("bad_syntax.json", "bad_syntax.json:4:7: ");
	refused("bad_schema.json", ": schema is \"walktorture-result\", not \"walktorture-results\"");
	refused("bad_version.json", ": schema_version 2 is not supported");
	refused("bad_type.json", ": scenarios[3].paths[\"restart.step_into.child_seq\"]: "
		"expected a non-negative integer, got a string");
	refused("bad_thread.json", ": scenarios[0].failures[0].trace.events[5]: "
		"thread 3 is not a thread index (3 threads)");
	refused("does_not_exist.json", "does_not_exist.json: ");
}

Test(report, validation_catches_contradictions)
{
	/* A PASS scenario with failures, or a summary that disagrees, is malformed. */
	json_t *doc = json_load_file(fixture("fail_zoo.json"), 0, NULL);
	json_t *sc = json_array_get(json_object_get(doc, "scenarios"), 0);
	char err[512];

	cr_assert_eq(wt_results_validate("x.json", doc, err, sizeof(err)), 0, "%s", err);
	json_object_set_new(sc, "verdict", json_string("PASS"));
	cr_assert_eq(wt_results_validate("x.json", doc, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "x.json: scenarios[0]: verdict PASS with 2 failures");
	json_object_set_new(sc, "verdict", json_string("FAIL"));
	json_object_set_new(json_object_get(doc, "summary"), "failed", json_integer(0));
	cr_assert_eq(wt_results_validate("x.json", doc, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "summary: says 2 passed, 0 failed"), "%s", err);
	json_decref(doc);
}

Test(report, cli_exit_status_and_messages)
{
	/* walktorture report: 0 when written, 2 with file:line:col on bad JSON or bad usage. */
	const char *dir = tmpdir(), *errf = path_in(dir, "stderr"), *out = path_in(dir, "r.html");
	char *ok[] = { "walktorture", "report", (char *)fixture("fail_zoo.json"), "-o",
		       (char *)out, NULL };
	char *bad[] = { "walktorture", "report", (char *)fixture("bad_syntax.json"), "-o",
			(char *)out, NULL };
	char *no_out[] = { "walktorture", "report", (char *)fixture("pass.json"), NULL };
	char *bad_opt[] = { "walktorture", "report", "--window", "zero", "-o", (char *)out,
			    (char *)fixture("pass.json"), NULL };
	char *msg;

	cr_assert_eq(run_cli(errf, ok), 0);
	cr_assert(file_exists(out));
	cr_assert_eq(run_cli(errf, bad), 2);
	msg = slurp(errf);
	cr_assert_not_null(strstr(msg, "bad_syntax.json:4:7: "), "stderr: %s", msg);
	free(msg);
	cr_assert_eq(run_cli(errf, no_out), 2);
	cr_assert_eq(run_cli(errf, bad_opt), 2);
}


/* One spoilt field of twin.json's scenarios[1] (step_into.child_seq.undirected). */
struct twin_spoil {
	int target;		/* index in twin.targets; TWIN: the twin; SCN: the scenario */
	const char *key;
	const char *value;	/* JSON text; NULL deletes the key */
	const char *error;	/* the whole message, after "x.json: scenarios[1]" */
};

enum { TWIN = -1, SCN = -2 };

static const struct twin_spoil twin_spoils[] = {
	{ 0, "iterations", "201", ".twin.targets[0]: iterations 201 exceed the "
	  "scenario's iterations 200" },
	{ SCN, "iterations", "34", ".twin.targets[0]: iterations 35 exceed the "
	  "scenario's iterations 34" },
	{ 0, "count", "\"37\"", ".twin.targets[0].count: expected a non-negative "
	  "integer, got a string" },
	{ TWIN, "of", NULL, ".twin: missing field \"of\"" },
	{ TWIN, "of", "1", ".twin.of: expected a string, got a non-negative integer" },
	{ TWIN, "pct_steps", NULL, ".twin: missing field \"pct_steps\"" },
	{ TWIN, "pct_steps", "-1", ".twin.pct_steps: expected a non-negative integer, got -1" },
	{ TWIN, "pct_steps", "4.5", ".twin.pct_steps: expected a non-negative integer, got a number" },
	{ TWIN, "targets", NULL, ".twin: missing field \"targets\"" },
	{ TWIN, "targets", "{}", ".twin.targets: expected an array, got an object" },
	{ TWIN, "targets", "[\"restart.step_into.child_seq\"]",
	  ".twin.targets[0]: expected an object, got a string" },
	{ 0, "path", NULL, ".twin.targets[0]: missing field \"path\"" },
	{ 0, "iterations", "-3", ".twin.targets[0].iterations: expected a non-negative "
	  "integer, got -3" },
	{ 0, "first_iteration", NULL, ".twin.targets[0]: missing field \"first_iteration\"" },
	{ 0, "first_iteration", "\"4\"", ".twin.targets[0].first_iteration: expected a "
	  "non-negative integer, got a string" },
	{ 0, "first_iteration", "null", ".twin.targets[0]: first_iteration is null but "
	  "iterations is 35" },
	{ 1, "first_iteration", "0", ".twin.targets[1]: first_iteration is set but "
	  "iterations is 0" },
	{ 0, "first_iteration", "200", ".twin.targets[0]: first_iteration 200 is not an "
	  "iteration index (200 iterations)" },
	{ 0, "count", "34", ".twin.targets[0]: iterations 35 exceed count 34 (each of "
	  "them counted the path at least once)" },
	{ 1, "path", "\"restart.step_into.child_seq\"", ".twin.targets[1]: path "
	  "\"restart.step_into.child_seq\" repeats targets[0]" },
	{ SCN, "twin", "[]", ".twin: expected an object, got an array" },
	{ SCN, "twin", "null", ".twin: expected an object, got null" },
};

/* The object a spoil changes, in doc (a copy of twin.json). */
static json_t *spoil_target(json_t *doc, int target)
{
	json_t *sc = json_array_get(json_object_get(doc, "scenarios"), 1);
	json_t *twin = json_object_get(sc, "twin");

	if (target == SCN)
		return sc;
	if (target == TWIN)
		return twin;
	return json_array_get(json_object_get(twin, "targets"), (size_t)target);
}

Test(report, twin_validation_names_each_bad_shape)
{
	/*
	 * twin.json is valid as it is (a seen target, never-seen ones with a
	 * null first_iteration, a twin without targets); each spoilt copy
	 * (twin_spoils) is refused with exactly its one line, naming the
	 * place.  A spoil that validation missed fails on "accepted".
	 */
	json_t *good = json_load_file(fixture("twin.json"), 0, NULL);
	char err[512], expect[512];

	cr_assert_not_null(good);
	cr_assert_eq(wt_results_validate("x.json", good, err, sizeof(err)), 0, "%s", err);
	for (size_t i = 0; i < sizeof(twin_spoils) / sizeof(twin_spoils[0]); i++) {
		const struct twin_spoil *s = &twin_spoils[i];
		json_t *doc = json_deep_copy(good);
		json_t *obj = spoil_target(doc, s->target);

		cr_assert_not_null(obj);
		if (s->value)
			json_object_set_new(obj, s->key, json_loads(s->value,
								    JSON_DECODE_ANY, NULL));
		else
			cr_assert_eq(json_object_del(obj, s->key), 0, "no %s to delete", s->key);
		snprintf(expect, sizeof(expect), "x.json: scenarios[1]%s", s->error);
		cr_assert_eq(wt_results_validate("x.json", doc, err, sizeof(err)), -1,
			     "spoil %zu accepted; expected: %s", i, expect);
		cr_assert_str_eq(err, expect, "spoil %zu", i);
		json_decref(doc);
	}
	json_decref(good);
}

/* Write doc as dir/NAME, return the path. */
static const char *write_doc(json_t *doc, const char *dir, const char *name)
{
	const char *out = path_in(dir, name);

	cr_assert_eq(json_dump_file(doc, out, JSON_INDENT(1)), 0);
	return out;
}

/* The text of the k-th (0-based) <td> of row tr; caller frees. */
static char *cell(struct ht_doc *d, long tr, int k)
{
	long td = tr;

	for (int i = 0; i <= k; i++) {
		td = ht_next(d, td, d->nodes[tr].last, "td", NULL);
		cr_assert_geq(td, 0, "row has no cell %d", k);
	}
	return ht_text_of(d, (size_t)td);
}

static void cell_is(struct ht_doc *d, long tr, int k, const char *expect)
{
	char *s = cell(d, tr, k);

	cr_assert_str_eq(s, expect, "cell %d", k);
	free(s);
}

static void summary_is(struct ht_doc *d, const char *expect)
{
	char *s = text_of_id(d, "twins-summary");

	cr_assert_str_eq(s, expect);
	free(s);
}

Test(report, twins_section_counts_forced_paths_and_marks_the_unseen)
{
	/*
	 * twin.json has three twins: step_into's saw restart.step_into.child_seq
	 * (35 of 200 iterations, first at 4) but not restart.legitimize.next.seq;
	 * lookup_fast's saw neither of its two, one of them child_seq again;
	 * quiet.siblings' has no target.  Three distinct paths, one seen in
	 * some twin: "1 of 3".  The section sits between the scenario table
	 * and the first scenario; its rows come in file order, the three
	 * never-seen ones marked and saying "not seen".
	 */
	const char *files[] = { fixture("twin.json") };
	struct ht_doc d;
	char *html = build(&d, tmpdir(), files, 1, NULL), *s;
	long h2 = ht_by_id(&d, "twins"), table, tr;
	static const char *const paths[] = {
		"restart.step_into.child_seq", "restart.legitimize.next.seq",
		"restart.lookup_fast.parent_seq", "restart.step_into.child_seq" };

	cr_assert_geq(h2, 0, "no twins section");
	s = ht_text_of(&d, (size_t)h2);
	cr_assert_str_eq(s, "Undirected twins");
	free(s);
	cr_assert_lt(ht_next(&d, -1, d.n - 1, "table", "overview"), h2);
	cr_assert_lt(h2, ht_next(&d, -1, d.n - 1, "section", "scn"));
	summary_is(&d, "1 of 3 forced paths happened without a schedule");
	table = ht_next(&d, h2, d.n - 1, "table", "twins");
	cr_assert_geq(table, 0);
	cr_assert_eq(ht_count(&d, table, "tr", "unseen"), 3);
	cr_assert_eq(ht_count(&d, table, "tr", "seen"), 1);
	cr_assert_eq(ht_count(&d, -1, "tr", "unseen"), 3, "only twin rows are marked");
	tr = ht_next(&d, table, d.nodes[table].last, "tr", "seen");
	cell_is(&d, tr, 0, "echild/step_into.child_seq");
	cell_is(&d, tr, 1, "restart.step_into.child_seq");
	cell_is(&d, tr, 2, "35 / 200");
	cell_is(&d, tr, 3, "17.5%");
	cell_is(&d, tr, 4, "37");
	cell_is(&d, tr, 5, "4");
	tr = ht_next(&d, table, d.nodes[table].last, "tr", NULL);	/* the header */
	for (int k = 0; k < 4; k++) {
		tr = ht_next(&d, tr, d.nodes[table].last, "tr", NULL);
		cr_assert_geq(tr, 0, "row %d missing", k);
		cr_assert(ht_is(&d, (size_t)tr, "tr", k ? "unseen" : "seen"), "row %d", k);
		cell_is(&d, tr, 1, paths[k]);
		if (!k)
			continue;
		cell_is(&d, tr, 2, "0 / 200");
		cell_is(&d, tr, 3, "0.0%");
		cell_is(&d, tr, 5, "not seen");
	}
	cr_assert_lt(ht_next(&d, tr, d.nodes[table].last, "tr", NULL), 0,
		     "one row per (twin, target), no more");
	free(html);
	ht_free(&d);
}

Test(report, twins_summary_follows_the_targets_and_names_are_escaped)
{
	/*
	 * The same file with lookup_fast's parent_seq seen (2 of 200, first at
	 * 10) says "2 of 3", that row unmarked; with markup in a twin's of
	 * and a target's path the page still parses, shows both as text and
	 * gains no element.  A twin without targets alone: "0 of 0", no table.
	 */
	const char *dir = tmpdir();
	json_t *doc = json_load_file(fixture("twin.json"), 0, NULL), *scs, *t;
	const char *files[1];
	struct ht_doc d;
	long table, tr;
	char *html;

	scs = json_object_get(doc, "scenarios");
	t = json_array_get(json_object_get(json_object_get(json_array_get(scs, 2), "twin"),
					   "targets"), 0);
	json_object_set_new(t, "count", json_integer(3));
	json_object_set_new(t, "iterations", json_integer(2));
	json_object_set_new(t, "first_iteration", json_integer(10));
	json_object_set_new(json_object_get(json_array_get(scs, 1), "twin"), "of",
			    json_string("<b>bold</b>"));
	t = json_array_get(json_object_get(json_object_get(json_array_get(scs, 1), "twin"),
					   "targets"), 1);
	json_object_set_new(t, "path", json_string("x\"><img src=y>"));
	files[0] = write_doc(doc, dir, "twin2.json");
	html = build(&d, dir, files, 1, NULL);
	summary_is(&d, "2 of 3 forced paths happened without a schedule");
	table = ht_next(&d, -1, d.n - 1, "table", "twins");
	cr_assert_eq(ht_count(&d, table, "tr", "unseen"), 2);
	tr = ht_next(&d, table, d.nodes[table].last, "tr", "seen");
	cell_is(&d, tr, 0, "echild/<b>bold</b>");
	tr = ht_next(&d, tr, d.nodes[table].last, "tr", NULL);
	cell_is(&d, tr, 1, "x\"><img src=y>");
	tr = ht_next(&d, tr, d.nodes[table].last, "tr", NULL);
	cr_assert(ht_is(&d, (size_t)tr, "tr", "seen"));
	cell_is(&d, tr, 2, "2 / 200");
	cell_is(&d, tr, 3, "1.0%");
	cell_is(&d, tr, 5, "10");
	cr_assert_eq(ht_count(&d, -1, "img", NULL), 0);
	cr_assert_eq(ht_count(&d, table, "b", NULL), 0);
	free(html);
	ht_free(&d);

	/* Only the target-less twin (and its summary) left. */
	json_array_remove(scs, 2);
	json_array_remove(scs, 1);
	json_object_set_new(json_object_get(doc, "summary"), "passed", json_integer(2));
	files[0] = write_doc(doc, dir, "twin3.json");
	html = build(&d, dir, files, 1, NULL);
	summary_is(&d, "0 of 0 forced paths happened without a schedule");
	cr_assert_eq(ht_count(&d, -1, "table", "twins"), 0);
	free(html);
	ht_free(&d);
	json_decref(doc);
}

Test(report, no_twin_no_twins_section)
{
	/* Files without a twin (a passing run, a failing one, two shards) have no such section. */
	const char *const sets[][2] = {
		{ "pass.json", NULL }, { "fail_zoo.json", NULL }, { "shard1.json", "shard2.json" } };

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		const char *files[2] = { fixture(sets[i][0]),
					 sets[i][1] ? fixture(sets[i][1]) : NULL };
		struct ht_doc d;
		char *html = build(&d, tmpdir(), files, sets[i][1] ? 2 : 1, NULL);

		cr_assert_eq(ht_by_id(&d, "twins"), -1, "%s", sets[i][0]);
		cr_assert_eq(ht_by_id(&d, "twins-summary"), -1);
		cr_assert_eq(ht_count(&d, -1, "table", "twins"), 0);
		cr_assert_null(strstr(html, "Undirected twins"));
		cr_assert_null(strstr(html, "forced paths"));
		free(html);
		ht_free(&d);
	}
}

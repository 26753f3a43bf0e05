/* SPDX-License-Identifier: MIT */
/*
 * The nightly index and its history database: two recorded nights give
 * two-point trends and relative links to existing reports; a night whose
 * recording fails halfway (an injected error after some rows, or the
 * process killed inside the transaction) leaves the earlier history and
 * the index exactly as they were; bad input records nothing.
 */
#include <signal.h>

#include <criterion/criterion.h>
#include <sqlite3.h>

#include "reports/history.h"
#include "reports/reports.h"
#include "tests/test_report_html.h"
#include "tests/test_report_util.h"

static void night(const char *out, const char *id, const char *const *files, unsigned n)
{
	char err[1024];

	cr_assert_eq(wt_nightly_index(out, NULL, id, files, n, err, sizeof(err)), 0,
		     "%s", err);
}

/* A single integer from SQL on OUT/history.sqlite. */
static long long sql_int(const char *out, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v;

	cr_assert_eq(sqlite3_open_v2(path_in(out, "history.sqlite"), &db,
				     SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK,
		     "%s", sqlite3_errmsg(db));
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void two_nights(const char *out)
{
	const char *n1[] = { fixture("pass.json") };
	const char *n2[] = { fixture("fail_zoo.json"), fixture("pass.json") };

	night(out, "n1", n1, 1);
	night(out, "n2", n2, 2);
}

/* The scenario row of the index for name (a <tr> whose 2nd cell is the name). */
static long row_of(struct ht_doc *d, const char *name)
{
	for (long tr = ht_next(d, -1, d->n - 1, "tr", NULL); tr >= 0;
	     tr = ht_next(d, tr, d->n - 1, "tr", NULL)) {
		long td = ht_next(d, ht_next(d, tr, d->nodes[tr].last, "td", NULL),
				  d->nodes[tr].last, "td", "m");
		char *s;
		int hit;

		if (td < 0 || d->nodes[td].parent != tr)
			continue;
		s = ht_text_of(d, (size_t)td);
		hit = !strcmp(s, name);
		free(s);
		if (hit && ht_count(d, tr, "svg", "spark"))
			return tr;
	}
	cr_assert_fail("no index row for %s", name);
	return -1;
}

static const char *spark_points(struct ht_doc *d, long row, int which)
{
	long sp = row;

	for (int k = 0; k <= which; k++)
		sp = ht_next(d, sp, d->nodes[row].last, "svg", "spark");
	cr_assert_geq(sp, 0);
	return ht_attr(d, (size_t)sp, "data-points");
}

/* The colour of a row's sparkline (the dot on its last point). */
static const char *spark_colour(struct ht_doc *d, long row, int which)
{
	long sp = row, dot;

	for (int k = 0; k <= which; k++)
		sp = ht_next(d, sp, d->nodes[row].last, "svg", "spark");
	cr_assert_geq(sp, 0);
	dot = ht_next(d, sp, d->nodes[sp].last, "circle", NULL);
	cr_assert_geq(dot, 0);
	return ht_attr(d, (size_t)dot, "fill");
}

TestSuite(index, .fini = tmpdirs_remove);

Test(index, two_nights_give_two_point_trends_and_report_links)
{
	/*
	 * Night n1 (pass.json), then n2 (fail_zoo.json + pass.json): the
	 * database holds both nights with one row per (night, scenario); the
	 * index shows the latest verdict, a scenario present both nights has
	 * sparklines of 2 points (one for a scenario new in n2), grey for
	 * failures when there were none, red when there were, and the failing
	 * scenario links to its report under n2/, which exists.
	 */
	const char *out = tmpdir();
	struct ht_doc d;
	char *html, *v;
	long row, a;

	two_nights(out);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights"), 2);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE night_id = 'n1'"), 5);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE night_id = 'n2'"), 7);
	cr_assert_eq(sql_int(out, "SELECT failures FROM results WHERE night_id = 'n2' "
			     "AND scenario = 'legitimize_mnt.sync_umount_steal'"), 2);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights WHERE night_id = 'n2' "
			     "AND verdict = 'FAIL'"), 1);
	html = slurp(path_in(out, "index.html"));
	cr_assert_eq(ht_parse(&d, html), 0, "index does not parse: %s", d.err);
	v = ht_text_of(&d, (size_t)ht_by_id(&d, "verdict"));
	cr_assert_str_eq(v, "FAIL");
	row = row_of(&d, "step_into.child_seq");
	cr_assert_str_eq(spark_points(&d, row, 1), "2", "failures trend over 2 nights");
	cr_assert_str_eq(spark_points(&d, row, 2), "2", "key path trend over 2 nights");
	cr_assert_str_eq(spark_colour(&d, row, 1), "#8c959f", "no failures: a grey line");
	row = row_of(&d, "legitimize_mnt.sync_umount_steal");
	cr_assert_str_eq(spark_points(&d, row, 1), "1", "new in n2: one point");
	cr_assert_str_eq(spark_colour(&d, row, 1), "#cf222e", "failures: a red line");
	a = ht_next(&d, row, d.nodes[row].last, "a", "bad");
	cr_assert_geq(a, 0, "a failing scenario links to its report");
	cr_assert_str_eq(ht_attr(&d, (size_t)a, "href"), "n2/fail_zoo.html#s-0");
	cr_assert(file_exists(path_in(out, "n2/fail_zoo.html")));
	cr_assert(file_exists(path_in(out, "n1/pass.html")));
	cr_assert_not_null(strstr(html, "Failing tonight (1)"));
	free(v);
	free(html);
	ht_free(&d);
}

/* The fault hook: fail before row *(size_t *)arg. */
static int fail_at_row(void *arg, size_t row)
{
	return row == *(const size_t *)arg;
}

Test(index, an_error_halfway_through_a_night_keeps_the_history)
{
	/*
	 * Recording n2 fails before its third row (after the night row and two
	 * result rows went in): the call fails, the database still holds only
	 * n1 with its 5 rows, and index.html is byte-for-byte n1's.
	 */
	const char *out = tmpdir();
	const char *n1[] = { fixture("pass.json") };
	const char *n2[] = { fixture("fail_zoo.json") };
	char err[1024], *before, *after;
	size_t row = 2;

	night(out, "n1", n1, 1);
	before = slurp(path_in(out, "index.html"));
	wt_history_set_fault(fail_at_row, &row);
	cr_assert_eq(wt_nightly_index(out, NULL, "n2", n2, 1, err, sizeof(err)), -1);
	wt_history_set_fault(NULL, NULL);
	cr_assert_not_null(strstr(err, "injected fault before row 2"), "%s", err);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights"), 1);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results"), 5);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE night_id = 'n2'"), 0);
	after = slurp(path_in(out, "index.html"));
	cr_assert_str_eq(after, before);
	free(before);
	free(after);
}

Test(index, a_failed_rerecording_keeps_the_old_night)
{
	/* Recording n2 again replaces it in one transaction: if that fails, the old n2 stays. */
	const char *out = tmpdir();
	const char *other[] = { fixture("shard1.json") };
	char err[1024];
	size_t row = 1;

	two_nights(out);
	wt_history_set_fault(fail_at_row, &row);
	cr_assert_eq(wt_nightly_index(out, NULL, "n2", other, 1, err, sizeof(err)), -1);
	wt_history_set_fault(NULL, NULL);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE night_id = 'n2'"), 7);
	/* And a successful re-recording does replace it. */
	night(out, "n2", other, 1);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE night_id = 'n2'"), 2);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights"), 2);
}

static int kill_at_row_3(void *arg, size_t row)
{
	(void)arg;
	if (row == 3)
		raise(SIGKILL);
	return 0;
}

Test(index, a_crash_inside_the_transaction_keeps_the_history)
{
	/*
	 * A child process records n2 and is SIGKILLed inside the transaction,
	 * after three rows: the next open rolls the hot journal back, the
	 * database passes integrity_check and holds n1 only, and n2 can then be
	 * recorded normally.
	 */
	const char *out = tmpdir();
	const char *n1[] = { fixture("pass.json") };
	const char *n2[] = { fixture("fail_zoo.json"), fixture("pass.json") };
	char err[1024];
	int status;
	pid_t pid;

	night(out, "n1", n1, 1);
	pid = fork();
	if (pid == 0) {
		/*
		 * No cr_* call in the child: with --full-stats Criterion
		 * reports passing assertions too, and a message from a
		 * process it did not start wedges its runner.
		 */
		wt_history_set_fault(kill_at_row_3, NULL);
		wt_nightly_index(out, NULL, "n2", n2, 2, err, sizeof(err));
		_exit(0);
	}
	cr_assert_geq(pid, 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "the child died inside the transaction");
	cr_assert(file_exists(path_in(out, "history.sqlite-journal")),
		  "the crash left a hot journal behind");
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE night_id = 'n2'"), 0);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights"), 1);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results"), 5);
	night(out, "n2", n2, 2);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE night_id = 'n2'"), 7);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM pragma_integrity_check "
			     "WHERE integrity_check = 'ok'"), 1);
}

Test(index, bad_input_records_nothing)
{
	/* A malformed file in the night: refused by name, no row, no report directory. */
	const char *out = tmpdir();
	const char *n1[] = { fixture("pass.json") };
	const char *bad[] = { fixture("pass.json"), fixture("bad_thread.json") };
	char err[1024];

	night(out, "n1", n1, 1);
	cr_assert_eq(wt_nightly_index(out, NULL, "n2", bad, 2, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "bad_thread.json: scenarios[0]"), "%s", err);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights"), 1);
	cr_assert(!file_exists(path_in(out, "n2")));
	cr_assert_eq(wt_nightly_index(out, NULL, "../escape", n1, 1, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "night id '../escape'"), "%s", err);
}

Test(index, names_with_markup_are_escaped_and_links_encoded)
{
	/*
	 * xss.json copied to a file named <script>"x".json: its report is
	 * n1/<script>"x".html on disk, the index links to it percent-encoded,
	 * and the index parses with no script but its own.
	 */
	const char *out = tmpdir(), *src = path_in(tmpdir(), "<script>\"x\".json");
	char *json = slurp(fixture("xss.json")), *html;
	const char *files[] = { src };
	struct ht_doc d;
	FILE *f = fopen(src, "w");
	long a;

	fputs(json, f);
	fclose(f);
	night(out, "n1", files, 1);
	cr_assert(file_exists(path_in(out, "n1/<script>\"x\".html")));
	html = slurp(path_in(out, "index.html"));
	cr_assert_eq(ht_parse(&d, html), 0, "index does not parse: %s", d.err);
	cr_assert_eq(ht_count(&d, -1, "script", NULL), 1);
	cr_assert_null(strstr(html, "<script>alert"));
	a = ht_next(&d, row_of(&d, "<script>alert(1)</script>"), d.n - 1, "a", "bad");
	cr_assert_str_eq(ht_attr(&d, (size_t)a, "href"), "n1/%3Cscript%3E%22x%22.html#s-0");
	free(json);
	free(html);
	ht_free(&d);
}

Test(index, night_id_defaults_to_the_start_time)
{
	/* Without --night the id is the earliest start, without colons. */
	const char *out = tmpdir();
	const char *n[] = { fixture("shard1.json"), fixture("shard2.json") };
	char err[1024];

	cr_assert_eq(wt_nightly_index(out, NULL, NULL, n, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights "
			     "WHERE night_id = '2026-12-06T020001Z'"), 1);
	cr_assert(file_exists(path_in(out, "2026-12-06T020001Z/shard1.html")));
}

Test(index, cli_records_and_rerenders)
{
	/* walktorture index: exit 0 recording a night, 0 re-rendering, 2 on bad input. */
	const char *out = tmpdir(), *errf = path_in(tmpdir(), "err");
	char *rec[] = { "walktorture", "index", "--out", (char *)out, "--night", "n1",
			(char *)fixture("pass.json"), NULL };
	char *rerender[] = { "walktorture", "index", "--out", (char *)out, NULL };
	char *bad[] = { "walktorture", "index", "--out", (char *)out, "--night", "n2",
			(char *)fixture("bad_syntax.json"), NULL };
	char *msg;

	cr_assert_eq(run_cli(errf, rec), 0);
	cr_assert(file_exists(path_in(out, "index.html")));
	unlink(path_in(out, "index.html"));
	cr_assert_eq(run_cli(errf, rerender), 0);
	cr_assert(file_exists(path_in(out, "index.html")));
	cr_assert_eq(run_cli(errf, bad), 2);
	msg = slurp(errf);
	cr_assert_not_null(strstr(msg, "bad_syntax.json:4:7: "), "%s", msg);
	free(msg);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights"), 1);
}

Test(index, a_twins_key_path_is_its_first_target)
{
	/* A twin has only `oracle clean': its trend is the path its directed
	 * file forces, not its most frequent path. */
	const char *out = tmpdir();
	const char *n[] = { fixture("twin.json") };

	night(out, "t1", n, 1);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE "
			     "scenario = 'step_into.child_seq.undirected' AND "
			     "key_path = 'restart.step_into.child_seq'"), 1);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM results WHERE "
			     "scenario = 'lookup_fast.parent_seq.undirected' AND "
			     "key_path = 'restart.lookup_fast.parent_seq'"), 1);
}

Test(index, every_runs_report_is_linked)
{
	/* Two runs of the same scenarios (nightly --seeds 2): each scenario
	 * row links one run's report; the night links both. */
	const char *out = tmpdir();
	const char *n[] = { fixture("pass.json"), fixture("pass.json") };
	char *html;

	night(out, "s2", n, 2);
	cr_assert(file_exists(path_in(out, "s2/pass.html")));
	cr_assert(file_exists(path_in(out, "s2/pass-2.html")));
	html = slurp(path_in(out, "index.html"));
	cr_assert(html);
	cr_expect(strstr(html, "href=\"s2/pass.html\""), "seed 1's report");
	cr_expect(strstr(html, "href=\"s2/pass-2.html\""), "seed 2's report");
	free(html);
}

/*
 * Tonight's failure groups, parsed from a page: the rows of table
 * `cls' (header row excluded), how many carry a NEW badge, and the
 * signature cell (td.sig, without the badge) of the NEW ones joined by
 * '|' into `fresh_sigs'.
 */
static size_t group_rows(const char *html, const char *cls, size_t *fresh,
			 char *fresh_sigs, size_t len)
{
	struct ht_doc d;
	long table, tr;
	size_t rows = 0;

	cr_assert_eq(ht_parse(&d, html), 0, "page does not parse: %s", d.err);
	table = ht_next(&d, -1, d.n - 1, "table", cls);
	cr_assert_geq(table, 0, "no table.%s", cls);
	*fresh = 0;
	fresh_sigs[0] = 0;
	for (tr = ht_next(&d, table, d.nodes[table].last, "tr", NULL); tr >= 0;
	     tr = ht_next(&d, tr, d.nodes[table].last, "tr", NULL)) {
		long sig = ht_next(&d, tr, d.nodes[tr].last, "td", "sig");
		char *text;

		if (sig < 0)
			continue;	/* the header */
		rows++;
		if (!ht_count(&d, sig, "span", "NEW"))
			continue;
		(*fresh)++;
		text = ht_text_of(&d, (size_t)sig);
		cr_assert(!strncmp(text, "NEW ", 4), "%s", text);
		snprintf(fresh_sigs + strlen(fresh_sigs), len - strlen(fresh_sigs),
			 "%s%s", fresh_sigs[0] ? "|" : "", text + 4);
		free(text);
	}
	ht_free(&d);
	return rows;
}

/* fail_zoo.json with its first failure's check renamed: a new signature
 * ("check refcount") beside one seen before ("expectation"). */
static const char *renamed_check(void)
{
	const char *path = path_in(tmpdir(), "fail_zoo.json");
	char *json = slurp(fixture("fail_zoo.json")), *at;
	FILE *f = fopen(path, "w");

	at = strstr(json, "\"check\": \"sync_umount\"");
	cr_assert(at, "fail_zoo.json's first failure is a sync_umount check");
	cr_assert(f);
	fprintf(f, "%.*s\"check\": \"refcount\"%s", (int)(at - json), json,
		at + strlen("\"check\": \"sync_umount\""));
	fclose(f);
	free(json);
	return path;
}

Test(index, failure_groups_never_seen_before_are_marked_new)
{
	/*
	 * n1 passes; n2 fails with two groups (a sync_umount check and an
	 * expectation), neither seen before: both NEW in the index and in
	 * n2's report.  n3 fails the same way: nothing NEW, first seen n2.
	 * n4 has the check renamed (refcount): that group alone is NEW, in
	 * the index and its report.  The history holds each night's groups.
	 */
	const char *out = tmpdir();
	const char *n1[] = { fixture("pass.json") };
	const char *n2[] = { fixture("fail_zoo.json") };
	const char *n4[] = { renamed_check() };
	char sigs[512], *html;
	size_t fresh;

	night(out, "n1", n1, 1);
	night(out, "n2", n2, 1);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM signatures WHERE "
			     "night_id = 'n2'"), 2);
	html = slurp(path_in(out, "index.html"));
	cr_expect_eq(group_rows(html, "sigs", &fresh, sigs, sizeof(sigs)), 2);
	cr_expect_eq(fresh, 2, "n2: %s", sigs);
	cr_expect_not_null(strstr(html, "Failure signatures tonight (2, 2 new)"));
	free(html);
	html = slurp(path_in(out, "n2/fail_zoo.html"));
	cr_expect_eq(group_rows(html, "groups", &fresh, sigs, sizeof(sigs)), 2);
	cr_expect_eq(fresh, 2, "n2's report: %s", sigs);
	free(html);

	night(out, "n3", n2, 1);
	html = slurp(path_in(out, "index.html"));
	cr_expect_eq(group_rows(html, "sigs", &fresh, sigs, sizeof(sigs)), 2);
	cr_expect_eq(fresh, 0, "n3: %s", sigs);
	cr_expect_not_null(strstr(html, "<td class=\"m\">n2</td>"),
			   "first seen: n2");
	free(html);
	html = slurp(path_in(out, "n3/fail_zoo.html"));
	group_rows(html, "groups", &fresh, sigs, sizeof(sigs));
	cr_expect_eq(fresh, 0, "n3's report: %s", sigs);
	free(html);

	night(out, "n4", n4, 1);
	html = slurp(path_in(out, "index.html"));
	cr_expect_eq(group_rows(html, "sigs", &fresh, sigs, sizeof(sigs)), 2);
	cr_expect_eq(fresh, 1);
	cr_expect_str_eq(sigs, "check refcount");
	free(html);
	html = slurp(path_in(out, "n4/fail_zoo.html"));
	group_rows(html, "groups", &fresh, sigs, sizeof(sigs));
	cr_expect_eq(fresh, 1);
	cr_expect_str_eq(sigs, "check refcount");
	free(html);
}

Test(index, the_night_seed_is_recorded_and_shown)
{
	/* nightly passes the seed its runs' seeds were derived from: the
	 * history and the index's heading show it, not a run's seed. */
	const char *out = tmpdir();
	struct wt_night_run runs[] = { { .results = fixture("pass.json") } };
	char err[1024], *html;
	struct ht_doc d;
	long sub;
	char *text;

	cr_assert_eq(wt_nightly_index_runs(out, NULL, "n1", "0x5eed", runs, 1,
					   err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(sql_int(out, "SELECT count(*) FROM nights WHERE "
			     "seed = '0x5eed'"), 1);
	html = slurp(path_in(out, "index.html"));
	cr_assert_eq(ht_parse(&d, html), 0, "%s", d.err);
	sub = ht_next(&d, -1, d.n - 1, "div", "sub");
	cr_assert_geq(sub, 0);
	text = ht_text_of(&d, (size_t)sub);
	cr_expect(strstr(text, "night seed 0x5eed"), "%s", text);
	free(text);
	ht_free(&d);
	free(html);
}

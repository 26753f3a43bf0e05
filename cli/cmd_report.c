/* SPDX-License-Identifier: MIT */
/*
 * walktorture report: results JSON -> one self-contained HTML report.
 * walktorture index: record a night in the history database and write the
 * nightly index.
 *
 * Both exit 0 when their output is written, whatever the verdict (the run
 * commands carry the verdict in their exit status); 2 on bad usage or bad
 * input, with "file: message" or "file:line:col: message" on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/ci.h"
#include "reports/reports.h"

static int parse_count(const char *opt, const char *s, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > 1000000)
		return wt_usage_error("%s: '%s' is not a count in 1..1000000",
				      opt, s);
	*out = (unsigned)v;
	return 0;
}

int wt_cli_ci_write(json_t *doc, const char *ktap, const char *junit)
{
	char err[1024];
	int ret = 0;

	if (ktap && wt_ktap_write(ktap, doc, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		ret = -1;
	}
	if (junit && wt_junit_write(junit, doc, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		ret = -1;
	}
	return ret;
}

/* --ktap and --junit of report and merge: from the files, merged. */
static int ci_from_files(const char *const *files, unsigned n,
			 const char *ktap, const char *junit)
{
	json_t *doc;
	char err[1024];
	int ret;

	if (!ktap && !junit)
		return 0;
	if (wt_results_load_all(files, n, &doc, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	ret = wt_cli_ci_write(doc, ktap, junit);
	json_decref(doc);
	return ret;
}

static void print_totals(const char *what, const char *out,
			 const struct wt_results_totals *t)
{
	printf("walktorture: %s out=%s scenarios=%u passed=%u failed=%u "
	       "failures=%lld iterations=%lld %s\n", what, out, t->scenarios,
	       t->scenarios - t->failed, t->failed, t->failures, t->iterations,
	       t->scenarios && !t->failed ? "PASS" : "FAIL");
}

enum { OPT_OUTPUT = 1, OPT_WINDOW, OPT_TOP, OPT_OUT, OPT_HISTORY, OPT_NIGHT };

const struct wt_opt wt_opts_report[] = {
	WT_OPT("output", OPT_OUTPUT, 'o', "report.html", "the HTML report to write"),
	WT_OPT_ENTRIES_CI,
	WT_OPT("window", OPT_WINDOW, 0, "N", "timeline events shown around each failure (default 500)"),
	WT_OPT("top", OPT_TOP, 0, "N", "injection points in the chart (default 20)"),
	{ 0 }
};

int wt_cmd_report(int argc, char **argv)
{
	struct wt_report_opts opts = { 0 };
	struct wt_results_totals t;
	const char *out = NULL, *ktap = NULL, *junit = NULL, *v;
	struct wt_opts p;
	char err[1024];
	int ret = WT_EXIT_USAGE, id;

	if (wt_opts_begin(&p, argc, argv))
		return WT_EXIT_USAGE;
	while ((id = wt_opts_next(&p, &v)) > 0) {
		if (id == OPT_OUTPUT)
			out = v;
		else if (id == WT_OPT_KTAP)
			ktap = v;
		else if (id == WT_OPT_JUNIT)
			junit = v;
		else if (id == OPT_WINDOW &&
			 parse_count("--window", v, &opts.window_events))
			goto out;
		else if (id == OPT_TOP && parse_count("--top", v, &opts.top_points))
			goto out;
	}
	if (id < 0) {
		ret = wt_opts_exit(id);
		goto out;
	}
	if ((!out && !ktap && !junit) || !p.npos) {
		wt_usage_error("report: %s", p.npos ? "nothing to write (-o "
			       "report.html, --ktap FILE or --junit FILE)" :
			       "no results files given");
		wt_opts_usage(p.cmd, stderr);
		goto out;
	}
	if (out && wt_report_write_opts(out, p.pos, p.npos, &opts, &t, err,
					sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	if (ci_from_files(p.pos, p.npos, ktap, junit))
		goto out;
	if (out)
		print_totals("report", out, &t);
	ret = WT_EXIT_OK;
out:
	wt_opts_end(&p);
	return ret;
}

const struct wt_opt wt_opts_index[] = {
	WT_OPT_REQ("out", OPT_OUT, 'o', "DIR", "the nights' directory (DIR/index.html)"),
	WT_OPT("history", OPT_HISTORY, 0, "DB", "the history database (default DIR/history.sqlite)"),
	WT_OPT("night", OPT_NIGHT, 0, "ID", "the night's id (default: from the earliest start time)"),
	{ 0 }
};

int wt_cmd_index(int argc, char **argv)
{
	const char *out = NULL, *db = NULL, *night = NULL, *v;
	struct wt_opts p;
	char err[1024];
	int ret = WT_EXIT_USAGE, id;

	if (wt_opts_begin(&p, argc, argv))
		return WT_EXIT_USAGE;
	while ((id = wt_opts_next(&p, &v)) > 0) {
		if (id == OPT_OUT)
			out = v;
		else if (id == OPT_HISTORY)
			db = v;
		else if (id == OPT_NIGHT)
			night = v;
	}
	if (id < 0) {
		ret = wt_opts_exit(id);
		goto out;
	}
	if (!out) {
		wt_usage_error("index: --out DIR is required");
		wt_opts_usage(p.cmd, stderr);
		goto out;
	}
	if (wt_cli_output_dir("--out", out) ||
	    wt_cli_history_check("--history", db))
		goto out;
	/* No results: re-render the index from the history alone. */
	if (p.npos ? wt_nightly_index(out, db, night, p.pos, p.npos, err,
				      sizeof(err)) :
		     wt_index_write(out, db, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	printf("walktorture: index out=%s/index.html nights+=%u\n", out,
	       p.npos ? 1 : 0);
	ret = WT_EXIT_OK;
out:
	wt_opts_end(&p);
	return ret;
}

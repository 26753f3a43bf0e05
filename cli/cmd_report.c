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

/* An option's value: "--opt VALUE" (advances *i) or NULL after a usage error. */
static const char *opt_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		wt_usage_error("%s: option '%s' needs a value", argv[0], argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

static void print_totals(const char *what, const char *out,
			 const struct wt_results_totals *t)
{
	printf("walktorture: %s out=%s scenarios=%u passed=%u failed=%u "
	       "failures=%lld iterations=%lld %s\n", what, out, t->scenarios,
	       t->scenarios - t->failed, t->failed, t->failures, t->iterations,
	       t->scenarios && !t->failed ? "PASS" : "FAIL");
}

int wt_cmd_report(int argc, char **argv)
{
	struct wt_report_opts opts = { 0 };
	struct wt_results_totals t;
	const char **files = calloc((size_t)argc, sizeof(*files));
	const char *out = NULL;
	unsigned n = 0;
	char err[1024];
	int ret = WT_EXIT_USAGE, opts_done = 0;

	if (!files)
		return wt_usage_error("report: out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts_done || a[0] != '-' || !a[1]) {
			files[n++] = a;
		} else if (!strcmp(a, "--")) {
			opts_done = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!(out = opt_value(argc, argv, &i)))
				goto out;
		} else if (!strcmp(a, "--window") || !strcmp(a, "--top")) {
			const char *v = opt_value(argc, argv, &i);

			if (!v || parse_count(a, v, a[2] == 'w' ?
					      &opts.window_events : &opts.top_points))
				goto out;
		} else {
			wt_usage_error("report: unknown option '%s' (valid: -o FILE, "
				       "--window N, --top N)", a);
			goto out;
		}
	}
	if (!out || !n) {
		wt_usage_error("usage: walktorture report RESULTS.json... -o report.html "
			       "[--window N] [--top N]");
		goto out;
	}
	if (wt_report_write_opts(out, files, n, &opts, &t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	print_totals("report", out, &t);
	ret = WT_EXIT_OK;
out:
	free(files);
	return ret;
}

int wt_cmd_index(int argc, char **argv)
{
	const char **files = calloc((size_t)argc, sizeof(*files));
	const char *out = NULL, *db = NULL, *night = NULL;
	unsigned n = 0;
	char err[1024];
	int ret = WT_EXIT_USAGE;

	if (!files)
		return wt_usage_error("index: out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], **dst = NULL;

		if (!strcmp(a, "--out"))
			dst = &out;
		else if (!strcmp(a, "--history"))
			dst = &db;
		else if (!strcmp(a, "--night"))
			dst = &night;
		else if (a[0] == '-' && a[1]) {
			wt_usage_error("index: unknown option '%s' (valid: --out DIR, "
				       "--history DB, --night ID)", a);
			goto out;
		} else {
			files[n++] = a;
			continue;
		}
		if (!(*dst = opt_value(argc, argv, &i)))
			goto out;
	}
	if (!out) {
		wt_usage_error("usage: walktorture index --out DIR [--history DB] "
			       "[--night ID] [RESULTS.json...]");
		goto out;
	}
	/* No results: re-render the index from the history alone. */
	if (n ? wt_nightly_index(out, db, night, files, n, err, sizeof(err)) :
		wt_index_write(out, db, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	printf("walktorture: index out=%s/index.html nights+=%u\n", out, n ? 1 : 0);
	ret = WT_EXIT_OK;
out:
	free(files);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * reports/: HTML reports, merged results and the nightly index, made from
 * results JSON (reports/SCHEMA.md).  reports/ only reads results: it knows
 * nothing of sim/ or core/.
 *
 * Every function returns 0, or -1 with a one-line message in err
 * ("file: where: message", "file:line:col: message" for JSON syntax).
 * Every file is written atomically: a failed call leaves the old one.
 */
#ifndef WT_REPORTS_REPORTS_H
#define WT_REPORTS_REPORTS_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "reports/atomic_file.h"	/* wt_mkdirs */
#include "reports/results.h"

struct wt_report_opts {
	unsigned window_events;	/* timeline events around a failure; 0 = 500 */
	unsigned top_points;	/* injection points in the chart; 0 = 20 */
	const char *index_href;	/* a link back to the nightly index, or NULL */
	/*
	 * The nightly index's history: 1 when this scenario's failure
	 * signature was seen on an earlier night, 0 when it is new (the
	 * group is marked NEW), -1 when unknown.  NULL: no history, no mark.
	 */
	int (*signature_seen)(void *arg, const char *suite,
			      const char *scenario, const char *signature);
	void *seen_arg;
};

/* One self-contained HTML report (inline CSS and SVG) of n results files. */
int wt_report_write(const char *out_html, const char *const *result_files,
		    unsigned n, char *err, size_t errlen);

/* The same with options; totals (may be NULL) receives the merged counts. */
int wt_report_write_opts(const char *out_html, const char *const *result_files,
			 unsigned n, const struct wt_report_opts *opts,
			 struct wt_results_totals *totals, char *err,
			 size_t errlen);

/* Render a validated document as a report page to f (opts may be NULL). */
void wt_report_render(FILE *f, json_t *doc, const struct wt_report_opts *opts);

/* Merge n results files into one (reports/SCHEMA.md, "Merged files"). */
int wt_merge_write(const char *out_json, const char *const *result_files,
		   unsigned n, struct wt_results_totals *totals, char *err,
		   size_t errlen);

/*
 * The nightly index.  Records the night into the history database
 * (history_db, or OUT/history.sqlite when NULL) in one transaction, then
 * writes OUT/index.html from the database: every suite and scenario of the
 * recent nights with verdicts, counts and trends.  Each run's report is
 * OUT/NIGHT/NAME.html (NAME: the results file's name without ".json");
 * the index writes it unless run.report names one already written
 * (relative to OUT).  night_id NULL: derived from the earliest start time.
 * night_seed: the seed the night's runs' seeds were derived from
 * (`nightly --seed'), recorded and shown as the night's; NULL: the
 * merged results' run seed.  The night's failure groups are recorded
 * too; a group whose signature no earlier night of the scenario had is
 * marked NEW in the index and in the run's report.
 */
struct wt_night_run {
	const char *results;	/* a results file */
	const char *report;	/* its report, relative to OUT, or NULL */
};

int wt_nightly_index(const char *out_dir, const char *history_db,
		     const char *night_id, const char *const *result_files,
		     unsigned n, char *err, size_t errlen);

int wt_nightly_index_runs(const char *out_dir, const char *history_db,
			  const char *night_id, const char *night_seed,
			  const struct wt_night_run *runs, unsigned n,
			  char *err, size_t errlen);

/* Re-render OUT/index.html from the history database alone. */
int wt_index_write(const char *out_dir, const char *history_db, char *err,
		   size_t errlen);

#endif /* WT_REPORTS_REPORTS_H */

/* SPDX-License-Identifier: MIT */
/*
 * Reading results JSON (reports/SCHEMA.md, schema v1).
 *
 * A loaded document has been validated: every field the reports use has the
 * documented type (counts are non-negative integers, trace thread indices
 * name a thread, event indices lie inside the trace, ...), so the renderers
 * can read it without re-checking.  Errors come back as one line,
 * "file: where: message", or "file:line:col: message" for JSON syntax.
 */
#ifndef WT_REPORTS_RESULTS_H
#define WT_REPORTS_RESULTS_H

#include <stddef.h>

#include <jansson.h>

#define WT_RESULTS_SCHEMA "walktorture-results"
#define WT_RESULTS_VERSION 1
/* The largest count or index a results file may hold: sums of 8192
 * files of such counts still fit in 64 bits. */
#define WT_RESULTS_INT_MAX (1ll << 50)

/* Load and validate one results file; *out is a new reference.  A file
 * named *.journal is a run's results journal (journal.h): the results of
 * the scenarios it holds, marked partial, interrupted "killed". */
int wt_results_load(const char *file, json_t **out, char *err, size_t errlen);

/* Validate a document already in memory (file names it in messages). */
int wt_results_validate(const char *file, json_t *doc, char *err, size_t errlen);

/*
 * Merge validated documents into a new one (a new reference): scenarios
 * keyed by (suite, name) in first-seen order with their counts summed and
 * failures concatenated, the runs listed in "runs", the summary recomputed.
 * files[i] names docs[i] in the "runs" entries (their "source").
 */
json_t *wt_results_merge(json_t *const *docs, const char *const *files,
			 unsigned n);

/* Load, validate and (for n > 1) merge; *out is a new reference. */
int wt_results_load_all(const char *const *files, unsigned n, json_t **out,
			char *err, size_t errlen);

/* Write doc to file atomically (temporary file in the same directory,
 * fsync, rename; reports/atomic_file.h), indented, non-ASCII escaped: the
 * one writer of results files, `run', `nightly', `replay', `zoo-bench'
 * and `merge' alike. */
int wt_results_write(const char *file, json_t *doc, char *err, size_t errlen);

/* Totals over a validated document. */
struct wt_results_totals {
	unsigned scenarios;
	unsigned failed;		/* scenarios with verdict FAIL */
	long long failures;		/* failure records, kept or not */
	long long failing_iterations;
	long long signatures;		/* failure groups, summed per scenario */
	long long iterations;
};

/*
 * A scenario's failure counts and groups (SCHEMA.md "groups"), from its
 * fields, or for a file written before they existed derived from its
 * kept records: every record counted, its failing iterations the
 * distinct seeds, its groups by kind and check.  groups: a new reference.
 */
long long wt_scenario_failing_iterations(json_t *sc);
long long wt_scenario_failure_records(json_t *sc);
json_t *wt_scenario_groups(json_t *sc);

void wt_results_totals(json_t *doc, struct wt_results_totals *t);

/* "PASS" or "FAIL" for a scenario, or for a whole document (FAIL if empty). */
const char *wt_scenario_verdict(json_t *scenario);
const char *wt_results_verdict(json_t *doc);

/* Small accessors: NULL / def when the field is absent or null. */
const char *wt_json_str(json_t *obj, const char *key);
long long wt_json_int(json_t *obj, const char *key, long long def);
double wt_json_num(json_t *obj, const char *key, double def);

#endif /* WT_REPORTS_RESULTS_H */

/* SPDX-License-Identifier: MIT */
/*
 * A command's results journal (reports/journal.h) while its scenarios
 * run: `nightly' for each seed's results file, `run --json FILE' for
 * FILE.  Each finished scenario goes to RESULTS.journal (RESULTS without
 * its .json, if it has one) as soon as it ends; when the results file is
 * whole the journal is removed.  A process killed in between leaves the
 * journal: the next nightly recovers a night's (reports/unfinished.h),
 * and any results reader takes a journal for a results file
 * (wt_results_load: `walktorture merge RESULTS.journal -o RESULTS').
 */
#ifndef WT_CLI_RESULTS_JOURNAL_H
#define WT_CLI_RESULTS_JOURNAL_H

#include <stdbool.h>

#include "reports/journal.h"
#include "scenarios/src/runner.h"

struct wt_cli_journal {
	struct wt_journal j;
	char *path;			/* RESULTS.journal */
	bool ok;			/* appending: a failure is said once */
	struct wt_scn_opts *o;
	struct wt_scn_run_info info;	/* the document's run, as it goes */
	double t0;
};

/* RESULTS.journal for results file `results' (caller frees), or NULL. */
char *wt_cli_journal_path(const char *results);

/*
 * Open results' journal and have o's runs append to it (o->scenario_done).
 * info is the run's, copied (its strings must outlive the journal).  A
 * journal that cannot be opened is said on stderr, and the results are
 * then written at the end only: 0 either way, -1 out of memory.
 */
int wt_cli_journal_start(struct wt_cli_journal *cj, const char *results,
			 struct wt_scn_opts *o,
			 const struct wt_scn_run_info *info);

/* Stop appending; remove the journal when the results file was written
 * (whole), keep it otherwise. */
void wt_cli_journal_end(struct wt_cli_journal *cj, bool written);

#endif /* WT_CLI_RESULTS_JOURNAL_H */

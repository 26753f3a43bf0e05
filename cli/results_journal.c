/* SPDX-License-Identifier: MIT */
/*
 * The results journal of a running command (results_journal.h): one
 * line a finished scenario, from the driver's scenario_done callback.
 */
#define _GNU_SOURCE	/* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/results_journal.h"

char *wt_cli_journal_path(const char *results)
{
	size_t n = strlen(results);
	char *path;

	if (n > 5 && !strcmp(results + n - 5, ".json"))
		n -= 5;
	if (asprintf(&path, "%.*s" WT_JOURNAL_SUFFIX, (int)n, results) < 0)
		return NULL;
	return path;
}

static void journal_scenario(const struct wt_scn_result *r, void *arg)
{
	struct wt_cli_journal *cj = arg;
	char err[1024];
	json_t *doc;

	if (!cj->ok)
		return;
	cj->info.duration_s = wt_scn_now_s() - cj->t0;
	doc = wt_scn_results_json(r, 1, cj->o, &cj->info);
	if (!doc || wt_journal_append(&cj->j, doc, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s: the results are "
			"journaled no further\n", doc ? err : "out of memory");
		cj->ok = false;
	}
	json_decref(doc);
}

int wt_cli_journal_start(struct wt_cli_journal *cj, const char *results,
			 struct wt_scn_opts *o,
			 const struct wt_scn_run_info *info)
{
	char err[1024];

	memset(cj, 0, sizeof(*cj));
	cj->j.fd = -1;
	cj->o = o;
	cj->info = *info;
	cj->t0 = wt_scn_now_s();
	cj->path = wt_cli_journal_path(results);
	if (!cj->path)
		return -1;
	cj->ok = !wt_journal_open(&cj->j, cj->path, err, sizeof(err));
	if (!cj->ok)
		fprintf(stderr, "walktorture: !!! %s: the results are written "
			"at the end only\n", err);
	o->scenario_done = journal_scenario;
	o->scenario_done_arg = cj;
	return 0;
}

void wt_cli_journal_end(struct wt_cli_journal *cj, bool written)
{
	if (cj->o) {
		cj->o->scenario_done = NULL;
		cj->o->scenario_done_arg = NULL;
	}
	/* the results file is whole: the journal has done its work */
	wt_journal_close(&cj->j, written);
	free(cj->path);
	cj->path = NULL;
}

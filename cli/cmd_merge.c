/* SPDX-License-Identifier: MIT */
/*
 * walktorture merge RESULTS.json... -o MERGED.json: combine results files
 * (the shards of a nightly): scenarios merged by (suite, name) with counts
 * summed, failures concatenated, the summary recomputed; written
 * atomically.  Exit 0 when written (whatever the verdict), 2 on bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/reports.h"

enum { OPT_OUTPUT = 1 };

const struct wt_opt wt_opts_merge[] = {
	WT_OPT_REQ("output", OPT_OUTPUT, 'o', "MERGED.json", "the merged results file to write"),
	WT_OPT_ENTRIES_CI,
	{ 0 }
};

int wt_cmd_merge(int argc, char **argv)
{
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
	}
	if (id < 0) {
		ret = wt_opts_exit(id);
		goto out;
	}
	if (!out || !p.npos) {
		wt_usage_error("merge: %s", !out ? "-o MERGED.json is required" :
			       "no results files given");
		wt_opts_usage(p.cmd, stderr);
		goto out;
	}
	if (wt_merge_write(out, p.pos, p.npos, &t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	if (ktap || junit) {
		/* the merged file just written, read back as any reader would */
		json_t *doc;
		int bad;

		if (wt_results_load(out, &doc, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			goto out;
		}
		bad = wt_cli_ci_write(doc, ktap, junit);
		json_decref(doc);
		if (bad)
			goto out;
	}
	printf("walktorture: merge out=%s inputs=%u scenarios=%u passed=%u "
	       "failed=%u failures=%lld iterations=%lld %s\n", out, p.npos,
	       t.scenarios, t.scenarios - t.failed, t.failed, t.failures,
	       t.iterations, t.scenarios && !t.failed ? "PASS" : "FAIL");
	ret = WT_EXIT_OK;
out:
	wt_opts_end(&p);
	return ret;
}

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
	{ 0 }
};

int wt_cmd_merge(int argc, char **argv)
{
	struct wt_results_totals t;
	const char *out = NULL, *v;
	struct wt_opts p;
	char err[1024];
	int ret = WT_EXIT_USAGE, id;

	if (wt_opts_begin(&p, argc, argv))
		return WT_EXIT_USAGE;
	while ((id = wt_opts_next(&p, &v)) > 0)
		if (id == OPT_OUTPUT)
			out = v;
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
	printf("walktorture: merge out=%s inputs=%u scenarios=%u passed=%u "
	       "failed=%u failures=%lld iterations=%lld %s\n", out, p.npos,
	       t.scenarios, t.scenarios - t.failed, t.failed, t.failures,
	       t.iterations, t.scenarios && !t.failed ? "PASS" : "FAIL");
	ret = WT_EXIT_OK;
out:
	wt_opts_end(&p);
	return ret;
}

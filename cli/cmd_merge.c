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

int wt_cmd_merge(int argc, char **argv)
{
	const char **files = calloc((size_t)argc, sizeof(*files));
	struct wt_results_totals t;
	const char *out = NULL;
	unsigned n = 0;
	char err[1024];
	int ret = WT_EXIT_USAGE;

	if (!files)
		return wt_usage_error("merge: out of memory");
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			if (i + 1 >= argc) {
				wt_usage_error("merge: option '%s' needs a value", argv[i]);
				goto out;
			}
			out = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			wt_usage_error("merge: unknown option '%s' (valid: -o FILE)",
				       argv[i]);
			goto out;
		} else {
			files[n++] = argv[i];
		}
	}
	if (!out || !n) {
		wt_usage_error("usage: walktorture merge RESULTS.json... -o MERGED.json");
		goto out;
	}
	if (wt_merge_write(out, files, n, &t, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		goto out;
	}
	printf("walktorture: merge out=%s inputs=%u scenarios=%u passed=%u "
	       "failed=%u failures=%lld iterations=%lld %s\n", out, n,
	       t.scenarios, t.scenarios - t.failed, t.failed, t.failures,
	       t.iterations, t.scenarios && !t.failed ? "PASS" : "FAIL");
	ret = WT_EXIT_OK;
out:
	free(files);
	return ret;
}

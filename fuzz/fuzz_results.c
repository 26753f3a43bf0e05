/* SPDX-License-Identifier: MIT */
/* Results JSON (reports/SCHEMA.md): validate, and render what validates
 * as a report (the timeline, the charts, the failures). */
#include <stdio.h>

#include "fuzz/fuzz.h"
#include "reports/reports.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024] = "";
	json_t *doc;
	FILE *devnull;

	if (wt_results_load(wt_fuzz_file(data, size), &doc, err, sizeof(err))) {
		WT_FUZZ_REQUIRE(err[0]);
		return 0;
	}
	devnull = fopen("/dev/null", "w");
	if (devnull) {
		wt_report_render(devnull, doc, NULL);
		fclose(devnull);
	}
	json_decref(doc);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Scenario YAML: load and validate (scenarios/src/load.c), the tree built
 * once at load time included; a refusal must say where and why. */
#include "fuzz/fuzz.h"
#include "scenarios/src/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *s = wt_scenario_load(wt_fuzz_file(data, size),
						 "fuzz", &err);

	if (!s) {
		WT_FUZZ_REQUIRE(err.set && strstr(err.text, "/proc/self/fd/"));
		return 0;
	}
	wt_scenario_free(s);
	return 0;
}

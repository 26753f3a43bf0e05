/* SPDX-License-Identifier: MIT */
/* --cpus lists (sim/sched/cpus.h). */
#include "fuzz/fuzz.h"
#include "sim/sched/cpus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = wt_fuzz_text(data, size), msg[256] = "";
	unsigned cpus[WT_CPUS_MAX];
	int n;

	if (!text)
		return 0;
	n = wt_cpus_parse(text, cpus, WT_CPUS_MAX, msg, sizeof(msg));
	WT_FUZZ_REQUIRE(n > 0 ? n <= WT_CPUS_MAX : msg[0] != '\0');
	for (int i = 0; i < n; i++)
		WT_FUZZ_REQUIRE(cpus[i] <= WT_CPU_MAX);
	free(text);
	return 0;
}

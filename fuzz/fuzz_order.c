/* SPDX-License-Identifier: MIT */
/* Order files (replay --order; sim/sched/trace.h's text form). */
#include "fuzz/fuzz.h"
#include "sim/rules.h"
#include "sim/sched/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "walker", "renamer", "w2" };
	char *text = wt_fuzz_text(data, size);
	struct wt_parse_error err;
	struct wt_trace_event *ev;
	size_t n = 0;

	if (!text)
		return 0;
	memset(&err, 0, sizeof(err));
	ev = wt_trace_parse(text, names, 3, &n, &err);
	if (!ev)
		WT_FUZZ_REQUIRE(err.msg[0]);
	free(ev);
	free(text);
	return 0;
}

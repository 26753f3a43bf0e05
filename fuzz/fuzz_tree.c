/* SPDX-License-Identifier: MIT */
/* Tree files (sim/tree.h): parse, and build what parses in a world. */
#include "fuzz/fuzz.h"
#include "sim/ops.h"
#include "sim/tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = wt_fuzz_text(data, size);
	struct wt_verb_error e;
	struct wt_tree *t;
	struct wt_world *w;

	if (!text)
		return 0;
	memset(&e, 0, sizeof(e));
	if (wt_tree_parse(text, "fuzz", &t, &e)) {
		WT_FUZZ_REQUIRE(e.msg[0]);
		free(text);
		return 0;
	}
	w = wt_ops_world_create(1);
	if (w) {
		wt_tree_run(w, t, &e);
		wt_ops_world_destroy(w);
	}
	wt_tree_free(t);
	free(text);
	return 0;
}

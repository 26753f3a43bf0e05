/* SPDX-License-Identifier: MIT */
/*
 * --bug NAME: the zoo bug ids of sim/bug.h by name, from the zoo's
 * catalogue (core/zoo.c), so that `--bug' accepts exactly what
 * `walktorture bugs' lists and an unknown name prints every valid one.
 */
#include "core/zoo.h"
#include "scenarios/src/scenario.h"

int wt_scn_bug_parse(const char *name, uint64_t *bits)
{
	const struct wt_zoo_bug *b = wt_zoo_by_name(name);

	if (!b)
		return -1;
	*bits |= 1ull << b->id;
	return 0;
}

void wt_scn_bug_print(FILE *f)
{
	fputs("walktorture: bugs:", f);
	wt_zoo_print_names(f);
	fputc('\n', f);
}

/* SPDX-License-Identifier: MIT */
/*
 * walktorture bugs: the zoo's catalogue (core/zoo.c), one bug a line --
 * name, then tab-separated description, reference, the scenario that
 * catches it (scenarios/zoo/) and the check expected to fire there -- or,
 * with --json, the same as a JSON array (with the stress-mode scenario
 * and whether only exact path counts see it).
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "core/zoo.h"

static json_t *bug_json(const struct wt_zoo_bug *b)
{
	char scenario[256];

	snprintf(scenario, sizeof(scenario), "scenarios/%s", b->scenario);
	return json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s?, s:b}",
			 "name", b->name, "id", (int)b->id,
			 "description", b->description,
			 "reference", b->reference, "scenario", scenario,
			 "check", b->fires, "stress", b->stress,
			 "counts_only", b->counts_only);
}

static int print_json(void)
{
	const struct wt_zoo_bug *bugs;
	json_t *arr = json_array();
	unsigned n;

	bugs = wt_zoo_bugs(&n);
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(arr, bug_json(&bugs[i]));
	json_dumpf(arr, stdout, JSON_INDENT(1));
	putchar('\n');
	json_decref(arr);
	return WT_EXIT_OK;
}

int wt_cmd_bugs(int argc, char **argv)
{
	const struct wt_zoo_bug *bugs;
	bool json = false;
	unsigned n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else
			return wt_usage_error("bugs: unknown option '%s' (valid: --json)",
					      argv[i]);
	}
	if (json)
		return print_json();
	bugs = wt_zoo_bugs(&n);
	for (unsigned i = 0; i < n; i++)
		printf("%s\t%s\t%s\tscenarios/%s\t%s\n", bugs[i].name,
		       bugs[i].description, bugs[i].reference,
		       bugs[i].scenario, bugs[i].fires);
	return WT_EXIT_OK;
}

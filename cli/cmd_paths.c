/* SPDX-License-Identifier: MIT */
/*
 * walktorture paths: the exit-path catalogue, one line each --
 * name, then tab-separated group and what forces it (for a path that
 * cannot be taken, "; cannot happen: " and why after it) -- or, with --json, the
 * same as a JSON array (with the kind of each path, and "unreachable":
 * why or null).
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "core/paths.h"

static int print_json(void)
{
	json_t *arr = json_array();

	for (int i = 0; i < WT_PATH__COUNT; i++) {
		const struct wt_path_info *p = wt_path_info((enum wt_path)i);

		const char *why = wt_path_unreachable((enum wt_path)i);

		json_array_append_new(arr, json_pack("{s:s, s:i, s:s, s:s, s:s?}",
			"name", p->name, "group", (int)p->group,
			"kind", wt_path_kind_name(p->kind),
			"description", p->desc, "unreachable", why));
	}
	json_dumpf(arr, stdout, JSON_INDENT(1));
	putchar('\n');
	json_decref(arr);
	return WT_EXIT_OK;
}

const struct wt_opt wt_opts_paths[] = {
	WT_OPT("json", 1, 'j', NULL, "print the catalogue as a JSON array"),
	{ 0 }
};

int wt_cmd_paths(int argc, char **argv)
{
	int json = 0;
	unsigned flags;
	int r = wt_opts_flags(argc, argv, &flags);

	if (r)
		return wt_opts_exit(r);
	json = flags & 1u << 1;
	if (json)
		return print_json();
	for (int i = 0; i < WT_PATH__COUNT; i++) {
		const struct wt_path_info *p = wt_path_info((enum wt_path)i);

		const char *why = wt_path_unreachable((enum wt_path)i);

		if (why)
			printf("%s\t%u\t%s; cannot happen: %s\n", p->name,
			       p->group, p->desc, why);
		else
			printf("%s\t%u\t%s\n", p->name, p->group, p->desc);
	}
	return WT_EXIT_OK;
}

/* SPDX-License-Identifier: MIT */
/* walktorture points: the injection-point catalogue, from the linker section. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "sim/inject.h"

static const char *rel(const char *file)
{
	size_t n = strlen(WT_SOURCE_DIR);

	if (!strncmp(file, WT_SOURCE_DIR, n) && file[n] == '/')
		return file + n + 1;
	return file;
}

const struct wt_opt wt_opts_points[] = {
	WT_OPT("json", 1, 'j', NULL, "print the catalogue as a JSON array"),
	{ 0 }
};

int wt_cmd_points(int argc, char **argv)
{
	int json = 0;
	json_t *arr;
	unsigned flags;
	int r = wt_opts_flags(argc, argv, &flags);

	if (r)
		return wt_opts_exit(r);
	json = flags & 1u << 1;
	wt_points_catalogue();
	arr = json ? json_array() : NULL;
	for (uint32_t id = 0; id < wt_point_count(); id++) {
		const struct wt_point *p = wt_point_by_id(id);

		if (json) {
			static const char *const acc[] = {
				"none", "read", "write", "read-write" };

			json_array_append_new(arr, json_pack("{s:s, s:i, s:s, s:s, s:s, s:i, s:s}",
				"name", wt_point_name(p), "id", (int)id,
				"kind", wt_point_kind_name(p->kind),
				"access", acc[wt_point_kind_access(p->kind)],
				"file", rel(p->file), "line", (int)p->line,
				"description", p->desc ? p->desc : ""));
		} else {
			printf("%s\t%u\t%s\t%s:%u\t%s\n", wt_point_name(p), id,
			       wt_point_kind_name(p->kind), rel(p->file),
			       p->line, p->desc ? p->desc : "");
		}
	}
	if (json) {
		json_dumpf(arr, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(arr);
	}
	return WT_EXIT_OK;
}

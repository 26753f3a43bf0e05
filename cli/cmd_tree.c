/* SPDX-License-Identifier: MIT */
/*
 * walktorture tree FILE: build the tree file's world and print its
 * namespace listing (the canonical wt_world_dump text).  Exit 0, or 2 for
 * bad usage or a tree file that does not parse or build.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/ns.h"
#include "sim/ops.h"
#include "sim/tree.h"

int wt_cmd_tree(int argc, char **argv)
{
	struct wt_verb_error e;
	struct wt_tree *t;
	struct wt_world *w;
	int err;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: walktorture tree FILE\n");
		return WT_EXIT_OK;
	}
	if (argc != 2)
		return wt_usage_error("tree: usage: walktorture tree FILE");
	if (argv[1][0] == '-')
		return wt_usage_error("tree: unknown option '%s'", argv[1]);
	/* Parse everything first: nothing runs half-parsed. */
	if (wt_tree_parse_file(argv[1], &t, &e)) {
		wt_verb_error_print(&e, stderr);
		return WT_EXIT_USAGE;
	}
	w = wt_ops_world_create(1);
	if (!w) {
		wt_tree_free(t);
		return wt_usage_error("tree: out of memory");
	}
	err = wt_tree_run(w, t, &e);
	wt_tree_free(t);
	if (err)
		wt_verb_error_print(&e, stderr);
	else
		wt_world_dump(w, stdout);
	wt_ops_world_destroy(w);
	return err ? WT_EXIT_USAGE : WT_EXIT_OK;
}

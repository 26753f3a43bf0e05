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

const struct wt_opt wt_opts_tree[] = { { 0 } };

int wt_cmd_tree(int argc, char **argv)
{
	struct wt_verb_error e;
	struct wt_tree *t;
	struct wt_world *w;
	int err;

	struct wt_opts p;
	const char *v, *file;

	if (wt_opts_begin(&p, argc, argv))
		return WT_EXIT_USAGE;
	while ((err = wt_opts_next(&p, &v)) > 0)
		;	/* no options but --help */
	file = !err && p.npos == 1 ? p.pos[0] : NULL;
	if (!err && !file) {
		wt_usage_error("tree: %s", p.npos ? "one tree file, not several" :
			       "no tree file given");
		wt_opts_usage(p.cmd, stderr);
	}
	wt_opts_end(&p);	/* file points into argv, not the copy */
	if (!file)
		return err ? wt_opts_exit(err) : WT_EXIT_USAGE;
	/* Parse everything first: nothing runs half-parsed. */
	if (wt_tree_parse_file(file, &t, &e)) {
		wt_verb_error_print(&e, stderr);
		return WT_EXIT_USAGE;
	}
	w = wt_ops_world_create_fs(1, "tmpfs");
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

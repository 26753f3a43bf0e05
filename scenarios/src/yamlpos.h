/* SPDX-License-Identifier: MIT */
/*
 * Loader internals: the YAML document being read and positions in it.
 * libyaml gives every node a start mark (0-based line and column); an
 * error inside a scalar (a bad verb in `do:', a bad rule) is reported at
 * the offending character, so the loader maps an offset in the scalar's
 * value back to the file.
 */
#ifndef WT_SCENARIOS_YAMLPOS_H
#define WT_SCENARIOS_YAMLPOS_H

#include <yaml.h>

#include "scenarios/src/scenario.h"

struct wt_ld {
	const char *file;
	const char *src;		/* the file's text */
	yaml_document_t *doc;
	struct wt_scenario *s;
	struct wt_scn_error *err;
};

static inline struct wt_scn_pos wt_ld_pos(const yaml_node_t *n)
{
	struct wt_scn_pos p = { (unsigned)n->start_mark.line + 1,
				(unsigned)n->start_mark.column + 1 };
	return p;
}

/* The position of byte off of a scalar's value. */
struct wt_scn_pos wt_ld_pos_at(const struct wt_ld *ld, const yaml_node_t *n,
			       size_t off);
/* An error at a node, or at byte off of a scalar. */
int wt_ld_fail(struct wt_ld *ld, const yaml_node_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int wt_ld_fail_at(struct wt_ld *ld, const yaml_node_t *n, size_t off,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif /* WT_SCENARIOS_YAMLPOS_H */

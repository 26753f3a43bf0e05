/* SPDX-License-Identifier: MIT */
/*
 * The nearest name to a mistyped one: "did you mean" for unknown
 * commands, options, bugs and suites.  A suggestion only: the caller
 * still fails and lists every valid name.
 */
#ifndef WT_SIM_NEAREST_H
#define WT_SIM_NEAREST_H

#include <stddef.h>

#define WT_NEAREST_MAX 64	/* longer words get no suggestion */

/* The candidate nearest to word by edit distance (with transpositions),
 * when it is within a third of word's length (at least 1) and not word
 * itself; else NULL. */
const char *wt_nearest(const char *word, const char *const *cands,
		       unsigned n);
/* "; did you mean 'X'?" into buf when a candidate is near, else "". */
const char *wt_nearest_text(char *buf, size_t len, const char *word,
			    const char *const *cands, unsigned n);

#endif /* WT_SIM_NEAREST_H */

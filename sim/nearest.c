/* SPDX-License-Identifier: MIT */
/* The nearest name to a mistyped one, for "did you mean" (nearest.h). */
#include <stdio.h>
#include <string.h>

#include "sim/nearest.h"

/*
 * Edit distance with transpositions (optimal string alignment): a typo
 * is mostly one dropped, doubled, wrong or swapped character.
 */
static unsigned distance(const char *a, const char *b)
{
	unsigned d[WT_NEAREST_MAX + 1][WT_NEAREST_MAX + 1];
	size_t n = strlen(a), m = strlen(b);

	if (n > WT_NEAREST_MAX || m > WT_NEAREST_MAX)
		return ~0u;
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			unsigned cost = a[i - 1] != b[j - 1], v;

			v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[n][m];
}

const char *wt_nearest(const char *word, const char *const *cands,
			    unsigned n)
{
	size_t len = strlen(word);
	unsigned best = ~0u, limit = len / 3 ? (unsigned)(len / 3) : 1;
	const char *near = NULL;

	for (unsigned i = 0; i < n; i++) {
		unsigned d = distance(word, cands[i]);

		if (d < best) {
			best = d;
			near = cands[i];
		}
	}
	return best <= limit && best > 0 ? near : NULL;
}

const char *wt_nearest_text(char *buf, size_t len, const char *word,
				 const char *const *cands, unsigned n)
{
	const char *near = wt_nearest(word, cands, n);

	if (near)
		snprintf(buf, len, "; did you mean '%s'?", near);
	else if (len)
		buf[0] = '\0';
	return buf;
}

/* SPDX-License-Identifier: MIT */
/*
 * The point catalogue: every point in the binary has a kind, a site and a
 * unique dotted name, and a point defined at a call site is found again by
 * its name and reports that site.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "sim/inject.h"

static const struct wt_point *here_point(void)
{
	return WT_POINT(WT_K_EVENT, "test.inject.here", NULL, "a test point");
}

Test(inject, names_are_unique_and_sites_known)
{
	uint32_t n = wt_point_count();

	wt_points_catalogue();
	cr_assert_gt(n, 1);
	for (uint32_t i = 0; i < n; i++) {
		const struct wt_point *p = wt_point_by_id(i);

		cr_assert_eq(wt_point_id(p), i);
		cr_assert_lt(p->kind, WT_K__COUNT);
		cr_assert_not_null(p->file);
		cr_assert_gt(p->line, 0);
		for (uint32_t j = 0; j < i; j++)
			cr_assert_str_neq(wt_point_name(p),
					  wt_point_name(wt_point_by_id(j)));
	}
}

Test(inject, lookup_by_name_finds_the_call_site)
{
	const struct wt_point *p = here_point();

	wt_points_catalogue();
	cr_assert_eq(wt_point_lookup("test.inject.here"), p);
	cr_assert(strstr(p->file, "test_inject.c"));
	cr_assert_str_eq(p->func, "here_point");
	cr_assert_null(wt_point_lookup("no.such.point"));
}

Test(inject, kinds_round_trip)
{
	for (int k = 0; k < WT_K__COUNT; k++)
		cr_assert_eq(wt_point_kind_parse(wt_point_kind_name(k)), k);
	cr_assert_eq(wt_point_kind_parse("seq.nonsense"), -1);
}

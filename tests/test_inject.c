/* SPDX-License-Identifier: MIT */
/*
 * The point catalogue: every point in the binary has a kind, a site and a
 * unique dotted name, and a point defined at a call site is found again by
 * its name and reports that site.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "sim/inject.h"
#include "sim/thread.h"

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

/*
 * wt_access() tests an object's magic against wt_access_key, one compare
 * for the poison check and the armed check: unarmed, a live object's
 * field accesses reach no hook; armed, each one does; and unarmed, a dead
 * object's access is still reported.
 */
struct tobj {
	struct wt_obj wt;
	unsigned long f;
};

static unsigned violations;

static void count_violation(struct wt_thread *t, enum wt_check check,
			    const struct wt_point *p, const void *obj,
			    const char *msg)
{
	(void)t;
	(void)p;
	(void)obj;
	(void)msg;
	if (check == WT_CHECK_POISON)
		violations++;
}

Test(inject, access_key_folds_the_armed_and_poison_tests)
{
	struct tobj o;
	struct wt_thread t;
	unsigned long v = 0;

	wt_thread_init(&t, 0, "t");
	t.on_violation = count_violation;
	wt_obj_init(&o.wt, WT_OBJ_INODE, 1);
	o.f = 7;
	wt_self_set(&t);
	cr_assert_eq(wt_access_key, WT_OBJ_LIVE);
	for (int i = 0; i < 5; i++)
		v += wt_load(&o, f);
	cr_assert_eq(t.arrivals, 0, "unarmed: no hook");
	wt_thread_arm(&t, true);
	cr_assert_neq(wt_access_key, WT_OBJ_LIVE);
	cr_assert_neq(wt_access_key, WT_OBJ_FREED);
	for (int i = 0; i < 5; i++)
		v += wt_load(&o, f);
	wt_store(&o, f, 8);
	cr_assert_eq(t.arrivals, 6, "armed: every access is a point");
	wt_thread_arm(&t, false);
	cr_assert_eq(wt_access_key, WT_OBJ_LIVE);
	o.wt.magic = WT_OBJ_FREED;
	v += wt_load(&o, f);
	cr_assert_eq(violations, 1, "unarmed, a dead object is still caught");
	cr_assert_eq(t.arrivals, 6);
	cr_assert_eq(v, 7 * 10 + 8);
	wt_self_set(NULL);
	cr_assert_eq(wt_access_key, WT_OBJ_LIVE);
}

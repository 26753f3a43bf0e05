/* SPDX-License-Identifier: MIT */
/*
 * Failure signatures and groups (triage.h).
 */
#include <stdio.h>
#include <string.h>

#include "scenarios/src/triage.h"
#include "sim/inject.h"

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

void wt_scn_signature(json_t *f, char *buf, size_t len)
{
	const char *kind = str(f, "kind"), *check = str(f, "check");
	const char *msg = str(f, "message"), *got;
	json_t *walk = json_object_get(f, "walk");
	json_t *pt = json_object_get(f, "failing_point");
	json_t *step = json_object_get(f, "step");
	size_t n;

	n = (size_t)snprintf(buf, len, "%s%s%s", kind ? kind : "?",
			     check ? " " : "", check ? check : "");
	/* an expectation's text, without what it got */
	if (kind && !strcmp(kind, "expectation") && msg && n < len) {
		got = strstr(msg, ": got ");
		if (!got)
			got = strstr(msg, ": thread ");
		n += (size_t)snprintf(buf + n, len - n, " '%.*s'",
				      (int)(got ? got - msg : 200), msg);
	}
	if (json_is_integer(pt) && n < len)
		n += (size_t)snprintf(buf + n, len - n, " at %s",
				      wt_point_name(wt_point_by_id(
					(uint32_t)json_integer_value(pt))));
	if (walk && n < len)
		n += (size_t)snprintf(buf + n, len - n, " | %s -> %s",
				      str(walk, "entry") ? str(walk, "entry") : "?",
				      str(walk, "result") ? str(walk, "result") : "?");
	if (json_is_integer(step) && n < len) {
		json_t *st = json_array_get(json_object_get(f, "walk_steps"),
					    (size_t)json_integer_value(step));
		const char *sk = str(st, "kind");

		n += (size_t)snprintf(buf + n, len - n, " | step %s",
				      sk ? sk : "?");
	}
	if (str(f, "exit_path") && n < len)
		snprintf(buf + n, len - n, " | %s", str(f, "exit_path"));
}

void wt_scn_sign_all(json_t *failures)
{
	char sig[WT_SCN_SIGNATURE_MAX];
	size_t i;
	json_t *f;

	json_array_foreach(failures, i, f) {
		if (json_object_get(f, "signature"))
			continue;
		wt_scn_signature(f, sig, sizeof(sig));
		json_object_set_new(f, "signature", json_string(sig));
	}
}

json_t *wt_scn_group(json_t *groups, const char *sig)
{
	size_t i;
	json_t *g;

	json_array_foreach(groups, i, g)
		if (!strcmp(str(g, "signature"), sig))
			return g;
	return NULL;
}

/* The group a signature counts in: its own, or "other" past the bound. */
static json_t *group_of(json_t *groups, json_t *f, bool make)
{
	const char *sig = str(f, "signature");
	json_t *g = wt_scn_group(groups, sig);

	if (g || !make)
		return g;
	if (json_array_size(groups) >= WT_SCN_GROUPS_MAX) {
		sig = "other";
		g = wt_scn_group(groups, sig);
		if (g)
			return g;
	}
	g = json_pack("{s:s, s:s, s:O, s:I, s:O, s:O, s:O, s:O, s:n}",
		      "signature", sig, "kind", str(f, "kind"),
		      "check", json_object_get(f, "check") ?
		      json_object_get(f, "check") : json_null(),
		      "count", (json_int_t)0,
		      "first_seed", json_object_get(f, "seed") ?
		      json_object_get(f, "seed") : json_null(),
		      "last_seed", json_null(),
		      "first_iteration", json_object_get(f, "iteration") ?
		      json_object_get(f, "iteration") : json_null(),
		      "last_iteration", json_null(), "representative");
	json_array_append_new(groups, g);
	return g;
}

bool wt_scn_groups_new(json_t *groups, json_t *failures)
{
	size_t i;
	json_t *f;

	json_array_foreach(failures, i, f)
		if (!group_of(groups, f, false) &&
		    json_array_size(groups) < WT_SCN_GROUPS_MAX)
			return true;
	return false;
}

void wt_scn_groups_count(json_t *groups, json_t *failures)
{
	size_t i, j;
	json_t *f, *h;

	json_array_foreach(failures, i, f) {
		json_t *g = group_of(groups, f, true);
		bool seen = false;

		/* each iteration once per group */
		json_array_foreach(failures, j, h) {
			if (j >= i)
				break;
			seen |= group_of(groups, h, false) == g;
		}
		if (seen)
			continue;
		json_object_set_new(g, "count", json_integer(
			json_integer_value(json_object_get(g, "count")) + 1));
		json_object_set(g, "last_seed", json_object_get(f, "seed") ?
				json_object_get(f, "seed") : json_null());
		json_object_set(g, "last_iteration",
				json_object_get(f, "iteration") ?
				json_object_get(f, "iteration") : json_null());
	}
}

bool wt_scn_group_represent(json_t *g, size_t k)
{
	if (!g || !json_is_null(json_object_get(g, "representative")))
		return false;
	json_object_set_new(g, "representative", json_integer((json_int_t)k));
	return true;
}

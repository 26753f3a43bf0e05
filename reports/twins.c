/* SPDX-License-Identifier: MIT */
/*
 * The report's "Undirected twins" section: for each twin (a scenario with
 * a "twin" object, reports/SCHEMA.md) and each path its directed file
 * forces, how often that path happened under PCT with no schedule.  A
 * directed scenario proves a path can be forced; its twin says whether
 * anything but the schedule ever gets there, so a never-seen row is the
 * one worth reading.
 */
#include <stdlib.h>
#include <string.h>

#include "reports/html.h"
#include "reports/render.h"
#include "reports/results.h"

/* Distinct target paths over every twin, and how many were seen at least once. */
struct twin_tally {
	size_t paths, seen;
};

static int seen_anywhere(json_t *scenarios, const char *path)
{
	json_t *sc, *t;
	size_t i, k;

	json_array_foreach(scenarios, i, sc)
		json_array_foreach(json_object_get(json_object_get(sc, "twin"),
						   "targets"), k, t)
			if (!strcmp(wt_json_str(t, "path"), path) &&
			    wt_json_int(t, "iterations", 0) > 0)
				return 1;
	return 0;
}

/* Has a target with this path come before target k of scenario i? */
static int counted_before(json_t *scenarios, size_t i, size_t k, const char *path)
{
	json_t *t;
	size_t j, m;

	for (j = 0; j <= i; j++) {
		json_t *targets = json_object_get(json_object_get(
			json_array_get(scenarios, j), "twin"), "targets");

		json_array_foreach(targets, m, t) {
			if (j == i && m == k)
				return 0;
			if (!strcmp(wt_json_str(t, "path"), path))
				return 1;
		}
	}
	return 0;
}

/*
 * Quadratic in the number of targets, which is a handful per twin
 * (WT_SCN_TARGETS_MAX) times the scenarios of one night: no allocation.
 */
static void tally(json_t *scenarios, struct twin_tally *tl)
{
	json_t *sc, *t;
	size_t i, k;

	memset(tl, 0, sizeof(*tl));
	json_array_foreach(scenarios, i, sc)
		json_array_foreach(json_object_get(json_object_get(sc, "twin"),
						   "targets"), k, t) {
			const char *path = wt_json_str(t, "path");

			if (counted_before(scenarios, i, k, path))
				continue;
			tl->paths++;
			tl->seen += seen_anywhere(scenarios, path);
		}
}

static void target_row(FILE *f, json_t *sc, json_t *t, size_t i)
{
	json_t *twin = json_object_get(sc, "twin");
	long long runs = wt_json_int(sc, "iterations", 0);
	long long seen = wt_json_int(t, "iterations", 0);
	char a[40], b[40], c[40];

	wt_html_printf(f, "<tr class=\"%s\"><td><span class=\"mu\">%s/</span>"
		       "<a href=\"#s-%zu\">%s</a></td><td class=\"m\">%s</td>"
		       "<td class=\"n\">%s / %s</td>",
		       seen ? "seen" : "unseen", wt_json_str(sc, "suite"), i,
		       wt_json_str(twin, "of"), wt_json_str(t, "path"),
		       wt_html_count(a, sizeof(a), seen),
		       wt_html_count(b, sizeof(b), runs));
	/* No iteration ran: there is no rate to show, not a rate of 0. */
	if (runs)
		wt_html_printf(f, "<td class=\"n\">%.1f%%</td>",
			       100.0 * (double)seen / (double)runs);
	else
		fputs("<td class=\"n mu\">\u2013</td>", f);
	wt_html_printf(f, "<td class=\"n\">%s</td>",
		       wt_html_count(c, sizeof(c), wt_json_int(t, "count", 0)));
	if (json_is_integer(json_object_get(t, "first_iteration")))
		wt_html_printf(f, "<td class=\"n\">%lld</td></tr>\n",
			       wt_json_int(t, "first_iteration", 0));
	else
		fputs("<td class=\"n\">not seen</td></tr>\n", f);
}

void wt_render_twins(FILE *f, json_t *doc)
{
	json_t *scenarios = json_object_get(doc, "scenarios"), *sc, *t;
	struct twin_tally tl;
	size_t i, k, twins = 0;

	json_array_foreach(scenarios, i, sc)
		twins += json_object_get(sc, "twin") != NULL;
	if (!twins)
		return;
	tally(scenarios, &tl);
	wt_html_printf(f, "<h2 id=\"twins\">Undirected twins</h2>\n"
		       "<p class=\"sub\" id=\"twins-summary\"><b>%zu</b> of <b>%zu</b>"
		       " forced paths happened without a schedule</p>\n",
		       tl.seen, tl.paths);
	if (!tl.paths) {
		fputs("<p class=\"mu\">no twin names a target path</p>\n", f);
		return;
	}
	fputs("<table class=\"twins\"><tr><th>directed scenario</th><th>target path</th>"
	      "<th class=\"n\">iterations</th><th class=\"n\">rate</th>"
	      "<th class=\"n\">count</th><th class=\"n\">first iteration</th></tr>\n", f);
	json_array_foreach(scenarios, i, sc)
		json_array_foreach(json_object_get(json_object_get(sc, "twin"),
						   "targets"), k, t)
			target_row(f, sc, t, i);
	fputs("</table>\n", f);
}

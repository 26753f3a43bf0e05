/* SPDX-License-Identifier: MIT */
/*
 * The HTML report: one self-contained page (inline CSS and SVG, one small
 * script for the copy buttons, nothing fetched).  Top to bottom: the
 * verdict and totals, the run(s), an index of failures, a scenario table,
 * the undirected twins' targets if any (twins.c), then per scenario its
 * expectations, exit-path and injection-point charts and each failure
 * with its timeline, walk steps, oracle explanation, history window,
 * schedule and replay command.
 */
#include <stdlib.h>
#include <string.h>

#include "reports/atomic_file.h"
#include "reports/html.h"
#include "reports/render.h"
#include "reports/reports.h"

#define DEFAULT_TOP_POINTS 20

static void render_top(FILE *f, json_t *doc, const struct wt_report_opts *o)
{
	const char *verdict = wt_results_verdict(doc);
	json_t *run = json_object_get(doc, "run");
	struct wt_results_totals t;
	char a[40], b[40];

	wt_results_totals(doc, &t);
	wt_html_printf(f, "<header class=\"top\"><div class=\"verdict %s\" id=\"verdict\">%s</div>"
		       "<div><h1>walktorture report</h1><div class=\"sub\">"
		       "<b>%u</b> scenarios: <b>%u</b> passed, <b>%u</b> failed"
		       " \u00b7 <b>%s</b> failures \u00b7 <b>%s</b> iterations"
		       " \u00b7 seed <b class=\"m\">%s</b> \u00b7 %s",
		       verdict, verdict, t.scenarios, t.scenarios - t.failed,
		       t.failed, wt_html_count(a, sizeof(a), t.failures),
		       wt_html_count(b, sizeof(b), t.iterations),
		       wt_json_str(run, "seed"), wt_json_str(run, "started"));
	if (wt_json_str(run, "bug"))
		wt_html_printf(f, " \u00b7 bug <b class=\"m\">%s</b>",
			       wt_json_str(run, "bug"));
	if (!t.scenarios)
		fputs(" \u00b7 <span class=\"bad\">no scenario ran</span>", f);
	fputs("</div></div>", f);
	if (o->index_href)
		wt_html_printf(f, "<div style=\"margin-left:auto\"><a href=\"%s\">"
			       "\u2190 nightly index</a></div>", o->index_href);
	fputs("</header>\n", f);
}

static void kv(FILE *f, const char *key, const char *value, int mono)
{
	if (!value || !*value)
		return;
	wt_html_printf(f, "<tr><th>%s</th><td class=\"%s\">%s</td></tr>", key,
		       mono ? "m" : "", value);
}

static void render_run(FILE *f, json_t *run)
{
	json_t *m = json_object_get(run, "machine");
	char host[256];

	snprintf(host, sizeof(host), "%s (%lld cpus) %s",
		 wt_json_str(m, "hostname") ?: "?", wt_json_int(m, "cpus", 0),
		 wt_json_str(m, "model") ?: "");
	fputs("<div class=\"row\"><table class=\"kv\">", f);
	kv(f, "replay seed", wt_json_str(run, "seed"), 1);
	kv(f, "mode", wt_json_str(run, "mode"), 0);
	kv(f, "memory", wt_json_str(run, "memory"), 0);
	kv(f, "bug", wt_json_str(run, "bug") ?: "none", 1);
	kv(f, "shard", wt_json_str(run, "shard"), 1);
	fputs("</table><table class=\"kv\">", f);
	kv(f, "walktorture", wt_json_str(run, "version"), 0);
	kv(f, "git rev", wt_json_str(run, "git_rev"), 1);
	kv(f, "build", wt_json_str(run, "build_type"), 0);
	kv(f, "machine", m ? host : NULL, 0);
	kv(f, "binding", wt_json_str(run, "binding"), 1);
	fputs("</table><table class=\"kv\">", f);
	kv(f, "started", wt_json_str(run, "started"), 0);
	wt_html_printf(f, "<tr><th>duration</th><td>%.1f s</td></tr>",
		       wt_json_num(run, "duration_s", 0));
	fputs("</table></div>\n", f);
	if (wt_json_str(run, "command"))
		wt_html_printf(f, "<div class=\"replay\" style=\"margin-top:4px\">"
			       "<code id=\"run-cmd\">%s</code><button class=\"copy\" "
			       "type=\"button\" data-for=\"run-cmd\">copy</button></div>\n",
			       wt_json_str(run, "command"));
}

static void render_runs(FILE *f, json_t *doc)
{
	json_t *runs = json_object_get(doc, "runs"), *r;
	size_t i;

	fputs("<h2>Run</h2>\n", f);
	render_run(f, json_object_get(doc, "run"));
	if (json_array_size(runs) < 2)
		return;
	wt_html_printf(f, "<h4>merged from %zu runs</h4><table><tr><th>source</th>"
		       "<th>shard</th><th>seed</th><th>git rev</th><th>mode</th>"
		       "<th>started</th><th class=\"n\">duration</th><th>host</th>"
		       "<th>command</th></tr>\n", json_array_size(runs));
	json_array_foreach(runs, i, r)
		wt_html_printf(f, "<tr><td class=\"m\">%s</td><td class=\"m\">%s</td>"
			       "<td class=\"m\">%s</td><td class=\"m\">%s</td><td>%s</td>"
			       "<td>%s</td><td class=\"n\">%.1f s</td><td>%s</td>"
			       "<td class=\"m\">%s</td></tr>\n",
			       wt_json_str(r, "source") ?: "", wt_json_str(r, "shard") ?: "",
			       wt_json_str(r, "seed"), wt_json_str(r, "git_rev"),
			       wt_json_str(r, "mode") ?: "", wt_json_str(r, "started"),
			       wt_json_num(r, "duration_s", 0),
			       wt_json_str(json_object_get(r, "machine"), "hostname") ?: "",
			       wt_json_str(r, "command") ?: "");
	fputs("</table>\n", f);
}

/* Failure groups: one row per signature, its count of failing
 * iterations, first and last seed, and its representative's card. */
static void render_groups(FILE *f, json_t *doc, const struct wt_report_opts *o)
{
	struct wt_results_totals t;
	json_t *sc, *g, *groups;
	size_t i, k;
	char a[40], b[40];

	wt_results_totals(doc, &t);
	wt_html_printf(f, "<h2>Failures: %s failing iterations, %lld signatures"
		       "</h2>\n<table class=\"groups\"><tr><th>scenario</th>"
		       "<th class=\"n\">iterations</th><th>signature</th>"
		       "<th>first seed</th><th>last seed</th><th>card</th></tr>\n",
		       wt_html_count(a, sizeof(a), t.failing_iterations),
		       t.signatures);
	json_array_foreach(json_object_get(doc, "scenarios"), i, sc) {
		groups = wt_scenario_groups(sc);
		json_array_foreach(groups, k, g) {
			json_t *rep = json_object_get(g, "representative");

			/* never seen on an earlier night: NEW */
			int fresh = o->signature_seen && !o->signature_seen(
				o->seen_arg, wt_json_str(sc, "suite"),
				wt_json_str(sc, "name"), wt_json_str(g, "signature"));

			wt_html_printf(f, "<tr class=\"FAIL\"><td><a href=\"#s-%zu\">"
				       "<span class=\"mu\">%s/</span>%s</a></td>"
				       "<td class=\"n\">%s</td><td class=\"m sig\">",
				       i, wt_json_str(sc, "suite"),
				       wt_json_str(sc, "name"),
				       wt_html_count(b, sizeof(b),
						     wt_json_int(g, "count", 0)));
			if (fresh)
				fputs("<span class=\"badge NEW\">NEW</span> ", f);
			wt_html_printf(f, "%s</td>"
				       "<td class=\"m\">%s</td><td class=\"m\">%s</td>",
				       wt_json_str(g, "signature"),
				       wt_json_str(g, "first_seed") ?: "",
				       wt_json_str(g, "last_seed") ?: "");
			if (json_is_integer(rep))
				wt_html_printf(f, "<td><a href=\"#f-%zu-%lld\">failure "
					       "%lld</a></td></tr>\n", i,
					       (long long)json_integer_value(rep),
					       (long long)json_integer_value(rep) + 1);
			else
				fputs("<td class=\"mu\">not kept</td></tr>\n", f);
		}
		json_decref(groups);
	}
	fputs("</table>\n", f);
}

static void render_failure_index(FILE *f, json_t *doc,
				 const struct wt_report_opts *o)
{
	struct wt_results_totals t;
	json_t *sc, *fl;
	size_t i, k, n = 0;

	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		n += json_array_size(json_object_get(sc, "failures"));
	if (!n)
		return;
	render_groups(f, doc, o);
	wt_results_totals(doc, &t);
	wt_html_printf(f, "<h3>Kept records (%zu of %lld)</h3>\n<table class=\"failures\"><tr>"
		       "<th>scenario</th><th>kind</th><th>thread</th>"
		       "<th class=\"n\">iteration</th><th>message</th></tr>\n", n,
		       t.failures);
	json_array_foreach(json_object_get(doc, "scenarios"), i, sc) {
		json_array_foreach(json_object_get(sc, "failures"), k, fl) {
			const char *check = wt_json_str(fl, "check");

			wt_html_printf(f, "<tr class=\"FAIL\"><td><a href=\"#f-%zu-%zu\">"
				       "<span class=\"mu\">%s/</span>%s</a></td>"
				       "<td style=\"white-space:nowrap\">%s%s%s</td><td>%s</td><td class=\"n\">%lld</td>"
				       "<td class=\"m\">%s</td></tr>\n",
				       i, k, wt_json_str(sc, "suite"), wt_json_str(sc, "name"),
				       wt_json_str(fl, "kind"), check ? " / " : "",
				       check ? check : "", wt_json_str(fl, "thread") ?: "",
				       wt_json_int(fl, "iteration", 0),
				       wt_json_str(fl, "message"));
		}
	}
	fputs("</table>\n", f);
}

static void overview_row(FILE *f, json_t *sc, size_t i)
{
	const char *verdict = wt_scenario_verdict(sc);
	struct wt_path_sums s;
	char c[WT_PATH_GROUPS_KNOWN + 1][40], it[40];

	wt_path_sums(json_object_get(sc, "paths"), &s);
	for (int g = 0; g <= WT_PATH_GROUPS_KNOWN; g++)
		wt_html_count(c[g], sizeof(c[g]), s.group[g]);
	wt_html_printf(f, "<tr class=\"%s\"><td><span class=\"badge %s\">%s</span></td>"
		       "<td><a href=\"#s-%zu\">%s</a></td><td>%s</td>"
		       "<td class=\"n\">%s</td><td class=\"n%s\">%zu</td>",
		       verdict, verdict, verdict, i, wt_json_str(sc, "name"),
		       wt_json_str(sc, "policy") ?: "",
		       wt_html_count(it, sizeof(it), wt_json_int(sc, "iterations", 0)),
		       json_array_size(json_object_get(sc, "failures")) ? " bad" : "",
		       (size_t)wt_scenario_failing_iterations(sc));
	for (int g = 0; g <= WT_PATH_GROUPS_KNOWN; g++)
		wt_html_printf(f, "<td class=\"n%s\">%s</td>",
			       s.group[g] ? "" : " zero", c[g]);
	wt_html_printf(f, "<td class=\"n\">%u / %u</td><td class=\"n\">%.2f s</td></tr>\n",
		       s.taken, s.listed, wt_json_num(sc, "duration_s", 0));
}

/* The scenario table, one block of rows per suite in first-seen order. */
static void render_overview(FILE *f, json_t *doc)
{
	json_t *scenarios = json_object_get(doc, "scenarios"), *sc, *other;
	size_t i, j;

	fputs("<h2>Scenarios</h2>\n<table class=\"overview\"><tr><th></th><th>scenario</th>"
	      "<th>policy</th><th class=\"n\">iterations</th><th class=\"n\">failures</th>", f);
	for (int g = 0; g < WT_PATH_GROUPS_KNOWN; g++)
		wt_html_printf(f, "<th class=\"n\">%s.*</th>", wt_path_group_names[g]);
	fputs("<th class=\"n\">other</th><th class=\"n\">paths taken</th>"
	      "<th class=\"n\">time</th></tr>\n", f);
	json_array_foreach(scenarios, i, sc) {
		const char *suite = wt_json_str(sc, "suite");
		int seen = 0;

		for (j = 0; j < i && !seen; j++)
			seen = !strcmp(wt_json_str(json_array_get(scenarios, j), "suite"),
				       suite);
		if (seen)
			continue;
		wt_html_printf(f, "<tr class=\"grp\"><td colspan=\"13\">%s</td></tr>\n",
			       suite);
		json_array_foreach(scenarios, j, other)
			if (!strcmp(wt_json_str(other, "suite"), suite))
				overview_row(f, other, j);
	}
	fputs("</table>\n", f);
}

static void render_scenario_meta(FILE *f, json_t *sc)
{
	json_t *threads = json_object_get(sc, "threads"), *t;
	char it[40];
	size_t i;

	if (wt_json_str(sc, "description"))
		wt_html_printf(f, "<p class=\"desc\">%s</p>\n", wt_json_str(sc, "description"));
	wt_html_printf(f, "<div class=\"sub\">file <span class=\"m\">%s</span>"
		       " \u00b7 %s \u00b7 %s \u00b7 seed <span class=\"m\">%s</span>"
		       " \u00b7 %s iterations \u00b7 %.2f s",
		       wt_json_str(sc, "file") ?: "-", wt_json_str(sc, "mode") ?: "-",
		       wt_json_str(sc, "policy") ?: "-", wt_json_str(sc, "seed") ?: "-",
		       wt_html_count(it, sizeof(it), wt_json_int(sc, "iterations", 0)),
		       wt_json_num(sc, "duration_s", 0));
	if (wt_json_str(sc, "digest"))
		wt_html_printf(f, " \u00b7 digest <span class=\"m\">%s</span>",
			       wt_json_str(sc, "digest"));
	if (json_array_size(threads)) {
		fputs(" \u00b7 threads", f);
		json_array_foreach(threads, i, t)
			wt_html_printf(f, "%s <span class=\"m\">%s</span>", i ? "," : "",
				       json_string_value(t));
	}
	fputs("</div>\n", f);
}

static void render_expectations(FILE *f, json_t *sc)
{
	json_t *arr = json_object_get(sc, "expectations"), *e;
	size_t i;

	if (!json_array_size(arr))
		return;
	fputs("<h4>Expectations</h4><table class=\"expect\">\n", f);
	json_array_foreach(arr, i, e) {
		int ok = json_is_true(json_object_get(e, "ok"));

		wt_html_printf(f, "<tr class=\"%s\"><td class=\"%s\">%s</td><td class=\"m\">%s</td>"
			       "<td class=\"m\">%s</td></tr>\n", ok ? "" : "hl",
			       ok ? "ok" : "bad", ok ? "\u2713" : "\u2717 FAIL",
			       wt_json_str(e, "text"),
			       wt_json_str(e, "actual") ? wt_json_str(e, "actual") : "");
	}
	fputs("</table>\n", f);
}

/* Exit paths: bars of the taken paths by group, group totals, then every path. */
static void render_paths(FILE *f, json_t *sc)
{
	json_t *paths = json_object_get(sc, "paths");
	struct wt_bar *bars;
	struct wt_count *v;
	size_t n, nb = 0;
	char prev[64] = "", prefix[64], num[40];
	long long gsum = 0;

	v = wt_counts_by_group(paths, &n);
	bars = calloc(n ? n : 1, sizeof(*bars));
	if (!v || !bars)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].n)
			continue;
		wt_path_prefix(v[i].name, prefix, sizeof(prefix));
		bars[nb] = (struct wt_bar){ .label = v[i].name, .value = v[i].n,
					    .color = wt_path_group_color(v[i].name) };
		if (strcmp(prefix, prev)) {
			/* The group's total: every path with this prefix. */
			gsum = 0;
			for (size_t j = i; j < n; j++)
				if (!strcmp(wt_path_prefix(v[j].name, num, sizeof(num)), prefix))
					gsum += v[j].n;
			bars[nb].group = strdup(prefix);
			bars[nb].group_total = gsum;
			strcpy(prev, prefix);
		}
		nb++;
	}
	wt_html_printf(f, "<div><h4>Exit paths \u2014 %zu of %zu taken "
		       "<span style=\"text-transform:none\">(bar length: log scale)</span></h4>\n",
		       nb, n);
	if (nb)
		wt_svg_bars(f, "bars paths", bars, nb, "exit-path frequencies");
	else
		fputs("<p class=\"mu\">no exit path taken</p>\n", f);
	wt_html_printf(f, "<details><summary>table of all %zu exit paths</summary>"
		       "<table class=\"paths\"><tr><th>path</th><th class=\"n\">count</th></tr>\n", n);
	for (size_t i = 0; i < n; i++)
		wt_html_printf(f, "<tr class=\"%s\"><td class=\"m\">%s</td><td class=\"n\">%s</td></tr>\n",
			       v[i].n ? "" : "zero", v[i].name,
			       wt_html_count(num, sizeof(num), v[i].n));
	fputs("</table></details></div>\n", f);
out:
	for (size_t i = 0; bars && i < nb; i++)
		free((char *)bars[i].group);
	free(bars);
	free(v);
}

static void render_points(FILE *f, json_t *sc, unsigned top)
{
	json_t *points = json_object_get(sc, "points");
	struct wt_bar *bars;
	struct wt_count *v;
	size_t n, nb;
	char num[40];

	v = wt_counts_by_size(points, &n);
	nb = n < top ? n : top;
	bars = calloc(nb ? nb : 1, sizeof(*bars));
	if (!v || !bars)
		goto out;
	for (size_t i = 0; i < nb; i++)
		bars[i] = (struct wt_bar){ .label = v[i].name, .value = v[i].n,
					   .color = "#57606a" };
	wt_html_printf(f, "<div><h4>Injection points \u2014 top %zu of %zu hit</h4>\n", nb, n);
	if (nb)
		wt_svg_bars(f, "bars points", bars, nb, "injection-point hits");
	else
		fputs("<p class=\"mu\">no injection point recorded</p>\n", f);
	if (n > nb) {
		wt_html_printf(f, "<details><summary>table of all %zu points</summary>"
			       "<table class=\"points\"><tr><th>point</th>"
			       "<th class=\"n\">hits</th></tr>\n", n);
		for (size_t i = 0; i < n; i++)
			wt_html_printf(f, "<tr><td class=\"m\">%s</td><td class=\"n\">%s</td></tr>\n",
				       v[i].name, wt_html_count(num, sizeof(num), v[i].n));
		fputs("</table></details>\n", f);
	}
	fputs("</div>\n", f);
out:
	free(bars);
	free(v);
}

static void render_walk(FILE *f, json_t *fl)
{
	json_t *w = json_object_get(fl, "walk");

	if (wt_json_str(fl, "seed"))
		wt_html_printf(f, "iteration seed <span class=\"m\">%s</span>",
			       wt_json_str(fl, "seed"));
	if (!json_is_object(w))
		return;
	wt_html_printf(f, " \u00b7 walk <span class=\"m\">%s %s%s%s</span> \u2192 "
		       "<span class=\"m\">%s</span> (attempt %lld)",
		       wt_json_str(w, "entry") ?: "?", wt_json_str(w, "path") ?: "?",
		       wt_json_str(w, "flags") && *wt_json_str(w, "flags") ? " " : "",
		       wt_json_str(w, "flags") ?: "", wt_json_str(w, "result") ?: "?",
		       wt_json_int(w, "attempt", 0));
}

static void render_steps(FILE *f, json_t *fl)
{
	json_t *steps = json_object_get(fl, "walk_steps"), *st;
	long long failing = wt_json_int(fl, "step", -1);
	size_t i;

	fputs("<div><h4>Walk steps</h4>", f);
	if (!json_array_size(steps)) {
		fputs("<p class=\"mu\">none recorded</p></div>\n", f);
		return;
	}
	fputs("<table class=\"steps\"><tr><th class=\"n\">#</th><th class=\"n\">attempt</th>"
	      "<th>kind</th><th>step</th><th>validated</th></tr>\n", f);
	json_array_foreach(steps, i, st) {
		json_t *val = json_object_get(st, "validated");
		int hl = (long long)i == failing;

		wt_html_printf(f, "<tr class=\"%s\"><td class=\"n\">%zu%s</td><td class=\"n\">%lld</td>"
			       "<td>%s</td><td class=\"m\">%s</td><td class=\"%s\">%s</td></tr>\n",
			       hl ? "hl failing-step" : "", i, hl ? " \u25c0" : "",
			       wt_json_int(st, "attempt", 0), wt_json_str(st, "kind") ?: "",
			       wt_json_str(st, "text") ?: "",
			       json_is_true(val) ? "ok" : "mu",
			       json_is_true(val) ? "yes" : json_is_false(val) ? "no" : "");
	}
	fputs("</table></div>\n", f);
}

/* The key from the object ids of the walk steps (m4/d5/i6) to what they
 * were at the failing instant: path, filesystem, what kind. */
static void render_objects(FILE *f, json_t *fl)
{
	json_t *objs = json_object_get(fl, "objects"), *o;
	size_t i;

	if (!json_array_size(objs))
		return;
	fputs("<h4>Objects at the failing instant</h4><table class=\"objects\">"
	      "<tr><th>id</th><th>path</th><th>filesystem</th><th></th></tr>\n", f);
	json_array_foreach(objs, i, o)
		wt_html_printf(f, "<tr><td class=\"m\">%s</td><td class=\"m\">%s</td>"
			       "<td class=\"m\">%s</td><td class=\"mu\">%s</td></tr>\n",
			       wt_json_str(o, "id") ?: "", wt_json_str(o, "path") ?: "?",
			       wt_json_str(o, "fs") ?: "?", wt_json_str(o, "note") ?: "");
	fputs("</table>\n", f);
}

static void render_strings(FILE *f, json_t *fl, const char *key,
			   const char *heading, int numbered)
{
	json_t *arr = json_object_get(fl, key), *s;
	size_t i;

	if (!json_array_size(arr))
		return;
	wt_html_printf(f, "<h4>%s</h4>", heading);
	if (!numbered) {
		fputs("<pre>", f);
		json_array_foreach(arr, i, s)
			wt_html_printf(f, "%s%s", i ? "\n" : "", json_string_value(s));
		fputs("</pre>\n", f);
		return;
	}
	fputs("<ol class=\"m\">", f);
	json_array_foreach(arr, i, s)
		wt_html_printf(f, "<li>%s</li>", json_string_value(s));
	fputs("</ol>\n", f);
}

static void render_failure(FILE *f, json_t *sc, json_t *fl, size_t i, size_t k,
			   const struct wt_report_opts *o)
{
	size_t nfail = json_array_size(json_object_get(sc, "failures"));
	const char *check = wt_json_str(fl, "check");
	struct wt_timeline_opts to = { .window_events = o->window_events };
	char id[64];

	wt_html_printf(f, "<div class=\"failure\" id=\"f-%zu-%zu\">\n"
		       "<h3>Failure %zu of %zu: %s%s%s", i, k, k + 1, nfail,
		       wt_json_str(fl, "kind"), check ? " / " : "", check ? check : "");
	if (wt_json_str(fl, "thread"))
		wt_html_printf(f, " \u00b7 thread %s", wt_json_str(fl, "thread"));
	if (json_is_integer(json_object_get(fl, "iteration")))
		wt_html_printf(f, " \u00b7 iteration %lld", wt_json_int(fl, "iteration", 0));
	wt_html_printf(f, "</h3>\n<p class=\"msg\">%s</p>\n<div class=\"replay\">"
		       "<code id=\"r-%zu-%zu\">%s</code><button class=\"copy\" type=\"button\" "
		       "data-for=\"r-%zu-%zu\">copy</button></div>\n<div class=\"sub\">",
		       wt_json_str(fl, "message"), i, k, wt_json_str(fl, "replay"), i, k);
	render_walk(f, fl);
	fputs("</div>\n<h4>Timeline</h4>\n", f);
	snprintf(id, sizeof(id), "tl-%zu-%zu", i, k);
	to.id = id;
	wt_render_timeline(f, fl, &to);
	fputs("<div class=\"row\">", f);
	fputs("<div>", f);
	render_steps(f, fl);
	render_objects(f, fl);
	fputs("</div><div style=\"flex:1;min-width:420px\">", f);
	/* the oracle's explanation where it judged; a check or an
	 * expectation says what it found in its message */
	if (wt_json_str(fl, "explanation"))
		wt_html_printf(f, "<h4>Oracle</h4><p class=\"explanation\">%s</p>",
			       wt_json_str(fl, "explanation"));
	if (wt_json_str(fl, "signature"))
		wt_html_printf(f, "<h4>Signature</h4><p class=\"m\">%s</p>",
			       wt_json_str(fl, "signature"));
	render_strings(f, fl, "history_window", "History window", 0);
	render_strings(f, fl, "schedule", "Schedule", 1);
	fputs("</div></div>\n</div>\n", f);
}

static void render_scenario(FILE *f, json_t *sc, size_t i,
			    const struct wt_report_opts *o)
{
	const char *verdict = wt_scenario_verdict(sc);
	json_t *fl;
	size_t k;

	wt_html_printf(f, "<section class=\"scn\" id=\"s-%zu\">\n<h2><span class=\"badge %s\">"
		       "%s</span> <span class=\"suite\">%s /</span> %s</h2>\n",
		       i, verdict, verdict, wt_json_str(sc, "suite"), wt_json_str(sc, "name"));
	render_scenario_meta(f, sc);
	render_expectations(f, sc);
	fputs("<div class=\"row\">\n", f);
	render_paths(f, sc);
	render_points(f, sc, o->top_points ? o->top_points : DEFAULT_TOP_POINTS);
	fputs("</div>\n", f);
	json_array_foreach(json_object_get(sc, "failures"), k, fl)
		render_failure(f, sc, fl, i, k, o);
	fputs("</section>\n", f);
}

void wt_report_render(FILE *f, json_t *doc, const struct wt_report_opts *opts)
{
	static const struct wt_report_opts defaults;
	const struct wt_report_opts *o = opts ? opts : &defaults;
	struct wt_results_totals t;
	json_t *sc;
	char title[128];
	size_t i;

	wt_results_totals(doc, &t);
	snprintf(title, sizeof(title), "walktorture %s \u2014 %u/%u scenarios passed",
		 wt_results_verdict(doc), t.scenarios - t.failed, t.scenarios);
	wt_html_begin(f, title);
	render_top(f, doc, o);
	render_runs(f, doc);
	render_failure_index(f, doc, o);
	render_overview(f, doc);
	wt_render_twins(f, doc);
	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		render_scenario(f, sc, i, o);
	wt_html_end(f);
}

int wt_report_write_opts(const char *out_html, const char *const *result_files,
			 unsigned n, const struct wt_report_opts *opts,
			 struct wt_results_totals *totals, char *err,
			 size_t errlen)
{
	struct wt_atomic_file a;
	json_t *doc;

	if (wt_results_load_all(result_files, n, &doc, err, errlen))
		return -1;
	if (wt_atomic_open(&a, out_html, err, errlen)) {
		json_decref(doc);
		return -1;
	}
	wt_report_render(a.f, doc, opts);
	if (totals)
		wt_results_totals(doc, totals);
	json_decref(doc);
	return wt_atomic_commit(&a, err, errlen);
}

int wt_report_write(const char *out_html, const char *const *result_files,
		    unsigned n, char *err, size_t errlen)
{
	return wt_report_write_opts(out_html, result_files, n, NULL, NULL,
				    err, errlen);
}

int wt_merge_write(const char *out_json, const char *const *result_files,
		   unsigned n, struct wt_results_totals *totals, char *err,
		   size_t errlen)
{
	json_t *doc, *merged;
	int ret;

	if (wt_results_load_all(result_files, n, &doc, err, errlen))
		return -1;
	/* One input is still "merged", so the output always lists its runs. */
	merged = n == 1 ? wt_results_merge(&doc, result_files, 1) : json_incref(doc);
	json_decref(doc);
	if (!merged) {
		snprintf(err, errlen, "out of memory merging results");
		return -1;
	}
	if (totals)
		wt_results_totals(merged, totals);
	ret = wt_results_write(out_json, merged, err, errlen);
	json_decref(merged);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * The nightly index page, read back from the history database: the latest
 * night's verdict, what fails tonight (and since when), the recent nights
 * with links to their reports, then per suite every scenario with its
 * counts and trends over the recent nights (a verdict strip, sparklines of
 * failures and of the scenario's key exit path).
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "reports/atomic_file.h"
#include "reports/html.h"
#include "reports/render.h"
#include "reports/results.h"
#include "reports/unfinished.h"

#define INDEX_NIGHTS 30
#define STR_(x) #x
#define STR(x) STR_(x)

struct ix_night {
	char *id, *started, *seed, *git_rev, *verdict;
	unsigned scenarios, failed;
	long long failures, iterations;
};

struct ix_cell {
	int present;
	char verdict;			/* 'P' or 'F' */
	long long iterations, failures;
	json_t *paths;
	char *report;
};

struct ix_scn {
	char *suite, *name, *key_path;
	int key_night;			/* the night key_path was taken from */
	struct ix_cell *cells;		/* one per night, oldest first */
};

/* A failure group of the latest night. */
struct ix_sig {
	char *suite, *name, *signature, *report;
	char *first_night;		/* an earlier night it was seen, or NULL: NEW */
	long long count;
};

struct ix {
	struct ix_night *nights;	/* oldest first */
	struct ix_sig *sigs;		/* the latest night's, by scenario */
	size_t n_sigs;
	size_t n_nights;
	struct ix_scn *scns;		/* by suite, then name */
	size_t n_scns, cap;
	const char *out_dir;		/* where the nights' reports are */
	struct wt_unfinished *unfinished;	/* nights in out_dir not recorded */
	size_t n_unfinished;
};

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? strdup((const char *)s) : NULL;
}

#define RECENT_NIGHTS "SELECT night_id FROM nights ORDER BY started DESC, " \
		      "night_id DESC LIMIT " STR(INDEX_NIGHTS)

static int load_nights(sqlite3 *db, struct ix *ix)
{
	sqlite3_stmt *st;
	size_t n = 0;
	int rc;

	ix->nights = calloc(INDEX_NIGHTS, sizeof(*ix->nights));
	if (!ix->nights || sqlite3_prepare_v2(db,
		"SELECT night_id, started, seed, git_rev, verdict FROM nights "
		"ORDER BY started DESC, night_id DESC LIMIT " STR(INDEX_NIGHTS),
		-1, &st, NULL))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < INDEX_NIGHTS) {
		struct ix_night *nt = &ix->nights[n++];

		nt->id = col_dup(st, 0);
		nt->started = col_dup(st, 1);
		nt->seed = col_dup(st, 2);
		nt->git_rev = col_dup(st, 3);
		nt->verdict = col_dup(st, 4);
	}
	sqlite3_finalize(st);
	ix->n_nights = n;
	/* Newest first from SQL; the trends want oldest first. */
	for (size_t i = 0; i < n / 2; i++) {
		struct ix_night tmp = ix->nights[i];

		ix->nights[i] = ix->nights[n - 1 - i];
		ix->nights[n - 1 - i] = tmp;
	}
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

static int night_index(struct ix *ix, const char *id)
{
	for (size_t i = 0; i < ix->n_nights; i++)
		if (!strcmp(ix->nights[i].id, id))
			return (int)i;
	return -1;
}

static struct ix_scn *scn_for(struct ix *ix, const char *suite, const char *name)
{
	struct ix_scn *s;

	if (ix->n_scns && !strcmp(ix->scns[ix->n_scns - 1].suite, suite) &&
	    !strcmp(ix->scns[ix->n_scns - 1].name, name))
		return &ix->scns[ix->n_scns - 1];
	if (ix->n_scns == ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 64;
		struct ix_scn *v = realloc(ix->scns, cap * sizeof(*v));

		if (!v)
			return NULL;
		ix->scns = v;
		ix->cap = cap;
	}
	s = &ix->scns[ix->n_scns];
	memset(s, 0, sizeof(*s));
	s->suite = strdup(suite);
	s->name = strdup(name);
	s->key_night = -1;
	s->cells = calloc(ix->n_nights ? ix->n_nights : 1, sizeof(*s->cells));
	if (!s->suite || !s->name || !s->cells)
		return NULL;
	ix->n_scns++;
	return s;
}

static int add_row(struct ix *ix, sqlite3_stmt *st)
{
	int ni = night_index(ix, (const char *)sqlite3_column_text(st, 0));
	struct ix_scn *s;
	struct ix_cell *c;
	struct ix_night *nt;

	if (ni < 0)
		return 0;
	s = scn_for(ix, (const char *)sqlite3_column_text(st, 1),
		    (const char *)sqlite3_column_text(st, 2));
	if (!s)
		return -1;
	c = &s->cells[ni];
	nt = &ix->nights[ni];
	c->present = 1;
	c->verdict = strcmp((const char *)sqlite3_column_text(st, 3), "PASS") ? 'F' : 'P';
	c->iterations = sqlite3_column_int64(st, 4);
	c->failures = sqlite3_column_int64(st, 5);
	c->paths = json_loads((const char *)sqlite3_column_text(st, 6), 0, NULL);
	c->report = col_dup(st, 8);
	if (sqlite3_column_text(st, 7) && ni > s->key_night) {
		free(s->key_path);
		s->key_path = col_dup(st, 7);
		s->key_night = ni;
	}
	nt->scenarios++;
	nt->failed += c->verdict == 'F';
	nt->failures += c->failures;
	nt->iterations += c->iterations;
	return 0;
}

static int load_results(sqlite3 *db, struct ix *ix)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db,
		"SELECT night_id, suite, scenario, verdict, iterations, failures, "
		"paths_json, key_path, report_file FROM results "
		"WHERE night_id IN (" RECENT_NIGHTS ") ORDER BY suite, scenario",
		-1, &st, NULL))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (add_row(ix, st)) {
			rc = SQLITE_NOMEM;
			break;
		}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The latest night's failure groups, each with the earliest other night
 * (not started after it) that had the scenario's same signature: none,
 * and the group is NEW tonight.
 */
static int load_sigs(sqlite3 *db, struct ix *ix)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (!ix->n_nights)
		return 0;
	if (sqlite3_prepare_v2(db,
		"SELECT s.suite, s.scenario, s.signature, s.count, s.report_file, "
		"(SELECT e.night_id FROM signatures e JOIN nights en USING (night_id) "
		" WHERE e.suite = s.suite AND e.scenario = s.scenario AND "
		" e.signature = s.signature AND e.night_id <> s.night_id AND "
		" (n.started IS NULL OR en.started IS NULL OR en.started <= n.started) "
		" ORDER BY en.started, e.night_id LIMIT 1) "
		"FROM signatures s JOIN nights n USING (night_id) WHERE s.night_id = ? "
		"ORDER BY s.suite, s.scenario, s.count DESC, s.signature",
		-1, &st, NULL))
		return -1;
	sqlite3_bind_text(st, 1, ix->nights[ix->n_nights - 1].id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ix_sig *g;

		if (ix->n_sigs == cap) {
			size_t c = cap ? cap * 2 : 16;
			struct ix_sig *v = realloc(ix->sigs, c * sizeof(*v));

			if (!v) {
				rc = SQLITE_NOMEM;
				break;
			}
			ix->sigs = v;
			cap = c;
		}
		g = &ix->sigs[ix->n_sigs++];
		*g = (struct ix_sig){
			.suite = col_dup(st, 0), .name = col_dup(st, 1),
			.signature = col_dup(st, 2),
			.count = sqlite3_column_int64(st, 3),
			.report = col_dup(st, 4), .first_night = col_dup(st, 5),
		};
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void ix_free(struct ix *ix)
{
	for (size_t i = 0; i < ix->n_sigs; i++) {
		free(ix->sigs[i].suite);
		free(ix->sigs[i].name);
		free(ix->sigs[i].signature);
		free(ix->sigs[i].report);
		free(ix->sigs[i].first_night);
	}
	free(ix->sigs);
	for (size_t i = 0; i < ix->n_nights; i++) {
		struct ix_night *n = &ix->nights[i];

		free(n->id);
		free(n->started);
		free(n->seed);
		free(n->git_rev);
		free(n->verdict);
	}
	for (size_t i = 0; i < ix->n_scns; i++) {
		struct ix_scn *s = &ix->scns[i];

		for (size_t k = 0; s->cells && k < ix->n_nights; k++) {
			json_decref(s->cells[k].paths);
			free(s->cells[k].report);
		}
		free(s->cells);
		free(s->suite);
		free(s->name);
		free(s->key_path);
	}
	free(ix->nights);
	free(ix->scns);
	wt_unfinished_free(ix->unfinished, ix->n_unfinished);
}

/* A report link: the relative URL (percent-encoded) in an href. */
static void report_link(FILE *f, const char *href, const char *text, int bad)
{
	fputs("<a href=\"", f);
	wt_html_url(f, href);
	wt_html_printf(f, "\" class=\"%s\">%s</a>", bad ? "bad" : "", text);
}

static void render_top(FILE *f, struct ix *ix)
{
	struct ix_night *n = &ix->nights[ix->n_nights - 1];
	const char *v = n->verdict && !strcmp(n->verdict, "PASS") ? "PASS" : "FAIL";
	char a[40], b[40];

	wt_html_printf(f, "<header class=\"top\"><div class=\"verdict %s\" id=\"verdict\">%s</div>"
		       "<div><h1>walktorture nightly</h1><div class=\"sub\">night "
		       "<b class=\"m\">%s</b> \u00b7 %s \u00b7 git <b class=\"m\">%s</b>"
		       " \u00b7 night seed <b class=\"m\">%s</b> \u00b7 <b>%u</b> scenarios: "
		       "<b>%u</b> passed, <b>%u</b> failed \u00b7 <b>%s</b> failures"
		       " \u00b7 <b>%s</b> iterations</div></div></header>\n",
		       v, v, n->id, n->started ?: "", n->git_rev ?: "?", n->seed ?: "?",
		       n->scenarios, n->scenarios - n->failed, n->failed,
		       wt_html_count(a, sizeof(a), n->failures),
		       wt_html_count(b, sizeof(b), n->iterations));
}

/* The first night of the current failing streak of s (last night is failing). */
static size_t fail_since(struct ix *ix, struct ix_scn *s)
{
	size_t k = ix->n_nights - 1;

	while (k > 0 && s->cells[k - 1].present && s->cells[k - 1].verdict == 'F')
		k--;
	return k;
}

static void render_failing(FILE *f, struct ix *ix)
{
	size_t last = ix->n_nights - 1, n = 0;

	for (size_t i = 0; i < ix->n_scns; i++)
		n += ix->scns[i].cells[last].present && ix->scns[i].cells[last].verdict == 'F';
	if (!n)
		return;
	wt_html_printf(f, "<h2>Failing tonight (%zu)</h2>\n<table class=\"failing\"><tr>"
		       "<th>scenario</th><th class=\"n\">failures</th><th>failing since</th>"
		       "<th>report</th></tr>\n", n);
	for (size_t i = 0; i < ix->n_scns; i++) {
		struct ix_scn *s = &ix->scns[i];
		struct ix_cell *c = &s->cells[last];
		size_t since;

		if (!c->present || c->verdict != 'F')
			continue;
		since = fail_since(ix, s);
		wt_html_printf(f, "<tr class=\"FAIL\"><td><span class=\"mu\">%s /</span> %s",
			       s->suite, s->name);
		/* New: it passed the night before (not merely absent then). */
		if (since == last && last > 0 && s->cells[last - 1].present)
			fputs(" <span class=\"badge NEW\">NEW</span>", f);
		wt_html_printf(f, "</td><td class=\"n bad\">%lld</td><td class=\"m\">%s%s</td><td>",
			       c->failures, ix->nights[since].id,
			       since == 0 && last > 0 ? " (or earlier)" : "");
		if (c->report)
			report_link(f, c->report, "report", 1);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Tonight's failure groups: the new ones (no earlier night had the
 * scenario's signature) marked NEW, the others with the night first seen. */
static void render_sigs(FILE *f, struct ix *ix)
{
	size_t fresh = 0;

	if (!ix->n_sigs)
		return;
	for (size_t i = 0; i < ix->n_sigs; i++)
		fresh += !ix->sigs[i].first_night;
	wt_html_printf(f, "<h2 id=\"signatures\">Failure signatures tonight (%zu, "
		       "%zu new)</h2>\n<table class=\"sigs\"><tr><th>scenario</th>"
		       "<th>signature</th><th class=\"n\">iterations</th>"
		       "<th>first seen</th><th>card</th></tr>\n", ix->n_sigs, fresh);
	for (size_t i = 0; i < ix->n_sigs; i++) {
		struct ix_sig *g = &ix->sigs[i];

		wt_html_printf(f, "<tr class=\"FAIL\"><td><span class=\"mu\">%s /"
			       "</span> %s</td><td class=\"m sig\">", g->suite,
			       g->name);
		if (!g->first_night)
			fputs("<span class=\"badge NEW\">NEW</span> ", f);
		wt_html_printf(f, "%s</td><td class=\"n bad\">%lld</td>"
			       "<td class=\"m\">%s</td><td>", g->signature,
			       g->count, g->first_night ?: "tonight");
		if (g->report)
			report_link(f, g->report, "card", 1);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The night's other reports: every HTML file in OUT/NIGHT that no row
 * names.  A scenario row links one run's report (its first failing
 * run's), so of `nightly --seeds N' the other seeds' reports are only
 * found here.  Sorted by name.
 */
static void other_reports(FILE *f, struct ix *ix, size_t k, char **named,
			  size_t nnamed)
{
	const char *id = ix->nights[k].id;
	char dir[4096], **v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	if (!ix->out_dir || !id)
		return;
	snprintf(dir, sizeof(dir), "%s/%s", ix->out_dir, id);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), j;
		char *rel;

		if (len < 6 || strcmp(de->d_name + len - 5, ".html") ||
		    asprintf(&rel, "%s/%s", id, de->d_name) < 0)
			continue;
		for (j = 0; named && j < nnamed; j++)
			if (named[j] && !strcmp(named[j], rel))
				break;
		if ((named && j < nnamed) || (n == cap && !(cap = cap * 2 + 8,
		    v = realloc(v, cap * sizeof(*v))))) {
			free(rel);
			continue;
		}
		v[n++] = rel;
	}
	closedir(d);
	if (n)	/* qsort's base must not be NULL, even for no elements */
		qsort(v, n, sizeof(*v), cmp_str);
	for (size_t j = 0; j < n; j++) {
		fputs(" ", f);
		report_link(f, v[j], strrchr(v[j], '/') + 1, 0);
		free(v[j]);
	}
	free(v);
}

/* The distinct report files of night k (without #fragment), failing ones
 * first, then the night's other reports. */
static void night_reports(FILE *f, struct ix *ix, size_t k)
{
	char **files = calloc(ix->n_scns ? ix->n_scns : 1, sizeof(*files));
	unsigned char *bad = calloc(ix->n_scns ? ix->n_scns : 1, 1);
	size_t n = 0;

	for (size_t i = 0; files && bad && i < ix->n_scns; i++) {
		struct ix_cell *c = &ix->scns[i].cells[k];
		size_t len, j;

		if (!c->present || !c->report)
			continue;
		len = strcspn(c->report, "#");
		for (j = 0; j < n; j++)
			if (strlen(files[j]) == len && !strncmp(files[j], c->report, len))
				break;
		if (j == n && !(files[n++] = strndup(c->report, len)))
			break;
		bad[j] |= c->verdict == 'F';
	}
	for (int pass = 0; pass < 2 && files && bad; pass++) {
		for (size_t j = 0; j < n; j++) {
			const char *slash = files[j] ? strrchr(files[j], '/') : NULL;

			if (!files[j] || bad[j] != !pass)
				continue;
			fputs(" ", f);
			report_link(f, files[j], slash ? slash + 1 : files[j], bad[j]);
		}
	}
	other_reports(f, ix, k, files, n);
	for (size_t j = 0; files && j < n; j++)
		free(files[j]);
	free(files);
	free(bad);
}

static void render_nights(FILE *f, struct ix *ix)
{
	fputs("<h2>Nights</h2>\n<table class=\"nights\"><tr><th></th><th>night</th>"
	      "<th>started</th><th>git rev</th><th>seed</th><th class=\"n\">scenarios</th>"
	      "<th class=\"n\">failed</th><th class=\"n\">failures</th>"
	      "<th class=\"n\">iterations</th><th>reports</th></tr>\n", f);
	for (size_t k = ix->n_nights; k-- > 0;) {
		struct ix_night *n = &ix->nights[k];
		const char *v = n->verdict && !strcmp(n->verdict, "PASS") ? "PASS" : "FAIL";
		char a[40];

		wt_html_printf(f, "<tr class=\"%s\"><td><span class=\"badge %s\">%s</span></td>"
			       "<td class=\"m\">%s</td><td>%s</td><td class=\"m\">%s</td>"
			       "<td class=\"m\">%s</td><td class=\"n\">%u</td>"
			       "<td class=\"n%s\">%u</td><td class=\"n\">%lld</td>"
			       "<td class=\"n\">%s</td><td>", v, v, v, n->id,
			       n->started ?: "", n->git_rev ?: "", n->seed ?: "",
			       n->scenarios, n->failed ? " bad" : "", n->failed, n->failures,
			       wt_html_count(a, sizeof(a), n->iterations));
		night_reports(f, ix, k);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/*
 * The nights in OUT that ended without being recorded (unfinished.h):
 * killed, interrupted, not indexed, or running now.  Their results are
 * partial (or never indexed), so they count in no trend; listed so that
 * a night that died does not vanish.
 */
static void render_unfinished(FILE *f, struct ix *ix)
{
	char state[64];

	if (!ix->n_unfinished)
		return;
	fputs("<h2 id=\"unfinished\">Unfinished nights</h2>\n<table class=\"nights\">"
	      "<tr><th>night</th><th>state</th><th class=\"n\">scenarios</th>"
	      "<th class=\"n\">failed</th><th>results (partial)</th></tr>\n", f);
	for (size_t k = ix->n_unfinished; k-- > 0;) {
		struct wt_unfinished *u = &ix->unfinished[k];

		wt_html_printf(f, "<tr class=\"unfinished\"><td class=\"m\">%s</td>"
			       "<td>%s</td><td class=\"n\">%lld</td>"
			       "<td class=\"n%s\">%lld</td><td>", u->id,
			       wt_unfinished_state_text(u, state, sizeof(state)),
			       u->scenarios, u->failed ? " bad" : "", u->failed);
		for (size_t j = 0; j < u->nfiles; j++) {
			const char *slash = strrchr(u->files[j], '/');

			fputs(" ", f);
			report_link(f, u->files[j], slash ? slash + 1 : u->files[j], 0);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void tip_append(char *buf, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Bounded append: a long history truncates the hover text, nothing else. */
static void tip_append(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	*o = n < 0 ? len : *o + (size_t)n;
}

static int any_failures(const struct ix_scn *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (s->cells[k].present && s->cells[k].failures)
			return 1;
	return 0;
}

/* Verdict strip, failures sparkline and key-path sparkline of one scenario. */
static void trend_cells(FILE *f, struct ix *ix, struct ix_scn *s)
{
	size_t n = ix->n_nights, fo = 0, ko = 0;
	double fails[INDEX_NIGHTS], keys[INDEX_NIGHTS];
	unsigned char present[INDEX_NIGHTS];
	const char *tips[INDEX_NIGHTS];
	char verdicts[INDEX_NIGHTS + 1], tipbuf[INDEX_NIGHTS][96];
	char ftip[1024], ktip[1024];

	tip_append(ftip, sizeof(ftip), &fo, "failures per night, oldest first:");
	tip_append(ktip, sizeof(ktip), &ko, "%s per night, oldest first:",
		   s->key_path ?: "key path");
	for (size_t k = 0; k < n; k++) {
		struct ix_cell *c = &s->cells[k];

		present[k] = (unsigned char)c->present;
		verdicts[k] = c->present ? c->verdict : '-';
		fails[k] = (double)c->failures;
		keys[k] = s->key_path ? (double)wt_json_int(c->paths, s->key_path, 0) : 0;
		snprintf(tipbuf[k], sizeof(tipbuf[k]), "%s: %s", ix->nights[k].id,
			 !c->present ? "not run" : c->verdict == 'P' ? "PASS" : "FAIL");
		tips[k] = tipbuf[k];
		if (c->present) {
			tip_append(ftip, sizeof(ftip), &fo, " %lld", c->failures);
			tip_append(ktip, sizeof(ktip), &ko, " %.0f", keys[k]);
		} else {
			tip_append(ftip, sizeof(ftip), &fo, " -");
			tip_append(ktip, sizeof(ktip), &ko, " -");
		}
	}
	verdicts[n] = 0;
	fputs("<td>", f);
	wt_svg_strip(f, verdicts, tips, n);
	fputs("</td><td>", f);
	/* Red only when there is something to see: a flat zero is grey. */
	wt_svg_spark(f, fails, present, n, ftip, any_failures(s, n) ? "#cf222e" : "#8c959f");
	fputs("</td><td>", f);
	wt_svg_spark(f, keys, present, n, ktip, "#0969da");
	fputs("</td>", f);
}

static void scenario_row(FILE *f, struct ix *ix, struct ix_scn *s)
{
	struct ix_cell *c = &s->cells[ix->n_nights - 1];
	const char *v = !c->present ? "NONE" : c->verdict == 'P' ? "PASS" : "FAIL";
	struct wt_path_sums sums;
	char num[40];

	wt_path_sums(c->paths, &sums);
	wt_html_printf(f, "<tr class=\"%s\"><td><span class=\"badge %s\">%s</span></td>"
		       "<td class=\"m\">%s</td>", v, v, c->present ? v : "not run", s->name);
	if (!c->present) {
		fputs("<td colspan=\"9\" class=\"mu\">not run tonight</td>", f);
	} else {
		wt_html_printf(f, "<td class=\"n\">%s</td><td class=\"n%s\">%lld</td>",
			       wt_html_count(num, sizeof(num), c->iterations),
			       c->failures ? " bad" : "", c->failures);
		for (int g = 0; g < WT_PATH_GROUPS_KNOWN; g++)
			wt_html_printf(f, "<td class=\"n%s\">%s</td>",
				       sums.group[g] ? "" : " zero",
				       wt_html_count(num, sizeof(num), sums.group[g]));
		wt_html_printf(f, "<td class=\"m kp\">%s</td><td class=\"n\">%s</td>",
			       s->key_path ?: "",
			       wt_html_count(num, sizeof(num), s->key_path ?
					     wt_json_int(c->paths, s->key_path, 0) : 0));
	}
	trend_cells(f, ix, s);
	fputs("<td>", f);
	if (c->present && c->report)
		report_link(f, c->report, "report", c->verdict == 'F');
	fputs("</td></tr>\n", f);
}

/* One table for every suite (aligned columns), a heading row per suite. */
static void render_suites(FILE *f, struct ix *ix)
{
	size_t last = ix->n_nights - 1;

	wt_html_printf(f, "<h2>Scenarios</h2>\n<table class=\"scenarios\"><tr><th></th>"
		       "<th>scenario</th><th class=\"n\">iterations</th>"
		       "<th class=\"n\">failures</th><th class=\"n\">rcu.*</th>"
		       "<th class=\"n\">unlazy.*</th><th class=\"n\">restart.*</th>"
		       "<th class=\"n\">eagain.*</th><th class=\"n\">estale.*</th>"
		       "<th colspan=\"2\">key path tonight</th>"
		       "<th title=\"verdicts of the last %zu nights, oldest first\">nights</th>"
		       "<th>failures</th><th>key path</th><th></th></tr>\n", ix->n_nights);
	for (size_t i = 0; i < ix->n_scns; i++) {
		const char *suite = ix->scns[i].suite;
		size_t end = i, failed = 0;

		while (end < ix->n_scns && !strcmp(ix->scns[end].suite, suite)) {
			failed += ix->scns[end].cells[last].present &&
				  ix->scns[end].cells[last].verdict == 'F';
			end++;
		}
		wt_html_printf(f, "<tr class=\"grp\"><td colspan=\"15\">%s "
			       "<span class=\"mu\" style=\"font-weight:400\">\u00b7 %zu scenario%s, "
			       "%zu failing tonight</span></td></tr>\n", suite, end - i,
			       end - i == 1 ? "" : "s", failed);
		for (size_t j = i; j < end; j++)
			scenario_row(f, ix, &ix->scns[j]);
		i = end - 1;
	}
	fputs("</table>\n", f);
}

static void render_page(FILE *f, struct ix *ix)
{
	char title[160];

	if (!ix->n_nights) {
		wt_html_begin(f, "walktorture nightly \u2014 no nights");
		fputs("<header class=\"top\"><div><h1>walktorture nightly</h1>"
		      "<div class=\"sub\">no nights recorded yet</div></div></header>\n", f);
		render_unfinished(f, ix);
		wt_html_end(f);
		return;
	}
	snprintf(title, sizeof(title), "walktorture nightly %s \u2014 %s",
		 ix->nights[ix->n_nights - 1].verdict,
		 ix->nights[ix->n_nights - 1].id);
	wt_html_begin(f, title);
	render_top(f, ix);
	render_failing(f, ix);
	render_sigs(f, ix);
	render_nights(f, ix);
	render_unfinished(f, ix);
	render_suites(f, ix);
	wt_html_end(f);
}

int wt_index_render(sqlite3 *db, const char *db_path, const char *out_dir,
		    char *err, size_t errlen)
{
	struct ix ix = { .out_dir = out_dir };
	struct wt_atomic_file a;
	char path[4096];
	int ret = -1;

	if (load_nights(db, &ix) || load_results(db, &ix) || load_sigs(db, &ix)) {
		snprintf(err, errlen, "%s: reading the history: %s", db_path,
			 sqlite3_errmsg(db));
		goto out;
	}
	if (out_dir && wt_unfinished_nights(out_dir, db, false, NULL,
					    &ix.unfinished, &ix.n_unfinished,
					    err, errlen))
		goto out;
	snprintf(path, sizeof(path), "%s/index.html", out_dir);
	if (wt_atomic_open(&a, path, err, errlen))
		goto out;
	render_page(a.f, &ix);
	ret = wt_atomic_commit(&a, err, errlen);
out:
	ix_free(&ix);
	return ret;
}

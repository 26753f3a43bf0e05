/* SPDX-License-Identifier: MIT */
/*
 * The nightly index, recording side: load and validate every results file
 * of the night (nothing is written if one is bad), write each run's report
 * under OUT/NIGHT/, record the night in the history database in one
 * transaction, then render OUT/index.html from the database.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/atomic_file.h"
#include "reports/history.h"
#include "reports/render.h"
#include "reports/reports.h"

#define NIGHT_ID_MAX 64

struct night {
	const char *out_dir;
	char *db_path;
	const char *seed;		/* the night seed, or NULL */
	sqlite3 *seen_db;		/* the history before tonight, or NULL */
	char id[NIGHT_ID_MAX + 1];
	const struct wt_night_run *runs;
	unsigned n;
	json_t **docs;
	json_t *merged;
	char **reports;			/* per run, relative to out_dir */
};

static int night_id_ok(const char *id)
{
	size_t n = strlen(id);

	if (!n || n > NIGHT_ID_MAX || id[0] == '.')
		return 0;
	return strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "0123456789._-") == n;
}

/* "2026-12-03T06:00:00Z" -> "2026-12-03T060000Z": the id without ':'. */
static void derive_night_id(const char *started, char *buf, size_t len)
{
	size_t o = 0;

	for (const char *p = started ? started : ""; *p && o + 1 < len; p++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789-_", *p))
			buf[o++] = *p;
	buf[o] = 0;
	if (!o)
		snprintf(buf, len, "night");
}

static int load_inputs(struct night *nt, char *err, size_t errlen)
{
	const char **files = calloc(nt->n, sizeof(*files));

	nt->docs = calloc(nt->n, sizeof(*nt->docs));
	nt->reports = calloc(nt->n, sizeof(*nt->reports));
	if (!files || !nt->docs || !nt->reports) {
		free(files);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < nt->n; i++) {
		files[i] = nt->runs[i].results;
		if (wt_results_load(files[i], &nt->docs[i], err, errlen)) {
			free(files);
			return -1;
		}
	}
	nt->merged = wt_results_merge(nt->docs, files, nt->n);
	free(files);
	if (!nt->merged) {
		snprintf(err, errlen, "out of memory merging results");
		return -1;
	}
	return 0;
}

/* NIGHT/NAME.html for results file DIR/NAME.json, made unique in the night. */
static char *report_name(struct night *nt, unsigned i)
{
	const char *path = nt->runs[i].results, *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t len = strlen(base);
	char *name = NULL;

	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	/* Bounded: at most i earlier names can collide. */
	for (unsigned k = 1; k <= i + 1; k++) {
		int dup = 0;

		free(name);
		if ((k == 1 ? asprintf(&name, "%s/%.*s.html", nt->id, (int)len, base) :
			      asprintf(&name, "%s/%.*s-%u.html", nt->id, (int)len,
				       base, k)) < 0)
			return NULL;
		for (unsigned j = 0; j < i && !dup; j++)
			dup = nt->reports[j] && !strcmp(nt->reports[j], name);
		if (!dup)
			break;
	}
	return name;
}

/* wt_report_opts.signature_seen: against the history as it was. */
static int seen(void *arg, const char *suite, const char *scenario,
		const char *signature)
{
	struct night *nt = arg;

	if (!nt->seen_db)
		return 0;	/* no history yet: every group is new */
	return wt_history_signature_seen(nt->seen_db, nt->id,
		wt_json_str(json_object_get(nt->merged, "run"), "started"),
		suite, scenario, signature);
}

/*
 * The history as it was before tonight, read-only, to mark new groups in
 * the reports (written before the night is recorded).  No database yet:
 * NULL, nothing seen.  A database from before the signatures table
 * (version 1) is upgraded when the night is recorded; read now, it has
 * none: NULL as well.
 */
static void open_seen(struct night *nt)
{
	struct stat st;
	sqlite3_stmt *q = NULL;

	if (stat(nt->db_path, &st) < 0 ||
	    sqlite3_open_v2(nt->db_path, &nt->seen_db, SQLITE_OPEN_READONLY,
			    NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(nt->seen_db, "SELECT 1 FROM signatures LIMIT 1",
			       -1, &q, NULL) != SQLITE_OK) {
		sqlite3_close(nt->seen_db);
		nt->seen_db = NULL;
	}
	sqlite3_finalize(q);
	if (nt->seen_db)
		sqlite3_busy_timeout(nt->seen_db, 10000);
}

static int write_reports(struct night *nt, char *err, size_t errlen)
{
	const struct wt_report_opts opts = {
		.index_href = "../index.html",
		.signature_seen = seen,
		.seen_arg = nt,
	};
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/%s", nt->out_dir, nt->id);
	for (unsigned i = 0; i < nt->n; i++) {
		char path[4096];
		struct wt_atomic_file a;

		if (nt->runs[i].report) {
			nt->reports[i] = strdup(nt->runs[i].report);
			if (!nt->reports[i])
				goto oom;
			continue;
		}
		nt->reports[i] = report_name(nt, i);
		if (!nt->reports[i])
			goto oom;
		snprintf(path, sizeof(path), "%s/%s", nt->out_dir, nt->reports[i]);
		if (wt_mkdirs(dir, err, errlen) || wt_atomic_open(&a, path, err, errlen))
			return -1;
		wt_report_render(a.f, nt->docs[i], &opts);
		if (wt_atomic_commit(&a, err, errlen))
			return -1;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/*
 * The path the index trends for a scenario: an undirected twin's first
 * target (the path its directed file forces: how often it happens
 * unforced), the first one its expectations name ("path NAME == 1"),
 * else its most frequent path besides rcu.ok, else rcu.ok.
 */
static const char *key_path_of(json_t *sc)
{
	json_t *paths = json_object_get(sc, "paths"), *e;
	json_t *target = json_array_get(json_object_get(json_object_get(sc,
		"twin"), "targets"), 0);
	const char *best = NULL, *name;
	long long best_n = 0;
	json_t *x;
	size_t i;

	if (wt_json_str(target, "path"))
		return wt_json_str(target, "path");

	json_array_foreach(json_object_get(sc, "expectations"), i, e) {
		const char *t = wt_json_str(e, "text");
		const char *key;

		if (!t || strncmp(t, "path ", 5))
			continue;
		json_object_foreach(paths, key, x) {
			size_t kl = strlen(key);

			if (!strncmp(t + 5, key, kl) && (t[5 + kl] == ' ' || !t[5 + kl]))
				return key;
		}
	}
	json_object_foreach(paths, name, x) {
		if (strcmp(name, "rcu.ok") && json_integer_value(x) > best_n) {
			best = name;
			best_n = json_integer_value(x);
		}
	}
	if (best)
		return best;
	return json_object_get(paths, "rcu.ok") ? "rcu.ok" : NULL;
}

/* Which run's report shows a scenario: the first run where it failed, else the first. */
static char *report_for(struct night *nt, json_t *sc)
{
	const char *suite = wt_json_str(sc, "suite"), *name = wt_json_str(sc, "name");
	int best_run = -1, best_pos = -1;
	char *s = NULL;
	json_t *x;
	size_t j;

	for (unsigned i = 0; i < nt->n; i++) {
		json_array_foreach(json_object_get(nt->docs[i], "scenarios"), j, x) {
			if (strcmp(wt_json_str(x, "suite"), suite) ||
			    strcmp(wt_json_str(x, "name"), name))
				continue;
			if (best_run < 0 || (!strcmp(wt_scenario_verdict(x), "FAIL") &&
					     strcmp(wt_scenario_verdict(json_array_get(
						json_object_get(nt->docs[best_run], "scenarios"),
						(size_t)best_pos)), "FAIL"))) {
				best_run = (int)i;
				best_pos = (int)j;
			}
		}
	}
	if (best_run >= 0 && asprintf(&s, "%s#s-%d", nt->reports[best_run], best_pos) < 0)
		s = NULL;
	return s;
}

static void free_rows(struct wt_history_row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++) {
		free((char *)rows[i].paths_json);
		free((char *)rows[i].report_file);
	}
	free(rows);
}

static struct wt_history_row *build_rows(struct night *nt, size_t *n)
{
	json_t *scenarios = json_object_get(nt->merged, "scenarios"), *sc;
	struct wt_history_row *rows;
	size_t i;

	*n = json_array_size(scenarios);
	rows = calloc(*n ? *n : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	json_array_foreach(scenarios, i, sc) {
		rows[i] = (struct wt_history_row){
			.suite = wt_json_str(sc, "suite"),
			.scenario = wt_json_str(sc, "name"),
			.verdict = wt_scenario_verdict(sc),
			.iterations = wt_json_int(sc, "iterations", 0),
			.failures = wt_scenario_failure_records(sc),
			.paths_json = json_dumps(json_object_get(sc, "paths"),
						 JSON_COMPACT | JSON_SORT_KEYS),
			.key_path = key_path_of(sc),
			.report_file = report_for(nt, sc),
		};
		if (!rows[i].paths_json || !rows[i].report_file) {
			free_rows(rows, i + 1);
			return NULL;
		}
	}
	return rows;
}

/*
 * Where a group's representative card is: the first run whose results
 * have the scenario with a kept record of that signature ("NIGHT/x.html
 * #f-J-K"), else the scenario's report.
 */
static char *card_for(struct night *nt, json_t *sc, const char *sig)
{
	const char *suite = wt_json_str(sc, "suite"), *name = wt_json_str(sc, "name");
	char *s = NULL;
	json_t *x, *g, *groups;
	size_t j, k;

	for (unsigned i = 0; i < nt->n && !s; i++) {
		json_array_foreach(json_object_get(nt->docs[i], "scenarios"), j, x) {
			if (strcmp(wt_json_str(x, "suite"), suite) ||
			    strcmp(wt_json_str(x, "name"), name))
				continue;
			groups = wt_scenario_groups(x);
			json_array_foreach(groups, k, g) {
				json_t *rep = json_object_get(g, "representative");

				if (s || !json_is_integer(rep) ||
				    strcmp(wt_json_str(g, "signature"), sig))
					continue;
				if (asprintf(&s, "%s#f-%zu-%lld", nt->reports[i],
					     j, (long long)json_integer_value(rep)) < 0)
					s = NULL;
			}
			json_decref(groups);
			if (s)
				break;
		}
	}
	return s ? s : report_for(nt, sc);
}

static void free_sigs(struct wt_history_sig *v, json_t **groups, size_t n,
		      size_t nsc)
{
	for (size_t i = 0; v && i < n; i++)
		free((char *)v[i].report_file);
	for (size_t i = 0; groups && i < nsc; i++)
		json_decref(groups[i]);
	free(groups);
	free(v);
}

/* The night's failure groups, a row per (scenario, signature); the
 * strings point into groups[], which the caller frees after recording. */
static struct wt_history_sig *build_sigs(struct night *nt, json_t ***groups_out,
					 size_t *n)
{
	json_t *scenarios = json_object_get(nt->merged, "scenarios"), *sc, *g;
	size_t nsc = json_array_size(scenarios), cap = 0, i, k;
	json_t **groups = calloc(nsc + 1, sizeof(*groups));
	struct wt_history_sig *v = NULL;

	*n = 0;
	*groups_out = groups;
	if (!groups)
		return NULL;
	json_array_foreach(scenarios, i, sc) {
		groups[i] = wt_scenario_groups(sc);
		cap += json_array_size(groups[i]);
	}
	v = calloc(cap + 1, sizeof(*v));
	if (!v)
		return NULL;
	json_array_foreach(scenarios, i, sc) {
		json_array_foreach(groups[i], k, g) {
			struct wt_history_sig *r = &v[(*n)++];

			*r = (struct wt_history_sig){
				.suite = wt_json_str(sc, "suite"),
				.scenario = wt_json_str(sc, "name"),
				.signature = wt_json_str(g, "signature"),
				.count = wt_json_int(g, "count", 0),
				.first_seed = wt_json_str(g, "first_seed"),
				.report_file = card_for(nt, sc,
						wt_json_str(g, "signature")),
			};
			if (!r->signature || !r->report_file) {
				free_sigs(v, NULL, *n, 0);
				return NULL;
			}
		}
	}
	return v;
}

static int record(struct night *nt, char *err, size_t errlen)
{
	json_t *run = json_object_get(nt->merged, "run");
	struct wt_history_night night = {
		.night_id = nt->id,
		.started = wt_json_str(run, "started"),
		.seed = nt->seed ? nt->seed : wt_json_str(run, "seed"),
		.git_rev = wt_json_str(run, "git_rev"),
		.verdict = wt_results_verdict(nt->merged),
	};
	struct wt_history_row *rows;
	struct wt_history_sig *sigs;
	json_t **groups;
	sqlite3 *db;
	size_t n, nsigs;
	int ret;

	rows = build_rows(nt, &n);
	sigs = build_sigs(nt, &groups, &nsigs);
	if (!rows || !sigs) {
		free_rows(rows, n);
		free_sigs(NULL, groups, 0, json_array_size(json_object_get(
			nt->merged, "scenarios")));
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ret = wt_history_open(nt->db_path, &db, err, errlen);
	if (!ret)
		ret = wt_history_record(db, nt->db_path, &night, rows, n, sigs,
					nsigs, err, errlen);
	if (!ret)
		ret = wt_index_render(db, nt->db_path, nt->out_dir, err, errlen);
	sqlite3_close(db);
	free_rows(rows, n);
	free_sigs(sigs, groups, nsigs, json_array_size(json_object_get(
		nt->merged, "scenarios")));
	return ret;
}

static void night_free(struct night *nt)
{
	for (unsigned i = 0; i < nt->n; i++) {
		if (nt->docs)
			json_decref(nt->docs[i]);
		if (nt->reports)
			free(nt->reports[i]);
	}
	free(nt->docs);
	free(nt->reports);
	json_decref(nt->merged);
	free(nt->db_path);
	sqlite3_close(nt->seen_db);
}

static char *default_db(const char *out_dir, const char *history_db)
{
	char *s = NULL;

	if (history_db)
		return strdup(history_db);
	if (asprintf(&s, "%s/history.sqlite", out_dir) < 0)
		return NULL;
	return s;
}

int wt_nightly_index_runs(const char *out_dir, const char *history_db,
			  const char *night_id, const char *night_seed,
			  const struct wt_night_run *runs, unsigned n,
			  char *err, size_t errlen)
{
	struct night nt = { .out_dir = out_dir, .runs = runs, .n = n,
			    .seed = night_seed };
	int ret = -1;

	err[0] = 0;
	if (!n) {
		snprintf(err, errlen, "index: no results files given");
		return -1;
	}
	if (night_id && !night_id_ok(night_id)) {
		snprintf(err, errlen, "night id '%s': use 1 to %d letters, digits, "
			 "'.', '_' or '-', not starting with '.'", night_id,
			 NIGHT_ID_MAX);
		return -1;
	}
	nt.db_path = default_db(out_dir, history_db);
	if (!nt.db_path || load_inputs(&nt, err, errlen))
		goto out;
	if (night_id)
		snprintf(nt.id, sizeof(nt.id), "%s", night_id);
	else
		derive_night_id(wt_json_str(json_object_get(nt.merged, "run"), "started"),
				nt.id, sizeof(nt.id));
	open_seen(&nt);
	if (wt_mkdirs(out_dir, err, errlen) || write_reports(&nt, err, errlen) ||
	    record(&nt, err, errlen))
		goto out;
	ret = 0;
out:
	if (ret && !err[0])
		snprintf(err, errlen, "out of memory");
	night_free(&nt);
	return ret;
}

int wt_nightly_index(const char *out_dir, const char *history_db,
		     const char *night_id, const char *const *result_files,
		     unsigned n, char *err, size_t errlen)
{
	struct wt_night_run *runs = calloc(n ? n : 1, sizeof(*runs));
	int ret;

	if (!runs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		runs[i].results = result_files[i];
	ret = wt_nightly_index_runs(out_dir, history_db, night_id, NULL, runs,
				    n, err, errlen);
	free(runs);
	return ret;
}

int wt_index_write(const char *out_dir, const char *history_db, char *err,
		   size_t errlen)
{
	char *path = default_db(out_dir, history_db);
	struct stat stbuf;
	sqlite3 *db;
	int ret = -1;

	if (!path) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (stat(path, &stbuf) < 0)
		snprintf(err, errlen, "%s: no history database (index some results first)",
			 path);
	else if (!wt_mkdirs(out_dir, err, errlen) &&
		 !wt_history_open(path, &db, err, errlen)) {
		ret = wt_index_render(db, path, out_dir, err, errlen);
		sqlite3_close(db);
	}
	free(path);
	return ret;
}

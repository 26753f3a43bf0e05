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

static int write_reports(struct night *nt, char *err, size_t errlen)
{
	static const struct wt_report_opts opts = { .index_href = "../index.html" };
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

static int record(struct night *nt, char *err, size_t errlen)
{
	json_t *run = json_object_get(nt->merged, "run");
	struct wt_history_night night = {
		.night_id = nt->id,
		.started = wt_json_str(run, "started"),
		.seed = wt_json_str(run, "seed"),
		.git_rev = wt_json_str(run, "git_rev"),
		.verdict = wt_results_verdict(nt->merged),
	};
	struct wt_history_row *rows;
	sqlite3 *db;
	size_t n;
	int ret;

	rows = build_rows(nt, &n);
	if (!rows) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ret = wt_history_open(nt->db_path, &db, err, errlen);
	if (!ret)
		ret = wt_history_record(db, nt->db_path, &night, rows, n, err, errlen);
	if (!ret)
		ret = wt_index_render(db, nt->db_path, nt->out_dir, err, errlen);
	sqlite3_close(db);
	free_rows(rows, n);
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
			  const char *night_id, const struct wt_night_run *runs,
			  unsigned n, char *err, size_t errlen)
{
	struct night nt = { .out_dir = out_dir, .runs = runs, .n = n };
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
	ret = wt_nightly_index_runs(out_dir, history_db, night_id, runs, n,
				    err, errlen);
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

/* SPDX-License-Identifier: MIT */
/* The nightly history database: schema, and one transaction per night. */
#include <stdio.h>
#include <string.h>

#include "reports/history.h"

static wt_history_fault_fn fault_fn;
static void *fault_arg;

void wt_history_set_fault(wt_history_fault_fn fn, void *arg)
{
	fault_fn = fn;
	fault_arg = arg;
}

/* Empty on purpose: "break wt_reports_fault_hit" stops where a fault fires. */
void wt_reports_fault_hit(void)
{
	__asm__ volatile("" ::: "memory");
}

/* Version 1's tables, then version 2's (IF NOT EXISTS: the same text
 * creates a new database and upgrades a version 1 one). */
static const char schema[] =
	"BEGIN IMMEDIATE;"
	"CREATE TABLE IF NOT EXISTS nights("
	" night_id TEXT PRIMARY KEY,"
	" started TEXT,"
	" seed TEXT,"
	" git_rev TEXT,"
	" verdict TEXT NOT NULL CHECK (verdict IN ('PASS', 'FAIL')),"
	" recorded TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));"
	"CREATE TABLE IF NOT EXISTS results("
	" night_id TEXT NOT NULL REFERENCES nights(night_id) ON DELETE CASCADE,"
	" suite TEXT NOT NULL,"
	" scenario TEXT NOT NULL,"
	" verdict TEXT NOT NULL CHECK (verdict IN ('PASS', 'FAIL')),"
	" iterations INTEGER NOT NULL,"
	" failures INTEGER NOT NULL,"
	" paths_json TEXT NOT NULL,"
	" key_path TEXT,"
	" report_file TEXT,"
	" PRIMARY KEY (night_id, suite, scenario));"
	"CREATE INDEX IF NOT EXISTS results_by_scenario ON results(suite, scenario);"
	"CREATE TABLE IF NOT EXISTS signatures("
	" night_id TEXT NOT NULL REFERENCES nights(night_id) ON DELETE CASCADE,"
	" suite TEXT NOT NULL,"
	" scenario TEXT NOT NULL,"
	" signature TEXT NOT NULL,"
	" count INTEGER NOT NULL,"
	" first_seed TEXT,"
	" report_file TEXT,"
	" PRIMARY KEY (night_id, suite, scenario, signature));"
	"CREATE INDEX IF NOT EXISTS signatures_by_group"
	" ON signatures(suite, scenario, signature);"
	"PRAGMA user_version = 2;"
	"COMMIT;";

static int db_fail(sqlite3 *db, const char *path, const char *what,
		   char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s: %s", path, what, sqlite3_errmsg(db));
	return -1;
}

static int user_version(sqlite3 *db, int *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

int wt_history_open(const char *path, sqlite3 **db, char *err, size_t errlen)
{
	int v;

	*db = NULL;
	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			    NULL) != SQLITE_OK) {
		db_fail(*db, path, "cannot open the history database", err, errlen);
		goto fail;
	}
	/* Another night's index may be writing: wait for it rather than fail. */
	sqlite3_busy_timeout(*db, 10000);
	if (sqlite3_exec(*db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    user_version(*db, &v)) {
		db_fail(*db, path, "not a history database", err, errlen);
		goto fail;
	}
	if (v > WT_HISTORY_VERSION) {
		snprintf(err, errlen, "%s: history schema version %d is newer than "
			 "this walktorture's (%d)", path, v, WT_HISTORY_VERSION);
		goto fail;
	}
	if (v < WT_HISTORY_VERSION &&
	    sqlite3_exec(*db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(*db, path, "cannot create the history schema", err, errlen);
		sqlite3_exec(*db, "ROLLBACK", NULL, NULL, NULL);
		goto fail;
	}
	return 0;
fail:
	sqlite3_close(*db);
	*db = NULL;
	return -1;
}

static int bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) :
		   sqlite3_bind_null(st, i);
}

static int insert_night(sqlite3 *db, const struct wt_history_night *n)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db,
		"INSERT INTO nights(night_id, started, seed, git_rev, verdict) "
		"VALUES (?, ?, ?, ?, ?)", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	bind_text(st, 1, n->night_id);
	bind_text(st, 2, n->started);
	bind_text(st, 3, n->seed);
	bind_text(st, 4, n->git_rev);
	bind_text(st, 5, n->verdict);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int insert_row(sqlite3_stmt *st, const char *night,
		      const struct wt_history_row *r)
{
	int rc;

	sqlite3_reset(st);
	bind_text(st, 1, night);
	bind_text(st, 2, r->suite);
	bind_text(st, 3, r->scenario);
	bind_text(st, 4, r->verdict);
	sqlite3_bind_int64(st, 5, r->iterations);
	sqlite3_bind_int64(st, 6, r->failures);
	bind_text(st, 7, r->paths_json);
	bind_text(st, 8, r->key_path);
	bind_text(st, 9, r->report_file);
	rc = sqlite3_step(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int delete_night(sqlite3 *db, const char *night)
{
	static const char *const sql[] = {
		"DELETE FROM signatures WHERE night_id = ?",
		"DELETE FROM results WHERE night_id = ?",
		"DELETE FROM nights WHERE night_id = ?",
	};

	for (size_t i = 0; i < 3; i++) {
		sqlite3_stmt *st;
		int rc = sqlite3_prepare_v2(db, sql[i], -1, &st, NULL);

		if (rc != SQLITE_OK)
			return rc;
		bind_text(st, 1, night);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return rc;
	}
	return SQLITE_OK;
}

static int insert_rows(sqlite3 *db, const char *path, const char *night,
		       const struct wt_history_row *rows, size_t n,
		       char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO results(night_id, suite, scenario, "
			       "verdict, iterations, failures, paths_json, key_path, "
			       "report_file) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, path, "prepare", err, errlen);
	for (size_t i = 0; i < n && !ret; i++) {
		if (fault_fn && fault_fn(fault_arg, i)) {
			wt_reports_fault_hit();
			snprintf(err, errlen, "%s: injected fault before row %zu "
				 "(%s/%s)", path, i, rows[i].suite, rows[i].scenario);
			ret = -1;
		} else if (insert_row(st, night, &rows[i]) != SQLITE_OK) {
			ret = db_fail(db, path, "insert", err, errlen);
		}
	}
	sqlite3_finalize(st);
	return ret;
}

static int insert_sigs(sqlite3 *db, const char *path, const char *night,
		       const struct wt_history_sig *sigs, size_t n,
		       char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO signatures(night_id, suite, "
			       "scenario, signature, count, first_seed, "
			       "report_file) VALUES (?, ?, ?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(db, path, "prepare", err, errlen);
	for (size_t i = 0; i < n && !ret; i++) {
		sqlite3_reset(st);
		bind_text(st, 1, night);
		bind_text(st, 2, sigs[i].suite);
		bind_text(st, 3, sigs[i].scenario);
		bind_text(st, 4, sigs[i].signature);
		sqlite3_bind_int64(st, 5, sigs[i].count);
		bind_text(st, 6, sigs[i].first_seed);
		bind_text(st, 7, sigs[i].report_file);
		if (sqlite3_step(st) != SQLITE_DONE)
			ret = db_fail(db, path, "insert signature", err, errlen);
	}
	sqlite3_finalize(st);
	return ret;
}

int wt_history_signature_seen(sqlite3 *db, const char *night_id,
			      const char *started, const char *suite,
			      const char *scenario, const char *signature)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM signatures s JOIN nights n "
			       "USING (night_id) WHERE s.suite = ?1 AND "
			       "s.scenario = ?2 AND s.signature = ?3 AND "
			       "s.night_id <> ?4 AND (?5 IS NULL OR "
			       "n.started IS NULL OR n.started <= ?5) LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	bind_text(st, 1, suite);
	bind_text(st, 2, scenario);
	bind_text(st, 3, signature);
	bind_text(st, 4, night_id);
	bind_text(st, 5, started);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int wt_history_record(sqlite3 *db, const char *path,
		      const struct wt_history_night *night,
		      const struct wt_history_row *rows, size_t n,
		      const struct wt_history_sig *sigs, size_t nsigs,
		      char *err, size_t errlen)
{
	/* IMMEDIATE: take the write lock now, not halfway through the night. */
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, path, "begin", err, errlen);
	if (delete_night(db, night->night_id) != SQLITE_OK ||
	    insert_night(db, night) != SQLITE_OK) {
		db_fail(db, path, "recording the night", err, errlen);
		goto rollback;
	}
	if (insert_rows(db, path, night->night_id, rows, n, err, errlen) ||
	    insert_sigs(db, path, night->night_id, sigs, nsigs, err, errlen))
		goto rollback;
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(db, path, "commit", err, errlen);
		goto rollback;
	}
	return 0;
rollback:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

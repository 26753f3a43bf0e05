/* SPDX-License-Identifier: MIT */
/*
 * The nightly history database (SQLite, rollback journal).
 *
 *   nights(night_id PRIMARY KEY, started, seed, git_rev, verdict, recorded)
 *   results(night_id, suite, scenario, verdict, iterations, failures,
 *           paths_json, key_path, report_file,
 *           PRIMARY KEY (night_id, suite, scenario))
 *   signatures(night_id, suite, scenario, signature, count, first_seed,
 *           report_file, PRIMARY KEY (night_id, suite, scenario, signature))
 *	     (version 2: the night's failure groups, so that a group never
 *	     seen before can be marked NEW)
 *
 * PRAGMA user_version holds the schema version (2; a version 1 database
 * gains the signatures table when it is opened, and its nights have no
 * signatures recorded).  A night is recorded in
 * one transaction (recording the same night again replaces it), so an
 * interrupted write - an error, a crash, a kill - leaves the history as it
 * was before.  The rollback journal, not WAL, because OUT may live on a
 * network filesystem.
 */
#ifndef WT_REPORTS_HISTORY_H
#define WT_REPORTS_HISTORY_H

#include <stddef.h>

#include <sqlite3.h>

#define WT_HISTORY_VERSION 2

struct wt_history_night {
	const char *night_id, *started, *seed, *git_rev, *verdict;
};

struct wt_history_row {
	const char *suite, *scenario, *verdict;
	long long iterations, failures;
	const char *paths_json;		/* the scenario's "paths" object */
	const char *key_path;		/* the path the index trends, or NULL */
	const char *report_file;	/* relative to the index, or NULL */
};

/* One failure group of a scenario tonight (results "groups"). */
struct wt_history_sig {
	const char *suite, *scenario, *signature;
	long long count;		/* failing iterations */
	const char *first_seed;		/* or NULL */
	const char *report_file;	/* its representative's card, or NULL */
};

/* Open (creating or upgrading the schema); returns 0 or -1 with err set. */
int wt_history_open(const char *path, sqlite3 **db, char *err, size_t errlen);

/* Record one night and its rows in one transaction (replacing that night). */
int wt_history_record(sqlite3 *db, const char *path,
		      const struct wt_history_night *night,
		      const struct wt_history_row *rows, size_t n,
		      const struct wt_history_sig *sigs, size_t nsigs,
		      char *err, size_t errlen);

/*
 * Was this scenario's failure signature recorded on a night other than
 * night_id that started no later than `started' (NULL: any other night;
 * a night indexed again later does not see the nights after it)?  1 yes,
 * 0 no (never: it is NEW), -1 on a database error.
 */
int wt_history_signature_seen(sqlite3 *db, const char *night_id,
			      const char *started, const char *suite,
			      const char *scenario, const char *signature);

/*
 * Fault injection for the anomaly tests: fn is called before each row is
 * inserted; a non-zero answer fails the recording there (as a full disk
 * would), and fn may also kill the process to simulate a crash.
 * wt_reports_fault_hit() is an empty function to break on in gdb.
 */
typedef int (*wt_history_fault_fn)(void *arg, size_t row);

void wt_history_set_fault(wt_history_fault_fn fn, void *arg);
void wt_reports_fault_hit(void);

#endif /* WT_REPORTS_HISTORY_H */

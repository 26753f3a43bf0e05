/* SPDX-License-Identifier: MIT */
/*
 * A nightly's OUT directory: claiming tonight's night id, and tidying
 * the unfinished nights before it (night_dir.h).
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "cli/night_dir.h"
#include "reports/unfinished.h"

#define NIGHT_SUFFIX_MAX 1000	/* nights one OUT may start in one second */

/* Does the history (if there is one yet) hold night id? */
static bool night_recorded(const char *history, const char *id)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	bool found = false;
	const char *path = history;

	/* read-only: no file, no table, no row -- all the same here */
	if (path && access(path, F_OK) == 0 &&
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT 1 FROM nights WHERE night_id = ?",
			       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC) == SQLITE_OK)
		found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	sqlite3_close(db);
	return found;
}

/*
 * The night's id (night_dir.h).  The suffixes: recording an id again
 * replaces that night, so a second nightly started in the same second
 * into the same OUT would wipe the first.  mkdir claims the id, so two
 * nightlies racing there cannot both take one.
 */
int wt_night_claim_id(const char *out, const char *history, time_t started,
		      char *id, size_t len)
{
	char base[32], *dir;
	struct tm tm;
	int made, saved = 0;

	gmtime_r(&started, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H%M%SZ", &tm);
	for (unsigned k = 1; k <= NIGHT_SUFFIX_MAX; k++) {
		if (k == 1)
			snprintf(id, len, "%s", base);
		else
			snprintf(id, len, "%s-%u", base, k);
		if (asprintf(&dir, "%s/%s", out, id) < 0)
			return -1;
		made = mkdir(dir, 0777) == 0;
		saved = made ? 0 : errno;
		if (made && night_recorded(history, id)) {
			rmdir(dir);	/* its directory was removed, not its row */
			made = 0;
			saved = EEXIST;
		}
		free(dir);
		if (made)
			return 0;
		if (saved != EEXIST)
			break;		/* not a collision: mkdir cannot work */
	}
	fprintf(stderr, "walktorture: !!! %s: no free night id for %s: %s\n",
		out, base, saved ? strerror(saved) : "all taken");
	return -1;
}

/*
 * The nights in OUT that ended unrecorded (reports/unfinished.h): a
 * killed one's journals become its partial results, its stale
 * temporaries go, one that wrote nothing goes; each is said here, and
 * the index lists them.  Nothing here stops tonight's night.
 */
void wt_night_tidy(const char *out_dir, const char *history, FILE *out)
{
	const char *path = history;
	struct wt_unfinished *v = NULL;
	char err[1024], state[64];
	sqlite3 *db = NULL;
	size_t nv = 0;

	if (access(path, F_OK) == 0 &&
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		db = NULL;
	}
	if (wt_unfinished_nights(out_dir, db, true, out, &v, &nv, err,
				 sizeof(err)))
		fprintf(stderr, "walktorture: !!! unfinished nights in %s: %s\n",
			out_dir, err);
	for (size_t i = 0; i < nv; i++) {
		if (v[i].state == WT_NIGHT_RUNNING)
			fprintf(out, "walktorture: night %s is running (another "
				"nightly holds %s/%s/%s)\n", v[i].id, out_dir,
				v[i].id, WT_NIGHT_LOCK);
		else
			fprintf(out, "walktorture: unfinished night %s (%s): %lld "
				"scenarios, %lld failed, in %s/%s; not in the "
				"history\n", v[i].id,
				wt_unfinished_state_text(&v[i], state, sizeof(state)),
				v[i].scenarios, v[i].failed, out_dir, v[i].id);
	}
	fflush(out);
	wt_unfinished_free(v, nv);
	sqlite3_close(db);
}

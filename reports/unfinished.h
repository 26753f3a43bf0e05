/* SPDX-License-Identifier: MIT */
/*
 * Unfinished nights: the night directories under a nightly OUT that the
 * history does not hold.  `walktorture nightly' claims OUT/ID and holds
 * an exclusive flock on OUT/ID/.night.lock while it runs (its isolated
 * children share the lock; the kernel drops it when the process dies,
 * SIGKILL included), so a directory with that file, not in the history
 * and not locked, is a night that ended without being recorded:
 *
 *   killed       it died: a seed's results journal (journal.h) is left,
 *                or the results recovered from one say "killed", or
 *                nothing at all was written
 *   interrupted  SIGINT/SIGTERM: its results say so ("partial")
 *   unindexed    its results are whole, its index failed
 *   running      locked: another nightly is running it
 *
 * A directory without the lock file is not a night of ours and is
 * ignored: neither listed nor tidied (nights written before the lock
 * existed were recorded by the nightly that ran them; one that died
 * then is left as it is, for whoever knows what it is to remove).
 */
#ifndef WT_REPORTS_UNFINISHED_H
#define WT_REPORTS_UNFINISHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <sqlite3.h>

#define WT_NIGHT_LOCK ".night.lock"

enum wt_unfinished_state {
	WT_NIGHT_RUNNING,
	WT_NIGHT_KILLED,
	WT_NIGHT_INTERRUPTED,
	WT_NIGHT_UNINDEXED,
};

struct wt_unfinished {
	char *id;
	enum wt_unfinished_state state;
	char *why;			/* "killed", "SIGINT", ...; or NULL */
	long long scenarios, failed;	/* in its results (and journals) */
	char **files;			/* its results files, relative to OUT */
	size_t nfiles;
};

/*
 * Create night_dir/.night.lock and hold an exclusive lock on it for the
 * life of the process (*fd; close it to let go).  0, or -1 with err set.
 */
int wt_night_lock(const char *night_dir, int *fd, char *err, size_t errlen);

/*
 * The unfinished nights under out_dir, sorted by id (*v: free with
 * wt_unfinished_free).  db: the history (NULL or a database without the
 * table: none recorded).  tidy: with a line on log per action, for each
 * night not running, turn its journals into results files (partial,
 * "interrupted": "killed"; a journal whose results file exists is
 * removed), remove its stale temporaries (.NAME.tmp.XXXXXX), and remove
 * the directory of one that wrote no results at all (its generated
 * workloads with it); and, while no night is running, OUT's own stale
 * temporaries (.index.html.tmp.XXXXXX).  0, or -1 with err set (what
 * was done stays done).
 */
int wt_unfinished_nights(const char *out_dir, sqlite3 *db, bool tidy,
			 FILE *log, struct wt_unfinished **v, size_t *n,
			 char *err, size_t errlen);
void wt_unfinished_free(struct wt_unfinished *v, size_t n);

/* "killed", "interrupted by SIGINT", "not indexed", "running". */
const char *wt_unfinished_state_text(const struct wt_unfinished *u,
				     char *buf, size_t len);

#endif /* WT_REPORTS_UNFINISHED_H */

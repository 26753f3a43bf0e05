/* SPDX-License-Identifier: MIT */
/*
 * Atomic output files: write a temporary file in the target's directory,
 * then fsync and rename it over the target (and fsync the directory, so
 * the rename itself survives a power cut), so a reader (a browser, the
 * next night's index, a merge) sees the old file or the new one, never half
 * of one.  An abort (or a crash) leaves the old file in place.
 */
#ifndef WT_REPORTS_ATOMIC_FILE_H
#define WT_REPORTS_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

struct wt_atomic_file {
	FILE *f;
	char *path;		/* the target */
	char *tmp;		/* the temporary file beside it */
};

/* Open a temporary file for path; returns 0, or -1 with err set. */
int wt_atomic_open(struct wt_atomic_file *a, const char *path,
		   char *err, size_t errlen);
/* Flush, fsync and rename over the target; on error the target is untouched. */
int wt_atomic_commit(struct wt_atomic_file *a, char *err, size_t errlen);
/* Remove the temporary file; the target is untouched.  Safe after commit. */
void wt_atomic_abort(struct wt_atomic_file *a);

/* mkdir -p; returns 0 or -1 with err set. */
int wt_mkdirs(const char *dir, char *err, size_t errlen);

#endif /* WT_REPORTS_ATOMIC_FILE_H */

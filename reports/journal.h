/* SPDX-License-Identifier: MIT */
/*
 * A run's results journal: while a nightly seed runs, each finished
 * scenario is appended to RESULTS.journal (beside the RESULTS.json it
 * will write) as one line holding a whole results document of that one
 * scenario, and the line is on disk (fdatasync) before the next scenario
 * starts.  The seed's results file is written once, atomically, when
 * the seed ends, and the journal removed after it.  So a process that
 * dies (SIGKILL, an OOM kill, a power cut) between the two leaves a
 * journal from which wt_journal_recover makes the results of every
 * scenario that finished, marked partial.
 *
 * Append-safe: one write() per line, on a file opened O_APPEND; a line a
 * crash cut short (no newline, or not a results document) is the last
 * one, and recovery drops it and says so.
 */
#ifndef WT_REPORTS_JOURNAL_H
#define WT_REPORTS_JOURNAL_H

#include <stddef.h>

#include <jansson.h>

#define WT_JOURNAL_SUFFIX ".journal"

struct wt_journal {
	int fd;
	char *path;
};

/* Create (or truncate) path; 0, or -1 with err set. */
int wt_journal_open(struct wt_journal *j, const char *path, char *err,
		    size_t errlen);
/* Append doc as one line and sync it; 0, or -1 with err set. */
int wt_journal_append(struct wt_journal *j, json_t *doc, char *err,
		      size_t errlen);
/* Close; remove the file too when remove is set. */
void wt_journal_close(struct wt_journal *j, int remove);

/*
 * Results from a journal: its lines' scenarios and skipped entries in
 * order, the first line's run marked "partial": true and "interrupted":
 * why (unless a line says it was interrupted already), the summary
 * counted.  *lines: the whole lines used; *dropped: lines cut short or
 * unreadable (0 or 1 unless the file was damaged).  *out: a new
 * reference, validated; NULL with 0 returned when no line was whole.
 */
int wt_journal_read(const char *path, const char *why, json_t **out,
		    unsigned *lines, unsigned *dropped, char *err,
		    size_t errlen);

#endif /* WT_REPORTS_JOURNAL_H */

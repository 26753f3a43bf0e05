/* SPDX-License-Identifier: MIT */
/*
 * A nightly's OUT directory (cli/cmd_nightly.c): tonight's night id,
 * claimed as OUT/ID, and the nights before it that ended unrecorded
 * (reports/unfinished.h), tidied and said before tonight's starts.
 */
#ifndef WT_CLI_NIGHT_DIR_H
#define WT_CLI_NIGHT_DIR_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

/*
 * The night's id: its start second, as the index would derive it
 * ("2026-12-03T060000Z"), then "-2", "-3", ... while OUT/ID or the
 * history's row of that id exists (history: the database path; it may
 * not exist yet).  OUT/ID is made.  0, or -1 (reported) with nothing
 * claimed.
 */
int wt_night_claim_id(const char *out, const char *history, time_t started,
		      char *id, size_t len);

/* The unfinished nights of OUT tidied (journals recovered, temporaries
 * and empty dead nights removed), each said on out. */
void wt_night_tidy(const char *out_dir, const char *history, FILE *out);

#endif /* WT_CLI_NIGHT_DIR_H */

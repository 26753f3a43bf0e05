/* SPDX-License-Identifier: MIT */
/*
 * Output paths (--json, --out, --history, --ktap, --junit), checked
 * before anything runs: a run of an hour that cannot write its results
 * must fail in its first second, not at the end.  Each check does what
 * the writer will do later, once, and undoes it: the atomic writer's
 * temporary file beside FILE, the directories of --out, the history's
 * open (which creates its schema).
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "reports/atomic_file.h"
#include "reports/history.h"

int wt_cli_output_file(const char *opt, const char *path)
{
	struct wt_atomic_file a;
	struct stat st;
	char err[1024];

	if (!path)
		return 0;
	if (!*path)
		return wt_usage_error("%s: an empty path", opt), -1;
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return wt_usage_error("%s %s: is a directory", opt, path), -1;
	if (wt_atomic_open(&a, path, err, sizeof(err)))
		return wt_usage_error("%s: %s", opt, err), -1;
	wt_atomic_abort(&a);	/* the temporary goes, path is untouched */
	return 0;
}

int wt_cli_output_dir(const char *opt, const char *dir)
{
	char err[1024], *probe;
	int ret;

	if (!dir)
		return 0;
	if (!*dir)
		return wt_usage_error("%s: an empty path", opt), -1;
	if (wt_mkdirs(dir, err, sizeof(err)))
		return wt_usage_error("%s: %s", opt, err), -1;
	if (asprintf(&probe, "%s/.walktorture-probe", dir) < 0)
		return wt_usage_error("out of memory"), -1;
	ret = wt_cli_output_file(opt, probe);
	free(probe);
	return ret;
}

int wt_cli_history_check(const char *opt, const char *path)
{
	struct stat st;
	sqlite3 *db = NULL;
	char err[1024];

	if (!path)
		return 0;
	if (!*path)	/* SQLite's "": a temporary database, thrown away */
		return wt_usage_error("%s: an empty path", opt), -1;
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return wt_usage_error("%s %s: not a regular file", opt, path), -1;
	if (wt_history_open(path, &db, err, sizeof(err)))
		return wt_usage_error("%s: %s", opt, err), -1;
	sqlite3_close(db);
	return 0;
}

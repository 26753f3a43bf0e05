/* SPDX-License-Identifier: MIT */
/* Helpers for the report tests: fixtures, temporary directories, the CLI. */
#ifndef WT_TEST_REPORT_UTIL_H
#define WT_TEST_REPORT_UTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

extern char **environ;

/* REL under the source tree (WT_SOURCE_DIR from the environment, else
 * the build's); eight results may be in use at a time. */
__attribute__((unused)) static const char *source_path(const char *rel)
{
	static char buf[8][PATH_MAX];
	static int next;
	const char *src = getenv("WT_SOURCE_DIR");
	char *out = buf[next++ % 8];

	snprintf(out, PATH_MAX, "%s/%s", src ? src : WT_SOURCE_DIR, rel);
	return out;
}

/* tests/data/NAME. */
__attribute__((unused)) static const char *fixture(const char *name)
{
	char rel[PATH_MAX / 2];

	snprintf(rel, sizeof(rel), "tests/data/%s", name);
	return source_path(rel);
}

#define TMPDIRS_MAX 16

/* The tmpdir()s this test made (each test runs in its own process). */
static char *tmpdirs_made[TMPDIRS_MAX];
static int tmpdirs_n;

/* A fresh temporary directory, removed when the test ends (tmpdirs_remove). */
__attribute__((unused)) static const char *tmpdir(void)
{
	char *d = strdup("/tmp/wt-report-test.XXXXXX");

	cr_assert_not_null(d);
	cr_assert_not_null(mkdtemp(d));
	cr_assert_lt(tmpdirs_n, TMPDIRS_MAX, "more than %d tmpdirs", TMPDIRS_MAX);
	tmpdirs_made[tmpdirs_n++] = d;
	return d;
}

__attribute__((unused)) static const char *path_in(const char *dir, const char *name)
{
	static char buf[8][PATH_MAX];
	static int next;
	char *out = buf[next++ % 8];

	cr_assert_lt(snprintf(out, PATH_MAX, "%s/%s", dir, name), PATH_MAX,
		     "path too long: %s/%s", dir, name);
	return out;
}

/* Remove dir and what it holds (files and directories, no more). */
__attribute__((unused)) static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			rm_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/*
 * The suites' .fini: remove this test's tmpdir()s, passed or failed (a
 * nightly test farm would fill /tmp otherwise); WT_KEEP_TMP=1 keeps them
 * for a look, and says where.
 */
__attribute__((unused)) static void tmpdirs_remove(void)
{
	bool keep = getenv("WT_KEEP_TMP") && *getenv("WT_KEEP_TMP");

	for (int i = 0; i < tmpdirs_n; i++) {
		if (keep)
			fprintf(stderr, "kept %s\n", tmpdirs_made[i]);
		else
			rm_tree(tmpdirs_made[i]);
		free(tmpdirs_made[i]);
	}
	tmpdirs_n = 0;
}

/* The whole file as a string (NULL if it cannot be read); caller frees. */
__attribute__((unused)) static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	} else {
		s[n] = 0;
	}
	fclose(f);
	return s;
}

__attribute__((unused)) static int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The walktorture binary: $WT_CLI, else ../cli/walktorture beside this test. */
__attribute__((unused)) static const char *cli_path(void)
{
	static char buf[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n;

	if (getenv("WT_CLI"))
		return getenv("WT_CLI");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	cr_assert_gt(n, 0);
	exe[n] = 0;
	snprintf(buf, sizeof(buf), "%s/../cli/walktorture", dirname(exe));
	return buf;
}

/* Run the CLI with argv (NULL-terminated, argv[0] ignored); stderr to errfile. */
__attribute__((unused))
static int run_cli(const char *errfile, char *const *argv)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	cr_assert_eq(posix_spawn(&pid, cli_path(), &fa, NULL, argv, environ), 0,
		     "cannot run %s", cli_path());
	posix_spawn_file_actions_destroy(&fa);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

#endif /* WT_TEST_REPORT_UTIL_H */

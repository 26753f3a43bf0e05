/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the scenario tests: a scratch directory, files written into
 * it, and `walktorture' run as a child with its stdout, stderr and exit
 * status captured (the tests judge the command as its users see it).
 */
#ifndef WT_TEST_SCENARIO_UTIL_H
#define WT_TEST_SCENARIO_UTIL_H

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <jansson.h>

/* The tsan preset's Criterion stand-in (tests/tsan-runner) has cr_assert*
 * and cr_expect/cr_expect_eq only: the other expects as asserts there. */
#ifndef cr_expect_str_eq
#define cr_expect_str_eq cr_assert_str_eq
#endif
#ifndef cr_expect_str_neq
#define cr_expect_str_neq cr_assert_str_neq
#endif
#ifndef cr_expect_gt
#define cr_expect_gt cr_assert_gt
#endif
#ifndef cr_expect_not_null
#define cr_expect_not_null cr_assert_not_null
#endif
#ifndef cr_expect_fail
#define cr_expect_fail cr_assert_fail
#endif

#ifndef WT_WALKTORTURE
#error "WT_WALKTORTURE (the binary) comes from scenarios/CMakeLists.txt"
#endif

struct wt_test_dir {
	char path[256];
};

struct wt_test_run {
	int status;		/* exit status, or 128 + signal */
	char *out;
	char *err;
};

static inline void wt_test_dir_make(struct wt_test_dir *d)
{
	snprintf(d->path, sizeof(d->path), "/tmp/wt-scenario-test.XXXXXX");
	cr_assert_not_null(mkdtemp(d->path));
}

static inline void wt_test_dir_remove(struct wt_test_dir *d)
{
	char *cmd;

	if (asprintf(&cmd, "rm -rf '%s'", d->path) > 0) {
		cr_expect_eq(system(cmd), 0);
		free(cmd);
	}
}

static inline char *wt_test_write(struct wt_test_dir *d, const char *name,
				  const char *text)
{
	char *p;
	FILE *f;

	cr_assert(asprintf(&p, "%s/%s", d->path, name) > 0);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static inline char *wt_test_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return strdup("");
	{
		FILE *m = open_memstream(&buf, &len);
		char chunk[4096];
		size_t n;

		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			fwrite(chunk, 1, n, m);
		fclose(m);
	}
	fclose(f);
	return buf;
}

/*
 * Run path with argv (argv[0] included), stdout and stderr captured into
 * r.  The child must not assert: Criterion (--full-stats) would take a
 * message from a process that is not its test.
 */
static inline void wt_test_spawn(struct wt_test_run *r, const char *path,
				 const char *const *argv)
{
	char out[] = "/tmp/wt-out.XXXXXX", err[] = "/tmp/wt-err.XXXXXX";
	int fo = mkstemp(out), fe = mkstemp(err), st;
	pid_t pid;

	cr_assert(fo >= 0 && fe >= 0);
	pid = fork();
	if (pid == 0) {
		dup2(fo, 1);
		dup2(fe, 2);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	cr_assert(pid > 0);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	close(fo);
	close(fe);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out = wt_test_slurp(out);
	r->err = wt_test_slurp(err);
	unlink(out);
	unlink(err);
}

/* Run walktorture with argv (NULL-terminated, without argv[0]). */
static inline void wt_test_run(struct wt_test_run *r, const char **args)
{
	const char *argv[64] = { WT_WALKTORTURE };
	unsigned n = 1;

	while (args[n - 1] && n < 63) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	wt_test_spawn(r, WT_WALKTORTURE, argv);
}

static inline void wt_test_run_free(struct wt_test_run *r)
{
	free(r->out);
	free(r->err);
}

/* The line of r->out that starts with prefix (a copy), or NULL. */
static inline char *wt_test_line(const char *text, const char *prefix)
{
	for (const char *l = text; l && *l; ) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);

		if (!strncmp(l, prefix, strlen(prefix)))
			return strndup(l, len);
		l = e ? e + 1 : NULL;
	}
	return NULL;
}

/* The scenario called name in a results document, or NULL. */
static inline json_t *wt_test_scenario_named(json_t *doc, const char *name)
{
	size_t i;
	json_t *sc;

	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		if (!strcmp(json_string_value(json_object_get(sc, "name")), name))
			return sc;
	return NULL;
}

#endif /* WT_TEST_SCENARIO_UTIL_H */

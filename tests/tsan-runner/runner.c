/* SPDX-License-Identifier: MIT */
/*
 * The runner behind tests/tsan-runner/criterion/criterion.h: every test in
 * a forked child, with its init/fini and timeout; a Criterion-style
 * synthesis line at the end.  Exit 0 only when every test passed (or was
 * skipped or disabled).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "criterion/criterion.h"

#define SKIP_STATUS 77

static struct wt_shim_test *tests;
static struct wt_shim_suite *suites;

void wt_shim_register_suite(struct wt_shim_suite *s)
{
	s->next = suites;
	suites = s;
}

/* A test without its own init/fini/timeout takes its suite's. */
static void apply_suite(struct wt_shim_test *t)
{
	for (struct wt_shim_suite *s = suites; s; s = s->next) {
		if (strcmp(s->name, t->suite))
			continue;
		if (!t->extra.init)
			t->extra.init = s->extra.init;
		if (!t->extra.fini)
			t->extra.fini = s->extra.fini;
		if (t->extra.timeout <= 0)
			t->extra.timeout = s->extra.timeout;
		if (s->extra.disabled)
			t->extra.disabled = true;
	}
}

void wt_shim_register(struct wt_shim_test *t)
{
	t->next = tests;
	tests = t;
}

void wt_shim_fail(const char *file, int line, const char *what,
		  const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "[----] %s:%d: Assertion failed: %s", file, line, what);
	if (fmt && *fmt) {
		fputs(": ", stderr);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	fputc('\n', stderr);
	fflush(NULL);
	_exit(1);
}

void wt_shim_skip(const char *fmt, ...)
{
	va_list ap;

	fputs("[SKIP] ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(NULL);
	_exit(SKIP_STATUS);
}

void wt_shim_log(const char *level, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "[%s] ", level);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void run_child(const struct wt_shim_test *t)
{
	if (t->extra.timeout > 0)
		alarm((unsigned)t->extra.timeout + 1);
	if (t->extra.init)
		t->extra.init();
	t->fn();
	if (t->extra.fini)
		t->extra.fini();
	fflush(NULL);
	_exit(0);
}

/* 0 pass, 1 fail, 2 crash, 3 skip */
static int run_one(const struct wt_shim_test *t)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0)
		run_child(t);
	if (waitpid(pid, &status, 0) < 0)
		return 2;
	if (WIFSIGNALED(status)) {
		if (t->extra.signal && WTERMSIG(status) == t->extra.signal)
			return 0;
		fprintf(stderr, "[FAIL] %s::%s: CRASH (signal %d)\n",
			t->suite, t->name, WTERMSIG(status));
		return 2;
	}
	if (WEXITSTATUS(status) == SKIP_STATUS)
		return 3;
	if (t->extra.signal) {
		fprintf(stderr, "[FAIL] %s::%s: expected signal %d\n",
			t->suite, t->name, t->extra.signal);
		return 1;
	}
	if (WEXITSTATUS(status) != t->extra.exit_code) {
		fprintf(stderr, "[FAIL] %s::%s: exit %d\n", t->suite, t->name,
			WEXITSTATUS(status));
		return 1;
	}
	return 0;
}

static bool selected(const struct wt_shim_test *t, const char *filter)
{
	char full[256];

	if (!filter)
		return true;
	snprintf(full, sizeof(full), "%s/%s", t->suite, t->name);
	return strstr(full, filter) != NULL;
}

int main(int argc, char **argv)
{
	unsigned n = 0, pass = 0, fail = 0, crash = 0, skip = 0;
	const char *filter = NULL;

	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--filter=", 9))
			filter = argv[i] + 9;
	/* Registration ran in reverse order of definition: restore it. */
	struct wt_shim_test *rev = NULL;
	while (tests) {
		struct wt_shim_test *t = tests;
		tests = t->next;
		t->next = rev;
		rev = t;
	}
	for (struct wt_shim_test *t = rev; t; t = t->next) {
		apply_suite(t);
		if (!selected(t, filter) || t->extra.disabled)
			continue;
		n++;
		switch (run_one(t)) {
		case 0: pass++; break;
		case 1: fail++; break;
		case 2: crash++; break;
		default: skip++; break;
		}
	}
	printf("[====] Synthesis: Tested: %u | Passing: %u | Failing: %u | Crashing: %u | Skipped: %u\n",
	       n, pass, fail, crash, skip);
	return (fail || crash) ? 1 : 0;
}

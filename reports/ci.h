/* SPDX-License-Identifier: MIT */
/*
 * What CI tools read: KTAP (kunit.py, KernelCI) and JUnit XML (Jenkins,
 * GitLab) from a results document.  One test case per scenario (twins
 * and generated workloads alike), one suite per scenario suite, in the
 * order the document first names them; a skipped scenario is a skipped
 * case.  A failing case carries its failures' messages, replay commands
 * and signatures.  Both files are written atomically (atomic_file.h).
 */
#ifndef WT_REPORTS_CI_H
#define WT_REPORTS_CI_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct wt_ci_case {
	const char *name;
	json_t *sc;		/* the scenario; NULL for a skipped one */
	const char *skip;	/* why it was skipped, or NULL */
};

struct wt_ci_suite {
	const char *name;
	struct wt_ci_case *cases;
	unsigned n, failed, skipped;
	double duration_s;
};

struct wt_ci_run {
	struct wt_ci_suite *suites;
	unsigned n, cases, failed, skipped;
	double duration_s;
};

/* The suites and cases of a validated document (ci.c); 0, or -1 (out
 * of memory).  The strings point into doc. */
int wt_ci_collect(json_t *doc, struct wt_ci_run *r);
void wt_ci_free(struct wt_ci_run *r);

/* A scenario's kept failures as diagnostic lines, each through emit:
 * the counts, then per kept failure its message, replay and signature
 * (ci.c).  Newlines in the text become spaces. */
void wt_ci_failure_lines(json_t *sc,
			 void (*emit)(void *ctx, const char *key,
				      const char *text),
			 void *ctx);

/* Validate doc, collect its cases and write render's text of them to
 * file atomically (ci.c): what every CI format shares; 0, or -1 with
 * err set. */
int wt_ci_write(const char *file, json_t *doc,
		void (*render)(FILE *f, json_t *doc,
			       const struct wt_ci_run *r),
		char *err, size_t errlen);

/* KTAP version 1 (ktap.c) and JUnit XML (junit.c) of a document, which
 * they validate first; 0, or -1 with err set. */
int wt_ktap_write(const char *file, json_t *doc, char *err, size_t errlen);
int wt_junit_write(const char *file, json_t *doc, char *err, size_t errlen);

#endif /* WT_REPORTS_CI_H */

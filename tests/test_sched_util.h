/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the scheduler tests: a set of named threads, and an
 * effect log that bodies append to (sim mode runs every fiber on one OS
 * thread; stress-mode users take the log's atomic index).
 */
#ifndef WT_TEST_SCHED_UTIL_H
#define WT_TEST_SCHED_UTIL_H

#include <string.h>

#include <criterion/criterion.h>

#include "sim/sched/run.h"
#include "sim/sched/schedule.h"

#define TLOG_MAX 4096

struct tlog {
	unsigned n;
	char what[TLOG_MAX][16];
};

/* A directed schedule from its text; a parse error fails the test with
 * its line and column. */
static inline struct wt_schedule *tsched_parse(const char *text)
{
	struct wt_parse_error err;
	struct wt_schedule *sch = wt_schedule_parse(text, &err);

	cr_assert_not_null(sch, "line %u col %u: %s", err.line, err.col,
			   err.msg);
	return sch;
}

static inline void tlog_add(struct tlog *l, const char *what)
{
	unsigned i = __atomic_fetch_add(&l->n, 1, __ATOMIC_RELAXED);

	if (i < TLOG_MAX)
		snprintf(l->what[i], sizeof(l->what[i]), "%s", what);
}

/* The log joined with spaces. */
static inline void tlog_join(const struct tlog *l, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < l->n && i < TLOG_MAX && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i ? " " : "", l->what[i]);
}

struct tthreads {
	unsigned n;
	struct wt_thread t[WT_RUN_MAX_THREADS];
	struct wt_thread *p[WT_RUN_MAX_THREADS];
};

static inline void tthreads_init(struct tthreads *ts, unsigned n,
				 const char *const *names)
{
	ts->n = n;
	for (unsigned i = 0; i < n; i++) {
		wt_thread_init(&ts->t[i], i, names[i]);
		ts->p[i] = &ts->t[i];
	}
}

/* Same (thread, point) sequence? */
static inline bool same_order(const struct wt_trace *a,
			      const struct wt_trace *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->ev[i].thread != b->ev[i].thread ||
		    a->ev[i].point != b->ev[i].point)
			return false;
	return true;
}

#endif /* WT_TEST_SCHED_UTIL_H */

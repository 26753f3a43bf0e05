/* SPDX-License-Identifier: MIT */
/*
 * Directed schedules: the order a scenario forces, one step a line.
 *
 *	THREAD until POINT [nth=N] [where name=COMPONENT]
 *		run THREAD until it reaches POINT (a dotted name, glob or
 *		kind) for the Nth time (default 1) counted from the start
 *		of the step, and there while looking up COMPONENT if given;
 *		the thread stays stopped AT the point (before the operation
 *		the point guards)
 *	THREAD run N	run THREAD through its next N points
 *	THREAD finish	run THREAD until its body returns
 *	flush THREAD [all]
 *		memory=tso: flush the oldest entry of THREAD's store
 *		buffer to memory (with `all': every entry); no thread runs.
 *		Flushing an empty buffer is an impossible step, except with
 *		`all'.  A schedule with flush steps needs memory=tso.
 *
 * `#' starts a comment; blank lines are skipped.  THREAD is a thread name,
 * a role or #ID, resolved when the run starts.
 *
 * Semantics (sim backend): during a step only the step's thread runs.
 * When it blocks (a lock another thread holds, a grace period), the
 * other threads run under the seeded random policy until it is runnable
 * again -- the step is "run this thread", not "freeze the world" -- and if
 * no thread at all can run, that is a deadlock, reported with every
 * thread's last point.  A step whose thread finished before its condition
 * held is an impossible step: the run reports it (WT_RUN_SCHEDULE_ERROR,
 * with the step's line) and carries on under the random policy so that
 * the threads end.  After the last step, the remaining threads run under
 * the random policy.  Directed steps ignore delays and yields (the
 * schedule is explicit); the virtual clocks still advance.  Under
 * memory=tso the scheduler flushes nothing of its own accord while a
 * directed schedule is in progress (store buffers drain only at flush
 * steps, fences, lock operations, a full buffer or a thread's end), so
 * the schedule alone decides what becomes visible when -- except when no
 * thread at all could run, where a flush is forced (a trace event).
 */
#ifndef WT_SIM_SCHED_SCHEDULE_H
#define WT_SIM_SCHED_SCHEDULE_H

#include "sim/rules.h"

enum wt_sched_step_kind {
	WT_SCHED_UNTIL,
	WT_SCHED_RUN,
	WT_SCHED_FINISH,
	WT_SCHED_FLUSH,		/* memory=tso: flush a store buffer */
};

struct wt_sched_step {
	enum wt_sched_step_kind kind;
	char thread[WT_RULE_NAME_MAX];
	char point[WT_RULE_PATTERN_MAX];	/* until */
	uint64_t nth;				/* until: >= 1 */
	uint64_t count;				/* run: >= 1 */
	char component[WT_RULE_COMPONENT_MAX];	/* until ... where name= */
	bool all;				/* flush: every entry */
	unsigned entry;				/* flush: 1 + buffer index, or 0 */
	unsigned line;				/* 1-based source line */
};

struct wt_schedule {
	unsigned nsteps;
	struct wt_sched_step *steps;
};

/* Parse the whole text; NULL with err (line, col, pos) on error. */
struct wt_schedule *wt_schedule_parse(const char *text,
				      struct wt_parse_error *err);
/* Parse one step (a YAML list item); err->pos within the line. */
int wt_schedule_parse_step(const char *line, struct wt_sched_step *st,
			   struct wt_parse_error *err);
void wt_schedule_free(struct wt_schedule *s);
/* The step back as text. */
int wt_step_format(const struct wt_sched_step *st, char *buf, size_t size);

#endif /* WT_SIM_SCHED_SCHEDULE_H */

/* SPDX-License-Identifier: MIT */
/*
 * Isolated scenarios in flight (isolate.c): wt_scn_run_isolated is one
 * job started and waited for; wt_scn_run_all (driver.c) keeps several
 * going at once with the same three calls, so a night uses every CPU.
 *
 *	wt_scn_iso_start	fork the child that runs the scenario
 *	wt_scn_iso_wait		read the children's pipes, watch their
 *				beats (a hang is killed), reap the ones
 *				that ended; at most timeout_ms
 *	wt_scn_iso_finish	an ended job's result, and its lines printed
 *
 * A job's lines reach o->out only at wt_scn_iso_finish, all at once, so
 * jobs finished in list order print exactly what a serial run prints.
 */
#ifndef WT_SCENARIOS_ISOLATE_H
#define WT_SCENARIOS_ISOLATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "scenarios/src/runner.h"

/* bytes read from a child's pipe */
struct wt_scn_blob {
	char *p;
	size_t len;
	size_t cap;
};

struct wt_scn_iso {
	const struct wt_scenario *s;
	struct wt_scn_opts o;		/* as the child got them */
	struct wt_scn_result *r;
	struct wt_scn_live *live;	/* shared with the child */
	struct wt_scn_blob b;		/* what the child sent so far */
	pid_t pid;
	int fd;				/* the pipe's read end; -1: closed */
	int status;			/* waitpid's, once reaped */
	uint64_t beat;			/* live->beat when last seen moving */
	double t0, last, stall;
	bool hang, forwarded, reaped;
};

/* Fork the child running s with o into r (initialised here).  0, or -1
 * (reported; nothing to finish). */
int wt_scn_iso_start(struct wt_scn_iso *j, const struct wt_scenario *s,
		     const struct wt_scn_opts *o, struct wt_scn_result *r);
/* Service the n jobs of v (reaped ones are skipped) for up to
 * timeout_ms: forward a SIGINT/SIGTERM once, read the pipes, kill a
 * child whose beat stopped for its timeout + WT_SCN_HANG_GRACE_S, reap
 * the children whose pipe closed. */
void wt_scn_iso_wait(struct wt_scn_iso *v, unsigned n, int timeout_ms);
static inline bool wt_scn_iso_ended(const struct wt_scn_iso *j)
{
	return j->reaped;
}
/* The result of an ended job (its own, or a crash's or a hang's),
 * printed; the job's resources freed.  Its return value is
 * wt_scn_run's (0, or -1 on a setup error). */
int wt_scn_iso_finish(struct wt_scn_iso *j);

#endif /* WT_SCENARIOS_ISOLATE_H */

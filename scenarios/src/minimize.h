/* SPDX-License-Identifier: MIT */
/*
 * Minimise a failing iteration into a directed regression scenario.
 *
 * The iteration (any policy: random, PCT, a twin, a lifted stress order
 * followed in sim) is run again traced.  Its scheduling decisions are
 * the trace's runs of one thread (a preemption where the next thread
 * differs) and, under memory=tso, the store-buffer flushes.  Each
 * becomes a directed step -- `T until POINT* [nth=K]' stopping T where
 * the run ended (the point's name as a glob without its site suffix:
 * the correct code may reach another site of it), `T finish' for a
 * thread's last run, `flush T' -- and after them every finite thread
 * finishes (no seeded tail).  A run that ended blocked stops at its
 * wait (the directed scheduler counts a wait as an arrival): the grace
 * period or the lock it waits for is waited for from where the record
 * waited.  The schedule without any decision is tried first (a failure
 * that needs no interleaving); otherwise delta debugging (ddmin) drops
 * decisions while the failure's signature (triage.h) still fires with
 * no impossible step, under the iteration's seed and two more; then,
 * with a bug, steps are stopped earlier or dropped one at a time until
 * the code without the bug can follow them too (a regression scenario passes there).  What
 * is left is written as a scenario: the source file's tree, threads,
 * world and memory model, the schedule, one iteration, and the
 * expectations that describe the failure (`oracle clean', which the
 * oracle's rejections and the safety checks fail, or the failing
 * `result' expectation) besides the file's own per-iteration ones.
 */
#ifndef WT_SCENARIOS_MINIMIZE_H
#define WT_SCENARIOS_MINIMIZE_H

#include <stdio.h>

#include "scenarios/src/runner.h"
#include "scenarios/src/triage.h"

struct wt_scn_minimized {
	char *yaml;			/* the scenario (caller frees) */
	unsigned decisions;		/* of the failing iteration */
	unsigned kept;			/* decisions kept */
	unsigned steps;			/* schedule steps written */
	unsigned tests;			/* candidate iterations run */
	char signature[WT_SCN_SIGNATURE_MAX];
};

/*
 * Minimise iteration `seed' of s under o (its bug, memory model, order).
 * want: the signature to keep (NULL or absent from the iteration: its
 * first failure's).  name: the new scenario's name; note: a line for its
 * description (where it came from).  0, or -1 with a message on stderr
 * (the iteration does not fail, a setup error).
 */
int wt_scn_minimize(const struct wt_scenario *s, const struct wt_scn_opts *o,
		    uint64_t seed, const char *want, const char *name,
		    const char *note, struct wt_scn_minimized *m);

/*
 * Load scenario file `file' and run its one iteration under o with zoo
 * bits `bugs' and seeds derived from `seed' (three of them): *fired when
 * signature sig fired under every seed, *clean when no seed gave any
 * failure.  0, or -1 (reported).
 */
int wt_scn_minimize_check(const char *file, const struct wt_scn_opts *o,
			  uint64_t bugs, const char *sig, bool *fired,
			  bool *clean);

#endif /* WT_SCENARIOS_MINIMIZE_H */

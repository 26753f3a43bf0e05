/* SPDX-License-Identifier: MIT */
/*
 * `policy: explore': a feedback-guided schedule fuzzer in the AFL mould,
 * over POS (sim/sched/pos.c).
 *
 * Feedback.  Every iteration runs with cfg.feedback: the sim reports the
 * distinct reads-from pairs (which writer point's store, release or seq
 * write a reader's load, seq read, lock acquire or refcount step
 * observed, as (writer point, writer thread, reader point, reader
 * thread)), the adjacencies of two threads' operations ((point, thread)
 * performed right after another thread's (point, thread)), and the
 * runner adds each thread's exit paths.  Items are hashes of point ids,
 * path ids and thread indexes: never addresses.  An iteration that adds
 * a reads-from pair or an exit path never seen in this scenario's run
 * goes into the corpus; adjacencies are counted but keep nothing (almost
 * every reordering makes a new one: as novelty they filled the corpus
 * with noise and diluted the power schedule).
 *
 * Corpus entries are schedules: an ordered list of at most
 * WT_EXPLORE_MAX_PREEMPTS preemption points (sim/sched/run.h, struct
 * wt_preempt: "when THREAD reaches POINT for the NTH time, pin its
 * priority to the bottom -- or the top"), with the arrivals of the run
 * that found it (a sample of WT_EXPLORE_EVENTS), from which new points
 * are drawn.  A schedule is instantiated over POS with the iteration's
 * own seed: the same schedule samples other interleavings at each pick.
 *
 * Each iteration: with probability 1/8, or while the corpus is empty,
 * plain POS (no preemption point); otherwise an entry chosen by the
 * power schedule, mutated one to three times by insert (a point drawn
 * from the entry's arrivals, at a random place in the list), delete,
 * swap (two neighbours exchange places) or negate (a demotion becomes a
 * promotion or back).  New points are drawn from the entry run's
 * conflicting arrivals (struct wt_run_event): a preemption before an
 * operation no other thread's touches changes no partial order.  Power schedule: an entry's weight is inversely
 * proportional to how often the rarest item it found has been seen
 * since, and decays with the times it was picked -- rare pairs get the
 * mutations.
 *
 * Bounded memory: WT_EXPLORE_CORPUS entries (when full, a new one
 * replaces the entry whose rarest item is the most common), an item
 * table of WT_EXPLORE_ITEMS slots (filled to 3/4, then no new item is
 * recorded), WT_EXPLORE_EVENTS arrivals an entry: about 4 MB at most.
 *
 * Determinism and replay.  The explorer's own random stream is seeded
 * from the scenario seed; what it does next depends only on the
 * iterations before, which depend only on their seeds and schedules.
 * So iteration i of a run is the same in any process and under any
 * budget that reaches it.  Its replay does not re-run the loop: the
 * failure record carries the iteration's schedule as text
 * (`preempts', and `--preempts SPEC' in its replay line), and `replay
 * SEED FILE --policy explore --preempts SPEC' runs POS under the
 * iteration seed with exactly those points.
 *
 * SPEC: comma-separated `[+]THREAD:POINT:NTH' (thread name, point name
 * as `walktorture points' prints it, 1-based arrival count; `+' a
 * promotion); empty: plain POS.
 */
#ifndef WT_SCENARIOS_EXPLORE_H
#define WT_SCENARIOS_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "scenarios/src/scenario.h"
#include "sim/sched/run.h"

#define WT_EXPLORE_MAX_PREEMPTS	8
#define WT_EXPLORE_CORPUS	128
#define WT_EXPLORE_ITEMS	(1u << 17)
#define WT_EXPLORE_EVENTS	1024
#define WT_EXPLORE_SPEC_MAX	1024	/* the text of a full schedule fits */

struct wt_explore;

struct wt_explore_stats {
	uint64_t items;		/* distinct items seen */
	uint64_t corpus;	/* entries now */
	uint64_t added;		/* iterations that added an item */
	uint64_t plain;		/* iterations under plain POS */
	uint64_t mutated;	/* iterations under a mutated entry */
};

/* NULL when out of memory. */
struct wt_explore *wt_explore_new(uint64_t scenario_seed);
void wt_explore_free(struct wt_explore *ex);

/* The next iteration's schedule into p[WT_EXPLORE_MAX_PREEMPTS]; its
 * length. */
unsigned wt_explore_next(struct wt_explore *ex, struct wt_preempt *p);

/* The iteration run under p[np]: its feedback (res->feedback, events)
 * and extra items (the exit paths); how many items were new. */
unsigned wt_explore_feed(struct wt_explore *ex, const struct wt_preempt *p,
			 unsigned np, const struct wt_run_result *res,
			 const uint64_t *extra, unsigned nextra);

void wt_explore_get_stats(const struct wt_explore *ex,
			  struct wt_explore_stats *st);

/* SPEC of p[n] with s's thread names; "" for none.  0, or -1 when it
 * does not fit. */
int wt_explore_format(const struct wt_scenario *s, const struct wt_preempt *p,
		      unsigned n, char *buf, size_t len);
/* Parse SPEC for s into p[WT_EXPLORE_MAX_PREEMPTS]; 0, or -1 with msg. */
int wt_explore_parse(const struct wt_scenario *s, const char *spec,
		     struct wt_preempt *p, unsigned *n, char *msg,
		     size_t msglen);

#endif /* WT_SCENARIOS_EXPLORE_H */

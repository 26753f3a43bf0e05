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
 * priority to the bottom -- or the top"), only the ones that fired in
 * the run that found it (one is armed at a time: the rest did nothing),
 * with that run's iteration seed and arrivals (a sample of
 * WT_EXPLORE_EVENTS of them, and the ones around the first sighting of
 * each new reads-from pair: the writer's before the write, the
 * reader's before the read, the reader's next), from which new points
 * are drawn.
 *
 * Seeds.  A schedule is instantiated over POS with an iteration seed:
 * half the time the iteration's own (the same schedule samples other
 * interleavings), half the time the entry's, so the iteration is the
 * entry's run, changed only from where the mutation takes effect -- as
 * an AFL input is -- and a point put right after a rare read lands in
 * the same run that made it.  dotdot_no_mount_lock needs three ordered
 * preemptions (walker, mover, walker) inside a window of three loads:
 * with fresh seeds only, explore found it within 20 000 iterations in 3
 * runs of 20; with entry seeds, trimmed lists and inserts in run order,
 * 15; with the points around new pairs too, 20 (median 3 233).
 *
 * Each iteration: with probability 1/8, or while the corpus is empty,
 * plain POS (no preemption point); otherwise an entry chosen by the
 * power schedule, mutated one to three times by insert (a point drawn
 * from the entry's arrivals -- half the time from those around its new
 * pairs -- put where its arrival came in the entry's run among the
 * entry's points; at a random place once a delete or swap reordered
 * the list), delete,
 * swap (two neighbours exchange places) or negate (a demotion becomes a
 * promotion or back).  New points are drawn from the entry run's
 * conflicting arrivals (struct wt_run_event): a preemption before an
 * operation no other thread's touches changes no partial order.  Power
 * schedule: an entry's weight is inversely proportional to how often the
 * rarest item it found has been seen since, and decays with the times
 * it was picked -- rare pairs get the mutations.
 *
 * Bounded memory: WT_EXPLORE_CORPUS entries (when full, a new one
 * replaces the entry whose rarest item is the most common), an item
 * table of WT_EXPLORE_ITEMS slots (filled to 3/4, then no new item is
 * recorded), WT_EXPLORE_EVENTS arrivals an entry: about 5 MB at most.
 *
 * Determinism and replay.  The explorer's own random stream is seeded
 * from the scenario seed; what it does next depends only on the
 * iterations before, which depend only on their seeds and schedules.
 * So iteration i of a run is the same in any process and under any
 * budget that reaches it.  Its replay does not re-run the loop: the
 * failure record carries the iteration's schedule as text
 * (`preempts', and `--preempts SPEC' in its replay line) and the
 * iteration seed it ran under (an entry's, or its own), and `replay
 * SEED FILE --policy explore --preempts SPEC' runs POS under that
 * seed with exactly those points.
 *
 * SPEC: comma-separated `[+]THREAD:POINT:NTH' (thread name, point name
 * as `walktorture points' prints it, 1-based arrival count; `+' a
 * promotion), `THREAD:POINT:NTH>WRITER#STORE' (a flush point, below) or
 * `THREAD:POINT:NTH<WRITER#STORE' (a hold point); empty: plain POS.
 *
 * Store buffers (memory: tso, pso).  The sim's feedback counts a write
 * whose store waits in the writer's buffer when it reaches memory, as
 * the other threads' loads see it; a read by another thread before that
 * is a stale read of it, an item of its own (sim/sched/pos.c).  Which
 * entry reaches memory when is the scheduler's random draw, which a
 * preemption point does not steer: type_before_inode needs the d_flags
 * store of d_instantiate in memory and its d_inode store not, in the
 * few points before d_instantiate's unlock drains them, while a
 * REF-walk reads both -- explore found it in 10 runs of 20 within 10 s.
 * So an entry remembers the stale reads it found first (the reader's
 * arrival before the read, the writer and its store's number), and a
 * half the inserts from such an entry are flush points: at that
 * arrival the missed store reaches memory (with the entries that must
 * go before it) -- when it is buffered then; otherwise nothing.
 *
 * The other way round, a store-buffering race (legitimize_no_mb: the
 * walker's count increment must still wait in its buffer when umount
 * sums the counts) needs a store kept back while another thread runs a
 * whole path, and the random flushes, a draw at every decision, send
 * it to memory within a few: a preemption point gets the order, never
 * the window.  So an entry also remembers up to HOLD_MAX stores of its
 * run that waited in their writer's buffer and that another thread
 * read (stale, or once flushed: the sim reports which write a read saw
 * had waited, wt_run_item_at.waited_sn) -- those of its new pairs
 * first, then a sample of the run's others, since the pair such a race
 * turns on is seldom new, the schedule around it is.  Of the inserts
 * that would be flush points, half (all when the entry has no stale
 * read) are hold points instead: from the writer's arrival after the
 * write, the store stays in its buffer, out of the random flushes,
 * until the writer drains it (sim/sched/pos.c, wt_pos_held); half of
 * them come with a demotion of the writer at its last arrival before
 * that drain in the entry's run -- the window needs both, the store
 * kept and its writer stopped past the reads it makes first (a
 * demotion at the write would let umount's mount_lock write reach the
 * walker's recheck), and apart they are two mutations that must meet.
 * legitimize_no_mb went from 2 084 iterations to 22 (median of 20 runs).
 */
#ifndef WT_SCENARIOS_EXPLORE_H
#define WT_SCENARIOS_EXPLORE_H

#include <stdbool.h>
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
	uint64_t reseeded;	/* of them, under the entry's own seed */
};

/* NULL when out of memory. */
struct wt_explore *wt_explore_new(uint64_t scenario_seed);
void wt_explore_free(struct wt_explore *ex);

/* The next iteration's schedule into p[WT_EXPLORE_MAX_PREEMPTS]; its
 * length.  *reseed: run it under iteration seed *seed instead of the
 * iteration's own. */
unsigned wt_explore_next(struct wt_explore *ex, struct wt_preempt *p,
			 bool *reseed, uint64_t *seed);

/* The iteration run under p[np] and iteration seed `seed': its feedback
 * (res->feedback, events) and extra items (the exit paths); how many
 * items were new. */
unsigned wt_explore_feed(struct wt_explore *ex, const struct wt_preempt *p,
			 unsigned np, uint64_t seed,
			 const struct wt_run_result *res,
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

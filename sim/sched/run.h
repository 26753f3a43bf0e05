/* SPDX-License-Identifier: MIT */
/*
 * Running a set of simulated threads under a backend: one call runs one
 * iteration.
 *
 *	struct wt_thread w, r, *ts[] = { &w, &r };
 *	wt_thread_init(&w, 0, "walker");
 *	wt_thread_init(&r, 1, "renamer");
 *	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;	   (sim, random)
 *	cfg.seed = 42;
 *	struct wt_run_result res;
 *	int rc = wt_run(&cfg, 2, ts, body, args, &res);
 *	... res.hits[id], res.trace, res.digest, res.report ...
 *	wt_run_result_free(&res);
 *
 * The caller owns the threads: it initialises them (ids 0..n-1 in array
 * order), and may set name, role, rcu (its RCU reader: set t->rcu before
 * wt_run, the backends leave it alone) and the violation sink.  wt_run
 * sets the runtime fields (sched, hits, rules, prng, trace, stop flag),
 * makes wt_self point at each thread while it runs -- in both backends --
 * and clears the runtime fields again before it returns.
 *
 * The same body code runs under both backends; the choice is made at run
 * time (cfg.backend).
 *
 * Stopping: a body loops `while (!wt_should_stop())'; any thread may call
 * wt_request_stop() (e.g. the walker when its walks are done, so looping
 * writers end).  A fatal condition in a body can abandon it with
 * wt_thread_exit(), which returns to the thread's entry at once.
 */
#ifndef WT_SIM_SCHED_RUN_H
#define WT_SIM_SCHED_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/rules.h"
#include "sim/sched/schedule.h"
#include "sim/sched/trace.h"

#ifndef WT_RUN_MAX_THREADS
#define WT_RUN_MAX_THREADS 32	/* = WT_MAX_THREADS of the mount slots */
#endif

enum wt_backend {
	WT_BACKEND_SIM,		/* fibers, virtual time, deterministic */
	WT_BACKEND_STRESS,	/* pinned pthreads, real delays */
};

enum wt_policy {
	WT_POLICY_RANDOM,	/* switch with probability random_switch_p */
	WT_POLICY_PCT,		/* Burckhardt et al. 2010 */
	WT_POLICY_DIRECTED,	/* cfg.schedule, then random */
	WT_POLICY_POS,		/* partial order sampling, Yuan et al. 2018 */
};

/*
 * A preemption point of an explore schedule (scenarios/src/explore.c),
 * run over POS, armed once the ones before it in the list fired: when
 * thread `thread' reaches point `point' for the `nth' time, its
 * priority is pinned -- to the bottom (a preemption:
 * the others run until they finish or block; a later pin goes lower
 * still, as PCT's change points do) or, with `promote', to the top
 * (it runs on alone).  A pinned thread is not re-drawn by POS.
 */
struct wt_preempt {
	uint32_t thread;	/* thread index */
	uint32_t point;		/* point id */
	uint32_t nth;		/* 1-based arrival count of that thread there */
	bool promote;
	/* Instead of a pin (memory=tso, pso): at that arrival, store number
	 * flush_sn of thread flush_thread's buffer (sim/tso.h, 0 its first
	 * buffered store) reaches memory, with the older entries that must
	 * go before it -- when it is in the buffer then; else nothing. */
	bool flush;
	/* Or, with `hold' (memory=tso, pso): from that arrival the same
	 * store, when it is in the buffer then, stays there until its
	 * thread drains the buffer (a fence, a locked operation, its end)
	 * or no thread could run without it: the scheduler's random
	 * flushes pass it over, and the younger entries that must follow
	 * it.  The window a store-buffering race needs, which a random
	 * flush at each decision closes within a few of them. */
	bool hold;
	uint32_t flush_thread;
	uint64_t flush_sn;
};

/* One arrival, as the explorer's mutations pick them (cfg.feedback).
 * conflict: the operation the thread stopped before there touched an
 * object that another thread of the run wrote, or wrote one another
 * thread touched -- where a preemption can change what is read (known
 * at the end of the run). */
struct wt_run_event {
	uint32_t thread;
	uint32_t point;
	uint32_t nth;
	bool conflict;
};

/* The arrivals (indexes into wt_run_result.events) around the first
 * sighting of a reads-from pair: the writer's before its write, the
 * reader's before its read, and the reader's next one -- where the
 * explorer puts a preemption to change what that read sees, or what
 * follows it. */
#define WT_RUN_AT_NONE	UINT32_MAX
struct wt_run_item_at {
	uint32_t write, read, next;
	/* a stale read (WT_FB_STALE): the writer thread and the number of
	 * its store that waited (a flush at `read' makes the read see it);
	 * WT_RUN_AT_NONE otherwise */
	uint32_t stale_thread;
	uint64_t stale_sn;
	/* a read of a write whose store had waited in the writer's buffer
	 * (memory=tso, pso): the writer and that store's number (held from
	 * the writer's arrival after `write', the read would miss it);
	 * WT_RUN_AT_NONE otherwise */
	uint32_t waited_thread;
	uint64_t waited_sn;
};

/* The kinds of feedback item (sim/sched/pos.c says what each is). */
enum wt_feedback_kind {
	WT_FB_ADJACENT = 1,	/* (Q, A) performed right before (P, B), A != B */
	WT_FB_READS_FROM = 2,	/* (P, R) read what (Q, W) wrote, W != R */
	WT_FB_PATH = 3,		/* the scenario runner's: thread, exit path */
};

/* In a reads-from item's writer thread: (P, R) read an older value
 * while (Q, W)'s store waited in W's store buffer (memory=tso, pso). */
#define WT_FB_STALE	(1u << 31)

/* An item: a hash of its points and threads, with the kind in its low
 * two bits (so never 0; wt_run_feedback_kind gives it back). */
uint64_t wt_run_feedback_item(enum wt_feedback_kind kind, uint32_t q,
			      uint32_t w, uint32_t p, uint32_t r);
static inline enum wt_feedback_kind wt_run_feedback_kind(uint64_t item)
{
	return (enum wt_feedback_kind)(item & 3);
}

#define WT_RUN_FEEDBACK_MAX	8192	/* distinct feedback items per run */
#define WT_RUN_EVENTS_MAX	4096	/* arrivals kept per run */

/*
 * The memory model of the sim backend.  SC: one fiber runs at a time and
 * every access sees the latest store.  TSO: x86-TSO store buffers
 * (sim/tso.h) -- stores through sim/atomic.h wait in a per-thread FIFO
 * until the scheduler flushes them (a "flush" trace event, random with
 * probability tso_flush_p at each decision, or a directed `flush THREAD
 * [all|ENTRY]' step) or a fence, a read-modify-write, a lock operation or
 * the thread's end drains them.  PSO: the same buffers, but a flush may
 * take any entry that no older store to the same word and no smp_wmb()
 * (or release store) holds back.  Sim backend only.
 */
enum wt_memory {
	WT_MEMORY_SC,		/* sequentially consistent (default) */
	WT_MEMORY_TSO,		/* per-thread FIFO store buffers */
	WT_MEMORY_PSO,		/* the same, stores to different words may
				 * leave out of order (sim/tso.h) */
};

enum wt_run_status {
	WT_RUN_OK,		/* every thread finished */
	WT_RUN_DEADLOCK,	/* no runnable thread, some not finished */
	WT_RUN_STUCK,		/* max_points reached (sim) or timeout (stress) */
	WT_RUN_SCHEDULE_ERROR,	/* a directed step was impossible */
	WT_RUN_CONFIG_ERROR,	/* bad configuration; nothing ran */
	WT_RUN_HALTED,		/* sim: a thread met a fault it cannot go on
				 * from (wt_halt); whoever saw it has
				 * recorded it */
};

struct wt_run_config {
	enum wt_backend backend;
	uint64_t seed;			/* the run seed */
	uint64_t iteration;		/* which iteration: seeds derive from it */
	enum wt_policy policy;		/* sim only */
	double random_switch_p;		/* random: P(switch) at a point */
	unsigned pct_depth;		/* PCT d (>= 1) */
	uint64_t pct_steps;		/* PCT k: estimated points per iteration */
	/* Virtual cost of one point, ns: what lets other threads' clocks
	 * catch up with a delayed thread (see sched.h, "Virtual time"). */
	uint64_t step_ns;
	const struct wt_rule *rules;
	unsigned nrules;
	const struct wt_schedule *schedule;	/* WT_POLICY_DIRECTED */
	/* Replay a recorded order (sim only; overrides policy): each event
	 * says "thread T runs to its next point, which must be POINT". */
	const struct wt_trace_event *replay;
	size_t nreplay;
	bool trace;
	/* sim with a cache: the trace stays in the cache's ring, res.trace
	 * is NULL, and wt_run_cache_trace() makes it when asked -- most
	 * iterations of a directed scenario pass, and nothing reads
	 * theirs */
	bool trace_on_demand;
	size_t trace_capacity;		/* events kept (0: default) */
	bool count_hits;		/* per-point hit counters */
	/* count_hits without the sum: res.hits stays zero and res.touched
	 * empty; each thread's row is the count (thread_hits[i][p] for the
	 * p in thread_touched[i][0 .. threads[i].ntouched)) -- a caller
	 * that only adds the counts up elsewhere spares the merge */
	bool hits_by_thread;
	/* count_hits with the sum made in place: each arrival is added
	 * straight to hits_sum[id] (npoints of them, the caller's, never
	 * cleared), and the result's hits, rows and touched lists stay
	 * empty (wt_run_take_hits then returns the arrivals' total).  Sim
	 * only, and only while nothing reads a thread's own counts during
	 * the run (no rule with nth=, no preemption point, no feedback);
	 * otherwise the rows are made as without it.  NULL: none. */
	uint64_t *hits_sum;
	uint64_t max_points;		/* sim: bound on points (0: 10^7) */
	const char *cpus;		/* stress: "0,1" or "0-3" (PU os index) */
	uint64_t timeout_ms;		/* stress: watchdog */
	/* stress: the watchdog hands its report (the threads and their
	 * last points) to stuck() as soon as it finds the run stuck,
	 * before it waits for threads that may spin for ever: a caller
	 * that is killed then (isolate.c) has kept it.  NULL: none. */
	void (*stuck)(const char *report, void *arg);
	void *stuck_arg;
	size_t stack_size;		/* sim: bytes per fiber stack */
	/* sim: fibers kept from one run to the next (wt_run_cache_create),
	 * and the hit counters (a result's hits are then the cache's, valid
	 * until its next run); NULL: made for this run and freed after it. */
	struct wt_run_cache *cache;
	enum wt_memory memory;		/* sim: SC (default) or TSO */
	/* TSO: at each decision outside a directed schedule or a replay,
	 * flush the oldest entry of a random non-empty buffer with this
	 * probability, again and again until the draw fails. */
	double tso_flush_p;
	/* Zoo bugs the primitives test (sim/bug.h ids; sim/seq.h's
	 * WT_BUG_SEQ_NO_BARRIER): copied to wt_primitive_bugs of every OS
	 * thread of the run.  The world's own mask (wt_world_config.bugs)
	 * belongs here too when a scenario runs with --bug. */
	uint64_t bugs;
	/* POS only: pinned priorities at these arrivals (sim only). */
	const struct wt_preempt *preempts;
	unsigned npreempts;
	/* Collect feedback (sim only): the reads-from pairs and the
	 * cross-thread adjacencies the run saw, and its first arrivals. */
	bool feedback;
	/* sim: every decision computes the candidates -- no stay decided
	 * without them (policy.c's short cuts); the same run, slower (the
	 * tests hold the short cuts to it) */
	bool decide_full;
};

#define WT_RUN_CONFIG_INIT {						\
	.backend = WT_BACKEND_SIM, .policy = WT_POLICY_RANDOM,		\
	.random_switch_p = 0.1, .pct_depth = 3, .pct_steps = 10000,	\
	.step_ns = 10, .count_hits = true, .max_points = 10000000,	\
	.timeout_ms = 60000, .stack_size = 256 * 1024,			\
	.memory = WT_MEMORY_SC, .tso_flush_p = 0.1 }

/* Where each thread was when the run ended. */
struct wt_run_thread_result {
	const struct wt_point *last_point;
	uint64_t arrivals;		/* points reached */
	uint32_t ntouched;		/* its row's points with hits > 0 */
	uint64_t clock_ns;		/* sim: virtual clock at the end */
	bool finished;
	bool aborted;			/* left through wt_thread_exit() */
	bool blocked;			/* sim: waiting when the run ended */
};

struct wt_run_counters;

struct wt_run_result {
	enum wt_run_status status;
	char report[4096];		/* what went wrong, with every thread's
					 * last point (name and file:line) */
	unsigned nthreads;
	uint32_t npoints;
	uint64_t *hits;			/* [npoints], summed over threads */
	uint64_t *thread_hits;		/* [nthreads][npoints] */
	/* The ids with hits > 0, each once (the order of a thread's first
	 * arrivals, thread by thread): what a sum over hits needs to visit. */
	uint32_t *touched;
	uint32_t ntouched;
	uint32_t *thread_touched;	/* [nthreads][npoints] (internal) */
	/* hits, thread_hits and the touched lists are cfg.cache's: valid
	 * until its next run or its destruction (wt_run_result_free leaves
	 * them); otherwise the result's own. */
	bool counters_cached;
	struct wt_run_counters *counters;	/* cfg.cache's (wt_run_take_hits) */
	bool hits_in_place;		/* added to cfg.hits_sum: no rows */
	/* [nthreads] of them: the rest are not set */
	struct wt_run_thread_result threads[WT_RUN_MAX_THREADS];
	uint64_t points;		/* arrivals, all threads */
	struct wt_trace *trace;		/* when cfg.trace */
	uint64_t digest;		/* of the trace (sim: always computed) */
	char binding[512];		/* stress: "walker:PU#0 renamer:PU#1" */
	double pct_bound;		/* PCT: 1/(n k^(d-1)); 0 otherwise */
	unsigned nrules;
	/* per rule, the first 64 (below nrules: the rest are not set) */
	uint64_t rule_matches[64];
	uint64_t rule_fires[64];
	uint64_t preempt_timeouts;	/* preempt-until gave up (or released) */
	/* sim: points passed in free runs (sim.c: no decision could fall
	 * at them; counted in points, hits and arrivals as any other) */
	uint64_t free_points;
	/* Directed schedule: steps done; the step that failed (1-based). */
	unsigned steps_done;
	unsigned step_failed;
	enum wt_memory memory;		/* the run's memory model */
	/* TSO: scheduler flushes (trace events), and the buffers' totals. */
	uint64_t tso_flush_events;
	uint64_t tso_stores;		/* stores that went into a buffer */
	uint64_t tso_flushes;		/* entries that reached memory */
	uint64_t tso_forwards;		/* loads served from the own buffer */
	uint64_t tso_stale;		/* loads that missed another's store */
	/* Replay: whether and where (event index) the run left the record. */
	bool diverged;
	size_t diverged_at;
	char diverge_report[256];
	/* cfg.feedback: distinct items (hashes of point ids and thread
	 * indexes, never addresses), in first-seen order, and the first
	 * WT_RUN_EVENTS_MAX arrivals. */
	uint64_t *feedback;
	size_t nfeedback;
	/* feedback_at[i]: where in events a reads-from item feedback[i]
	 * was first seen (WT_RUN_AT_NONE for other kinds, or beyond the
	 * recorded arrivals) */
	struct wt_run_item_at *feedback_at;
	struct wt_run_event *events;
	size_t nevents;
	unsigned preempts_hit;		/* cfg.preempts that fired */
	/* PCT, POS: forever threads put below the others for starving
	 * them (wt_yield; policy.c, "Fairness") */
	uint64_t fair_demotions;
	/* Scratch blocks (sim/scratch.h) the bodies still held when the
	 * run ended, freed then: nonzero only when a run abandoned a body
	 * mid-operation (halted, stuck, deadlocked, wt_thread_exit). */
	unsigned scratch_freed;
};

int wt_run(const struct wt_run_config *cfg, unsigned nthreads,
	   struct wt_thread **threads,
	   void (*body)(struct wt_thread *t, void *arg), void **args,
	   struct wt_run_result *out);
/*
 * The hits of each thread's row (as cfg.hits_by_thread leaves them),
 * added to sums[0..nsums) unless sums is NULL, and cleared as they are
 * read, rows and touched counts: a cache's next run then has none left
 * to clear.  Returns their total.  Once per result.  A run that added
 * them to cfg.hits_sum already (res->hits_in_place) has no rows: the
 * total is its arrivals', and sums is not touched.
 */
uint64_t wt_run_take_hits(struct wt_run_result *res, uint64_t *sums,
			  uint32_t nsums);
void wt_run_result_free(struct wt_run_result *r);

/* "walktorture: status=... points=... digest=..." and the report. */
void wt_run_result_print(FILE *f, const struct wt_run_result *r);
const char *wt_run_status_name(enum wt_run_status s);
const char *wt_backend_name(enum wt_backend b);
int wt_backend_parse(const char *s);		/* -1 unknown */
const char *wt_policy_name(enum wt_policy p);
int wt_policy_parse(const char *s);		/* -1 unknown */
const char *wt_memory_name(enum wt_memory m);	/* "sc", "tso", "pso" */
int wt_memory_parse(const char *s);		/* -1 unknown */

/*
 * Sim mode's per-run machinery kept across runs of one OS thread: a
 * fiber per thread slot, its stack, parked at the top of its loop
 * between runs (starting a body is one jump, no makecontext and no
 * allocation), and the simulation state (zeroed per run).  A fiber that
 * a run abandoned (stuck, deadlock) is discarded and made again when its
 * slot is next used; nothing of that run carries over.  One cache per OS
 * thread at a time; destroy it only when no run is using it.
 */
struct wt_run_cache;
struct wt_run_cache *wt_run_cache_create(void);
void wt_run_cache_destroy(struct wt_run_cache *c);
/* The trace of the cache's last run when it was traced on demand
 * (cfg.trace_on_demand), as res.trace would have been; until the cache's
 * next run.  NULL: no such run, or ENOMEM. */
struct wt_trace *wt_run_cache_trace(const struct wt_run_cache *c);

/*
 * A run's hit counters (internal to sim/sched): run.c allocates them for
 * a run, or takes a cache's, which it keeps across sim runs; only what
 * the last run touched is cleared before the next (a few dozen entries
 * of a twin, not the whole [nthreads][npoints] table).
 */
struct wt_run_counters {
	uint64_t *hits;			/* [npoints] */
	uint64_t *thread_hits;		/* [rows][npoints] */
	uint32_t *touched;		/* [npoints] */
	uint32_t *thread_touched;	/* [rows][npoints] */
	uint32_t npoints;
	unsigned rows;			/* allocated */
	unsigned used;			/* rows of the last run */
	uint32_t ntouched;		/* the last run's touched ids */
	uint32_t row_touched[WT_RUN_MAX_THREADS];	/* each row's */
};
struct wt_run_counters *wt_run_cache_counters(struct wt_run_cache *c);
void wt_run_counters_free(struct wt_run_counters *k);
/* The point sets the cache keeps (sim/rules.h), for the rules' too. */
struct wt_point_set_cache *wt_run_cache_sets(struct wt_run_cache *c);

/* The backends (internal to sim/sched). */
int wt_run_sim(const struct wt_run_config *cfg, unsigned n,
	       struct wt_thread **threads,
	       void (*body)(struct wt_thread *t, void *arg), void **args,
	       struct wt_run_result *out);
int wt_run_stress(const struct wt_run_config *cfg, unsigned n,
		  struct wt_thread **threads,
		  void (*body)(struct wt_thread *t, void *arg), void **args,
		  struct wt_run_result *out);
/* Append every thread's state and last point (name, file:line). */
void wt_run_report_threads(char *buf, size_t size, unsigned n,
			   struct wt_thread **threads, const char *const *state);

#endif /* WT_SIM_SCHED_RUN_H */

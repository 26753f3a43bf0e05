/* SPDX-License-Identifier: MIT */
/*
 * Running scenarios: iterations under wt_run, expectations, the output
 * lines, results JSON.
 *
 * Seeds.  A run has one 64-bit seed S.  Scenario NAME runs with
 *	scenario seed = wt_seed_derive(S, WT_SCN_SEED_TAG + fnv1a32(NAME))
 * so a scenario gets the same seed alone or in a suite; its iteration i
 * with
 *	iteration seed = wt_seed_iteration(scenario seed, i)
 * and that one number replays the iteration: the iteration's world, the
 * threads' streams and the scheduler all derive from it (wt_run is given
 * it as its run seed, iteration 0).  `walktorture replay SEED FILE' takes
 * an iteration seed.
 */
#ifndef WT_SCENARIOS_RUNNER_H
#define WT_SCENARIOS_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "core/paths.h"
#include "scenarios/src/scenario.h"

#define WT_SCN_SEED_TAG		0x300000000ull	/* + fnv1a32(name) */
#define WT_SCN_NIGHT_TAG	0x400000000ull	/* + seed index */
#define WT_SCN_KEEP_FAILURES	8	/* failure records kept per scenario */
#define WT_SCN_ORDER_BYTES_MAX	(32ull << 20)	/* --trace order files a scenario */
#define WT_SCN_TRACE_BEFORE	400	/* trace events kept before a failure: a
					 * directed scenario's whole story */
#define WT_SCN_TRACE_AFTER	100

struct wt_preempt;
struct wt_scn_result;

struct wt_scn_opts {
	uint64_t seed;			/* the run seed */
	int mode;			/* -1: the file's; else enum wt_scn_mode */
	int memory;			/* -1: the file's; else enum wt_scn_memory
					 * (sim-mode scenarios only) */
	uint64_t iterations;		/* 0: the file's budget */
	uint64_t duration_ns;		/* 0: the file's budget */
	const char *cpus;		/* stress: PU list */
	uint64_t bugs;			/* zoo bits */
	const char *bug;		/* its name, for the results */
	bool nightly;			/* the nightly budget */
	bool progress;			/* a progress line on stderr */
	/*
	 * Not a terminal: after a scenario, a "walktorture: progress" line
	 * on stderr when progress_every_s have passed since the last one
	 * (or the run's start).  progress_k of progress_n is the scenario
	 * running, progress_t0 (CLOCK_MONOTONIC seconds) the run's start:
	 * the terminal line shows them too.
	 */
	bool progress_log;
	double progress_every_s;
	unsigned progress_k, progress_n;
	double progress_t0;
	bool quiet;			/* passing scenarios: the verdict only */
	unsigned keep_failures;		/* 0: WT_SCN_KEEP_FAILURES */
	FILE *out;			/* the greppable lines */
	/*
	 * Stress: trace every iteration (--trace; off by default, the
	 * token handed between threads serialises them), and write a
	 * failing iteration's observed order to order_dir (NULL: ".") as
	 * NAME-SEED.order, whose replay command follows it (lift).
	 */
	bool trace_stress;
	const char *order_dir;
	/* the order files a scenario may write, in bytes (0:
	 * WT_SCN_ORDER_BYTES_MAX); past it none more, said once */
	uint64_t order_max_bytes;
	/* replay --order: a recorded order for the sim to follow; where it
	 * diverges replay says so and goes on under the seeded policy */
	const struct wt_trace_event *order;
	size_t norder;
	/* replay: one iteration whose seed is `seed', fully traced */
	bool replay;
	FILE *trace_out;		/* replay: the trace and the timeline */
	/*
	 * Crash isolation (isolate.c): wt_scn_run_all runs each scenario
	 * in a forked child, so a signal or a hang becomes a failure of
	 * kind crash/hang and the run goes on.  live is the child's
	 * progress in memory shared with the parent (NULL: not isolated).
	 */
	bool isolate;
	struct wt_scn_live *live;
	/* isolated scenarios run at once (--jobs; 0 and 1: one after
	 * another); a stress scenario always runs alone (driver.c) */
	unsigned jobs;
	/* a scenario's real-time cap (--scenario-cap; 0: none): past it
	 * the scenario stops at an iteration boundary with a failure of
	 * kind hang, and the run goes on */
	uint64_t cap_ns;
	/* --policy: the policy of every scenario without a schedule (an
	 * undirected twin's too), when policy_set */
	bool policy_set;
	enum wt_scn_policy policy;
	/* explore: one iteration's preemption points (replay --preempts,
	 * and each iteration of the explore loop); a failure's replay
	 * command carries them */
	const struct wt_preempt *preempts;
	unsigned npreempts;
	/* explore: run the iteration under this iteration seed (a corpus
	 * entry's) instead of its own; its failures record it, so their
	 * replay lines need nothing more */
	bool reseed;
	uint64_t iteration_seed;
	/* end the run after an iteration when stop(r, stop_arg) says so
	 * (zoo-bench: its bug's check fired -- time to first detection) */
	bool (*stop)(const struct wt_scn_result *r, void *arg);
	void *stop_arg;
	/* wt_scn_run_all: called with each scenario's result as soon as it
	 * has one (nightly's results journal, reports/journal.h) */
	void (*scenario_done)(const struct wt_scn_result *r, void *arg);
	void *scenario_done_arg;
};

/* What an isolated child tells its parent as it goes (shared memory):
 * the iteration it is in, so a crash names it. */
struct wt_scn_live {
	uint64_t iteration;		/* index of the iteration running */
	uint64_t seed;			/* its seed */
	uint64_t done;			/* iterations finished */
	uint64_t nfailures;		/* failures counted so far */
	uint64_t failing_iterations;	/* iterations with a failure so far */
	uint64_t beat;			/* moves at every iteration start and end */
	/* the stress watchdog's report of a stuck iteration, kept here
	 * when it is made (stuck_len set after the bytes): the threads it
	 * could not stop may keep the child from ever sending its result */
	uint32_t stuck_len;
	char stuck[3072];
};

/* CLOCK_MONOTONIC in seconds: budgets, progress and watchdogs. */
double wt_scn_now_s(void);

/* The policy s runs under with opts o: --policy, unless s is directed. */
enum wt_scn_policy wt_scn_policy_of(const struct wt_scenario *s,
				    const struct wt_scn_opts *o);

struct wt_scn_result {
	const struct wt_scenario *s;
	enum wt_scn_mode mode;
	enum wt_scn_policy policy;
	enum wt_scn_memory memory;	/* as run (stress: SC, unused) */
	uint64_t seed;			/* the scenario's seed */
	uint64_t iterations;
	double duration_s;
	uint64_t digest;
	uint64_t paths[WT_PATH__COUNT];
	uint64_t *points;		/* [npoints] */
	uint32_t npoints;
	uint64_t walks;
	uint64_t ops;
	uint64_t thread_ops[WT_SCN_THREADS_MAX];	/* ops, per thread */
	uint64_t virtual_ns;
	/* memory=tso: buffered stores, loads that missed another thread's
	 * buffered store, scheduler flushes (sim/sched/run.h) */
	uint64_t tso_stores;
	uint64_t tso_stale;
	uint64_t tso_flush_events;
	uint64_t fair_demotions;	/* wt_yield's, sim/sched/run.h */
	/* an undirected twin: PCT's k as calibrated (0: the file's), and
	 * per target its summed count, the iterations that counted it and
	 * the first of them (index + 1; 0: none) */
	uint64_t pct_steps;
	uint64_t target_count[WT_SCN_TARGETS_MAX];
	uint64_t target_iterations[WT_SCN_TARGETS_MAX];
	uint64_t target_first[WT_SCN_TARGETS_MAX];
	/* explore: distinct feedback items, corpus entries at the end,
	 * iterations that added an item (explore.h) */
	uint64_t explore_items;
	uint64_t explore_corpus;
	uint64_t explore_added;
	uint64_t oracle_ok;
	uint64_t oracle_rejected;
	uint64_t oracle_reordered;	/* of oracle_ok, only in another order */
	uint64_t oracle_not_judged;
	uint64_t checks;		/* violations and protocol checks */
	uint64_t deadlocks;
	uint64_t stuck;
	uint64_t schedule_errors;
	uint64_t result_mismatches;
	uint64_t *expect_bad;		/* [s->nexpects]: result mismatches */
	uint64_t *expect_unseen;	/* [s->nexpects]: no K-th op */
	bool *expect_ok;		/* [s->nexpects] */
	char (*expect_actual)[96];
	json_t *failures;		/* kept records (SCHEMA.md) */
	uint64_t nfailures;		/* all of them */
	uint64_t failing_iterations;	/* iterations with a failure */
	json_t *groups;			/* by signature (triage.h) */
	bool pass;
	bool skipped;
	bool interrupted;		/* SIGINT/SIGTERM cut its budget short */
	bool capped;			/* stopped by opts cap_ns */
	uint64_t order_bytes;		/* --trace: its order files so far */
	uint64_t orders_unsaved;	/* failing iterations past the cap */
	bool sanitizer;			/* its child exited WT_EXIT_SANITIZER
					 * (sanitizer.h, isolate.c) */
	char skip_reason[128];
	double pct_bound;
	char binding[512];
	char anomaly[256];		/* "!!!" text, or "" */
	/* runner.c's own: what one iteration leaves for the next to reuse
	 * (fibers and their stacks); only during wt_scn_run */
	struct wt_scn_reuse *reuse;
};

/* The scenario seed of run seed `seed'. */
uint64_t wt_scn_seed(uint64_t run_seed, const char *name);

/* Run one scenario; prints its line to opts->out.  0, or -1 on a fatal
 * setup error (reported). */
int wt_scn_run(const struct wt_scenario *s, const struct wt_scn_opts *opts,
	       struct wt_scn_result *r);
void wt_scn_result_free(struct wt_scn_result *r);

struct wt_trace;
/*
 * One iteration of s (sim mode) with iteration seed `seed', as a replay
 * runs it (a twin's k calibrated, o->order followed), traced or not: its
 * failure records, signed (triage.h; a new reference, an empty array
 * when it passed), and when asked its trace (wt_trace_free).  0, or -1
 * on a setup error (reported).  Nothing is printed.
 */
int wt_scn_iteration(const struct wt_scenario *s, const struct wt_scn_opts *o,
		     uint64_t seed, bool traced, json_t **failures,
		     struct wt_trace **trace);
/*
 * wt_scn_run in a forked child with a watchdog (isolate.c): the same
 * result, or, when the child dies of a signal or exits without one, a
 * failure of kind `crash' (its signal, iteration, seed and replay); when
 * an iteration makes no progress for the scenario's timeout + 5 s
 * (WT_SCN_HANG_GRACE_S), the child is killed and the failure is a
 * `hang'.  Prints what wt_scn_run prints.  0, or -1 (reported).
 */
#define WT_SCN_HANG_GRACE_S	5
int wt_scn_run_isolated(const struct wt_scenario *s,
			const struct wt_scn_opts *opts,
			struct wt_scn_result *r);
/* The runner's pieces isolate.c builds a crash's result with: an empty
 * result for s, and its lines (the failures and the verdict). */
int wt_scn_result_init(struct wt_scn_result *r, const struct wt_scenario *s,
		       const struct wt_scn_opts *o);
void wt_scn_print_outcome(FILE *out, const struct wt_scn_result *r);

/* The backend scenario s runs on with opts o (--mode overrides mode:). */
enum wt_scn_mode wt_scn_mode_of(const struct wt_scenario *s,
				const struct wt_scn_opts *o);
/* The memory model scenario s runs under in mode `mode' with opts o. */
enum wt_scn_memory wt_scn_memory_of(const struct wt_scenario *s,
				    const struct wt_scn_opts *o,
				    enum wt_scn_mode mode);
/* "sc", "tso"; "hw" for a stress-mode result (the machine's memory). */
const char *wt_scn_memory_name(const struct wt_scn_result *r);

/* The replay command of an iteration seed. */
void wt_scn_replay_cmd(char *buf, size_t len, const struct wt_scenario *s,
		       uint64_t iteration_seed, const struct wt_scn_opts *o);

/* --- results JSON (results.c) --- */
struct wt_scn_run_info {
	const char *command;
	const char *shard;		/* "K/N" or NULL */
	double duration_s;
	time_t started;
	const char *mode;		/* the run's mode */
	const char *binding;
	/* a run cut short by SIGINT/SIGTERM: its name ("partial": true,
	 * "interrupted": NAME in the document); NULL: it ran to the end */
	const char *interrupted;
};

json_t *wt_scn_results_json(const struct wt_scn_result *r, unsigned n,
			    const struct wt_scn_opts *o,
			    const struct wt_scn_run_info *info);
/* (Writing it is reports/' wt_results_write: the cli's, which links
 * both; scenarios/ builds the document and writes no files.) */
/* "walktorture " + argv joined with spaces, shell-quoted where needed
 * (caller frees). */
char *wt_scn_command_line(int argc, char **argv);
/*
 * arg as one shell word: as it is when every byte is literal to a POSIX
 * shell, else in single quotes (a quote inside as '\'').  snprintf-like:
 * writes at most len bytes with the NUL, returns the length it needs.
 */
size_t wt_scn_shell_quote(char *buf, size_t len, const char *arg);

#endif /* WT_SCENARIOS_RUNNER_H */

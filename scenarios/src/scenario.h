/* SPDX-License-Identifier: MIT */
/*
 * Scenarios: the model of one scenario file, its loader, and the runner.
 *
 * A scenario file (YAML, see scenarios/README.md) is loaded and validated
 * as a whole before anything runs: every key, every type, every verb,
 * every point, path and thread name.  The first error of a file comes
 * back as "file:line:col: message" (1-based), and the caller exits 2.
 *
 * The schedule is held as an opaque struct wt_schedule: only the files
 * that run it (sched_check.c, runner.c) see sim/sched/schedule.h, and
 * only body.c sees core/record.h (the walk engine's step record).
 */
#ifndef WT_SCENARIOS_SCENARIO_H
#define WT_SCENARIOS_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/rules.h"

#define WT_SCN_THREADS_MAX	32	/* = WT_RUN_MAX_THREADS */
#define WT_SCN_NAME_MAX		32	/* thread names and roles */
#define WT_SCN_RESULTS_MAX	16	/* `result T in [..]' alternatives */
#define WT_SCN_LOOP_DEPTH	8	/* nested `loop:' blocks */
#define WT_SCN_ERR_MAX		1024
#define WT_SCN_FILE_MAX		(1 << 20)	/* bytes in a scenario file */
#define WT_SCN_TARGETS_MAX	16	/* paths an undirected twin measures */

/* A place in a scenario file, 1-based. */
struct wt_scn_pos {
	unsigned line;
	unsigned col;
};

/* "file:line:col: message" of the first error found. */
struct wt_scn_error {
	char text[WT_SCN_ERR_MAX];
	bool set;
};

enum wt_walk_entry {
	WT_WALK_STAT,		/* filename_lookup, LOOKUP_FOLLOW */
	WT_WALK_LSTAT,		/* filename_lookup, no trailing follow */
	WT_WALK_OPEN,		/* do_filp_open (through openat2's checks) */
	WT_WALK_OPENAT2,	/* do_openat2 with resolve= */
	WT_WALK_PARENTAT,	/* filename_parentat */
	WT_WALK_MOUNTPOINT,	/* filename_mountpoint */
	WT_WALK_OPEN_ROOT,	/* do_file_open_root */
	WT_WALK__COUNT
};

const char *wt_walk_entry_name(enum wt_walk_entry e);

/*
 * One open flag's name (O_RDONLY ... O_PATH; @len bytes of @name) ORed
 * into *@flags: 0, or -1 for an unknown name or a second access mode
 * (*@acc_set says whether one was given already).  Shared by scenario
 * walkers' `open` and `walktorture lookup --open`.
 */
int wt_open_flag_parse(const char *name, size_t len, uint64_t *flags,
		       bool *acc_set);

struct wt_scn_walk {
	enum wt_walk_entry entry;
	char *path;
	char *dir;		/* at=DIR (the dirfd), open_root's root; NULL: cwd */
	uint64_t open_flags;	/* O_* (open, openat2, open_root) */
	uint64_t mode;		/* O_CREAT mode */
	uint64_t resolve;	/* RESOLVE_* */
	char flags_text[128];	/* canonical, for reports */
};

enum wt_scn_op_kind {
	WT_SCN_OP_WALK,
	WT_SCN_OP_VERB,		/* a writer verb, executed by sim/tree */
	WT_SCN_OP_LOOP,		/* begin of a loop block: count, end */
	WT_SCN_OP_END,		/* end of a loop block: begin */
	WT_SCN_OP_FAULT,	/* harness-fault: tests of crash isolation */
};

/* `harness-fault crash|hang|sanitizer [one-in N]': the harness itself
 * crashes (SIGSEGV), hangs (no point is ever reached again) or makes its
 * sanitizer report an error (sanitizer.h; nothing outside sanitizer
 * builds) when the op runs, in every iteration or only in those whose
 * seed is a multiple of N (so that the replay of that seed does it
 * again).  For the tests of crash isolation (isolate.c); no scenario
 * that tests the model uses it. */
enum wt_scn_fault { WT_SCN_FAULT_CRASH, WT_SCN_FAULT_HANG,
		    WT_SCN_FAULT_SANITIZER };

struct wt_scn_op {
	enum wt_scn_op_kind kind;
	struct wt_scn_pos pos;
	char *text;		/* as written */
	struct wt_scn_walk walk;
	void *verb;		/* sim/tree's parsed verb (verbs.c) */
	uint64_t count;		/* loop: repetitions, 0 = until stopped */
	unsigned match;		/* loop: index of the matching end/begin */
	enum wt_scn_fault fault;	/* harness-fault */
	uint64_t fault_one_in;		/* 1: every iteration */
};

struct wt_scn_thread {
	char name[WT_SCN_NAME_MAX];
	char role[WT_SCN_NAME_MAX];
	struct wt_scn_pos pos;
	int cpu;		/* stress: the PU; -1 spread */
	struct wt_scn_pos cpu_pos;	/* of the `cpu:' value */
	uint32_t uid;
	uint32_t gid;
	char *cwd;		/* NULL: / */
	struct wt_scn_op *ops;
	unsigned nops;
	uint64_t loop;		/* program repetitions; 0 = until stopped */
	bool forever;		/* loop: forever */
	bool has_walks;
};

enum wt_cmp { WT_CMP_EQ, WT_CMP_NE, WT_CMP_GE, WT_CMP_LE, WT_CMP_GT, WT_CMP_LT };

enum wt_expect_kind {
	WT_EXPECT_PATH,		/* path NAME|GLOB OP N: each matching path */
	WT_EXPECT_POINT,	/* point NAME|GLOB OP N: summed hits */
	WT_EXPECT_RESULT,	/* result THREAD[K] == ERR | in [..] */
	WT_EXPECT_ORACLE,	/* oracle clean */
	WT_EXPECT_WALKS,	/* walks OP N: walks done, all threads */
};

struct wt_expect {
	enum wt_expect_kind kind;
	struct wt_scn_pos pos;
	char *text;
	char pattern[WT_RULE_PATTERN_MAX];	/* path / point */
	unsigned *paths;	/* path ids the pattern matches */
	unsigned npaths;
	struct wt_point_set points;
	enum wt_cmp cmp;
	uint64_t value;
	unsigned thread;	/* result */
	unsigned nth;		/* result: K-th op of the thread, 0 = every op */
	int results[WT_SCN_RESULTS_MAX];	/* 0 ok, else errno (positive) */
	unsigned nresults;
};

struct wt_scn_line {		/* a tree line or a schedule step */
	char *text;
	struct wt_scn_pos pos;
};

enum wt_scn_mode { WT_SCN_SIM, WT_SCN_STRESS };
/* Sim scheduling (sim/sched/sched.h): random, PCT, a directed schedule,
 * POS, and explore -- the schedule fuzzer over POS (explore.h). */
enum wt_scn_policy {
	WT_SCN_RANDOM, WT_SCN_PCT, WT_SCN_DIRECTED, WT_SCN_POS, WT_SCN_EXPLORE,
	WT_SCN_POLICY__COUNT
};

/* "random", "pct", ...; and back (-1: unknown). */
const char *wt_scn_policy_name(enum wt_scn_policy p);
int wt_scn_policy_parse(const char *s);
/* sim mode's memory model (sim/tso.h): sequentially consistent, x86-TSO
 * store buffers, or partial store order (stores to different words may
 * leave a buffer out of order).  Stress mode runs on the machine's own. */
enum wt_scn_memory { WT_SCN_SC, WT_SCN_TSO, WT_SCN_PSO };
/* "sc", "tso", "pso" */
const char *wt_scn_memory_str(enum wt_scn_memory m);

struct wt_schedule;

struct wt_scenario {
	char *file;
	char *suite;		/* the folder's name */
	char *name;
	char *description;
	char *text;		/* the whole file (for positions) */
	struct wt_scn_line *tree;
	unsigned ntree;
	struct wt_scn_thread threads[WT_SCN_THREADS_MAX];
	unsigned nthreads;
	struct wt_rule *rules;
	unsigned nrules;
	struct wt_scn_line *steps;	/* the schedule, one step a line */
	unsigned nsteps;
	struct wt_schedule *schedule;	/* parsed (runner.c) */
	enum wt_scn_mode mode;
	enum wt_scn_policy policy;
	enum wt_scn_memory memory;	/* sim: `memory: sc|tso|pso' */
	double flush_p;			/* tso: a decision's flush chance */
	double switch_p;		/* random */
	unsigned pct_depth;
	uint64_t pct_steps;
	bool pct_auto;		/* `pct_steps: auto': calibrated, as a twin's */
	uint64_t step_ns;
	uint64_t max_points;
	uint32_t dcache_buckets;
	uint32_t mount_buckets;
	bool protected_symlinks;
	bool history;
	/* budget */
	uint64_t iterations;
	uint64_t nightly_iterations;	/* 0: iterations */
	/* the night's real-time cap, whichever of it and the count ends
	 * first (a stress scenario's cost is the machine's); 0: none */
	uint64_t nightly_duration_ns;
	uint64_t duration_ns;		/* real time; 0: none */
	uint64_t virtual_ns;		/* sim: summed virtual time; 0: none */
	uint64_t timeout_ms;		/* stress watchdog */
	struct wt_expect *expects;
	unsigned nexpects;
	/*
	 * An undirected twin (twin.c): `twin_of' is the directed scenario's
	 * name, `targets' the paths its file forces; NULL, 0 otherwise.
	 */
	char *twin_of;
	unsigned targets[WT_SCN_TARGETS_MAX];
	unsigned ntargets;
};

/* --- loading (load.c) --- */
/* Load and validate one file; NULL with err set.  suite may be NULL (the
 * folder's name is used). */
struct wt_scenario *wt_scenario_load(const char *file, const char *suite,
				     struct wt_scn_error *err);
/* The same from text held in memory (a generated workload): file is the
 * name its errors, results and replay commands give it. */
struct wt_scenario *wt_scenario_load_text(const char *file, const char *suite,
					  const char *text,
					  struct wt_scn_error *err);
void wt_scenario_free(struct wt_scenario *s);
/* The thread index of a name or role, or -1. */
int wt_scenario_thread(const struct wt_scenario *s, const char *name);

/* Errors: "file:line:col: message" into err (the first one wins). */
int wt_scn_fail(struct wt_scn_error *err, const char *file,
		struct wt_scn_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* --- pieces the loader calls (program.c, expect.c, verbs.c, runner.c) --- */
/* Parse one program item (a walk or a writer verb).  Returns 0, or -1
 * with *col_off (0-based offset within text) and msg. */
int wt_scn_op_parse(const char *text, struct wt_scn_op *op,
		    size_t *col_off, char *msg, size_t msglen);
void wt_scn_op_free(struct wt_scn_op *op);
int wt_expect_parse(const struct wt_scenario *s, const char *text,
		    struct wt_expect *e, size_t *col_off, char *msg,
		    size_t msglen);
void wt_expect_free(struct wt_expect *e);
bool wt_cmp_holds(enum wt_cmp cmp, uint64_t a, uint64_t b);
/* Does an op's result (0 or -errno) satisfy a result expectation? */
bool wt_expect_result_ok(const struct wt_expect *e, int err);
/* errno name <-> value: "ENOENT" -> ENOENT, "ok" -> 0; -1 unknown. */
int wt_scn_errno_parse(const char *name);
const char *wt_scn_errno_name(int err);	/* 0 -> "ok" */

/* Writer verbs (verbs.c, on sim/tree): parse one verb line. */
int wt_scn_verb_parse(const char *text, void **verb, size_t *col_off,
		      char *msg, size_t msglen);
void wt_scn_verb_free(void *verb);

/*
 * Static checks that need the runtime: the schedule steps (syntax, known
 * threads, impossible orders) and the tree (executed once, sequentially,
 * in a scratch world).  0, or -1 with err set.
 */
int wt_scn_check_schedule(struct wt_scenario *s, struct wt_scn_error *err);
int wt_scn_check_tree(struct wt_scenario *s, struct wt_scn_error *err);
void wt_scn_schedule_free(struct wt_scenario *s);

/* --- zoo bugs (bugs.c) --- */
/* Set the bit of bug NAME in *bits: 0, or -1 when unknown. */
int wt_scn_bug_parse(const char *name, uint64_t *bits);
/* "walktorture: bugs: a b c" */
void wt_scn_bug_print(FILE *f);

/* --- suites (suite.c) --- */
struct wt_scn_list {
	struct wt_scenario **v;
	unsigned n;
	unsigned cap;
};

/*
 * Resolve arguments (scenario files, suite folders, or suite names under
 * scenarios/) and load every file.  Every file is loaded and validated
 * before this returns; errors are printed to errf, one line per file.
 * Returns 0, or -1 when anything failed (then nothing may run).
 */
int wt_scn_list_load(struct wt_scn_list *l, const char *const *args,
		     unsigned nargs, FILE *errf);
void wt_scn_list_free(struct wt_scn_list *l);
/* Append s (the list owns it then): 0, or -1 out of memory. */
int wt_scn_list_add(struct wt_scn_list *l, struct wt_scenario *s);
/* The shipped suites' root (WT_SCENARIOS_DIR env, else the source tree). */
const char *wt_scn_root(void);
/* Print the valid suite names to f. */
void wt_scn_print_suites(FILE *f);

/*
 * --- undirected twins (twin.c) ---
 *
 * The twin of a directed scenario is the same file with its schedule
 * and its exact expectations dropped, run under PCT for many iterations
 * (WT_SCN_TWIN_ITERATIONS, nightly WT_SCN_TWIN_NIGHTLY): a directed
 * scenario proves a path can be forced, its twin measures how often
 * that path happens when nobody forces it.  Its targets are the exit
 * paths (not outcomes) the file pins with `path NAME == N' (N > 0),
 * `>= N' (N > 0) or `> N';
 * its only expectation left is `oracle clean' (if the file had it; the
 * oracle and the safety checks fail a run unasked anyway).  It is named
 * NAME.undirected, in the same suite.
 */
#define WT_SCN_TWIN_SUFFIX	".undirected"
#define WT_SCN_TWIN_ITERATIONS	200
#define WT_SCN_TWIN_NIGHTLY	4000

/* Make s, a directed scenario just loaded, its own twin.  0, or -1 with
 * err set (s is not directed). */
int wt_scenario_undirect(struct wt_scenario *s, struct wt_scn_error *err);
/*
 * Twins for the list's directed scenarios: in place of each (replace),
 * or appended after the list (beside them).  Undirected scenarios stay
 * as they are.  Each twin is its file loaded again.  0, or -1 (printed
 * to errf).
 */
int wt_scn_list_twins(struct wt_scn_list *l, bool replace, FILE *errf);

/*
 * Explore twins (nightly): for each directed scenario of the list, the
 * same twin under `policy: explore', named NAME.explore, with a time
 * budget: each suite's budget_ns shared evenly among its directed
 * scenarios.  Appended.  0, or -1 (printed to errf).
 */
#define WT_SCN_EXPLORE_SUFFIX	".explore"
int wt_scn_list_explore_twins(struct wt_scn_list *l, uint64_t budget_ns,
			      FILE *errf);

#endif /* WT_SCENARIOS_SCENARIO_H */

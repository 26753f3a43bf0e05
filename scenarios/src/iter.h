/* SPDX-License-Identifier: MIT */
/*
 * One iteration, shared by runner.c (which calls wt_run) and body.c (which
 * walks): the per-thread context, with the walk engine's types only
 * forward-declared.
 */
#ifndef WT_SCENARIOS_ITER_H
#define WT_SCENARIOS_ITER_H

#include <jansson.h>

#include "core/paths.h"
#include "scenarios/src/checks.h"
#include "scenarios/src/runner.h"
#include "sim/thread.h"
#include "sim/vfs/world.h"

struct wt_history;
struct wt_record;
struct wt_oracle;
struct wt_scn_pending;

#define WT_SCN_THREAD_FAILURES	4	/* records kept per thread and iteration */

struct wt_scn_iter;

/* A simulated thread's context: the body's argument. */
struct wt_scn_tctx {
	struct wt_scn_iter *it;
	const struct wt_scn_thread *th;
	unsigned idx;
	struct wt_thread thread;
	struct wt_task task;
	bool task_live;
	struct path *dirs;		/* [nops]: at=DIR / open_root's root */
	struct wt_path_counts counts;
	struct wt_record *record;
	struct wt_oracle *oracle;
	struct wt_scn_pending *pending;	/* records judged after the run */
	uint64_t ops;			/* ops done (the K of result T[K]) */
	uint64_t walks;
	uint64_t oracle_ok;
	uint64_t oracle_rejected;
	uint64_t oracle_reordered;	/* of oracle_ok: wt_oracle_result */
	uint64_t oracle_not_judged;
	uint64_t checks;
	uint64_t mismatches;
	uint64_t *expect_bad;		/* [nexpects]: result mismatches */
	bool *expect_seen;		/* [nexpects]: the K-th op happened */
	/* dirs, expect_bad and expect_seen when they fit (body.c,
	 * thread_arrays): zeroed with the context, no calloc */
	uint64_t arrays_inline[24];
	json_t *failures;		/* at most WT_SCN_THREAD_FAILURES */
	/* the exit paths the walk being judged took, comma-separated (a
	 * failure's "exit_path", part of its signature) */
	char exit_path[96];
	/* During a walk's checks: its counters before it, from which
	 * exit_path is made at its first read (body.c, exit_path_of) --
	 * most walks have no failure to name it in.  NULL otherwise. */
	const struct wt_path_counts *walk_before;
	/* checks.c's per-thread state, in place: a zalloc and a free an
	 * iteration fewer */
	struct wt_scn_checker checker;
	uint64_t nfailures;
};

/*
 * What the iterations of one scenario run reuse (runner.c makes it for a
 * sim-mode run): the sim's fibers with their stacks (wt_run_cache), each
 * thread's step record (reset before every walk), the world and its
 * log (the first build's snapshot, restored for every later iteration:
 * wt_world_snapshot; without one, the log's storage -- chunk table and
 * chunks -- and the world's -- struct, hash tables, RCU domain and
 * quarantine ring -- taken and given back retired) and the tree's
 * parsed lines.  An iteration abandoned half-way leaves nothing
 * the next one sees: its fibers are made again (run.h), the records are
 * reset, the log is emptied (or rewound to the snapshot's mark) when
 * its world is destroyed, and a restored world is the snapshot's
 * whatever the last one did.
 */
struct wt_scn_reuse {
	struct wt_run_cache *run;
	struct wt_record *record[WT_SCN_THREADS_MAX];
	/* each walker's oracle, its snapshots dropped (wt_oracle_renew
	 * makes it new for the next history) */
	struct wt_oracle *oracle[WT_SCN_THREADS_MAX];
	struct wt_history *history;	/* retired (sim/history.h), or NULL */
	struct wt_world *world;		/* retired (sim/vfs/world.h), or NULL */
	/* the tree's lines parsed once (verbs.c, at the first build; a
	 * blank or comment line is a verb of kind WT_V__COUNT), ntree */
	struct wt_verb *tree;
	unsigned ntree;
	const struct wt_scn_line *tree_src;	/* the lines parsed */
	/* whose tree the world's snapshot holds (sim/vfs/world.h: the
	 * world and its log come back from it instead of being built) */
	const struct wt_scn_line *snap_tree;
	unsigned snap_ntree;
	/* the last iteration's thread contexts (nt of them), zeroed when
	 * taken: a request that large made malloc consolidate its free
	 * lists every iteration */
	struct wt_scn_tctx *t;
	unsigned nt;
};

/* Free what reuse->tree holds (verbs.c). */
void wt_scn_reuse_tree_free(struct wt_scn_reuse *u);

struct wt_scn_iter {
	const struct wt_scenario *s;
	const struct wt_scn_opts *opts;
	uint64_t index;
	uint64_t seed;			/* the iteration seed */
	struct wt_world *world;
	unsigned nthreads;
	struct wt_scn_tctx *t;		/* [nthreads] */
	uint32_t running;		/* finite threads still running (atomic) */
	bool traced;
	bool failed;			/* set before teardown: drop the world */
	struct wt_scn_reuse *reuse;	/* NULL: nothing kept */
};

/* body.c */
int wt_scn_iter_setup(struct wt_scn_iter *it, struct wt_scn_error *err);
void wt_scn_iter_teardown(struct wt_scn_iter *it);
void wt_scn_body(struct wt_thread *t, void *arg);
/* One walk of a program as the body does it (record may be NULL: no
 * step record); 0 or -errno.  bench/bench_iter runs it bare too. */
int wt_scn_walk_run(struct wt_task *task, struct wt_path_counts *counts,
		    struct wt_record *record, bool protected_symlinks,
		    const struct wt_scn_walk *wk, const struct path *dir);
/* After wt_run: the end-of-run checks (a sync umount's final put), and
 * judging the walks whose window was not published in time. */
void wt_scn_iter_judge_pending(struct wt_scn_iter *it);
/* A failure record (SCHEMA.md) of thread tc, kept if there is room. */
void wt_scn_add_failure(struct wt_scn_tctx *tc, json_t *f);
/* The common fields of a failure record. */
/* Failure details shared by the oracle and the safety checks (body.c). */
json_t *wt_scn_steps_json(const struct wt_record *r);
json_t *wt_scn_history_window(const struct wt_history *h,
			      const struct wt_record *r);
/*
 * A record's position in the trace, for its "failing_event": the index of
 * the trace's latest event (null untraced).  In sim mode that may be
 * another thread's event; the runner narrows it to the failing thread's
 * own (runner.c failing_index), and a record may add "failing_point", the
 * point id a check fired at.  Both are removed when the trace is attached.
 */
json_t *wt_scn_event_now(const struct wt_thread *t);

/* A failure record's `schedule': the scenario's directed schedule, one
 * string a step, the same for every iteration; null without one. */
json_t *wt_scn_schedule_json(const struct wt_scenario *s);

json_t *wt_scn_failure_new(const struct wt_scn_iter *it, const char *kind,
			   const char *check, const char *thread,
			   const char *message);

/* verbs.c: the iteration's world, built from the tree */
struct wt_world *wt_scn_world_build(const struct wt_scenario *s,
				    uint64_t seed, uint64_t bugs,
				    struct wt_scn_error *err);
void wt_scn_world_destroy(struct wt_world *w);
/* The same, with what reuse keeps from one world to the next: the
 * world and its log, restored from the snapshot the first build took
 * (sim/vfs/world.h) instead of built again, else their storage; and the
 * tree's parsed lines (reuse NULL: nothing kept; a world built anew). */
struct wt_world *wt_scn_world_build_from(const struct wt_scenario *s,
					 uint64_t seed, uint64_t bugs,
					 struct wt_scn_reuse *reuse,
					 struct wt_scn_error *err);
void wt_scn_world_destroy_keep(struct wt_world *w, struct wt_scn_reuse *reuse);
/* Execute a parsed verb as task: 0 or -errno. */
int wt_scn_verb_exec(void *verb, struct wt_world *w, struct wt_task *task);
/* Resolve an absolute path for a thread's cwd or a dirfd (no hooks). */
int wt_scn_resolve(struct wt_world *w, const char *path, struct path *out);

#endif /* WT_SCENARIOS_ITER_H */

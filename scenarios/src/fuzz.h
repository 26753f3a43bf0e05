/* SPDX-License-Identifier: MIT */
/*
 * `walktorture fuzz': generated workloads (generate.h), one after the
 * other, each loaded as a scenario file and run by the runner under the
 * fuzz run's seed S, so that the failing one, written out as FILE, is
 * reproduced by `walktorture run FILE --seed S' (every iteration) and
 * by the replay commands its failures print (one iteration).
 *
 * Workload j is generated from wt_gen_seed(S, j) and named after that
 * seed; its file is DIR/NAME.yaml.  Nothing is written unless a workload
 * fails: then the caller's save() writes its text there (scenarios/
 * writes no files; the cli does, through reports/).
 */
#ifndef WT_SCENARIOS_FUZZ_H
#define WT_SCENARIOS_FUZZ_H

#include <stdbool.h>
#include <stdint.h>

#include "scenarios/src/generate.h"
#include "scenarios/src/runner.h"

#define WT_FUZZ_WORKLOADS	100	/* without --workloads or --duration */
#define WT_FUZZ_SUITE		"generated"

struct wt_fuzz_opts {
	struct wt_scn_opts run;	/* seed, bugs, memory, out */
	struct wt_gen_config gen;
	uint64_t workloads;	/* 0: until duration_ns or enough(); with
				 * neither, WT_FUZZ_WORKLOADS */
	uint64_t first;		/* the first workload's index */
	uint64_t duration_ns;	/* 0: until `workloads' */
	const char *dir;	/* the reproducers' folder */
	bool keep_going;	/* on after a failing workload */
	bool verbose;		/* every workload's lines, not only failures' */
	/* write a failing workload's text to path: 0, or -1 (reported) */
	int (*save)(const char *path, const char *text, void *arg);
	void *save_arg;
	/* Optional, for a search (zoo-bench): is this failing workload's
	 * result the failure sought?  Only one it accepts is the run's
	 * first and, without keep_going, ends the run; NULL: any is.  And
	 * enough(): end the run before the next workload (a cap of the
	 * caller's).  Both get search_arg. */
	bool (*sought)(const struct wt_scn_result *r, void *arg);
	bool (*enough)(void *arg);
	void *search_arg;
};

struct wt_fuzz_result {
	uint64_t workloads;	/* run */
	uint64_t iterations;	/* summed over them */
	uint64_t failed;	/* failing workloads */
	double seconds;
	/* the first failing workload: its index + 1 (0: none), the seconds
	 * and iterations (all workloads') until it was done, its file */
	uint64_t first;
	double first_seconds;
	uint64_t first_iterations;
	char first_file[1024];
};

/*
 * Generate and run the workloads.  0 (res says whether any failed), or
 * -1 when a workload could not be generated, loaded or run: a generator
 * bug, reported with its text.
 */
int wt_scn_fuzz(const struct wt_fuzz_opts *o, struct wt_fuzz_result *res);

#endif /* WT_SCENARIOS_FUZZ_H */

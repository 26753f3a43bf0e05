/* SPDX-License-Identifier: MIT */
/*
 * Drivers of `walktorture run', `nightly' and `replay': the loops over
 * scenarios and seeds, the final line, the results documents.  The
 * command line parsing is cli/'s; writing files, the results (atomically,
 * wt_results_write) and the HTML reports, is reports/' (the cli links
 * both and calls it with the documents made here).
 */
#ifndef WT_SCENARIOS_DRIVER_H
#define WT_SCENARIOS_DRIVER_H

#include "scenarios/src/runner.h"

/* Run every scenario of l with o; results in *out (caller frees with
 * wt_scn_results_free).  Prints "walktorture: N passed, M failed". */
int wt_scn_run_all(const struct wt_scn_list *l, const struct wt_scn_opts *o,
		   struct wt_scn_result **out, unsigned *nout,
		   unsigned *failed);
void wt_scn_results_free(struct wt_scn_result *r, unsigned n);
/* Did a scenario's child exit with a sanitizer report (sanitizer.h)?
 * The command then exits WT_EXIT_SANITIZER, not 1. */
bool wt_scn_results_sanitizer(const struct wt_scn_result *r, unsigned n);

/*
 * The checks that need the machine and the options, after loading and
 * before anything runs: a thread's `cpu: N' must be a PU of this machine
 * when its scenario is going to run in stress mode (the file's mode or
 * --mode; not a directed one, which is skipped there; not under --cpus,
 * which replaces the pins and was checked itself).  In sim mode a pin
 * means nothing and is not checked.  Prints file:line:col: message per
 * scenario to errf; 0, or -1 when anything failed (then nothing may run).
 */
int wt_scn_list_check_machine(const struct wt_scn_list *l,
			      const struct wt_scn_opts *o, FILE *errf);

/* A random 64-bit seed (getrandom, else time and pid). */
uint64_t wt_scn_random_seed(void);
/* "0x1234" / "1234" -> seed; -1 when not a number. */
int wt_scn_parse_seed(const char *s, uint64_t *seed);

/* The seed of nightly run k of a night. */
uint64_t wt_scn_night_seed(uint64_t night_seed, unsigned k);

#endif /* WT_SCENARIOS_DRIVER_H */

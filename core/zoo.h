/* SPDX-License-Identifier: MIT */
/*
 * The bug zoo: the catalogue of runtime-selectable broken variants.
 *
 * Each entry names one id of sim/bug.h (the bit the world carries, tested
 * by wt_bug() at the exact check the bug removes), says what it breaks,
 * where it comes from (a kernel commit, a mail, or "plausible mistake"),
 * which scenario catches it and which check must fire there.  The table
 * is the single source of truth: `walktorture bugs` prints it, `--bug
 * NAME` parses against it, the zoo tests run every entry in both
 * directions (with the bug: exit 1 and the named check in the results;
 * without: exit 0), and `walktorture zoo-bench` measures each one.
 *
 * `fires` is what the results JSON must show in failures[]: "oracle" and
 * "expectation" are failure kinds; anything else is a check name, i.e.
 * a failure of kind "check" with that "check" (poison, sync_umount,
 * place, lockref, refcount, rcu_sleep, ...).
 */
#ifndef WT_CORE_ZOO_H
#define WT_CORE_ZOO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct wt_zoo_bug {
	unsigned id;			/* enum wt_bug (sim/bug.h) */
	const char *name;		/* --bug NAME */
	const char *description;	/* what the broken variant does */
	const char *reference;		/* kernel commit, mail, or "plausible mistake" */
	/* The targeted scenario, relative to scenarios/; NULL while the zoo
	 * has none (the entry is then listed, never claimed caught). */
	const char *scenario;
	const char *fires;		/* the failure kind or check that catches it */
	/* Plain uninjected load for the stress-mode measurement, relative
	 * to scenarios/, or NULL when the zoo has none for it. */
	const char *stress;
	/* Caught only through exact path counts (or a result expectation):
	 * no answer REF-walk could not give (see scenarios/zoo/README.md). */
	bool counts_only;
};

/* Every entry, in sim/bug.h order; *n is set to the count. */
const struct wt_zoo_bug *wt_zoo_bugs(unsigned *n);
/* By --bug name, or NULL (the caller prints every valid name). */
const struct wt_zoo_bug *wt_zoo_by_name(const char *name);
/* By id, or NULL when the id has no entry. */
const struct wt_zoo_bug *wt_zoo_by_id(unsigned id);
/* " a b c": every valid name, space-separated, for error messages. */
void wt_zoo_print_names(FILE *f);
/*
 * Does a failure of this kind (and check, for kind "check") count as
 * the bug's expected detection?  kind and check as in the results JSON.
 */
bool wt_zoo_fired(const struct wt_zoo_bug *b, const char *kind,
		  const char *check);

#endif /* WT_CORE_ZOO_H */

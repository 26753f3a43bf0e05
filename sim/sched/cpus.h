/* SPDX-License-Identifier: MIT */
/*
 * CPU lists: `--cpus 0,1,4-6' and a scenario thread's `cpu: N' name PUs
 * by their OS index, as the stress backend binds them (hwloc).  The
 * syntax is checked where the list is read and the PUs against the
 * machine before anything runs, so a bad list is bad input (exit 2),
 * never a failed run.
 */
#ifndef WT_SIM_SCHED_CPUS_H
#define WT_SIM_SCHED_CPUS_H

#include <stddef.h>

#define WT_CPUS_MAX	256	/* PUs in one list */
#define WT_CPU_MAX	4095	/* the largest PU index a list may name */

/*
 * "0,1,4-6" -> out[0..n-1] (at most max), in the order written.  Returns
 * n >= 1, or -1 with msg saying what is wrong: anything but digits, ','
 * and '-', an empty item, a range that runs backwards, a PU above
 * WT_CPU_MAX, more than max PUs.
 */
int wt_cpus_parse(const char *s, unsigned *out, unsigned max, char *msg,
		  size_t len);

/*
 * Is every PU of cpus[0..n-1] on this machine (the hwloc topology the
 * stress backend binds with)?  0, or -1 with msg naming the first one
 * that is not and the PUs there are ("no PU 99 on this machine (PUs:
 * 0-1)") and, unless bad is NULL, its index in *bad (n when the topology
 * could not be read at all).
 */
int wt_cpus_check(const unsigned *cpus, unsigned n, unsigned *bad, char *msg,
		  size_t len);

#endif /* WT_SIM_SCHED_CPUS_H */

/* SPDX-License-Identifier: MIT */
/*
 * Steps that were in flight at once: the orders of the log a walk may
 * have seen besides its own.
 *
 * The history numbers a step when it begins and publishes steps in that
 * order, and the oracle's instants are the prefixes of it.  That is the
 * order of the steps' stores as long as one step ends before the next
 * begins, which the world's writer mutex gives the writers.  Two kinds
 * of step are not under it: a walker's open(O_CREAT), which makes its
 * file under the directory's i_rwsem alone, and finish_automount, under
 * namespace_sem.  Such a step can reserve its version, be preempted
 * before its store, and see a writer's step begin after it and make its
 * store first.  A walk that saw the writer's change and not the other
 * then matches no prefix.  walktorture fuzz --seed 0x2122 --threads 6
 * found it at workload 80475: walker2's `mountpoint /y/f' answered
 * ENOENT after writer1's `mount --move /m /y' had moved the tmpfs and
 * before walker4's create of /m/f, which had begun first, made f
 * positive; every instant that had the mount at /y had f too.
 *
 * So a walk the log's order rejects is judged again in the orders where
 * one entry m of its window is applied after a later one a, when each
 * entry of (m, a] began while m was not yet published (its begun_after
 * is below m: m's stores may have come after all of its) and touches
 * none of m's objects (both orders then end in the same namespace; the
 * instants between are what differ).  m must come after the window's
 * start: a step published before the walk began stored before it.  One
 * entry moved at a time: three steps in flight at once, two of them
 * out of order, are not tried.
 *
 * Only on a rejection, and bounded: the inner loop stops at the first
 * entry that began after m was published, and the writer mutex leaves
 * few such overlaps.
 */
#include "core/oracle_internal.h"

/* Does any fact of a name an object one of b's facts names? */
static bool entries_share(const struct wt_hist_entry *a,
			  const struct wt_hist_entry *b)
{
	for (uint32_t i = 0; i < a->nfacts; i++)
		for (uint32_t k = 0; k < b->nfacts; k++)
			if (wt_fact_id(&a->facts[i]) == wt_fact_id(&b->facts[k]))
				return true;
	return false;
}

bool oj_reordered_holds(struct wt_oracle *o, const struct wt_oracle_input *in,
			struct wt_oracle_result *res)
{
	const struct wt_record_attempt *a;
	struct wt_oracle_result moved;

	if (!in->record || in->record->overflow ||
	    !(a = wt_record_final(in->record)))
		return false;	/* refused before path_init: no window */
	for (uint64_t m = a->version_start + 1; m < a->version_end; m++) {
		const struct wt_hist_entry *em = wt_history_entry(o->h, m);

		for (uint64_t q = m + 1; em && q <= a->version_end; q++) {
			const struct wt_hist_entry *eq =
				wt_history_entry(o->h, q);

			if (!eq || eq->begun_after >= m || entries_share(em, eq))
				break;
			if (oj_judge(o, in, &moved, m, q) == WT_VERDICT_OK) {
				*res = moved;
				return true;
			}
		}
	}
	return false;
}

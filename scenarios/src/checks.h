/* SPDX-License-Identifier: MIT */
/*
 * The safety checks beside the step oracle (DESIGN.md, "The oracle"),
 * run by the scenario runner on every iteration.  Each violation is a
 * failure of kind "check" whose "check" names it, with the walk, its
 * steps, the failing step, the history window and the replay command
 * (reports/SCHEMA.md); it fails the scenario even when no expectation
 * asks.
 *
 * Already routed elsewhere, listed here so the catalogue is in one place:
 *	poison, rcu_sleep, rcu_balance, lockref, invariant, fault
 *		reported by the primitives through the violation sink
 *		(sim/thread.h wt_violation; body.c turns each into a record);
 *	echild_leak	-ECHILD reached an entry point's caller (body.c);
 *	sync_umount	a successful sync umount whose own mntput was not the
 *			final put (body.c, from sim/ops' count).
 *
 * Checked here, after every walk (wt_scn_check_walk):
 *	place		every validated step stands on a (mount, dentry) pair
 *			whose dentry belongs to the mount's super_block: REF-walk
 *			never holds a dentry of one filesystem under the mount of
 *			another (a torn mnt_parent/mnt_mountpoint pair does);
 *	resolve		RESOLVE_BENEATH / RESOLVE_IN_ROOT: a success never went
 *			above its root (`..` from the root moved, or a jump
 *			left it); RESOLVE_NO_XDEV: a success never crossed a
 *			mount; RESOLVE_NO_SYMLINKS: no link body followed;
 *			RESOLVE_NO_MAGICLINKS: no magic link jumped through;
 *	sync_umount	no walk returns holding a mount that a sync umount
 *			took down inside the walk's window;
 *	bound		a walk made at most WT_SCN_WALK_POINTS_MAX points (sim)
 *			and at most three attempts.
 * And at quiescence (wt_scn_check_quiescence: every thread finished):
 *	refcount	every live dentry's count is what holds it: its children
 *			(d_parent pins), its filesystem's pin (DCACHE_PERSISTENT),
 *			its super_block (s_root), the mounts on it (mnt_root, and
 *			mnt_mountpoint of attached mounts), the tasks' root and
 *			cwd, the threads' dirfds, magic links' targets; every live
 *			mount's count is the tree's (attached), its attached
 *			children's, and the same holders'.  Nothing else may hold
 *			a reference once every thread is done;
 *	mount_tree	no attached mount hangs under a detached one (reached
 *			by no path, taken by no umount: a leak refcount cannot
 *			see, since the parent's count is its child's pin).
 */
#ifndef WT_SCENARIOS_CHECKS_H
#define WT_SCENARIOS_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/ns.h"

struct wt_scn_iter;
struct wt_scn_op;
struct wt_scn_tctx;

/* A thread's walk-check state: its view of the namespace.  Part of the
 * thread's context (iter.h), zeroed with it every iteration: zero is
 * "nothing made yet"; wt_scn_check_quiescence drops what was made. */
struct wt_scn_checker {
	struct wt_ns *ns;
	/* before ns, while the log has not gone far past its mark: the
	 * place check's few look-ups read it directly (sim/ns.h) */
	struct wt_ns_peek peek;
	bool peeking;
};

/* Points one walk may make (sim mode), all attempts: far above any real
 * walk (40 links, three attempts), far below the run's max_points. */
#ifndef WT_SCN_WALK_POINTS_MAX
#define WT_SCN_WALK_POINTS_MAX 1000000
#endif

/*
 * After one walk of tc returned err (body.c run_walk); points_before is
 * the thread's arrivals when the walk began.  Reads the walk's record
 * (tc->record) and the published history only; hooks are disarmed
 * meanwhile, so the checks are no scheduling points.
 */
void wt_scn_check_walk(struct wt_scn_tctx *tc, const struct wt_scn_op *op,
		       int err, uint64_t points_before);

/*
 * After wt_run returned (runner.c).  finished: every thread's body
 * returned (status OK); only then is the world quiescent and the
 * refcount check meaningful.  Frees the per-thread state of the walk
 * checks in any case.
 */
void wt_scn_check_quiescence(struct wt_scn_iter *it, bool finished);

#endif /* WT_SCENARIOS_CHECKS_H */

/* SPDX-License-Identifier: MIT */
/*
 * RCU: read-side sections, deferred free, grace periods, poisoning.
 *
 * Built on libck's ck_epoch: one domain per world, one record per
 * simulated thread (struct wt_rcu_reader, hung off wt_thread->rcu).
 * rcu_read_lock/unlock are ck_epoch_begin/end (nesting counted in
 * wt_thread->rcu_depth).  call_rcu defers a free through ck_epoch_call on
 * the caller's own record (a record has a single owner) and
 * rcu_poll_reclaim() dispatches what is due.  synchronize_rcu never calls
 * ck_epoch_synchronize or ck_epoch_barrier (they spin, and a spinning
 * fiber would livelock the sim scheduler): it queues a callback and waits,
 * blocked on a condition, until the callback ran -- that is, until every
 * reader that could have seen the old state has left.
 *
 * Freed objects are poisoned and kept in a bounded quarantine before the
 * memory goes back to the allocator (WT_QUARANTINE builds), so a reader
 * that touches an object after its grace period is caught by
 * wt_obj_check() with the object and the point.
 *
 * Under TSan the grace period is a happens-before edge: __tsan_release at
 * read-side unlock, __tsan_acquire in the free callback.  No suppressions.
 */
#ifndef WT_SIM_RCU_H
#define WT_SIM_RCU_H

#include <stddef.h>
#include <stdint.h>

#include "sim/inject.h"
#include "sim/obj.h"

struct wt_rcu_domain;
struct wt_rcu_reader;

/*
 * Called after the grace period (and the quarantine) with the object to
 * free.  It runs from whichever poll finds the grace period over -- the
 * owner's wt_rcu_poll, or a wait's ready() condition, which the sim
 * scheduler evaluates between decisions -- so it must only release
 * memory: no injection points, no locks of the model, no waits.
 */
typedef void (*wt_rcu_free_fn)(void *obj);

/* quarantine_slots: how many freed objects stay poisoned before their
 * memory is reused; 0 frees at once after poisoning. */
struct wt_rcu_domain *wt_rcu_domain_create(size_t quarantine_slots);
/* Frees everything still deferred or quarantined; no reader may be left. */
void wt_rcu_domain_destroy(struct wt_rcu_domain *d);
/* The same frees, but d stays, as wt_rcu_domain_create made it (its
 * quarantine ring and its readers' memory kept): the next world of a run
 * reuses it. */
void wt_rcu_domain_reset(struct wt_rcu_domain *d);
/* For a world's snapshot: mark keeps the quarantine as it is now (no
 * reader may exist; -1 on ENOMEM); rewind resets the domain and puts the
 * marked quarantine back.  A later mark replaces the copy. */
int wt_rcu_domain_mark(struct wt_rcu_domain *d);
void wt_rcu_domain_rewind(struct wt_rcu_domain *d);

/* One per simulated thread; registers a ck_epoch record (or reuses one
 * a destroyed reader left).  NULL when out of memory. */
struct wt_rcu_reader *wt_rcu_reader_create(struct wt_rcu_domain *d);
/* Dispatch this reader's pending callbacks (blocking: a grace-period
 * wait) and unregister; clears wt_self->rcu if it is this reader. */
void wt_rcu_reader_destroy(struct wt_rcu_reader *r);
/*
 * t's run abandoned it (a stuck or deadlocked iteration: its fiber or
 * pthread will never run again) and it may have stopped inside a read
 * section: leave the section for it, or no grace period could ever
 * pass and every reader's teardown (a grace-period wait for its
 * deferred frees) would spin forever.  Only once t can no longer run.
 */
void wt_rcu_thread_abandoned(struct wt_thread *t);

/*
 * On wt_self.  With no simulated thread they do nothing; on a thread
 * without a reader record they count the depth (so balance and
 * sleep-in-section checks still work) but enter no epoch.  An unlock at
 * depth 0 reports WT_CHECK_RCU_BALANCE and changes nothing.
 */
void wt_rcu_read_lock(const struct wt_point *p);
void wt_rcu_read_unlock(const struct wt_point *p);
#define rcu_read_lock()							\
	wt_rcu_read_lock(WT_POINT_OR_NULL(WT_K_RCU_ENTER, NULL, NULL, "rcu_read_lock"))
#define rcu_read_unlock()						\
	wt_rcu_read_unlock(WT_POINT_OR_NULL(WT_K_RCU_EXIT, NULL, NULL, "rcu_read_unlock"))

/*
 * Free obj (an object starting with struct wt_obj, size bytes) after a
 * grace period: it is poisoned and quarantined first, then free_fn(obj)
 * releases the memory (free_fn NULL: wt_obj_free, sim/obj.h, which leaves
 * an arena object's memory to the arena).  Called from a thread
 * with an RCU reader record; with none (start-up, teardown) the object is
 * poisoned and quarantined at once, there being no reader.
 */
void wt_call_rcu(struct wt_rcu_domain *d, struct wt_obj *obj, size_t size,
		 wt_rcu_free_fn free_fn, const struct wt_point *p);
#define call_rcu_free(d, obj, size, fn)					\
	wt_call_rcu((d), (obj), (size), (fn),				\
		    WT_POINT_OR_NULL(WT_K_RCU_SYNC, NULL, NULL, "call_rcu"))

/* Poison now, with no grace period (the zoo's free-without-grace-period
 * bug, and teardown with no readers left); the memory itself is released
 * through the quarantine a grace period later when the caller is a
 * simulated thread, so a reader still on it finds poison, not reuse. */
void wt_free_now(struct wt_rcu_domain *d, struct wt_obj *obj, size_t size,
		 wt_rcu_free_fn free_fn);

/* Run the current thread's due callbacks; returns how many ran. */
unsigned wt_rcu_poll(void);

/* Wait for a grace period: a sleeping wait (reported inside a section). */
void wt_synchronize_rcu(const struct wt_point *p);
#define synchronize_rcu()						\
	wt_synchronize_rcu(WT_POINT_OR_NULL(WT_K_RCU_SYNC, NULL, NULL, "synchronize_rcu"))

/* Statistics for tests and reports. */
struct wt_rcu_stats {
	uint64_t deferred;	/* call_rcu calls */
	uint64_t poisoned;	/* objects poisoned */
	uint64_t released;	/* memory given back */
	uint64_t grace_periods;	/* synchronize_rcu calls completed */
};
void wt_rcu_stats(struct wt_rcu_domain *d, struct wt_rcu_stats *out);

#endif /* WT_SIM_RCU_H */

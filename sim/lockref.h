/* SPDX-License-Identifier: MIT */
/*
 * lockref: a reference count with its spinlock, and the dead marker.
 *
 * A count below zero means dead: the object is being freed and must not
 * gain references.  lockref_mark_dead sets -128 (as the kernel does, so a
 * few stray decrements cannot make it look alive).  lockref_get_not_dead
 * is what legitimize_path uses: the dentry a walker stands on in RCU mode
 * may be dying, and taking a reference on it would resurrect a freed
 * object.  lockref_get increments unconditionally -- correct only when the
 * caller already knows the object is alive (it holds a reference, or the
 * object's lock and a liveness check); the bug zoo's lockref_get variant
 * uses it where get_not_dead is needed.
 *
 * Every operation takes the lock (the kernel's cmpxchg fast path has the
 * same semantics; modelling it as lock+update keeps one code path and
 * gives injection points a place between the check and the update).
 */
#ifndef WT_SIM_LOCKREF_H
#define WT_SIM_LOCKREF_H

#include <stdbool.h>

#include "sim/inject.h"
#include "sim/spinlock.h"

#define LOCKREF_DEAD (-128)

struct lockref {
	spinlock_t lock;
	int count;
};

static inline void lockref_init(struct lockref *lr, int count)
{
	spin_lock_init(&lr->lock);
	lr->count = count;
}

/* The count, read without the lock (busy checks, reports). */
static inline int lockref_read(const struct lockref *lr)
{
	return __atomic_load_n(&lr->count, __ATOMIC_RELAXED);
}

static inline bool __lockref_is_dead(const struct lockref *lr)
{
	return lockref_read(lr) < 0;
}

/* Increment unconditionally, dead or not. */
void wt_lockref_get(struct lockref *lr, const struct wt_point *p);
/* Increment unless dead; false (no reference) when dead. */
bool wt_lockref_get_not_dead(struct lockref *lr, const struct wt_point *p);
/* Increment unless zero or dead. */
bool wt_lockref_get_not_zero(struct lockref *lr, const struct wt_point *p);
/* Decrement if above zero and return the new count; -1 (unchanged) if not. */
int wt_lockref_put_return(struct lockref *lr, const struct wt_point *p);
/* Decrement unless it would reach zero; false (lock held!) if it would. */
bool wt_lockref_put_or_lock(struct lockref *lr, const struct wt_point *p);
/* Caller holds lr->lock: mark dead (count = LOCKREF_DEAD). */
void wt_lockref_mark_dead(struct lockref *lr, const struct wt_point *p);

#define WT_LR_POINT(kind, desc) WT_POINT_OR_NULL((kind), NULL, "lockref", (desc))
#define lockref_get(lr)		wt_lockref_get((lr), WT_LR_POINT(WT_K_REF_GET, "lockref_get"))
#define lockref_get_not_dead(lr) \
	wt_lockref_get_not_dead((lr), WT_LR_POINT(WT_K_REF_GET, "lockref_get_not_dead"))
#define lockref_get_not_zero(lr) \
	wt_lockref_get_not_zero((lr), WT_LR_POINT(WT_K_REF_GET, "lockref_get_not_zero"))
#define lockref_put_return(lr) \
	wt_lockref_put_return((lr), WT_LR_POINT(WT_K_REF_PUT, "lockref_put_return"))
#define lockref_put_or_lock(lr) \
	wt_lockref_put_or_lock((lr), WT_LR_POINT(WT_K_REF_PUT, "lockref_put_or_lock"))
#define lockref_mark_dead(lr) \
	wt_lockref_mark_dead((lr), WT_LR_POINT(WT_K_REF_PUT, "lockref_mark_dead"))

#endif /* WT_SIM_LOCKREF_H */

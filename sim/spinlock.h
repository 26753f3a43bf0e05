/* SPDX-License-Identifier: MIT */
/*
 * spinlock: d_lock, i_lock, the mount hash lock, the seqlocks' lock.
 *
 * Acquire is a compare-and-swap with acquire order, release a store with
 * release order.  A waiter never spins on its own: it calls wt_wait(),
 * which in the sim backend blocks it until the lock is free (so PCT's
 * highest-priority thread cannot spin forever on a lock held by a
 * lower-priority one) and in stress/native mode spins a bounded number of
 * times and then yields (so a preempted holder on a 2-core machine does
 * not stall the run).  Each acquire and release is an injection point at
 * its call site.
 */
#ifndef WT_SIM_SPINLOCK_H
#define WT_SIM_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/inject.h"

typedef struct spinlock {
	uint32_t locked;	/* 0 free, 1 held */
	uint32_t owner;		/* holder's thread id + 1, for reports */
} spinlock_t;

static inline void spin_lock_init(spinlock_t *l)
{
	l->locked = 0;
	l->owner = 0;
}

void wt_spin_lock(spinlock_t *l, const struct wt_point *p);
bool wt_spin_trylock(spinlock_t *l, const struct wt_point *p);
void wt_spin_unlock(spinlock_t *l, const struct wt_point *p);

static inline bool spin_is_locked(const spinlock_t *l)
{
	return __atomic_load_n(&l->locked, __ATOMIC_RELAXED) != 0;
}

#define spin_lock_at(l, name)						\
	wt_spin_lock((l), WT_POINT_OR_NULL(WT_K_LOCK, (name), "lock", "spin_lock"))
#define spin_trylock_at(l, name)					\
	wt_spin_trylock((l), WT_POINT_OR_NULL(WT_K_LOCK, (name), "lock", "spin_trylock"))
#define spin_unlock_at(l, name)						\
	wt_spin_unlock((l), WT_POINT_OR_NULL(WT_K_UNLOCK, (name), "lock", "spin_unlock"))

#define spin_lock(l)	spin_lock_at((l), NULL)
#define spin_trylock(l)	spin_trylock_at((l), NULL)
#define spin_unlock(l)	spin_unlock_at((l), NULL)

#endif /* WT_SIM_SPINLOCK_H */

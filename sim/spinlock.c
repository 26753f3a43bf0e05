/* SPDX-License-Identifier: MIT */
/*
 * spinlock: a compare-and-swap lock whose waiters never spin by themselves.
 * A contended acquire hands the wait to the backend (wt_wait_at with
 * WT_WAIT_SPIN): the sim backend blocks the fiber until the lock is free,
 * the native backend spins a bounded number of times and then yields.
 */
#include <assert.h>

#include "sim/atomic.h"
#include "sim/sched/sched.h"
#include "sim/spinlock.h"

/* The waiter's condition: the lock looks free (it may be taken again
 * before the waiter runs; wt_spin_lock then retries). */
static bool spin_free(const void *arg)
{
	return !spin_is_locked(arg);
}

static bool spin_try_acquire(spinlock_t *l)
{
	uint32_t expected = 0;

	/* Acquire: the critical section's accesses stay after the CAS. */
	return __atomic_compare_exchange_n(&l->locked, &expected, 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void spin_set_owner(spinlock_t *l)
{
	struct wt_thread *t = wt_self;

	/* Relaxed: the owner is for reports only, read without the lock. */
	__atomic_store_n(&l->owner, t ? t->id + 1 : 0, __ATOMIC_RELAXED);
}

void wt_spin_lock(spinlock_t *l, const struct wt_point *p)
{
	wt_hook(p, l);
	/*
	 * Not bounded: a lock acquire waits as long as the holder holds.
	 * Each lap is one wait in the backend, which is where a deadlock or
	 * a lack of progress is detected and reported, never a busy spin.
	 */
	while (!spin_try_acquire(l))
		wt_wait_at(p, WT_WAIT_SPIN, spin_free, l);
	spin_set_owner(l);
	assert(spin_is_locked(l));
}

bool wt_spin_trylock(spinlock_t *l, const struct wt_point *p)
{
	wt_hook(p, l);
	if (!spin_try_acquire(l))
		return false;
	spin_set_owner(l);
	return true;
}

void wt_spin_unlock(spinlock_t *l, const struct wt_point *p)
{
	/* Releasing a free lock is a bug in the model, not a race to survive. */
	assert(spin_is_locked(l));
	wt_hook(p, l);
	__atomic_store_n(&l->owner, 0, __ATOMIC_RELAXED);
	/* Release: the critical section's stores are visible before the lock
	 * reads as free. */
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

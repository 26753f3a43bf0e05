/* SPDX-License-Identifier: MIT */
#include "sim/atomic.h"
#include "sim/mutex.h"
#include "sim/sched/sched.h"
#include "sim/thread.h"

static uint32_t mutex_state(const struct wt_mutex *m)
{
	return __atomic_load_n(&m->locked, __ATOMIC_RELAXED);
}

/* A writer may take it: no holder (a waiting writer's bit aside). */
static bool mutex_free(const void *arg)
{
	return (mutex_state(arg) & ~WT_MUTEX_WAITING) == 0;
}

/* A reader may join: no writer holds it or waits for it. */
static bool mutex_readable(const void *arg)
{
	return !(mutex_state(arg) & (WT_MUTEX_WRITER | WT_MUTEX_WAITING));
}

void wt_mutex_lock(struct wt_mutex *m, const struct wt_point *p)
{
	uint32_t v;

	wt_might_sleep(p);
	wt_hook(p, m);
	for (;;) {
		v = mutex_state(m);
		if (!(v & ~WT_MUTEX_WAITING) &&
		    __atomic_compare_exchange_n(&m->locked, &v, WT_MUTEX_WRITER,
						false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
		/* Hold off new readers; the bit goes with our CAS above
		 * (another waiting writer sets it again before it sleeps). */
		__atomic_fetch_or(&m->locked, WT_MUTEX_WAITING, __ATOMIC_RELAXED);
		wt_wait_at(p, WT_WAIT_SLEEP, mutex_free, m);
	}
	__atomic_store_n(&m->owner, wt_self ? wt_self->id + 1 : 0,
			 __ATOMIC_RELAXED);
}

void wt_mutex_unlock(struct wt_mutex *m, const struct wt_point *p)
{
	if (!(mutex_state(m) & WT_MUTEX_WRITER))
		wt_violation(WT_CHECK_INVARIANT, p, m,
			     "unlock of a mutex not held exclusive");
	wt_hook(p, m);
	__atomic_store_n(&m->owner, 0, __ATOMIC_RELAXED);
	/* keeps a waiting writer's bit, set while we held it */
	__atomic_fetch_and(&m->locked, ~WT_MUTEX_WRITER, __ATOMIC_RELEASE);
}

void wt_mutex_lock_shared(struct wt_mutex *m, const struct wt_point *p)
{
	uint32_t v;

	wt_might_sleep(p);
	wt_hook(p, m);
	for (;;) {
		v = mutex_state(m);
		if (!(v & (WT_MUTEX_WRITER | WT_MUTEX_WAITING)) &&
		    __atomic_compare_exchange_n(&m->locked, &v, v + 1, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
		if (!(v & (WT_MUTEX_WRITER | WT_MUTEX_WAITING)))
			continue;	/* another reader came or went */
		wt_wait_at(p, WT_WAIT_SLEEP, mutex_readable, m);
	}
}

void wt_mutex_unlock_shared(struct wt_mutex *m, const struct wt_point *p)
{
	uint32_t v = mutex_state(m);

	if (v & WT_MUTEX_WRITER || !(v & ~WT_MUTEX_WAITING))
		wt_violation(WT_CHECK_INVARIANT, p, m,
			     "shared unlock of a mutex not held shared");
	wt_hook(p, m);
	__atomic_fetch_sub(&m->locked, 1, __ATOMIC_RELEASE);
}

bool wt_mutex_is_locked(const struct wt_mutex *m)
{
	return !mutex_free(m);
}

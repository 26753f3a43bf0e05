/* SPDX-License-Identifier: MIT */
#include "sim/atomic.h"
#include "sim/mutex.h"
#include "sim/sched/sched.h"

static bool mutex_free(const void *arg)
{
	const struct wt_mutex *m = arg;

	return __atomic_load_n(&m->locked, __ATOMIC_RELAXED) == 0;
}

void wt_mutex_lock(struct wt_mutex *m, const struct wt_point *p)
{
	uint32_t expected;

	wt_might_sleep(p);
	wt_hook(p, m);
	for (;;) {
		expected = 0;
		if (__atomic_compare_exchange_n(&m->locked, &expected, 1, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		wt_wait_at(p, WT_WAIT_SLEEP, mutex_free, m);
	}
	__atomic_store_n(&m->owner, wt_self ? wt_self->id + 1 : 0,
			 __ATOMIC_RELAXED);
}

void wt_mutex_unlock(struct wt_mutex *m, const struct wt_point *p)
{
	if (!__atomic_load_n(&m->locked, __ATOMIC_RELAXED))
		wt_violation(WT_CHECK_INVARIANT, p, m, "unlock of a free mutex");
	wt_hook(p, m);
	__atomic_store_n(&m->owner, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&m->locked, 0, __ATOMIC_RELEASE);
}

bool wt_mutex_is_locked(const struct wt_mutex *m)
{
	return !mutex_free(m);
}

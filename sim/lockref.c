/* SPDX-License-Identifier: MIT */
/*
 * lockref: every operation is lock, check, update, unlock.  The count is
 * written with relaxed atomic stores under the lock because
 * lockref_read() (busy checks, reports) reads it without the lock.
 */
#include <assert.h>

#include "sim/atomic.h"
#include "sim/lockref.h"

static void lockref_set(struct lockref *lr, int count)
{
	__atomic_store_n(&lr->count, count, __ATOMIC_RELAXED);
}

/* Correct only when the caller knows the object is alive; on a dead
 * lockref this resurrects it (-128 -> -127), which is what the zoo's
 * lockref_get bug relies on, so it is not reported here: the oracle sees
 * the use of the dying object instead. */
void wt_lockref_get(struct lockref *lr, const struct wt_point *p)
{
	wt_hook(p, lr);
	spin_lock(&lr->lock);
	lockref_set(lr, lr->count + 1);
	spin_unlock(&lr->lock);
}

/* legitimize_path's get: a dead dentry (being freed) gains no reference.
 * A zero count is still alive (on the LRU), so it may be taken. */
bool wt_lockref_get_not_dead(struct lockref *lr, const struct wt_point *p)
{
	bool got = false;

	wt_hook(p, lr);
	spin_lock(&lr->lock);
	if (lr->count >= 0) {
		lockref_set(lr, lr->count + 1);
		got = true;
	}
	spin_unlock(&lr->lock);
	return got;
}

bool wt_lockref_get_not_zero(struct lockref *lr, const struct wt_point *p)
{
	bool got = false;

	wt_hook(p, lr);
	spin_lock(&lr->lock);
	if (lr->count > 0) {
		lockref_set(lr, lr->count + 1);
		got = true;
	}
	spin_unlock(&lr->lock);
	return got;
}

/* dput's fast path: -1 tells the caller to take the slow path (count
 * zero or dead), and the count is left alone for it. */
int wt_lockref_put_return(struct lockref *lr, const struct wt_point *p)
{
	int count = -1;

	wt_hook(p, lr);
	spin_lock(&lr->lock);
	if (lr->count > 0) {
		count = lr->count - 1;
		lockref_set(lr, count);
	}
	spin_unlock(&lr->lock);
	return count;
}

/* The last reference is not dropped here: the caller gets false with the
 * lock held and decides (kill the dentry, or keep it at zero). */
bool wt_lockref_put_or_lock(struct lockref *lr, const struct wt_point *p)
{
	wt_hook(p, lr);
	spin_lock(&lr->lock);
	if (lr->count <= 1)
		return false;
	lockref_set(lr, lr->count - 1);
	spin_unlock(&lr->lock);
	return true;
}

void wt_lockref_mark_dead(struct lockref *lr, const struct wt_point *p)
{
	/* The caller holds the lock: marking dead races with every get. */
	assert(spin_is_locked(&lr->lock));
	wt_hook(p, lr);
	lockref_set(lr, LOCKREF_DEAD);
}

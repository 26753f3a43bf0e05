/* SPDX-License-Identifier: MIT */
/*
 * A sleeping lock: inode->i_rwsem, namespace_sem.  Unlike a spinlock its
 * wait is a WT_WAIT_SLEEP wait, so taking it inside an RCU read section is
 * reported (the kernel's "sleeping function called from invalid context").
 * Shared acquisition is modelled as exclusive: the lookup model never
 * relies on two sharers overlapping.
 */
#ifndef WT_SIM_MUTEX_H
#define WT_SIM_MUTEX_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/inject.h"

struct wt_mutex {
	uint32_t locked;
	uint32_t owner;		/* holder's thread id + 1 */
};

static inline void wt_mutex_init(struct wt_mutex *m)
{
	m->locked = 0;
	m->owner = 0;
}

void wt_mutex_lock(struct wt_mutex *m, const struct wt_point *p);
void wt_mutex_unlock(struct wt_mutex *m, const struct wt_point *p);
bool wt_mutex_is_locked(const struct wt_mutex *m);

#define mutex_lock_at(m, name)						\
	wt_mutex_lock((m), WT_POINT_OR_NULL(WT_K_LOCK, (name), "mutex", "mutex_lock"))
#define mutex_unlock_at(m, name)					\
	wt_mutex_unlock((m), WT_POINT_OR_NULL(WT_K_UNLOCK, (name), "mutex", "mutex_unlock"))
#define mutex_lock(m)	mutex_lock_at((m), NULL)
#define mutex_unlock(m)	mutex_unlock_at((m), NULL)

#endif /* WT_SIM_MUTEX_H */

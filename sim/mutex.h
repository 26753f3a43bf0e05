/* SPDX-License-Identifier: MIT */
/*
 * A sleeping lock: inode->i_rwsem, namespace_sem.  Unlike a spinlock its
 * wait is a WT_WAIT_SLEEP wait, so taking it inside an RCU read section is
 * reported (the kernel's "sleeping function called from invalid context").
 * It is a reader/writer semaphore: lookup_slow takes a directory's i_rwsem
 * shared, as the kernel does, so two walkers' slow lookups in one
 * directory overlap and meet in d_alloc_parallel's in-lookup wait.  A
 * waiting writer holds off new readers (the kernel's rwsem hands off to a
 * waiting writer too), so a stream of lookups cannot starve a rename.
 */
#ifndef WT_SIM_MUTEX_H
#define WT_SIM_MUTEX_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/inject.h"

#define WT_MUTEX_WRITER	0x80000000u	/* held exclusive */
#define WT_MUTEX_WAITING 0x40000000u	/* a writer waits: no new readers */

struct wt_mutex {
	uint32_t locked;	/* readers, | WT_MUTEX_WRITER, | _WAITING */
	uint32_t owner;		/* exclusive holder's thread id + 1 */
};

static inline void wt_mutex_init(struct wt_mutex *m)
{
	m->locked = 0;
	m->owner = 0;
}

void wt_mutex_lock(struct wt_mutex *m, const struct wt_point *p);
void wt_mutex_unlock(struct wt_mutex *m, const struct wt_point *p);
void wt_mutex_lock_shared(struct wt_mutex *m, const struct wt_point *p);
void wt_mutex_unlock_shared(struct wt_mutex *m, const struct wt_point *p);
/* Held, exclusive or shared. */
bool wt_mutex_is_locked(const struct wt_mutex *m);

#define mutex_lock_at(m, name)						\
	wt_mutex_lock((m), WT_POINT_OR_NULL(WT_K_LOCK, (name), "mutex", "mutex_lock"))
#define mutex_unlock_at(m, name)					\
	wt_mutex_unlock((m), WT_POINT_OR_NULL(WT_K_UNLOCK, (name), "mutex", "mutex_unlock"))
#define mutex_lock_shared_at(m, name)					\
	wt_mutex_lock_shared((m), WT_POINT_OR_NULL(WT_K_LOCK, (name), "mutex", "mutex_lock_shared"))
#define mutex_unlock_shared_at(m, name)					\
	wt_mutex_unlock_shared((m), WT_POINT_OR_NULL(WT_K_UNLOCK, (name), "mutex", "mutex_unlock_shared"))
#define mutex_lock(m)	mutex_lock_at((m), NULL)
#define mutex_unlock(m)	mutex_unlock_at((m), NULL)

#endif /* WT_SIM_MUTEX_H */

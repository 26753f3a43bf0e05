/* SPDX-License-Identifier: MIT */
/*
 * rcu_dereference / rcu_assign_pointer for object fields.
 *
 * wt_load()/wt_store() (sim/atomic.h) are relaxed: right for a flag or a
 * length, which a seqcount or a lock orders.  A pointer that a lockless
 * reader follows into an object another thread initialised is different:
 * the kernel relies on the address dependency (READ_ONCE of the pointer,
 * rcu_dereference), which C11 spells as acquire, and ThreadSanitizer
 * models no fence and no dependency -- so without release/acquire on the
 * pointer TSan reports the initialising stores (even malloc's) as racing
 * with the reader's loads.  These accessors are the same injection points
 * as wt_load()/wt_store() with the ordering the kernel gets for free:
 * every pointer a reader chases (the hash chains, d_parent, d_inode,
 * d_name.name, mnt_parent, mnt_mountpoint, i_link) is published with
 * wt_store_release() and read with wt_load_acquire().  Under memory=pso
 * those stores go through the store buffer behind a barrier, and the
 * loads see the thread's own buffered stores (sim/tso.h); under sc and
 * tso the stores reach memory at once, as they always did.
 */
#ifndef WT_SIM_VFS_ACCESS_H
#define WT_SIM_VFS_ACCESS_H

#include "sim/atomic.h"

/* rcu_dereference(o->field): an acquire load, an injection point. */
#define wt_load_acquire(o, field) ({					\
	__typeof__(o) __wo = (o);					\
	wt_access(&__wo->wt,						\
		  WT_ACCESS_POINT(WT_K_LOAD, #field, "load ->" #field), __wo); \
	wt_load_order(&__wo->field, __ATOMIC_ACQUIRE); })

/* rcu_assign_pointer(o->field, v): a release store, an injection point. */
#define wt_store_release(o, field, v) do {				\
	__typeof__(o) __wo = (o);					\
	wt_access(&__wo->wt,						\
		  WT_ACCESS_POINT(WT_K_STORE, #field, "store ->" #field), __wo); \
	wt_publish_release(&__wo->field, (v));				\
} while (0)

/* The same as a named writer step (an operation's publication order). */
#define wt_store_step_release(o, field, v, stepname) do {		\
	__typeof__(o) __wo = (o);					\
	wt_access(&__wo->wt,						\
		  WT_POINT_OR_NULL(WT_K_OP_STEP, (stepname), #field,	\
				   "writer step: store ->" #field), __wo); \
	wt_publish_release(&__wo->field, (v));				\
} while (0)

#endif /* WT_SIM_VFS_ACCESS_H */

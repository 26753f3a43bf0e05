/* SPDX-License-Identifier: MIT */
/*
 * The one place that decides memory ordering.
 *
 * Every access to data that another simulated thread may touch at the
 * same time goes through these macros: __atomic builtins, never libck's
 * ck_pr (plain volatile accesses in the Debian build, which TSan rightly
 * reports).  The plain-looking fields an RCU-walk reader loads while a
 * writer changes them (d_parent, d_name, d_inode, d_flags, mnt_parent,
 * mnt_mountpoint, i_mode, ...) are read with wt_load() and written with
 * wt_store(): relaxed, like READ_ONCE/WRITE_ONCE, and each one an
 * injection point at its call site, so a schedule can put a writer
 * between two loads of one reader (a torn read), and so that a later
 * store-buffer mode can take over every store without touching core/.
 *
 * wt_load()/wt_store() take the object (a struct with a `struct wt_obj
 * wt` header) and the field, and check first that the object is not
 * poisoned: that is how a use after the grace period is caught.
 */
#ifndef WT_SIM_ATOMIC_H
#define WT_SIM_ATOMIC_H

#include "sim/inject.h"
#include "sim/obj.h"

void wt_obj_poisoned(const struct wt_obj *o, const struct wt_point *p);

/* The check behind every object access: is it still alive? */
static inline void wt_obj_check(const struct wt_obj *o,
				const struct wt_point *p)
{
	if (__builtin_expect(
		    __atomic_load_n(&o->magic, __ATOMIC_RELAXED) != WT_OBJ_LIVE,
		    0))
		wt_obj_poisoned(o, p);
}

static inline void wt_access(const struct wt_obj *o, const struct wt_point *p,
			     const void *obj)
{
	wt_obj_check(o, p);
	wt_hook(p, obj);
}

#ifndef WT_NO_HOOKS
#define WT_ACCESS_POINT(kind, field, desc) WT_POINT((kind), NULL, field, desc)
#else
#define WT_ACCESS_POINT(kind, field, desc) ((const struct wt_point *)NULL)
#endif

/*
 * Relaxed load of a shared field of an object: READ_ONCE(o->field).
 * Relaxed because every ordering the lookup relies on is supplied by a
 * seqcount or a lock, as in the kernel; the load itself must only be
 * untorn.
 */
#define wt_load(o, field) ({						\
	__typeof__(o) __wo = (o);					\
	wt_access(&__wo->wt,						\
		  WT_ACCESS_POINT(WT_K_LOAD, #field, "load ->" #field), __wo); \
	__atomic_load_n(&__wo->field, __ATOMIC_RELAXED); })

/* Relaxed store to a shared field of an object: WRITE_ONCE(o->field, v). */
#define wt_store(o, field, v) do {					\
	__typeof__(o) __wo = (o);					\
	wt_access(&__wo->wt,						\
		  WT_ACCESS_POINT(WT_K_STORE, #field, "store ->" #field), __wo); \
	__atomic_store_n(&__wo->field, (v), __ATOMIC_RELAXED);		\
} while (0)

/* The same for a named writer step (an op's publication order). */
#define wt_store_step(o, field, v, stepname) do {			\
	__typeof__(o) __wo = (o);					\
	wt_access(&__wo->wt,						\
		  WT_POINT_OR_NULL(WT_K_OP_STEP, (stepname), #field,	\
				   "writer step: store ->" #field), __wo); \
	__atomic_store_n(&__wo->field, (v), __ATOMIC_RELAXED);		\
} while (0)

/* Plain relaxed accessors for words that are not object fields. */
#define READ_ONCE(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/*
 * Kernel barriers.  Each maps to the C11 fence with the same guarantee.
 *
 * Under TSan on x86 they are spelled as the machine needs them instead:
 * gcc 12 rejects atomic_thread_fence with -fsanitize=thread (-Wtsan, an
 * error under -Werror), and TSan models no fence anyway, so the fence
 * would buy no happens-before edge.  x86-TSO already orders load->load
 * and store->store, so smp_rmb/smp_wmb need only stop the compiler, and
 * smp_mb is an mfence.  Data published through a fence alone is
 * therefore invisible to TSan as ordering: publish with
 * smp_store_release (or read under a seqcount with relaxed accessors).
 */
#if defined(WT_TSAN) && (defined(__x86_64__) || defined(__i386__))
#define smp_mb()	__asm__ __volatile__("mfence" ::: "memory")
#define smp_rmb()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#define smp_wmb()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#else
/* smp_mb: orders earlier loads and stores against later ones (store->load too). */
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
/* smp_rmb: orders loads against later loads. */
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
/* smp_wmb: orders stores against later stores. */
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif
/* Compiler-only barrier: keeps the compiler from merging or moving accesses. */
#define barrier()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)

/* Read-modify-writes: full barriers, as the kernel's value-returning atomics. */
#define wt_atomic_add_return(p, v) __atomic_add_fetch((p), (v), __ATOMIC_SEQ_CST)
#define wt_atomic_sub_return(p, v) __atomic_sub_fetch((p), (v), __ATOMIC_SEQ_CST)
#define wt_atomic_fetch_add(p, v)  __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define wt_atomic_xchg(p, v)	   __atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define wt_atomic_cmpxchg(p, oldp, v)					\
	__atomic_compare_exchange_n((p), (oldp), (v), false,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
/* Relaxed counters (statistics): no ordering needed, only no tearing. */
#define wt_counter_inc(p)	__atomic_fetch_add((p), 1, __ATOMIC_RELAXED)

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
#endif
}

#endif /* WT_SIM_ATOMIC_H */

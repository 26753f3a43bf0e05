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
 *
 * Weak memory (memory=tso, sim/tso.h).  Every load and store below goes
 * through the current thread's x86-TSO store buffer when it has one:
 *
 *	wt_store, wt_store_step, WRITE_ONCE	buffered store
 *	smp_store_release			buffered store (x86 release:
 *						the FIFO orders it; pso: an
 *						smp_wmb() before it)
 *	wt_load, READ_ONCE, smp_load_acquire	own buffer first, else memory
 *	smp_mb					drains the buffer
 *	wt_atomic_* (read-modify-writes)	drain first (x86 locked ops)
 *	smp_rmb, smp_wmb			nothing: x86 keeps load->load
 *						and store->store order (pso:
 *						smp_wmb starts a new epoch)
 *	barrier, wt_counter_inc			nothing (compiler barrier;
 *						statistics, never an order)
 *
 * With no buffer (tso off: SC sim runs, stress, sequential code) each
 * accessor costs one predictable branch on the thread-local wt_tso_self
 * more than the plain __atomic access.  Accesses that bypass this header
 * (raw __atomic calls, plain C) never see a buffer: they see every store
 * at once, so in TSO mode they are the sequentially consistent part of
 * the model -- to take part in the weak-memory model an access must be
 * spelled with these macros.
 */
#ifndef WT_SIM_ATOMIC_H
#define WT_SIM_ATOMIC_H

#include "sim/inject.h"
#include "sim/obj.h"
#include "sim/tso.h"

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

/*
 * Every field access: the object is alive (a use after the grace period
 * is reported), and the access is an injection point.  Unarmed and
 * alive -- the usual case -- is one compare, the magic against
 * wt_access_key (sim/thread.h), which fails both when the object is dead
 * and when the thread is armed; only then come the real tests.
 *
 * Armed, the object is checked again after the point: the point may let
 * another thread run, and one that frees the object then (zoo
 * free_no_grace: a remover that frees without a grace period) would
 * leave the load that follows to read the poison unreported -- and a
 * poison pointer followed is a crash, not a report.  Dead already, it is
 * reported once, before the point.
 */
static inline void wt_access(const struct wt_obj *o, const struct wt_point *p,
			     const void *obj)
{
#ifndef WT_NO_HOOKS
	if (__builtin_expect(__atomic_load_n(&o->magic, __ATOMIC_RELAXED) ==
			     wt_access_key, 1))
		return;
	if (__builtin_expect(__atomic_load_n(&o->magic, __ATOMIC_RELAXED) ==
			     WT_OBJ_LIVE, 1)) {
		wt_hook(p, obj);
		wt_obj_check(o, p);
		return;
	}
#endif
	wt_obj_check(o, p);
	wt_hook(p, obj);
}

/* A name of its own for a macro's local, so that nested uses (READ_ONCE
 * of READ_ONCE(p)->q) do not shadow each other (-Wshadow). */
#define WT_CAT_(a, b)	a##b
#define WT_CAT(a, b)	WT_CAT_(a, b)
#define WT_UNIQUE(name)	WT_CAT(name, __COUNTER__)

/* The type of x without qualifiers (a cast yields an unqualified value):
 * the macros below keep a copy of a const field. */
#define wt_unqual_typeof(x) __typeof__((__typeof__(x))0)

#define WT_TSO_SIZE_OK(p)						\
	_Static_assert(sizeof(*(p)) == 1 || sizeof(*(p)) == 2 ||	\
		       sizeof(*(p)) == 4 || sizeof(*(p)) == 8,		\
		       "accessors take 1, 2, 4 or 8 bytes")

/*
 * The load and store every accessor is built on: an __atomic access of
 * the given order, or -- the one extra branch -- the store buffer's slow
 * path when the current thread has one (for a load: and some store is
 * buffered, wt_tso_load_buffered).
 */
#define __wt_load(p, order, pp, r) ({					\
	__typeof__(p) pp = (p);						\
	wt_unqual_typeof(*pp) r;					\
	WT_TSO_SIZE_OK(pp);						\
	if (wt_tso_load_buffered())					\
		wt_tso_load(pp, &r, sizeof(r));				\
	else								\
		r = __atomic_load_n(pp, (order));			\
	r; })
#define wt_load_order(p, order)						\
	__wt_load((p), order, WT_UNIQUE(__wt_lp), WT_UNIQUE(__wt_lr))

/* The slow path copies the value into a temporary of its own, so that
 * the fast path keeps it in a register (its address is never taken). */
#define __wt_store(p, v, order, pp, vv, tt) do {			\
	__typeof__(p) pp = (p);						\
	wt_unqual_typeof(*pp) vv = (v);					\
	WT_TSO_SIZE_OK(pp);						\
	if (wt_tso_on()) {						\
		wt_unqual_typeof(*pp) tt = vv;				\
		if ((order) == __ATOMIC_RELEASE)			\
			wt_tso_wmb_slow();				\
		wt_tso_store(pp, &tt, sizeof(tt));			\
	} else {							\
		__atomic_store_n(pp, vv, (order));			\
	}								\
} while (0)
#define wt_store_order(p, v, order)					\
	__wt_store((p), (v), order, WT_UNIQUE(__wt_sp), WT_UNIQUE(__wt_sv), \
		   WT_UNIQUE(__wt_st))

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
	wt_load_order(&__wo->field, __ATOMIC_RELAXED); })

/* Relaxed store to a shared field of an object: WRITE_ONCE(o->field, v). */
#define wt_store(o, field, v) do {					\
	__typeof__(o) __wo = (o);					\
	wt_access(&__wo->wt,						\
		  WT_ACCESS_POINT(WT_K_STORE, #field, "store ->" #field), __wo); \
	wt_store_order(&__wo->field, (v), __ATOMIC_RELAXED);		\
} while (0)

/* The same for a named writer step (an op's publication order). */
#define wt_store_step(o, field, v, stepname) do {			\
	__typeof__(o) __wo = (o);					\
	wt_access(&__wo->wt,						\
		  WT_POINT_OR_NULL(WT_K_OP_STEP, (stepname), #field,	\
				   "writer step: store ->" #field), __wo); \
	wt_store_order(&__wo->field, (v), __ATOMIC_RELAXED);		\
} while (0)

/* Plain relaxed accessors for words that are not object fields. */
#define READ_ONCE(x)	wt_load_order(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) wt_store_order(&(x), (v), __ATOMIC_RELAXED)

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
 *
 * Under memory=tso smp_mb() also drains the thread's store buffer: the
 * one barrier x86 needs (store->load).  smp_rmb() and smp_wmb() do not
 * touch it -- x86-TSO gives their orders for free -- so removing one of
 * them changes nothing under tso, and removing an smp_mb() can.
 */
#if defined(WT_TSAN) && (defined(__x86_64__) || defined(__i386__))
#define __wt_fence_mb()	__asm__ __volatile__("mfence" ::: "memory")
#define smp_rmb()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#define __wt_fence_wmb()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#else
/* smp_mb: orders earlier loads and stores against later ones (store->load too). */
#define __wt_fence_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
/* smp_rmb: orders loads against later loads. */
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
/* smp_wmb: orders stores against later stores. */
#define __wt_fence_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#endif
/* Under memory=pso a new store-buffer epoch: see sim/tso.h. */
#define smp_wmb() do {							\
	wt_tso_wmb();							\
	__wt_fence_wmb();						\
} while (0)
#define smp_mb() do {							\
	wt_tso_fence();							\
	__wt_fence_mb();						\
} while (0)
/* Compiler-only barrier: keeps the compiler from merging or moving accesses. */
#define barrier()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

/*
 * A pointer publication (rcu_assign_pointer, sim/vfs/access.h): straight
 * to memory with release order -- the sequentially consistent part of the
 * model under sc and tso, as before pso existed -- except under pso, where
 * the ordering it gives is the point: buffered behind a new epoch.
 *
 * Under tso the thread's own buffer drains first.  x86 never lets a store
 * pass an earlier one, and a publication that skipped the buffer did: in
 * d_make_negative, d_inode = NULL reached memory while the write_seqcount
 * _begin before it still waited, so a walker loaded the NULL inode and
 * then found d_seq unchanged -- a d_seq check passing over a torn state
 * the kernel cannot produce (found by `fuzz --memory tso`, seed 0x5eed,
 * workload 1790).  Draining is one of TSO's own executions (the buffer
 * happened to empty just then), so nothing new becomes possible.
 */
#define wt_publish_release(p, v) do {					\
	if (wt_tso_on() && wt_tso_partial_self())			\
		wt_store_order((p), (v), __ATOMIC_RELEASE);		\
	else {								\
		wt_tso_fence();						\
		__atomic_store_n((p), (v), __ATOMIC_RELEASE);		\
	}								\
} while (0)

/* x86: a plain load and a plain store (tso: the FIFO gives the order). */
#define smp_load_acquire(p)	wt_load_order((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	wt_store_order((p), (v), __ATOMIC_RELEASE)

/*
 * Read-modify-writes: full barriers, as the kernel's value-returning
 * atomics (x86 locked instructions: under tso the buffer drains first).
 */
#define __wt_rmw(p, pp, op) ({						\
	__typeof__(p) pp = (p);						\
	wt_tso_before_rmw(pp, sizeof(*pp));				\
	op; })
#define wt_atomic_add_return(p, v) __wt_rmw_(p, __atomic_add_fetch, (v))
#define wt_atomic_sub_return(p, v) __wt_rmw_(p, __atomic_sub_fetch, (v))
#define wt_atomic_fetch_add(p, v)  __wt_rmw_(p, __atomic_fetch_add, (v))
#define wt_atomic_xchg(p, v)	   __wt_rmw_(p, __atomic_exchange_n, (v))
#define __wt_rmw_(p, fn, v) __wt_rmw_2(p, fn, v, WT_UNIQUE(__wt_rp))
#define __wt_rmw_2(p, fn, v, pp)					\
	__wt_rmw((p), pp, fn(pp, (v), __ATOMIC_SEQ_CST))
#define wt_atomic_cmpxchg(p, oldp, v)					\
	__wt_cmpxchg((p), (oldp), (v), WT_UNIQUE(__wt_rp))
#define __wt_cmpxchg(p, oldp, v, pp)					\
	__wt_rmw((p), pp, __atomic_compare_exchange_n(pp, (oldp), (v), false, \
			 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
/*
 * Relaxed counters (statistics): no ordering needed, only no tearing.
 * Not a barrier under tso either: like the kernel's per-cpu stat
 * counters they order nothing, and making them drain would hide bugs.
 */
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

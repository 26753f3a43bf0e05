/* SPDX-License-Identifier: MIT */
/*
 * Injection points: the catalogue and the hook.
 *
 * Every primitive operation that another simulated thread could observe or
 * disturb -- a seq read or retry, a load or store of a shared field, a lock
 * step, a refcount step, an RCU enter or exit, a hash-chain step, an
 * allocation, each store of a writer operation -- calls wt_hook() with a
 * static point.  The point is defined at the call site by WT_POINT(), which
 * places a descriptor in the "wt_points" linker section, so the catalogue
 * is generated from the code and cannot go stale: walktorture points walks
 * the section.
 *
 * With no rule armed on the current thread the hook costs one predictable
 * branch.  With -DWT_NO_HOOKS (cmake -DWT_HOOKS=OFF) the hooks compile to
 * nothing, for the benchmark that measures their cost.
 */
#ifndef WT_SIM_INJECT_H
#define WT_SIM_INJECT_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

enum wt_point_kind {
	WT_K_SEQ_READ,		/* seqcount begin: the sample a reader keeps */
	WT_K_SEQ_RETRY,		/* seqcount retry check */
	WT_K_SEQ_WRITE,		/* seqcount writer begin/end */
	WT_K_LOAD,		/* load of a field RCU readers share with writers */
	WT_K_STORE,		/* store to such a field */
	WT_K_LOCK,		/* lock acquire */
	WT_K_UNLOCK,		/* lock release */
	WT_K_REF_GET,		/* refcount get (lockref, mnt_count) */
	WT_K_REF_PUT,		/* refcount put */
	WT_K_RCU_ENTER,		/* rcu_read_lock */
	WT_K_RCU_EXIT,		/* rcu_read_unlock */
	WT_K_RCU_SYNC,		/* grace-period wait or deferred free */
	WT_K_HASH_STEP,		/* one step along a dcache or mount hash chain */
	WT_K_ALLOC,		/* an allocation; a rule can make it fail */
	WT_K_OP_STEP,		/* a step (store) of a writer operation */
	WT_K_WAIT,		/* a blocked-on-condition wait */
	WT_K_EVENT,		/* a named event of the walk (e.g. a hash hit) */
	WT_K__COUNT
};

/*
 * One point.  Aligned to 64 bytes and padded so that the section is an
 * array and a point's id is its index (the compiler never over-aligns a
 * 64-byte-aligned object, and ASan leaves user sections unpadded).
 */
struct wt_point {
	const char *name;	/* explicit dotted name, or NULL */
	const char *func;	/* enclosing function */
	const char *file;
	const char *what;	/* the field or object touched, or NULL */
	const char *desc;	/* one line for `walktorture points` */
	uint32_t line;
	uint16_t kind;
} __attribute__((aligned(64)));

#define WT_POINT(kind_, name_, what_, desc_) ({				\
	static const struct wt_point __wt_pt				\
		__attribute__((section("wt_points"), used)) = {		\
		.name = (name_), .func = __func__, .file = __FILE__,	\
		.what = (what_), .desc = (desc_), .line = __LINE__,	\
		.kind = (kind_) };					\
	&__wt_pt; })

extern const struct wt_point __start_wt_points[];
extern const struct wt_point __stop_wt_points[];

static inline uint32_t wt_point_count(void)
{
	return (uint32_t)(__stop_wt_points - __start_wt_points);
}

static inline uint32_t wt_point_id(const struct wt_point *p)
{
	return (uint32_t)(p - __start_wt_points);
}

static inline const struct wt_point *wt_point_by_id(uint32_t id)
{
	return id < wt_point_count() ? &__start_wt_points[id] : NULL;
}

/*
 * What a point's operation does to the object its hook is given: read
 * it, write it, or both (a read-modify-write).  What POS calls a race
 * (two threads' next operations on one object, one a write) and what
 * the explorer's reads-from pairs are made of (a read or an acquire
 * observing the last write or release).  From the kind: a lock acquire
 * reads the last release and writes the lock; a seq write, a store, a
 * writer's step, an unlock and a grace period write; a refcount step is
 * both; loads, seq reads and retries, hash steps and events read; RCU
 * read-side marks, allocations and waits touch nothing shared.
 */
enum wt_access {
	WT_ACC_NONE = 0,
	WT_ACC_READ = 1,
	WT_ACC_WRITE = 2,
	WT_ACC_RMW = 3,
};

/* Inline: the scheduler's feedback asks it at every point. */
extern const unsigned char wt_kind_access[WT_K__COUNT];

static inline enum wt_access wt_point_kind_access(enum wt_point_kind kind)
{
	return (unsigned)kind < WT_K__COUNT ? (enum wt_access)wt_kind_access[kind]
					    : WT_ACC_NONE;
}

/* The kind's dotted name: "seq.read", "load", "lock", ... */
const char *wt_point_kind_name(enum wt_point_kind kind);
/* Parse a kind name; -1 when unknown. */
int wt_point_kind_parse(const char *s);

/*
 * The point's dotted name: its explicit name, or FUNC.KIND[.WHAT], with
 * "#N" appended from the second point of that name on (in file:line
 * order).  Stable as long as the code is.  Built once by
 * wt_points_catalogue(), which must run before the first call.
 */
const char *wt_point_name(const struct wt_point *p);
/* Build the name table; idempotent, not thread-safe (call at start-up). */
void wt_points_catalogue(void);
/* Look a point up by its dotted name; NULL when unknown. */
const struct wt_point *wt_point_lookup(const char *name);

#include "sim/thread.h"

void wt_hook_slow(struct wt_thread *t, const struct wt_point *p,
		  const void *obj);

/*
 * What every armed hit of a point p (not NULL) does first, in the slow
 * path and in a backend's own hook target (wt_hook_target): count it and
 * drop the last point's pending actions.  Returns p's id.
 */
static inline __attribute__((always_inline)) uint32_t
wt_hook_arrive(struct wt_thread *t, const struct wt_point *p)
{
	uint32_t id = wt_point_id(p);

	/* Relaxed stores of single-writer words: stress-mode readers only
	 * need untorn values (preempt-until, the watchdog's report). */
	__atomic_store_n(&t->last_point, p, __ATOMIC_RELAXED);
	__atomic_store_n(&t->arrivals, t->arrivals + 1, __ATOMIC_RELAXED);
	if (t->hits) {
		uint64_t v = t->hits[id];

		if (__builtin_expect(!v, 0))	/* once a run (or ever) */
			t->touched[t->ntouched++] = id;
		__atomic_store_n(&t->hits[id], v + 1, __ATOMIC_RELAXED);
	}
	if (t->pending) {	/* the last point's actions: gone */
		t->pending = false;
		t->pending_delay_ns = 0;
		t->pending_yield = false;
		t->pending_fail = false;
		t->pending_preempt_thread = -1;
	}
	return id;
}

/*
 * A free run (sim mode, sim/sched/sim.c): the scheduler has found that
 * nothing can be decided at the running fiber's next `left' points --
 * under PCT the fiber is top and its next change point is further on --
 * so the hook passes them without entering it.  What such a point still
 * owes is done at once, or summed for the scheduler to settle when the
 * fiber next enters it (a point that is not free, a wait, its end): its
 * hit (in the thread's row or the run's sum: `hits' is that array's
 * address less __start_wt_points / 8, so that a point's address / 8
 * lands on its counter; `hashes' likewise for wt_point_hashes), its
 * name hash for the digest's run (sim/sched/trace.h), and which point it
 * was.  A point whose counter is still 0 is not free: the slow path
 * lists a first arrival in the thread's touched list.  left and granted
 * are zero outside a free run, and always in stress mode.  On x86-64
 * the thunk does this before it saves anything (sim/inject.c, which
 * fixes the offsets); elsewhere wt_hook_free, the same in C.
 */
struct wt_free_run {
	uint64_t left;			/* free points still granted */
	uintptr_t hits;
	uintptr_t hashes;
	uint64_t sum;			/* the free points' name hashes */
	const struct wt_point *last;	/* the last free point */
	uint64_t granted;		/* left when the run was granted */
};
extern __thread struct wt_free_run wt_free WT_TLS_LE;

static inline bool wt_hook_free(const struct wt_point *p)
{
	uintptr_t at = (uintptr_t)p >> 3;	/* a point is 64 bytes */
	uint64_t *hit;

	if (!wt_free.left || !p)
		return false;
	hit = (uint64_t *)(wt_free.hits + at);
	if (!*hit)
		return false;
	*hit += 1;
	wt_free.left--;
	wt_free.sum += *(const uint64_t *)(wt_free.hashes + at);
	wt_free.last = p;
	return true;
}

/* t's arrivals so far, with those of a free run it is in. */
static inline uint64_t wt_thread_arrivals(const struct wt_thread *t)
{
	uint64_t n = __atomic_load_n(&t->arrivals, __ATOMIC_RELAXED);

	if (t == wt_self)
		n += wt_free.granted - wt_free.left;
	return n;
}

/*
 * How the hook reaches its slow path.  A plain call clobbers the nine
 * caller-saved registers, and although it sits in a cold branch the
 * register allocator plans the whole function around it: values live
 * across a hook go to callee-saved registers (more pushes and pops in
 * the prologue, which can then no longer be shrink-wrapped) or are
 * spilled, and a leaf function such as spin_unlock or rcu_read_unlock
 * grows a frame -- pushes, pops and moves that run unarmed too.  So on
 * x86-64 the slow path is entered through wt_hook_thunk (sim/inject.c),
 * which saves every general register it touches, like the kernel's
 * PV_CALLEE_SAVE thunks: the call site clobbers nothing the compiler
 * allocates in integer code, and the fast path is compiled as if the
 * hook were not there but for its test.  Vector and x87 registers are
 * declared clobbered instead of saved (integer code rarely keeps a value
 * in one across a hook, and saving them would cost every armed hit).
 * The call first steps over the red zone, which a leaf function may be
 * using.  The sanitizer builds keep the plain call: their
 * instrumentation is better left to see an ordinary one.
 */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && \
	!defined(__SANITIZE_THREAD__)
#define WT_HOOK_THUNK 1
#ifdef __AVX512F__
#define WT_HOOK_CLOBBER_AVX512						\
	"xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",	\
	"xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29",	\
	"xmm30", "xmm31", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7",
#else
#define WT_HOOK_CLOBBER_AVX512
#endif

/* rdi = point, rsi = obj; preserves all general registers but flags. */
void wt_hook_thunk(void);

/*
 * What the thunk calls: wt_hook_slow_self (the slow path for wt_self),
 * or a backend's own path for the thread it made current, which must do
 * what wt_hook_slow_self would (the sim's for its fibers: hook and point
 * in one function, no dispatch between).  Thread-local, like wt_self,
 * and set with it: whoever sets wt_self to a thread of its own may set
 * this, and sets it back to what it was when it sets wt_self back.
 */
typedef void wt_hook_target_fn(const struct wt_point *p, const void *obj);
extern __thread wt_hook_target_fn *wt_hook_target WT_TLS_LE;
void wt_hook_slow_self(const struct wt_point *p, const void *obj);

/*
 * The point is an "m" operand so that its address is formed inside the
 * asm (rip-relative for a static point) rather than hoisted into a
 * register the fast path would carry; obj is pushed and popped so that
 * whichever registers hold the two operands, neither is overwritten
 * before it is read.  rdi and rsi are restored for the caller.
 */
static inline __attribute__((always_inline)) void
wt_hook_call(const struct wt_point *p, const void *obj)
{
	__asm__ volatile(
		"lea -128(%%rsp), %%rsp\n\t"
		"push %%rdi\n\t"
		"push %%rsi\n\t"
		"push %[obj]\n\t"
		"lea %[pt], %%rdi\n\t"
		"pop %%rsi\n\t"
		"call wt_hook_thunk\n\t"
		"pop %%rsi\n\t"
		"pop %%rdi\n\t"
		"lea 128(%%rsp), %%rsp"
		:
		: [pt] "m"(*p), [obj] "r"(obj)
		: "memory", "cc",
		  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
		  "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
		  "xmm14", "xmm15", WT_HOOK_CLOBBER_AVX512
		  "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)",
		  "st(7)");
}
#else
static inline void wt_hook_call(const struct wt_point *p, const void *obj)
{
	if (!wt_hook_free(p))
		wt_hook_slow(wt_self, p, obj);
}
#endif

/*
 * The hook.  One predictable branch on a thread-local flag when the
 * current thread has nothing armed (no rule, no scheduler, no tracing):
 * the usual state of a plain sequential lookup.
 *
 * One test per point, although the flag changes only inside calls: gcc
 * would merge the tests of points with only plain code between them,
 * but the relaxed __atomic loads and the fences of sim/atomic.h that
 * sit between nearly all points are compiler barriers, so it reloads
 * the flag at each.  Field accesses, most of a lookup's ~135 points,
 * therefore do not come here unarmed: wt_access() (sim/atomic.h) folds
 * this test into its poison check -- the object's magic against
 * wt_access_key, which is WT_OBJ_LIVE only while nothing is armed -- one
 * compare for both (bench_lookup: 1.07 -> 1.02-1.03 of the no-hooks
 * build).  The other points (seq, locks, refcounts, events) pay this
 * test.
 */
static inline void wt_hook(const struct wt_point *p, const void *obj)
{
#ifndef WT_NO_HOOKS
	/* wt_self_armed == (wt_self && wt_self->hook_armed): one test. */
	if (__builtin_expect(wt_self_armed, 0))
		wt_hook_call(p, obj);
#else
	(void)p;
	(void)obj;
#endif
}

#ifndef WT_NO_HOOKS
#define WT_HOOK(kind, name, what, desc, obj)				\
	wt_hook(WT_POINT((kind), (name), (what), (desc)), (obj))
#define WT_POINT_OR_NULL(kind, name, what, desc)			\
	WT_POINT((kind), (name), (what), (desc))
#else
#define WT_HOOK(kind, name, what, desc, obj) ((void)(obj))
#define WT_POINT_OR_NULL(kind, name, what, desc) ((const struct wt_point *)NULL)
#endif

/* A named event of the walk, e.g. WT_EVENT("d_lookup_rcu.hit", dentry). */
#define WT_EVENT(name, obj) WT_HOOK(WT_K_EVENT, (name), NULL, (name), (obj))

bool wt_hook_alloc_slow(struct wt_thread *t, const struct wt_point *p);

/*
 * An allocation point: the hook, and the answer to "should this
 * allocation fail?" -- true when a `fail' rule fired here.  The caller
 * then behaves as if its allocation had failed (and must survive it):
 *
 *	if (wt_alloc_should_fail(WT_ALLOC_POINT("pick_link.alloc")))
 *		return -ECHILD;
 *
 * Always false with the hooks compiled out or nothing armed.
 */
static inline bool wt_alloc_should_fail(const struct wt_point *p)
{
#ifndef WT_NO_HOOKS
	if (__builtin_expect(wt_self_armed, 0))
		return wt_hook_alloc_slow(wt_self, p);
#else
	(void)p;
#endif
	return false;
}

#define WT_ALLOC_POINT(name)						\
	WT_POINT_OR_NULL(WT_K_ALLOC, (name), NULL, "allocation " name)

/* FNV-1a of the point's dotted name: what traces hash, so that digests
 * do not depend on link order or addresses.  The table is made once, by
 * the first call (wt_run makes it before any thread runs); then a lookup
 * inline, as the sim digests an event per point. */
extern const uint64_t *wt_point_hashes;
uint64_t wt_point_name_hash_slow(const struct wt_point *p);

static inline uint64_t wt_point_name_hash(const struct wt_point *p)
{
	if (__builtin_expect(p && wt_point_hashes, 1))
		return wt_point_hashes[wt_point_id(p)];
	return wt_point_name_hash_slow(p);
}
uint64_t wt_fnv1a(uint64_t h, const void *data, size_t len);
#define WT_FNV1A_INIT 0xcbf29ce484222325ull

/* Break here in gdb: called whenever an injected fault fires. */
void wt_fault_hit(const struct wt_point *p);

#endif /* WT_SIM_INJECT_H */

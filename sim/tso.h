/* SPDX-License-Identifier: MIT */
/*
 * Weak memory for the sim backend: x86-TSO store buffers (memory=tso),
 * and partial store order (memory=pso, below).
 *
 * The model is x86-TSO (Owens, Sarkar, Sewell, "A better x86 memory
 * model: x86-TSO", 2009): every simulated thread has a FIFO store buffer.
 *
 *   - A store made through sim/atomic.h (wt_store, wt_store_step,
 *     WRITE_ONCE, smp_store_release, the seqcount writer's stores) goes
 *     into the storing thread's buffer.  Release is the x86 release: an
 *     ordinary store, which the FIFO already orders after every earlier
 *     store.
 *   - A load made through sim/atomic.h (wt_load, READ_ONCE,
 *     smp_load_acquire, the seqcount reads) sees the thread's own newest
 *     buffered store to each byte first, and memory otherwise.  Other
 *     threads see only memory.
 *   - An entry reaches memory ("is flushed") oldest first: when the
 *     scheduler decides so (a trace event, see sched.h); when the buffer
 *     is full (WT_TSO_ENTRIES) and the thread stores again; when the
 *     thread runs smp_mb() or a read-modify-write (wt_atomic_*), or
 *     reaches a lock or unlock point, the end of its outermost RCU read
 *     section or a grace-period point (the sim backend drains there, see
 *     sim/sched/sim.c); and when the thread ends.
 *   - smp_rmb() and smp_wmb() drain nothing: x86 keeps load->load and
 *     store->store order, which the FIFO models.
 *
 * So the one reordering TSO allows -- a load passing an earlier store to
 * another address, the SB litmus test -- is what a missing smp_mb() shows.
 *
 * Representation: write-through with a committed shadow.  A buffered
 * store writes memory at once and keeps its value in the buffer; a table
 * of pending words keeps, for every aligned 8-byte word with bytes in
 * some buffer, the bytes as other threads must see them (committed: the
 * last flushed value, or the value before the first buffered store) and
 * as the last buffered store left them (shadow).  A load through
 * sim/atomic.h composes: own newest buffered byte, else committed, else
 * memory.  When the word's last entry is flushed, memory gets the
 * committed bytes back.  Why not keep memory stale instead: much of the
 * model reads fields with plain C or raw __atomic calls (a writer reading
 * the field it has just stored under its lock, `x->f | FLAG'), and those
 * must see the thread's own stores as C says they do.  Accesses that
 * bypass sim/atomic.h therefore see every store at once -- sequentially
 * consistent, never a thread missing its own store.  A plain store to a
 * byte with buffered entries wins over them (memory no longer equals the
 * shadow): it is newer than every buffered store of that byte.
 *
 * PSO (memory=pso; SPARC's partial store order, as herd's and the Linux
 * memory model's weakest store side allow): the same buffers, but an
 * entry may reach memory before older ones of the same thread, unless an
 * older one is on the same word (stores to one location stay in order)
 * or an smp_wmb() -- or the barrier a release store implies before
 * itself -- stands between them.  The buffer keeps an epoch, bumped by
 * those barriers; each entry remembers it.  So message passing (data
 * store, flag store) can be seen reversed under pso and never under tso,
 * and an smp_wmb() or smp_store_release() of the flag forbids it again.
 * smp_rmb() and acquire loads need nothing: loads still run in program
 * order.  Everything else (drains, RMWs, own loads) is as under tso.
 *
 * With tso off (every non-sim run, and sim runs in SC mode) wt_tso_self
 * is NULL and each accessor in sim/atomic.h costs one predictable branch
 * on that thread-local more than the plain __atomic access.
 */
#ifndef WT_SIM_TSO_H
#define WT_SIM_TSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Entries per thread's store buffer (override with -D). */
#ifndef WT_TSO_ENTRIES
#define WT_TSO_ENTRIES 64
#endif

struct wt_tso;
struct wt_tso_buf;

/*
 * The current simulated thread's store buffer, or NULL: tso is off.  Set
 * by the sim backend at every fiber switch (a thread-local, like
 * wt_self_armed, so that the fast path is one test).
 */
extern __thread struct wt_tso_buf *wt_tso_self;

/*
 * The zoo bugs of the primitives (enum wt_bug in sim/bug.h): sim/seq.h
 * does not know the world, so wt_run() copies wt_run_config.bugs here for
 * the threads it runs (every OS thread of the run).
 */
extern __thread uint64_t wt_primitive_bugs;

static inline bool wt_primitive_bug(unsigned bug)
{
	return (wt_primitive_bugs >> bug) & 1;
}

/* The slow paths (wt_tso_self != NULL).  Sizes 1, 2, 4, 8, aligned. */
void wt_tso_load(const void *addr, void *out, size_t size);
void wt_tso_store(void *addr, const void *val, size_t size);
void wt_tso_fence_slow(void);
void wt_tso_wmb_slow(void);
/* The current thread's buffer is a pso one (wt_tso_self != NULL). */
bool wt_tso_partial_self(void);
void wt_tso_rmw_slow(const void *addr, size_t size);

static inline bool wt_tso_on(void)
{
	return __builtin_expect(wt_tso_self != NULL, 0);
}

/* smp_mb(): the current thread's buffer drains. */
static inline void wt_tso_fence(void)
{
	if (wt_tso_on())
		wt_tso_fence_slow();
}

/*
 * smp_wmb(), and the barrier a release store implies before itself: under
 * pso the stores before it reach memory before any store after it (a new
 * epoch); under tso nothing (the FIFO already orders them).
 */
static inline void wt_tso_wmb(void)
{
	if (wt_tso_on())
		wt_tso_wmb_slow();
}

/*
 * Before a read-modify-write (x86: a locked instruction): the own buffer
 * drains, and entries other threads still buffer for the same word are
 * flushed first (a legal TSO order), so that the RMW reads memory as it is.
 */
static inline void wt_tso_before_rmw(const void *addr, size_t size)
{
	if (wt_tso_on())
		wt_tso_rmw_slow(addr, size);
}

/* ---- the runtime's side (sim backend) ---- */

/* Loads count as the program's only: not the scheduler's evaluations of
 * a wait condition (direct mode), whose number is the scheduler's
 * business (policy.c evaluates one only when a decision needs it). */
struct wt_tso_stats {
	uint64_t stores;	/* stores that went into a buffer */
	uint64_t forwards;	/* loads served (partly) from the own buffer */
	uint64_t stale;		/* loads that saw committed, not a newer
				 * buffered value of another thread */
	uint64_t flushes;	/* entries that reached memory, any reason */
	uint64_t full;		/* of those: the buffer was full */
	uint32_t max_depth;	/* deepest buffer seen */
};

struct wt_tso *wt_tso_create(unsigned nthreads);
void wt_tso_destroy(struct wt_tso *t);
struct wt_tso_buf *wt_tso_buf_of(struct wt_tso *t, unsigned thread);
/*
 * The first members of struct wt_tso and struct wt_tso_buf (tso.c): what
 * the scheduler asks at every decision, read inline (a call each was a
 * tenth of a tso point's decision).
 */
struct wt_tso_head {
	uint64_t pending;	/* entries, all buffers */
};

struct wt_tso_buf_head {
	unsigned count;		/* entries waiting in the buffer */
	const uint64_t *pending;	/* its wt_tso's wt_tso_head.pending */
};

/* Entries waiting in b. */
static inline unsigned wt_tso_depth(const struct wt_tso_buf *b)
{
	return ((const struct wt_tso_buf_head *)b)->count;
}

/* Entries waiting in all of t's buffers (the sum of their depths). */
static inline uint64_t wt_tso_pending(const struct wt_tso *t)
{
	return ((const struct wt_tso_head *)t)->pending;
}

/*
 * Does a load of the current thread go through the store buffers?  Only
 * under tso, and only while some store waits in one: with all of them
 * empty, memory holds what every thread sees, which is what wt_tso_load
 * would return (and it would count nothing).  Inline: a tso run loads at
 * most of its points, and its buffers are often all empty.
 */
static inline bool wt_tso_load_buffered(void)
{
	const struct wt_tso_buf_head *h =
		(const struct wt_tso_buf_head *)wt_tso_self;

	return wt_tso_on() && *h->pending != 0;
}
/* Flush b's oldest entry; false when b is empty. */
bool wt_tso_flush(struct wt_tso_buf *b);
/* memory=pso: entries leave out of order (see the top).  Partial mode is
 * set once, before any store. */
void wt_tso_set_partial(struct wt_tso *t, bool partial);
/* Entries of b that may reach memory now (tso: 1 when b is not empty). */
unsigned wt_tso_flushable(struct wt_tso_buf *b);
/* The buffer index (0 = oldest) of b's nth flushable entry, or -1. */
int wt_tso_flushable_nth(struct wt_tso_buf *b, unsigned nth);
/* Flush entry i (0 = oldest) if it may go now; false otherwise. */
bool wt_tso_flush_at(struct wt_tso_buf *b, unsigned i);
/* Must entry k (older than entry i) reach memory before entry i? */
bool wt_tso_must_precede(struct wt_tso_buf *b, unsigned k, unsigned i);
/* Flush entry i after every entry that must reach memory before it;
 * returns how many entries went (0: no entry i). */
unsigned wt_tso_flush_through(struct wt_tso_buf *b, unsigned i);
/*
 * Store numbers: every store b buffers gets the next one (0, 1, ...), so
 * a caller that notes wt_tso_next_sn() before some code knows which
 * entries that code buffered, and can ask whether one is still waiting.
 */
uint64_t wt_tso_next_sn(const struct wt_tso_buf *b);
bool wt_tso_buffered(struct wt_tso_buf *b, uint64_t sn);
/* The buffer index (0 = oldest) of store number sn, or -1. */
int wt_tso_index_of(struct wt_tso_buf *b, uint64_t sn);
/*
 * Called after each entry reaches memory, whatever sent it (a scheduler
 * flush, a drain, a full buffer, another thread's read-modify-write):
 * the sim's feedback (sim/sched/pos.c) moves a buffered write to the
 * instant the other threads can see it.  NULL: none (the default).
 */
typedef void (*wt_tso_flush_hook)(void *ctx, unsigned thread, uint64_t sn);
void wt_tso_set_flush_hook(struct wt_tso *t, wt_tso_flush_hook hook,
			   void *ctx);
/* Flush all of b; returns how many entries. */
unsigned wt_tso_drain(struct wt_tso_buf *b);
void wt_tso_drain_all(struct wt_tso *t);
/*
 * Direct mode, for the runtime's own code that runs as a thread but is
 * not that thread's program (the sim evaluates wait predicates as the
 * waiter): loads keep the thread's view, stores go straight to memory and
 * fences drain nothing, so evaluating a predicate changes no buffer.
 */
bool wt_tso_set_direct(struct wt_tso_buf *b, bool direct);
void wt_tso_get_stats(const struct wt_tso *t, struct wt_tso_stats *out);

#endif /* WT_SIM_TSO_H */

/* SPDX-License-Identifier: MIT */
/*
 * seqcount and seqlock, with the kernel's reader/writer API shape.
 *
 * A seqcount is even when stable and odd while a writer is inside.  A
 * reader samples it (read_seqcount_begin waits for an even value;
 * raw_seqcount_begin does not wait but clears the low bit, so a sample
 * taken during a write can never validate), reads, and asks
 * read_seqcount_retry whether a writer came in between.  Every begin and
 * every retry is an injection point named after its call site.
 *
 * seqlock = seqcount + spinlock: mount_lock and rename_lock.
 * write_seqlock takes the lock and bumps the count; read_seqlock_excl
 * takes the lock without bumping, so readers are not disturbed.
 *
 * Memory ordering (x86 and the kernel agree): the begin is an acquire
 * (smp_rmb after the load) so the reads it guards are not hoisted above
 * it; the retry has smp_rmb before it so they are not sunk below it;
 * __read_seqcount_retry has none (the caller supplies the barrier); the
 * writer has smp_wmb after making the count odd and before making it even.
 */
#ifndef WT_SIM_SEQ_H
#define WT_SIM_SEQ_H

#include <stdbool.h>

#include "sim/atomic.h"
#include "sim/sched/sched.h"
#include "sim/spinlock.h"

typedef struct seqcount {
	unsigned sequence;
} seqcount_t;

typedef struct seqlock {
	seqcount_t seqcount;
	spinlock_t lock;
} seqlock_t;

static inline void seqcount_init(seqcount_t *s, unsigned start)
{
	/* Start even: an odd start would read as a writer forever. */
	s->sequence = start & ~1u;
}

static inline unsigned wt_seq_raw(const seqcount_t *s)
{
	return __atomic_load_n(&s->sequence, __ATOMIC_RELAXED);
}

bool wt_seq_even(const void *seqcount);

static inline unsigned wt_seq_begin(const seqcount_t *s,
				    const struct wt_point *p, bool wait)
{
	unsigned seq;

	wt_hook(p, s);
	seq = wt_seq_raw(s);
	/*
	 * A writer is inside: wait for it, as the kernel spins.  A loop, not
	 * an if: the next writer may come in between the wake-up and the
	 * reload, and an odd sample returned here would validate against a
	 * retry taken inside that same write (a torn read accepted).  Not
	 * bounded, like the kernel's; each lap is a wait in the backend.
	 */
	while (wait && (seq & 1)) {
		wt_wait_at(p, WT_WAIT_SPIN, wt_seq_even, s);
		seq = wt_seq_raw(s);
	}
	smp_rmb();	/* the guarded reads come after the sample */
	return wait ? seq : (seq & ~1u);
}

static inline bool wt_seq_retry(const seqcount_t *s, unsigned start,
				const struct wt_point *p, bool with_barrier)
{
	if (with_barrier)
		smp_rmb();	/* the guarded reads came before the recheck */
	wt_hook(p, s);
	return wt_seq_raw(s) != start;
}

/*
 * The reader API.  Each macro defines an injection point at its call
 * site; the _at forms take an explicit dotted name (the ones directed
 * schedules use, e.g. "step_into.child_seq").
 */
#define raw_seqcount_begin_at(s, name)					\
	wt_seq_begin((s), WT_POINT_OR_NULL(WT_K_SEQ_READ, (name), "seq",	\
		     "raw_seqcount_begin"), false)
#define read_seqcount_begin_at(s, name)					\
	wt_seq_begin((s), WT_POINT_OR_NULL(WT_K_SEQ_READ, (name), "seq",	\
		     "read_seqcount_begin"), true)
#define read_seqcount_retry_at(s, start, name)				\
	wt_seq_retry((s), (start), WT_POINT_OR_NULL(WT_K_SEQ_RETRY, (name), \
		     "seq", "read_seqcount_retry"), true)
#define __read_seqcount_retry_at(s, start, name)			\
	wt_seq_retry((s), (start), WT_POINT_OR_NULL(WT_K_SEQ_RETRY, (name), \
		     "seq", "__read_seqcount_retry"), false)

#define raw_seqcount_begin(s)		raw_seqcount_begin_at((s), NULL)
#define read_seqcount_begin(s)		read_seqcount_begin_at((s), NULL)
#define read_seqcount_retry(s, start)	read_seqcount_retry_at((s), (start), NULL)
#define __read_seqcount_retry(s, start)	__read_seqcount_retry_at((s), (start), NULL)

/* Writer side: the caller holds the lock that serialises writers. */
static inline void wt_seq_write_begin(seqcount_t *s, const struct wt_point *p)
{
	wt_hook(p, s);
	__atomic_store_n(&s->sequence, wt_seq_raw(s) + 1, __ATOMIC_RELAXED);
	smp_wmb();	/* odd count visible before the data stores */
}

static inline void wt_seq_write_end(seqcount_t *s, const struct wt_point *p)
{
	smp_wmb();	/* data stores visible before the even count */
	wt_hook(p, s);
	__atomic_store_n(&s->sequence, wt_seq_raw(s) + 1, __ATOMIC_RELAXED);
}

#define write_seqcount_begin(s)						\
	wt_seq_write_begin((s), WT_POINT_OR_NULL(WT_K_SEQ_WRITE, NULL,	\
			   "seq", "write_seqcount_begin"))
#define write_seqcount_end(s)						\
	wt_seq_write_end((s), WT_POINT_OR_NULL(WT_K_SEQ_WRITE, NULL,	\
			 "seq", "write_seqcount_end"))

/* seqlock */
static inline void seqlock_init(seqlock_t *sl, unsigned start)
{
	seqcount_init(&sl->seqcount, start);
	spin_lock_init(&sl->lock);
}

#define read_seqbegin_at(sl, name)	read_seqcount_begin_at(&(sl)->seqcount, (name))
#define read_seqretry_at(sl, start, name) read_seqcount_retry_at(&(sl)->seqcount, (start), (name))
#define read_seqbegin(sl)		read_seqbegin_at((sl), NULL)
#define read_seqretry(sl, start)	read_seqretry_at((sl), (start), NULL)

#define write_seqlock(sl) do {						\
	spin_lock(&(sl)->lock);						\
	write_seqcount_begin(&(sl)->seqcount);				\
} while (0)
#define write_sequnlock(sl) do {					\
	write_seqcount_end(&(sl)->seqcount);				\
	spin_unlock(&(sl)->lock);					\
} while (0)
/* Exclusive reader: serialises against writers without bumping the count. */
#define read_seqlock_excl(sl)	spin_lock(&(sl)->lock)
#define read_sequnlock_excl(sl)	spin_unlock(&(sl)->lock)

#endif /* WT_SIM_SEQ_H */

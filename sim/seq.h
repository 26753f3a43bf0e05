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
 *
 * Under memory=tso (sim/tso.h) the count is loaded and stored through
 * sim/atomic.h like any field: the writer's increments go into its store
 * buffer, the reader's samples see its own buffer first.  Those four
 * barriers are smp_rmb/smp_wmb, which x86-TSO provides for free (loads
 * stay ordered with loads, stores with stores): removing any of them
 * changes nothing under tso, as it changes nothing on x86.
 *
 * The seqcount barrier x86 does need is a full one, where a seqcount
 * pairs with a store->load order -- a Dekker pattern, which a seqcount
 * alone does not give: a write section that LOADS what lockless readers
 * STORE (mount_lock: do_umount's busy check and mntput_no_expire load
 * mnt_count, which __legitimize_mnt raised before its recheck), and a
 * reader whose recheck must come after its own store.  The kernel writes
 * those as write_seqlock(); smp_mb(); and store; smp_mb(); read_seqretry;
 * here they are write_seqcount_begin_mb()/write_seqlock_mb() and
 * read_seqcount_retry_mb()/read_seqretry_mb(), and wt_seq_dekker_mb()
 * where the barrier stands apart from the seqcount call: mount_lock's
 * pairing in __legitimize_mnt (after the count increment, before the
 * recheck), do_umount (before the busy check) and mntput_no_expire
 * (after lock_mount_hash).  Those two call sites each have a zoo bug of
 * their own as well (legitimize_no_mb, umount_no_mb).  Without the smp_mb (zoo
 * WT_BUG_SEQ_NO_BARRIER, `--bug seq_no_barrier') the odd count may still
 * sit in the writer's store buffer when it loads, and the reader's store
 * in the reader's when it rechecks: both pass (the SB litmus outcome),
 * which only memory=tso can show.
 */
#ifndef WT_SIM_SEQ_H
#define WT_SIM_SEQ_H

#include <stdbool.h>

#include "sim/atomic.h"
#include "sim/bug.h"
#include "sim/sched/sched.h"
#include "sim/spinlock.h"

typedef struct seqcount {
	unsigned sequence;
	/*
	 * The value it started at: every value from birth to the current one
	 * was held (writers only ever move the count forward), so a retry
	 * whose start is outside that range compared against a sample of
	 * some other seqcount.  Written once, before publication.
	 */
	unsigned birth;
} seqcount_t;

typedef struct seqlock {
	seqcount_t seqcount;
	spinlock_t lock;
} seqlock_t;

static inline void seqcount_init(seqcount_t *s, unsigned start)
{
	/* Start even: an odd start would read as a writer forever. */
	s->sequence = start & ~1u;
	s->birth = s->sequence;
}

/*
 * Was start a value of s at some time up to now (a sample of s, not of
 * another seqcount)?  Unsigned differences: a count may wrap.
 */
static inline bool wt_seq_held(unsigned birth, unsigned start, unsigned now)
{
	return start - birth <= now - birth;
}

/* A failed retry: note it in the current thread (struct wt_seq_moved). */
void wt_seq_note_moved(const seqcount_t *s, unsigned start, unsigned now);

static inline unsigned wt_seq_raw(const seqcount_t *s)
{
	return READ_ONCE(s->sequence);
}

bool wt_seq_even(const void *seqcount);

static inline unsigned wt_seq_begin(const seqcount_t *s,
				    const struct wt_point *p, bool wait)
{
	unsigned seq;

	wt_hook(p, s);
	/* a new sample: an earlier failed retry no longer explains anything */
	if (wt_self)
		wt_self->seq_moved.set = false;
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
	unsigned now;

	wt_hook(p, s);
	now = wt_seq_raw(s);
	if (now == start)
		return false;
	wt_seq_note_moved(s, start, now);
	return true;
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
	WRITE_ONCE(s->sequence, wt_seq_raw(s) + 1);
	smp_wmb();	/* odd count visible before the data stores */
}

static inline void wt_seq_write_end(seqcount_t *s, const struct wt_point *p)
{
	smp_wmb();	/* data stores visible before the even count */
	wt_hook(p, s);
	WRITE_ONCE(s->sequence, wt_seq_raw(s) + 1);
}

/*
 * The full barrier of a seqcount Dekker pairing (see the top): zoo
 * WT_BUG_SEQ_NO_BARRIER leaves only the kernel's x86 compiler barrier.
 */
static inline void wt_seq_dekker_mb(void)
{
	if (!wt_primitive_bug(WT_BUG_SEQ_NO_BARRIER))
		smp_mb();
	else
		barrier();
}

/* write_seqcount_begin(); smp_mb(): the odd count is visible before this
 * write section's loads (which then see what readers stored first). */
static inline void wt_seq_write_begin_mb(seqcount_t *s,
					 const struct wt_point *p)
{
	wt_seq_write_begin(s, p);
	wt_seq_dekker_mb();
}

/* smp_mb(); read_seqcount_retry(): this reader's earlier stores are
 * visible before its recheck (a writer that missed them moved the count). */
static inline bool wt_seq_retry_mb(const seqcount_t *s, unsigned start,
				   const struct wt_point *p)
{
	wt_seq_dekker_mb();
	return wt_seq_retry(s, start, p, false);
}

#define write_seqcount_begin(s)						\
	wt_seq_write_begin((s), WT_POINT_OR_NULL(WT_K_SEQ_WRITE, NULL,	\
			   "seq", "write_seqcount_begin"))
#define write_seqcount_end(s)						\
	wt_seq_write_end((s), WT_POINT_OR_NULL(WT_K_SEQ_WRITE, NULL,	\
			 "seq", "write_seqcount_end"))
#define write_seqcount_begin_mb(s)					\
	wt_seq_write_begin_mb((s), WT_POINT_OR_NULL(WT_K_SEQ_WRITE, NULL, \
			      "seq", "write_seqcount_begin + smp_mb"))
#define read_seqcount_retry_mb_at(s, start, name)			\
	wt_seq_retry_mb((s), (start), WT_POINT_OR_NULL(WT_K_SEQ_RETRY, (name), \
			"seq", "smp_mb + read_seqcount_retry"))
#define read_seqcount_retry_mb(s, start)				\
	read_seqcount_retry_mb_at((s), (start), NULL)

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
/* write_seqlock(); smp_mb(); -- the mount_lock writers that then load
 * mnt_count (do_umount, mntput_no_expire). */
#define write_seqlock_mb(sl) do {					\
	spin_lock(&(sl)->lock);						\
	write_seqcount_begin_mb(&(sl)->seqcount);			\
} while (0)
#define read_seqretry_mb_at(sl, start, name)				\
	read_seqcount_retry_mb_at(&(sl)->seqcount, (start), (name))
#define read_seqretry_mb(sl, start)	read_seqretry_mb_at((sl), (start), NULL)
#define write_sequnlock(sl) do {					\
	write_seqcount_end(&(sl)->seqcount);				\
	spin_unlock(&(sl)->lock);					\
} while (0)
/* Exclusive reader: serialises against writers without bumping the count. */
#define read_seqlock_excl(sl)	spin_lock(&(sl)->lock)
#define read_sequnlock_excl(sl)	spin_unlock(&(sl)->lock)

#endif /* WT_SIM_SEQ_H */

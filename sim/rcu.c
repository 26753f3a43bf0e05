/* SPDX-License-Identifier: MIT */
/*
 * RCU on ck_epoch: read-side sections, call_rcu, synchronize_rcu, and the
 * poison-and-quarantine free that makes a use after the grace period
 * visible to wt_obj_check().
 *
 * Ownership (ck_epoch's rule): ck_epoch_call and ck_epoch_poll on a
 * record belong to the record's owner, the simulated thread it hangs on.
 * A grace-period wait therefore polls the waiter's own record from its
 * ready() condition; in sim mode the scheduler evaluates ready() on the
 * same OS thread, so the record still has a single user at a time.
 * ck_epoch_synchronize and ck_epoch_barrier are never called: they spin,
 * and a spinning fiber would livelock the sim scheduler.
 *
 * Records are never physically freed while the domain lives: ck_epoch
 * keeps every record on its global list (pollers of other threads scan
 * it), so an unregistered reader is recycled by the next
 * wt_rcu_reader_create and freed with the domain.
 */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ck_epoch.h>

#include "sim/atomic.h"
#include "sim/rcu.h"
#include "sim/sched/sched.h"

#define wt_container_of(ptr, type, member)				\
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/*
 * The grace period as a happens-before edge for ThreadSanitizer, which
 * cannot see it through libck (uninstrumented, and plain volatile
 * accesses besides): every reader releases the domain's token as it
 * leaves its outermost section, and whoever acts on a grace period (the
 * free callback, the return of synchronize_rcu) acquires it.  A read
 * after the section ended is still reported, as it should be.
 */
#ifdef WT_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define wt_tsan_acquire(addr)	__tsan_acquire(addr)
#define wt_tsan_release(addr)	__tsan_release(addr)
#else
#define wt_tsan_acquire(addr)	((void)(addr))
#define wt_tsan_release(addr)	((void)(addr))
#endif

struct wt_quarantined {
	struct wt_obj *obj;
	size_t size;
	wt_rcu_free_fn free_fn;
};

struct wt_rcu_domain {
	ck_epoch_t epoch;
	/*
	 * Harness machinery, not model: a pthread mutex (no injection
	 * points, so no fiber switch can happen while it is held) guards
	 * the quarantine ring and the reader list.
	 */
	pthread_mutex_t lock;
	struct wt_quarantined *ring;	/* FIFO of poisoned objects */
	size_t slots;			/* ring capacity; 0 = no quarantine */
	size_t head;			/* oldest entry */
	size_t used;
	struct wt_rcu_reader *readers;	/* every reader made, live or not */
	/* readers of an earlier world (wt_rcu_domain_reset): memory only,
	 * registered again when reader_alloc takes one */
	struct wt_rcu_reader *spare;
	uint32_t live_readers;
	/* Statistics: relaxed atomic counters, bumped from any thread. */
	uint64_t deferred;
	uint64_t poisoned;
	uint64_t released;
	uint64_t grace_periods;
	char tsan_token;		/* the grace period's sync address */
	/* wt_rcu_domain_mark's copy: the ring's entries oldest first, and
	 * the statistics (mark NULL and mark_used 0: none) */
	struct wt_quarantined *mark;
	size_t mark_used;
	uint64_t mark_stats[4];
};

struct wt_rcu_reader {
	ck_epoch_record_t record;	/* first: cache-line aligned */
	struct wt_rcu_domain *domain;
	struct wt_rcu_reader *next;	/* on domain->readers */
	/* Owner only (the owner's polls run its callbacks). */
	uint64_t pending;		/* call_rcu callbacks not yet run */
	uint64_t ran;			/* call_rcu callbacks run */
	bool registered;
};

/* One call_rcu in flight: what to free once the grace period has passed. */
struct wt_rcu_deferral {
	ck_epoch_entry_t entry;
	struct wt_rcu_reader *reader;
	struct wt_obj *obj;
	size_t size;
	wt_rcu_free_fn free_fn;
	bool poisoned;		/* wt_free_now: poisoned already */
};

/* One synchronize_rcu in flight, on the waiter's stack. */
/*
 * What a poll of a record reads that others change: the global epoch,
 * and which records are in use, and of those which are active and in
 * what epoch (ck_epoch_scan skips free records, and reads an inactive
 * one's epoch not at all).  See sync_poll.
 */
#define WT_RCU_SEEN_MAX	16

struct wt_rcu_seen {
	bool valid;		/* as the last poll left them */
	unsigned epoch, n;
	const ck_epoch_record_t *rec[WT_RCU_SEEN_MAX];
	uint64_t active_epoch[WT_RCU_SEEN_MAX];	/* active << 32 | epoch */
};

struct wt_rcu_sync {
	ck_epoch_entry_t entry;
	struct wt_rcu_reader *reader;
	bool done;
	struct wt_rcu_seen seen;	/* sim: the records after its last poll */
};

static void __attribute__((noreturn)) rcu_fatal(const char *msg)
{
	fprintf(stderr, "walktorture: !!! rcu: %s\n", msg);
	abort();
}

/* Quarantine */

static void obj_release(struct wt_rcu_domain *d, struct wt_quarantined q)
{
	wt_counter_inc(&d->released);
	if (q.free_fn)
		q.free_fn(q.obj);
	else
		wt_obj_free(q.obj, q.size);
}

/*
 * Keep the header's type and id (the report names the object) and mark it
 * freed; fill the rest, so that a reader that skips the check still reads
 * nonsense rather than plausible stale data.
 */
static void obj_poison(struct wt_rcu_domain *d, struct wt_obj *obj,
		       size_t size)
{
	assert(size >= sizeof(*obj));
	assert(__atomic_load_n(&obj->magic, __ATOMIC_RELAXED) == WT_OBJ_LIVE);
	__atomic_store_n(&obj->magic, WT_OBJ_FREED, __ATOMIC_RELAXED);
	memset((char *)obj + sizeof(*obj), WT_POISON_BYTE, size - sizeof(*obj));
	wt_counter_inc(&d->poisoned);
}

/* Add to the ring; returns the entry pushed out (obj NULL if none). */
static struct wt_quarantined quarantine_push(struct wt_rcu_domain *d,
					     struct wt_quarantined q)
{
	struct wt_quarantined out = { 0 };

	if (d->slots == 0)
		return q;
	pthread_mutex_lock(&d->lock);
	if (d->used == d->slots) {
		out = d->ring[d->head];
		d->ring[d->head] = q;
		d->head = (d->head + 1) % d->slots;
	} else {
		d->ring[(d->head + d->used) % d->slots] = q;
		d->used++;
	}
	assert(d->used <= d->slots);
	pthread_mutex_unlock(&d->lock);
	return out;
}

/* Quarantine an object poisoned already; release the oldest. */
static void quarantine_put_poisoned(struct wt_rcu_domain *d,
				    struct wt_obj *obj, size_t size,
				    wt_rcu_free_fn free_fn)
{
	struct wt_quarantined q = { .obj = obj, .size = size,
				    .free_fn = free_fn };

#ifdef WT_QUARANTINE
	q = quarantine_push(d, q);
#endif
	/* Outside the lock: free_fn is the caller's and may take its own. */
	if (q.obj)
		obj_release(d, q);
}

/* The end of every free: poison, quarantine, release the oldest. */
static void quarantine_put(struct wt_rcu_domain *d, struct wt_obj *obj,
			   size_t size, wt_rcu_free_fn free_fn)
{
#ifdef WT_QUARANTINE
	obj_poison(d, obj, size);
#endif
	quarantine_put_poisoned(d, obj, size, free_fn);
}

static void quarantine_flush(struct wt_rcu_domain *d)
{
	while (d->used > 0) {
		struct wt_quarantined q = d->ring[d->head];

		d->head = (d->head + 1) % d->slots;
		d->used--;
		obj_release(d, q);
	}
}

/* Domain */

struct wt_rcu_domain *wt_rcu_domain_create(size_t quarantine_slots)
{
	struct wt_rcu_domain *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
#ifndef WT_QUARANTINE
	quarantine_slots = 0;	/* freed memory goes back at once */
#endif
	d->slots = quarantine_slots;
	if (d->slots) {
		/* Allocated up front: the quarantine never grows in a run.
		 * Not zeroed: a slot is read only after it was written (a
		 * world per iteration pays for no 16 KiB memset). */
		d->ring = malloc(d->slots * sizeof(*d->ring));
		if (!d->ring)
			goto fail_ring;
	}
	if (pthread_mutex_init(&d->lock, NULL))
		goto fail_lock;
	ck_epoch_init(&d->epoch);
	return d;

fail_lock:
	free(d->ring);
fail_ring:
	free(d);
	return NULL;
}

/*
 * What destroy and reset both release: the quarantine and the reader
 * records (reset keeps their memory on the spare list: the next world's
 * readers are as many, and an aligned allocation costs more than the
 * rest of a reader's set-up).  A live reader may still be inside a
 * section or hold deferred frees: tearing the domain down under it is a
 * harness bug (why).
 */
static void domain_release(struct wt_rcu_domain *d, const char *why,
			   bool keep)
{
	struct wt_rcu_reader *r, *next;

	if (d->live_readers)
		rcu_fatal(why);
	quarantine_flush(d);
	for (r = d->readers; r; r = next) {
		next = r->next;
		assert(!r->registered);
		assert(r->pending == 0);
		if (keep) {
			r->next = d->spare;
			d->spare = r;
		} else {
			free(r);
		}
	}
	d->readers = NULL;
	for (r = keep ? NULL : d->spare; r; r = next) {
		next = r->next;
		free(r);
	}
	if (!keep)
		d->spare = NULL;
}

void wt_rcu_domain_destroy(struct wt_rcu_domain *d)
{
	if (!d)
		return;
	domain_release(d, "domain destroyed with live readers", false);
	pthread_mutex_destroy(&d->lock);
	free(d->mark);
	free(d->ring);
	free(d);
}

/*
 * For the next world of a run: what destroy frees is released (the
 * quarantine's objects; the reader records, whose memory goes on the
 * spare list), what it would allocate again is kept (the domain and its
 * quarantine ring), and the rest starts as create leaves it -- an empty
 * ring, no reader, zero statistics and a fresh epoch (ck_epoch_init
 * forgets the records; a spare one is zeroed and registered again), so
 * that no state of the last world's grace periods reaches the next one.
 */
void wt_rcu_domain_reset(struct wt_rcu_domain *d)
{
	domain_release(d, "domain reset with live readers", true);
	assert(d->used == 0);
	d->head = 0;
	d->deferred = 0;
	d->poisoned = 0;
	d->released = 0;
	d->grace_periods = 0;
	ck_epoch_init(&d->epoch);
}

void wt_rcu_stats(struct wt_rcu_domain *d, struct wt_rcu_stats *out)
{
	out->deferred = __atomic_load_n(&d->deferred, __ATOMIC_RELAXED);
	out->poisoned = __atomic_load_n(&d->poisoned, __ATOMIC_RELAXED);
	out->released = __atomic_load_n(&d->released, __ATOMIC_RELAXED);
	out->grace_periods = __atomic_load_n(&d->grace_periods,
					     __ATOMIC_RELAXED);
}

/* Readers */

static struct wt_rcu_reader *reader_alloc(struct wt_rcu_domain *d)
{
	struct wt_rcu_reader *r;
	ck_epoch_record_t *rec;
	void *mem;

	/* Reuse an unregistered record: ck_epoch cannot forget one. */
	rec = ck_epoch_recycle(&d->epoch, NULL);
	if (rec)
		return wt_container_of(rec, struct wt_rcu_reader, record);
	if (d->spare) {		/* an earlier world's: as new */
		mem = d->spare;
		d->spare = d->spare->next;
	} else if (posix_memalign(&mem, _Alignof(struct wt_rcu_reader),
				  sizeof(*r))) {
		/* The record is cache-line aligned; malloc's 16 bytes
		 * are not. */
		return NULL;
	}
	r = memset(mem, 0, sizeof(*r));
	ck_epoch_register(&d->epoch, &r->record, NULL);
	r->next = d->readers;
	d->readers = r;
	return r;
}

struct wt_rcu_reader *wt_rcu_reader_create(struct wt_rcu_domain *d)
{
	struct wt_rcu_reader *r;

	assert(d);
	/* Under the domain lock, so that a recycled reader's last use by
	 * its previous owner happens before its reuse (TSan sees the mutex,
	 * not libck's atomics). */
	pthread_mutex_lock(&d->lock);
	r = reader_alloc(d);
	if (r) {
		r->domain = d;
		r->pending = 0;
		r->ran = 0;
		r->registered = true;
		d->live_readers++;
	}
	pthread_mutex_unlock(&d->lock);
	return r;
}

/* Run the record's due callbacks; returns how many call_rcu frees ran. */
static unsigned reader_poll(struct wt_rcu_reader *r)
{
	uint64_t before = r->ran;

	ck_epoch_poll(&r->record);
	assert(r->ran >= before);
	return (unsigned)(r->ran - before);
}

/* ck_epoch.c's CK_EPOCH_STATE_FREE (its header does not say it): an
 * unregistered record, which ck_epoch_scan skips. */
#define WT_CK_EPOCH_STATE_FREE	1u

/* A used record's part in a poll (wt_rcu_seen); 0: free. */
static uint64_t seen_key(const ck_epoch_record_t *r)
{
	if (r->state & WT_CK_EPOCH_STATE_FREE)
		return 0;
	return r->active ? (uint64_t)r->active << 32 | r->epoch : 1;
}

/* The records as a poll of one of g's reads them now, into seen; false
 * when they do not fit. */
static bool seen_take(const ck_epoch_t *g, struct wt_rcu_seen *seen)
{
	unsigned n = 0;

	_Static_assert(offsetof(ck_epoch_record_t, record_next) == 0,
		       "a record is its stack entry");
	seen->epoch = g->epoch;
	for (const ck_stack_entry_t *c = CK_STACK_FIRST(&g->records); c;
	     c = CK_STACK_NEXT(c)) {
		const ck_epoch_record_t *r = (const ck_epoch_record_t *)c;
		uint64_t key = seen_key(r);

		if (!key)
			continue;
		if (n == WT_RCU_SEEN_MAX)
			return false;
		seen->rec[n] = r;
		seen->active_epoch[n++] = key;
	}
	seen->n = n;
	return true;
}

/* Do the records read as seen says? */
static bool seen_same(const ck_epoch_t *g, const struct wt_rcu_seen *seen)
{
	unsigned n = 0;

	if (g->epoch != seen->epoch)
		return false;
	for (const ck_stack_entry_t *c = CK_STACK_FIRST(&g->records); c;
	     c = CK_STACK_NEXT(c)) {
		const ck_epoch_record_t *r = (const ck_epoch_record_t *)c;
		uint64_t key = seen_key(r);

		if (!key)
			continue;
		if (n == seen->n || seen->rec[n] != r ||
		    seen->active_epoch[n] != key)
			return false;
		n++;
	}
	return n == seen->n;
}

/*
 * A waiter's poll of its record, skipped in the sim when it would change
 * nothing.  ck_epoch_poll is a function of the global epoch, which
 * records are in use and, of those, which are active in what epoch, and
 * the poller's own pending lists -- which change only by the poller's
 * own calls and polls, and it is waiting.  And it is idempotent: what
 * one poll leaves, polling again leaves as it is (it dispatched the
 * lists it could; it advanced the epoch only when every active record
 * had seen the old one, and then waits for them).  So while the records
 * read as the last poll left them (seen), another would do nothing but
 * ck's full fence -- at every scheduling decision of the wait.  Sim only,
 * where every thread runs on this OS thread and nothing changes the
 * records while they are read.
 */
static void waiter_poll(struct wt_rcu_reader *r, struct wt_rcu_seen *seen)
{
	const ck_epoch_t *g = &r->domain->epoch;
	const struct wt_thread *t = wt_self;

	if (!t || !t->sched_point) {
		reader_poll(r);
		return;
	}
	if (seen->valid && seen_same(g, seen))
		return;
	reader_poll(r);
	seen->valid = seen_take(g, seen);
}

/* A reader's teardown waits for its call_rcu frees (waiter_poll). */
struct wt_rcu_drain {
	struct wt_rcu_reader *r;
	struct wt_rcu_seen seen;
};

static bool reader_drained(const void *arg)
{
	struct wt_rcu_drain *dr = (struct wt_rcu_drain *)arg;

	if (dr->r->pending)
		waiter_poll(dr->r, &dr->seen);
	return dr->r->pending == 0;
}

void wt_rcu_reader_destroy(struct wt_rcu_reader *r)
{
	struct wt_thread *t = wt_self;
	struct wt_rcu_drain dr = { .r = r };
	struct wt_rcu_domain *d;

	if (!r)
		return;
	d = r->domain;
	assert(r->registered);
	/* Leaving with a section open would leave the record active. */
	assert(!(t && t->rcu == r && t->rcu_depth > 0));
	/* A grace-period wait: the frees it deferred must not be lost
	 * (ck_epoch_unregister drops pending callbacks on the floor). */
	wt_wait_at(WT_POINT_OR_NULL(WT_K_RCU_SYNC, NULL, NULL,
				    "rcu reader teardown: drain call_rcu"),
		   WT_WAIT_SLEEP_POLL, reader_drained, &dr);
	pthread_mutex_lock(&d->lock);
	ck_epoch_unregister(&r->record);
	r->registered = false;
	d->live_readers--;
	pthread_mutex_unlock(&d->lock);
	if (t && t->rcu == r)
		t->rcu = NULL;
}

void wt_rcu_thread_abandoned(struct wt_thread *t)
{
	if (!t->rcu_depth)
		return;
	if (t->rcu)
		ck_epoch_end(&t->rcu->record, NULL);
	t->rcu_depth = 0;
}

/* Read side */

/*
 * With no simulated thread (start-up, the tree builder) there is nothing
 * to count.  A thread without a reader record still counts its depth, so
 * that balance and sleeping-in-a-section checks work in sequential code,
 * but enters no epoch: nothing frees concurrently with it.
 */
void wt_rcu_read_lock(const struct wt_point *p)
{
	struct wt_thread *t = wt_self;

	if (!t)
		return;
	wt_hook(p, t->rcu);
	if (t->rcu_depth++ == 0 && t->rcu)
		ck_epoch_begin(&t->rcu->record, NULL);
	assert(t->rcu_depth > 0);
}

void wt_rcu_read_unlock(const struct wt_point *p)
{
	struct wt_thread *t = wt_self;

	if (!t)
		return;
	wt_hook(p, t->rcu);
	if (t->rcu_depth == 0) {
		/* Ending an epoch we never began would underflow the
		 * record's nesting and let a grace period pass early. */
		wt_violation(WT_CHECK_RCU_BALANCE, p, NULL,
			     "rcu_read_unlock outside any read section");
		return;
	}
	if (--t->rcu_depth == 0 && t->rcu) {
		/* Everything read in the section happens before the frees
		 * of the grace period this exit lets pass. */
		wt_tsan_release(&t->rcu->domain->tsan_token);
		ck_epoch_end(&t->rcu->record, NULL);
	}
}

/* Deferred free */

static void rcu_free_cb(ck_epoch_entry_t *e)
{
	struct wt_rcu_deferral *df =
		wt_container_of(e, struct wt_rcu_deferral, entry);
	struct wt_rcu_reader *r = df->reader;

	assert(r->pending > 0);
	/* Every reader that could hold obj has left; their reads happen
	 * before the poison. */
	wt_tsan_acquire(&r->domain->tsan_token);
	if (df->poisoned)
		quarantine_put_poisoned(r->domain, df->obj, df->size,
					df->free_fn);
	else
		quarantine_put(r->domain, df->obj, df->size, df->free_fn);
	r->pending--;
	r->ran++;
	free(df);
}

void wt_call_rcu(struct wt_rcu_domain *d, struct wt_obj *obj, size_t size,
		 wt_rcu_free_fn free_fn, const struct wt_point *p)
{
	struct wt_thread *t = wt_self;
	struct wt_rcu_reader *r = t ? t->rcu : NULL;
	struct wt_rcu_deferral *df;

	assert(d && obj);
	assert(size >= sizeof(*obj));
	wt_hook(p, obj);
	wt_counter_inc(&d->deferred);
	if (!r) {
		/* No record, no concurrent reader: the grace period is now. */
		quarantine_put(d, obj, size, free_fn);
		return;
	}
	assert(r->domain == d);
	df = malloc(sizeof(*df));
	if (!df)
		rcu_fatal("out of memory deferring a free");
	*df = (struct wt_rcu_deferral){ .reader = r, .obj = obj,
					.size = size, .free_fn = free_fn };
	/* The caller's unpublish must be visible before ck_epoch_call
	 * samples the epoch (ck_epoch_call has no fence): a reader that
	 * enters after that sample must not find obj. */
	smp_mb();
	ck_epoch_call(&r->record, &df->entry, rcu_free_cb);
	r->pending++;
}

/*
 * Poisoned at once -- that is the zoo's free without a grace period, and
 * a reader's next check of obj reports it -- but the memory itself goes
 * back only a grace period later, through the quarantine: a reader
 * standing on obj may be preempted for longer than the quarantine holds
 * (PCT starves threads for thousands of frees), and when it wakes it
 * must find poison, not memory malloc handed to someone else (a SIGSEGV
 * in the harness instead of a report).
 */
void wt_free_now(struct wt_rcu_domain *d, struct wt_obj *obj, size_t size,
		 wt_rcu_free_fn free_fn)
{
	struct wt_thread *t = wt_self;
	struct wt_rcu_reader *r = t ? t->rcu : NULL;
	struct wt_rcu_deferral *df;

	assert(d && obj);
	/* No TSan acquire here: when readers are about (the zoo's free
	 * without a grace period) the race is real and must be reported. */
	if (!r) {
		quarantine_put(d, obj, size, free_fn);
		return;
	}
	assert(r->domain == d);
	obj_poison(d, obj, size);
	df = malloc(sizeof(*df));
	if (!df)
		rcu_fatal("out of memory deferring a release");
	*df = (struct wt_rcu_deferral){ .reader = r, .obj = obj,
					.size = size, .free_fn = free_fn,
					.poisoned = true };
	smp_mb();
	ck_epoch_call(&r->record, &df->entry, rcu_free_cb);
	r->pending++;
}

unsigned wt_rcu_poll(void)
{
	struct wt_thread *t = wt_self;

	if (!t || !t->rcu)
		return 0;
	return reader_poll(t->rcu);
}

/* Grace period */

/*
 * done is the harness's flag, on the waiter's stack, not simulated
 * memory: plain __atomic accesses, never sim/atomic.h.  Under memory=tso
 * or pso a WRITE_ONCE here sat in the waiter's store buffer after
 * wt_synchronize_rcu returned, and its flush wrote into whatever frame
 * used that stack next (ASan saw it when umount took the writer mutex
 * right after its grace period).
 */
static void rcu_sync_cb(ck_epoch_entry_t *e)
{
	struct wt_rcu_sync *s = wt_container_of(e, struct wt_rcu_sync, entry);

	__atomic_store_n(&s->done, true, __ATOMIC_RELEASE);
}

/* The waiter's condition: its own callback ran, so every reader that was
 * inside when synchronize_rcu began has left.  Polls the waiter's own
 * record (the caller of ready() runs on the waiter's OS thread). */
static bool rcu_sync_done(const void *arg)
{
	struct wt_rcu_sync *s = (struct wt_rcu_sync *)arg;

	if (!__atomic_load_n(&s->done, __ATOMIC_ACQUIRE))
		waiter_poll(s->reader, &s->seen);
	return __atomic_load_n(&s->done, __ATOMIC_ACQUIRE);
}

void wt_synchronize_rcu(const struct wt_point *p)
{
	struct wt_thread *t = wt_self;
	struct wt_rcu_reader *r = t ? t->rcu : NULL;
	struct wt_rcu_sync s = { .reader = r, .done = false };

	wt_hook(p, r);
	if (!r) {
		/* No record, no concurrency: nothing to wait for, but a
		 * sleeping call inside a section is still a bug. */
		wt_might_sleep(p);
		return;
	}
	/* As in wt_call_rcu: the update is visible before the sample. */
	smp_mb();
	ck_epoch_call(&r->record, &s.entry, rcu_sync_cb);
	wt_wait_at(p, WT_WAIT_SLEEP_POLL, rcu_sync_done, &s);
	assert(s.done);
	/* The caller may now free what readers saw (umount does). */
	wt_tsan_acquire(&r->domain->tsan_token);
	wt_counter_inc(&r->domain->grace_periods);
}

/*
 * A world snapshot (sim/vfs/world.h) keeps what the tree's build freed:
 * those objects sit in the quarantine when the snapshot is taken, and a
 * restored world must find them there again, in the same order, so that
 * the ring releases the same objects at the same frees as in a world
 * built afresh.  Their memory is the arena's, written back by the
 * restore, so the copy holds only the ring's entries.
 */
int wt_rcu_domain_mark(struct wt_rcu_domain *d)
{
	struct wt_quarantined *copy = NULL;

	assert(!d->live_readers);
	if (d->used) {
		copy = malloc(d->used * sizeof(*copy));
		if (!copy)
			return -1;
		for (size_t i = 0; i < d->used; i++)
			copy[i] = d->ring[(d->head + i) % d->slots];
	}
	free(d->mark);
	d->mark = copy;
	d->mark_used = d->used;
	d->mark_stats[0] = d->deferred;
	d->mark_stats[1] = d->poisoned;
	d->mark_stats[2] = d->released;
	d->mark_stats[3] = d->grace_periods;
	return 0;
}

void wt_rcu_domain_rewind(struct wt_rcu_domain *d)
{
	wt_rcu_domain_reset(d);
	if (d->mark_used)
		memcpy(d->ring, d->mark, d->mark_used * sizeof(*d->ring));
	d->used = d->mark_used;
	d->deferred = d->mark_stats[0];
	d->poisoned = d->mark_stats[1];
	d->released = d->mark_stats[2];
	d->grace_periods = d->mark_stats[3];
}

/* SPDX-License-Identifier: MIT */
/*
 * wt_mutex as the reader/writer semaphore i_rwsem is: sharers overlap, a
 * writer is alone, and a waiting writer holds off readers that come after
 * it (so lookup_slow's shared holds cannot starve a rename).  Real threads
 * on the native backend.
 */
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "sim/mutex.h"
#include "sim/thread.h"

#define NTHREADS	4
#define ROUNDS		20000
#define WAIT_NS		(5ull * 1000 * 1000 * 1000)	/* for a state we poll */

struct rw_world {
	struct wt_mutex m;
	uint32_t readers;	/* inside shared */
	uint32_t writers;	/* inside exclusive */
	uint32_t bad;		/* a writer was not alone */
	uint32_t overlaps;	/* two readers were inside at once */
	uint64_t counter;	/* plain: written only under the exclusive lock */
	uint32_t order;		/* the next ticket of the ordering test */
};

struct rw_thread {
	struct wt_thread t;
	struct rw_world *w;
	int kind;		/* 0 reader, 1 writer, 2 both */
	uint32_t ticket;	/* when it got the lock (ordering test) */
	uint32_t go;		/* the ordering test's reader may start */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Poll until *p has all bits of want, or WAIT_NS passed; did it? */
static bool wait_bits(const uint32_t *p, uint32_t want)
{
	uint64_t t0 = now_ns();

	while ((READ_ONCE(*p) & want) != want)
		if (now_ns() - t0 > WAIT_NS)
			return false;
		else
			sched_yield();
	return true;
}

static void reader_round(struct rw_world *w)
{
	mutex_lock_shared_at(&w->m, NULL);
	if (wt_atomic_add_return(&w->readers, 1) > 1)
		wt_atomic_fetch_add(&w->overlaps, 1);
	if (READ_ONCE(w->writers))
		wt_atomic_fetch_add(&w->bad, 1);
	sched_yield();
	wt_atomic_sub_return(&w->readers, 1);
	mutex_unlock_shared_at(&w->m, NULL);
}

static void writer_round(struct rw_world *w)
{
	uint64_t c;

	mutex_lock(&w->m);
	wt_atomic_fetch_add(&w->writers, 1);
	if (READ_ONCE(w->readers) || READ_ONCE(w->writers) != 1)
		wt_atomic_fetch_add(&w->bad, 1);
	/* a lost update (and a TSan report) if two writers were inside */
	c = w->counter;
	w->counter = c + 1;
	wt_atomic_sub_return(&w->writers, 1);
	mutex_unlock(&w->m);
}

static void *mix_body(void *arg)
{
	struct rw_thread *rt = arg;

	wt_thread_enter(&rt->t);
	for (int i = 0; i < ROUNDS; i++) {
		if (rt->kind == 0 || (rt->kind == 2 && (i & 7)))
			reader_round(rt->w);
		else
			writer_round(rt->w);
	}
	wt_thread_enter(NULL);
	return NULL;
}

Test(mutex, writers_are_alone_and_readers_overlap)
{
	static struct rw_world w;
	struct rw_thread t[NTHREADS];
	pthread_t pt[NTHREADS];
	uint64_t writes = 0;

	alarm(60);	/* a lost wakeup hangs; fail instead */
	wt_mutex_init(&w.m);
	for (uint32_t i = 0; i < NTHREADS; i++) {
		t[i] = (struct rw_thread){ .w = &w, .kind = i < 2 ? 0 : 2 };
		wt_thread_init(&t[i].t, i, i < 2 ? "reader" : "mixed");
		cr_assert_eq(pthread_create(&pt[i], NULL, mix_body, &t[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(pt[i], NULL);
	for (int i = 0; i < ROUNDS; i++)
		writes += (i & 7) == 0;
	cr_assert_eq(w.bad, 0, "a writer shared the lock %u times", w.bad);
	cr_assert_eq(w.counter, 2 * writes, "lost updates: %lu of %lu",
		     (unsigned long)w.counter, (unsigned long)(2 * writes));
	cr_assert_gt(w.overlaps, 0, "two readers were never inside at once");
	cr_assert(!wt_mutex_is_locked(&w.m));
}

static void *ordered_writer(void *arg)
{
	struct rw_thread *rt = arg;

	wt_thread_enter(&rt->t);
	mutex_lock(&rt->w->m);
	rt->ticket = wt_atomic_add_return(&rt->w->order, 1);
	mutex_unlock(&rt->w->m);
	wt_thread_enter(NULL);
	return NULL;
}

static void *ordered_reader(void *arg)
{
	struct rw_thread *rt = arg;

	wt_thread_enter(&rt->t);
	WRITE_ONCE(rt->go, 1);
	mutex_lock_shared_at(&rt->w->m, NULL);
	rt->ticket = wt_atomic_add_return(&rt->w->order, 1);
	mutex_unlock_shared_at(&rt->w->m, NULL);
	wt_thread_enter(NULL);
	return NULL;
}

Test(mutex, a_waiting_writer_goes_before_later_readers)
{
	static struct rw_world w;
	struct rw_thread wr = { .w = &w }, rd = { .w = &w };
	pthread_t pw, pr;
	uint64_t t0;

	alarm(30);
	wt_mutex_init(&w.m);
	wt_thread_init(&wr.t, 1, "writer");
	wt_thread_init(&rd.t, 2, "reader");
	mutex_lock_shared_at(&w.m, NULL);	/* the first reader: us */
	cr_assert_eq(pthread_create(&pw, NULL, ordered_writer, &wr), 0);
	cr_assert(wait_bits(&w.m.locked, WT_MUTEX_WAITING),
		  "the writer never said it waits");
	cr_assert_eq(pthread_create(&pr, NULL, ordered_reader, &rd), 0);
	cr_assert(wait_bits(&rd.go, 1));
	/* the later reader must not get in while the writer waits */
	t0 = now_ns();
	while (now_ns() - t0 < 20 * 1000 * 1000)
		sched_yield();
	cr_assert_eq(READ_ONCE(w.order), 0, "someone got in past a held lock");
	mutex_unlock_shared_at(&w.m, NULL);
	pthread_join(pw, NULL);
	pthread_join(pr, NULL);
	cr_assert_eq(wr.ticket, 1, "the writer came %u", wr.ticket);
	cr_assert_eq(rd.ticket, 2, "the later reader came %u", rd.ticket);
	cr_assert(!wt_mutex_is_locked(&w.m));
}

/* SPDX-License-Identifier: MIT */
/*
 * spinlock: mutual exclusion under real threads, trylock semantics, the
 * owner recorded for reports, and a contended acquire that waits through
 * the thread's backend (WT_WAIT_SPIN) instead of spinning on its own.
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "sim/sched/sched.h"
#include "sim/spinlock.h"
#include "sim/thread.h"

#define NTHREADS	4
#define ROUNDS		20000

struct counter_world {
	spinlock_t lock;
	uint64_t counter;	/* plain: only ever touched under lock */
	uint32_t inside;	/* threads inside the critical section */
	uint32_t overlaps;	/* times two were inside at once */
	uint32_t wrong_owner;	/* times the owner was not the holder */
};

struct counter_thread {
	struct wt_thread t;
	struct counter_world *w;
};

static void *counter_body(void *arg)
{
	struct counter_thread *ct = arg;
	struct counter_world *w = ct->w;
	uint64_t c;

	/* No cr_assert here: Criterion's asserts belong to the test's own
	 * thread, so failures are counted for it to check. */
	wt_thread_enter(&ct->t);
	for (int i = 0; i < ROUNDS; i++) {
		spin_lock(&w->lock);
		if (wt_atomic_add_return(&w->inside, 1) != 1)
			wt_atomic_fetch_add(&w->overlaps, 1);
		/* A non-atomic read-modify-write with a gap: a lost update
		 * (and a TSan report) if two threads were ever inside. */
		c = w->counter;
		if ((i & 63) == 0)
			sched_yield();
		w->counter = c + 1;
		if (READ_ONCE(w->lock.owner) != ct->t.id + 1)
			wt_atomic_fetch_add(&w->wrong_owner, 1);
		wt_atomic_sub_return(&w->inside, 1);
		spin_unlock(&w->lock);
	}
	wt_thread_enter(NULL);
	return NULL;
}

/*
 * A hang fails the test within seconds instead of at ctest's limit.  Not
 * Criterion's .timeout: Criterion 2.4.1 leaks a timeout request when two
 * timed tests overlap under --jobs, and LeakSanitizer fails the run for
 * it.  Each test runs in a process of its own, so the alarm is its own.
 */
static void watchdog(unsigned seconds)
{
	alarm(seconds);
}

Test(spinlock, mutual_exclusion_under_four_threads)
{
	/*
	 * Proves mutual exclusion: four pthreads increment a plain counter
	 * with a read, a yield and a write inside the lock, ROUNDS times
	 * each; any overlap would lose updates (the total falls short) and
	 * is also counted directly.  Under TSan a broken lock is a report.
	 */
	struct counter_world w = { 0 };
	struct counter_thread ct[NTHREADS];
	pthread_t th[NTHREADS];

	watchdog(30);
	spin_lock_init(&w.lock);
	for (uint32_t i = 0; i < NTHREADS; i++) {
		wt_thread_init(&ct[i].t, i, "locker");
		ct[i].w = &w;
		cr_assert_eq(pthread_create(&th[i], NULL, counter_body, &ct[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	cr_assert_eq(w.overlaps, 0);
	cr_assert_eq(w.wrong_owner, 0);
	cr_assert_eq(w.counter, (uint64_t)NTHREADS * ROUNDS);
	cr_assert_not(spin_is_locked(&w.lock));
	cr_assert_eq(w.lock.owner, 0);
}

Test(spinlock, trylock_takes_a_free_lock_and_fails_on_a_held_one)
{
	/*
	 * Proves trylock semantics: it takes a free lock (owner recorded as
	 * thread id + 1), fails without blocking on a held one and leaves it
	 * held by its holder, and succeeds again after the unlock.
	 */
	struct wt_thread t;
	spinlock_t l;

	wt_thread_init(&t, 6, "trylocker");
	wt_thread_enter(&t);
	spin_lock_init(&l);
	cr_assert_not(spin_is_locked(&l));
	cr_assert(spin_trylock(&l));
	cr_assert(spin_is_locked(&l));
	cr_assert_eq(l.owner, 7);
	cr_assert_not(spin_trylock(&l));
	cr_assert(spin_is_locked(&l));
	cr_assert_eq(l.owner, 7);
	spin_unlock(&l);
	cr_assert_not(spin_is_locked(&l));
	cr_assert_eq(l.owner, 0);
	cr_assert(spin_trylock(&l));
	spin_unlock(&l);
	wt_thread_enter(NULL);
}

Test(spinlock, owner_is_zero_without_a_simulated_thread)
{
	/* Proves sequential code (no wt_self) can use the lock and records
	 * no owner, instead of dereferencing a NULL thread. */
	spinlock_t l;

	spin_lock_init(&l);
	spin_lock(&l);
	cr_assert(spin_is_locked(&l));
	cr_assert_eq(l.owner, 0);
	spin_unlock(&l);
	cr_assert_not(spin_is_locked(&l));
}

/* A backend that records each wait and then waits natively. */
struct recording_sched {
	struct wt_sched s;
	uint32_t waits;
	enum wt_wait_kind kind;
	const struct wt_point *point;
	bool ready_at_entry;	/* ready() already true when called? */
};

static void recording_wait(struct wt_sched *s, struct wt_thread *t,
			   const struct wt_point *p, enum wt_wait_kind kind,
			   wt_ready_fn ready, const void *arg)
{
	struct recording_sched *rs = (struct recording_sched *)s;

	rs->kind = kind;
	rs->point = p;
	rs->ready_at_entry = ready(arg);
	wt_atomic_fetch_add(&rs->waits, 1);	/* publishes the fields above */
	wt_native_ops.wait(NULL, t, p, kind, ready, arg);
}

static const struct wt_sched_ops recording_ops = {
	.name = "recording",
	.point = NULL,
	.wait = recording_wait,
};

struct contender {
	struct wt_thread t;
	struct recording_sched rs;
	spinlock_t *l;
	uint32_t acquired;
};

static void *contender_body(void *arg)
{
	struct contender *c = arg;

	wt_thread_enter(&c->t);
	spin_lock(c->l);
	WRITE_ONCE(c->acquired, 1);
	spin_unlock(c->l);
	wt_thread_enter(NULL);
	return NULL;
}

Test(spinlock, contended_lock_waits_through_the_backend)
{
	/*
	 * Proves a contended spin_lock never spins by itself: with the lock
	 * held by main, a thread whose backend records waits must block in
	 * its backend's wait() with WT_WAIT_SPIN and a not-yet-ready
	 * condition, at the spin_lock call site, and get the lock only after
	 * main releases it.
	 */
	struct contender c = { 0 };
	spinlock_t l;
	pthread_t th;

	watchdog(10);
	spin_lock_init(&l);
	wt_thread_init(&c.t, 1, "contender");
	c.rs.s.ops = &recording_ops;
	c.t.sched = &c.rs.s;
	c.l = &l;
	spin_lock(&l);
	cr_assert_eq(pthread_create(&th, NULL, contender_body, &c), 0);
	/* Bounded: 5 s for the contender to reach its wait. */
	for (int i = 0; i < 5000 && !__atomic_load_n(&c.rs.waits,
						      __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	cr_assert_eq(__atomic_load_n(&c.rs.waits, __ATOMIC_ACQUIRE), 1);
	cr_assert_eq(READ_ONCE(c.acquired), 0, "got a held lock");
	spin_unlock(&l);
	pthread_join(th, NULL);
	cr_assert_eq(c.acquired, 1);
	cr_assert_geq(c.rs.waits, 1);
	cr_assert_eq(c.rs.kind, WT_WAIT_SPIN);
	cr_assert_not(c.rs.ready_at_entry);
	cr_assert_not_null(c.rs.point);
	cr_assert_eq(c.rs.point->kind, WT_K_LOCK);
}

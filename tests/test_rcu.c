/* SPDX-License-Identifier: MIT */
/*
 * RCU: a deferred free waits for every reader that could hold the object,
 * synchronize_rcu waits for the readers that were inside, a use after the
 * grace period is caught at the access (the poison check), a sleeping
 * wait in a section and an unbalanced unlock are reported, the quarantine
 * is bounded, and a pthread reader/writer stress is clean under TSan and
 * ASan (which is what validates the grace-period annotation).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "sim/rcu.h"
#include "sim/sched/sched.h"
#include "sim/thread.h"

#define PAYLOAD_WORDS	8

struct tobj {
	struct wt_obj wt;
	uint64_t value;
	uint64_t payload[PAYLOAD_WORDS];
};

static struct tobj *tobj_new(uint64_t id, uint64_t value)
{
	struct tobj *o = malloc(sizeof(*o));

	if (!o)
		abort();	/* not cr_assert: writer threads call this too */
	wt_obj_init(&o->wt, WT_OBJ_OTHER, id);
	o->value = value;
	for (int i = 0; i < PAYLOAD_WORDS; i++)
		o->payload[i] = value;
	return o;
}

static uint32_t magic_of(const struct tobj *o)
{
	return __atomic_load_n(&o->wt.magic, __ATOMIC_RELAXED);
}

static void sleep_ms(unsigned ms)
{
	usleep(ms * 1000u);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wait (at most 10 s) for a flag another thread sets. */
static bool wait_flag(const uint32_t *flag)
{
	for (int i = 0; i < 10000; i++) {
		if (__atomic_load_n(flag, __ATOMIC_ACQUIRE))
			return true;
		sleep_ms(1);
	}
	return false;
}

static void set_flag(uint32_t *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

/* A violation sink: records what it saw, for the test to check. */
#define SINK_MAX 8
struct sink {
	uint32_t count;
	enum wt_check check[SINK_MAX];
	const struct wt_point *point[SINK_MAX];
	const void *obj[SINK_MAX];
	uint64_t obj_id[SINK_MAX];
	bool unlock_on_sleep;	/* recover from RCU_SLEEP by leaving */
};

static void sink_fn(struct wt_thread *t, enum wt_check check,
		    const struct wt_point *p, const void *obj, const char *msg)
{
	struct sink *s = t->violation_arg;
	uint32_t i = s->count++;

	(void)msg;
	if (i < SINK_MAX) {
		s->check[i] = check;
		s->point[i] = p;
		s->obj[i] = obj;
		/* A poisoned object keeps its header: the id is still true. */
		s->obj_id[i] = check == WT_CHECK_POISON && obj ?
			       ((const struct wt_obj *)obj)->id : 0;
	}
	/* The sink plays the runner that reports and lets the thread go on:
	 * leaving the section lets the wait that was reported complete. */
	if (check == WT_CHECK_RCU_SLEEP && s->unlock_on_sleep)
		while (t->rcu_depth > 0)
			rcu_read_unlock();
}

static void thread_setup(struct wt_thread *t, uint32_t id, const char *name,
			 struct wt_rcu_domain *d, struct sink *s)
{
	wt_thread_init(t, id, name);
	if (d)
		t->rcu = wt_rcu_reader_create(d);
	if (s) {
		t->on_violation = sink_fn;
		t->violation_arg = s;
	}
	wt_thread_enter(t);
}

static void thread_teardown(struct wt_thread *t)
{
	wt_rcu_reader_destroy(t->rcu);
	t->rcu = NULL;
	wt_thread_enter(NULL);
}

/* A reader that holds an object inside a (possibly nested) section until
 * told to leave. */
struct holder {
	struct wt_rcu_domain *d;
	struct tobj **gp;
	bool nested;		/* enter twice, leave the inner one first */
	uint32_t inside;	/* holding the pointer, in the section */
	uint32_t go;		/* main: leave now */
	uint32_t left;		/* set just before the last unlock */
	uint64_t value_seen;
	uint64_t value_at_exit;
};

static void *holder_body(void *arg)
{
	struct holder *h = arg;
	struct wt_thread t;
	struct tobj *o;

	thread_setup(&t, 1, "reader", h->d, NULL);
	rcu_read_lock();
	if (h->nested)
		rcu_read_lock();
	o = __atomic_load_n(h->gp, __ATOMIC_ACQUIRE);
	h->value_seen = wt_load(o, value);
	if (h->nested)
		rcu_read_unlock();	/* still inside the outer section */
	set_flag(&h->inside);
	wait_flag(&h->go);
	/* No sink: a poisoned object here aborts the test. */
	h->value_at_exit = wt_load(o, value);
	set_flag(&h->left);
	rcu_read_unlock();
	thread_teardown(&t);
	return NULL;
}

static void check_poisoned(const struct tobj *o, uint64_t id)
{
	const unsigned char *b = (const unsigned char *)o + sizeof(o->wt);

	cr_assert_eq(magic_of(o), WT_OBJ_FREED);
	cr_assert_eq(o->wt.id, id, "the header keeps the id");
	cr_assert_eq(o->wt.type, WT_OBJ_OTHER, "the header keeps the type");
	for (size_t i = 0; i < sizeof(*o) - sizeof(o->wt); i++)
		cr_assert_eq(b[i], WT_POISON_BYTE, "byte %zu not poisoned", i);
}

static void deferred_free_waits_for(bool nested)
{
	struct wt_rcu_domain *d = wt_rcu_domain_create(16);
	struct tobj *obj = tobj_new(42, 4242);
	struct tobj *gp = obj;
	struct holder h = { .d = d, .gp = &gp, .nested = nested };
	struct wt_rcu_stats st;
	struct wt_thread me;
	pthread_t th;
	int tries;

	thread_setup(&me, 0, "writer", d, NULL);
	cr_assert_eq(pthread_create(&th, NULL, holder_body, &h), 0);
	cr_assert(wait_flag(&h.inside));
	/* Unpublish, then defer the free, as d_delete/dentry_free would. */
	__atomic_store_n(&gp, NULL, __ATOMIC_RELEASE);
	call_rcu_free(d, &obj->wt, sizeof(*obj), NULL);
	for (int i = 0; i < 100; i++) {
		wt_rcu_poll();
		cr_assert_eq(magic_of(obj), WT_OBJ_LIVE,
			     "freed while a reader holds it (poll %d)", i);
		sleep_ms(1);
	}
	wt_rcu_stats(d, &st);
	cr_assert_eq(st.deferred, 1);
	cr_assert_eq(st.poisoned, 0);
	set_flag(&h.go);
	pthread_join(th, NULL);
	cr_assert_eq(h.value_seen, 4242);
	cr_assert_eq(h.value_at_exit, 4242);
	/* Bounded: the reader is gone, so the next poll should do it. */
	for (tries = 0; tries < 1000 && magic_of(obj) == WT_OBJ_LIVE; tries++)
		wt_rcu_poll();
	check_poisoned(obj, 42);
	wt_rcu_stats(d, &st);
	cr_assert_eq(st.poisoned, 1);
	cr_assert_eq(st.released, 0, "still in quarantine");
	thread_teardown(&me);
	wt_rcu_domain_destroy(d);
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

Test(rcu, deferred_free_waits_for_the_reader_holding_it)
{
	/*
	 * Proves call_rcu frees only after every reader that could see the
	 * object has left: a reader pthread holds the pointer inside its
	 * section while the writer unpublishes it, calls call_rcu and polls
	 * a hundred times over 100 ms -- the object must stay live -- and
	 * once the reader has left, polling poisons it (magic FREED, header
	 * kept, the rest filled with the poison byte).
	 */
	watchdog(20);
	deferred_free_waits_for(false);
}

Test(rcu, nested_sections_end_at_the_outermost_unlock)
{
	/*
	 * Proves nesting is counted: the reader enters twice and leaves the
	 * inner section before it is told to go; if the inner unlock ended
	 * the epoch, the writer's polls would free the object under the
	 * still-open outer section (and the reader's last load would abort).
	 */
	watchdog(20);
	deferred_free_waits_for(true);
}

struct syncer {
	struct wt_rcu_domain *d;
	struct holder *h;
	uint32_t done;
	uint32_t reader_had_left;
};

static void *syncer_body(void *arg)
{
	struct syncer *s = arg;
	struct wt_thread t;

	thread_setup(&t, 2, "syncer", s->d, NULL);
	synchronize_rcu();
	WRITE_ONCE(s->reader_had_left, READ_ONCE(s->h->left));
	set_flag(&s->done);
	thread_teardown(&t);
	return NULL;
}

Test(rcu, synchronize_rcu_waits_for_the_reader_inside)
{
	/*
	 * Proves synchronize_rcu returns only after a reader that was inside
	 * has left: a reader pthread sits in its section; a second pthread
	 * calls synchronize_rcu and must still be waiting 100 ms later; the
	 * reader sets `left` just before its unlock, and the syncer must see
	 * it set when synchronize_rcu returns.
	 */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct tobj *obj = tobj_new(1, 7);
	struct tobj *gp = obj;
	struct holder h = { .d = d, .gp = &gp };
	struct syncer s = { .d = d, .h = &h };
	struct wt_rcu_stats st;
	pthread_t rt, st_th;

	watchdog(20);
	cr_assert_eq(pthread_create(&rt, NULL, holder_body, &h), 0);
	cr_assert(wait_flag(&h.inside));
	cr_assert_eq(pthread_create(&st_th, NULL, syncer_body, &s), 0);
	sleep_ms(100);
	cr_assert_eq(__atomic_load_n(&s.done, __ATOMIC_ACQUIRE), 0,
		     "synchronize_rcu returned with a reader inside");
	set_flag(&h.go);
	pthread_join(rt, NULL);
	pthread_join(st_th, NULL);
	cr_assert_eq(s.done, 1);
	cr_assert_eq(s.reader_had_left, 1);
	wt_rcu_stats(d, &st);
	cr_assert_eq(st.grace_periods, 1);
	wt_rcu_domain_destroy(d);
	free(obj);
}

Test(rcu, use_after_grace_period_is_caught_at_the_access)
{
	/*
	 * Proves the poison check: an object freed through call_rcu and a
	 * grace period (the poll runs the callback: no reader is inside),
	 * then read with wt_load(), reports WT_CHECK_POISON to the thread's
	 * sink with that object, its id, and the point of the load -- in
	 * this file, at this line, a load of ->value.
	 */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct tobj *o = tobj_new(77, 5);
	struct wt_thread me;
	struct sink s = { 0 };
	uint64_t v;
	unsigned line;

	thread_setup(&me, 0, "walker", d, &s);
	v = wt_load(o, value);
	cr_assert_eq(v, 5);
	cr_assert_eq(s.count, 0, "a live object is not reported");
	call_rcu_free(d, &o->wt, sizeof(*o), NULL);
	cr_assert_eq(wt_rcu_poll(), 1);
	cr_assert_eq(magic_of(o), WT_OBJ_FREED);

	v = wt_load(o, value); line = __LINE__;
	cr_assert_eq(s.count, 1);
	cr_assert_eq(s.check[0], WT_CHECK_POISON);
	cr_assert_eq(s.obj[0], &o->wt);
	cr_assert_eq(s.obj_id[0], 77);
	cr_assert_not_null(s.point[0]);
	cr_assert_not_null(strstr(s.point[0]->file, "test_rcu.c"),
			   "point at %s", s.point[0]->file);
	cr_assert_eq(s.point[0]->line, line);
	cr_assert_eq(s.point[0]->kind, WT_K_LOAD);
	cr_assert_str_eq(s.point[0]->what, "value");
	cr_assert_eq(v, 0x6b6b6b6b6b6b6b6bull, "the load read the poison");
	cr_assert_eq(me.violations, 1);
	thread_teardown(&me);
	wt_rcu_domain_destroy(d);
}

Test(rcu, free_now_poisons_without_a_grace_period)
{
	/* Proves wt_free_now (the zoo's no-grace-period free) poisons and
	 * quarantines at once, even with a reader record and no poll. */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct tobj *o = tobj_new(9, 1);
	struct wt_rcu_stats st;
	struct wt_thread me;

	thread_setup(&me, 0, "writer", d, NULL);
	wt_free_now(d, &o->wt, sizeof(*o), NULL);
	check_poisoned(o, 9);
	wt_rcu_stats(d, &st);
	cr_assert_eq(st.deferred, 0);
	cr_assert_eq(st.poisoned, 1);
	thread_teardown(&me);
	wt_rcu_domain_destroy(d);
}

Test(rcu, call_rcu_without_a_reader_record_frees_at_once)
{
	/* Proves sequential code (no simulated thread, so no reader that
	 * could hold the object) gets the free immediately, poisoned. */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct tobj *o = tobj_new(3, 1);
	struct wt_rcu_stats st;

	call_rcu_free(d, &o->wt, sizeof(*o), NULL);
	check_poisoned(o, 3);
	wt_rcu_stats(d, &st);
	cr_assert_eq(st.deferred, 1);
	cr_assert_eq(st.poisoned, 1);
	synchronize_rcu();	/* no thread: returns at once */
	wt_rcu_domain_destroy(d);
}

Test(rcu, synchronize_rcu_inside_a_section_is_reported)
{
	/*
	 * Proves a grace-period wait inside a read section is reported as
	 * WT_CHECK_RCU_SLEEP at the synchronize_rcu call site.  The wait
	 * could never end on its own (the waiter's own section blocks the
	 * grace period, as in the kernel), so the sink recovers the way a
	 * runner would let the thread continue: it leaves the section; the
	 * wait then completes and counts one grace period.
	 */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct sink s = { .unlock_on_sleep = true };
	struct wt_rcu_stats st;
	struct wt_thread me;

	watchdog(10);
	thread_setup(&me, 0, "walker", d, &s);
	rcu_read_lock();
	cr_assert_eq(me.rcu_depth, 1);
	synchronize_rcu();
	cr_assert_eq(s.count, 1);
	cr_assert_eq(s.check[0], WT_CHECK_RCU_SLEEP);
	cr_assert_not_null(s.point[0]);
	cr_assert_eq(s.point[0]->kind, WT_K_RCU_SYNC);
	cr_assert_not_null(strstr(s.point[0]->file, "test_rcu.c"));
	cr_assert_eq(me.rcu_depth, 0);
	wt_rcu_stats(d, &st);
	cr_assert_eq(st.grace_periods, 1);
	thread_teardown(&me);
	wt_rcu_domain_destroy(d);
}

static uint32_t ready_calls;

/* False on the first call, true from then on. */
static bool ready_second_time(const void *arg)
{
	(void)arg;
	return ready_calls++ > 0;
}

static bool always_ready(const void *arg)
{
	(void)arg;
	return true;
}

Test(rcu, only_sleeping_waits_in_a_section_are_reported)
{
	/*
	 * Proves the rule behind WT_CHECK_RCU_SLEEP: inside a section a
	 * WT_WAIT_SLEEP wait is reported (whether or not it has to wait),
	 * a WT_WAIT_SPIN wait (a spinlock, an odd seqcount) is not, and
	 * outside any section neither is.
	 */
	struct sink s = { 0 };
	struct wt_thread me;

	thread_setup(&me, 0, "walker", NULL, &s);
	wt_wait(WT_WAIT_SLEEP, always_ready, NULL);
	cr_assert_eq(s.count, 0);
	rcu_read_lock();
	wt_wait(WT_WAIT_SPIN, ready_second_time, NULL);
	cr_assert_eq(s.count, 0);
	ready_calls = 0;
	wt_wait(WT_WAIT_SLEEP, ready_second_time, NULL);
	cr_assert_eq(s.count, 1);
	cr_assert_eq(s.check[0], WT_CHECK_RCU_SLEEP);
	cr_assert_geq(ready_calls, 2, "the wait went on after the report");
	rcu_read_unlock();
	thread_teardown(&me);
}

Test(rcu, unbalanced_unlock_is_reported_and_harmless)
{
	/*
	 * Proves an rcu_read_unlock with no section open reports
	 * WT_CHECK_RCU_BALANCE at its call site and does not end an epoch it
	 * never began: the depth stays 0 and grace periods still pass (a
	 * following call_rcu is freed by the next poll; had the record's
	 * nesting underflowed it would look active for ever).
	 */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct tobj *o = tobj_new(5, 1);
	struct sink s = { 0 };
	struct wt_thread me;

	thread_setup(&me, 0, "walker", d, &s);
	rcu_read_unlock();
	cr_assert_eq(s.count, 1);
	cr_assert_eq(s.check[0], WT_CHECK_RCU_BALANCE);
	cr_assert_not_null(s.point[0]);
	cr_assert_eq(s.point[0]->kind, WT_K_RCU_EXIT);
	cr_assert_not_null(strstr(s.point[0]->file, "test_rcu.c"));
	cr_assert_eq(me.rcu_depth, 0);

	rcu_read_lock();
	rcu_read_unlock();
	cr_assert_eq(s.count, 1, "a balanced pair is not reported");
	call_rcu_free(d, &o->wt, sizeof(*o), NULL);
	cr_assert_eq(wt_rcu_poll(), 1);
	cr_assert_eq(magic_of(o), WT_OBJ_FREED);
	thread_teardown(&me);
	wt_rcu_domain_destroy(d);
}

/* A free_fn that records the order in which memory goes back. */
static uint64_t released_ids[16];
static uint32_t released_count;

static void record_free(void *obj)
{
	struct tobj *o = obj;

	released_ids[released_count++] = o->wt.id;
	free(o);
}

Test(rcu, quarantine_is_a_bounded_fifo)
{
	/*
	 * Proves the quarantine bound: with 4 slots, ten objects freed
	 * through call_rcu and a grace period are all poisoned, the six
	 * oldest have gone back to the allocator (through their free_fn,
	 * oldest first), the four newest stay poisoned and mapped, and the
	 * domain's teardown releases those four.
	 */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct tobj *o[10];
	struct wt_rcu_stats st;
	struct wt_thread me;

	released_count = 0;
	thread_setup(&me, 0, "writer", d, NULL);
	for (int i = 0; i < 10; i++) {
		o[i] = tobj_new((uint64_t)i, 0);
		call_rcu_free(d, &o[i]->wt, sizeof(*o[i]), record_free);
		cr_assert_eq(wt_rcu_poll(), 1);
	}
	wt_rcu_stats(d, &st);
	cr_assert_eq(st.deferred, 10);
	cr_assert_eq(st.poisoned, 10);
	cr_assert_eq(st.released, 6);
	cr_assert_eq(released_count, 6);
	for (uint32_t i = 0; i < 6; i++)
		cr_assert_eq(released_ids[i], i, "FIFO order");
	for (int i = 6; i < 10; i++)
		check_poisoned(o[i], (uint64_t)i);
	thread_teardown(&me);
	wt_rcu_domain_destroy(d);
	cr_assert_eq(released_count, 10);
	for (uint32_t i = 6; i < 10; i++)
		cr_assert_eq(released_ids[i], i);
}

Test(rcu, zero_slots_release_right_after_poisoning)
{
	/* Proves quarantine_slots = 0 keeps nothing: each free is poisoned
	 * (counted) and given back at once. */
	struct wt_rcu_domain *d = wt_rcu_domain_create(0);
	struct wt_rcu_stats st;

	released_count = 0;
	for (int i = 0; i < 3; i++) {
		struct tobj *o = tobj_new((uint64_t)i, 0);

		call_rcu_free(d, &o->wt, sizeof(*o), record_free);
	}
	wt_rcu_stats(d, &st);
	cr_assert_eq(st.poisoned, 3);
	cr_assert_eq(st.released, 3);
	cr_assert_eq(released_count, 3);
	wt_rcu_domain_destroy(d);
}

struct releaser {
	uint32_t *go;
	unsigned delay_ms;
};

static void *releaser_body(void *arg)
{
	struct releaser *r = arg;

	sleep_ms(r->delay_ms);
	set_flag(r->go);
	return NULL;
}

Test(rcu, reader_teardown_drains_its_deferred_frees)
{
	/*
	 * Proves wt_rcu_reader_destroy does not drop deferred frees (as a
	 * bare ck_epoch_unregister would): the writer defers a free while a
	 * reader is inside, then destroys its own record; that must block
	 * until the reader has left, and the object is poisoned on return.
	 */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct tobj *obj = tobj_new(11, 3);
	struct tobj *gp = obj;
	struct holder h = { .d = d, .gp = &gp };
	struct releaser rel = { .go = &h.go, .delay_ms = 100 };
	struct wt_thread me;
	pthread_t rt, relt;

	watchdog(20);
	thread_setup(&me, 0, "writer", d, NULL);
	cr_assert_eq(pthread_create(&rt, NULL, holder_body, &h), 0);
	cr_assert(wait_flag(&h.inside));
	__atomic_store_n(&gp, NULL, __ATOMIC_RELEASE);
	call_rcu_free(d, &obj->wt, sizeof(*obj), NULL);
	cr_assert_eq(pthread_create(&relt, NULL, releaser_body, &rel), 0);
	thread_teardown(&me);
	cr_assert_eq(__atomic_load_n(&h.left, __ATOMIC_ACQUIRE), 1,
		     "teardown returned with the reader inside");
	check_poisoned(obj, 11);
	pthread_join(relt, NULL);
	pthread_join(rt, NULL);
	wt_rcu_domain_destroy(d);
}

Test(rcu, readers_are_recycled)
{
	/* Proves a destroyed reader's record is reused by the next create
	 * (ck_epoch cannot forget a record, so the domain must not grow with
	 * the number of threads over a run); ASan's leak check proves the
	 * domain frees it in the end. */
	struct wt_rcu_domain *d = wt_rcu_domain_create(4);
	struct wt_rcu_reader *a, *b, *c;

	a = wt_rcu_reader_create(d);
	cr_assert_not_null(a);
	wt_rcu_reader_destroy(a);
	b = wt_rcu_reader_create(d);
	cr_assert_eq(b, a);
	c = wt_rcu_reader_create(d);
	cr_assert_neq(c, b);
	wt_rcu_reader_destroy(b);
	wt_rcu_reader_destroy(c);
	wt_rcu_domain_destroy(d);
}

/* The stress. */
#define STRESS_READERS		3
#define STRESS_NS		500000000ull	/* 0.5 s */
#define STRESS_PENDING_MAX	4096

struct stress {
	struct wt_rcu_domain *d;
	struct tobj *gp;
	uint32_t stop;
	uint64_t swaps;
	uint32_t writer_stuck;
};

struct stress_reader {
	struct stress *s;
	uint32_t id;
	struct sink sink;
	uint64_t reads;
	uint64_t torn;		/* payload disagreeing with value */
};

/* Keep the deferred frees bounded: wait (a bounded time) for readers to
 * let grace periods pass. */
static bool stress_throttle(struct stress *s)
{
	uint64_t deadline = now_ns() + 5000000000ull;
	struct wt_rcu_stats st;

	for (;;) {
		wt_rcu_stats(s->d, &st);
		if (st.deferred - st.poisoned < STRESS_PENDING_MAX)
			return true;
		if (now_ns() > deadline)
			return false;
		wt_rcu_poll();
		sched_yield();
	}
}

static void *stress_writer(void *arg)
{
	struct stress *s = arg;
	uint64_t deadline = now_ns() + STRESS_NS;
	struct wt_thread t;
	uint64_t i;

	thread_setup(&t, 0, "writer", s->d, NULL);
	for (i = 1; now_ns() < deadline; i++) {
		struct tobj *n = tobj_new(i + 1, i + 1);
		struct tobj *old;

		/* The object is fully built before the release publishes it. */
		old = __atomic_exchange_n(&s->gp, n, __ATOMIC_ACQ_REL);
		call_rcu_free(s->d, &old->wt, sizeof(*old), NULL);
		wt_rcu_poll();
		if (!stress_throttle(s)) {
			WRITE_ONCE(s->writer_stuck, 1);
			break;
		}
	}
	WRITE_ONCE(s->swaps, i - 1);
	set_flag(&s->stop);
	thread_teardown(&t);
	return NULL;
}

static void *stress_reader_body(void *arg)
{
	struct stress_reader *r = arg;
	struct stress *s = r->s;
	struct wt_thread t;

	thread_setup(&t, r->id, "reader", s->d, &r->sink);
	/* Bounded by the writer's deadline (it sets stop). */
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		struct tobj *o;
		uint64_t v;

		rcu_read_lock();
		o = __atomic_load_n(&s->gp, __ATOMIC_ACQUIRE);
		v = wt_load(o, value);
		/* Plain reads: the accesses the poisoning memset would race
		 * with if the grace period were not a happens-before edge. */
		for (int k = 0; k < PAYLOAD_WORDS; k++)
			if (o->payload[k] != v)
				r->torn++;
		rcu_read_unlock();
		r->reads++;
	}
	thread_teardown(&t);
	return NULL;
}

Test(rcu, stress_readers_never_touch_a_freed_object)
{
	/*
	 * Proves the whole read side under real concurrency: a writer keeps
	 * swapping a published pointer and freeing the old object through
	 * call_rcu for 0.5 s while three readers dereference it under
	 * rcu_read_lock.  No reader may see a poisoned object (their sinks
	 * stay silent) or a payload that disagrees with the value, frees
	 * must really have happened meanwhile, and the run must be clean
	 * under TSan (only the grace-period annotation orders the readers'
	 * plain loads before the poisoning memset) and ASan.
	 */
	struct stress s = { 0 };
	struct stress_reader r[STRESS_READERS];
	pthread_t wt, rt[STRESS_READERS];
	struct wt_rcu_stats st;
	uint64_t reads = 0;

	watchdog(60);
	s.d = wt_rcu_domain_create(64);
	s.gp = tobj_new(1, 1);
	for (uint32_t i = 0; i < STRESS_READERS; i++) {
		r[i] = (struct stress_reader){ .s = &s, .id = i + 1 };
		cr_assert_eq(pthread_create(&rt[i], NULL, stress_reader_body,
					    &r[i]), 0);
	}
	cr_assert_eq(pthread_create(&wt, NULL, stress_writer, &s), 0);
	pthread_join(wt, NULL);
	for (int i = 0; i < STRESS_READERS; i++) {
		pthread_join(rt[i], NULL);
		cr_assert_eq(r[i].sink.count, 0,
			     "reader %d touched a freed object", i);
		cr_assert_eq(r[i].torn, 0);
		reads += r[i].reads;
	}
	cr_assert_eq(s.writer_stuck, 0, "grace periods stopped passing");
	cr_assert_gt(reads, 0);
	cr_assert_gt(s.swaps, 0);
	wt_rcu_stats(s.d, &st);
	cr_assert_eq(st.deferred, s.swaps);
	cr_assert_eq(st.poisoned, s.swaps, "writer teardown drained them all");
	cr_assert_gt(st.released, 0);
	/* No reader left: the last object needs no grace period. */
	wt_free_now(s.d, &s.gp->wt, sizeof(*s.gp), NULL);
	wt_rcu_domain_destroy(s.d);
}

/* SPDX-License-Identifier: MIT */
/*
 * seqcount and seqlock: the reader API's promises (begin waits for an even
 * count, raw begin never validates a sample taken during a write, retry
 * sees every write in between), the seqlock's two lock modes, and a
 * pthread stress in which no reader accepts a torn pair.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/seq.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A writer that stays inside its write section until told to leave. */
struct slow_writer {
	seqcount_t seq;
	uint32_t inside;	/* the count is odd */
	uint32_t release;	/* main: leave now */
	uint32_t published;	/* set just before write_seqcount_end */
};

static void *slow_writer_body(void *arg)
{
	struct slow_writer *w = arg;

	write_seqcount_begin(&w->seq);
	WRITE_ONCE(w->inside, 1);
	while (!READ_ONCE(w->release))
		usleep(1000);
	/* Hold the count odd a little longer after the release, so a reader
	 * that did not wait would run well before the publication. */
	usleep(20000);
	WRITE_ONCE(w->published, 1);
	write_seqcount_end(&w->seq);
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

Test(seq, read_begin_waits_for_an_even_count)
{
	/*
	 * Proves read_seqcount_begin blocks while a writer is inside: a
	 * pthread writer holds the count odd and sets `published` only just
	 * before making it even again; the reader's sample must be even and
	 * must be taken after `published` was set (a begin that did not wait
	 * would return while published is still 0).
	 */
	struct slow_writer w = { 0 };
	pthread_t th;
	unsigned seq;

	watchdog(10);
	seqcount_init(&w.seq, 0);
	cr_assert_eq(pthread_create(&th, NULL, slow_writer_body, &w), 0);
	while (!READ_ONCE(w.inside))
		usleep(100);
	cr_assert(wt_seq_raw(&w.seq) & 1, "the writer is inside: count odd");
	WRITE_ONCE(w.release, 1);
	seq = read_seqcount_begin(&w.seq);
	cr_assert_eq(READ_ONCE(w.published), 1,
		     "read_seqcount_begin returned while the writer was inside");
	cr_assert_eq(seq & 1, 0);
	cr_assert_eq(seq, 2);
	cr_assert_not(read_seqcount_retry(&w.seq, seq));
	pthread_join(th, NULL);
}

/*
 * A backend whose wait plays two writers: the one inside leaves (count
 * even: the wait's condition held) and, on the first wait only, the next
 * one enters at once (count odd again) before the waiter reloads.
 */
struct racing_sched {
	struct wt_sched s;
	uint32_t waits;
};

static void racing_wait(struct wt_sched *s, struct wt_thread *t,
			const struct wt_point *p, enum wt_wait_kind kind,
			wt_ready_fn ready, const void *arg)
{
	struct racing_sched *rs = (struct racing_sched *)s;
	seqcount_t *sc = (seqcount_t *)arg;

	(void)t;
	(void)p;
	(void)kind;
	write_seqcount_end(sc);
	if (!ready(arg))
		abort();
	if (rs->waits++ == 0)
		write_seqcount_begin(sc);
}

static const struct wt_sched_ops racing_ops = {
	.name = "racing",
	.wait = racing_wait,
};

Test(seq, read_begin_never_returns_an_odd_sample)
{
	/*
	 * Proves read_seqcount_begin waits again when the next writer enters
	 * between its wake-up and its reload: the backend ends the write
	 * (count 2) and starts another (count 3) before returning; begin
	 * must wait a second time and return 4, never 3 -- an odd sample
	 * would pass a retry taken inside that same write.
	 */
	struct racing_sched rs = { .s.ops = &racing_ops };
	struct wt_thread t;
	seqcount_t s;
	unsigned seq;

	wt_thread_init(&t, 0, "reader");
	t.sched = &rs.s;
	wt_thread_enter(&t);
	seqcount_init(&s, 0);
	write_seqcount_begin(&s);
	seq = read_seqcount_begin(&s);
	cr_assert_eq(seq, 4);
	cr_assert_eq(rs.waits, 2);
	wt_thread_enter(NULL);
}

Test(seq, raw_begin_clears_the_low_bit_and_never_validates_during_a_write)
{
	/*
	 * Proves raw_seqcount_begin does not wait but returns the count with
	 * the low bit cleared: during a write (count 5) it returns 4, which
	 * fails the retry check both while the write is in progress (5) and
	 * after it (6), so a walk that sampled mid-write always falls back.
	 */
	seqcount_t s;
	unsigned seq;

	seqcount_init(&s, 4);
	cr_assert_eq(raw_seqcount_begin(&s), 4);
	write_seqcount_begin(&s);
	cr_assert_eq(wt_seq_raw(&s), 5);
	seq = raw_seqcount_begin(&s);
	cr_assert_eq(seq, 4);
	cr_assert(read_seqcount_retry(&s, seq));
	cr_assert(__read_seqcount_retry(&s, seq));
	write_seqcount_end(&s);
	cr_assert_eq(wt_seq_raw(&s), 6);
	cr_assert(read_seqcount_retry(&s, seq));
}

Test(seq, init_rounds_an_odd_start_down)
{
	/* Proves an odd start cannot leave a seqcount that reads as "writer
	 * inside" forever: seqcount_init(3) starts at 2. */
	seqcount_t s;

	seqcount_init(&s, 3);
	cr_assert_eq(wt_seq_raw(&s), 2);
	cr_assert(wt_seq_even(&s));
}

Test(seq, retry_is_true_after_a_write_and_false_without)
{
	/*
	 * Proves read_seqcount_retry reports exactly the writes that came in
	 * between: false for an undisturbed sample, true once a full write
	 * (begin+end) has happened, and true for the old sample ever after.
	 */
	seqcount_t s;
	unsigned seq;

	seqcount_init(&s, 0);
	seq = read_seqcount_begin(&s);
	cr_assert_not(read_seqcount_retry(&s, seq));
	cr_assert_not(__read_seqcount_retry(&s, seq));
	write_seqcount_begin(&s);
	write_seqcount_end(&s);
	cr_assert(read_seqcount_retry(&s, seq));
	cr_assert(__read_seqcount_retry(&s, seq));
	seq = read_seqcount_begin(&s);
	cr_assert_eq(seq, 2);
	cr_assert_not(read_seqcount_retry(&s, seq));
}

Test(seq, write_seqlock_bumps_by_two_and_excl_reader_does_not)
{
	/*
	 * Proves the seqlock's two lock modes: write_seqlock holds the lock
	 * with an odd count and leaves it two higher; read_seqlock_excl
	 * holds the same lock (a writer would have to wait) but leaves the
	 * count alone, so optimistic readers are not sent back.
	 */
	seqlock_t sl;
	unsigned seq;

	seqlock_init(&sl, 10);
	seq = read_seqbegin(&sl);
	cr_assert_eq(seq, 10);

	write_seqlock(&sl);
	cr_assert(spin_is_locked(&sl.lock));
	cr_assert_eq(wt_seq_raw(&sl.seqcount), 11);
	write_sequnlock(&sl);
	cr_assert_not(spin_is_locked(&sl.lock));
	cr_assert_eq(wt_seq_raw(&sl.seqcount), 12);
	cr_assert(read_seqretry(&sl, seq));

	seq = read_seqbegin(&sl);
	read_seqlock_excl(&sl);
	cr_assert(spin_is_locked(&sl.lock));
	cr_assert_not(spin_trylock(&sl.lock), "excl reader holds the lock");
	cr_assert_eq(wt_seq_raw(&sl.seqcount), 12);
	read_sequnlock_excl(&sl);
	cr_assert_not(spin_is_locked(&sl.lock));
	cr_assert_not(read_seqretry(&sl, seq));
}

/* The stress: a writer keeps a == b outside its write sections. */
struct pair_world {
	seqlock_t sl;
	uint64_t a, b;
	uint32_t stop;
	uint32_t overlapped;	/* a reader has been sent back once */
	uint64_t writes;
};

struct pair_reader {
	struct pair_world *w;
	uint64_t reads;
	uint64_t retries;
	uint64_t torn;		/* accepted samples with a != b */
};

static void *pair_writer_body(void *arg)
{
	struct pair_world *w = arg;
	uint64_t start = now_ns();
	uint64_t i;

	/*
	 * At least 0.4 s, and on past that (up to 10 s) until some reader
	 * has overlapped a write: on a loaded machine the readers may not
	 * be scheduled at all in the first 0.4 s, which proves nothing.
	 */
	for (i = 1; !READ_ONCE(w->stop); i++) {
		uint64_t spent = now_ns() - start;

		if (spent > 10000000000ull ||
		    (spent > 400000000ull && READ_ONCE(w->overlapped)))
			break;
		write_seqlock(&w->sl);
		WRITE_ONCE(w->a, i);
		/* Widen the window in which a and b differ. */
		for (int k = 0; k < 50; k++)
			cpu_relax();
		WRITE_ONCE(w->b, i);
		write_sequnlock(&w->sl);
	}
	WRITE_ONCE(w->writes, i - 1);
	WRITE_ONCE(w->stop, 1);
	return NULL;
}

static void *pair_reader_body(void *arg)
{
	struct pair_reader *r = arg;
	struct pair_world *w = r->w;

	/* Bounded by the writer's deadline (it sets stop). */
	while (!READ_ONCE(w->stop)) {
		uint64_t a, b;
		unsigned seq;

		seq = read_seqbegin(&w->sl);
		a = READ_ONCE(w->a);
		b = READ_ONCE(w->b);
		if (read_seqretry(&w->sl, seq)) {
			r->retries++;
			WRITE_ONCE(w->overlapped, 1);
			continue;
		}
		r->reads++;
		if (a != b)
			r->torn++;
	}
	return NULL;
}

Test(seq, stress_readers_never_accept_a_torn_pair)
{
	/*
	 * Proves the seqlock read protocol under real concurrency: a writer
	 * updates (a, b) to (i, i) in two stores with a delay in between,
	 * under write_seqlock; two reader pthreads read both fields between
	 * read_seqbegin and read_seqretry, and none may accept a sample with
	 * a != b.  The readers must also have been sent back at least once,
	 * or the run proved nothing about the retry path.
	 */
	struct pair_world w = { 0 };
	struct pair_reader r[2] = { { .w = &w }, { .w = &w } };
	pthread_t wt, rt[2];
	uint64_t retries = 0;

	watchdog(20);
	seqlock_init(&w.sl, 0);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&rt[i], NULL, pair_reader_body,
					    &r[i]), 0);
	cr_assert_eq(pthread_create(&wt, NULL, pair_writer_body, &w), 0);
	pthread_join(wt, NULL);
	for (int i = 0; i < 2; i++) {
		pthread_join(rt[i], NULL);
		cr_assert_eq(r[i].torn, 0, "reader %d accepted %llu torn pairs",
			     i, (unsigned long long)r[i].torn);
		retries += r[i].retries;
	}
	cr_assert_gt(w.writes, 0);
	cr_assert_eq(wt_seq_raw(&w.sl.seqcount), 2 * w.writes);
	cr_assert_gt(retries, 0, "no reader ever overlapped a write");
}

/* SPDX-License-Identifier: MIT */
/*
 * seqcounts under memory=tso.
 *
 * 1. The kernel's seqcount protocol needs no barrier on x86: a reader
 *    never validates a torn pair under tso (its smp_rmb/smp_wmb drain
 *    nothing; the FIFO and in-order loads do the work).
 * 2. The seqcount barrier x86 does need is the full one of a Dekker
 *    pairing (seq.h): a write section that loads what a reader stored,
 *    a reader whose recheck comes after its store -- mount_lock between
 *    do_umount/mntput_no_expire and __legitimize_mnt.  The bad outcome:
 *    the reader's recheck validates (so the writer's section must come
 *    after it) and yet the writer's load missed the reader's store.
 *    Never with the barriers; under tso with zoo WT_BUG_SEQ_NO_BARRIER it
 *    appears; under SC even the bug cannot show it.
 */
#include <criterion/criterion.h>

#include "sim/bug.h"
#include "sim/seq.h"
#include "test_sched_util.h"

#define SEEDS 2000

static const char *const names2[] = { "writer", "reader" };

struct pair {
	seqcount_t seq __attribute__((aligned(64)));
	unsigned a __attribute__((aligned(64)));
	unsigned b __attribute__((aligned(64)));
	unsigned flag __attribute__((aligned(64)));
};

static struct pair g;

/* ---- 1: the plain protocol ---- */

static unsigned g_torn, g_reads;

static void torn_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		for (unsigned i = 1; i <= 3; i++) {
			write_seqcount_begin(&g.seq);
			WRITE_ONCE(g.a, i);
			WRITE_ONCE(g.b, i);
			write_seqcount_end(&g.seq);
		}
		return;
	}
	for (unsigned k = 0; k < 4; k++) {
		unsigned s, a, b;

		do {
			s = read_seqcount_begin(&g.seq);
			a = READ_ONCE(g.a);
			WT_EVENT("tso_seq.between", NULL);
			b = READ_ONCE(g.b);
		} while (read_seqcount_retry(&g.seq, s));
		g_reads++;
		g_torn += a != b;
	}
}

/* Thousands of seeds: every validated read of (a, b) is a pair the
 * writer wrote. */
Test(tso_seq, seqcount_readers_never_validate_a_torn_pair)
{
	g_torn = g_reads = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;

		tthreads_init(&ts, 2, names2);
		memset(&g, 0, sizeof(g));
		cfg.seed = seed;
		cfg.memory = WT_MEMORY_TSO;
		cfg.random_switch_p = 0.3;
		cr_assert_eq(wt_run(&cfg, 2, ts.p, torn_body, NULL, &res),
			     WT_RUN_OK, "%s", res.report);
		cr_assert_gt(res.tso_stores, 0);
		wt_run_result_free(&res);
	}
	cr_assert_eq(g_torn, 0);
	cr_assert_eq(g_reads, 4 * SEEDS);
}

/* ---- 2: the Dekker pairing ---- */

struct dekker {
	unsigned writer_saw;	/* the flag, as the write section loaded it */
	unsigned reader_start;
	bool reader_ok;		/* its recheck validated */
};

static void dekker_writer(struct dekker *d)
{
	WT_EVENT("tso_seq.writer", NULL);
	write_seqcount_begin_mb(&g.seq);
	d->writer_saw = READ_ONCE(g.flag);
	write_seqcount_end(&g.seq);
}

static void dekker_reader(struct dekker *d)
{
	d->reader_start = raw_seqcount_begin(&g.seq);
	WT_EVENT("tso_seq.reader", NULL);
	WRITE_ONCE(g.flag, 1);
	d->reader_ok = !read_seqcount_retry_mb(&g.seq, d->reader_start);
}

static void dekker_body(struct wt_thread *t, void *arg)
{
	if (t->id == 0)
		dekker_writer(arg);
	else
		dekker_reader(arg);
}

/*
 * The reader validated a sample taken before the write section (the
 * initial count) and the writer missed its store: the two halves of the
 * pairing each passed without seeing the other.  (A write section
 * wholly before the reader's sample is no violation: that sample is
 * then the later, even count.)
 */
static bool dekker_violated(const struct dekker *d)
{
	return d->reader_ok && d->reader_start == 0 && d->writer_saw == 0;
}

static unsigned count_dekker(enum wt_memory memory, uint64_t bugs,
			     unsigned *reader_ok)
{
	unsigned bad = 0;

	*reader_ok = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		struct dekker d = { 9, 9, false };
		void *args[] = { &d, &d };

		tthreads_init(&ts, 2, names2);
		memset(&g, 0, sizeof(g));
		cfg.seed = seed;
		cfg.memory = memory;
		cfg.random_switch_p = 0.3;
		cfg.bugs = bugs;
		cr_assert_eq(wt_run(&cfg, 2, ts.p, dekker_body, args, &res),
			     WT_RUN_OK, "%s", res.report);
		wt_run_result_free(&res);
		*reader_ok += d.reader_ok;
		bad += dekker_violated(&d);
	}
	return bad;
}

Test(tso_seq, dekker_pairing_holds_with_its_barriers)
{
	unsigned ok;

	cr_assert_eq(count_dekker(WT_MEMORY_TSO, 0, &ok), 0);
	cr_assert_gt(ok, 0);
	cr_assert_lt(ok, SEEDS, "the recheck fails in some seeds");
}

Test(tso_seq, seq_no_barrier_bug_breaks_the_pairing_under_tso)
{
	unsigned ok, bad;

	bad = count_dekker(WT_MEMORY_TSO, 1ull << WT_BUG_SEQ_NO_BARRIER, &ok);
	cr_log_info("seq_no_barrier under tso: %u of %u seeds", bad, SEEDS);
	cr_assert_gt(bad, 0);
}

Test(tso_seq, seq_no_barrier_bug_is_invisible_under_sc)
{
	unsigned ok;

	cr_assert_eq(count_dekker(WT_MEMORY_SC, 1ull << WT_BUG_SEQ_NO_BARRIER,
				  &ok), 0);
	cr_assert_gt(ok, 0);
}

/* The bug mask reaches the primitives only for the threads of the run. */
static uint64_t g_seen_bugs;

static void bugs_body(struct wt_thread *t, void *arg)
{
	(void)t;
	(void)arg;
	g_seen_bugs = wt_primitive_bugs;
}

Test(tso_seq, run_config_bugs_reach_the_primitives_of_the_run_only)
{
	static const char *const one[] = { "solo" };
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	tthreads_init(&ts, 1, one);
	cfg.bugs = 1ull << WT_BUG_SEQ_NO_BARRIER;
	cr_assert_eq(wt_run(&cfg, 1, ts.p, bugs_body, NULL, &res), WT_RUN_OK);
	wt_run_result_free(&res);
	cr_assert_eq(g_seen_bugs, cfg.bugs);
	cr_assert_eq(wt_primitive_bugs, 0);
	cfg.backend = WT_BACKEND_STRESS;
	g_seen_bugs = 0;
	cr_assert_eq(wt_run(&cfg, 1, ts.p, bugs_body, NULL, &res), WT_RUN_OK,
		     "%s", res.report);
	wt_run_result_free(&res);
	cr_assert_eq(g_seen_bugs, cfg.bugs);
}

/* SPDX-License-Identifier: MIT */
/*
 * The x86-TSO store buffers (sim/tso.[ch]) driven directly, without the
 * scheduler: "as(i)" makes thread i's buffer the current one, as the sim
 * backend does at a fiber switch; loads and stores go through the slow
 * paths of sim/atomic.h.
 */
#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "sim/tso.h"
#include "test_tso_util.h"

static struct wt_tso *g_tso;

static void setup(void)
{
	g_tso = wt_tso_create(3);
	cr_assert_not_null(g_tso);
}

static void teardown(void)
{
	wt_tso_self = NULL;
	wt_tso_destroy(g_tso);
}

static struct wt_tso_buf *buf(unsigned i)
{
	return wt_tso_buf_of(g_tso, i);
}

static void as(unsigned i)
{
	wt_tso_self = buf(i);
}

static uint64_t ld64(const uint64_t *p)
{
	uint64_t v;

	wt_tso_load(p, &v, sizeof(v));
	return v;
}

TestSuite(tso, .init = setup, .fini = teardown);

/*
 * A buffered store is visible to its own thread at once and to the
 * others only once flushed; plain C sees it at once (write-through), so
 * code that bypasses sim/atomic.h never misses the thread's own store.
 */
Test(tso, own_load_sees_own_store_others_see_memory_until_flushed)
{
	static uint32_t x;

	as(0);
	st32(&x, 1);
	cr_assert_eq(ld32(&x), 1);
	cr_assert_eq(x, 1, "write-through: plain C sees the store");
	cr_assert_eq(wt_tso_depth(buf(0)), 1);
	as(1);
	cr_assert_eq(ld32(&x), 0, "another thread sees memory");
	cr_assert(wt_tso_flush(buf(0)));
	cr_assert_eq(ld32(&x), 1);
	cr_assert_not(wt_tso_flush(buf(0)), "empty buffer");
}

/*
 * A publication (rcu_assign_pointer: wt_publish_release) goes straight to
 * memory under tso, so the thread's earlier buffered stores go first: a
 * reader that sees the published value sees them too.  Before, the
 * publication passed them -- a walker saw d_inode = NULL with the
 * write_seqcount_begin before it still buffered, an order x86 forbids.
 */
Test(tso, a_publication_does_not_pass_earlier_stores)
{
	static uint32_t seq;
	static uint64_t ptr = 1;

	as(0);
	st32(&seq, 1);			/* write_seqcount_begin */
	wt_publish_release(&ptr, (uint64_t)0);	/* d_inode = NULL */
	cr_assert_eq(wt_tso_depth(buf(0)), 0, "the buffer drained first");
	as(1);
	cr_assert_eq(ld64(&ptr), 0);
	cr_assert_eq(ld32(&seq), 1, "the earlier store is visible with it");
	/* with nothing buffered a publication costs no drain */
	as(0);
	wt_publish_release(&ptr, (uint64_t)2);
	cr_assert_eq(ld64(&ptr), 2);
}

/* Entries reach memory oldest first (stores stay ordered: no smp_wmb
 * needed under TSO). */
Test(tso, flushes_are_fifo)
{
	static uint32_t x, y;

	as(0);
	st32(&x, 1);
	st32(&y, 2);
	st32(&x, 3);
	cr_assert_eq(ld32(&x), 3, "own newest entry wins");
	as(1);
	cr_assert_eq(ld32(&x), 0);
	cr_assert_eq(ld32(&y), 0);
	wt_tso_flush(buf(0));
	cr_assert_eq(ld32(&x), 1);
	cr_assert_eq(ld32(&y), 0);
	wt_tso_flush(buf(0));
	cr_assert_eq(ld32(&y), 2);
	cr_assert_eq(ld32(&x), 1);
	wt_tso_flush(buf(0));
	cr_assert_eq(ld32(&x), 3);
	cr_assert_eq(x, 3);
}

/* The buffer is bounded: the store that would overflow it flushes the
 * oldest entry first. */
Test(tso, full_buffer_drains_the_oldest)
{
	static uint32_t a[WT_TSO_ENTRIES + 2];
	struct wt_tso_stats st;

	as(0);
	for (unsigned i = 0; i < WT_TSO_ENTRIES + 2; i++)
		st32(&a[i], i + 1);
	cr_assert_eq(wt_tso_depth(buf(0)), WT_TSO_ENTRIES);
	as(1);
	cr_assert_eq(ld32(&a[0]), 1);
	cr_assert_eq(ld32(&a[1]), 2);
	cr_assert_eq(ld32(&a[2]), 0);
	wt_tso_get_stats(g_tso, &st);
	cr_assert_eq(st.full, 2);
	cr_assert_eq(st.max_depth, WT_TSO_ENTRIES);
}

/* 1-, 2-, 4- and 8-byte stores inside one word compose byte by byte. */
Test(tso, sub_word_stores_compose)
{
	static union {
		uint64_t w;
		uint32_t h[2];
		uint16_t q[4];
		uint8_t b[8];
	} u;
	uint8_t one = 0x22;
	uint16_t two = 0x3333;
	uint64_t own, other;

	as(0);
	st32(&u.h[0], 0x11111111u);
	wt_tso_store(&u.b[5], &one, 1);
	wt_tso_store(&u.q[3], &two, 2);
	own = ld64(&u.w);
	as(1);
	other = ld64(&u.w);
	cr_assert_eq(other, 0);
	wt_tso_flush(buf(0));
	cr_assert_eq(ld32(&u.h[0]), 0x11111111u);
	cr_assert_eq(ld32(&u.h[1]), 0);
	wt_tso_drain(buf(0));
	cr_assert_eq(ld64(&u.w), own);
	cr_assert_eq(u.b[5], 0x22);
	cr_assert_eq(u.q[3], 0x3333);
	cr_assert_eq(u.h[0], 0x11111111u);
}

/*
 * Two threads buffer the same word: each sees its own value, a third
 * sees memory, and memory ends with the store that was flushed last --
 * even when that one was made first.
 */
Test(tso, two_writers_memory_keeps_the_last_flushed)
{
	static uint32_t x;

	as(0);
	st32(&x, 1);
	as(1);
	st32(&x, 2);
	as(0);
	cr_assert_eq(ld32(&x), 1);
	as(1);
	cr_assert_eq(ld32(&x), 2);
	as(2);
	cr_assert_eq(ld32(&x), 0);
	wt_tso_flush(buf(1));
	cr_assert_eq(ld32(&x), 2);
	as(0);
	cr_assert_eq(ld32(&x), 1, "own entry still buffered");
	wt_tso_flush(buf(0));
	as(2);
	cr_assert_eq(ld32(&x), 1);
	cr_assert_eq(x, 1, "memory settled to the last flushed store");
}

/* A plain store after buffered ones is newer than all of them. */
Test(tso, plain_store_after_buffered_wins)
{
	static uint32_t x;

	as(0);
	st32(&x, 1);
	x = 5;
	cr_assert_eq(ld32(&x), 5);
	as(1);
	cr_assert_eq(ld32(&x), 5);
	wt_tso_drain(buf(0));
	cr_assert_eq(x, 5);
	cr_assert_eq(ld32(&x), 5);
}

/*
 * A read-modify-write drains the own buffer, and flushes what others
 * buffered for its word (and everything before it, FIFO), so that it
 * reads memory as it is.
 */
Test(tso, rmw_drains_own_and_settles_its_word)
{
	/* One aligned 8-byte word each: the buffers track words, so two of
	 * these sharing one (as adjacent statics do outside ASan, which pads
	 * globals) would be settled together. */
	static uint32_t x __attribute__((aligned(8)));
	static uint32_t y __attribute__((aligned(8)));
	static uint32_t z __attribute__((aligned(8)));

	as(1);
	st32(&z, 9);
	st32(&x, 1);
	st32(&y, 4);
	as(0);
	st32(&y, 7);
	wt_tso_rmw_slow(&x, sizeof(x));
	cr_assert_eq(wt_tso_depth(buf(0)), 0);
	cr_assert_eq(wt_tso_depth(buf(1)), 1, "y=4 stays buffered");
	as(2);
	cr_assert_eq(ld32(&x), 1);
	cr_assert_eq(ld32(&z), 9);
	cr_assert_eq(ld32(&y), 7);
	wt_tso_drain_all(g_tso);
	cr_assert_eq(ld32(&y), 4);
}

/* Direct mode (wait predicates): stores go to memory, fences drain
 * nothing, loads keep the thread's view. */
Test(tso, direct_mode_bypasses_the_buffer)
{
	static uint32_t x, y;

	as(0);
	st32(&x, 1);
	cr_assert_not(wt_tso_set_direct(buf(0), true));
	st32(&y, 2);
	wt_tso_fence_slow();
	cr_assert_eq(wt_tso_depth(buf(0)), 1);
	cr_assert_eq(ld32(&x), 1);
	cr_assert(wt_tso_set_direct(buf(0), false));
	as(1);
	cr_assert_eq(ld32(&y), 2);
	cr_assert_eq(ld32(&x), 0);
}

/* Many words at once: the table of pending words grows and shrinks
 * without losing one (deletion keeps every probe chain intact). */
Test(tso, many_words_in_and_out)
{
	static uint64_t a[3][WT_TSO_ENTRIES];

	for (unsigned round = 0; round < 4; round++) {
		for (unsigned t = 0; t < 3; t++) {
			as(t);
			for (unsigned i = 0; i < WT_TSO_ENTRIES; i++) {
				uint64_t v = round * 1000 + t * 100 + i + 1;

				wt_tso_store(&a[t][i], &v, sizeof(v));
			}
		}
		/* Interleaved partial flushes. */
		for (unsigned i = 0; i < WT_TSO_ENTRIES / 2; i++)
			for (unsigned t = 0; t < 3; t++)
				wt_tso_flush(buf((t + i) % 3));
		as(0);
		for (unsigned t = 1; t < 3; t++)
			for (unsigned i = 0; i < WT_TSO_ENTRIES; i++) {
				uint64_t want = i < WT_TSO_ENTRIES / 2 ?
					round * 1000 + t * 100 + i + 1 :
					round ? (round - 1) * 1000 + t * 100 + i + 1 : 0;

				cr_assert_eq(ld64(&a[t][i]), want,
					     "round %u t %u i %u", round, t, i);
			}
		wt_tso_drain_all(g_tso);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * memory=pso: stores of one thread to different words may reach memory
 * out of order, stores to one word may not, and smp_wmb() or a release
 * store orders everything before it against everything after it.
 *
 *	MP (message passing)
 *	writer: data = 1; [smp_wmb() | release]; flag = 1
 *	reader: r1 = flag; smp_rmb(); r2 = data
 *	relaxed: r1 == 1 && r2 == 0
 *
 * Proved here: the buffer alone (which entries may go, in which order,
 * what flush_through takes along); the relaxed MP outcome over many seeds
 * under pso and never under tso, nor under pso with smp_wmb() or with a
 * release store of the flag; a directed `flush writer 1' that forces it
 * (and under tso or with the barrier cannot); and determinism: the same
 * seed gives a byte-identical trace with out-of-order flushes in it, and
 * that trace, written as text and read back, replays to the same digest.
 */
#include <stdlib.h>

#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "sim/sched/sched.h"
#include "sim/sched/schedule.h"
#include "sim/tso.h"
#include "test_sched_util.h"
#include "test_tso_util.h"

/* The sanitizer builds run every seed 20-100x slower; 300 seeds already
 * show the relaxed outcome (and its absence under tso and with barriers). */
#if defined(WT_TSAN) || defined(WT_ASAN)
#define SEEDS 300
#else
#define SEEDS 1500
#endif

static const char *const names2[] = { "writer", "reader" };

struct shared {
	unsigned data __attribute__((aligned(64)));
	unsigned flag __attribute__((aligned(64)));
	unsigned more __attribute__((aligned(64)));
};

static struct shared g;

/* ---- the buffer alone ---- */

/* Which entries may go: under pso any of the first epoch not behind an
 * older store to its word; a barrier splits epochs; under tso only the
 * oldest.  flush_through takes exactly what must go first. */
Test(pso, flushable_entries_and_flush_through)
{
	static uint32_t a[16] __attribute__((aligned(64)));
	static uint32_t b[16] __attribute__((aligned(64)));
	static uint32_t c[16] __attribute__((aligned(64)));
	struct wt_tso *t = wt_tso_create(2);
	struct wt_tso_buf *w = wt_tso_buf_of(t, 0), *r = wt_tso_buf_of(t, 1);

	cr_assert_not_null(t);
	wt_tso_set_partial(t, true);
	wt_tso_self = w;
	st32(&a[0], 1);		/* 0 */
	st32(&b[0], 2);		/* 1 */
	st32(&a[0], 3);		/* 2: behind 0 (same word) */
	wt_tso_wmb();
	st32(&c[0], 4);		/* 3: behind the barrier */
	cr_assert_eq(wt_tso_depth(w), 4);
	cr_assert_eq(wt_tso_flushable(w), 2, "entries 0 and 1");
	cr_assert_eq(wt_tso_flushable_nth(w, 1), 1);
	cr_assert_eq(wt_tso_flushable_nth(w, 2), -1);
	cr_assert_not(wt_tso_flush_at(w, 2));
	cr_assert_not(wt_tso_flush_at(w, 3));
	cr_assert(wt_tso_flush_at(w, 1), "b passes a");
	wt_tso_self = r;
	cr_assert_eq(ld32(&b[0]), 2);
	cr_assert_eq(ld32(&a[0]), 0, "a still buffered");
	wt_tso_self = w;
	cr_assert_eq(ld32(&a[0]), 3, "own newest store");
	/* c needs both stores to a first (older epoch), not more */
	cr_assert(wt_tso_must_precede(w, 0, 2));
	cr_assert_eq(wt_tso_flush_through(w, 2), 3);
	cr_assert_eq(wt_tso_depth(w), 0);
	wt_tso_self = r;
	cr_assert_eq(ld32(&a[0]), 3);
	cr_assert_eq(ld32(&c[0]), 4);
	/* tso: the oldest only, and flush_through takes every older one */
	wt_tso_set_partial(t, false);
	wt_tso_self = w;
	st32(&a[1], 5);
	st32(&b[1], 6);
	cr_assert_eq(wt_tso_flushable(w), 1);
	cr_assert_not(wt_tso_flush_at(w, 1));
	cr_assert_eq(wt_tso_flush_through(w, 1), 2);
	wt_tso_self = NULL;
	wt_tso_destroy(t);
}

/* ---- MP over many seeds ---- */

enum mp_order { MP_NONE, MP_WMB, MP_RELEASE };

struct mp {
	enum mp_order order;
	unsigned r1, r2;
};

static void mp_writer(struct mp *m)
{
	WT_EVENT("litmus.pso.data", NULL);
	WRITE_ONCE(g.data, 1);
	if (m->order == MP_WMB)
		smp_wmb();
	WT_EVENT("litmus.pso.flag", NULL);
	if (m->order == MP_RELEASE)
		smp_store_release(&g.flag, 1);
	else
		WRITE_ONCE(g.flag, 1);
	WT_EVENT("litmus.pso.written", NULL);
}

static void mp_reader(struct mp *m)
{
	WT_EVENT("litmus.pso.read_flag", NULL);
	m->r1 = READ_ONCE(g.flag);
	smp_rmb();
	WT_EVENT("litmus.pso.read_data", NULL);
	m->r2 = READ_ONCE(g.data);
	WT_EVENT("litmus.pso.done", NULL);
}

static void mp_body(struct wt_thread *t, void *arg)
{
	if (t->id == 0)
		mp_writer(arg);
	else
		mp_reader(arg);
}

static struct mp run_mp(uint64_t seed, enum wt_memory memory,
			enum mp_order order, const struct wt_schedule *sch)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	struct mp m = { order, 9, 9 };
	void *args[] = { &m, &m };

	tthreads_init(&ts, 2, names2);
	g.data = g.flag = 0;
	cfg.seed = seed;
	cfg.memory = memory;
	cfg.random_switch_p = 0.3;
	cfg.tso_flush_p = 0.3;
	if (sch) {
		cfg.policy = WT_POLICY_DIRECTED;
		cfg.schedule = sch;
	}
	cr_assert_eq(wt_run(&cfg, 2, ts.p, mp_body, args, &res), WT_RUN_OK,
		     "seed %llu: %s", (unsigned long long)seed, res.report);
	wt_run_result_free(&res);
	cr_assert_eq(g.data, 1, "every buffer drained at the end");
	cr_assert_eq(g.flag, 1);
	return m;
}

static unsigned count_relaxed(enum wt_memory memory, enum mp_order order,
			      unsigned *flag_seen)
{
	unsigned relaxed = 0;

	*flag_seen = 0;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct mp m = run_mp(seed, memory, order, NULL);

		*flag_seen += m.r1 == 1;
		relaxed += m.r1 == 1 && m.r2 == 0;
	}
	return relaxed;
}

Test(pso, mp_relaxed_outcome_appears_without_a_barrier)
{
	unsigned seen, relaxed = count_relaxed(WT_MEMORY_PSO, MP_NONE, &seen);

	cr_assert_gt(relaxed, 0, "no seed saw the flag before the data");
	cr_assert_gt(seen, relaxed, "the ordered outcome appears too");
}

Test(pso, mp_never_relaxed_under_tso)
{
	unsigned seen;

	cr_assert_eq(count_relaxed(WT_MEMORY_TSO, MP_NONE, &seen), 0);
	cr_assert_gt(seen, 0);
}

Test(pso, mp_never_relaxed_with_smp_wmb)
{
	unsigned seen;

	cr_assert_eq(count_relaxed(WT_MEMORY_PSO, MP_WMB, &seen), 0);
	cr_assert_gt(seen, 0);
}

Test(pso, mp_never_relaxed_with_a_release_store)
{
	unsigned seen;

	cr_assert_eq(count_relaxed(WT_MEMORY_PSO, MP_RELEASE, &seen), 0);
	cr_assert_gt(seen, 0);
}

/* ---- directed ---- */

/* `flush writer 1' sends the flag store (entry 1) to memory: alone under
 * pso, after the data under tso or behind a barrier. */
Test(pso, directed_flush_of_the_younger_store)
{
	struct wt_schedule *sch = tsched_parse(
		"writer until litmus.pso.written\n"
		"flush writer 1\n"
		"reader until litmus.pso.done\n");
	struct {
		enum wt_memory memory;
		enum mp_order order;
		unsigned r2;
	} cases[] = {
		{ WT_MEMORY_PSO, MP_NONE, 0 },
		{ WT_MEMORY_TSO, MP_NONE, 1 },
		{ WT_MEMORY_PSO, MP_WMB, 1 },
		{ WT_MEMORY_PSO, MP_RELEASE, 1 },
	};
	char text[64];

	for (unsigned i = 0; i < 4; i++) {
		struct mp m = run_mp(7, cases[i].memory, cases[i].order, sch);

		cr_assert_eq(m.r1, 1, "case %u: the flag reached memory", i);
		cr_assert_eq(m.r2, cases[i].r2, "case %u", i);
	}
	cr_assert_gt(wt_step_format(&sch->steps[1], text, sizeof(text)), 0);
	cr_assert_str_eq(text, "flush writer 1");
	wt_schedule_free(sch);
}

/* ---- determinism ---- */

static void many_body(struct wt_thread *t, void *arg)
{
	unsigned *sum = arg;

	for (unsigned i = 0; i < 10; i++) {
		if (t->id == 0) {
			WT_EVENT("litmus.pso.store", NULL);
			WRITE_ONCE(g.data, i);
			WRITE_ONCE(g.flag, i);
			WRITE_ONCE(g.more, i);
		} else {
			WT_EVENT("litmus.pso.load", NULL);
			*sum = *sum * 31 + READ_ONCE(g.more) * 7 +
			       READ_ONCE(g.flag) * 3 + READ_ONCE(g.data);
		}
	}
}

static unsigned out_of_order(const struct wt_trace *tr)
{
	unsigned n = 0;

	for (size_t i = 0; i < tr->n; i++)
		n += (tr->ev[i].flags & WT_EV_FLUSH) && tr->ev[i].arg;
	return n;
}

static int run_many(uint64_t seed, const struct wt_trace_event *replay,
		    size_t nreplay, unsigned *sum, struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	void *args[] = { sum, sum };

	tthreads_init(&ts, 2, names2);
	g.data = g.flag = g.more = 0;
	*sum = 0;
	cfg.seed = seed;
	cfg.memory = WT_MEMORY_PSO;
	cfg.random_switch_p = 0.3;
	cfg.tso_flush_p = 0.3;
	cfg.trace = true;
	cfg.replay = replay;
	cfg.nreplay = nreplay;
	return wt_run(&cfg, 2, ts.p, many_body, args, res);
}

Test(pso, same_seed_same_trace_and_the_text_replays)
{
	struct wt_run_result a, b, c;
	struct wt_parse_error err;
	struct wt_trace_event *ev;
	unsigned sa, sb, sc;
	char *text = NULL;
	size_t len = 0, n;
	uint64_t seed;
	FILE *f;

	/* a seed whose run flushed some entry out of order */
	for (seed = 1; seed < 200; seed++) {
		cr_assert_eq(run_many(seed, NULL, 0, &sa, &a), WT_RUN_OK);
		if (out_of_order(a.trace))
			break;
		wt_run_result_free(&a);
	}
	cr_assert_lt(seed, 200, "no run flushed out of order");
	cr_assert_eq(run_many(seed, NULL, 0, &sb, &b), WT_RUN_OK);
	cr_assert_eq(a.trace->n, b.trace->n);
	cr_assert_eq(memcmp(a.trace->ev, b.trace->ev,
			    a.trace->n * sizeof(a.trace->ev[0])), 0);
	cr_assert_eq(a.digest, b.digest);
	cr_assert_eq(a.digest, a.trace->digest);
	cr_assert_eq(sa, sb);
	f = open_memstream(&text, &len);
	wt_trace_write(f, a.trace, names2, 2);
	fclose(f);
	cr_assert_not_null(strstr(text, " tso.flush flush@"), "%s", text);
	ev = wt_trace_parse(text, names2, 2, &n, &err);
	cr_assert_not_null(ev, "line %u: %s", err.line, err.msg);
	cr_assert_eq(n, a.trace->n);
	cr_assert_eq(run_many(seed + 1000, ev, n, &sc, &c), WT_RUN_OK);
	cr_assert_not(c.diverged, "%s", c.diverge_report);
	cr_assert_eq(c.digest, a.digest);
	cr_assert_eq(sc, sa);
	free(ev);
	free(text);
	wt_run_result_free(&a);
	wt_run_result_free(&b);
	wt_run_result_free(&c);
}

/* SPDX-License-Identifier: MIT */
/*
 * Traces: op tags, bounded rings, digests, and replay of a recorded
 * (stress-mode) order in sim mode, with divergence reported by index.
 */
#include <stdlib.h>
#include <time.h>

#include <criterion/criterion.h>

#include "test_sched_util.h"

static const char *const names[] = { "walker", "renamer" };

static void spin_ns(uint64_t ns)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((uint64_t)(b.tv_sec - a.tv_sec) * 1000000000ull +
	       (uint64_t)(b.tv_nsec - a.tv_nsec) < ns);
}

/* A fixed sequence of points per thread: any order of the two threads is
 * a valid interleaving, so any observed order can be replayed. */
static void seq_body(struct wt_thread *t, void *arg)
{
	bool slow = arg != NULL;

	for (int i = 0; i < 20; i++) {
		if (t->id == 0) {
			WT_EVENT("test.trace.w1", NULL);
			WT_EVENT("test.trace.w2", NULL);
		} else {
			wt_trace_note(i % 2 ? "mv /a /b" : "mv /b /a");
			WT_EVENT("test.trace.r1", NULL);
			wt_trace_note(NULL);
			WT_EVENT("test.trace.r2", NULL);
		}
		if (slow)	/* stress: let the other thread interleave */
			spin_ns(2000 + 1000 * (uint64_t)(i % 3) * (t->id + 1));
	}
}

static int run_seq(enum wt_backend backend, size_t capacity,
		   const struct wt_trace_event *replay, size_t nreplay,
		   struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	static int slow = 1;
	void *args[2];

	tthreads_init(&ts, 2, names);
	cfg.backend = backend;
	cfg.seed = 5;
	cfg.trace = true;
	cfg.trace_capacity = capacity;
	cfg.replay = replay;
	cfg.nreplay = nreplay;
	args[0] = args[1] = backend == WT_BACKEND_STRESS ? &slow : NULL;
	return wt_run(&cfg, 2, ts.p, seq_body, args, res);
}

/*
 * wt_trace_note() tags the writer's following events with its op text
 * until cleared: every r1 event carries the tag of its loop turn, no r2
 * or walker event carries one.
 */
Test(trace, notes_tag_writer_events)
{
	struct wt_run_result res;
	uint32_t r1 = wt_point_id(wt_point_lookup("test.trace.r1"));
	unsigned tagged = 0;

	cr_assert_eq(run_seq(WT_BACKEND_SIM, 0, NULL, 0, &res), WT_RUN_OK);
	for (size_t i = 0; i < res.trace->n; i++) {
		const struct wt_trace_event *e = &res.trace->ev[i];
		const char *note = wt_trace_event_note(res.trace, e);

		if (e->point == r1) {
			cr_assert_not_null(note);
			cr_assert(strncmp(note, "mv /", 4) == 0);
			tagged++;
		} else {
			cr_assert_null(note, "event %zu tagged '%s'", i, note);
		}
	}
	cr_assert_eq(tagged, 20);
	wt_run_result_free(&res);
}

/*
 * A ring smaller than the iteration keeps the last events and counts the
 * dropped ones; the digest still covers every event, so it equals the
 * digest of the same run with a large ring, and the kept events are that
 * run's tail.
 */
Test(trace, ring_keeps_the_tail_and_counts_drops)
{
	struct wt_run_result big, small;

	cr_assert_eq(run_seq(WT_BACKEND_SIM, 0, NULL, 0, &big), WT_RUN_OK);
	cr_assert_eq(run_seq(WT_BACKEND_SIM, 16, NULL, 0, &small), WT_RUN_OK);
	cr_assert_eq(big.trace->n, 80);
	cr_assert_eq(big.trace->dropped, 0);
	cr_assert_eq(small.trace->n, 16);
	cr_assert_eq(small.trace->dropped, 64);
	cr_assert_eq(small.digest, big.digest);
	cr_assert_eq(memcmp(small.trace->ev, big.trace->ev + 64,
			    16 * sizeof(small.trace->ev[0])), 0);
	wt_run_result_free(&small);
	/* 13 does not divide 80: the kept tail wraps around the ring's end
	 * (copied in two runs, wt_trace_from_buf) */
	cr_assert_eq(run_seq(WT_BACKEND_SIM, 13, NULL, 0, &small), WT_RUN_OK);
	cr_assert_eq(small.trace->n, 13);
	cr_assert_eq(small.trace->dropped, 67);
	cr_assert_eq(small.digest, big.digest);
	cr_assert_eq(memcmp(small.trace->ev, big.trace->ev + 67,
			    13 * sizeof(small.trace->ev[0])), 0);
	wt_run_result_free(&big);
	wt_run_result_free(&small);
}

/*
 * The text form has a header with the digest and one line per event
 * naming the thread and the point.
 */
Test(trace, text_form)
{
	struct wt_run_result res;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char head[64];
	unsigned lines = 0;

	cr_assert_eq(run_seq(WT_BACKEND_SIM, 0, NULL, 0, &res), WT_RUN_OK);
	wt_trace_write(f, res.trace, names, 2);
	fclose(f);
	for (char *p = buf; *p; p++)
		lines += *p == '\n';
	cr_assert_eq(lines, 81);
	snprintf(head, sizeof(head), "digest=%016llx\n",
		 (unsigned long long)res.digest);
	cr_assert(strstr(buf, head));
	cr_assert(strstr(buf, " renamer test.trace.r1 \"mv /b /a\"\n"));
	cr_assert(strstr(buf, " walker test.trace.w2\n"));
	free(buf);
	wt_run_result_free(&res);
}

/*
 * A stress run with tracing on yields its observed order (tickets
 * 0..n-1, each thread's events in program order); replayed in sim mode
 * as a directed schedule it gives the same (thread, point) order without
 * divergence.  Then one event of the record is edited (a walker event
 * turned into the other walker point): the replay reports divergence at
 * exactly that index and still finishes under the random policy.
 */
Test(trace, stress_trace_replays_in_sim_and_an_edit_diverges)
{
	struct wt_run_result st, rp, bad;
	struct wt_trace_event *edited;
	size_t k;

	cr_assert_eq(run_seq(WT_BACKEND_STRESS, 0, NULL, 0, &st), WT_RUN_OK,
		     "%s", st.report);
	cr_assert_eq(st.trace->n, 80);
	for (size_t i = 0; i < st.trace->n; i++)
		cr_assert_eq(st.trace->ev[i].seq, i);
	cr_assert_eq(run_seq(WT_BACKEND_SIM, 0, st.trace->ev, st.trace->n, &rp),
		     WT_RUN_OK);
	cr_assert_not(rp.diverged, "%s", rp.diverge_report);
	cr_assert(same_order(st.trace, rp.trace));
	cr_assert_eq(rp.digest, st.digest, "same order, same digest");

	edited = malloc(st.trace->n * sizeof(*edited));
	memcpy(edited, st.trace->ev, st.trace->n * sizeof(*edited));
	for (k = 37; edited[k].thread != 0; k++)
		;
	edited[k].point = wt_point_id(wt_point_lookup(
		edited[k].point == wt_point_id(wt_point_lookup("test.trace.w1")) ?
		"test.trace.w2" : "test.trace.w1"));
	cr_assert_eq(run_seq(WT_BACKEND_SIM, 0, edited, st.trace->n, &bad),
		     WT_RUN_OK);
	cr_assert(bad.diverged);
	cr_assert_eq(bad.diverged_at, k, "diverged at %zu, edited %zu: %s",
		     bad.diverged_at, k, bad.diverge_report);
	cr_assert_eq(bad.trace->n, 80);
	free(edited);
	wt_run_result_free(&st);
	wt_run_result_free(&rp);
	wt_run_result_free(&bad);
}

/*
 * The text form reads back into the same (thread, point, wait) events,
 * and replaying what was read reproduces the run; a line naming an
 * unknown point is rejected with its line and column.
 */
Test(trace, text_form_reads_back_for_replay)
{
	struct wt_run_result res, rp;
	struct wt_parse_error err;
	struct wt_trace_event *ev;
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_eq(run_seq(WT_BACKEND_SIM, 0, NULL, 0, &res), WT_RUN_OK);
	wt_trace_write(f, res.trace, names, 2);
	fclose(f);
	ev = wt_trace_parse(buf, names, 2, &n, &err);
	cr_assert_not_null(ev, "line %u col %u: %s", err.line, err.col, err.msg);
	cr_assert_eq(n, res.trace->n);
	for (size_t i = 0; i < n; i++) {
		cr_assert_eq(ev[i].thread, res.trace->ev[i].thread);
		cr_assert_eq(ev[i].point, res.trace->ev[i].point);
		cr_assert_eq(ev[i].flags & WT_EV_WAIT,
			     res.trace->ev[i].flags & WT_EV_WAIT);
	}
	cr_assert_eq(run_seq(WT_BACKEND_SIM, 0, ev, n, &rp), WT_RUN_OK);
	cr_assert_not(rp.diverged);
	cr_assert_eq(rp.digest, res.digest);
	free(ev);
	cr_assert_null(wt_trace_parse("# x\n0 0 walker test.trace.w1\n"
				      "1 10 walker no.such.point\n",
				      names, 2, &n, &err));
	cr_assert_eq(err.line, 3);
	cr_assert_eq(err.col, 13, "col %u", err.col);
	free(buf);
	wt_run_result_free(&res);
	wt_run_result_free(&rp);
}

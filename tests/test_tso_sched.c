/* SPDX-License-Identifier: MIT */
/*
 * memory=tso in the sim backend: a thread's own loads see its buffered
 * stores, flushes are scheduling decisions (traced, in the digest,
 * replayed, forced when nothing else can run), runs are deterministic
 * (same seed, byte-identical trace; across a fork too), and the
 * configuration and schedule errors name what is wrong.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "sim/sched/sched.h"
#include "sim/spinlock.h"
#include "sim/tso.h"
#include "test_sched_util.h"

static const char *const names2[] = { "alice", "bob" };
static const char *const names3[] = { "alice", "bob", "carol" };

struct obj {
	struct wt_obj wt;
	unsigned f __attribute__((aligned(64)));
	unsigned long g __attribute__((aligned(64)));
};

static struct obj g_o;
static unsigned g_x __attribute__((aligned(64)));

/* ---- own loads ---- */

struct own {
	unsigned alice_x, alice_f, bob_x, bob_f;
	unsigned long alice_g, bob_g;
};

static void own_body(struct wt_thread *t, void *arg)
{
	struct own *r = arg;

	if (t->id == 0) {
		WRITE_ONCE(g_x, 5);
		wt_store(&g_o, f, 7);
		smp_store_release(&g_o.g, 9ul);
		r->alice_x = READ_ONCE(g_x);
		r->alice_f = wt_load(&g_o, f);
		r->alice_g = smp_load_acquire(&g_o.g);
		WT_EVENT("tso_test.own.loaded", NULL);
		return;
	}
	WT_EVENT("tso_test.own.bob", NULL);
	r->bob_x = READ_ONCE(g_x);
	r->bob_f = wt_load(&g_o, f);
	r->bob_g = smp_load_acquire(&g_o.g);
}

static void own_reset(void)
{
	memset(&g_o, 0, sizeof(g_o));
	wt_obj_init(&g_o.wt, WT_OBJ_OTHER, 1);
	g_x = 0;
}

/*
 * alice's loads see her three buffered stores (WRITE_ONCE, wt_store,
 * smp_store_release) while bob, run in between, sees memory; under SC
 * bob sees them too.
 */
Test(tso_sched, own_loads_see_buffered_stores_others_do_not)
{
	struct wt_schedule *sch = tsched_parse("alice until tso_test.own.loaded\n"
					       "bob finish\n"
					       "alice finish\n");
	enum wt_memory mem[] = { WT_MEMORY_TSO, WT_MEMORY_SC };

	for (unsigned m = 0; m < 2; m++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		struct own r = { 0 };
		void *args[] = { &r, &r };
		bool tso = mem[m] == WT_MEMORY_TSO;

		tthreads_init(&ts, 2, names2);
		own_reset();
		cfg.memory = mem[m];
		cfg.policy = WT_POLICY_DIRECTED;
		cfg.schedule = sch;
		cr_assert_eq(wt_run(&cfg, 2, ts.p, own_body, args, &res),
			     WT_RUN_OK, "%s", res.report);
		cr_assert_eq(r.alice_x, 5);
		cr_assert_eq(r.alice_f, 7);
		cr_assert_eq(r.alice_g, 9);
		cr_assert_eq(r.bob_x, tso ? 0 : 5);
		cr_assert_eq(r.bob_f, tso ? 0 : 7);
		cr_assert_eq(r.bob_g, tso ? 0 : 9);
		cr_assert_eq(res.tso_stores, tso ? 3 : 0);
		cr_assert_eq(res.tso_forwards, tso ? 3 : 0);
		cr_assert_eq(res.tso_stale, tso ? 3 : 0);
		/* alice's end drained her buffer. */
		cr_assert_eq(g_x, 5);
		wt_run_result_free(&res);
	}
	wt_schedule_free(sch);
}

/* ---- a mixed workload: stores, loads, a lock, a fence ---- */

static spinlock_t g_lock;
static unsigned g_cells[3][4] __attribute__((aligned(64)));
static unsigned g_sum;

static void mixed_body(struct wt_thread *t, void *arg)
{
	unsigned me = t->id, acc = 0;

	(void)arg;
	for (unsigned i = 0; i < 12; i++) {
		WT_EVENT("tso_test.mixed.store", NULL);
		WRITE_ONCE(g_cells[me][i % 4], i + 1);
		WT_EVENT("tso_test.mixed.load", NULL);
		acc += READ_ONCE(g_cells[(me + 1) % 3][i % 4]);
		if (i % 5 == 4) {
			spin_lock(&g_lock);
			WRITE_ONCE(g_sum, READ_ONCE(g_sum) + acc);
			spin_unlock(&g_lock);
		}
		if (i % 7 == 6)
			smp_mb();
	}
}

static int run_mixed_traced(uint64_t seed, enum wt_policy policy,
			    bool trace, struct wt_run_result *res)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;

	tthreads_init(&ts, 3, names3);
	memset(g_cells, 0, sizeof(g_cells));
	spin_lock_init(&g_lock);
	g_sum = 0;
	cfg.seed = seed;
	cfg.policy = policy;
	cfg.memory = WT_MEMORY_TSO;
	cfg.random_switch_p = 0.3;
	cfg.trace = trace;
	return wt_run(&cfg, ts.n, ts.p, mixed_body, NULL, res);
}

static int run_mixed(uint64_t seed, enum wt_policy policy,
		     struct wt_run_result *res)
{
	return run_mixed_traced(seed, policy, true, res);
}

static unsigned flush_events(const struct wt_trace *tr)
{
	unsigned n = 0;

	for (size_t i = 0; i < tr->n; i++)
		n += !!(tr->ev[i].flags & WT_EV_FLUSH);
	return n;
}

/*
 * Same seed: byte-identical traces (flush events included) and equal
 * digests; another seed: another order.  Flush events are traced on the
 * owner's lane with the tso.flush point and are part of the digest.
 */
Test(tso_sched, same_seed_same_trace_with_flush_events)
{
	struct wt_run_result a, b, c;

	cr_assert_eq(run_mixed(11, WT_POLICY_RANDOM, &a), WT_RUN_OK, "%s", a.report);
	cr_assert_eq(run_mixed(11, WT_POLICY_RANDOM, &b), WT_RUN_OK);
	cr_assert_eq(run_mixed(12, WT_POLICY_RANDOM, &c), WT_RUN_OK);
	cr_assert_gt(a.tso_flush_events, 0);
	cr_assert_eq(flush_events(a.trace), a.tso_flush_events);
	cr_assert_eq(a.trace->n, b.trace->n);
	cr_assert_eq(memcmp(a.trace->ev, b.trace->ev,
			    a.trace->n * sizeof(a.trace->ev[0])), 0);
	cr_assert_eq(a.digest, b.digest);
	cr_assert_eq(a.digest, a.trace->digest);
	cr_assert_neq(a.digest, c.digest);
	for (size_t i = 0; i < a.trace->n; i++)
		if (a.trace->ev[i].flags & WT_EV_FLUSH)
			cr_assert_str_eq(wt_point_name(wt_point_by_id(
					 a.trace->ev[i].point)), "tso.flush");
	wt_run_result_free(&a);
	wt_run_result_free(&b);
	wt_run_result_free(&c);
}

/*
 * A traced run (every event recorded, sim_arrive's path) has the digest
 * of the untraced one (sim_point_tso's, which adds to the turn the
 * switch began): threads that end while others go on put their
 * tso.thread_end point between two turns of another.
 */
Test(tso_sched, traced_and_untraced_runs_have_one_digest)
{
	static const enum wt_policy policy[] = { WT_POLICY_RANDOM,
						 WT_POLICY_PCT };

	for (unsigned k = 0; k < 2; k++)
		for (uint64_t seed = 1; seed <= 30; seed++) {
			struct wt_run_result a, b;

			cr_assert_eq(run_mixed_traced(seed, policy[k], false,
						      &a), WT_RUN_OK);
			cr_assert_eq(run_mixed_traced(seed, policy[k], true,
						      &b), WT_RUN_OK);
			cr_assert_eq(a.points, b.points);
			cr_assert_eq(a.tso_flush_events, b.tso_flush_events);
			cr_assert_eq(a.digest, b.digest, "%s seed %llu",
				     wt_policy_name(policy[k]),
				     (unsigned long long)seed);
			cr_assert_eq(b.digest, b.trace->digest);
			wt_run_result_free(&a);
			wt_run_result_free(&b);
		}
}

/* The digest of a tso run is a property of (seed, build): a forked
 * child computes the same one. */
Test(tso_sched, digest_is_stable_across_processes)
{
	struct wt_run_result res;
	uint64_t child = 0;
	int fds[2], status;
	pid_t pid;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	/* No cr_assert before the branch: in the child it would report to
	 * Criterion's runner with the child's pid, which confuses it. */
	if (pid < 0)
		cr_assert_fail("fork failed");
	if (pid == 0) {
		close(fds[0]);
		if (run_mixed(99, WT_POLICY_PCT, &res) != WT_RUN_OK)
			_exit(1);
		if (write(fds[1], &res.digest, sizeof(res.digest)) !=
		    (ssize_t)sizeof(res.digest))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	cr_assert_eq(run_mixed(99, WT_POLICY_PCT, &res), WT_RUN_OK);
	cr_assert_eq(read(fds[0], &child, sizeof(child)),
		     (ssize_t)sizeof(child));
	close(fds[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_assert_eq(child, res.digest);
	cr_assert_gt(res.tso_flush_events, 0);
	wt_run_result_free(&res);
}

/*
 * A tso trace written as text reads back and replays: the replay redoes
 * each flush at its place (no divergence, same digest, same outcome).
 */
Test(tso_sched, tso_trace_text_replays_with_its_flushes)
{
	struct wt_run_result a, b;
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_parse_error err;
	struct wt_trace_event *ev;
	char *text = NULL;
	size_t len = 0, n;
	unsigned sum;
	FILE *f;

	cr_assert_eq(run_mixed(5, WT_POLICY_RANDOM, &a), WT_RUN_OK);
	sum = g_sum;
	f = open_memstream(&text, &len);
	wt_trace_write(f, a.trace, names3, 3);
	fclose(f);
	cr_assert_not_null(strstr(text, " tso.flush flush"), "%s", text);
	ev = wt_trace_parse(text, names3, 3, &n, &err);
	cr_assert_not_null(ev, "line %u: %s", err.line, err.msg);
	cr_assert_eq(n, a.trace->n);
	tthreads_init(&ts, 3, names3);
	memset(g_cells, 0, sizeof(g_cells));
	g_sum = 0;
	cfg.memory = WT_MEMORY_TSO;
	cfg.seed = 777;			/* the record decides, not the seed */
	cfg.replay = ev;
	cfg.nreplay = n;
	cfg.trace = true;
	cr_assert_eq(wt_run(&cfg, 3, ts.p, mixed_body, NULL, &b), WT_RUN_OK);
	cr_assert_not(b.diverged, "%s", b.diverge_report);
	cr_assert_eq(b.digest, a.digest);
	cr_assert_eq(g_sum, sum);
	/* The same record under SC cannot be followed: it says so. */
	cfg.memory = WT_MEMORY_SC;
	wt_run_result_free(&b);
	cr_assert_eq(wt_run(&cfg, 3, ts.p, mixed_body, NULL, &b), WT_RUN_OK);
	cr_assert(b.diverged);
	free(ev);
	free(text);
	wt_run_result_free(&a);
	wt_run_result_free(&b);
}

/* ---- forced flushes ---- */

static unsigned g_flag __attribute__((aligned(64)));
static unsigned g_ack __attribute__((aligned(64)));

static bool flag_set(const void *arg)
{
	(void)arg;
	return READ_ONCE(g_flag) != 0;
}

static bool ack_set(const void *arg)
{
	(void)arg;
	return READ_ONCE(g_ack) != 0;
}

static void handshake_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		WRITE_ONCE(g_flag, 1);
		wt_wait(WT_WAIT_SPIN, ack_set, NULL);
	} else {
		wt_wait(WT_WAIT_SPIN, flag_set, NULL);
		WRITE_ONCE(g_ack, 1);
	}
}

/*
 * With no random flushes (tso_flush_p = 0), bob waits for a flag that is
 * still in alice's buffer while alice waits for bob: no thread can run,
 * so the scheduler flushes (forced, traced) instead of calling it a
 * deadlock.  A waiter's predicate sees its own buffer (alice is not
 * woken by her own store's absence from memory).
 */
Test(tso_sched, nothing_runnable_forces_a_flush_not_a_deadlock)
{
	for (uint64_t seed = 1; seed <= 50; seed++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;

		tthreads_init(&ts, 2, names2);
		g_flag = g_ack = 0;
		cfg.seed = seed;
		cfg.memory = WT_MEMORY_TSO;
		cfg.tso_flush_p = 0;
		cr_assert_eq(wt_run(&cfg, 2, ts.p, handshake_body, NULL, &res),
			     WT_RUN_OK, "seed %llu: %s",
			     (unsigned long long)seed, res.report);
		cr_assert_geq(res.tso_flush_events, 1);
		wt_run_result_free(&res);
	}
}

/* ---- errors ---- */

static void nop_body(struct wt_thread *t, void *arg)
{
	(void)t;
	(void)arg;
	WT_EVENT("tso_test.nop", NULL);
}

Test(tso_sched, configuration_errors_say_what_is_wrong)
{
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	struct wt_schedule *sch = tsched_parse("flush alice\n");

	tthreads_init(&ts, 2, names2);
	cfg.memory = WT_MEMORY_TSO;
	cfg.backend = WT_BACKEND_STRESS;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, nop_body, NULL, &res),
		     WT_RUN_CONFIG_ERROR);
	cr_assert_not_null(strstr(res.report, "sim mode only"), "%s", res.report);
	wt_run_result_free(&res);
	cfg.backend = WT_BACKEND_SIM;
	cfg.memory = WT_MEMORY_SC;
	cfg.policy = WT_POLICY_DIRECTED;
	cfg.schedule = sch;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, nop_body, NULL, &res),
		     WT_RUN_CONFIG_ERROR);
	cr_assert_not_null(strstr(res.report, "needs memory=tso"), "%s",
			   res.report);
	wt_run_result_free(&res);
	cfg.memory = WT_MEMORY_TSO;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, nop_body, NULL, &res),
		     WT_RUN_SCHEDULE_ERROR);
	cr_assert_not_null(strstr(res.report, "store buffer is empty"), "%s",
			   res.report);
	cr_assert_eq(res.step_failed, 1);
	wt_run_result_free(&res);
	wt_schedule_free(sch);
	cr_assert_eq(wt_memory_parse("tso"), WT_MEMORY_TSO);
	cr_assert_eq(wt_memory_parse("sc"), WT_MEMORY_SC);
	cr_assert_eq(wt_memory_parse("arm"), -1);
	cr_assert_str_eq(wt_memory_name(WT_MEMORY_TSO), "tso");
}

/* `flush THREAD [all]', and a thread named "flush" keeps its steps. */
Test(tso_sched, flush_step_syntax)
{
	struct wt_sched_step st;
	struct wt_parse_error err = { 0 };
	char buf[128];

	cr_assert_eq(wt_schedule_parse_step("flush alice", &st, &err), 0);
	cr_assert_eq(st.kind, WT_SCHED_FLUSH);
	cr_assert_str_eq(st.thread, "alice");
	cr_assert_not(st.all);
	wt_step_format(&st, buf, sizeof(buf));
	cr_assert_str_eq(buf, "flush alice");
	cr_assert_eq(wt_schedule_parse_step("flush bob all  # drain", &st, &err), 0);
	cr_assert(st.all);
	wt_step_format(&st, buf, sizeof(buf));
	cr_assert_str_eq(buf, "flush bob all");
	cr_assert_eq(wt_schedule_parse_step("flush until tso_test.nop", &st,
					    &err), 0);
	cr_assert_eq(st.kind, WT_SCHED_UNTIL);
	cr_assert_str_eq(st.thread, "flush");
	cr_assert_neq(wt_schedule_parse_step("flush alice some", &st, &err), 0);
	cr_assert_eq(err.col, 13, "%s", err.msg);
	cr_assert_neq(wt_schedule_parse_step("flush", &st, &err), 0);
	cr_assert_neq(wt_schedule_parse_step("flush alice all more", &st, &err), 0);
}

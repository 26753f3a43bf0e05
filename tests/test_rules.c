/* SPDX-License-Identifier: MIT */
/*
 * Injection rules: triggers, selection, actions, and the text syntax.
 */
#include <criterion/criterion.h>

#include "sim/atomic.h"
#include "test_sched_util.h"

static const char *const names[] = { "walker", "renamer" };

struct tobj {
	struct wt_obj wt;
	unsigned long field;
};

static struct tobj objs[2];

static void tick_body(struct wt_thread *t, void *arg)
{
	unsigned n = *(unsigned *)arg;

	for (unsigned i = 0; i < n; i++) {
		WT_EVENT("test.rules.tick", NULL);
		if (t->id == 1)
			WT_EVENT("test.rules.other", NULL);
		(void)wt_load(&objs[i % 2], field);
	}
}

/* Run the tick workload (n ticks per thread) under the given rules. */
static void run_rules(const char *const *text, unsigned nrules, unsigned n,
		      uint64_t seed, struct wt_run_result *res)
{
	struct wt_rule rules[8];
	struct wt_parse_error err;
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	void *args[2] = { &n, &n };

	for (unsigned i = 0; i < nrules; i++)
		cr_assert_eq(wt_rule_parse(text[i], &rules[i], &err), 0,
			     "'%s' col %u: %s", text[i], err.col, err.msg);
	wt_obj_init(&objs[0].wt, WT_OBJ_DENTRY, 100);
	wt_obj_init(&objs[1].wt, WT_OBJ_INODE, 101);
	tthreads_init(&ts, 2, names);
	cfg.seed = seed;
	cfg.rules = rules;
	cfg.nrules = nrules;
	cr_assert_eq(wt_run(&cfg, 2, ts.p, tick_body, args, res), WT_RUN_OK,
		     "%s", res->report);
}

/*
 * nth= fires on exactly one matching hit, every= on every Nth, p= on a
 * seeded share of them (the same share for the same seed, another one
 * for another seed), while matches count every matching hit.
 */
Test(rules, nth_every_and_p_fire_as_specified)
{
	static const char *const text[] = {
		"at=test.rules.tick nth=7 count",
		"at=test.rules.tick every=3",
		"at=test.rules.tick p=0.25",
	};
	struct wt_run_result a, b, c;

	run_rules(text, 3, 500, 1, &a);
	cr_assert_eq(a.rule_matches[0], 1000);
	cr_assert_eq(a.rule_fires[0], 1);
	cr_assert_eq(a.rule_fires[1], 333);
	cr_assert(a.rule_fires[2] > 180 && a.rule_fires[2] < 320,
		  "p=0.25 fired %llu of 1000", (unsigned long long)a.rule_fires[2]);
	run_rules(text, 3, 500, 1, &b);
	cr_assert_eq(b.rule_fires[2], a.rule_fires[2]);
	run_rules(text, 3, 500, 2, &c);
	cr_assert_neq(c.rule_fires[2], a.rule_fires[2]);
	wt_run_result_free(&a);
	wt_run_result_free(&b);
	wt_run_result_free(&c);
}

/*
 * Points are selected by glob, by kind and by exact name; threads by
 * name, by #id and by role; objects by id and type (field loads pass
 * the object).  Each rule's match count equals the hits it should see.
 */
Test(rules, selection_by_glob_kind_thread_and_object)
{
	static const char *const text[] = {
		"at=test.rules.* thread=renamer",	/* tick+other of #1 */
		"at=event thread=#0",			/* events of #0 */
		"at=load obj=101",			/* half the loads */
		"at=load objtype=dentry role=walker",
		"at=test.rules.other thread=walker",	/* never */
	};
	struct wt_run_result r;

	run_rules(text, 5, 10, 1, &r);
	cr_assert_eq(r.rule_matches[0], 20);
	cr_assert_eq(r.rule_matches[1], 10);
	cr_assert_eq(r.rule_matches[2], 10);
	cr_assert_eq(r.rule_matches[3], 5);
	cr_assert_eq(r.rule_matches[4], 0);
	wt_run_result_free(&r);
}

static void component_body(struct wt_thread *t, void *arg)
{
	static const char *const comps[] = { "a", "b", "c", "b" };

	(void)arg;
	for (int i = 0; i < 4; i++) {
		t->cur_component = comps[i];
		WT_EVENT("test.rules.component", NULL);
	}
	t->cur_component = NULL;
	WT_EVENT("test.rules.component", NULL);
}

/*
 * component= matches only while the walk looks up that component (the
 * per-thread cur_component string).
 */
Test(rules, component_condition)
{
	struct wt_rule r;
	struct wt_parse_error err;
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;

	cr_assert_eq(wt_rule_parse("at=test.rules.component component=b",
				   &r, &err), 0, "%s", err.msg);
	tthreads_init(&ts, 1, names);
	cfg.rules = &r;
	cfg.nrules = 1;
	cr_assert_eq(wt_run(&cfg, 1, ts.p, component_body, NULL, &res), WT_RUN_OK);
	cr_assert_eq(res.rule_matches[0], 2);
	wt_run_result_free(&res);
}

static void alloc_body(struct wt_thread *t, void *arg)
{
	bool *failed = arg;

	(void)t;
	for (int i = 0; i < 5; i++)
		failed[i] = wt_alloc_should_fail(WT_ALLOC_POINT("test.rules.alloc"));
}

/*
 * A fail rule makes exactly the selected allocation report failure
 * (nth=2: the second), and nothing fails without a run.
 */
Test(rules, fail_on_alloc_points)
{
	struct wt_rule r;
	struct wt_parse_error err;
	struct tthreads ts;
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_run_result res;
	bool failed[5];
	void *args[1] = { failed };

	alloc_body(NULL, failed);
	for (int i = 0; i < 5; i++)
		cr_assert_not(failed[i]);
	cr_assert_eq(wt_rule_parse("at=test.rules.alloc fail nth=2", &r, &err), 0);
	tthreads_init(&ts, 1, names);
	cfg.rules = &r;
	cfg.nrules = 1;
	cr_assert_eq(wt_run(&cfg, 1, ts.p, alloc_body, args, &res), WT_RUN_OK);
	cr_assert(!failed[0] && failed[1] && !failed[2] && !failed[3] && !failed[4]);
	wt_run_result_free(&res);
}

static void delay_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	for (int i = 0; i < 300; i++) {
		if (t->id == 0 && i == 1)
			WT_EVENT("test.rules.delayed", NULL);
		WT_EVENT("test.rules.step", NULL);
	}
}

/*
 * A delay advances the thread's virtual clock by its length and puts it
 * to sleep until the other thread's clock catches up: with 10 ns a point,
 * a 2 us delay lets the renamer reach at least 202 points before the
 * walker runs again, under every seed of the random policy.
 */
Test(rules, delay_advances_virtual_time)
{
	struct wt_rule r;
	struct wt_parse_error err;

	cr_assert_eq(wt_rule_parse("at=test.rules.delayed delay=2us", &r, &err), 0);
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		size_t at = 0, others = 0;

		tthreads_init(&ts, 2, names);
		cfg.seed = seed;
		cfg.rules = &r;
		cfg.nrules = 1;
		cfg.trace = true;
		cr_assert_eq(wt_run(&cfg, 2, ts.p, delay_body, NULL, &res), WT_RUN_OK);
		cr_assert_eq(res.threads[0].clock_ns, 2000 + 301 * 10);
		while (res.trace->ev[at].point !=
		       wt_point_id(wt_point_lookup("test.rules.delayed")))
			at++;
		/* The renamer's points before the walker's next one: its
		 * clock had to reach the walker's 20 + 2000 ns. */
		for (size_t i = 0; i < res.trace->n; i++) {
			if (i > at && res.trace->ev[i].thread == 0)
				break;
			others += res.trace->ev[i].thread == 1;
		}
		cr_assert_geq(others, 202, "seed %llu: only %zu renamer points "
			      "before the walker woke", (unsigned long long)seed,
			      others);
		wt_run_result_free(&res);
	}
}

static void check_bad(const char *text, size_t pos, const char *what)
{
	struct wt_rule r;
	struct wt_parse_error err;

	cr_assert_eq(wt_rule_parse(text, &r, &err), -1, "accepted '%s'", text);
	cr_assert_eq(err.pos, pos, "'%s': error at %zu (%s), expected %zu",
		     text, err.pos, err.msg, pos);
	cr_assert(strstr(err.msg, what), "'%s': message '%s'", text, err.msg);
}

/* Every unit, minutes and hours too (a night is given as --duration
 * 25m); "m" is a prefix of "ms" and must not take it. */
Test(rules, durations_in_every_unit)
{
	static const struct { const char *text; uint64_t ns; } ok[] = {
		{ "40", 40 }, { "500ns", 500 }, { "3us", 3000 },
		{ "1.5ms", 1500000 }, { "2s", 2000000000ull },
		{ "25m", 1500000000000ull }, { "0.5h", 1800000000000ull },
		{ "2h", 7200000000000ull },
	};
	static const char *const bad[] = { "5min", "3d", "m", "1hs", "-1s" };
	uint64_t ns;
	const char *end;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		cr_assert_eq(wt_duration_parse(ok[i].text, &ns, &end), 0,
			     "%s", ok[i].text);
		cr_expect_eq(ns, ok[i].ns, "%s: %llu", ok[i].text,
			     (unsigned long long)ns);
		cr_expect_eq(*end, '\0', "%s", ok[i].text);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_neq(wt_duration_parse(bad[i], &ns, &end), 0, "%s",
			      bad[i]);
}

/*
 * The parser rejects bad input and says where: the byte offset of the
 * offending token or character, and what was expected.
 */
Test(rules, parser_rejects_bad_input_with_a_position)
{
	check_bad("at=seq.read delay=uniform(0,80us", 32, "')'");
	check_bad("at=seq.read p=1.5", 14, "[0, 1]");
	check_bad("at=seq.read bogus=1", 12, "unknown key");
	check_bad("at=seq.read nth=0", 16, "at least 1");
	check_bad("delay=uniform(5us,1us)", 14, "A <= B");
	check_bad("at=no.such.point", 3, "unknown point");
	check_bad("delay=3parsecs", 6, "duration");
	check_bad("yield=1", 6, "no value");
	check_bad("preempt-until=renamer", 14, "THREAD@POINT");
	check_bad("  ", 0, "empty");
	check_bad("at=event nth=2 every=3", 0, "exclude");
}

/*
 * Good rules parse to the intended fields (the default delay is KCSAN's
 * uniform(0,80us)), and format back to text that parses to the same rule.
 */
Test(rules, parse_and_format_round_trip)
{
	static const char *const good[] = {
		"at=seq.read thread=walker delay=uniform(0,80us) p=0.2",
		"at=test.rules.* delay",
		"at=load objtype=dentry obj=7 every=2 delay=exp(3us)",
		"role=walker component=b yield",
		"at=test.rules.tick preempt-until=renamer@test.rules.other timeout=1ms",
		"at=alloc fail nth=3",
		"delay=1.5ms",
	};
	struct wt_rule r, r2;
	struct wt_parse_error err;
	char buf[512];

	cr_assert_eq(wt_rule_parse(good[0], &r, &err), 0, "%s", err.msg);
	cr_assert_str_eq(r.at, "seq.read");
	cr_assert_str_eq(r.thread, "walker");
	cr_assert_eq(r.action, WT_RULE_DELAY);
	cr_assert_eq(r.delay.kind, WT_DIST_UNIFORM);
	cr_assert_eq(r.delay.b_ns, 80000);
	cr_assert_float_eq(r.p, 0.2, 1e-12);
	cr_assert_eq(wt_rule_parse(good[1], &r, &err), 0);
	cr_assert_eq(r.delay.b_ns, WT_DELAY_DEFAULT_MAX_NS);
	cr_assert_eq(wt_rule_parse(good[6], &r, &err), 0);
	cr_assert_eq(r.delay.a_ns, 1500000);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		cr_assert_eq(wt_rule_parse(good[i], &r, &err), 0, "%s: %s",
			     good[i], err.msg);
		wt_rule_format(&r, buf, sizeof(buf));
		cr_assert_eq(wt_rule_parse(buf, &r2, &err), 0, "%s: %s", buf, err.msg);
		cr_assert_str_eq(r.at, r2.at);
		cr_assert_str_eq(r.thread, r2.thread);
		cr_assert_eq(r.action, r2.action);
		cr_assert_eq(r.delay.kind, r2.delay.kind);
		cr_assert_eq(r.delay.a_ns, r2.delay.a_ns);
		cr_assert_eq(r.delay.b_ns, r2.delay.b_ns);
		cr_assert_eq(r.nth, r2.nth);
		cr_assert_eq(r.every, r2.every);
		cr_assert_eq(r.obj_type, r2.obj_type);
		cr_assert_float_eq(r.p, r2.p, 1e-12);
	}
}

static void preempt_body(struct wt_thread *t, void *arg)
{
	(void)arg;
	if (t->id == 0) {
		WT_EVENT("test.rules.wait_here", NULL);
		tlog_add(arg, "walker");
	} else {
		for (int i = 0; i < 5; i++)
			WT_EVENT("test.rules.step", NULL);
		tlog_add(arg, "renamer-before");
		WT_EVENT("test.rules.target", NULL);
		tlog_add(arg, "renamer-after");
	}
}

/*
 * preempt-until keeps the walker at its point until the renamer reaches
 * the target point: whatever the seed, the renamer's "before" effect
 * comes before the walker's.
 */
Test(rules, preempt_until_other_reaches_point)
{
	struct wt_rule r;
	struct wt_parse_error err;
	static struct tlog log;

	cr_assert_eq(wt_rule_parse("at=test.rules.wait_here "
				   "preempt-until=renamer@test.rules.target",
				   &r, &err), 0, "%s", err.msg);
	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct tthreads ts;
		struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
		struct wt_run_result res;
		void *args[2] = { &log, &log };

		memset(&log, 0, sizeof(log));
		tthreads_init(&ts, 2, names);
		cfg.seed = seed;
		cfg.rules = &r;
		cfg.nrules = 1;
		cr_assert_eq(wt_run(&cfg, 2, ts.p, preempt_body, args, &res),
			     WT_RUN_OK);
		cr_assert_str_eq(log.what[0], "renamer-before");
		cr_assert_eq(res.preempt_timeouts, 0);
		wt_run_result_free(&res);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * Stress mode, real concurrency: a walker pinned to one PU looks through
 * /a/b while a renamer pinned to another moves /a/b back and forth.  Two
 * phases in one process, the same walks and the same renamer: without
 * injection, then with delay=uniform(0,80us) p=0.3 (KCSAN's range) at
 * the walker's seq.read points.  A delay between a seq sample and its recheck widens
 * the window in which a rename moves the seqcount, so RCU-walk falls back
 * to REF-walk (an unlazy or an -ECHILD restart) far more often.
 *
 * Prints, per 100 000 walks, the fallbacks of each phase and their
 * ratio; exit 1 when the ratio is below the argument (default 10), so a
 * ctest can hold it.  What the ratio is made of: a delayed walk takes
 * ~75 us instead of ~1 us, so more renames land in each walk.
 *
 * Why an earlier attempt (the same rule through `walktorture run --mode
 * stress', 100 000 walks) never ended: the scenario runner judged the
 * walks it kept for after the run newest first, and the oracle rebuilt
 * its namespace snapshot from the start of the history for each one
 * (fixed in scenarios/src/body.c); the injected delays only made the
 * renamer log more history per walk.  This benchmark needs neither.  No oracle and no history: the counters come from
 * the walk itself (core/paths.h), and a long iteration must not keep a
 * log of every rename.
 *
 *	bench_stress_fallback [WALKS [MIN_RATIO [CPUS]]]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/namei.h"
#include "core/paths.h"
#include "sim/ops.h"
#include "sim/rcu.h"
#include "sim/sched/run.h"
#include "sim/vfs/world.h"

static const char *const paths[] = {
	"/a/b/c/f", "/a/b/c/..", "/a/b", "/a/b/c",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

struct bench {
	struct wt_world *w;
	uint64_t walks;
	struct wt_path_counts counts;	/* the walker's */
	uint64_t renames;		/* the renamer's */
	uint64_t rename_errors;
	uint64_t walk_errors;
};

static void walker_body(struct bench *b)
{
	struct wt_task task;
	struct wt_walker wk = { .task = &task, .stats = &b->counts };

	wt_task_init(&task, b->w, 0, 0);
	for (uint64_t i = 0; i < b->walks; i++) {
		struct path p;
		int err = filename_lookup(&wk, NULL, paths[i % NPATHS], 0, &p,
					  NULL);

		/* ENOENT: the walk ran while /a/b was /a/x */
		if (!err)
			path_put(&p);
		else if (err != -ENOENT)
			b->walk_errors++;
		if (i % 64 == 0)
			wt_rcu_poll();
	}
	wt_task_release(&task);
	wt_request_stop();
}

/*
 * A rename every RENAME_GAP_NS of real time, the same in both phases: a
 * renamer flat out on the other core moves the seqcounts so often that a
 * quarter of the walks fall back without any injection, and the
 * comparison would measure saturation instead of the delays' effect.
 */
#define RENAME_GAP_NS	20000ull

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Bounded by the walker: it stops the run when its walks are done. */
static void renamer_body(struct bench *b)
{
	uint64_t next = now_ns();

	while (!wt_should_stop()) {
		next += RENAME_GAP_NS;
		while (now_ns() < next && !wt_should_stop())
			;	/* busy: the renamer owns its core */
		bool there = b->renames % 2 == 0;

		if (wt_op_rename(b->w, there ? "/a/b" : "/a/x",
				 there ? "/a/x" : "/a/b", 0))
			b->rename_errors++;
		b->renames++;
		if (b->renames % 32 == 0)
			wt_rcu_poll();
	}
}

static void body(struct wt_thread *t, void *arg)
{
	if (t->id == 0)
		walker_body(arg);
	else
		renamer_body(arg);
}

/* Walks that left RCU-walk: each counts once, under its unlazy.* or
 * restart.* reason (a failed unlazy's cause is of another kind). */
static uint64_t fallbacks(const struct wt_path_counts *c)
{
	return wt_path_counts_kind(c, WT_PATH_KIND_UNLAZY) +
	       wt_path_counts_kind(c, WT_PATH_KIND_RESTART);
}

struct phase {
	const char *name;
	uint64_t fallbacks;
	uint64_t walks;
	uint64_t renames;
	double seconds;
	char binding[512];
	struct wt_path_counts counts;
};

static int run_phase(struct bench *b, const char *rule_text, const char *cpus,
		     uint64_t seed, struct phase *ph)
{
	struct wt_run_config cfg = WT_RUN_CONFIG_INIT;
	struct wt_thread wt, rt, *ts[] = { &wt, &rt };
	void *args[] = { b, b };
	struct wt_run_result res;
	struct wt_parse_error err;
	struct wt_rule rule;
	struct timespec t0, t1;
	int rc;

	if (rule_text && wt_rule_parse(rule_text, &rule, &err)) {
		fprintf(stderr, "bench_stress_fallback: rule: %s\n", err.msg);
		return -1;
	}
	wt_thread_init(&wt, 0, "walker");
	wt_thread_init(&rt, 1, "renamer");
	wt.rcu = wt_rcu_reader_create(b->w->rcu);
	rt.rcu = wt_rcu_reader_create(b->w->rcu);
	wt_path_counts_clear(&b->counts);
	b->renames = 0;
	cfg.backend = WT_BACKEND_STRESS;
	cfg.seed = seed;
	cfg.cpus = cpus;
	cfg.rules = rule_text ? &rule : NULL;
	cfg.nrules = rule_text ? 1 : 0;
	cfg.timeout_ms = 600000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = wt_run(&cfg, 2, ts, body, args, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc != WT_RUN_OK)
		fprintf(stderr, "bench_stress_fallback: !!! %s\n", res.report);
	/* Put /a/b back for the next phase (the run is over: one thread). */
	if (b->renames % 2 && wt_op_rename(b->w, "/a/x", "/a/b", 0))
		b->rename_errors++;
	ph->fallbacks = fallbacks(&b->counts);
	ph->counts = b->counts;
	ph->walks = b->walks;
	ph->renames = b->renames;
	ph->seconds = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	snprintf(ph->binding, sizeof(ph->binding), "%s", res.binding);
	wt_run_result_free(&res);
	wt_rcu_reader_destroy(wt.rcu);
	wt_rcu_reader_destroy(rt.rcu);
	return rc == WT_RUN_OK ? 0 : -1;
}

static double per_100k(const struct phase *ph)
{
	return (double)ph->fallbacks * 100000.0 / (double)ph->walks;
}

static void report(const struct phase *ph)
{
	printf("walktorture: bench_stress_fallback %s walks=%" PRIu64
	       " fallbacks=%" PRIu64 " per_100000_walks=%.1f renames=%" PRIu64
	       " seconds=%.2f binding=\"%s\"\n", ph->name, ph->walks,
	       ph->fallbacks, per_100k(ph), ph->renames, ph->seconds,
	       ph->binding);
	/* which fallbacks: the reasons, greppable by the phase */
	for (unsigned i = 0; i < WT_PATH__COUNT; i++) {
		const struct wt_path_info *pi = wt_path_info((enum wt_path)i);

		if (ph->counts.counts[i] && (pi->kind == WT_PATH_KIND_UNLAZY ||
					     pi->kind == WT_PATH_KIND_RESTART))
			printf("walktorture: bench_stress_fallback %s path=%s "
			       "count=%" PRIu64 "\n", ph->name, pi->name,
			       ph->counts.counts[i]);
	}
}

static struct wt_world *world_create(void)
{
	struct wt_world_config cfg;
	struct wt_world *w;

	wt_world_config_default(&cfg);
	cfg.history = false;	/* a log of every rename would grow */
	w = wt_world_create(&cfg);
	if (!w || wt_ops_init(w) || wt_op_mkdir(w, "/a/b/c", 0755, true) ||
	    wt_op_create(w, "/a/b/c/f", 0644)) {
		fprintf(stderr, "bench_stress_fallback: building the tree failed\n");
		exit(2);
	}
	return w;
}

int main(int argc, char **argv)
{
	const char *rule = "at=seq.read thread=walker delay=uniform(0,80us) p=0.3";
	struct bench b = { .walks = argc > 1 ? strtoull(argv[1], NULL, 0) : 100000 };
	double min_ratio = argc > 2 ? strtod(argv[2], NULL) : 10.0, ratio;
	const char *cpus = argc > 3 ? argv[3] : "0,1";
	struct phase plain = { .name = "plain" }, delayed = { .name = "delayed" };
	int bad = 0;

	if (!b.walks)
		b.walks = 1;
	b.w = world_create();
	bad |= run_phase(&b, NULL, cpus, 1, &plain);
	bad |= run_phase(&b, rule, cpus, 1, &delayed);
	report(&plain);
	report(&delayed);
	/* No fallback at all without injection: compare with one. */
	ratio = per_100k(&delayed) /
		(plain.fallbacks ? per_100k(&plain) : 100000.0 / (double)plain.walks);
	printf("walktorture: bench_stress_fallback ratio=%.1f%s (delayed/plain, "
	       "target >= %.1f) rule=\"%s\"%s\n", ratio,
	       plain.fallbacks ? "" : " (plain had none: counted as one)",
	       min_ratio, rule, ratio < min_ratio || bad ? " !!!" : "");
	if (b.walk_errors || b.rename_errors)
		printf("walktorture: bench_stress_fallback !!! walk_errors=%" PRIu64
		       " rename_errors=%" PRIu64 "\n", b.walk_errors,
		       b.rename_errors);
	wt_ops_world_destroy(b.w);
	printf("%s\n", ratio >= min_ratio && !bad && !b.walk_errors &&
	       !b.rename_errors ? "PASS" : "FAIL");
	return ratio >= min_ratio && !bad && !b.walk_errors &&
	       !b.rename_errors ? 0 : 1;
}

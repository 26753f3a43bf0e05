/* SPDX-License-Identifier: MIT */
/*
 * Oracle cost: judging a walk's record against the history, against the
 * walk itself, in the same process (the oracle runs on every walk of
 * every iteration, so it must cost about what a walk costs, not more).
 *
 *   quiet:   sequential walks on a fixed tree (a deep path, a symlink, a
 *            mount, `..`, a miss); each record judged with one oracle,
 *            whose snapshot never moves
 *   writing: the same with a writer step (chmod) between walks, so every
 *            window starts one version later and the snapshot advances
 *   shared:  one oracle judging two walkers' records in alternation,
 *            their windows interleaved, so the second snapshot serves
 *            the walker that lags behind
 *
 * Each line: walk ns, oracle ns per walk, ratio oracle/walk, snapshot
 * entries applied and rebuilds per walk.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/namei.h"
#include "core/oracle.h"
#include "sim/history.h"
#include "sim/ops.h"
#include "sim/vfs/world.h"

static const char *const paths[] = {
	"/a/b/c/d/e/f/g", "/l/d/e", "/m/x/y", "/a/b/../b/c/d", "/a/b/nope",
	"a/b/c", "/m/x/../x/y", "/a/b/c/d/e/f/g/h",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void build(struct wt_world *w)
{
	if (wt_op_mkdir(w, "/a/b/c/d/e/f/g", 0755, true) ||
	    wt_op_create(w, "/a/b/c/d/e/f/g/h", 0644) ||
	    wt_op_symlink(w, "/a/b/c", "/l") ||
	    wt_op_mkdir(w, "/m", 0755, false) ||
	    wt_op_mount(w, "tmpfs", "t", "/m") ||
	    wt_op_mkdir(w, "/m/x/y", 0755, true)) {
		fprintf(stderr, "bench_oracle: building the tree failed\n");
		exit(1);
	}
}

struct phase {
	uint64_t walk_ns;
	uint64_t oracle_ns;
	uint64_t walks;
	uint64_t bad;
};

static void walk_and_judge(struct wt_walker *wk, struct wt_oracle *o,
			   const char *path, struct phase *ph)
{
	struct wt_oracle_input in = { .record = wk->record,
				      .cred = &wk->task->cred, .name = path };
	struct wt_oracle_result res;
	struct path p;
	uint64_t t0 = now_ns(), t1;
	int err = filename_lookup(wk, NULL, path, LOOKUP_FOLLOW, &p, NULL);

	t1 = now_ns();
	if (!err)
		path_put(&p);
	if (wt_oracle_judge(o, &in, &res) != WT_VERDICT_OK) {
		fprintf(stderr, "!!! %s: %s\n", path, res.explain);
		ph->bad++;
	}
	ph->oracle_ns += now_ns() - t1;
	ph->walk_ns += t1 - t0;
	ph->walks++;
}

static void report(const char *name, const struct phase *ph,
		   const struct wt_oracle_stats *before,
		   const struct wt_oracle_stats *after)
{
	double walks = (double)ph->walks;

	printf("walktorture: bench_oracle %-8s walk=%.0fns oracle=%.0fns "
	       "ratio=%.2f advances/walk=%.2f rebuilds/walk=%.4f%s\n", name,
	       (double)ph->walk_ns / walks, (double)ph->oracle_ns / walks,
	       (double)ph->oracle_ns / (double)ph->walk_ns,
	       (double)(after->advances - before->advances) / walks,
	       (double)(after->rebuilds - before->rebuilds) / walks,
	       ph->bad ? " !!! rejected walks" : "");
}

int main(int argc, char **argv)
{
	uint64_t rounds = argc > 1 ? strtoull(argv[1], NULL, 0) : 20000;
	struct wt_world *w = wt_ops_world_create(1);
	struct wt_record *rec[2] = { wt_record_create(0, 0), wt_record_create(0, 0) };
	struct wt_task task;
	struct wt_walker wk[2];
	struct wt_oracle *o;
	struct wt_oracle_stats s0, s1;
	struct phase quiet = { 0 }, writing = { 0 }, shared = { 0 };

	if (!w || !rec[0] || !rec[1])
		return 1;
	build(w);
	wt_task_init(&task, w, 0, 0);
	for (int k = 0; k < 2; k++)
		wk[k] = (struct wt_walker){ .task = &task, .record = rec[k] };
	o = wt_oracle_create(w->history);

	s0 = *wt_oracle_stats(o);
	for (uint64_t i = 0; i < rounds; i++)
		walk_and_judge(&wk[0], o, paths[i % NPATHS], &quiet);
	s1 = *wt_oracle_stats(o);
	report("quiet", &quiet, &s0, &s1);

	s0 = s1;
	for (uint64_t i = 0; i < rounds; i++) {
		walk_and_judge(&wk[0], o, paths[i % NPATHS], &writing);
		wt_op_chmod(w, "/a/b/c/d", 0755);
	}
	s1 = *wt_oracle_stats(o);
	report("writing", &writing, &s0, &s1);

	/* two walkers, the second's records judged one round late */
	s0 = s1;
	for (uint64_t i = 0; i < rounds; i++) {
		struct wt_oracle_input in = { .record = rec[1], .cred = &task.cred };
		struct wt_oracle_result res;
		uint64_t t0;

		walk_and_judge(&wk[0], o, paths[i % NPATHS], &shared);
		if (i) {
			in.name = paths[(i - 1) % NPATHS];
			t0 = now_ns();
			if (wt_oracle_judge(o, &in, &res) != WT_VERDICT_OK)
				shared.bad++;
			shared.oracle_ns += now_ns() - t0;
		}
		wt_op_chmod(w, "/a/b/c/d", 0755);
		{
			struct path p;

			t0 = now_ns();
			if (!filename_lookup(&wk[1], NULL, paths[i % NPATHS],
					     LOOKUP_FOLLOW, &p, NULL))
				path_put(&p);
			shared.walk_ns += now_ns() - t0;
			shared.walks++;
		}
		wt_op_chmod(w, "/a/b/c/d", 0755);
	}
	s1 = *wt_oracle_stats(o);
	report("shared", &shared, &s0, &s1);

	wt_oracle_destroy(o);
	wt_task_release(&task);
	wt_record_destroy(rec[0]);
	wt_record_destroy(rec[1]);
	wt_ops_world_destroy(w);
	return quiet.bad || writing.bad || shared.bad;
}

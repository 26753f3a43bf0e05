/* SPDX-License-Identifier: MIT */
/*
 * Hook cost on whole lookups: filename_lookup in RCU-walk on a realistic
 * tree (a deep path, a symlink, a mount, `..', a miss), with the hooks
 * compiled in but unarmed, against the same code -- all of core/ and
 * sim/ -- compiled with WT_NO_HOOKS (bench_lookup_nohooks, built from this
 * file).  Two copies of the whole model cannot share one executable, so
 * this program runs the other as a child and the two take turns: many
 * short rounds, alternating, so that a burst of load from elsewhere on
 * the machine (a build) hits both sides alike and some rounds of each
 * side run undisturbed.  It compares the best round of each (the ratio)
 * and prints the median of the ratios of neighbouring rounds beside it
 * (a second estimate; the two differing much says the machine was busy).
 *
 * Where the ratio comes from (x86-64, gcc 12): a lookup here reaches
 * about 135 points, 25 per component, 83 of them field loads.  Unarmed,
 * a point costs its test, `cmpb $0,%fs:wt_self_armed; jne' (about
 * 0.13 ns, bench_hooks), and the hot functions of the two builds differ
 * by little else (objdump -d; under callgrind the tests were about 270
 * of the 290 instructions a lookup gained on 4400): 6-8% of a 250 ns
 * lookup, ratio 1.06-1.07.  The field loads now pay no test of their
 * own: wt_access() compares the object's magic, which the poison check
 * loads anyway, with a thread-local that equals WT_OBJ_LIVE only while
 * nothing is armed (sim/thread.h, wt_access_key): 1.02-1.03.
 *
 *	bench_lookup [LOOKUPS [ROUNDS]]	both, and the ratio (target <= 1.03)
 *	bench_lookup_nohooks LOOKUPS	one round: "ns_per_lookup=X"
 *	bench_lookup_nohooks --serve	a round of N per "N" line on stdin
 */
#define _GNU_SOURCE	/* posix_spawn, open_memstream */
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/namei.h"
#include "core/paths.h"
#include "sim/ops.h"
#include "sim/vfs/world.h"

#define ROUNDS 15

static const char *const paths[] = {
	"/a/b/c/d/e/f/g/h", "/l/d/e", "/m/x/y", "/a/b/../b/c/d", "/a/b/nope",
	"/usr/lib/x86_64-linux-gnu/libc.so.6", "/m/x/../x/y", "/a/b/c/d/e/f/g",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct wt_world *build(void)
{
	struct wt_world *w = wt_ops_world_create(1);

	if (!w || wt_op_mkdir(w, "/a/b/c/d/e/f/g", 0755, true) ||
	    wt_op_create(w, "/a/b/c/d/e/f/g/h", 0644) ||
	    wt_op_symlink(w, "/a/b/c", "/l") ||
	    wt_op_mkdir(w, "/m", 0755, false) ||
	    wt_op_mount(w, "tmpfs", "t", "/m") ||
	    wt_op_mkdir(w, "/m/x/y", 0755, true) ||
	    wt_op_mkdir(w, "/usr/lib/x86_64-linux-gnu", 0755, true) ||
	    wt_op_create(w, "/usr/lib/x86_64-linux-gnu/libc.so.6", 0644)) {
		fprintf(stderr, "bench_lookup: building the tree failed\n");
		exit(2);
	}
	return w;
}

/* One round on w: ns per lookup; the paths' counters say they stayed RCU. */
static double round_ns(struct wt_world *w, uint64_t lookups, uint64_t *rcu_ok)
{
	struct wt_path_counts counts = { 0 };
	struct wt_task task;
	struct wt_walker wk = { .task = &task, .stats = &counts };
	uint64_t t0;
	double ns;

	wt_task_init(&task, w, 0, 0);
	t0 = now_ns();
	for (uint64_t i = 0; i < lookups; i++) {
		struct path p;

		if (!filename_lookup(&wk, NULL, paths[i % NPATHS], LOOKUP_FOLLOW,
				     &p, NULL))
			path_put(&p);
	}
	ns = (double)(now_ns() - t0) / (double)lookups;
	*rcu_ok = counts.counts[WT_PATH_RCU_OK] + counts.counts[WT_PATH_RCU_ERROR];
	wt_task_release(&task);
	return ns;
}

/* The child's side: one round per request line, on one world. */
static int serve(void)
{
	struct wt_world *w = build();
	char line[64];
	uint64_t ok;

	while (fgets(line, sizeof(line), stdin)) {
		uint64_t n = strtoull(line, NULL, 0);

		printf("ns_per_lookup=%.3f\n", round_ns(w, n ? n : 1, &ok));
		fflush(stdout);
	}
	wt_ops_world_destroy(w);
	return 0;
}

/* The nohooks sibling, serving rounds over two pipes. */
struct sibling {
	pid_t pid;
	FILE *to, *from;
};

static int sibling_start(struct sibling *c, const char *self)
{
	char exe[4096], serve_arg[] = "--serve";
	const char *slash = strrchr(self, '/');
	char *argv[] = { exe, serve_arg, NULL };
	int in[2], out[2];
	posix_spawn_file_actions_t fa;

	snprintf(exe, sizeof(exe), "%.*sbench_lookup_nohooks",
		 slash ? (int)(slash - self + 1) : 0, self);
	if (pipe(in))
		return -1;
	if (pipe(out)) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	if (posix_spawn(&c->pid, exe, &fa, NULL, argv, environ))
		c->pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	c->to = fdopen(in[1], "w");
	c->from = fdopen(out[0], "r");
	if (c->pid < 0 || !c->to || !c->from)
		return -1;
	return 0;
}

/* One round in the sibling: its ns per lookup, or -1. */
static double sibling_round(struct sibling *c, uint64_t lookups)
{
	char line[256];
	double ns = -1;

	fprintf(c->to, "%" PRIu64 "\n", lookups);
	fflush(c->to);
	if (fgets(line, sizeof(line), c->from))
		sscanf(line, "ns_per_lookup=%lf", &ns);
	return ns;
}

static int sibling_stop(struct sibling *c)
{
	int status = 0;

	if (c->to)
		fclose(c->to);
	if (c->from)
		fclose(c->from);
	if (c->pid < 0 || waitpid(c->pid, &status, 0) < 0)
		return -1;
	return status ? -1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	uint64_t lookups = argc > 1 ? strtoull(argv[1], NULL, 0) : 200000;
	int rounds = argc > 2 ? atoi(argv[2]) : ROUNDS;
	double hooks = 1e30, nohooks = 1e30, ratio, pair[1024];
	struct sibling c = { .pid = -1 };
	struct wt_world *w;
	uint64_t ok = 0;

	if (argc > 1 && strcmp(argv[1], "--serve") == 0)
		return serve();
	if (!lookups)
		lookups = 1;
	if (rounds < 1 || rounds > 1024)
		rounds = ROUNDS;
#ifdef WT_NO_HOOKS
	w = build();
	printf("ns_per_lookup=%.3f\n", round_ns(w, lookups, &ok));
	wt_ops_world_destroy(w);
	return 0;
#endif
	if (sibling_start(&c, argv[0])) {
		fprintf(stderr, "bench_lookup: !!! cannot start bench_lookup_nohooks\n");
		return 2;
	}
	w = build();
	/* A round of each first, unmeasured: page faults, cold caches. */
	round_ns(w, lookups, &ok);
	if (sibling_round(&c, lookups) < 0)
		goto failed;
	for (int r = 0; r < rounds; r++) {
		/* Alternate who goes first, so that neither side always
		 * runs right after the switch. */
		double h, n;

		if (r & 1) {
			n = sibling_round(&c, lookups);
			h = round_ns(w, lookups, &ok);
		} else {
			h = round_ns(w, lookups, &ok);
			n = sibling_round(&c, lookups);
		}
		if (n <= 0)
			goto failed;
		hooks = h < hooks ? h : hooks;
		nohooks = n < nohooks ? n : nohooks;
		pair[r] = h / n;
	}
	wt_ops_world_destroy(w);
	if (sibling_stop(&c))
		goto failed_stopped;
	qsort(pair, (size_t)rounds, sizeof(pair[0]), cmp_double);
	ratio = hooks / nohooks;
	printf("walktorture: bench_lookup lookups=%" PRIu64 "x%d rcu_walks=%" PRIu64
	       " hooks_unarmed=%.1fns nohooks=%.1fns ratio=%.3f (target <= 1.03)"
	       " median_pair_ratio=%.3f%s\n",
	       lookups, rounds, ok, hooks, nohooks, ratio, pair[rounds / 2],
	       ratio > 1.03 ? " !!!" : "");
	return 0;
failed:
	sibling_stop(&c);
failed_stopped:
	fprintf(stderr, "bench_lookup: !!! bench_lookup_nohooks failed\n");
	return 2;
}

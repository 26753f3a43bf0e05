/* SPDX-License-Identifier: MIT */
/*
 * Hook cost on whole lookups: filename_lookup in RCU-walk on a realistic
 * tree (a deep path, a symlink, a mount, `..', a miss), with the hooks
 * compiled in but unarmed, against the same code -- all of core/ and
 * sim/ -- compiled with WT_NO_HOOKS (bench_lookup_nohooks, built from this
 * file).  Two copies of the whole model cannot share one executable, so
 * this program runs the other as a child, alternating three rounds each,
 * and compares the best round of each: one run prints the ratio.
 *
 *	bench_lookup [LOOKUPS]		both, and the ratio (target <= 1.03)
 *	bench_lookup_nohooks LOOKUPS	one round: "ns_per_lookup=X"
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

#define ROUNDS 3

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

/* One round: ns per lookup; the paths' counters say they stayed RCU. */
static double round_ns(uint64_t lookups, uint64_t *rcu_ok)
{
	struct wt_world *w = build();
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
	wt_ops_world_destroy(w);
	return ns;
}

/* Run the nohooks sibling once; its ns per lookup, or -1. */
static double child_ns(const char *self, uint64_t lookups)
{
	char exe[4096], arg[32], line[256] = "";
	const char *slash = strrchr(self, '/');
	char *argv[] = { exe, arg, NULL };
	int fds[2], status;
	pid_t pid;
	FILE *f;
	double ns = -1;

	snprintf(exe, sizeof(exe), "%.*sbench_lookup_nohooks",
		 slash ? (int)(slash - self + 1) : 0, self);
	snprintf(arg, sizeof(arg), "%" PRIu64, lookups);
	if (pipe(fds))
		return -1;
	{
		posix_spawn_file_actions_t fa;

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
		posix_spawn_file_actions_addclose(&fa, fds[0]);
		if (posix_spawn(&pid, exe, &fa, NULL, argv, environ))
			pid = -1;
		posix_spawn_file_actions_destroy(&fa);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (f && fgets(line, sizeof(line), f))
		sscanf(line, "ns_per_lookup=%lf", &ns);
	if (f)
		fclose(f);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || status)
		return -1;
	return ns;
}

int main(int argc, char **argv)
{
	uint64_t lookups = argc > 1 ? strtoull(argv[1], NULL, 0) : 2000000;
	double hooks = 1e30, nohooks = 1e30, ratio;
	uint64_t ok = 0;

	if (!lookups)
		lookups = 1;
#ifdef WT_NO_HOOKS
	printf("ns_per_lookup=%.3f\n", round_ns(lookups, &ok));
	return 0;
#endif
	for (int r = 0; r < ROUNDS; r++) {
		double h = round_ns(lookups, &ok), n = child_ns(argv[0], lookups);

		if (n < 0) {
			fprintf(stderr, "bench_lookup: !!! bench_lookup_nohooks failed\n");
			return 2;
		}
		hooks = h < hooks ? h : hooks;
		nohooks = n < nohooks ? n : nohooks;
	}
	ratio = hooks / nohooks;
	printf("walktorture: bench_lookup lookups=%" PRIu64 " rcu_walks=%" PRIu64
	       " hooks_unarmed=%.1fns nohooks=%.1fns ratio=%.3f (target <= 1.03)%s\n",
	       lookups, ok, hooks, nohooks, ratio, ratio > 1.03 ? " !!!" : "");
	return 0;
}

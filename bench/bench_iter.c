/* SPDX-License-Identifier: MIT */
/*
 * Simulator throughput: what an iteration costs against the work in it,
 * side by side in one run.
 *
 *	bench_iter [ITERATIONS [ROUNDS]] [SCENARIO.yaml[.undirected]...]
 *	bench_iter_nohooks --serve	bare rounds, one per request line
 *
 * For each scenario (default: a directed one, its undirected twin, a
 * memory=tso one, a set of generated workloads and the random soak
 * workload), this program runs ITERATIONS
 * iterations exactly as `walktorture run' does (sim mode, seed 0x5eed:
 * world from the tree or its snapshot, fibers, policy, oracle, checks)
 * and takes the CPU time of the calling thread, which runs every fiber.
 * Each thread's ops (walks and writer verbs) of that run are counted,
 * and the sibling
 * bench_iter_nohooks -- this file built against core/, sim/ and
 * scenarios/ with the injection hooks compiled out (WT_NO_HOOKS, as
 * bench_lookup_nohooks) -- runs the same ops bare: per iteration a world
 * built from the same tree (not timed), then thread after thread its
 * share of the run's ops in program order, through the same entry points
 * (wt_scn_walk_run, wt_scn_verb_exec), with no step record, no oracle,
 * no scheduler, no trace; only those ops are timed.  A thread's ops are
 * spread evenly over the iterations (the run's per-thread sums, not each
 * iteration's own count).  The two sides take turns, ROUNDS rounds (3,
 * at most 64), best of each, and the line reads
 *
 *	bench_iter: NAME iterations=N sim_us=S bare_us=B overhead=S/B
 *		iter_per_s=I ops_per_iter=O round_overheads=LO..HI
 *
 * sim_us and bare_us per iteration; overhead is the factor issue 19
 * bounds (<= 3 for the twin, <= 5 for the others); round_overheads the
 * lowest and highest of each round's own sim/bare (the two turns of a
 * round are back to back): how much the machine moved the factor while
 * it was measured, which best-of-rounds alone hides; iter_per_s is
 * 1e6 / sim_us, CPU time, not wall time (the machine is shared).  Both
 * sides use CLOCK_THREAD_CPUTIME_ID.  Not a ctest test by default: run
 * it from a release build (ctest --preset bench runs bench.iter).
 *
 * Generated workloads (what `walktorture fuzz' runs) are named by spec:
 * gen:SEED:J is workload J of fuzz seed SEED (generator WT_GEN_VERSION,
 * the text `fuzz --seed SEED --first J' runs, its own policy and memory
 * model), and gen:SEED:J..K the workloads J to K-1 as one set: each is
 * measured as above (a line `bench_iter_workload: gen.HEX ...'), and
 * the set's line `bench_iter: gen:SEED:J..K ...' has the mean sim_us
 * and bare_us of its workloads, so that its overhead is the set's
 * sum(sim) / sum(bare), each workload weighed by what it costs.  The
 * default set is gen:1:0..40.  Each workload runs ITERATIONS
 * iterations; fuzz runs 20 a workload, and what a workload costs once
 * (load, first build, snapshot) is not in these figures.
 */
#define _GNU_SOURCE	/* posix_spawn */
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scenarios/src/generate.h"
#include "scenarios/src/iter.h"
#include "scenarios/src/runner.h"
#include "sim/inject.h"
#include "sim/resolve.h"

#define ROUNDS		3
#define SEED		0x5eed
#define TWIN_SUFFIX	".undirected"
#define GEN_PREFIX	"gen:"

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#ifdef WT_NO_HOOKS
/*
 * The bare side needs the tree and the threads only; with the hooks
 * compiled out there are no points, so a file naming one (schedule,
 * inject, point expectations) would not load.  The file is loaded from a
 * copy without its top-level `schedule:', `inject:' and `expect:' blocks
 * (a block runs to the next line that starts in column 1).
 */
static char *bare_copy(const char *file)
{
	static const char *const drop[] = { "schedule:", "inject:", "expect:" };
	char tmp[] = "/tmp/bench_iter-XXXXXX", line[4096];
	FILE *in = fopen(file, "r"), *out;
	bool skipping = false;
	int fd = mkstemp(tmp);

	if (!in || fd < 0 || !(out = fdopen(fd, "w"))) {
		if (in)
			fclose(in);
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return NULL;
	}
	while (fgets(line, sizeof(line), in)) {
		bool top = line[0] != ' ' && line[0] != '\t' &&
			   line[0] != '\n' && line[0] != '#' && line[0] != '-';

		if (top) {
			skipping = false;
			for (size_t i = 0; i < sizeof(drop) / sizeof(*drop); i++)
				if (!strncmp(line, drop[i], strlen(drop[i])))
					skipping = true;
		}
		if (!skipping)
			fputs(line, out);
	}
	fclose(in);
	if (fclose(out)) {
		unlink(tmp);
		return NULL;
	}
	return strdup(tmp);
}
#endif

/* FILE or FILE.undirected (the twin of a directed FILE); the bare side
 * loads FILE without its points (bare_copy), the same threads. */
static struct wt_scenario *load_file(const char *spec)
{
	struct wt_scn_error err = { 0 };
	size_t n = strlen(spec), k = strlen(TWIN_SUFFIX);
	bool twin = n > k && !strcmp(spec + n - k, TWIN_SUFFIX);
	char *file = strndup(spec, twin ? n - k : n);
	struct wt_scenario *s;

#ifdef WT_NO_HOOKS
	char *copy = file ? bare_copy(file) : NULL;

	free(file);
	file = copy;
	twin = false;
#endif
	s = file ? wt_scenario_load(file, NULL, &err) : NULL;
#ifdef WT_NO_HOOKS
	if (file)
		unlink(file);
#endif
	free(file);
	if (s && twin && wt_scenario_undirect(s, &err)) {
		wt_scenario_free(s);
		s = NULL;
	}
	if (!s)
		fprintf(stderr, "bench_iter: %s\n", err.text[0] ? err.text :
			"out of memory");
	return s;
}

/* gen:SEED:J -- workload J of fuzz seed SEED, through a file of its own
 * (both sides generate the same text). */
static struct wt_scenario *load_gen(const char *spec)
{
	struct wt_gen_config c = { .policy = -1 };
	char file[] = "/tmp/bench_iter-gen-XXXXXX", name[64], *text;
	unsigned long long seed, j;
	struct wt_scenario *s = NULL;
	int fd, used = 0;
	FILE *f;

	if (sscanf(spec, GEN_PREFIX "%lli:%lli%n", &seed, &j, &used) != 2 ||
	    spec[used]) {
		fprintf(stderr, "bench_iter: %s: not gen:SEED:J\n", spec);
		return NULL;
	}
	text = wt_gen_workload(wt_gen_seed(seed, j), &c, name, sizeof(name));
	fd = text ? mkstemp(file) : -1;
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		free(text);
		return NULL;
	}
	fputs(text, f);
	free(text);
	if (!fclose(f))
		s = load_file(file);
	unlink(file);
	return s;
}

/* A scenario file, its twin, or a generated workload (gen:SEED:J). */
static struct wt_scenario *load(const char *spec)
{
	if (!strncmp(spec, GEN_PREFIX, strlen(GEN_PREFIX)))
		return load_gen(spec);
	return load_file(spec);
}

#ifdef WT_NO_HOOKS

/* --- the bare side --- */

struct bare_thread {
	const struct wt_scn_thread *th;
	struct wt_task task;
	struct path *dirs;	/* [nops] */
	struct wt_path_counts counts;
};

static int bare_setup(const struct wt_scenario *s, struct wt_world *w,
		      struct bare_thread *bt)
{
	for (unsigned i = 0; i < s->nthreads; i++) {
		const struct wt_scn_thread *th = &s->threads[i];

		bt[i].th = th;
		wt_task_init(&bt[i].task, w, th->uid, th->gid);
		bt[i].dirs = calloc(th->nops + 1, sizeof(*bt[i].dirs));
		if (!bt[i].dirs)
			return -1;
		for (unsigned j = 0; j < th->nops; j++)
			if (th->ops[j].kind == WT_SCN_OP_WALK &&
			    th->ops[j].walk.dir &&
			    wt_scn_resolve(w, th->ops[j].walk.dir, &bt[i].dirs[j]))
				return -1;
		if (th->cwd) {
			struct path cwd;

			if (wt_scn_resolve(w, th->cwd, &cwd))
				return -1;
			wt_path_put(&bt[i].task.pwd);
			bt[i].task.pwd = cwd;
		}
	}
	return 0;
}

static void bare_teardown(const struct wt_scenario *s, struct bare_thread *bt)
{
	for (unsigned i = 0; i < s->nthreads; i++) {
		for (unsigned j = 0; bt[i].dirs && j < bt[i].th->nops; j++)
			if (bt[i].dirs[j].dentry)
				wt_path_put(&bt[i].dirs[j]);
		free(bt[i].dirs);
		wt_task_release(&bt[i].task);
	}
}

/* n ops of bt's program from its start, looping as the body does (a
 * `loop: 0' block and the program itself repeat as long as ops are left). */
static void bare_ops(const struct wt_scenario *s, struct bare_thread *bt,
		     struct wt_world *w, uint64_t n)
{
	const struct wt_scn_thread *th = bt->th;
	uint64_t left[WT_SCN_LOOP_DEPTH];
	unsigned depth = 0, pc = 0;
	uint64_t pass_start = n;

	while (n) {
		const struct wt_scn_op *op;

		if (pc >= th->nops) {
			if (n == pass_start)
				return;	/* a program of no ops */
			pc = depth = 0;
			pass_start = n;
			continue;
		}
		op = &th->ops[pc];
		switch (op->kind) {
		case WT_SCN_OP_WALK:
			wt_scn_walk_run(&bt->task, &bt->counts, NULL,
					s->protected_symlinks, &op->walk,
					bt->dirs[pc].dentry ? &bt->dirs[pc] : NULL);
			n--;
			pc++;
			break;
		case WT_SCN_OP_VERB:
			wt_scn_verb_exec(op->verb, w, &bt->task);
			n--;
			pc++;
			break;
		case WT_SCN_OP_FAULT:	/* tests of crash isolation only */
			pc++;
			break;
		case WT_SCN_OP_LOOP:
			left[depth++] = op->count;
			pc++;
			break;
		case WT_SCN_OP_END:
			if (left[depth - 1] == 0 || --left[depth - 1] > 0) {
				pc = op->match + 1;
			} else {
				depth--;
				pc++;
			}
			break;
		}
	}
}

/* One bare round: seconds of CPU for the ops alone, or -1. */
static double bare_round(const struct wt_scenario *s, uint64_t iterations,
			 const uint64_t *ops)
{
	struct bare_thread bt[WT_SCN_THREADS_MAX];
	double total = 0;

	for (uint64_t k = 0; k < iterations; k++) {
		struct wt_scn_error err = { 0 };
		struct wt_world *w = wt_scn_world_build(s, k + 1, 0, &err);
		double t0;

		if (!w) {
			fprintf(stderr, "bench_iter_nohooks: %s\n", err.text);
			return -1;
		}
		memset(bt, 0, sizeof(bt));
		if (bare_setup(s, w, bt)) {
			fprintf(stderr, "bench_iter_nohooks: %s: a thread's "
				"directory is not in the tree\n", s->name);
			return -1;
		}
		t0 = cpu_s();
		for (unsigned i = 0; i < s->nthreads; i++)
			bare_ops(s, &bt[i], w, ops[i] * (k + 1) / iterations -
						ops[i] * k / iterations);
		total += cpu_s() - t0;
		bare_teardown(s, bt);
		wt_scn_world_destroy(w);
	}
	return total;
}

/* Request: "SPEC ITERATIONS OPS0 OPS1 ..."; reply "bare_s=X" (-1: failed). */
static int serve(void)
{
	char line[8192], spec[4096];

	wt_points_catalogue();
	while (fgets(line, sizeof(line), stdin)) {
		uint64_t iterations, ops[WT_SCN_THREADS_MAX] = { 0 };
		struct wt_scenario *s;
		char *p = line;
		int used;
		double t = -1;

		if (sscanf(p, "%4095s %" SCNu64 "%n", spec, &iterations,
			   &used) != 2)
			return 2;
		p += used;
		for (unsigned i = 0; i < WT_SCN_THREADS_MAX &&
		     sscanf(p, "%" SCNu64 "%n", &ops[i], &used) == 1; i++)
			p += used;
		s = load(spec);
		if (s && iterations)
			t = bare_round(s, iterations, ops);
		if (s)
			wt_scenario_free(s);
		printf("bare_s=%.9f\n", t);
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--serve"))
		return serve();
	fprintf(stderr, "usage: bench_iter_nohooks --serve (run by bench_iter)\n");
	return 2;
}

#else /* the simulated side, and the driver */

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

	snprintf(exe, sizeof(exe), "%.*sbench_iter_nohooks",
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
	return c->pid < 0 || !c->to || !c->from ? -1 : 0;
}

static double sibling_round(struct sibling *c, const char *spec,
			    unsigned nthreads, uint64_t iterations,
			    const uint64_t *ops)
{
	char line[256];
	double t = -1;

	fprintf(c->to, "%s %" PRIu64, spec, iterations);
	for (unsigned i = 0; i < nthreads; i++)
		fprintf(c->to, " %" PRIu64, ops[i]);
	fprintf(c->to, "\n");
	fflush(c->to);
	if (fgets(line, sizeof(line), c->from))
		sscanf(line, "bare_s=%lf", &t);
	return t;
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

/* One simulated round: CPU seconds, the per-thread ops in ops; -1 when
 * the run failed. */
static double sim_round(const struct wt_scenario *s, uint64_t iterations,
			FILE *null, uint64_t *ops)
{
	struct wt_scn_opts o = {
		.seed = SEED, .mode = WT_SCN_SIM, .memory = -1,
		.iterations = iterations, .out = null,
	};
	struct wt_scn_result r;
	double t0 = cpu_s(), t;

	if (wt_scn_run(s, &o, &r))
		return -1;
	t = cpu_s() - t0;
	/* A directed file's exact `path N == 1' sums fail over N > 1
	 * iterations by design; anything an iteration itself found fails. */
	if (r.checks || r.oracle_rejected || r.result_mismatches ||
	    r.deadlocks || r.stuck || r.schedule_errors) {
		fprintf(stderr, "bench_iter: %s failed\n", s->name);
		t = -1;
	}
	memcpy(ops, r.thread_ops, sizeof(r.thread_ops));
	wt_scn_result_free(&r);
	return t;
}

#define ROUNDS_MAX	64

/*
 * One scenario's figures: per iteration, the best round of each side,
 * and each round's own two times (the sides' turns back to back), whose
 * ratios say how far the machine moved the overhead during the run.
 */
struct figures {
	double sim_us, bare_us, ops;
	double round_sim[ROUNDS_MAX], round_bare[ROUNDS_MAX];
};

static void print_figures(const char *tag, const char *name,
			  uint64_t iterations, int rounds,
			  const struct figures *f)
{
	double lo = 1e30, hi = 0;

	for (int r = 0; r < rounds; r++) {
		double x = f->round_sim[r] / f->round_bare[r];

		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	printf("%s: %s iterations=%" PRIu64 " sim_us=%.2f bare_us=%.2f "
	       "overhead=%.2f iter_per_s=%.0f ops_per_iter=%.1f "
	       "round_overheads=%.2f..%.2f\n", tag, name, iterations,
	       f->sim_us, f->bare_us, f->sim_us / f->bare_us,
	       1e6 / f->sim_us, f->ops, lo, hi);
	fflush(stdout);
}

static double min_of(const double *v, int n)
{
	double m = v[0];

	for (int i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static int measure(struct sibling *c, const char *spec, uint64_t iterations,
		   int rounds, FILE *null, const char *tag, struct figures *f)
{
	struct wt_scenario *s = load(spec);
	uint64_t ops[WT_SCN_THREADS_MAX] = { 0 }, total = 0;

	if (!s)
		return -1;
	for (int round = 0; round < rounds; round++) {
		double ts = sim_round(s, iterations, null, ops);
		double tb = ts < 0 ? -1 :
			    sibling_round(c, spec, s->nthreads, iterations, ops);

		if (ts < 0 || tb < 0) {
			fprintf(stderr, "bench_iter: %s: a round failed\n",
				s->name);
			wt_scenario_free(s);
			return -1;
		}
		f->round_sim[round] = ts;
		f->round_bare[round] = tb;
	}
	for (unsigned i = 0; i < s->nthreads; i++)
		total += ops[i];
	/* the best round of each side */
	f->sim_us = min_of(f->round_sim, rounds) * 1e6 / (double)iterations;
	f->bare_us = min_of(f->round_bare, rounds) * 1e6 / (double)iterations;
	f->ops = (double)total / (double)iterations;
	print_figures(tag, s->name, iterations, rounds, f);
	wt_scenario_free(s);
	return 0;
}

/*
 * gen:SEED:J..K: each workload on its own line, then the set's, whose
 * figures are the workloads' means (its overhead: sum(sim) / sum(bare)).
 */
static int measure_set(struct sibling *c, const char *spec,
		       uint64_t iterations, int rounds, FILE *null)
{
	unsigned long long seed, j, k;
	struct figures sum = { 0 };
	int used = 0;

	if (sscanf(spec, GEN_PREFIX "%lli:%lli..%lli%n", &seed, &j, &k,
		   &used) != 3 || spec[used] || j >= k) {
		fprintf(stderr, "bench_iter: %s: not gen:SEED:J..K (J < K)\n",
			spec);
		return -1;
	}
	for (unsigned long long i = j; i < k; i++) {
		char one[64];
		struct figures f;

		snprintf(one, sizeof(one), GEN_PREFIX "%llu:%llu", seed, i);
		if (measure(c, one, iterations, rounds, null,
			    "bench_iter_workload", &f))
			return -1;
		sum.sim_us += f.sim_us / (double)(k - j);
		sum.bare_us += f.bare_us / (double)(k - j);
		sum.ops += f.ops / (double)(k - j);
		for (int r = 0; r < rounds; r++) {
			sum.round_sim[r] += f.round_sim[r];
			sum.round_bare[r] += f.round_bare[r];
		}
	}
	print_figures("bench_iter", spec, iterations, rounds, &sum);
	return 0;
}

static int bench_one(struct sibling *c, const char *spec, uint64_t iterations,
		     int rounds, FILE *null)
{
	struct figures f;

	if (!strncmp(spec, GEN_PREFIX, strlen(GEN_PREFIX)) &&
	    strstr(spec, ".."))
		return measure_set(c, spec, iterations, rounds, null);
	return measure(c, spec, iterations, rounds, null, "bench_iter", &f);
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = {
		WT_SOURCE_DIR "/scenarios/echild/restart.step_into.child_seq.yaml",
		WT_SOURCE_DIR "/scenarios/echild/restart.step_into.child_seq.yaml"
			TWIN_SUFFIX,
		WT_SOURCE_DIR "/scenarios/zoo/seq_no_barrier.yaml",
		GEN_PREFIX "1:0..40",
		WT_SOURCE_DIR "/scenarios/soak/mixed.sim.yaml",
	};
	uint64_t iterations = argc > 1 ? strtoull(argv[1], NULL, 0) : 2000;
	int rounds = argc > 2 ? atoi(argv[2]) : ROUNDS;
	struct sibling c = { .pid = -1 };
	FILE *null = fopen("/dev/null", "w");
	int ret = 0;

	if (!null || !iterations || rounds < 1 || rounds > ROUNDS_MAX) {
		fprintf(stderr, "usage: bench_iter [ITERATIONS [ROUNDS]] "
			"[SCENARIO.yaml[.undirected]|gen:SEED:J[..K]...]\n");
		return 2;
	}
	wt_points_catalogue();
	if (sibling_start(&c, argv[0])) {
		fprintf(stderr, "bench_iter: !!! cannot start bench_iter_nohooks\n");
		sibling_stop(&c);
		return 1;
	}
	if (argc > 3) {
		for (int i = 3; i < argc; i++)
			ret |= bench_one(&c, argv[i], iterations, rounds, null);
	} else {
		for (size_t i = 0; i < sizeof(defaults) / sizeof(*defaults); i++)
			ret |= bench_one(&c, defaults[i], iterations, rounds,
					 null);
	}
	if (sibling_stop(&c))
		ret = 1;
	fclose(null);
	return ret ? 1 : 0;
}

#endif

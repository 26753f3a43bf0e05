/* SPDX-License-Identifier: MIT */
/*
 * Crash isolation: one scenario in a forked child, watched by its parent.
 *
 * The harness exists to run broken code: a bug in core/ (or in the
 * model) may crash the process or hang it.  Run in the process that runs
 * the night, one such scenario would take every later one down with it.
 * So wt_scn_run_all forks a child per scenario.  The child runs
 * wt_scn_run with its lines going to a memory stream, then sends the
 * result back through a pipe: the struct as it is (the scenario pointer
 * is the parent's too, fork copied the address space), its arrays, the
 * failures as JSON and the lines.  A page of shared memory (struct
 * wt_scn_live) holds the iteration the child is in, so that when it dies
 * the parent can say which iteration, and under which seed, died.
 *
 * The parent reads the pipe (it must: the result may be larger than the
 * pipe's buffer) and watches the beat: an iteration that runs longer
 * than the scenario's `timeout' (the stress watchdog's, 60 s unless
 * set) plus WT_SCN_HANG_GRACE_S is hung -- a stuck teardown, a spinning
 * fiber, an uninterruptible wait -- and the child is killed.
 */
#define _GNU_SOURCE	/* strsignal */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scenarios/src/isolate.h"
#include "scenarios/src/iter.h"
#include "scenarios/src/sanitizer.h"
#include "scenarios/src/triage.h"
#include "sim/sched/interrupt.h"

/* --- the child --- */

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One length-prefixed piece. */
static int send_piece(int fd, const void *p, size_t len)
{
	uint64_t n = len;

	return write_all(fd, &n, sizeof(n)) || (len && write_all(fd, p, len));
}

static __attribute__((noreturn)) void child(const struct wt_scenario *s,
					     const struct wt_scn_opts *o,
					     struct wt_scn_live *live, int fd)
{
	struct wt_scn_opts co = *o;
	struct wt_scn_result r;
	char *text = NULL, *fails = NULL, *groups = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int32_t ret;
	unsigned ne = s->nexpects;

	/* SIGINT/SIGTERM: stop at an iteration boundary and send what it
	 * has; if the parent is gone (a second Ctrl-C), die with it */
	wt_interrupt_child();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	co.isolate = false;
	co.live = live;
	co.out = mem ? mem : stdout;
	ret = wt_scn_run(s, &co, &r);
	if (mem)
		fclose(mem);
	fails = json_dumps(r.failures, JSON_COMPACT);
	groups = json_dumps(r.groups, JSON_COMPACT);
	if (send_piece(fd, &ret, sizeof(ret)) ||
	    send_piece(fd, &r, sizeof(r)) ||
	    send_piece(fd, r.points, r.npoints * sizeof(*r.points)) ||
	    send_piece(fd, r.expect_ok, ne * sizeof(*r.expect_ok)) ||
	    send_piece(fd, r.expect_bad, ne * sizeof(*r.expect_bad)) ||
	    send_piece(fd, r.expect_unseen, ne * sizeof(*r.expect_unseen)) ||
	    send_piece(fd, r.expect_actual, ne * sizeof(*r.expect_actual)) ||
	    send_piece(fd, fails, fails ? strlen(fails) : 0) ||
	    send_piece(fd, groups, groups ? strlen(groups) : 0) ||
	    send_piece(fd, text, mem ? len : 0))
		_exit(3);
	fflush(NULL);	/* a replay's trace went to stdout */
	_exit(0);
}

/* --- the parent --- */

/* The next piece of b from *off into dst (exactly want bytes, or any
 * length when want is SIZE_MAX: then *got and a malloc'd copy). */
static int take(const struct wt_scn_blob *b, size_t *off, void *dst, size_t want,
		char **copy, size_t *got)
{
	uint64_t n;

	if (b->len - *off < sizeof(n))
		return -1;
	memcpy(&n, b->p + *off, sizeof(n));
	*off += sizeof(n);
	if (n > b->len - *off || (want != SIZE_MAX && n != want))
		return -1;
	if (copy) {
		*copy = malloc(n + 1);
		if (!*copy)
			return -1;
		memcpy(*copy, b->p + *off, n);
		(*copy)[n] = '\0';
		*got = n;
	} else if (n) {
		memcpy(dst, b->p + *off, n);
	}
	*off += n;
	return 0;
}

/* Rebuild r (already initialised by wt_scn_result_init, which allocated
 * its arrays) from the child's pieces, and print the child's lines. */
static int unpack(const struct wt_scn_blob *b, struct wt_scn_result *r, FILE *out,
		  int *ret)
{
	const struct wt_scenario *s = r->s;
	unsigned ne = s->nexpects;
	struct wt_scn_result got;
	char *fails = NULL, *text = NULL, *groups = NULL;
	size_t off = 0, n;
	json_t *fj, *gj;
	int32_t rv;

	if (take(b, &off, &rv, sizeof(rv), NULL, NULL) ||
	    take(b, &off, &got, sizeof(got), NULL, NULL) ||
	    got.npoints != r->npoints || got.s != s ||
	    take(b, &off, r->points, r->npoints * sizeof(*r->points), NULL, NULL) ||
	    take(b, &off, r->expect_ok, ne * sizeof(*r->expect_ok), NULL, NULL) ||
	    take(b, &off, r->expect_bad, ne * sizeof(*r->expect_bad), NULL, NULL) ||
	    take(b, &off, r->expect_unseen, ne * sizeof(*r->expect_unseen),
		 NULL, NULL) ||
	    take(b, &off, r->expect_actual, ne * sizeof(*r->expect_actual),
		 NULL, NULL) ||
	    take(b, &off, NULL, SIZE_MAX, &fails, &n) ||
	    take(b, &off, NULL, SIZE_MAX, &groups, &n) ||
	    take(b, &off, NULL, SIZE_MAX, &text, &n)) {
		free(fails);
		free(groups);
		return -1;
	}
	fj = json_loads(fails, 0, NULL);
	gj = json_loads(groups, 0, NULL);
	free(fails);
	free(groups);
	if (!json_is_array(fj) || !json_is_array(gj)) {
		json_decref(fj);
		json_decref(gj);
		free(text);
		return -1;
	}
	/* the child's arrays are the parent's now */
	got.points = r->points;
	got.expect_ok = r->expect_ok;
	got.expect_bad = r->expect_bad;
	got.expect_unseen = r->expect_unseen;
	got.expect_actual = r->expect_actual;
	json_decref(r->failures);
	json_decref(r->groups);
	got.failures = fj;
	got.groups = gj;
	*r = got;
	*ret = rv;
	fwrite(text, 1, n, out);
	fflush(out);
	free(text);
	return 0;
}

static const char *sig_name(int sig)
{
	static const struct { int sig; const char *name; } names[] = {
		{ SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" },
		{ SIGABRT, "SIGABRT" }, { SIGFPE, "SIGFPE" },
		{ SIGILL, "SIGILL" }, { SIGKILL, "SIGKILL" },
		{ SIGTERM, "SIGTERM" }, { SIGINT, "SIGINT" },
		{ SIGTRAP, "SIGTRAP" }, { SIGSYS, "SIGSYS" },
		{ SIGPIPE, "SIGPIPE" }, { SIGXCPU, "SIGXCPU" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			return names[i].name;
	return "signal";
}

/*
 * The result of a child that died (crash) or was killed (hang): what the
 * shared page says it got through, and one failure naming the iteration,
 * its seed and the replay of that seed -- in sim mode the replay runs the
 * same iteration, so it crashes (or hangs) the same way.
 */
static void lost_child(struct wt_scn_result *r, const struct wt_scn_opts *o,
		       const struct wt_scn_live *live, bool hang, int status,
		       double stall, double secs)
{
	const struct wt_scenario *s = r->s;
	char msg[512 + sizeof(live->stuck)], replay[1536], seed[24];
	uint32_t stuck = __atomic_load_n(&live->stuck_len, __ATOMIC_ACQUIRE);
	uint64_t it = live->iteration, iseed = live->seed;
	bool started = live->beat != 0;
	json_t *f;

	if (!started)	/* died before its first iteration (calibration) */
		iseed = o->replay ? r->seed : wt_seed_iteration(r->seed, 0);
	if (hang)
		snprintf(msg, sizeof(msg), "no progress for %.0f s in iteration %"
			 PRIu64 ", %.0f s into the run: killed (timeout %" PRIu64
			 " ms + %d s)%s%.*s", stall, it, secs, s->timeout_ms,
			 WT_SCN_HANG_GRACE_S, stuck ? "; the stress watchdog "
			 "had found it " : "", (int)stuck, live->stuck);
	else if (WIFSIGNALED(status))
		snprintf(msg, sizeof(msg), "the harness died of %s (%s) in "
			 "iteration %" PRIu64, sig_name(WTERMSIG(status)),
			 strsignal(WTERMSIG(status)), it);
	else if (WIFEXITED(status) &&
		 WEXITSTATUS(status) == WT_EXIT_SANITIZER)
		snprintf(msg, sizeof(msg), "the harness's sanitizer reported "
			 "an error (exit %d; its report is on stderr) in "
			 "iteration %" PRIu64, WT_EXIT_SANITIZER, it);
	else
		snprintf(msg, sizeof(msg), "the harness exited with status %d "
			 "in iteration %" PRIu64 " without a result",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, it);
	r->sanitizer = !hang && WIFEXITED(status) &&
		       WEXITSTATUS(status) == WT_EXIT_SANITIZER;
	wt_scn_replay_cmd(replay, sizeof(replay), s, iseed, o);
	snprintf(seed, sizeof(seed), "%#" PRIx64, iseed);
	f = json_pack("{s:s, s:n, s:s, s:I, s:s, s:n, s:s, s:o}",
		      "kind", hang ? "hang" : "crash", "check", "message", msg,
		      "iteration", (json_int_t)it, "seed", seed, "thread",
		      "replay", replay, "schedule", wt_scn_schedule_json(s));
	if (!hang && WIFSIGNALED(status))
		json_object_set_new(f, "signal",
				    json_string(sig_name(WTERMSIG(status))));
	r->iterations = live->done;
	r->nfailures = live->nfailures + 1;
	r->failing_iterations = live->failing_iterations + 1;
	{	/* its own group (triage.h), like any failure */
		json_t *one = json_array();

		json_array_append(one, f);
		wt_scn_sign_all(one);
		wt_scn_groups_count(r->groups, one);
		json_decref(one);
	}
	json_array_append_new(r->failures, f);
	wt_scn_group_represent(wt_scn_group(r->groups, json_string_value(
		json_object_get(f, "signature"))), json_array_size(r->failures) - 1);
	r->duration_s = secs;
	r->pass = false;
	r->digest = 0;
}

static int blob_read(struct wt_scn_blob *b, int fd)
{
	ssize_t n;

	if (b->cap - b->len < 65536) {
		size_t cap = b->cap ? 2 * b->cap : 262144;
		char *np = realloc(b->p, cap);

		if (!np)
			return -1;
		b->p = np;
		b->cap = cap;
	}
	n = read(fd, b->p + b->len, b->cap - b->len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -1;
	b->len += (size_t)n;
	return n ? 1 : 0;	/* 0: the child closed its end */
}

int wt_scn_iso_start(struct wt_scn_iso *j, const struct wt_scenario *s,
		     const struct wt_scn_opts *o, struct wt_scn_result *r)
{
	int fds[2];

	memset(j, 0, sizeof(*j));
	j->s = s;
	j->o = *o;
	j->r = r;
	j->fd = -1;
	if (wt_scn_result_init(r, s, o))
		return -1;
	j->live = mmap(NULL, sizeof(*j->live), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (j->live == MAP_FAILED) {
		fprintf(stderr, "walktorture: !!! mmap: %s\n", strerror(errno));
		return -1;
	}
	memset(j->live, 0, sizeof(*j->live));
	fflush(NULL);	/* or the child writes our buffers again */
	if (pipe(fds) || (j->pid = fork()) < 0) {
		fprintf(stderr, "walktorture: !!! fork: %s\n", strerror(errno));
		munmap(j->live, sizeof(*j->live));
		return -1;
	}
	if (!j->pid) {
		close(fds[0]);
		child(s, o, j->live, fds[1]);
	}
	close(fds[1]);
	j->fd = fds[0];
	j->t0 = j->last = wt_scn_now_s();
	return 0;
}

/* Is j's child hung (its beat still for longer than its timeout and
 * the grace)?  Then it is killed. */
static void watch(struct wt_scn_iso *j, double now)
{
	uint64_t beat = __atomic_load_n(&j->live->beat, __ATOMIC_ACQUIRE);
	double hang_s = (double)j->s->timeout_ms * 1e-3 + WT_SCN_HANG_GRACE_S;

	if (beat != j->beat) {
		j->beat = beat;
		j->last = now;
	}
	/* a kill -INT of this process alone: the child stops too (from a
	 * terminal both got it; twice is the same) */
	if (wt_interrupted() && !j->forwarded) {
		kill(j->pid, wt_interrupted());
		j->forwarded = true;
	}
	if (now - j->last > hang_s) {
		j->hang = true;
		j->stall = now - j->last;
		kill(j->pid, SIGKILL);
	}
}

static void reap(struct wt_scn_iso *j)
{
	close(j->fd);
	j->fd = -1;
	while (waitpid(j->pid, &j->status, 0) < 0 && errno == EINTR)
		;
	j->reaped = true;
}

void wt_scn_iso_wait(struct wt_scn_iso *v, unsigned n, int timeout_ms)
{
	struct pollfd p[n ? n : 1];
	unsigned np = 0, idx[n ? n : 1];
	double now = wt_scn_now_s();

	for (unsigned i = 0; i < n; i++) {
		if (v[i].reaped)
			continue;
		watch(&v[i], now);
		if (v[i].hang) {
			reap(&v[i]);
			continue;
		}
		p[np] = (struct pollfd){ .fd = v[i].fd, .events = POLLIN };
		idx[np++] = i;
	}
	if (!np || poll(p, np, timeout_ms) <= 0)
		return;
	for (unsigned k = 0; k < np; k++) {
		struct wt_scn_iso *j = &v[idx[k]];

		/* 0: the child closed its end (done, or dead); -1: a read
		 * error, which is no better */
		if (p[k].revents && blob_read(&j->b, j->fd) <= 0)
			reap(j);
	}
}

int wt_scn_iso_finish(struct wt_scn_iso *j)
{
	FILE *out = j->o.out ? j->o.out : stdout;
	int ret = 0;

	if (j->hang || !WIFEXITED(j->status) || WEXITSTATUS(j->status) ||
	    unpack(&j->b, j->r, out, &ret)) {
		lost_child(j->r, &j->o, j->live, j->hang, j->status, j->stall,
			   wt_scn_now_s() - j->t0);
		wt_scn_print_outcome(out, j->r);
		ret = 0;
	}
	free(j->b.p);
	munmap(j->live, sizeof(*j->live));
	j->b.p = NULL;
	j->live = NULL;
	return ret;
}

int wt_scn_run_isolated(const struct wt_scenario *s,
			const struct wt_scn_opts *o, struct wt_scn_result *r)
{
	struct wt_scn_iso j;

	if (wt_scn_iso_start(&j, s, o, r))
		return -1;
	while (!wt_scn_iso_ended(&j))
		wt_scn_iso_wait(&j, 1, 200);
	return wt_scn_iso_finish(&j);
}

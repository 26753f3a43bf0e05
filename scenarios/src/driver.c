/* SPDX-License-Identifier: MIT */
/* The loops of `run' and `nightly': see driver.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "scenarios/src/driver.h"
#include "scenarios/src/isolate.h"
#include "scenarios/src/sanitizer.h"
#include "sim/sched/interrupt.h"
#include "sim/sched/prng.h"

uint64_t wt_scn_random_seed(void)
{
	uint64_t s;

	if (getrandom(&s, sizeof(s), 0) == (ssize_t)sizeof(s))
		return s;
	return wt_splitmix64_mix((uint64_t)time(NULL) ^
				 ((uint64_t)getpid() << 32));
}

int wt_scn_parse_seed(const char *s, uint64_t *seed)
{
	char *end;

	errno = 0;
	*seed = strtoull(s, &end, 0);
	return errno || end == s || *end || s[0] == '-' ? -1 : 0;
}

uint64_t wt_scn_night_seed(uint64_t night_seed, unsigned k)
{
	return wt_seed_derive(night_seed, WT_SCN_NIGHT_TAG + k);
}

/*
 * The log's progress line (stderr is not a terminal): scenarios done of
 * all, failures, elapsed, and an estimate of the rest from the mean time
 * a scenario took so far.
 */
static void progress_log(const struct wt_scn_opts *o, unsigned done,
			 unsigned n, unsigned failed, double t0, double *last)
{
	double t = wt_scn_now_s(), el = t - t0;

	if (!o->progress_log || o->quiet || t - *last < o->progress_every_s)
		return;
	*last = t;
	fprintf(stderr, "walktorture: progress scenarios=%u/%u failed=%u "
		"elapsed=%.0fs eta=%.0fs\n", done, n, failed, el,
		done ? el / done * (n - done) : 0.0);
	fflush(stderr);
}

/* What the loops do with each result, in list order.  True: stop
 * (SIGINT/SIGTERM; no next scenario). */
static bool account(const struct wt_scn_list *l, const struct wt_scn_opts *o,
		    struct wt_scn_result *r, unsigned i, unsigned *passed,
		    unsigned *skipped, unsigned *failed, double t0,
		    double *last)
{
	if (o->scenario_done)
		o->scenario_done(r, o->scenario_done_arg);
	if (r->skipped)
		(*skipped)++;
	else if (r->pass)
		(*passed)++;
	else
		(*failed)++;
	progress_log(o, i + 1, l->n, *failed, t0, last);
	return wt_interrupted();
}

/* Stress mode binds its threads to the machine's PUs and measures real
 * interleavings: it runs with nothing else of ours beside it. */
static bool runs_alone(const struct wt_scenario *s, const struct wt_scn_opts *o)
{
	return wt_scn_mode_of(s, o) == WT_SCN_STRESS;
}

/* A terminal's line while jobs run at once: done of all and what runs. */
static void progress_jobs(const struct wt_scn_opts *o,
			  const struct wt_scn_iso *v, unsigned from,
			  unsigned to, unsigned n, double t0, double *last)
{
	double t = wt_scn_now_s();

	if (!o->progress || o->quiet || t - *last < 0.5)
		return;
	*last = t;
	fprintf(stderr, "\r\033[Kwalktorture: [%u/%u %.0fs]", from, n, t - t0);
	for (unsigned i = from; i < to; i++)
		if (!wt_scn_iso_ended(&v[i]))
			fprintf(stderr, " %s", v[i].s->name);
	fflush(stderr);
}

/*
 * o->jobs isolated children at once.  Each scenario runs alone in its
 * child under its own seed, so what it does does not depend on what
 * runs beside it; results are taken, and lines printed, in list order,
 * so the output is a serial run's.  0, or -1 (a scenario's setup).
 */
static int run_jobs(const struct wt_scn_list *l, const struct wt_scn_opts *so,
		    struct wt_scn_result *r, unsigned *nout, unsigned *passed,
		    unsigned *skipped, unsigned *failed)
{
	struct wt_scn_iso *v = calloc(l->n + 1, sizeof(*v));
	/* the children's own progress lines would overwrite each other:
	 * the parent's says what runs */
	struct wt_scn_opts co = *so;
	unsigned next = 0, fin = 0;
	double last = so->progress_t0, tty = 0;
	bool stop = false;
	int ret = 0;

	if (!v)
		return -1;
	co.progress = false;
	for (;;) {
		unsigned alive = 0;
		bool solo = false;

		/* take the ended ones, in list order */
		while (fin < next && wt_scn_iso_ended(&v[fin])) {
			if (v[fin].s && wt_scn_iso_finish(&v[fin]))
				ret = -1;
			(*nout)++;
			stop |= account(l, so, &r[fin], fin, passed, skipped,
					failed, so->progress_t0, &last);
			fin++;
		}
		for (unsigned i = fin; i < next; i++)
			if (!wt_scn_iso_ended(&v[i])) {
				alive++;
				solo |= runs_alone(v[i].s, so);
			}
		/* start what fits: a stress scenario waits until no other
		 * child is alive, and nothing starts beside it.  Nothing
		 * starts once SIGINT/SIGTERM came: a child forked now would
		 * inherit the flag and take the parent's forwarded signal
		 * for the user's second one */
		while (!stop && !wt_interrupted() && next < l->n &&
		       alive < so->jobs && !solo) {
			bool a = runs_alone(l->v[next], so);

			if (a && alive)
				break;
			co.progress_k = next + 1;
			if (wt_scn_iso_start(&v[next], l->v[next], &co, &r[next])) {
				ret = -1;	/* reported; its result stays empty */
				v[next].s = NULL;
				v[next].reaped = true;
			} else {
				alive++;
				solo = a;
			}
			next++;
		}
		if (fin == next)
			break;	/* all taken, or stopped */
		wt_scn_iso_wait(v + fin, next - fin, 200);
		progress_jobs(so, v, fin, next, l->n, so->progress_t0, &tty);
	}
	if (so->progress && tty > 0)
		fprintf(stderr, "\r\033[K");
	free(v);
	return ret;
}

int wt_scn_run_all(const struct wt_scn_list *l, const struct wt_scn_opts *o,
		   struct wt_scn_result **out, unsigned *nout,
		   unsigned *failed)
{
	struct wt_scn_result *r = calloc(l->n + 1, sizeof(*r));
	FILE *f = o->out ? o->out : stdout;
	unsigned passed = 0, skipped = 0;
	struct wt_scn_opts so = *o;
	double last;
	int ret = 0;

	*failed = 0;
	*out = r;
	*nout = 0;
	if (!r)
		return -1;
	so.progress_n = l->n;
	so.progress_t0 = last = wt_scn_now_s();
	if (o->isolate && o->jobs > 1 && l->n > 1) {
		ret = run_jobs(l, &so, r, nout, &passed, &skipped, failed);
	} else {
		for (unsigned i = 0; i < l->n; i++) {
			so.progress_k = i + 1;
			if (o->isolate ? wt_scn_run_isolated(l->v[i], &so, &r[i]) :
					 wt_scn_run(l->v[i], &so, &r[i]))
				ret = -1;
			(*nout)++;
			if (account(l, o, &r[i], i, &passed, &skipped, failed,
				    so.progress_t0, &last))
				break;
		}
	}
	if (wt_interrupted())
		fprintf(f, "walktorture: interrupted by %s after %u of %u "
			"scenarios\n", wt_interrupt_name(wt_interrupted()),
			*nout, l->n);
	fprintf(f, "walktorture: %u passed, %u failed", passed, *failed);
	if (skipped)
		fprintf(f, ", %u skipped", skipped);
	fputc('\n', f);
	if (wt_scn_results_sanitizer(r, *nout))
		fprintf(f, "walktorture: !!! a sanitizer reported an error in "
			"the harness (its report is on stderr): exit %d\n",
			WT_EXIT_SANITIZER);
	fflush(f);
	return ret;
}

bool wt_scn_results_sanitizer(const struct wt_scn_result *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (r[i].sanitizer)
			return true;
	return false;
}

void wt_scn_results_free(struct wt_scn_result *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		wt_scn_result_free(&r[i]);
	free(r);
}

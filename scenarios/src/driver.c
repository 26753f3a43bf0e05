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
	for (unsigned i = 0; i < l->n; i++) {
		so.progress_k = i + 1;
		if (o->isolate ? wt_scn_run_isolated(l->v[i], &so, &r[i]) :
				 wt_scn_run(l->v[i], &so, &r[i]))
			ret = -1;
		(*nout)++;
		if (o->scenario_done)
			o->scenario_done(&r[i], o->scenario_done_arg);
		if (r[i].skipped)
			skipped++;
		else if (r[i].pass)
			passed++;
		else
			(*failed)++;
		progress_log(o, i + 1, l->n, *failed, so.progress_t0, &last);
		/* SIGINT/SIGTERM: no next scenario */
		if (wt_interrupted()) {
			fprintf(f, "walktorture: interrupted by %s after %u of %u "
				"scenarios\n", wt_interrupt_name(wt_interrupted()),
				i + 1, l->n);
			break;
		}
	}
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

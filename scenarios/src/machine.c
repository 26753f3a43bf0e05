/* SPDX-License-Identifier: MIT */
/* The checks of a loaded scenario against this machine: see driver.h. */
#include "scenarios/src/driver.h"
#include "sim/sched/cpus.h"

static int check_pins(const struct wt_scenario *s, struct wt_scn_error *err)
{
	unsigned cpus[WT_SCN_THREADS_MAX], thread[WT_SCN_THREADS_MAX];
	unsigned n = 0, bad;
	char msg[512];

	for (unsigned i = 0; i < s->nthreads; i++) {
		if (s->threads[i].cpu < 0)
			continue;
		thread[n] = i;
		cpus[n++] = (unsigned)s->threads[i].cpu;
	}
	if (!n || !wt_cpus_check(cpus, n, &bad, msg, sizeof(msg)))
		return 0;
	if (bad >= n)	/* no topology: the first pin */
		bad = 0;
	return wt_scn_fail(err, s->file, s->threads[thread[bad]].cpu_pos,
			   "thread '%s': %s, and '%s' runs in stress mode",
			   s->threads[thread[bad]].name, msg, s->name);
}

int wt_scn_list_check_machine(const struct wt_scn_list *l,
			      const struct wt_scn_opts *o, FILE *errf)
{
	int ret = 0;

	for (unsigned i = 0; i < l->n; i++) {
		const struct wt_scenario *s = l->v[i];
		enum wt_scn_mode mode = wt_scn_mode_of(s, o);
		struct wt_scn_error err = { 0 };

		/* the pins are used: stress, not skipped, not replaced */
		if (mode != WT_SCN_STRESS || s->policy == WT_SCN_DIRECTED ||
		    o->cpus)
			continue;
		if (check_pins(s, &err)) {
			fprintf(errf, "%s\n", err.text);
			ret = -1;
		}
	}
	return ret;
}

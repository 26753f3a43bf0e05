/* SPDX-License-Identifier: MIT */
/*
 * Undirected twins: see scenario.h.
 *
 * Why a twin, and why PCT.  A directed scenario runs one interleaving
 * and proves its path can be forced; it says nothing about how often a
 * real machine would go there.  Its twin keeps everything else -- the
 * tree, the threads and their programs, the injection rules -- and lets
 * PCT choose the interleaving.  PCT (depth d) finds any bug of depth d
 * with probability at least 1/(n k^(d-1)) per iteration, where k is the
 * number of points an iteration passes; the runner calibrates k from one
 * run of the twin (runner.c), because the scheduler's default k (10000)
 * is far above what a directed scenario's few walks pass, and change
 * points drawn past the end of the run never fire.
 */
#define _GNU_SOURCE	/* asprintf */
#include <stdlib.h>
#include <string.h>

#include "core/paths.h"
#include "scenarios/src/scenario.h"

/*
 * Does expectation e say its one exit path must happen?  Outcomes
 * (rcu.ok, ref.error, ...) say how the forced walk ended, not where it
 * left RCU-walk: not targets.
 */
static bool forces(const struct wt_expect *e)
{
	if (e->kind != WT_EXPECT_PATH || e->npaths != 1 ||
	    wt_path_info(e->paths[0])->kind == WT_PATH_KIND_OUTCOME)
		return false;
	switch (e->cmp) {
	case WT_CMP_EQ:
	case WT_CMP_GE:
		return e->value > 0;
	case WT_CMP_GT:
		return true;
	default:
		return false;
	}
}

/* 0, or -1 when the targets are full (a measurement must not drop one
 * silently). */
static int add_target(struct wt_scenario *s, unsigned path)
{
	for (unsigned i = 0; i < s->ntargets; i++)
		if (s->targets[i] == path)
			return 0;
	if (s->ntargets == WT_SCN_TARGETS_MAX)
		return -1;
	s->targets[s->ntargets++] = path;
	return 0;
}

static int collect_targets(struct wt_scenario *s, struct wt_scn_error *err)
{
	for (unsigned i = 0; i < s->nexpects; i++) {
		struct wt_expect *e = &s->expects[i];

		if (!forces(e) || !add_target(s, e->paths[0]))
			continue;
		s->ntargets = 0;	/* s stays as it was loaded */
		return wt_scn_fail(err, s->file, e->pos, "more than %d exit "
				   "paths forced: its undirected twin measures "
				   "at most %d", WT_SCN_TARGETS_MAX,
				   WT_SCN_TARGETS_MAX);
	}
	return 0;
}

/* Keep `oracle clean'; every other expectation belongs to the schedule. */
static void drop_expectations(struct wt_scenario *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->nexpects; i++) {
		struct wt_expect *e = &s->expects[i];

		if (e->kind == WT_EXPECT_ORACLE) {
			s->expects[n++] = *e;
			continue;
		}
		wt_expect_free(e);
	}
	s->nexpects = n;
}

static void drop_schedule(struct wt_scenario *s)
{
	wt_scn_schedule_free(s);
	for (unsigned i = 0; i < s->nsteps; i++)
		free(s->steps[i].text);
	free(s->steps);
	s->steps = NULL;
	s->nsteps = 0;
}

int wt_scenario_undirect(struct wt_scenario *s, struct wt_scn_error *err)
{
	char *name;

	if (s->policy != WT_SCN_DIRECTED)
		return wt_scn_fail(err, s->file, (struct wt_scn_pos){ 1, 1 },
				   "scenario '%s' has no schedule: it has no "
				   "undirected twin", s->name);
	if (collect_targets(s, err))
		return -1;
	if (asprintf(&name, "%s%s", s->name, WT_SCN_TWIN_SUFFIX) < 0) {
		s->ntargets = 0;
		return wt_scn_fail(err, s->file, (struct wt_scn_pos){ 1, 1 },
				   "out of memory");
	}
	s->twin_of = s->name;
	s->name = name;
	drop_expectations(s);
	drop_schedule(s);
	s->policy = WT_SCN_PCT;
	s->iterations = WT_SCN_TWIN_ITERATIONS;
	s->nightly_iterations = WT_SCN_TWIN_NIGHTLY;
	s->nightly_duration_ns = 0;
	s->duration_ns = 0;
	s->virtual_ns = 0;
	return 0;
}

static struct wt_scenario *twin_of(const struct wt_scenario *s, FILE *errf)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *t = wt_scenario_load(s->file, s->suite, &err);

	if (t && !wt_scenario_undirect(t, &err))
		return t;
	fprintf(errf, "%s\n", err.set ? err.text : "out of memory");
	wt_scenario_free(t);
	return NULL;
}

static unsigned directed_in(const struct wt_scn_list *l, unsigned n,
			    const char *suite)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		k += l->v[i]->policy == WT_SCN_DIRECTED &&
		     !strcmp(l->v[i]->suite, suite);
	return k;
}

int wt_scn_list_explore_twins(struct wt_scn_list *l, uint64_t budget_ns,
			      FILE *errf)
{
	unsigned n = l->n;

	for (unsigned i = 0; i < n; i++) {
		const struct wt_scenario *s = l->v[i];
		struct wt_scenario *t;
		char *name;

		if (s->policy != WT_SCN_DIRECTED)
			continue;
		t = twin_of(s, errf);
		if (!t)
			return -1;
		if (asprintf(&name, "%s%s", s->name, WT_SCN_EXPLORE_SUFFIX) < 0)
			name = NULL;
		if (!name || wt_scn_list_add(l, t)) {
			free(name);
			wt_scenario_free(t);
			fprintf(errf, "walktorture: out of memory\n");
			return -1;
		}
		free(t->name);
		t->name = name;
		t->policy = WT_SCN_EXPLORE;
		t->iterations = 0;
		t->nightly_iterations = 0;
		t->nightly_duration_ns = 0;
		t->duration_ns = budget_ns / directed_in(l, n, s->suite);
		if (!t->duration_ns)
			t->duration_ns = 1;
	}
	return 0;
}

int wt_scn_list_twins(struct wt_scn_list *l, bool replace, FILE *errf)
{
	unsigned n = l->n;

	for (unsigned i = 0; i < n; i++) {
		struct wt_scenario *t;

		if (l->v[i]->policy != WT_SCN_DIRECTED)
			continue;
		t = twin_of(l->v[i], errf);
		if (!t)
			return -1;
		if (replace) {
			wt_scenario_free(l->v[i]);
			l->v[i] = t;
		} else if (wt_scn_list_add(l, t)) {
			wt_scenario_free(t);
			fprintf(errf, "walktorture: out of memory\n");
			return -1;
		}
	}
	return 0;
}

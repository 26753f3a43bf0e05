/* SPDX-License-Identifier: MIT */
/*
 * The directed schedule of a scenario: each list item is one step in
 * sim/sched/schedule.h's syntax.  Besides the syntax (and the point names,
 * which the step parser checks against the catalogue), the loader rejects
 * what can never run:
 *
 *	- a step naming no thread of the scenario;
 *	- any step of a thread after that thread's `finish';
 *	- `finish' of a thread that loops forever: it ends only when the
 *	  others are done, and during its step no other thread runs;
 *	- `until ... where name=C' on a thread that does no walk (only the
 *	  walk engine sets the component);
 *	- `flush THREAD' unless the scenario says `memory: tso' (under SC
 *	  there is no store buffer to flush);
 *	- `until ... where name=C' when C is named nowhere a walk of the
 *	  thread could take it from: no word of the thread's walks or cwd,
 *	  of a tree line or of any thread's writer verbs has C as a path
 *	  component.  Whether a walk really reaches C is not decidable here
 *	  in general (symlink bodies, renames and mounts by writers, and
 *	  the interleaving decide it), so a step whose name does appear
 *	  but is never looked up still fails at run time.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/src/scenario.h"
#include "sim/sched/schedule.h"

static int step_fail(struct wt_scenario *s, struct wt_scn_error *err,
		     const struct wt_scn_line *l, size_t off, const char *msg)
{
	struct wt_scn_pos pos = l->pos;

	pos.col += (unsigned)off;
	return wt_scn_fail(err, s->file, pos, "%s", msg);
}

/* Is name a component of a word of text: a piece between '/'s of a
 * word (blank-separated, quotes dropped), or of what follows a word's
 * first '=' (at=/a/b)?  A name with blanks or quotes in it: anywhere. */
static bool names_component(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p = text;

	if (!text)
		return false;
	if (strpbrk(name, " \t='\"\\"))
		return strstr(text, name) != NULL;
	while (*p) {	/* one piece a round: bounded by strlen(text) */
		size_t n = strcspn(p, " \t/='\"\\");

		if (n == len && !strncmp(p, name, len))
			return true;
		p += n;
		if (*p)
			p++;
	}
	return false;
}

/* Could a walk of thread t look up component name? */
static bool component_named(const struct wt_scenario *s, unsigned t,
			    const char *name)
{
	if (names_component(s->threads[t].cwd, name))
		return true;
	for (unsigned i = 0; i < s->ntree; i++)
		if (names_component(s->tree[i].text, name))
			return true;
	for (unsigned i = 0; i < s->nthreads; i++)
		for (unsigned k = 0; k < s->threads[i].nops; k++) {
			const struct wt_scn_op *op = &s->threads[i].ops[k];

			if ((op->kind == WT_SCN_OP_VERB ||
			     (op->kind == WT_SCN_OP_WALK && i == t)) &&
			    names_component(op->text, name))
				return true;
		}
	return false;
}

static int check_step(struct wt_scenario *s, struct wt_scn_error *err,
		      const struct wt_scn_line *l, const struct wt_sched_step *st,
		      int *finished_at)
{
	size_t toff = strspn(l->text, " \t");
	char msg[256];
	int t = wt_scenario_thread(s, st->thread);

	if (t < 0) {
		snprintf(msg, sizeof(msg), "unknown thread '%s' in schedule",
			 st->thread);
		return step_fail(s, err, l, toff, msg);
	}
	if (st->kind == WT_SCHED_FLUSH && s->memory == WT_SCN_SC)
		return step_fail(s, err, l, toff, "a 'flush' step needs "
				 "'memory: tso' or 'memory: pso'");
	if (finished_at[t]) {
		snprintf(msg, sizeof(msg), "impossible step: thread '%s' "
			 "finished at line %d", st->thread, finished_at[t]);
		return step_fail(s, err, l, toff, msg);
	}
	if (st->kind == WT_SCHED_FINISH) {
		if (s->threads[t].forever) {
			snprintf(msg, sizeof(msg), "impossible step: '%s' loops "
				 "forever and cannot finish while it alone runs",
				 st->thread);
			return step_fail(s, err, l, toff, msg);
		}
		finished_at[t] = (int)l->pos.line;
	}
	if (st->kind == WT_SCHED_UNTIL && st->component[0] &&
	    !s->threads[t].has_walks) {
		const char *w = strstr(l->text, "where");

		snprintf(msg, sizeof(msg), "impossible step: '%s' does no walk, "
			 "so it never looks up '%s'", st->thread, st->component);
		return step_fail(s, err, l, w ? (size_t)(w - l->text) : toff,
				 msg);
	}
	if (st->kind == WT_SCHED_UNTIL && st->component[0] &&
	    !component_named(s, (unsigned)t, st->component)) {
		const char *w = strstr(l->text, "name=");

		snprintf(msg, sizeof(msg), "impossible step: no walk of '%s' "
			 "looks up '%s' (no path of its walks, no tree line "
			 "and no writer verb names it)", st->thread,
			 st->component);
		return step_fail(s, err, l, w ? (size_t)(w - l->text) + 5 : toff,
				 msg);
	}
	return 0;
}

int wt_scn_check_schedule(struct wt_scenario *s, struct wt_scn_error *err)
{
	struct wt_schedule *sch = calloc(1, sizeof(*sch));
	int finished_at[WT_SCN_THREADS_MAX] = { 0 };

	if (!sch)
		return wt_scn_fail(err, s->file, s->steps[0].pos, "out of memory");
	sch->steps = calloc(s->nsteps, sizeof(*sch->steps));
	s->schedule = sch;
	if (!sch->steps)
		return wt_scn_fail(err, s->file, s->steps[0].pos, "out of memory");
	for (unsigned i = 0; i < s->nsteps; i++) {
		struct wt_scn_line *l = &s->steps[i];
		struct wt_sched_step *st = &sch->steps[i];
		struct wt_parse_error pe = { 0 };

		if (wt_schedule_parse_step(l->text, st, &pe))
			return step_fail(s, err, l, pe.pos, pe.msg);
		st->line = l->pos.line;
		sch->nsteps++;
		if (check_step(s, err, l, st, finished_at))
			return -1;
	}
	return 0;
}

void wt_scn_schedule_free(struct wt_scenario *s)
{
	if (!s->schedule)
		return;
	free(s->schedule->steps);
	free(s->schedule);
	s->schedule = NULL;
}

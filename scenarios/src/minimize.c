/* SPDX-License-Identifier: MIT */
/*
 * Minimising a failing iteration into a directed scenario (minimize.h).
 */
#define _GNU_SOURCE	/* asprintf, strndup */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/src/minimize.h"
#include "sim/sched/prng.h"
#include "sim/sched/trace.h"

#define MIN_SEEDS	3	/* seeds a candidate must fail under */
#define MIN_TESTS_MAX	4000	/* candidate schedules tried, at most */

/* One decision of the failing iteration: a run of one thread's arrivals
 * (events first..last of the trace), or one store-buffer flush. */
struct chunk {
	unsigned thread;
	bool flush;
	size_t first, last;
};

struct ctx {
	const struct wt_scn_opts *o;
	struct wt_scn_opts run;		/* no order, no trace output */
	struct wt_scenario *copy;	/* the scenario the candidates run */
	const struct wt_trace *tr;
	struct chunk *chunks;
	unsigned nchunks;
	unsigned finish[WT_SCN_THREADS_MAX];	/* threads that finish, in order */
	size_t final[WT_SCN_THREADS_MAX];	/* each thread's last event */
	unsigned nfinish;
	uint64_t seeds[MIN_SEEDS];
	const char *sig;
	unsigned tests;
};

/* --- a candidate's schedule text --- */

struct lines {
	char **v;
	unsigned n;
};

static void lines_free(struct lines *l)
{
	for (unsigned i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int lines_add(struct lines *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int lines_add(struct lines *l, const char *fmt, ...)
{
	char **v = realloc(l->v, sizeof(*v) * (l->n + 1));
	va_list ap;
	int r;

	if (!v)
		return -1;
	l->v = v;
	va_start(ap, fmt);
	r = vasprintf(&v[l->n], fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	l->n++;
	return 0;
}

static const char *point_of(const struct wt_trace_event *e)
{
	return wt_point_name(wt_point_by_id(e->point));
}

/*
 * The steps of a selection of elements (indices: chunks, then the
 * finishing threads), in order.  Consecutive runs of one thread merge.
 * A run stops its thread where the kept run ended: at its last event's
 * point, counted among the thread's events since its previous step
 * (events of dropped runs happen in the next step of their thread).
 */
static int build(const struct ctx *c, const unsigned *sel, unsigned n,
		 struct lines *l)
{
	const struct wt_scenario *s = c->copy;
	long prev[WT_SCN_THREADS_MAX];
	bool done[WT_SCN_THREADS_MAX] = { false };

	for (unsigned t = 0; t < WT_SCN_THREADS_MAX; t++)
		prev[t] = -1;
	for (unsigned i = 0; i < n; i++) {
		const struct chunk *ch;
		const char *name, *p;
		size_t last, plen, nth = 0;

		if (sel[i] >= c->nchunks) {
			unsigned t = c->finish[sel[i] - c->nchunks];

			if (!done[t] && lines_add(l, "%s finish",
						  s->threads[t].name))
				return -1;
			done[t] = true;
			continue;
		}
		ch = &c->chunks[sel[i]];
		name = s->threads[ch->thread].name;
		if (ch->flush) {
			if (lines_add(l, "flush %s", name))
				return -1;
			continue;
		}
		last = ch->last;
		while (i + 1 < n && sel[i + 1] < c->nchunks &&
		       !c->chunks[sel[i + 1]].flush &&
		       c->chunks[sel[i + 1]].thread == ch->thread)
			last = c->chunks[sel[++i]].last;
		/* its last run: after its last point it ran to its end */
		if (last == c->final[ch->thread] &&
		    !s->threads[ch->thread].forever) {
			if (!done[ch->thread] && lines_add(l, "%s finish", name))
				return -1;
			done[ch->thread] = true;
			continue;
		}
		/*
		 * A run that ended blocked (a lock another thread holds, a
		 * grace period) stops at its wait: the directed scheduler
		 * counts a wait as an arrival at its point, the thread stays
		 * blocked while the next steps run the others, and the grace
		 * period it waits for began where it began in the record.
		 * Stopped before the wait instead, the thread would begin
		 * waiting only at its next step, for readers that entered
		 * their sections in between, and the seeded policy would run
		 * the others until they left them (seq_no_barrier's random
		 * iterations did not fail again so).
		 */
		if (done[ch->thread])
			continue;
		/* the point's name without its site suffix, as a glob: the
		 * same site without the bug may be another of the name */
		p = point_of(&c->tr->ev[last]);
		plen = strcspn(p, "#");
		for (size_t k = (size_t)(prev[ch->thread] + 1); k <= last; k++) {
			const struct wt_trace_event *e = &c->tr->ev[k];

			if (e->thread != ch->thread || (e->flags & WT_EV_FLUSH))
				continue;
			nth += !strncmp(point_of(e), p, plen);
		}
		prev[ch->thread] = (long)last;
		if (nth > 1) {
			if (lines_add(l, "%s until %.*s* nth=%zu", name,
				      (int)plen, p, nth))
				return -1;
		} else if (lines_add(l, "%s until %.*s*", name, (int)plen, p)) {
			return -1;
		}
	}
	/* then every finite thread to its end: no seeded tail */
	for (unsigned k = 0; k < c->nfinish; k++)
		if (!done[c->finish[k]] &&
		    lines_add(l, "%s finish", s->threads[c->finish[k]].name))
			return -1;
	return 0;
}

/* Give the copy these steps as its schedule: 0, or -1 when the loader's
 * checks refuse them (a step after a thread's finish). */
static int set_schedule(struct wt_scenario *s, const struct lines *l)
{
	struct wt_scn_error err = { 0 };

	wt_scn_schedule_free(s);
	for (unsigned i = 0; i < s->nsteps; i++)
		free(s->steps[i].text);
	free(s->steps);
	s->steps = calloc(l->n + 1, sizeof(*s->steps));
	s->nsteps = 0;
	if (!s->steps)
		return -1;
	for (unsigned i = 0; i < l->n; i++) {
		s->steps[i].text = strdup(l->v[i]);
		s->steps[i].pos = (struct wt_scn_pos){ i + 1, 1 };
		if (!s->steps[i].text)
			return -1;
		s->nsteps++;
	}
	s->policy = WT_SCN_DIRECTED;
	return s->nsteps ? wt_scn_check_schedule(s, &err) : 0;
}

/* No impossible step in failures? */
static bool followed(json_t *failures)
{
	size_t i;
	json_t *f;

	json_array_foreach(failures, i, f) {
		const char *check = json_string_value(json_object_get(f, "check"));

		if (check && !strcmp(check, "schedule"))
			return false;
	}
	return true;
}

/* Does sig fire in failures, with no impossible step? */
static bool fired(json_t *failures, const char *sig)
{
	bool hit = false;
	size_t i;
	json_t *f;

	json_array_foreach(failures, i, f) {
		const char *check = json_string_value(json_object_get(f, "check"));

		if (check && !strcmp(check, "schedule"))
			return false;
		hit |= !strcmp(json_string_value(json_object_get(f, "signature")),
			       sig);
	}
	return hit;
}

/* Does the selection's schedule still make sig fire, under every seed? */
/*
 * Do these steps make sig fire under every seed (and, with fixed, can
 * the code without the bug follow them: a regression scenario must pass
 * there)?
 */
static bool test_lines(struct ctx *c, const struct lines *l, bool fixed)
{
	bool ok = true;

	c->tests++;
	if (set_schedule(c->copy, l))
		return false;
	if (fixed && c->o->bugs) {
		struct wt_scn_opts run = c->run;
		json_t *f;

		run.bugs = 0;
		if (wt_scn_iteration(c->copy, &run, c->seeds[0], false, &f,
				     NULL) || !followed(f))
			ok = false;
		json_decref(f);
	}
	for (unsigned k = 0; ok && k < MIN_SEEDS; k++) {
		json_t *f;

		if (wt_scn_iteration(c->copy, &c->run, c->seeds[k], false, &f,
				     NULL))
			ok = false;
		else
			ok = fired(f, c->sig);
		json_decref(f);
	}
	return ok;
}

static bool test(struct ctx *c, const unsigned *sel, unsigned n)
{
	struct lines l = { 0 };
	bool ok = !build(c, sel, n, &l) && test_lines(c, &l, false);

	lines_free(&l);
	return ok;
}

/* l with step i replaced by text (NULL: dropped), into out. */
static int variant(const struct lines *l, unsigned i, const char *text,
		   struct lines *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned k = 0; k < l->n; k++) {
		if (k == i && !text)
			continue;
		if (lines_add(out, "%s", k == i ? text : l->v[k])) {
			lines_free(out);
			return -1;
		}
	}
	return 0;
}

/*
 * The steps as ddmin left them may be ones only the broken code follows
 * (the correct code takes another exit before the point's Nth arrival,
 * or has no store to flush).  Try each step stopped earlier (a smaller
 * nth) or dropped, one at a time, for steps the correct code can follow
 * that still make the signature fire with the bug.  True when the steps
 * (replaced by those) pass, or there is no bug to be without; false
 * leaves them as they were.
 */
static bool relax(struct ctx *c, struct lines *l)
{
	if (!c->o->bugs || test_lines(c, l, true))
		return true;
	for (unsigned i = 0; i < l->n; i++) {
		const char *nth = strstr(l->v[i], " nth=");
		unsigned long v = nth ? strtoul(nth + 5, NULL, 10) : 1;

		for (unsigned long w = v; w-- > 0;) {
			struct lines t;
			char *text = NULL;
			bool ok;

			/* w > 0: stop at arrival w; w == 0: drop the step */
			if (w > 1 && asprintf(&text, "%.*s nth=%lu",
					      (int)(nth - l->v[i]), l->v[i], w) < 0)
				return false;
			if (w == 1 && !(text = strndup(l->v[i], nth ?
					(size_t)(nth - l->v[i]) : strlen(l->v[i]))))
				return false;
			if (variant(l, i, text, &t)) {
				free(text);
				return false;
			}
			free(text);
			ok = test_lines(c, &t, true);
			if (ok) {
				lines_free(l);
				*l = t;
				return true;
			}
			lines_free(&t);
		}
	}
	set_schedule(c->copy, l);
	return false;
}

/*
 * ddmin (Zeller and Hildebrandt): split the selection into k parts, keep
 * a part or a complement that still fails, refine k when none does; the
 * result is 1-minimal (no single element can go) unless the test budget
 * ran out.
 */
static unsigned ddmin(struct ctx *c, unsigned *sel, unsigned n)
{
	unsigned *cand = malloc(sizeof(*cand) * (n + 1));
	unsigned k = 2;

	if (!cand)
		return n;
	while (n >= 2 && c->tests < MIN_TESTS_MAX) {
		bool reduced = false;

		for (unsigned part = 0; part < k && !reduced; part++) {
			unsigned lo = n * part / k, hi = n * (part + 1) / k, m = 0;

			/* the part alone */
			for (unsigned i = lo; i < hi; i++)
				cand[m++] = sel[i];
			if (m && m < n && test(c, cand, m)) {
				memcpy(sel, cand, sizeof(*cand) * m);
				n = m;
				k = 2;
				reduced = true;
				break;
			}
			/* its complement */
			m = 0;
			for (unsigned i = 0; i < n; i++)
				if (i < lo || i >= hi)
					cand[m++] = sel[i];
			if (m < n && k > 2 && test(c, cand, m)) {
				memcpy(sel, cand, sizeof(*cand) * m);
				n = m;
				k = k - 1 > 2 ? k - 1 : 2;
				reduced = true;
			}
		}
		if (reduced)
			continue;
		if (k >= n)
			break;
		k = 2 * k < n ? 2 * k : n;
	}
	/* a lone element may go too */
	if (n == 1 && test(c, sel, 0))
		n = 0;
	free(cand);
	return n;
}

/* --- the scenario text --- */

/* Is line a top-level key of the ones the minimised scenario replaces? */
static bool replaced_key(const char *line)
{
	static const char *const keys[] = {
		"name", "description", "schedule", "expect", "policy",
		"budget", "mode", "memory", NULL };

	for (unsigned i = 0; keys[i]; i++) {
		size_t n = strlen(keys[i]);

		if (!strncmp(line, keys[i], n) && line[n] == ':')
			return true;
	}
	return false;
}

static bool top_level_key(const char *line)
{
	size_t n = strspn(line, "abcdefghijklmnopqrstuvwxyz_");

	return n && line[n] == ':';
}

/* A YAML double-quoted scalar. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static bool has_expect(const struct wt_scenario *s, const char *text)
{
	for (unsigned i = 0; i < s->nexpects; i++)
		if (!strcmp(s->expects[i].text, text))
			return true;
	return false;
}

/*
 * The file's text without the keys the minimised scenario sets, then
 * those: a name, a description saying where it came from, the memory
 * model it ran under, the schedule, one iteration, the expectations.
 */
static char *scenario_text(const struct ctx *c, const struct wt_scenario *src,
			   const struct lines *steps, const char *name,
			   const char *note, const struct wt_scn_minimized *m)
{
	const char *t = src->text;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool skip = false;
	const char *kind;

	if (!f)
		return NULL;
	fprintf(f, "name: %s\ndescription: >\n  Minimised (walktorture minimize)"
		" from %s: the schedule keeps %u of the failing iteration's %u "
		"scheduling decisions; the failure's signature is\n  ", name,
		note, m->kept, m->decisions);
	put_quoted(f, m->signature);
	fputc('\n', f);
	while (t && *t) {
		const char *e = strchr(t, '\n');
		size_t n = e ? (size_t)(e - t) + 1 : strlen(t);

		if (top_level_key(t))
			skip = replaced_key(t);
		if (!skip && strncmp(t, "---", 3))
			fwrite(t, 1, n, f);
		t += n;
	}
	fflush(f);
	if (len && buf[len - 1] != '\n')
		fputc('\n', f);
	if (wt_scn_memory_of(src, c->o, WT_SCN_SIM) != WT_SCN_SC)
		fprintf(f, "memory: %s\n",
			wt_scn_memory_str(wt_scn_memory_of(src, c->o, WT_SCN_SIM)));
	fputs("schedule:\n", f);
	for (unsigned i = 0; i < steps->n; i++) {
		fputs("  - ", f);
		put_quoted(f, steps->v[i]);
		fputc('\n', f);
	}
	fputs("budget: { iterations: 1 }\nexpect:\n", f);
	/* what describes the failure: its expectation, or the oracle's
	 * and the checks' verdict */
	kind = m->signature;
	if (!strncmp(kind, "expectation '", 13)) {
		const char *q = strchr(kind + 13, '\'');
		char *text = strndup(kind + 13, q ? (size_t)(q - kind - 13) : 0);

		if (text && !has_expect(src, text)) {
			fputs("  - ", f);
			put_quoted(f, text);
			fputc('\n', f);
		}
		free(text);
	}
	if (!has_expect(src, "oracle clean"))
		fputs("  - oracle clean\n", f);
	/* the file's own, where one iteration can hold them */
	for (unsigned i = 0; i < src->nexpects; i++) {
		const struct wt_expect *e = &src->expects[i];

		if (e->kind != WT_EXPECT_RESULT && e->kind != WT_EXPECT_ORACLE)
			continue;
		fputs("  - ", f);
		put_quoted(f, e->text);
		fputc('\n', f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* --- the whole --- */

static struct wt_scenario *load_copy(const struct wt_scenario *s)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *c = wt_scenario_load(s->file, s->suite, &err);

	if (c && s->twin_of && wt_scenario_undirect(c, &err)) {
		wt_scenario_free(c);
		c = NULL;
	}
	if (!c)
		fprintf(stderr, "walktorture: minimize: %s\n", err.text);
	else
		c->mode = WT_SCN_SIM;
	return c;
}

/* The chunks of a trace, and the threads that finish, in the order of
 * their last event. */
static int chunks_of(struct ctx *c)
{
	const struct wt_trace *tr = c->tr;
	bool done[WT_SCN_THREADS_MAX] = { false };

	c->chunks = calloc(tr->n + 1, sizeof(*c->chunks));
	if (!c->chunks)
		return -1;
	for (size_t i = 0; i < tr->n; i++) {
		const struct wt_trace_event *e = &tr->ev[i];
		struct chunk *last = c->nchunks ? &c->chunks[c->nchunks - 1] : NULL;
		bool flush = (e->flags & WT_EV_FLUSH) != 0;

		if (e->thread >= c->copy->nthreads)
			continue;
		if (!flush)
			c->final[e->thread] = i;
		if (!flush && last && !last->flush && last->thread == e->thread) {
			last->last = i;
			continue;
		}
		c->chunks[c->nchunks++] = (struct chunk){
			.thread = e->thread, .flush = flush, .first = i, .last = i,
		};
	}
	for (size_t i = tr->n; i-- > 0;) {
		unsigned t = tr->ev[i].thread;

		if (t >= c->copy->nthreads || done[t] || c->copy->threads[t].forever)
			continue;
		done[t] = true;
		c->finish[c->nfinish++] = t;
	}
	/* the last to end finishes last */
	for (unsigned a = 0, b = c->nfinish; a + 1 < b; a++, b--) {
		unsigned x = c->finish[a];

		c->finish[a] = c->finish[b - 1];
		c->finish[b - 1] = x;
	}
	return 0;
}

int wt_scn_minimize(const struct wt_scenario *s, const struct wt_scn_opts *o,
		    uint64_t seed, const char *want, const char *name,
		    const char *note, struct wt_scn_minimized *m)
{
	struct ctx c = { .o = o };
	struct wt_trace *tr = NULL;
	struct lines steps = { 0 };
	json_t *failures = NULL, *f;
	unsigned *sel = NULL, n;
	size_t i;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	if (wt_scn_iteration(s, o, seed, true, &failures, &tr))
		goto out;
	/* the signature to keep: the one asked for if this iteration has it */
	json_array_foreach(failures, i, f) {
		const char *sig = json_string_value(json_object_get(f, "signature"));

		if (!m->signature[0] || (want && !strcmp(sig, want)))
			snprintf(m->signature, sizeof(m->signature), "%s", sig);
	}
	if (!m->signature[0]) {
		fprintf(stderr, "walktorture: minimize: iteration %#" PRIx64
			" of %s does not fail\n", seed, s->name);
		goto out;
	}
	if (!tr || tr->dropped) {
		fprintf(stderr, "walktorture: minimize: the iteration's trace "
			"is incomplete (%" PRIu64 " events dropped)\n",
			tr ? tr->dropped : 0);
		goto out;
	}
	c.tr = tr;
	c.sig = m->signature;
	c.run = *o;
	c.run.order = NULL;
	c.run.norder = 0;
	c.seeds[0] = seed;
	for (unsigned k = 1; k < MIN_SEEDS; k++)
		c.seeds[k] = wt_seed_iteration(seed, k);
	c.copy = load_copy(s);
	if (!c.copy || chunks_of(&c))
		goto out;
	m->decisions = c.nchunks;
	n = c.nchunks;
	sel = calloc(n + 1, sizeof(*sel));
	if (!sel)
		goto out;
	for (unsigned k = 0; k < n; k++)
		sel[k] = k;
	/*
	 * No decision at all first (every thread run to its end in turn):
	 * a failure that needs no interleaving is done at once, instead of
	 * ddmin halving a lifted stress order's tens of thousands of steps.
	 */
	if (test(&c, sel, 0)) {
		n = 0;
	} else if (!test(&c, sel, n)) {
		fprintf(stderr, "walktorture: minimize: the failing iteration's "
			"%u decisions, as a directed schedule, do not make '%s' "
			"fire again\n", c.nchunks, m->signature);
		goto out;
	} else {
		n = ddmin(&c, sel, n);
	}
	for (unsigned k = 0; k < n; k++)
		m->kept += sel[k] < c.nchunks;
	if (build(&c, sel, n, &steps))
		goto out;
	if (!relax(&c, &steps))
		fprintf(stderr, "walktorture: minimize: !!! the code without the "
			"bug cannot follow the minimised schedule (an impossible "
			"step)\n");
	m->steps = steps.n;
	m->tests = c.tests;
	m->yaml = scenario_text(&c, c.copy, &steps, name, note, m);
	ret = m->yaml ? 0 : -1;
out:
	lines_free(&steps);
	free(sel);
	free(c.chunks);
	if (c.copy)
		wt_scenario_free(c.copy);
	wt_trace_free(tr);
	json_decref(failures);
	return ret;
}

int wt_scn_minimize_check(const char *file, const struct wt_scn_opts *o,
			  uint64_t bugs, const char *sig, bool *fire,
			  bool *clean)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *s = wt_scenario_load(file, NULL, &err);
	struct wt_scn_opts run = *o;
	uint64_t seed = wt_scn_seed(o->seed, s ? s->name : "");
	int ret = 0;

	if (!s) {
		fprintf(stderr, "walktorture: minimize: %s\n", err.text);
		return -1;
	}
	run.bugs = bugs;
	run.order = NULL;
	run.norder = 0;
	run.memory = -1;	/* the file says it */
	*fire = true;
	*clean = true;
	for (unsigned k = 0; k < MIN_SEEDS && !ret; k++) {
		json_t *f;

		if (wt_scn_iteration(s, &run, wt_seed_iteration(seed, k), false,
				     &f, NULL)) {
			ret = -1;
			break;
		}
		*fire &= fired(f, sig);
		*clean &= json_array_size(f) == 0;
		json_decref(f);
	}
	wt_scenario_free(s);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * Results JSON reader: load with jansson, then validate every field the
 * reports read against reports/SCHEMA.md.  Unknown fields are ignored (an
 * optional field may be added without a schema_version bump); a known field
 * with the wrong type is an error naming where it is.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/atomic_file.h"
#include "reports/journal.h"
#include "reports/results.h"

/* Validation context: the file, the error buffer and the JSON path so far. */
struct vctx {
	const char *file;
	char *err;
	size_t errlen;
	char where[512];
	size_t len;
};

enum { F_OPT = 0, F_REQ = 1, F_NULL = 2 };

/* A pseudo-type for "any JSON number" (integer or real). */
#define WT_JSON_NUMBER ((json_type)100)
#define WT_JSON_BOOL ((json_type)101)

static size_t vpush(struct vctx *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static size_t vpush(struct vctx *v, const char *fmt, ...)
{
	size_t mark = v->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(v->where + v->len, sizeof(v->where) - v->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		v->len += (size_t)n;
	if (v->len >= sizeof(v->where))
		v->len = sizeof(v->where) - 1;
	return mark;
}

static void vpop(struct vctx *v, size_t mark)
{
	v->len = mark;
	v->where[mark] = 0;
}

static int verr(struct vctx *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int verr(struct vctx *v, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (v->len)
		snprintf(v->err, v->errlen, "%s: %s: %s", v->file, v->where, msg);
	else
		snprintf(v->err, v->errlen, "%s: %s", v->file, msg);
	return -1;
}

static const char *type_name(json_type t)
{
	switch ((int)t) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "a non-negative integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	case WT_JSON_NUMBER: return "a number";
	case WT_JSON_BOOL: return "a boolean";
	}
	return "?";
}

/* What x is, for "expected ..., got WHAT". */
static const char *got_name(json_t *x)
{
	if (json_is_integer(x) && json_integer_value(x) < 0)
		return "a negative integer";
	if (json_is_integer(x) && json_integer_value(x) > WT_RESULTS_INT_MAX)
		return "an integer above 2^50 (out of range)";
	return type_name(json_typeof(x));
}

static int type_ok(json_t *x, json_type want)
{
	switch ((int)want) {
	case WT_JSON_NUMBER:
		return json_is_number(x);
	case WT_JSON_BOOL:
		return json_is_boolean(x);
	case JSON_INTEGER:
		/* counts and indexes: summed over scenarios, seeds and the
		 * files a merge reads, they must not overflow */
		return json_is_integer(x) && json_integer_value(x) >= 0 &&
		       json_integer_value(x) <= WT_RESULTS_INT_MAX;
	}
	return json_typeof(x) == want;
}

/*
 * Fetch obj.key with the wanted type.  *out is NULL when the field is
 * absent (allowed unless F_REQ) or null (allowed with F_NULL).
 */
static int field(struct vctx *v, json_t *obj, const char *key, json_type want,
		 unsigned flags, json_t **out)
{
	json_t *x = json_object_get(obj, key);
	size_t mark;
	int ret;

	*out = NULL;
	if (!x)
		return (flags & F_REQ) ? verr(v, "missing field \"%s\"", key) : 0;
	if (json_is_null(x) && (flags & F_NULL))
		return 0;
	if (type_ok(x, want)) {
		*out = x;
		return 0;
	}
	mark = vpush(v, "%s%s", v->len ? "." : "", key);
	if (json_is_integer(x) && want == JSON_INTEGER)
		ret = verr(v, "expected %s, got %lld%s", type_name(want),
			   (long long)json_integer_value(x),
			   json_integer_value(x) > WT_RESULTS_INT_MAX ?
			   " (out of range: at most 2^50)" : "");
	else
		ret = verr(v, "expected %s, got %s", type_name(want),
			   type_name(json_typeof(x)));
	vpop(v, mark);
	return ret;
}

/* Several fields of one type at once (a NULL-terminated key list). */
static int fields(struct vctx *v, json_t *obj, json_type want, unsigned flags,
		  const char *const *keys)
{
	json_t *dummy;

	for (; *keys; keys++)
		if (field(v, obj, *keys, want, flags, &dummy))
			return -1;
	return 0;
}

/* An array whose every element has one type. */
static int array_of(struct vctx *v, json_t *obj, const char *key,
		    json_type want, unsigned flags, json_t **out)
{
	size_t i, mark;
	json_t *x;

	if (field(v, obj, key, JSON_ARRAY, flags, out))
		return -1;
	if (!*out)
		return 0;
	json_array_foreach(*out, i, x) {
		if (type_ok(x, want))
			continue;
		mark = vpush(v, "%s%s[%zu]", v->len ? "." : "", key, i);
		verr(v, "expected %s, got %s", type_name(want), got_name(x));
		vpop(v, mark);
		return -1;
	}
	return 0;
}

/* An object mapping names to counts (paths, points). */
static int counts(struct vctx *v, json_t *obj, const char *key, unsigned flags)
{
	const char *name;
	json_t *map, *x;
	size_t mark;

	if (field(v, obj, key, JSON_OBJECT, flags, &map))
		return -1;
	if (!map)
		return 0;
	json_object_foreach(map, name, x) {
		if (type_ok(x, JSON_INTEGER))
			continue;
		mark = vpush(v, "%s%s[\"%s\"]", v->len ? "." : "", key, name);
		verr(v, "expected %s, got %s", type_name(JSON_INTEGER),
		     got_name(x));
		vpop(v, mark);
		return -1;
	}
	return 0;
}

static int check_verdict(struct vctx *v, json_t *obj, int *fail)
{
	json_t *x;
	const char *s;

	if (field(v, obj, "verdict", JSON_STRING, F_REQ, &x))
		return -1;
	s = json_string_value(x);
	if (strcmp(s, "PASS") && strcmp(s, "FAIL"))
		return verr(v, "verdict must be PASS or FAIL, not \"%s\"", s);
	*fail = !strcmp(s, "FAIL");
	return 0;
}

static int check_run(struct vctx *v, json_t *run)
{
	static const char *const req_str[] = {
		"version", "git_rev", "seed", "started", NULL };
	static const char *const opt_str[] = {
		"build_type", "mode", "memory", "command", "binding", "source", NULL };
	static const char *const null_str[] = { "bug", "shard", NULL };
	json_t *machine, *x;

	if (fields(v, run, JSON_STRING, F_REQ, req_str) ||
	    fields(v, run, JSON_STRING, F_OPT, opt_str) ||
	    fields(v, run, JSON_STRING, F_NULL, null_str) ||
	    field(v, run, "duration_s", WT_JSON_NUMBER, F_OPT, &x) ||
	    field(v, run, "machine", JSON_OBJECT, F_NULL, &machine))
		return -1;
	if (!machine)
		return 0;
	{
		size_t mark = vpush(v, ".machine");
		static const char *const mstr[] = { "hostname", "model", NULL };
		int ret = fields(v, machine, JSON_STRING, F_OPT, mstr) ||
			  field(v, machine, "cpus", JSON_INTEGER, F_OPT, &x);

		vpop(v, mark);
		return ret ? -1 : 0;
	}
}

static int check_event(struct vctx *v, json_t *ev, size_t nthreads,
		       double *t_prev)
{
	static const char *const strs[] = { "point", "kind", "site", "op", NULL };
	json_t *t, *th, *x;
	double tv;

	if (field(v, ev, "t", WT_JSON_NUMBER, F_REQ, &t) ||
	    field(v, ev, "thread", JSON_INTEGER, F_REQ, &th) ||
	    fields(v, ev, JSON_STRING, F_NULL, strs) ||
	    field(v, ev, "step", JSON_INTEGER, F_NULL, &x))
		return -1;
	if ((size_t)json_integer_value(th) >= nthreads)
		return verr(v, "thread %lld is not a thread index (%zu threads)",
			    (long long)json_integer_value(th), nthreads);
	tv = json_number_value(t);
	if (tv < *t_prev)
		return verr(v, "t %g is before the previous event's %g "
			    "(events must be in order)", tv, *t_prev);
	*t_prev = tv;
	return 0;
}

static int check_trace(struct vctx *v, json_t *tr)
{
	json_t *threads, *events, *total, *first, *failing, *x, *ev;
	double t_prev = -1e300;
	long long lo, n, tot;
	size_t i, mark;

	if (field(v, tr, "time_unit", JSON_STRING, F_OPT, &x) ||
	    array_of(v, tr, "threads", JSON_STRING, F_REQ, &threads) ||
	    field(v, tr, "total_events", JSON_INTEGER, F_REQ, &total) ||
	    field(v, tr, "dropped", JSON_INTEGER, F_OPT, &x) ||
	    field(v, tr, "events", JSON_ARRAY, F_REQ, &events) ||
	    field(v, tr, "first_index", JSON_INTEGER, F_REQ, &first) ||
	    field(v, tr, "failing_event", JSON_INTEGER, F_NULL, &failing))
		return -1;
	if (!json_array_size(threads))
		return verr(v, "trace has no threads");
	json_array_foreach(events, i, ev) {
		int bad;

		mark = vpush(v, ".events[%zu]", i);
		bad = !json_is_object(ev) ?
			verr(v, "expected an object, got %s",
			     type_name(json_typeof(ev))) :
			check_event(v, ev, json_array_size(threads), &t_prev);
		vpop(v, mark);
		if (bad)
			return -1;
	}
	lo = json_integer_value(first);
	n = (long long)json_array_size(events);
	tot = json_integer_value(total);
	if (lo + n > tot)
		return verr(v, "events %lld-%lld lie beyond total_events %lld",
			    lo, lo + n - 1, tot);
	if (failing && json_integer_value(failing) >= tot)
		return verr(v, "failing_event %lld is beyond total_events %lld",
			    (long long)json_integer_value(failing), tot);
	return 0;
}

static int check_walk_steps(struct vctx *v, json_t *fl, json_t **steps)
{
	json_t *st, *x;
	size_t i, mark;
	int bad = 0;

	if (field(v, fl, "walk_steps", JSON_ARRAY, F_NULL, steps))
		return -1;
	if (!*steps)
		return 0;
	json_array_foreach(*steps, i, st) {
		static const char *const strs[] = { "kind", "text", NULL };

		mark = vpush(v, ".walk_steps[%zu]", i);
		if (!json_is_object(st))
			bad = verr(v, "expected an object");
		else
			bad = field(v, st, "attempt", JSON_INTEGER, F_OPT, &x) ||
			      fields(v, st, JSON_STRING, F_OPT, strs) ||
			      field(v, st, "validated", WT_JSON_BOOL, F_OPT, &x);
		vpop(v, mark);
		if (bad)
			return -1;
	}
	return 0;
}

/* "objects": the key from object ids to paths and filesystems. */
static int check_objects(struct vctx *v, json_t *fl)
{
	static const char *const strs[] = { "path", "fs", "note", NULL };
	json_t *objs, *o, *x;
	size_t i, mark;
	int bad = 0;

	if (field(v, fl, "objects", JSON_ARRAY, F_NULL, &objs))
		return -1;
	json_array_foreach(objs, i, o) {
		mark = vpush(v, ".objects[%zu]", i);
		if (!json_is_object(o))
			bad = verr(v, "expected an object");
		else
			bad = field(v, o, "id", JSON_STRING, F_REQ, &x) ||
			      fields(v, o, JSON_STRING, F_NULL, strs);
		vpop(v, mark);
		if (bad)
			return -1;
	}
	return 0;
}

static int check_failure(struct vctx *v, json_t *fl)
{
	static const char *const req_str[] = { "kind", "message", "replay", NULL };
	static const char *const null_str[] = {
		"check", "seed", "thread", "explanation", "preempts", NULL };
	json_t *walk, *steps, *step, *tr, *x;
	size_t mark;

	if (fields(v, fl, JSON_STRING, F_REQ, req_str) ||
	    fields(v, fl, JSON_STRING, F_NULL, null_str) ||
	    field(v, fl, "iteration", JSON_INTEGER, F_NULL, &x) ||
	    field(v, fl, "walk", JSON_OBJECT, F_NULL, &walk) ||
	    field(v, fl, "step", JSON_INTEGER, F_NULL, &step) ||
	    check_walk_steps(v, fl, &steps) || check_objects(v, fl) ||
	    array_of(v, fl, "history_window", JSON_STRING, F_NULL, &x) ||
	    array_of(v, fl, "schedule", JSON_STRING, F_NULL, &x) ||
	    field(v, fl, "trace", JSON_OBJECT, F_NULL, &tr))
		return -1;
	if (walk) {
		static const char *const wstr[] = {
			"entry", "path", "flags", "result", NULL };
		int bad;

		mark = vpush(v, ".walk");
		bad = fields(v, walk, JSON_STRING, F_NULL, wstr) ||
		      field(v, walk, "attempt", JSON_INTEGER, F_NULL, &x);
		vpop(v, mark);
		if (bad)
			return -1;
	}
	if (step && (!steps || (size_t)json_integer_value(step) >=
			       json_array_size(steps)))
		return verr(v, "step %lld is not an index in walk_steps (%zu steps)",
			    (long long)json_integer_value(step),
			    steps ? json_array_size(steps) : 0);
	if (tr) {
		int bad;

		mark = vpush(v, ".trace");
		bad = check_trace(v, tr);
		vpop(v, mark);
		if (bad)
			return -1;
	}
	return 0;
}

static int check_expectations(struct vctx *v, json_t *sc)
{
	json_t *arr, *e, *x;
	size_t i, mark;

	if (field(v, sc, "expectations", JSON_ARRAY, F_NULL, &arr))
		return -1;
	if (!arr)
		return 0;
	json_array_foreach(arr, i, e) {
		int bad;

		mark = vpush(v, ".expectations[%zu]", i);
		bad = !json_is_object(e) ? verr(v, "expected an object") :
		      field(v, e, "text", JSON_STRING, F_REQ, &x) ||
		      field(v, e, "ok", WT_JSON_BOOL, F_REQ, &x) ||
		      field(v, e, "actual", JSON_STRING, F_NULL, &x);
		vpop(v, mark);
		if (bad)
			return -1;
	}
	return 0;
}

static int check_failures(struct vctx *v, json_t *sc, int verdict_fail)
{
	json_t *arr, *fl;
	size_t i, mark;

	if (field(v, sc, "failures", JSON_ARRAY, F_REQ, &arr))
		return -1;
	json_array_foreach(arr, i, fl) {
		int bad;

		mark = vpush(v, ".failures[%zu]", i);
		bad = !json_is_object(fl) ?
			verr(v, "expected an object, got %s",
			     type_name(json_typeof(fl))) :
			check_failure(v, fl);
		vpop(v, mark);
		if (bad)
			return -1;
	}
	if (!verdict_fail && json_array_size(arr))
		return verr(v, "verdict PASS with %zu failures",
			    json_array_size(arr));
	return 0;
}

/*
 * One target of a twin.  Besides the types: a target cannot have been
 * seen in more iterations than the twin ran, nor counted fewer times
 * than the iterations that counted it, and it has a first iteration
 * exactly when some iteration counted it -- a file that breaks one of
 * these would make the report's rate or "not seen" lie.
 */
static int check_target(struct vctx *v, json_t *t, long long scenario_iterations)
{
	json_t *x, *count, *iterations, *first;
	long long n;

	if (!json_is_object(t))
		return verr(v, "expected an object, got %s",
			    type_name(json_typeof(t)));
	if (field(v, t, "path", JSON_STRING, F_REQ, &x) ||
	    field(v, t, "count", JSON_INTEGER, F_REQ, &count) ||
	    field(v, t, "iterations", JSON_INTEGER, F_REQ, &iterations) ||
	    field(v, t, "first_iteration", JSON_INTEGER, F_REQ | F_NULL, &first))
		return -1;
	n = json_integer_value(iterations);
	if (n > scenario_iterations)
		return verr(v, "iterations %lld exceed the scenario's iterations %lld",
			    n, scenario_iterations);
	if (n > json_integer_value(count))
		return verr(v, "iterations %lld exceed count %lld (each of them "
			    "counted the path at least once)", n,
			    (long long)json_integer_value(count));
	if ((n > 0) != (first != NULL))
		return verr(v, "first_iteration is %s but iterations is %lld",
			    first ? "set" : "null", n);
	if (first && json_integer_value(first) >= scenario_iterations)
		return verr(v, "first_iteration %lld is not an iteration index "
			    "(%lld iterations)", (long long)json_integer_value(first),
			    scenario_iterations);
	return 0;
}

/* Target i's path must not repeat an earlier one: merging matches by path. */
static int check_target_unique(struct vctx *v, json_t *targets, size_t i)
{
	const char *path = wt_json_str(json_array_get(targets, i), "path");

	for (size_t j = 0; j < i; j++)
		if (!strcmp(wt_json_str(json_array_get(targets, j), "path"), path))
			return verr(v, "path \"%s\" repeats targets[%zu]",
				    path, j);
	return 0;
}

/* An undirected twin's measurements (SCHEMA.md, "twin"), when present. */
static int check_twin(struct vctx *v, json_t *sc)
{
	long long iterations = wt_json_int(sc, "iterations", 0);
	json_t *twin, *targets, *t, *x;
	size_t i, mark;
	int bad = 0;

	if (field(v, sc, "twin", JSON_OBJECT, F_OPT, &twin))
		return -1;
	if (!twin)
		return 0;
	mark = vpush(v, ".twin");
	if (field(v, twin, "of", JSON_STRING, F_REQ, &x) ||
	    field(v, twin, "pct_steps", JSON_INTEGER, F_REQ, &x) ||
	    field(v, twin, "targets", JSON_ARRAY, F_REQ, &targets))
		return -1;
	json_array_foreach(targets, i, t) {
		size_t tmark = vpush(v, ".targets[%zu]", i);

		bad = check_target(v, t, iterations) ||
		      check_target_unique(v, targets, i);
		vpop(v, tmark);
		if (bad)
			return -1;
	}
	vpop(v, mark);
	return 0;
}

/* Failure groups (SCHEMA.md "groups"), when present: each names a
 * signature once, and its representative is a kept record. */
static int check_groups(struct vctx *v, json_t *sc)
{
	static const char *const null_str[] = {
		"check", "first_seed", "last_seed", NULL };
	size_t nf = json_array_size(json_object_get(sc, "failures")), i, mark;
	json_t *groups, *g, *x, *rep;
	int bad = 0;

	if (field(v, sc, "failing_iterations", JSON_INTEGER, F_OPT, &x) ||
	    field(v, sc, "failure_records", JSON_INTEGER, F_OPT, &x))
		return -1;
	if (x && json_integer_value(x) < (json_int_t)nf)
		return verr(v, "failure_records %lld is fewer than the %zu kept",
			    (long long)json_integer_value(x), nf);
	if (field(v, sc, "groups", JSON_ARRAY, F_OPT, &groups))
		return -1;
	if (!groups)
		return 0;
	json_array_foreach(groups, i, g) {
		mark = vpush(v, ".groups[%zu]", i);
		bad = !json_is_object(g) ? verr(v, "expected an object") :
		      field(v, g, "signature", JSON_STRING, F_REQ, &x) ||
		      field(v, g, "kind", JSON_STRING, F_REQ, &x) ||
		      fields(v, g, JSON_STRING, F_NULL, null_str) ||
		      field(v, g, "count", JSON_INTEGER, F_REQ, &x) ||
		      field(v, g, "first_iteration", JSON_INTEGER, F_NULL, &x) ||
		      field(v, g, "last_iteration", JSON_INTEGER, F_NULL, &x) ||
		      field(v, g, "representative", JSON_INTEGER, F_NULL, &rep);
		if (!bad && rep && (size_t)json_integer_value(rep) >= nf)
			bad = verr(v, "representative %lld is not an index in "
				   "failures (%zu kept)", (long long)
				   json_integer_value(rep), nf);
		vpop(v, mark);
		if (bad)
			return -1;
	}
	return 0;
}

static int check_scenario(struct vctx *v, json_t *sc, int *fail)
{
	static const char *const req_str[] = { "name", "suite", NULL };
	static const char *const opt_str[] = {
		"file", "description", "mode", "policy", "seed", NULL };
	json_t *x;

	if (fields(v, sc, JSON_STRING, F_REQ, req_str) ||
	    fields(v, sc, JSON_STRING, F_NULL, opt_str) ||
	    field(v, sc, "digest", JSON_STRING, F_NULL, &x) ||
	    field(v, sc, "iterations", JSON_INTEGER, F_REQ, &x) ||
	    field(v, sc, "duration_s", WT_JSON_NUMBER, F_OPT, &x) ||
	    check_verdict(v, sc, fail) ||
	    array_of(v, sc, "threads", JSON_STRING, F_NULL, &x) ||
	    counts(v, sc, "paths", F_REQ) ||
	    counts(v, sc, "points", F_NULL) ||
	    check_expectations(v, sc) ||
	    field(v, sc, "detection", JSON_OBJECT, F_NULL, &x) ||
	    check_twin(v, sc) ||
	    check_failures(v, sc, *fail) || check_groups(v, sc))
		return -1;
	return 0;
}

static int check_header(struct vctx *v, json_t *doc)
{
	json_t *x;

	if (!json_is_object(doc))
		return verr(v, "expected a JSON object at the top level, got %s",
			    type_name(json_typeof(doc)));
	if (field(v, doc, "schema", JSON_STRING, F_REQ, &x))
		return -1;
	if (strcmp(json_string_value(x), WT_RESULTS_SCHEMA))
		return verr(v, "schema is \"%s\", not \"%s\"",
			    json_string_value(x), WT_RESULTS_SCHEMA);
	x = json_object_get(doc, "schema_version");
	if (!json_is_integer(x))
		return verr(v, "schema_version: expected an integer");
	if (json_integer_value(x) != WT_RESULTS_VERSION)
		return verr(v, "schema_version %lld is not supported "
			    "(this walktorture reads version %d)",
			    (long long)json_integer_value(x), WT_RESULTS_VERSION);
	return 0;
}

static int check_runs(struct vctx *v, json_t *doc)
{
	json_t *run, *runs;
	size_t i, mark;

	if (field(v, doc, "run", JSON_OBJECT, F_REQ, &run))
		return -1;
	mark = vpush(v, "run");
	if (check_run(v, run))
		return -1;
	vpop(v, mark);
	if (field(v, doc, "runs", JSON_ARRAY, F_NULL, &runs))
		return -1;
	if (!runs)
		return 0;
	json_array_foreach(runs, i, run) {
		mark = vpush(v, "runs[%zu]", i);
		if (!json_is_object(run))
			return verr(v, "expected an object");
		if (check_run(v, run))
			return -1;
		vpop(v, mark);
	}
	return 0;
}

static int check_summary(struct vctx *v, json_t *doc, long long passed,
			 long long failed)
{
	json_t *sum, *p, *f;

	if (field(v, doc, "summary", JSON_OBJECT, F_REQ, &sum))
		return -1;
	vpush(v, "summary");
	if (field(v, sum, "passed", JSON_INTEGER, F_REQ, &p) ||
	    field(v, sum, "failed", JSON_INTEGER, F_REQ, &f))
		return -1;
	if (json_integer_value(p) != passed || json_integer_value(f) != failed)
		return verr(v, "says %lld passed, %lld failed, but the scenarios "
			    "say %lld passed, %lld failed",
			    (long long)json_integer_value(p),
			    (long long)json_integer_value(f), passed, failed);
	vpop(v, 0);
	return 0;
}

int wt_results_validate(const char *file, json_t *doc, char *err, size_t errlen)
{
	struct vctx v = { .file = file, .err = err, .errlen = errlen };
	long long passed = 0, failed = 0;
	json_t *scenarios, *sc;
	size_t i, mark;

	err[0] = 0;
	if (check_header(&v, doc) || check_runs(&v, doc) ||
	    field(&v, doc, "scenarios", JSON_ARRAY, F_REQ, &scenarios))
		return -1;
	json_array_foreach(scenarios, i, sc) {
		int fail = 0;

		mark = vpush(&v, "scenarios[%zu]", i);
		if (!json_is_object(sc))
			return verr(&v, "expected an object, got %s",
				    type_name(json_typeof(sc)));
		if (check_scenario(&v, sc, &fail))
			return -1;
		vpop(&v, mark);
		fail ? failed++ : passed++;
	}
	return check_summary(&v, doc, passed, failed);
}

/* A killed run's journal: its finished scenarios, marked partial. */
static int load_journal(const char *file, json_t **out, char *err,
			size_t errlen)
{
	unsigned lines, dropped;

	if (wt_journal_read(file, "killed", out, &lines, &dropped, err,
			    errlen))
		return -1;
	if (!*out) {
		snprintf(err, errlen, "%s: no scenario finished (a journal "
			 "with no whole line)", file);
		return -1;
	}
	return 0;
}

int wt_results_load(const char *file, json_t **out, char *err, size_t errlen)
{
	size_t n = strlen(file), sn = strlen(WT_JOURNAL_SUFFIX);
	json_error_t je;
	json_t *doc;

	*out = NULL;
	if (n > sn && !strcmp(file + n - sn, WT_JOURNAL_SUFFIX))
		return load_journal(file, out, err, errlen);
	doc = json_load_file(file, JSON_REJECT_DUPLICATES, &je);
	if (!doc) {
		if (je.line > 0)
			snprintf(err, errlen, "%s:%d:%d: %s", file, je.line,
				 je.column, je.text);
		else
			snprintf(err, errlen, "%s: %s", file, je.text);
		return -1;
	}
	if (wt_results_validate(file, doc, err, errlen)) {
		json_decref(doc);
		return -1;
	}
	*out = doc;
	return 0;
}

/* A document's runs: its "runs" (a merge's inputs) or its one "run". */
static size_t runs_of(json_t *doc, json_t **one, json_t **runs)
{
	*runs = json_object_get(doc, "runs");
	*one = json_object_get(doc, "run");
	if (json_is_array(*runs) && json_array_size(*runs))
		return json_array_size(*runs);
	*runs = NULL;
	return 1;
}

static json_t *run_at(json_t *one, json_t *runs, size_t i)
{
	return runs ? json_array_get(runs, i) : one;
}

/* The same run, wherever its file was: every field but its "source". */
static bool same_run(json_t *a, json_t *b)
{
	json_t *x = json_deep_copy(a), *y = json_deep_copy(b);
	bool same;

	json_object_del(x, "source");
	json_object_del(y, "source");
	same = x && y && json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return same;
}

/*
 * A run in two inputs (the same file twice, a shard and a merge that
 * holds it) would be counted twice: refused, naming both files.
 */
static int distinct_runs(json_t *const *docs, const char *const *files,
			 unsigned n, char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++) {
		json_t *one_i, *runs_i;
		size_t ni = runs_of(docs[i], &one_i, &runs_i);

		for (unsigned j = 0; j <= i; j++) {
			json_t *one_j, *runs_j;
			size_t nj = runs_of(docs[j], &one_j, &runs_j);

			for (size_t a = 0; a < ni; a++) {
				json_t *ra = run_at(one_i, runs_i, a);

				for (size_t b = 0; b < (j < i ? nj : a); b++) {
					json_t *rb = run_at(one_j, runs_j, b);

					if (!same_run(ra, rb))
						continue;
					snprintf(err, errlen, "%s: its run (seed %s, "
						 "started %s%s%s) is already in %s: "
						 "merging it again would count it twice",
						 files[i], wt_json_str(ra, "seed") ?: "?",
						 wt_json_str(ra, "started") ?: "?",
						 wt_json_str(ra, "shard") ? ", shard " : "",
						 wt_json_str(ra, "shard") ?: "", files[j]);
					return -1;
				}
			}
		}
	}
	return 0;
}

int wt_results_load_all(const char *const *files, unsigned n, json_t **out,
			char *err, size_t errlen)
{
	json_t **docs;
	int ret = -1;
	unsigned i;

	*out = NULL;
	if (!n) {
		snprintf(err, errlen, "no results files given");
		return -1;
	}
	docs = calloc(n, sizeof(*docs));
	if (!docs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (wt_results_load(files[i], &docs[i], err, errlen))
			goto out;
	if (distinct_runs(docs, files, n, err, errlen))
		goto out;
	*out = n == 1 ? json_incref(docs[0]) : wt_results_merge(docs, files, n);
	ret = *out ? 0 : -1;
	if (ret)
		snprintf(err, errlen, "out of memory merging results");
out:
	for (i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	return ret;
}

int wt_results_write(const char *file, json_t *doc, char *err, size_t errlen)
{
	struct wt_atomic_file a;

	if (wt_atomic_open(&a, file, err, errlen))
		return -1;
	if (json_dumpf(doc, a.f, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
				  JSON_ENSURE_ASCII) ||
	    fputc('\n', a.f) == EOF) {
		snprintf(err, errlen, "%s: write failed", file);
		wt_atomic_abort(&a);
		return -1;
	}
	return wt_atomic_commit(&a, err, errlen);
}

const char *wt_json_str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

long long wt_json_int(json_t *obj, const char *key, long long def)
{
	json_t *x = json_object_get(obj, key);

	return json_is_integer(x) ? (long long)json_integer_value(x) : def;
}

double wt_json_num(json_t *obj, const char *key, double def)
{
	json_t *x = json_object_get(obj, key);

	return json_is_number(x) ? json_number_value(x) : def;
}

const char *wt_scenario_verdict(json_t *scenario)
{
	const char *s = wt_json_str(scenario, "verdict");

	return s && !strcmp(s, "PASS") ? "PASS" : "FAIL";
}

void wt_results_totals(json_t *doc, struct wt_results_totals *t)
{
	json_t *sc;
	size_t i;

	memset(t, 0, sizeof(*t));
	json_array_foreach(json_object_get(doc, "scenarios"), i, sc) {
		t->scenarios++;
		if (!strcmp(wt_scenario_verdict(sc), "FAIL"))
			t->failed++;
		json_t *g = wt_scenario_groups(sc);

		t->failures += wt_scenario_failure_records(sc);
		t->failing_iterations += wt_scenario_failing_iterations(sc);
		t->signatures += (long long)json_array_size(g);
		json_decref(g);
		t->iterations += wt_json_int(sc, "iterations", 0);
	}
}

const char *wt_results_verdict(json_t *doc)
{
	struct wt_results_totals t;

	wt_results_totals(doc, &t);
	/* No scenario at all is a broken run, not a clean one. */
	return t.scenarios && !t.failed ? "PASS" : "FAIL";
}

long long wt_scenario_failure_records(json_t *sc)
{
	json_t *x = json_object_get(sc, "failure_records");

	if (json_is_integer(x))
		return json_integer_value(x);
	return (long long)json_array_size(json_object_get(sc, "failures"));
}

long long wt_scenario_failing_iterations(json_t *sc)
{
	json_t *x = json_object_get(sc, "failing_iterations"), *f, *g;
	long long n = 0;
	size_t i, j;

	if (json_is_integer(x))
		return json_integer_value(x);
	json_array_foreach(json_object_get(sc, "failures"), i, f) {
		const char *seed = wt_json_str(f, "seed");
		bool seen = false;

		json_array_foreach(json_object_get(sc, "failures"), j, g) {
			if (j >= i)
				break;
			seen |= seed && wt_json_str(g, "seed") &&
				!strcmp(seed, wt_json_str(g, "seed"));
		}
		n += !seen;
	}
	return n;
}

json_t *wt_scenario_groups(json_t *sc)
{
	json_t *groups = json_object_get(sc, "groups"), *f, *g;
	char sig[256];
	size_t i;

	if (json_is_array(groups))
		return json_incref(groups);
	groups = json_array();
	json_array_foreach(json_object_get(sc, "failures"), i, f) {
		const char *check = wt_json_str(f, "check");
		size_t k;

		snprintf(sig, sizeof(sig), "%s%s%s", wt_json_str(f, "kind"),
			 check ? " " : "", check ? check : "");
		g = NULL;
		json_array_foreach(groups, k, g)
			if (!strcmp(wt_json_str(g, "signature"), sig))
				break;
		if (k < json_array_size(groups)) {
			json_object_set_new(g, "count", json_integer(
				wt_json_int(g, "count", 0) + 1));
			json_object_set(g, "last_seed",
					json_object_get(f, "seed") ?: json_null());
			continue;
		}
		json_array_append_new(groups, json_pack(
			"{s:s, s:s, s:O, s:I, s:O, s:O, s:O, s:O, s:I}",
			"signature", sig, "kind", wt_json_str(f, "kind"),
			"check", json_object_get(f, "check") ?: json_null(),
			"count", (json_int_t)1,
			"first_seed", json_object_get(f, "seed") ?: json_null(),
			"last_seed", json_object_get(f, "seed") ?: json_null(),
			"first_iteration", json_object_get(f, "iteration") ?:
			json_null(), "last_iteration",
			json_object_get(f, "iteration") ?: json_null(),
			"representative", (json_int_t)i));
	}
	return groups;
}

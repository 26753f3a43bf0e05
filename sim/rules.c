/* SPDX-License-Identifier: MIT */
/*
 * Injection rules: the text syntax, point sets, and the matcher that runs
 * in the hook's slow path.  See rules.h for the syntax.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/obj.h"
#include "sim/rules.h"

static int perr(struct wt_parse_error *err, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct wt_parse_error *err, size_t pos, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->pos = pos;
	err->line = err->line ? err->line : 1;
	err->col = (unsigned)pos + 1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void wt_rule_init(struct wt_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->obj_type = -1;
	r->p = 1.0;
	r->action = WT_RULE_COUNT;
	r->timeout_ns = WT_PREEMPT_TIMEOUT_DEFAULT_NS;
}

/* ---- durations and distributions ---- */

int wt_duration_parse(const char *s, uint64_t *ns, const char **end)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "ns", 1.0 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "m", 60e9 }, { "h", 3600e9 },	/* after "ms": "m" is its prefix */
	};
	char *e;
	double v;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	errno = 0;
	v = strtod(s, &e);
	if (errno || v < 0 || e == s)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t len = strlen(units[i].unit);

		if (strncmp(e, units[i].unit, len) == 0 &&
		    !isalpha((unsigned char)e[len])) {
			v *= units[i].mult;
			e += len;
			break;
		}
	}
	if (isalpha((unsigned char)*e) || v > 1e18)
		return -1;
	*ns = (uint64_t)(v + 0.5);
	if (end)
		*end = e;
	return 0;
}

/* Parse "NAME(" ... ")" arguments: one or two durations. */
static int dist_args(const char *s, size_t off, uint64_t *a, uint64_t *b,
		     bool two, struct wt_parse_error *err)
{
	const char *p = s + off, *e;

	if (wt_duration_parse(p, a, &e))
		return perr(err, (size_t)(p - s), "expected a duration");
	p = e;
	if (two) {
		if (*p != ',')
			return perr(err, (size_t)(p - s), "expected ','");
		p++;
		if (wt_duration_parse(p, b, &e))
			return perr(err, (size_t)(p - s), "expected a duration");
		p = e;
	}
	if (*p != ')')
		return perr(err, (size_t)(p - s), "expected ')'");
	if (p[1])
		return perr(err, (size_t)(p + 1 - s), "junk after ')'");
	return 0;
}

int wt_dist_parse(const char *s, struct wt_dist *d, struct wt_parse_error *err)
{
	const char *e;

	memset(d, 0, sizeof(*d));
	if (strncmp(s, "uniform(", 8) == 0) {
		d->kind = WT_DIST_UNIFORM;
		if (dist_args(s, 8, &d->a_ns, &d->b_ns, true, err))
			return -1;
		if (d->b_ns < d->a_ns)
			return perr(err, 8, "uniform(A,B) needs A <= B");
		return 0;
	}
	if (strncmp(s, "exp(", 4) == 0) {
		d->kind = WT_DIST_EXP;
		return dist_args(s, 4, &d->a_ns, NULL, false, err);
	}
	d->kind = WT_DIST_FIXED;
	if (wt_duration_parse(s, &d->a_ns, &e))
		return perr(err, 0, "expected a duration, uniform(A,B) or exp(MEAN)");
	if (*e)
		return perr(err, (size_t)(e - s), "junk after the duration");
	return 0;
}

uint64_t wt_dist_sample(const struct wt_dist *d, struct wt_prng *r)
{
	switch (d->kind) {
	case WT_DIST_FIXED:
		return d->a_ns;
	case WT_DIST_UNIFORM:
		return d->a_ns + wt_prng_below(r, d->b_ns - d->a_ns + 1);
	case WT_DIST_EXP:
		return (uint64_t)wt_prng_exp(r, (double)d->a_ns);
	}
	return 0;
}

/* ---- one key ---- */

static int copy_str(char *dst, size_t size, const char *v,
		    struct wt_parse_error *err)
{
	if (!v || !*v)
		return perr(err, 0, "empty value");
	if (strlen(v) >= size)
		return perr(err, size - 1, "value too long (max %zu)", size - 1);
	strcpy(dst, v);
	return 0;
}

static int parse_u64(const char *v, uint64_t *out, bool nonzero,
		     struct wt_parse_error *err)
{
	char *e;

	if (!v || !isdigit((unsigned char)*v))
		return perr(err, 0, "expected a number");
	errno = 0;
	*out = strtoull(v, &e, 10);
	if (errno || *e)
		return perr(err, (size_t)(e - v), "expected a number");
	if (nonzero && *out == 0)
		return perr(err, 0, "must be at least 1");
	return 0;
}

static int parse_objtype(const char *v, int *out, struct wt_parse_error *err)
{
	for (int k = 0; k < WT_OBJ__COUNT; k++)
		if (strcmp(v, wt_obj_type_name(k)) == 0) {
			*out = k;
			return 0;
		}
	return perr(err, 0, "unknown object type '%s' (dentry, inode, mount, "
		    "super_block, name, link, object)", v);
}

/* A pattern must select something that exists: a typo is an error. */
static int check_pattern(const char *pattern, struct wt_parse_error *err)
{
	struct wt_point_set set;

	if (wt_point_set_build(&set, pattern, err))
		return -1;
	wt_point_set_free(&set);
	return 0;
}

static int parse_preempt(struct wt_rule *r, const char *v,
			 struct wt_parse_error *err)
{
	const char *at = v ? strchr(v, '@') : NULL;
	size_t tlen;

	if (!at || at == v || !at[1])
		return perr(err, 0, "expected preempt-until=THREAD@POINT");
	tlen = (size_t)(at - v);
	if (tlen >= sizeof(r->preempt_thread))
		return perr(err, 0, "thread name too long");
	memcpy(r->preempt_thread, v, tlen);
	r->preempt_thread[tlen] = '\0';
	if (copy_str(r->preempt_point, sizeof(r->preempt_point), at + 1, err) ||
	    check_pattern(r->preempt_point, err)) {
		err->pos += tlen + 1;
		return -1;
	}
	r->action = WT_RULE_PREEMPT;
	return 0;
}

static int parse_p(struct wt_rule *r, const char *v, struct wt_parse_error *err)
{
	char *e;

	if (!v || !*v)
		return perr(err, 0, "expected a probability");
	errno = 0;
	r->p = strtod(v, &e);
	if (errno || *e || e == v)
		return perr(err, (size_t)(e - v), "expected a probability");
	if (r->p < 0.0 || r->p > 1.0)
		return perr(err, 0, "probability must be in [0, 1]");
	return 0;
}

static int set_action(struct wt_rule *r, enum wt_rule_action a,
		      const char *key, const char *value,
		      struct wt_parse_error *err)
{
	if (value && a != WT_RULE_DELAY)
		return perr(err, 0, "'%s' takes no value", key);
	r->action = a;
	if (a != WT_RULE_DELAY)
		return 0;
	if (!value) {
		r->delay.kind = WT_DIST_UNIFORM;
		r->delay.a_ns = 0;
		r->delay.b_ns = WT_DELAY_DEFAULT_MAX_NS;
		return 0;
	}
	return wt_dist_parse(value, &r->delay, err);
}

#define KEYS "at, thread, role, component, obj, objtype, p, nth, every, " \
	     "delay, yield, preempt-until, timeout, fail, count"

int wt_rule_set(struct wt_rule *r, const char *key, const char *value,
		struct wt_parse_error *err)
{
	struct wt_parse_error scratch = { 0 };

	if (!err)
		err = &scratch;
	if (strcmp(key, "delay") == 0)
		return set_action(r, WT_RULE_DELAY, key, value, err);
	if (strcmp(key, "yield") == 0)
		return set_action(r, WT_RULE_YIELD, key, value, err);
	if (strcmp(key, "fail") == 0)
		return set_action(r, WT_RULE_FAIL, key, value, err);
	if (strcmp(key, "count") == 0)
		return set_action(r, WT_RULE_COUNT, key, value, err);
	if (strcmp(key, "preempt-until") == 0)
		return parse_preempt(r, value, err);
	if (!value)
		return perr(err, 0, "'%s' needs a value (%s=...)", key, key);
	if (strcmp(key, "at") == 0) {
		if (copy_str(r->at, sizeof(r->at), value, err))
			return -1;
		return check_pattern(r->at, err);
	}
	if (strcmp(key, "thread") == 0 || strcmp(key, "role") == 0) {
		r->thread_is_role = key[0] == 'r';
		return copy_str(r->thread, sizeof(r->thread), value, err);
	}
	if (strcmp(key, "component") == 0)
		return copy_str(r->component, sizeof(r->component), value, err);
	if (strcmp(key, "obj") == 0) {
		r->has_obj_id = true;
		return parse_u64(value, &r->obj_id, false, err);
	}
	if (strcmp(key, "objtype") == 0)
		return parse_objtype(value, &r->obj_type, err);
	if (strcmp(key, "p") == 0)
		return parse_p(r, value, err);
	if (strcmp(key, "nth") == 0)
		return parse_u64(value, &r->nth, true, err);
	if (strcmp(key, "every") == 0)
		return parse_u64(value, &r->every, true, err);
	if (strcmp(key, "timeout") == 0) {
		const char *e;

		if (wt_duration_parse(value, &r->timeout_ns, &e) || *e)
			return perr(err, 0, "expected a duration");
		return 0;
	}
	return perr(err, 0, "unknown key '%s' (%s)", key, KEYS);
}

/* ---- a whole line ---- */

static bool key_known(const char *key)
{
	static const char *const keys[] = {
		"at", "thread", "role", "component", "obj", "objtype", "p",
		"nth", "every", "delay", "yield", "preempt-until", "timeout",
		"fail", "count",
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

/* The end of the token at s: whitespace outside parentheses. */
static const char *token_end(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && depth > 0)
			depth--;
		else if (isspace((unsigned char)*s) && depth == 0)
			break;
	}
	return s;
}

static int parse_token(struct wt_rule *r, const char *text, const char *tok,
		       size_t len, struct wt_parse_error *err)
{
	char buf[256];
	char *eq, *value = NULL;
	size_t base = (size_t)(tok - text);

	if (len >= sizeof(buf))
		return perr(err, base, "token too long");
	memcpy(buf, tok, len);
	buf[len] = '\0';
	eq = strchr(buf, '=');
	if (eq) {
		*eq = '\0';
		value = eq + 1;
		if (eq == buf)
			return perr(err, base, "missing key before '='");
	}
	if (!key_known(buf))
		return perr(err, base, "unknown key '%s' (%s)", buf, KEYS);
	if (wt_rule_set(r, buf, value, err)) {
		/* Positions from wt_rule_set are relative to the value (or
		 * the key): make them absolute. */
		err->pos += base + (value ? (size_t)(value - buf) : 0);
		err->col = (unsigned)err->pos + 1;
		return -1;
	}
	return 0;
}

int wt_rule_parse(const char *text, struct wt_rule *r,
		  struct wt_parse_error *err)
{
	const char *s = text;
	bool any = false;

	wt_rule_init(r);
	if (err)
		memset(err, 0, sizeof(*err));
	for (;;) {
		const char *e;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			break;
		e = token_end(s);
		if (parse_token(r, text, s, (size_t)(e - s), err))
			return -1;
		any = true;
		s = e;
	}
	if (!any)
		return perr(err, 0, "empty rule");
	if (r->nth && r->every)
		return perr(err, 0, "nth= and every= exclude each other");
	return 0;
}

static void fmt_dur(char *buf, size_t size, uint64_t ns)
{
	if (ns && ns % 1000000000ull == 0)
		snprintf(buf, size, "%" PRIu64 "s", ns / UINT64_C(1000000000));
	else if (ns && ns % 1000000ull == 0)
		snprintf(buf, size, "%" PRIu64 "ms", ns / UINT64_C(1000000));
	else if (ns && ns % 1000ull == 0)
		snprintf(buf, size, "%" PRIu64 "us", ns / UINT64_C(1000));
	else
		snprintf(buf, size, "%" PRIu64 "ns", ns);
}

static void fmt_action(const struct wt_rule *r, char *buf, size_t size)
{
	char a[32], b[32];

	fmt_dur(a, sizeof(a), r->delay.a_ns);
	fmt_dur(b, sizeof(b), r->delay.b_ns);
	switch (r->action) {
	case WT_RULE_COUNT:
		snprintf(buf, size, "count");
		break;
	case WT_RULE_YIELD:
		snprintf(buf, size, "yield");
		break;
	case WT_RULE_FAIL:
		snprintf(buf, size, "fail");
		break;
	case WT_RULE_PREEMPT:
		fmt_dur(a, sizeof(a), r->timeout_ns);
		snprintf(buf, size, "preempt-until=%s@%s timeout=%s",
			 r->preempt_thread, r->preempt_point, a);
		break;
	case WT_RULE_DELAY:
		if (r->delay.kind == WT_DIST_UNIFORM)
			snprintf(buf, size, "delay=uniform(%s,%s)", a, b);
		else if (r->delay.kind == WT_DIST_EXP)
			snprintf(buf, size, "delay=exp(%s)", a);
		else
			snprintf(buf, size, "delay=%s", a);
		break;
	}
}

int wt_rule_format(const struct wt_rule *r, char *buf, size_t size)
{
	char act[256], sel[256] = "";
	size_t n = 0;

#define ADD(...) n += (size_t)snprintf(sel + n, n < sizeof(sel) ? sizeof(sel) - n : 0, __VA_ARGS__)
	if (r->at[0])
		ADD("at=%s ", r->at);
	if (r->thread[0])
		ADD("%s=%s ", r->thread_is_role ? "role" : "thread", r->thread);
	if (r->component[0])
		ADD("component=%s ", r->component);
	if (r->has_obj_id)
		ADD("obj=%" PRIu64 " ", r->obj_id);
	if (r->obj_type >= 0)
		ADD("objtype=%s ", wt_obj_type_name(r->obj_type));
	if (r->nth)
		ADD("nth=%" PRIu64 " ", r->nth);
	if (r->every)
		ADD("every=%" PRIu64 " ", r->every);
	if (r->p < 1.0)
		ADD("p=%.17g ", r->p);
#undef ADD
	fmt_action(r, act, sizeof(act));
	return snprintf(buf, size, "%s%s", sel, act);
}

/* ---- point sets ---- */

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

int wt_point_set_build(struct wt_point_set *s, const char *pattern,
		       struct wt_parse_error *err)
{
	uint32_t n = wt_point_count();
	enum { ALL, KIND, GLOB, NAME } how;
	uint64_t name_hash;
	int kind = -1;

	wt_points_catalogue();
	memset(s, 0, sizeof(*s));
	s->npoints = n;
	s->bits = calloc(n / 64 + 1, sizeof(uint64_t));
	if (!s->bits)
		return perr(err, 0, "out of memory");
	if (!pattern || !*pattern || strcmp(pattern, "*") == 0)
		how = ALL;
	else if ((kind = wt_point_kind_parse(pattern)) >= 0)
		how = KIND;
	else if (is_glob(pattern))
		how = GLOB;
	else
		how = NAME;
	/* An exact name is compared by its digest hash first (a table of
	 * them exists): a directed step's `until' set was built every
	 * iteration (the run cache keeps it now, policy.c), and a strcmp
	 * against every point's name was a tenth of a small directed
	 * iteration. */
	if (how == NAME && n)
		(void)wt_point_name_hash_slow(wt_point_by_id(0));
	name_hash = how == NAME ? wt_fnv1a(WT_FNV1A_INIT, pattern,
					   strlen(pattern)) : 0;
	for (uint32_t id = 0; id < n; id++) {
		const struct wt_point *p = wt_point_by_id(id);
		bool in;

		switch (how) {
		case ALL:
			in = true;
			break;
		case KIND:
			in = p->kind == kind;
			break;
		case GLOB:
			in = fnmatch(pattern, wt_point_name(p), 0) == 0;
			break;
		default:
			in = wt_point_hashes[id] == name_hash &&
			     strcmp(pattern, wt_point_name(p)) == 0;
			break;
		}
		if (in) {
			s->bits[id / 64] |= 1ull << (id % 64);
			s->count++;
		}
	}
	/* A glob that matches nothing is a typo as surely as a name that
	 * names nothing: a rule on it would never fire, silently. */
	if (s->count == 0 && kind < 0) {
		wt_point_set_free(s);
		return perr(err, 0, is_glob(pattern) ?
			    "no injection point matches '%s' (see walktorture points)" :
			    "unknown point '%s' (see walktorture points)",
			    pattern);
	}
	return 0;
}

void wt_point_set_free(struct wt_point_set *s)
{
	free(s->bits);
	s->bits = NULL;
	s->count = 0;
}

const struct wt_point_set *wt_point_set_cached(struct wt_point_set_cache *c,
					       const char *pattern,
					       struct wt_point_set *own,
					       struct wt_parse_error *err)
{
	for (unsigned i = 0; c && i < c->n; i++)
		if (!strcmp(c->e[i].pattern, pattern))
			return &c->e[i].set;
	if (!c || c->n == WT_POINT_SET_CACHE ||
	    strlen(pattern) >= sizeof(c->e[0].pattern))
		return wt_point_set_build(own, pattern, err) ? NULL : own;
	if (wt_point_set_build(&c->e[c->n].set, pattern, err))
		return NULL;
	strcpy(c->e[c->n].pattern, pattern);
	return &c->e[c->n++].set;
}

void wt_point_set_cache_free(struct wt_point_set_cache *c)
{
	for (unsigned i = 0; i < c->n; i++)
		wt_point_set_free(&c->e[i].set);
	c->n = 0;
}

bool wt_thread_matches(const struct wt_thread *t, const char *sel,
		       bool role_only)
{
	const char *role = t->role ? t->role : t->name;

	if (!sel || !*sel)
		return true;
	if (sel[0] == '#' && !role_only) {
		char *e;
		unsigned long id = strtoul(sel + 1, &e, 10);

		return *e == '\0' && e != sel + 1 && id == t->id;
	}
	if (role && strcmp(role, sel) == 0)
		return true;
	return !role_only && t->name && strcmp(t->name, sel) == 0;
}

/* ---- a run's compiled rules ---- */

struct compiled_rule {
	struct wt_rule rule;
	const struct wt_point_set *points;	/* the cache's, or &own */
	struct wt_point_set own;
	struct wt_point_set preempt_points;
	int32_t preempt_thread;		/* index in the run's threads */
	uint64_t matches;		/* relaxed atomics: stress threads share */
	uint64_t fires;
};

struct wt_rule_state {
	/* First (rules.h reads it through t->rules): the union of the
	 * point sets of the rules below.  A hit on a point outside it
	 * selects none of them, and is rejected with one bit test in the
	 * hook (most hits, when the rules name a few kinds of point). */
	struct wt_rules_filter filter;
	struct wt_ruleset *rs;
	unsigned n;
	unsigned idx[];			/* the rules that can select this thread */
};

struct wt_ruleset {
	unsigned n;
	struct compiled_rule *rules;
	unsigned nthreads;
	struct wt_rule_state **per_thread;
	bool needs_hits;
};

static int resolve_preempt(struct compiled_rule *cr, struct wt_thread **threads,
			   unsigned nthreads, char *err, size_t errlen)
{
	struct wt_parse_error pe = { 0 };

	cr->preempt_thread = -1;
	if (cr->rule.action != WT_RULE_PREEMPT)
		return 0;
	for (unsigned i = 0; i < nthreads; i++)
		if (wt_thread_matches(threads[i], cr->rule.preempt_thread, false)) {
			cr->preempt_thread = (int32_t)i;
			break;
		}
	if (cr->preempt_thread < 0) {
		snprintf(err, errlen, "preempt-until: no thread '%s'",
			 cr->rule.preempt_thread);
		return -1;
	}
	if (wt_point_set_build(&cr->preempt_points, cr->rule.preempt_point, &pe)) {
		snprintf(err, errlen, "preempt-until: %s", pe.msg);
		return -1;
	}
	return 0;
}

static int compile_rule(struct compiled_rule *cr, const struct wt_rule *r,
			unsigned i, struct wt_thread **threads,
			unsigned nthreads, struct wt_point_set_cache *sets,
			char *err, size_t errlen)
{
	struct wt_parse_error pe = { 0 };

	cr->rule = *r;
	cr->points = wt_point_set_cached(sets, r->at, &cr->own, &pe);
	if (!cr->points) {
		snprintf(err, errlen, "rule %u: %s", i + 1, pe.msg);
		return -1;
	}
	if (resolve_preempt(cr, threads, nthreads, err, errlen))
		return -1;
	return 0;
}

static struct wt_rule_state *thread_state(struct wt_ruleset *rs,
					  const struct wt_thread *t)
{
	struct wt_rule_state *st;

	st = calloc(1, sizeof(*st) + rs->n * sizeof(st->idx[0]));
	if (!st)
		return NULL;
	st->rs = rs;
	st->filter.npoints = wt_point_count();
	st->filter.any = calloc(st->filter.npoints / 64 + 1,
				sizeof(*st->filter.any));
	if (!st->filter.any) {
		free(st);
		return NULL;
	}
	for (unsigned i = 0; i < rs->n; i++) {
		const struct wt_point_set *ps = rs->rules[i].points;

		if (!wt_thread_matches(t, rs->rules[i].rule.thread,
				       rs->rules[i].rule.thread_is_role))
			continue;
		st->idx[st->n++] = i;
		for (uint32_t w = 0; w <= ps->npoints / 64 &&
				     w <= st->filter.npoints / 64; w++)
			st->filter.any[w] |= ps->bits[w];
	}
	return st;
}

struct wt_ruleset *wt_ruleset_create(const struct wt_rule *rules,
				     unsigned nrules,
				     struct wt_thread **threads,
				     unsigned nthreads,
				     struct wt_point_set_cache *sets,
				     char *err, size_t errlen)
{
	struct wt_ruleset *rs = calloc(1, sizeof(*rs));

	if (!rs)
		goto oom;
	rs->n = nrules;
	rs->nthreads = nthreads;
	rs->rules = calloc(nrules ? nrules : 1, sizeof(*rs->rules));
	rs->per_thread = calloc(nthreads ? nthreads : 1, sizeof(*rs->per_thread));
	if (!rs->rules || !rs->per_thread)
		goto oom;
	for (unsigned i = 0; i < nrules; i++) {
		if (compile_rule(&rs->rules[i], &rules[i], i, threads, nthreads,
				 sets, err, errlen))
			goto fail;
		if (rules[i].action == WT_RULE_PREEMPT)
			rs->needs_hits = true;
	}
	for (unsigned i = 0; i < nthreads; i++) {
		rs->per_thread[i] = thread_state(rs, threads[i]);
		if (!rs->per_thread[i])
			goto oom;
	}
	return rs;
oom:
	snprintf(err, errlen, "out of memory");
fail:
	wt_ruleset_destroy(rs);
	return NULL;
}

void wt_ruleset_destroy(struct wt_ruleset *rs)
{
	if (!rs)
		return;
	for (unsigned i = 0; rs->rules && i < rs->n; i++) {
		if (rs->rules[i].own.bits)
			wt_point_set_free(&rs->rules[i].own);
		if (rs->rules[i].preempt_points.bits)
			wt_point_set_free(&rs->rules[i].preempt_points);
	}
	for (unsigned i = 0; rs->per_thread && i < rs->nthreads; i++) {
		if (rs->per_thread[i])
			free(rs->per_thread[i]->filter.any);
		free(rs->per_thread[i]);
	}
	free(rs->per_thread);
	free(rs->rules);
	free(rs);
}

struct wt_rule_state *wt_ruleset_thread(struct wt_ruleset *rs,
					const struct wt_thread *t)
{
	if (!rs || t->id >= rs->nthreads)
		return NULL;
	return rs->per_thread[t->id]->n ? rs->per_thread[t->id] : NULL;
}

bool wt_ruleset_needs_hits(const struct wt_ruleset *rs)
{
	return rs && rs->needs_hits;
}

void wt_ruleset_stats(const struct wt_ruleset *rs, unsigned i,
		      uint64_t *matches, uint64_t *fires)
{
	*matches = __atomic_load_n(&rs->rules[i].matches, __ATOMIC_RELAXED);
	*fires = __atomic_load_n(&rs->rules[i].fires, __ATOMIC_RELAXED);
}

uint64_t wt_rule_preempt_progress(const struct wt_thread *t,
				  const struct wt_thread *other)
{
	const struct compiled_rule *cr;
	uint64_t sum = 0;

	if (!t->rules || !other->hits)
		return 0;
	cr = &t->rules->rs->rules[t->pending_preempt_rule];
	for (uint32_t w = 0; w < cr->preempt_points.npoints / 64 + 1; w++) {
		uint64_t bits = cr->preempt_points.bits[w];

		while (bits) {
			uint32_t id = w * 64 + (uint32_t)__builtin_ctzll(bits);

			bits &= bits - 1;
			/* Relaxed: the owner is the only writer. */
			sum += __atomic_load_n(&other->hits[id], __ATOMIC_RELAXED);
		}
	}
	return sum;
}

/* The object a hit is about (see rules.h). */
static const struct wt_obj *hit_object(const struct wt_thread *t,
				       const struct wt_point *p, const void *obj)
{
	if (p->kind == WT_K_LOAD || p->kind == WT_K_STORE ||
	    p->kind == WT_K_OP_STEP)
		return obj;
	return t->cur_obj;
}

static bool selects(const struct compiled_rule *cr, const struct wt_thread *t,
		    const struct wt_point *p, const void *obj)
{
	const struct wt_rule *r = &cr->rule;
	const struct wt_obj *o;

	if (!wt_point_set_has(cr->points, wt_point_id(p)))
		return false;
	if (r->component[0] &&
	    (!t->cur_component || strcmp(t->cur_component, r->component)))
		return false;
	if (!r->has_obj_id && r->obj_type < 0)
		return true;
	o = hit_object(t, p, obj);
	if (!o)
		return false;
	if (r->has_obj_id && o->id != r->obj_id)
		return false;
	return r->obj_type < 0 || o->type == r->obj_type;
}

static void fire(struct compiled_rule *cr, struct wt_thread *t, unsigned i)
{
	const struct wt_rule *r = &cr->rule;

	t->pending = true;	/* the hook resets the pending_* fields */
	switch (r->action) {
	case WT_RULE_COUNT:
		break;
	case WT_RULE_DELAY:
		t->pending_delay_ns += wt_dist_sample(&r->delay, &t->prng);
		break;
	case WT_RULE_YIELD:
		t->pending_yield = true;
		break;
	case WT_RULE_FAIL:
		t->pending_fail = true;
		break;
	case WT_RULE_PREEMPT:
		/* Never preempt until oneself: that would wait forever. */
		if ((uint32_t)cr->preempt_thread == t->id)
			break;
		t->pending_preempt_thread = cr->preempt_thread;
		t->pending_preempt_rule = i;
		t->pending_preempt_timeout_ns = r->timeout_ns;
		break;
	}
}

void wt_rules_apply(struct wt_thread *t, const struct wt_point *p,
		    const void *obj)
{
	struct wt_rule_state *st = t->rules;

	if (!wt_rules_may_select(t, wt_point_id(p)))
		return;
	for (unsigned k = 0; k < st->n; k++) {
		unsigned i = st->idx[k];
		struct compiled_rule *cr = &st->rs->rules[i];
		uint64_t n;

		if (!selects(cr, t, p, obj))
			continue;
		n = __atomic_add_fetch(&cr->matches, 1, __ATOMIC_RELAXED);
		if (cr->rule.nth && n != cr->rule.nth)
			continue;
		if (cr->rule.every && n % cr->rule.every)
			continue;
		if (!wt_prng_chance(&t->prng, cr->rule.p))
			continue;
		__atomic_add_fetch(&cr->fires, 1, __ATOMIC_RELAXED);
		if (cr->rule.action != WT_RULE_COUNT)
			wt_fault_hit(p);
		fire(cr, t, i);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * Expectations: what a scenario asserts about its run.
 *
 *	path NAME OP N		every exit path NAME matches (a glob matches
 *				several: each must hold), summed over the
 *				scenario's iterations
 *	point NAME OP N		hits of the points NAME selects (name, glob
 *				or kind), summed over points and iterations
 *	result THREAD OP ERR	every op of THREAD, in every iteration
 *	result THREAD[K] ...	only its K-th op (1-based, walks and verbs)
 *	result THREAD in [ERR, ...]
 *	walks OP N		walks done, all threads and iterations
 *	oracle clean		every walk explainable by REF-walk, and no
 *				check fired
 *
 * OP is one of == != >= <= > < (result: == != in).  ERR is ok or an errno
 * name.  A count is written for the file's budget; a run of another
 * number of iterations holds it to the same rate (runner.c,
 * count_holds).  Unknown path, point and thread names, and path and point globs
 * that match nothing, are load errors, so a typo cannot make an
 * expectation vacuous.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/paths.h"
#include "scenarios/src/scenario.h"

static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "ok", 0 }, { "EPERM", EPERM }, { "ENOENT", ENOENT },
	{ "ECHILD", ECHILD }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EBUSY", EBUSY }, { "EEXIST", EEXIST },
	{ "EXDEV", EXDEV }, { "ENOTDIR", ENOTDIR }, { "EISDIR", EISDIR },
	{ "EINVAL", EINVAL }, { "ENOSPC", ENOSPC }, { "EROFS", EROFS },
	{ "EMLINK", EMLINK }, { "ENAMETOOLONG", ENAMETOOLONG },
	{ "ENOTEMPTY", ENOTEMPTY }, { "ELOOP", ELOOP }, { "ESTALE", ESTALE },
	{ "EBADF", EBADF }, { "ENXIO", ENXIO }, { "ENODEV", ENODEV },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "EINTR", EINTR }, { "EIO", EIO },
};

#define N_ERRNOS (sizeof(errnos) / sizeof(errnos[0]))

int wt_scn_errno_parse(const char *name)
{
	for (size_t i = 0; i < N_ERRNOS; i++)
		if (!strcmp(errnos[i].name, name))
			return errnos[i].err;
	return -1;
}

const char *wt_scn_errno_name(int err)
{
	static __thread char buf[16];

	if (err < 0)
		err = -err;
	for (size_t i = 0; i < N_ERRNOS; i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

struct cursor {
	const char *s;
	size_t i;
	size_t *col_off;
	char *msg;
	size_t msglen;
	bool failed;		/* the first error is the one reported */
};

static void skip_blanks(struct cursor *c)
{
	while (c->s[c->i] == ' ' || c->s[c->i] == '\t')
		c->i++;
}

static int cfail(struct cursor *c, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int cfail(struct cursor *c, size_t at, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return -1;
	c->failed = true;
	*c->col_off = at;
	va_start(ap, fmt);
	vsnprintf(c->msg, c->msglen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The next word ([^ \t\[\],]+) into buf; its start in *at.  A word
 * longer than buf is an error, not a shorter word: a truncated glob
 * would silently select something else. */
static int word(struct cursor *c, char *buf, size_t len, size_t *at)
{
	size_t n = 0;

	skip_blanks(c);
	*at = c->i;
	while (c->s[c->i] && !strchr(" \t[],", c->s[c->i])) {
		if (n + 1 >= len)
			return cfail(c, *at, "'%.*s...' is too long (at most %zu "
				     "characters)", (int)n, buf, len - 1);
		buf[n++] = c->s[c->i];
		c->i++;
	}
	buf[n] = '\0';
	return n ? 0 : -1;
}

static int parse_cmp(struct cursor *c, enum wt_cmp *cmp)
{
	static const struct { const char *op; enum wt_cmp cmp; } ops[] = {
		{ "==", WT_CMP_EQ }, { "!=", WT_CMP_NE }, { ">=", WT_CMP_GE },
		{ "<=", WT_CMP_LE }, { ">", WT_CMP_GT }, { "<", WT_CMP_LT },
	};
	char buf[8];
	size_t at;

	if (word(c, buf, sizeof(buf), &at))
		return cfail(c, at, "expected a comparison (==, !=, >=, <=, "
			     ">, <)");
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(buf, ops[i].op)) {
			*cmp = ops[i].cmp;
			return 0;
		}
	return cfail(c, at, "unknown comparison '%s' (valid: ==, !=, >=, <=, "
		     ">, <)", buf);
}

static int parse_count(struct cursor *c, uint64_t *v)
{
	char buf[32], *end;
	size_t at;

	if (word(c, buf, sizeof(buf), &at))
		return cfail(c, at, "expected a count");
	if (buf[0] < '0' || buf[0] > '9')
		return cfail(c, at, "expected a count, not '%s'", buf);
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (*end)
		return cfail(c, at, "expected a count, not '%s'", buf);
	if (errno == ERANGE)
		return cfail(c, at, "count '%s' is out of range (at most %llu)",
			     buf, (unsigned long long)UINT64_MAX);
	return 0;
}

static int end_of_text(struct cursor *c)
{
	skip_blanks(c);
	if (c->s[c->i] && c->s[c->i] != '#')
		return cfail(c, c->i, "unexpected '%s'", c->s + c->i);
	return 0;
}

static int parse_path(struct cursor *c, struct wt_expect *e)
{
	size_t at;

	if (word(c, e->pattern, sizeof(e->pattern), &at))
		return cfail(c, at, "expected an exit path name");
	e->paths = calloc(WT_PATH__COUNT, sizeof(*e->paths));
	if (!e->paths)
		return cfail(c, at, "out of memory");
	for (unsigned id = 0; id < WT_PATH__COUNT; id++)
		if (!fnmatch(e->pattern, wt_path_info(id)->name, 0))
			e->paths[e->npaths++] = id;
	if (!e->npaths)
		return cfail(c, at, "unknown exit path '%s' (see `walktorture "
			     "paths`)", e->pattern);
	return parse_cmp(c, &e->cmp) || parse_count(c, &e->value) ||
	       end_of_text(c);
}

static int parse_point(struct cursor *c, struct wt_expect *e)
{
	struct wt_parse_error pe = { 0 };
	size_t at;

	if (word(c, e->pattern, sizeof(e->pattern), &at))
		return cfail(c, at, "expected an injection point");
	if (wt_point_set_build(&e->points, e->pattern, &pe))
		return cfail(c, at + pe.pos, "%s", pe.msg);
	/* a glob (or kind) selecting nothing would count 0 hits forever */
	if (!e->points.count)
		return cfail(c, at, "no injection point matches '%s' (see "
			     "walktorture points)", e->pattern);
	return parse_cmp(c, &e->cmp) || parse_count(c, &e->value) ||
	       end_of_text(c);
}

static int parse_err(struct cursor *c, struct wt_expect *e)
{
	char buf[32];
	size_t at;
	int err;

	if (word(c, buf, sizeof(buf), &at))
		return cfail(c, at, "expected ok or an errno name");
	err = wt_scn_errno_parse(buf);
	if (err < 0)
		return cfail(c, at, "unknown result '%s' (ok or an errno name "
			     "such as ENOENT)", buf);
	if (e->nresults == WT_SCN_RESULTS_MAX)
		return cfail(c, at, "too many results");
	e->results[e->nresults++] = err;
	return 0;
}

static int parse_list(struct cursor *c, struct wt_expect *e)
{
	skip_blanks(c);
	if (c->s[c->i] != '[')
		return cfail(c, c->i, "expected '[' after 'in'");
	c->i++;
	for (;;) {
		if (parse_err(c, e))
			return -1;
		skip_blanks(c);
		if (c->s[c->i] == ']')
			break;
		if (c->s[c->i] != ',')
			return cfail(c, c->i, "expected ',' or ']'");
		c->i++;
	}
	c->i++;
	return end_of_text(c);
}

/* THREAD or THREAD[K] */
static int parse_thread(struct cursor *c, const struct wt_scenario *s,
			struct wt_expect *e)
{
	char buf[WT_SCN_NAME_MAX + 16], *br, *end;
	size_t at;
	int t;

	skip_blanks(c);
	at = c->i;
	if (word(c, buf, sizeof(buf), &at))
		return cfail(c, at, "expected a thread name");
	if (c->s[c->i] == '[') {
		const char *d = c->s + c->i + 1;
		unsigned long k;

		errno = 0;
		k = *d >= '0' && *d <= '9' ? strtoul(d, &end, 10) : 0;
		if (!k || *end != ']' || errno || k > UINT32_MAX)
			return cfail(c, c->i, "expected [K] with 1 <= K <= %u",
				     UINT32_MAX);
		e->nth = (unsigned)k;
		c->i = (size_t)(end - c->s) + 1;
	}
	br = strchr(buf, '[');
	if (br)
		*br = '\0';
	t = wt_scenario_thread(s, buf);
	if (t < 0)
		return cfail(c, at, "unknown thread '%s'", buf);
	e->thread = (unsigned)t;
	return 0;
}

static int parse_result(struct cursor *c, const struct wt_scenario *s,
			struct wt_expect *e)
{
	char op[8];
	size_t at;

	if (parse_thread(c, s, e))
		return -1;
	if (word(c, op, sizeof(op), &at))
		return cfail(c, at, "expected '==', '!=' or 'in'");
	if (!strcmp(op, "in")) {
		e->cmp = WT_CMP_EQ;
		return parse_list(c, e);
	}
	if (!strcmp(op, "==") || !strcmp(op, "!=")) {
		e->cmp = op[0] == '=' ? WT_CMP_EQ : WT_CMP_NE;
		return parse_err(c, e) || end_of_text(c);
	}
	return cfail(c, at, "expected '==', '!=' or 'in', not '%s'", op);
}

int wt_expect_parse(const struct wt_scenario *s, const char *text,
		    struct wt_expect *e, size_t *col_off, char *msg,
		    size_t msglen)
{
	struct cursor c = { .s = text, .col_off = col_off, .msg = msg,
			    .msglen = msglen };
	char kw[16], what[16];
	size_t at;

	memset(e, 0, sizeof(*e));
	e->text = strdup(text);
	if (word(&c, kw, sizeof(kw), &at))
		return cfail(&c, at, "empty expectation");
	if (!strcmp(kw, "path")) {
		e->kind = WT_EXPECT_PATH;
		return parse_path(&c, e);
	}
	if (!strcmp(kw, "point")) {
		e->kind = WT_EXPECT_POINT;
		return parse_point(&c, e);
	}
	if (!strcmp(kw, "result")) {
		e->kind = WT_EXPECT_RESULT;
		return parse_result(&c, s, e);
	}
	if (!strcmp(kw, "walks")) {
		e->kind = WT_EXPECT_WALKS;
		return parse_cmp(&c, &e->cmp) || parse_count(&c, &e->value) ||
		       end_of_text(&c);
	}
	if (!strcmp(kw, "oracle")) {
		e->kind = WT_EXPECT_ORACLE;
		if (word(&c, what, sizeof(what), &at) || strcmp(what, "clean"))
			return cfail(&c, at, "expected 'oracle clean'");
		return end_of_text(&c);
	}
	return cfail(&c, at, "unknown expectation '%s' (valid: path, point, "
		     "result, walks, oracle)", kw);
}

void wt_expect_free(struct wt_expect *e)
{
	free(e->text);
	free(e->paths);
	if (e->kind == WT_EXPECT_POINT && e->points.bits)
		wt_point_set_free(&e->points);
	memset(e, 0, sizeof(*e));
}

bool wt_cmp_holds(enum wt_cmp cmp, uint64_t a, uint64_t b)
{
	switch (cmp) {
	case WT_CMP_EQ: return a == b;
	case WT_CMP_NE: return a != b;
	case WT_CMP_GE: return a >= b;
	case WT_CMP_LE: return a <= b;
	case WT_CMP_GT: return a > b;
	case WT_CMP_LT: return a < b;
	}
	return false;
}

bool wt_expect_result_ok(const struct wt_expect *e, int err)
{
	bool in = false;

	if (err < 0)
		err = -err;
	for (unsigned i = 0; i < e->nresults; i++)
		in |= e->results[i] == err;
	return e->cmp == WT_CMP_NE ? !in : in;
}

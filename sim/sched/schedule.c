/* SPDX-License-Identifier: MIT */
/*
 * The directed-schedule parser (syntax in schedule.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sched/schedule.h"

static int serr(struct wt_parse_error *err, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int serr(struct wt_parse_error *err, size_t pos, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->pos = pos;
	err->col = (unsigned)pos + 1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* The next whitespace-separated word of line at *pos: [start, end). */
static bool next_word(const char *line, size_t *pos, size_t *start,
		      size_t *len)
{
	size_t p = *pos;

	while (line[p] && isspace((unsigned char)line[p]))
		p++;
	if (!line[p] || line[p] == '#')
		return false;
	*start = p;
	while (line[p] && !isspace((unsigned char)line[p]))
		p++;
	*len = p - *start;
	*pos = p;
	return true;
}

static int word_copy(char *dst, size_t size, const char *line, size_t start,
		     size_t len, struct wt_parse_error *err)
{
	if (len >= size)
		return serr(err, start, "'%.*s' too long (max %zu)", (int)len,
			    line + start, size - 1);
	memcpy(dst, line + start, len);
	dst[len] = '\0';
	return 0;
}

static int word_u64(const char *line, size_t start, size_t len, uint64_t *out,
		    struct wt_parse_error *err)
{
	char buf[32], *e;

	if (len == 0 || len >= sizeof(buf) || !isdigit((unsigned char)line[start]))
		return serr(err, start, "expected a number");
	memcpy(buf, line + start, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtoull(buf, &e, 10);
	if (errno || *e || *out == 0)
		return serr(err, start, "expected a number >= 1");
	return 0;
}

/* until POINT [nth=N] [where name=COMPONENT] */
static int parse_until(const char *line, size_t pos, struct wt_sched_step *st,
		       struct wt_parse_error *err)
{
	struct wt_parse_error pe = { 0 };
	struct wt_point_set set;
	size_t s, n;

	if (!next_word(line, &pos, &s, &n))
		return serr(err, pos, "expected a point after 'until'");
	if (word_copy(st->point, sizeof(st->point), line, s, n, err))
		return -1;
	if (wt_point_set_build(&set, st->point, &pe))
		return serr(err, s, "%s", pe.msg);
	wt_point_set_free(&set);
	while (next_word(line, &pos, &s, &n)) {
		if (n > 4 && strncmp(line + s, "nth=", 4) == 0) {
			if (word_u64(line, s + 4, n - 4, &st->nth, err))
				return -1;
		} else if (n == 5 && strncmp(line + s, "where", 5) == 0) {
			if (!next_word(line, &pos, &s, &n) || n <= 5 ||
			    strncmp(line + s, "name=", 5) != 0)
				return serr(err, s, "expected 'where name=COMPONENT'");
			if (word_copy(st->component, sizeof(st->component),
				      line, s + 5, n - 5, err))
				return -1;
		} else {
			return serr(err, s, "unexpected '%.*s' (nth=N or where "
				    "name=COMPONENT)", (int)n, line + s);
		}
	}
	return 0;
}

static bool word_is(const char *line, size_t s, size_t n, const char *w)
{
	return n == strlen(w) && strncmp(line + s, w, n) == 0;
}

/* flush THREAD [all|ENTRY]; pos is after `flush'. */
static int parse_flush(const char *line, size_t pos, struct wt_sched_step *st,
		       struct wt_parse_error *err)
{
	size_t s, n;

	st->kind = WT_SCHED_FLUSH;
	if (!next_word(line, &pos, &s, &n))
		return serr(err, pos, "expected a thread after 'flush'");
	if (word_copy(st->thread, sizeof(st->thread), line, s, n, err))
		return -1;
	if (next_word(line, &pos, &s, &n)) {
		char *end;
		unsigned long k = strtoul(line + s, &end, 10);

		if (word_is(line, s, n, "all")) {
			st->all = true;
		} else if (n && n <= 4 && end == line + s + n &&
			   isdigit((unsigned char)line[s])) {
			st->entry = (unsigned)k + 1;	/* 0: no entry given */
		} else {
			return serr(err, s, "unexpected '%.*s' (flush THREAD "
				    "[all|ENTRY], ENTRY a buffer index, 0 = oldest)",
				    (int)n, line + s);
		}
	}
	if (next_word(line, &pos, &s, &n))
		return serr(err, s, "unexpected '%.*s' at the end of the step",
			    (int)n, line + s);
	return 0;
}

/*
 * `flush X ...' is a flush step unless X is a step keyword, so a thread
 * named "flush" still has its `flush until/run/finish' steps.
 */
static bool is_flush_step(const char *line, size_t s, size_t n, size_t pos)
{
	size_t s2, n2;

	if (!word_is(line, s, n, "flush"))
		return false;
	if (!next_word(line, &pos, &s2, &n2))
		return true;	/* "flush" alone: the flush parser says why */
	return !word_is(line, s2, n2, "until") && !word_is(line, s2, n2, "run") &&
	       !word_is(line, s2, n2, "finish");
}

int wt_schedule_parse_step(const char *line, struct wt_sched_step *st,
			   struct wt_parse_error *err)
{
	size_t pos = 0, s, n;

	memset(st, 0, sizeof(*st));
	st->nth = 1;
	st->count = 1;
	if (!next_word(line, &pos, &s, &n))
		return serr(err, 0, "empty step");
	if (is_flush_step(line, s, n, pos))
		return parse_flush(line, pos, st, err);
	if (word_copy(st->thread, sizeof(st->thread), line, s, n, err))
		return -1;
	if (!next_word(line, &pos, &s, &n))
		return serr(err, pos, "expected 'until', 'run' or 'finish'");
	if (n == 5 && strncmp(line + s, "until", 5) == 0) {
		st->kind = WT_SCHED_UNTIL;
		return parse_until(line, pos, st, err);
	}
	if (n == 3 && strncmp(line + s, "run", 3) == 0) {
		st->kind = WT_SCHED_RUN;
		if (!next_word(line, &pos, &s, &n))
			return serr(err, pos, "expected a count after 'run'");
		if (word_u64(line, s, n, &st->count, err))
			return -1;
	} else if (n == 6 && strncmp(line + s, "finish", 6) == 0) {
		st->kind = WT_SCHED_FINISH;
	} else {
		return serr(err, s, "unknown step '%.*s' (until, run, finish)",
			    (int)n, line + s);
	}
	if (next_word(line, &pos, &s, &n))
		return serr(err, s, "unexpected '%.*s' at the end of the step",
			    (int)n, line + s);
	return 0;
}

static int add_step(struct wt_schedule *sch, const struct wt_sched_step *st)
{
	struct wt_sched_step *steps = realloc(sch->steps,
					(sch->nsteps + 1) * sizeof(*steps));

	if (!steps)
		return -1;
	sch->steps = steps;
	sch->steps[sch->nsteps++] = *st;
	return 0;
}

/* One line of text: a step, a comment or nothing.  1 when a step. */
static int parse_line(const char *line, struct wt_sched_step *st,
		      struct wt_parse_error *err)
{
	size_t pos = 0, s, n;

	if (!next_word(line, &pos, &s, &n))
		return 0;
	return wt_schedule_parse_step(line, st, err) ? -1 : 1;
}

struct wt_schedule *wt_schedule_parse(const char *text,
				      struct wt_parse_error *err)
{
	struct wt_schedule *sch = calloc(1, sizeof(*sch));
	const char *l = text;
	unsigned lineno = 0;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!sch)
		return NULL;
	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char buf[512];
		struct wt_sched_step st;
		int rc;

		lineno++;
		if (len >= sizeof(buf)) {
			serr(err, (size_t)(l - text), "line too long");
			goto fail_line;
		}
		memcpy(buf, l, len);
		buf[len] = '\0';
		rc = parse_line(buf, &st, err);
		if (rc < 0) {
			if (err)
				err->pos += (size_t)(l - text);
			goto fail_line;
		}
		st.line = lineno;
		if (rc > 0 && add_step(sch, &st))
			goto fail;
		l = nl ? nl + 1 : NULL;
	}
	return sch;
fail_line:
	if (err)
		err->line = lineno;
fail:
	wt_schedule_free(sch);
	return NULL;
}

void wt_schedule_free(struct wt_schedule *s)
{
	if (!s)
		return;
	free(s->steps);
	free(s);
}

int wt_step_format(const struct wt_sched_step *st, char *buf, size_t size)
{
	switch (st->kind) {
	case WT_SCHED_UNTIL:
		return snprintf(buf, size, "%s until %s%s%.0" PRIu64 "%s%s",
				st->thread, st->point,
				st->nth > 1 ? " nth=" : "",
				st->nth > 1 ? st->nth : 0,
				st->component[0] ? " where name=" : "",
				st->component);
	case WT_SCHED_RUN:
		return snprintf(buf, size, "%s run %" PRIu64, st->thread,
				st->count);
	case WT_SCHED_FINISH:
		return snprintf(buf, size, "%s finish", st->thread);
	case WT_SCHED_FLUSH:
		if (st->entry)
			return snprintf(buf, size, "flush %s %u", st->thread,
					st->entry - 1);
		return snprintf(buf, size, "flush %s%s", st->thread,
				st->all ? " all" : "");
	}
	return 0;
}

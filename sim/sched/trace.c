/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sched/trace.h"

int wt_trace_buf_init(struct wt_trace_buf *b, size_t capacity)
{
	memset(b, 0, sizeof(*b));
	b->capacity = capacity ? capacity : WT_TRACE_CAPACITY_DEFAULT;
	b->ev = calloc(b->capacity, sizeof(*b->ev));
	b->notes = calloc(WT_TRACE_NOTES, sizeof(*b->notes));
	if (!b->ev || !b->notes) {
		wt_trace_buf_fini(b);
		return -1;
	}
	wt_digest_init(&b->dg);
	return 0;
}

void wt_trace_buf_fini(struct wt_trace_buf *b)
{
	free(b->ev);
	free(b->notes);
	b->ev = NULL;
	b->notes = NULL;
}

void wt_trace_buf_reset(struct wt_trace_buf *b)
{
	b->total = 0;
	b->at = 0;
	b->nnotes = 0;
	b->notes_dropped = 0;
	wt_digest_init(&b->dg);
}

/* Room for n events and nnotes tags, not zeroed: the callers fill
 * exactly that much (a traced iteration paid ~20 KiB of memset). */
static struct wt_trace *trace_alloc(size_t n, unsigned nnotes)
{
	struct wt_trace *tr = calloc(1, sizeof(*tr));

	if (!tr)
		return NULL;
	tr->ev = malloc((n ? n : 1) * sizeof(*tr->ev));
	tr->notes = malloc((nnotes ? nnotes : 1) * sizeof(*tr->notes));
	if (!tr->ev || !tr->notes) {
		wt_trace_free(tr);
		return NULL;
	}
	return tr;
}

struct wt_trace *wt_trace_from_buf(const struct wt_trace_buf *b)
{
	size_t n = b->total < b->capacity ? (size_t)b->total : b->capacity;
	uint64_t first = b->total - n;
	struct wt_trace *tr = trace_alloc(n, b->nnotes);

	if (!tr)
		return NULL;
	/* The ring from its oldest kept event: two runs, no division an
	 * event. */
	if (n) {
		size_t at = (size_t)(first % b->capacity);
		size_t run = b->capacity - at < n ? b->capacity - at : n;

		memcpy(tr->ev, b->ev + at, run * sizeof(*tr->ev));
		memcpy(tr->ev + run, b->ev, (n - run) * sizeof(*tr->ev));
	}
	tr->n = n;
	tr->total = b->total;
	tr->dropped = first;
	tr->digest = wt_digest_value(&b->dg);
	tr->notes_dropped = b->notes_dropped;
	memcpy(tr->notes, b->notes, b->nnotes * sizeof(*tr->notes));
	tr->nnotes = b->nnotes;
	return tr;
}

static int cmp_seq(const void *a, const void *b)
{
	const struct wt_trace_event *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Copy ring i's kept events into tr, renumbering its tags. */
static void merge_one(struct wt_trace *tr, const struct wt_trace_buf *b)
{
	size_t n = b->total < b->capacity ? (size_t)b->total : b->capacity;
	uint64_t first = b->total - n;
	unsigned base = tr->nnotes;

	memcpy(tr->notes + base, b->notes, b->nnotes * sizeof(*tr->notes));
	tr->nnotes += b->nnotes;
	for (size_t i = 0; i < n; i++) {
		struct wt_trace_event *e = &tr->ev[tr->n++];

		*e = b->ev[(first + i) % b->capacity];
		if (e->note)
			e->note = (uint16_t)(e->note + base);
	}
	tr->total += b->total;
	tr->dropped += first;
	tr->notes_dropped += b->notes_dropped;
}

struct wt_trace *wt_trace_merge(struct wt_trace_buf *const *bufs, unsigned n)
{
	size_t events = 0;
	unsigned notes = 0;
	struct wt_digest dg;
	struct wt_trace *tr;

	for (unsigned i = 0; i < n; i++) {
		events += bufs[i]->total < bufs[i]->capacity ?
			  (size_t)bufs[i]->total : bufs[i]->capacity;
		notes += bufs[i]->nnotes;
	}
	tr = trace_alloc(events, notes);
	if (!tr)
		return NULL;
	for (unsigned i = 0; i < n; i++)
		merge_one(tr, bufs[i]);
	qsort(tr->ev, tr->n, sizeof(*tr->ev), cmp_seq);
	wt_digest_init(&dg);
	for (size_t i = 0; i < tr->n; i++) {
		const struct wt_trace_event *e = &tr->ev[i];

		wt_digest_event(&dg, e->thread,
				wt_point_name_hash(wt_point_by_id(e->point)),
				e->flags);
	}
	tr->digest = wt_digest_value(&dg);
	return tr;
}

void wt_trace_free(struct wt_trace *tr)
{
	if (!tr)
		return;
	free(tr->ev);
	free(tr->notes);
	free(tr);
}

const char *wt_trace_event_note(const struct wt_trace *tr,
				const struct wt_trace_event *e)
{
	if (!e->note || e->note > tr->nnotes)
		return NULL;
	return tr->notes[e->note - 1];
}

void wt_trace_note(const char *text)
{
	struct wt_thread *t = wt_self;
	struct wt_trace_buf *b;

	if (!t)
		return;
	t->trace_note = 0;
	b = t->trace_buf;
	if (!b || !text)
		return;
	if (b->nnotes >= WT_TRACE_NOTES) {
		b->notes_dropped++;
		return;
	}
	snprintf(b->notes[b->nnotes], WT_TRACE_NOTE_MAX, "%s", text);
	t->trace_note = (uint16_t)++b->nnotes;
}

void wt_trace_write(FILE *f, const struct wt_trace *tr,
		    const char *const *names, unsigned nnames)
{
	fprintf(f, "# trace events=%zu total=%" PRIu64 " dropped=%" PRIu64
		" digest=%016" PRIx64 "\n", tr->n, tr->total, tr->dropped,
		tr->digest);
	for (size_t i = 0; i < tr->n; i++) {
		const struct wt_trace_event *e = &tr->ev[i];
		const char *note = wt_trace_event_note(tr, e);

		fprintf(f, "%" PRIu64 " %" PRIu64 " ", e->seq, e->time_ns);
		if (names && e->thread < nnames && names[e->thread])
			fprintf(f, "%s", names[e->thread]);
		else
			fprintf(f, "#%u", e->thread);
		fprintf(f, " %s%s%s", wt_point_name(wt_point_by_id(e->point)),
			e->flags & WT_EV_WAIT ? " wait" : "",
			e->flags & WT_EV_FLUSH ? " flush" : "");
		if ((e->flags & WT_EV_FLUSH) && e->arg)
			fprintf(f, "@%u", e->arg);
		if (note)
			fprintf(f, " \"%s\"", note);
		fputc('\n', f);
	}
}

static int thread_by_name(const char *w, const char *const *names,
			  unsigned nnames)
{
	char *e;

	if (w[0] == '#') {
		unsigned long id = strtoul(w + 1, &e, 10);

		return *e || e == w + 1 || id >= UINT32_MAX ? -1 : (int)id;
	}
	for (unsigned i = 0; names && i < nnames; i++)
		if (names[i] && strcmp(names[i], w) == 0)
			return (int)i;
	return -1;
}

/* The words after the point: wait, flush, then anything (a note). */
static void parse_flags(const char *rest, struct wt_trace_event *e)
{
	for (;;) {
		while (isspace((unsigned char)*rest))
			rest++;
		if (strncmp(rest, "wait", 4) == 0 &&
		    (!rest[4] || isspace((unsigned char)rest[4]))) {
			e->flags |= WT_EV_WAIT;
			rest += 4;
		} else if (strncmp(rest, "flush", 5) == 0 &&
			   (!rest[5] || isspace((unsigned char)rest[5]))) {
			e->flags |= WT_EV_FLUSH;
			rest += 5;
		} else if (strncmp(rest, "flush@", 6) == 0 &&
			   isdigit((unsigned char)rest[6])) {
			char *end;
			unsigned long k = strtoul(rest + 6, &end, 10);

			if (*end && !isspace((unsigned char)*end))
				return;
			e->flags |= WT_EV_FLUSH;
			e->arg = k < UINT32_MAX ? (uint32_t)k : UINT32_MAX;
			rest = end;
		} else {
			return;
		}
	}
}

/* A decimal count at *s (digits only: sscanf's %llu would take "-1" and
 * overflow silently), then blanks.  0, or -1. */
static int parse_count(const char **s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return -1;
	errno = 0;
	*v = strtoull(*s, &end, 10);
	if (errno || (*end && !isspace((unsigned char)*end)))
		return -1;
	*s = end;
	while (isspace((unsigned char)**s))
		(*s)++;
	return 0;
}

/* One event line: SEQ TIME THREAD POINT [wait] [flush] [...]. */
static int parse_event(const char *line, struct wt_trace_event *e,
		       const char *const *names, unsigned nnames,
		       struct wt_parse_error *err)
{
	char thread[64], point[256];
	unsigned long long seq, time;
	int tpos = 0, ppos = 0, end = 0, id;
	const char *at = line + strspn(line, " \t");
	const struct wt_point *p;

	if (parse_count(&at, &seq) || parse_count(&at, &time)) {
		err->col = (unsigned)(at - line) + 1;
		snprintf(err->msg, sizeof(err->msg), "expected SEQ TIME THREAD "
			 "POINT (SEQ and TIME: decimal counts below 2^64)");
		return -1;
	}
	if (sscanf(at, "%n%63s %n%255s%n", &tpos, thread, &ppos, point,
		   &end) != 2) {
		err->col = (unsigned)(at - line) + 1;
		snprintf(err->msg, sizeof(err->msg),
			 "expected SEQ TIME THREAD POINT");
		return -1;
	}
	tpos += (int)(at - line);
	ppos += (int)(at - line);
	end += (int)(at - line);
	id = thread_by_name(thread, names, nnames);
	if (id < 0) {
		err->col = (unsigned)tpos + 1;
		snprintf(err->msg, sizeof(err->msg), "unknown thread '%s'", thread);
		return -1;
	}
	p = wt_point_lookup(point);
	if (!p) {
		err->col = (unsigned)ppos + 1;
		snprintf(err->msg, sizeof(err->msg), "unknown point '%.100s'", point);
		return -1;
	}
	memset(e, 0, sizeof(*e));
	e->seq = seq;
	e->time_ns = time;
	e->thread = (uint32_t)id;
	e->point = wt_point_id(p);
	parse_flags(line + end, e);
	return 0;
}

struct wt_trace_event *wt_trace_parse(const char *text,
				      const char *const *names,
				      unsigned nnames, size_t *n,
				      struct wt_parse_error *err)
{
	struct wt_trace_event *ev = NULL;
	size_t cap = 0;
	unsigned lineno = 0;

	memset(err, 0, sizeof(*err));
	*n = 0;
	wt_points_catalogue();
	for (const char *l = text; l && *l; ) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char buf[512];

		lineno++;
		if (len >= sizeof(buf)) {	/* not silently cut short */
			err->col = (unsigned)sizeof(buf);
			snprintf(err->msg, sizeof(err->msg), "line longer than "
				 "%zu characters", sizeof(buf) - 1);
			goto fail;
		}
		snprintf(buf, sizeof(buf), "%.*s", (int)len, l);
		l = nl ? nl + 1 : NULL;
		if (buf[strspn(buf, " \t")] == '#' || buf[strspn(buf, " \t")] == '\0')
			continue;
		if (*n == cap) {
			struct wt_trace_event *grown;

			cap = cap ? 2 * cap : 256;
			grown = realloc(ev, cap * sizeof(*ev));
			if (!grown)
				goto fail;
			ev = grown;
		}
		if (parse_event(buf, &ev[*n], names, nnames, err))
			goto fail;
		(*n)++;
	}
	return ev ? ev : calloc(1, sizeof(*ev));
fail:
	err->line = lineno;
	free(ev);
	*n = 0;
	return NULL;
}

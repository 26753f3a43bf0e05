/* SPDX-License-Identifier: MIT */
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
	b->digest = WT_FNV1A_INIT;
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
	b->nnotes = 0;
	b->notes_dropped = 0;
	b->digest = WT_FNV1A_INIT;
}

uint64_t wt_trace_digest_event(uint64_t h, uint32_t thread,
			       const struct wt_point *p, uint16_t flags)
{
	unsigned char b[14];
	uint64_t nh = wt_point_name_hash(p);

	flags &= WT_EV_DIGEST_FLAGS;
	/* Fixed little-endian layout: the digest is the same on any host. */
	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(thread >> (8 * i));
	for (int i = 0; i < 8; i++)
		b[4 + i] = (unsigned char)(nh >> (8 * i));
	b[12] = (unsigned char)flags;
	b[13] = (unsigned char)(flags >> 8);
	return wt_fnv1a(h, b, sizeof(b));
}

struct wt_trace_event *wt_trace_buf_record(struct wt_trace_buf *b,
					   uint64_t seq, uint64_t time_ns,
					   uint32_t thread,
					   const struct wt_point *p,
					   uint16_t flags, uint16_t note)
{
	struct wt_trace_event *e = &b->ev[b->total % b->capacity];

	e->seq = seq;
	e->time_ns = time_ns;
	e->thread = thread;
	e->point = wt_point_id(p);
	e->flags = flags;
	e->note = note;
	e->pad = 0;
	b->total++;
	b->digest = wt_trace_digest_event(b->digest, thread, p, flags);
	return e;
}

static struct wt_trace *trace_alloc(size_t n, unsigned nnotes)
{
	struct wt_trace *tr = calloc(1, sizeof(*tr));

	if (!tr)
		return NULL;
	tr->ev = calloc(n ? n : 1, sizeof(*tr->ev));
	tr->notes = calloc(nnotes ? nnotes : 1, sizeof(*tr->notes));
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
	for (size_t i = 0; i < n; i++)
		tr->ev[i] = b->ev[(first + i) % b->capacity];
	tr->n = n;
	tr->total = b->total;
	tr->dropped = first;
	tr->digest = b->digest;
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
	tr->digest = WT_FNV1A_INIT;
	for (size_t i = 0; i < tr->n; i++)
		tr->digest = wt_trace_digest_event(tr->digest, tr->ev[i].thread,
						   wt_point_by_id(tr->ev[i].point),
						   tr->ev[i].flags);
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
		fprintf(f, " %s%s", wt_point_name(wt_point_by_id(e->point)),
			e->flags & WT_EV_WAIT ? " wait" : "");
		if (note)
			fprintf(f, " \"%s\"", note);
		fputc('\n', f);
	}
}

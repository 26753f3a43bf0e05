/* SPDX-License-Identifier: MIT */
/*
 * Traces: the ordered point events of one iteration.
 *
 * An event is one arrival of one thread at one point: in sim mode the
 * scheduler records it when the thread reaches the point (so the order of
 * events is the order in which the threads ran the code between their
 * points), in stress mode the thread takes a ticket from one global
 * atomic counter at the hook, so sorting by ticket gives the observed
 * order.  An event also says whether the arrival was a blocked-on-
 * condition wait, the thread's clock (sim: virtual ns; stress: real ns
 * since the run started), and the current op tag: a writer operation
 * calls wt_trace_note("mv /a/b /a/c") and its following events carry the
 * text, so a timeline can show which operation a store belonged to.
 *
 * Memory is bounded and allocated when the run starts: events go to a
 * ring of trace_capacity entries (one shared ring in sim mode, one per
 * thread in stress mode); when it is full the oldest are overwritten and
 * counted in `dropped'.  Op tags are kept in a table of WT_TRACE_NOTES
 * entries per ring; later tags are dropped (counted) and their events
 * carry no tag.
 *
 * The digest (struct wt_digest) starts at WT_FNV1A_INIT and folds in
 * events as runs: a run is the longest stretch of one thread's events in
 * a row with no flag of WT_EV_DIGEST_FLAGS (its plain arrivals), and it
 * is folded in once, when it ends, as two 64-bit words: the sum of its
 * points' name hashes (FNV-1a of the dotted NAME) xor its length times
 * WT_DIGEST_MUL, then thread id.  An event with such a flag (a wait, a
 * flush) ends the run before it and is folded in alone: the name hash,
 * then thread id | flags << 32.  Each word goes in as h = (h ^ word) *
 * WT_DIGEST_MUL; h ^= h >> 32.  So a digest says which thread ran how
 * many points in each turn, which points they were (as a sum: their
 * order within a turn is the thread's own program order), and every
 * wait and flush -- what a replay must redo -- and the sim need not
 * fold each point: points no decision can fall at pass the hook with a
 * sum (sim/inject.h, free runs).  (Issue 19 changed it twice: from
 * FNV-1a over each event's 14 bytes, the top symbol of a profile, to a
 * fold per event, then to a fold per run; digests of those times
 * differ.)  Names, not ids or addresses, so a
 * digest does not depend on link order or on the allocator; it does
 * depend on the build configuration (a build without hooks has other
 * points).  In sim mode the digest covers every event of the iteration,
 * dropped ones too; in stress mode it covers the events kept.
 */
#ifndef WT_SIM_SCHED_TRACE_H
#define WT_SIM_SCHED_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/inject.h"
#include "sim/rules.h"

#define WT_TRACE_NOTES		256	/* op tags per ring */
#define WT_TRACE_NOTE_MAX	64	/* bytes per tag, with the NUL */
#define WT_TRACE_CAPACITY_DEFAULT 65536

#define WT_EV_WAIT	0x1	/* the arrival was a blocking wait */
#define WT_EV_DELAY	0x2	/* a delay fired here (not in the digest) */
/*
 * Not an arrival: memory=tso, the scheduler flushed the oldest entry of
 * THREAD's store buffer to memory (point: tso.flush).  A decision like
 * the choice of a thread, so it is in the digest and a replay redoes it.
 */
#define WT_EV_FLUSH	0x4
#define WT_EV_DIGEST_FLAGS (WT_EV_WAIT | WT_EV_FLUSH)
#define WT_DIGEST_MUL	0x9e3779b97f4a7c15ull	/* odd: each fold is a bijection */

struct wt_trace_event {
	uint64_t seq;		/* sim: index in the iteration; stress: ticket */
	uint64_t time_ns;
	uint32_t thread;	/* wt_thread.id */
	uint32_t point;		/* wt_point_id() */
	uint16_t flags;		/* WT_EV_* */
	uint16_t note;		/* 0, or 1 + index in the notes table */
	uint32_t arg;		/* a pso flush: the entry's buffer index */
};

/* A digest being made (the definition above). */
struct wt_digest {
	uint64_t h;		/* the runs and events folded in */
	uint64_t run_sum;	/* the open run's name hashes, summed */
	uint64_t run_n;		/* its length (0: none open) */
	uint32_t run_thread;
};

static inline uint64_t wt_digest_word(uint64_t h, uint64_t word)
{
	h = (h ^ word) * WT_DIGEST_MUL;
	return h ^ (h >> 32);
}

static inline void wt_digest_init(struct wt_digest *d)
{
	d->h = WT_FNV1A_INIT;
	d->run_sum = 0;
	d->run_n = 0;
	d->run_thread = 0;
}

/* End the open run, if any: fold it in. */
static inline void wt_digest_close(struct wt_digest *d)
{
	if (!d->run_n)
		return;
	d->h = wt_digest_word(d->h, d->run_sum ^ d->run_n * WT_DIGEST_MUL);
	d->h = wt_digest_word(d->h, d->run_thread);
	d->run_sum = 0;
	d->run_n = 0;
}

/* The open run ends: thread's begins.  Inline, with no call: a call in
 * a point's path, even one never taken, makes it save registers. */
static inline void wt_digest_turn(struct wt_digest *d, uint32_t thread)
{
	wt_digest_close(d);
	d->run_thread = thread;
}

/* A plain arrival of thread at the point of name_hash.  Inline: the sim
 * takes one at every point that is not free. */
static inline void wt_digest_plain(struct wt_digest *d, uint32_t thread,
				   uint64_t name_hash)
{
	if (__builtin_expect(thread != d->run_thread, 0))
		wt_digest_turn(d, thread);
	d->run_sum += name_hash;
	d->run_n++;
}

/* A plain arrival of the open run's thread (the caller made sure). */
static inline void wt_digest_same(struct wt_digest *d, uint64_t name_hash)
{
	d->run_sum += name_hash;
	d->run_n++;
}

/* n more plain arrivals of the open run's thread, their hashes summed
 * (a free run's, settled). */
static inline void wt_digest_run(struct wt_digest *d, uint64_t sum,
				 uint64_t n)
{
	d->run_sum += sum;
	d->run_n += n;
}

/* Any event: a plain arrival, or one that is folded in alone. */
static inline void wt_digest_event(struct wt_digest *d, uint32_t thread,
				   uint64_t name_hash, uint16_t flags)
{
	uint64_t kind = flags & WT_EV_DIGEST_FLAGS;

	if (!kind) {
		wt_digest_plain(d, thread, name_hash);
		return;
	}
	wt_digest_close(d);
	d->h = wt_digest_word(d->h, name_hash);
	d->h = wt_digest_word(d->h, (uint64_t)thread | kind << 32);
}

/* The digest of what was folded in so far (the open run with it). */
static inline uint64_t wt_digest_value(const struct wt_digest *d)
{
	struct wt_digest v = *d;

	wt_digest_close(&v);
	return v.h;
}

/* A ring being recorded into (sim: one for all; stress: one per thread). */
struct wt_trace_buf {
	struct wt_trace_event *ev;
	size_t capacity;
	uint64_t total;		/* events recorded, kept or not */
	size_t at;		/* the next event's slot: total % capacity,
				 * kept without a division an event */
	struct wt_digest dg;
	char (*notes)[WT_TRACE_NOTE_MAX];
	unsigned nnotes;
	uint64_t notes_dropped;
};

/* A finished trace, in order. */
struct wt_trace {
	struct wt_trace_event *ev;
	size_t n;
	uint64_t total;		/* events of the iteration */
	uint64_t dropped;	/* total - n */
	uint64_t notes_dropped;
	uint64_t digest;
	char (*notes)[WT_TRACE_NOTE_MAX];
	unsigned nnotes;
};

int wt_trace_buf_init(struct wt_trace_buf *b, size_t capacity);
void wt_trace_buf_fini(struct wt_trace_buf *b);
void wt_trace_buf_reset(struct wt_trace_buf *b);

/* A third word for an event with a nonzero arg (a pso flush of an entry
 * other than the oldest), folded in after the event's own two; sc and
 * tso traces never have one. */
static inline void wt_digest_arg(struct wt_digest *d, uint32_t arg)
{
	d->h = wt_digest_word(d->h, arg);
}

/* Append one event (seq and digest are the buffer's business in sim
 * mode: seq = b->total), given its point's name hash
 * (wt_point_name_hash).  Returns the event's slot.  Inline: a traced
 * sim run records one per point. */
static inline struct wt_trace_event *
wt_trace_buf_record_hash(struct wt_trace_buf *b, uint64_t seq,
			 uint64_t time_ns, uint32_t thread,
			 const struct wt_point *p, uint16_t flags,
			 uint16_t note, uint64_t name_hash)
{
	struct wt_trace_event *e = &b->ev[b->at];

	if (++b->at == b->capacity)
		b->at = 0;
	e->seq = seq;
	e->time_ns = time_ns;
	e->thread = thread;
	e->point = wt_point_id(p);
	e->flags = flags;
	e->note = note;
	e->arg = 0;
	b->total++;
	wt_digest_event(&b->dg, thread, name_hash, flags);
	return e;
}

/* The same, the hash looked up (or computed: a point of no catalogue). */
static inline struct wt_trace_event *
wt_trace_buf_record(struct wt_trace_buf *b, uint64_t seq, uint64_t time_ns,
		    uint32_t thread, const struct wt_point *p, uint16_t flags,
		    uint16_t note)
{
	return wt_trace_buf_record_hash(b, seq, time_ns, thread, p, flags,
					note, wt_point_name_hash(p));
}

/* The sim ring as a trace (oldest first). */
struct wt_trace *wt_trace_from_buf(const struct wt_trace_buf *b);
/* Stress: merge per-thread rings by ticket; digest over what is kept. */
struct wt_trace *wt_trace_merge(struct wt_trace_buf *const *bufs, unsigned n);
void wt_trace_free(struct wt_trace *tr);

/* The tag of event e, or NULL. */
const char *wt_trace_event_note(const struct wt_trace *tr,
				const struct wt_trace_event *e);

/* Tag the current thread's following events with an op text (NULL ends
 * the tag).  The text is copied (truncated to WT_TRACE_NOTE_MAX - 1). */
void wt_trace_note(const char *text);

/*
 * One line per event:
 *	SEQ TIME_NS THREAD POINT_NAME [wait] [flush] ["note"]
 * (a store-buffer flush reads "SEQ TIME THREAD tso.flush flush"; under
 * pso a flush of the entry at buffer index K > 0 reads "flush@K")
 * THREAD is the thread's name when names[] is given, else #ID.  A header
 * line "# trace events=N dropped=D digest=HEX" comes first.
 */
void wt_trace_write(FILE *f, const struct wt_trace *tr,
		    const char *const *names, unsigned nnames);

/*
 * Read the text form back (e.g. a failure's saved trace) into an event
 * array for wt_run_config.replay: "#" lines are skipped, THREAD is a name
 * from names[] or #ID, POINT a dotted point name.  Returns a malloc'd
 * array (free()) and its length in *n, or NULL with err (line, col).
 */
struct wt_trace_event *wt_trace_parse(const char *text,
				      const char *const *names,
				      unsigned nnames, size_t *n,
				      struct wt_parse_error *err);

#endif /* WT_SIM_SCHED_TRACE_H */

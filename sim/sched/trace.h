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
 * The digest starts at WT_FNV1A_INIT and folds in, for each event in
 * order, two 64-bit words, each as h = (h ^ word) * WT_DIGEST_MUL;
 * h ^= h >> 32: first the FNV-1a hash of the point's dotted NAME, then
 * thread id | flags << 32 (the flags of WT_EV_DIGEST_FLAGS).  (Until
 * issue 19 it was FNV-1a over the same fields' 14 bytes: a byte at a
 * time, the top symbol of a profile; digests of that time differ.)
 * Names, not ids or addresses, so a
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

/* A ring being recorded into (sim: one for all; stress: one per thread). */
struct wt_trace_buf {
	struct wt_trace_event *ev;
	size_t capacity;
	uint64_t total;		/* events recorded, kept or not */
	size_t at;		/* the next event's slot: total % capacity,
				 * kept without a division an event */
	uint64_t digest;
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

/* Fold one event into a digest (the definition above), given its point's
 * name hash (wt_point_name_hash). */
static inline uint64_t wt_trace_digest_fold(uint64_t h, uint64_t name_hash,
					    uint32_t thread, uint16_t flags)
{
	/* Two words, each folded in with one multiply; the values, not
	 * their bytes in memory: the same on any host. */
	uint64_t w = (uint64_t)thread |
		     (uint64_t)(flags & WT_EV_DIGEST_FLAGS) << 32;

	h = (h ^ name_hash) * WT_DIGEST_MUL;
	h ^= h >> 32;
	h = (h ^ w) * WT_DIGEST_MUL;
	return h ^ (h >> 32);
}

/* Fold one event into a digest; inline: the sim folds one per point. */
static inline uint64_t wt_trace_digest_event(uint64_t h, uint32_t thread,
					     const struct wt_point *p,
					     uint16_t flags)
{
	return wt_trace_digest_fold(h, wt_point_name_hash(p), thread, flags);
}
/* A third word for an event with a nonzero arg (a pso flush of an entry
 * other than the oldest), folded in the same way; sc and tso traces
 * never have one, so their digests are as before. */
uint64_t wt_trace_digest_arg(uint64_t h, uint32_t arg);

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
	b->digest = wt_trace_digest_fold(b->digest, name_hash, thread, flags);
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

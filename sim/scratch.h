/* SPDX-License-Identifier: MIT */
/*
 * Scratch blocks: heap memory a thread's body takes and gives back
 * within one operation (a writer's path walk, a walker's link stack),
 * owned by the simulated thread that took it until then.
 *
 * A run may end without resuming a thread's body: a halt (wt_halt), a
 * fault, a stuck or deadlocked sim run abandons its fibers, and
 * wt_thread_exit() leaves a body in both backends.  Nothing of the body
 * is unwound, so what it would have freed further on is never freed.
 * A scratch block is on its thread's list while it is live, and wt_run
 * frees whatever a thread's list still holds when it tears the thread's
 * runtime state down (wt_scratch_free_all, sim/sched/run.c): the
 * abandoned body's memory has an owner that outlives it.
 *
 *	char *buf = wt_scratch_alloc(len + 1);
 *	...				(points: the run may end here)
 *	wt_scratch_free(buf);
 *
 * Each block carries a two-pointer header linking it into the list of
 * the thread that was wt_self when it was taken: taking one is malloc
 * and two stores more, giving it back free and two stores, whatever
 * order blocks come back in.  A block taken with no simulated thread
 * (start-up, the tree builder) is on no list and is a plain heap block.
 * The list is its thread's only: a block must be given back on the OS
 * thread that runs its owner (a stress thread, or the sim's one), and
 * not after its owner's run has ended.  No point anywhere, so a schedule
 * cannot tell a scratch block from a malloc'd one.
 */
#ifndef WT_SIM_SCRATCH_H
#define WT_SIM_SCRATCH_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/thread.h"

struct wt_scratch {
	struct wt_scratch *next;
	/* the previous block's next, or the thread's head; NULL: the block
	 * is on no list (taken with no simulated thread) */
	struct wt_scratch **pprev;
};

/* The header keeps malloc's alignment for the block after it. */
_Static_assert(sizeof(struct wt_scratch) % _Alignof(max_align_t) == 0,
	       "a scratch header breaks the block's alignment");

/* size bytes for the current thread (malloc's answer for no thread);
 * NULL on ENOMEM. */
static inline void *wt_scratch_alloc(size_t size)
{
	struct wt_thread *t = wt_self;
	struct wt_scratch *s;

	if (size > SIZE_MAX - sizeof(*s))
		return NULL;
	s = malloc(sizeof(*s) + size);
	if (!s)
		return NULL;
	if (!t) {
		s->next = NULL;
		s->pprev = NULL;
		return s + 1;
	}
	s->next = t->scratch;
	s->pprev = &t->scratch;
	if (s->next)
		s->next->pprev = &s->next;
	t->scratch = s;
	return s + 1;
}

/* wt_scratch_alloc, zeroed. */
static inline void *wt_scratch_zalloc(size_t size)
{
	void *p = wt_scratch_alloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

/* Give back p (from wt_scratch_alloc, or NULL) to whichever list holds it. */
static inline void wt_scratch_free(void *p)
{
	struct wt_scratch *s;

	if (!p)
		return;
	s = (struct wt_scratch *)p - 1;
	if (s->pprev) {
		assert(*s->pprev == s);
		*s->pprev = s->next;
		if (s->next)
			s->next->pprev = s->pprev;
	}
	free(s);
}

/*
 * Free every block t still holds: what its body took and never gave back
 * because the run abandoned it.  Called once t's body can no longer run
 * (wt_run, after the backend returned).  Returns how many there were.
 */
static inline unsigned wt_scratch_free_all(struct wt_thread *t)
{
	struct wt_scratch *s = t->scratch;
	unsigned n = 0;

	t->scratch = NULL;
	while (s) {		/* bounded: each block is on one list once */
		struct wt_scratch *next = s->next;

		assert(s->pprev);
		free(s);
		s = next;
		n++;
	}
	return n;
}

#endif /* WT_SIM_SCRATCH_H */

/* SPDX-License-Identifier: MIT */
/*
 * seqcount: the out-of-line part, the condition a reader waits on while a
 * writer is inside (the fast paths are inline in seq.h).
 */
#include "sim/seq.h"

/* read_seqcount_begin's wait: ready once no writer is inside.  A writer may
 * come in again before the reader runs; the retry check catches that. */
bool wt_seq_even(const void *seqcount)
{
	return (wt_seq_raw(seqcount) & 1) == 0;
}

void wt_seq_note_moved(const seqcount_t *s, unsigned start, unsigned now)
{
	struct wt_thread *t = wt_self;

	if (!t)
		return;
	t->seq_moved.set = true;
	t->seq_moved.birth = s->birth;
	t->seq_moved.start = start;
	t->seq_moved.now = now;
	/* the tag is kept only while hooks are armed (nd_tag_obj) */
	t->seq_moved.obj = wt_self_armed && t->cur_obj ? t->cur_obj->id : 0;
}

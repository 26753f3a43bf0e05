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

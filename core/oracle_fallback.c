/* SPDX-License-Identifier: MIT */
/*
 * No spurious fallback: every exit path that names a seq or a lock
 * (WT_PATH_NAMES_SEQ_LIST, core/paths.h) -- a restart, an unlazy, a
 * scoped EAGAIN -- must follow a seq retry that failed because that
 * seqcount really moved since the walk sampled it.
 *
 * The walker records each such path as a FALLBACK step carrying the
 * thread's last failed retry since its last sample (core/record.h): the
 * seqcount's first value, the value the retry compared with and the value
 * it read.  A seqcount only moves forward, so its values from birth to
 * now were all held: a start outside that range was sampled from another
 * seqcount (a stale seq compared against the wrong dentry), and no retry
 * at all means the walk gave up without a moved seq to blame.  Both are
 * performance bugs the kernel cares about -- REF-walk then gives a right
 * answer, so no other check sees them -- and this judgement needs no
 * exact counts, so undirected runs apply it to every walk.
 *
 * Legitimate fallbacks stay accepted: a seq that moved twice (a rename
 * and its undo) still reads a value past the sample; a dead lockref, a
 * d_revalidate answer, a permission check or a miss are not seq-named
 * paths and record no FALLBACK.  Every attempt is judged, not only the
 * one that returned: the fallbacks are what made the earlier ones end.
 */
#include "core/oracle_internal.h"
#include "core/paths.h"
#include "sim/seq.h"

static const char *path_name(uint32_t id)
{
	return id < WT_PATH__COUNT ? wt_path_info(id)->name : "?";
}

bool oj_check_fallbacks(struct oj *j)
{
	const struct wt_record *r = j->r;

	for (uint32_t i = 0; i < r->nsteps; i++) {
		const struct wt_step *s = &r->steps[i];

		if (s->kind != WT_STEP_FALLBACK)
			continue;
		if (!s->result)
			return oj_reject(j, (int)i, "spurious fallback: %s was "
					 "taken in attempt %u, but no seq retry "
					 "failed since the walk's last sample "
					 "(nothing it sampled had moved)",
					 path_name(s->arg), s->attempt);
		if (s->seq_now == s->dep_seq ||
		    !wt_seq_held(s->seq_birth, s->dep_seq, s->seq_now))
			return oj_reject(j, (int)i, "spurious fallback: %s was "
					 "taken in attempt %u on a retry that "
					 "compared seq %u with %u, a value that "
					 "seqcount never held (it went from %u "
					 "to %u): a sample of another object",
					 path_name(s->arg), s->attempt,
					 s->seq_now, s->dep_seq, s->seq_birth,
					 s->seq_now);
	}
	return true;
}

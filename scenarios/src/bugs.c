/* SPDX-License-Identifier: MIT */
/*
 * --bug NAME: the zoo bug ids of sim/bug.h by name.
 *
 * XXX core/zoo.c (the catalogue with descriptions, references and the
 * scenario that catches each bug) has not landed; until it does, this
 * table names the ids of sim/bug.h so that `--bug' works and an unknown
 * name prints every valid one.  Replace it with the zoo's lookup then.
 */
#include <string.h>

#include "scenarios/src/scenario.h"
#include "sim/bug.h"

static const char *const bug_names[WT_BUG__COUNT] = {
	[WT_BUG_DOTDOT_NO_MOUNT_LOCK] = "dotdot_no_mount_lock",
	[WT_BUG_FOLLOW_MOUNT_NO_STOP] = "follow_mount_no_stop",
	[WT_BUG_LEGITIMIZE_LOCKLESS_SYNC] = "legitimize_lockless_sync",
	[WT_BUG_LEGITIMIZE_FULL_MNTPUT] = "legitimize_full_mntput",
	[WT_BUG_STEP_INTO_NO_SEQ] = "step_into_no_seq",
	[WT_BUG_INODE_NO_SEQ] = "inode_no_seq",
	[WT_BUG_SLOW_CMP_NO_SEQ] = "slow_cmp_no_seq",
	[WT_BUG_LOCKREF_GET] = "lockref_get",
	[WT_BUG_D_LOOKUP_NO_RENAME_LOCK] = "d_lookup_no_rename_lock",
	[WT_BUG_FREE_NO_GRACE] = "free_no_grace",
	[WT_BUG_LOOKUP_FAST_NO_PARENT_SEQ] = "lookup_fast_no_parent_seq",
	[WT_BUG_SYMLINK_DROPS_SEQ] = "symlink_drops_seq",
};

int wt_scn_bug_parse(const char *name, uint64_t *bits)
{
	for (unsigned i = 0; i < WT_BUG__COUNT; i++)
		if (bug_names[i] && !strcmp(bug_names[i], name)) {
			*bits |= 1ull << i;
			return 0;
		}
	return -1;
}

void wt_scn_bug_print(FILE *f)
{
	fputs("walktorture: bugs:", f);
	for (unsigned i = 0; i < WT_BUG__COUNT; i++)
		if (bug_names[i])
			fprintf(f, " %s", bug_names[i]);
	fputc('\n', f);
}

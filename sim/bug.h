/* SPDX-License-Identifier: MIT */
/*
 * Zoo bug ids.  The world carries a bit set of them (wt_world_config.bugs);
 * the code of a check that a bug removes tests wt_bug(w, WT_BUG_X) right
 * there, so the model and its mutant read together.  The catalogue with
 * descriptions, references and catching scenarios lives in core/zoo.c.
 */
#ifndef WT_SIM_BUG_H
#define WT_SIM_BUG_H

enum wt_bug {
	WT_BUG_DOTDOT_NO_MOUNT_LOCK,	/* follow_dotdot_rcu: no mount_lock recheck after following up */
	WT_BUG_FOLLOW_MOUNT_NO_STOP,	/* __follow_mount_rcu goes on when mount_lock moved (b37199e6) */
	WT_BUG_LEGITIMIZE_LOCKLESS_SYNC,/* __legitimize_mnt tests MNT_SYNC_UMOUNT without the hash lock */
	WT_BUG_LEGITIMIZE_FULL_MNTPUT,	/* legitimize_mnt does mntput on MNT_SYNC_UMOUNT */
	WT_BUG_STEP_INTO_NO_SEQ,	/* step_into: no child d_seq check */
	WT_BUG_INODE_NO_SEQ,		/* nd->inode not revalidated against d_seq */
	WT_BUG_SLOW_CMP_NO_SEQ,		/* slow_dentry_cmp without the d_seq retry */
	WT_BUG_LOCKREF_GET,		/* lockref_get instead of lockref_get_not_dead */
	WT_BUG_D_LOOKUP_NO_RENAME_LOCK,	/* d_lookup without the rename_lock retry */
	WT_BUG_FREE_NO_GRACE,		/* a dentry freed without a grace period */
	WT_BUG_LOOKUP_FAST_NO_PARENT_SEQ,/* lookup_fast: no parent d_seq recheck */
	WT_BUG_SYMLINK_DROPS_SEQ,	/* walk_component's symlink case discards the parent's seq */
	WT_BUG_LEGITIMIZE_NO_MB,	/* __legitimize_mnt without its smp_mb (memory=tso) */
	WT_BUG_UMOUNT_NO_MB,		/* do_umount without the smp_mb before its busy check (memory=tso) */
	WT_BUG_SEQ_NO_BARRIER,		/* seq.h: the smp_mb of a seqcount Dekker pairing (_mb variants) removed (memory=tso) */
	WT_BUG_MAY_LOOKUP_BLOCKS,	/* may_lookup in RCU mode without MAY_NOT_BLOCK */
	WT_BUG_UNLAZY_NEXT_LEAK,	/* try_to_unlazy_next keeps the child's reference when it fails */
	WT_BUG_NO_SYMLINKS_IGNORED,	/* pick_link follows a link under RESOLVE_NO_SYMLINKS */
	/* issue 24: one per class of walks on unusual ground */
	WT_BUG_SCOPED_NO_PATH_IS_UNDER,	/* complete_walk: no path_is_under for a scoped lookup */
	WT_BUG_LEGITIMIZE_LINKS_DEPTH,	/* legitimize_links: depth not cut at the failed link */
	WT_BUG_DOTDOT_WRONG_SEQ,	/* follow_dotdot_rcu: child's d_seq checked against the parent's sample */
	WT_BUG_MOUNTPOINT_PAST_ROOT,	/* choose_mountpoint_rcu: no stop at the walker's root */
	WT_BUG_NEGATIVE_NO_REVALIDATE,	/* lookup_fast (RCU): a negative dentry trusted without d_revalidate */
	/* issue 23: ordering bugs memory=pso shows */
	WT_BUG_TYPE_BEFORE_INODE,	/* __d_set_inode_and_type: d_flags not a release store (4bf46a272647) */
	/* issue 23: historical bugs of the walk */
	WT_BUG_NEGATIVE_AFTER_SEQ,	/* the negativity test loads d_flags after the child's d_seq check (766c4cbfacd8) */
	WT_BUG_NO_PATH_CONNECTED,	/* `..` without path_connected: out of a bind mount's subtree (Biederman 2015) */
	WT_BUG_KILL_UNHASHED_NO_SEQ,	/* the kill of an unhashed dentry clears d_inode without moving d_seq (4c0d7cd5c841) */
	WT_BUG_AUTOMOUNT_DETACHED_PARENT,/* finish_automount attaches under a mount umount -l detached (156cacb1d0d3) */
	WT_BUG_FOLLOW_MOUNT_NO_RECHECK,	/* __follow_mount_rcu: no mount_lock recheck after crossing (20aac6c60981) */
	WT_BUG_MOUNT_UNLINKED_ANCESTOR,	/* d_set_mounted: no test of the mountpoint's ancestors (eed810076685) */
	/* session 18: a mutant the step oracle now rejects */
	WT_BUG_WEAK_REVALIDATE_GE,	/* complete_walk takes d_weak_revalidate's 0 (stale) as valid */
	/* session 28: an error of the remote model the campaigns found */
	WT_BUG_REMOTE_ALIAS_NO_EXPIRE,	/* remote: a change through one of two client inodes of a directory expires nothing */
	WT_BUG__COUNT
};

#endif /* WT_SIM_BUG_H */

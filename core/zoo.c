/* SPDX-License-Identifier: MIT */
/*
 * The bug zoo's catalogue (see core/zoo.h).  One designated-initializer
 * row per id of sim/bug.h; the scenario of each lives in scenarios/zoo/
 * under the bug's name, and scenarios/zoo/README.md tells for each what
 * its schedule does and why the named check is the one that fires.
 */
#include <assert.h>
#include <string.h>

#include "core/zoo.h"
#include "sim/bug.h"

static const struct wt_zoo_bug zoo[] = {
	{
		.id = WT_BUG_DOTDOT_NO_MOUNT_LOCK,
		.name = "dotdot_no_mount_lock",
		.description = "follow_dotdot_rcu without the mount_lock recheck "
			"after following up: a mount --move between the loads of "
			"mnt_mountpoint and mnt_parent leaves `..` on a torn "
			"(mount, dentry) pair, and the walk answers a bogus hard "
			"error from the wrong filesystem",
		.reference = "Al Viro, Re: [RFC][PATCHSET] non-recursive "
			"link_path_walk() and reducing stack footprint, "
			"2015-04-23 (seeds/001-mail-*.txt)",
		.scenario = "zoo/dotdot_no_mount_lock.yaml",
		.fires = "place",
		.stress = "zoo/stress/dotdot_no_mount_lock.yaml",
	},
	{
		.id = WT_BUG_FOLLOW_MOUNT_NO_STOP,
		.name = "follow_mount_no_stop",
		.description = "__follow_mount_rcu goes on when mount_lock moved: "
			"a false negative of __lookup_mnt (a mount --move "
			"rewriting the hash chain) walks into the covered "
			"directory and answers from it",
		.reference = "Linux commit b37199e6, as Al Viro's mail describes "
			"it (\"false negatives from __lookup_mnt() won't end up "
			"with hard error\")",
		.scenario = "zoo/follow_mount_no_stop.yaml",
		.fires = "oracle",
		.stress = "zoo/stress/follow_mount_no_stop.yaml",
	},
	{
		.id = WT_BUG_LEGITIMIZE_LOCKLESS_SYNC,
		.name = "legitimize_lockless_sync",
		.description = "__legitimize_mnt tests MNT_SYNC_UMOUNT before "
			"taking the mount hash lock (the order before 2025): a "
			"walker that raised the count after umount's busy check "
			"but before the flag was set keeps it, does a full "
			"mntput and steals sync umount's final put",
		.reference = "Linux, 2025: __legitimize_mnt tests MNT_SYNC_UMOUNT "
			"under the mount hash lock (DESIGN.md \"legitimize_mnt and "
			"MNT_SYNC_UMOUNT\")",
		.scenario = "zoo/legitimize_lockless_sync.yaml",
		.fires = "sync_umount",
		.stress = "zoo/stress/legitimize_lockless_sync.yaml",
	},
	{
		.id = WT_BUG_LEGITIMIZE_FULL_MNTPUT,
		.name = "legitimize_full_mntput",
		.description = "legitimize_mnt keeps its count on a "
			"MNT_SYNC_UMOUNT mount and drops it with a full mntput "
			"instead of the quiet decrement: the walker's put can be "
			"the final one, which sync umount must do itself",
		.reference = "Al Viro's mail (\"Full-blown mntput() is done only "
			"on mismatches that had _not_ been marked that way\"); "
			"fs/namespace.c __legitimize_mnt",
		.scenario = "zoo/legitimize_full_mntput.yaml",
		.fires = "sync_umount",
		.stress = "zoo/stress/legitimize_full_mntput.yaml",
	},
	{
		.id = WT_BUG_STEP_INTO_NO_SEQ,
		.name = "step_into_no_seq",
		.description = "step_into without the child's d_seq check: the "
			"walk steps onto a dentry an exchange and an unlink "
			"changed after the hash lookup, and answers ENOENT for a "
			"name that existed at every instant",
		.reference = "fs/namei.c step_into (\"the child's d_seq moved "
			"since nd->next_seq\"); plausible mistake",
		.scenario = "zoo/step_into_no_seq.yaml",
		.fires = "oracle",
		.stress = "zoo/stress/step_into_no_seq.yaml",
	},
	{
		.id = WT_BUG_INODE_NO_SEQ,
		.name = "inode_no_seq",
		.description = "nd->inode loaded from the dentry again after "
			"the d_seq check, so the check does not cover it: an "
			"exchange and an unlink right after the check make the "
			"walk answer ENOENT for a name that always existed",
		.reference = "Al Viro's mail (\"nd->seq and nd->inode equal to "
			"->d_seq and ->d_inode\"); plausible mistake",
		.scenario = "zoo/inode_no_seq.yaml",
		.fires = "oracle",
		.stress = "zoo/stress/inode_no_seq.yaml",
	},
	{
		.id = WT_BUG_SLOW_CMP_NO_SEQ,
		.name = "slow_cmp_no_seq",
		.description = "slow_dentry_cmp without the d_seq retry: "
			"d_compare gets a torn (len, name) pair of a casefold "
			"external name being renamed and matches; step_into's "
			"child check then restarts the walk (a spurious fallback, "
			"no wrong answer: see scenarios/zoo/README.md)",
		.reference = "fs/dcache.c slow_dentry_cmp (\"d_compare ... the "
			"name may be changing\"); DESIGN.md \"Bug zoo\"",
		.scenario = "zoo/slow_cmp_no_seq.yaml",
		.fires = "expectation",
		.stress = NULL,
		.counts_only = true,
	},
	{
		.id = WT_BUG_LOCKREF_GET,
		.name = "lockref_get",
		.description = "legitimize takes lockref_get instead of "
			"lockref_get_not_dead: a walker unlazying on a dentry "
			"the shrinker killed resurrects its dead count and its "
			"put then underflows it",
		.reference = "fs/namei.c legitimize_path (lockref_get_not_dead); "
			"DESIGN.md \"Primitives\"",
		.scenario = "zoo/lockref_get.yaml",
		.fires = "lockref",
		.stress = "zoo/stress/lockref_get.yaml",
	},
	{
		.id = WT_BUG_D_LOOKUP_NO_RENAME_LOCK,
		.name = "d_lookup_no_rename_lock",
		.description = "d_lookup without the rename_lock retry: a rename "
			"in another directory carries the chain walk into another "
			"bucket (forced collisions, dcache_buckets: 2) and the miss "
			"is final: open(O_CREAT) answers ENOENT for the name it "
			"has just created",
		.reference = "fs/dcache.c d_lookup (\"__d_lookup ... may fail "
			"... rename_lock\"); DESIGN.md \"VFS objects\"",
		.scenario = "zoo/d_lookup_no_rename_lock.yaml",
		.fires = "oracle",
		.stress = "zoo/stress/d_lookup_no_rename_lock.yaml",
	},
	{
		.id = WT_BUG_FREE_NO_GRACE,
		.name = "free_no_grace",
		.description = "a killed dentry is freed at once instead of "
			"after a grace period: an RCU-walker standing on it "
			"touches freed (poisoned) memory",
		.reference = "fs/dcache.c dentry_free (call_rcu); plausible mistake",
		.scenario = "zoo/free_no_grace.yaml",
		.fires = "poison",
		.stress = "zoo/stress/free_no_grace.yaml",
	},
	{
		.id = WT_BUG_LOOKUP_FAST_NO_PARENT_SEQ,
		.name = "lookup_fast_no_parent_seq",
		.description = "lookup_fast without the parent's d_seq recheck: "
			"a directory removed and made again with mode 000 "
			"reuses its negative dentry, the walk keeps the old "
			"inode's exec permission and finds a child of the new "
			"one (a stale-inode permission bypass)",
		.reference = "Al Viro's mail (\"This sequence count validates "
			"that the parent had no changes\"); fs/namei.c lookup_fast",
		.scenario = "zoo/lookup_fast_no_parent_seq.yaml",
		.fires = "oracle",
		.stress = "zoo/stress/lookup_fast_no_parent_seq.yaml",
	},
	{
		.id = WT_BUG_SYMLINK_DROPS_SEQ,
		.name = "symlink_drops_seq",
		.description = "the symlink case of walk_component throws the "
			"parent's seq away (resampled): a rename of the link's "
			"directory goes unseen by the body's lookup_fast; REF-walk "
			"tolerates that rename too, so it shows only as a missing "
			"fallback (see scenarios/zoo/README.md)",
		.reference = "Al Viro's mail (\"stop discarding the parent's "
			"seq number in 'need to follow a symlink' case of "
			"walk_component()\")",
		.scenario = "zoo/symlink_drops_seq.yaml",
		.fires = "expectation",
		.stress = NULL,
		.counts_only = true,
	},
	{
		.id = WT_BUG_MAY_LOOKUP_BLOCKS,
		.name = "may_lookup_blocks",
		.description = "may_lookup asks for the exec permission in RCU "
			"mode without MAY_NOT_BLOCK: a filesystem whose check "
			"must fetch an ACL sleeps inside the RCU read section "
			"instead of answering -ECHILD",
		.reference = "fs/namei.c may_lookup (MAY_NOT_BLOCK in RCU-walk); "
			"plausible mistake",
		.scenario = "zoo/may_lookup_blocks.yaml",
		.fires = "rcu_sleep",
		.stress = "zoo/stress/may_lookup_blocks.yaml",
	},
	{
		.id = WT_BUG_UNLAZY_NEXT_LEAK,
		.name = "unlazy_next_leak",
		.description = "try_to_unlazy_next, failing on the child's d_seq "
			"after taking its reference, forgets to put it: the "
			"dentry's count stays one too high for good",
		.reference = "fs/namei.c try_to_unlazy_next (the out_dput "
			"label); plausible mistake",
		.scenario = "zoo/unlazy_next_leak.yaml",
		.fires = "refcount",
		.stress = "zoo/stress/unlazy_next_leak.yaml",
	},
	{
		.id = WT_BUG_NO_SYMLINKS_IGNORED,
		.name = "no_symlinks_ignored",
		.description = "pick_link forgets openat2's RESOLVE_NO_SYMLINKS "
			"and follows the link: the open succeeds where it must "
			"answer ELOOP (the resolve check sees the LINK step)",
		.reference = "openat2(2) RESOLVE_NO_SYMLINKS (LOOKUP_NO_SYMLINKS "
			"in pick_link, Linux 5.6); plausible mistake",
		.scenario = "zoo/no_symlinks_ignored.yaml",
		.fires = "resolve",
		.stress = NULL,
	},
	/* issue 24: walks on unusual ground, one bug per class */
	{
		.id = WT_BUG_SCOPED_NO_PATH_IS_UNDER,
		.name = "scoped_no_path_is_under",
		.description = "complete_walk without path_is_under for a "
			"scoped lookup: a rename carries the directory a "
			"RESOLVE_BENEATH walk stands in out of its root, the walk "
			"finds a name made there afterwards and hands out a "
			"result outside the root",
		.reference = "fs/namei.c complete_walk (\"the final sanity "
			"check\" of LOOKUP_IS_SCOPED); plausible mistake",
		.scenario = "zoo/scoped_no_path_is_under.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
	{
		.id = WT_BUG_LEGITIMIZE_LINKS_DEPTH,
		.name = "legitimize_links_depth",
		.description = "legitimize_links, failing on a lower saved "
			"link, leaves depth covering the links above it: "
			"terminate_walk puts references they never took",
		.reference = "fs/namei.c legitimize_links (\"nd->depth = i + "
			"1\"); plausible mistake",
		.scenario = "zoo/legitimize_links_depth.yaml",
		.fires = "refcount",
		.stress = NULL,
	},
	{
		.id = WT_BUG_DOTDOT_WRONG_SEQ,
		.name = "dotdot_wrong_seq",
		.description = "follow_dotdot_rcu checks the child's d_seq "
			"against the parent's fresh sample (nd->next_seq) "
			"instead of nd->seq: a stale seq of the wrong dentry, so "
			"every `..` restarts in REF-walk -- right answers, a "
			"spurious fallback each time",
		.reference = "fs/namei.c follow_dotdot_rcu (read_seqcount_retry "
			"of the old dentry against nd->seq); plausible mistake",
		.scenario = "zoo/dotdot_wrong_seq.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
	{
		.id = WT_BUG_MOUNTPOINT_PAST_ROOT,
		.name = "mountpoint_past_root",
		.description = "choose_mountpoint_rcu without its stop at the "
			"walker's root: `..` at the root of a mount stacked on "
			"the root climbs to the root as a mountpoint and goes on "
			"to its parent -- an escape from an open_root walk",
		.reference = "fs/namei.c choose_mountpoint_rcu (the "
			"path_equal(root) test in its loop); plausible mistake",
		.scenario = "zoo/mountpoint_past_root.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
	{
		.id = WT_BUG_NEGATIVE_NO_REVALIDATE,
		.name = "negative_no_revalidate",
		.description = "lookup_fast in RCU mode trusts a cached negative "
			"dentry without d_revalidate: on a remote filesystem a "
			"name the server made after the miss was cached is "
			"answered ENOENT, with the server's change (which "
			"expired the client's cache) long done",
		.reference = "fs/namei.c lookup_fast (d_revalidate of every hit, "
			"negative ones too; NFS's nfs_neg_need_reval); plausible "
			"mistake",
		.scenario = "zoo/negative_no_revalidate.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
	/*
	 * The barrier bugs: visible only under memory=tso (sim/tso.h, the
	 * scenarios' `memory: tso'), where a store can wait in its thread's
	 * store buffer while that thread's later loads go ahead.  Under SC
	 * the same scenarios pass with the bug (a ctest checks it).
	 */
	{
		.id = WT_BUG_LEGITIMIZE_NO_MB,
		.name = "legitimize_no_mb",
		.description = "__legitimize_mnt without the smp_mb() between "
			"raising the count and rechecking mount_lock: under "
			"x86-TSO the increment waits in the walker's store "
			"buffer while its recheck reads the old mount_lock and "
			"umount's busy check sums the counts without it; both "
			"go on, and the walk keeps a mount a sync umount took "
			"down",
		.reference = "fs/namespace.c __legitimize_mnt (smp_mb paired "
			"with do_umount and mntput_no_expire); DESIGN.md "
			"\"Weak memory\"",
		.scenario = "zoo/legitimize_no_mb.yaml",
		.fires = "sync_umount",
		.stress = NULL,
	},
	{
		.id = WT_BUG_UMOUNT_NO_MB,
		.name = "umount_no_mb",
		.description = "do_umount without the smp_mb() before its busy "
			"check: under x86-TSO the odd mount_lock count that "
			"lock_mount_hash stored waits in umount's store buffer "
			"while it sums the counts, so a walker's recheck passes "
			"on the old value after umount found nobody holding the "
			"mount",
		.reference = "fs/namespace.c do_umount (\"paired with "
			"__legitimize_mnt\"); DESIGN.md \"legitimize_mnt and "
			"MNT_SYNC_UMOUNT\"",
		.scenario = "zoo/umount_no_mb.yaml",
		.fires = "sync_umount",
		.stress = NULL,
	},
	{
		.id = WT_BUG_SEQ_NO_BARRIER,
		.name = "seq_no_barrier",
		.description = "the smp_mb of the seqcount Dekker pairings "
			"removed from the primitive (wt_seq_dekker_mb and the "
			"_mb variants of sim/seq.h): mount_lock's pairing loses "
			"both sides at once (__legitimize_mnt, do_umount, "
			"mntput_no_expire), found under random tso schedules "
			"with no directed order",
		.reference = "include/linux/seqlock.h, fs/namespace.c (smp_mb "
			"pairings of mount_lock and mnt_count); sim/tso.h",
		.scenario = "zoo/seq_no_barrier.yaml",
		.fires = "sync_umount",
		.stress = NULL,
	},
	/* issue 23: publication orders only memory=pso can break */
	{
		.id = WT_BUG_TYPE_BEFORE_INODE,
		.name = "type_before_inode",
		.description = "d_instantiate stores the dentry's type in "
			"d_flags with a plain store instead of a release store "
			"after d_inode: under partial store order the type can "
			"reach memory first, and a REF-walk that holds the "
			"(negative, cached) dentry reads it positive with a "
			"NULL inode",
		.reference = "Linux commit 4bf46a272647 (VFS: Impose ordering "
			"on accesses of d_inode and d_flags, 2015): "
			"__d_set_inode_and_type and d_flags_negative readers",
		.scenario = "zoo/type_before_inode.yaml",
		.fires = "invariant",
		.stress = NULL,
	},
	/* issue 23: historical bugs of the walk, each its commit */
	{
		.id = WT_BUG_NEGATIVE_AFTER_SEQ,
		.name = "negative_after_seq",
		.description = "step_into decides that the dentry is negative "
			"from a d_flags load after the child's d_seq check "
			"instead of from the inode loaded before it: a rename "
			"over the name, between the check and the test, kills "
			"the old dentry and the walk answers ENOENT for a name "
			"that existed at every instant",
		.reference = "Linux commit 766c4cbfacd8 (namei: d_is_negative() "
			"should be checked before ->d_seq validation, 2015)",
		.scenario = "zoo/negative_after_seq.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
	{
		.id = WT_BUG_NO_PATH_CONNECTED,
		.name = "no_path_connected",
		.description = "`..` without the path_connected test: a "
			"directory renamed out of the subtree a bind mount "
			"shows is still climbed from inside the mount, and the "
			"walk reaches directories above the mount's root -- an "
			"escape from a bind mount (and from a container's root "
			"built on one)",
		.reference = "Linux commit 397d425dc26d (Eric W. Biederman, "
			"vfs: Test for and handle paths that are unreachable "
			"from their mnt_root, 2015)",
		.scenario = "zoo/no_path_connected.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
	{
		.id = WT_BUG_KILL_UNHASHED_NO_SEQ,
		.name = "kill_unhashed_no_seq",
		.description = "the final dput of an unhashed dentry clears "
			"d_inode without moving d_seq (only a hashed one got "
			"the count): a walk that took `..` to a directory "
			"already invalidated, sampling its d_seq after the "
			"unhash, loads the NULL inode the kill left under a "
			"sample that still holds and answers ENOENT for a "
			"directory that never went away",
		.reference = "Linux commit 4c0d7cd5c841 (make sure that "
			"__dentry_kill() always invalidates d_seq, unhashed or "
			"not, 2023): dentry_unlink_inode",
		.scenario = "zoo/kill_unhashed_no_seq.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
	{
		.id = WT_BUG_AUTOMOUNT_DETACHED_PARENT,
		.name = "automount_detached_parent",
		.description = "finish_automount without do_add_mount's test "
			"that the trigger's mount is still in a namespace: a "
			"walker that holds the autofs mount across `umount -l` "
			"attaches the new mount under the detached tree, where "
			"nothing reaches or unmounts it and its pin keeps the "
			"detached parent alive for ever",
		.reference = "Linux commit 156cacb1d0d3 (do_add_mount()/umount "
			"-l races, Al Viro, 2017): do_add_mount's mnt_ns test "
			"for automounts",
		.scenario = "zoo/automount_detached_parent.yaml",
		.fires = "mount_tree",
		.stress = NULL,
	},
	{
		.id = WT_BUG_FOLLOW_MOUNT_NO_RECHECK,
		.name = "follow_mount_no_recheck",
		.description = "__follow_mount_rcu does not recheck mount_lock "
			"right after crossing onto a mount's root: after a "
			"umount detached that mount, a rename exchange in its "
			"filesystem puts a cached negative dentry on the walk's "
			"way and RCU-walk answers ENOENT, a hard error no unlazy "
			"rechecks, where the fixed walk restarts and REF-walk "
			"finds the covered name (counts and result only: the "
			"fixed kernel gives the same ENOENT when the umount "
			"comes right after the recheck)",
		.reference = "Linux commit 20aac6c60981 (fs/namei.c: "
			"__follow_mount_rcu(): verify that mount_lock remains "
			"unchanged, 2022)",
		.scenario = "zoo/follow_mount_no_recheck.yaml",
		.fires = "expectation",
		.stress = NULL,
	},
	{
		.id = WT_BUG_MOUNT_UNLINKED_ANCESTOR,
		.name = "mount_unlinked_ancestor",
		.description = "d_set_mounted tests only the mountpoint, not "
			"the directories above it: after a remote directory was "
			"invalidated, a mount through a task's cwd inside it "
			"(/proc/PID/cwd, a relative path, a dirfd) attaches in a "
			"subtree no name reaches any more, where the fixed code "
			"answers ENOENT (result and count only: the attached "
			"mount is one the namespace can hold)",
		.reference = "Linux commit eed810076685 (vfs: check unlinked "
			"ancestors before mount, Miklos Szeredi, 2013)",
		.scenario = "zoo/mount_unlinked_ancestor.yaml",
		.fires = "expectation",
		.stress = NULL,
	},
	/* session 18: a mutant only a directed result saw, now the oracle's */
	{
		.id = WT_BUG_WEAK_REVALIDATE_GE,
		.name = "weak_revalidate_ge",
		.description = "complete_walk reads d_weak_revalidate's 0 as "
			"no error (`status >= 0`): a result the walk reached by "
			"a jump (`..`, a mount crossing) whose handle the server "
			"made stale before the walk asked is handed out as "
			"valid, where the fixed code answers -ESTALE and the "
			"LOOKUP_REVAL retry looks the path up again",
		.reference = "fs/namei.c complete_walk (0 from "
			"d_weak_revalidate is -ESTALE); plausible mistake "
			"(mutant 05 of the fifteenth session's mutant-kill run)",
		.scenario = "zoo/weak_revalidate_ge.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
	/* session 28: an error of the model's NFS-like client, which the
	 * generated workloads found before anyone wrote a schedule for it */
	{
		.id = WT_BUG_REMOTE_ALIAS_NO_EXPIRE,
		.name = "remote_alias_no_expire",
		.description = "the remote client's own changes expire "
			"nothing even when the server directory has a second "
			"client inode (an old dentry still held after a "
			"server-side rename or a stale handle, the new one "
			"looked up): a negative dentry under one stays trusted "
			"after a create through the other, and a walk answers "
			"ENOENT for a name the server holds",
		.reference = "NFS keeps one inode per file handle "
			"(nfs_fhget); the model's client_changed "
			"(sim/fs/remote.c), found by fuzz --seed 0x2704 "
			"workload 278219",
		.scenario = "zoo/remote_alias_no_expire.yaml",
		.fires = "oracle",
		.stress = NULL,
	},
};

#define ZOO_N (sizeof(zoo) / sizeof(zoo[0]))

const struct wt_zoo_bug *wt_zoo_bugs(unsigned *n)
{
	*n = ZOO_N;
	return zoo;
}

const struct wt_zoo_bug *wt_zoo_by_name(const char *name)
{
	assert(name);
	for (unsigned i = 0; i < ZOO_N; i++)
		if (!strcmp(zoo[i].name, name))
			return &zoo[i];
	return NULL;
}

const struct wt_zoo_bug *wt_zoo_by_id(unsigned id)
{
	for (unsigned i = 0; i < ZOO_N; i++)
		if (zoo[i].id == id)
			return &zoo[i];
	return NULL;
}

void wt_zoo_print_names(FILE *f)
{
	for (unsigned i = 0; i < ZOO_N; i++)
		fprintf(f, " %s", zoo[i].name);
}

bool wt_zoo_fired(const struct wt_zoo_bug *b, const char *kind,
		  const char *check)
{
	assert(b && b->fires);
	if (!kind)
		return false;
	if (!strcmp(kind, "check"))
		return check && !strcmp(check, b->fires);
	return !strcmp(kind, b->fires);
}

/* SPDX-License-Identifier: MIT */
/*
 * The exit-path catalogue: every place where a walk leaves RCU-walk,
 * retries, or ends, with a stable dotted name and a counter.
 *
 * Name families (the names follow the code):
 *
 *	unlazy.REASON	the walk could not go on lazily at REASON, left
 *			RCU-walk with try_to_unlazy()/try_to_unlazy_next(),
 *			and went on in REF-walk from where it was;
 *	restart.REASON	the same, but legitimizing failed (or a seq check
 *			failed outright): -ECHILD, and the entry point
 *			restarts the whole walk in REF-walk;
 *	restart.legitimize*	WHY an unlazy failed (mount_lock moved, a dead
 *			lockref, a d_seq that moved, RESOLVE_CACHED, the two
 *			MNT_SYNC_UMOUNT branches of __legitimize_mnt).  A
 *			failed unlazy counts once under its REASON and once
 *			under its cause, so sum restart.* of kind "restart"
 *			for restarts, of kind "cause" for causes;
 *	eagain.*	-EAGAIN answered to the caller (scoped `..`, cached);
 *	estale.*	-ESTALE: where it came from, whether it triggered the
 *			LOOKUP_REVAL attempt, whether it reached the caller;
 *	retry.*		a REF-mode step that had to be redone in place
 *			(d_revalidate said 0, choose_mountpoint raced);
 *	rcu.* ref.* reval.*	how a walk ended, by the mode it ended in.
 *
 * The group number is the item of DESIGN.md "Where RCU-walk gives up"
 * (1..16) that the path belongs to; 0 is the outcome and retry ladder.
 *
 * Counters live in a struct wt_path_counts that the caller owns (one per
 * walker thread, no globals) and passes to the walk; wt_path_counts_add()
 * sums them at the end.
 */
#ifndef WT_CORE_PATHS_H
#define WT_CORE_PATHS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * X(ID, "name", group, kind, "what forces it").  One line each, in the
 * order `walktorture paths` prints them.
 */
#define WT_PATH_LIST(X)							\
	X(RCU_OK, "rcu.ok", 0, OUTCOME,					\
	  "the walk succeeded without leaving RCU-walk before complete_walk") \
	X(REF_OK, "ref.ok", 0, OUTCOME,					\
	  "the walk succeeded in REF-walk (after an unlazy, or in the REF attempt)") \
	X(REVAL_OK, "reval.ok", 0, OUTCOME,				\
	  "the LOOKUP_REVAL attempt succeeded")				\
	X(RCU_ERROR, "rcu.error", 0, OUTCOME,				\
	  "an error answered from RCU-walk (e.g. ENOENT on a cached negative dentry)") \
	X(REF_ERROR, "ref.error", 0, OUTCOME,				\
	  "an error answered from REF-walk (EACCES, ENOTDIR, ENOENT from ->lookup, ...)") \
	X(REVAL_ERROR, "reval.error", 0, OUTCOME,			\
	  "an error answered from the LOOKUP_REVAL attempt")		\
	X(ESTALE_REVAL, "estale.reval", 0, ESTALE,			\
	  "an attempt answered -ESTALE: the entry point retries with LOOKUP_REVAL") \
	X(ESTALE_FINAL, "estale.final", 0, ESTALE,			\
	  "the LOOKUP_REVAL attempt met a stale handle too: -ESTALE to the caller") \
									\
	X(UNLAZY_LOOKUP_FAST_MISS, "unlazy.lookup_fast.miss", 1, UNLAZY, \
	  "no hit in the RCU hash walk (__d_lookup_rcu): on to lookup_slow in REF-walk") \
	X(RESTART_LOOKUP_FAST_MISS, "restart.lookup_fast.miss", 1, RESTART, \
	  "a hash miss, and legitimizing the parent failed")		\
	X(ESTALE_LOOKUP, "estale.lookup", 1, ESTALE,			\
	  "the filesystem's ->lookup answered -ESTALE (remote, stale handle)") \
	X(RETRY_LOOKUP_SLOW_INVALID, "retry.lookup_slow.invalid", 1, RETRY, \
	  "d_alloc_parallel found a dentry that d_revalidate rejected: invalidate, again") \
									\
	X(RESTART_LOOKUP_FAST_PARENT_SEQ, "restart.lookup_fast.parent_seq", 2, RESTART, \
	  "the parent's d_seq moved since nd->seq while its child was looked up") \
									\
	X(UNLAZY_REVALIDATE_ECHILD, "unlazy.revalidate.echild", 3, UNLAZY, \
	  "d_revalidate in RCU mode answered -ECHILD: unlazy with the child, ask again") \
	X(RESTART_REVALIDATE_ECHILD, "restart.revalidate.echild", 3, RESTART, \
	  "d_revalidate answered -ECHILD and try_to_unlazy_next failed") \
	X(UNLAZY_REVALIDATE_INVALID, "unlazy.revalidate.invalid", 3, UNLAZY, \
	  "d_revalidate in RCU mode answered 0: unlazy, invalidate, look up again (remote-bad: a bad inode)") \
	X(RESTART_REVALIDATE_INVALID, "restart.revalidate.invalid", 3, RESTART, \
	  "d_revalidate answered 0 and try_to_unlazy_next failed (remote-bad, the child moved)") \
	X(UNLAZY_REVALIDATE_ERROR, "unlazy.revalidate.error", 3, UNLAZY, \
	  "d_revalidate in RCU mode answered an error (-ESTALE): unlazy, return it (remote-bad under remote-layer on)") \
	X(RESTART_REVALIDATE_ERROR, "restart.revalidate.error", 3, RESTART, \
	  "d_revalidate answered an error and try_to_unlazy_next failed (remote-bad, remote-layer on, the child died)") \
	X(RETRY_REVALIDATE_INVALID, "retry.revalidate.invalid", 3, RETRY, \
	  "d_revalidate in REF mode answered 0: d_invalidate, then lookup_slow") \
	X(ESTALE_REVALIDATE, "estale.revalidate", 3, ESTALE,		\
	  "d_revalidate answered -ESTALE (remote, stale handle)")	\
									\
	X(UNLAZY_MAY_LOOKUP_ECHILD, "unlazy.may_lookup.echild", 4, UNLAZY, \
	  "permission with MAY_NOT_BLOCK answered -ECHILD (uncached ACL): unlazy, redo blocking") \
	X(RESTART_MAY_LOOKUP_ECHILD, "restart.may_lookup.echild", 4, RESTART, \
	  "the permission check would block and legitimizing failed")	\
	X(UNLAZY_MAY_LOOKUP_DENIED, "unlazy.may_lookup.denied", 4, UNLAZY, \
	  "permission in RCU mode refused (EACCES): unlazy to make the answer final") \
	X(RESTART_MAY_LOOKUP_DENIED, "restart.may_lookup.denied", 4, RESTART, \
	  "permission refused in RCU mode and legitimizing failed")	\
									\
	X(UNLAZY_NOT_DIR, "unlazy.not_dir", 5, UNLAZY,			\
	  "a component with more path after it is not a directory: unlazy, then ENOTDIR") \
	X(RESTART_NOT_DIR, "restart.not_dir", 5, RESTART,		\
	  "a non-directory in mid-path, and legitimizing failed")	\
									\
	X(RESTART_STEP_INTO_CHILD_SEQ, "restart.step_into.child_seq", 6, RESTART, \
	  "the child's d_seq moved since __d_lookup_rcu sampled it into nd->next_seq") \
									\
	X(UNLAZY_FOLLOW_MOUNT_MOUNT_LOCK, "unlazy.follow_mount.mount_lock", 7, UNLAZY, \
	  "mount_lock moved after __follow_mount_rcu crossed a mount")	\
	X(RESTART_FOLLOW_MOUNT_MOUNT_LOCK, "restart.follow_mount.mount_lock", 7, RESTART, \
	  "mount_lock moved while crossing a mount, and legitimizing failed") \
	X(UNLAZY_FOLLOW_MOUNT_NO_MOUNT, "unlazy.follow_mount.no_mount", 7, UNLAZY, \
	  "a DCACHE_MOUNTED dentry with no mount found while mount_lock moved") \
	X(RESTART_FOLLOW_MOUNT_NO_MOUNT, "restart.follow_mount.no_mount", 7, RESTART, \
	  "no mount found while mount_lock moved, and legitimizing failed") \
	X(UNLAZY_FOLLOW_MOUNT_MANAGE, "unlazy.follow_mount.manage", 7, UNLAZY, \
	  "d_manage in RCU mode refused (-ECHILD): cross in REF-walk")	\
	X(RESTART_FOLLOW_MOUNT_MANAGE, "restart.follow_mount.manage", 7, RESTART, \
	  "d_manage refused RCU mode and legitimizing failed")		\
	X(UNLAZY_FOLLOW_MOUNT_AUTOMOUNT, "unlazy.follow_mount.automount", 7, UNLAZY, \
	  "an uncovered automount point: d_automount must run in REF-walk") \
	X(RESTART_FOLLOW_MOUNT_AUTOMOUNT, "restart.follow_mount.automount", 7, RESTART, \
	  "an automount point, and legitimizing failed")		\
	X(UNLAZY_FOLLOW_MOUNT_NO_XDEV, "unlazy.follow_mount.no_xdev", 7, UNLAZY, \
	  "RESOLVE_NO_XDEV at a managed dentry: REF-walk decides (EXDEV)") \
	X(RESTART_FOLLOW_MOUNT_NO_XDEV, "restart.follow_mount.no_xdev", 7, RESTART, \
	  "RESOLVE_NO_XDEV at a managed dentry, and legitimizing failed") \
									\
	X(RESTART_PICK_LINK_SEQ, "restart.pick_link.link_seq", 8, RESTART, \
	  "the symlink's d_seq moved since it was looked up (d_is_symlink vs its inode)") \
	X(UNLAZY_GET_LINK, "unlazy.get_link", 8, UNLAZY,		\
	  "get_link in RCU mode answered -ECHILD (body not cached): unlazy, call again") \
	X(RESTART_GET_LINK, "restart.get_link", 8, RESTART,		\
	  "get_link refused RCU mode (uncached body or magic link) and legitimizing failed") \
	X(UNLAZY_LINK_STACK, "unlazy.link_stack", 8, UNLAZY,		\
	  "the link stack had to grow and the non-blocking allocation failed") \
	X(RESTART_LINK_STACK, "restart.link_stack", 8, RESTART,	\
	  "the stack allocation failed in RCU mode and legitimizing (or the link) failed") \
	X(UNLAZY_ATIME, "unlazy.atime", 8, UNLAZY,			\
	  "following the link needs an atime update (S_NEEDS_ATIME: touch -h LINK), which blocks") \
	X(RESTART_ATIME, "restart.atime", 8, RESTART,			\
	  "an atime update was needed (touch -h LINK) and legitimizing failed") \
	X(RESTART_MAY_FOLLOW_LINK, "restart.may_follow_link", 8, RESTART, \
	  "protected_symlinks would deny the trailing link: REF-walk audits and refuses") \
	X(ESTALE_GET_LINK, "estale.get_link", 8, ESTALE,		\
	  "get_link answered -ESTALE (remote link body on a stale handle)") \
									\
	X(RESTART_ND_JUMP_ROOT_SEQ, "restart.nd_jump_root.root_seq", 9, RESTART, \
	  "the root's d_seq moved since nd->root_seq (absolute path or symlink)") \
									\
	X(RESTART_DOTDOT_MOUNT_LOCK, "restart.dotdot.mount_lock", 10, RESTART, \
	  "mount_lock moved after `..` chose the mountpoint of a mount root") \
	X(RESTART_DOTDOT_SEQ, "restart.dotdot.seq", 10, RESTART,	\
	  "the old dentry's d_seq moved when `..` read its d_parent")	\
	X(RESTART_DOTDOT_DISCONNECTED, "restart.dotdot.disconnected", 10, RESTART, \
	  "`..` left the mount's root subtree (REF-walk answers ENOENT)") \
	X(RESTART_DOTDOT_ROOT_MOUNT_LOCK, "restart.dotdot.root.mount_lock", 10, RESTART, \
	  "`..` at the root: mount_lock moved, so staying put may be wrong") \
	X(RESTART_DOTDOT_ROOT_BENEATH, "restart.dotdot.root.beneath", 10, RESTART, \
	  "`..` at the root with RESOLVE_BENEATH (REF-walk answers EXDEV)") \
	X(RESTART_DOTDOT_NO_XDEV, "restart.dotdot.no_xdev", 10, RESTART, \
	  "`..` crosses a mount upward with RESOLVE_NO_XDEV (REF-walk answers EXDEV)") \
	X(RETRY_CHOOSE_MOUNTPOINT, "retry.choose_mountpoint", 10, RETRY, \
	  "REF-mode `..` at a mount root: mount_lock moved or legitimizing the mountpoint failed") \
									\
	X(EAGAIN_SCOPED_MOUNT_LOCK, "eagain.scoped.mount_lock", 11, EAGAIN, \
	  "a scoped lookup's `..` with mount_lock moved since path_init: -EAGAIN") \
	X(EAGAIN_SCOPED_RENAME_LOCK, "eagain.scoped.rename_lock", 11, EAGAIN, \
	  "a scoped lookup's `..` with rename_lock moved since path_init: -EAGAIN") \
									\
	X(UNLAZY_JUMP_LINK, "unlazy.jump_link", 12, UNLAZY,		\
	  "a magic link refused RCU mode; in REF-walk it jumped (nd_jump_link)") \
									\
	X(UNLAZY_OPEN_CREATE, "unlazy.open_create", 13, UNLAZY,	\
	  "O_EXCL, or O_CREAT at a cached negative dentry: unlazy for lookup_open's i_rwsem") \
	X(RESTART_OPEN_CREATE, "restart.open_create", 13, RESTART,	\
	  "O_CREAT's unlazy for lookup_open (O_EXCL, a negative dentry) failed") \
									\
	X(RESTART_COMPLETE_WALK, "restart.complete_walk", 14, RESTART, \
	  "the walk reached its end lazily and legitimizing the result failed") \
	X(ESTALE_WEAK_REVALIDATE, "estale.weak_revalidate", 14, ESTALE, \
	  "d_weak_revalidate of a result reached by a jump answered 0") \
									\
	X(RESTART_LEGITIMIZE_MNT_MOUNT_LOCK, "restart.legitimize_mnt.mount_lock", 15, CAUSE, \
	  "__legitimize_mnt: mount_lock moved before taking a count (1, no count held)") \
	X(RESTART_LEGITIMIZE_MNT_SYNC_UMOUNT, "restart.legitimize_mnt.sync_umount", 15, CAUSE, \
	  "__legitimize_mnt: moved after the count, MNT_SYNC_UMOUNT|MNT_DOOMED: plain decrement") \
	X(RESTART_LEGITIMIZE_MNT_MNTPUT, "restart.legitimize_mnt.mntput", 15, CAUSE, \
	  "__legitimize_mnt: moved after the count, not doomed: the caller does a real mntput") \
	X(RESTART_LEGITIMIZE_PATH_DEAD, "restart.legitimize.path.dead", 15, CAUSE, \
	  "nd->path's dentry is dead (lockref_get_not_dead failed)")	\
	X(RESTART_LEGITIMIZE_PATH_SEQ, "restart.legitimize.path.seq", 15, CAUSE, \
	  "nd->path's d_seq moved since nd->seq")			\
	X(RESTART_LEGITIMIZE_NEXT_DEAD, "restart.legitimize.next.dead", 15, CAUSE, \
	  "try_to_unlazy_next: the parent or the child dentry is dead") \
	X(RESTART_LEGITIMIZE_NEXT_SEQ, "restart.legitimize.next.seq", 15, CAUSE, \
	  "try_to_unlazy_next: the child's d_seq moved since nd->next_seq") \
	X(RESTART_LEGITIMIZE_ROOT_DEAD, "restart.legitimize.root.dead", 15, CAUSE, \
	  "nd->root's dentry is dead")					\
	X(RESTART_LEGITIMIZE_ROOT_SEQ, "restart.legitimize.root.seq", 15, CAUSE, \
	  "nd->root's d_seq moved since nd->root_seq")			\
	X(RESTART_LEGITIMIZE_LINK_DEAD, "restart.legitimize.link.dead", 15, CAUSE, \
	  "a saved symlink's dentry is dead (depth keeps the links before it)") \
	X(RESTART_LEGITIMIZE_LINK_SEQ, "restart.legitimize.link.seq", 15, CAUSE, \
	  "a saved symlink's d_seq moved since it was picked")		\
									\
	X(RESTART_LEGITIMIZE_CACHED, "restart.legitimize.cached", 16, CAUSE, \
	  "RESOLVE_CACHED: an unlazy before complete_walk fails at once") \
	X(EAGAIN_CACHED, "eagain.cached", 16, EAGAIN,			\
	  "RESOLVE_CACHED could not finish in RCU-walk: the REF retry fails in path_init")

enum wt_path_kind {
	WT_PATH_KIND_OUTCOME,	/* how a walk ended */
	WT_PATH_KIND_UNLAZY,	/* left RCU-walk and went on */
	WT_PATH_KIND_RESTART,	/* -ECHILD: the walk restarts in REF-walk */
	WT_PATH_KIND_CAUSE,	/* why a legitimize failed */
	WT_PATH_KIND_EAGAIN,
	WT_PATH_KIND_ESTALE,
	WT_PATH_KIND_RETRY,	/* a REF-mode step redone in place */
	WT_PATH_KIND__COUNT
};

enum wt_path {
#define WT_PATH_ENUM(id, name, group, kind, desc) WT_PATH_##id,
	WT_PATH_LIST(WT_PATH_ENUM)
#undef WT_PATH_ENUM
	WT_PATH__COUNT,
	WT_PATH_NONE = WT_PATH__COUNT	/* "count nothing" */
};

struct wt_path_info {
	const char *name;
	unsigned group;		/* DESIGN.md "Where RCU-walk gives up" item; 0 ladder */
	enum wt_path_kind kind;
	const char *desc;	/* what forces it */
};

/*
 * Paths the catalogue names because the kernel's code has the branch, but
 * that cannot be taken -- in Linux, or in this model -- with why.  A walk
 * that counts one breaks an invariant (nd_count reports it); the coverage
 * test excuses exactly these from being forced.  X(ID, "why").
 */
#define WT_PATH_UNREACHABLE_LIST(X)					\
	X(UNLAZY_FOLLOW_MOUNT_MOUNT_LOCK,				\
	  "as in Linux: taken only when mount_lock moved since "	\
	  "nd->m_seq, and try_to_unlazy_next legitimizes the mount against " \
	  "that same sample, so the unlazy always fails "		\
	  "(restart.follow_mount.mount_lock)")				\
	X(UNLAZY_FOLLOW_MOUNT_NO_MOUNT,					\
	  "for the same reason as unlazy.follow_mount.mount_lock "	\
	  "(restart.follow_mount.no_mount)")				\
	X(RESTART_LEGITIMIZE_ROOT_DEAD,					\
	  "in this model: every root a walk legitimizes is also "	\
	  "referenced by its owner (the task's root, a scoped lookup's dirfd) " \
	  "and no task changes its root (no chroot verb), so its lockref "	\
	  "cannot be dead; open_root's root is ND_ROOT_PRESET and never " \
	  "legitimized")

/*
 * Paths that name a seqcount or a seqlock that moved: the check that
 * takes them is a failed seq retry (read_seqcount_retry, read_seqretry)
 * against a sample the walk took.  Each records the failed retry it
 * follows (a FALLBACK step, core/record.h), and the oracle rejects one
 * that no seq or lock really moved explains (a stale seq compared against
 * the wrong dentry, a restart without a retry): the "no spurious
 * fallback" judgement.  Paths with other causes (a d_revalidate answer, a
 * dead lockref, a permission check, a miss) are facts of their own and
 * are not listed.  X(ID).
 */
#define WT_PATH_NAMES_SEQ_LIST(X)					\
	X(RESTART_LOOKUP_FAST_PARENT_SEQ)				\
	X(RESTART_STEP_INTO_CHILD_SEQ)					\
	X(UNLAZY_FOLLOW_MOUNT_MOUNT_LOCK)				\
	X(RESTART_FOLLOW_MOUNT_MOUNT_LOCK)				\
	X(UNLAZY_FOLLOW_MOUNT_NO_MOUNT)					\
	X(RESTART_FOLLOW_MOUNT_NO_MOUNT)				\
	X(RESTART_PICK_LINK_SEQ)					\
	X(RESTART_ND_JUMP_ROOT_SEQ)					\
	X(RESTART_DOTDOT_MOUNT_LOCK)					\
	X(RESTART_DOTDOT_SEQ)						\
	X(RESTART_DOTDOT_ROOT_MOUNT_LOCK)				\
	X(EAGAIN_SCOPED_MOUNT_LOCK)					\
	X(EAGAIN_SCOPED_RENAME_LOCK)					\
	X(RESTART_LEGITIMIZE_MNT_MOUNT_LOCK)				\
	X(RESTART_LEGITIMIZE_MNT_SYNC_UMOUNT)				\
	X(RESTART_LEGITIMIZE_MNT_MNTPUT)				\
	X(RESTART_LEGITIMIZE_PATH_SEQ)					\
	X(RESTART_LEGITIMIZE_NEXT_SEQ)					\
	X(RESTART_LEGITIMIZE_ROOT_SEQ)					\
	X(RESTART_LEGITIMIZE_LINK_SEQ)

/* One walker's counters.  Owned by the caller; zero it to start. */
struct wt_path_counts {
	uint64_t counts[WT_PATH__COUNT];
};

/* The catalogue entry of a path (id < WT_PATH__COUNT). */
const struct wt_path_info *wt_path_info(enum wt_path id);
/* The id of a dotted name, or -1 when unknown. */
int wt_path_lookup(const char *name);
/* Why id cannot be taken (WT_PATH_UNREACHABLE_LIST), or NULL. */
const char *wt_path_unreachable(enum wt_path id);
/* Is id in WT_PATH_NAMES_SEQ_LIST (false for WT_PATH_NONE)? */
bool wt_path_names_seq(enum wt_path id);
/* The kind's name: "outcome", "unlazy", "restart", "cause", ... */
const char *wt_path_kind_name(enum wt_path_kind kind);

void wt_path_counts_clear(struct wt_path_counts *c);
/* sum += c */
void wt_path_counts_add(struct wt_path_counts *sum,
			const struct wt_path_counts *c);
/* Total of all counters of one kind. */
uint64_t wt_path_counts_kind(const struct wt_path_counts *c,
			     enum wt_path_kind kind);

/* Count one path; c may be NULL (no counting), id may be WT_PATH_NONE. */
static inline void wt_path_count(struct wt_path_counts *c, enum wt_path id)
{
	if (c && id < WT_PATH__COUNT)
		c->counts[id]++;
}

#endif /* WT_CORE_PATHS_H */

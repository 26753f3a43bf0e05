/* SPDX-License-Identifier: MIT */
/*
 * The step oracle: could REF-walk have produced this walk's answer?
 *
 * Input: the history (sim/history.h) and one walk's step record
 * (core/record.h), with the walker's credentials.  Only the attempt that
 * returned (wt_record_final) is judged, and within it only validated
 * steps (END always: it is the answer).  The oracle looks for instants
 * t1 <= t2 <= ... <= tn inside the attempt's [version_start, version_end]
 * such that every step holds in the namespace at its instant, taking for
 * each step the earliest instant not before the previous one at which it
 * holds (greedy earliest is optimal: a later step only needs t >= t(i)).
 * The instants are the prefixes of the log's order, which is the order
 * of the steps' stores while no two steps are open at once; when a walk
 * no prefix explains had in its window a step that overlapped later
 * ones (a walker's open(O_CREAT) beside a writer's step), it is judged
 * again with that step applied after them (oracle_reorder.c).
 *
 * What a step must satisfy at its instant t (identity = mount, dentry,
 * inode; a dentry the history never logged -- lookups make those, see
 * sim/history.h "What is not logged" -- is matched by its inode):
 *
 *	START		the start dentry has the recorded inode.
 *	PERMISSION	the dentry still has the recorded inode, and
 *			generic_permission(cred, MAY_EXEC) on that inode's
 *			mode/uid/gid at t gives the recorded answer (0 or
 *			-EACCES; -ECHILD "would block" is not a fact).
 *	LOOKUP		the directory dentry still has its inode; the name
 *			(case-folded on casefold) is, among the directory's
 *			hashed children at t, the recorded dentry (or one with
 *			the recorded inode), or is absent/negative for a
 *			negative result.
 *	MOUNT		the topmost attached mount at (mnt, dentry) is the
 *			recorded child, and its root is the recorded root.
 *	(no mount)	implicit after every landing of step_into that is
 *			not followed by a MOUNT from the same place: nothing
 *			is mounted there (traverse_mounts would have crossed
 *			it).  Skipped on autofs, whose d_manage may refuse.
 *	MOUNT_UP	choose_mountpoint at t: from the mount's root, up the
 *			mount chain to the first mountpoint that is not a
 *			parent mount's root, stopping at the walker's root.
 *	DOTDOT		the dentry's parent at t (unhashed dentries keep
 *			theirs), inside the mount's subtree (path_connected);
 *			staying put only at the walker's root or where
 *			choose_mountpoint finds nothing.
 *	LINK		the link inode's body at t is the recorded text.
 *	JUMP		nd_jump_root: to the walker's root; nd_jump_link:
 *			to the magic link's target at t.
 *	AUTOMOUNT	the dentry is an automount point at t.
 *	CREATE		at t the name is the created dentry (after the
 *			creation's history entry).
 *	WEAK_REVALIDATE	nothing at an instant: the history cannot say
 *			when complete_walk asked, and it does not log the
 *			handle generations a 0 may come from.  Its answer
 *			binds the attempt's (below).
 *	END		the answer (below).
 *
 * Besides, the record must be one walk: each step starts where the one
 * before left the walker (LOOKUP from the current directory, ...), a
 * granted exec check on a directory precedes every lookup and `..` in it,
 * and a successful END stands where the walk stands.  Two REF-walk facts
 * the record shows as they happen: a second LOOKUP of the same name right
 * after the first is the lookup_slow that follows a d_revalidate answer
 * of 0 (one exec check covers both); and a LOOKUP that found a negative
 * dentry may be followed by steps from that same dentry, positive -- a
 * create instantiated it before step_into read it again (checked at an
 * instant of its own).  An unvalidated step is skipped, and the walk's
 * place is unknown until the next landing.
 *
 * The answer.  Success: END's object is where the walk stands (not a
 * symlink under LOOKUP_FOLLOW, a directory under LOOKUP_DIRECTORY).
 * Errors must be explained by the steps: ENOENT by a negative LOOKUP (or
 * a dead directory, or `..` leaving the mount); ENOTDIR by standing on a
 * non-directory; EACCES by a refused exec check; ELOOP by 40 links (or
 * RESOLVE_NO_SYMLINKS / O_NOFOLLOW / NO_MAGICLINKS at a link); EXDEV by a
 * scoping flag and a crossing; ENAMETOOLONG syntactically (the name or a
 * body); EINVAL by an AUTOMOUNT step that carried it while the mount its
 * point is on was out of the namespace (finish_automount after umount -l);
 * EEXIST by a positive last lookup, or -- after lookup_open found the
 * name absent in a remote directory -- by the server holding the name at
 * an instant since (->create asks the server; oracle_answer.c).
 * EAGAIN and ESTALE are protocol, not namespace: EAGAIN only with
 * LOOKUP_CACHED, or in a scoped lookup right after its `..` (mount_lock
 * has writers the history does not log -- a umount refused EBUSY, the
 * final mntput of a detached mount, __legitimize_mnt -- so "m_seq moved"
 * cannot be refuted from the history); ESTALE only from
 * the LOOKUP_REVAL attempt, after an attempt that answered ESTALE, with a
 * step of its own that met a stale handle.  -ECHILD never reaches a
 * caller, and the ladder retries only on -ECHILD (to REF) and -ESTALE.
 * complete_walk hands a weak revalidation's answer on: after a 0 (stale)
 * the attempt answers -ESTALE, after an error that error, whatever an
 * instant in the window would allow.  And it asks: a success that ended
 * on a positive remote object by a jump (ND_JUMPED, as the steps set and
 * clear it) has a WEAK_REVALIDATE step -- except filename_parentat's and
 * umount's walks, and a file the open created.
 *
 * Remote filesystems are judged against the client's cache, not the
 * server's truth: in a directory of a remote super_block, an answer made
 * by ->lookup (a dentry the history does not know at that instant; a
 * writer that touches it later logs it then) is accepted when it is
 * consistent with what the client knows -- the same mount, an inode of
 * the same super_block if the history knows it -- because the server may
 * have changed behind the client's back and revalidation may have dropped
 * what the history still shows.  A negative answer there is judged by
 * the server's truth (oracle_server.c): the history logs every change of
 * the server's tree (the server API's, and the client's changes mirrored
 * there: sim/history.h) and each remote inode's server node, and the
 * oracle replays the tree to each instant -- each version, and inside
 * a version whose commit took other steps' changes too, each instant
 * between two steps' (the "|" of sim/fs/remote.h).  By the model's rules
 * (sim/fs/remote.c) a client answers "absent" only when it asked the
 * server (a lookup, a revalidation of a negative dentry by handle),
 * which lacked the name in the directory's node, or from a negative
 * dentry trusted without asking, which needs no server change since the
 * server lacked the name (each expires the whole cache) and no client
 * change that gave the server the name (it instantiates or drops that
 * dentry; where two client directories name one server node, it moves
 * the epoch as a server change does).  So "absent" is accepted at an
 * instant where the server lacked the name, or where such a trusted
 * dentry could exist; elsewhere it is rejected, whatever the client's
 * namespace shows: a dentry dropped by a shrink or an invalidation on an
 * unchanged server explains no ENOENT (the next lookup asks the server),
 * nor does a name the server made or renamed into place, while a client
 * hard link (not mirrored) and a server-side delete or rename explain
 * one.  Not judged: a LOOKUP that the next step repeats (d_revalidate
 * said 0 to it), a directory whose inode the history does not know at
 * the instant, a log whose truncation folded the server's tree
 * away.  A stale positive -- a name the server dropped that the client
 * still answers -- is not judged: the client's namespace decides.  By
 * the model's rules it is legitimate only until the next server change
 * after the dentry was last validated (a hard link the client made,
 * which the server never had, stays trusted that long; after it,
 * d_revalidate asks by handle and answers -ESTALE or 0), so judging it
 * needs, per positive LOOKUP, whether the step's d_revalidate asked or
 * trusted -- a LOOKUP that -ECHILD hands to REF-walk and one that
 * revalidation then drops are recorded alike -- which the record does
 * not say yet.
 * -ESTALE and revalidation errors there are protocol.
 *
 * No spurious fallback (oracle_fallback.c).  Every exit path that names a
 * seq or a lock (a restart, an unlazy or a scoped EAGAIN of
 * WT_PATH_NAMES_SEQ_LIST) leaves a FALLBACK step in the record with the
 * seq retry that failed just before it; in every attempt, that retry must
 * have compared the seqcount with a value it really held (a sample of it,
 * not of another object) and read another: else the walk gave up where
 * correct code would not, and the record is rejected.
 *
 * Not checked (honestly): open's may_open (acc_mode is not recorded),
 * protected_symlinks' EACCES beyond "a trailing link in a sticky
 * world-writable directory", RESOLVE_CACHED's "would the cache have
 * had it", and the safety checks (poison, counts, final puts), which
 * live elsewhere.
 *
 * Cost.  One oracle per walker thread: it keeps a snapshot at the last
 * window start and advances it (sim/ns.h); a second snapshot serves the
 * instants inside a window, so a walk that needed a later instant does
 * not cost the next one a rebuild.  The oracle must not be alive across
 * wt_history_reset/truncate: call wt_oracle_reset() first.
 */
#ifndef WT_CORE_ORACLE_H
#define WT_CORE_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/record.h"
#include "sim/history.h"
#include "sim/vfs/types.h"

enum wt_verdict {
	WT_VERDICT_OK,		/* REF-walk could have produced it */
	WT_VERDICT_REJECTED,	/* it could not: res->explain says why */
	WT_VERDICT_NOT_JUDGED,	/* overflow, no history, window not published */
};

/* What the oracle needs to know about the walk beyond its record. */
struct wt_oracle_input {
	const struct wt_record *record;
	const struct cred *cred;	/* the walker's credentials */
	/* The walker's root (mount, dentry); zeros: inferred from the
	 * record (an absolute START, a JUMP), else the namespace root. */
	uint64_t root_mnt;
	uint64_t root_dentry;
	const char *name;		/* the name walked (NULL: unknown) */
	bool protected_symlinks;	/* the walker's sysctl */
};

#define WT_ORACLE_EXPLAIN_MAX 1024

struct wt_oracle_result {
	enum wt_verdict verdict;
	int step;			/* index in record->steps, or -1 */
	uint64_t tried_from;		/* instants tried for that step */
	uint64_t tried_to;
	uint32_t judged;		/* steps judged (implicit ones too) */
	uint64_t last_instant;		/* the instant of the last step */
	/* OK only in another order of steps in flight at once
	 * (oracle_reorder.c): the log's order alone rejects the walk */
	bool reordered;
	char explain[WT_ORACLE_EXPLAIN_MAX];
};

/* Counters, for the benchmark and the reports. */
struct wt_oracle_stats {
	uint64_t walks;
	uint64_t ok;
	uint64_t rejected;
	uint64_t not_judged;
	uint64_t steps;			/* steps judged */
	uint64_t advances;		/* snapshot entries applied */
	uint64_t rebuilds;		/* snapshots built from the log */
	uint64_t reordered;		/* walks only a moved entry explains */
};

struct wt_oracle;

/* An oracle over h (one per walker thread).  NULL on ENOMEM. */
struct wt_oracle *wt_oracle_create(const struct wt_history *h);
void wt_oracle_destroy(struct wt_oracle *o);
/* Drop the cached snapshots (before wt_history_reset or truncate). */
void wt_oracle_reset(struct wt_oracle *o);
/* o as wt_oracle_create(h) makes one -- no snapshot, zero statistics --
 * in its own storage: for a caller that judges a history per iteration
 * (a calloc and a free an iteration fewer). */
void wt_oracle_renew(struct wt_oracle *o, const struct wt_history *h);
const struct wt_oracle_stats *wt_oracle_stats(const struct wt_oracle *o);

/*
 * Judge one walk.  Returns the verdict, also in res->verdict.  Call it
 * once every version of the final attempt's window is published
 * (wt_oracle_ready); before that the answer is NOT_JUDGED.
 */
enum wt_verdict wt_oracle_judge(struct wt_oracle *o,
				const struct wt_oracle_input *in,
				struct wt_oracle_result *res);
/* Is the final attempt's whole window published? */
bool wt_oracle_ready(const struct wt_history *h, const struct wt_record *r);
/* One-shot: create, judge, destroy. */
enum wt_verdict wt_oracle_check(const struct wt_history *h,
				const struct wt_oracle_input *in,
				struct wt_oracle_result *res);

const char *wt_verdict_name(enum wt_verdict v);

/*
 * generic_permission on facts: mode/uid/gid against cred, root's
 * CAP_DAC_OVERRIDE (any access to a directory; exec on a non-directory
 * only when some x bit is set).  0 or -EACCES.  Shared with refwalk.
 */
int wt_fact_permission(const struct cred *cred, uint32_t mode, uint32_t uid,
		       uint32_t gid, int mask);

/*
 * proc's check before a magic link of a process is followed (a ptrace
 * read access with the fs ids), on the link's inode fact: a link of no
 * process, or of the caller's own (cred->tgid), passes; otherwise
 * CAP_SYS_PTRACE, or the same uid and gid on a dumpable process.  0 or
 * -EACCES.  Shared with refwalk.
 */
int wt_fact_may_read_task(const struct cred *cred,
			  const struct wt_inode_fact *link);

#endif /* WT_CORE_ORACLE_H */

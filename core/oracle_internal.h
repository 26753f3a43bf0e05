/* SPDX-License-Identifier: MIT */
/*
 * What the oracle's files share: one judgement's state, the cursor over
 * the window's instants, and the step matchers.  Not for use outside
 * core/oracle*.c.
 */
#ifndef WT_CORE_ORACLE_INTERNAL_H
#define WT_CORE_ORACLE_INTERNAL_H

#include <stdarg.h>

#include "core/oracle.h"
#include "sim/ns.h"
#include "sim/vfs/lookup_flags.h"

/* A step's answer at one instant. */
enum holds {
	HOLDS,		/* the namespace at t says what the step says */
	FAILS,		/* it says otherwise (j->why says what) */
	UNKNOWN,	/* an object the step names is not logged (yet) */
};

struct wt_oracle {
	const struct wt_history *h;
	struct wt_ns *snap[2];		/* two cursors over the log */
	uint64_t first;			/* wt_history_first() they were made at */
	struct wt_oracle_stats stats;
};

/* One judgement. */
struct oj {
	struct wt_oracle *o;
	const struct wt_oracle_input *in;
	const struct wt_record *r;
	const struct wt_record_attempt *a;
	struct wt_oracle_result *res;
	const struct cred *cred;
	/* the instant: the namespace at version t */
	struct wt_ns *ns;
	uint64_t t;
	uint64_t start;
	uint64_t end;
	/* the walk as the oracle follows it */
	bool pos_known;
	struct wt_ident pos;
	struct wt_ident dir;		/* where the last LOOKUP looked */
	bool landing;			/* a landing waits for "nothing mounted" */
	struct wt_ident land;
	int land_step;
	int last_lookup;		/* index of the last LOOKUP, or -1 */
	int last_judged;		/* the last namespace step judged, or -1 */
	bool perm;			/* exec granted on pos for the next component */
	bool perm_unknown;		/* after a skipped step: do not insist */
	int last_perm;			/* index of the last PERMISSION, or -1 */
	bool last_perm_denied;
	struct wt_ident last_link;	/* the last symlink the walk stood on */
	unsigned links;			/* links followed (LINK, magic JUMP, AUTOMOUNT) */
	bool negative;			/* the last component was absent */
	bool neg_known;			/* ... and its (negative) dentry is neg */
	struct wt_ident neg;
	struct wt_ident inst;		/* what that dentry became */
	bool estale_seen;		/* a step of the final attempt met ESTALE */
	bool dotdot_seen;
	bool dotdot_last;		/* nothing but mount crossings since a `..` */
	bool root_known;
	uint64_t root_mnt;
	uint64_t root_dentry;
	/* the order judged: the log's (moved 0), or entry moved after entry
	 * after (oracle_reorder.c), in a snapshot of the judgement's own */
	uint64_t moved;
	uint64_t after;
	struct wt_ns *own;
	/* oj_why writes nothing: a window is being searched */
	bool quiet;
	/* what the namespace said when a step failed */
	char why[256];
	char why_first[256];
};

/* The flags the walk ran under: its attempt's and its entry point's
 * together (a RESOLVE_* flag may be in either). */
static inline unsigned oj_walk_flags(const struct oj *j)
{
	return j->a->flags | j->r->flags;
}

/*
 * Steps that do not move the walk: leaving RCU-walk, a fallback's
 * evidence (oracle_fallback.c judges it), complete_walk's weak
 * revalidation (judged with the answer, oj_check_answer).
 */
static inline bool oj_stays_put(const struct wt_step *s)
{
	return s->kind == WT_STEP_UNLAZY || s->kind == WT_STEP_FALLBACK ||
	       s->kind == WT_STEP_WEAK_REVALIDATE;
}

/* --- oracle.c: the cursor --- */
/* Move the instant to t (any direction: may rebuild).  0 or -errno. */
int oj_seek(struct oj *j, uint64_t t);
/* The next instant; false when the log has no more. */
bool oj_next(struct oj *j);
void oj_why(struct oj *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Reject at step idx; fmt says why (the explanation is built around it). */
bool oj_reject(struct oj *j, int idx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Judge step s (index idx, or -1 for an implicit one) at the earliest
 * instant >= j->t where fn says HOLDS. */
typedef enum holds (*oj_holds_fn)(struct oj *j, const struct wt_step *s);
bool oj_at_some_instant(struct oj *j, int idx, const struct wt_step *s,
			oj_holds_fn fn, const char *what);

/* Does the walk go on from id, the negative dentry the last lookup found,
 * now positive?  Then adopt it: false when no instant explains it. */
bool oj_can_adopt(const struct oj *j, const struct wt_ident *id);
bool oj_adopt_instantiated(struct oj *j, int idx, const struct wt_ident *id);

/* --- oracle_steps.c: the matchers, one per kind --- */
enum holds holds_start(struct oj *j, const struct wt_step *s);
enum holds holds_permission(struct oj *j, const struct wt_step *s);
enum holds holds_lookup(struct oj *j, const struct wt_step *s);
enum holds holds_mount(struct oj *j, const struct wt_step *s);
enum holds holds_no_mount(struct oj *j, const struct wt_step *s);
enum holds holds_mount_up(struct oj *j, const struct wt_step *s);
enum holds holds_dotdot(struct oj *j, const struct wt_step *s);
enum holds holds_link(struct oj *j, const struct wt_step *s);
enum holds holds_jump(struct oj *j, const struct wt_step *s);
enum holds holds_automount(struct oj *j, const struct wt_step *s);
/* The mount an AUTOMOUNT step's point is on is out of the namespace. */
enum holds holds_automount_detached(struct oj *j, const struct wt_step *s);
enum holds holds_automount_removed(struct oj *j, const struct wt_step *s);
enum holds holds_create(struct oj *j, const struct wt_step *s);
enum holds holds_disconnected(struct oj *j, const struct wt_step *s);
enum holds holds_instantiated(struct oj *j, const struct wt_step *s);
/* A scoped success: END is under the walker's root (path_is_under). */
enum holds holds_under_root(struct oj *j, const struct wt_step *s);
/* The kind of the super_block a dentry is on, or -1 when unknown. */
int oj_dentry_fs_kind(const struct oj *j, uint64_t dentry);
/* Is id (by its mount's super_block, else its dentry's) on a remote fs? */
bool oj_is_remote(const struct oj *j, const struct wt_ident *id);
/* Is the inode a directory / a symlink (false when unknown)? */
int oj_inode_type(const struct oj *j, uint64_t inode);	/* S_IFMT bits, 0 unknown */
/* Is (mnt, dentry) the walker's root? */
bool oj_is_root(struct oj *j, uint64_t mnt, uint64_t dentry);
bool oj_dotdot_in_root(struct oj *j, uint64_t mnt, uint64_t dentry);

/* --- oracle_server.c: a remote filesystem's server --- */
/* Could a correct client answer "absent" for name[0..len) in s's
 * directory at j->t?  True also when the oracle cannot tell; false says
 * why in j->why. */
bool oj_server_may_lack(struct oj *j, const struct wt_step *s,
			const char *name, size_t len);
/* Could the server have held name[0..len) in directory dir (in its node
 * or at its path) at some instant of [j->t, j->end]?  True also when the
 * oracle cannot tell; false says why in j->why. */
bool oj_server_may_hold(struct oj *j, const struct wt_ident *dir,
			const char *name, size_t len);

/* --- oracle_answer.c: the answer and the protocol --- */
bool oj_check_ladder(struct oj *j);
enum wt_verdict oj_check_answer(struct oj *j, int end_idx);
/* A component of name[0..len) longer than NAME_MAX_LEN, or len too long. */
bool oj_name_too_long(const char *name, size_t len);

/* --- oracle_fallback.c: no spurious fallback --- */
/* Every FALLBACK step of every attempt names a seq that really moved. */
bool oj_check_fallbacks(struct oj *j);

/* --- oracle.c: one judgement --- */
/* Judge in->record's final attempt in the log's order (moved 0) or with
 * entry moved applied after entry after; stats are the caller's. */
enum wt_verdict oj_judge(struct wt_oracle *o, const struct wt_oracle_input *in,
			 struct wt_oracle_result *res, uint64_t moved,
			 uint64_t after);

/* --- oracle_reorder.c: steps in flight at once --- */
/* Does an order of the window's entries that their overlap allows
 * explain the walk the log's order rejected?  Then *res is its OK. */
bool oj_reordered_holds(struct wt_oracle *o, const struct wt_oracle_input *in,
			struct wt_oracle_result *res);

/* --- oracle_explain.c --- */
/* "lookup 'f' in dentry 7 (mount 1)" into buf. */
void oj_describe_step(const struct oj *j, const struct wt_step *s, char *buf,
		      size_t size);
/* "; window changes: v13 rename /a/f /b/f, ..." for entries in (from, to]
 * that touch the step's objects; appended to buf. */
void oj_describe_changes(const struct oj *j, const struct wt_step *s,
			 uint64_t from, uint64_t to, char *buf, size_t size);

#endif /* WT_CORE_ORACLE_INTERNAL_H */

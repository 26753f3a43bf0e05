/* SPDX-License-Identifier: MIT */
/*
 * The step record: what one walk did, step by step, for the oracle.
 *
 * A walk (one call of an entry point: filename_lookup, filename_parentat,
 * filename_mountpoint, do_filp_open, do_file_open_root) makes up to three
 * attempts: 1 in RCU-walk (LOOKUP_RCU), 2 in REF-walk after -ECHILD, 3
 * with LOOKUP_REVAL after -ESTALE.  Every step of every attempt is
 * appended to the record in the order the walker did it; the oracle judges
 * only the attempt that returned (the last one) and, within it, only the
 * validated steps.
 *
 * Format.  record->steps[0 .. nsteps) in program order.  Each step has:
 *
 *	kind		what happened (enum wt_step_kind, below)
 *	attempt		1 (RCU), 2 (REF), 3 (REVAL): the attempt it belongs to
 *	rcu		1 when the walker was in RCU mode at the step
 *	validated	1 when the step is known to have held at some instant:
 *			REF-mode steps at once; an RCU-mode step once a later
 *			seq check covering it succeeded (the child's d_seq
 *			against nd->next_seq for a lookup, the parent's for a
 *			permission check, mount_lock for a mount crossing) or
 *			the walk legitimized (try_to_unlazy*, complete_walk)
 *	from, to	identities (mount id, dentry id, inode id) -- the wt.id
 *			of the objects; 0 where there is none (a negative
 *			dentry has inode 0)
 *	text		a string in the record's text arena (component name,
 *			symlink body, the walked name for START), or none
 *	result		0, or the -errno the step answered (kind-specific)
 *	arg		kind-specific (below)
 *
 * Kinds, with their from / to / text / result / arg:
 *
 *	START		path_init's starting point.  to = the start (root or
 *			cwd or the given dir); text = the whole name; arg =
 *			the attempt's lookup flags.
 *	PERMISSION	may_lookup's exec check on the directory.  to = the
 *			directory; result = 0 / -EACCES / -ECHILD (would
 *			block); arg = the mask (MAY_EXEC, | MAY_NOT_BLOCK).
 *	LOOKUP		a name looked up in a directory.  from = the dir;
 *			text = the name; to = the dentry found with its inode
 *			(inode 0: negative); result 0, or the error of
 *			->lookup, or d_revalidate's answer when it rejected
 *			the dentry (0: invalid, dropped and looked up again;
 *			-ECHILD: asked again in REF mode; -ESTALE); arg =
 *			WT_LOOKUP_* (which lookup answered).
 *	MOUNT		one mount layer crossed downward.  from = (parent
 *			mount, mountpoint dentry); to = (child mount, its root,
 *			root inode).
 *	MOUNT_UP	`..` at a mount root went to its mountpoint.  from =
 *			(mount, its root); to = (parent mount, mountpoint).
 *	DOTDOT		`..`.  from = where the walk was; to = where it went
 *			(the same object when it stayed: arg = 1).
 *	LINK		a symlink body read.  from = the link; text = the
 *			body; result 0 or the get_link error.
 *	JUMP		nd_jump_root (arg 0) or nd_jump_link (arg 1, a magic
 *			link).  to = where the walk jumped.
 *	AUTOMOUNT	d_automount + finish_automount at from; result.
 *	CREATE		O_CREAT created to in from; text = the name.
 *	UNLAZY		the walker left RCU-walk here.  result 0: it went on
 *			in REF-walk (every earlier step is validated);
 *			-ECHILD: legitimizing failed, the attempt restarts.
 *			arg = the site: the restart.REASON exit path (enum
 *			wt_path) a failure there counts (restart.complete_walk
 *			for the final unlazy of a lazy walk).
 *	FALLBACK	an exit path that names a seq or a lock was counted
 *			(WT_PATH_NAMES_SEQ_LIST, core/paths.h): arg = the
 *			path (enum wt_path); result = 1 when the thread's last
 *			seq retry since its last sample failed (the evidence
 *			follows), 0 when none did; dep_seq = the value that
 *			retry compared with, seq_now = the value it read,
 *			seq_birth = the seqcount's first value; to.dentry = the
 *			dentry whose d_seq it was, when hooks were armed (0:
 *			unknown or a lock).  Always validated: it is no
 *			namespace step, and the walk's place does not change.
 *	WEAK_REVALIDATE	complete_walk's d_weak_revalidate of a result the
 *			walk jumped to (ND_JUMPED).  to = that object; result
 *			= the filesystem's answer as it came back (> 0 valid,
 *			0 stale, -errno), before the walker makes 0 -ESTALE.
 *			REF mode (complete_walk left RCU-walk first), so
 *			validated; no namespace step: the walk stays put.
 *	END		the attempt's end.  to = the object reached (the
 *			parent for filename_parentat); result = its answer.
 *
 * Attempts: attempts[0 .. nattempts), each with the index of its first
 * step, its step count, its lookup flags, its result and the history
 * versions read when it started and when it ended ([start, end] contains
 * every writer step the attempt may have seen; 0/0 when the world keeps
 * no history).  result is what the entry point returned.
 *
 * Bounds: the step array and the text arena are allocated once, at
 * wt_record_create(); a walk that would exceed either sets `overflow` and
 * drops the rest (the oracle must then not judge it).  Recording is off
 * when the walker's record pointer is NULL: each recording site then
 * costs one branch.
 */
#ifndef WT_CORE_RECORD_H
#define WT_CORE_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum wt_step_kind {
	WT_STEP_START,
	WT_STEP_PERMISSION,
	WT_STEP_LOOKUP,
	WT_STEP_MOUNT,
	WT_STEP_MOUNT_UP,
	WT_STEP_DOTDOT,
	WT_STEP_LINK,
	WT_STEP_JUMP,
	WT_STEP_AUTOMOUNT,
	WT_STEP_CREATE,
	WT_STEP_UNLAZY,
	WT_STEP_END,
	WT_STEP_FALLBACK,
	WT_STEP_WEAK_REVALIDATE,
	WT_STEP__COUNT
};

/* LOOKUP arg: which lookup answered */
enum {
	WT_LOOKUP_RCU = 1,	/* __d_lookup_rcu (lookup_fast, RCU mode) */
	WT_LOOKUP_FAST,		/* __d_lookup (lookup_fast, REF mode) */
	WT_LOOKUP_SLOW,		/* d_alloc_parallel + ->lookup (lookup_slow) */
	WT_LOOKUP_OPEN,		/* lookup_open (open's last component) */
};

/* Entry points, for record->entry. */
enum wt_entry {
	WT_ENTRY_LOOKUP,	/* filename_lookup */
	WT_ENTRY_PARENTAT,	/* filename_parentat */
	WT_ENTRY_MOUNTPOINT,	/* filename_mountpoint */
	WT_ENTRY_OPEN,		/* do_filp_open */
	WT_ENTRY_OPEN_ROOT,	/* do_file_open_root */
};

struct wt_ident {
	uint64_t mnt;
	uint64_t dentry;
	uint64_t inode;
};

struct wt_step {
	uint16_t kind;		/* enum wt_step_kind */
	uint8_t attempt;	/* 1, 2, 3 */
	uint8_t rcu;
	uint8_t validated;
	int32_t result;
	uint32_t arg;
	struct wt_ident from;
	struct wt_ident to;
	uint32_t text;		/* offset in the text arena; UINT32_MAX: none */
	uint32_t text_len;
	/* What validates an RCU-mode step (the walker's business): the
	 * dentry id whose d_seq must still be dep_seq, or 0 for mount_lock. */
	uint64_t dep_dentry;
	uint32_t dep_seq;
	/* FALLBACK only: the failed retry's seqcount (see above). */
	uint32_t seq_birth;
	uint32_t seq_now;
};

#define WT_RECORD_MAX_ATTEMPTS	3
#define WT_RECORD_NO_TEXT	UINT32_MAX

struct wt_record_attempt {
	uint32_t first;		/* index of its first step */
	uint32_t count;		/* its steps */
	unsigned flags;		/* lookup flags it started with */
	int result;
	uint64_t version_start;
	uint64_t version_end;
};

struct wt_record {
	struct wt_step *steps;
	uint32_t max_steps;
	uint32_t nsteps;
	char *text;
	uint32_t text_max;
	uint32_t text_len;
	bool overflow;
	enum wt_entry entry;
	unsigned flags;		/* the caller's lookup flags */
	bool ref_only;		/* the walker's ref_only: no RCU attempt */
	int result;		/* what the entry point returned */
	uint32_t nattempts;
	struct wt_record_attempt attempts[WT_RECORD_MAX_ATTEMPTS];
	uint32_t first_unvalidated;	/* walker's cursor */
};

#define WT_RECORD_DEFAULT_STEPS	512	/* a 40-link ELOOP walk fits */
#define WT_RECORD_DEFAULT_TEXT	(64 * 1024)

/* Allocate a record (0 for either size: the default).  NULL on ENOMEM. */
struct wt_record *wt_record_create(uint32_t max_steps, uint32_t text_bytes);
void wt_record_destroy(struct wt_record *r);
/* Forget the last walk (entry points do this at their start). */
void wt_record_reset(struct wt_record *r);

const char *wt_step_kind_name(enum wt_step_kind kind);
/* The step's text (NUL-terminated in the arena), or NULL. */
const char *wt_step_text(const struct wt_record *r, const struct wt_step *s);
/* The attempt that returned, or NULL before the first attempt. */
const struct wt_record_attempt *wt_record_final(const struct wt_record *r);
/* One line per step, for debugging and replays. */
void wt_record_print(const struct wt_record *r, FILE *f);

#endif /* WT_CORE_RECORD_H */

/* SPDX-License-Identifier: MIT */
/*
 * The walk engine: struct nameidata and the entry points, modelled on
 * Linux 6.x fs/namei.c.
 *
 * A caller sets up a walker -- the task that walks (credentials, root,
 * cwd: struct wt_task from sim/vfs/world.h), where its exit-path counters
 * go and where its step record goes -- and calls an entry point:
 *
 *	struct wt_path_counts stats = { 0 };
 *	struct wt_walker w = { .task = &task, .stats = &stats,
 *			       .record = rec };	// rec may be NULL
 *	struct path p;
 *	int err = filename_lookup(&w, NULL, "/a/b", LOOKUP_FOLLOW, &p, NULL);
 *	if (!err)
 *		path_put(&p);
 *
 * Every entry point runs the kernel's ladder: an attempt in RCU-walk
 * (LOOKUP_RCU); on -ECHILD an attempt in REF-walk; on -ESTALE one with
 * LOOKUP_REVAL.  It returns 0 with referenced results, or -errno (never
 * -ECHILD).  The counters and the record are the caller's, never shared
 * between threads; stats and record may be NULL.  A walker with ref_only
 * set skips the RCU attempt (a test knob: REF-walk forced from the start).
 *
 * The world is reached only through sim/'s VFS API (the sim/vfs headers) and the
 * primitives, which carry the injection points.  Every seq read and retry
 * of the engine has a stable dotted name ("lookup_fast.parent_seq",
 * "step_into.child_seq", ...) so directed schedules can stop threads there.
 */
#ifndef WT_CORE_NAMEI_H
#define WT_CORE_NAMEI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/paths.h"
#include "core/record.h"
#include "sim/vfs/lookup_flags.h"
#include "sim/vfs/world.h"

#define MAXSYMLINKS	40	/* links followed in one walk (ELOOP beyond) */
#define EMBEDDED_LEVELS	2	/* the inline link stack; deeper allocates */

/* nd->last_type: what the last component was */
enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

/* openat2's RESOLVE_* (include/uapi/linux/openat2.h values) */
#ifndef RESOLVE_NO_XDEV
#define RESOLVE_NO_XDEV		0x01	/* no mountpoint crossing */
#define RESOLVE_NO_MAGICLINKS	0x02	/* no magic-link crossing */
#define RESOLVE_NO_SYMLINKS	0x04	/* no symlink crossing at all */
#define RESOLVE_BENEATH		0x08	/* no escaping the dirfd */
#define RESOLVE_IN_ROOT		0x10	/* the dirfd is the root */
#define RESOLVE_CACHED		0x20	/* only what the caches hold */
#endif

/* nd->state */
#define ND_ROOT_PRESET	1	/* nd->root given by the caller, not grabbed */
#define ND_ROOT_GRABBED	2	/* we hold a reference on nd->root */
#define ND_JUMPED	4	/* the last step was a jump: weak revalidation */

/* The walker: who walks and where its counters and record go. */
struct wt_walker {
	struct wt_task *task;		/* cred, root, pwd (task->world: the world) */
	struct wt_path_counts *stats;	/* NULL: nothing counted */
	struct wt_record *record;	/* NULL: nothing recorded */
	bool protected_symlinks;	/* the fs.protected_symlinks sysctl */
	/*
	 * A test and diagnostic knob, not a kernel behaviour: the ladder
	 * starts in REF-walk, skipping the LOOKUP_RCU attempt as if it had
	 * answered -ECHILD at once (the REVAL rung still follows -ESTALE).
	 * It shows what REF-walk alone answers, for comparison with the
	 * full ladder; the walk counts ref.* (reval.*), never rcu.* or
	 * unlazy.*, and its record says so (wt_record.ref_only) so the
	 * oracle expects a REF first attempt.
	 */
	bool ref_only;
};

/*
 * A saved symlink on the non-recursive link stack: the link itself (held
 * in REF mode), where the walk stood in the enclosing name when it met the
 * link (name), the link's d_seq (RCU mode), and a copy of its body, which
 * the walk then parses (the copy, not the inode's buffer: the walk may
 * leave RCU-walk in the middle of a body).
 */
struct saved {
	struct path link;
	const char *name;
	unsigned seq;
	char *body;
};

struct nameidata {
	/* where the walk stands */
	struct path	path;
	struct inode	*inode;		/* path.dentry->d_inode, validated */
	unsigned	seq;		/* path.dentry's d_seq (RCU mode) */
	unsigned	next_seq;	/* d_seq of the dentry being stepped to */
	/* the component in hand */
	struct qstr	last;
	int		last_type;	/* LAST_NORM, LAST_DOT, ... */
	/* the walk's root, and the global samples taken at path_init */
	struct path	root;
	unsigned	root_seq;
	unsigned	m_seq;		/* mount_lock */
	unsigned	r_seq;		/* rename_lock */
	unsigned int	flags;		/* LOOKUP_* */
	unsigned int	state;		/* ND_* */
	/* symlinks: the link stack and the walk's budget */
	unsigned	depth;
	int		total_link_count;
	struct saved	*stack, internal[EMBEDDED_LEVELS];
	const char	*pathname;	/* the name being walked */
	const struct path *dir;		/* the dirfd's path, or NULL for the cwd */
	/* the last directory walked, for may_follow_link */
	uint32_t	dir_uid;
	umode_t		dir_mode;

	/* walktorture's */
	struct wt_world	*world;
	struct wt_task	*task;
	const struct wt_walker *walker;
	struct wt_path_counts *stats;
	struct wt_record *record;
	unsigned	attempt;	/* 1 RCU, 2 REF, 3 REVAL */
	bool		unlazied;	/* left RCU-walk before complete_walk */
	char		*stack_bodies;	/* the allocated stack's body buffers */
	char		component[NAME_MAX_LEN + 1];	/* for injection rules */
	char		internal_body[EMBEDDED_LEVELS][PATH_MAX_LEN];
};

/* --- references on paths --- */
void path_get(const struct path *path);
/* Drops what is there; either field may be NULL. */
void path_put(const struct path *path);

/* --- entry points --- */
/*
 * stat-like: resolve name (relative to dir, or to the cwd when dir is
 * NULL; root, when given, is used as the root and never grabbed) with
 * LOOKUP_* flags (LOOKUP_FOLLOW to follow a trailing symlink, the scoping
 * flags, ...).  On success *path holds references.
 */
int filename_lookup(const struct wt_walker *w, const struct path *dir,
		    const char *name, unsigned flags, struct path *path,
		    const struct path *root);
/*
 * create/unlink-like: resolve everything but the last component; *parent
 * (referenced), *last (pointing into name) and *type (LAST_NORM,
 * LAST_DOT, LAST_DOTDOT, LAST_ROOT) describe it.
 */
int filename_parentat(const struct wt_walker *w, const struct path *dir,
		      const char *name, unsigned flags, struct path *parent,
		      struct qstr *last, int *type);
/*
 * umount-like (LOOKUP_MOUNTPOINT): the mounts on the result are followed
 * to the top even when the last step did not cross them (".", a root),
 * and the result is not weakly revalidated (a stale NFS mountpoint can
 * still be unmounted).
 */
int filename_mountpoint(const struct wt_walker *w, const struct path *dir,
			const char *name, unsigned flags, struct path *path);

/* --- open --- */
/* openat2's struct open_how */
struct open_how {
	uint64_t flags;		/* O_* */
	uint64_t mode;		/* for O_CREAT */
	uint64_t resolve;	/* RESOLVE_* */
};

/* build_open_flags()'s digest of an open_how */
struct open_flags {
	int open_flag;		/* O_*, as given */
	int acc_mode;		/* MAY_READ | MAY_WRITE */
	umode_t mode;		/* of a file O_CREAT makes */
	unsigned intent;	/* LOOKUP_OPEN | LOOKUP_CREATE | LOOKUP_EXCL */
	unsigned lookup_flags;
};

/* What an open returns: the opened path (referenced), created or not. */
struct wt_file {
	struct path path;
	bool created;
	int open_flag;
};

/* openat2's checks and flag mapping: 0 or -EINVAL / -EAGAIN. */
int build_open_flags(const struct open_how *how, struct open_flags *op);
/* The LOOKUP_* flags of RESOLVE_* bits (no validation). */
unsigned wt_resolve_lookup_flags(uint64_t resolve);
/* "no-symlinks,no-magiclinks,no-xdev,beneath,in-root,cached" -> bits;
 * 0, or -1 with the offending word in *bad. */
int wt_resolve_parse(const char *s, uint64_t *resolve, const char **bad);

int do_filp_open(const struct wt_walker *w, const struct path *dir,
		 const char *name, const struct open_flags *op,
		 struct wt_file *file);
/* Open name relative to root, which is also the walk's root. */
int do_file_open_root(const struct wt_walker *w, const struct path *root,
		      const char *name, const struct open_flags *op,
		      struct wt_file *file);
/* openat2(): build_open_flags + do_filp_open. */
int do_openat2(const struct wt_walker *w, const struct path *dir,
	       const char *name, const struct open_how *how,
	       struct wt_file *file);
void wt_file_close(struct wt_file *file);

#endif /* WT_CORE_NAMEI_H */

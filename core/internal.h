/* SPDX-License-Identifier: MIT */
/*
 * What the walk engine's files share: the functions one file calls in
 * another, the counting and recording helpers.  Not for use outside core/.
 *
 * Calling-context notes follow the kernel's: "RCU mode only", "returns
 * with the reference held", "nothing may touch nd between a failed
 * try_to_unlazy() and terminate_walk()".
 */
#ifndef WT_CORE_INTERNAL_H
#define WT_CORE_INTERNAL_H

#include "core/namei.h"
#include "core/paths.h"
#include "core/record.h"
#include "sim/atomic.h"
#include "sim/bug.h"
#include "sim/inject.h"
#include "sim/rcu.h"
#include "sim/seq.h"
#include "sim/vfs/access.h"

#ifndef ERR_CAST
#define ERR_CAST(p)	((void *)(p))
#endif

/* walk_component()/step_into() flags */
enum { WALK_TRAILING = 1, WALK_MORE = 2, WALK_NOFOLLOW = 4 };

/* The two exit paths of one unlazy reason: (went on, restarted). */
#define UNLAZY_WHY(X)	WT_PATH_UNLAZY_##X, WT_PATH_RESTART_##X

static inline bool nd_bug(const struct nameidata *nd, unsigned bug)
{
	return wt_bug(nd->world, bug);
}

/*
 * Count an exit path.  One the catalogue calls unreachable means the
 * model took a branch its invariants rule out: report it, the walk goes on.
 */
/* record.c: a path naming a seq or a lock was counted (paths.h). */
void nd_record_fallback(struct nameidata *nd, enum wt_path id);

static inline void nd_count(struct nameidata *nd, enum wt_path id)
{
	if (__builtin_expect(wt_path_unreachable(id) != NULL, 0))
		wt_violation(WT_CHECK_INVARIANT, NULL, NULL,
			     "exit path %s counted, but it cannot happen, %s",
			     wt_path_info(id)->name, wt_path_unreachable(id));
	wt_path_count(nd->stats, id);
	if (nd->record && wt_path_names_seq(id))
		nd_record_fallback(nd, id);
}

/*
 * REF mode: drop a path the walk stepped to.  Its dentry reference is
 * always ours; its mount reference only when the mount is not shared,
 * i.e. not the one the walk already holds.
 */
static inline void path_put_step(const struct path *p,
				 const struct vfsmount *shared)
{
	dput(p->dentry);
	if (p->mnt != shared)
		mntput(p->mnt);
}

/* Dentry fields every RCU-mode reader loads through wt_load(). */
static inline unsigned nd_d_flags(const struct dentry *d)
{
	return wt_load(d, d_flags);
}

/* Pointers a lockless reader follows are acquire loads (rcu_dereference). */
static inline struct inode *nd_d_inode(const struct dentry *d)
{
	return wt_load_acquire(d, d_inode);
}

static inline bool flags_can_lookup(unsigned f)
{
	return (f & DCACHE_ENTRY_TYPE) == DCACHE_DIRECTORY_TYPE;
}

static inline bool flags_is_symlink(unsigned f)
{
	return (f & DCACHE_ENTRY_TYPE) == DCACHE_SYMLINK_TYPE;
}

static inline struct dentry *mnt_root_of(struct vfsmount *m)
{
	return wt_load_acquire(real_mount(m), mnt.mnt_root);
}

/*
 * Tag the object a seq point is about (the dentry whose d_seq it reads),
 * for injection rules with obj= and directed schedules: the point's own
 * obj argument is the seqcount.  One thread-local test when nothing is
 * armed.  ND_TAGGED(obj, expr) evaluates expr with the tag set.
 */
static inline void nd_tag_obj(const struct wt_obj *o)
{
	if (wt_self_armed)
		wt_self->cur_obj = o;
}

#define ND_TAGGED(o, expr) ({							nd_tag_obj(o);								__typeof__(expr) __nd_r = (expr);					nd_tag_obj(NULL);							__nd_r; })

/* --- unlazy.c --- */
void leave_rcu(struct nameidata *nd);
void drop_links(struct nameidata *nd);
void terminate_walk(struct nameidata *nd);
bool legitimize_path(struct nameidata *nd, struct path *path, unsigned seq,
		     enum wt_path dead, enum wt_path moved);
bool try_to_unlazy(struct nameidata *nd, enum wt_path ok, enum wt_path fail);
bool try_to_unlazy_next(struct nameidata *nd, struct dentry *dentry,
			enum wt_path ok, enum wt_path fail);
int complete_walk(struct nameidata *nd);

/* --- mounts.c --- */
/* __legitimize_mnt's answers, with the branch that gave them. */
enum legit_mnt {
	LEGIT_MNT_OK = 0,		/* 0: the count is ours */
	LEGIT_MNT_MOVED_EARLY,		/* 1: mount_lock moved, no count taken */
	LEGIT_MNT_SYNC_UMOUNT,		/* 1: doomed, count undone in place */
	LEGIT_MNT_MNTPUT,		/* -1: count kept, caller must mntput */
};
int __legitimize_mnt(struct wt_world *w, struct vfsmount *bastard,
		     unsigned seq, enum legit_mnt *how);
bool legitimize_mnt(struct wt_world *w, struct vfsmount *bastard,
		    unsigned seq);
void count_legit_mnt(struct nameidata *nd, enum legit_mnt how);
bool path_connected(struct vfsmount *mnt, struct dentry *dentry);
bool choose_mountpoint_rcu(const struct wt_world *w, struct mount *m,
			   const struct path *root, struct path *path,
			   unsigned *seqp);
bool choose_mountpoint(struct nameidata *nd, struct mount *m,
		       const struct path *root, struct path *path);
int handle_mounts(struct nameidata *nd, struct dentry *dentry,
		  struct path *path);
bool path_is_under(struct wt_world *w, const struct path *path,
		   const struct path *root);

/* --- dots.c --- */
const char *handle_dots(struct nameidata *nd, int type);

/* --- links.c --- */
int set_root(struct nameidata *nd);
/* Take the walk's root if it has none yet: 0, or set_root's error. */
static inline int nd_need_root(struct nameidata *nd)
{
	return nd->root.mnt ? 0 : set_root(nd);
}
int nd_jump_root(struct nameidata *nd);
int nd_jump_link(struct nameidata *nd, const struct path *path);
void put_link(struct nameidata *nd);
/*
 * The walk has reached the last component of the innermost link body:
 * that link is done with (RCU mode held nothing on it; REF mode puts it).
 */
static inline void put_finished_link(struct nameidata *nd)
{
	if (nd->depth)
		put_link(nd);
}
/*
 * A successful walk gives its result away: *to takes nd->path's
 * references, and terminate_walk() then has nothing there to put.
 */
static inline void nd_hand_over_path(struct nameidata *nd, struct path *to)
{
	*to = nd->path;
	nd->path = (struct path){ .mnt = NULL, .dentry = NULL };
}
const char *pick_link(struct nameidata *nd, struct path *link,
		      struct inode *inode, int flags);
void nd_free_stack(struct nameidata *nd);

/* --- namei.c --- */
const char *step_into(struct nameidata *nd, int flags, struct dentry *dentry);
const char *path_init(struct nameidata *nd, unsigned flags);
int link_path_walk(const char *name, struct nameidata *nd);
struct dentry *lookup_fast(struct nameidata *nd);
struct dentry *lookup_slow(struct nameidata *nd, const struct qstr *name,
			   struct dentry *dir, unsigned flags);
int d_revalidate(struct nameidata *nd, struct dentry *dentry, unsigned flags);
/* The component a schedule's `where name=` and a rule's component= see
 * (walk_component's, and open's last one). */
void nd_tag_component(struct nameidata *nd);
void nd_untag_component(void);
int handle_lookup_down(struct nameidata *nd);
void set_nameidata(struct nameidata *nd, const struct wt_walker *w,
		   const struct path *dir, const char *name,
		   const struct path *root, enum wt_entry entry,
		   unsigned flags);
void restore_nameidata(struct nameidata *nd);
/* Count and record how an attempt ended; true when the ladder goes on. */
void nd_attempt_end(struct nameidata *nd, int err);
int nd_check_name(const char *name, unsigned flags);
int nd_refuse(const struct wt_walker *w, enum wt_entry entry, unsigned flags,
	      int err);
int nd_path_lookupat(struct nameidata *nd, unsigned flags, struct path *path);
/* One attempt: path_lookupat, path_parentat, path_openat. */
typedef int (*nd_path_fn)(struct nameidata *nd, unsigned flags, void *res);
int nd_ladder(struct nameidata *nd, nd_path_fn fn, unsigned flags, void *res);

/* --- record.c: the walker's side of the step record --- */
struct wt_ident wt_ident_of(struct vfsmount *mnt, struct dentry *dentry,
			    struct inode *inode);
/* Append a step; returns it (NULL when recording is off or full).  In
 * RCU mode the step waits for a check of (dep, seq); dep NULL means
 * mount_lock; REF-mode steps are validated at once. */
struct wt_step *nd_record(struct nameidata *nd, enum wt_step_kind kind,
			  const struct wt_ident *from,
			  const struct wt_ident *to,
			  const char *text, uint32_t text_len, int result,
			  uint32_t arg, const struct dentry *dep,
			  unsigned seq);
/* A check of dentry's d_seq against seq succeeded. */
void nd_validated(struct nameidata *nd, const struct dentry *dentry,
		  unsigned seq);
/* A mount_lock check against nd->m_seq succeeded. */
void nd_validated_mounts(struct nameidata *nd);
/* The walk legitimized: everything so far held. */
void nd_validated_all(struct nameidata *nd);
/* Forget the steps from index mark on (a try that was abandoned). */
void nd_record_rewind(struct nameidata *nd, uint32_t mark);
void nd_record_attempt_begin(struct nameidata *nd, unsigned flags);
void nd_record_attempt_end(struct nameidata *nd, int result);

static inline bool nd_recording(const struct nameidata *nd)
{
	return nd->record != NULL;
}

#endif /* WT_CORE_INTERNAL_H */

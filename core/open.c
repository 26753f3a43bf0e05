/* SPDX-License-Identifier: MIT */
/*
 * open: build_open_flags (openat2's checks and RESOLVE_* mapping),
 * path_openat with open_last_lookups / lookup_open / do_open, and the
 * entry points do_filp_open and do_file_open_root with the same ladder as
 * the lookups.
 *
 * The last component of an open is looked up by open_last_lookups, not
 * lookup_last.  As since Linux 6.12, it is first looked up lazily, with
 * O_CREAT too: an existing file is opened without leaving RCU-walk before
 * complete_walk.  O_EXCL, and a cached negative dentry, leave RCU-walk
 * there (unlazy.open_create; a hash miss already left it in lookup_fast):
 * creating needs the directory's i_rwsem.  The file is created through
 * sim's writer API.
 */
#define _GNU_SOURCE	/* O_PATH */
#include <assert.h>
#include <fcntl.h>
#include <string.h>

#include "core/internal.h"
#include "core/open_create.h"

#define VALID_RESOLVE_FLAGS (RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | \
			     RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | \
			     RESOLVE_IN_ROOT | RESOLVE_CACHED)

unsigned wt_resolve_lookup_flags(uint64_t resolve)
{
	unsigned flags = 0;

	if (resolve & RESOLVE_NO_XDEV)
		flags |= LOOKUP_NO_XDEV;
	if (resolve & RESOLVE_NO_MAGICLINKS)
		flags |= LOOKUP_NO_MAGICLINKS;
	if (resolve & RESOLVE_NO_SYMLINKS)
		flags |= LOOKUP_NO_SYMLINKS;
	if (resolve & RESOLVE_BENEATH)
		flags |= LOOKUP_BENEATH;
	if (resolve & RESOLVE_IN_ROOT)
		flags |= LOOKUP_IN_ROOT;
	if (resolve & RESOLVE_CACHED)
		flags |= LOOKUP_CACHED;
	return flags;
}

int wt_resolve_parse(const char *s, uint64_t *resolve, const char **bad)
{
	static const struct { const char *name; uint64_t bit; } words[] = {
		{ "no-symlinks", RESOLVE_NO_SYMLINKS },
		{ "no-magiclinks", RESOLVE_NO_MAGICLINKS },
		{ "no-xdev", RESOLVE_NO_XDEV },
		{ "beneath", RESOLVE_BENEATH },
		{ "in-root", RESOLVE_IN_ROOT },
		{ "cached", RESOLVE_CACHED },
	};

	*resolve = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		size_t i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].name) == len &&
			    !strncmp(words[i].name, s, len))
				break;
		if (i == sizeof(words) / sizeof(words[0])) {
			if (bad)
				*bad = s;
			return -1;
		}
		*resolve |= words[i].bit;
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

/* open(2)'s access mode bits as MAY_* (the kernel's ACC_MODE). */
static int acc_mode_of(uint64_t flags)
{
	static const int acc[4] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE,
				    MAY_READ | MAY_WRITE };

	return acc[flags & O_ACCMODE];
}

int build_open_flags(const struct open_how *how, struct open_flags *op)
{
	const uint64_t both_scopes = RESOLVE_BENEATH | RESOLVE_IN_ROOT;
	const uint64_t resolve = how->resolve;
	uint64_t flags = how->flags;
	const bool creating = flags & O_CREAT;
	const bool exclusive = creating && (flags & O_EXCL);
	unsigned lookup_flags;

	if (resolve & ~(uint64_t)VALID_RESOLVE_FLAGS)
		return -EINVAL;
	/* BENEATH and IN_ROOT each say what the root is: pick one */
	if ((resolve & both_scopes) == both_scopes)
		return -EINVAL;
	/* a mode is for a create, and then only its permission bits */
	if (how->mode & ~(uint64_t)(creating ? 07777 : 0))
		return -EINVAL;
	op->mode = creating ? (umode_t)(how->mode | WT_S_IFREG) : 0;
	/* O_CREAT and O_DIRECTORY together mean nothing sane (6.4+). */
	if (creating && (flags & O_DIRECTORY))
		return -EINVAL;
	op->open_flag = (int)flags;
	/* O_PATH reads and writes nothing; O_TRUNC writes, even then */
	op->acc_mode = ((flags & O_PATH) ? 0 : acc_mode_of(flags)) |
		       ((flags & O_TRUNC) ? MAY_WRITE : 0);
	op->intent = ((flags & O_PATH) ? 0 : LOOKUP_OPEN) |
		     (creating ? LOOKUP_CREATE : 0) |
		     (exclusive ? LOOKUP_EXCL : 0);
	/*
	 * O_CREAT|O_EXCL fails on any existing name, a symlink included:
	 * the link is not followed to see whether its target exists.
	 */
	if (exclusive)
		flags |= O_NOFOLLOW;
	lookup_flags = wt_resolve_lookup_flags(resolve & ~(uint64_t)RESOLVE_CACHED);
	lookup_flags |= (flags & O_DIRECTORY) ? LOOKUP_DIRECTORY : 0;
	lookup_flags |= (flags & O_NOFOLLOW) ? 0 : LOOKUP_FOLLOW;
	if (resolve & RESOLVE_CACHED) {
		/*
		 * A create or a truncate always has to block (the directory's
		 * lock, the write), so a cached-only attempt could never
		 * succeed: refuse it up front.
		 */
		if (flags & (O_TRUNC | O_CREAT))
			return -EAGAIN;
		lookup_flags |= LOOKUP_CACHED;
	}
	op->lookup_flags = lookup_flags;
	return 0;
}

/*
 * REF mode, the directory's lock held: a step of the last component from
 * the directory to dentry -- lookup_open's look-up (LOOKUP, arg
 * WT_LOOKUP_OPEN) or the creation (CREATE, in the dentry made).
 */
static void record_last(struct nameidata *nd, enum wt_step_kind kind,
			struct dentry *dentry, uint32_t arg)
{
	struct wt_ident from, to;

	if (!nd_recording(nd))
		return;
	from = wt_ident_of(nd->path.mnt, nd->path.dentry, nd->inode);
	to = wt_ident_of(nd->path.mnt, dentry, NULL);
	nd_record(nd, kind, &from, &to, nd->last.name, nd->last.len, 0, arg,
		  NULL, 0);
}

static void record_open_lookup(struct nameidata *nd, struct dentry *dentry)
{
	record_last(nd, WT_STEP_LOOKUP, dentry, WT_LOOKUP_OPEN);
}

/*
 * Create the name at the negative dentry (referenced; the directory's
 * i_rwsem held exclusive): vfs_create through sim's writer API in the
 * directory the walk holds, under the lock we hold, owned by our fsuid
 * and fsgid; the positive dentry is taken back from the dcache (see
 * open_create.h).  The new positive dentry, referenced, or ERR_PTR.
 *
 * The dentry made stays referenced until then, as lookup_open keeps
 * its own: unreferenced, a remote one could be killed by a shrink
 * before the look-up, which then answered ENOENT for the file just
 * made (fuzz --seed 0x2202 --threads 8 --policy explore, workload
 * 1519).  A name dropped since (another walker's d_revalidate said 0
 * and invalidated it) is not in the dcache to be found: the walk goes
 * on with the dentry it made, unhashed, as the kernel's would.
 *
 * Both are recorded, the creation first: the oracle places the look-up
 * at an instant after the walker's own creation, where the name is
 * there, so a miss (zoo d_lookup_no_rename_lock: a rename in another
 * directory carried d_lookup's chain walk away) is a rejected answer.
 * Recorded as one look-up before the create, the same ENOENT would have
 * an explanation: the name absent before the walker made it.
 */
static struct dentry *create_last(struct nameidata *nd, struct dentry *dentry,
				  umode_t mode)
{
	struct dentry *dir = nd->path.dentry;
	struct dentry *made;
	int error;

	error = wt_open_create(nd->world, &nd->path, &nd->last, mode,
			       &nd->task->cred, &made);
	dput(dentry);
	if (error)
		return ERR_PTR(error);
	record_last(nd, WT_STEP_CREATE, made, 0);
	WT_EVENT("lookup_open.created", dir);
	dentry = d_lookup(dir, &nd->last);
	if ((!dentry || !d_inode(dentry)) && d_unhashed(made)) {
		if (dentry)
			dput(dentry);
		WT_EVENT("lookup_open.made_dropped", made);
		return made;
	}
	dput(made);
	record_open_lookup(nd, dentry);
	if (!dentry)
		return ERR_PTR(-ENOENT);
	if (!d_inode(dentry)) {
		dput(dentry);
		return ERR_PTR(-ENOENT);
	}
	return dentry;
}

/*
 * Look up, and create if asked, the last component.  Called in REF mode
 * with the directory's i_rwsem held.  A dentry (referenced; negative when
 * nothing was created), or ERR_PTR.
 */
static struct dentry *lookup_open(struct nameidata *nd, struct wt_file *file,
				  const struct open_flags *op)
{
	struct dentry *dir = nd->path.dentry;
	struct inode *dir_inode = d_inode(dir);
	const struct inode_operations *iop = wt_load(dir_inode, i_op);
	int open_flag = op->open_flag;
	struct dentry *dentry;
	int error, create_error = 0;

	if (wt_load(dir_inode, i_flags) & S_DEAD)
		return ERR_PTR(-ENOENT);
	/* a name over 255 bytes: ->lookup below refuses it, as it sees fit */
	file->created = false;
	dentry = d_lookup(dir, &nd->last);
	for (unsigned tries = 0;; tries++) {	/* bounded below */
		if (!dentry) {
			dentry = d_alloc_parallel(dir, &nd->last);
			if (IS_ERR(dentry))
				return dentry;
		}
		if (nd_d_flags(dentry) & DCACHE_PAR_LOOKUP)
			break;
		error = d_revalidate(nd, dentry, nd->flags);
		if (error > 0)
			break;
		if (error || tries >= 1000)
			goto out_dput;
		nd_count(nd, WT_PATH_RETRY_REVALIDATE_INVALID);
		d_invalidate(dentry);
		dput(dentry);
		dentry = NULL;
	}
	if (!(nd_d_flags(dentry) & DCACHE_PAR_LOOKUP))
		record_open_lookup(nd, dentry);
	if (d_inode(dentry))
		return dentry;	/* cached positive: the open happens later */
	/*
	 * O_CREAT of a name that exists needs no write permission on the
	 * directory, and we do not know yet whether it exists (the lookup
	 * below may find it).  So a refusal is kept in create_error, O_CREAT
	 * is dropped so that nothing gets created, and the refusal is
	 * returned only if the name is still negative at the end.
	 */
	if (open_flag & O_CREAT) {
		/*
		 * open_last_lookups asked mnt_want_write for every O_CREAT
		 * (and write) open without failing it: a read-only mount or
		 * filesystem matters only if the name turns out absent, and
		 * then it is EROFS, before any permission is looked at.
		 */
		if (mnt_is_readonly(nd->path.mnt))
			create_error = -EROFS;
		else
			create_error = inode_permission(&nd->task->cred,
							dir_inode,
							MAY_WRITE | MAY_EXEC);
		if (create_error)
			open_flag &= ~O_CREAT;
	}
	if (nd_d_flags(dentry) & DCACHE_PAR_LOOKUP) {
		struct dentry *res = iop && iop->lookup ?
			iop->lookup(dir_inode, dentry, nd->flags) : NULL;

		d_lookup_done(dentry);
		if (res) {
			if (IS_ERR(res)) {
				if (res == ERR_PTR(-ESTALE))
					nd_count(nd, WT_PATH_ESTALE_LOOKUP);
				error = (int)PTR_ERR(res);
				goto out_dput;
			}
			dput(dentry);
			dentry = res;
		}
		record_open_lookup(nd, dentry);
	}
	/* still no inode, and creating is allowed: make the file */
	if (!d_inode(dentry) && (open_flag & O_CREAT)) {
		dentry = create_last(nd, dentry, op->mode);
		if (IS_ERR(dentry))
			return dentry;
		file->created = true;
	}
	if (create_error && !d_inode(dentry)) {
		error = create_error;
		goto out_dput;
	}
	return dentry;

out_dput:
	dput(dentry);
	return ERR_PTR(error);
}

/* REF mode: lock the directory, look up and maybe create the name. */
static struct dentry *open_locked(struct nameidata *nd, struct wt_file *file,
				  const struct open_flags *op)
{
	struct inode *dir_inode = d_inode(nd->path.dentry);
	struct dentry *dentry;

	/* exclusive for O_CREAT, shared otherwise: one mutex models both */
	mutex_lock_at(&dir_inode->i_rwsem, "open_last_lookups.i_rwsem");
	dentry = lookup_open(nd, file, op);
	mutex_unlock_at(&dir_inode->i_rwsem, "open_last_lookups.i_rwsem_unlock");
	return dentry;
}

/* "name/": the last component must be a directory. */
static bool trailing_slashes(const struct nameidata *nd)
{
	return nd->last.name[nd->last.len] != '\0';
}

/*
 * lookup_fast_for_open - the opportunistic dcache lookup of open's last
 * component, O_CREAT included (6.12+, "fs: try an opportunistic lookup for
 * O_CREAT opens too"; before it every O_CREAT open unlazied here).  It
 * may run in RCU mode.  A dentry to step into (RCU mode: unreferenced,
 * its seq in nd->next_seq, which step_into checks), NULL when lookup_open
 * has to decide under the directory's lock (still in RCU mode only for
 * an O_CREAT open: O_EXCL, or a negative dentry), or ERR_PTR.
 */
static struct dentry *lookup_fast_for_open(struct nameidata *nd, int open_flag)
{
	uint32_t mark = nd_recording(nd) ? nd->record->nsteps : 0;
	const bool creating = open_flag & O_CREAT;
	const bool want_dir = trailing_slashes(nd);
	struct dentry *dentry;

	/* nothing with a trailing slash is created: no lookup at all */
	if (creating && want_dir)
		return ERR_PTR(-EISDIR);
	/*
	 * An O_EXCL create gains nothing from the dcache: a positive dentry
	 * means EEXIST and a negative one a create, and both are decided
	 * under i_rwsem by lookup_open.
	 */
	if (creating && (open_flag & O_EXCL))
		return NULL;
	if (want_dir)
		nd->flags |= LOOKUP_DIRECTORY | LOOKUP_FOLLOW;
	dentry = lookup_fast(nd);
	if (!creating || IS_ERR_OR_NULL(dentry))
		return dentry;
	/*
	 * Discard negative dentries: the create needs the directory's
	 * i_rwsem, and lookup_open looks the name up again under it.  This
	 * d_inode load is not covered by a seq check, and need not be: a
	 * dentry seen positive goes to step_into, whose child seq check
	 * catches an unlink or rename since __d_lookup_rcu; one seen
	 * negative is dropped unused.  In RCU mode it holds no reference
	 * and its lookup step was never validated, so the record forgets
	 * it (REF-walk, which the oracle judges against, never made it).
	 */
	if (!nd_d_inode(dentry)) {
		if (nd->flags & LOOKUP_RCU)
			nd_record_rewind(nd, mark);
		else
			dput(dentry);
		return NULL;
	}
	return dentry;
}

/*
 * Step onto the last component's dentry.  When that gives a symlink body
 * to walk, the intent flags come off: they are for the open's final
 * component, which the body's walk has not reached yet
 * (open_last_lookups puts them back when it does).
 */
static const char *open_step_into(struct nameidata *nd, struct dentry *dentry)
{
	const char *body;

	put_finished_link(nd);
	body = step_into(nd, WALK_TRAILING, dentry);
	if (body)
		nd->flags &= ~(LOOKUP_OPEN | LOOKUP_CREATE | LOOKUP_EXCL);
	return body;
}

/*
 * No dentry from the dcache: lookup_open decides under the directory's
 * lock, which only REF mode may take.  0, or -ECHILD.
 */
static int open_last_leave_rcu(struct nameidata *nd, int open_flag)
{
	if (!(open_flag & O_CREAT)) {
		/* the kernel's WARN_ON_ONCE: lookup_fast unlazies on a miss */
		if (nd->flags & LOOKUP_RCU) {
			wt_violation(WT_CHECK_INVARIANT, NULL, NULL,
				     "lookup_fast missed and stayed in RCU mode");
			return -ECHILD;
		}
	} else if (nd->flags & LOOKUP_RCU) {
		/*
		 * Still lazy after an O_EXCL create or a cached negative
		 * dentry (a hash miss already unlazied in lookup_fast):
		 * lookup_open blocks on i_rwsem, which RCU-walk may not.
		 */
		if (!try_to_unlazy(nd, UNLAZY_WHY(OPEN_CREATE)))
			return -ECHILD;
	}
	assert(!(nd->flags & LOOKUP_RCU));
	return 0;
}

/* open_last_lookups for a LAST_NORM component; the name is tagged. */
static const char *open_last_norm(struct nameidata *nd, struct wt_file *file,
				  const struct open_flags *op)
{
	struct dentry *dentry;
	int err;

	/* RCU mode or REF mode: lookup_fast_for_open handles both */
	dentry = lookup_fast_for_open(nd, op->open_flag);
	if (dentry)
		return IS_ERR(dentry) ? ERR_CAST(dentry)
				      : open_step_into(nd, dentry);
	err = open_last_leave_rcu(nd, op->open_flag);
	if (err)
		return ERR_PTR(err);
	dentry = open_locked(nd, file, op);
	if (IS_ERR(dentry))
		return ERR_CAST(dentry);
	if (!file->created)
		return open_step_into(nd, dentry);
	/*
	 * We made this file ourselves: it is no symlink and nothing is
	 * mounted on it, so nd moves onto it directly (nd->path.mnt stays).
	 */
	dput(nd->path.dentry);
	nd->path.dentry = dentry;
	nd->inode = d_inode(dentry);
	return NULL;
}

static const char *open_last_lookups(struct nameidata *nd,
				     struct wt_file *file,
				     const struct open_flags *op)
{
	const char *res;

	nd->flags |= op->intent;
	if (nd->last_type != LAST_NORM) {
		put_finished_link(nd);
		return handle_dots(nd, nd->last_type);
	}
	nd_tag_component(nd);
	res = open_last_norm(nd, file, op);
	nd_untag_component();
	return res;
}

static int may_open(struct nameidata *nd, int acc_mode)
{
	struct inode *inode = d_inode(nd->path.dentry);
	umode_t mode;

	if (!inode)
		return -ENOENT;
	mode = wt_load(inode, i_mode);
	if (WT_S_ISLNK(mode))
		return -ELOOP;
	if (WT_S_ISDIR(mode) && (acc_mode & MAY_WRITE))
		return -EISDIR;
	if (!acc_mode)
		return 0;
	return inode_permission(&nd->task->cred, inode, acc_mode);
}

/* What open() does once the name is resolved; REF mode from here on. */
static int do_open(struct nameidata *nd, struct wt_file *file,
		   const struct open_flags *op)
{
	int open_flag = op->open_flag;
	int acc_mode;
	int error;

	if (!file->created) {
		error = complete_walk(nd);
		if (error)
			return error;
	}
	if (open_flag & O_CREAT) {
		if ((open_flag & O_EXCL) && !file->created)
			return -EEXIST;
		if (d_is_dir(nd->path.dentry))
			return -EISDIR;
	}
	if ((nd->flags & LOOKUP_DIRECTORY) &&
	    !flags_can_lookup(nd_d_flags(nd->path.dentry)))
		return -ENOTDIR;
	acc_mode = file->created ? 0 : op->acc_mode;
	/* a truncate of an existing file needs a writable mount before
	 * may_open looks at permissions: EROFS over EACCES */
	if (!file->created && (open_flag & O_TRUNC) &&
	    d_is_reg(nd->path.dentry) && mnt_is_readonly(nd->path.mnt))
		return -EROFS;
	error = may_open(nd, acc_mode);
	if (error)
		return error;
	/*
	 * vfs_open: a file opened for writing (O_WRONLY or O_RDWR; O_TRUNC
	 * alone gives no write mode, nor does the access mode 3) takes
	 * write access to the mount: EROFS after the permission check.
	 * Directories and symlinks were refused above, and the model has
	 * no special files.
	 */
	if (((open_flag + 1) & O_ACCMODE) & 2 && mnt_is_readonly(nd->path.mnt))
		return -EROFS;
	return 0;
}

struct openat_args {
	const struct open_flags *op;
	struct wt_file *file;
};

static int path_openat(struct nameidata *nd, unsigned flags, void *arg)
{
	struct openat_args *a = arg;
	struct wt_file *file = a->file;
	const char *s;
	int error;

	*file = (struct wt_file){ .created = false,
				  .open_flag = a->op->open_flag,
				  .path = { .mnt = NULL, .dentry = NULL } };
	/* one round per trailing symlink body; bounded by MAXSYMLINKS */
	for (s = path_init(nd, flags);;) {
		error = link_path_walk(s, nd);
		if (error)
			break;
		s = open_last_lookups(nd, file, a->op);
		if (!s) {
			error = do_open(nd, file, a->op);
			break;
		}
	}
	if (nd_recording(nd)) {
		struct wt_ident none = { 0, 0, 0 };
		struct wt_ident to = nd->path.dentry ?
			wt_ident_of(nd->path.mnt, nd->path.dentry, NULL) : none;

		nd_record(nd, WT_STEP_END, &none, &to, NULL, 0, error, 0, NULL, 0);
		if (!error)
			nd_validated_all(nd);
	}
	if (!error)
		nd_hand_over_path(nd, &file->path);
	terminate_walk(nd);
	return error;
}

/* O_PATH: no open at all, a plain lookup of what the name reaches. */
static int path_o_path(struct nameidata *nd, unsigned flags, void *arg)
{
	struct openat_args *a = arg;

	a->file->created = false;
	a->file->open_flag = a->op->open_flag;
	return nd_path_lookupat(nd, flags, &a->file->path);
}

static int open_ladder(const struct wt_walker *w, const struct path *dir,
		       const char *name, const struct open_flags *op,
		       struct wt_file *file, const struct path *root,
		       enum wt_entry entry)
{
	struct openat_args a = { .op = op, .file = file };
	unsigned flags = op->lookup_flags;
	struct nameidata nd;
	int retval = nd_check_name(name, flags);

	file->path.mnt = NULL;
	file->path.dentry = NULL;
	file->created = false;
	if (retval)
		return nd_refuse(w, entry, flags, retval);
	set_nameidata(&nd, w, dir, name, root, entry, flags);
	retval = nd_ladder(&nd, (op->open_flag & O_PATH) ? path_o_path
							 : path_openat,
			   flags, &a);
	restore_nameidata(&nd);
	return retval;
}

int do_filp_open(const struct wt_walker *w, const struct path *dir,
		 const char *name, const struct open_flags *op,
		 struct wt_file *file)
{
	return open_ladder(w, dir, name, op, file, NULL, WT_ENTRY_OPEN);
}

int do_file_open_root(const struct wt_walker *w, const struct path *root,
		      const char *name, const struct open_flags *op,
		      struct wt_file *file)
{
	file->path.mnt = NULL;
	file->path.dentry = NULL;
	file->created = false;
	if (d_is_symlink(root->dentry) && (op->intent & LOOKUP_OPEN))
		return nd_refuse(w, WT_ENTRY_OPEN_ROOT, op->lookup_flags,
				 -ELOOP);
	return open_ladder(w, NULL, name, op, file, root, WT_ENTRY_OPEN_ROOT);
}

int do_openat2(const struct wt_walker *w, const struct path *dir,
	       const char *name, const struct open_how *how,
	       struct wt_file *file)
{
	struct open_flags op;
	int err = build_open_flags(how, &op);

	file->path.mnt = NULL;
	file->path.dentry = NULL;
	file->created = false;
	if (err)
		return err;
	return do_filp_open(w, dir, name, &op, file);
}

void wt_file_close(struct wt_file *file)
{
	path_put(&file->path);
	file->path.mnt = NULL;
	file->path.dentry = NULL;
}

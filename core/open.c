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
	uint64_t flags = how->flags;
	unsigned lookup_flags = 0;
	int acc_mode = acc_mode_of(flags);

	if (how->resolve & ~(uint64_t)VALID_RESOLVE_FLAGS)
		return -EINVAL;
	/* Scoping flags are mutually exclusive. */
	if ((how->resolve & RESOLVE_BENEATH) && (how->resolve & RESOLVE_IN_ROOT))
		return -EINVAL;
	if (flags & O_CREAT) {
		if (how->mode & ~(uint64_t)07777)
			return -EINVAL;
		op->mode = (umode_t)(how->mode | WT_S_IFREG);
	} else {
		if (how->mode != 0)
			return -EINVAL;
		op->mode = 0;
	}
	/* O_CREAT and O_DIRECTORY together mean nothing sane (6.4+). */
	if ((flags & (O_DIRECTORY | O_CREAT)) == (O_DIRECTORY | O_CREAT))
		return -EINVAL;
	if (flags & O_PATH)
		acc_mode = 0;
	op->open_flag = (int)flags;
	if (flags & O_TRUNC)
		acc_mode |= MAY_WRITE;
	op->acc_mode = acc_mode;
	op->intent = (flags & O_PATH) ? 0 : LOOKUP_OPEN;
	if (flags & O_CREAT) {
		op->intent |= LOOKUP_CREATE;
		if (flags & O_EXCL) {
			op->intent |= LOOKUP_EXCL;
			flags |= O_NOFOLLOW;
		}
	}
	if (flags & O_DIRECTORY)
		lookup_flags |= LOOKUP_DIRECTORY;
	if (!(flags & O_NOFOLLOW))
		lookup_flags |= LOOKUP_FOLLOW;
	lookup_flags |= wt_resolve_lookup_flags(how->resolve & ~(uint64_t)RESOLVE_CACHED);
	if (how->resolve & RESOLVE_CACHED) {
		/* Don't bother even trying for create/truncate opens */
		if (flags & (O_TRUNC | O_CREAT))
			return -EAGAIN;
		lookup_flags |= LOOKUP_CACHED;
	}
	op->lookup_flags = lookup_flags;
	return 0;
}

/* REF mode: the last component's lookup under the directory's lock. */
static void record_open_lookup(struct nameidata *nd, struct dentry *dentry)
{
	struct wt_ident from, to;

	if (!nd_recording(nd))
		return;
	from = wt_ident_of(nd->path.mnt, nd->path.dentry, nd->inode);
	to = wt_ident_of(nd->path.mnt, dentry, NULL);
	nd_record(nd, WT_STEP_LOOKUP, &from, &to, nd->last.name, nd->last.len,
		  0, WT_LOOKUP_OPEN, NULL, 0);
}

/*
 * Create the name at the negative dentry (referenced; the directory's
 * i_rwsem held exclusive): vfs_create through sim's writer API in the
 * directory the walk holds, under the lock we hold, owned by our fsuid
 * and fsgid; the positive dentry is taken back from the dcache (see
 * open_create.h).  The new positive dentry, referenced, or ERR_PTR.
 */
static struct dentry *create_last(struct nameidata *nd, struct dentry *dentry,
				  umode_t mode)
{
	struct dentry *dir = nd->path.dentry;
	int error;

	error = wt_open_create(nd->world, &nd->path, &nd->last, mode,
			       &nd->task->cred);
	dput(dentry);
	if (error)
		return ERR_PTR(error);
	WT_EVENT("lookup_open.created", dir);
	dentry = d_lookup(dir, &nd->last);
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
	if (nd->last.len > NAME_MAX_LEN)
		return ERR_PTR(-ENAMETOOLONG);
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
	 * Checking write permission is tricky: O_CREAT opens work as long
	 * as the file exists.  Check, and if not granted clear O_CREAT.
	 */
	if (open_flag & O_CREAT) {
		create_error = inode_permission(&nd->task->cred, dir_inode,
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
	/* Negative dentry, just create the file */
	if (!d_inode(dentry) && (open_flag & O_CREAT)) {
		dentry = create_last(nd, dentry, op->mode);
		if (IS_ERR(dentry))
			return dentry;
		file->created = true;
		if (nd_recording(nd)) {
			struct wt_ident from = wt_ident_of(nd->path.mnt, dir, dir_inode);
			struct wt_ident to = wt_ident_of(nd->path.mnt, dentry, NULL);

			nd_record(nd, WT_STEP_CREATE, &from, &to, nd->last.name,
				  nd->last.len, 0, 0, NULL, 0);
		}
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
 * O_CREAT opens too"; before it every O_CREAT open unlazied here).  We
 * _can_ be in RCU mode.  A dentry to step into (RCU mode: unreferenced,
 * its seq in nd->next_seq, which step_into checks), NULL when lookup_open
 * has to decide under the directory's lock (still in RCU mode only for
 * an O_CREAT open: O_EXCL, or a negative dentry), or ERR_PTR.
 */
static struct dentry *lookup_fast_for_open(struct nameidata *nd, int open_flag)
{
	uint32_t mark = nd_recording(nd) ? nd->record->nsteps : 0;
	struct dentry *dentry;

	if (open_flag & O_CREAT) {
		/* nothing with a trailing slash is created: no lookup at all */
		if (trailing_slashes(nd))
			return ERR_PTR(-EISDIR);
		/*
		 * Don't bother on an O_EXCL create: a positive dentry is
		 * EEXIST and a negative one is created, both decided under
		 * i_rwsem, so the dcache has nothing to save us.
		 */
		if (open_flag & O_EXCL)
			return NULL;
	}
	if (trailing_slashes(nd))
		nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
	dentry = lookup_fast(nd);
	if (IS_ERR_OR_NULL(dentry) || !(open_flag & O_CREAT))
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

/* open_last_lookups for a LAST_NORM component; the name is tagged. */
static const char *open_last_norm(struct nameidata *nd, struct wt_file *file,
				  const struct open_flags *op)
{
	int open_flag = op->open_flag;
	struct dentry *dentry;
	const char *res;

	/* we _can_ be in RCU mode here */
	dentry = lookup_fast_for_open(nd, open_flag);
	if (IS_ERR(dentry))
		return ERR_CAST(dentry);
	if (dentry)
		goto finish_lookup;
	if (!(open_flag & O_CREAT)) {
		/* the kernel's WARN_ON_ONCE: lookup_fast unlazies on a miss */
		if (nd->flags & LOOKUP_RCU) {
			wt_violation(WT_CHECK_INVARIANT, NULL, NULL,
				     "lookup_fast missed and stayed in RCU mode");
			return ERR_PTR(-ECHILD);
		}
	} else if (nd->flags & LOOKUP_RCU) {
		/*
		 * Still lazy after an O_EXCL create or a cached negative
		 * dentry (a hash miss already unlazied in lookup_fast):
		 * lookup_open blocks on i_rwsem, which RCU-walk may not.
		 */
		if (!try_to_unlazy(nd, UNLAZY_WHY(OPEN_CREATE)))
			return ERR_PTR(-ECHILD);
	}
	assert(!(nd->flags & LOOKUP_RCU));
	dentry = open_locked(nd, file, op);
	if (IS_ERR(dentry))
		return ERR_CAST(dentry);
	if (file->created) {
		dput(nd->path.dentry);
		nd->path.dentry = dentry;
		nd->inode = d_inode(dentry);
		return NULL;
	}
finish_lookup:
	if (nd->depth)
		put_link(nd);
	res = step_into(nd, WALK_TRAILING, dentry);
	if (res)
		nd->flags &= ~(LOOKUP_OPEN | LOOKUP_CREATE | LOOKUP_EXCL);
	return res;
}

static const char *open_last_lookups(struct nameidata *nd,
				     struct wt_file *file,
				     const struct open_flags *op)
{
	const char *res;

	nd->flags |= op->intent;
	if (nd->last_type != LAST_NORM) {
		if (nd->depth)
			put_link(nd);
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

/* Handle the last step of open(): REF mode from here. */
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
	return may_open(nd, acc_mode);
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

	file->created = false;
	file->open_flag = a->op->open_flag;
	file->path.mnt = NULL;
	file->path.dentry = NULL;
	s = path_init(nd, flags);
	/* bounded: each round walks a trailing symlink's body */
	while (!(error = link_path_walk(s, nd)) &&
	       (s = open_last_lookups(nd, file, a->op)) != NULL)
		;
	if (!error)
		error = do_open(nd, file, a->op);
	if (nd_recording(nd)) {
		struct wt_ident none = { 0, 0, 0 };
		struct wt_ident to = nd->path.dentry ?
			wt_ident_of(nd->path.mnt, nd->path.dentry, NULL) : none;

		nd_record(nd, WT_STEP_END, &none, &to, NULL, 0, error, 0, NULL, 0);
		if (!error)
			nd_validated_all(nd);
	}
	if (!error) {
		file->path = nd->path;
		nd->path.mnt = NULL;
		nd->path.dentry = NULL;
	}
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

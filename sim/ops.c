/* SPDX-License-Identifier: MIT */
/*
 * The writer side's set-up, the creating-path table, and the operations
 * that change one object's attributes (chmod, chown) or reach past the
 * namespace (shrink, remote server changes, proc magic links, the
 * slowperm and autofs knobs).  Name and mount operations are in
 * ops_dir.c and ops_mount.c.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/fs/autofs.h"
#include "sim/fs/libfs.h"
#include "sim/fs/proc.h"
#include "sim/fs/remote.h"
#include "sim/fs/slowperm.h"
#include "sim/ops_internal.h"

int wt_ops_init_from(struct wt_world *w, struct wt_history *spare)
{
	struct inode *root;

	if (w->history) {
		wt_history_destroy(spare);	/* not needed: ours, then */
		return 0;
	}
	if (wt_history_marked(spare))
		wt_history_retire(spare);	/* another world's snapshot */
	w->history = wt_history_create_from(w, spare);
	if (!w->history)
		return -ENOMEM;
	root = w->root_mnt->mnt.mnt_root->d_inode;
	wt_origin_set(w, root, "", "/", 1);
	return 0;
}

int wt_ops_init(struct wt_world *w)
{
	return wt_ops_init_from(w, NULL);
}

struct wt_history *wt_ops_fini_keep(struct wt_world *w)
{
	struct wt_history *h = w->history;

	wt_history_retire(h);
	w->history = NULL;
	return h;
}

struct wt_history *wt_ops_fini_rewind(struct wt_world *w)
{
	struct wt_history *h = w->history;

	wt_history_rewind(h);
	w->history = NULL;	/* the restored world has it back */
	return h;
}

void wt_ops_fini(struct wt_world *w)
{
	wt_history_destroy(w->history);
	w->history = NULL;
}

struct wt_world *wt_ops_world_create(uint64_t seed)
{
	return wt_ops_world_create_fs(seed, NULL);
}

struct wt_world *wt_ops_world_create_fs(uint64_t seed, const char *root_fs)
{
	struct wt_world_config cfg;
	struct wt_world *w;

	wt_world_config_default(&cfg);
	cfg.seed = seed;
	cfg.root_fs = root_fs;
	w = wt_world_create(&cfg);
	if (w && wt_ops_init(w)) {
		wt_world_destroy(w);
		return NULL;
	}
	return w;
}

void wt_ops_world_destroy(struct wt_world *w)
{
	if (!w)
		return;
	wt_ops_fini(w);
	wt_world_destroy(w);
}

int wt_writer_lock(struct wt_world *w)
{
	/* The first operation on a fresh world sets the writer side up:
	 * that happens at build time, before threads run (see ops.h). */
	if (!w->history && wt_ops_init(w))
		return -ENOMEM;
	mutex_lock_at(&w->history->writer, "writer.lock");
	return 0;
}

void wt_writer_unlock(struct wt_world *w)
{
	mutex_unlock_at(&w->history->writer, "writer.unlock");
}

void wt_writer_done(struct wt_world *w)
{
	w->history->ops_done++;
}

uint64_t wt_ops_done(const struct wt_world *w)
{
	return w->history ? w->history->ops_done : 0;
}

/* ------------------------------------------------------------------ */
/* creating paths                                                       */

/* "/a//b/" -> "/a/b"; "" and "/" -> "/". */
static char *normalise(const char *prefix, const char *path, size_t len)
{
	size_t plen = strlen(prefix), o = plen;
	char *out = malloc(plen + len + 2);

	if (!out)
		abort();	/* bookkeeping */
	memcpy(out, prefix, plen);
	for (size_t i = 0; i < len; i++) {
		if (path[i] == '/' && o > plen && out[o - 1] == '/')
			continue;
		out[o++] = path[i];
	}
	while (o > plen + 1 && out[o - 1] == '/')
		o--;
	if (o == plen)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

void wt_origin_set(struct wt_world *w, const struct inode *inode,
		   const char *prefix, const char *path, size_t len)
{
	struct wt_history *h = w->history;

	if (!h || !inode)
		return;
	/*
	 * The log's lock, not the writer mutex: open(O_CREAT) records its
	 * file from a walker (wt_op_create_in) beside the writers.  The
	 * name is made and handed to the map under it, with no point in
	 * between: a run that ends at the lock's points (stuck, deadlocked,
	 * halted) abandons the thread there, and a name it held would leak.
	 */
	spin_lock(&h->lock);
	if (wt_idmap_get(&h->origins, inode->wt.id)) {
		spin_unlock(&h->lock);
		return;	/* a hard link keeps the first name */
	}
	/* nothing to free: the map had no name for the inode */
	(void)wt_idmap_put(&h->origins, inode->wt.id,
			   normalise(prefix, path, len));
	spin_unlock(&h->lock);
}

const char *wt_inode_origin(const struct wt_world *w, uint64_t inode_id)
{
	struct wt_history *h = w->history;
	const char *name;

	if (!h)
		return NULL;
	/* entries are never replaced: the string outlives the lock */
	spin_lock(&h->lock);
	name = wt_idmap_get(&h->origins, inode_id);
	spin_unlock(&h->lock);
	return name;
}

/* ------------------------------------------------------------------ */
/* errno names                                                          */

const char *wt_errno_name(int err)
{
	static const struct { int err; const char *name; } names[] = {
		{ 0, "ok" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" },
		{ EIO, "EIO" }, { ECHILD, "ECHILD" }, { EAGAIN, "EAGAIN" },
		{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { EXDEV, "EXDEV" }, { ENODEV, "ENODEV" },
		{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" }, { EINVAL, "EINVAL" },
		{ ENAMETOOLONG, "ENAMETOOLONG" }, { ENOTEMPTY, "ENOTEMPTY" },
		{ ELOOP, "ELOOP" }, { ESTALE, "ESTALE" }, { EMLINK, "EMLINK" },
		{ ENOSPC, "ENOSPC" }, { EROFS, "EROFS" },
	};

	if (err < 0)
		err = -err;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	return "E?";
}

/* ------------------------------------------------------------------ */
/* attributes                                                           */

static int setattr(struct wt_world *w, const char *path, const char *op,
		   const char *step, int which, uint32_t a, uint32_t b)
{
	struct wt_hist_rec *rec;
	struct inode *inode;
	struct path p;
	int err = wt_resolve(w, path, WT_RES_FOLLOW, &p);

	if (err)
		return err;
	/* chmod_common's mnt_want_write: the mount the name reached */
	if (mnt_is_readonly(p.mnt)) {
		wt_path_put(&p);
		return -EROFS;
	}
	inode = d_inode(p.dentry);
	inode_lock(inode);	/* notify_change runs under the inode lock */
	rec = wt_history_begin(w, op, step, "%s %o %u", path, a, b);
	if (which == 0) {
		umode_t mode = (umode_t)((inode->i_mode & WT_S_IFMT) | (a & 07777));

		wt_store_step(inode, i_mode, mode, "chmod.i_mode");
	} else {
		wt_store_step(inode, i_uid, a, "chown.i_uid");
		wt_store_step(inode, i_gid, b, "chown.i_gid");
	}
	wt_history_inode(rec, inode);
	wt_history_commit(rec);
	inode_unlock(inode);
	wt_path_put(&p);
	return 0;
}

int wt_op_chmod(struct wt_world *w, const char *path, umode_t mode)
{
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = setattr(w, path, "chmod", "chmod.i_mode", 0, mode, 0);
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

int wt_op_chown(struct wt_world *w, const char *path, uint32_t uid, uint32_t gid)
{
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = setattr(w, path, "chown", "chown.i_gid", 1, uid, gid);
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

/* ------------------------------------------------------------------ */
/* past the namespace                                                   */

/*
 * Shrinking changes no name -> inode: the history gets an entry without
 * facts (for the timeline), and snapshots keep the dropped dentries as
 * logged (see history.h).
 */
int wt_op_shrink(struct wt_world *w)
{
	struct wt_hist_rec *rec;
	unsigned n;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	rec = wt_history_begin(w, "shrink", "shrink", "%s", "");
	WT_OP_STEP("shrink", w);
	n = wt_dcache_shrink(w);
	wt_history_commit(rec);
	wt_writer_done(w);
	wt_writer_unlock(w);
	return (int)n;
}

/* The super_block mounted at fspath (a mount root), or ERR_PTR. */
static struct super_block *sb_at(struct wt_world *w, const char *fspath,
				 struct path *p)
{
	int err = wt_resolve(w, fspath, WT_RES_FOLLOW, p);

	if (err)
		return ERR_PTR(err);
	if (p->dentry != p->mnt->mnt_root) {
		wt_path_put(p);
		return ERR_PTR(-EINVAL);
	}
	return p->mnt->mnt_sb;
}

static int proc_magic(struct wt_world *w, const char *procpath,
		      const char *name, const char *target)
{
	struct wt_hist_rec *rec;
	struct path proc, t;
	struct super_block *sb = sb_at(w, procpath, &proc);
	struct qstr q;
	struct dentry *d;
	int err;

	if (IS_ERR(sb))
		return (int)PTR_ERR(sb);
	err = wt_resolve(w, target, WT_RES_FOLLOW, &t);
	if (err)
		goto out;
	inode_lock(proc.dentry->d_inode);
	rec = wt_history_begin(w, "proc-magic", "proc-magic.d_instantiate",
			       "%s %s %s", procpath, name, target);
	WT_OP_STEP("proc-magic.d_instantiate", sb);
	err = wt_proc_add_magic(sb, name, t);
	q = QSTR_INIT(name, (uint32_t)strlen(name));
	d = err ? NULL : d_lookup(proc.dentry, &q);
	if (d) {
		char origin[PATH_MAX_LEN];

		snprintf(origin, sizeof(origin), "%s/%s", procpath, name);
		wt_history_dentry(rec, d);
		wt_history_inode(rec, d->d_inode);
		wt_origin_set(w, d->d_inode, "", origin, strlen(origin));
		dput(d);
	}
	wt_history_commit(rec);
	inode_unlock(proc.dentry->d_inode);
	wt_path_put(&t);
out:
	wt_path_put(&proc);
	return err;
}

int wt_op_proc_magic(struct wt_world *w, const char *procpath,
		     const char *name, const char *target)
{
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = proc_magic(w, procpath, name, target);
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

struct proc_task_log {
	struct wt_world *w;
	struct wt_hist_rec *rec;
};

static void proc_task_made(void *arg, struct dentry *d, const char *name)
{
	struct proc_task_log *log = arg;

	wt_history_dentry(log->rec, d);
	wt_history_inode(log->rec, d->d_inode);
	wt_origin_set(log->w, d->d_inode, "proc:", name, strlen(name));
}

int wt_op_proc_task(struct wt_world *w, const struct wt_proc_task *t,
		    bool self)
{
	struct super_block *procs[16];
	unsigned n = 0;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	/* the proc instances first: making dentries takes the list lock */
	spin_lock(&w->list_lock);
	for (struct super_block *sb = w->supers; sb && n < 16; sb = sb->s_next)
		if (sb->s_type == &wt_proc_type && sb->s_root)
			procs[n++] = sb;
	spin_unlock(&w->list_lock);
	for (unsigned i = 0; i < n && !err; i++) {
		struct inode *root = procs[i]->s_root->d_inode;
		struct proc_task_log log = { .w = w };

		inode_lock(root);
		log.rec = wt_history_begin(w, "proc-task", "proc-task.d_instantiate",
					   "%u", t->pid);
		WT_OP_STEP("proc-task.d_instantiate", procs[i]);
		err = wt_proc_add_task(procs[i], t, self, proc_task_made, &log);
		wt_history_commit(log.rec);
		inode_unlock(root);
	}
	if (!err && n)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err ? err : (int)n;
}

static void process_put(struct wt_proc_task *t)
{
	struct path *ps[] = { &t->root, &t->cwd, &t->exe };

	for (unsigned i = 0; i < 3; i++)
		if (ps[i]->dentry)
			wt_path_put(ps[i]);
	for (unsigned k = 0; k < t->nfds; k++)
		wt_path_put(&t->fds[k].path);
}

/* Every path of p, referenced in *t; 0, or -errno with *bad. */
static int process_resolve(struct wt_world *w, const struct wt_process *p,
			   struct wt_proc_task *t, unsigned *bad)
{
	const char *names[] = { p->root, p->cwd, p->exe };
	struct path *ps[] = { &t->root, &t->cwd, &t->exe };
	int err;

	for (unsigned i = 0; i < 3; i++) {
		if (!names[i])
			continue;
		err = wt_resolve(w, names[i], WT_RES_FOLLOW |
				 (i < 2 ? WT_RES_DIRECTORY : 0), ps[i]);
		if (err) {
			*bad = i + 1;
			return err;
		}
	}
	for (unsigned k = 0; k < p->nfds; k++) {
		err = wt_resolve(w, p->fds[k].path, WT_RES_FOLLOW,
				 &t->fds[k].path);
		if (err) {
			*bad = 4 + k;
			return err;
		}
		t->fds[k].fd = p->fds[k].fd;
		t->nfds = k + 1;
	}
	return 0;
}

int wt_op_process(struct wt_world *w, const struct wt_process *p,
		  unsigned *bad)
{
	struct wt_proc_task t = {
		.pid = p->pid, .uid = p->uid, .gid = p->gid,
		.nondumpable = p->nondumpable,
	};
	int err;

	assert(p->nfds <= WT_PROC_MAX_FDS);
	*bad = 0;
	err = process_resolve(w, p, &t, bad);
	if (!err) {
		err = wt_op_proc_task(w, &t, false);
		if (err == 0)		/* no proc to show it in */
			err = -ENOENT;
		else if (err > 0)
			err = 0;
	}
	process_put(&t);
	return err;
}

static const char *const remote_ops[] = {
	[WT_REMOTE_CREATE] = "remote-create", [WT_REMOTE_MKDIR] = "remote-mkdir",
	[WT_REMOTE_SYMLINK] = "remote-symlink", [WT_REMOTE_UNLINK] = "remote-rm",
	[WT_REMOTE_RENAME] = "remote-mv", [WT_REMOTE_INVALIDATE] = "remote-invalidate",
	[WT_REMOTE_EXPIRE] = "remote-expire",
};

static int remote_change(struct super_block *sb, enum wt_remote_change c,
			 const char *a, const char *b, umode_t mode)
{
	switch (c) {
	case WT_REMOTE_CREATE:
		return wt_remote_server_create(sb, a, (umode_t)(WT_S_IFREG | (mode & 07777)));
	case WT_REMOTE_MKDIR:
		return wt_remote_server_create(sb, a, (umode_t)(WT_S_IFDIR | (mode & 07777)));
	case WT_REMOTE_SYMLINK:
		return wt_remote_server_symlink(sb, a, b);
	case WT_REMOTE_UNLINK:
		return wt_remote_server_unlink(sb, a);
	case WT_REMOTE_RENAME:
		return wt_remote_server_rename(sb, a, b);
	case WT_REMOTE_INVALIDATE:
		return wt_remote_server_invalidate(sb, a);
	case WT_REMOTE_EXPIRE:
		if (sb->s_type->kind != WT_FS_REMOTE)
			return -EINVAL;
		wt_remote_expire(sb);
		return 0;
	}
	return -EINVAL;
}

/*
 * The server's truth is not the client's namespace: the change is logged
 * as a step whose only fact is its super_block (only when the change was
 * made), which carries the server tree's changes (sim/history.h: the
 * oracle replays them).  The client learns of it when a walk
 * revalidates, which is the VFS's own business (not logged, see
 * history.h); the oracle judges remote walks by the client's rules.
 */
int wt_op_remote(struct wt_world *w, enum wt_remote_change change,
		 const char *fspath, const char *a, const char *b, umode_t mode)
{
	struct wt_hist_rec *rec;
	struct super_block *sb;
	struct path p;
	int err;

	if ((unsigned)change > WT_REMOTE_EXPIRE)
		return -EINVAL;
	err = wt_writer_lock(w);
	if (err)
		return err;
	sb = sb_at(w, fspath, &p);
	if (IS_ERR(sb)) {
		err = (int)PTR_ERR(sb);
		goto out;
	}
	rec = wt_history_begin(w, remote_ops[change], "remote.server",
			       "%s %s %s", fspath, a ? a : "", b ? b : "");
	WT_OP_STEP("remote.server", sb);
	err = remote_change(sb, change, a, b, mode);
	/* the super_block: which server changed, and how (the oracle's
	 * remote negatives, core/oracle_server.c); only when the change
	 * was made, so that a remote op's entry is a change */
	if (!err)
		wt_history_super(rec, sb);
	wt_history_commit(rec);
	wt_path_put(&p);
	if (!err)
		wt_writer_done(w);
out:
	wt_writer_unlock(w);
	return err;
}

int wt_op_acl_uncache(struct wt_world *w, const char *path)
{
	struct path p;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = wt_resolve(w, path, WT_RES_FOLLOW, &p);
	if (!err) {
		if (p.dentry->d_sb->s_type->kind == WT_FS_SLOWPERM)
			wt_slowperm_uncache(d_inode(p.dentry));
		else
			err = -EINVAL;
		wt_path_put(&p);
	}
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

/* The client-side inode at fspath/path (path relative to the fs root). */
static int remote_make_bad(struct wt_world *w, const char *fspath,
			   const char *path)
{
	char full[PATH_MAX_LEN];
	struct super_block *sb;
	struct path mnt, p;
	int err;

	sb = sb_at(w, fspath, &mnt);
	if (IS_ERR(sb))
		return (int)PTR_ERR(sb);
	wt_path_put(&mnt);
	if (sb->s_type->kind != WT_FS_REMOTE)
		return -EINVAL;
	if (snprintf(full, sizeof(full), "%s/%s", fspath, path) >= (int)sizeof(full))
		return -ENAMETOOLONG;
	err = wt_resolve(w, full, 0, &p);
	if (err)
		return err;
	if (p.dentry->d_sb != sb)
		err = -EXDEV;	/* something else is mounted on the way */
	else
		err = wt_remote_make_bad(d_inode(p.dentry));
	wt_path_put(&p);
	return err;
}

/* Client-side knowledge, not a namespace change: no history record. */
int wt_op_remote_bad(struct wt_world *w, const char *fspath, const char *path)
{
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = remote_make_bad(w, fspath, path);
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

/*
 * Set a switch of the filesystem mounted at fspath (its root), under the
 * writer lock: state the filesystem keeps, not a namespace change, so no
 * history record.
 */
static int sb_switch(struct wt_world *w, const char *fspath,
		     int (*set)(struct super_block *, unsigned, bool),
		     unsigned what, bool on)
{
	struct super_block *sb;
	struct path p;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	sb = sb_at(w, fspath, &p);
	if (IS_ERR(sb)) {
		err = (int)PTR_ERR(sb);
	} else {
		err = set(sb, what, on);
		wt_path_put(&p);
	}
	if (!err)
		wt_writer_done(w);
	wt_writer_unlock(w);
	return err;
}

int wt_op_remote_layer(struct wt_world *w, const char *fspath, bool on)
{
	return sb_switch(w, fspath, wt_remote_option, WT_REMOTE_OVL_LAYER, on);
}

/* Timestamps are not namespace facts either: no history record. */
int wt_op_touch_nofollow(struct wt_world *w, const char *path)
{
	struct path p;
	int err = wt_writer_lock(w);

	if (err)
		return err;
	err = wt_resolve(w, path, 0, &p);
	/* utimensat's mnt_want_write */
	if (!err && mnt_is_readonly(p.mnt)) {
		wt_path_put(&p);
		err = -EROFS;
	}
	if (!err) {
		wt_inode_touch(d_inode(p.dentry));
		wt_path_put(&p);
		wt_writer_done(w);
	}
	wt_writer_unlock(w);
	return err;
}

static int autofs_busy(struct super_block *sb, unsigned what, bool busy)
{
	(void)what;
	return wt_autofs_set_busy(sb, busy);
}

int wt_op_autofs_busy(struct wt_world *w, const char *fspath, bool busy)
{
	return sb_switch(w, fspath, autofs_busy, 0, busy);
}

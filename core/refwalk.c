/* SPDX-License-Identifier: MIT */
/*
 * The reference resolver: path_lookupat over a namespace snapshot, with
 * the kernel's REF-walk semantics and none of its machinery.  See
 * refwalk.h.  The link stack is explicit (no recursion), as the walk
 * engine's is.
 */
#include <assert.h>
#include <string.h>

#include "core/namei.h"
#include "core/oracle.h"
#include "core/refwalk.h"
#include "sim/vfs/inode.h"

#define CHAIN_MAX	4096u	/* mount chains and dentry depth */

enum { RW_TRAILING = 1, RW_MORE = 2, RW_NOFOLLOW = 4 };

struct rw {
	const struct wt_ns *ns;
	const struct cred *cred;
	unsigned flags;
	bool protected_symlinks;
	struct wt_ident pos;
	uint64_t root_mnt;
	uint64_t root_dentry;
	bool root_set;		/* nd->root taken (path_init or set_root) */
	unsigned total_links;
	const char *last;
	uint32_t last_len;
	int last_type;
	uint32_t dir_uid;
	uint32_t dir_mode;
	const char *stack[MAXSYMLINKS + 1];
};

static const struct cred rw_root_cred = { .cap_dac_override = true,
					  .cap_sys_ptrace = true };

static uint64_t inode_of(const struct rw *w, uint64_t dentry)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(w->ns, dentry);

	return d ? d->inode : 0;
}

static const struct wt_inode_fact *pos_inode(const struct rw *w)
{
	return wt_ns_inode(w->ns, w->pos.inode);
}

static bool is_dir(const struct rw *w)
{
	const struct wt_inode_fact *i = pos_inode(w);

	return i && WT_S_ISDIR(i->mode);
}

static void set_pos(struct rw *w, uint64_t mnt, uint64_t dentry)
{
	w->pos.mnt = mnt;
	w->pos.dentry = dentry;
	w->pos.inode = inode_of(w, dentry);
}

static bool at_root(const struct rw *w)
{
	return w->pos.mnt == w->root_mnt && w->pos.dentry == w->root_dentry;
}

/*
 * nd_jump_root: no mounts crossed (the root is where it is).  As the
 * kernel's, the RESOLVE_NO_XDEV test compares with nd->root before
 * set_root: a relative walk that has not taken the root yet (no `..`, no
 * absolute link before) is refused any absolute symlink.
 */
static int jump_root(struct rw *w)
{
	if (w->flags & LOOKUP_BENEATH)
		return -EXDEV;
	if ((w->flags & LOOKUP_NO_XDEV) && w->pos.mnt &&
	    w->pos.mnt != (w->root_set ? w->root_mnt : 0))
		return -EXDEV;
	w->root_set = true;
	set_pos(w, w->root_mnt, w->root_dentry);
	return 0;
}

static int may_lookup(const struct rw *w)
{
	const struct wt_inode_fact *i = pos_inode(w);

	if (!i)
		return -ENOENT;
	return wt_fact_permission(w->cred, i->mode, i->uid, i->gid, MAY_EXEC);
}

/* traverse_mounts: to the top of the pile at (mnt, dentry). */
static int traverse_mounts(struct rw *w, uint64_t *mnt, uint64_t *dentry)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(w->ns, *dentry);

	for (unsigned n = 0; n < CHAIN_MAX; n++) {
		const struct wt_mount_fact *m = wt_ns_mount_at(w->ns, *mnt, *dentry);

		if (!m)
			break;
		*mnt = m->id;
		*dentry = m->root;
		d = wt_ns_dentry(w->ns, *dentry);
		if (w->flags & LOOKUP_NO_XDEV)
			return -EXDEV;
	}
	if (!d || !d->inode)
		return -ENOENT;
	/* an uncovered automount point: REF-walk would call d_automount,
	 * unless this is a plain stat of the point itself */
	if ((d->flags & WT_DF_AUTOMOUNT) &&
	    (w->flags & (LOOKUP_PARENT | LOOKUP_DIRECTORY | LOOKUP_AUTOMOUNT)))
		return (w->flags & LOOKUP_NO_XDEV) ? -EXDEV : -ENOSYS;
	return 0;
}

/* fs.protected_symlinks (may_follow_link), for a trailing link. */
static int may_follow_link(const struct rw *w, const struct wt_inode_fact *link)
{
	if (!w->protected_symlinks || link->uid == w->cred->uid)
		return 0;
	if ((w->dir_mode & (01000 | 0002)) != (01000 | 0002))
		return 0;
	if (w->dir_uid == link->uid)
		return 0;
	return -EACCES;
}

/*
 * A magic link's get_link, then nd_jump_link to its target.  proc asks
 * whether the caller may read the link's process before it hands over
 * the target, so its EACCES comes before every refusal of the jump.
 */
static int jump_link(struct rw *w, const struct wt_inode_fact *link)
{
	int err = wt_fact_may_read_task(w->cred, link);

	if (err)
		return err;
	if (w->flags & LOOKUP_NO_MAGICLINKS)
		return -ELOOP;
	if ((w->flags & LOOKUP_NO_XDEV) && w->pos.mnt != link->magic_mnt)
		return -EXDEV;
	if (w->flags & LOOKUP_IS_SCOPED)
		return -EXDEV;
	set_pos(w, link->magic_mnt, link->magic_dentry);
	return 0;
}

/* pick_link: the body to walk, NULL after a pure jump, or *err. */
static const char *pick_link(struct rw *w, uint64_t mnt,
			     const struct wt_inode_fact *link, int flags,
			     int *err)
{
	const struct wt_mount_fact *m = wt_ns_mount(w->ns, mnt);
	const char *body;

	if (w->total_links++ >= MAXSYMLINKS) {
		*err = -ELOOP;
		return NULL;
	}
	if ((flags & RW_TRAILING) && (*err = may_follow_link(w, link)))
		return NULL;
	if ((w->flags & LOOKUP_NO_SYMLINKS) ||
	    (m && (m->mnt_flags & MNT_NOSYMFOLLOW))) {
		*err = -ELOOP;
		return NULL;
	}
	body = link->link;
	if (!body) {
		if (link->magic_mnt || link->magic_dentry)
			*err = jump_link(w, link);
		else
			*err = -EINVAL;
		return NULL;
	}
	if (*body == '/') {
		*err = jump_root(w);
		if (*err)
			return NULL;
		while (*body == '/')
			body++;
	}
	return *body ? body : NULL;
}

/* step_into: cross mounts at dentry, then land or push the link. */
static const char *step_into(struct rw *w, int flags, uint64_t dentry,
			     int *err)
{
	uint64_t mnt = w->pos.mnt;
	const struct wt_inode_fact *ino;

	*err = traverse_mounts(w, &mnt, &dentry);
	if (*err)
		return NULL;
	ino = wt_ns_inode(w->ns, inode_of(w, dentry));
	if (ino && WT_S_ISLNK(ino->mode) &&
	    !((flags & RW_TRAILING) && !(w->flags & LOOKUP_FOLLOW)) &&
	    !(flags & RW_NOFOLLOW))
		return pick_link(w, mnt, ino, flags, err);
	set_pos(w, mnt, dentry);
	return NULL;
}

/* choose_mountpoint: up the mount chain from mount mnt's root. */
static bool choose_mountpoint(const struct rw *w, uint64_t mnt, uint64_t *pm,
			      uint64_t *pd)
{
	const struct wt_mount_fact *m = wt_ns_mount(w->ns, mnt);

	for (unsigned n = 0; m && n < CHAIN_MAX; n++) {
		const struct wt_mount_fact *p;
		uint64_t mp;

		if (m->parent == m->id)
			return false;
		mp = m->mountpoint;
		p = wt_ns_mount(w->ns, m->parent);
		if (!p || (p->id == w->root_mnt && mp == w->root_dentry))
			return false;
		if (mp != p->root) {
			*pm = p->id;
			*pd = mp;
			return true;
		}
		m = p;
	}
	return false;
}

/* path_connected: inside the mount's root subtree. */
static bool connected(const struct rw *w, uint64_t mnt, uint64_t dentry)
{
	return wt_ns_connected(w->ns, wt_ns_mount(w->ns, mnt), dentry);
}

/* follow_dotdot + step_into(WALK_NOFOLLOW). */
static int dotdot(struct rw *w)
{
	const struct wt_mount_fact *m = wt_ns_mount(w->ns, w->pos.mnt);
	const struct wt_dentry_fact *d;
	uint64_t pm, pd, parent;
	int err;

	w->root_set = true;	/* handle_dots: set_root */
	if (at_root(w))
		goto in_root;
	if (m && w->pos.dentry == m->root) {
		if (!choose_mountpoint(w, m->id, &pm, &pd))
			goto in_root;
		set_pos(w, pm, pd);
		if (w->flags & LOOKUP_NO_XDEV)
			return -EXDEV;
	}
	d = wt_ns_dentry(w->ns, w->pos.dentry);
	if (!d)
		return -ENOENT;
	parent = d->parent;
	if (!connected(w, w->pos.mnt, parent))
		return -ENOENT;
	step_into(w, RW_NOFOLLOW, parent, &err);
	return err;
in_root:
	if (w->flags & LOOKUP_BENEATH)
		return -EXDEV;
	step_into(w, RW_NOFOLLOW, w->pos.dentry, &err);
	return err;
}

/* What the directory's filesystem answers for a name over 255 bytes:
 * its ->lookup decides (proc's has no limit and finds nothing). */
static int long_name_error(const struct rw *w)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(w->ns, w->pos.dentry);
	const struct wt_super_fact *s = d ? wt_ns_super(w->ns, d->sb) : NULL;

	return s && s->kind == WT_FS_PROC ? -ENOENT : -ENAMETOOLONG;
}

static const char *walk_component(struct rw *w, int flags, int *err)
{
	const struct wt_inode_fact *dir = pos_inode(w);
	const struct wt_dentry_fact *child;

	*err = 0;
	if (w->last_type == LAST_DOTDOT) {
		*err = dotdot(w);
		return NULL;
	}
	if (w->last_type != LAST_NORM)
		return NULL;
	/* lookup_slow's order: a dead directory, then the name's length */
	if (dir && (dir->flags & S_DEAD)) {
		*err = -ENOENT;
		return NULL;
	}
	if (w->last_len > NAME_MAX_LEN) {
		*err = long_name_error(w);
		return NULL;
	}
	child = wt_ns_child(w->ns, w->pos.dentry, w->last, w->last_len);
	if (!child || !child->inode) {
		*err = -ENOENT;
		return NULL;
	}
	return step_into(w, flags, child->id, err);
}

static const char *next_component(struct rw *w, const char *name)
{
	uint32_t len = 0;

	while (name[len] && name[len] != '/')
		len++;
	w->last = name;
	w->last_len = len;
	w->last_type = LAST_NORM;
	if (len == 1 && name[0] == '.')
		w->last_type = LAST_DOT;
	else if (len == 2 && name[0] == '.' && name[1] == '.')
		w->last_type = LAST_DOTDOT;
	return name + len;
}

/* link_path_walk: every component but the last, links included. */
static int link_path_walk(struct rw *w, const char *name)
{
	int depth = 0, err;

	w->last_type = LAST_ROOT;
	w->flags |= LOOKUP_PARENT;	/* mid-path: automount points trigger */
	while (*name == '/')
		name++;
	if (!*name) {
		w->dir_mode = 0;
		w->flags &= ~LOOKUP_PARENT;
		return 0;
	}
	for (;;) {	/* bounded: the name, and 40 bodies */
		const char *link;

		err = may_lookup(w);
		if (err)
			return err;
		name = next_component(w, name);
		if (*name) {
			do {
				name++;
			} while (*name == '/');
		}
		if (!*name) {
			const struct wt_inode_fact *i = pos_inode(w);

			if (!depth) {
				w->dir_uid = i ? i->uid : 0;
				w->dir_mode = i ? i->mode : 0;
				w->flags &= ~LOOKUP_PARENT;
				return 0;
			}
			name = w->stack[--depth];
			link = walk_component(w, 0, &err);
		} else {
			link = walk_component(w, RW_MORE, &err);
		}
		if (err)
			return err;
		if (link) {
			assert(depth < MAXSYMLINKS + 1);
			w->stack[depth++] = name;
			name = link;
			continue;
		}
		if (!is_dir(w))
			return -ENOTDIR;
	}
}

static const char *lookup_last(struct rw *w, int *err)
{
	if (w->last_type == LAST_NORM && w->last[w->last_len])
		w->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
	return walk_component(w, RW_TRAILING, err);
}

/* path_init: the start, and the root. */
static int path_init(struct rw *w, const struct wt_refwalk_opts *o,
		     const char *name)
{
	uint64_t nsroot = wt_ns_root_mount(w->ns);

	w->root_mnt = o->root_mnt ? o->root_mnt : nsroot;
	w->root_dentry = o->root_mnt ? o->root_dentry
				     : wt_ns_mount_root(w->ns, nsroot);
	w->pos.mnt = 0;
	if (*name == '/' && !(w->flags & LOOKUP_IN_ROOT))
		return jump_root(w);
	if (o->cwd_mnt)
		set_pos(w, o->cwd_mnt, o->cwd_dentry);
	else
		set_pos(w, w->root_mnt, w->root_dentry);
	if (w->flags & LOOKUP_IS_SCOPED) {
		w->root_mnt = w->pos.mnt;
		w->root_dentry = w->pos.dentry;
		w->root_set = true;
	}
	if (!is_dir(w))
		return -ENOTDIR;
	return 0;
}

static int finish(struct rw *w, const struct wt_refwalk_opts *o,
		  struct wt_refwalk_result *res, int err)
{
	if (!err && !o->parent && (w->flags & LOOKUP_DIRECTORY) && !is_dir(w))
		err = -ENOTDIR;
	res->error = err;
	res->links = w->total_links;
	if (!err)
		res->id = w->pos;
	if (!err && o->parent) {
		uint32_t len = w->last_len < sizeof(res->last) - 1 ?
			       w->last_len : (uint32_t)sizeof(res->last) - 1;

		res->last_type = w->last_type;
		if (w->last_type != LAST_ROOT)
			memcpy(res->last, w->last, len);
		res->last[w->last_type != LAST_ROOT ? len : 0] = '\0';
	}
	return err;
}

int wt_refwalk(const struct wt_ns *ns, const char *name,
	       const struct wt_refwalk_opts *opts,
	       struct wt_refwalk_result *res)
{
	struct rw w = { 0 };
	const char *s = name;
	size_t len = strnlen(name, PATH_MAX_LEN);
	int err;

	memset(res, 0, sizeof(*res));
	if (len >= PATH_MAX_LEN)
		return finish(&w, opts, res, -ENAMETOOLONG);
	if (!len)
		return finish(&w, opts, res, -ENOENT);
	w.ns = ns;
	w.cred = opts->cred ? opts->cred : &rw_root_cred;
	w.flags = opts->flags & ~(LOOKUP_RCU | LOOKUP_PARENT);
	w.protected_symlinks = opts->protected_symlinks;
	err = path_init(&w, opts, name);
	if (err)
		return finish(&w, opts, res, err);
	if (opts->parent)
		return finish(&w, opts, res, link_path_walk(&w, s));
	/* bounded: each round walks a trailing symlink's body */
	while (!(err = link_path_walk(&w, s))) {
		s = lookup_last(&w, &err);
		if (err || !s)
			break;
	}
	return finish(&w, opts, res, err);
}

/* SPDX-License-Identifier: MIT */
/*
 * The oracle's step matchers: does step s hold in the namespace at the
 * current instant (j->ns, version j->t)?  Each answers HOLDS, FAILS (and
 * says in j->why what the namespace says instead) or UNKNOWN (an object
 * the step names was never logged: accepted at the end of the window
 * only where the filesystem makes such objects by itself -- remote
 * ->lookup, proc-like -- see oracle.h).  Pure functions of (j->ns, s) and
 * the walk's facts known so far (root, last link).
 */
#include <stdio.h>
#include <string.h>

#include "core/namei.h"
#include "core/oracle_internal.h"
#include "sim/vfs/inode.h"

#define MOUNT_CHAIN_MAX	4096u	/* a longer chain is a broken model */

/* ------------------------------------------------------------------ */
/* facts                                                                */

int wt_fact_permission(const struct cred *cred, uint32_t mode, uint32_t uid,
		       uint32_t gid, int mask)
{
	unsigned m = mode;

	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	/* acl_permission_check: the owner by the owner bits alone, a group
	 * member by the group bits, everyone else by the other bits */
	if (uid == cred->uid)
		m >>= 6;
	else if (in_group_p(cred, gid))
		m >>= 3;
	if (!(mask & ~m & 7))
		return 0;
	if (WT_S_ISDIR(mode))
		return cred->cap_dac_override ? 0 : -EACCES;
	/* root may not exec what nobody may exec */
	if ((!(mask & MAY_EXEC) || (mode & 0111)) && cred->cap_dac_override)
		return 0;
	return -EACCES;
}

int wt_fact_may_read_task(const struct cred *cred,
			  const struct wt_inode_fact *link)
{
	if (!link->task_pid || link->task_pid == cred->tgid)
		return 0;
	if (cred->cap_sys_ptrace)
		return 0;
	/* no capability: the caller's ids must be the process's, and even
	 * then a process that is not dumpable keeps itself to itself */
	if (link->task_uid != cred->uid || link->task_gid != cred->gid)
		return -EACCES;
	return link->task_nondumpable ? -EACCES : 0;
}

static int mount_fs_kind(const struct oj *j, uint64_t mnt)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, mnt);
	const struct wt_super_fact *s = m ? wt_ns_super(j->ns, m->sb) : NULL;

	return s ? (int)s->kind : -1;
}

int oj_dentry_fs_kind(const struct oj *j, uint64_t dentry)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, dentry);
	const struct wt_super_fact *s = d ? wt_ns_super(j->ns, d->sb) : NULL;

	return s ? (int)s->kind : -1;
}

/* Filesystems whose dentries and inodes ->lookup makes on its own. */
static bool makes_its_own(int kind)
{
	return kind == WT_FS_REMOTE || kind == WT_FS_PROC;
}

bool oj_is_remote(const struct oj *j, const struct wt_ident *id)
{
	int kind = mount_fs_kind(j, id->mnt);

	if (kind < 0)
		kind = oj_dentry_fs_kind(j, id->dentry);
	return kind == WT_FS_REMOTE;
}

int oj_inode_type(const struct oj *j, uint64_t inode)
{
	const struct wt_inode_fact *i = inode ? wt_ns_inode(j->ns, inode) : NULL;

	return i ? (int)(i->mode & WT_S_IFMT) : 0;
}

bool oj_is_root(struct oj *j, uint64_t mnt, uint64_t dentry)
{
	if (!j->root_known) {
		uint64_t root = wt_ns_root_mount(j->ns);

		return mnt == root && dentry == wt_ns_mount_root(j->ns, root);
	}
	return mnt == j->root_mnt && dentry == j->root_dentry;
}

/* An object the snapshot does not have. */
static enum holds unknown(struct oj *j, const struct wt_ident *id,
			  const char *what)
{
	int kind = mount_fs_kind(j, id->mnt);

	oj_why(j, "%s (dentry %llu inode %llu) is not in the history", what,
	       (unsigned long long)id->dentry, (unsigned long long)id->inode);
	return makes_its_own(kind) ? UNKNOWN : FAILS;
}

/* Does the dentry have the recorded inode at t?  (A walk that stands on a
 * dentry holds it in REF-walk: its inode cannot change under the walk.) */
static enum holds ident_holds(struct oj *j, const struct wt_ident *id,
			      const char *what)
{
	const struct wt_dentry_fact *d;

	if (!id->dentry)
		return HOLDS;
	d = wt_ns_dentry(j->ns, id->dentry);
	if (!d)
		return unknown(j, id, what);
	if (id->inode && d->inode != id->inode) {
		oj_why(j, "%s dentry %llu has inode %llu, not %llu", what,
		       (unsigned long long)d->id, (unsigned long long)d->inode,
		       (unsigned long long)id->inode);
		return FAILS;
	}
	return HOLDS;
}

static const char *text_of(const struct oj *j, const struct wt_step *s)
{
	const char *t = wt_step_text(j->r, s);

	return t ? t : "";
}

/* ------------------------------------------------------------------ */
/* the matchers                                                         */

enum holds holds_start(struct oj *j, const struct wt_step *s)
{
	return ident_holds(j, &s->to, "the start");
}

enum holds holds_permission(struct oj *j, const struct wt_step *s)
{
	const struct wt_inode_fact *ino;
	enum holds h;
	int want;

	/* -ECHILD: the check would have blocked; not an answer */
	if (s->result == -ECHILD)
		return HOLDS;
	/* -EIO: the remote client found the inode bad, its own state that
	 * the history does not log (sim/fs/remote.c, remote_bad) */
	if (s->result == -EIO) {
		if (oj_is_remote(j, &s->to))
			return HOLDS;
		oj_why(j, "EIO from a filesystem that is not remote");
		return FAILS;
	}
	h = ident_holds(j, &s->to, "the directory");
	if (h != HOLDS)
		return h;
	ino = wt_ns_inode(j->ns, s->to.inode);
	if (!ino)
		return unknown(j, &s->to, "the directory's inode");
	want = wt_fact_permission(j->cred, ino->mode, ino->uid, ino->gid,
				  (int)s->arg);
	if (want == s->result)
		return HOLDS;
	oj_why(j, "inode %llu is mode %04o uid %u gid %u: exec %s for uid %u gid %u",
	       (unsigned long long)ino->id, ino->mode & 07777, ino->uid,
	       ino->gid, want ? "denied" : "granted", j->cred->uid,
	       j->cred->gid);
	return FAILS;
}

static void why_child(struct oj *j, const struct wt_dentry_fact *child,
		      const char *name)
{
	if (!child)
		oj_why(j, "'%.64s' is absent", name);
	else if (!child->inode)
		oj_why(j, "'%.64s' is negative dentry %llu", name,
		       (unsigned long long)child->id);
	else
		oj_why(j, "'%.64s' is dentry %llu inode %llu", name,
		       (unsigned long long)child->id,
		       (unsigned long long)child->inode);
}

/* The errors a LOOKUP step may carry, each with its own reason. */
static enum holds lookup_error(struct oj *j, const struct wt_step *s,
			       bool *check_negative)
{
	const struct wt_inode_fact *dir = wt_ns_inode(j->ns, s->from.inode);

	*check_negative = false;
	switch (s->result) {
	case -ENAMETOOLONG:	/* the fs's length limit: no instant needed */
		if (s->text_len > NAME_MAX_LEN &&
		    oj_dentry_fs_kind(j, s->from.dentry) != WT_FS_PROC)
			return HOLDS;
		oj_why(j, "the name is %u bytes", s->text_len);
		return FAILS;
	case -ENOMEM:		/* an injected allocation failure */
		return HOLDS;
	case -ESTALE:		/* protocol: a stale handle on a remote fs */
	case -EIO:		/* a remote directory the client found bad */
		if (oj_is_remote(j, &s->from))
			return HOLDS;
		oj_why(j, "%s from a filesystem that is not remote",
		       s->result == -EIO ? "EIO" : "ESTALE");
		return FAILS;
	case -ENOTDIR:		/* the "directory" has no ->lookup */
		if (dir && !WT_S_ISDIR(dir->mode))
			return HOLDS;
		oj_why(j, "inode %llu is a directory",
		       (unsigned long long)s->from.inode);
		return FAILS;
	case -ENOENT:		/* a dead directory, or the name absent */
		if (dir && (dir->flags & S_DEAD))
			return HOLDS;
		*check_negative = true;
		return FAILS;
	}
	oj_why(j, "a lookup error %d the oracle does not explain", s->result);
	return FAILS;
}

static enum holds lookup_positive(struct oj *j, const struct wt_step *s,
				  const struct wt_dentry_fact *child,
				  const char *name)
{
	const struct wt_inode_fact *ino;

	if (child && child->inode == s->to.inode &&
	    (child->id == s->to.dentry || !wt_ns_dentry(j->ns, s->to.dentry)))
		return HOLDS;
	why_child(j, child, name);
	/*
	 * The client's cache, not the server's truth: ->lookup of a remote
	 * directory asked the server and made a dentry the history never
	 * logged.  Consistent if its inode, when known, is of the same fs.
	 */
	if (oj_is_remote(j, &s->from) && !wt_ns_dentry(j->ns, s->to.dentry)) {
		const struct wt_dentry_fact *dir = wt_ns_dentry(j->ns, s->from.dentry);

		ino = wt_ns_inode(j->ns, s->to.inode);
		if (ino && dir && ino->sb != dir->sb)
			return FAILS;
		return UNKNOWN;
	}
	return FAILS;
}

/*
 * Does the attempt's next namespace step LOOK UP s's name again, in s's
 * directory?  Then d_revalidate said 0 to what s found and
 * lookup_slow asked again: s's dentry was no answer (oracle.c's
 * is_relookup).
 */
static bool looked_up_again(const struct oj *j, const struct wt_step *s)
{
	const struct wt_step *n = s + 1, *end = j->r->steps + j->r->nsteps;
	const char *a = wt_step_text(j->r, s), *b;

	while (n < end && n->attempt == s->attempt && oj_stays_put(n))
		n++;
	if (n == end || n->attempt != s->attempt || n->kind != WT_STEP_LOOKUP ||
	    n->from.mnt != s->from.mnt || n->from.dentry != s->from.dentry ||
	    n->text_len != s->text_len)
		return false;
	b = wt_step_text(j->r, n);
	return a && b && !memcmp(a, b, s->text_len);
}

enum holds holds_lookup(struct oj *j, const struct wt_step *s)
{
	const char *name = text_of(j, s);
	const struct wt_dentry_fact *child;
	bool negative = !s->to.inode;
	enum holds h;

	if (s->result && s->result != -ECHILD) {
		h = lookup_error(j, s, &negative);
		if (!negative)
			return h;
	}
	h = ident_holds(j, &s->from, "the directory");
	if (h != HOLDS)
		return h;
	child = wt_ns_child(j->ns, s->from.dentry, name, s->text_len);
	if (!negative)
		return lookup_positive(j, s, child, name);
	/*
	 * A remote client answers by the server, not by its namespace:
	 * "absent" only where the server could lack the name
	 * (oracle_server.c); a LOOKUP the next step repeats got no answer
	 * (d_revalidate said 0 to it).
	 */
	if (!child || !child->inode)
		return oj_is_remote(j, &s->from) && !looked_up_again(j, s) &&
		       !oj_server_may_lack(j, s, name, s->text_len) ? FAILS : HOLDS;
	why_child(j, child, name);
	if (!oj_is_remote(j, &s->from))
		return FAILS;
	return looked_up_again(j, s) ||
	       oj_server_may_lack(j, s, name, s->text_len) ? UNKNOWN : FAILS;
}

enum holds holds_mount(struct oj *j, const struct wt_step *s)
{
	const struct wt_mount_fact *m;

	m = wt_ns_mount_at(j->ns, s->from.mnt, s->from.dentry);
	if (!m) {
		oj_why(j, "nothing is mounted at mount %llu dentry %llu",
		       (unsigned long long)s->from.mnt,
		       (unsigned long long)s->from.dentry);
		return FAILS;
	}
	if (m->id != s->to.mnt || m->root != s->to.dentry) {
		oj_why(j, "the top mount there is %llu (root dentry %llu)",
		       (unsigned long long)m->id, (unsigned long long)m->root);
		return FAILS;
	}
	return ident_holds(j, &s->to, "the mount's root");
}

enum holds holds_no_mount(struct oj *j, const struct wt_step *s)
{
	const struct wt_mount_fact *m;

	(void)s;
	m = wt_ns_mount_at(j->ns, j->land.mnt, j->land.dentry);
	if (!m)
		return HOLDS;
	/* autofs's d_manage may refuse the transit (-EISDIR) */
	if (mount_fs_kind(j, j->land.mnt) == WT_FS_AUTOFS)
		return HOLDS;
	oj_why(j, "mount %llu is attached at mount %llu dentry %llu, and the "
	       "walk did not cross it", (unsigned long long)m->id,
	       (unsigned long long)j->land.mnt,
	       (unsigned long long)j->land.dentry);
	return FAILS;
}

/*
 * choose_mountpoint at t: from mount mnt's root up the mount chain to the
 * first mountpoint that is not the root of its parent mount; false when
 * the chain ends (no parent) or meets the walker's root (`..` stays).
 */
static bool choose_mountpoint(struct oj *j, uint64_t mnt, uint64_t *pm,
			      uint64_t *pd)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, mnt);

	for (unsigned n = 0; m && n < MOUNT_CHAIN_MAX; n++) {
		const struct wt_mount_fact *p;
		uint64_t mp;

		if (m->parent == m->id)		/* !mnt_has_parent */
			return false;
		mp = m->mountpoint;
		p = wt_ns_mount(j->ns, m->parent);
		if (!p || oj_is_root(j, p->id, mp))
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

enum holds holds_mount_up(struct oj *j, const struct wt_step *s)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, s->from.mnt);
	uint64_t pm = 0, pd = 0;

	if (!m) {
		oj_why(j, "mount %llu is not in the history",
		       (unsigned long long)s->from.mnt);
		return FAILS;
	}
	if (m->root != s->from.dentry) {
		oj_why(j, "dentry %llu is not the root of mount %llu",
		       (unsigned long long)s->from.dentry,
		       (unsigned long long)m->id);
		return FAILS;
	}
	if (!choose_mountpoint(j, m->id, &pm, &pd)) {
		oj_why(j, "mount %llu has no mountpoint to go up to "
		       "(`..` stays)", (unsigned long long)m->id);
		return FAILS;
	}
	if (pm != s->to.mnt || pd != s->to.dentry) {
		oj_why(j, "`..` goes up to mount %llu dentry %llu",
		       (unsigned long long)pm, (unsigned long long)pd);
		return FAILS;
	}
	return ident_holds(j, &s->to, "the mountpoint");
}

/* path_connected: inside a bind mount's subtree (is_subdir at t). */
static bool connected(struct oj *j, const struct wt_mount_fact *m,
		      uint64_t dentry)
{
	return wt_ns_connected(j->ns, m, dentry);
}

/*
 * follow_dotdot's in_root: `..` stays where it is at the walker's root,
 * and at a mount root whose chain up meets the root or ends -- a mount
 * stacked on the root's own mountpoint is one (LOOKUP_BENEATH answers
 * EXDEV there, not only at the root itself).
 */
bool oj_dotdot_in_root(struct oj *j, uint64_t mnt, uint64_t dentry)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, mnt);
	uint64_t pm, pd;

	if (oj_is_root(j, mnt, dentry))
		return true;
	return m && m->root == dentry && !choose_mountpoint(j, m->id, &pm, &pd);
}

static enum holds dotdot_stays(struct oj *j, const struct wt_step *s)
{
	if (oj_dotdot_in_root(j, s->from.mnt, s->from.dentry))
		return HOLDS;
	oj_why(j, "mount %llu dentry %llu is not the walker's root: `..` moves",
	       (unsigned long long)s->from.mnt,
	       (unsigned long long)s->from.dentry);
	return FAILS;
}

enum holds holds_dotdot(struct oj *j, const struct wt_step *s)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, s->from.mnt);
	const struct wt_dentry_fact *d;
	enum holds h;

	if (s->arg == 1)
		return dotdot_stays(j, s);
	if (oj_is_root(j, s->from.mnt, s->from.dentry)) {
		oj_why(j, "at the walker's root `..` stays");
		return FAILS;
	}
	if (m && m->root == s->from.dentry) {
		oj_why(j, "at the root of mount %llu `..` goes to its "
		       "mountpoint first", (unsigned long long)m->id);
		return FAILS;
	}
	h = ident_holds(j, &s->from, "the directory");
	if (h != HOLDS)
		return h;
	d = wt_ns_dentry(j->ns, s->from.dentry);
	if (!d)
		return HOLDS;	/* ident_holds vouched for it */
	if (d->parent != s->to.dentry) {
		oj_why(j, "the parent of dentry %llu is %llu",
		       (unsigned long long)d->id, (unsigned long long)d->parent);
		return FAILS;
	}
	if (m && !connected(j, m, d->parent)) {
		oj_why(j, "dentry %llu is outside mount %llu's subtree "
		       "(REF-walk answers ENOENT)", (unsigned long long)d->parent,
		       (unsigned long long)m->id);
		return FAILS;
	}
	return ident_holds(j, &s->to, "the parent");
}

enum holds holds_disconnected(struct oj *j, const struct wt_step *s)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, j->pos.mnt);
	const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, j->pos.dentry);

	(void)s;
	if (!m || !d) {
		oj_why(j, "the walk's place is not in the history");
		return FAILS;
	}
	if (m->root != d->id && !oj_is_root(j, m->id, d->id) &&
	    !connected(j, m, d->parent))
		return HOLDS;
	oj_why(j, "`..` from dentry %llu stays inside mount %llu",
	       (unsigned long long)d->id, (unsigned long long)m->id);
	return FAILS;
}

/* The negative dentry a lookup found has since become j->inst. */
enum holds holds_instantiated(struct oj *j, const struct wt_step *s)
{
	(void)s;
	return ident_holds(j, &j->inst, "the looked-up dentry");
}

enum holds holds_link(struct oj *j, const struct wt_step *s)
{
	const struct wt_inode_fact *ino;
	const char *body = text_of(j, s);
	enum holds h;

	if (s->result)
		return oj_is_remote(j, &s->from) ? HOLDS : FAILS;
	h = ident_holds(j, &s->from, "the link");
	if (h != HOLDS)
		return h;
	ino = wt_ns_inode(j->ns, s->from.inode);
	if (!ino)
		return unknown(j, &s->from, "the link's inode");
	if (!WT_S_ISLNK(ino->mode)) {
		oj_why(j, "inode %llu is not a symlink",
		       (unsigned long long)ino->id);
		return FAILS;
	}
	/*
	 * A remote client's link inode keeps no body: get_link asks the
	 * server each time, and the history logs the client's inode.  What
	 * the server answered is not known here.
	 */
	if (!ino->link && oj_is_remote(j, &s->from)) {
		oj_why(j, "remote link inode %llu: its body is the server's",
		       (unsigned long long)ino->id);
		return UNKNOWN;
	}
	if (!ino->link || strcmp(ino->link, body)) {
		oj_why(j, "the body of inode %llu is '%.64s'",
		       (unsigned long long)ino->id, ino->link ? ino->link : "");
		return FAILS;
	}
	return HOLDS;
}

enum holds holds_jump(struct oj *j, const struct wt_step *s)
{
	const struct wt_inode_fact *ino;

	if (s->arg == 0) {
		if (!oj_is_root(j, s->to.mnt, s->to.dentry)) {
			oj_why(j, "the walker's root is mount %llu dentry %llu",
			       (unsigned long long)j->root_mnt,
			       (unsigned long long)j->root_dentry);
			return FAILS;
		}
		return ident_holds(j, &s->to, "the root");
	}
	ino = wt_ns_inode(j->ns, j->last_link.inode);
	if (!ino)
		return unknown(j, &j->last_link, "the magic link");
	if (ino->magic_mnt != s->to.mnt || ino->magic_dentry != s->to.dentry) {
		oj_why(j, "magic link inode %llu points at mount %llu dentry %llu",
		       (unsigned long long)ino->id,
		       (unsigned long long)ino->magic_mnt,
		       (unsigned long long)ino->magic_dentry);
		return FAILS;
	}
	/* proc_pid_get_link would have refused before jumping */
	if (wt_fact_may_read_task(j->cred, ino)) {
		oj_why(j, "magic link inode %llu belongs to process %u (uid %u "
		       "gid %u%s), which uid %u may not read",
		       (unsigned long long)ino->id, ino->task_pid, ino->task_uid,
		       ino->task_gid, ino->task_nondumpable ? ", not dumpable" : "",
		       j->cred->uid);
		return FAILS;
	}
	return HOLDS;
}

enum holds holds_automount(struct oj *j, const struct wt_step *s)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, s->from.dentry);

	if (!d)
		return unknown(j, &s->from, "the automount point");
	if (d->flags & WT_DF_AUTOMOUNT)
		return HOLDS;
	oj_why(j, "dentry %llu is not an automount point",
	       (unsigned long long)d->id);
	return FAILS;
}

enum holds holds_automount_detached(struct oj *j, const struct wt_step *s)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, s->from.mnt);

	if (!m)
		return unknown(j, &s->from, "the automount point's mount");
	if (m->mnt_flags & MNT_UMOUNT)
		return HOLDS;
	oj_why(j, "mount %llu is still in the namespace",
	       (unsigned long long)m->id);
	return FAILS;
}

/*
 * ENOENT from finish_automount: the trigger lost its name (rmdir) while
 * d_automount ran, and a mount there would hang where no name leads
 * (the kernel's lock_mount refuses a dead mountpoint the same way).
 */
enum holds holds_automount_removed(struct oj *j, const struct wt_step *s)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, s->from.dentry);
	const struct wt_inode_fact *ino;

	if (!d)
		return unknown(j, &s->from, "the automount point");
	ino = d->inode ? wt_ns_inode(j->ns, d->inode) : NULL;
	if (!(d->flags & WT_DF_HASHED) || !d->inode ||
	    (ino && (ino->flags & S_DEAD)))
		return HOLDS;
	oj_why(j, "the automount point (dentry %llu) still has its name",
	       (unsigned long long)d->id);
	return FAILS;
}

/*
 * The dentry the create made, dropped from the hash since: another
 * walker's d_revalidate said 0 to it (the server lost the name) and
 * invalidated it, maybe before the creation's own version was
 * published, so that no instant shows the name there.  The walk goes on
 * with the dentry it made, as lookup_open does (core/open.c
 * create_last).  Its inode is the creation's own: no other step made it.
 */
static bool created_then_dropped(struct oj *j, const struct wt_step *s,
				 const char *name)
{
	const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, s->to.dentry);

	return d && s->to.inode && d->inode == s->to.inode &&
	       d->parent == s->from.dentry && !(d->flags & WT_DF_HASHED) &&
	       d->name && strlen(d->name) == s->text_len &&
	       !memcmp(d->name, name, s->text_len);
}

enum holds holds_create(struct oj *j, const struct wt_step *s)
{
	const char *name = text_of(j, s);
	const struct wt_dentry_fact *child;

	child = wt_ns_child(j->ns, s->from.dentry, name, s->text_len);
	if (child && child->inode == s->to.inode &&
	    (child->id == s->to.dentry || !wt_ns_dentry(j->ns, s->to.dentry)))
		return HOLDS;
	if (created_then_dropped(j, s, name))
		return HOLDS;
	why_child(j, child, name);
	return FAILS;
}

/*
 * path_is_under(END, root) at t, as complete_walk asks it of every scoped
 * lookup: up the mount chain from END's mount to the root's mount (each
 * step to the mount's mountpoint), then up d_parent to the root dentry.
 * A detached mount or a dentry whose chain ends before the root is
 * outside.  Unhashed dentries keep their last parent, as is_subdir sees.
 */
enum holds holds_under_root(struct oj *j, const struct wt_step *s)
{
	uint64_t mnt = s->to.mnt, dentry = s->to.dentry;
	unsigned hops = 0;

	while (mnt != j->root_mnt) {
		const struct wt_mount_fact *m = wt_ns_mount(j->ns, mnt);

		if (!m || m->parent == m->id || ++hops > 4096) {
			oj_why(j, "mount %llu is not below the root's mount %llu",
			       (unsigned long long)mnt,
			       (unsigned long long)j->root_mnt);
			return FAILS;
		}
		dentry = m->mountpoint;
		mnt = m->parent;
	}
	for (hops = 0; dentry != j->root_dentry; hops++) {
		const struct wt_dentry_fact *d = wt_ns_dentry(j->ns, dentry);

		if (!d)
			return unknown(j, &s->to, "the result");
		if (d->parent == d->id || hops > 4096) {
			oj_why(j, "dentry %llu is not under the root (dentry "
			       "%llu): its ancestors end at dentry %llu",
			       (unsigned long long)s->to.dentry,
			       (unsigned long long)j->root_dentry,
			       (unsigned long long)d->id);
			return FAILS;
		}
		dentry = d->parent;
	}
	return HOLDS;
}


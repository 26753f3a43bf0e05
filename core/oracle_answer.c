/* SPDX-License-Identifier: MIT */
/*
 * The oracle's judgement of the answer: the retry ladder, success, and
 * each errno explained by the steps -- or, for EAGAIN and ESTALE, by the
 * protocol (oracle.h).
 */
#include <string.h>

#include "core/namei.h"
#include "core/oracle_internal.h"
#include "sim/vfs/inode.h"	/* S_DEAD */

bool oj_name_too_long(const char *name, size_t len)
{
	size_t comp = 0;

	if (len >= PATH_MAX_LEN)
		return true;
	for (size_t i = 0; i < len; i++) {
		if (name[i] == '/') {
			comp = 0;
			continue;
		}
		if (++comp > NAME_MAX_LEN)
			return true;
	}
	return false;
}

/*
 * The ladder: RCU first (plain REF-walk first when the walker's ref_only
 * test knob skipped it); -ECHILD, and only it, leads to plain REF-walk;
 * -ESTALE, and only it, to LOOKUP_REVAL.  -ECHILD never reaches the
 * caller, nor -ESTALE before the LOOKUP_REVAL attempt.
 */
bool oj_check_ladder(struct oj *j)
{
	const struct wt_record *r = j->r;

	/* a walker's ref_only knob starts the ladder at plain REF-walk */
	if (r->ref_only) {
		if (r->attempts[0].flags & (LOOKUP_RCU | LOOKUP_REVAL))
			return oj_reject(j, -1, "the first attempt of a ref_only "
					 "walk is not plain REF-walk");
	} else if (!(r->attempts[0].flags & LOOKUP_RCU)) {
		return oj_reject(j, -1, "the first attempt is not in RCU-walk");
	}
	for (uint32_t i = 1; i < r->nattempts; i++) {
		const struct wt_record_attempt *prev = &r->attempts[i - 1];
		unsigned flags = r->attempts[i].flags;

		if (prev->result == -ECHILD) {
			if (flags & (LOOKUP_RCU | LOOKUP_REVAL))
				return oj_reject(j, -1, "attempt %u after -ECHILD "
						 "is not plain REF-walk", i + 1);
		} else if (prev->result == -ESTALE) {
			if (!(flags & LOOKUP_REVAL))
				return oj_reject(j, -1, "attempt %u after -ESTALE "
						 "lacks LOOKUP_REVAL", i + 1);
		} else {
			return oj_reject(j, -1, "attempt %u retried after %d",
					 i + 1, prev->result);
		}
	}
	if (j->a->result == -ECHILD)
		return oj_reject(j, -1, "-ECHILD reached the caller");
	if (j->a->result == -ESTALE && !(j->a->flags & LOOKUP_REVAL))
		return oj_reject(j, -1, "-ESTALE reached the caller before "
				 "the LOOKUP_REVAL attempt");
	if (r->result != j->a->result)
		return oj_reject(j, -1, "the walk returned %d, its last "
				 "attempt answered %d", r->result, j->a->result);
	return true;
}

static bool trailing_slash(const struct oj *j)
{
	const char *name = j->in->name;
	size_t len = name ? strlen(name) : 0;

	return len && name[len - 1] == '/';
}

static enum wt_verdict verdict_of(bool ok)
{
	return ok ? WT_VERDICT_OK : WT_VERDICT_REJECTED;
}

static enum wt_verdict check_success(struct oj *j, const struct wt_step *end,
				     int end_idx)
{
	char a[96];
	int type;

	if (!end)
		return WT_VERDICT_OK;
	if (j->pos_known && oj_can_adopt(j, &end->to) &&
	    !oj_adopt_instantiated(j, end_idx, &end->to))
		return WT_VERDICT_REJECTED;
	if (j->pos_known && (end->to.mnt != j->pos.mnt ||
			     end->to.dentry != j->pos.dentry)) {
		snprintf(a, sizeof(a), "mount %llu dentry %llu",
			 (unsigned long long)j->pos.mnt,
			 (unsigned long long)j->pos.dentry);
		return verdict_of(oj_reject(j, end_idx, "the steps leave the "
					    "walk on %s (a landing missing from the "
					    "record?)", a));
	}
	if (j->negative && j->r->entry != WT_ENTRY_PARENTAT)
		return verdict_of(oj_reject(j, end_idx, "succeeded, but the "
					    "last name it looked up was absent"));
	type = oj_inode_type(j, end->to.inode);
	if (type == WT_S_IFLNK && (oj_walk_flags(j) & LOOKUP_FOLLOW) &&
	    j->r->entry != WT_ENTRY_PARENTAT)
		return verdict_of(oj_reject(j, end_idx, "LOOKUP_FOLLOW, but "
					    "the result is a symlink"));
	if (type && type != WT_S_IFDIR &&
	    (j->r->entry == WT_ENTRY_PARENTAT ||
	     (oj_walk_flags(j) & LOOKUP_DIRECTORY) || trailing_slash(j)))
		return verdict_of(oj_reject(j, end_idx, "the result must be "
					    "a directory, and is not"));
	/*
	 * A scoped lookup hands out nothing that was outside its root when
	 * it finished (complete_walk's path_is_under): the result must be
	 * under the root at some instant after the walk's last step.  A
	 * rename that carried it out before that instant is an escape.
	 */
	if ((oj_walk_flags(j) & LOOKUP_IS_SCOPED) && j->root_known &&
	    !oj_at_some_instant(j, end_idx, end, holds_under_root,
				"a scoped result under its root"))
		return WT_VERDICT_REJECTED;
	return WT_VERDICT_OK;
}

/* Every link the walk followed, in every attempt: total_link_count is
 * not reset between attempts.  A failed attempt may have counted one
 * link it never read (the pick that failed). */
static unsigned links_counted(const struct oj *j)
{
	unsigned n = j->r->nattempts - 1;

	for (uint32_t i = 0; i < j->r->nsteps; i++) {
		const struct wt_step *s = &j->r->steps[i];

		if (s->kind == WT_STEP_LINK || s->kind == WT_STEP_AUTOMOUNT ||
		    (s->kind == WT_STEP_JUMP && s->arg == 1))
			n++;
	}
	return n;
}

/* A mount -o nosymfollow: pick_link refuses every link on it. */
static bool mount_nosymfollow(const struct oj *j, uint64_t mnt)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, mnt);

	return m && (m->mnt_flags & MNT_NOSYMFOLLOW);
}

/* __mnt_is_readonly over the facts: the mount, or its filesystem. */
static bool mount_readonly(const struct oj *j, uint64_t mnt)
{
	const struct wt_mount_fact *m = wt_ns_mount(j->ns, mnt);
	const struct wt_super_fact *sb = m ? wt_ns_super(j->ns, m->sb) : NULL;

	return m && ((m->mnt_flags & MNT_READONLY) || (sb && sb->rdonly));
}

/*
 * EROFS: only an open writes (a truncate, a write mode, a create), and
 * only a read-only mount or filesystem where it stands refuses it --
 * the last directory's mount for a create, the file's for the rest.
 */
static bool explain_erofs(const struct oj *j)
{
	if (j->r->entry != WT_ENTRY_OPEN && j->r->entry != WT_ENTRY_OPEN_ROOT)
		return false;
	return (j->pos_known && mount_readonly(j, j->pos.mnt)) ||
	       mount_readonly(j, j->dir.mnt);
}

static bool explain_eloop(struct oj *j)
{
	const struct wt_inode_fact *ino = wt_ns_inode(j->ns, j->pos.inode);
	bool at_link = j->pos_known && ino && WT_S_ISLNK(ino->mode);
	unsigned flags = oj_walk_flags(j);

	/* an inode a remote ->lookup made: the history does not know its
	 * type, so it may be the link a flag refuses */
	if (j->pos_known && !ino && j->pos.inode && oj_is_remote(j, &j->pos))
		return (flags & LOOKUP_NO_SYMLINKS) ||
		       mount_nosymfollow(j, j->pos.mnt) ||
		       ((j->r->entry == WT_ENTRY_OPEN ||
			 j->r->entry == WT_ENTRY_OPEN_ROOT) &&
			!(flags & LOOKUP_FOLLOW)) ||
		       links_counted(j) >= MAXSYMLINKS;
	if (!at_link)	/* traverse_mounts counts automounts too */
		return links_counted(j) >= MAXSYMLINKS;
	if (links_counted(j) >= MAXSYMLINKS)
		return true;
	if (flags & LOOKUP_NO_SYMLINKS)
		return true;
	if (mount_nosymfollow(j, j->pos.mnt))
		return true;
	/* RESOLVE_NO_MAGICLINKS: only once proc let the walker read the
	 * link's process (its EACCES comes first) */
	if ((flags & LOOKUP_NO_MAGICLINKS) && (ino->magic_mnt || ino->magic_dentry) &&
	    !wt_fact_may_read_task(j->cred, ino))
		return true;
	/* open of a trailing symlink it does not follow (O_NOFOLLOW) */
	return (j->r->entry == WT_ENTRY_OPEN || j->r->entry == WT_ENTRY_OPEN_ROOT) &&
	       !(flags & LOOKUP_FOLLOW);
}

/* The negative dentry the last lookup found is a symlink at t. */
static enum holds holds_neg_link(struct oj *j, const struct wt_step *s)
{
	const struct wt_inode_fact *ino = wt_ns_dentry_inode(j->ns,
							     j->neg.dentry);

	(void)s;
	if (ino && WT_S_ISLNK(ino->mode))
		return HOLDS;
	oj_why(j, "dentry %llu is not a symlink",
	       (unsigned long long)j->neg.dentry);
	return FAILS;
}

/*
 * ELOOP where the last lookup found a negative dentry: made a symlink
 * before step_into looked at it again, a link that RESOLVE_NO_SYMLINKS
 * (or open's O_NOFOLLOW) refuses -- pick_link answers ELOOP and the END
 * stands on the parent, so there is no landing to adopt.
 */
static bool explain_eloop_instantiated(struct oj *j, const struct wt_step *end,
				       int end_idx)
{
	unsigned flags = oj_walk_flags(j);
	bool refuses = (flags & LOOKUP_NO_SYMLINKS) ||
		       mount_nosymfollow(j, j->pos.mnt) ||
		       ((j->r->entry == WT_ENTRY_OPEN ||
			 j->r->entry == WT_ENTRY_OPEN_ROOT) &&
			!(flags & LOOKUP_FOLLOW));

	return refuses && oj_at_some_instant(j, end_idx, end, holds_neg_link,
				  "the negative dentry looked up became a "
				  "symlink");
}

/* Was a mount or rename step published inside the window?  (What moves
 * mount_lock / rename_lock against a scoped lookup's m_seq / r_seq.) */
static bool window_moved_locks(const struct oj *j)
{
	for (uint64_t v = j->start + 1; v <= j->end; v++) {
		const struct wt_hist_entry *e = wt_history_entry(j->o->h, v);

		if (!e)
			continue;
		if (e->op && (strstr(e->op, "rename") || strstr(e->op, "mv") ||
			      strstr(e->op, "exchange") || strstr(e->op, "mount")))
			return true;
		for (uint32_t i = 0; i < e->nfacts; i++)
			if (e->facts[i].kind == WT_FACT_MOUNT)
				return true;
	}
	return false;
}

/*
 * A scoped lookup's `..` answers EAGAIN when mount_lock or rename_lock
 * moved since path_init (handle_dots, after the step into the parent).
 * rename_lock moves only inside logged rename steps, but mount_lock also
 * moves where the history logs nothing -- a umount refused EBUSY, the
 * final mntput of a detached mount, __legitimize_mnt's slow path -- so a
 * window without a mount or rename step does not refute it, and one
 * with such a step does not prove it.  What is checked: the lookup is
 * scoped and EAGAIN came right after its `..` -- nowhere else.
 */
static bool explain_scoped_eagain(struct oj *j)
{
	return (oj_walk_flags(j) & LOOKUP_IS_SCOPED) && j->dotdot_last;
}

static bool explain_exdev(struct oj *j, const struct wt_step *last)
{
	unsigned flags = oj_walk_flags(j);
	int kind = last ? last->kind : -1;

	if (flags & LOOKUP_NO_XDEV) {
		/* a crossing, a jump to another mount, an automount point */
		if (kind == WT_STEP_MOUNT || kind == WT_STEP_MOUNT_UP ||
		    kind == WT_STEP_START || !last)
			return true;
		if (j->landing || kind == WT_STEP_LOOKUP || kind == WT_STEP_LINK ||
		    kind == WT_STEP_DOTDOT || kind == WT_STEP_PERMISSION)
			return true;
	}
	if (flags & LOOKUP_BENEATH) {
		/* an absolute name, `..` in_root, an absolute symlink */
		const char *name = j->in->name;

		if (!last || (name && name[0] == '/'))
			return true;
		if (j->pos_known &&
		    oj_dotdot_in_root(j, j->pos.mnt, j->pos.dentry))
			return true;
		if (kind == WT_STEP_LINK) {
			const char *body = wt_step_text(j->r, last);

			if (body && body[0] == '/')
				return true;
		}
	}
	/* a magic link in a scoped lookup; complete_walk's path_is_under
	 * after a concurrent rename or mount */
	if (flags & LOOKUP_IS_SCOPED)
		return kind == WT_STEP_LOOKUP || window_moved_locks(j);
	return false;
}

static bool explain_eacces(struct oj *j)
{
	const struct wt_inode_fact *ino = j->pos_known ?
		wt_ns_inode(j->ns, j->pos.inode) : NULL;

	if (j->last_perm >= 0 && j->last_perm_denied)
		return true;
	/* a magic link of a process the walker may not read: proc's
	 * get_link refuses it (no step records the refusal) */
	if (ino && WT_S_ISLNK(ino->mode) && (ino->magic_mnt || ino->magic_dentry) &&
	    wt_fact_may_read_task(j->cred, ino))
		return true;
	/* open's may_open and O_CREAT's write check are not recorded */
	if (j->r->entry == WT_ENTRY_OPEN || j->r->entry == WT_ENTRY_OPEN_ROOT)
		return true;
	/* protected_symlinks: a trailing link in a sticky world-writable dir */
	if (j->in->protected_symlinks && j->pos_known &&
	    oj_inode_type(j, j->pos.inode) == WT_S_IFLNK) {
		const struct wt_inode_fact *dir = wt_ns_inode(j->ns, j->dir.inode);

		return dir && (dir->mode & 01002) == 01002;
	}
	return false;
}

/*
 * What makes REF-walk answer ENOENT where the walk stands, at t: a `..`
 * that would leave a bind mount's subtree, or -- open only -- a
 * directory rmdir'ed since the walk reached it: lookup_open answers
 * ENOENT for a dead directory before it looks the last component up,
 * so no step records it.
 */
static enum holds holds_enoent_here(struct oj *j, const struct wt_step *s)
{
	const struct wt_inode_fact *dir;

	if (j->r->entry == WT_ENTRY_OPEN || j->r->entry == WT_ENTRY_OPEN_ROOT) {
		dir = wt_ns_inode(j->ns, j->pos.inode);
		if (dir && WT_S_ISDIR(dir->mode) && (dir->flags & S_DEAD))
			return HOLDS;
	}
	return holds_disconnected(j, s);
}

static bool explain_enoent(struct oj *j, const struct wt_step *end,
			   int end_idx, const struct wt_step *last)
{
	const char *name = j->in->name;

	if (j->negative)
		return true;
	if (name && !name[0])
		return true;
	/* finish_automount refused a trigger removed meanwhile */
	if (last && last->kind == WT_STEP_AUTOMOUNT && last->result == -ENOENT)
		return oj_at_some_instant(j, (int)(last - j->r->steps), last,
					  holds_automount_removed,
					  "the automount point removed");
	/* REF-walk's `..` that would leave a bind mount's subtree */
	if (j->pos_known && j->perm && end)
		return oj_at_some_instant(j, end_idx, end, holds_enoent_here,
					  "`..` out of the mount or a dead "
					  "directory");
	return false;
}

/*
 * EINVAL: finish_automount refused to attach under a mount that `umount
 * -l` took out of the namespace while the walker held it (do_add_mount's
 * test); the AUTOMOUNT step carries the refusal.
 */
static bool explain_einval(struct oj *j, const struct wt_step *last)
{
	if (!last || last->kind != WT_STEP_AUTOMOUNT || last->result != -EINVAL)
		return false;
	return oj_at_some_instant(j, (int)(last - j->r->steps), last,
				  holds_automount_detached,
				  "the automount point's mount detached");
}

static bool explain_estale(struct oj *j)
{
	if (j->estale_seen)
		return true;
	/* d_weak_revalidate or get_link on a remote object: no step */
	if (!j->pos_known)
		return true;
	return oj_is_remote(j, &j->pos) || oj_is_remote(j, &j->dir);
}

/*
 * EEXIST after lookup_open found the name absent.  With the directory's
 * i_rwsem held nothing on the client can make the name, so locally it
 * never happens; but a remote filesystem's ->create asks its server, and
 * the server may have got the name after the client trusted its negative
 * dentry (another client made it, or renamed something there, before
 * the cache heard of it).  lookup_open returns ->create's error as it
 * is, O_EXCL or not, so Linux answers EEXIST wherever the server's
 * create refuses an existing name (AFS's CreateFile; AFS has no
 * ->atomic_open), and the model's remote create does the same
 * (wt_op_create_in asks the server first).  So: accepted in a remote
 * directory, after lookup_open's own lookup, when the server held the
 * name there at some instant since that lookup.
 */
static bool explain_eexist_remote(struct oj *j)
{
	const struct wt_step *s;
	const char *name;

	j->why[0] = '\0';
	if (j->last_lookup < 0)
		return false;
	s = &j->r->steps[j->last_lookup];
	name = wt_step_text(j->r, s);
	if (s->arg != WT_LOOKUP_OPEN || !name || !oj_is_remote(j, &s->from))
		return false;
	return oj_server_may_hold(j, &s->from, name, s->text_len);
}

static const struct wt_step *last_judged(const struct oj *j, int end_idx)
{
	for (int i = end_idx - 1; i >= (int)j->a->first; i--) {
		const struct wt_step *s = &j->r->steps[i];

		if (s->validated && !oj_stays_put(s))
			return s;
	}
	return NULL;
}

static enum wt_verdict check_error(struct oj *j, const struct wt_step *end,
				   int end_idx, int err)
{
	const struct wt_step *last = last_judged(j, end_idx);
	const struct wt_ident *at;
	const char *name = j->in->name;
	int type;

	switch (-err) {
	case ENOENT:
		if (explain_enoent(j, end, end_idx, last))
			return WT_VERDICT_OK;
		if (j->res->verdict == WT_VERDICT_REJECTED)
			return WT_VERDICT_REJECTED;
		return verdict_of(oj_reject(j, end_idx, "ENOENT, but no step "
					    "found a name absent"));
	case ENOTDIR:
		/* the negative dentry the last lookup found, made positive
		 * (a file) before the walk looked at it again */
		if (end && j->pos_known && oj_can_adopt(j, &end->to) &&
		    !oj_adopt_instantiated(j, end_idx, &end->to))
			return WT_VERDICT_REJECTED;
		at = end && end->to.inode ? &end->to : &j->pos;
		type = oj_inode_type(j, at->inode);
		if (type && type != WT_S_IFDIR)
			return WT_VERDICT_OK;
		/*
		 * A remote client makes its own inodes when a lookup misses
		 * its cache; the history holds the server's objects, not
		 * them, so an unknown type there is no directory either.
		 */
		if (!type && oj_is_remote(j, at))
			return WT_VERDICT_OK;
		if (!last)	/* the dirfd or preset root: path_init */
			return WT_VERDICT_OK;
		return verdict_of(oj_reject(j, end_idx, "ENOTDIR, but the walk "
					    "stands on a directory"));
	case EACCES:
		return verdict_of(explain_eacces(j) ||
				  oj_reject(j, end_idx, "EACCES, but no exec "
					    "check was refused"));
	case ELOOP:
		if (explain_eloop(j))
			return WT_VERDICT_OK;
		if (end && j->neg_known && explain_eloop_instantiated(j, end,
								      end_idx))
			return WT_VERDICT_OK;
		if (j->res->verdict == WT_VERDICT_REJECTED)
			return WT_VERDICT_REJECTED;
		return verdict_of(explain_eloop(j) ||
				  oj_reject(j, end_idx, "ELOOP after %u links, "
					    "with no flag refusing a link",
					    links_counted(j)));
	case EXDEV:
		return verdict_of(explain_exdev(j, last) ||
				  oj_reject(j, end_idx, "EXDEV, but no scoping "
					    "flag refuses what the walk did"));
	case ENAMETOOLONG:
		if (name && oj_name_too_long(name, strlen(name)))
			return WT_VERDICT_OK;
		if (last && last->kind == WT_STEP_LOOKUP &&
		    last->result == -ENAMETOOLONG)
			return WT_VERDICT_OK;	/* holds_lookup checked the length */
		if (!name)
			return WT_VERDICT_OK;	/* a link body too long: unchecked */
		return verdict_of(oj_reject(j, end_idx, "ENAMETOOLONG, but "
					    "no component is too long"));
	case EAGAIN:
		if (oj_walk_flags(j) & LOOKUP_CACHED)
			return WT_VERDICT_OK;
		return verdict_of(explain_scoped_eagain(j) ||
				  oj_reject(j, end_idx, "EAGAIN without "
					    "RESOLVE_CACHED, and not right after a "
					    "scoped `..` (window v%llu..v%llu)",
					    (unsigned long long)j->start,
					    (unsigned long long)j->end));
	case ESTALE:
		return verdict_of(explain_estale(j) ||
				  oj_reject(j, end_idx, "ESTALE, but the "
					    "LOOKUP_REVAL attempt met nothing remote"));
	case EROFS:
		return verdict_of(explain_erofs(j) ||
				  oj_reject(j, end_idx, "EROFS, but the open "
					    "stands on a writable mount"));
	case EINVAL:
		if (explain_einval(j, last))
			return WT_VERDICT_OK;
		if (j->res->verdict == WT_VERDICT_REJECTED)
			return WT_VERDICT_REJECTED;
		return verdict_of(oj_reject(j, end_idx, "EINVAL, but no "
					    "automount met a detached mount"));
	case ENOMEM:	/* an injected allocation failure */
		return WT_VERDICT_OK;
	case EIO:
		/* a remote inode the client found bad: its permission check,
		 * lookup or create refused (a step, or the create, which
		 * records none, in the directory the walk stands in) */
		if ((last && last->result == -EIO && oj_is_remote(j, &last->to)) ||
		    (j->pos_known && oj_is_remote(j, &j->pos)))
			return WT_VERDICT_OK;
		return verdict_of(oj_reject(j, end_idx, "EIO, but the walk "
					    "stands on no remote filesystem"));
	case EEXIST:
		if (!j->negative || explain_eexist_remote(j))
			return WT_VERDICT_OK;
		return verdict_of(oj_reject(j, end_idx, "EEXIST, but the name "
					    "was absent%s%s", j->why[0] ? ": " : "",
					    j->why));
	case EISDIR:
		type = oj_inode_type(j, j->pos.inode);
		/* unknown on a remote client: its own inode (ENOTDIR above) */
		return verdict_of(type == WT_S_IFDIR ||
				  (!type && oj_is_remote(j, &j->pos)) ||
				  oj_reject(j, end_idx, "EISDIR on a non-directory"));
	}
	j->res->verdict = WT_VERDICT_NOT_JUDGED;
	snprintf(j->res->explain, sizeof(j->res->explain),
		 "the oracle does not judge errno %d", -err);
	return WT_VERDICT_NOT_JUDGED;
}

/* complete_walk's weak revalidation in the attempt, or NULL. */
static const struct wt_step *weak_step(const struct oj *j)
{
	const struct wt_step *w = NULL;

	for (uint32_t i = j->a->first; i < j->a->first + j->a->count; i++)
		if (j->r->steps[i].kind == WT_STEP_WEAK_REVALIDATE)
			w = &j->r->steps[i];
	return w;
}

/*
 * complete_walk passes the weak revalidation's answer on: above 0 the
 * walk goes on to its end, 0 (the result's handle is stale) is -ESTALE
 * -- the LOOKUP_REVAL retry, or the caller's answer after it -- and an
 * error is returned as it is.  No step of the walk shows otherwise that
 * the object was stale when it was revalidated: the history reads no
 * version there, so a server change late in the window (the object
 * deleted behind the client) leaves earlier instants at which every step
 * held and an `ok` looks right.  A walker that takes the 0 for valid
 * (`status >= 0`) answers `ok` exactly so; only this test sees it.
 */
static bool check_weak_revalidate(struct oj *j, const struct wt_step *w)
{
	int want;

	if (!w || w->result > 0)
		return true;
	want = w->result ? w->result : -ESTALE;
	if (j->a->result == want)
		return true;
	return oj_reject(j, (int)(w - j->r->steps), "complete_walk's "
			 "d_weak_revalidate of dentry %llu (mount %llu) "
			 "answered %d%s, so the attempt must answer %d, but "
			 "it answered %d%s", (unsigned long long)w->to.dentry,
			 (unsigned long long)w->to.mnt, w->result,
			 w->result ? "" : " (stale)", want, j->a->result,
			 j->a->result ? "" : " (ok)");
}

/*
 * ND_JUMPED at the end of the attempt, from its steps: path_init sets it
 * (START), and so do a `..` (DOTDOT, MOUNT_UP: link_path_walk sets it
 * for every `..`, the last one too), a mount crossing (MOUNT) and a jump
 * (JUMP); a normal component clears it when it is parsed, and each one
 * the walk goes on from leaves a LOOKUP.  `.` leaves no step and changes
 * nothing.
 */
static bool ends_jumped(const struct oj *j)
{
	bool jumped = false;

	for (uint32_t i = j->a->first; i < j->a->first + j->a->count; i++) {
		switch (j->r->steps[i].kind) {
		case WT_STEP_START:
		case WT_STEP_DOTDOT:
		case WT_STEP_MOUNT_UP:
		case WT_STEP_MOUNT:
		case WT_STEP_JUMP:
			jumped = true;
			break;
		case WT_STEP_LOOKUP:
		case WT_STEP_CREATE:
			jumped = false;
			break;
		}
	}
	return jumped;
}

/*
 * A successful walk that ended on a remote object it jumped to was
 * weakly revalidated: complete_walk asks the filesystem whether the
 * handle it holds still names something, since no lookup by name did.
 * Without that question a stale result is handed out as valid, and no
 * instant of the history shows it (see check_weak_revalidate).  Not
 * asked: filename_parentat's parent (its last component was parsed,
 * which clears ND_JUMPED, but never looked up), umount's walk
 * (LOOKUP_MOUNTPOINT clears it: a stale mountpoint is what it must
 * reach), a file the open created (do_open skips complete_walk), and a
 * negative result.
 */
static bool check_weak_revalidated(struct oj *j, const struct wt_step *w,
				   const struct wt_step *end, int end_idx)
{
	if (!end || j->a->result || !end->to.inode ||
	    j->r->entry == WT_ENTRY_PARENTAT ||
	    j->r->entry == WT_ENTRY_MOUNTPOINT ||
	    (oj_walk_flags(j) & LOOKUP_MOUNTPOINT) || w ||
	    !ends_jumped(j) || !oj_is_remote(j, &end->to))
		return true;
	return oj_reject(j, end_idx, "the walk jumped to dentry %llu (mount "
			 "%llu) on a remote filesystem, and complete_walk did "
			 "not weakly revalidate it",
			 (unsigned long long)end->to.dentry,
			 (unsigned long long)end->to.mnt);
}

enum wt_verdict oj_check_answer(struct oj *j, int end_idx)
{
	const struct wt_step *end = end_idx >= 0 ? &j->r->steps[end_idx] : NULL;
	const struct wt_step *w = weak_step(j);	/* both checks ask it */
	int err = j->a->result;

	if (end && end->result != err)
		return verdict_of(oj_reject(j, end_idx, "END says %d, the "
					    "attempt answered %d", end->result,
					    err));
	if (!check_weak_revalidate(j, w) ||
	    !check_weak_revalidated(j, w, end, end_idx))
		return WT_VERDICT_REJECTED;
	if (!err)
		return check_success(j, end, end_idx);
	return check_error(j, end, end_idx, err);
}

/* SPDX-License-Identifier: MIT */
/*
 * Writer operations: their effects, their kernel errors, and their
 * publication protocol (the seqcounts, writer steps and history steps of
 * each row of wt_op_table).
 */
#include <pthread.h>

#include "tests/ops_test.h"

#include "sim/bug.h"
#include "sim/fs/remote.h"
#include "sim/rcu.h"
#include "sim/vfs/mount.h"

static char *dump(struct wt_world *w)
{
	char *s = wt_world_dump_string(w);

	cr_assert_not_null(s);
	return s;
}

static bool listed(struct wt_world *w, const char *line_start)
{
	char *s = dump(w), *p = s;
	size_t n = strlen(line_start);
	bool found = false;

	for (; p && *p && !found; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		found = !strncmp(p, line_start, n);
	free(s);
	return found;
}

Test(ops, names_files_and_links)
{
	/* Each name verb changes the listing as the shell command would:
	 * checked on the canonical dump, so a verb that did nothing, or the
	 * wrong thing, shows. */
	struct wt_world *w = t_build("mkdir -p /a/b\ntouch /a/f\n");
	char *s;

	t_verb(w, "ln -s /a/f /a/l", 0);
	t_verb(w, "ln /a/f /a/h", 0);
	t_verb(w, "chmod 600 /a/l", 0);	/* follows: /a/f changes */
	t_verb(w, "chown 3:4 /a/h", 0);
	cr_assert(listed(w, "/a/l inode="));
	cr_assert(listed(w, "/a/f inode="));
	s = dump(w);
	cr_assert(strstr(s, "file 0600 3:4"));
	free(s);
	t_verb(w, "mv /a/f /a/b/g", 0);
	cr_assert_not(listed(w, "/a/f "));
	cr_assert(listed(w, "/a/b/g "));
	t_verb(w, "rm /a/h", 0);
	cr_assert_not(listed(w, "/a/h "));
	t_verb(w, "rm /a/b/g", 0);
	t_verb(w, "rmdir /a/b", 0);
	cr_assert_not(listed(w, "/a/b "));
	t_verb(w, "touch /a", 0);	/* touch of an existing name: kept */
	cr_assert(listed(w, "/a inode="));
	wt_ops_world_destroy(w);
}

Test(ops, name_errors)
{
	/* The kernel's errno for each refused name operation: EEXIST,
	 * ENOENT, ENOTDIR, EISDIR, ENOTEMPTY, EINVAL (into itself), EPERM,
	 * ELOOP -- each provoked once, so a missing check fails here. */
	struct wt_world *w = t_build("mkdir -p /a/b/c /d\ntouch /f\n"
				     "ln -s /loop /loop\n");

	t_verb(w, "mkdir /a", -EEXIST);
	t_verb(w, "mkdir /", -EEXIST);
	t_verb(w, "mkdir /x/y", -ENOENT);
	t_verb(w, "mkdir /f/y", -ENOTDIR);
	t_verb(w, "rm /a", -EISDIR);
	t_verb(w, "rm /nope", -ENOENT);
	t_verb(w, "rmdir /f", -ENOTDIR);
	t_verb(w, "rmdir /a", -ENOTEMPTY);
	t_verb(w, "rmdir /a/.", -EINVAL);
	t_verb(w, "rmdir /a/..", -ENOTEMPTY);
	t_verb(w, "rmdir /", -EBUSY);
	t_verb(w, "mv /a /a/b/c/x", -EINVAL);
	t_verb(w, "mv /d /a", -ENOTEMPTY);
	t_verb(w, "mv /f /a", -EISDIR);
	t_verb(w, "mv /d /f", -ENOTDIR);
	t_verb(w, "mv --noreplace /f /d", -EEXIST);
	t_verb(w, "mv --exchange /f /nope", -ENOENT);
	t_verb(w, "mv /nope /x", -ENOENT);
	t_verb(w, "ln /a /x", -EPERM);
	t_verb(w, "ln -s /f /f", -EEXIST);
	t_verb(w, "touch /loop/x", -ELOOP);
	t_verb(w, "touch /f/", -ENOTDIR);
	t_verb(w, "touch /new/", -EISDIR);
	t_verb(w, "chmod 644 /nope", -ENOENT);
	wt_ops_world_destroy(w);
}

Test(ops, rename_replaces_and_exchanges)
{
	/* A rename over an existing name replaces it (the old inode leaves
	 * the listing), an exchange swaps two names (both inodes stay), and
	 * a directory replaces an empty directory. */
	struct wt_world *w = t_build("mkdir -p /d1 /d2/e\ntouch /x /y\n");
	char *before = dump(w), *after;

	t_verb(w, "mv --exchange /x /d1", 0);
	after = dump(w);
	cr_assert(strstr(after, "/x inode=") && strstr(after, "/d1 inode="));
	cr_assert(listed(w, "/d1 inode=") && strstr(after, "file"));
	free(after);
	t_verb(w, "mv /y /d1", 0);	/* d1 is the file x now */
	cr_assert_not(listed(w, "/y "));
	t_verb(w, "mv /x /d2/e", 0);	/* an empty directory is replaced */
	cr_assert(listed(w, "/d2/e inode="));
	cr_assert_not(listed(w, "/x "));
	free(before);
	wt_ops_world_destroy(w);
}

Test(ops, mount_errors)
{
	/* Mount-tree operations refuse what the kernel refuses: EXDEV for a
	 * rename or link across mounts, EBUSY for rmdir/unlink/rename of a
	 * mountpoint and umount of a busy mount, EINVAL for umount or move
	 * of a non-mount-root, ELOOP for a move into itself, ENODEV for an
	 * unknown type. */
	struct wt_world *w = t_build("mkdir -p /m /n /k/sub\ntouch /f\n"
				     "mount -t tmpfs t /m\nmkdir /m/in\n"
				     "mount -t tmpfs c /m/in\n");

	t_verb(w, "mv /f /m/f", -EXDEV);
	t_verb(w, "ln /f /m/f", -EXDEV);
	t_verb(w, "rmdir /m", -EBUSY);
	t_verb(w, "mv /m /z", -EBUSY);
	t_verb(w, "umount /m", -EBUSY);		/* a child mount */
	t_verb(w, "umount /k", -EINVAL);
	t_verb(w, "umount /", -EBUSY);
	t_verb(w, "mount --move /k/sub /n", -EINVAL);
	t_verb(w, "mount --move /m /m/in/x", -ENOENT);
	t_verb(w, "mkdir /m/in/x", 0);
	t_verb(w, "mount --move /m /m/in/x", -ELOOP);
	cr_assert_eq(wt_op_mount(w, "nosuchfs", "x", "/n"), -ENODEV);
	t_verb(w, "umount /m/in", 0);
	t_verb(w, "umount /m", 0);
	t_verb(w, "umount /m", -EINVAL);	/* now /m is a plain directory */
	wt_ops_world_destroy(w);
}

Test(ops, mount_refuses_a_subtree_cut_off_above_it)
{
	/* d_set_mounted (Linux eed810076685): not only the mountpoint but
	 * every directory above it must still be hashed.  The writer's own
	 * lookup of /r/p/c invalidates the remote p the server made bad;
	 * the old c stays, pinned by process 42's cwd, and /proc/42/cwd
	 * still leads to it.  Every mount verb refuses it; the fresh c is
	 * fine.  With the zoo bug only the mountpoint is tested. */
	struct wt_world *w = t_build("mkdir /r /proc /src /mv\n"
				     "mount -t remote srv /r\nmkdir -p /r/p/c\n"
				     "mount -t proc p /proc\n"
				     "proc-task --cwd /r/p/c 42\n"
				     "mount -t tmpfs mv /mv\n");
	struct path old, fresh;

	cr_assert_eq(wt_resolve(w, "/proc/42/cwd", WT_RES_FOLLOW, &old), 0);
	t_verb(w, "remote-bad /r p", 0);
	cr_assert_eq(wt_resolve(w, "/r/p/c", 0, &fresh), 0);
	cr_assert_neq(fresh.dentry, old.dentry);
	cr_assert(d_unhashed(old.dentry->d_parent));
	cr_assert_not(d_unhashed(old.dentry));
	t_verb(w, "mount -t tmpfs t /proc/42/cwd", -ENOENT);
	t_verb(w, "mount --bind /src /proc/42/cwd", -ENOENT);
	t_verb(w, "mount --move /mv /proc/42/cwd", -ENOENT);
	t_verb(w, "mount -t tmpfs t /r/p/c", 0);
	w->cfg.bugs |= 1ull << WT_BUG_MOUNT_UNLINKED_ANCESTOR;
	t_verb(w, "mount -t tmpfs t /proc/42/cwd", 0);
	cr_assert(d_mountpoint(old.dentry));
	wt_path_put(&fresh);
	wt_path_put(&old);
	wt_ops_world_destroy(w);
}

Test(ops, bind_rbind_move)
{
	/* bind copies one mount, rbind the whole tree below SRC, move
	 * re-hangs a mount: checked on the mount lines of the listing. */
	struct wt_world *w = t_build("mkdir -p /a/m /b /c /d\n"
				     "mount -t tmpfs inner /a/m\ntouch /a/m/f\n");

	t_verb(w, "mount --bind /a /b", 0);
	cr_assert(listed(w, "mount /b plain rootfs"));
	cr_assert_not(listed(w, "/b/m/f "));	/* not recursive */
	t_verb(w, "mount --rbind /a /c", 0);
	cr_assert(listed(w, "mount /c/m tmpfs inner"));
	cr_assert(listed(w, "/c/m/f "));
	t_verb(w, "mount --move /c /d", 0);
	cr_assert(listed(w, "mount /d/m tmpfs inner"));
	cr_assert_not(listed(w, "mount /c "));
	wt_ops_world_destroy(w);
}

Test(ops, umount_sync_busy_then_final_put)
{
	/* Sync umount is EBUSY while someone holds a reference to the mount
	 * and succeeds once it is dropped; the umount's own put is then the
	 * final one (the MNT_SYNC_UMOUNT contract). */
	struct wt_world *w = t_build("mkdir /m\nmount -t tmpfs t /m\n");
	struct path p;

	cr_assert_eq(wt_resolve(w, "/m", WT_RES_FOLLOW, &p), 0);
	t_verb(w, "umount /m", -EBUSY);
	wt_path_put(&p);
	t_verb(w, "umount /m", 0);
	cr_assert_eq(wt_ops_sync_umount_not_final(w), 0);
	cr_assert_not(listed(w, "mount /m "));
	wt_ops_world_destroy(w);
}

Test(ops, umount_lazy_with_a_reference_held)
{
	/* Lazy umount succeeds while the mount is in use, marks the detached
	 * mounts MNT_UMOUNT but not MNT_SYNC_UMOUNT, and the holder's put
	 * is the one that frees it. */
	struct wt_world *w = t_build("mkdir /m\nmount -t tmpfs t /m\n"
				     "mkdir /m/x\nmount -t tmpfs u /m/x\n");
	struct path p;
	struct mount *m;
	int flags;

	cr_assert_eq(wt_resolve(w, "/m", WT_RES_FOLLOW, &p), 0);
	m = real_mount(p.mnt);
	t_verb(w, "umount -l /m", 0);
	flags = m->mnt.mnt_flags;
	cr_assert(flags & MNT_UMOUNT);
	cr_assert_not(flags & MNT_SYNC_UMOUNT);
	cr_assert_not(m->mnt_attached);
	cr_assert_not(listed(w, "mount /m"));
	dput(p.dentry);
	cr_assert(wt_mntput_final(p.mnt), "the last holder frees a lazy mount");
	wt_ops_world_destroy(w);
}

Test(ops, umount_lazy_of_a_tree_nobody_holds)
{
	/* A lazy umount of a tree whose mounts sit on each other's
	 * dentries, with no one else holding them: the mountpoint
	 * references all go before the mount references (namespace_unlock
	 * order), so no super_block dies with a dentry still held.  The
	 * interleaved order killed t0 while t1's mountpoint was held. */
	struct wt_world *w = t_build("mkdir /a /b\nmount --bind /b /a\n"
				     "mount -t tmpfs t0 /b\nmkdir /a/a\n"
				     "mount --move /b /a/a\nmkdir /a/a/l\n"
				     "mount -t tmpfs t1 /a/a/l\n");

	t_verb(w, "umount -l /a", 0);
	cr_assert_not(listed(w, "mount /a"));
	cr_assert(listed(w, "/b/a "));
	wt_ops_world_destroy(w);
}

Test(ops, mount_on_the_root_goes_on_top_of_its_stack)
{
	/* "/" resolves to the process root without crossing what is
	 * mounted on it, so a second mount on "/" must go on top of the
	 * first (do_lock_mount), never beside it: one child per (parent,
	 * mountpoint), which __lookup_mnt and the namespace snapshot rely
	 * on.  Checked for mount -t, --bind and --move. */
	struct wt_world *w = t_build("mkdir -p /a /c/x\ntouch /a/fa\n");
	struct mount *root = w->root_mnt, *m1, *m2, *m3;
	struct dentry *rd = root->mnt.mnt_root;

	t_verb(w, "mount --bind /a /", 0);
	m1 = __lookup_mnt(&root->mnt, rd);
	cr_assert_not_null(m1);
	t_verb(w, "mount -t tmpfs t /", 0);
	m2 = __lookup_mnt(&m1->mnt, m1->mnt.mnt_root);
	cr_assert_not_null(m2, "tmpfs went beside the bind, not on it");
	cr_assert_eq(__lookup_mnt(&root->mnt, rd), m1);
	t_verb(w, "mount -t tmpfs u /c", 0);
	t_verb(w, "mount --move /c /", 0);
	m3 = __lookup_mnt(&m2->mnt, m2->mnt.mnt_root);
	cr_assert_not_null(m3, "the moved mount is not on top");
	cr_assert_eq(m3->mnt_parent, m2);
	cr_assert_eq(__lookup_mnt(&m1->mnt, m1->mnt.mnt_root), m2);
	wt_ops_world_destroy(w);
}

/*
 * The writer-side answers once found to differ from the kernel's (the
 * kernel comparison's directed cases check them against a real kernel
 * when run as root; these hold without one): umount of "/" under a
 * mount on the root takes that mount (LOOKUP_MOUNTPOINT), link's order
 * (EEXIST before EXDEV before a directory's EPERM), an empty symlink
 * target, creating in proc, a name over 255 bytes.
 */
Test(ops, kernel_differences_fixed)
{
	struct wt_world *w = t_build("mkdir -p /a /d /m /p\ntouch /f\n"
				     "mount -t tmpfs t /m\ntouch /m/y\n"
				     "mount -t proc p /p\n");
	char verb[400];

	t_verb(w, "umount /", -EBUSY);		/* the namespace root stays */
	t_verb(w, "mount -t tmpfs t0 /", 0);
	t_verb(w, "mount -t tmpfs t1 /", 0);
	t_verb(w, "umount /", 0);		/* t1 */
	t_verb(w, "umount -l /", 0);		/* t0 */
	t_verb(w, "umount /", -EBUSY);
	t_verb(w, "ln /d /f", -EEXIST);
	t_verb(w, "ln /f /m/y", -EEXIST);
	t_verb(w, "ln /d /m/x", -EXDEV);
	t_verb(w, "ln /d /g", -EPERM);
	t_verb(w, "ln -s '' /e", -ENOENT);
	t_verb(w, "ln -s '' /f", -ENOENT);	/* before the name's EEXIST */
	t_verb(w, "mkdir /p/x", -ENOENT);
	t_verb(w, "touch /p/y", -ENOENT);
	t_verb(w, "ln -s /a /p/z", -ENOENT);
	t_verb(w, "ln /f /p/w", -ENOENT);
	snprintf(verb, sizeof(verb), "mkdir /a/%0300d", 0);
	t_verb(w, verb, -ENAMETOOLONG);
	snprintf(verb, sizeof(verb), "mkdir /p/%0300d", 0);
	t_verb(w, verb, -ENOENT);
	wt_ops_world_destroy(w);
}

/* ------------------------------------------------------------------ */
/* the publication protocol                                             */

struct seq_case {
	enum wt_op op;
	const char *tree;
	const char *verb;
	const char *created;	/* paths of the predicted dentries */
	const char *victim;
	const char *moved;
	const char *target;
	const char *prep;	/* run before, to leave a negative dentry */
};

static const struct seq_case seq_cases[] = {
	{ WT_OP_MKDIR, "mkdir /a", "mkdir /a/d", .created = "/a/d" },
	{ WT_OP_MKDIR, "mkdir /a\ntouch /a/d", "mkdir /a/d", .created = "/a/d",
	  .prep = "rm /a/d" },
	{ WT_OP_CREATE, "mkdir /a\ntouch /a/f", "touch /a/f", .created = "/a/f",
	  .prep = "rm /a/f" },
	{ WT_OP_SYMLINK, "mkdir /a", "ln -s /x /a/l", .created = "/a/l" },
	{ WT_OP_LINK, "mkdir /a\ntouch /a/f\ntouch /a/g", "ln /a/f /a/g",
	  .created = "/a/g", .prep = "rm /a/g" },
	{ WT_OP_UNLINK, "mkdir /a\ntouch /a/f", "rm /a/f", .victim = "/a/f" },
	{ WT_OP_RMDIR, "mkdir -p /a/d", "rmdir /a/d", .victim = "/a/d" },
	{ WT_OP_RENAME, "mkdir /a /b\ntouch /a/f", "mv /a/f /b/g", .moved = "/a/f" },
	{ WT_OP_RENAME, "mkdir /a /b\ntouch /a/f /b/g", "mv /a/f /b/g",
	  .moved = "/a/f", .target = "/b/g" },
	{ WT_OP_RENAME, "mkdir /a /b\ntouch /a/f /b/g", "mv /a/f /b/g",
	  .moved = "/a/f", .target = "/b/g", .prep = "rm /b/g" },
	{ WT_OP_RENAME, "mkdir -p /a/d /b/e", "mv /a/d /b/e",
	  .moved = "/a/d", .target = "/b/e" },
	{ WT_OP_RENAME_EXCHANGE, "mkdir /a /b\ntouch /a/f /b/g",
	  "mv --exchange /a/f /b/g", .moved = "/a/f", .target = "/b/g" },
	{ WT_OP_CHMOD, "touch /f", "chmod 700 /f", .prep = NULL },
	{ WT_OP_CHOWN, "touch /f", "chown 1:2 /f", .prep = NULL },
	{ WT_OP_MOUNT, "mkdir /m", "mount -t tmpfs t /m", .prep = NULL },
	{ WT_OP_BIND, "mkdir /a /b", "mount --bind /a /b", .prep = NULL },
	{ WT_OP_RBIND, "mkdir -p /a/m /b\nmount -t tmpfs t /a/m",
	  "mount --rbind /a /b", .prep = NULL },
	{ WT_OP_MOVE_MOUNT, "mkdir /a /b\nmount -t tmpfs t /a", "mount --move /a /b", .prep = NULL },
	{ WT_OP_UMOUNT, "mkdir /m\nmount -t tmpfs t /m\nmkdir /m/x", "umount /m", .prep = NULL },
	{ WT_OP_UMOUNT_LAZY, "mkdir /m\nmount -t tmpfs t /m\nmkdir /m/x\n"
	  "mount -t tmpfs u /m/x", "umount -l /m", .prep = NULL },
	{ WT_OP_SHRINK, "mkdir /a", "shrink", .prep = NULL },
	{ WT_OP_PROC_MAGIC, "mkdir /p /t\nmount -t proc proc /p",
	  "proc-magic /p fd /t", .created = "/p/fd" },
	{ WT_OP_REMOTE, "mkdir /r\nmount -t remote srv /r\ntouch /r/f",
	  "remote-mv /r f g", .prep = NULL },
	{ WT_OP_REMOTE_BAD, "mkdir /r\nmount -t remote srv /r\ntouch /r/f",
	  "remote-bad /r f", .prep = NULL },
	{ WT_OP_REMOTE_LAYER, "mkdir /r\nmount -t remote srv /r",
	  "remote-layer /r on", .prep = NULL },
	{ WT_OP_TOUCH_NOFOLLOW, "touch /f\nln -s /f /l", "touch -h /l", .prep = NULL },
	{ WT_OP_REMOUNT, "mkdir /m\nmount -t tmpfs t /m", "mount -o remount,ro /m", .prep = NULL },
};

#define N_SEQ_CASES (sizeof(seq_cases) / sizeof(seq_cases[0]))

struct held {
	struct dentry *d[8];
	unsigned role[8];
	unsigned n;
};

static void hold(struct held *h, struct wt_world *w, const char *path,
		 unsigned role)
{
	struct dentry *d = path ? t_cached(w, path) : NULL;

	if (!d)
		return;
	h->d[h->n] = d;
	h->role[h->n++] = role;
}

/* The ids the row predicts for this case's concrete arguments. */
static size_t predicted(const struct held *h, unsigned seqs, uint64_t *out)
{
	size_t n = 0;

	for (unsigned i = 0; i < h->n; i++)
		if (seqs & h->role[i])
			out[n++] = h->d[i]->wt.id;
	return n;
}

static bool id_in(uint64_t id, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

static void check_seqs(const struct seq_case *c, const struct t_seqsnap *a,
		       const struct t_seqsnap *b, const struct held *h)
{
	const struct wt_op_row *row = wt_op_row(c->op);
	uint64_t changed[4096], want[8];
	size_t nc = t_seq_changed(a, b, changed), nw = predicted(h, row->seqs, want);

	for (size_t i = 0; i < nc; i++)
		cr_expect(id_in(changed[i], want, nw), "%s: dentry %llu's d_seq"
			  " moved, the row does not say so", c->verb,
			  (unsigned long long)changed[i]);
	for (size_t i = 0; i < nw; i++)
		cr_expect(id_in(want[i], changed, nc), "%s: dentry %llu's d_seq"
			  " did not move", c->verb, (unsigned long long)want[i]);
	cr_expect_eq(a->mount_lock != b->mount_lock,
		     !!(row->seqs & WT_SEQ_MOUNT_LOCK), "%s: mount_lock", c->verb);
	cr_expect_eq(a->rename_lock != b->rename_lock,
		     !!(row->seqs & WT_SEQ_RENAME_LOCK), "%s: rename_lock", c->verb);
}

/* The recorded writer steps match the row: "x*" groups repeat >= 1
 * times together, "x?" may be absent. */
static bool steps_match(const char *const *pat, const char *const *got,
			unsigned n)
{
	unsigned i = 0, k = 0;

	while (k < WT_OP_MAX_STORES && pat[k]) {
		size_t len = strlen(pat[k]);
		char last = pat[k][len - 1];
		unsigned g = k, reps = 0;

		if (last == '?') {
			if (i < n && !strncmp(got[i], pat[k], len - 1) && !got[i][len - 1])
				i++;
			k++;
			continue;
		}
		if (last != '*') {
			if (i >= n || strcmp(got[i], pat[k]))
				return false;
			i++;
			k++;
			continue;
		}
		while (g < WT_OP_MAX_STORES && pat[g] && pat[g][strlen(pat[g]) - 1] == '*')
			g++;
		for (;; reps++) {	/* the group, as often as it matches */
			unsigned j = i, q;

			for (q = k; q < g; q++, j++)
				if (j >= n || strncmp(got[j], pat[q], strlen(pat[q]) - 1) ||
				    got[j][strlen(pat[q]) - 1])
					break;
			if (q < g)
				break;
			i = j;
		}
		if (!reps)
			return false;
		k = g;
	}
	return i == n;
}

static void check_steps(const struct seq_case *c, const struct t_recorder *r,
			struct wt_world *w, uint64_t v0)
{
	const struct wt_op_row *row = wt_op_row(c->op);
	uint64_t v1 = wt_history_version(w->history);
	unsigned k = 0;

	cr_expect(steps_match(row->stores, r->steps, r->n),
		  "%s: writer steps differ from the row (first: %s, %u in all)",
		  c->verb, r->n ? r->steps[0] : "none", r->n);
	for (uint64_t v = v0 + 1; v <= v1; v++, k++) {
		const struct wt_hist_entry *e = wt_history_entry(w->history, v);

		cr_assert_lt(k, WT_OP_MAX_STEPS);
		cr_expect(!strcmp(e->step, row->publish[k] ? row->publish[k] : ""),
			  "%s: history step %u is %s", c->verb, k, e->step);
	}
	cr_expect(k == WT_OP_MAX_STEPS || !row->publish[k],
		  "%s: %u history steps, the row has more", c->verb, k);
}

static void run_seq_case(const struct seq_case *c)
{
	struct wt_world *w = t_build(c->tree);
	struct t_seqsnap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct t_recorder r;
	struct held h = { 0 };
	uint64_t v0;

	if (c->prep)
		t_verb(w, c->prep, 0);
	/* Held references keep the predicted dentries alive after the op
	 * (a replaced target dies at the op's dput otherwise). */
	hold(&h, w, c->created, WT_SEQ_CREATED_DENTRY);
	hold(&h, w, c->victim, WT_SEQ_VICTIM_DENTRY);
	hold(&h, w, c->moved, WT_SEQ_MOVED_DENTRY);
	hold(&h, w, c->target, WT_SEQ_TARGET_DENTRY);
	t_seqsnap(w, a);
	v0 = wt_history_version(w->history);
	t_rec_start(&r);
	t_verb(w, c->verb, 0);
	t_rec_stop(&r);
	t_seqsnap(w, b);
	check_seqs(c, a, b, &h);
	check_steps(c, &r, w, v0);
	for (unsigned i = 0; i < h.n; i++)
		dput(h.d[i]);
	free(a);
	free(b);
	wt_ops_world_destroy(w);
}

Test(ops_protocol, every_row_bumps_exactly_its_seqcounts)
{
	/* For each operation of the table (several argument shapes for
	 * rename), snapshot every dentry's d_seq and both seqlocks around
	 * the operation and compare the set that moved with what the row
	 * predicts for these arguments: an operation that bumps a parent,
	 * or everything, or too little, fails.  The same run checks the
	 * writer steps hit and the history steps published, in order. */
	bool covered[WT_OP__COUNT] = { false };

	for (size_t i = 0; i < N_SEQ_CASES; i++) {
		run_seq_case(&seq_cases[i]);
		covered[seq_cases[i].op] = true;
	}
	for (unsigned op = 0; op < WT_OP__COUNT; op++)
		/* WT_OP_OPEN_CREATE is no verb: tests/test_open_create.c
		 * checks its row against a walker's open(O_CREAT) */
		if (op != WT_OP_ACL_UNCACHE && op != WT_OP_AUTOFS_BUSY &&
		    op != WT_OP_OPEN_CREATE)
			cr_expect(covered[op], "row %s has no case", wt_op_table[op].name);
}

Test(ops_protocol, shrink_invalidates_only_what_it_kills)
{
	/* shrink kills unused dentries: the negative one a failed lookup
	 * left goes, the pinned positive tmpfs names stay with their d_seq
	 * untouched. */
	struct wt_world *w = t_build("mkdir /a\ntouch /a/f\n");
	struct t_seqsnap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct dentry *neg;
	uint64_t gone[4096], changed[4096], neg_id;

	t_verb(w, "rm /a/f", 0);	/* leaves a negative dentry */
	neg = t_cached(w, "/a/f");
	cr_assert_not_null(neg);
	neg_id = neg->wt.id;
	dput(neg);
	t_seqsnap(w, a);
	t_verb(w, "shrink", 0);
	t_seqsnap(w, b);
	cr_expect_eq(t_seq_changed(a, b, changed), 0);
	cr_expect_eq(t_seq_gone(a, b, gone), 1);
	cr_expect_eq(gone[0], neg_id);
	free(a);
	free(b);
	wt_ops_world_destroy(w);
}

Test(ops_protocol, table_is_complete)
{
	/* Every row names its verb, its locks, and its publication steps in
	 * the order the history logs them; rows are indexed by their op. */
	for (unsigned op = 0; op < WT_OP__COUNT; op++) {
		const struct wt_op_row *row = wt_op_row(op);

		cr_assert_eq(row->op, op);
		cr_assert_not_null(row->name);
		cr_assert_not_null(row->locks[0], "%s", row->name);
		cr_assert_eq(wt_op_row_by_name(row->name), row);
	}
	cr_assert_null(wt_op_row(WT_OP__COUNT));
}

Test(ops, origins_name_the_creating_path)
{
	/* The creating path of an inode is the one its command used: mkdir
	 * -p names every prefix, a hard link keeps the first name, a
	 * mount -t root is fsroot:PATH, the namespace root is "/". */
	struct wt_world *w = t_build("mkdir -p //a/b/\ntouch /a/f\nln /a/f /a/g\n"
				     "mkdir /m\nmount -t tmpfs t /m\n");
	struct path p;

	cr_assert_eq(wt_resolve(w, "/a/b", 0, &p), 0);
	cr_assert_str_eq(wt_inode_origin(w, d_inode(p.dentry)->wt.id), "/a/b");
	wt_path_put(&p);
	cr_assert_eq(wt_resolve(w, "/a/g", 0, &p), 0);
	cr_assert_str_eq(wt_inode_origin(w, d_inode(p.dentry)->wt.id), "/a/f");
	wt_path_put(&p);
	cr_assert_eq(wt_resolve(w, "/m", 0, &p), 0);
	cr_assert_str_eq(wt_inode_origin(w, d_inode(p.dentry)->wt.id), "fsroot:/m");
	wt_path_put(&p);
	cr_assert_eq(wt_resolve(w, "/", 0, &p), 0);
	cr_assert_str_eq(wt_inode_origin(w, d_inode(p.dentry)->wt.id), "/");
	wt_path_put(&p);
	wt_ops_world_destroy(w);
}

Test(ops, resolver_dots_links_and_mount_roots)
{
	/* The writers' resolver: `..` from a mount root goes to the
	 * mountpoint's parent, `..` at / stays, relative and absolute links
	 * are followed in the middle, a trailing slash demands a directory. */
	struct wt_world *w = t_build("mkdir -p /a/m /b\nmount -t tmpfs t /a/m\n"
				     "mkdir /a/m/x\nln -s ../../../b /a/m/x/up\n"
				     "ln -s /a/m /lm\ntouch /f\n");
	struct path p, q;

	cr_assert_eq(wt_resolve(w, "/a/m/x/../../../b", 0, &p), 0);
	cr_assert_eq(wt_resolve(w, "/b", 0, &q), 0);
	cr_assert(path_equal(&p, &q));
	wt_path_put(&p);
	cr_assert_eq(wt_resolve(w, "/../../b/.", 0, &p), 0);
	cr_assert(path_equal(&p, &q));
	wt_path_put(&p);
	cr_assert_eq(wt_resolve(w, "/lm/x/up/", 0, &p), 0);
	cr_assert_eq(p.dentry, q.dentry, "relative link from inside a mount");
	wt_path_put(&p);
	wt_path_put(&q);
	cr_assert_eq(wt_resolve(w, "/f/", 0, &p), -ENOTDIR);
	wt_ops_world_destroy(w);
}

Test(ops, remote_server_changes_reach_the_client_on_lookup)
{
	/* A server-side change is invisible to the client's dcache until a
	 * lookup asks the server: a symlink the server made (TARGET PATH,
	 * as ln -s) is then found at PATH, and a server rename moves a name
	 * the client had never cached. */
	struct wt_world *w = t_build("mkdir /r\nmount -t remote srv /r\n");
	struct path p;

	t_verb(w, "remote-symlink /r /elsewhere l", 0);
	cr_assert_eq(wt_resolve(w, "/r/l", 0, &p), 0);
	cr_assert(d_is_symlink(p.dentry));
	wt_path_put(&p);
	t_verb(w, "remote-create /r f", 0);
	t_verb(w, "remote-mv /r f g", 0);
	cr_assert_eq(wt_resolve(w, "/r/g", 0, &p), 0);
	wt_path_put(&p);
	cr_assert_eq(wt_resolve(w, "/r/f", 0, &p), -ENOENT);
	t_verb(w, "remote-rm /r nope", -ENOENT);
	wt_ops_world_destroy(w);
}

/*
 * A remote server's journal is appended to by whoever changes the
 * server -- a writer's step, or a walker's open(O_CREAT), which holds
 * the directory's i_rwsem and the server's lock but not the writer
 * mutex -- and taken by a writer's commit, which holds neither.  Both at
 * once, as in stress mode: every line is taken once and whole.  Without
 * the journal's own lock a take could empty the text under an append,
 * or read a buffer an append had moved and poisoned (and TSan reports
 * the race).
 */
#define JOURNAL_RACE_NODES 500
#define JOURNAL_RACE_ROUNDS 8

struct journal_race {
	struct super_block *sb;
	unsigned made;		/* the appender's, read after the join */
	unsigned deleted;	/* "-H" lines taken */
	bool done;		/* relaxed: no order between the threads */
};

static void *journal_race_append(void *arg)
{
	struct journal_race *jr = arg;
	char name[32];

	for (unsigned r = 0; r < JOURNAL_RACE_ROUNDS; r++) {
		for (unsigned i = 0; i < JOURNAL_RACE_NODES; i++) {
			snprintf(name, sizeof(name), "n%u", i);
			jr->made += wt_remote_server_create(jr->sb, name,
						WT_S_IFREG | 0644) == 0;
		}
		for (unsigned i = 0; i < JOURNAL_RACE_NODES; i++) {
			snprintf(name, sizeof(name), "n%u", i);
			jr->made += wt_remote_server_unlink(jr->sb, name) == 0;
		}
	}
	__atomic_store_n(&jr->done, true, __ATOMIC_RELAXED);
	return NULL;
}

/* Each line of text "+H P LEN nI" (count I in seen) or "-H" (count it in
 * jr->deleted); false on any other. */
static bool journal_race_lines(struct journal_race *jr, const char *text,
			       unsigned char *seen)
{
	const char *p = text, *end;
	unsigned long long h, parent;
	unsigned len, i;
	int k;

	for (; p && *p; p = end + 1) {
		end = strchr(p, '\n');
		if (end && sscanf(p, "-%llu%n", &h, &k) == 1 && p + k == end) {
			jr->deleted++;
			continue;
		}
		if (!end || sscanf(p, "+%llu %llu %u n%u%n", &h, &parent, &len,
				   &i, &k) != 4 || p + k != end ||
		    i >= JOURNAL_RACE_NODES || seen[i]++ == JOURNAL_RACE_ROUNDS)
			return false;
	}
	return true;
}

Test(ops, a_remote_journal_taken_while_appended_loses_no_line)
{
	struct wt_world *w = t_build("mkdir /r\nmount -t remote srv /r\n");
	static unsigned char seen[JOURNAL_RACE_NODES];
	struct journal_race jr = { 0 };
	bool whole = true;
	pthread_t t;
	struct path r;
	char *text;

	cr_assert_eq(wt_resolve(w, "/r", WT_RES_FOLLOW, &r), 0);
	jr.sb = r.dentry->d_sb;
	wt_path_put(&r);
	free(wt_remote_server_take(jr.sb, false, UINT64_MAX)); /* the build's */
	cr_assert_eq(pthread_create(&t, NULL, journal_race_append, &jr), 0);
	while (!__atomic_load_n(&jr.done, __ATOMIC_RELAXED)) {
		text = wt_remote_server_take(jr.sb, false, UINT64_MAX);
		whole &= journal_race_lines(&jr, text, seen);
		free(text);
	}
	cr_assert_eq(pthread_join(t, NULL), 0);
	text = wt_remote_server_take(jr.sb, false, UINT64_MAX);
	whole &= journal_race_lines(&jr, text, seen);
	free(text);
	cr_assert_eq(jr.made, 2 * JOURNAL_RACE_NODES * JOURNAL_RACE_ROUNDS);
	cr_assert(whole, "a line taken too often, cut or not the appender's");
	cr_assert_eq(jr.deleted, JOURNAL_RACE_NODES * JOURNAL_RACE_ROUNDS);
	for (unsigned i = 0; i < JOURNAL_RACE_NODES; i++)
		cr_assert_eq(seen[i], JOURNAL_RACE_ROUNDS, "n%u taken %u times",
			     i, seen[i]);
	wt_ops_world_destroy(w);
}

/* ---- a world built in a retired world's storage (issue 19) ---- */

static const char retire_tree[] =
	"mkdir -p /a/b /m\n"
	"touch /a/a_name_longer_than_the_inline_buffer_of_a_dentry\n"
	"ln -s a/b /l\n"
	"mount -t tmpfs t /m\n"
	"mkdir -p /m/d\n";

static void retire_config(struct wt_world_config *cfg, uint64_t seed,
			  uint32_t buckets, bool arena)
{
	wt_world_config_default(cfg);
	cfg->seed = seed;
	cfg->dcache_buckets = buckets;
	cfg->arena = arena;
}

static struct wt_world *retire_build_in(uint64_t seed, uint32_t buckets,
					struct wt_world *spare, bool arena)
{
	struct wt_world_config cfg;
	struct wt_world *w;
	struct wt_verb_error e;

	retire_config(&cfg, seed, buckets, arena);
	w = wt_world_create_from(&cfg, spare);
	cr_assert_not_null(w);
	cr_assert_eq(wt_ops_init(w), 0);
	if (wt_tree_build_string(w, retire_tree, "test", &e)) {
		wt_verb_error_print(&e, stderr);
		cr_assert_fail("tree did not build");
	}
	return w;
}

static struct wt_world *retire_build(uint64_t seed, uint32_t buckets,
				     struct wt_world *spare)
{
	return retire_build_in(seed, buckets, spare, false);
}

/* The same objects in the same order, with the same seeded seqs. */
static void retire_same_seqs(struct wt_world *a, struct wt_world *b)
{
	struct dentry *x = a->dentries, *y = b->dentries;

	cr_assert_eq(a->mount_lock.seqcount.sequence,
		     b->mount_lock.seqcount.sequence);
	cr_assert_eq(a->rename_lock.seqcount.sequence,
		     b->rename_lock.seqcount.sequence);
	for (; x && y; x = x->d_all_next, y = y->d_all_next) {
		cr_assert_eq(x->wt.id, y->wt.id);
		cr_assert_eq(x->d_seq.sequence, y->d_seq.sequence,
			     "dentry %llu", (unsigned long long)x->wt.id);
	}
	cr_assert(!x && !y, "not as many dentries");
}

/*
 * wt_world_retire keeps a world's storage (struct, hash tables, RCU
 * domain and quarantine ring) and wt_world_create_from builds the next
 * world in it: after a world that renamed an external name, removed a
 * file and unmounted (objects deferred, poisoned, quarantined), the
 * retired domain holds nothing and counts nothing, and the next world
 * -- another seed -- is the world a fresh build of that seed gives:
 * the same namespace, the same ids and seeded d_seq and lock values.
 * A spare of another size is replaced by storage of the asked size.
 */
Test(ops, a_world_built_in_a_retired_one_is_a_fresh_world)
{
	struct wt_world *w = retire_build(7, 64, NULL), *fresh, *spare;
	struct wt_rcu_stats st;
	char *a, *b;

	t_verb(w, "mv /a/a_name_longer_than_the_inline_buffer_of_a_dentry "
	       "/a/another_name_longer_than_the_inline_buffer", 0);
	t_verb(w, "rm /a/another_name_longer_than_the_inline_buffer", 0);
	t_verb(w, "umount /m", 0);
	wt_rcu_stats(w->rcu, &st);
	cr_assert_gt(st.poisoned, 0, "nothing was freed: proves nothing");
	wt_ops_fini(w);
	spare = wt_world_retire(w);
	cr_assert_null(spare->dentries);
	cr_assert_null(spare->mounts);
	wt_rcu_stats(spare->rcu, &st);
	cr_assert(!st.deferred && !st.poisoned && !st.released &&
		  !st.grace_periods);

	w = retire_build(9, 64, spare);
	cr_assert_eq(w, spare, "the storage was not reused");
	fresh = retire_build(9, 64, NULL);
	a = dump(w);
	b = dump(fresh);
	cr_assert_str_eq(a, b);
	retire_same_seqs(w, fresh);
	free(a);
	free(b);
	wt_ops_world_destroy(fresh);

	wt_ops_fini(w);
	spare = wt_world_retire(w);
	w = retire_build(9, 1, spare);
	cr_assert_eq(w->cfg.dcache_buckets, 1);
	fresh = retire_build(9, 1, NULL);
	retire_same_seqs(w, fresh);
	wt_ops_world_destroy(fresh);
	wt_ops_world_destroy(w);
}

/* ---- a world restored from its snapshot (issue 19) ---- */

static char *history_text(const struct wt_history *h)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	wt_history_print(h, f, true);
	fclose(f);
	return text;
}

/* What an iteration does to the tree: frees (an external name, a file,
 * a mount), allocates (a directory, a long name, a remote filesystem
 * whose server and nodes come after the snapshot: the restore must drop
 * them, ASan's leak check says whether it did) and logs. */
static void snapshot_iteration(struct wt_world *w)
{
	t_verb(w, "mkdir /r", 0);
	t_verb(w, "mount -t remote srv /r", 0);
	t_verb(w, "mkdir -p /r/x/y", 0);
	t_verb(w, "mv /a/a_name_longer_than_the_inline_buffer_of_a_dentry "
	       "/a/another_name_longer_than_the_inline_buffer", 0);
	t_verb(w, "rm /a/another_name_longer_than_the_inline_buffer", 0);
	t_verb(w, "umount /m", 0);
	t_verb(w, "mkdir /a/b/a_new_directory_with_a_long_name_too", 0);
	t_verb(w, "mv /a/b /a/c", 0);
}

/*
 * wt_world_snapshot copies an arena world once its tree is built (the
 * log marked); after an iteration that freed, allocated and logged, the
 * log rewound and the world retired, wt_world_restore under another
 * seed gives the world a fresh build of that seed gives -- namespace,
 * ids, seeded d_seq and lock values, the next id -- and the log at its
 * mark, entry for entry.  Three rounds: a restored world restores again.
 */
Test(ops, a_world_restored_from_its_snapshot_is_a_fresh_world)
{
	struct wt_world *w = retire_build_in(7, 64, NULL, true), *fresh;
	struct wt_world_config cfg;
	struct wt_history *h;
	char *marked, *a, *b;

	cr_assert_not_null(w->arena.base, "no arena: proves nothing");
	cr_assert_eq(wt_world_snapshot(w), 0);
	wt_history_mark(w->history);
	marked = history_text(w->history);
	for (uint64_t seed = 9; seed < 12; seed++) {
		snapshot_iteration(w);
		h = wt_ops_fini_rewind(w);
		cr_assert_eq(wt_world_retire(w), w);
		retire_config(&cfg, seed, 64, true);
		cr_assert_eq(wt_world_restore(&cfg, w), w);
		cr_assert_eq(w->history, h);
		fresh = retire_build(seed, 64, NULL);
		a = dump(w);
		b = dump(fresh);
		cr_assert_str_eq(a, b);
		retire_same_seqs(w, fresh);
		cr_assert_eq(w->next_id, fresh->next_id);
		free(a);
		free(b);
		a = history_text(w->history);
		cr_assert_str_eq(a, marked);
		free(a);
		wt_ops_world_destroy(fresh);
	}
	free(marked);
	/* the same world but for the seed: another config is not restored */
	snapshot_iteration(w);
	wt_ops_fini_rewind(w);
	wt_world_retire(w);
	retire_config(&cfg, 9, 1, true);
	cr_assert_null(wt_world_restore(&cfg, w));
	retire_config(&cfg, 9, 64, true);
	cfg.bugs = 1;
	cr_assert_null(wt_world_restore(&cfg, w));
	cfg.bugs = 0;
	cr_assert_eq(wt_world_restore(&cfg, w), w);
	wt_ops_world_destroy(w);
}

/* A world without an arena takes no snapshot: its objects are not in
 * one range to copy. */
Test(ops, a_world_without_an_arena_takes_no_snapshot)
{
	struct wt_world *w = retire_build(7, 64, NULL);

	cr_assert_eq(wt_world_snapshot(w), -1);
	cr_assert_null(w->snap);
	wt_ops_world_destroy(w);
}

/* A tree with a remote filesystem that the client and the server both
 * changed (lookups of server-made names, a client and a server symlink,
 * a deleted and an invalidated node), and a second one mounted, used
 * and unmounted: its server is gone, the log still names its handles. */
static const char remote_tree[] =
	"mkdir -p /a/b /r /s\n"
	"ln -s a/b /l\n"
	"mount -t remote srv /r\n"
	"mkdir -p /r/x/y\n"
	"ln -s x/y /r/cl\n"
	"remote-mkdir /r x/w\n"
	"remote-symlink /r ../y x/sl\n"
	"mkdir -p /r/x/w/q\n"
	"touch /r/x/f\n"
	"remote-rm /r x/f\n"
	"remote-invalidate /r x/y\n"
	"mount -t remote gone /s\n"
	"mkdir /s/k\n"
	"umount /s\n";

static struct wt_world *remote_build(uint64_t seed, bool arena)
{
	struct wt_world_config cfg;
	struct wt_world *w;
	struct wt_verb_error e;
	struct path r;

	retire_config(&cfg, seed, 64, arena);
	w = wt_world_create(&cfg);
	cr_assert_not_null(w);
	cr_assert_eq(wt_ops_init(w), 0);
	if (wt_tree_build_string(w, remote_tree, "test", &e)) {
		wt_verb_error_print(&e, stderr);
		cr_assert_fail("tree did not build");
	}
	/* a server change no step logged: the journal holds it at the
	 * snapshot, the next logged change of the server carries it */
	cr_assert_eq(wt_resolve(w, "/r", WT_RES_FOLLOW, &r), 0);
	cr_assert_eq(wt_remote_server_create(r.dentry->d_sb, "x/u",
					     WT_S_IFREG | 0644), 0);
	cr_assert(wt_remote_server_pending(r.dentry->d_sb, UINT64_MAX));
	wt_path_put(&r);
	return w;
}

/* The servers as the oracle sees them: each one's whole tree (handles,
 * parents, names) and the handle each client inode holds. */
static char *remote_state(struct wt_world *w)
{
	char *text = NULL, *tree;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	cr_assert_not_null(f);
	for (struct super_block *sb = w->supers; sb; sb = sb->s_next) {
		tree = wt_remote_server_take(sb, true, UINT64_MAX);
		fprintf(f, "sb %llu %s\n", (unsigned long long)sb->wt.id,
			tree ? tree : "");
		free(tree);
		for (struct inode *i = sb->s_inodes; i; i = i->i_sb_next)
			fprintf(f, "inode %llu handle %llu stale %d\n",
				(unsigned long long)i->wt.id,
				(unsigned long long)wt_remote_inode_handle(i),
				wt_remote_inode_stale(i));
	}
	fclose(f);
	return text;
}

/* Restored and fresh: the same namespace, seqs, ids, servers and log. */
static void remote_same(struct wt_world *w, struct wt_world *fresh)
{
	char *a = dump(w), *b = dump(fresh);

	cr_assert_str_eq(a, b);
	free(a);
	free(b);
	retire_same_seqs(w, fresh);
	cr_assert_eq(w->next_id, fresh->next_id);
	a = remote_state(w);
	b = remote_state(fresh);
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
	a = history_text(w->history);
	b = history_text(fresh->history);
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
}

/* What an iteration does to the remote fs: the client makes nodes (new
 * handles), the server deletes, moves and makes some (the step logs the
 * pending change too), a lookup refreshes a stale handle. */
static void remote_iteration(struct wt_world *w)
{
	t_verb(w, "mkdir -p /r/x/n/m", 0);
	t_verb(w, "remote-mv /r x/w x/v", 0);
	t_verb(w, "remote-rm /r x/n", 0);
	t_verb(w, "remote-create /r x/v/g", 0);
	t_verb(w, "touch /r/x/v/h", 0);
}

/* Then a server mounted since the snapshot, and the snapshot's one
 * unmounted: its nodes freed (poisoned), the restore has them back. */
static void remote_churn(struct wt_world *w)
{
	t_verb(w, "mkdir /t", 0);
	t_verb(w, "mount -t remote t2 /t", 0);
	t_verb(w, "mkdir -p /t/z", 0);
	t_verb(w, "umount /r", 0);
}

/*
 * A world with remote filesystems is snapshot too (issue 19: it was
 * built again every iteration): restored under another seed, it is the
 * world a fresh build of that seed gives -- namespace, seqs, ids, each
 * server's tree and handles, the client inodes' handles, the log with
 * the handles its entries name -- and an iteration on each gives the
 * same log again (new handles drawn alike, the journal pending at the
 * snapshot moved too).  Three rounds: a restored world restores again.
 */
Test(ops, a_remote_world_restored_from_its_snapshot_is_a_fresh_world)
{
	struct wt_world *w = remote_build(7, true), *fresh;
	struct wt_world_config cfg;

	cr_assert_not_null(w->arena.base, "no arena: proves nothing");
	cr_assert_eq(wt_world_snapshot(w), 0);
	wt_history_mark(w->history);
	for (uint64_t seed = 9; seed < 12; seed++) {
		remote_iteration(w);
		remote_churn(w);
		wt_ops_fini_rewind(w);
		cr_assert_eq(wt_world_retire(w), w);
		retire_config(&cfg, seed, 64, true);
		cr_assert_eq(wt_world_restore(&cfg, w), w);
		fresh = remote_build(seed, false);
		remote_same(w, fresh);
		remote_iteration(w);
		remote_iteration(fresh);
		remote_same(w, fresh);
		wt_ops_world_destroy(fresh);
		wt_ops_fini_rewind(w);
		wt_world_retire(w);
		cr_assert_eq(wt_world_restore(&cfg, w), w);
	}
	wt_ops_world_destroy(w);
}

/*
 * A journal line of a step carries the step's version ("@V ") before
 * the line: a reseed moves the line's handles and keeps the version (it
 * once refused such a line as malformed and aborted; a snapshot's
 * journal holds none, but a restore must not depend on that).
 */
Test(ops, a_reseed_moves_a_tagged_line_and_keeps_its_version)
{
	uint64_t h = wt_remote_handle_reseed(5, 3, 7, 9);
	char want[128], *got;

	cr_assert_neq(h, 5);
	snprintf(want, sizeof(want), "@12 +%llu 0 1 a\n@13 -%llu\n=\n|\n",
		 (unsigned long long)h, (unsigned long long)h);
	/* "|", an instant between two steps' lines, is kept too */
	got = wt_remote_lines_reseed("@12 +5 0 1 a\n@13 -5\n=\n|\n", 3, 7, 9);
	cr_assert_str_eq(got, want);
	free(got);
}

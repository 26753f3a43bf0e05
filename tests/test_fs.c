/* SPDX-License-Identifier: MIT */
/*
 * The filesystem types: the registry; casefold's hash and compare;
 * remote's revalidation in each mode, its stale handles and the
 * LOOKUP_REVAL refresh, uncached symlinks and the mirroring of client
 * changes; proc's magic links; slowperm's blocking permission; autofs
 * triggers, d_manage and d_automount with finish_automount; and a whole
 * world built from all of them torn down without a leak.
 */
#include <criterion/criterion.h>

#include "sim/fs/autofs.h"
#include "sim/fs/proc.h"
#include "sim/fs/remote.h"
#include "sim/fs/slowperm.h"
#include "sim/vfs/lookup_flags.h"
#include "tests/vfs_test.h"

#define DIR_MODE	(WT_S_IFDIR | 0755)
#define REG_MODE	(WT_S_IFREG | 0644)

static const struct cred root_cred = { .cap_dac_override = true,
				       .cap_sys_ptrace = true };

static struct super_block *new_sb(struct wt_world *w, const char *type)
{
	struct super_block *sb = wt_sb_create(w, wt_fs_type_lookup(type), type);

	cr_assert_not_null(sb, "%s", type);
	return sb;
}

static struct mount *mount_at(struct wt_world *w, struct super_block *sb,
			      struct dentry *mp)
{
	struct mount *m = wt_mnt_alloc(sb, sb->s_root, sb->s_name);

	mutex_lock(&w->namespace_sem);
	lock_mount_hash(w);
	wt_mnt_attach(m, w->root_mnt, mp);
	unlock_mount_hash(w);
	mutex_unlock(&w->namespace_sem);
	return m;
}

Test(fs, registry)
{
	const char *names[] = { "tmpfs", "plain", "remote", "casefold", "autofs",
				"proc", "slowperm" };

	cr_assert_neq(wt_fs_type_lookup("plain"), wt_fs_type_lookup("tmpfs"));
	cr_assert_null(wt_fs_type_lookup("ext4"));
	cr_assert_null(wt_fs_type_lookup(NULL));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct file_system_type *t = wt_fs_type_lookup(names[i]);

		cr_assert_not_null(t, "%s", names[i]);
		cr_assert_str_eq(t->name, names[i]);
		cr_assert(strstr(wt_fs_type_names(), names[i]));
	}
	cr_assert_null(wt_fs_type_lookup("plain")->dop, "plain has no d_op");
	cr_assert_not_null(wt_fs_type_lookup("tmpfs")->dop->d_delete,
			   "tmpfs deletes unused dentries");
}

/* A miss through ->lookup, then the last dput: on tmpfs the negative
 * dentry dies (d_delete says so), on plain it stays cached.  The next
 * d_lookup tells them apart. */
Test(fs, tmpfs_drops_negative_dentries_plain_keeps_them)
{
	const char *types[] = { "tmpfs", "plain" };

	for (unsigned i = 0; i < 2; i++) {
		struct wt_world *w = t_world(5, 8, 4);
		struct super_block *sb = new_sb(w, types[i]);
		struct dentry *root = sb->s_root, *d;
		struct qstr q = tq("missing");
		struct dentry *res;

		d = d_alloc_parallel(root, &q);
		cr_assert(!IS_ERR(d) && d);
		cr_assert(d_flags_load(d) & DCACHE_PAR_LOOKUP);
		res = d_inode(root)->i_op->lookup(d_inode(root), d, 0);
		d_lookup_done(d);
		cr_assert_null(res);
		cr_assert(d_is_negative(d));
		cr_assert_eq(!!(d_flags_load(d) & DCACHE_OP_DELETE), i == 0);
		dput(d);
		d = d_lookup(root, &q);
		if (i == 0) {
			cr_assert_null(d, "tmpfs kept a negative dentry");
		} else {
			cr_assert_not_null(d, "plain lost its negative dentry");
			cr_assert(d_is_negative(d));
			dput(d);
		}
		wt_sb_discard(sb);
		wt_world_destroy(w);
	}
}

/* A name over 255 bytes: simple_lookup refuses it with ENAMETOOLONG,
 * proc's lookup answers ENOENT as for any name it does not have (and
 * so proc refuses to create anything). */
Test(fs, long_names_are_the_filesystems_to_refuse)
{
	const char *types[] = { "tmpfs", "plain", "proc", "casefold" };
	const int want[] = { -ENAMETOOLONG, -ENAMETOOLONG, -ENOENT, -ENAMETOOLONG };
	char name[300];

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	for (unsigned i = 0; i < 4; i++) {
		struct wt_world *w = t_world(6, 8, 4);
		struct super_block *sb = new_sb(w, types[i]);
		struct dentry *root = sb->s_root, *d, *res;
		struct qstr q = tq(name);

		if (d_flags_load(root) & DCACHE_OP_HASH)
			root->d_op->d_hash(root, &q);
		d = d_alloc_parallel(root, &q);
		cr_assert(!IS_ERR(d) && d, "%s: a long name is allocated", types[i]);
		res = d_inode(root)->i_op->lookup(d_inode(root), d, 0);
		d_lookup_done(d);
		cr_assert_eq(PTR_ERR(res), want[i], "%s: %ld", types[i], PTR_ERR(res));
		dput(d);
		cr_assert_null(d_lookup(root, &q), "%s: nothing cached", types[i]);
		wt_sb_discard(sb);
		wt_world_destroy(w);
	}
}

/* ---------------------------------------------------------------------- */

/* casefold: "ABC" finds "abc" in RCU and REF lookups; the name keeps its
 * case; a long name works the same; a rename keeps it findable. */
Test(fs, casefold_finds_any_case)
{
	struct wt_world *w = t_world(1, 8, 4);
	struct super_block *sb = new_sb(w, "casefold");
	struct dentry *root = sb->s_root, *d, *l, *t, *found;
	const char *lname = "A-Long-Casefolded-Name-Beyond-32-Bytes";
	struct qstr q;
	unsigned seq;

	cr_assert((d_flags_load(root) & (DCACHE_OP_HASH | DCACHE_OP_COMPARE)) ==
		  (DCACHE_OP_HASH | DCACHE_OP_COMPARE));
	d = t_mk(root, "abc", REG_MODE);
	cr_assert_str_eq(d->d_name.name, "abc");
	q = tq("ABC");
	cr_assert_eq(d_hash_name(root, &q), 0);
	cr_assert_eq(__d_lookup_rcu(root, &q, &seq), d);
	q = tq("AbC");
	found = d_lookup(root, &q);
	cr_assert_eq(found, d);
	dput(found);
	q = tq("abd");
	d_hash_name(root, &q);
	cr_assert_null(__d_lookup_rcu(root, &q, &seq));

	l = t_mk(root, lname, REG_MODE);
	q = tq("a-long-casefolded-name-beyond-32-bytes");
	d_hash_name(root, &q);
	cr_assert_eq(__d_lookup_rcu(root, &q, &seq), l);

	t = t_neg(root, "XyZ");
	t_move(w, d, t);
	q = tq("xyz");
	d_hash_name(root, &q);
	cr_assert_eq(__d_lookup_rcu(root, &q, &seq), d);
	cr_assert_str_eq(d->d_name.name, "XyZ");
	dput(t);
	dput(l);
	dput(d);
	wt_sb_discard(sb);
	wt_world_destroy(w);
}

/* ---------------------------------------------------------------------- */
/* remote                                                                  */

/* lookup_slow's shape: d_alloc_parallel, ->lookup, d_lookup_done. */
static struct dentry *client_lookup(struct dentry *dir, const char *name,
				    unsigned flags, int *err)
{
	struct qstr q = tq(name);
	struct dentry *d = d_alloc_parallel(dir, &q), *res;
	struct inode *inode = d_inode(dir);

	*err = 0;
	cr_assert(!IS_ERR(d));
	if (!(d_flags_load(d) & DCACHE_PAR_LOOKUP))
		return d;
	res = inode->i_op->lookup(inode, d, flags);
	d_lookup_done(d);
	if (IS_ERR(res)) {
		*err = (int)PTR_ERR(res);
		dput(d);
		return NULL;
	}
	return d;
}

static int rv(struct dentry *d, unsigned flags)
{
	return d->d_op->d_revalidate(d, flags);
}

static int weak_rv(struct dentry *d, unsigned flags)
{
	return d->d_op->d_weak_revalidate(d, flags);
}

struct remote_fixture {
	struct wt_world *w;
	struct super_block *sb;
	struct dentry *root;
};

static struct remote_fixture remote_setup(void)
{
	struct remote_fixture f;

	f.w = t_world(2, 8, 4);
	f.sb = new_sb(f.w, "remote");
	f.root = f.sb->s_root;
	cr_assert_eq(wt_remote_server_create(f.sb, "a", DIR_MODE), 0);
	cr_assert_eq(wt_remote_server_create(f.sb, "a/b", REG_MODE), 0);
	cr_assert_eq(wt_remote_server_create(f.sb, "a/b", REG_MODE), -EEXIST);
	cr_assert_eq(wt_remote_server_create(f.sb, "nope/b", REG_MODE), -ENOENT);
	return f;
}

static void remote_teardown(struct remote_fixture *f)
{
	wt_dcache_shrink(f->w);
	wt_sb_discard(f->sb);
	wt_world_destroy(f->w);
}

/*
 * A fresh entry revalidates in RCU mode without asking; expired, RCU
 * mode answers -ECHILD and REF mode asks (1, and fresh again); renamed
 * behind the client's back, REF mode answers 0.
 */
Test(fs, remote_revalidate_fresh_expired_renamed)
{
	struct remote_fixture f = remote_setup();
	struct dentry *a, *b, *c;
	uint64_t asks;
	int err;

	a = client_lookup(f.root, "a", 0, &err);
	cr_assert(a && d_is_dir(a));
	b = client_lookup(a, "b", 0, &err);
	cr_assert(b && d_is_reg(b));
	cr_assert(d_flags_load(b) & DCACHE_OP_REVALIDATE);
	asks = wt_remote_server_asks(f.sb);
	cr_assert_eq(rv(a, LOOKUP_RCU), 1);
	cr_assert_eq(rv(a, 0), 1);
	cr_assert_eq(wt_remote_server_asks(f.sb), asks, "fresh: nobody asked");

	wt_remote_expire(f.sb);
	cr_assert_eq(rv(a, LOOKUP_RCU), -ECHILD);
	cr_assert_eq(rv(a, 0), 1);
	cr_assert_eq(wt_remote_server_asks(f.sb), asks + 1);
	cr_assert_eq(rv(a, LOOKUP_RCU), 1, "revalidated: fresh again");

	cr_assert_eq(wt_remote_server_rename(f.sb, "a/b", "a/c"), 0);
	cr_assert_eq(rv(b, LOOKUP_RCU), -ECHILD);
	cr_assert_eq(rv(b, 0), 0, "the name maps to nothing now");
	d_invalidate(b);
	c = client_lookup(a, "c", 0, &err);
	cr_assert(c && d_is_reg(c));
	cr_assert_eq(d_inode(c)->i_private, d_inode(b)->i_private,
		     "the same server object under its new name");
	dput(c);
	dput(b);
	dput(a);
	remote_teardown(&f);
}

/*
 * The ESTALE ladder: after the server reuses a's handle, REF mode's
 * d_revalidate answers -ESTALE; the LOOKUP_REVAL walk revalidates by
 * path (0), looks a up again and gets a fresh handle.  A lookup through
 * the stale directory is -ESTALE too, with LOOKUP_REVAL as well: only
 * the root's handle is refreshed in place (a has a new inode now).
 */
Test(fs, remote_estale_then_reval_succeeds)
{
	struct remote_fixture f = remote_setup();
	struct dentry *a, *a2, *b, *x;
	int err;

	a = client_lookup(f.root, "a", 0, &err);
	cr_assert_eq(wt_remote_server_invalidate(f.sb, "a"), 0);
	cr_assert(wt_remote_inode_stale(d_inode(a)));
	cr_assert_eq(rv(a, LOOKUP_RCU), -ECHILD);
	cr_assert_eq(rv(a, 0), -ESTALE);
	cr_assert_null(client_lookup(a, "b", 0, &err));
	cr_assert_eq(err, -ESTALE, "a lookup through a stale directory");

	cr_assert_eq(rv(a, LOOKUP_REVAL), 0, "strict: a new object, drop it");
	d_invalidate(a);
	a2 = client_lookup(f.root, "a", LOOKUP_REVAL, &err);
	cr_assert(a2 && a2 != a && d_is_dir(a2));
	cr_assert_not(wt_remote_inode_stale(d_inode(a2)));
	cr_assert_eq(rv(a2, 0), 1);
	b = client_lookup(a2, "b", 0, &err);
	cr_assert(b && d_is_reg(b), "the walk goes on from the fresh a");

	/* The old, stale a stays stale. */
	x = client_lookup(a, "b", LOOKUP_REVAL, &err);
	cr_assert_null(x);
	cr_assert_eq(err, -ESTALE, "a lookup through the old a");
	cr_assert(wt_remote_inode_stale(d_inode(a)));
	cr_assert_not(wt_remote_inode_stale(d_inode(a2)));
	dput(b);
	dput(a2);
	dput(a);
	remote_teardown(&f);
}

/*
 * Two client inodes for one server directory: the server renames a to c
 * while the client holds a's dentry, and a look-up of c makes a second
 * inode for the same object.  A negative n under the old a is trusted
 * until the client creates n through c -- a change the client made,
 * which expires nothing unless another inode holds the directory: then
 * every dentry asks again.  Without that the old a's negative went on
 * saying absent (fuzz --seed 0x2704, workload 278219).  Once the old a
 * is gone, a create through c expires nothing again.
 */
Test(fs, remote_change_through_one_of_two_inodes_expires)
{
	struct remote_fixture f = remote_setup();
	struct dentry *a, *c, *n, *m, *made;
	int err;

	a = client_lookup(f.root, "a", 0, &err);
	cr_assert_eq(wt_remote_server_rename(f.sb, "a", "c"), 0);
	c = client_lookup(f.root, "c", 0, &err);
	cr_assert(c && d_is_dir(c));
	cr_assert_neq(d_inode(c), d_inode(a));
	cr_assert_eq(d_inode(c)->i_private, d_inode(a)->i_private);
	n = client_lookup(a, "n", 0, &err);
	cr_assert(n && d_is_negative(n));
	cr_assert_eq(rv(n, LOOKUP_RCU), 1);

	made = t_mk(c, "n", REG_MODE);
	cr_assert_eq(rv(n, LOOKUP_RCU), -ECHILD, "the create through c");
	cr_assert_eq(rv(n, 0), 0, "n exists now");
	dput(made);

	/* the old a goes, and with it the second inode */
	d_invalidate(n);
	dput(n);
	d_invalidate(a);
	dput(a);
	m = client_lookup(c, "m", 0, &err);
	cr_assert(m && d_is_negative(m));
	made = t_mk(c, "x", REG_MODE);
	cr_assert_eq(rv(m, LOOKUP_RCU), 1, "the client knows what it did");
	dput(made);
	dput(m);
	dput(c);
	remote_teardown(&f);
}

/* A stale root: ->lookup and d_weak_revalidate answer -ESTALE/0 until a
 * LOOKUP_REVAL lookup refreshes the root's handle. */
Test(fs, remote_stale_root_until_reval)
{
	struct remote_fixture f = remote_setup();
	struct dentry *a;
	int err;

	cr_assert_eq(weak_rv(f.root, 0), 1);
	cr_assert_eq(wt_remote_server_invalidate(f.sb, ""), 0);
	cr_assert_null(client_lookup(f.root, "a", 0, &err));
	cr_assert_eq(err, -ESTALE);
	cr_assert_eq(weak_rv(f.root, 0), 0);
	cr_assert_eq(weak_rv(f.root, LOOKUP_RCU), -ECHILD);
	a = client_lookup(f.root, "a", LOOKUP_REVAL, &err);
	cr_assert(a && d_is_dir(a));
	cr_assert_eq(weak_rv(f.root, 0), 1);
	dput(a);

	/* weak revalidation refreshes by itself under LOOKUP_REVAL */
	cr_assert_eq(wt_remote_server_invalidate(f.sb, ""), 0);
	cr_assert_eq(weak_rv(f.root, 0), 0);
	cr_assert_eq(weak_rv(f.root, LOOKUP_REVAL), 1);
	cr_assert_eq(weak_rv(f.root, 0), 1);
	remote_teardown(&f);
}

/* Negative entries: the name appears on the server -> 0; deleted
 * objects are stale handles; the always-revalidate option. */
Test(fs, remote_negative_deleted_and_always)
{
	struct remote_fixture f = remote_setup();
	struct dentry *n, *a, *b;
	int err;

	n = client_lookup(f.root, "n", 0, &err);
	cr_assert(n && d_is_negative(n));
	cr_assert_eq(rv(n, LOOKUP_RCU), 1);
	cr_assert_eq(wt_remote_server_create(f.sb, "n", REG_MODE), 0);
	cr_assert_eq(rv(n, LOOKUP_RCU), -ECHILD);
	cr_assert_eq(rv(n, 0), 0);
	cr_assert_eq(rv(n, LOOKUP_REVAL), 0);

	a = client_lookup(f.root, "a", 0, &err);
	b = client_lookup(a, "b", 0, &err);
	cr_assert_eq(wt_remote_server_unlink(f.sb, "a"), 0);
	cr_assert(wt_remote_inode_stale(d_inode(b)), "the subtree went too");
	cr_assert_eq(rv(b, 0), -ESTALE);
	cr_assert_eq(rv(b, LOOKUP_REVAL), 0);
	cr_assert_eq(wt_remote_server_unlink(f.sb, ""), -EBUSY);

	cr_assert_eq(rv(n, 0), 0);
	cr_assert_eq(wt_remote_set_options(f.sb, WT_REMOTE_ALWAYS_REVAL), 0);
	d_invalidate(n);
	dput(n);
	n = client_lookup(f.root, "n", 0, &err);
	cr_assert(n && d_is_reg(n));
	cr_assert_eq(rv(n, LOOKUP_RCU), -ECHILD, "lookupcache=none");
	cr_assert_eq(rv(n, 0), 1);
	cr_assert_eq(rv(n, LOOKUP_RCU), -ECHILD);
	dput(n);
	dput(b);
	dput(a);
	remote_teardown(&f);
}

/* A bad inode is known bad without asking: 0 in every mode, before the
 * expiry test; seen through overlayfs the 0 is -ESTALE, RCU mode too;
 * its good neighbours keep their answers; the next lookup of the name
 * makes a good inode.  Checked by calling d_revalidate in each mode. */
Test(fs, remote_bad_inode_and_ovl_layer)
{
	struct remote_fixture f = remote_setup();
	struct dentry *a, *b, *fresh;
	int err;

	a = client_lookup(f.root, "a", 0, &err);
	b = client_lookup(a, "b", 0, &err);
	cr_assert(a && b);
	cr_assert_eq(rv(a, LOOKUP_RCU), 1);
	cr_assert_eq(wt_remote_make_bad(d_inode(a)), 0);
	cr_assert_eq(rv(a, LOOKUP_RCU), 0, "no -ECHILD: nothing to ask");
	cr_assert_eq(rv(a, 0), 0);
	cr_assert_eq(rv(a, LOOKUP_REVAL), 0);
	cr_assert_eq(rv(b, LOOKUP_RCU), 1, "only a's inode is bad");
	wt_remote_expire(f.sb);
	cr_assert_eq(rv(a, LOOKUP_RCU), 0, "bad comes before expired");
	cr_assert_eq(rv(b, LOOKUP_RCU), -ECHILD);

	cr_assert_eq(wt_remote_option(f.sb, WT_REMOTE_OVL_LAYER, true), 0);
	cr_assert_eq(rv(a, LOOKUP_RCU), -ESTALE, "ovl_revalidate_real: 0 -> -ESTALE");
	cr_assert_eq(rv(a, 0), -ESTALE);
	cr_assert_eq(rv(b, LOOKUP_RCU), -ECHILD, "other answers pass through");
	cr_assert_eq(rv(b, 0), 1);
	cr_assert_eq(wt_remote_option(f.sb, WT_REMOTE_OVL_LAYER, false), 0);
	cr_assert_eq(rv(a, LOOKUP_RCU), 0);

	dput(b);
	d_invalidate(a);
	dput(a);
	fresh = client_lookup(f.root, "a", 0, &err);
	cr_assert(fresh && d_is_dir(fresh));
	cr_assert_eq(rv(fresh, LOOKUP_RCU), 1, "a new inode, not bad");
	dput(fresh);
	remote_teardown(&f);
}

/* A server-made symlink reaches the client uncached: RCU mode answers
 * -ECHILD, REF mode fetches and caches the body. */
Test(fs, remote_uncached_symlink)
{
	struct remote_fixture f = remote_setup();
	struct dentry *l;
	struct inode *inode;
	struct path jump = { 0 };
	const char *body;
	int err;

	cr_assert_eq(wt_remote_server_symlink(f.sb, "l", "a/b"), 0);
	l = client_lookup(f.root, "l", 0, &err);
	cr_assert(l && d_is_symlink(l));
	inode = d_inode(l);
	cr_assert(inode->i_flags & S_LINK_UNCACHED);
	cr_assert_null(inode->i_link);
	body = inode->i_op->get_link(&root_cred, NULL, inode, &jump);
	cr_assert_eq(PTR_ERR(body), -ECHILD);
	body = inode->i_op->get_link(&root_cred, l, inode, &jump);
	cr_assert(!IS_ERR(body));
	cr_assert_str_eq(body, "a/b");
	cr_assert_not(inode->i_flags & S_LINK_UNCACHED);
	body = inode->i_op->get_link(&root_cred, NULL, inode, &jump);
	cr_assert_str_eq(body, "a/b", "cached: RCU mode gets it now");
	cr_assert_null(jump.mnt);
	dput(l);
	remote_teardown(&f);
}

/* Changes made through the dcache reach the server: a strict (by-path)
 * revalidation agrees with the client after mkdir and rename, and the
 * server lacks what the client deleted. */
Test(fs, remote_client_changes_are_mirrored)
{
	struct remote_fixture f = remote_setup();
	struct dentry *p, *q, *gone;
	int err;

	p = t_mk(f.root, "p", DIR_MODE);
	cr_assert_not_null(d_inode(p)->i_private, "a server object");
	cr_assert_eq(rv(p, LOOKUP_REVAL), 1);
	cr_assert_eq(rv(p, LOOKUP_RCU), 1, "the client knows what it made");
	q = t_neg(f.root, "q");
	t_move(f.w, p, q);
	cr_assert_eq(rv(p, LOOKUP_REVAL), 1, "found under its new name");
	gone = client_lookup(f.root, "p", 0, &err);
	cr_assert(gone && d_is_negative(gone), "the old name is free");
	dput(gone);
	d_delete(p);
	cr_assert(d_is_negative(p));
	cr_assert_eq(wt_remote_server_unlink(f.sb, "q"), -ENOENT,
		     "gone on the server too");
	cr_assert_eq(rv(p, LOOKUP_RCU), 1, "the client knows it is gone");
	cr_assert_eq(rv(p, LOOKUP_REVAL), 0,
		     "strict: a negative dentry is looked up again");
	dput(q);
	dput(p);
	remote_teardown(&f);
}

/* RCU-mode revalidation never sleeps; a REF-mode one inside an RCU
 * section is reported -- the check can fail. */
Test(fs, remote_rcu_mode_does_not_sleep)
{
	struct remote_fixture f = remote_setup();
	struct t_thread tt;
	struct dentry *a;
	int err;

	a = client_lookup(f.root, "a", 0, &err);
	wt_remote_expire(f.sb);
	t_enter(&tt, NULL, 1);
	tt.last_check = WT_CHECK__COUNT;
	rcu_read_lock();
	cr_assert_eq(rv(a, LOOKUP_RCU), -ECHILD);
	cr_assert_eq(tt.last_check, WT_CHECK__COUNT, "no report");
	cr_assert_eq(rv(a, 0), 1);
	cr_assert_eq(tt.last_check, WT_CHECK_RCU_SLEEP, "asking inside RCU");
	rcu_read_unlock();
	t_leave(&tt);
	dput(a);
	remote_teardown(&f);
}

/* ---------------------------------------------------------------------- */

/* proc: a magic link refuses RCU mode and jumps, with references, in
 * REF mode; it holds its target until it dies with its super_block. */
Test(fs, proc_magic_link)
{
	struct wt_world *w = t_world(3, 8, 4);
	struct super_block *sb = new_sb(w, "proc");
	struct path target = wt_world_root(w), jump = { 0 }, out;
	int mc = mnt_get_count(w->root_mnt), dc = d_count(target.dentry);
	struct qstr q = tq("self");
	struct dentry *d;
	struct inode *inode;
	const char *r;

	cr_assert_eq(wt_proc_add_magic(sb, "self", target), 0);
	cr_assert_eq(wt_proc_add_magic(sb, "self", target), -EEXIST);
	cr_assert_eq(mnt_get_count(w->root_mnt), mc + 1);
	d = d_lookup(sb->s_root, &q);
	cr_assert_not_null(d);
	cr_assert(d_is_symlink(d));
	inode = d_inode(d);
	cr_assert(inode->i_flags & S_MAGICLINK);
	cr_assert(wt_proc_magic_target(inode, &out));
	cr_assert(path_equal(&out, &target));
	r = inode->i_op->get_link(&root_cred, NULL, inode, &jump);
	cr_assert_eq(PTR_ERR(r), -ECHILD);
	cr_assert_null(jump.mnt);
	r = inode->i_op->get_link(&root_cred, d, inode, &jump);
	cr_assert_null(r);
	cr_assert(path_equal(&jump, &target));
	cr_assert_eq(mnt_get_count(w->root_mnt), mc + 2);
	cr_assert_eq(d_count(target.dentry), dc + 2);
	dput(jump.dentry);
	mntput(jump.mnt);
	dput(d);
	cr_assert_eq(wt_proc_add_magic(new_sb(w, "tmpfs"), "x", target), -EINVAL);
	wt_sb_discard(sb);
	cr_assert_eq(mnt_get_count(w->root_mnt), mc, "the link let go");
	cr_assert_eq(d_count(target.dentry), dc);
	wt_world_destroy(w);
}

/* d_lookup of name under parent, which must find it. */
static struct dentry *proc_child(struct dentry *parent, const char *name)
{
	struct qstr q = tq(name);
	struct dentry *d = d_lookup(parent, &q);

	cr_assert_not_null(d, "%s", name);
	return d;
}

/* get_link of the magic link d as cred: 0 (a jump, dropped) or -errno. */
static int proc_follow(struct dentry *d, const struct cred *cred)
{
	struct path jump = { 0 };
	const char *r = d_inode(d)->i_op->get_link(cred, d, d_inode(d), &jump);

	if (IS_ERR(r))
		return (int)PTR_ERR(r);
	cr_assert_null(r);
	dput(jump.dentry);
	mntput(jump.mnt);
	return 0;
}

/*
 * proc's processes: who may follow a process's magic links (its own
 * process, CAP_SYS_PTRACE, or the same uid and gid on a dumpable one,
 * else EACCES -- RCU mode still answers ECHILD first), and who owns its
 * entries (a non-dumpable process's fd directory and links are root's,
 * its PID directory stays its own).
 */
Test(fs, proc_task_ptrace_check)
{
	struct wt_world *w = t_world(3, 8, 4);
	struct super_block *sb = new_sb(w, "proc");
	struct path root = wt_world_root(w), jump = { 0 };
	struct wt_proc_task t = { .pid = 42, .uid = 1000, .gid = 1000,
				  .root = root, .cwd = root, .nfds = 1 };
	const struct cred same = { .uid = 1000, .gid = 1000 };
	const struct cred other_gid = { .uid = 1000, .gid = 1001 };
	const struct cred other_uid = { .uid = 1001, .gid = 1000 };
	const struct cred itself = { .uid = 7, .gid = 7, .tgid = 43 };
	struct dentry *p42, *p43, *cwd, *fd, *fd3, *cwd43, *fd43;

	t.fds[0].fd = 3;
	t.fds[0].path = root;
	mutex_lock(&d_inode(sb->s_root)->i_rwsem);
	cr_assert_eq(wt_proc_add_task(sb, &t, false, NULL, NULL), 0);
	t.pid = 43;
	t.nondumpable = true;
	cr_assert_eq(wt_proc_add_task(sb, &t, false, NULL, NULL), 0);
	mutex_unlock(&d_inode(sb->s_root)->i_rwsem);
	p42 = proc_child(sb->s_root, "42");
	p43 = proc_child(sb->s_root, "43");
	cwd = proc_child(p42, "cwd");
	fd = proc_child(p42, "fd");
	fd3 = proc_child(fd, "3");
	cwd43 = proc_child(p43, "cwd");
	fd43 = proc_child(p43, "fd");

	cr_assert_eq(proc_follow(cwd, &root_cred), 0, "CAP_SYS_PTRACE");
	cr_assert_eq(proc_follow(cwd, &same), 0, "same ids, dumpable");
	cr_assert_eq(proc_follow(fd3, &same), 0);
	cr_assert_eq(proc_follow(cwd, &other_gid), -EACCES);
	cr_assert_eq(proc_follow(fd3, &other_uid), -EACCES);
	cr_assert_eq(proc_follow(cwd43, &same), -EACCES, "not dumpable");
	cr_assert_eq(proc_follow(cwd43, &root_cred), 0);
	cr_assert_eq(proc_follow(cwd43, &itself), 0, "its own process");
	cr_assert_eq(PTR_ERR(d_inode(cwd)->i_op->get_link(&other_uid, NULL,
							  d_inode(cwd), &jump)),
		     -ECHILD, "RCU mode leaves before the check");

	cr_assert_eq(d_inode(p42)->i_uid, 1000);
	cr_assert_eq(d_inode(fd)->i_uid, 1000);
	cr_assert_eq(d_inode(cwd)->i_uid, 1000);
	cr_assert_eq(d_inode(p43)->i_uid, 1000, "the PID directory shows it");
	cr_assert_eq(d_inode(fd43)->i_uid, 0, "task_dump_owner: root's");
	cr_assert_eq(d_inode(fd43)->i_gid, 0);
	cr_assert_eq(d_inode(cwd43)->i_uid, 0);
	dput(fd43);
	dput(cwd43);
	dput(fd3);
	dput(fd);
	dput(cwd);
	dput(p43);
	dput(p42);
	wt_sb_discard(sb);
	wt_world_destroy(w);
}

/* slowperm: -ECHILD under MAY_NOT_BLOCK until a blocking check fetches
 * the ACL; the fetch inside an RCU section is reported. */
Test(fs, slowperm_fetch)
{
	struct wt_world *w = t_world(4, 8, 4);
	struct super_block *sb = new_sb(w, "slowperm");
	struct dentry *f = t_mk(sb->s_root, "f", REG_MODE);
	struct inode *fi = d_inode(f), *ri = d_inode(sb->s_root);
	struct cred c = { .uid = 5, .gid = 5 };
	struct t_thread tt;

	cr_assert(ri->i_flags & S_ACL_UNCACHED);
	cr_assert(fi->i_flags & S_ACL_UNCACHED);
	cr_assert_eq(inode_permission(&c, ri, MAY_EXEC | MAY_NOT_BLOCK), -ECHILD);
	cr_assert_eq(inode_permission(&c, ri, MAY_EXEC), 0);
	cr_assert_not(ri->i_flags & S_ACL_UNCACHED);
	cr_assert_eq(inode_permission(&c, ri, MAY_EXEC | MAY_NOT_BLOCK), 0);
	cr_assert_eq(inode_permission(&c, fi, MAY_WRITE | MAY_NOT_BLOCK), -ECHILD);
	cr_assert_eq(inode_permission(&c, fi, MAY_WRITE), -EACCES,
		     "fetched, then the answer is generic_permission's");
	wt_slowperm_uncache(ri);
	cr_assert_eq(inode_permission(&c, ri, MAY_EXEC | MAY_NOT_BLOCK), -ECHILD);

	t_enter(&tt, NULL, 2);
	tt.last_check = WT_CHECK__COUNT;
	rcu_read_lock();
	inode_permission(&c, ri, MAY_EXEC);
	rcu_read_unlock();
	cr_assert_eq(tt.last_check, WT_CHECK_RCU_SLEEP);
	t_leave(&tt);
	dput(f);
	wt_sb_discard(sb);
	wt_world_destroy(w);
}

/* autofs: directories in the root are triggers; d_manage refuses RCU
 * mode while the daemon is busy; d_automount makes a mount that
 * finish_automount attaches, and a second one that lost is dropped. */
Test(fs, autofs_trigger_manage_automount)
{
	struct wt_world *w = t_world(5, 8, 4);
	struct super_block *asb = new_sb(w, "autofs");
	struct dentry *mp = t_mk(t_root(w), "auto", DIR_MODE);
	struct mount *am = mount_at(w, asb, mp), *first;
	struct dentry *t = t_mk(asb->s_root, "t", DIR_MODE);
	struct dentry *f = t_mk(asb->s_root, "f", REG_MODE);
	struct dentry *deep = t_mk(asb->s_root, "d", DIR_MODE), *sub;
	struct path p = { &am->mnt, t };
	struct vfsmount *m, *m2;

	cr_assert(d_flags_load(t) & DCACHE_NEED_AUTOMOUNT);
	cr_assert(d_flags_load(t) & DCACHE_MANAGE_TRANSIT);
	cr_assert_not(d_flags_load(f) & DCACHE_NEED_AUTOMOUNT);
	cr_assert(d_flags_load(deep) & DCACHE_NEED_AUTOMOUNT);
	sub = t_mk(deep, "sub", DIR_MODE);
	cr_assert_not(d_flags_load(sub) & DCACHE_NEED_AUTOMOUNT, "only in the root");
	cr_assert_not(d_flags_load(asb->s_root) & DCACHE_NEED_AUTOMOUNT);
	wt_autofs_set_trigger(f, true);
	cr_assert(d_managed(f));
	wt_autofs_set_trigger(f, false);
	cr_assert_not(d_managed(f));

	cr_assert_eq(t->d_op->d_manage(&p, true), 0);
	cr_assert_eq(wt_autofs_set_busy(asb, true), 0);
	cr_assert_eq(t->d_op->d_manage(&p, true), -ECHILD);
	cr_assert_eq(t->d_op->d_manage(&p, false), 0);
	cr_assert_eq(wt_autofs_set_busy(asb, false), 0);
	cr_assert_eq(wt_autofs_set_busy(w->root_mnt->mnt.mnt_sb, true), -EINVAL);

	m = t->d_op->d_automount(&p);
	cr_assert(!IS_ERR_OR_NULL(m));
	cr_assert_eq(mnt_get_count(real_mount(m)), 1);
	cr_assert_eq(finish_automount(m, &p), 0);
	first = real_mount(m);
	cr_assert(d_mountpoint(t));
	cr_assert_eq(__lookup_mnt(&am->mnt, t), first);
	cr_assert_eq(mnt_get_count(first), 1, "the tree's reference");

	m2 = t->d_op->d_automount(&p);
	cr_assert_eq(finish_automount(m2, &p), 0, "lost the race: quietly dropped");
	cr_assert(t_poisoned(&real_mount(m2)->wt));
	cr_assert_eq(__lookup_mnt(&am->mnt, t), first);
	cr_assert_eq(wt_autofs_automounts(asb), 2);
	cr_assert_eq(finish_automount(NULL, &p), 0);
	cr_assert_eq(finish_automount(ERR_PTR(-ENOMEM), &p), -ENOMEM);
	dput(sub);
	dput(deep);
	dput(f);
	dput(t);
	dput(mp);
	wt_world_destroy(w);
}

/* ---------------------------------------------------------------------- */

/*
 * A world with every type mounted, automounts, magic links, renames of
 * long names, a lazily detached mount still referenced and then
 * released, a shrink -- then destroyed.  Under asan-ubsan the leak
 * checker proves nothing is left behind.
 */
Test(fs, world_with_everything_destroys_cleanly)
{
	const char *types[] = { "tmpfs", "remote", "casefold", "autofs",
				"proc", "slowperm" };
	struct wt_world *w = t_world(6, 4, 2);
	struct dentry *root = t_root(w), *mps[6], *t, *long1, *tgt;
	struct mount *ms[6];
	struct super_block *sbs[6];
	struct t_thread tt;
	struct path p;
	struct vfsmount *m;
	int err;

	t_enter(&tt, w, 0);
	for (int i = 0; i < 6; i++) {
		mps[i] = t_mk(root, types[i], DIR_MODE);
		sbs[i] = new_sb(w, types[i]);
		ms[i] = mount_at(w, sbs[i], mps[i]);
		dput(t_mk(sbs[i]->s_root, "dir", DIR_MODE));
		long1 = t_mk(sbs[i]->s_root,
			     "a-long-name-that-is-stored-outside-the-dentry", REG_MODE);
		tgt = t_neg(sbs[i]->s_root, "another-long-name-stored-outside-the-dentry");
		t_move(w, long1, tgt);
		dput(tgt);
		dput(long1);
	}
	cr_assert_eq(wt_remote_server_create(sbs[1], "srv", DIR_MODE), 0);
	dput(client_lookup(sbs[1]->s_root, "srv", 0, &err));
	t = t_mk(sbs[3]->s_root, "trigger", DIR_MODE);
	p.mnt = &ms[3]->mnt;
	p.dentry = t;
	m = t->d_op->d_automount(&p);
	cr_assert_eq(finish_automount(m, &p), 0);
	cr_assert_eq(wt_proc_add_magic(sbs[4], "root", wt_world_root(w)), 0);

	/* Lazy umount of the casefold mount while a walker holds it. */
	mntget(&ms[2]->mnt);
	mutex_lock(&w->namespace_sem);
	lock_mount_hash(w);
	wt_mnt_detach(ms[2]);
	unlock_mount_hash(w);
	mutex_unlock(&w->namespace_sem);
	synchronize_rcu();
	cr_assert_not(wt_mntput_final(&ms[2]->mnt));
	cr_assert(wt_mntput_final(&ms[2]->mnt), "the walker's was the last");
	wt_dcache_shrink(w);
	dput(t);
	for (int i = 0; i < 6; i++)
		dput(mps[i]);
	t_leave(&tt);
	wt_world_destroy(w);
}

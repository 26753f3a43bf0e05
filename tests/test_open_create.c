/* SPDX-License-Identifier: MIT */
/*
 * open(O_CREAT) creates in the directory the walk holds, as the kernel's
 * lookup_open does with vfs_create under the directory's i_rwsem: not in
 * whatever a path rebuilt from names reaches now (a mount over the cwd's
 * path, a lazily unmounted tree), and owned by the caller's fsuid:fsgid.
 * Each open is judged by the step oracle (wfx_judge), and the creation's
 * publication follows its row of the protocol table (WT_OP_OPEN_CREATE).
 */
#define _GNU_SOURCE	/* O_PATH in fcntl.h, used by core's headers */
#include <fcntl.h>

#include "tests/test_walk.h"
#include "sim/history.h"
#include "sim/vfs/dcache.h"

static int op(const char *name, uint64_t flags, uint64_t mode,
	      struct wt_file *f)
{
	struct open_how how = { .flags = flags, .mode = mode };
	int err = do_openat2(&fx.wk, NULL, name, &how, f);

	wfx_judge(name);
	return err;
}

/* The dentry cached under dir for name (referenced), or NULL. */
static struct dentry *cached(struct dentry *dir, const char *name)
{
	struct qstr q = QSTR_INIT(name, (uint32_t)strlen(name));

	cr_assert_eq(d_hash_name(dir, &q), 0);
	return d_lookup(dir, &q);
}

Test(open_create, overmounted_cwd_creates_in_the_cwd, .fini = wfx_fini)
{
	/* The cwd is /st/d of tmpfs t1; t2 is then mounted over /st and has
	 * its own /st/d.  open("newfile", O_CREAT) must make the name in the
	 * cwd's dentry (t1's d), never in t2's /st/d, which a path rebuilt
	 * from names reaches. */
	struct wt_file f;
	struct dentry *d;
	struct path top;

	wfx_build("mkdir /st\nmount -t tmpfs t1 /st\nmkdir /st/d\n");
	wfx_set(&fx.task.pwd, "/st/d");
	wfx_verb("mount -t tmpfs t2 /st");
	wfx_verb("mkdir /st/d");
	cr_assert_eq(op("newfile", O_CREAT | O_WRONLY, 0644, &f), 0);
	cr_expect(f.created);
	cr_expect_eq(f.path.mnt, fx.task.pwd.mnt, "opened on another mount");
	cr_expect_eq(f.path.dentry->d_parent, fx.task.pwd.dentry,
		     "created outside the cwd");
	d = cached(fx.task.pwd.dentry, "newfile");
	cr_assert_not_null(d, "the cwd has no dentry for newfile");
	cr_expect_not_null(d_inode(d), "the cwd's newfile is negative");
	cr_expect_eq(d, f.path.dentry);
	dput(d);
	wt_file_close(&f);
	cr_expect_eq(lk_err("newfile", 0), 0);
	cr_expect_eq(lk_err("/st/d/newfile", 0), -ENOENT,
		     "the top mount's /st/d got the file");
	cr_assert_eq(wt_resolve(fx.w, "/st/d", WT_RES_FOLLOW, &top), 0);
	cr_expect_neq(top.dentry, fx.task.pwd.dentry);
	d = cached(top.dentry, "newfile");
	cr_expect(!d || !d_inode(d), "the top mount has a positive newfile");
	if (d)
		dput(d);
	wt_path_put(&top);
	expect_clean();
}

Test(open_create, lazily_unmounted_cwd_creates, .fini = wfx_fini)
{
	/* A cwd in a tree that umount -l detached still is a directory:
	 * the kernel creates there (no path from the namespace root is
	 * needed), and the name is found from the cwd afterwards. */
	struct wt_file f;
	struct path p;

	wfx_build("mkdir /lz\nmount -t tmpfs t /lz\nmkdir -p /lz/d\n");
	wfx_set(&fx.task.pwd, "/lz/d");
	wfx_verb("umount -l /lz");
	cr_assert_eq(op("newfile", O_CREAT | O_WRONLY, 0644, &f), 0);
	cr_expect(f.created);
	cr_expect_eq(f.path.dentry->d_parent, fx.task.pwd.dentry);
	cr_assert_eq(lk("newfile", 0, &p), 0);
	cr_expect_eq(p.dentry, f.path.dentry);
	cr_expect_eq(p.mnt, f.path.mnt);
	path_put(&p);
	wt_file_close(&f);
	cr_expect_eq(lk_err("/lz/d/newfile", 0), -ENOENT);
	expect_clean();
}

Test(open_create, owner_is_the_callers_fsuid_fsgid, .fini = wfx_fini)
{
	/* uid 1000 gid 1000 creates in a world-writable directory: the file
	 * is 1000:1000 with the mode asked for, in the dcache and in the
	 * history's fact for it (what the oracle's snapshots rebuild). */
	const struct wt_hist_entry *e;
	const struct wt_inode_fact *fact = NULL;
	struct wt_file f;
	struct inode *inode;

	wfx_build("mkdir /pub\nchmod 777 /pub\n");
	wfx_cred(1000, 1000);
	cr_assert_eq(op("/pub/mine", O_CREAT | O_WRONLY, 0640, &f), 0);
	inode = d_inode(f.path.dentry);
	cr_assert_not_null(inode);
	cr_expect_eq(inode->i_uid, 1000);
	cr_expect_eq(inode->i_gid, 1000);
	cr_expect_eq(inode->i_mode, WT_S_IFREG | 0640);
	e = wt_history_entry(fx.w->history, wt_history_version(fx.w->history));
	cr_assert_not_null(e);
	for (uint32_t i = 0; i < e->nfacts; i++)
		if (e->facts[i].kind == WT_FACT_INODE &&
		    e->facts[i].i.id == inode->wt.id)
			fact = &e->facts[i].i;
	cr_assert_not_null(fact, "the create's entry has no fact for the file");
	cr_expect_eq(fact->uid, 1000);
	cr_expect_eq(fact->gid, 1000);
	wt_file_close(&f);
	cr_expect_str_eq(wt_inode_origin(fx.w, inode->wt.id), "/pub/mine");
	expect_clean();
}

Test(open_create, excl_on_an_existing_name_is_eexist, .fini = wfx_fini)
{
	/* O_EXCL still refuses a name that exists, whether a writer made it
	 * or the walker's own O_CREAT did. */
	struct wt_file f;

	wfx_build("mkdir /a\ntouch /a/f\n");
	cr_expect_eq(op("/a/f", O_CREAT | O_EXCL | O_WRONLY, 0644, &f), -EEXIST);
	cr_assert_eq(op("/a/g", O_CREAT | O_EXCL | O_WRONLY, 0644, &f), 0);
	cr_expect(f.created);
	wt_file_close(&f);
	cr_expect_eq(op("/a/g", O_CREAT | O_EXCL | O_WRONLY, 0644, &f), -EEXIST);
	cr_assert_eq(op("/a/g", O_CREAT | O_WRONLY, 0644, &f), 0);
	cr_expect_not(f.created);
	wt_file_close(&f);
	expect_clean();
}

/* Every live dentry's d_seq, by id. */
struct seqs {
	size_t n;
	uint64_t id[256];
	unsigned seq[256];
};

static void snap(struct seqs *s)
{
	s->n = 0;
	spin_lock(&fx.w->list_lock);
	for (struct dentry *d = fx.w->dentries; d && s->n < 256; d = d->d_all_next) {
		s->id[s->n] = d->wt.id;
		s->seq[s->n++] = wt_seq_raw(&d->d_seq);
	}
	spin_unlock(&fx.w->list_lock);
	cr_assert_lt(s->n, 256);
}

Test(open_create, follows_its_protocol_row, .fini = wfx_fini)
{
	/* The creation publishes as WT_OP_OPEN_CREATE's row says: one
	 * history entry, at create.d_instantiate, and only the created
	 * dentry's d_seq moves -- the cached negative dentry a failed
	 * lookup left, which becomes the positive name (lookup_open's
	 * dentry, not a second one). */
	const struct wt_op_row *row = wt_op_row(WT_OP_OPEN_CREATE);
	struct seqs *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	const struct wt_hist_entry *e;
	struct dentry *dir, *neg;
	struct wt_file f;
	struct path p;
	uint64_t v0;

	wfx_build("mkdir /a\n");
	cr_assert_eq(lk_err("/a/new", 0), -ENOENT);
	cr_assert_eq(wt_resolve(fx.w, "/a", 0, &p), 0);
	dir = p.dentry;
	neg = cached(dir, "new");
	cr_assert_not_null(neg, "the failed lookup left no negative dentry");
	cr_assert_null(d_inode(neg));
	snap(a);
	v0 = wt_history_version(fx.w->history);
	cr_assert_eq(op("/a/new", O_CREAT | O_WRONLY, 0644, &f), 0);
	snap(b);
	cr_expect_eq(f.path.dentry, neg, "a second dentry was made positive");
	cr_expect_eq(wt_history_version(fx.w->history), v0 + 1);
	e = wt_history_entry(fx.w->history, v0 + 1);
	cr_assert_not_null(e);
	cr_expect_str_eq(e->step, row->publish[0]);
	cr_expect_null(row->publish[1]);
	cr_expect_str_eq(row->stores[0], row->publish[0]);
	cr_expect_eq(row->seqs, WT_SEQ_CREATED_DENTRY);
	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; j < b->n; j++)
			if (a->id[i] == b->id[j])
				cr_expect_eq(a->seq[i] != b->seq[j],
					     a->id[i] == neg->wt.id,
					     "dentry %llu's d_seq",
					     (unsigned long long)a->id[i]);
	wt_file_close(&f);
	dput(neg);
	wt_path_put(&p);
	free(a);
	free(b);
	expect_clean();
}

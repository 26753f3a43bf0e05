/* SPDX-License-Identifier: MIT */
/*
 * Exact exit-path counts with no concurrency: each test walks a tree in
 * which only the paths that tree forces can happen (a remote revalidation,
 * an automount, a magic link, a slow permission check, a non-directory, a
 * refused permission, ...) and asserts every counter -- the forced ones at
 * their exact value, all the others at 0.  A walk that left RCU-walk
 * without cause would show up as a stray count.
 */
#define _GNU_SOURCE	/* O_PATH */
#include <fcntl.h>

#include "sim/rules.h"
#include "tests/test_walk.h"

static void plain(void)
{
	wfx_build("mkdir -p /a/b/c\ntouch /a/b/f\nln -s /a/b /abs\nln -s b /a/rel\n"
		  "mkdir /mnt\nmount -t tmpfs t /mnt\nmkdir /mnt/x\n"
		  "mkdir /bnd\nmount --bind /a /bnd\n");
}

/* A cached tree: every walk, with links, dots and mounts, stays lazy. */
Test(walk_paths, quiet, .init = plain, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/a/b/f", 0), 0);
	cr_expect_eq(lk_err("/abs/f", 0), 0);
	cr_expect_eq(lk_err("/a/rel/c/../f", 0), 0);
	cr_expect_eq(lk_err("/mnt/x/../..", 0), 0);
	cr_expect_eq(lk_err("/bnd/b/f", 0), 0);
	cr_expect_eq(lk_err("/abs", LOOKUP_FOLLOW), 0);
	cr_expect_eq(lk_err("/", 0), 0);
	expect_counts("rcu.ok=7");
	expect_clean();
}

/* A miss leaves RCU-walk for lookup_slow; its negative dentry then
 * answers ENOENT lazily. */
Test(walk_paths, miss_then_negative, .init = plain, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/a/b/nope", 0), -ENOENT);
	expect_counts("unlazy.lookup_fast.miss=1 ref.error=1");
	cr_expect_eq(lk_err("/a/b/nope", 0), -ENOENT);
	expect_counts("rcu.error=1");
	expect_clean();
}

/* A non-directory with path after it: unlazy, then ENOTDIR. */
Test(walk_paths, not_dir, .init = plain, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/a/b/f/x", 0), -ENOTDIR);
	expect_counts("unlazy.not_dir=1 ref.error=1");
	/* a trailing slash on a file: ENOTDIR after a lazy walk */
	cr_expect_eq(lk_err("/a/b/f/", 0), -ENOTDIR);
	expect_counts("rcu.error=1");
	expect_clean();
}

/* A refused exec check in RCU mode unlazies and is final in REF mode. */
Test(walk_paths, eacces, .fini = wfx_fini)
{
	wfx_build("mkdir -m 700 /priv\ntouch /priv/f\n");
	wfx_cred(1000, 1000);
	cr_expect_eq(lk_err("/priv/f", 0), -EACCES);
	expect_counts("unlazy.may_lookup.denied=1 ref.error=1");
	expect_clean();
}

/* slowperm: the first check would block (ECHILD) and is redone blocking;
 * then the ACL is cached and RCU-walk passes. */
Test(walk_paths, slow_permission, .fini = wfx_fini)
{
	wfx_build("mkdir /sp\nmount -t slowperm s /sp\nmkdir /sp/d\ntouch /sp/d/f\n");
	cr_expect_eq(lk_err("/sp/d/f", 0), 0);
	expect_counts("unlazy.may_lookup.echild=1 ref.ok=1");
	cr_expect_eq(lk_err("/sp/d/f", 0), 0);
	/* the first walk's REF checks fetched the ACLs it needed */
	expect_counts("rcu.ok=1");
	wfx_verb("acl-uncache /sp/d");
	cr_expect_eq(lk_err("/sp/d/f", 0), 0);
	expect_counts("unlazy.may_lookup.echild=1 ref.ok=1");
	expect_clean();
}

/* remote: an expired entry needs the server (ECHILD in RCU mode), a
 * stale handle is ESTALE, and the LOOKUP_REVAL walk succeeds. */
Test(walk_paths, remote, .fini = wfx_fini)
{
	wfx_build("mkdir /r\nmount -t remote r /r\nmkdir /r/a\ntouch /r/a/f\n");
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	expect_counts("rcu.ok=1");
	wfx_verb("remote-expire /r");
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	expect_counts("unlazy.revalidate.echild=1 ref.ok=1");
	wfx_verb("remote-invalidate /r a");
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	expect_counts("unlazy.revalidate.echild=1 estale.revalidate=1 estale.reval=1 "
		      "retry.revalidate.invalid=1 reval.ok=1");
	expect_clean();
}

/* An automount point: RCU-walk cannot run d_automount. */
Test(walk_paths, automount, .fini = wfx_fini)
{
	wfx_build("mkdir /auto\nmount -t autofs a /auto\nmkdir /auto/t\n");
	cr_expect_eq(lk_err("/auto/t/", 0), 0);
	expect_counts("unlazy.follow_mount.automount=1 ref.ok=1");
	/* mounted now: crossing it is lazy (d_manage says go) */
	cr_expect_eq(lk_err("/auto/t/", 0), 0);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* A busy autofs daemon: d_manage refuses RCU mode. */
Test(walk_paths, automount_busy, .fini = wfx_fini)
{
	wfx_build("mkdir /auto\nmount -t autofs a /auto\nmkdir /auto/t\n");
	cr_expect_eq(lk_err("/auto/t/", 0), 0);
	wfx_verb("autofs-busy /auto on");
	wt_path_counts_clear(&fx.stats);
	cr_expect_eq(lk_err("/auto/t/", 0), 0);
	expect_counts("unlazy.follow_mount.manage=1 ref.ok=1");
	expect_clean();
}

/* A magic link refuses RCU mode and jumps in REF-walk. */
Test(walk_paths, magic_link, .init = plain, .fini = wfx_fini)
{
	wfx_verb("mkdir /proc");
	wfx_verb("mount -t proc p /proc");
	wfx_verb("proc-magic /proc cwd /a/b");
	cr_expect_eq(lk_err("/proc/cwd/f", 0), 0);
	expect_counts("unlazy.jump_link=1 ref.ok=1");
	cr_expect_eq(lk_err("/proc/cwd/f", LOOKUP_NO_MAGICLINKS), -ELOOP);
	expect_counts("unlazy.jump_link=1 ref.error=1");
	expect_clean();
}

/* RESOLVE_CACHED: a miss fails the unlazy at once, the REF retry is EAGAIN;
 * a cached walk finishes lazily. */
Test(walk_paths, cached, .init = plain, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/a/b/f", LOOKUP_CACHED), 0);
	expect_counts("rcu.ok=1");
	cr_expect_eq(lk_err("/a/b/never", LOOKUP_CACHED), -EAGAIN);
	expect_counts("restart.lookup_fast.miss=1 restart.legitimize.cached=1 "
		      "eagain.cached=1 ref.error=1");
	expect_clean();
}

/* Scoped lookups: `..` stays lazy when nothing moved; the BENEATH escape
 * restarts and REF-walk answers EXDEV. */
Test(walk_paths, scoped, .init = plain, .fini = wfx_fini)
{
	struct path dir, p;

	cr_assert_eq(lk("/a", 0, &dir), 0);
	expect_counts("rcu.ok=1");
	cr_expect_eq(lkat(&dir, "b/../b/f", LOOKUP_BENEATH, &p, NULL), 0);
	path_put(&p);
	expect_counts("rcu.ok=1");
	cr_expect_eq(lkat(&dir, "..", LOOKUP_BENEATH, &p, NULL), -EXDEV);
	expect_counts("restart.dotdot.root.beneath=1 ref.error=1");
	path_put(&dir);
	expect_clean();
}

/* A scoped `..` after the walk's own automount: the mount it attached
 * moved mount_lock since path_init, so `..` cannot be trusted: EAGAIN. */
Test(walk_paths, scoped_eagain, .fini = wfx_fini)
{
	struct path dir, p;

	wfx_build("mkdir /auto\nmount -t autofs a /auto\nmkdir /auto/t\n");
	cr_assert_eq(lk("/auto", 0, &dir), 0);
	expect_counts("rcu.ok=1");
	cr_expect_eq(lkat(&dir, "t/..", LOOKUP_BENEATH, &p, NULL), -EAGAIN);
	expect_counts("unlazy.follow_mount.automount=1 eagain.scoped.mount_lock=1 "
		      "ref.error=1");
	/* mounted now: nothing moves, and `..` inside the root is fine */
	cr_expect_eq(lkat(&dir, "t/..", LOOKUP_BENEATH, &p, NULL), 0);
	path_put(&p);
	expect_counts("rcu.ok=1");
	path_put(&dir);
	expect_clean();
}

/* RESOLVE_NO_XDEV at a mountpoint: RCU-walk leaves it to REF-walk (EXDEV);
 * `..` upward restarts. */
Test(walk_paths, no_xdev, .init = plain, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/mnt/x", LOOKUP_NO_XDEV), -EXDEV);
	expect_counts("unlazy.follow_mount.no_xdev=1 ref.error=1");
	wfx_set(&fx.task.pwd, "/mnt/x");
	wt_path_counts_clear(&fx.stats);
	cr_expect_eq(lk_err("../..", LOOKUP_NO_XDEV), -EXDEV);
	expect_counts("restart.dotdot.no_xdev=1 ref.error=1");
	expect_clean();
}

static int op(const char *name, uint64_t flags, uint64_t mode, struct wt_file *f)
{
	struct open_how how = { .flags = flags, .mode = mode };

	int err = do_openat2(&fx.wk, NULL, name, &how, f);

	wfx_judge(name);
	return err;
}

/* open: O_CREAT of a new name leaves RCU-walk at lookup_fast's hash miss
 * (not before the lookup, since 6.12); a plain open of a cached file, and
 * of the file just created, stays lazy. */
Test(walk_paths, open_create, .init = plain, .fini = wfx_fini)
{
	struct wt_file f;

	cr_expect_eq(op("/a/b/f", O_RDONLY, 0, &f), 0);
	wt_file_close(&f);
	expect_counts("rcu.ok=1");
	cr_expect_eq(op("/a/b/g", O_CREAT | O_WRONLY, 0600, &f), 0);
	cr_expect(f.created);
	wt_file_close(&f);
	expect_counts("unlazy.lookup_fast.miss=1 ref.ok=1");
	cr_expect_eq(op("/a/b/g", O_RDONLY, 0, &f), 0);
	wt_file_close(&f);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* How many LOOKUP steps of name the last attempt recorded. */
static unsigned last_attempt_lookups(const char *name)
{
	const struct wt_record *r = fx.rec;
	unsigned n = 0;

	cr_assert_geq(r->nattempts, 1);
	for (uint32_t i = r->attempts[r->nattempts - 1].first; i < r->nsteps; i++) {
		const struct wt_step *s = &r->steps[i];
		const char *t = wt_step_text(r, s);

		n += s->kind == WT_STEP_LOOKUP && t && !strcmp(t, name);
	}
	return n;
}

/*
 * lookup_fast_for_open (6.12+): O_CREAT of an existing cached file is
 * opened without leaving RCU-walk; a cached negative dentry is found,
 * discarded (and forgotten by the record: only lookup_open's lookup
 * stays) and leaves RCU-walk once for the create; O_CREAT|O_EXCL skips
 * the dcache, leaves RCU-walk and answers EEXIST for an existing name;
 * "name/" with O_CREAT is EISDIR before any lookup, still lazy.  Every
 * walk judged by the oracle; exact counts after each.
 */
Test(walk_paths, open_create_lazy_last, .init = plain, .fini = wfx_fini)
{
	struct wt_file f;

	cr_expect_eq(op("/a/b/f", O_CREAT | O_WRONLY, 0600, &f), 0);
	cr_expect(!f.created);
	wt_file_close(&f);
	expect_counts("rcu.ok=1");
	cr_expect_eq(last_attempt_lookups("f"), 1);

	wfx_verb("touch /a/b/gone");
	wfx_verb("rm /a/b/gone");
	cr_expect_eq(op("/a/b/gone", O_CREAT | O_WRONLY, 0600, &f), 0);
	cr_expect(f.created);
	wt_file_close(&f);
	expect_counts("unlazy.open_create=1 ref.ok=1");
	cr_expect_eq(fx.rec->nattempts, 1);
	/* lookup_open's, then the CREATE and the look-up that takes the
	 * new file back (core/open.c create_last) */
	cr_expect_eq(last_attempt_lookups("gone"), 2,
		     "the discarded RCU-mode lookup of the negative dentry is "
		     "still in the record, or the create's is not");
	cr_expect_eq(fx.rec->steps[fx.rec->nsteps - 3].kind, WT_STEP_CREATE);
	cr_expect_eq(fx.rec->steps[fx.rec->nsteps - 2].kind, WT_STEP_LOOKUP);

	cr_expect_eq(op("/a/b/f", O_CREAT | O_EXCL | O_WRONLY, 0600, &f), -EEXIST);
	expect_counts("unlazy.open_create=1 ref.error=1");

	cr_expect_eq(op("/a/b/f/", O_CREAT | O_WRONLY, 0600, &f), -EISDIR);
	expect_counts("rcu.error=1");
	cr_expect_eq(last_attempt_lookups("f"), 0);

	/* through a symlink to the file: followed lazily, opened lazily */
	cr_expect_eq(op("/a/rel/f", O_CREAT | O_WRONLY, 0600, &f), 0);
	wt_file_close(&f);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* Deep nesting grows the link stack; the allocation succeeds lazily. */
Test(walk_paths, link_stack, .fini = wfx_fini)
{
	wfx_build("mkdir -p /c/n0\ntouch /c/n0/f\nln -s n0/. /c/n1\nln -s n1/. /c/n2\n"
		  "ln -s n2/. /c/n3\nln -s n3/. /c/n4\n");
	cr_expect_eq(lk_err("/c/n4/f", 0), 0);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* The record of a lazy walk: every step validated, one attempt. */
Test(walk_paths, record_lazy, .init = plain, .fini = wfx_fini)
{
	const struct wt_record *r = fx.rec;
	unsigned lookups = 0, perms = 0;

	cr_assert_eq(lk_err("/abs/f", 0), 0);
	cr_expect_eq(r->nattempts, 1);
	cr_expect(!r->overflow);
	cr_expect_eq(r->result, 0);
	cr_assert_geq(r->nsteps, 2);
	cr_expect_eq(r->steps[0].kind, WT_STEP_START);
	cr_expect_eq(r->steps[r->nsteps - 1].kind, WT_STEP_END);
	for (uint32_t i = 0; i < r->nsteps; i++) {
		const struct wt_step *s = &r->steps[i];

		cr_expect(s->validated, "step %u (%s) not validated", i,
			  wt_step_kind_name(s->kind));
		cr_expect_eq(s->attempt, 1);
		lookups += s->kind == WT_STEP_LOOKUP;
		perms += s->kind == WT_STEP_PERMISSION;
		if (s->kind == WT_STEP_LINK)
			cr_assert_str_eq(wt_step_text(r, s), "/a/b");
	}
	/* abs, then a, b from the body, then f */
	cr_expect_eq(lookups, 4);
	cr_expect_eq(perms, 4);
}

/* The record of a restarted walk: both attempts, the UNLAZY step, and
 * the history window of each attempt. */
Test(walk_paths, record_attempts, .fini = wfx_fini)
{
	const struct wt_record *r;
	bool unlazy = false;

	wfx_build("mkdir /r\nmount -t remote r /r\nmkdir /r/a\ntouch /r/a/f\n");
	r = fx.rec;
	wfx_verb("remote-invalidate /r a");
	cr_assert_eq(lk_err("/r/a/f", 0), 0);
	cr_expect_eq(r->nattempts, 2);
	cr_expect_eq(r->attempts[0].result, -ESTALE);
	cr_expect_eq(r->attempts[1].result, 0);
	cr_assert_leq(r->attempts[1].version_start, r->attempts[1].version_end);
	cr_expect_eq(r->attempts[1].first, r->attempts[0].first + r->attempts[0].count);
	for (uint32_t i = 0; i < r->attempts[0].count; i++)
		if (r->steps[i].kind == WT_STEP_UNLAZY && r->steps[i].result == 0)
			unlazy = true;
	cr_expect(unlazy, "the first attempt unlazied at the revalidation");
	for (uint32_t i = r->attempts[1].first; i < r->nsteps; i++)
		cr_expect(r->steps[i].validated);
}

/* A walk with recording off counts the same and records nothing. */
Test(walk_paths, no_record, .init = plain, .fini = wfx_fini)
{
	struct wt_record *r = fx.rec;

	fx.wk.record = NULL;
	wt_record_reset(r);
	cr_expect_eq(lk_err("/abs/f", 0), 0);
	cr_expect_eq(r->nsteps, 0);
	expect_counts("rcu.ok=1");
	fx.wk.record = r;
}

/* The catalogue: names unique and found again, every group 0..16 used,
 * and the brief's names present. */
Test(walk_paths, catalogue)
{
	bool group[17] = { false };
	static const char *const must[] = {
		"rcu.ok", "ref.ok", "reval.ok", "eagain.cached",
		"eagain.scoped.mount_lock", "eagain.scoped.rename_lock",
		"estale.reval", "estale.final",
		"restart.legitimize_mnt.sync_umount", "restart.legitimize_mnt.mntput",
		"restart.step_into.child_seq", "restart.lookup_fast.parent_seq",
		"unlazy.lookup_fast.miss", "restart.dotdot.mount_lock",
		"restart.follow_mount.mount_lock", "unlazy.get_link",
		"unlazy.jump_link",
	};

	for (int i = 0; i < WT_PATH__COUNT; i++) {
		const struct wt_path_info *p = wt_path_info((enum wt_path)i);

		cr_expect_eq(wt_path_lookup(p->name), i, "%s", p->name);
		cr_assert_leq(p->group, 16);
		group[p->group] = true;
		cr_expect(p->desc && *p->desc);
	}
	for (int g = 0; g <= 16; g++)
		cr_expect(group[g], "no path in group %d", g);
	for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		cr_assert_geq(wt_path_lookup(must[i]), 0, "%s", must[i]);
	cr_expect_eq(wt_path_lookup("no.such.path"), -1);
}

/* A server-made remote symlink reaches the client with its body uncached:
 * RCU-walk's get_link answers ECHILD, REF-walk fetches and caches it. */
Test(walk_paths, remote_get_link, .fini = wfx_fini)
{
	wfx_build("mkdir /r\nmount -t remote r /r\nmkdir /r/a\n");
	cr_assert_eq(wt_op_remote(fx.w, WT_REMOTE_SYMLINK, "/r", "l", "/r/a", 0), 0);
	cr_expect_eq(lk_err("/r/l", 0), 0);
	expect_counts("unlazy.lookup_fast.miss=1 ref.ok=1");
	expect_same("/r/l", LOOKUP_FOLLOW, "/r/a", false);
	expect_counts("unlazy.get_link=1 ref.ok=1");
	cr_expect_eq(lk_err("/r/l", LOOKUP_FOLLOW), 0);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* A directory deleted on the server: ESTALE, and ESTALE again after the
 * LOOKUP_REVAL attempt, which the caller then gets. */
Test(walk_paths, estale_final, .fini = wfx_fini)
{
	wfx_build("mkdir /r\nmount -t remote r /r\nmkdir -p /r/a/b\n");
	wfx_set(&fx.task.pwd, "/r/a/b");
	wt_path_counts_clear(&fx.stats);
	wfx_verb("remote-rm /r a");
	cr_expect_eq(lk_err("x", 0), -ESTALE);
	expect_counts("unlazy.lookup_fast.miss=1 estale.lookup=2 estale.reval=1 "
		      "estale.final=1 reval.error=1");
	expect_clean();
}

/* The remote root's handle went stale: complete_walk's d_weak_revalidate
 * of the mount root we jumped to says 0 (ESTALE); REVAL refreshes it. */
Test(walk_paths, weak_revalidate, .fini = wfx_fini)
{
	wfx_build("mkdir /r\nmount -t remote r /r\n");
	wfx_verb("remote-invalidate /r ''");
	cr_expect_eq(lk_err("/r", 0), 0);
	expect_counts("estale.weak_revalidate=1 estale.reval=1 reval.ok=1");
	cr_expect_eq(lk_err("/r", 0), 0);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* fs.protected_symlinks: in a sticky world-writable directory, a link
 * owned neither by the follower nor by the directory's owner is refused;
 * RCU-walk cannot audit the denial, so it restarts. */
Test(walk_paths, protected_symlinks, .fini = wfx_fini)
{
	wfx_build("mkdir -m 1777 /tmp\ntouch /tmp/f\nln -s f /tmp/l\nchmod 777 /tmp/f\n"
		  "chown 2000:2000 /tmp\n");
	fx.wk.protected_symlinks = true;
	wfx_cred(1000, 1000);
	cr_expect_eq(lk_err("/tmp/l", LOOKUP_FOLLOW), -EACCES);
	expect_counts("restart.may_follow_link=1 ref.error=1");
	cr_expect_eq(lk_err("/tmp/l", 0), 0, "not followed: allowed");
	expect_counts("rcu.ok=1");
	fx.wk.protected_symlinks = false;
	cr_expect_eq(lk_err("/tmp/l", LOOKUP_FOLLOW), 0);
	expect_counts("rcu.ok=1");
	/* owning the directory is not enough: the link must be the owner's */
	fx.wk.protected_symlinks = true;
	wfx_cred(2000, 2000);
	cr_expect_eq(lk_err("/tmp/l", LOOKUP_FOLLOW), -EACCES);
	expect_counts("restart.may_follow_link=1 ref.error=1");
	wfx_cred(0, 0);
	cr_expect_eq(lk_err("/tmp/l", LOOKUP_FOLLOW), 0, "the link's owner");
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* The link stack's growth is an allocation point: made to fail once in
 * RCU mode, the walk unlazies and allocates again in REF mode. */
Test(walk_paths, link_stack_alloc_fails, .fini = wfx_fini)
{
	struct wt_rule rule;
	struct wt_parse_error perr;
	struct wt_thread *threads[1];
	struct wt_ruleset *rs;
	char err[256];

	wfx_build("mkdir -p /c/n0\ntouch /c/n0/f\nln -s n0/. /c/n1\nln -s n1/. /c/n2\n"
		  "ln -s n2/. /c/n3\n");
	cr_assert_eq(wt_rule_parse("at=nd_alloc_stack fail nth=1", &rule, &perr), 0,
		     "%s", perr.msg);
	threads[0] = &fx.th.t;
	rs = wt_ruleset_create(&rule, 1, threads, 1, NULL, err, sizeof(err));
	cr_assert_not_null(rs, "%s", err);
	fx.th.t.rules = wt_ruleset_thread(rs, &fx.th.t);
	wt_thread_arm(&fx.th.t, true);
	cr_expect_eq(lk_err("/c/n3/f", 0), 0);
	expect_counts("unlazy.link_stack=1 ref.ok=1");
	cr_expect_eq(lk_err("/c/n3/f", 0), 0);
	expect_counts("rcu.ok=1");
	wt_thread_arm(&fx.th.t, false);
	fx.th.t.rules = NULL;
	wt_ruleset_destroy(rs);
	expect_clean();
}

/* SPDX-License-Identifier: MIT */
/*
 * Sequential semantics of the walk engine: each test builds a tree with
 * sim's writer verbs, resolves names with filename_lookup and friends,
 * and compares the answers with sim's own REF resolver (an independent
 * implementation) or with the kernel's documented errors.
 */
#define _GNU_SOURCE	/* O_PATH */
#include <fcntl.h>

#include "core/open_create.h"
#include "sim/ns.h"
#include "tests/test_walk.h"

static const char *base_tree =
	"mkdir -p /a/b/c\n"
	"touch /a/b/f\n"
	"ln -s /a/b /abs\n"
	"ln -s b /a/rel\n"
	"ln -s f /a/b/lf\n"
	"ln -s /nowhere /dangling\n";

static void base(void)
{
	wfx_build(base_tree);
}

/* Plain names: each resolves to what the REF resolver finds. */
Test(walk, plain, .init = base, .fini = wfx_fini)
{
	expect_same("/a/b/f", 0, "/a/b/f", false);
	expect_same("/a/b/c", 0, "/a/b/c", false);
	expect_same("/", 0, "/", false);
	expect_same("//a///b//f", 0, "/a/b/f", false);
	cr_expect_eq(lk_err("/a/b/nope", 0), -ENOENT);
	cr_expect_eq(lk_err("", 0), -ENOENT);
	expect_clean();
}

/* "." stays and ".." goes to d_parent; at "/" ".." stays at "/". */
Test(walk, dots, .init = base, .fini = wfx_fini)
{
	expect_same("/a/./b/../b/f", 0, "/a/b/f", false);
	expect_same("/..", 0, "/", false);
	expect_same("/../../a/..", 0, "/", false);
	expect_same("/a/b/c/../../b/.", 0, "/a/b", false);
	expect_clean();
}

/* ".." at the root of a mount goes to the mountpoint's parent. */
Test(walk, dotdot_mount_root, .fini = wfx_fini)
{
	struct path p, m;

	wfx_build("mkdir -p /mnt\nmount -t tmpfs t /mnt\nmkdir /mnt/x\n");
	expect_same("/mnt/..", 0, "/", false);
	expect_same("/mnt/x/../..", 0, "/", false);
	cr_assert_eq(lk("/mnt", 0, &m), 0);
	cr_assert_eq(lk("/mnt/.", 0, &p), 0);
	cr_expect_eq(p.mnt, m.mnt, "'.' at a mount root stays on the mount");
	cr_assert_neq(m.mnt, fx.w->root_mnt ? &fx.w->root_mnt->mnt : NULL);
	path_put(&p);
	path_put(&m);
	expect_clean();
}

/* ".." at the process root (a chroot) stays there, absolute names start there. */
Test(walk, dotdot_process_root, .init = base, .fini = wfx_fini)
{
	struct path want;

	wfx_set(&fx.task.root, "/a");
	cr_assert_eq(wt_resolve(fx.w, "/a", 0, &want), 0);
	{
		struct path got;

		cr_assert_eq(lk("/..", 0, &got), 0);
		cr_expect_eq(got.dentry, want.dentry, "'..' left the process root");
		path_put(&got);
		cr_assert_eq(lk("/b/../../..", 0, &got), 0);
		cr_expect_eq(got.dentry, want.dentry);
		path_put(&got);
	}
	wt_path_put(&want);
	expect_same("/b/f", 0, "/a/b/f", false);
	/* an absolute symlink is relative to the process root too: /b in
	 * the chroot is /a/b, not the namespace's /b */
	wfx_verb("mkdir /b");
	wfx_verb("touch /b/f");
	wfx_verb("ln -s /b /a/lnk");
	expect_same("/lnk/f", 0, "/a/b/f", false);
	expect_clean();
}

/* Absolute and relative symlinks, in the middle and at the end. */
Test(walk, symlinks, .init = base, .fini = wfx_fini)
{
	struct path p, q;

	expect_same("/abs/f", 0, "/a/b/f", false);
	expect_same("/a/rel/f", 0, "/a/b/f", false);
	expect_same("/a/rel", LOOKUP_FOLLOW, "/a/b", false);
	expect_same("/a/b/lf", LOOKUP_FOLLOW, "/a/b/f", false);
	/* not followed at the end without LOOKUP_FOLLOW */
	cr_assert_eq(lk("/a/b/lf", 0, &p), 0);
	cr_expect(d_is_symlink(p.dentry));
	path_put(&p);
	cr_expect_eq(lk_err("/dangling", LOOKUP_FOLLOW), -ENOENT);
	cr_expect_eq(lk_err("/dangling", 0), 0);
	/* relative to the cwd */
	wfx_set(&fx.task.pwd, "/a");
	expect_same("rel/f", 0, "/a/b/f", false);
	expect_same("b/../rel", LOOKUP_FOLLOW, "/a/b", false);
	cr_assert_eq(lk("rel/c", 0, &p), 0);
	cr_assert_eq(lk("/a/b/c", 0, &q), 0);
	cr_expect_eq(p.dentry, q.dentry);
	path_put(&p);
	path_put(&q);
	expect_clean();
}

/* A trailing slash follows and demands a directory: on a file, ENOTDIR. */
Test(walk, trailing_slash, .init = base, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/a/b/f/", 0), -ENOTDIR);
	cr_expect_eq(lk_err("/a/b/f//", 0), -ENOTDIR);
	expect_same("/a/b/", 0, "/a/b", false);
	expect_same("/abs/", 0, "/a/b", false);	/* the slash follows the link */
	cr_expect_eq(lk_err("/a/b/lf/", 0), -ENOTDIR);
	cr_expect_eq(lk_err("/a/b/f", LOOKUP_DIRECTORY), -ENOTDIR);
	expect_clean();
}

/* A non-directory in the middle of a name is ENOTDIR. */
Test(walk, enotdir, .init = base, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/a/b/f/x", 0), -ENOTDIR);
	cr_expect_eq(lk_err("/a/b/lf/x", 0), -ENOTDIR);
	expect_clean();
}

static char *chain_tree(unsigned n, bool nested)
{
	size_t size = 64 + (size_t)n * 64;
	char *t = malloc(size);
	size_t len = 0;

	cr_assert_not_null(t);
	len += (size_t)snprintf(t + len, size - len, "mkdir -p /c/n0\ntouch /c/n0/f\n");
	for (unsigned i = 1; i <= n; i++)
		len += (size_t)snprintf(t + len, size - len, "ln -s n%u%s /c/n%u\n",
					i - 1, nested ? "/." : "", i);
	return t;
}

/* A chain of 40 symlinks resolves, 41 is ELOOP (MAXSYMLINKS). */
Test(walk, chain_40_41, .fini = wfx_fini)
{
	char *t = chain_tree(41, false);

	wfx_build(t);
	free(t);
	expect_same("/c/n40", LOOKUP_FOLLOW, "/c/n0", false);
	expect_same("/c/n40/f", 0, "/c/n0/f", false);
	cr_expect_eq(lk_err("/c/n41", LOOKUP_FOLLOW), -ELOOP);
	cr_expect_eq(lk_err("/c/n41/f", 0), -ELOOP);
	cr_expect_eq(lk_err("/c/n41", 0), 0);	/* not followed: no count */
	expect_clean();
}

/* Nested links ("n1 -> n0/.") use the non-recursive stack 40 deep. */
Test(walk, nested_40_41, .fini = wfx_fini)
{
	char *t = chain_tree(41, true);

	wfx_build(t);
	free(t);
	expect_same("/c/n40/f", 0, "/c/n0/f", false);
	expect_same("/c/n3", LOOKUP_FOLLOW, "/c/n0", false);
	cr_expect_eq(lk_err("/c/n41/f", 0), -ELOOP);
	expect_clean();
}

/* Symlink loops end in ELOOP. */
Test(walk, loops, .fini = wfx_fini)
{
	wfx_build("ln -s /l2 /l1\nln -s /l1 /l2\nln -s self /self\nmkdir /d\nln -s ../d/x /d/x\n");
	cr_expect_eq(lk_err("/l1", LOOKUP_FOLLOW), -ELOOP);
	cr_expect_eq(lk_err("/self/x", 0), -ELOOP);
	cr_expect_eq(lk_err("/d/x", LOOKUP_FOLLOW), -ELOOP);
	expect_clean();
}

/* ENAMETOOLONG: a component over 255 bytes, a name of 4096 bytes or more. */
Test(walk, enametoolong, .init = base, .fini = wfx_fini)
{
	char comp[300], name[PATH_MAX_LEN + 8];

	memset(comp, 'x', sizeof(comp));
	comp[256] = '\0';
	snprintf(name, sizeof(name), "/a/%s", comp);
	cr_expect_eq(lk_err(name, 0), -ENAMETOOLONG);
	snprintf(name, sizeof(name), "/a/%s/b", comp);
	cr_expect_eq(lk_err(name, 0), -ENAMETOOLONG);
	comp[255] = '\0';
	snprintf(name, sizeof(name), "/a/%s", comp);
	cr_expect_eq(lk_err(name, 0), -ENOENT, "255 bytes is a valid length");
	memset(name, '/', PATH_MAX_LEN);
	name[PATH_MAX_LEN - 1] = '\0';
	cr_expect_eq(lk_err(name, 0), 0, "4095 bytes is a valid length");
	name[PATH_MAX_LEN - 1] = '/';
	name[PATH_MAX_LEN] = '\0';
	cr_expect_eq(lk_err(name, 0), -ENAMETOOLONG);
	expect_clean();
}

/* Without search permission on a directory, non-root walkers get EACCES. */
Test(walk, eacces, .fini = wfx_fini)
{
	wfx_build("mkdir -m 700 /priv\ntouch /priv/f\nmkdir -m 711 /xonly\ntouch /xonly/f\n"
		  "mkdir -p -m 755 /pub/d\n");
	wfx_cred(1000, 1000);
	cr_expect_eq(lk_err("/priv/f", 0), -EACCES);
	cr_expect_eq(lk_err("/priv", 0), 0, "the directory itself is visible");
	cr_expect_eq(lk_err("/xonly/f", 0), 0);
	cr_expect_eq(lk_err("/pub/d", 0), 0);
	wfx_cred(0, 0);
	cr_expect_eq(lk_err("/priv/f", 0), 0, "root overrides");
	wfx_verb("chown 1000:1000 /priv");
	wfx_cred(1000, 1000);
	cr_expect_eq(lk_err("/priv/f", 0), 0, "the owner's bits");
	expect_clean();
}

/* A bind mount shows the same dentries on another mount; ".." leaves it. */
Test(walk, bind_mount, .init = base, .fini = wfx_fini)
{
	struct path p, q;

	wfx_verb("mkdir /bnd");
	wfx_verb("mount --bind /a/b /bnd");
	cr_assert_eq(lk("/bnd/f", 0, &p), 0);
	cr_assert_eq(lk("/a/b/f", 0, &q), 0);
	cr_expect_eq(p.dentry, q.dentry, "same dentry through the bind");
	cr_assert_neq(p.mnt, q.mnt, "on another mount");
	path_put(&p);
	path_put(&q);
	expect_same("/bnd/..", 0, "/", false);
	expect_same("/bnd/c/../f", 0, "/bnd/f", false);
	expect_clean();
}

/* Of mounts stacked on one mountpoint the walk sees the top one. */
Test(walk, stacked_mounts, .fini = wfx_fini)
{
	wfx_build("mkdir /st\nmount -t tmpfs t1 /st\ntouch /st/one\n"
		  "mount -t tmpfs t2 /st\ntouch /st/two\n");
	cr_expect_eq(lk_err("/st/two", 0), 0);
	cr_expect_eq(lk_err("/st/one", 0), -ENOENT);
	expect_same("/st/two", 0, "/st/two", false);
	expect_same("/st/..", 0, "/", false);
	wfx_verb("umount /st");
	cr_expect_eq(lk_err("/st/one", 0), 0, "the lower mount again");
	expect_clean();
}

/* mount --move: the mount appears at the new place and leaves the old. */
Test(walk, move_mount, .fini = wfx_fini)
{
	wfx_build("mkdir /m1 /m2\nmount -t tmpfs t /m1\ntouch /m1/x\n");
	wfx_verb("mount --move /m1 /m2");
	cr_expect_eq(lk_err("/m2/x", 0), 0);
	cr_expect_eq(lk_err("/m1/x", 0), -ENOENT);
	expect_same("/m2/..", 0, "/", false);
	cr_expect_eq(lk_err("/m2/x/..", 0), -ENOTDIR);
	expect_clean();
}

/* A lazily unmounted subtree stays walkable from a cwd inside it. */
Test(walk, lazy_umount, .fini = wfx_fini)
{
	struct path p;

	wfx_build("mkdir /lz\nmount -t tmpfs t /lz\nmkdir -p /lz/d/e\ntouch /lz/d/f\n");
	wfx_set(&fx.task.pwd, "/lz/d");
	wfx_verb("umount -l /lz");
	cr_expect_eq(lk_err("/lz/d", 0), -ENOENT, "gone from the namespace");
	cr_expect_eq(lk_err("f", 0), 0, "still there from inside");
	cr_expect_eq(lk_err("e/../f", 0), 0);
	/* ".." at the detached root has no mountpoint to go to: it stays */
	cr_assert_eq(lk("../..", 0, &p), 0);
	cr_expect_eq(p.mnt, fx.task.pwd.mnt);
	cr_expect_eq(p.dentry, p.mnt->mnt_root);
	path_put(&p);
	expect_clean();
}

/* Crossing an autofs trigger mounts a filesystem there (d_automount). */
Test(walk, automount, .fini = wfx_fini)
{
	struct path p, q;

	wfx_build("mkdir /auto\nmount -t autofs a /auto\nmkdir /auto/t\n");
	/* a plain stat of the trigger itself does not mount */
	cr_assert_eq(lk("/auto/t", 0, &p), 0);
	cr_assert_eq(lk("/auto/t/", 0, &q), 0);
	cr_assert_neq(p.mnt, q.mnt, "the trailing slash crossed into a new mount");
	cr_expect_eq(q.dentry, q.mnt->mnt_root);
	path_put(&p);
	cr_expect_eq(lk_err("/auto/t/nothing", 0), -ENOENT);
	/* now mounted: even a plain stat crosses it */
	cr_assert_eq(lk("/auto/t", 0, &p), 0);
	cr_expect_eq(p.mnt, q.mnt);
	path_put(&p);
	path_put(&q);
	expect_clean();
}

/* RESOLVE_NO_XDEV refuses an automount (a crossing into a new mount). */
Test(walk, automount_no_xdev, .fini = wfx_fini)
{
	struct path p;

	wfx_build("mkdir /auto\nmount -t autofs a /auto\nmkdir /auto/t\n");
	cr_expect_eq(lk_err("/auto/t/", LOOKUP_NO_XDEV), -EXDEV);
	cr_expect_eq(lk_err("/auto/t/x", LOOKUP_NO_XDEV), -EXDEV);
	/* nothing was mounted: a plain stat still stops at the trigger,
	 * not at the root of a new mount (walk.automount) */
	cr_assert_eq(lk("/auto/t", 0, &p), 0);
	cr_expect_neq(p.dentry, p.mnt->mnt_root,
		      "the refused crossing mounted something");
	path_put(&p);
	expect_clean();
}

/* A proc magic link jumps to its target; RESOLVE_NO_MAGICLINKS refuses. */
Test(walk, magic_links, .init = base, .fini = wfx_fini)
{
	wfx_verb("mkdir /proc");
	wfx_verb("mount -t proc p /proc");
	wfx_verb("proc-magic /proc cwd /a/b");
	expect_same("/proc/cwd/f", 0, "/a/b/f", false);
	expect_same("/proc/cwd", LOOKUP_FOLLOW, "/a/b", false);
	cr_expect_eq(lk_err("/proc/cwd/f", LOOKUP_NO_MAGICLINKS), -ELOOP);
	cr_expect_eq(lk_err("/proc/cwd/f", LOOKUP_NO_SYMLINKS), -ELOOP);
	expect_clean();
}

/*
 * mount -o nosymfollow: no link on that mount is followed (ELOOP), in a
 * component or at the end, magic links included; one elsewhere that
 * leads onto it is; a trailing one not followed is reached.  The walk,
 * the oracle (each walk judged), the writers' resolver (touch through a
 * link there) and the REF resolver agree.
 */
Test(walk, nosymfollow_mount, .init = base, .fini = wfx_fini)
{
	struct wt_verb_error e;
	struct path p;

	wfx_verb("mkdir /n /proc");
	wfx_verb("mount -t tmpfs -o nosymfollow,noexec n /n");
	wfx_verb("mkdir /n/d");
	wfx_verb("ln -s d /n/ld");
	wfx_verb("ln -s /n/d /into");
	wfx_verb("mount -t proc p /proc");
	wfx_verb("proc-magic /proc cwd /n");
	cr_expect_eq(lk_err("/n/ld", LOOKUP_FOLLOW), -ELOOP);
	cr_expect_eq(lk_err("/n/ld/", 0), -ELOOP);
	cr_expect_eq(lk_err("/n/ld/x", 0), -ELOOP);
	expect_same("/n/ld", 0, "/n/ld", false);
	expect_same("/into", LOOKUP_FOLLOW, "/n/d", false);
	expect_same("/proc/cwd/ld", 0, "/n/ld", false);
	cr_expect_eq(wt_resolve(fx.w, "/n/ld/x", WT_RES_FOLLOW, &p), -ELOOP);
	cr_expect_neq(wt_tree_build_string(fx.w, "touch /n/ld/x\n", "t", &e), 0);
	cr_expect_eq(e.err, -ELOOP, "touch through a nosymfollow link: %d", e.err);
	/* a bind mount copies the source mount's flags (clone_mnt) */
	wfx_verb("mkdir /b");
	wfx_verb("mount --bind /n /b");
	cr_expect_eq(lk_err("/b/ld", LOOKUP_FOLLOW), -ELOOP);
	expect_clean();
}

/*
 * proc's processes: following another process's magic link is a
 * ptrace-style read check that proc's get_link makes before the jump.
 * uid 1000 follows those of a dumpable uid-1000 process, not those of a
 * non-dumpable one nor root's (EACCES -- under RESOLVE_NO_MAGICLINKS too,
 * whose ELOOP comes only after), and always its own process's; root
 * follows all.  A non-dumpable process's fd directory is root's (0500):
 * the walk stops there, at the permission check.  The oracle judges
 * every walk (without proc's check it rejects the refusals).
 */
Test(walk, proc_task_access, .init = base, .fini = wfx_fini)
{
	wfx_verb("mkdir /proc");
	wfx_verb("mount -t proc p /proc");
	wfx_verb("proc-task -u 1000:1000 --cwd /a --fd 3=/a/b/f 42");
	wfx_verb("proc-task -u 1000:1000 --cwd /a --fd 3=/a/b/f --nondumpable 43");
	wfx_verb("proc-task --cwd /a 44");
	wfx_cred(1000, 1000);
	expect_same("/proc/42/cwd/b", 0, "/a/b", false);
	expect_same("/proc/42/fd/3", LOOKUP_FOLLOW, "/a/b/f", false);
	cr_expect_eq(lk_err("/proc/43/cwd", LOOKUP_FOLLOW), -EACCES);
	cr_expect_eq(lk_err("/proc/43/fd/3", LOOKUP_FOLLOW), -EACCES);
	cr_expect_eq(lk_err("/proc/44/cwd/b", 0), -EACCES);
	cr_expect_eq(lk_err("/proc/44/root/a", 0), -EACCES);
	cr_expect_eq(lk_err("/proc/44/cwd", LOOKUP_FOLLOW | LOOKUP_NO_MAGICLINKS),
		     -EACCES, "the access check comes before the flag's ELOOP");
	cr_expect_eq(lk_err("/proc/42/cwd", LOOKUP_FOLLOW | LOOKUP_NO_MAGICLINKS),
		     -ELOOP);
	cr_expect_eq(lk_err("/proc/44/cwd", 0), 0, "not followed: no check");
	fx.task.cred.tgid = 43;		/* the walker is process 43 */
	expect_same("/proc/43/cwd/b", 0, "/a/b", false);
	wfx_cred(1000, 1001);
	cr_expect_eq(lk_err("/proc/42/cwd/b", 0), -EACCES, "another gid");
	wfx_cred(0, 0);
	fx.task.cred.tgid = 0;
	expect_same("/proc/43/cwd/b", 0, "/a/b", false);
	expect_same("/proc/43/fd/3", LOOKUP_FOLLOW, "/a/b/f", false);
	expect_same("/proc/44/root/a", 0, "/a", false);
	expect_clean();
}

/*
 * A magic link's jump is refused by the scoping flags (nd_jump_link):
 * under RESOLVE_NO_XDEV when it lands on another mount, under
 * RESOLVE_BENEATH and RESOLVE_IN_ROOT always (EXDEV), even when the
 * target lies beneath the starting point.
 */
Test(walk, magic_links_scoped, .init = base, .fini = wfx_fini)
{
	struct path dir, p;

	wfx_verb("mkdir /proc");
	wfx_verb("mount -t proc p /proc");
	wfx_verb("proc-magic /proc cwd /a/b");
	cr_expect_eq(lk_err("/proc/cwd/f", LOOKUP_NO_XDEV), -EXDEV);
	cr_expect_eq(lk_err("/proc/cwd", LOOKUP_NO_XDEV | LOOKUP_FOLLOW), -EXDEV);
	cr_assert_eq(lk("/proc", 0, &dir), 0);
	cr_expect_eq(lkat(&dir, "cwd/f", LOOKUP_BENEATH, &p, NULL), -EXDEV);
	cr_expect_eq(lkat(&dir, "cwd", LOOKUP_BENEATH | LOOKUP_FOLLOW, &p, NULL),
		     -EXDEV);
	cr_expect_eq(lkat(&dir, "cwd/f", LOOKUP_IN_ROOT, &p, NULL), -EXDEV);
	/* not followed, the link itself is beneath /proc */
	cr_assert_eq(lkat(&dir, "cwd", LOOKUP_BENEATH, &p, NULL), 0);
	path_put(&p);
	path_put(&dir);
	expect_clean();
}

/*
 * The walker's ref_only knob: the ladder starts in REF-walk, the walk
 * counts ref.ok, never rcu.*, the record's first attempt is plain
 * REF-walk and the oracle accepts it -- and rejects the same record
 * when it claims a full ladder, which must begin in RCU-walk.
 */
Test(walk, ref_only, .init = base, .fini = wfx_fini)
{
	struct wt_oracle_input in = {
		.record = fx.rec, .cred = &fx.task.cred, .name = "/a/rel/f",
		.root_mnt = real_mount(fx.task.root.mnt)->wt.id,
		.root_dentry = fx.task.root.dentry->wt.id,
	};
	struct wt_oracle_result res;

	expect_same("/a/rel/f", 0, "/a/b/f", false);
	expect_counts("rcu.ok=1");
	fx.wk.ref_only = true;
	expect_same("/a/rel/f", 0, "/a/b/f", false);
	cr_expect(fx.rec->ref_only);
	cr_assert_eq(fx.rec->nattempts, 1);
	cr_expect_eq(fx.rec->attempts[0].flags & LOOKUP_RCU, 0);
	cr_expect_eq(lk_err("/a/b/nope", 0), -ENOENT);
	expect_counts("ref.ok=1 ref.error=1");
	cr_assert_eq(lk_err("/a/rel/f", 0), 0);
	fx.rec->ref_only = false;
	cr_expect_eq(wt_oracle_check(fx.w->history, &in, &res),
		     WT_VERDICT_REJECTED, "a REF first attempt of a full ladder");
	expect_clean();
}

/* A casefold filesystem matches names whatever their case. */
Test(walk, casefold, .fini = wfx_fini)
{
	struct path p, q;

	wfx_build("mkdir /cf\nmount -t casefold c /cf\nmkdir /cf/Dir\ntouch /cf/Dir/Hello\n");
	cr_assert_eq(lk("/cf/dir/hello", 0, &p), 0);
	cr_assert_eq(lk("/cf/DIR/HELLO", 0, &q), 0);
	cr_expect_eq(p.dentry, q.dentry);
	path_put(&p);
	path_put(&q);
	expect_same("/cf/dIr/HeLLo", 0, "/cf/Dir/Hello", false);
	expect_clean();
}

/* A stale remote handle answers ESTALE until the LOOKUP_REVAL walk. */
Test(walk, remote_estale_then_reval, .fini = wfx_fini)
{
	wfx_build("mkdir /r\nmount -t remote r /r\nmkdir /r/a\ntouch /r/a/f\n");
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	wfx_verb("remote-invalidate /r a");
	cr_expect_eq(lk_err("/r/a/f", 0), 0, "the REVAL attempt refreshes the handle");
	cr_expect_eq(fx.rec->nattempts, 2);
	cr_expect_eq(fx.rec->attempts[0].result, -ESTALE);
	cr_expect_eq(fx.rec->attempts[1].flags & LOOKUP_REVAL, LOOKUP_REVAL);
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	expect_clean();
}

/* RESOLVE_NO_SYMLINKS: any symlink is ELOOP, even in mid-path. */
Test(walk, resolve_no_symlinks, .init = base, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/abs/f", LOOKUP_NO_SYMLINKS), -ELOOP);
	cr_expect_eq(lk_err("/a/b/lf", LOOKUP_NO_SYMLINKS | LOOKUP_FOLLOW), -ELOOP);
	cr_expect_eq(lk_err("/a/b/lf", LOOKUP_NO_SYMLINKS), 0, "not followed");
	cr_expect_eq(lk_err("/a/b/f", LOOKUP_NO_SYMLINKS), 0);
	expect_clean();
}

/* RESOLVE_NO_XDEV: no mount crossing down or up (EXDEV). */
Test(walk, resolve_no_xdev, .fini = wfx_fini)
{
	wfx_build("mkdir -p /mnt /d\nmount -t tmpfs t /mnt\nmkdir /mnt/x\nln -s /mnt/x /d/l\n");
	cr_expect_eq(lk_err("/mnt/x", LOOKUP_NO_XDEV), -EXDEV);
	cr_expect_eq(lk_err("/d", LOOKUP_NO_XDEV), 0);
	cr_expect_eq(lk_err("/d/l", LOOKUP_NO_XDEV | LOOKUP_FOLLOW), -EXDEV);
	wfx_set(&fx.task.pwd, "/mnt/x");
	cr_expect_eq(lk_err("../..", LOOKUP_NO_XDEV), -EXDEV);
	cr_expect_eq(lk_err("..", LOOKUP_NO_XDEV), 0);
	expect_clean();
}

/* RESOLVE_BENEATH: no ".." above the start and no absolute names (EXDEV). */
Test(walk, resolve_beneath, .init = base, .fini = wfx_fini)
{
	struct path dir, p;

	cr_assert_eq(lk("/a", 0, &dir), 0);
	cr_expect_eq(lkat(&dir, "b/f", LOOKUP_BENEATH, &p, NULL), 0);
	path_put(&p);
	cr_expect_eq(lkat(&dir, "b/../b/f", LOOKUP_BENEATH, &p, NULL), 0);
	path_put(&p);
	cr_expect_eq(lkat(&dir, "..", LOOKUP_BENEATH, &p, NULL), -EXDEV);
	cr_expect_eq(lkat(&dir, "/a", LOOKUP_BENEATH, &p, NULL), -EXDEV);
	cr_expect_eq(lkat(&dir, "../a/b", LOOKUP_BENEATH, &p, NULL), -EXDEV);
	/* an absolute symlink escapes too */
	cr_expect_eq(lkat(NULL, "abs", LOOKUP_BENEATH, &p, NULL), 0);
	path_put(&p);
	cr_expect_eq(lkat(NULL, "abs/f", LOOKUP_BENEATH, &p, NULL), -EXDEV);
	path_put(&dir);
	expect_clean();
}

/* RESOLVE_IN_ROOT: the dirfd is the root: "/" and ".." stay inside. */
Test(walk, resolve_in_root, .init = base, .fini = wfx_fini)
{
	struct path dir, p, want;

	cr_assert_eq(lk("/a", 0, &dir), 0);
	cr_assert_eq(wt_resolve(fx.w, "/a/b/f", 0, &want), 0);
	cr_assert_eq(lkat(&dir, "/b/f", LOOKUP_IN_ROOT, &p, NULL), 0);
	cr_expect_eq(p.dentry, want.dentry);
	path_put(&p);
	cr_assert_eq(lkat(&dir, "../../b/f", LOOKUP_IN_ROOT, &p, NULL), 0);
	cr_expect_eq(p.dentry, want.dentry);
	path_put(&p);
	/* the absolute link /abs -> /a/b would be /a/a/b inside /a */
	cr_expect_eq(lkat(NULL, "/abs/f", LOOKUP_IN_ROOT, &p, NULL), 0);
	path_put(&p);
	wfx_verb("ln -s /b /a/inroot");
	cr_assert_eq(lkat(&dir, "inroot/f", LOOKUP_IN_ROOT, &p, NULL), 0);
	cr_expect_eq(p.dentry, want.dentry, "an absolute link inside the root");
	path_put(&p);
	wt_path_put(&want);
	path_put(&dir);
	expect_clean();
}

/* RESOLVE_CACHED: what the dcache holds resolves; the rest is EAGAIN. */
Test(walk, resolve_cached, .init = base, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/a/b/f", LOOKUP_CACHED), 0);
	cr_expect_eq(lk_err("/a/b/never", LOOKUP_CACHED), -EAGAIN, "a miss needs ->lookup");
	cr_expect_eq(lk_err("/a/b/never", 0), -ENOENT);
	cr_expect_eq(lk_err("/a/b/never", LOOKUP_CACHED), -ENOENT,
		     "now a cached negative dentry answers lazily");
	expect_clean();
}

/* filename_parentat: the parent and the last component, not looked up. */
Test(walk, parentat, .init = base, .fini = wfx_fini)
{
	struct path parent, want;
	struct qstr last;
	int type;

	cr_assert_eq(pat(NULL, "/abs/newname", 0, &parent,
				       &last, &type), 0);
	cr_assert_eq(wt_resolve(fx.w, "/a/b", 0, &want), 0);
	cr_expect_eq(parent.dentry, want.dentry);
	cr_expect_eq(type, LAST_NORM);
	cr_expect_eq(last.len, 7);
	cr_expect(!strncmp(last.name, "newname", 7));
	path_put(&parent);
	wt_path_put(&want);
	cr_assert_eq(pat(NULL, "/a/..", 0, &parent, &last,
				       &type), 0);
	cr_expect_eq(type, LAST_DOTDOT);
	path_put(&parent);
	cr_assert_eq(pat(NULL, "/", 0, &parent, &last,
				       &type), 0);
	cr_expect_eq(type, LAST_ROOT);
	path_put(&parent);
	cr_expect_eq(pat(NULL, "/a/b/f/x", 0, &parent,
				       &last, &type), -ENOTDIR);
	expect_clean();
}

/* filename_mountpoint reaches the top mount, also through ".". */
Test(walk, mountpoint, .fini = wfx_fini)
{
	struct path p, q;

	wfx_build("mkdir /mnt\nmount -t tmpfs t /mnt\nmkdir /mnt/x\n");
	cr_assert_eq(mpt(NULL, "/mnt", 0, &p), 0);
	cr_assert_eq(lk("/mnt/x/..", 0, &q), 0);
	cr_expect_eq(p.mnt, q.mnt);
	cr_expect_eq(p.dentry, q.dentry);
	path_put(&p);
	path_put(&q);
	expect_clean();
}

static int op(const char *name, uint64_t flags, uint64_t mode,
	      uint64_t resolve, struct wt_file *f)
{
	struct open_how how = { .flags = flags, .mode = mode, .resolve = resolve };

	int err = do_openat2(&fx.wk, NULL, name, &how, f);

	wfx_judge(name);
	return err;
}

/* open: O_CREAT creates, O_EXCL refuses an existing name, O_NOFOLLOW and
 * O_DIRECTORY have their errors. */
Test(walk, open_flags, .init = base, .fini = wfx_fini)
{
	struct wt_file f;

	cr_expect_eq(op("/a/b/f", O_RDONLY, 0, 0, &f), 0);
	cr_expect(!f.created);
	wt_file_close(&f);
	cr_assert_eq(op("/a/b/new", O_CREAT | O_WRONLY, 0644, 0, &f), 0);
	cr_expect(f.created);
	wt_file_close(&f);
	expect_same("/a/b/new", 0, "/a/b/new", false);
	cr_expect_eq(op("/a/b/new", O_CREAT | O_EXCL | O_WRONLY, 0644, 0, &f), -EEXIST);
	cr_expect_eq(op("/a/b/new", O_CREAT | O_WRONLY, 0644, 0, &f), 0);
	cr_expect(!f.created);
	wt_file_close(&f);
	cr_expect_eq(op("/a/b/lf", O_RDONLY | O_NOFOLLOW, 0, 0, &f), -ELOOP);
	cr_expect_eq(op("/a/b/lf", O_RDONLY, 0, 0, &f), 0);
	wt_file_close(&f);
	cr_expect_eq(op("/a/b/f", O_RDONLY | O_DIRECTORY, 0, 0, &f), -ENOTDIR);
	cr_expect_eq(op("/a/b", O_RDONLY | O_DIRECTORY, 0, 0, &f), 0);
	wt_file_close(&f);
	cr_expect_eq(op("/a/b", O_WRONLY, 0, 0, &f), -EISDIR);
	cr_expect_eq(op("/a/b/x/", O_CREAT | O_WRONLY, 0644, 0, &f), -EISDIR);
	cr_expect_eq(op("/a/b/f", O_CREAT | O_DIRECTORY, 0644, 0, &f), -EINVAL);
	cr_expect_eq(op("/dangling", O_CREAT | O_EXCL | O_WRONLY, 0644, 0, &f), -EEXIST,
		     "O_EXCL does not follow the dangling link");
	cr_expect_eq(op("/a/b/f", O_RDONLY, 0, RESOLVE_CACHED, &f), 0);
	wt_file_close(&f);
	cr_expect_eq(op("/a/b/f", O_CREAT | O_RDONLY, 0644, RESOLVE_CACHED, &f), -EAGAIN);
	cr_expect_eq(op("/a/b/lf", O_PATH | O_NOFOLLOW, 0, 0, &f), 0);
	cr_expect(d_is_symlink(f.path.dentry));
	wt_file_close(&f);
	expect_clean();
}

/* A writer verb's errno (0 when it ran). */
static int verb_err(const char *line)
{
	struct wt_verb_error e;

	return wt_verb_exec(fx.w, line, &e) ? e.err : 0;
}

/* Open and close: the errno (0 when it opened). */
static int op_err(const char *name, uint64_t flags)
{
	struct wt_file f;
	int err = op(name, flags, (flags & O_CREAT) ? 0644 : 0, 0, &f);

	if (!err)
		wt_file_close(&f);
	return err;
}

/*
 * mount -o ro: every write is EROFS -- open's (a write mode after may_open,
 * O_TRUNC of a file before it, O_CREAT of an absent name) and every
 * writer verb's -- in the kernel's order among the other errors; reads,
 * O_PATH, and O_CREAT of an existing name are not writes.  A read-only
 * bind mount leaves the filesystem writable elsewhere; a read-only
 * filesystem stays so through a mount remounted rw with bind.  Each open
 * is judged by the oracle (which must explain EROFS by the mount).
 */
Test(walk, readonly_mounts, .init = base, .fini = wfx_fini)
{
	wfx_verb("mkdir /r /w /b /c");
	wfx_verb("mount -t tmpfs -o ro r /r");
	wfx_verb("mkdir /w/d");
	wfx_verb("touch /w/f");
	wfx_verb("mount --bind -o ro /w /b");
	cr_expect_eq(op_err("/b/f", O_RDONLY), 0);
	cr_expect_eq(op_err("/b/f", O_WRONLY), -EROFS);
	cr_expect_eq(op_err("/b/f", O_RDWR), -EROFS);
	cr_expect_eq(op_err("/b/f", O_RDONLY | O_TRUNC), -EROFS);
	cr_expect_eq(op_err("/b/new", O_CREAT | O_RDONLY), -EROFS);
	cr_expect_eq(op_err("/r/new", O_CREAT | O_WRONLY), -EROFS);
	cr_expect_eq(op_err("/b/f", O_CREAT | O_RDONLY), 0, "exists: no write");
	cr_expect_eq(op_err("/b/f", O_CREAT | O_EXCL | O_RDONLY), -EEXIST);
	cr_expect_eq(op_err("/b/d", O_WRONLY), -EISDIR, "may_open first");
	cr_expect_eq(op_err("/b/d", O_RDONLY | O_TRUNC), -EISDIR);
	cr_expect_eq(op_err("/b/f", O_PATH), 0);
	cr_expect_eq(op_err("/w/f", O_WRONLY | O_TRUNC), 0, "writable elsewhere");
	/* a read-only mount: may_open's EACCES first; a read-only filesystem
	 * refuses in inode_permission, before owner and mode */
	wfx_verb("chmod 0600 /w/f");
	wfx_cred(1000, 1000);
	cr_expect_eq(op_err("/b/f", O_WRONLY), -EACCES);
	cr_expect_eq(op_err("/b/f", O_RDONLY | O_TRUNC), -EROFS, "mnt_want_write first");
	cr_expect_eq(op_err("/r/new", O_CREAT | O_RDONLY), -EROFS, "not EACCES");
	wfx_cred(0, 0);
	/* writers: EROFS after a create's EEXIST, before unlink's lookup */
	cr_expect_eq(verb_err("mkdir /b/x"), -EROFS);
	cr_expect_eq(verb_err("mkdir /b/d"), -EEXIST);
	cr_expect_eq(verb_err("mkdir -p /b/d/e"), -EROFS);
	cr_expect_eq(verb_err("touch /b/f"), 0, "an existing name is kept");
	cr_expect_eq(verb_err("touch /b/g"), -EROFS);
	cr_expect_eq(verb_err("ln -s f /b/l"), -EROFS);
	cr_expect_eq(verb_err("ln /w/f /b/h"), -EROFS, "before EXDEV");
	cr_expect_eq(verb_err("rm /b/nope"), -EROFS, "before the lookup");
	cr_expect_eq(verb_err("rm /b/f"), -EROFS);
	cr_expect_eq(verb_err("rmdir /b/d"), -EROFS);
	cr_expect_eq(verb_err("mv /b/f /b/g"), -EROFS);
	cr_expect_eq(verb_err("chmod 0644 /b/f"), -EROFS);
	cr_expect_eq(verb_err("chown 1:1 /b/f"), -EROFS);
	cr_expect_eq(verb_err("touch -h /b/f"), -EROFS);
	cr_expect_eq(verb_err("chmod 0644 /w/f"), 0);
	/* a bind mount copies ro; remount: one mount, or the filesystem */
	wfx_verb("mount --bind /b /c");
	cr_expect_eq(op_err("/c/f", O_WRONLY), -EROFS);
	cr_expect_eq(verb_err("mount -o remount,bind,rw /b/d"), -EINVAL, "not a mount root");
	wfx_verb("mount -o remount,bind,rw /b");
	cr_expect_eq(op_err("/b/f", O_WRONLY), 0);
	cr_expect_eq(op_err("/c/f", O_WRONLY), -EROFS, "the other bind stays ro");
	wfx_verb("mount -o remount,bind,rw /r");
	cr_expect_eq(op_err("/r/new", O_CREAT | O_WRONLY), -EROFS, "the fs is ro");
	wfx_verb("mount -o remount,rw /r");
	cr_expect_eq(op_err("/r/new", O_CREAT | O_WRONLY), 0);
	wfx_verb("mount -o remount,ro /");
	cr_expect_eq(verb_err("mkdir /w/y"), -EROFS);
	cr_expect_eq(op_err("/b/f", O_WRONLY), -EROFS, "through every mount");
	/* the history logged every change: its snapshot lists what the
	 * world holds (the mount's ro, the filesystem's sb_ro) */
	{
		struct wt_ns *ns = wt_ns_create(fx.w->history,
						wt_history_version(fx.w->history));
		char *live = wt_world_dump_string(fx.w);
		char *snap = wt_ns_dump_string(ns);

		cr_expect_str_eq(live, snap);
		cr_expect(strstr(live, "mount / plain rootfs ro,sb_ro\n"), "%s", live);
		cr_expect(strstr(live, "mount /b plain rootfs sb_ro\n"), "%s", live);
		cr_expect(strstr(live, "mount /c plain rootfs ro,sb_ro\n"), "%s", live);
		cr_expect(strstr(live, "mount /r tmpfs r rw\n"), "%s", live);
		free(live);
		free(snap);
		wt_ns_destroy(ns);
	}
	expect_clean();
}

/* d_path of a removed result: its old name and " (deleted)"; a result
 * still in the tree: its name. */
Test(walk, d_path_deleted, .init = base, .fini = wfx_fini)
{
	char buf[PATH_MAX_LEN];
	struct path p;

	cr_assert_eq(lk("/a/b/f", 0, &p), 0);
	cr_assert_eq(wt_dir_path(fx.w, &p, NULL, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/a/b/f");
	wfx_verb("rm /a/b/f");
	cr_assert_eq(wt_dir_path(fx.w, &p, NULL, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "/a/b/f (deleted)");
	path_put(&p);
	expect_clean();
}

/* do_file_open_root walks from the given root, which is also the walk's root. */
Test(walk, open_root, .init = base, .fini = wfx_fini)
{
	struct open_flags opf;
	struct open_how how = { .flags = O_RDONLY };
	struct path root, want;
	struct wt_file f;

	cr_assert_eq(build_open_flags(&how, &opf), 0);
	cr_assert_eq(lk("/a", 0, &root), 0);
	cr_assert_eq(wt_resolve(fx.w, "/a/b/f", 0, &want), 0);
	cr_assert_eq(openroot(&root, "/b/f", &opf, &f), 0);
	cr_expect_eq(f.path.dentry, want.dentry);
	wt_file_close(&f);
	cr_assert_eq(openroot(&root, "../../b/f", &opf, &f), 0);
	cr_expect_eq(f.path.dentry, want.dentry);
	wt_file_close(&f);
	wt_path_put(&want);
	path_put(&root);
	expect_clean();
}

/* The RESOLVE_* words map to their bits, and an unknown word is refused. */
Test(walk, resolve_parse)
{
	uint64_t r;
	const char *bad = NULL;

	cr_assert_eq(wt_resolve_parse("no-symlinks,beneath,cached", &r, &bad), 0);
	cr_expect_eq(r, RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_CACHED);
	cr_expect_eq(wt_resolve_lookup_flags(r),
		     LOOKUP_NO_SYMLINKS | LOOKUP_BENEATH | LOOKUP_CACHED);
	cr_expect_eq(wt_resolve_parse("no-xdev,bogus", &r, &bad), -1);
	cr_assert_str_eq(bad, "bogus");
}

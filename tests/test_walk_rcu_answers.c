/* SPDX-License-Identifier: MIT */
/*
 * Exact exit-path counts, with nothing concurrent, for the three answers
 * that make RCU-walk give up on a filesystem's word rather than on a
 * race: d_revalidate saying 0 (a remote client's bad inode), saying an
 * error (the same seen through overlayfs: -ESTALE), and a symlink whose
 * atime needs updating (touch -h).  Each walk asserts every counter, the
 * forced path at its exact value and all the others at 0, and the
 * oracle judges it.
 */
#include "tests/test_walk.h"

static void remote(void)
{
	wfx_build("mkdir /r\nmount -t remote srv /r\nmkdir /r/a\ntouch /r/a/f\n");
}

/* A bad inode answers 0 in RCU mode: unlazy with the child, drop it,
 * look a up again; the fresh inode then walks lazily. */
Test(walk_rcu_answers, revalidate_invalid, .init = remote, .fini = wfx_fini)
{
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	expect_counts("rcu.ok=1");
	wfx_verb("remote-bad /r a");
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	expect_counts("unlazy.revalidate.invalid=1 ref.ok=1");
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* Through overlayfs the 0 is -ESTALE, in RCU mode too: unlazy, fail;
 * the LOOKUP_REVAL walk meets the same bad inode and ESTALE is final.
 * Off again, the same dentry answers 0 and the walk succeeds. */
Test(walk_rcu_answers, revalidate_error, .init = remote, .fini = wfx_fini)
{
	wfx_verb("remote-bad /r a");
	wfx_verb("remote-layer /r on");
	cr_expect_eq(lk_err("/r/a/f", 0), -ESTALE);
	expect_counts("unlazy.revalidate.error=1 estale.revalidate=2 "
		      "estale.reval=1 estale.final=1 reval.error=1");
	wfx_verb("remote-layer /r off");
	cr_expect_eq(lk_err("/r/a/f", 0), 0);
	expect_counts("unlazy.revalidate.invalid=1 ref.ok=1");
	expect_clean();
}

/* touch -h makes the next follow update the link's atime: RCU-walk
 * unlazies at pick_link (mid-path and trailing alike); once touched, the
 * link is followed lazily again.  A walk that does not follow the link
 * (lstat) leaves the update due. */
Test(walk_rcu_answers, atime, .fini = wfx_fini)
{
	wfx_build("mkdir /d\ntouch /d/f\nln -s /d /l\ntouch -h /l\n");
	cr_expect_eq(lk_err("/l", 0), 0);
	expect_counts("rcu.ok=1");
	cr_expect_eq(lk_err("/l/f", 0), 0);
	expect_counts("unlazy.atime=1 ref.ok=1");
	cr_expect_eq(lk_err("/l/f", 0), 0);
	expect_counts("rcu.ok=1");
	wfx_verb("touch -h /l");
	cr_expect_eq(lk_err("/l", LOOKUP_FOLLOW), 0);
	expect_counts("unlazy.atime=1 ref.ok=1");
	cr_expect_eq(lk_err("/l", LOOKUP_FOLLOW), 0);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/*
 * The link's mount decides whether an atime update is due: never on a
 * noatime mount or a read-only filesystem (IS_NOATIME), so RCU-walk
 * stays lazy; on a read-only bind mount of a writable filesystem it is
 * due, but touch_atime gets no write access there, so every follow
 * through it unlazies -- until the same link is followed through a
 * writable mount, which updates it.
 */
Test(walk_rcu_answers, atime_mount_flags, .fini = wfx_fini)
{
	wfx_build("mkdir /n /b /s /d\n"
		  "mount -t tmpfs -o noatime n /n\nmkdir /n/d\nln -s d /n/l\n"
		  "touch -h /n/l\n"
		  "ln -s /d /l\ntouch -h /l\nmount --bind -o ro / /b\n"
		  "mount -t tmpfs s /s\nmkdir /s/d\nln -s d /s/l\ntouch -h /s/l\n"
		  "mount -o remount,ro /s\n");
	cr_expect_eq(lk_err("/n/l/", 0), 0);
	expect_counts("rcu.ok=1");
	cr_expect_eq(lk_err("/s/l/", 0), 0);
	expect_counts("rcu.ok=1");
	cr_expect_eq(lk_err("/b/l/", 0), 0);
	expect_counts("unlazy.atime=1 ref.ok=1");
	cr_expect_eq(lk_err("/b/l/", 0), 0);
	expect_counts("unlazy.atime=1 ref.ok=1");
	cr_expect_eq(lk_err("/l/", 0), 0);
	expect_counts("unlazy.atime=1 ref.ok=1");
	cr_expect_eq(lk_err("/b/l/", 0), 0);
	expect_counts("rcu.ok=1");
	expect_clean();
}

/* SPDX-License-Identifier: MIT */
/*
 * generic_permission and inode_permission: the owner, group and other
 * classes as the kernel judges them (the owner by the owner bits alone,
 * a group member by the group bits alone), root's CAP_DAC_OVERRIDE
 * (anything on a directory, read and write on a file, exec only when
 * some x bit is set), and the filesystem's own permission() taking over.
 */
#include <criterion/criterion.h>

#include "sim/fs/slowperm.h"
#include "tests/vfs_test.h"

static struct wt_world *w;

static void setup(void)
{
	w = t_world(1, 8, 4);
}

static void teardown(void)
{
	wt_world_destroy(w);
}

static struct cred user(uint32_t uid, uint32_t gid)
{
	struct cred c = { .uid = uid, .gid = gid };

	return c;
}

static struct cred root_cred(void)
{
	struct cred c = { .uid = 0, .gid = 0, .cap_dac_override = true };

	return c;
}

static int perm(umode_t mode, uint32_t uid, uint32_t gid,
		const struct cred *c, int mask)
{
	struct inode *inode = wt_inode_alloc(t_root(w)->d_sb, mode, uid, gid);
	int ret = generic_permission(c, inode, mask);

	iput(inode);
	return ret;
}

#define REG(bits)	(WT_S_IFREG | (bits))
#define DIR(bits)	(WT_S_IFDIR | (bits))

Test(perm, owner_group_other_matrix, .init = setup, .fini = teardown)
{
	struct cred owner = user(100, 7), member = user(101, 200);
	struct cred other = user(102, 300), supp = user(103, 300);

	supp.ngroups = 2;
	supp.groups[0] = 50;
	supp.groups[1] = 200;
	/* 0640, owner 100, group 200 */
	cr_assert_eq(perm(REG(0640), 100, 200, &owner, MAY_READ), 0);
	cr_assert_eq(perm(REG(0640), 100, 200, &owner, MAY_WRITE), 0);
	cr_assert_eq(perm(REG(0640), 100, 200, &owner, MAY_EXEC), -EACCES);
	cr_assert_eq(perm(REG(0640), 100, 200, &member, MAY_READ), 0);
	cr_assert_eq(perm(REG(0640), 100, 200, &member, MAY_WRITE), -EACCES);
	cr_assert_eq(perm(REG(0640), 100, 200, &supp, MAY_READ), 0,
		     "a supplementary group counts");
	cr_assert_eq(perm(REG(0640), 100, 200, &other, MAY_READ), -EACCES);
	cr_assert_eq(perm(REG(0644), 100, 200, &other, MAY_READ), 0);
	cr_assert_eq(perm(REG(0644), 100, 200, &other, MAY_READ | MAY_WRITE),
		     -EACCES, "every bit asked must be granted");
}

Test(perm, a_class_is_judged_by_its_own_bits_alone,
     .init = setup, .fini = teardown)
{
	struct cred owner = user(100, 7), member = user(101, 200);
	struct cred other = user(102, 300);

	cr_assert_eq(perm(REG(0077), 100, 200, &owner, MAY_READ), -EACCES,
		     "the owner is denied though group and other may read");
	cr_assert_eq(perm(REG(0604), 100, 200, &member, MAY_READ), -EACCES,
		     "a member is denied though other may read");
	cr_assert_eq(perm(REG(0604), 100, 200, &other, MAY_READ), 0);
	cr_assert_eq(perm(DIR(0710), 100, 200, &member, MAY_EXEC), 0,
		     "search by group");
	cr_assert_eq(perm(DIR(0710), 100, 200, &other, MAY_EXEC), -EACCES);
}

Test(perm, root_overrides_but_not_exec_without_any_x,
     .init = setup, .fini = teardown)
{
	struct cred r = root_cred();
	struct cred plain_root = user(0, 0);	/* uid 0 without the capability */

	cr_assert_eq(perm(REG(0000), 100, 200, &r, MAY_READ), 0);
	cr_assert_eq(perm(REG(0000), 100, 200, &r, MAY_WRITE), 0);
	cr_assert_eq(perm(REG(0000), 100, 200, &r, MAY_EXEC), -EACCES,
		     "root cannot run what nobody may run");
	cr_assert_eq(perm(REG(0644), 100, 200, &r, MAY_EXEC), -EACCES);
	cr_assert_eq(perm(REG(0001), 100, 200, &r, MAY_EXEC), 0,
		     "one x bit anywhere is enough");
	cr_assert_eq(perm(REG(0100), 100, 200, &r, MAY_EXEC | MAY_READ), 0);
	cr_assert_eq(perm(DIR(0000), 100, 200, &r, MAY_EXEC), 0,
		     "search on any directory");
	cr_assert_eq(perm(DIR(0000), 100, 200, &r, MAY_READ | MAY_WRITE), 0);
	cr_assert_eq(perm(REG(0600), 100, 200, &plain_root, MAY_READ), -EACCES,
		     "the override is the capability, not uid 0");
}

Test(perm, may_not_block_is_ignored_by_the_generic_check,
     .init = setup, .fini = teardown)
{
	struct cred other = user(102, 300);

	cr_assert_eq(perm(DIR(0755), 100, 200, &other, MAY_EXEC | MAY_NOT_BLOCK), 0);
	cr_assert_eq(perm(DIR(0750), 100, 200, &other, MAY_EXEC | MAY_NOT_BLOCK),
		     -EACCES);
}

/* inode_permission calls the type's permission(): slowperm's answers
 * -ECHILD to a MAY_NOT_BLOCK check until the ACL is fetched. */
Test(perm, inode_permission_uses_the_type, .init = setup, .fini = teardown)
{
	struct super_block *sb = wt_sb_create(w, wt_fs_type_lookup("slowperm"), "sp");
	struct inode *dir = d_inode(sb->s_root);
	struct inode *plain = d_inode(t_root(w));
	struct cred other = user(102, 300);

	cr_assert_eq(inode_permission(&other, dir, MAY_EXEC | MAY_NOT_BLOCK), -ECHILD);
	cr_assert_eq(inode_permission(&other, plain, MAY_EXEC | MAY_NOT_BLOCK), 0);
	cr_assert_eq(inode_permission(&other, dir, MAY_EXEC), 0);
	cr_assert_eq(inode_permission(&other, dir, MAY_EXEC | MAY_NOT_BLOCK), 0);
	wt_sb_discard(sb);
}

/* SPDX-License-Identifier: MIT */
/*
 * super_blocks: creation with a root directory, the active count that
 * mounts hold, and the teardown when the last mount of one is freed
 * (the model of deactivate_super -> kill_sb -> generic_shutdown_super).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/rcu.h"
#include "sim/vfs/internal.h"
#include "sim/vfs/world.h"

#define WT_ROOT_MODE	(WT_S_IFDIR | 0755)

static void world_add_sb(struct wt_world *w, struct super_block *sb)
{
	spin_lock(&w->list_lock);
	sb->s_next = w->supers;
	w->supers = sb;
	spin_unlock(&w->list_lock);
}

static void world_del_sb(struct wt_world *w, struct super_block *sb)
{
	struct super_block **pp;

	spin_lock(&w->list_lock);
	for (pp = &w->supers; *pp && *pp != sb; pp = &(*pp)->s_next)
		;
	if (*pp)
		*pp = sb->s_next;
	spin_unlock(&w->list_lock);
}

struct super_block *wt_sb_create(struct wt_world *w,
				 const struct file_system_type *type,
				 const char *name)
{
	struct super_block *sb;
	struct inode *inode;

	if (wt_alloc_should_fail(WT_ALLOC_POINT("sb_create")))
		return NULL;
	sb = wt_world_obj_alloc(w, sizeof(*sb));
	if (!sb)
		return NULL;
	wt_obj_init(&sb->wt, WT_OBJ_SUPER, wt_world_new_id(w));
	sb->s_type = type;
	sb->s_world = w;
	snprintf(sb->s_name, sizeof(sb->s_name), "%s", name ? name : type->name);
	sb->s_next_ino = 1;
	/* The fs-private state first: the root's instantiate may need it
	 * (remote hangs the server's root node on the root inode). */
	if (type->fill_super && type->fill_super(sb))
		goto fail;
	inode = wt_inode_alloc(sb, WT_ROOT_MODE, 0, 0);
	if (!inode)
		goto fail_kill;
	if (!d_alloc_root(sb, inode))
		goto fail_kill;
	world_add_sb(w, sb);
	return sb;

fail_kill:
	/* An inode may be left on the list if the root failed. */
	while (sb->s_inodes)
		wt_inode_destroy(sb->s_inodes);
	if (type->kill_super)
		type->kill_super(sb);
fail:
	wt_obj_free(&sb->wt, sizeof(*sb));
	return NULL;
}

/*
 * kill_sb: every dentry and inode goes, then the fs-private state, then
 * the super_block itself -- all through RCU, for an RCU-walker may have
 * loaded any of them before the last mount went.
 */
static void kill_sb(struct super_block *sb)
{
	struct wt_world *w = sb->s_world;

	wt_dcache_kill_sb(sb);
	/* Left over: referenced without a dentry (reported by the kill). */
	while (sb->s_inodes)
		wt_inode_kill(sb->s_inodes);
	if (sb->s_type->kill_super)
		sb->s_type->kill_super(sb);
	world_del_sb(w, sb);
	call_rcu_free(w->rcu, &sb->wt, sizeof(*sb), NULL);
}

void deactivate_super(struct super_block *sb)
{
	int active = wt_atomic_sub_return(&sb->s_active, 1);

	if (active < 0)
		wt_violation(WT_CHECK_INVARIANT, NULL, sb,
			     "deactivate_super of %s below zero", sb->s_name);
	if (active == 0)
		kill_sb(sb);
}

/*
 * The shrinker's pin on a victim's super_block: s_active + 1, unless it
 * is 0 -- the super_block is on its way to kill_sb, which takes its
 * dentries itself.  Without it a kill could run while a shrink pass has
 * a victim in hand, mark the victim's parent dead, and leave the pass
 * to put that parent once more (Linux's super_cache_scan holds s_umount
 * shared for the same reason: generic_shutdown_super waits for it).
 * Raw atomics: no injection point, so no schedule moves.
 */
bool wt_super_pin(struct super_block *sb)
{
	int n = __atomic_load_n(&sb->s_active, __ATOMIC_RELAXED);

	while (n > 0)		/* a failed exchange reloads n */
		if (__atomic_compare_exchange_n(&sb->s_active, &n, n + 1, false,
						__ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

/* The pin's release: the last reference kills, as deactivate_super's. */
void wt_super_unpin(struct super_block *sb)
{
	if (__atomic_sub_fetch(&sb->s_active, 1, __ATOMIC_SEQ_CST) == 0)
		kill_sb(sb);
}

void wt_sb_discard(struct super_block *sb)
{
	if (__atomic_load_n(&sb->s_active, __ATOMIC_RELAXED) != 0) {
		wt_violation(WT_CHECK_INVARIANT, NULL, sb,
			     "wt_sb_discard of mounted %s", sb->s_name);
		return;
	}
	kill_sb(sb);
}

void wt_sb_destroy(struct super_block *sb)
{
	while (sb->s_inodes)
		wt_inode_destroy(sb->s_inodes);
	if (sb->s_type->kill_super)
		sb->s_type->kill_super(sb);
	wt_obj_free(&sb->wt, sizeof(*sb));
}

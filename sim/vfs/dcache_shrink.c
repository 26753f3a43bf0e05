/* SPDX-License-Identifier: MIT */
/*
 * The death of unused dentries: the shrinker, and the teardown of every
 * dentry of a super_block whose last mount went.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/bug.h"
#include "sim/rcu.h"
#include "sim/sched/sched.h"
#include "sim/vfs/dcache.h"
#include "sim/vfs/dcache_internal.h"
#include "sim/vfs/world.h"

/* ------------------------------------------------------------------ */
/* The shrinker and super_block teardown                               */

/* d_lock held.  Positive dentries of an in-memory filesystem are its only
 * copy of the names: only remote can look them up again. */
static bool d_shrinkable(const struct dentry *d)
{
	unsigned f = d->d_flags;

	if (d->d_lockref.count != 0 || d->d_subdirs || IS_ROOT(d))
		return false;
	if (f & (DCACHE_MOUNTED | DCACHE_DENTRY_KILLED | DCACHE_PERSISTENT |
		 DCACHE_PAR_LOOKUP) || d->d_mount_count)
		return false;
	return d_is_negative_flags(f) || d->d_sb->s_type->kind == WT_FS_REMOTE;
}

/* One pass: mark every shrinkable dentry dead under the list lock (a
 * trylock: a busy dentry is skipped, it is in use anyway), then finish
 * them with no lock held.  A victim has no children, so none is another
 * victim's parent; its super_block stays pinned until it is finished,
 * and one being killed is left to the kill (wt_super_pin). */
static unsigned shrink_pass(struct wt_world *w)
{
	struct dentry *victims = NULL, *d, *next;
	unsigned n = 0;

	spin_lock(&w->list_lock);
	for (d = w->dentries; d; d = next) {
		next = d->d_all_next;
		if (!spin_trylock(&d->d_lock))
			continue;
		if (!d_shrinkable(d) || !wt_super_pin(d->d_sb)) {
			spin_unlock(&d->d_lock);
			continue;
		}
		dentry_mark_dead(d);
		spin_unlock(&d->d_lock);
		__wt_world_del_dentry(d);
		d->d_all_next = victims;	/* our list now */
		victims = d;
	}
	spin_unlock(&w->list_lock);
	for (d = victims; d; d = next, n++) {
		struct super_block *sb = d->d_sb;

		next = d->d_all_next;
		d->d_all_next = NULL;
		dput(dentry_finish_kill(d));
		wt_super_unpin(sb);
	}
	return n;
}

unsigned wt_dcache_shrink(struct wt_world *w)
{
	unsigned total = 0, n;

	/* Each pass kills at least one of finitely many, or ends. */
	do {
		n = shrink_pass(w);
		total += n;
	} while (n);
	return total;
}

static int d_children(const struct dentry *d)
{
	int n = 0;

	for (const struct dentry *c = d->d_subdirs; c; c = c->d_sib)
		n++;
	return n;
}

/* Mark one of a dying super_block's dentries dead; the references it may
 * hold are its children's, its filesystem's pin, and for the root the
 * super_block's. */
static void kill_sb_mark(struct super_block *sb, struct dentry *d)
{
	int busy;

	spin_lock(&d->d_lock);
	busy = d->d_lockref.count - d_children(d) - (d == sb->s_root) -
	       !!(d->d_flags & DCACHE_PERSISTENT);
	dentry_mark_dead(d);
	spin_unlock(&d->d_lock);
	if (busy > 0)
		wt_violation(WT_CHECK_INVARIANT, NULL, d,
			     "dentry %llu still in use (%d) at umount of %s",
			     (unsigned long long)d->wt.id, busy, sb->s_name);
}

void wt_dcache_kill_sb(struct super_block *sb)
{
	struct wt_world *w = sb->s_world;
	struct dentry *victims = NULL, *d, *next;

	spin_lock(&w->list_lock);
	for (d = w->dentries; d; d = next) {
		next = d->d_all_next;
		if (d->d_sb != sb)
			continue;
		__wt_world_del_dentry(d);
		d->d_all_next = victims;
		victims = d;
	}
	spin_unlock(&w->list_lock);
	/* First all dead, so no lookup finds any, then each freed: the whole
	 * tree goes, so the children lists need no unlinking. */
	for (d = victims; d; d = d->d_all_next)
		kill_sb_mark(sb, d);
	for (d = victims; d; d = next) {
		struct inode *inode;

		next = d->d_all_next;
		spin_lock(&d->d_lock);
		inode = d_make_negative(d);
		spin_unlock(&d->d_lock);
		iput(inode);
		d_free(d);
	}
}

void wt_dentry_destroy(struct dentry *d)
{
	const char *name = d->d_name.name;

	if (dname_external(d, name)) {
		struct external_name *n = external_name(name);

		if (--n->count == 0)
			wt_obj_free(&n->wt, external_name_size(n->len));
	}
	wt_obj_free(&d->wt, sizeof(*d));
}

/* SPDX-License-Identifier: MIT */
/*
 * d_move and d_exchange, the kernel's __d_move: its lock order, both
 * seqs, the unhash, names and parents switched, the rehash; and
 * ancestry (is_subdir).
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
/* d_move and d_exchange                                               */

/* The child of p1 that is p2 or an ancestor of p2, if p1 is an ancestor
 * of p2; NULL otherwise.  rename_lock held: parents cannot change. */
static struct dentry *d_ancestor(struct dentry *p1, struct dentry *p2)
{
	unsigned depth = 0;

	for (struct dentry *p = p2; !IS_ROOT(p); p = p->d_parent) {
		if (p->d_parent == p1)
			return p;
		if (++depth > WT_DEPTH_MAX)
			break;
	}
	return NULL;
}

/* A move of a directory into its own subtree would cut it loose. */
static bool d_move_valid(struct dentry *dentry, struct dentry *target)
{
	return d_ancestor(dentry->d_parent, target) != dentry &&
	       !d_ancestor(target, dentry);
}

/*
 * The kernel's lock order for __d_move: ancestors before descendants.
 * If old_parent is an ancestor of target, it goes first; otherwise
 * target's parent does (it may be an ancestor of old_parent).  Then the
 * two dentries.
 */
static void d_move_lock(struct dentry *dentry, struct dentry *target)
{
	struct dentry *old_parent = dentry->d_parent;
	struct dentry *new_parent = target->d_parent;
	struct dentry *p = d_ancestor(old_parent, target);

	if (!p) {
		spin_lock(&new_parent->d_lock);
		spin_lock(&old_parent->d_lock);
	} else {
		spin_lock(&old_parent->d_lock);
		if (p != target)
			spin_lock(&new_parent->d_lock);
	}
	spin_lock(&dentry->d_lock);
	spin_lock(&target->d_lock);
}

static void d_move_unlock(struct dentry *dentry, struct dentry *target,
			  struct dentry *old_parent)
{
	if (dentry->d_parent != old_parent)
		spin_unlock(&dentry->d_parent->d_lock);
	spin_unlock(&old_parent->d_lock);
	spin_unlock(&target->d_lock);
	spin_unlock(&dentry->d_lock);
}

/* copy_name: dentry takes target's name (sharing an external one by
 * count).  Returns the name dentry had, for the caller to put. */
static const char *copy_name(struct dentry *dentry, struct dentry *target)
{
	const char *old = dentry->d_name.name;
	const char *tname = target->d_name.name;
	uint32_t len = target->d_name.len;

	if (dname_external(target, tname)) {
		wt_atomic_add_return(&external_name(tname)->count, 1);
		wt_store_release(dentry, d_name.name, tname);
	} else {
		/* Bytes first, then the pointer: a reader that sees our
		 * inline buffer named sees its bytes. */
		d_iname_set(dentry, tname, len);
		wt_store_release(dentry, d_name.name, (const char *)dentry->d_iname);
	}
	wt_store(dentry, d_name.hash, target->d_name.hash);
	wt_store(dentry, d_name.len, len);
	return old;
}

/* swap_names (RENAME_EXCHANGE): an inline name moves by copy into the
 * other's buffer, an external one by pointer. */
static void swap_names(struct dentry *a, struct dentry *b)
{
	const char *an = a->d_name.name, *bn = b->d_name.name;
	uint32_t alen = a->d_name.len, blen = b->d_name.len;
	uint32_t ahash = a->d_name.hash, bhash = b->d_name.hash;
	bool aext = dname_external(a, an), bext = dname_external(b, bn);

	if (aext && bext) {
		wt_store_release(a, d_name.name, bn);
		wt_store_release(b, d_name.name, an);
	} else if (bext) {
		d_iname_set(b, an, alen);
		wt_store_release(a, d_name.name, bn);
		wt_store_release(b, d_name.name, (const char *)b->d_iname);
	} else if (aext) {
		d_iname_set(a, bn, blen);
		wt_store_release(b, d_name.name, an);
		wt_store_release(a, d_name.name, (const char *)a->d_iname);
	} else {
		char tmp[DNAME_INLINE_LEN];

		for (uint32_t i = 0; i <= alen; i++)
			tmp[i] = d_name_byte(an, i);
		d_iname_set(a, bn, blen);
		d_iname_set(b, tmp, alen);
	}
	wt_store(a, d_name.hash, bhash);
	wt_store(a, d_name.len, blen);
	wt_store(b, d_name.hash, ahash);
	wt_store(b, d_name.len, alen);
}

/* Both d_locks and the parents' held: names and parents switched. */
static void __d_move_switch(struct dentry *dentry, struct dentry *target,
			    struct dentry *old_parent, bool exchange)
{
	struct dentry *new_parent = target->d_parent;

	wt_store_release(dentry, d_parent, new_parent);
	if (!exchange) {
		/* target keeps its name and parent until it dies. */
		d_name_put(d_world(dentry), dentry, copy_name(dentry, target));
		wt_dget_dlock(new_parent);
		wt_dput_dlock(old_parent);
		if (old_parent->d_lockref.count <= 0)
			wt_violation(WT_CHECK_LOCKREF, NULL, old_parent,
				     "d_move: old parent %llu lost its last ref",
				     (unsigned long long)old_parent->wt.id);
	} else {
		wt_store_release(target, d_parent, old_parent);
		swap_names(dentry, target);
		d_child_del(target);
		d_child_add(old_parent, target);
		__d_rehash(target);
	}
	d_child_del(dentry);
	d_child_add(new_parent, dentry);
	__d_rehash(dentry);
}

static void __d_move(struct dentry *dentry, struct dentry *target,
		     bool exchange)
{
	struct wt_world *w = d_world(dentry);
	const struct file_system_type *t = dentry->d_sb->s_type;
	struct dentry *old_parent = dentry->d_parent;

	if (!spin_is_locked(&w->rename_lock.lock) || dentry == target ||
	    IS_ROOT(dentry) || IS_ROOT(target) || !dentry->d_inode) {
		wt_violation(WT_CHECK_INVARIANT, NULL, dentry,
			     "d_move misuse (rename_lock not held, a root, "
			     "a negative source, or onto itself)");
		return;
	}
	if (!d_move_valid(dentry, target)) {
		wt_violation(WT_CHECK_INVARIANT, NULL, dentry,
			     "d_move into its own subtree");
		return;
	}
	if (t->rename)
		t->rename(dentry, target, exchange);
	d_move_lock(dentry, target);
	/* Both seqs, never a parent's: a walker standing in either parent
	 * is not disturbed, one standing on either dentry is. */
	write_seqcount_begin(&dentry->d_seq);
	write_seqcount_begin(&target->d_seq);
	if (!d_unhashed(dentry))
		__d_unhash(dentry);
	if (!d_unhashed(target))
		__d_unhash(target);
	__d_move_switch(dentry, target, old_parent, exchange);
	write_seqcount_end(&target->d_seq);
	write_seqcount_end(&dentry->d_seq);
	d_move_unlock(dentry, target, old_parent);
}

void d_move(struct dentry *dentry, struct dentry *target)
{
	__d_move(dentry, target, false);
}

void d_exchange(struct dentry *a, struct dentry *b)
{
	__d_move(a, b, true);
}

/* ------------------------------------------------------------------ */
/* Ancestry                                                            */

static bool d_is_descendant(const struct dentry *d,
			    const struct dentry *ancestor)
{
	const struct dentry *p = d;

	for (unsigned depth = 0; depth <= WT_DEPTH_MAX; depth++) {
		const struct dentry *parent;

		if (p == ancestor)
			return true;
		parent = d_parent_rcu(p);
		if (parent == p)
			return false;
		p = parent;
	}
	return false;
}

bool is_subdir(const struct dentry *d, const struct dentry *ancestor)
{
	struct wt_world *w = d_world(d);
	unsigned seq;
	bool r;

	if (d == ancestor)
		return true;
	if (rename_lock_mine(w))
		return d_is_descendant(d, ancestor);
	for (unsigned round = 0; round < WT_SEQ_ROUNDS_MAX; round++) {
		seq = read_seqbegin_at(&w->rename_lock, "is_subdir.rename_lock");
		rcu_read_lock();
		r = d_is_descendant(d, ancestor);
		rcu_read_unlock();
		if (!read_seqretry_at(&w->rename_lock, seq, "is_subdir.rename_retry"))
			return r;
	}
	read_seqlock_excl(&w->rename_lock);
	r = d_is_descendant(d, ancestor);
	read_sequnlock_excl(&w->rename_lock);
	return r;
}

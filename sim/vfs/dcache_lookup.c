/* SPDX-License-Identifier: MIT */
/*
 * The dcache lookups: __d_lookup_rcu (RCU-walk's lookup_fast), __d_lookup
 * (REF-walk's), d_lookup (with the rename_lock retry) and
 * d_alloc_parallel (lookup_slow's allocator, with the in-lookup wait).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/bug.h"
#include "sim/rcu.h"
#include "sim/sched/sched.h"
#include "sim/thread.h"
#include "sim/vfs/dcache.h"
#include "sim/vfs/dcache_internal.h"
#include "sim/vfs/world.h"

/* ------------------------------------------------------------------ */
/* Lookup                                                              */

enum d_cmp { D_COMP_OK, D_COMP_NOMATCH, D_COMP_SEQRETRY };

/*
 * The name compare of __d_lookup_rcu, after the seq sample: d may be
 * renamed under us at any time, so each field is loaded once.
 */
static enum d_cmp d_cmp_rcu(const struct dentry *parent, struct dentry *d,
			    unsigned seq, const struct qstr *name,
			    bool op_compare)
{
	struct wt_world *w = d_world(parent);
	const char *tname;
	uint32_t tlen;

	if (wt_load(d, d_name.hash) != name->hash)
		return D_COMP_NOMATCH;
	tlen = wt_load(d, d_name.len);
	tname = wt_load_acquire(d, d_name.name);
	if (!op_compare) {
		/* dentry_cmp: a torn (len, name) pair at worst mismatches;
		 * the caller's seq check rejects a wrong match. */
		if (tlen != name->len ||
		    !d_name_alive(d, tname, WT_ACCESS_POINT(WT_K_LOAD,
				"d_name", "read an external name's bytes")))
			return D_COMP_NOMATCH;
		return dentry_string_cmp(tname, name->name, tlen) ?
			D_COMP_NOMATCH : D_COMP_OK;
	}
	/*
	 * slow_dentry_cmp: d_compare gets the (name, len) pair we loaded;
	 * it must be consistent, or a rename between the two loads hands
	 * d_compare a length that is not the name's.  The d_seq retry
	 * proves no rename came in since the sample.
	 * Zoo: WT_BUG_SLOW_CMP_NO_SEQ removes it (d_compare then reads a
	 * torn pair, or an external name a rename already let go of).
	 */
	if (!wt_bug(w, WT_BUG_SLOW_CMP_NO_SEQ) &&
	    read_seqcount_retry_at(&d->d_seq, seq, "d_lookup_rcu.cmp_seq"))
		return D_COMP_SEQRETRY;
	if (!d_name_alive(d, tname, WT_ACCESS_POINT(WT_K_LOAD, "d_name",
			  "d_compare reads an external name")))
		return D_COMP_NOMATCH;
	return parent->d_op->d_compare(d, tlen, tname, name) ?
		D_COMP_NOMATCH : D_COMP_OK;
}

/* One candidate of __d_lookup_rcu, from its seq sample on. */
static enum d_cmp d_match_rcu(const struct dentry *parent, struct dentry *d,
			      unsigned seq, const struct qstr *name,
			      bool op_compare)
{
	/* The parent again, now that the sample orders it: a d_move that
	 * moved d away before the sample is seen here. */
	if (wt_load(d, d_parent) != parent)
		return D_COMP_NOMATCH;
	if (d_unhashed(d))
		return D_COMP_NOMATCH;
	return d_cmp_rcu(parent, d, seq, name, op_compare);
}

/* Is the chain element alive?  A dead one (freed without a grace period,
 * or a caller outside its RCU section) is reported and ends the walk: its
 * link is poison. */
static bool d_chain_alive(const struct dentry *d)
{
	wt_obj_check(&d->wt, WT_ACCESS_POINT(WT_K_LOAD, "d_hash",
					     "a dcache chain element"));
	return __atomic_load_n(&d->wt.magic, __ATOMIC_RELAXED) == WT_OBJ_LIVE;
}

/*
 * The next chain element.  d may have died while the walk looked at it
 * (freed without a grace period): the load reports the poison, and the
 * link it read is poison too, so the walk ends here instead of following
 * it into the harness's own SIGSEGV.
 */
static struct dentry *d_chain_next(const struct dentry *d)
{
	struct dentry *next = wt_load_acquire(d, d_hash_next);

	if (__atomic_load_n(&d->wt.magic, __ATOMIC_RELAXED) != WT_OBJ_LIVE)
		return NULL;
	return next;
}

struct dentry *__d_lookup_rcu(const struct dentry *parent,
			      const struct qstr *name, unsigned *seqp)
{
	struct wt_world *w = d_world(parent);
	bool op_compare = d_flags_load(parent) & DCACHE_OP_COMPARE;
	uint32_t b = d_bucket_of(w, parent, name->hash);
	struct dentry *d = smp_load_acquire(&w->dcache_hash[b]);

	/* No rename_lock: a miss (even a false one, d_move carrying the
	 * walk off into another chain) falls back to lookup_slow, whose
	 * d_lookup retries under rename_lock. */
	for (; d; d = d_chain_next(d)) {
		enum d_cmp r;
		unsigned seq;

		WT_HOOK(WT_K_HASH_STEP, "d_lookup_rcu.hash_step", "d_hash",
			"one step along a dcache hash chain", d);
		if (!d_chain_alive(d))
			break;
		if (wt_load(d, d_parent) != parent)
			continue;
		/* The caller validates every load from d against this
		 * sample (nd->next_seq, checked in step_into). */
		seq = raw_seqcount_begin_at(&d->d_seq, "d_lookup_rcu.seq");
		for (unsigned round = 0;; round++) {
			r = d_match_rcu(parent, d, seq, name, op_compare);
			if (r != D_COMP_SEQRETRY)
				break;
			/* A rename is under way: wait for it to end and
			 * sample again (the kernel spins on raw samples;
			 * a blocked wait is the same without the livelock).
			 * Renames that never stop end in a miss, which is
			 * always safe in RCU mode. */
			if (round == WT_SEQ_ROUNDS_MAX) {
				r = D_COMP_NOMATCH;
				break;
			}
			cpu_relax();
			seq = read_seqcount_begin_at(&d->d_seq,
						     "d_lookup_rcu.seqretry");
		}
		if (r == D_COMP_OK) {
			*seqp = seq;
			WT_EVENT("d_lookup_rcu.hit", d);
			return d;
		}
	}
	WT_EVENT("d_lookup_rcu.miss", parent);
	return NULL;
}

/* __d_lookup's check of one candidate, under its d_lock. */
static bool d_lookup_match(const struct dentry *d, const struct dentry *parent,
			   const struct qstr *name)
{
	if (d->d_parent != parent || !(d->d_flags & DCACHE_HASHED))
		return false;
	return d->d_name.hash == name->hash && d_same_name(d, parent, name);
}

struct dentry *__d_lookup(const struct dentry *parent, const struct qstr *name)
{
	struct wt_world *w = d_world(parent);
	struct qstr q = *name;
	struct dentry *d, *found = NULL;

	if (d_hash_name(parent, &q))
		return NULL;
	rcu_read_lock();
	d = smp_load_acquire(&w->dcache_hash[d_bucket_of(w, parent, q.hash)]);
	for (; d; d = d_chain_next(d)) {
		WT_HOOK(WT_K_HASH_STEP, "d_lookup.hash_step", "d_hash",
			"one step along a dcache hash chain (REF mode)", d);
		if (!d_chain_alive(d))
			break;
		if (wt_load(d, d_name.hash) != q.hash)
			continue;
		spin_lock(&d->d_lock);
		if (d_lookup_match(d, parent, &q)) {
			wt_dget_dlock(d);
			found = d;
		}
		spin_unlock(&d->d_lock);
		if (found)
			break;
	}
	rcu_read_unlock();
	return found;
}

struct dentry *d_lookup(const struct dentry *parent, const struct qstr *name)
{
	struct wt_world *w = d_world(parent);
	struct dentry *d;
	unsigned seq;

	/* Our own rename in progress: nothing else can move a dentry. */
	if (rename_lock_mine(w))
		return __d_lookup(parent, name);
	/*
	 * Zoo: WT_BUG_D_LOOKUP_NO_RENAME_LOCK looks once: a d_move that
	 * carries the chain walk into another bucket makes the miss final,
	 * and lookup_slow then creates a second dentry for a name that
	 * exists (or reports ENOENT for it).
	 */
	if (wt_bug(w, WT_BUG_D_LOOKUP_NO_RENAME_LOCK))
		return __d_lookup(parent, name);
	for (unsigned round = 0; round < WT_SEQ_ROUNDS_MAX; round++) {
		seq = read_seqbegin_at(&w->rename_lock, "d_lookup.rename_lock");
		d = __d_lookup(parent, name);
		if (d)
			return d;
		/* A miss is final only if no rename ran meanwhile. */
		if (!read_seqretry_at(&w->rename_lock, seq, "d_lookup.rename_retry"))
			return NULL;
	}
	/* Renames keep coming: look once with them excluded. */
	read_seqlock_excl(&w->rename_lock);
	d = __d_lookup(parent, name);
	read_sequnlock_excl(&w->rename_lock);
	return d;
}

/* ------------------------------------------------------------------ */
/* d_alloc_parallel                                                    */

/* parent->d_lock held: a child already standing for name, hashed or in
 * lookup, referenced. */
static struct dentry *d_find_child_locked(struct dentry *parent,
					  const struct qstr *name)
{
	for (struct dentry *c = parent->d_subdirs; c; c = c->d_sib) {
		bool match;

		spin_lock(&c->d_lock);
		match = !(c->d_flags & DCACHE_DENTRY_KILLED) &&
			(c->d_flags & (DCACHE_HASHED | DCACHE_PAR_LOOKUP)) &&
			c->d_name.hash == name->hash &&
			d_same_name(c, parent, name);
		if (match)
			wt_dget_dlock(c);
		spin_unlock(&c->d_lock);
		if (match)
			return c;
	}
	return NULL;
}

static bool d_lookup_finished(const void *arg)
{
	return !(d_flags_load(arg) & DCACHE_PAR_LOOKUP);
}

/* d_wait_lookup: another thread is looking the name up; its answer is
 * ours.  A sleeping wait (the kernel's wait queue). */
static bool d_wait_lookup(struct dentry *d, const struct dentry *parent,
			  const struct qstr *name)
{
	bool ok;

	wt_wait(WT_WAIT_SLEEP, d_lookup_finished, d);
	spin_lock(&d->d_lock);
	ok = d_lookup_match(d, parent, name);
	spin_unlock(&d->d_lock);
	return ok;
}

struct dentry *d_alloc_parallel(struct dentry *parent, const struct qstr *name)
{
	struct qstr q = *name;
	struct dentry *d, *other;
	int err = d_hash_name(parent, &q);

	if (err)
		return ERR_PTR(err);
	for (unsigned round = 0; round < WT_IN_LOOKUP_ROUNDS_MAX; round++) {
		d = d_lookup(parent, &q);
		if (d)
			return d;
		d = __d_alloc(parent->d_sb, &q);
		if (!d)
			return ERR_PTR(-ENOMEM);
		d->d_flags |= DCACHE_PAR_LOOKUP;
		spin_lock(&parent->d_lock);
		other = d_find_child_locked(parent, &q);
		if (!other) {
			wt_dget_dlock(parent);
			d->d_parent = parent;
			d_child_add(parent, d);
			spin_unlock(&parent->d_lock);
			wt_world_add_dentry(d_world(d), d);
			return d;
		}
		spin_unlock(&parent->d_lock);
		d_free_unused(d);
		if (!(d_flags_load(other) & DCACHE_PAR_LOOKUP) ||
		    d_wait_lookup(other, parent, &q))
			return other;
		/* Its lookup failed or it moved: start over. */
		dput(other);
	}
	/*
	 * The kernel starts over for as long as it takes: a livelock, not
	 * an answer (no lookup returns EAGAIN).  Report it, then unwind.
	 */
	wt_violation(WT_CHECK_INVARIANT, NULL, parent,
		     "livelock: d_alloc_parallel started over %u times (the "
		     "kernel would loop forever)", WT_IN_LOOKUP_ROUNDS_MAX);
	return ERR_PTR(-EAGAIN);
}

void d_lookup_done(struct dentry *d)
{
	spin_lock(&d->d_lock);
	d_flags_update(d, DCACHE_PAR_LOOKUP, 0);
	spin_unlock(&d->d_lock);
}

/* SPDX-License-Identifier: MIT */
/*
 * The dentry cache: chain layout, d_move between chains, the RCU lookup's
 * seq sample, d_lookup's rename_lock retry, d_delete's two outcomes,
 * external names freed through RCU, the shrinker, and layout determinism
 * across processes.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/bug.h"
#include "sim/sched/sched.h"
#include "sim/vfs/dcache_internal.h"
#include "tests/vfs_test.h"

#define DIR_MODE	(WT_S_IFDIR | 0755)
#define REG_MODE	(WT_S_IFREG | 0644)

static struct dentry *chain_head(struct wt_world *w, uint32_t b)
{
	return __atomic_load_n(&w->dcache_hash[b], __ATOMIC_ACQUIRE);
}

static bool chain_has(struct dentry *from, const struct dentry *d)
{
	for (struct dentry *c = from; c; c = c->d_hash_next)
		if (c == d)
			return true;
	return false;
}

/*
 * A reader standing on a dentry that d_move carries into another bucket
 * follows it into the new chain and misses the rest of the old one.  Four
 * buckets; x is put at the head of bucket 0 in front of y, z alone in
 * bucket 1; the walk stands on x, x is renamed to a bucket-1 name, and
 * the walk's next step is z, never y.
 */
Test(dcache, d_move_carries_a_reader_into_the_new_chain)
{
	struct wt_world *w = t_world(7, 4, 4);
	struct dentry *root = t_root(w), *x, *y, *z, *target, *cur;
	char ny[32], nx[32], nz[32], nt[32];

	t_name_in_bucket(w, root, "y", 0, ny, sizeof(ny));
	t_name_in_bucket(w, root, "x", 0, nx, sizeof(nx));
	t_name_in_bucket(w, root, "z", 1, nz, sizeof(nz));
	t_name_in_bucket(w, root, "t", 1, nt, sizeof(nt));
	y = t_mk(root, ny, REG_MODE);
	x = t_mk(root, nx, REG_MODE);		/* head of bucket 0: x, y */
	z = t_mk(root, nz, REG_MODE);		/* bucket 1: z */
	target = t_neg(root, nt);		/* bucket 1: target, z */
	cr_assert_eq(x->d_bucket, 0);
	cr_assert_eq(z->d_bucket, 1);
	cr_assert_eq(chain_head(w, 0), x);
	cr_assert_eq(x->d_hash_next, y);

	cur = chain_head(w, 0);			/* the reader stands on x */
	t_move(w, x, target);
	cr_assert_eq(x->d_bucket, 1);
	cr_assert(d_unhashed(target));
	cr_assert_eq(chain_head(w, 1), x, "moved to the head of bucket 1");
	cr_assert_eq(chain_head(w, 0), y, "y is all that is left in bucket 0");
	/* The reader's next step leaves bucket 0 for bucket 1. */
	cur = cur->d_hash_next;
	cr_assert_eq(cur, z, "the walk continues in the new chain");
	cr_assert_not(chain_has(cur, y), "and never meets y: a false miss");
	cr_assert_str_eq(x->d_name.name, nt);
	dput(target);
	dput(x);
	dput(y);
	dput(z);
	wt_world_destroy(w);
}

/* With one bucket every dentry, whatever its parent, is on one chain. */
Test(dcache, one_bucket_forces_every_collision)
{
	struct wt_world *w = t_world(3, 1, 1);
	struct dentry *root = t_root(w), *a, *b, *d[6];
	char name[16];

	a = t_mk(root, "a", DIR_MODE);
	b = t_mk(a, "b", DIR_MODE);
	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		d[i] = t_mk(i % 2 ? a : b, name, REG_MODE);
		cr_assert_eq(d[i]->d_bucket, 0);
	}
	for (int i = 0; i < 6; i++)
		cr_assert(chain_has(chain_head(w, 0), d[i]));
	cr_assert(chain_has(chain_head(w, 0), a));
	cr_assert(chain_has(chain_head(w, 0), b));
	for (int i = 0; i < 6; i++)
		dput(d[i]);
	dput(b);
	dput(a);
	wt_world_destroy(w);
}

/*
 * __d_lookup_rcu hands back the d_seq it sampled: even, the dentry's own
 * while nothing happens, and a d_move between the lookup and the
 * caller's check makes read_seqcount_retry fire.  Fresh dentries start at
 * the seeded value (the kernel's all start at 0), and d_instantiate bumps
 * it by one write section.
 */
Test(dcache, lookup_rcu_returns_the_sample_a_rename_invalidates)
{
	struct wt_world *w = t_world(11, 8, 4);
	struct dentry *root = t_root(w), *f, *g, *n, *hit;
	struct qstr qf = tq("f"), qg = tq("g");
	unsigned seq = 1;

	n = t_neg(root, "n");
	cr_assert_eq(wt_seq_raw(&n->d_seq), wt_world_initial_seq(w, n->wt.id));
	f = t_mk(root, "f", REG_MODE);
	cr_assert_eq(wt_seq_raw(&f->d_seq),
		     wt_world_initial_seq(w, f->wt.id) + 2);
	cr_assert_neq(wt_world_initial_seq(w, f->wt.id),
		      wt_world_initial_seq(w, n->wt.id));

	hit = __d_lookup_rcu(root, &qf, &seq);
	cr_assert_eq(hit, f);
	cr_assert_eq(seq, wt_seq_raw(&f->d_seq));
	cr_assert_eq(seq & 1, 0);
	cr_assert_not(read_seqcount_retry(&f->d_seq, seq));
	cr_assert_null(__d_lookup_rcu(root, &qg, &seq));

	hit = __d_lookup_rcu(root, &qf, &seq);
	g = t_neg(root, "g");
	t_move(w, f, g);
	cr_assert(read_seqcount_retry(&f->d_seq, seq),
		  "the rename between lookup and check is seen");
	cr_assert(read_seqcount_retry(&g->d_seq, wt_world_initial_seq(w, g->wt.id)),
		  "the target's seq moved too");
	cr_assert_null(__d_lookup_rcu(root, &qf, &seq));
	cr_assert_eq(__d_lookup_rcu(root, &qg, &seq), f);
	dput(g);
	dput(f);
	dput(n);
	wt_world_destroy(w);
}

/* d_move bumps the moved dentry and its target, never a parent. */
Test(dcache, d_move_bumps_exactly_the_two_dentries)
{
	struct wt_world *w = t_world(5, 8, 4);
	struct dentry *root = t_root(w), *a, *b, *f, *t;
	unsigned sa, sb, sr, sf, st;

	a = t_mk(root, "a", DIR_MODE);
	b = t_mk(root, "b", DIR_MODE);
	f = t_mk(a, "f", REG_MODE);
	t = t_neg(b, "t");
	sa = wt_seq_raw(&a->d_seq);
	sb = wt_seq_raw(&b->d_seq);
	sr = wt_seq_raw(&root->d_seq);
	sf = wt_seq_raw(&f->d_seq);
	st = wt_seq_raw(&t->d_seq);
	t_move(w, f, t);
	cr_assert_eq(wt_seq_raw(&a->d_seq), sa);
	cr_assert_eq(wt_seq_raw(&b->d_seq), sb);
	cr_assert_eq(wt_seq_raw(&root->d_seq), sr);
	cr_assert_eq(wt_seq_raw(&f->d_seq), sf + 2);
	cr_assert_eq(wt_seq_raw(&t->d_seq), st + 2);
	cr_assert_eq(f->d_parent, b);
	cr_assert_eq(d_count(a), 1, "a lost f's pin");
	cr_assert_eq(d_count(b), 3, "b: ours, f's and t's");
	dput(t);
	cr_assert_eq(d_count(b), 2, "t died and let go of b");
	dput(f);
	dput(a);
	dput(b);
	wt_world_destroy(w);
}

/* ---------------------------------------------------------------------- */
/* d_lookup's retry: a scheduler that renames at a chosen chain step       */

struct rename_at {
	struct wt_sched sched;
	struct wt_world *w;
	const struct wt_point *at;	/* the point to act at */
	const struct dentry *on;	/* ... when it is about this dentry */
	struct dentry *move, *target;	/* the rename to do there, once */
	bool done;
};

static void rename_at_point(struct wt_sched *s, struct wt_thread *t,
			    const struct wt_point *p, const void *obj)
{
	struct rename_at *r = container_of(s, struct rename_at, sched);

	if (r->done || p != r->at || obj != r->on)
		return;
	r->done = true;
	wt_thread_arm(t, false);	/* the rename's own points: no action */
	t_move(r->w, r->move, r->target);
	wt_thread_arm(t, true);
}

static const struct wt_sched_ops rename_at_ops = {
	.name = "test.rename_at",
	.point = rename_at_point,
};

/*
 * Build bucket 0 as x -> y with y the dentry to find; a walk that steps
 * on x sees x renamed into bucket 1 and misses y.  d_lookup notices
 * rename_lock moved and looks again (finding y); with the zoo's
 * d_lookup_no_rename_lock the miss is final.
 */
static struct dentry *lookup_during_rename(uint64_t bugs)
{
	struct wt_world_config cfg;
	struct wt_world *w;
	struct dentry *root, *x, *y, *t, *found;
	struct t_thread tt;
	struct rename_at r = { .sched = { .ops = &rename_at_ops } };
	char nx[32], ny[32], nt[32];
	struct qstr q;
	bool hit;

	wt_world_config_default(&cfg);
	cfg.dcache_buckets = 2;
	cfg.bugs = bugs;
	w = wt_world_create(&cfg);
	root = t_root(w);
	t_name_in_bucket(w, root, "y", 0, ny, sizeof(ny));
	t_name_in_bucket(w, root, "x", 0, nx, sizeof(nx));
	t_name_in_bucket(w, root, "t", 1, nt, sizeof(nt));
	y = t_mk(root, ny, REG_MODE);
	x = t_mk(root, nx, REG_MODE);
	t = t_neg(root, nt);
	cr_assert_eq(chain_head(w, 0), x);

	wt_points_catalogue();
	r.w = w;
	r.at = wt_point_lookup("d_lookup.hash_step");
	cr_assert_not_null(r.at);
	r.on = x;
	r.move = x;
	r.target = t;
	t_enter(&tt, NULL, 0);
	tt.t.sched = &r.sched;
	wt_thread_arm(&tt.t, true);
	q = tq(ny);
	found = d_lookup(root, &q);
	wt_thread_arm(&tt.t, false);
	t_leave(&tt);
	cr_assert(r.done, "the rename happened mid-walk");
	hit = found == y;
	dput(found);
	dput(t);
	dput(x);
	dput(y);
	wt_world_destroy(w);
	return hit ? (struct dentry *)1 : NULL;
}

Test(dcache, d_lookup_retries_a_miss_a_rename_caused)
{
	cr_assert_not_null(lookup_during_rename(0),
			   "the rename_lock retry finds y");
}

Test(dcache, zoo_d_lookup_without_rename_lock_misses)
{
	cr_assert_null(lookup_during_rename(1ull << WT_BUG_D_LOOKUP_NO_RENAME_LOCK),
		       "without the retry the false miss is final");
}

/*
 * slow_dentry_cmp's retry: a rename between the loads of d_name.len and
 * d_name.name hands d_compare a torn pair -- the old length 3 with the
 * new name "abc-and-then-a-long-tail..." -- which matches "ABC" though
 * neither name does.  The d_seq retry sees the rename and looks again
 * (a miss); the zoo's slow_cmp_no_seq returns the false hit (whose seq
 * the walker's later check would reject, had d_compare not crashed on
 * a pair that never existed).
 */
static struct dentry *casefold_lookup_torn(uint64_t bugs, bool *seq_moved)
{
	struct wt_world_config cfg;
	struct wt_world *w;
	struct super_block *sb;
	struct dentry *d, *t, *hit;
	struct t_thread tt;
	struct rename_at r = { .sched = { .ops = &rename_at_ops } };
	struct qstr q = tq("ABC");
	unsigned seq = 0;

	wt_world_config_default(&cfg);
	cfg.bugs = bugs;
	w = wt_world_create(&cfg);
	sb = wt_sb_create(w, wt_fs_type_lookup("casefold"), "cf");
	d = t_mk(sb->s_root, "abc", REG_MODE);
	t = t_neg(sb->s_root, "abc-and-then-a-long-tail-beyond-the-inline-name");
	d_hash_name(sb->s_root, &q);
	wt_points_catalogue();
	r.w = w;
	r.at = wt_point_lookup("d_cmp_rcu.load.d_name.name");
	cr_assert_not_null(r.at);
	r.on = d;
	r.move = d;
	r.target = t;
	t_enter(&tt, NULL, 0);
	tt.t.sched = &r.sched;
	wt_thread_arm(&tt.t, true);
	hit = __d_lookup_rcu(sb->s_root, &q, &seq);
	wt_thread_arm(&tt.t, false);
	t_leave(&tt);
	cr_assert(r.done, "the rename happened between the loads");
	*seq_moved = hit && read_seqcount_retry(&hit->d_seq, seq);
	dput(t);
	dput(d);
	wt_sb_discard(sb);
	wt_world_destroy(w);
	return hit ? (struct dentry *)1 : NULL;
}

Test(dcache, slow_dentry_cmp_retries_a_torn_name)
{
	bool moved;

	cr_assert_null(casefold_lookup_torn(0, &moved),
		       "the retry sees the rename: no false match");
}

Test(dcache, zoo_slow_cmp_without_seq_matches_a_torn_name)
{
	bool moved = false;

	cr_assert_not_null(casefold_lookup_torn(1ull << WT_BUG_SLOW_CMP_NO_SEQ,
						&moved),
			   "d_compare saw (3, \"abc-and-then...\") and matched");
	cr_assert(moved, "only the caller's seq check could still catch it");
}

/* ---------------------------------------------------------------------- */

/*
 * d_delete: with only the caller's reference the dentry becomes negative
 * and stays hashed (d_seq bumped by the make-negative write); with
 * another reference it is unhashed, positive, and dies at its last dput.
 */
Test(dcache, d_delete_negative_or_unhashed)
{
	struct wt_world *w = t_world(9, 8, 4);
	struct dentry *root = t_root(w), *f, *g;
	struct inode *gi;
	unsigned seq;

	f = t_mk(root, "f", REG_MODE);
	seq = wt_seq_raw(&f->d_seq);
	d_delete(f);
	cr_assert(d_is_negative(f));
	cr_assert_not(d_unhashed(f));
	cr_assert_null(d_inode(f));
	cr_assert_eq(wt_seq_raw(&f->d_seq), seq + 2);
	dput(f);
	cr_assert_eq(d_count(f), 0, "cached, unused");

	g = t_mk(root, "g", REG_MODE);
	gi = d_inode(g);
	dget(g);			/* a walker holds it too */
	seq = wt_seq_raw(&g->d_seq);
	d_delete(g);
	cr_assert(d_unhashed(g));
	cr_assert_eq(d_inode(g), gi, "still positive for its holders");
	cr_assert_eq(wt_seq_raw(&g->d_seq), seq + 2, "__d_drop invalidates");
	dput(g);
	cr_assert_eq(d_count(g), 1);
	cr_assert_eq(g->wt.magic, WT_OBJ_LIVE);
	dput(g);			/* the last: dead, freed */
	cr_assert(t_poisoned(&g->wt), "no RCU reader: freed at once");
	wt_world_destroy(w);
}

/*
 * A long name is a separate object; a rename that replaces it frees it
 * through RCU: still alive for a reader inside its section after the
 * rename, poisoned once the grace period is over.
 */
Test(dcache, external_name_freed_after_the_grace_period)
{
	struct wt_world *w = t_world(13, 8, 4);
	struct dentry *root = t_root(w), *d, *t;
	const char *long_name = "a-name-much-longer-than-the-inline-buffer";
	const struct wt_obj *name_obj;
	struct t_thread tt;

	t_enter(&tt, w, 1);
	d = t_mk(root, long_name, REG_MODE);
	cr_assert_neq(d->d_name.name, d->d_iname);
	name_obj = &container_of(d->d_name.name, struct external_name, name)->wt;
	cr_assert_eq(name_obj->type, WT_OBJ_NAME);
	t = t_neg(root, "short");

	rcu_read_lock();		/* a reader comparing the old name */
	t_move(w, d, t);
	cr_assert_str_eq(d->d_name.name, "short");
	cr_assert_eq(d->d_name.name, d->d_iname);
	cr_assert_not(t_poisoned(name_obj), "not before the grace period");
	rcu_read_unlock();
	t_grace();
	cr_assert(t_poisoned(name_obj), "poisoned after it");

	/* A reader that kept it is caught at its next check. */
	tt.last_check = WT_CHECK__COUNT;
	wt_obj_check(name_obj, NULL);
	cr_assert_eq(tt.last_check, WT_CHECK_POISON);
	dput(t);
	dput(d);
	t_leave(&tt);
	wt_world_destroy(w);
}

/*
 * A lockless reader whose dentry died under it (freed without a grace
 * period, zoo free_no_grace) has loaded a poisoned d_name.name: the check
 * before the name's bytes reports the poison and says "not alive" instead
 * of following the poison to an external name -- the harness crashed
 * there when PCT first put a free between the chain step and the compare.
 */
Test(dcache, a_dead_dentry_has_no_name_to_read)
{
	struct wt_world *w = t_world(13, 8, 4);
	struct dentry *root = t_root(w), *d;
	const char *loaded;
	struct t_thread tt;

	t_enter(&tt, w, 1);
	d = t_mk(root, "a-name-much-longer-than-the-inline-buffer", REG_MODE);
	dget(d);			/* held: d_delete unhashes it */
	d_delete(d);
	dput(d);
	dput(d);			/* the last: dead */
	t_grace();
	cr_assert(t_poisoned(&d->wt));
	loaded = __atomic_load_n(&d->d_name.name, __ATOMIC_RELAXED);
	cr_assert_neq(loaded, d->d_iname, "poison, not the inline name");
	tt.last_check = WT_CHECK__COUNT;
	cr_assert_not(d_name_alive(d, loaded, NULL));
	cr_assert_eq(tt.last_check, WT_CHECK_POISON);
	t_leave(&tt);
	wt_world_destroy(w);
}

/* d_move onto a long-named target shares the name by count; the target's
 * death does not free it while the moved dentry uses it. */
Test(dcache, external_name_shared_by_count)
{
	struct wt_world *w = t_world(13, 8, 4);
	struct dentry *root = t_root(w), *d, *t;
	const char *long_name = "another-name-longer-than-thirty-two-bytes";
	struct external_name *n;

	d = t_mk(root, "d", REG_MODE);
	t = t_neg(root, long_name);
	n = container_of(t->d_name.name, struct external_name, name);
	t_move(w, d, t);
	cr_assert_eq(d->d_name.name, n->name);
	cr_assert_eq(n->count, 2);
	dput(t);
	cr_assert_eq(n->count, 1);
	cr_assert_eq(n->wt.magic, WT_OBJ_LIVE);
	cr_assert_str_eq(d->d_name.name, long_name);
	dput(d);
	wt_world_destroy(w);
}

/*
 * The shrinker kills unused negative dentries (and, cascading, parents
 * left unused and childless) but never the positive dentries of an
 * in-memory filesystem, a pinned one, or one in use.
 */
Test(dcache, shrinker_kills_only_what_can_come_back)
{
	struct wt_world *w = t_world(17, 8, 4);
	struct dentry *root = t_root(w), *dir, *neg, *pos, *busy;
	unsigned killed;

	dir = t_mk(root, "dir", DIR_MODE);
	neg = t_neg(dir, "neg");
	pos = t_mk(dir, "pos", REG_MODE);
	busy = t_neg(root, "busy");
	dput(neg);
	dput(pos);
	killed = wt_dcache_shrink(w);
	cr_assert_eq(killed, 1, "only the unused negative");
	cr_assert(neg->wt.magic != WT_OBJ_LIVE);
	cr_assert_eq(pos->wt.magic, WT_OBJ_LIVE);
	cr_assert_eq(busy->wt.magic, WT_OBJ_LIVE);
	cr_assert_eq(wt_dcache_shrink(w), 0);
	dput(busy);
	cr_assert_eq(wt_dcache_shrink(w), 1);
	dput(dir);
	wt_world_destroy(w);
}

/* d_alloc_parallel: an in-lookup dentry is unhashed until ->lookup's
 * d_add; afterwards the same name finds it.  A failed lookup's dentry
 * dies at its dput. */
Test(dcache, d_alloc_parallel_in_lookup_then_found)
{
	struct wt_world *w = t_world(19, 8, 4);
	struct dentry *root = t_root(w), *d, *again, *fail;
	struct qstr q = tq("new"), qf = tq("fails");
	unsigned seq;

	d = d_alloc_parallel(root, &q);
	cr_assert(!IS_ERR(d));
	cr_assert(d_flags_load(d) & DCACHE_PAR_LOOKUP);
	cr_assert(d_unhashed(d));
	cr_assert_null(__d_lookup_rcu(root, &q, &seq));
	d_add(d, NULL);			/* ->lookup: not there */
	d_lookup_done(d);
	cr_assert_not(d_flags_load(d) & DCACHE_PAR_LOOKUP);
	again = d_alloc_parallel(root, &q);
	cr_assert_eq(again, d);
	dput(again);
	dput(d);

	fail = d_alloc_parallel(root, &qf);
	d_lookup_done(fail);		/* ->lookup failed: no d_add */
	dput(fail);
	cr_assert(fail->wt.magic != WT_OBJ_LIVE);
	wt_world_destroy(w);
}

/* d_exchange swaps names and parents, both stay hashed, both seqs move. */
Test(dcache, d_exchange_swaps)
{
	struct wt_world *w = t_world(23, 8, 4);
	struct dentry *root = t_root(w), *a, *b, *x, *y;
	struct qstr qx = tq("x"), qy = tq("y");
	unsigned sx, sy, seq;

	a = t_mk(root, "a", DIR_MODE);
	b = t_mk(root, "b", DIR_MODE);
	x = t_mk(a, "x", REG_MODE);
	y = t_mk(b, "y-is-a-long-name-outside-the-inline-buffer", REG_MODE);
	sx = wt_seq_raw(&x->d_seq);
	sy = wt_seq_raw(&y->d_seq);
	write_seqlock(&w->rename_lock);
	d_exchange(x, y);
	write_sequnlock(&w->rename_lock);
	cr_assert_eq(x->d_parent, b);
	cr_assert_eq(y->d_parent, a);
	cr_assert_str_eq(y->d_name.name, "x");
	cr_assert_str_eq(x->d_name.name, "y-is-a-long-name-outside-the-inline-buffer");
	cr_assert_eq(wt_seq_raw(&x->d_seq), sx + 2);
	cr_assert_eq(wt_seq_raw(&y->d_seq), sy + 2);
	cr_assert_eq(__d_lookup_rcu(a, &qx, &seq), y);
	qy = tq("y-is-a-long-name-outside-the-inline-buffer");
	cr_assert_eq(__d_lookup_rcu(b, &qy, &seq), x);
	cr_assert(is_subdir(x, b));
	cr_assert_not(is_subdir(x, a));
	dput(x);
	dput(y);
	dput(a);
	dput(b);
	wt_world_destroy(w);
}

/* ---------------------------------------------------------------------- */
/* Determinism                                                             */

/* A digest of the chain layout and the seq values after a fixed set of
 * operations: a function of the seed and the operations only. */
static uint64_t layout_digest(uint64_t seed)
{
	struct wt_world *w = t_world(seed, 8, 4);
	struct dentry *root = t_root(w), *dirs[4], *files[24], *t;
	uint64_t h = WT_FNV1A_INIT;
	char name[32];

	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		dirs[i] = t_mk(root, name, DIR_MODE);
	}
	for (int i = 0; i < 24; i++) {
		snprintf(name, sizeof(name), "f%d", i * 7);
		files[i] = t_mk(dirs[i % 4], name, REG_MODE);
	}
	for (int i = 0; i < 24; i += 5) {
		snprintf(name, sizeof(name), "moved%d", i);
		t = t_neg(dirs[(i + 1) % 4], name);
		t_move(w, files[i], t);
		dput(t);
	}
	for (uint32_t b = 0; b < w->cfg.dcache_buckets; b++) {
		h = wt_fnv1a(h, &b, sizeof(b));
		for (struct dentry *d = chain_head(w, b); d; d = d->d_hash_next) {
			unsigned seq = wt_seq_raw(&d->d_seq);

			h = wt_fnv1a(h, &d->wt.id, sizeof(d->wt.id));
			h = wt_fnv1a(h, &seq, sizeof(seq));
		}
	}
	for (int i = 0; i < 24; i++)
		dput(files[i]);
	for (int i = 0; i < 4; i++)
		dput(dirs[i]);
	wt_world_destroy(w);
	return h;
}

/*
 * The other process: the test binary run again with WT_TEST_LAYOUT_SEED
 * set computes the digest before Criterion starts and prints it.  A new
 * exec (not a fork of this multithreaded worker, whose child could block
 * on a lock some other thread held) with its own address-space layout.
 */
__attribute__((constructor)) static void layout_child(void)
{
	const char *seed = getenv("WT_TEST_LAYOUT_SEED");
	void *junk[64];

	if (!seed)
		return;
	for (int i = 0; i < 64; i++)
		junk[i] = malloc((size_t)(i * 91 % 3000) + 1);
	printf("%llx\n", (unsigned long long)layout_digest(strtoull(seed, NULL, 10)));
	fflush(stdout);
	for (int i = 0; i < 64; i++)
		free(junk[i]);
	_exit(0);
}

static uint64_t layout_digest_elsewhere(uint64_t seed)
{
	extern char **environ;
	char env_seed[64], self[4096], buf[64] = { 0 };
	char *argv[] = { self, NULL };
	char *envp[256];
	posix_spawn_file_actions_t fa;
	size_t n = 0, got = 0;
	ssize_t r, len;
	int fds[2], status, err;
	pid_t pid;

	/* readlink() does not terminate the name; stack garbage would follow. */
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	cr_assert_gt(len, 0);
	self[len] = '\0';
	snprintf(env_seed, sizeof(env_seed), "WT_TEST_LAYOUT_SEED=%llu",
		 (unsigned long long)seed);
	envp[n++] = env_seed;
	for (char **e = environ; *e && n < 255; e++)
		if (strncmp(*e, "WT_TEST_LAYOUT_SEED=", 20) != 0)
			envp[n++] = *e;
	envp[n] = NULL;
	cr_assert_eq(pipe(fds), 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	err = posix_spawn(&pid, self, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	cr_assert_eq(err, 0, "posix_spawn %s: %s", self, strerror(err));
	close(fds[1]);
	while (got < sizeof(buf) - 1 &&
	       (r = read(fds[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)r;
	close(fds[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_assert_gt(got, 0, "the other process printed its digest");
	return strtoull(buf, NULL, 16);
}

/*
 * Same seed and operations, same layout: twice in this process (with the
 * heap disturbed in between, so addresses differ), and in another
 * process that disturbs its heap differently first.  A different seed
 * changes the digest (the seqs are seeded), so the digest is not blind.
 */
Test(dcache, same_seed_same_layout_in_two_processes)
{
	uint64_t a, b, c, other;
	void *junk[64];

	a = layout_digest(42);
	for (int i = 0; i < 64; i++)
		junk[i] = malloc((size_t)(i * 37 % 500) + 1);
	b = layout_digest(42);
	for (int i = 0; i < 64; i++)
		free(junk[i]);
	cr_assert_eq(a, b);
	c = layout_digest_elsewhere(42);
	cr_assert_eq(a, c, "the other process built the same layout");
	other = layout_digest(43);
	cr_assert_neq(a, other);
}

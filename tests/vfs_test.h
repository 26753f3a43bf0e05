/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the sim/vfs unit tests: worlds, dentries made the way a
 * writer operation would, a test thread with an RCU reader record and a
 * violation sink that counts instead of aborting.
 */
#ifndef WT_TESTS_VFS_TEST_H
#define WT_TESTS_VFS_TEST_H

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "sim/rcu.h"
#include "sim/thread.h"
#include "sim/vfs/internal.h"
#include "sim/vfs/world.h"

static inline struct qstr tq(const char *s)
{
	return QSTR_INIT(s, (uint32_t)strlen(s));
}

static inline struct wt_world *t_world(uint64_t seed, uint32_t dbuckets,
				       uint32_t mbuckets)
{
	struct wt_world_config cfg;

	wt_world_config_default(&cfg);
	cfg.seed = seed;
	cfg.dcache_buckets = dbuckets;
	cfg.mount_buckets = mbuckets;
	return wt_world_create(&cfg);
}

static inline struct dentry *t_root(struct wt_world *w)
{
	return w->root_mnt->mnt.mnt_root;
}

/* A hashed positive child, the caller holding its one reference. */
static inline struct dentry *t_mk(struct dentry *parent, const char *name,
				  umode_t mode)
{
	struct qstr q = tq(name);
	struct dentry *d = d_alloc(parent, &q);
	struct inode *inode;

	/* A test world never runs out: abort() also tells gcc -O2 that d
	 * is not NULL below (its stringop-overflow analysis otherwise
	 * warns on the callers' d_seq loads). */
	if (!d)
		abort();
	inode = wt_inode_alloc(parent->d_sb, mode, 0, 0);
	d_add(d, inode);
	return d;
}

/* A hashed negative child (a rename target), referenced. */
static inline struct dentry *t_neg(struct dentry *parent, const char *name)
{
	struct qstr q = tq(name);
	struct dentry *d = d_alloc(parent, &q);

	if (!d)
		abort();
	d_add(d, NULL);
	return d;
}

static inline void t_move(struct wt_world *w, struct dentry *d,
			  struct dentry *target)
{
	write_seqlock(&w->rename_lock);
	d_move(d, target);
	write_sequnlock(&w->rename_lock);
}

struct t_thread {
	struct wt_thread t;
	enum wt_check last_check;
};

static inline void t_sink(struct wt_thread *t, enum wt_check check,
			  const struct wt_point *p, const void *obj,
			  const char *msg)
{
	struct t_thread *tt = container_of(t, struct t_thread, t);

	(void)p;
	(void)obj;
	(void)msg;
	tt->last_check = check;
}

/* Become simulated thread id, with an RCU record when w is given. */
static inline void t_enter(struct t_thread *tt, struct wt_world *w, uint32_t id)
{
	wt_thread_init(&tt->t, id, "test");
	tt->t.on_violation = t_sink;
	if (w)
		tt->t.rcu = wt_rcu_reader_create(w->rcu);
	wt_thread_enter(&tt->t);
}

/* Leave, draining this thread's deferred frees first. */
static inline void t_leave(struct t_thread *tt)
{
	if (tt->t.rcu)
		wt_rcu_reader_destroy(tt->t.rcu);
	wt_thread_enter(NULL);
}

/* Let every grace period this thread started end, and their frees run. */
static inline void t_grace(void)
{
	synchronize_rcu();
	for (int i = 0; i < 64 && wt_rcu_poll(); i++)
		;
}

static inline bool t_poisoned(const struct wt_obj *o)
{
	return __atomic_load_n(&o->magic, __ATOMIC_RELAXED) == WT_OBJ_FREED;
}

/* A name under parent (prefix + number) whose dcache bucket is b. */
static inline void t_name_in_bucket(const struct wt_world *w,
				    const struct dentry *parent,
				    const char *prefix, uint32_t b,
				    char *out, size_t size)
{
	for (unsigned i = 0; i < 100000; i++) {
		struct qstr q;

		snprintf(out, size, "%s%u", prefix, i);
		q = tq(out);
		if (wt_hash_bucket(parent->wt.id, q.hash,
				   w->cfg.dcache_buckets) == b)
			return;
	}
	out[0] = '\0';
}

#endif /* WT_TESTS_VFS_TEST_H */

/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the writer-operation, history and tree tests: worlds built
 * from tree text, dentries by path, d_seq snapshots, and a recording
 * "scheduler" that collects the writer-step points an operation hits.
 */
#ifndef WT_TESTS_OPS_TEST_H
#define WT_TESTS_OPS_TEST_H

#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "sim/history.h"
#include "sim/ns.h"
#include "sim/ops.h"
#include "sim/resolve.h"
#include "sim/sched/sched.h"
#include "sim/thread.h"
#include "sim/tree.h"
#include "sim/vfs/world.h"

static inline struct wt_world *t_build(const char *tree)
{
	struct wt_world *w = wt_ops_world_create(7);
	struct wt_verb_error e;

	cr_assert_not_null(w);
	if (tree && wt_tree_build_string(w, tree, "test", &e)) {
		wt_verb_error_print(&e, stderr);
		cr_assert_fail("tree did not build");
	}
	return w;
}

static inline void t_verb(struct wt_world *w, const char *line, int want)
{
	struct wt_verb_error e;
	int got = wt_verb_exec(w, line, &e);

	cr_assert_eq(got, want, "%s: got %s, want %s (%s)", line,
		     wt_errno_name(got), wt_errno_name(want), e.msg);
}

/* The dentry cached at dir/name (referenced), or NULL. */
static inline struct dentry *t_cached(struct wt_world *w, const char *path)
{
	struct wt_last last;
	struct path parent;
	struct dentry *d;
	struct qstr q;

	if (wt_resolve_parent(w, path, &parent, &last))
		return NULL;
	q = QSTR_INIT(last.name, last.len);
	d_hash_name(parent.dentry, &q);
	d = d_lookup(parent.dentry, &q);
	wt_path_put(&parent);
	return d;
}

/* Every live dentry's d_seq, and the two seqlocks. */
struct t_seqsnap {
	size_t n;
	uint64_t id[4096];
	unsigned seq[4096];
	unsigned mount_lock;
	unsigned rename_lock;
};

static inline void t_seqsnap(struct wt_world *w, struct t_seqsnap *s)
{
	s->n = 0;
	spin_lock(&w->list_lock);
	for (struct dentry *d = w->dentries; d && s->n < 4096; d = d->d_all_next) {
		s->id[s->n] = d->wt.id;
		s->seq[s->n++] = wt_seq_raw(&d->d_seq);
	}
	spin_unlock(&w->list_lock);
	cr_assert_lt(s->n, 4096);
	s->mount_lock = wt_seq_raw(&w->mount_lock.seqcount);
	s->rename_lock = wt_seq_raw(&w->rename_lock.seqcount);
}

/* Ids alive in both snapshots whose d_seq moved, into out (count). */
static inline size_t t_seq_changed(const struct t_seqsnap *a,
				   const struct t_seqsnap *b, uint64_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++)
		for (size_t j = 0; j < b->n; j++)
			if (a->id[i] == b->id[j] && a->seq[i] != b->seq[j])
				out[n++] = a->id[i];
	return n;
}

/* Ids in a but not in b: dentries that died. */
static inline size_t t_seq_gone(const struct t_seqsnap *a,
				const struct t_seqsnap *b, uint64_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++) {
		bool found = false;

		for (size_t j = 0; j < b->n && !found; j++)
			found = a->id[i] == b->id[j];
		if (!found)
			out[n++] = a->id[i];
	}
	return n;
}

/* --- recording the writer steps of an operation --- */
struct t_recorder {
	struct wt_thread thread;
	struct wt_sched sched;
	unsigned n;
	const char *steps[256];
};

static inline void t_rec_point(struct wt_sched *s, struct wt_thread *t,
			       const struct wt_point *p, const void *obj)
{
	struct t_recorder *r = s->priv;

	(void)t;
	(void)obj;
	if (p && p->kind == WT_K_OP_STEP && r->n < 256)
		r->steps[r->n++] = p->name ? p->name : wt_point_name(p);
}

static const struct wt_sched_ops t_rec_ops = {
	.name = "record",
	.point = t_rec_point,
	.wait = NULL,
};

static inline void t_rec_start(struct t_recorder *r)
{
	memset(r, 0, sizeof(*r));
	wt_thread_init(&r->thread, 0, "writer");
	r->sched.ops = &t_rec_ops;
	r->sched.priv = r;
	r->thread.sched = &r->sched;
	wt_thread_enter(&r->thread);
	wt_thread_arm(&r->thread, true);
}

static inline void t_rec_stop(struct t_recorder *r)
{
	wt_thread_arm(&r->thread, false);
	wt_thread_enter(NULL);
}

#endif /* WT_TESTS_OPS_TEST_H */

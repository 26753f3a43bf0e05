/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the walk-engine tests (tests/test_walk*.c): a world built
 * from a tree text with sim's writer verbs, one walker (task, counters,
 * record) on a simulated thread with an RCU reader record, lookups
 * compared with sim's independent REF resolver, and exact exit-path
 * counts.
 */
#ifndef WT_TESTS_TEST_WALK_H
#define WT_TESTS_TEST_WALK_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/namei.h"
#include "core/oracle.h"
#include "core/paths.h"
#include "core/record.h"
#include "sim/ops.h"
#include "sim/resolve.h"
#include "sim/tree.h"
#include "tests/vfs_test.h"

struct wfx {
	struct wt_world *w;
	struct t_thread th;
	struct wt_task task;
	struct wt_path_counts stats;
	struct wt_record *rec;
	struct wt_walker wk;
};

static struct wfx fx;

static inline void wfx_build_cfg(const char *tree, uint64_t bugs)
{
	struct wt_verb_error e;
	int err;

	memset(&fx, 0, sizeof(fx));
	fx.w = wt_ops_world_create(42);
	cr_assert_not_null(fx.w);
	fx.w->cfg.bugs = bugs;
	t_enter(&fx.th, fx.w, 0);
	if (tree) {
		err = wt_tree_build_string(fx.w, tree, "tree", &e);
		if (err)
			wt_verb_error_print(&e, stderr);
		cr_assert_eq(err, 0, "tree build failed");
	}
	wt_task_init(&fx.task, fx.w, 0, 0);
	fx.rec = wt_record_create(0, 0);
	cr_assert_not_null(fx.rec);
	fx.wk.task = &fx.task;
	fx.wk.stats = &fx.stats;
	fx.wk.record = fx.rec;
	wt_path_counts_clear(&fx.stats);
}

static inline void wfx_build(const char *tree)
{
	wfx_build_cfg(tree, 0);
}

static inline void wfx_fini(void)
{
	wt_record_destroy(fx.rec);
	wt_task_release(&fx.task);
	t_grace();
	t_leave(&fx.th);
	wt_ops_world_destroy(fx.w);
}

/* Run a writer verb in the middle of a test. */
static inline void wfx_verb(const char *line)
{
	struct wt_verb_error e;
	int err = wt_verb_exec(fx.w, line, &e);

	if (err)
		wt_verb_error_print(&e, stderr);
	cr_assert_eq(err, 0, "verb failed: %s", line);
}

/* The walker's credentials: uid/gid, no CAP_DAC_OVERRIDE unless root. */
static inline void wfx_cred(uint32_t uid, uint32_t gid)
{
	fx.task.cred.uid = uid;
	fx.task.cred.gid = gid;
	fx.task.cred.cap_dac_override = uid == 0;
	fx.task.cred.cap_sys_ptrace = uid == 0;
}

/*
 * The oracle judges every recorded walk of the tests: the answer must be
 * one REF-walk could have given, from the record alone.  A verdict of
 * not-judged fails the test as a rejection does: a walk the oracle cannot
 * judge proves nothing.  A test that knows the oracle cannot judge its
 * walks opts out explicitly, with a comment saying why: fx_not_judged_ok
 * accepts not-judged (a rejection still fails), fx_no_oracle skips the
 * oracle altogether, and a walker without a record (fx.wk.record NULL)
 * has nothing to judge.
 */
static bool fx_no_oracle;
static bool fx_not_judged_ok;

static inline void wfx_judge_root(const char *name, const struct path *root)
{
	struct wt_oracle_input in = {
		.record = fx.rec, .cred = &fx.task.cred, .name = name,
		.protected_symlinks = fx.wk.protected_symlinks,
		.root_mnt = real_mount(root->mnt)->wt.id,
		.root_dentry = root->dentry->wt.id,
	};
	struct wt_oracle_result res;
	enum wt_verdict v;

	if (fx_no_oracle || !fx.wk.record)
		return;
	/* without a history nothing is judged: a silent pass is none */
	cr_assert(fx.w->history || fx_not_judged_ok,
		  "no history to judge %s against", name);
	if (!fx.w->history)
		return;
	v = wt_oracle_check(fx.w->history, &in, &res);
	if (getenv("WT_TEST_VERDICTS"))
		fprintf(stderr, "verdict %s %s: %s\n", wt_verdict_name(v), name,
			res.explain);
	if (v == WT_VERDICT_REJECTED)
		wt_record_print(fx.rec, stderr);
	cr_assert_neq(v, WT_VERDICT_REJECTED, "oracle rejects %s: %s", name,
		      res.explain);
	cr_assert(v != WT_VERDICT_NOT_JUDGED || fx_not_judged_ok,
		  "oracle cannot judge %s: %s (set fx_not_judged_ok, saying "
		  "why, if that is expected)", name, res.explain);
}

static inline void wfx_judge(const char *name)
{
	wfx_judge_root(name, &fx.task.root);
}

/* The entry points, each walk judged by the oracle. */
static inline int lkat(const struct path *dir, const char *name,
		       unsigned flags, struct path *out, const struct path *root)
{
	int err = filename_lookup(&fx.wk, dir, name, flags, out, root);

	/* a scoped lookup's root is where it starts */
	if (!root && (flags & LOOKUP_IS_SCOPED))
		root = dir ? dir : &fx.task.pwd;
	wfx_judge_root(name, root ? root : &fx.task.root);
	return err;
}

static inline int pat(const struct path *dir, const char *name, unsigned flags,
		      struct path *parent, struct qstr *last, int *type)
{
	int err = filename_parentat(&fx.wk, dir, name, flags, parent, last, type);

	wfx_judge(name);
	return err;
}

static inline int mpt(const struct path *dir, const char *name, unsigned flags,
		      struct path *out)
{
	int err = filename_mountpoint(&fx.wk, dir, name, flags, out);

	wfx_judge(name);
	return err;
}

static inline int openroot(const struct path *root, const char *name,
			   const struct open_flags *op, struct wt_file *f)
{
	int err = do_file_open_root(&fx.wk, root, name, op, f);

	wfx_judge_root(name, root);
	return err;
}

static inline int lk(const char *name, unsigned flags, struct path *out)
{
	return lkat(NULL, name, flags, out, NULL);
}

/* Look up and drop: the error (0 for success). */
static inline int lk_err(const char *name, unsigned flags)
{
	struct path p;
	int err = lk(name, flags, &p);

	if (!err)
		path_put(&p);
	return err;
}

/* Replace the task's cwd (or root) with what name resolves to. */
static inline void wfx_set(struct path *slot, const char *name)
{
	struct path p;

	cr_assert_eq(lk(name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &p), 0,
		     "set %s", name);
	path_put(slot);
	*slot = p;
}

/* The walk of name reaches the same (mount, dentry) as the REF resolver's
 * walk of ref (WT_RES_FOLLOW when follow). */
static inline void expect_same(const char *name, unsigned flags,
			       const char *ref, bool follow)
{
	struct path got, want;
	int err = lk(name, flags, &got);

	cr_assert_eq(err, 0, "%s: %d", name, err);
	cr_assert_eq(wt_resolve(fx.w, ref, follow ? WT_RES_FOLLOW : 0, &want), 0,
		     "resolve %s", ref);
	cr_expect_eq(got.mnt, want.mnt, "%s: mount differs from %s's", name, ref);
	cr_expect_eq(got.dentry, want.dentry, "%s: dentry differs from %s's",
		     name, ref);
	path_put(&got);
	wt_path_put(&want);
}

/*
 * Exact counts: spec is "name=N name=N ..."; every path not named must be
 * 0.  Then the counters are cleared for the next phase.
 */
static inline void expect_counts(const char *spec)
{
	uint64_t want[WT_PATH__COUNT] = { 0 };
	char buf[1024];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		int id;

		cr_assert_not_null(eq, "bad spec token %s", tok);
		*eq = '\0';
		id = wt_path_lookup(tok);
		cr_assert_geq(id, 0, "unknown path %s", tok);
		want[id] = strtoull(eq + 1, NULL, 10);
	}
	for (int i = 0; i < WT_PATH__COUNT; i++)
		cr_expect_eq(fx.stats.counts[i], want[i], "path %s: %llu, want %llu",
			     wt_path_info((enum wt_path)i)->name,
			     (unsigned long long)fx.stats.counts[i],
			     (unsigned long long)want[i]);
	wt_path_counts_clear(&fx.stats);
}

/* No violation (poison, RCU balance, sleeping in RCU, ...) was reported. */
static inline void expect_clean(void)
{
	cr_expect_eq(fx.th.t.violations, 0, "violations: %llu (last check %s)",
		     (unsigned long long)fx.th.t.violations,
		     wt_check_name(fx.th.last_check));
	cr_expect_eq(fx.th.t.rcu_depth, 0, "left inside an RCU section");
}

#endif /* WT_TESTS_TEST_WALK_H */

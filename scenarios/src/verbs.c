/* SPDX-License-Identifier: MIT */
/*
 * Writer verbs and the iteration's world, on sim/tree and sim/ops.
 *
 * A writer thread's program items that are not walks are sim/tree verbs,
 * parsed when the file is loaded and run with wt_verb_run during the run.
 * The tree is run line by line into each iteration's fresh world (seeded
 * with the iteration seed, so initial d_seq values differ between
 * iterations while the namespace is the same), before any simulated
 * thread exists: no hooks fire while it is built.  Its lines are parsed
 * once a scenario run (struct wt_scn_reuse), not once a world.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/src/iter.h"
#include "sim/history.h"
#include "sim/ops.h"
#include "sim/resolve.h"
#include "sim/tree.h"

int wt_scn_verb_parse(const char *text, void **verb, size_t *col_off,
		      char *msg, size_t msglen)
{
	struct wt_verb *v = calloc(1, sizeof(*v));
	struct wt_verb_error e;
	int rc;

	*verb = NULL;
	*col_off = 0;
	if (!v) {
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	memset(&e, 0, sizeof(e));
	rc = wt_verb_parse(text, v, &e);
	if (rc) {
		free(v);
		*col_off = e.col ? e.col - 1 : 0;
		if (rc > 0)
			snprintf(msg, msglen, "empty program item");
		else if (!strncmp(e.msg, "unknown command", 15))
			snprintf(msg, msglen, "%s; or a walk: stat, lstat, open, "
				 "openat2, parentat, mountpoint, open_root", e.msg);
		else
			snprintf(msg, msglen, "%s", e.msg);
		return -1;
	}
	*verb = v;
	return 0;
}

void wt_scn_verb_free(void *verb)
{
	wt_verb_free(verb);
	free(verb);
}

int wt_scn_verb_exec(void *verb, struct wt_world *w, struct wt_task *task)
{
	struct wt_verb_error e;

	(void)task;	/* writers act as root (sim/ops.h) */
	memset(&e, 0, sizeof(e));
	return wt_verb_run(w, verb, &e);
}

/* The failing line's error: its position, moved to e's column. */
static int tree_fail(const struct wt_scenario *s, unsigned i,
		     const struct wt_verb_error *e, struct wt_scn_error *err)
{
	struct wt_scn_pos pos = s->tree[i].pos;

	if (e->col)
		pos.col += e->col - 1;
	return wt_scn_fail(err, s->file, pos, "%s", e->msg);
}

void wt_scn_reuse_tree_free(struct wt_scn_reuse *u)
{
	for (unsigned i = 0; u->tree && i < u->ntree; i++)
		if (u->tree[i].kind != WT_V__COUNT)
			wt_verb_free(&u->tree[i]);
	free(u->tree);
	u->tree = NULL;
	u->ntree = 0;
}

/*
 * Parse the tree's lines once for every world of a run (a blank or
 * comment line becomes a verb of kind WT_V__COUNT: nothing to run).
 * Nothing kept when a line does not parse: build_tree then parses
 * line by line and reports it where it always did.
 */
static void tree_parse(const struct wt_scenario *s, struct wt_scn_reuse *u)
{
	struct wt_verb_error e;

	u->tree = calloc(s->ntree + 1, sizeof(*u->tree));
	if (!u->tree)
		return;
	for (unsigned i = 0; i < s->ntree; i++) {
		int rc;

		memset(&e, 0, sizeof(e));
		rc = wt_verb_parse(s->tree[i].text, &u->tree[i], &e);
		if (rc > 0)
			u->tree[i].kind = WT_V__COUNT;
		if (rc < 0) {
			u->ntree = i;
			wt_scn_reuse_tree_free(u);
			return;
		}
	}
	u->ntree = s->ntree;
	u->tree_src = s->tree;
}

/* Run the tree's lines into w: 0, or -1 with err at the failing line. */
static int build_tree(const struct wt_scenario *s, struct wt_world *w,
		      struct wt_scn_reuse *u, struct wt_scn_error *err)
{
	struct wt_verb_error e;

	if (u && u->tree && (u->tree_src != s->tree || u->ntree != s->ntree))
		wt_scn_reuse_tree_free(u);	/* another scenario's */
	if (u && !u->tree && s->ntree)
		tree_parse(s, u);
	for (unsigned i = 0; i < s->ntree; i++) {
		int rc;

		memset(&e, 0, sizeof(e));
		if (u && u->tree)
			rc = u->tree[i].kind == WT_V__COUNT ? 0 :
			     wt_verb_run(w, &u->tree[i], &e);
		else
			rc = wt_verb_exec(w, s->tree[i].text, &e);
		if (rc)
			return tree_fail(s, i, &e, err);
	}
	return 0;
}

/*
 * The last iteration's world made again from its snapshot, if it has
 * one of this scenario's tree (the config is the snapshot's to check):
 * what building the tree would make, without building it.  NULL: build.
 */
static struct wt_world *world_restore(const struct wt_scenario *s,
				      const struct wt_world_config *cfg,
				      struct wt_scn_reuse *u)
{
	struct wt_world *w;

	if (!u || !u->world || !u->history || u->snap_tree != s->tree ||
	    u->snap_ntree != s->ntree || !wt_history_marked(u->history))
		return NULL;
	w = wt_world_restore(cfg, u->world);
	if (!w)
		return NULL;
	assert(w->history == u->history);
	u->world = NULL;
	u->history = NULL;
	return w;
}

struct wt_world *wt_scn_world_build_from(const struct wt_scenario *s,
					 uint64_t seed, uint64_t bugs,
					 struct wt_scn_reuse *reuse,
					 struct wt_scn_error *err)
{
	struct wt_history *h;
	struct wt_scn_pos top = { 1, 1 };
	struct wt_world_config cfg;
	struct wt_world *w;

	wt_world_config_default(&cfg);
	cfg.seed = seed;
	cfg.dcache_buckets = s->dcache_buckets;
	cfg.mount_buckets = s->mount_buckets;
	cfg.bugs = bugs;
	cfg.history = s->history;
	/* a run's worlds, one OS thread (sim mode): snapshot and restore */
	cfg.arena = reuse != NULL;
	w = world_restore(s, &cfg, reuse);
	if (w)
		return w;
	h = reuse ? reuse->history : NULL;
	/* the spare storage is the world's now (or freed) */
	w = wt_world_create_from(&cfg, reuse ? reuse->world : NULL);
	if (reuse)
		reuse->world = NULL;
	if (!w) {
		wt_scn_fail(err, s->file, top, "out of memory building the world");
		return NULL;
	}
	/* the writer side: history (version 0 = this world), writer mutex;
	 * the spare is the world's now (or freed), whatever happens next */
	if (reuse)
		reuse->history = NULL;
	if (wt_ops_init_from(w, h)) {
		wt_world_destroy(w);
		wt_scn_fail(err, s->file, top, "out of memory building the world");
		return NULL;
	}
	if (build_tree(s, w, reuse, err)) {
		wt_scn_world_destroy(w);
		return NULL;
	}
	if (reuse && w->history && !wt_world_snapshot(w)) {
		wt_history_mark(w->history);
		reuse->snap_tree = s->tree;
		reuse->snap_ntree = s->ntree;
	}
	return w;
}

struct wt_world *wt_scn_world_build(const struct wt_scenario *s,
				    uint64_t seed, uint64_t bugs,
				    struct wt_scn_error *err)
{
	return wt_scn_world_build_from(s, seed, bugs, NULL, err);
}

void wt_scn_world_destroy_keep(struct wt_world *w, struct wt_scn_reuse *reuse)
{
	/* kept for the next world's restore, or retired for its build */
	struct wt_history *h = reuse && w->snap && wt_history_marked(w->history) ?
			       wt_ops_fini_rewind(w) : wt_ops_fini_keep(w);

	if (reuse && !reuse->history)
		reuse->history = h;
	else
		wt_history_destroy(h);
	if (reuse && !reuse->world)
		reuse->world = wt_world_retire(w);
	else
		wt_world_destroy(w);
}

void wt_scn_world_destroy(struct wt_world *w)
{
	wt_scn_world_destroy_keep(w, NULL);
}

int wt_scn_resolve(struct wt_world *w, const char *path, struct path *out)
{
	return wt_resolve(w, path, WT_RES_FOLLOW | WT_RES_DIRECTORY, out);
}

/* Every at=DIR, open_root ROOT and cwd must be a directory of the tree:
 * they are resolved when each iteration's world is built. */
static int check_dirs(const struct wt_scenario *s, struct wt_world *w,
		      struct wt_scn_error *err)
{
	for (unsigned i = 0; i < s->nthreads; i++) {
		const struct wt_scn_thread *th = &s->threads[i];
		struct path p;
		int e;

		if (th->cwd) {
			e = wt_scn_resolve(w, th->cwd, &p);
			if (e)
				return wt_scn_fail(err, s->file, th->pos, "cwd %s: "
						   "%s in the tree", th->cwd,
						   wt_scn_errno_name(e));
			wt_path_put(&p);
		}
		for (unsigned j = 0; j < th->nops; j++) {
			const struct wt_scn_op *op = &th->ops[j];

			if (op->kind != WT_SCN_OP_WALK || !op->walk.dir)
				continue;
			e = wt_scn_resolve(w, op->walk.dir, &p);
			if (e)
				return wt_scn_fail(err, s->file, op->pos, "%s: %s "
						   "in the tree (a dirfd must be a "
						   "directory)", op->walk.dir,
						   wt_scn_errno_name(e));
			wt_path_put(&p);
		}
	}
	return 0;
}

/*
 * The tree is checked by building it once: a line that does not parse,
 * or whose operation fails on the tree so far (mkdir without -p under a
 * missing parent, a mount on a file), is a load error at that line.
 */
int wt_scn_check_tree(struct wt_scenario *s, struct wt_scn_error *err)
{
	struct wt_world *w;

	for (unsigned i = 0; i < s->ntree; i++) {
		struct wt_verb v;
		struct wt_verb_error e;
		struct wt_scn_pos pos = s->tree[i].pos;

		memset(&e, 0, sizeof(e));
		if (wt_verb_parse(s->tree[i].text, &v, &e) < 0) {
			if (e.col)
				pos.col += e.col - 1;
			return wt_scn_fail(err, s->file, pos, "%s", e.msg);
		}
		wt_verb_free(&v);
	}
	w = wt_scn_world_build(s, 0, 0, err);
	if (!w)
		return -1;
	if (check_dirs(s, w, err)) {
		wt_scn_world_destroy(w);
		return -1;
	}
	wt_scn_world_destroy(w);
	return 0;
}

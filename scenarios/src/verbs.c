/* SPDX-License-Identifier: MIT */
/*
 * Writer verbs and the iteration's world, on sim/tree and sim/ops.
 *
 * XXX sim/tree.h and sim/ops.h have not landed yet: until they do, the
 * world is the bare root tmpfs with its history, a tree line or a writer
 * verb is refused at load time (so nothing runs half-built), and this
 * file is the one call site to finish.
 */
#include <errno.h>
#include <string.h>

#include "scenarios/src/iter.h"
#include "sim/history.h"
#include "sim/resolve.h"

int wt_scn_verb_parse(const char *text, void **verb, size_t *col_off,
		      char *msg, size_t msglen)
{
	(void)text;
	*verb = NULL;
	*col_off = 0;
	snprintf(msg, msglen, "writer verbs need sim/tree, which is not built "
		 "yet");
	return -1;
}

void wt_scn_verb_free(void *verb)
{
	(void)verb;
}

int wt_scn_verb_exec(void *verb, struct wt_world *w, struct wt_task *task)
{
	(void)verb;
	(void)w;
	(void)task;
	return -ENOSYS;
}

struct wt_world *wt_scn_world_build(const struct wt_scenario *s,
				    uint64_t seed, uint64_t bugs,
				    struct wt_scn_error *err)
{
	struct wt_world_config cfg;
	struct wt_world *w;

	wt_world_config_default(&cfg);
	cfg.seed = seed;
	cfg.dcache_buckets = s->dcache_buckets;
	cfg.mount_buckets = s->mount_buckets;
	cfg.bugs = bugs;
	cfg.history = s->history;
	w = wt_world_create(&cfg);
	if (!w) {
		struct wt_scn_pos p = { 1, 1 };

		wt_scn_fail(err, s->file, p, "out of memory building the world");
		return NULL;
	}
	if (s->history)
		w->history = wt_history_create(w);
	return w;
}

void wt_scn_world_destroy(struct wt_world *w)
{
	wt_history_destroy(w->history);
	w->history = NULL;
	wt_world_destroy(w);
}

int wt_scn_resolve(struct wt_world *w, const char *path, struct path *out)
{
	return wt_resolve(w, path, WT_RES_FOLLOW | WT_RES_DIRECTORY, out);
}

int wt_scn_check_tree(struct wt_scenario *s, struct wt_scn_error *err)
{
	if (!s->ntree)
		return 0;
	return wt_scn_fail(err, s->file, s->tree[0].pos, "tree lines need "
			   "sim/tree, which is not built yet");
}

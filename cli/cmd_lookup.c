/* SPDX-License-Identifier: MIT */
/*
 * walktorture lookup: the sequential interface (DESIGN.md "`walktorture
 * lookup`").  Build a tree file's world, then resolve each PATH with
 * filename_lookup, one at a time, no other thread running, and print one
 * JSON object per path, in argument order:
 *
 *	{"path": "/a/b", "result": "ok", "object": "/x/y", "type": "dir",
 *	 "mount": "/mnt"}
 *	{"path": "/nope", "result": "ENOENT"}
 *
 * object: the creating command's path of the inode reached ("fsroot:PATH"
 * for a filesystem root, "/" for the namespace root, "?" when no writer
 * made it); type: dir, file, symlink or other; mount: where the mount
 * holding the result is attached ("/" for the initial one, "?" for a
 * detached one).  --paths adds the walk's exit-path counts to each line.
 * Exit 0, or 2 for bad usage or a tree file that does not parse or build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "core/namei.h"
#include "core/open_create.h"
#include "sim/ops.h"
#include "sim/rcu.h"
#include "sim/thread.h"
#include "sim/tree.h"
#include "sim/vfs/mount.h"

struct lookup_opts {
	const char *tree;
	uint32_t uid;
	uint32_t gid;
	bool nofollow;
	bool paths;
	uint64_t resolve;
};

enum { OPT_TREE = 1, OPT_UID, OPT_GID, OPT_NOFOLLOW, OPT_RESOLVE, OPT_PATHS };

const struct wt_opt wt_opts_lookup[] = {
	WT_OPT_REQ("tree", OPT_TREE, 't', "FILE", "the tree file to build the world from"),
	WT_OPT("uid", OPT_UID, 'u', "U", "walk as this user id (default 0)"),
	WT_OPT("gid", OPT_GID, 'g', "G", "walk as this group id (default 0)"),
	WT_OPT("nofollow", OPT_NOFOLLOW, 0, NULL, "do not follow a trailing symlink"),
	WT_OPT("resolve", OPT_RESOLVE, 0, "FLAGS", "comma-separated no-symlinks,no-magiclinks,no-xdev,beneath,in-root,cached"),
	WT_OPT("paths", OPT_PATHS, 0, NULL, "add each walk's exit-path counts"),
	{ 0 }
};

static int parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct lookup_opts *o,
		      struct wt_opts *p)
{
	const char *v, *bad = NULL;
	int id;

	memset(o, 0, sizeof(*o));
	if (wt_opts_begin(p, argc, argv))
		return WT_EXIT_USAGE;
	while ((id = wt_opts_next(p, &v)) > 0) {
		switch (id) {
		case OPT_NOFOLLOW:
			o->nofollow = true;
			break;
		case OPT_PATHS:
			o->paths = true;
			break;
		case OPT_TREE:
			o->tree = v;
			break;
		case OPT_UID:
			if (parse_u32(v, &o->uid))
				return wt_usage_error("lookup: bad uid '%s'", v);
			break;
		case OPT_GID:
			if (parse_u32(v, &o->gid))
				return wt_usage_error("lookup: bad gid '%s'", v);
			break;
		case OPT_RESOLVE:
			if (wt_resolve_parse(v, &o->resolve, &bad))
				return wt_usage_error("lookup: unknown resolve flag at '%s' "
						      "(valid: no-symlinks, no-magiclinks, "
						      "no-xdev, beneath, in-root, cached)",
						      bad);
			break;
		}
	}
	if (id < 0)
		return wt_opts_exit(id) == WT_EXIT_OK ? -1 : WT_EXIT_USAGE;
	if (!o->tree) {
		wt_usage_error("lookup: --tree FILE is required");
		wt_opts_usage(p->cmd, stderr);
		return WT_EXIT_USAGE;
	}
	if ((o->resolve & RESOLVE_BENEATH) && (o->resolve & RESOLVE_IN_ROOT))
		return wt_usage_error("lookup: beneath and in-root exclude each other");
	return 0;
}

/* Where the mount holding p is attached. */
static void mount_path(struct wt_world *w, struct vfsmount *m, char *buf,
		       size_t size)
{
	struct mount *mnt = real_mount(m);
	struct path at;

	if (mnt == w->root_mnt) {
		snprintf(buf, size, "/");
		return;
	}
	if (mnt->mnt_parent == mnt) {
		snprintf(buf, size, "?");
		return;
	}
	at.mnt = &mnt->mnt_parent->mnt;
	at.dentry = mnt->mnt_mountpoint;
	if (wt_dir_path(w, &at, buf, size))
		snprintf(buf, size, "?");
}

static void add_paths(json_t *obj, const struct wt_path_counts *c)
{
	json_t *paths = json_object();

	for (int i = 0; i < WT_PATH__COUNT; i++)
		if (c->counts[i])
			json_object_set_new(paths, wt_path_info((enum wt_path)i)->name,
					    json_integer((json_int_t)c->counts[i]));
	json_object_set_new(obj, "paths", paths);
}

static void lookup_one(struct wt_world *w, struct wt_walker *wk,
		       const struct lookup_opts *o, const char *name)
{
	unsigned flags = (o->nofollow ? 0 : LOOKUP_FOLLOW) |
			 wt_resolve_lookup_flags(o->resolve);
	json_t *obj = json_object();
	struct path p;
	int err;

	wt_path_counts_clear(wk->stats);
	err = filename_lookup(wk, NULL, name, flags, &p, NULL);
	json_object_set_new(obj, "path", json_string(name));
	if (err) {
		json_object_set_new(obj, "result", json_string(wt_errno_name(err)));
	} else {
		struct inode *inode = d_inode(p.dentry);
		const char *origin = wt_inode_origin(w, inode->wt.id);
		char mnt[PATH_MAX_LEN];

		mount_path(w, p.mnt, mnt, sizeof(mnt));
		json_object_set_new(obj, "result", json_string("ok"));
		json_object_set_new(obj, "object", json_string(origin ? origin : "?"));
		json_object_set_new(obj, "type", json_string(wt_mode_type_name(inode->i_mode)));
		json_object_set_new(obj, "mount", json_string(mnt));
		path_put(&p);
	}
	if (o->paths)
		add_paths(obj, wk->stats);
	json_dumpf(obj, stdout, JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(obj);
}

/* Walk as a simulated thread with an RCU reader, as walkers do in runs. */
static int run_lookups(struct wt_world *w, const struct lookup_opts *o,
		       const struct wt_opts *p)
{
	struct wt_path_counts stats;
	struct wt_walker wk = { 0 };
	struct wt_thread t;
	struct wt_task task;

	wt_thread_init(&t, 0, "lookup");
	t.rcu = wt_rcu_reader_create(w->rcu);
	wt_thread_enter(&t);
	wt_task_init(&task, w, o->uid, o->gid);
	wk.task = &task;
	wk.stats = &stats;
	for (unsigned i = 0; i < p->npos; i++)
		lookup_one(w, &wk, o, p->pos[i]);
	wt_task_release(&task);
	if (t.rcu)
		wt_rcu_reader_destroy(t.rcu);
	wt_thread_enter(NULL);
	return t.violations ? WT_EXIT_FAIL : WT_EXIT_OK;
}

int wt_cmd_lookup(int argc, char **argv)
{
	struct lookup_opts o;
	struct wt_verb_error e;
	struct wt_opts p;
	struct wt_tree *t;
	struct wt_world *w;
	int err;

	err = parse_opts(argc, argv, &o, &p);
	if (err) {
		wt_opts_end(&p);
		return err < 0 ? WT_EXIT_OK : err;	/* -1: --help */
	}
	/* Parse everything first: nothing runs half-parsed. */
	err = WT_EXIT_USAGE;
	if (wt_tree_parse_file(o.tree, &t, &e)) {
		wt_verb_error_print(&e, stderr);
		goto out;
	}
	w = wt_ops_world_create_fs(1, "tmpfs");
	if (!w) {
		wt_tree_free(t);
		wt_usage_error("lookup: out of memory");
		goto out;
	}
	err = wt_tree_run(w, t, &e);
	wt_tree_free(t);
	if (err) {
		wt_verb_error_print(&e, stderr);
		wt_ops_world_destroy(w);
		err = WT_EXIT_USAGE;
		goto out;
	}
	err = run_lookups(w, &o, &p);
	wt_ops_world_destroy(w);
out:
	wt_opts_end(&p);
	return err;
}

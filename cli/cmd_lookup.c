/* SPDX-License-Identifier: MIT */
/*
 * walktorture lookup: the sequential interface (DESIGN.md "`walktorture
 * lookup`").  Build a tree file's world, then resolve each PATH, one at a
 * time, no other thread running, and print one JSON object per path, in
 * argument order:
 *
 *	{"path": "/a/b", "result": "ok", "object": "/x/y", "type": "dir",
 *	 "mount": "/mnt", "d_path": "/a/b"}
 *	{"path": "/nope", "result": "ENOENT"}
 *
 * object: the creating command's path of the inode reached ("fsroot:PATH"
 * for a filesystem root, "/" for the namespace root, "?" when no writer
 * made it); type: dir, file, symlink or other; mount: where the mount
 * holding the result is attached ("/" for the initial one, "?" for a
 * detached one); d_path: the result's name from the walker's root (from
 * the namespace root when it is not under it; its old name and
 * " (deleted)" when removed; "?" when detached), what readlink of
 * /proc/self/fd/N would say; created: true
 * when O_CREAT made it.  --paths adds the walk's exit-path counts.
 *
 * Without --open a PATH is resolved as stat(2) does (filename_lookup:
 * --nofollow is AT_SYMLINK_NOFOLLOW, --empty-path AT_EMPTY_PATH, --resolve
 * the RESOLVE_* flags' lookup flags); with --open as openat2(2) does
 * (do_openat2: the O_* flags, --mode, --resolve; --nofollow adds
 * O_NOFOLLOW).  --at DIR is the dirfd the walk starts from, --cwd and
 * --root the walker's working directory and root (chroot); each DIR is
 * resolved from the namespace root, following links, as uid 0 -- a
 * directory opened before the walker dropped its privileges.
 * Exit 0, or 2 for bad usage, a tree file that does not parse or build,
 * or a DIR that does not resolve to a directory.
 */
#define _GNU_SOURCE	/* O_PATH */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "core/namei.h"
#include "core/open_create.h"
#include "scenarios/src/scenario.h"
#include "sim/fs/proc.h"
#include "sim/ops.h"
#include "sim/rcu.h"
#include "sim/thread.h"
#include "sim/tree.h"
#include "sim/vfs/mount.h"

struct lookup_opts {
	const char *tree;
	uint32_t uid;
	uint32_t gid;
	uint32_t groups[WT_NGROUPS_MAX];
	uint32_t ngroups;
	bool nofollow;
	bool paths;
	bool empty_path;
	bool open;		/* --open given: openat2, not stat */
	uint64_t open_flags;
	uint64_t mode;
	bool mode_set;
	uint64_t resolve;
	const char *at;		/* the dirfd's directory, or NULL (AT_FDCWD) */
	const char *cwd;
	const char *root;
	const char *exe;
	uint32_t pid;
};

enum {
	OPT_TREE = 1, OPT_UID, OPT_GID, OPT_GROUPS, OPT_NOFOLLOW, OPT_RESOLVE,
	OPT_PATHS, OPT_AT, OPT_CWD, OPT_ROOT, OPT_OPEN, OPT_MODE, OPT_EMPTY,
	OPT_PID, OPT_EXE,
};

/* The dirfd's number in /proc/PID/fd (0-2 are not modelled). */
#define LOOKUP_AT_FD	3

const struct wt_opt wt_opts_lookup[] = {
	WT_OPT_REQ("tree", OPT_TREE, 't', "FILE", "the tree file to build the world from"),
	WT_OPT("uid", OPT_UID, 'u', "U", "walk as this user id (default 0)"),
	WT_OPT("gid", OPT_GID, 'g', "G", "walk as this group id (default 0)"),
	WT_OPT("groups", OPT_GROUPS, 0, "G,G", "supplementary group ids (at most 8)"),
	WT_OPT("nofollow", OPT_NOFOLLOW, 0, NULL, "do not follow a trailing symlink (with --open: O_NOFOLLOW)"),
	WT_OPT("resolve", OPT_RESOLVE, 0, "FLAGS", "comma-separated no-symlinks,no-magiclinks,no-xdev,beneath,in-root,cached"),
	WT_OPT("open", OPT_OPEN, 0, "FLAGS", "open as openat2 with comma-separated O_RDONLY,O_WRONLY,O_RDWR,O_CREAT,O_EXCL,O_NOFOLLOW,O_DIRECTORY,O_TRUNC,O_PATH"),
	WT_OPT("mode", OPT_MODE, 0, "OCTAL", "openat2's mode (for O_CREAT; default 0644 with O_CREAT)"),
	WT_OPT("at", OPT_AT, 0, "DIR", "start relative paths at this directory (a dirfd)"),
	WT_OPT("cwd", OPT_CWD, 0, "DIR", "the walker's working directory"),
	WT_OPT("root", OPT_ROOT, 0, "DIR", "the walker's root directory (chroot)"),
	WT_OPT("pid", OPT_PID, 0, "N", "the walker's process id in proc (default 1)"),
	WT_OPT("exe", OPT_EXE, 0, "FILE", "the walker's executable (/proc/PID/exe)"),
	WT_OPT("empty-path", OPT_EMPTY, 0, NULL, "AT_EMPTY_PATH: an empty PATH is the start directory (not with --open)"),
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

/* "O_CREAT,O_EXCL" -> bits; 0, or -1 with the offending word in *bad. */
static int parse_open_flags(const char *s, uint64_t *flags, const char **bad)
{
	bool acc_set = false;

	*flags = 0;
	*bad = s;
	if (!*s)
		return -1;
	while (*s) {
		size_t len = strcspn(s, ",");

		*bad = s;
		if (wt_open_flag_parse(s, len, flags, &acc_set))
			return -1;
		s += len;
		if (*s == ',' && !*++s)
			return -1;	/* a trailing comma */
	}
	return 0;
}

/* "4,27" -> groups; 0, or -1. */
static int parse_groups(const char *s, struct lookup_opts *o)
{
	o->ngroups = 0;
	while (*s) {
		char word[16];
		size_t len = strcspn(s, ",");

		if (!len || len >= sizeof(word) || o->ngroups == WT_NGROUPS_MAX)
			return -1;
		memcpy(word, s, len);
		word[len] = '\0';
		if (parse_u32(word, &o->groups[o->ngroups++]))
			return -1;
		s += len;
		if (*s == ',' && !*++s)
			return -1;
	}
	return o->ngroups ? 0 : -1;
}

static int parse_dir_opt(const char *name, const char *v, const char **out)
{
	if (v[0] != '/')
		return wt_usage_error("lookup: --%s '%s': give an absolute path "
				      "(it is resolved from the namespace root)",
				      name, v);
	*out = v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct lookup_opts *o,
		      struct wt_opts *p)
{
	const char *v, *bad = NULL;
	int id;

	memset(o, 0, sizeof(*o));
	o->pid = 1;
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
		case OPT_GROUPS:
			if (parse_groups(v, o))
				return wt_usage_error("lookup: bad --groups '%s' (comma-"
						      "separated group ids, at most %d)",
						      v, WT_NGROUPS_MAX);
			break;
		case OPT_OPEN:
			o->open = true;
			if (parse_open_flags(v, &o->open_flags, &bad))
				return wt_usage_error("lookup: bad open flag at '%s' (valid: "
						      "O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, "
						      "O_EXCL, O_NOFOLLOW, O_DIRECTORY, "
						      "O_TRUNC, O_PATH; one access mode)",
						      bad);
			break;
		case OPT_MODE: {
			char *end;

			o->mode = strtoull(v, &end, 8);
			if (!*v || *end || o->mode > 07777)
				return wt_usage_error("lookup: bad --mode '%s' (octal, "
						      "at most 7777)", v);
			o->mode_set = true;
			break;
		}
		case OPT_AT:
			if (parse_dir_opt("at", v, &o->at))
				return WT_EXIT_USAGE;
			break;
		case OPT_CWD:
			if (parse_dir_opt("cwd", v, &o->cwd))
				return WT_EXIT_USAGE;
			break;
		case OPT_ROOT:
			if (parse_dir_opt("root", v, &o->root))
				return WT_EXIT_USAGE;
			break;
		case OPT_EMPTY:
			o->empty_path = true;
			break;
		case OPT_PID:
			if (parse_u32(v, &o->pid) || !o->pid)
				return wt_usage_error("lookup: bad --pid '%s' (from 1)", v);
			break;
		case OPT_EXE:
			if (parse_dir_opt("exe", v, &o->exe))
				return WT_EXIT_USAGE;
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
	if (o->open && o->empty_path)
		return wt_usage_error("lookup: --empty-path is for stat-like lookups "
				      "(openat2 takes no AT_EMPTY_PATH)");
	if (o->mode_set && !o->open)
		return wt_usage_error("lookup: --mode is openat2's: give --open too");
	/* openat2 refuses a mode without O_CREAT itself (EINVAL): that is
	 * an answer, not bad usage */
	if (!o->mode_set && (o->open_flags & O_CREAT))
		o->mode = 0644;
	if (o->open && o->nofollow)
		o->open_flags |= O_NOFOLLOW;
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
	if (wt_dir_path(w, &at, NULL, buf, size))
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

/* Resolve one PATH the stat way or the openat2 way; 0 or -errno. */
static int resolve_one(struct wt_walker *wk, const struct lookup_opts *o,
		       const struct path *dir, const char *name,
		       struct path *p, bool *created)
{
	struct open_how how = {
		.flags = o->open_flags, .mode = o->mode, .resolve = o->resolve,
	};
	struct wt_file file;
	int err;

	*created = false;
	if (!o->open) {
		unsigned flags = (o->nofollow ? 0 : LOOKUP_FOLLOW) |
				 (o->empty_path ? LOOKUP_EMPTY : 0) |
				 wt_resolve_lookup_flags(o->resolve);

		return filename_lookup(wk, dir, name, flags, p, NULL);
	}
	err = do_openat2(wk, dir, name, &how, &file);
	if (err)
		return err;
	*p = file.path;
	*created = file.created;
	return 0;
}

static void lookup_one(struct wt_world *w, struct wt_walker *wk,
		       const struct lookup_opts *o, const struct path *dir,
		       const char *name)
{
	json_t *obj = json_object();
	struct path p;
	bool created;
	int err;

	wt_path_counts_clear(wk->stats);
	err = resolve_one(wk, o, dir, name, &p, &created);
	json_object_set_new(obj, "path", json_string(name));
	if (err) {
		json_object_set_new(obj, "result", json_string(wt_errno_name(err)));
	} else {
		struct inode *inode = d_inode(p.dentry);
		const char *origin = wt_inode_origin(w, inode->wt.id);
		char mnt[PATH_MAX_LEN], where[PATH_MAX_LEN];

		mount_path(w, p.mnt, mnt, sizeof(mnt));
		if (wt_dir_path(w, &p, &wk->task->root, where, sizeof(where)))
			snprintf(where, sizeof(where), "?");
		json_object_set_new(obj, "result", json_string("ok"));
		json_object_set_new(obj, "object", json_string(origin ? origin : "?"));
		json_object_set_new(obj, "type", json_string(wt_mode_type_name(inode->i_mode)));
		json_object_set_new(obj, "mount", json_string(mnt));
		json_object_set_new(obj, "d_path", json_string(where));
		if (created)
			json_object_set_new(obj, "created", json_true());
		path_put(&p);
	}
	if (o->paths)
		add_paths(obj, wk->stats);
	json_dumpf(obj, stdout, JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(obj);
}

/*
 * A DIR option as a referenced directory: resolved from the namespace
 * root, following links, by a uid 0 task.  0, or exit 2 with a message.
 */
static int resolve_dir(struct wt_world *w, const char *opt, const char *name,
		       struct path *out)
{
	const bool dir = strcmp(opt, "exe");
	struct wt_task root_task;
	struct wt_walker wk = { .task = &root_task };
	int err;

	wt_task_init(&root_task, w, 0, 0);
	err = filename_lookup(&wk, NULL, name,
			      LOOKUP_FOLLOW | (dir ? LOOKUP_DIRECTORY : 0), out,
			      NULL);
	wt_task_release(&root_task);
	if (err)
		return wt_usage_error("lookup: --%s '%s': %s (not a %s of the tree)",
				      opt, name, wt_errno_name(err),
				      dir ? "directory" : "file");
	return 0;
}

/*
 * The walker as a process in every proc of the world: /proc/PID with
 * its root, cwd, exe and the dirfd as fd 3, and self.  0, or exit 2.
 */
static int show_process(struct wt_world *w, const struct lookup_opts *o,
			const struct wt_task *task, const struct path *at,
			const struct path *exe)
{
	struct wt_proc_task pt = {
		.pid = o->pid, .uid = o->uid, .gid = o->gid,
		.root = task->root, .cwd = task->pwd,
	};
	int err;

	if (exe->dentry)
		pt.exe = *exe;
	if (at->dentry) {
		pt.fds[0].fd = LOOKUP_AT_FD;
		pt.fds[0].path = *at;
		pt.nfds = 1;
	}
	err = wt_op_proc_task(w, &pt, true);
	if (err < 0)
		return wt_usage_error("lookup: the walker's process %u in proc: %s%s",
				      o->pid, wt_errno_name(err),
				      err == -EEXIST ? " (a proc-task line of the "
				      "tree has that PID: choose another --pid)" : "");
	return 0;
}

/* Replace *slot (a task's root or pwd, referenced) with p (referenced). */
static void set_task_path(struct path *slot, const struct path *p)
{
	path_put(slot);
	*slot = *p;
}

/* Walk as a simulated thread with an RCU reader, as walkers do in runs. */
static int run_lookups(struct wt_world *w, const struct lookup_opts *o,
		       const struct wt_opts *p)
{
	struct wt_path_counts stats;
	struct wt_walker wk = { 0 };
	struct path root = { 0 }, cwd = { 0 }, at = { 0 }, exe = { 0 };
	struct wt_thread t;
	struct wt_task task;
	int ret = WT_EXIT_USAGE;

	wt_thread_init(&t, 0, "lookup");
	t.rcu = wt_rcu_reader_create(w->rcu);
	wt_thread_enter(&t);
	/* every DIR first: nothing is printed for a bad one */
	if ((o->root && resolve_dir(w, "root", o->root, &root)) ||
	    (o->cwd && resolve_dir(w, "cwd", o->cwd, &cwd)) ||
	    (o->at && resolve_dir(w, "at", o->at, &at)) ||
	    (o->exe && resolve_dir(w, "exe", o->exe, &exe)))
		goto out;
	wt_task_init(&task, w, o->uid, o->gid);
	task.cred.ngroups = o->ngroups;
	task.cred.tgid = o->pid;	/* its own process: proc lets it in */
	memcpy(task.cred.groups, o->groups, sizeof(o->groups));
	if (root.dentry)
		set_task_path(&task.root, &root);
	if (cwd.dentry)
		set_task_path(&task.pwd, &cwd);
	root = cwd = (struct path){ .mnt = NULL, .dentry = NULL };
	if (show_process(w, o, &task, &at, &exe)) {
		wt_task_release(&task);
		goto out;
	}
	wk.task = &task;
	wk.stats = &stats;
	for (unsigned i = 0; i < p->npos; i++)
		lookup_one(w, &wk, o, at.dentry ? &at : NULL, p->pos[i]);
	wt_task_release(&task);
	ret = t.violations ? WT_EXIT_FAIL : WT_EXIT_OK;
out:
	path_put(&exe);
	path_put(&at);
	path_put(&cwd);
	path_put(&root);
	if (t.rcu)
		wt_rcu_reader_destroy(t.rcu);
	wt_thread_enter(NULL);
	return ret;
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

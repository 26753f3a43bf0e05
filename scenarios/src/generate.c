/* SPDX-License-Identifier: MIT */
/*
 * Generated workloads: see generate.h.
 *
 * The generator keeps a small model of the namespace the tree builds (a
 * list of paths and what they are) so that every tree line succeeds --
 * a generated file must load -- and so that writers and walkers meet:
 * the writers' operands are paths of the model, and the walkers' paths
 * are drawn mostly from what the writers touch.  The model is not kept
 * up to date with the writers' effects (they run concurrently, in any
 * order); a writer verb that fails at run time (ENOENT, EBUSY, ...) is
 * an ordinary outcome, and each fragment undoes what it did where it
 * can, so that a looping writer finds its objects again.
 *
 * Names come from small pools (d, e for directories, f, g for files, l,
 * k for links, n, o for new names) so that different threads collide on
 * the same dentries; one seed draws everything from one xoshiro stream,
 * in a fixed order: the same seed, configuration and generator version
 * give the same text.
 */
#define _GNU_SOURCE	/* vasprintf */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/src/generate.h"
#include "scenarios/src/scenario.h"
#include "sim/mix.h"
#include "sim/sched/prng.h"

#define GEN_PATH	64
#define GEN_NODES	160
#define GEN_HOT		96
#define GEN_OPS		24	/* program items per thread, at most */

enum gkind { GK_DIR, GK_FILE, GK_LINK, GK_GONE };

struct gnode {
	char path[GEN_PATH];
	enum gkind kind;
	unsigned children;	/* a directory's entries (tree time) */
	bool mountpoint;	/* a mount sits on it (tree time) */
	bool top;		/* a top-level directory: a dirfd base */
	bool remote;		/* on the remote filesystem */
};

struct sbuf {
	char *p;
	size_t n, cap;
	bool oom;
};

struct gen {
	struct wt_prng r;
	struct sbuf tree;
	struct gnode nodes[GEN_NODES];
	unsigned nnodes;
	char hot[GEN_HOT][GEN_PATH];	/* the writers' operands */
	unsigned nhot;
	char mounts[4][GEN_PATH];	/* tmpfs mounts of the tree */
	unsigned nmounts;
	char spare[GEN_PATH];		/* an empty directory: a move target */
	char move_back[2 * GEN_PATH + 16];	/* the writer's last item */
	bool remote;			/* /r is a remote filesystem */
	bool slowperm;			/* /s is a slowperm filesystem */
	bool autofs;			/* /auto is an autofs root */
	bool dotdot;			/* walks down and back up (gen_dotdot) */
	bool deep_scope;		/* gen_deep_scope */
	char bind_src[GEN_PATH];	/* what /w shows, if it is a bind */
	char cwd[GEN_PATH];		/* the walker being drawn stands here */
	char away[8][GEN_PATH];		/* names made_while_away, old view */
	unsigned naway;
	unsigned fsno;			/* names of new filesystems */
};

/* --- text --- */

__attribute__((format(printf, 2, 0)))
static void sb_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	if (b->oom)
		return;
	va_copy(aq, ap);
	n = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0,
		      fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->oom = true;
		return;
	}
	if (b->n + (size_t)n + 1 > b->cap) {
		size_t cap = (b->n + (size_t)n + 1) * 2 + 256;
		char *np = realloc(b->p, cap);

		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->cap = cap;
		vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
	}
	b->n += (size_t)n;
}

static void __attribute__((format(printf, 2, 3)))
sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

/* A tree line (indented for the YAML block). */
static void __attribute__((format(printf, 2, 3)))
line(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	sb_printf(&g->tree, "  ");
	va_start(ap, fmt);
	sb_vprintf(&g->tree, fmt, ap);
	va_end(ap);
	sb_printf(&g->tree, "\n");
}

/* A path into a GEN_PATH buffer; the names are short, a longer one is
 * cut (and then simply names nothing). */
static void __attribute__((format(printf, 2, 3)))
pathf(char *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, GEN_PATH, fmt, ap);
	va_end(ap);
}

/* --- draws --- */

static unsigned rnd(struct gen *g, unsigned n)
{
	return (unsigned)wt_prng_below(&g->r, n);
}

static bool chance(struct gen *g, double p)
{
	return wt_prng_chance(&g->r, p);
}

static const char *pick(struct gen *g, const char *const *v, unsigned n)
{
	return v[rnd(g, n)];
}

#define PICK(g, arr) pick(g, arr, sizeof(arr) / sizeof(arr[0]))
#define PICK_D(g, arr) (arr)[rnd(g, sizeof(arr) / sizeof(arr[0]))]

/* --- the model --- */

static struct gnode *node_find(struct gen *g, const char *path)
{
	for (unsigned i = 0; i < g->nnodes; i++)
		if (!strcmp(g->nodes[i].path, path))
			return &g->nodes[i];
	return NULL;
}

static void parent_of(const char *path, char *out)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash && slash != path ? (size_t)(slash - path) : 1;

	memcpy(out, path, n);
	out[n] = '\0';
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* path made relative to dir: "." for dir itself (or dir/), NULL
 * outside it. */
static const char *relative_to(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return path[1] ? path + 1 : ".";
	if (strncmp(path, dir, n) || (path[n] && path[n] != '/'))
		return NULL;
	return path[n] && path[n + 1] ? path + n + 1 : ".";
}

static struct gnode *node_add(struct gen *g, const char *path,
			      enum gkind kind)
{
	struct gnode *n = node_find(g, path), *parent;
	bool live = n && n->kind != GK_GONE;
	char dir[GEN_PATH];

	if (!n) {
		if (g->nnodes == GEN_NODES || strlen(path) >= GEN_PATH)
			return NULL;
		n = &g->nodes[g->nnodes++];
		memset(n, 0, sizeof(*n));
		pathf(n->path, "%s", path);
	}
	if (!live && kind != GK_GONE) {
		parent_of(path, dir);
		parent = node_find(g, dir);
		if (parent)
			parent->children++;
	}
	n->kind = kind;
	return n;
}

static void node_gone(struct gen *g, struct gnode *n)
{
	struct gnode *parent;
	char dir[GEN_PATH];

	parent_of(n->path, dir);
	parent = node_find(g, dir);
	if (parent && parent->children)
		parent->children--;
	n->kind = GK_GONE;
}

/* A random node of one of the kinds in mask (1 << GK_x), or NULL. */
static struct gnode *node_pick(struct gen *g, unsigned mask, bool movable)
{
	struct gnode *c[GEN_NODES];
	unsigned n = 0;

	for (unsigned i = 0; i < g->nnodes; i++) {
		struct gnode *x = &g->nodes[i];

		if (!(mask & (1u << x->kind)))
			continue;
		if (movable && (x->mountpoint || x->top))
			continue;
		c[n++] = x;
	}
	return n ? c[rnd(g, n)] : NULL;
}

static void hot_add_one(struct gen *g, const char *path)
{
	for (unsigned i = 0; i < g->nhot; i++)
		if (!strcmp(g->hot[i], path))
			return;
	if (g->nhot < GEN_HOT && strlen(path) < GEN_PATH)
		pathf(g->hot[g->nhot++], "%s", path);
}

/*
 * A writer's operand is walked to; under generator 7 (g->dotdot) also
 * through the bind mount on /w when it lies in what /w shows, so that a
 * rename under the bind's source meets walks that stand in the mount
 * (and climb out of it: no_path_connected's race).
 */
static void hot_add(struct gen *g, const char *path)
{
	const char *rest;
	char view[GEN_PATH];

	hot_add_one(g, path);
	if (!g->dotdot || !g->bind_src[0] ||
	    !(rest = relative_to(g->bind_src, path)))
		return;
	if (!strcmp(rest, "."))
		pathf(view, "/w");
	else if (strlen(rest) + 3 < GEN_PATH)
		pathf(view, "/w/%s", rest);
	else
		return;
	hot_add_one(g, view);
}

/* --- the tree --- */

static const char *const dir_names[] = { "d", "e" };
static const char *const file_names[] = { "f", "g" };
static const char *const new_names[] = { "n", "o" };
static const char *const link_names[] = { "l", "k" };
static const char *const modes[] = { "000", "700", "711", "500", "100" };

static void populate(struct gen *g, const char *dir, unsigned depth,
		     bool remote)
{
	char p[GEN_PATH];
	struct gnode *n;

	for (unsigned i = 0; i < 2; i++) {
		if (!chance(g, depth > 1 ? 0.6 : 0.4))
			continue;
		pathf(p, "%s/%s", dir, dir_names[i]);
		line(g, "mkdir %s", p);
		n = node_add(g, p, GK_DIR);
		if (n)
			n->remote = remote;
		if (depth > 1)
			populate(g, p, depth - 1, remote);
	}
	for (unsigned i = 0; i < 2; i++) {
		if (!chance(g, 0.6))
			continue;
		pathf(p, "%s/%s", dir, file_names[i]);
		line(g, "touch %s", p);
		n = node_add(g, p, GK_FILE);
		if (n)
			n->remote = remote;
	}
}

static struct gnode *top_dir(struct gen *g, const char *path)
{
	struct gnode *n;

	line(g, "mkdir %s", path);
	n = node_add(g, path, GK_DIR);
	if (n)
		n->top = true;
	return n;
}

/*
 * Names under a directory about to be covered by a mount: positive or
 * negative dentries the walk must not see through the mount.  Mostly
 * negative: a walk that wrongly stands on the covered directory leaves
 * RCU-walk (and is caught by legitimize_mnt) everywhere but at a cached
 * negative dentry, whose ENOENT is final in RCU-walk itself.
 */
static void covered(struct gen *g, const char *dir)
{
	for (unsigned i = 0; i < 2; i++) {
		if (!chance(g, 0.6))
			continue;
		line(g, "touch %s/%s", dir, file_names[i]);
		if (chance(g, 0.75))
			line(g, "rm %s/%s", dir, file_names[i]);
	}
	if (chance(g, 0.3))
		line(g, "mkdir %s/%s", dir, PICK(g, dir_names));
}

static void tmpfs_mount(struct gen *g, const char *dir, unsigned depth)
{
	struct gnode *n;

	covered(g, dir);
	/* generator 7: half of them a filesystem that keeps negative
	 * dentries, as a disk filesystem does (tmpfs drops them, and a
	 * walk gone astray on a miss there leaves RCU-walk, where the
	 * mount is checked: dotdot_no_mount_lock's race needs one) */
	line(g, "mount -t %s t%u %s",
	     g->dotdot && chance(g, 0.5) ? "plain" : "tmpfs", g->fsno++, dir);
	if (chance(g, 0.15)) {		/* a stacked mount over the first */
		covered(g, dir);
		line(g, "mount -t tmpfs t%u %s", g->fsno++, dir);
	}
	n = node_find(g, dir);
	if (n)
		n->mountpoint = true;
	if (g->nmounts < 4)
		pathf(g->mounts[g->nmounts++], "%s", dir);
	populate(g, dir, depth, false);
}

static void gen_links(struct gen *g)
{
	unsigned k = 1 + rnd(g, 2);

	for (unsigned i = 0; i < k; i++) {
		struct gnode *d = node_pick(g, 1u << GK_DIR, false), *t, *l;
		char p[GEN_PATH], target[GEN_PATH];
		unsigned how = rnd(g, 100);

		if (!d)
			return;
		pathf(p, "%s/%s", d->path, link_names[i]);
		if (node_find(g, p) && node_find(g, p)->kind != GK_GONE)
			continue;
		t = node_pick(g, (1u << GK_DIR) | (1u << GK_FILE) |
				 (1u << GK_LINK), false);
		if (how < 35 && t) {
			/* relative: a sibling, a child of a sibling, or up */
			char tdir[GEN_PATH];

			parent_of(t->path, tdir);
			if (!strcmp(tdir, d->path))
				pathf(target, "%s",
					 base_of(t->path));
			else
				pathf(target, "..%s",
					 t->path);
		} else if (how < 85 && t) {
			pathf(target, "%s", t->path);
		} else {
			pathf(target, "%s/zz", d->path);
		}
		line(g, "ln -s %s %s", target, p);
		l = node_add(g, p, GK_LINK);
		if (l)
			l->remote = d->remote;
	}
}

/*
 * A filesystem whose exec check must sometimes fetch an ACL, which
 * sleeps (sim/fs/slowperm.h): RCU-walk has to ask it with MAY_NOT_BLOCK
 * and leave for REF-walk on -ECHILD.  Its names are ordinary operands of
 * the writers and the walkers, and a writer forgets an ACL now and then
 * (gen_writer).  Only in the workloads gen_slowperm() picks.
 */
static void slowperm_tree(struct gen *g)
{
	if (!top_dir(g, "/s"))
		return;
	line(g, "mount -t slowperm p /s");
	node_find(g, "/s")->mountpoint = true;
	populate(g, "/s", 2, false);
}

/*
 * An autofs root (sim/fs/autofs.h): each directory in it is a trigger
 * that a walk through it (or ending on it with a trailing slash) mounts
 * a tmpfs on, and whose daemon may be busy (RCU-walk then leaves for
 * REF-walk).  The triggers are writers' and walkers' operands; a writer
 * expires an automount, remounts the root or makes the daemon busy
 * (autofs_writer).  Only in the workloads gen_autofs() picks.
 */
static void autofs_tree(struct gen *g)
{
	struct gnode *n;

	if (!top_dir(g, "/auto"))
		return;
	line(g, "mount -t autofs a /auto");
	node_find(g, "/auto")->mountpoint = true;
	for (unsigned i = 0; i < 2; i++) {
		char p[GEN_PATH];

		if (i && !chance(g, 0.5))
			continue;
		pathf(p, "/auto/%s", i ? "y" : "x");
		line(g, "mkdir %s", p);
		n = node_add(g, p, GK_DIR);
		if (n)
			n->mountpoint = true;	/* not moved: a trigger */
		hot_add(g, p);
	}
	if (chance(g, 0.3))
		line(g, "autofs-busy /auto on");
}

static void gen_tree(struct gen *g)
{
	static const char *const tops[] = { "/a", "/b", "/c" };
	struct gnode *n;

	for (unsigned i = 0; i < 3; i++) {
		if (i && !chance(g, 0.5))
			continue;
		if (top_dir(g, tops[i]))
			populate(g, tops[i], 3 - (i > 0), false);
	}
	/* negative dentries left in the dcache */
	for (unsigned i = 0; i < g->nnodes; i++) {
		n = &g->nodes[i];
		if (n->kind == GK_FILE && chance(g, 0.12)) {
			line(g, "rm %s", n->path);
			node_gone(g, n);
		}
	}
	if (chance(g, 0.6) && top_dir(g, "/m"))
		tmpfs_mount(g, "/m", 2);
	if (chance(g, 0.45) && top_dir(g, "/x"))
		tmpfs_mount(g, "/x", 1);
	if ((g->nmounts && chance(g, 0.7)) || chance(g, 0.2)) {
		top_dir(g, "/y");
		pathf(g->spare, "/y");
	}
	if (chance(g, 0.4) && top_dir(g, "/r")) {
		line(g, "mount -t remote srv /r");
		g->remote = true;
		n = node_find(g, "/r");
		if (n)
			n->mountpoint = true;
		populate(g, "/r", 2, true);
	}
	if (chance(g, 0.3)) {
		n = node_pick(g, 1u << GK_DIR, false);
		if (n && !n->remote && top_dir(g, "/w")) {
			line(g, "mount %s %s /w", chance(g, 0.5) ? "--bind" :
			     "--rbind", n->path);
			node_find(g, "/w")->mountpoint = true;
			pathf(g->bind_src, "%s", n->path);
		}
	}
	if (chance(g, 0.65))
		gen_links(g);
	if (chance(g, 0.3)) {
		n = node_pick(g, 1u << GK_DIR, true);
		if (n)
			line(g, "chmod %s %s", PICK(g, modes), n->path);
	}
	if (chance(g, 0.15)) {
		n = node_pick(g, 1u << GK_LINK, false);
		if (n && !n->remote)
			line(g, "touch -h %s", n->path);
	}
	if (g->remote && chance(g, 0.6))
		line(g, "remote-expire /r");
	if (g->slowperm)
		slowperm_tree(g);
	if (g->autofs)
		autofs_tree(g);
}

/* --- writer fragments --- */

struct prog {
	char *items[GEN_OPS];
	unsigned n;
};

static void __attribute__((format(printf, 2, 3)))
item(struct prog *p, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (p->n == GEN_OPS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		p->items[p->n++] = s;
}

/* A new name beside path (or in dir): D/n or D/o, not a live node. */
static bool fresh_in(struct gen *g, const char *dir, char *out)
{
	for (unsigned i = 0; i < 2; i++) {
		struct gnode *x;

		pathf(out, "%s/%s", strcmp(dir, "/") ? dir : "",
			 new_names[(i + rnd(g, 2)) % 2]);
		x = node_find(g, out);
		if (!x || x->kind == GK_GONE)
			return true;
	}
	return false;
}

/* Fragment kinds, each a short sequence that undoes itself where it can. */
enum frag {
	F_EXCHANGE, F_RENAME, F_RENAME_OVER, F_UNLINK, F_RMDIR, F_CHMOD,
	F_SHRINK, F_SYMLINK, F_MOUNT, F_BIND, F_MOVE, F_UMOUNT, F_REMOTE,
	F_CREATE, F__COUNT
};

static const unsigned frag_weight[F__COUNT] = {
	[F_EXCHANGE] = 10, [F_RENAME] = 10, [F_RENAME_OVER] = 5,
	[F_UNLINK] = 10, [F_RMDIR] = 8, [F_CHMOD] = 5, [F_SHRINK] = 4,
	[F_SYMLINK] = 5, [F_MOUNT] = 6, [F_BIND] = 5, [F_MOVE] = 12,
	[F_UMOUNT] = 5, [F_REMOTE] = 10, [F_CREATE] = 6,
};

static bool frag_exchange(struct gen *g, struct prog *p)
{
	unsigned files = (1u << GK_FILE) | (1u << GK_DIR) | (1u << GK_LINK);
	struct gnode *a = node_pick(g, files, true), *b = NULL;
	char dir[GEN_PATH], bdir[GEN_PATH];

	if (!a)
		return false;
	parent_of(a->path, dir);
	for (unsigned tries = 0; tries < 8; tries++) {
		b = node_pick(g, files, true);
		if (!b || b == a)
			continue;
		parent_of(b->path, bdir);
		if (!strcmp(dir, bdir) || chance(g, 0.3))
			break;
	}
	if (!b || b == a)
		return false;
	item(p, "mv --exchange %s %s", a->path, b->path);
	hot_add(g, a->path);
	hot_add(g, b->path);
	if (b->kind == GK_FILE && chance(g, 0.6)) {
		item(p, "rm %s", b->path);
		item(p, "touch %s", b->path);
	} else {
		item(p, "mv --exchange %s %s", a->path, b->path);
	}
	return true;
}

/* The root of the filesystem path is on, as the tree mounts them. */
static const char *fs_of(const struct gen *g, const char *path)
{
	static const char *const others[] = { "/r", "/s", "/auto" };

	for (unsigned i = 0; i < g->nmounts; i++)
		if (relative_to(g->mounts[i], path))
			return g->mounts[i];
	for (unsigned i = 0; i < 3; i++)
		if (relative_to(others[i], path))
			return others[i];
	return "/";
}

/*
 * Where a rename can take directory path out of the directory it is in
 * (and out of any root there): a directory of the same filesystem, not
 * below path's parent.
 */
static bool away_dir(struct gen *g, const char *path, char *out)
{
	const struct gnode *c[GEN_NODES];
	const char *fs = fs_of(g, path);
	char parent[GEN_PATH];
	unsigned n = 0;

	parent_of(path, parent);
	for (unsigned i = 0; i < g->nnodes; i++) {
		const struct gnode *d = &g->nodes[i];

		if (d->kind == GK_DIR && !relative_to(parent, d->path) &&
		    !strcmp(fs_of(g, d->path), fs))
			c[n++] = d;
	}
	if (!n)
		return false;
	pathf(out, "%s", c[rnd(g, n)]->path);
	return true;
}

/*
 * A name made in a directory while a rename holds it elsewhere, and
 * removed before it comes back (generator 8, gen_deep_scope).  The
 * walks see it through the directory's old path: a walk that stood in
 * the directory before the rename and looks the name up after it finds
 * what was never there, at any instant, where the walk began -- the
 * escape complete_walk's path_is_under refuses a scoped walk
 * (scoped_no_path_is_under).
 */
static void made_while_away(struct gen *g, struct prog *p, const char *from,
			    const char *to)
{
	const char *name = PICK(g, new_names);
	char old[GEN_PATH];
	struct gnode *x;

	pathf(old, "%s/%s", from, name);
	x = node_find(g, old);
	if (x && x->kind != GK_GONE)
		return;
	item(p, "touch %s/%s", to, name);
	item(p, "rm %s/%s", to, name);
	hot_add(g, old);
	if (g->naway < sizeof(g->away) / sizeof(g->away[0]))
		pathf(g->away[g->naway++], "%s", old);
}

static bool frag_rename(struct gen *g, struct prog *p)
{
	struct gnode *a = node_pick(g, (1u << GK_FILE) | (1u << GK_DIR) |
				    (1u << GK_LINK), true), *d;
	char dir[GEN_PATH], to[GEN_PATH];
	bool away = false;

	if (!a)
		return false;
	parent_of(a->path, dir);
	if (a->kind == GK_DIR && g->deep_scope && chance(g, 0.4) &&
	    away_dir(g, a->path, dir))
		away = true;
	else if (chance(g, 0.35) && (d = node_pick(g, 1u << GK_DIR, false)) &&
		 d->remote == a->remote)
		pathf(dir, "%s", d->path);
	if (!fresh_in(g, dir, to))
		return false;
	item(p, "mv %s %s", a->path, to);
	if (away)
		made_while_away(g, p, a->path, to);
	item(p, "mv %s %s", to, a->path);
	hot_add(g, a->path);
	hot_add(g, to);
	return true;
}

static bool frag_rename_over(struct gen *g, struct prog *p)
{
	struct gnode *a = node_pick(g, 1u << GK_FILE, true), *b;

	if (!a)
		return false;
	b = node_pick(g, 1u << GK_FILE, true);
	if (!b || b == a)
		return false;
	item(p, "mv %s %s", a->path, b->path);
	item(p, "touch %s", a->path);
	hot_add(g, a->path);
	hot_add(g, b->path);
	return true;
}

static bool frag_unlink(struct gen *g, struct prog *p)
{
	struct gnode *a = node_pick(g, 1u << GK_FILE, true);

	if (!a)
		return false;
	item(p, "rm %s", a->path);
	if (chance(g, 0.5))
		item(p, "shrink");
	item(p, "touch %s", a->path);
	hot_add(g, a->path);
	return true;
}

/* rmdir an empty directory and make it again, maybe with a stricter
 * mode and a child: the same dentry, negative then positive again. */
static bool frag_rmdir(struct gen *g, struct prog *p)
{
	struct gnode *c[GEN_NODES], *d;
	unsigned n = 0;
	const char *child = PICK(g, file_names);

	for (unsigned i = 0; i < g->nnodes; i++) {
		d = &g->nodes[i];
		if (d->kind == GK_DIR && !d->children && !d->mountpoint &&
		    !d->top)
			c[n++] = d;
	}
	if (!n)
		return false;
	d = c[rnd(g, n)];
	item(p, "rmdir %s", d->path);
	if (chance(g, 0.6))
		item(p, "mkdir -m %s %s", PICK(g, modes), d->path);
	else
		item(p, "mkdir %s", d->path);
	item(p, "touch %s/%s", d->path, child);
	if (chance(g, 0.5)) {
		item(p, "rm %s/%s", d->path, child);
		item(p, "rmdir %s", d->path);
		item(p, "mkdir %s", d->path);
	}
	hot_add(g, d->path);
	{
		char sub[GEN_PATH];

		pathf(sub, "%s/%s", d->path, child);
		hot_add(g, sub);
	}
	return true;
}

static bool frag_chmod(struct gen *g, struct prog *p)
{
	struct gnode *d = node_pick(g, 1u << GK_DIR, false);

	if (!d)
		return false;
	item(p, "chmod %s %s", PICK(g, modes), d->path);
	item(p, "chmod 755 %s", d->path);
	hot_add(g, d->path);
	return true;
}

static bool frag_shrink(struct gen *g, struct prog *p)
{
	(void)g;
	item(p, "shrink");
	return true;
}

static bool frag_symlink(struct gen *g, struct prog *p)
{
	struct gnode *l = node_pick(g, 1u << GK_LINK, true);
	struct gnode *t = node_pick(g, (1u << GK_DIR) | (1u << GK_FILE), false);
	char dir[GEN_PATH], to[GEN_PATH];

	if (!t)
		return false;
	if (l && chance(g, 0.6)) {
		item(p, "rm %s", l->path);
		item(p, "ln -s %s %s", t->path, l->path);
		hot_add(g, l->path);
		return true;
	}
	parent_of(t->path, dir);
	if (!fresh_in(g, dir, to))
		return false;
	item(p, "ln -s %s %s", base_of(t->path), to);
	item(p, "rm %s", to);
	hot_add(g, to);
	return true;
}

static bool frag_mount(struct gen *g, struct prog *p)
{
	struct gnode *d = node_pick(g, 1u << GK_DIR, false);

	if (!d || d->remote)
		return false;
	item(p, "mount -t tmpfs w%u %s", g->fsno++, d->path);
	if (chance(g, 0.5))
		item(p, "touch %s/%s", d->path, PICK(g, file_names));
	item(p, chance(g, 0.5) ? "umount -l %s" : "umount %s", d->path);
	hot_add(g, d->path);
	return true;
}

static bool frag_bind(struct gen *g, struct prog *p)
{
	struct gnode *s = node_pick(g, 1u << GK_DIR, false);
	struct gnode *d = node_pick(g, 1u << GK_DIR, false);

	if (!s || !d || s == d || d->remote)
		return false;
	item(p, "mount %s %s %s", chance(g, 0.6) ? "--bind" : "--rbind",
	     s->path, d->path);
	item(p, "umount -l %s", d->path);
	hot_add(g, d->path);
	return true;
}

/*
 * Every mount sits in the one mount hash: moving or unmounting one
 * rewrites a chain that the __lookup_mnt of a walk crossing another mount
 * may be following at that moment (a false negative there is what
 * __follow_mount_rcu's mount_lock recheck catches).  So the walkers are
 * sent through all the tree's mounts, not only the one that changes.
 */
static void mounts_hot(struct gen *g)
{
	for (unsigned i = 0; i < g->nmounts; i++)
		hot_add(g, g->mounts[i]);
}

static bool frag_move(struct gen *g, struct prog *p)
{
	const char *m, *to;

	if (!g->nmounts || !g->spare[0])
		return false;
	if (g->move_back[0])
		return false;		/* one move out at a time */
	m = g->mounts[rnd(g, g->nmounts)];
	to = g->spare;
	item(p, "mount --move %s %s", m, to);
	/* back as the writer's last item, after its other fragments: a
	 * walk the move out upset must resume before the move back to
	 * answer wrong, and straight after it that window is a few points
	 * wide (PCT would need one more change point inside it) */
	snprintf(g->move_back, sizeof(g->move_back), "mount --move %s %s", to, m);
	mounts_hot(g);
	hot_add(g, to);
	return true;
}

static bool frag_umount(struct gen *g, struct prog *p)
{
	const char *m;

	if (!g->nmounts)
		return false;
	m = g->mounts[rnd(g, g->nmounts)];
	item(p, chance(g, 0.5) ? "umount -l %s" : "umount %s", m);
	item(p, "mount -t tmpfs w%u %s", g->fsno++, m);
	mounts_hot(g);
	return true;
}

/* A server-side change behind the client, or a client rename, on /r. */
static bool frag_remote(struct gen *g, struct prog *p)
{
	struct gnode *c[GEN_NODES], *a;
	unsigned n = 0;
	char to[GEN_PATH], dir[GEN_PATH];

	if (!g->remote)
		return false;
	for (unsigned i = 0; i < g->nnodes; i++)
		if (g->nodes[i].remote && g->nodes[i].kind != GK_GONE &&
		    strcmp(g->nodes[i].path, "/r"))
			c[n++] = &g->nodes[i];
	if (!n) {
		item(p, "remote-expire /r");
		return true;
	}
	a = c[rnd(g, n)];
	hot_add(g, a->path);
	parent_of(a->path, dir);
	switch (rnd(g, 5)) {
	case 0:		/* a client rename */
		if (!fresh_in(g, dir, to))
			return false;
		item(p, "mv %s %s", a->path, to);
		item(p, "mv %s %s", to, a->path);
		break;
	case 1:		/* a server rename there and back */
		if (!fresh_in(g, dir, to))
			return false;
		item(p, "remote-mv /r %s %s", a->path + 3, to + 3);
		item(p, "remote-mv /r %s %s", to + 3, a->path + 3);
		break;
	case 2:		/* removed and made again on the server */
		if (a->kind != GK_FILE)
			return false;
		item(p, "remote-rm /r %s", a->path + 3);
		item(p, "remote-create /r %s", a->path + 3);
		break;
	case 3:
		item(p, "remote-invalidate /r %s", a->path + 3);
		break;
	default:
		/* the client's inode gone bad: the next lookup through it
		 * unhashes the dentry and makes a fresh one, under a walk
		 * that may stand below it (generator 7's walks) */
		if (g->dotdot)
			item(p, "remote-bad /r %s", a->path + 3);
		break;
	}
	if (chance(g, 0.7))
		item(p, "remote-expire /r");
	return true;
}

static bool frag_create(struct gen *g, struct prog *p)
{
	struct gnode *d = node_pick(g, 1u << GK_DIR, false);
	char to[GEN_PATH];

	if (!d || !fresh_in(g, d->path, to))
		return false;
	if (chance(g, 0.5)) {
		item(p, "touch %s", to);
		item(p, "rm %s", to);
	} else {
		item(p, "mkdir %s", to);
		item(p, "rmdir %s", to);
	}
	hot_add(g, to);
	return true;
}

static bool (*const frags[F__COUNT])(struct gen *, struct prog *) = {
	[F_EXCHANGE] = frag_exchange, [F_RENAME] = frag_rename,
	[F_RENAME_OVER] = frag_rename_over, [F_UNLINK] = frag_unlink,
	[F_RMDIR] = frag_rmdir, [F_CHMOD] = frag_chmod,
	[F_SHRINK] = frag_shrink, [F_SYMLINK] = frag_symlink,
	[F_MOUNT] = frag_mount, [F_BIND] = frag_bind, [F_MOVE] = frag_move,
	[F_UMOUNT] = frag_umount, [F_REMOTE] = frag_remote,
	[F_CREATE] = frag_create,
};

/* An automount expired, the autofs root mounted again, or its daemon
 * busy for a while. */
static void autofs_writer(struct gen *g, struct prog *p)
{
	switch (rnd(g, 3)) {
	case 0:
		item(p, "umount -l /auto/x");
		break;
	case 1:
		item(p, "umount -l /auto");
		item(p, "mount -t autofs a%u /auto", g->fsno++);
		item(p, "mkdir /auto/x");
		break;
	default:
		item(p, "autofs-busy /auto on");
		item(p, "autofs-busy /auto off");
		break;
	}
}

static void gen_writer(struct gen *g, struct prog *p)
{
	unsigned want = 1 + rnd(g, 3), total = 0;

	for (unsigned k = 0; k < F__COUNT; k++)
		total += frag_weight[k];
	for (unsigned done = 0, tries = 0; done < want && tries < 32; tries++) {
		unsigned x = rnd(g, total), k = 0;

		while (x >= frag_weight[k])
			x -= frag_weight[k++];
		if (frags[k](g, p))
			done++;
	}
	if (g->move_back[0]) {
		item(p, "%s", g->move_back);
		g->move_back[0] = '\0';
	}
	if (g->slowperm && chance(g, 0.5)) {
		struct gnode *n = node_pick(g, (1u << GK_DIR) | (1u << GK_FILE),
					    false);

		if (n && !strncmp(n->path, "/s/", 3))
			item(p, "acl-uncache %s", n->path);
		else
			item(p, "acl-uncache /s");
	}
	if (g->autofs && chance(g, 0.5))
		autofs_writer(g, p);
	if (!p->n)
		item(p, "shrink");
}

/* --- walkers --- */

static bool is_mount(const struct gen *g, const char *path)
{
	for (unsigned i = 0; i < g->nmounts; i++)
		if (!strcmp(g->mounts[i], path))
			return true;
	return false;
}

/*
 * Generator 7's walks (gen_dotdot): what a directory seen at path holds,
 * as paths through that view.  /w shows its bind source's nodes under
 * its own name; every other path is its nodes' own.
 */
static unsigned below(struct gen *g, const char *path, unsigned depth,
		      unsigned mask, char out[][GEN_PATH], unsigned max)
{
	const char *real = path, *rest;
	char src[GEN_PATH];
	size_t plen = strlen(path), rlen;
	unsigned n = 0;

	if (g->bind_src[0] && (rest = relative_to("/w", path))) {
		if (strcmp(rest, "."))
			pathf(src, "%s/%s", g->bind_src, rest);
		else
			pathf(src, "%s", g->bind_src);
		real = src;
	}
	rlen = strcmp(real, "/") ? strlen(real) : 0;
	if (!rlen)
		plen = 0;	/* "/" + "/a" is "/a" */
	for (unsigned i = 0; i < g->nnodes && n < max; i++) {
		const char *q = g->nodes[i].path;
		unsigned slashes = 0;

		if (!(mask & (1u << g->nodes[i].kind)) ||
		    strncmp(q, real, rlen) || q[rlen] != '/')
			continue;
		rest = q + rlen;
		for (const char *c = rest; *c; c++)
			slashes += *c == '/';
		if (slashes > depth)
			continue;
		if (plen + strlen(rest) < GEN_PATH)
			pathf(out[n++], "%.*s%s", (int)plen, path, rest);
	}
	return n;
}

/*
 * A walk that goes down into what base holds (zero to two levels of
 * directories and links the tree has) and back up one or two `..',
 * then maybe on to a name where it landed, there or gone or a name of
 * the pool: BASE/D/E/../..[/NAME].  Each
 * `..' is a step of its own over whatever changed under it meanwhile
 * -- a rename of what it stood in (the races of no_path_connected and
 * kill_unhashed_no_seq), a mount moved or stacked under it
 * (dotdot_no_mount_lock's, mountpoint_past_root's) -- that a trailing
 * `..' or none did not reach.  Of those four, generated workloads find
 * mountpoint_past_root within 10 s, no_path_connected and
 * dotdot_no_mount_lock within two minutes, kill_unhashed_no_seq not yet
 * (scenarios/zoo/README.md, "Without the scenario").
 */
static void climb_path(struct gen *g, const char *base, char *buf)
{
	char c[GEN_NODES][GEN_PATH], at[GEN_PATH], tmp[GEN_PATH];
	unsigned ups = 1 + rnd(g, 2), n;
	size_t len;

	/* not into a file, there or gone: its `..' is ENOTDIR or
	 * ENOENT, whatever races */
	n = below(g, base, 2, (1u << GK_DIR) | (1u << GK_LINK), c, GEN_NODES);
	pathf(at, "%s", n && chance(g, 0.8) ? c[rnd(g, n)] : base);
	pathf(buf, "%s", at);
	for (unsigned i = 0; i < ups; i++) {
		len = strlen(buf);
		if (len + 4 >= GEN_PATH)
			break;
		memcpy(buf + len, "/..", 4);
		parent_of(at, tmp);
		pathf(at, "%s", tmp);
	}
	if (!chance(g, 0.6))
		return;
	n = below(g, at, 1, ~0u, c, GEN_NODES);
	pathf(tmp, "%s/%s", buf, n && chance(g, 0.7) ?
	      base_of(c[rnd(g, n)]) : PICK(g, file_names));
	pathf(buf, "%s", tmp);
}

static const char *walk_path(struct gen *g, char *buf)
{
	struct gnode *n;
	const char *base, *rel;
	bool child = false;
	char tmp[GEN_PATH];

	if (g->cwd[0] && chance(g, 0.6)) {
		/* from the walker's cwd: down and up, or below it */
		climb_path(g, g->cwd, tmp);
		if (chance(g, 0.3)) {
			char c[GEN_NODES][GEN_PATH];
			unsigned k = below(g, g->cwd, 2, ~0u, c,
					   GEN_NODES);

			if (k)
				pathf(tmp, "%s", c[rnd(g, k)]);
		}
		rel = relative_to(g->cwd, tmp);
		pathf(buf, "%s", rel ? rel : tmp);
		return buf;
	}
	if (g->nhot && chance(g, 0.65)) {
		base = g->hot[rnd(g, g->nhot)];
	} else {
		n = node_pick(g, ~0u, false);
		base = n ? n->path : "/a";
	}
	if (g->dotdot && chance(g, 0.35)) {
		climb_path(g, base, buf);
		return buf;
	}
	pathf(buf, "%s", base);
	switch (rnd(g, 10)) {
	case 0:		/* a child that may or may not be there */
		child = true;
		break;
	case 1:
		pathf(buf, "%s/..", base);
		break;
	case 2:
		pathf(buf, "%s/./", base);
		break;
	default:
		/* a walk that ends on a mount's root has used nothing it
		 * found there: half of them go on to a name in it (and past
		 * what the mount covers, were it missed) */
		child = is_mount(g, base) && chance(g, 0.5);
		break;
	}
	if (child)
		pathf(buf, "%s/%s", base, PICK(g, file_names));
	return buf;
}

/* The directories of the tree path lies under (or is), in the tree's
 * order: the top directories only, or every directory. */
static unsigned dirs_over(const struct gen *g, const char *path, bool tops,
			  const struct gnode **out)
{
	unsigned n = 0;

	for (unsigned i = 0; i < g->nnodes; i++) {
		const struct gnode *d = &g->nodes[i];

		if ((tops ? d->top : d->kind == GK_DIR) &&
		    relative_to(d->path, path))
			out[n++] = d;
	}
	return n;
}

/* root and path relative to it ("." for root itself) */
static void set_root(const struct gnode *d, const char *path, char *root,
		     char *rest)
{
	pathf(root, "%s", d->path);
	pathf(rest, "%s", relative_to(d->path, path));
}

/* Under which top directory is path, and its rest ("." at the top). */
static bool under_top(struct gen *g, const char *path, char *top, char *rest)
{
	const struct gnode *c[GEN_NODES];

	if (!dirs_over(g, path, true, c))
		return false;
	set_root(c[0], path, top, rest);
	return true;
}

/*
 * A walk from a root of its own (open_root ROOT PATH, generator 7): a
 * mount's root or a directory, taken when the world is built, and a
 * path that goes down and climbs back to it and past it, where `..'
 * must stay -- while a writer stacks a mount on the root
 * (mountpoint_past_root) or moves the directory out from under it.
 */
static void open_root_walk(struct gen *g, struct prog *p)
{
	char root[GEN_PATH], path[GEN_PATH];
	struct gnode *d;
	const char *rel;

	if (g->nmounts && chance(g, 0.5)) {
		pathf(root, "%s", g->mounts[rnd(g, g->nmounts)]);
	} else {
		d = node_pick(g, 1u << GK_DIR, false);
		pathf(root, "%s", d ? d->path : "/a");
	}
	climb_path(g, root, path);
	rel = relative_to(root, path);
	item(p, "open_root %s %s", root, rel ? rel : path);
}

/*
 * The root of a scoped walk of path (generator 8, gen_deep_scope): in
 * half of them a directory of the tree that path goes through, below a
 * top or a top, rather than always a top.  A rename inside a top can
 * then carry what the walk stands in out of its root -- the escape that
 * complete_walk's path_is_under refuses (scoped_no_path_is_under) --
 * where a top's root only ever loses its children to another top.
 */
static bool scope_root(struct gen *g, const char *path, char *root,
		       char *rest)
{
	const struct gnode *c[GEN_NODES];
	unsigned n;

	if (!g->deep_scope || !chance(g, 0.5))
		return under_top(g, path, root, rest);
	n = dirs_over(g, path, false, c);
	if (!n)
		return false;
	set_root(c[rnd(g, n)], path, root, rest);
	return true;
}

static void gen_walk(struct gen *g, struct prog *p)
{
	static const char *const scoped[] = { "beneath", "in-root" };
	static const char *const flags[] = { "no-xdev", "no-symlinks",
		"no-magiclinks", "cached" };
	char path[GEN_PATH], top[GEN_PATH], rest[GEN_PATH];
	unsigned x = rnd(g, 100);

	if (g->dotdot && !g->cwd[0] && chance(g, 0.12)) {
		open_root_walk(g, p);
		return;
	}
	if (g->naway && chance(g, 0.2)) {
		/* from the directory a renamed one left, to a name made in
		 * it while it was away: PARENT/DIR/NAME, at PARENT */
		const char *name = g->away[rnd(g, g->naway)];
		char dir[GEN_PATH], root[GEN_PATH];

		parent_of(name, dir);
		parent_of(dir, root);
		item(p, "openat2 %s at=%s resolve=%s%s",
		     relative_to(root, name), root, PICK(g, scoped),
		     chance(g, 0.5) ? " O_PATH" : "");
		return;
	}
	walk_path(g, path);
	if (x < 40) {
		item(p, "stat %s", path);
	} else if (x < 50) {
		item(p, "lstat %s", path);
	} else if (x < 58) {
		item(p, "open %s O_CREAT%s", path, chance(g, 0.3) ? " O_EXCL" : "");
	} else if (x < 66) {
		item(p, "open %s%s", path, chance(g, 0.3) ? " O_DIRECTORY" :
		     chance(g, 0.3) ? " O_NOFOLLOW" : "");
	} else if (x < 82) {
		if (chance(g, 0.6) && scope_root(g, path, top, rest))
			item(p, "openat2 %s at=%s resolve=%s O_PATH", rest, top,
			     PICK(g, scoped));
		else
			item(p, "openat2 %s resolve=%s O_PATH", path,
			     PICK(g, flags));
	} else if (x < 92) {
		item(p, "parentat %s", path);
	} else {
		item(p, "mountpoint %s", path);
	}
}

/* --- the file --- */

static void emit_prog(struct sbuf *b, const char *name, bool user,
		      const char *cwd, unsigned loop, struct prog *p)
{
	sb_printf(b, "  %s: { ", name);
	if (user)
		sb_printf(b, "uid: 1000, gid: 1000, ");
	if (cwd && cwd[0])
		sb_printf(b, "cwd: %s, ", cwd);
	if (loop > 1)
		sb_printf(b, "loop: %u, ", loop);
	sb_printf(b, "do: [");
	for (unsigned i = 0; i < p->n; i++) {
		sb_printf(b, "%s\"%s\"", i ? ", " : "", p->items[i]);
		free(p->items[i]);
	}
	sb_printf(b, "] }\n");
	p->n = 0;
}

uint64_t wt_gen_seed(uint64_t seed, uint64_t j)
{
	return wt_seed_derive(seed, WT_GEN_TAG + j);
}

/*
 * One workload in eight runs under x86-TSO store buffers and one in
 * eight under PSO (sim/tso.h), the rest sequentially consistent: so the
 * default search meets the missing barriers no written file asks for
 * (generated tso workloads find legitimize_no_mb, umount_no_mb and
 * seq_no_barrier; the first tso run found a model bug, sim/atomic.h's
 * wt_publish_release).  Drawn from its own hash of the seed, not from
 * the generator's stream, so an SC workload is the text it was before.
 * `fuzz --memory M' still runs every workload under M.
 */
static const char *gen_memory(uint64_t gseed)
{
	switch (wt_mix64(gseed ^ 0x6d656d6f7279ull) & 7) {	/* "memory" */
	case 0: return "tso";
	case 1: return "pso";
	default: return NULL;
	}
}

/*
 * One workload in four has a slowperm filesystem at /s (generator 5):
 * picked by its own hash of the seed, not by a draw, and only such a
 * workload draws more from the stream; so a workload with neither this
 * nor an autofs root (gen_autofs) is generator 4's text, its
 * description aside: 9 in 16.
 */
static bool gen_slowperm(uint64_t gseed)
{
	return (wt_mix64(gseed ^ 0x736c6f77ull) & 3) == 0;	/* "slow" */
}

/* And one in four, of its own hash, an autofs root at /auto. */
static bool gen_autofs(uint64_t gseed)
{
	return (wt_mix64(gseed ^ 0x6175746full) & 3) == 0;	/* "auto" */
}

/*
 * One in two, of its own hash (generator 7): walks that go down and
 * back up with `..' (climb_path), walkers with a cwd, walks from a root
 * of their own (open_root_walk), and remote inodes gone bad.  The
 * other half draw what generator 6 drew.
 */
static bool gen_dotdot(uint64_t gseed)
{
	return (wt_mix64(gseed ^ 0x2e2e2e2eull) & 1) == 0;	/* "...." */
}

/*
 * One in two, of its own hash (generator 8): scoped walks rooted below
 * the top directories (scope_root), and renames that take a directory
 * out of its parent while a name is made in it (made_while_away), with
 * scoped walks of that name from the parent.  The other half draw what
 * generator 7 drew.
 */
static bool gen_deep_scope(uint64_t gseed)
{
	return (wt_mix64(gseed ^ 0x73636f7065ull) & 1) == 0;	/* "scope" */
}

char *wt_gen_workload(uint64_t gseed, const struct wt_gen_config *c,
		      char *name, size_t namelen)
{
	/* two buckets twice as often: mounts sharing a chain that a move
	 * takes one of them out of (with one bucket it stays in the chain,
	 * and a walk on it is never led astray) */
	static const unsigned mbuckets[] = { 16, 2, 2, 1 };
	static const unsigned dbuckets[] = { 64, 64, 4, 1 };
	static const double switch_ps[] = { 0.02, 0.1, 0.3 };
	struct gen *g = calloc(1, sizeof(*g));
	struct sbuf out = { 0 }, th = { 0 };
	struct prog p = { 0 };
	unsigned threads, walkers, mb, db, depth;
	double switch_p;
	int policy;
	const char *memory = gen_memory(gseed);
	char *text = NULL;

	if (!g)
		return NULL;
	wt_prng_seed(&g->r, gseed);
	snprintf(name, namelen, "gen.%016" PRIx64, gseed);
	threads = c->threads ? c->threads : 2 + rnd(g, 3);
	if (threads > WT_GEN_THREADS_MAX)
		threads = WT_GEN_THREADS_MAX;
	if (threads < 2)
		threads = 2;
	walkers = 1 + rnd(g, threads - 1);
	if (walkers > 1 && chance(g, 0.5))
		walkers--;		/* favour writers a little */
	policy = c->policy >= 0 ? c->policy :
		 chance(g, 0.75) ? WT_SCN_PCT : WT_SCN_RANDOM;
	depth = 2 + rnd(g, 3);
	switch_p = PICK_D(g, switch_ps);
	mb = mbuckets[rnd(g, 4)];
	db = dbuckets[rnd(g, 4)];

	g->slowperm = gen_slowperm(gseed);
	g->autofs = gen_autofs(gseed);
	g->dotdot = gen_dotdot(gseed);
	g->deep_scope = gen_deep_scope(gseed);
	gen_tree(g);
	/* writers first: the walkers walk what they touch */
	for (unsigned i = walkers; i < threads; i++) {
		char tname[24];	/* "writer%u": room for any unsigned */

		gen_writer(g, &p);
		snprintf(tname, sizeof(tname), "writer%u", i - walkers + 1);
		emit_prog(&th, tname, false, NULL, 1 + rnd(g, 2), &p);
	}
	for (unsigned i = 0; i < walkers; i++) {
		char tname[24];	/* "writer%u": room for any unsigned */
		unsigned n = 2 + rnd(g, 4);
		bool user = chance(g, 0.35);

		g->cwd[0] = '\0';
		if (g->dotdot && chance(g, 0.35)) {
			/* a walker that stands in a directory of the tree
			 * (a mount's root, maybe) and walks from it */
			struct gnode *d = node_pick(g, 1u << GK_DIR, false);

			if (d)
				pathf(g->cwd, "%s", d->path);
		}
		for (unsigned k = 0; k < n; k++)
			gen_walk(g, &p);
		snprintf(tname, sizeof(tname), "walker%u", i + 1);
		emit_prog(&th, tname, user, g->cwd, 1 + rnd(g, 4), &p);
	}

	sb_printf(&out, "name: %s\n", name);
	sb_printf(&out, "description: >\n  Generated by walktorture fuzz "
		  "(generator %d, workload seed %#" PRIx64 "): %u walker(s), "
		  "%u writer(s), no schedule; judged by the oracle and the "
		  "safety checks only.\n", WT_GEN_VERSION, gseed, walkers,
		  threads - walkers);
	sb_printf(&out, "world: { mount_buckets: %u, dcache_buckets: %u }\n",
		  mb, db);
	sb_printf(&out, "tree: |\n%s", g->tree.p ? g->tree.p : "  mkdir /a\n");
	sb_printf(&out, "threads:\n%s", th.p ? th.p : "");
	/* pos and explore only when asked for (--policy): the drawn
	 * depth and switch_p are still drawn, so the rest of workload j is
	 * the same under every policy */
	if (policy == WT_SCN_PCT)
		sb_printf(&out, "policy: pct\nsched: { pct_depth: %u, "
			  "pct_steps: auto }\n", depth);
	else if (policy == WT_SCN_POS || policy == WT_SCN_EXPLORE)
		sb_printf(&out, "policy: %s\n", policy == WT_SCN_POS ?
			  "pos" : "explore");
	else
		sb_printf(&out, "policy: random\nsched: { switch_p: %g }\n",
			  switch_p);
	if (memory)
		sb_printf(&out, "memory: %s\n", memory);
	sb_printf(&out, "budget: { iterations: %" PRIu64 " }\n",
		  c->iterations ? c->iterations : WT_GEN_ITERATIONS);
	sb_printf(&out, "expect:\n  - oracle clean\n");
	if (!out.oom && !th.oom && !g->tree.oom)
		text = out.p;
	else
		free(out.p);
	free(th.p);
	free(g->tree.p);
	free(g);
	return text;
}

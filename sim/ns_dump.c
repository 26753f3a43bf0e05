/* SPDX-License-Identifier: MIT */
/*
 * The canonical namespace listing, from a snapshot or from the live world
 * (captured into a snapshot first, so both go through this one printer
 * and can only differ where the facts differ).
 */
#define _GNU_SOURCE	/* asprintf, vasprintf, open_memstream */
#include <stdlib.h>
#include <string.h>

#include "sim/history_internal.h"
#include "sim/ns.h"
#include "sim/vfs/mount.h"
#include "sim/vfs/world.h"

#define DUMP_MAX_LINES	(1u << 20)
#define DUMP_MAX_DEPTH	4096u

struct strbuf {
	char *s;
	size_t len;
	size_t cap;
};

static void sb_putc(struct strbuf *b, char c)
{
	if (b->len + 2 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

static void sb_puts(struct strbuf *b, const char *s)
{
	while (*s)
		sb_putc(b, *s++);
}

/* Names and link bodies: printable ASCII but space and backslash as is. */
static void sb_escaped(struct strbuf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > ' ' && c < 0x7f && c != '\\') {
			sb_putc(b, (char)c);
			continue;
		}
		sb_puts(b, "\\x");
		sb_putc(b, hex[c >> 4]);
		sb_putc(b, hex[c & 15]);
	}
}

struct line {
	char *text;
	char *path;		/* mounts: sort key */
	unsigned depth;		/* mounts: stacking within a path */
};

struct lines {
	struct line *v;
	size_t n;
	size_t cap;
};

static void lines_add(struct lines *l, char *text, char *path, unsigned depth)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	l->v[l->n].text = text;
	l->v[l->n].path = path;
	l->v[l->n++].depth = depth;
}

static void lines_print_free(struct lines *l, FILE *f)
{
	for (size_t i = 0; i < l->n; i++) {
		fputs(l->v[i].text, f);
		fputc('\n', f);
		free(l->v[i].text);
		free(l->v[i].path);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_mount_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	return (x->depth > y->depth) - (x->depth < y->depth);
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text,
		      ((const struct line *)b)->text);
}

/* ------------------------------------------------------------------ */
/* mounts                                                               */

/* Prepend "/name" components of d up to (not including) stop. */
static bool dentry_path_to(const struct wt_ns *ns, uint64_t d, uint64_t stop,
			   char **comps, unsigned *n)
{
	for (unsigned steps = 0; d != stop; steps++) {
		const struct wt_dentry_fact *f = wt_ns_dentry(ns, d);

		if (!f || f->parent == f->id || steps >= DUMP_MAX_DEPTH ||
		    *n >= DUMP_MAX_DEPTH)
			return false;	/* not under the mount's root */
		comps[(*n)++] = (char *)f->name;
		d = f->parent;
	}
	return true;
}

/* The path of mount m from the namespace root, and its depth; false when
 * m does not hang off the root (never for an attached mount). */
static bool mount_path(const struct wt_ns *ns, const struct wt_mount_fact *m,
		       struct strbuf *out, unsigned *depth)
{
	char **comps = malloc(DUMP_MAX_DEPTH * sizeof(*comps));
	unsigned n = 0;
	bool ok = true;

	if (!comps)
		abort();
	*depth = 0;
	while (ok && m->id != wt_ns_root_mount(ns)) {
		const struct wt_mount_fact *p = wt_ns_mount(ns, m->parent);

		ok = p && p != m && (m->flags & WT_MF_ATTACHED) &&
		     ++*depth < DUMP_MAX_DEPTH &&
		     dentry_path_to(ns, m->mountpoint, p->root, comps, &n);
		m = p;
	}
	for (unsigned i = n; ok && i-- > 0;) {
		sb_putc(out, '/');
		sb_escaped(out, comps[i]);
	}
	if (ok && !n)
		sb_putc(out, '/');
	free(comps);
	return ok;
}

/* The mount's flags ("rw" when none); sb_ro when the filesystem itself
 * is read-only (through every mount of it, whatever the mount says). */
static void mnt_flags_text(struct strbuf *b, int flags, bool sb_ro)
{
	static const struct { int flag; const char *name; } names[] = {
		{ MNT_READONLY, "ro" }, { MNT_NOSUID, "nosuid" }, { MNT_NODEV, "nodev" },
		{ MNT_NOEXEC, "noexec" }, { MNT_NOATIME, "noatime" },
		{ MNT_NOSYMFOLLOW, "nosymfollow" },
		{ MNT_LOCKED, "locked" }, { MNT_DOOMED, "doomed" },
		{ MNT_SYNC_UMOUNT, "sync_umount" }, { MNT_UMOUNT, "umount" },
	};
	size_t start = b->len;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(flags & names[i].flag))
			continue;
		if (b->len > start)
			sb_putc(b, ',');
		sb_puts(b, names[i].name);
	}
	if (sb_ro) {
		if (b->len > start)
			sb_putc(b, ',');
		sb_puts(b, "sb_ro");
	}
	if (b->len == start)
		sb_puts(b, "rw");
}

static void mount_line(const struct wt_ns *ns, const struct wt_mount_fact *m,
		       struct lines *l)
{
	const struct wt_super_fact *s = wt_ns_super(ns, m->sb);
	struct strbuf path = { 0 }, text = { 0 };
	unsigned depth;

	if (!mount_path(ns, m, &path, &depth)) {
		free(path.s);
		return;
	}
	sb_puts(&text, "mount ");
	sb_puts(&text, path.s);
	sb_putc(&text, ' ');
	sb_puts(&text, s ? s->type : "?");
	sb_putc(&text, ' ');
	sb_escaped(&text, m->devname && *m->devname ? m->devname : "none");
	sb_putc(&text, ' ');
	mnt_flags_text(&text, m->mnt_flags, s && s->rdonly);
	lines_add(l, text.s, path.s, depth);
}

/* ------------------------------------------------------------------ */
/* dentries                                                             */

struct child {
	uint64_t parent;
	const char *name;
	uint64_t id;
};

static int cmp_child(const void *a, const void *b)
{
	const struct child *x = a, *y = b;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct tree {
	struct child *v;
	size_t n;
};

/* Every hashed positive non-root dentry, sorted by (parent, name). */
static void tree_build(const struct wt_ns *ns, const struct wt_idmap *objs,
		       struct tree *t)
{
	t->v = calloc(objs->n + 1, sizeof(*t->v));
	t->n = 0;
	if (!t->v)
		abort();
	for (size_t i = 0; i < objs->cap; i++) {
		const struct wt_fact *f = objs->vals[i];

		if (!f || f->kind != WT_FACT_DENTRY || !f->d.inode ||
		    !(f->d.flags & WT_DF_HASHED) || f->d.parent == f->d.id)
			continue;
		t->v[t->n].parent = f->d.parent;
		t->v[t->n].name = f->d.name;
		t->v[t->n++].id = f->d.id;
	}
	qsort(t->v, t->n, sizeof(*t->v), cmp_child);
	(void)ns;
}

static size_t tree_first(const struct tree *t, uint64_t parent)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].parent < parent)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static char *dentry_line(const struct wt_ns *ns, uint64_t dentry,
			 const char *path)
{
	const struct wt_inode_fact *i = wt_ns_dentry_inode(ns, dentry);
	char *text;
	int n;

	if (!i)
		n = asprintf(&text, "%s inode=? ?", path);
	else if (WT_S_ISLNK(i->mode)) {
		struct strbuf target = { 0 };

		/* A magic link has no body: its target is an object. */
		sb_escaped(&target, i->link ? i->link :
			   i->magic_dentry ? "[magic]" : "");
		n = asprintf(&text, "%s inode=%llu %s %04o %u:%u -> %s", path,
			     (unsigned long long)i->id, wt_mode_type_name(i->mode),
			     i->mode & 07777, i->uid, i->gid,
			     target.s ? target.s : "");
		free(target.s);
	} else {
		n = asprintf(&text, "%s inode=%llu %s %04o %u:%u", path,
			     (unsigned long long)i->id, wt_mode_type_name(i->mode),
			     i->mode & 07777, i->uid, i->gid);
	}
	if (n < 0)
		abort();
	return text;
}

struct visit {
	uint64_t mnt;
	uint64_t dentry;
	char *path;
};

struct stack {
	struct visit *v;
	size_t n;
	size_t cap;
};

static void push(struct stack *s, uint64_t mnt, uint64_t dentry, char *path)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
	}
	s->v[s->n].mnt = mnt;
	s->v[s->n].dentry = dentry;
	s->v[s->n++].path = path;
}

static char *child_path(const char *dir, const char *name)
{
	struct strbuf b = { 0 };

	sb_puts(&b, dir);
	if (strcmp(dir, "/"))
		sb_putc(&b, '/');
	sb_escaped(&b, name);
	return b.s;
}

static void push_children(const struct wt_ns *ns, const struct tree *t,
			  struct stack *s, const struct visit *at)
{
	for (size_t i = tree_first(t, at->dentry);
	     i < t->n && t->v[i].parent == at->dentry; i++) {
		uint64_t mnt = at->mnt, d = t->v[i].id;

		wt_ns_follow_mounts(ns, &mnt, &d);
		push(s, mnt, d, child_path(at->path, t->v[i].name));
	}
}

/* Depth-first from the root through attached mounts, no recursion. */
static void dentry_lines(const struct wt_ns *ns, const struct wt_idmap *objs,
			 struct lines *l)
{
	uint64_t mnt = wt_ns_root_mount(ns), d = wt_ns_mount_root(ns, mnt);
	struct stack s = { 0 };
	struct tree t;

	if (!mnt)
		return;
	tree_build(ns, objs, &t);
	wt_ns_follow_mounts(ns, &mnt, &d);
	push(&s, mnt, d, strdup("/"));
	while (s.n) {
		struct visit at = s.v[--s.n];
		const struct wt_inode_fact *i = wt_ns_dentry_inode(ns, at.dentry);

		if (l->n < DUMP_MAX_LINES) {
			lines_add(l, dentry_line(ns, at.dentry, at.path), NULL, 0);
			if (i && WT_S_ISDIR(i->mode))
				push_children(ns, &t, &s, &at);
		}
		free(at.path);
	}
	free(s.v);
	free(t.v);
}

void wt_ns_dump(const struct wt_ns *ns, FILE *f)
{
	const struct wt_idmap *objs = wt_ns_objects(ns);
	struct lines mounts = { 0 }, dentries = { 0 };

	for (size_t i = 0; i < objs->cap; i++) {
		const struct wt_fact *fact = objs->vals[i];

		if (fact && fact->kind == WT_FACT_MOUNT &&
		    (fact->m.flags & WT_MF_ATTACHED))
			mount_line(ns, &fact->m, &mounts);
	}
	qsort(mounts.v, mounts.n, sizeof(*mounts.v), cmp_mount_line);
	lines_print_free(&mounts, f);
	dentry_lines(ns, objs, &dentries);
	qsort(dentries.v, dentries.n, sizeof(*dentries.v), cmp_text);
	lines_print_free(&dentries, f);
}

void wt_world_dump(struct wt_world *w, FILE *f)
{
	struct wt_ns *ns;

	if (w->history)
		mutex_lock(&w->history->writer);
	ns = wt_ns_from_world(w);
	if (w->history)
		mutex_unlock(&w->history->writer);
	if (!ns)
		abort();
	wt_ns_dump(ns, f);
	wt_ns_destroy(ns);
}

char *wt_ns_dump_string(const struct wt_ns *ns)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	wt_ns_dump(ns, f);
	fclose(f);
	return buf;
}

char *wt_world_dump_string(struct wt_world *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	wt_world_dump(w, f);
	fclose(f);
	return buf;
}

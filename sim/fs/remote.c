/* SPDX-License-Identifier: MIT */
/*
 * remote: an NFS-like filesystem -- a server's truth behind the client's
 * dcache.
 *
 * The server.  sb->s_fs_info is the server: a tree of nodes, each with a
 * handle (unique, never reused, drawn from the seed), a generation, a
 * mode, a name and a parent.  It is the world's memory (wt_world_zalloc):
 * a world snapshot copies it with the client's objects, and a restore
 * under another seed moves the handles to the new seed's
 * (wt_remote_reseed), so that the restored server is the one a build
 * with that seed makes.  Deleting a node marks it and its subtree
 * deleted; invalidating bumps its generation (the server reused the
 * handle for a new object).  A client handle is (node, generation); it is
 * stale when the node is deleted or its generation moved on.  The state
 * is under the server's spinlock; "asking the server" is that lock after
 * a sleeping call (wt_might_sleep, so asking inside an RCU section is
 * reported).
 *
 * The client's cache.  A client inode holds a handle: i_private is the
 * node, i_generation its generation when looked up.  A client dentry
 * keeps in d_fsdata the server epoch at which it was last validated.
 * The epoch moves with every server-side change (the wt_remote_server_*
 * API) and with wt_remote_expire(): a dentry behind it is "expired", its
 * cached attributes timed out -- a coarse but deterministic stand-in for
 * NFS's attribute timeouts.  Changes made on the client through the
 * dcache (writer operations' mkdir, unlink, rename) are mirrored on the
 * server by the type's hooks and expire nothing: the client knows what
 * it did -- unless a node the change touched has a second client inode,
 * whose cached children did not see it (client_changed).  (Hard links
 * made on the client are not mirrored.)
 *
 * d_revalidate(dentry, flags):
 *  - not expired, no LOOKUP_REVAL and no WT_REMOTE_ALWAYS_REVAL: 1 in
 *    either mode, without asking;
 *  - otherwise, in RCU mode: -ECHILD (asking sleeps);
 *  - in REF mode, ask by handle.  A positive dentry: its handle stale ->
 *    -ESTALE; its node still under the parent's node by the dentry's
 *    name -> 1; else (renamed or replaced on the server) -> 0.  A
 *    negative one: the parent's handle stale -> -ESTALE; the name now
 *    exists -> 0; else 1;
 *  - with LOOKUP_REVAL, a negative dentry -> 0 without asking (the
 *    walker drops it and looks the name up in its directory's node, as
 *    NFS does); a positive one is asked about strictly, by path: resolve
 *    the dentry's path from the server's root by names, no handles.  The
 *    same node at the same generation -> 1; anything else, nothing there
 *    included, -> 0 (the walker drops the dentry and looks the name up
 *    again, getting a fresh handle).  Never -ESTALE.
 *  An answer of 1 records the epoch sampled before asking.
 *  Before all that, a bad inode (S_BAD_INODE, wt_remote_make_bad) answers
 *  0 in either mode, without asking; and with WT_REMOTE_OVL_LAYER every
 *  0 reaches the walker as -ESTALE (overlayfs over the client) -- the
 *  two ways d_revalidate says 0 or an error to RCU-walk.
 *
 * ->lookup(dir, dentry, flags) asks for the name in dir's node.  dir's
 * handle stale -> -ESTALE, unless dir is the filesystem's root and the
 * walk is LOOKUP_REVAL: then the client refreshes the root's handle in
 * place (a liberty of the model, safe for the root alone: see
 * refresh_root_locked) and looks there.  Any other stale directory stays
 * stale, as in NFS: a walk that starts in it, or climbs into it by `..`,
 * gets -ESTALE even with LOOKUP_REVAL.
 *
 * d_weak_revalidate: 1 unless the inode's handle is stale (0, which the
 * walker turns into -ESTALE); with LOOKUP_REVAL it refreshes the root's
 * handle first.
 *
 * get_link: a symlink the server made reaches the client uncached
 * (S_LINK_UNCACHED, no i_link): RCU mode answers -ECHILD, REF mode
 * fetches the body by handle (stale -> -ESTALE) and caches it.
 *
 * So ESTALE and its retry are deterministic.  After
 * wt_remote_server_invalidate(sb, "a"), a walk through MNT/a meets, in
 * RCU mode, d_revalidate(a) -> -ECHILD (expired); in REF mode -> -ESTALE
 * (stale handle); in the LOOKUP_REVAL walk -> 0, a lookup, a fresh
 * inode, success.  Invalidating the root ("") instead makes ->lookup in
 * it and d_weak_revalidate of it answer -ESTALE until the LOOKUP_REVAL
 * walk refreshes the root's handle.
 */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/fs/libfs.h"
#include "sim/fs/remote.h"
#include "sim/rcu.h"
#include "sim/sched/sched.h"
#include "sim/vfs/lookup_flags.h"
#include "sim/vfs/world.h"

/* A path has at most this many components (PATH_MAX / 2). */
#define SRV_DEPTH_MAX	(PATH_MAX_LEN / 2)

struct srv_node {
	uint64_t handle;
	uint32_t generation;
	umode_t mode;
	uint32_t uid;
	uint32_t gid;
	uint32_t inodes;		/* atomic: client inodes holding it */
	bool deleted;
	char name[NAME_MAX_LEN + 1];
	char *link;			/* a symlink's body: after the node */
	struct srv_node *parent;
	struct srv_node *children;
	struct srv_node *sibling;
	struct srv_node *all_next;	/* every node, for teardown */
};

/* A growing text (the journal, or a full listing). */
struct jbuf {
	char *p;
	size_t len;
	size_t cap;
	struct wt_world *w;	/* the journal's: p is the world's memory;
				 * NULL: the heap's */
};

struct remote_server {
	struct wt_obj wt;	/* RCU-walk reads epoch and options: freed through RCU */
	spinlock_t lock;	/* everything below but the atomics */
	uint64_t epoch;		/* atomic: moves with each server-side change */
	uint32_t options;	/* atomic: WT_REMOTE_* */
	uint64_t asks;		/* atomic: statistics */
	uint64_t handle_seed;
	uint64_t next_handle;
	struct wt_world *world;
	struct srv_node *root;
	struct srv_node *all;
	/* the tree's changes since the history last took them
	 * (wt_remote_server_take), each line after "@V " when the step
	 * that wrote it had history record V open.  Appended under lock
	 * and the journal's own; a writer's commit scans and takes it
	 * under the journal's alone, while a walker's open(O_CREAT),
	 * which does not hold the writer mutex, may be appending */
	struct jbuf journal;
	/* The journal's own lock: a harness word, not a spinlock_t.  It
	 * has no injection point, so it adds no wait and no decision to
	 * a sim schedule; and no point falls inside it, so in sim mode
	 * (one fiber at a time, switched only at points) it is never
	 * found held.  Under stress it orders an append and a take. */
	uint32_t journal_held;
};

static void journal_lock(struct remote_server *s)
{
	while (__atomic_exchange_n(&s->journal_held, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void journal_unlock(struct remote_server *s)
{
	__atomic_store_n(&s->journal_held, 0, __ATOMIC_RELEASE);
}

static struct remote_server *srv_of(const struct super_block *sb)
{
	return sb->s_type == &wt_remote_type ? sb->s_fs_info : NULL;
}

static uint64_t srv_epoch(const struct remote_server *s)
{
	return __atomic_load_n(&s->epoch, __ATOMIC_RELAXED);
}

static void srv_changed(struct remote_server *s)
{
	__atomic_add_fetch(&s->epoch, 1, __ATOMIC_RELAXED);
}

/* Asking sleeps (a round trip): never inside an RCU section. */
static void srv_ask(struct remote_server *s)
{
	wt_might_sleep(WT_POINT_OR_NULL(WT_K_WAIT, "remote.ask", NULL,
					"ask the server (sleeps)"));
	__atomic_add_fetch(&s->asks, 1, __ATOMIC_RELAXED);
}

static uint64_t d_epoch(const struct dentry *d)
{
	return (uint64_t)(uintptr_t)wt_load(d, d_fsdata);
}

static void d_set_epoch(struct dentry *d, uint64_t epoch)
{
	wt_store(d, d_fsdata, (void *)(uintptr_t)epoch);
}

static uint32_t i_gen(const struct inode *inode)
{
	return wt_load(inode, i_generation);
}

/* ------------------------------------------------------------------ */
/* The server's tree (s->lock held)                                    */

static bool node_stale(const struct srv_node *n, uint32_t generation)
{
	return !n || n->deleted || n->generation != generation;
}

/*
 * Client inodes per server node.  The client has no inode cache keyed by
 * handle: a look-up makes a new inode, so a node looked up again while
 * an old dentry for it is still pinned (a walk's cwd or at= directory,
 * a dentry revalidation dropped, a directory renamed on the server) has
 * two.  Each keeps its own children, and a change made through one does
 * not touch the other's.  Raw atomics: no injection point, so no
 * schedule moves; an inode is counted before it is published.
 */
static void node_hold(struct srv_node *n)
{
	if (n)
		__atomic_add_fetch(&n->inodes, 1, __ATOMIC_SEQ_CST);
}

static void node_release(struct srv_node *n)
{
	if (n)
		__atomic_sub_fetch(&n->inodes, 1, __ATOMIC_SEQ_CST);
}

static bool node_aliased(const struct srv_node *n)
{
	return n && __atomic_load_n(&n->inodes, __ATOMIC_SEQ_CST) > 1;
}

static uint64_t srv_mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ull;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dull;
	x ^= x >> 33;
	return x;
}

/* srv_mix's inverse: each step undone, last first (the multipliers'
 * inverses mod 2^64; a shift by k undone by shifts of k, 2k, ...). */
static uint64_t srv_unmix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0x4d6dff26c61d8485ull;
	x ^= (x >> 27) ^ (x >> 54);
	x *= 0x4c5ff4596f4a2f4dull;
	x ^= (x >> 31) ^ (x >> 62);
	return x;
}

/* The server of super_block sb_id draws handle k as
 * srv_mix(handle_seed + k). */
static uint64_t handle_seed(uint64_t seed, uint64_t sb_id)
{
	return srv_mix(seed ^ srv_mix(sb_id));
}

/* Handle k of one handle seed as another draws it (0, no node, stays). */
static uint64_t handle_move(uint64_t handle, uint64_t from, uint64_t to)
{
	return handle ? srv_mix(srv_unmix(handle) - from + to) : 0;
}

/* Room for need bytes; the world's memory does not realloc. */
static void jbuf_grow(struct jbuf *b, size_t need)
{
	size_t cap = b->cap ? b->cap * 2 : 256;
	char *p;

	while (cap < need)
		cap *= 2;
	if (!b->w) {
		p = realloc(b->p, cap);
	} else {
		p = wt_world_zalloc(b->w, cap);
		if (p && b->p)
			memcpy(p, b->p, b->len + 1);
		if (p)
			wt_world_free(b->w, b->p, b->cap);
	}
	if (!p)
		abort();
	b->p = p;
	b->cap = cap;
}

static void jbuf_add(struct jbuf *b, const char *text, size_t k)
{
	if (b->len + k + 1 > b->cap)
		jbuf_grow(b, b->len + k + 1);
	memcpy(b->p + b->len, text, k);
	b->len += k;
	b->p[b->len] = '\0';
}

/*
 * One line about node n: "+H P LEN NAME" (n made under P, or put there
 * by a move: the same line, it sets the node's whole state) or "-H" (n
 * deleted).  LEN is NAME's length, so a name may hold any byte.
 */
static void jbuf_node(struct jbuf *b, const struct srv_node *n, bool live)
{
	char line[NAME_MAX_LEN + 64];
	int k;

	if (live)
		k = snprintf(line, sizeof(line), "+%llu %llu %zu %s\n",
			     (unsigned long long)n->handle,
			     (unsigned long long)(n->parent ? n->parent->handle : 0),
			     strlen(n->name), n->name);
	else
		k = snprintf(line, sizeof(line), "-%llu\n",
			     (unsigned long long)n->handle);
	if (k < 0 || (size_t)k >= sizeof(line))
		abort();
	jbuf_add(b, line, (size_t)k);
}

/*
 * A change of the server's tree, for the history (wt_remote_server_take):
 * the oracle replays the journal to know what the server held at each
 * instant.  The tree changes only in writer operations (the server API
 * and the client's mirrored changes), under the world's writer mutex.
 */
static void journal_node(struct remote_server *s, const struct srv_node *n,
			 bool live)
{
	uint64_t v = wt_self ? wt_self->hist_version : 0;

	/* no history, no reader: a full listing starts one (take) */
	if (!s->world->history)
		return;
	journal_lock(s);
	if (v) {
		char tag[32];
		int k = snprintf(tag, sizeof(tag), "@%llu ",
				 (unsigned long long)v);

		jbuf_add(&s->journal, tag, (size_t)k);
	}
	jbuf_node(&s->journal, n, live);
	journal_unlock(s);
}

/* The journal line at p: its text (after the tag) and its end, past the
 * newline; the version of the step that wrote it, 0 when none. */
static const char *journal_line(const char *p, const char **text,
				uint64_t *version)
{
	const char *end = strchr(p, '\n');

	*version = 0;
	if (*p == '@') {
		char *after;

		*version = strtoull(p + 1, &after, 10);
		p = after + 1;	/* past the space */
	}
	*text = p;
	return end ? end + 1 : p + strlen(p);
}

static void node_link(struct srv_node *n, struct srv_node *parent)
{
	n->parent = parent;
	n->sibling = parent->children;
	parent->children = n;
}

static void node_unlink(struct srv_node *n)
{
	struct srv_node **pp;

	if (!n->parent)
		return;
	for (pp = &n->parent->children; *pp && *pp != n; pp = &(*pp)->sibling)
		;
	if (*pp)
		*pp = n->sibling;
	n->sibling = NULL;
}

/* A node and its symlink body, if any, in one block. */
static size_t node_size(size_t link_len)
{
	return sizeof(struct srv_node) + link_len;
}

static void node_free(struct remote_server *s, struct srv_node *n)
{
	wt_world_free(s->world, n,
		      node_size(n->link ? strlen(n->link) + 1 : 0));
}

static struct srv_node *node_new(struct remote_server *s,
				 struct srv_node *parent, const char *name,
				 size_t len, umode_t mode, uint32_t uid,
				 uint32_t gid, const char *link)
{
	size_t link_len = link ? strlen(link) + 1 : 0;
	struct srv_node *n = wt_world_zalloc(s->world, node_size(link_len));

	if (!n)
		return NULL;
	if (link)
		n->link = memcpy(n + 1, link, link_len);
	n->handle = srv_mix(s->handle_seed + s->next_handle++);
	n->generation = 1;
	n->mode = mode;
	n->uid = uid;
	n->gid = gid;
	memcpy(n->name, name, len);
	n->name[len] = '\0';
	n->all_next = s->all;
	s->all = n;
	if (parent)
		node_link(n, parent);
	journal_node(s, n, true);
	return n;
}

static struct srv_node *node_child(const struct srv_node *dir,
				   const char *name, size_t len)
{
	for (struct srv_node *c = dir->children; c; c = c->sibling)
		if (strlen(c->name) == len && memcmp(c->name, name, len) == 0)
			return c;
	return NULL;
}

static bool node_is_under(const struct srv_node *n, const struct srv_node *top)
{
	for (unsigned depth = 0; n && depth <= SRV_DEPTH_MAX; depth++, n = n->parent)
		if (n == top)
			return true;
	return false;
}

/* Delete n and its subtree: every handle in it goes stale. */
static void node_delete(struct remote_server *s, struct srv_node *n)
{
	for (struct srv_node *c = s->all; c; c = c->all_next)
		if (c != n && !c->deleted && node_is_under(c, n)) {
			c->deleted = true;
			journal_node(s, c, false);
		}
	node_unlink(n);
	n->deleted = true;
	n->parent = NULL;
	journal_node(s, n, false);
}

static void node_move(struct remote_server *s, struct srv_node *n,
		      struct srv_node *parent, const char *name)
{
	node_unlink(n);
	snprintf(n->name, sizeof(n->name), "%s", name);
	node_link(n, parent);
	journal_node(s, n, true);
}

/* Resolve path by names from the root ("" and "/" are the root). */
static struct srv_node *srv_walk(const struct remote_server *s,
				 const char *path)
{
	struct srv_node *n = s->root;
	const char *p = path;

	for (unsigned depth = 0; n && *p && depth <= SRV_DEPTH_MAX; depth++) {
		size_t len;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len)
			break;
		if (!WT_S_ISDIR(n->mode))
			return NULL;
		n = node_child(n, p, len);
		p += len;
	}
	return n;
}

/* Split path into its parent (copied into parent) and its last name. */
static int srv_split(const char *path, char *parent, size_t size,
		     const char **leaf)
{
	const char *slash = strrchr(path, '/');
	size_t plen = slash ? (size_t)(slash - path) : 0;

	*leaf = slash ? slash + 1 : path;
	if (!**leaf)
		return -EINVAL;
	if (strlen(*leaf) > NAME_MAX_LEN)
		return -ENAMETOOLONG;
	if (plen >= size)
		return -ENAMETOOLONG;
	memcpy(parent, path, plen);
	parent[plen] = '\0';
	return 0;
}

/* ------------------------------------------------------------------ */
/* Client paths                                                        */

/* The dentry's path from the filesystem's root, "a/b", as the server
 * would name it; "" for the root.  REF mode (a rename meanwhile gives a
 * path that was true a moment ago, which strict revalidation then
 * judges). */
static int client_path(const struct dentry *d, char *buf, size_t size)
{
	char *end = buf + size, *p = end - 1;
	char name[NAME_MAX_LEN + 1];

	*p = '\0';
	rcu_read_lock();
	for (unsigned depth = 0; depth <= SRV_DEPTH_MAX; depth++) {
		const struct dentry *parent = d_parent_rcu(d);
		size_t len;

		if (parent == d)
			break;
		d_name_copy(d, name, sizeof(name));
		len = strlen(name);
		if ((size_t)(p - buf) < len + 1) {
			rcu_read_unlock();
			return -ENAMETOOLONG;
		}
		p -= len;
		memcpy(p, name, len);
		*--p = '/';
		d = parent;
	}
	rcu_read_unlock();
	memmove(buf, p, (size_t)(end - p));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Revalidation                                                        */

static bool remote_expired(const struct remote_server *s,
			   const struct dentry *d, unsigned flags)
{
	if (flags & LOOKUP_REVAL)
		return true;
	if (__atomic_load_n(&s->options, __ATOMIC_RELAXED) & WT_REMOTE_ALWAYS_REVAL)
		return true;
	return d_epoch(d) != srv_epoch(s);
}

/* s->lock held */
static int by_handle_locked(struct inode *dir, struct inode *inode,
			    const char *name)
{
	struct srv_node *pnode = dir ? dir->i_private : NULL;
	struct srv_node *node;

	if (!inode) {
		if (node_stale(pnode, dir ? i_gen(dir) : 0))
			return -ESTALE;
		return node_child(pnode, name, strlen(name)) ? 0 : 1;
	}
	node = inode->i_private;
	if (node_stale(node, i_gen(inode)))
		return -ESTALE;
	return (node->parent == pnode && strcmp(node->name, name) == 0) ? 1 : 0;
}

static int revalidate_by_handle(struct remote_server *s, struct dentry *d)
{
	struct dentry *parent = dget_parent(d);
	struct inode *dir = d_backing_inode(parent);
	struct inode *inode = d_backing_inode(d);
	char name[NAME_MAX_LEN + 1];
	int ret;

	d_name_copy(d, name, sizeof(name));
	srv_ask(s);
	spin_lock(&s->lock);
	ret = by_handle_locked(dir, inode, name);
	spin_unlock(&s->lock);
	dput(parent);
	return ret;
}

static int revalidate_by_path(struct remote_server *s, struct dentry *d)
{
	struct inode *inode = d_backing_inode(d);
	char path[PATH_MAX_LEN];
	struct srv_node *node;
	int ret;

	/* a negative dentry: dropped, and the name looked up again in its
	 * directory's node (nfs_lookup_revalidate_negative answers 0 and
	 * asks nothing) */
	if (!inode || client_path(d, path, sizeof(path)))
		return 0;
	srv_ask(s);
	spin_lock(&s->lock);
	node = srv_walk(s, path);
	ret = (node && node == inode->i_private &&
	       !node_stale(node, i_gen(inode))) ? 1 : 0;
	spin_unlock(&s->lock);
	return ret;
}

/*
 * The client's own answer.  A bad inode is known bad without asking, so
 * the answer is 0 in RCU mode too: nfs_do_lookup_revalidate tests
 * is_bad_inode() and fuse_dentry_revalidate fuse_is_bad() before either
 * can bail out with -ECHILD.
 */
static int remote_revalidate(struct remote_server *s, struct dentry *d,
			     unsigned flags)
{
	struct inode *inode = d_inode_rcu(d);
	uint64_t epoch;
	int ret;

	if (inode && (wt_load(inode, i_flags) & S_BAD_INODE))
		return 0;
	if (!remote_expired(s, d, flags))
		return 1;
	/* The cache may be out of date and asking sleeps: RCU-walk hands
	 * the question to REF-walk. */
	if (flags & LOOKUP_RCU)
		return -ECHILD;
	epoch = srv_epoch(s);
	if (flags & LOOKUP_REVAL)
		ret = revalidate_by_path(s, d);
	else
		ret = revalidate_by_handle(s, d);
	if (ret == 1)
		d_set_epoch(d, epoch);
	return ret;
}

/*
 * Seen through overlayfs (WT_REMOTE_OVL_LAYER), the walker gets what
 * ovl_revalidate_real makes of the layer's answer: 0 becomes -ESTALE, in
 * RCU mode as well (only the layer's d_invalidate waits for REF mode; the
 * model has one dentry, which the walker drops).  So a bad inode answers
 * -ESTALE to RCU-walk, the way an overlay over NFS does.
 */
static int remote_d_revalidate(struct dentry *d, unsigned flags)
{
	struct remote_server *s = srv_of(d->d_sb);
	int ret = remote_revalidate(s, d, flags);

	if (!ret && (__atomic_load_n(&s->options, __ATOMIC_RELAXED) &
		     WT_REMOTE_OVL_LAYER))
		return -ESTALE;
	return ret;
}

/*
 * s->lock held, under LOOKUP_REVAL: if inode is the filesystem root's,
 * take the server root's generation as its own (a handle refresh).  Only
 * the root: the server's root has one client inode, the super_block's
 * root inode, so the refreshed inode is the only one for it.  Any other
 * directory whose handle went stale was looked up again (by
 * revalidation) into a new dentry and inode for the same server node;
 * refreshing the old inode too would leave two inodes, each with its own
 * i_rwsem and children, serving one server directory.  A walk in the old
 * dentry (a cwd, an at= directory, `..` from below it) could then cache
 * a negative child there that a create through the new one never
 * invalidated (fuzz --seed 0x2704 workload 278219; client_changed now
 * expires it too).  NFS finds an inode by its file handle, one inode for
 * one object, and a stale directory handle stays stale: -ESTALE to the
 * caller.
 */
static bool refresh_root_locked(struct remote_server *s, struct inode *inode)
{
	if (inode->i_private != s->root)
		return false;
	wt_store(inode, i_generation, s->root->generation);
	return true;
}

static int remote_d_weak_revalidate(struct dentry *d, unsigned flags)
{
	struct remote_server *s = srv_of(d->d_sb);
	struct inode *inode = d_backing_inode(d);
	bool stale;

	if (!inode)
		return 1;
	if (flags & LOOKUP_RCU)
		return -ECHILD;
	srv_ask(s);
	spin_lock(&s->lock);
	stale = node_stale(inode->i_private, i_gen(inode));
	if (stale && (flags & LOOKUP_REVAL))
		stale = !refresh_root_locked(s, inode);
	spin_unlock(&s->lock);
	return stale ? 0 : 1;
}

/* ------------------------------------------------------------------ */
/* Lookup                                                              */

struct srv_attr {
	struct srv_node *node;
	umode_t mode;
	uint32_t uid;
	uint32_t gid;
	uint32_t generation;
};

/* s->lock held: the name in dir, refreshing the root's handle under
 * LOOKUP_REVAL (reval). */
static int lookup_locked(struct remote_server *s, struct inode *dir,
			 bool reval, const char *name, struct srv_attr *a)
{
	struct srv_node *pnode;

	if (node_stale(dir->i_private, i_gen(dir)) &&
	    (!reval || !refresh_root_locked(s, dir)))
		return -ESTALE;
	pnode = dir->i_private;
	a->node = node_child(pnode, name, strlen(name));
	if (a->node) {
		a->mode = a->node->mode;
		a->uid = a->node->uid;
		a->gid = a->node->gid;
		a->generation = a->node->generation;
	}
	return 0;
}

static struct inode *remote_new_inode(struct super_block *sb,
				      const struct srv_attr *a)
{
	struct inode *inode = wt_inode_alloc(sb, a->mode, a->uid, a->gid);

	if (!inode)
		return NULL;
	inode->i_private = a->node;
	node_hold(a->node);
	inode->i_generation = a->generation;
	/* The body stays on the server until a REF-walk fetches it. */
	if (WT_S_ISLNK(a->mode))
		inode->i_flags |= S_LINK_UNCACHED;
	return inode;
}

/*
 * A bad inode is one the client no longer trusts (wt_remote_make_bad),
 * and every operation on it fails with EIO before asking the server, as
 * fuse_permission, fuse_lookup and fuse_create_open do on fuse_is_bad().
 * A walk that stood on a directory before it went bad meets it here:
 * revalidation (remote_revalidate) only turns away those that arrive
 * later.  Without this, such a walk created by handle in the bad
 * directory while another thread created the same name through a fresh
 * dentry for the same server directory (an inode and an i_rwsem of its
 * own): tests/data/found/remote_bad.yaml.
 */
static bool remote_bad(struct inode *inode)
{
	/* a raw load, no injection point: a walk's permission check on
	 * every remote directory would otherwise gain one, and every
	 * schedule through a remote filesystem would move */
	return __atomic_load_n(&inode->i_flags, __ATOMIC_RELAXED) &
	       S_BAD_INODE;
}

static int remote_permission(const struct cred *cred, struct inode *inode,
			     int mask)
{
	if (remote_bad(inode))
		return -EIO;
	return generic_permission(cred, inode, mask);
}

static struct dentry *remote_lookup(struct inode *dir, struct dentry *dentry,
				    unsigned flags)
{
	struct remote_server *s = srv_of(dir->i_sb);
	struct srv_attr a = { 0 };
	char name[NAME_MAX_LEN + 1];
	struct inode *inode = NULL;
	uint64_t epoch = srv_epoch(s);
	int err;

	if (remote_bad(dir))
		return ERR_PTR(-EIO);

	/* the server's limit on a name (nfs_lookup's namelen check) */
	if (dentry->d_name.len > NAME_MAX_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	d_name_copy(dentry, name, sizeof(name));
	srv_ask(s);
	spin_lock(&s->lock);
	err = lookup_locked(s, dir, flags & LOOKUP_REVAL, name, &a);
	spin_unlock(&s->lock);
	if (err)
		return ERR_PTR(err);
	if (a.node) {
		inode = remote_new_inode(dir->i_sb, &a);
		if (!inode)
			return ERR_PTR(-ENOMEM);
	}
	d_set_epoch(dentry, epoch);
	d_add(dentry, inode);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Symlinks                                                            */

/* REF mode: fetch the body once (i_rwsem: one fetcher, the body is set
 * once and never replaced under a reader). */
static const char *remote_fetch_link(struct inode *inode)
{
	struct remote_server *s = srv_of(inode->i_sb);
	char body[PATH_MAX_LEN];
	struct srv_node *node;
	int err = 0;

	mutex_lock(&inode->i_rwsem);
	if (wt_load(inode, i_flags) & S_LINK_UNCACHED) {
		srv_ask(s);
		spin_lock(&s->lock);
		node = inode->i_private;
		if (node_stale(node, i_gen(inode)) || !node->link)
			err = -ESTALE;
		else
			snprintf(body, sizeof(body), "%s", node->link);
		spin_unlock(&s->lock);
		if (!err)
			err = wt_inode_set_link(inode, body);
		if (!err) {
			spin_lock(&inode->i_lock);
			wt_store(inode, i_flags, inode->i_flags & ~S_LINK_UNCACHED);
			spin_unlock(&inode->i_lock);
		}
	}
	mutex_unlock(&inode->i_rwsem);
	if (err)
		return ERR_PTR(err);
	return simple_get_link(NULL, NULL, inode, NULL);
}

static const char *remote_get_link(const struct cred *cred,
				   struct dentry *dentry, struct inode *inode,
				   struct path *jump)
{
	if (!(wt_load(inode, i_flags) & S_LINK_UNCACHED))
		return simple_get_link(cred, dentry, inode, jump);
	/* Not in memory, and fetching sleeps. */
	if (!dentry)
		return ERR_PTR(-ECHILD);
	return remote_fetch_link(inode);
}

/* ------------------------------------------------------------------ */
/* Client-side changes, mirrored on the server                         */

/*
 * s->lock held, after a change the client made in the server's tree
 * through one of its inodes: the client knows what it did, so nothing
 * expires -- unless a node the change touched (the directory, the object)
 * has another client inode.  That one's cached children did not see the
 * change: a negative dentry under it would go on saying absent for a
 * name just created through the other (fuzz --seed 0x2704, workload
 * 278219).  NFS has one inode per file handle and updates it; this
 * client moves the epoch, so every dentry asks the server again.
 */
static void client_changed(struct remote_server *s, struct srv_node *const *n,
			   unsigned count)
{
	/* Zoo WT_BUG_REMOTE_ALIAS_NO_EXPIRE (`--bug remote_alias_no_expire`):
	 * the client trusts all it did, through whichever inode */
	if (wt_bug(s->world, WT_BUG_REMOTE_ALIAS_NO_EXPIRE))
		return;
	for (unsigned i = 0; i < count; i++)
		if (node_aliased(n[i])) {
			srv_changed(s);
			return;
		}
}

static unsigned remote_instantiate(struct dentry *d, struct inode *inode)
{
	struct remote_server *s = srv_of(d->d_sb);
	struct srv_node *pnode, *node = NULL;
	char name[NAME_MAX_LEN + 1];
	struct inode *dir;

	/* A lookup's result, or a hard link: already a server object. */
	if (inode->i_private)
		return 0;
	d_name_copy(d, name, sizeof(name));
	dir = IS_ROOT(d) ? NULL : d_backing_inode(d_parent_rcu(d));
	spin_lock(&s->lock);
	pnode = dir ? dir->i_private : NULL;
	if (IS_ROOT(d)) {
		node = s->root;
	} else if (pnode && !pnode->deleted) {
		struct srv_node *old = node_child(pnode, name, strlen(name));

		if (old)
			node_delete(s, old);
		node = node_new(s, pnode, name, strlen(name), inode->i_mode,
				inode->i_uid, inode->i_gid, inode->i_link);
		client_changed(s, &pnode, 1);
	}
	if (node) {
		inode->i_private = node;
		node_hold(node);
		wt_store(inode, i_generation, node->generation);
	}
	spin_unlock(&s->lock);
	d_set_epoch(d, srv_epoch(s));
	return 0;
}

static void remote_unlink(struct dentry *d)
{
	struct remote_server *s = srv_of(d->d_sb);
	struct inode *inode = d_backing_inode(d);
	struct srv_node *node;

	spin_lock(&s->lock);
	node = inode ? inode->i_private : NULL;
	if (node && !node->deleted && node != s->root) {
		struct srv_node *touched[] = { node, node->parent };

		node_delete(s, node);
		client_changed(s, touched, 2);
	}
	spin_unlock(&s->lock);
}

static struct srv_node *d_node_locked(const struct dentry *d)
{
	struct inode *inode = d_backing_inode(d);

	return inode ? inode->i_private : NULL;
}

static void remote_rename(struct dentry *dentry, struct dentry *target,
			  bool exchange)
{
	struct remote_server *s = srv_of(dentry->d_sb);
	char dname[NAME_MAX_LEN + 1], tname[NAME_MAX_LEN + 1];
	struct srv_node *dn, *tn, *dp, *tp, *touched[4];

	d_name_copy(dentry, dname, sizeof(dname));
	d_name_copy(target, tname, sizeof(tname));
	spin_lock(&s->lock);
	dn = d_node_locked(dentry);
	tn = d_node_locked(target);
	dp = d_node_locked(dentry->d_parent);
	tp = d_node_locked(target->d_parent);
	if (!exchange) {
		if (tn && tn != dn && !tn->deleted)
			node_delete(s, tn);
		if (dn && tp && !dn->deleted)
			node_move(s, dn, tp, tname);
	} else if (dn && tn && dp && tp) {
		node_move(s, dn, tp, tname);
		node_move(s, tn, dp, dname);
	}
	touched[0] = dn;
	touched[1] = tn;
	touched[2] = dp;
	touched[3] = tp;
	client_changed(s, touched, 4);
	spin_unlock(&s->lock);
}

static void remote_evict_inode(struct inode *inode, bool teardown)
{
	/* teardown: the server goes with the world, no count to keep */
	if (!teardown)
		node_release(inode->i_private);
}

/* ------------------------------------------------------------------ */
/* Super_block                                                         */

static int remote_fill_super(struct super_block *sb)
{
	struct wt_world *w = sb->s_world;
	struct remote_server *s = wt_world_obj_alloc(w, sizeof(*s));

	if (!s)
		return -ENOMEM;
	wt_obj_init(&s->wt, WT_OBJ_OTHER, wt_world_new_id(w));
	spin_lock_init(&s->lock);
	s->epoch = 1;		/* d_fsdata 0: never validated, expired */
	s->handle_seed = handle_seed(w->cfg.seed, sb->wt.id);
	s->next_handle = 1;
	s->world = w;
	s->journal.w = w;
	s->root = node_new(s, NULL, "", 0, WT_S_IFDIR | 0755, 0, 0, NULL);
	if (!s->root) {
		wt_obj_free(&s->wt, sizeof(*s));
		return -ENOMEM;
	}
	sb->s_fs_info = s;
	return 0;
}

static void remote_kill_super(struct super_block *sb)
{
	struct remote_server *s = sb->s_fs_info;
	struct srv_node *n, *next;

	for (n = s->all; n; n = next) {
		next = n->all_next;
		node_free(s, n);
	}
	s->all = NULL;
	s->root = NULL;
	wt_world_free(s->world, s->journal.p, s->journal.cap);
	s->journal.p = NULL;
	sb->s_fs_info = NULL;
	call_rcu_free(sb->s_world->rcu, &s->wt, sizeof(*s), NULL);
}

/* ------------------------------------------------------------------ */
/* The server API                                                      */

/* s->lock held: a new node at parent/leaf (with its body, for a link). */
static int create_locked(struct remote_server *s, const char *parent,
			 const char *leaf, umode_t mode, const char *link)
{
	struct srv_node *p = srv_walk(s, parent);

	if (!p)
		return -ENOENT;
	if (!WT_S_ISDIR(p->mode))
		return -ENOTDIR;
	if (node_child(p, leaf, strlen(leaf)))
		return -EEXIST;
	if (!node_new(s, p, leaf, strlen(leaf), mode, 0, 0, link))
		return -ENOMEM;
	return 0;
}

static int server_create(struct super_block *sb, const char *path,
			 umode_t mode, const char *link)
{
	struct remote_server *s = srv_of(sb);
	char parent[PATH_MAX_LEN];
	const char *leaf;
	int err;

	if (!s)
		return -EINVAL;
	err = srv_split(path, parent, sizeof(parent), &leaf);
	if (err)
		return err;
	spin_lock(&s->lock);
	err = create_locked(s, parent, leaf, mode, link);
	if (!err)
		srv_changed(s);
	spin_unlock(&s->lock);
	return err;
}

int wt_remote_server_create(struct super_block *sb, const char *path,
			    umode_t mode)
{
	return server_create(sb, path, mode, NULL);
}

int wt_remote_server_symlink(struct super_block *sb, const char *path,
			     const char *target)
{
	return server_create(sb, path, WT_S_IFLNK | 0777, target);
}

int wt_remote_server_unlink(struct super_block *sb, const char *path)
{
	struct remote_server *s = srv_of(sb);
	struct srv_node *n;
	int err = 0;

	if (!s)
		return -EINVAL;
	spin_lock(&s->lock);
	n = srv_walk(s, path);
	if (!n)
		err = -ENOENT;
	else if (n == s->root)
		err = -EBUSY;
	else
		node_delete(s, n);
	if (!err)
		srv_changed(s);
	spin_unlock(&s->lock);
	return err;
}

/* s->lock held */
static int rename_locked(struct remote_server *s, const char *from,
			 const char *parent, const char *leaf)
{
	struct srv_node *n = srv_walk(s, from), *p = srv_walk(s, parent), *old;

	if (!n || !p)
		return -ENOENT;
	if (n == s->root)
		return -EBUSY;
	if (!WT_S_ISDIR(p->mode))
		return -ENOTDIR;
	if (node_is_under(p, n))
		return -EINVAL;
	old = node_child(p, leaf, strlen(leaf));
	if (old == n)
		return 0;
	if (old)
		node_delete(s, old);
	node_move(s, n, p, leaf);
	return 0;
}

int wt_remote_server_rename(struct super_block *sb, const char *from,
			    const char *to)
{
	struct remote_server *s = srv_of(sb);
	char parent[PATH_MAX_LEN];
	const char *leaf;
	int err;

	if (!s)
		return -EINVAL;
	err = srv_split(to, parent, sizeof(parent), &leaf);
	if (err)
		return err;
	spin_lock(&s->lock);
	err = rename_locked(s, from, parent, leaf);
	if (!err)
		srv_changed(s);
	spin_unlock(&s->lock);
	return err;
}

int wt_remote_server_invalidate(struct super_block *sb, const char *path)
{
	struct remote_server *s = srv_of(sb);
	struct srv_node *n;
	int err = 0;

	if (!s)
		return -EINVAL;
	spin_lock(&s->lock);
	n = srv_walk(s, path);
	if (!n)
		err = -ENOENT;
	else
		n->generation++;
	if (!err)
		srv_changed(s);
	spin_unlock(&s->lock);
	return err;
}

void wt_remote_expire(struct super_block *sb)
{
	struct remote_server *s = srv_of(sb);

	if (s)
		srv_changed(s);
}

/* Every live node under n (n first), parents before children. */
static void list_tree(struct jbuf *b, const struct srv_node *n)
{
	jbuf_node(b, n, true);
	for (const struct srv_node *c = n->children; c; c = c->sibling)
		list_tree(b, c);
}

/*
 * The lines up to the last of a step of version <= version go to *out
 * (untagged); the rest stay in the journal, in their order.  Lines of
 * later steps before that one go too: the server made those changes
 * first, and the oracle replays the lines in the order it reads them
 * (a walker's create, version 46, preempted before its d_instantiate;
 * a writer's remote-mv f n, version 47, on the server before it; the
 * create then replaced n there.  Dated to their versions, the rename
 * came after the create and brought n back for good).  So every
 * instant's server is one the server was.  Between the lines of two
 * steps goes a "|": the server stood there, for an instant, between
 * two versions.  A walker's look-up may have asked it then (a remote-rm
 * of f, version 23, and a walker's create of f, version 24, both on
 * the server before the last line of a create of version 22: a
 * LOOKUP_REVAL walk between them was told f is absent, which neither
 * v21's server nor v22's holds).  Bounded by its lines.
 */
static void journal_split(struct remote_server *s, uint64_t version,
			  struct jbuf *out)
{
	const char *p = s->journal.p, *text, *next, *cut = p;
	uint64_t v = 0;

	for (; *p; p = next) {
		next = journal_line(p, &text, &v);
		if (v <= version)
			cut = next;
	}
	for (p = s->journal.p; p < cut; p = next) {
		uint64_t prev = v;

		next = journal_line(p, &text, &v);
		/* another step's changes: the server was, for an instant,
		 * as the lines so far leave it */
		if (p != s->journal.p && v != prev)
			jbuf_add(out, "|\n", 2);
		jbuf_add(out, text, (size_t)(next - text));
	}
	/* the rest to the front of the buffer, which stays (the world's
	 * memory) */
	s->journal.len -= (size_t)(cut - s->journal.p);
	memmove(s->journal.p, cut, s->journal.len + 1);
}

char *wt_remote_server_take(struct super_block *sb, bool full,
			    uint64_t version)
{
	struct remote_server *s = srv_of(sb);
	struct jbuf b = { 0 };

	if (!s)
		return NULL;
	if (!full) {
		/* a copy: the journal's buffer is the world's, kept */
		journal_lock(s);
		if (s->journal.len)
			journal_split(s, version, &b);
		journal_unlock(s);
		return b.p;
	}
	/* "=": the replay starts afresh; the journal stays (replaying it
	 * after this sets what this already says) */
	jbuf_add(&b, "=\n", 2);
	list_tree(&b, s->root);
	return b.p;
}

/* The decimal number at *p (a digit at least), *p moved past it. */
static bool parse_u64(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9')
		x = x * 10 + (uint64_t)(*s++ - '0');
	*v = x;
	*p = s;
	return true;
}

/* v in decimal (not snprintf: a restore moves every handle the log's
 * marked entries name, each iteration). */
static void jbuf_u64(struct jbuf *b, uint64_t v)
{
	char d[20];
	size_t i = sizeof(d);

	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	jbuf_add(b, d + i, sizeof(d) - i);
}

/* One server line at p (wt_remote_server_take's: "=", "|", "-H" or
 * "+H P LEN NAME", where NAME's LEN bytes may hold a newline; in the
 * journal, after its step's "@V " when it has one) added to b with its
 * handles moved from one handle seed to another (handle_move): the next
 * line, or NULL when p is malformed. */
static const char *line_move(struct jbuf *b, const char *p, uint64_t from,
			     uint64_t to)
{
	uint64_t h, parent, len, v;
	char kind;

	if (*p == '@') {
		/* a version, not a handle: kept */
		p++;
		if (!parse_u64(&p, &v) || *p++ != ' ')
			return NULL;
		jbuf_add(b, "@", 1);
		jbuf_u64(b, v);
		jbuf_add(b, " ", 1);
	}
	kind = *p++;
	if (kind != '=' && kind != '-' && kind != '+' && kind != '|')
		return NULL;
	jbuf_add(b, &kind, 1);
	if (kind != '=' && kind != '|') {
		if (!parse_u64(&p, &h))
			return NULL;
		jbuf_u64(b, handle_move(h, from, to));
	}
	if (kind == '+') {
		if (*p++ != ' ' || !parse_u64(&p, &parent) || *p++ != ' ' ||
		    !parse_u64(&p, &len) || *p++ != ' ' || strnlen(p, len) < len)
			return NULL;
		jbuf_add(b, " ", 1);
		jbuf_u64(b, handle_move(parent, from, to));
		jbuf_add(b, " ", 1);
		jbuf_u64(b, len);
		jbuf_add(b, " ", 1);
		jbuf_add(b, p, len);
		p += len;
	}
	if (*p != '\n')
		return NULL;
	jbuf_add(b, "\n", 1);
	return p + 1;
}

/* Every line of p so (false: malformed). */
static bool lines_move(struct jbuf *b, const char *p, uint64_t from,
		       uint64_t to)
{
	while (p && *p)
		p = line_move(b, p, from, to);
	return p != NULL;
}

uint64_t wt_remote_handle_reseed(uint64_t handle, uint64_t sb_id,
				 uint64_t from, uint64_t to)
{
	return handle_move(handle, handle_seed(from, sb_id),
			   handle_seed(to, sb_id));
}

char *wt_remote_lines_reseed(const char *lines, uint64_t sb_id,
			     uint64_t from, uint64_t to)
{
	struct jbuf b = { 0 };

	jbuf_grow(&b, strlen(lines) + 1);
	b.p[0] = '\0';
	/* the server's own text: malformed is a bug of ours */
	if (!lines_move(&b, lines, handle_seed(from, sb_id),
			handle_seed(to, sb_id)))
		abort();
	return b.p;
}

void wt_remote_reseed(struct super_block *sb, uint64_t seed)
{
	struct remote_server *s = srv_of(sb);
	uint64_t from, to;
	char *journal;

	if (!s)
		return;
	from = s->handle_seed;
	to = handle_seed(seed, sb->wt.id);
	if (from == to)
		return;
	for (struct srv_node *n = s->all; n; n = n->all_next)
		n->handle = handle_move(n->handle, from, to);
	s->handle_seed = to;
	if (!s->journal.len)
		return;
	/* changes not taken yet: their lines name the old handles */
	journal = malloc(s->journal.len + 1);
	if (!journal)
		abort();
	memcpy(journal, s->journal.p, s->journal.len + 1);
	s->journal.len = 0;
	if (!lines_move(&s->journal, journal, from, to))
		abort();
	free(journal);
}

bool wt_remote_server_pending(const struct super_block *sb,
			      uint64_t version)
{
	struct remote_server *s = srv_of(sb);
	const char *p, *text;
	bool some = false;
	uint64_t v;

	if (!s)
		return false;
	journal_lock(s);
	/* bounded by its lines */
	for (p = s->journal.p; p && *p && !some; ) {
		p = journal_line(p, &text, &v);
		some = v <= version;
	}
	journal_unlock(s);
	return some;
}

uint64_t wt_remote_inode_handle(const struct inode *inode)
{
	const struct srv_node *n;

	if (!srv_of(inode->i_sb))
		return 0;
	/* set once, before the inode is published (remote_new_inode,
	 * remote_instantiate); a refresh moves only the generation */
	n = __atomic_load_n(&inode->i_private, __ATOMIC_RELAXED);
	return n ? n->handle : 0;
}

int wt_remote_set_options(struct super_block *sb, unsigned options)
{
	struct remote_server *s = srv_of(sb);

	if (!s)
		return -EINVAL;
	__atomic_store_n(&s->options, options, __ATOMIC_RELAXED);
	return 0;
}

int wt_remote_option(struct super_block *sb, unsigned option, bool on)
{
	struct remote_server *s = srv_of(sb);

	if (!s)
		return -EINVAL;
	if (on)
		__atomic_or_fetch(&s->options, option, __ATOMIC_RELAXED);
	else
		__atomic_and_fetch(&s->options, ~option, __ATOMIC_RELAXED);
	return 0;
}

int wt_remote_make_bad(struct inode *inode)
{
	if (!srv_of(inode->i_sb))
		return -EINVAL;
	spin_lock(&inode->i_lock);
	wt_store(inode, i_flags, inode->i_flags | S_BAD_INODE);
	spin_unlock(&inode->i_lock);
	return 0;
}

uint64_t wt_remote_server_asks(const struct super_block *sb)
{
	const struct remote_server *s = srv_of(sb);

	return s ? __atomic_load_n(&s->asks, __ATOMIC_RELAXED) : 0;
}

bool wt_remote_inode_stale(struct inode *inode)
{
	struct remote_server *s = srv_of(inode->i_sb);
	bool stale;

	if (!s)
		return false;
	spin_lock(&s->lock);
	stale = node_stale(inode->i_private, i_gen(inode));
	spin_unlock(&s->lock);
	return stale;
}

/* ------------------------------------------------------------------ */
/* The type                                                            */

static const struct inode_operations remote_dir_iop = {
	.permission = remote_permission,
	.lookup = remote_lookup,
};

static const struct inode_operations remote_file_iop = {
	.permission = remote_permission,
};

static const struct inode_operations remote_link_iop = {
	.get_link = remote_get_link,
};

static const struct dentry_operations remote_dops = {
	.d_revalidate = remote_d_revalidate,
	.d_weak_revalidate = remote_d_weak_revalidate,
};

const struct file_system_type wt_remote_type = {
	.name = "remote",
	.kind = WT_FS_REMOTE,
	.dir_iop = &remote_dir_iop,
	.file_iop = &remote_file_iop,
	.link_iop = &remote_link_iop,
	.dop = &remote_dops,
	.fill_super = remote_fill_super,
	.kill_super = remote_kill_super,
	.instantiate = remote_instantiate,
	.unlink = remote_unlink,
	.rename = remote_rename,
	.evict_inode = remote_evict_inode,
};

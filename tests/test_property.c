/* SPDX-License-Identifier: MIT */
/*
 * Property: with nothing concurrent, the walk engine's answer is REF-walk's.
 *
 * On random trees (tests/treegen.h: directories with random modes and
 * owners, files, symlinks relative and absolute, dangling and looping,
 * tmpfs mounts, bind and rbind mounts, stacked mounts), every generated
 * path is resolved, as root and as uid 1000, following and not following
 * a trailing link, by
 *   1. the entry point's ladder (filename_lookup), twice: the first run
 *      leaves negative dentries behind, the second must not answer
 *      otherwise;
 *   2. the same entry point with REF-walk forced from the start (the
 *      walker's ref_only knob: the ladder skips its LOOKUP_RCU attempt);
 *   3. the reference resolver (core/refwalk.c) over a snapshot of the
 *      namespace;
 * and the answers (errno, and mount/dentry/inode identity on success)
 * must agree.  The same three-way comparison is made for
 * filename_parentat (the parent, the last component and its type) and
 * for openat2 with O_PATH (do_openat2; O_NOFOLLOW when not following,
 * the scoping flags as RESOLVE_*).  The step oracle must accept every
 * walk, RCU-first and REF-only alike, and must reject the same record
 * with its last name changed (so it is not accepting by default).  A
 * further pass resolves relative names from a random directory with the
 * RESOLVE_* flags that need no concurrency (no-symlinks, no-xdev,
 * beneath, in-root) and LOOKUP_DIRECTORY.
 *
 * Exit paths: with no writer running, a walk may count only rcu.ok, the
 * error outcomes, and the unlazies the tree itself forces -- a name absent
 * from the cache (unlazy.lookup_fast.miss), a non-directory in mid-path
 * (unlazy.not_dir), a refused exec check (unlazy.may_lookup.denied); and
 * with a scoping flag what REF-walk must answer for it (`..` at the root
 * under RESOLVE_BENEATH, a crossing under RESOLVE_NO_XDEV).  A success is
 * exactly one rcu.ok; nothing else restarts.  A REF-only walk counts
 * ref.ok or ref.error and what a scoping flag forces in REF mode, never
 * rcu.* or unlazy.*, and a success is exactly one ref.ok.
 *
 * References: every walk leaves the world's dentry and mount reference
 * counts as it found them (refs_held), so a leak is caught at the walk
 * that made it, not at the umount that later finds a busy dentry.
 *
 * A remote filesystem (every fourth seed): mounted on a directory of
 * the tree, given names by the client, then changed by its server behind
 * the client's back -- creations, removals, renames -- before the
 * queries and again halfway through them, so that cached dentries
 * expire and revalidate.  The reference resolver knows only the
 * client's namespace, and the walks there leave RCU-walk and retry as
 * the server's changes make them, so a walk that touched the remote
 * mount is held to the rest: the oracle accepts it, both RCU-first runs
 * and the REF-only one agree, no reference is left behind.
 *
 * WT_PROPERTY_SEEDS=N runs N trees (ctest property.long, label nightly:
 * 20000), WT_PROPERTY_FIRST=S starts at seed S: a failure names its seed,
 * and WT_PROPERTY_FIRST=S WT_PROPERTY_SEEDS=1 replays it alone.
 */
#define _GNU_SOURCE	/* O_PATH */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>

#include "core/namei.h"
#include "core/oracle.h"
#include "core/paths.h"
#include "core/record.h"
#include "core/refwalk.h"
#include "sim/ns.h"
#include "sim/fs/remote.h"
#include "sim/ops.h"
#include "sim/resolve.h"
#include "sim/vfs/world.h"
#include "tests/treegen.h"

#define SEEDS		256	/* WT_PROPERTY_SEEDS=N for a longer hunt */
#define TREE_STEPS	40
#define QUERIES		60

struct totals {
	uint64_t walks;
	uint64_t ref_only_walks;	/* REF-walk forced from the start */
	uint64_t parentat;		/* comparisons of filename_parentat */
	uint64_t openat2;		/* comparisons of do_openat2 */
	uint64_t ok;
	uint64_t errors;
	uint64_t ref_walks;	/* walks that left RCU-walk */
	uint64_t links;
	uint64_t mutants;	/* mutated records rejected */
	uint64_t protected;	/* trailing links protected_symlinks refused */
	uint64_t scoped;
	uint64_t remote_walks;	/* walks that touched the remote mount */
	uint64_t server_changes;	/* successful server-side changes */
	double walk_ns;
	double oracle_ns;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static struct wt_ident ident_of_path(const struct path *p)
{
	struct wt_ident id = { 0, 0, 0 };

	if (p->mnt)
		id.mnt = real_mount(p->mnt)->wt.id;
	if (p->dentry) {
		id.dentry = p->dentry->wt.id;
		if (p->dentry->d_inode)
			id.inode = p->dentry->d_inode->wt.id;
	}
	return id;
}

static bool same_ident(const struct wt_ident *a, const struct wt_ident *b)
{
	return a->mnt == b->mnt && a->dentry == b->dentry && a->inode == b->inode;
}

static const unsigned allowed[] = {
	WT_PATH_RCU_OK, WT_PATH_RCU_ERROR, WT_PATH_REF_ERROR,
	WT_PATH_UNLAZY_LOOKUP_FAST_MISS, WT_PATH_UNLAZY_NOT_DIR,
	WT_PATH_UNLAZY_MAY_LOOKUP_DENIED,
};

/* What a scoping flag forces REF-walk to answer. */
static bool allowed_by_flags(unsigned id, unsigned flags)
{
	/* protected_symlinks denies in REF mode only (it audits) */
	if (id == WT_PATH_RESTART_MAY_FOLLOW_LINK || id == WT_PATH_REF_ERROR)
		return true;
	if (flags & LOOKUP_BENEATH)
		if (id == WT_PATH_RESTART_DOTDOT_ROOT_BENEATH || id == WT_PATH_REF_ERROR)
			return true;
	/* a dentry mounted on in another vfsmount: REF-walk finds nothing */
	if (flags & LOOKUP_NO_XDEV)
		if (id == WT_PATH_RESTART_DOTDOT_NO_XDEV || id == WT_PATH_REF_OK ||
		    id == WT_PATH_UNLAZY_FOLLOW_MOUNT_NO_XDEV ||
		    id == WT_PATH_RESTART_FOLLOW_MOUNT_NO_XDEV)
			return true;
	return false;
}

static const char *forbidden_path(const struct wt_path_counts *c, int err,
				  unsigned flags, bool ref_only)
{
	for (unsigned id = 0; id < WT_PATH__COUNT; id++) {
		const char *name = wt_path_info(id)->name;
		bool ok = allowed_by_flags(id, flags);

		if (!c->counts[id])
			continue;
		for (unsigned k = 0; k < sizeof(allowed) / sizeof(allowed[0]); k++)
			ok |= allowed[k] == id;
		/* REF-walk from the start never was in RCU-walk to leave it */
		if (ref_only)
			ok = (ok || id == WT_PATH_REF_OK) &&
			     strncmp(name, "rcu.", 4) && strncmp(name, "unlazy.", 7);
		if (!ok)
			return name;
	}
	if (!err && c->counts[WT_PATH_RCU_OK] + c->counts[WT_PATH_REF_OK] != 1)
		return "a success counted more than once";
	if (!err && ref_only && c->counts[WT_PATH_REF_OK] != 1)
		return "a REF-only success that is not exactly one ref.ok";
	if (!err && !ref_only && !(flags & LOOKUP_NO_XDEV) &&
	    c->counts[WT_PATH_RCU_OK] != 1)
		return "a success that is not exactly one rcu.ok";
	return NULL;
}

/* The entry points compared */
enum entry { E_LOOKUP, E_PARENTAT, E_OPENAT2 };

/* What an entry point answered. */
struct answer {
	int err;
	struct wt_ident id;	/* the result; filename_parentat's: the parent */
	int last_type;		/* filename_parentat only */
	char last[256];
	bool remote;		/* the walk touched the remote mount */
};

struct ctx {
	struct wt_world *w;
	struct tg_tree *tree;
	struct wt_ns *ns;
	struct wt_record *rec;
	struct wt_oracle *oracle;
	struct totals *tot;
	uint64_t seed;
	bool protected_symlinks;
	uint64_t remote_mnt;	/* the remote mount's id, or 0 */
	char remote_at[8];	/* where it is mounted ("/c") */
	uint64_t rng;		/* the remote phase's own draws */
};

static void fail_with_tree(const struct ctx *c, const char *path,
			   const char *what)
{
	fprintf(stderr, "!!! seed %" PRIu64 " path '%s': %s\ntree:\n", c->seed,
		path, what);
	tg_print(c->tree, stderr);
	wt_record_print(c->rec, stderr);
	cr_assert_fail("seed %" PRIu64 " path '%s': %s", c->seed, path, what);
}

/*
 * The oracle has teeth: the same record with the last name it looked up
 * changed to one no directory holds must be rejected.
 */
static void mutated_is_rejected(struct ctx *c, struct wt_oracle_input *in,
				const char *path)
{
	const struct wt_record_attempt *a = wt_record_final(c->rec);
	struct wt_oracle_result res;

	for (int i = (int)(a->first + a->count) - 1; i >= (int)a->first; i--) {
		struct wt_step *s = &c->rec->steps[i];

		if (s->kind != WT_STEP_LOOKUP || !s->validated || !s->text_len)
			continue;
		c->rec->text[s->text] = 'Z';
		if (wt_oracle_judge(c->oracle, in, &res) != WT_VERDICT_REJECTED)
			fail_with_tree(c, path, "the oracle accepts a lookup of "
				       "a name that is nowhere");
		c->tot->mutants++;
		return;
	}
}

/* openat2's open_how for lookup flags: O_PATH, so nothing but the walk. */
static struct open_how how_of(unsigned flags)
{
	static const struct { unsigned lookup; uint64_t resolve; } map[] = {
		{ LOOKUP_NO_SYMLINKS, RESOLVE_NO_SYMLINKS },
		{ LOOKUP_NO_MAGICLINKS, RESOLVE_NO_MAGICLINKS },
		{ LOOKUP_NO_XDEV, RESOLVE_NO_XDEV },
		{ LOOKUP_BENEATH, RESOLVE_BENEATH },
		{ LOOKUP_IN_ROOT, RESOLVE_IN_ROOT },
	};
	struct open_how how = { .flags = O_PATH };

	if (!(flags & LOOKUP_FOLLOW))
		how.flags |= O_NOFOLLOW;
	if (flags & LOOKUP_DIRECTORY)
		how.flags |= O_DIRECTORY;
	for (unsigned k = 0; k < sizeof(map) / sizeof(map[0]); k++)
		if (flags & map[k].lookup)
			how.resolve |= map[k].resolve;
	cr_assert(wt_resolve_lookup_flags(how.resolve) ==
	       (flags & ~(LOOKUP_FOLLOW | LOOKUP_DIRECTORY)));
	return how;
}

/* Call entry e; a successful answer's references are dropped. */
static void call_entry(const struct wt_walker *wk, enum entry e,
		       const struct path *dir, const char *path,
		       unsigned flags, struct answer *a)
{
	struct path p = { NULL, NULL };
	struct open_how how;
	struct wt_file f;
	struct qstr last;

	memset(a, 0, sizeof(*a));
	switch (e) {
	case E_LOOKUP:
		a->err = filename_lookup(wk, dir, path, flags, &p, NULL);
		break;
	case E_PARENTAT:
		a->err = filename_parentat(wk, dir, path, flags, &p, &last,
					   &a->last_type);
		if (!a->err && a->last_type != LAST_ROOT)
			snprintf(a->last, sizeof(a->last), "%.*s",
				 (int)last.len, last.name);
		break;
	case E_OPENAT2:
		how = how_of(flags);
		a->err = do_openat2(wk, dir, path, &how, &f);
		if (!a->err)
			p = f.path;
		break;
	}
	if (a->err)
		return;
	a->id = ident_of_path(&p);
	if (e == E_OPENAT2)
		wt_file_close(&f);
	else
		path_put(&p);
}

/*
 * References held on the world's dentries and mounts beyond what the
 * dcache itself keeps (a child pins its parent, d_make_persistent pins
 * an in-memory fs's objects, the super_block pins its root).  A walk
 * that returns has dropped everything it took (terminate_walk, or the
 * answer the caller then puts): the totals before and after must match,
 * or a later umount finds a busy dentry.
 */
struct refs {
	long dentry, mount;
	unsigned nmounts;
};

static int d_children(const struct dentry *d)
{
	int n = 0;

	for (const struct dentry *c = d->d_subdirs; c; c = c->d_sib)
		n++;
	return n;
}

static struct refs refs_held(struct wt_world *w)
{
	struct refs r = { 0 };

	spin_lock(&w->list_lock);
	for (struct dentry *d = w->dentries; d; d = d->d_all_next)
		r.dentry += d->d_lockref.count - d_children(d) -
			    (d == d->d_sb->s_root) -
			    !!(d->d_flags & DCACHE_PERSISTENT);
	for (struct mount *m = w->mounts; m; m = m->mnt_all_next) {
		r.mount += mnt_get_count(m);
		r.nmounts++;
	}
	spin_unlock(&w->list_lock);
	return r;
}

/* Does the record (any attempt) stand on mount mnt at some step? */
static bool record_on_mount(const struct wt_record *r, uint64_t mnt)
{
	for (uint32_t i = 0; i < r->nsteps; i++)
		if (r->steps[i].from.mnt == mnt || r->steps[i].to.mnt == mnt)
			return true;
	return false;
}

/* One ladder run, judged by the oracle and checked for exit paths. */
static void ladder(struct ctx *c, struct wt_task *task, const struct path *dir,
		   const char *path, unsigned flags, enum entry e, bool ref_only,
		   struct answer *a)
{
	const struct path *root = (flags & LOOKUP_IS_SCOPED) && dir ? dir
								    : &task->root;
	struct wt_path_counts stats = { 0 };
	struct wt_walker wk = { .task = task, .stats = &stats, .record = c->rec,
				.protected_symlinks = c->protected_symlinks,
				.ref_only = ref_only };
	struct wt_oracle_input in = {
		.record = c->rec, .cred = &task->cred, .name = path,
		.protected_symlinks = c->protected_symlinks,
		.root_mnt = real_mount(root->mnt)->wt.id,
		.root_dentry = root->dentry->wt.id,
	};
	struct wt_oracle_result res;
	struct refs before, after;
	const char *bad;
	double t0, t1, t1b;

	before = refs_held(c->w);
	t0 = now_ns();
	call_entry(&wk, e, dir, path, flags, a);
	t1 = now_ns();
	a->remote = c->remote_mnt && record_on_mount(c->rec, c->remote_mnt);
	after = refs_held(c->w);
	t1b = now_ns();
	/* an automount adds a mount and its references */
	if (after.dentry != before.dentry ||
	    (after.nmounts == before.nmounts && after.mount != before.mount)) {
		char msg[200];

		snprintf(msg, sizeof(msg), "entry %d (%s) left %ld dentry and "
			 "%ld mount references behind", e,
			 ref_only ? "REF-only" : "RCU first",
			 after.dentry - before.dentry,
			 after.mount - before.mount);
		fail_with_tree(c, path, msg);
	}
	if (ref_only && c->rec->nattempts && (c->rec->attempts[0].flags & LOOKUP_RCU))
		fail_with_tree(c, path, "a REF-only walk began in RCU-walk");
	if (wt_oracle_judge(c->oracle, &in, &res) != WT_VERDICT_OK)
		fail_with_tree(c, path, res.explain);
	c->tot->oracle_ns += now_ns() - t1b;
	c->tot->walk_ns += t1 - t0;
	c->tot->walks++;
	c->tot->ref_only_walks += ref_only;
	c->tot->ref_walks += !(stats.counts[WT_PATH_RCU_OK] +
			       stats.counts[WT_PATH_RCU_ERROR]);
	c->tot->protected += !ref_only && a->err == -EACCES &&
			     stats.counts[WT_PATH_RESTART_MAY_FOLLOW_LINK];
	c->tot->remote_walks += a->remote;
	/* the server's changes expire the client's cache: revalidation
	 * leaves RCU-walk, a stale handle retries -- and a remote ->lookup
	 * makes dentries the history does not know, so a changed name is
	 * no mutant the oracle can refute */
	if (a->remote)
		return;
	bad = forbidden_path(&stats, a->err, flags, ref_only);
	if (bad) {
		char msg[200];

		snprintf(msg, sizeof(msg), "exit path %s with no concurrency "
			 "(entry %d, %s, answer %d)", bad, e,
			 ref_only ? "REF-only" : "RCU first", a->err);
		fail_with_tree(c, path, msg);
	}
	if (!a->err && c->tot->walks % 7 == 0)
		mutated_is_rejected(c, &in, path);
}

/*
 * The remote phase.  Its draws come from its own generator, so the
 * trees and queries of the other seeds stay what they were.
 */
static unsigned r_below(struct ctx *c, unsigned n)
{
	uint64_t z = (c->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (unsigned)((z ^ (z >> 31)) % n);
}

/* "n" or "n/m" from the tree's names (fs-relative). */
static void r_name(struct ctx *c, char *out, size_t size)
{
	const char *a = tg_names[r_below(c, TG_NNAMES)];

	if (r_below(c, 3))
		tg_snprintf(out, size, "%s", a);
	else
		tg_snprintf(out, size, "%s/%s", a, tg_names[r_below(c, TG_NNAMES)]);
}

/* Server-side changes behind the client (failures are outcomes too). */
static void remote_server_changes(struct ctx *c, unsigned n)
{
	static const char *const targets[] = { "a", "/", "..", "x/l", "" };

	for (unsigned i = 0; i < n; i++) {
		char a[64], b[64];
		enum wt_remote_change ch;
		int err;

		r_name(c, a, sizeof(a));
		r_name(c, b, sizeof(b));
		switch (r_below(c, 5)) {
		case 0: ch = WT_REMOTE_CREATE; break;
		case 1: ch = WT_REMOTE_MKDIR; break;
		case 2: ch = WT_REMOTE_SYMLINK;
			tg_snprintf(b, sizeof(b), "%s",
				    targets[r_below(c, sizeof(targets) / sizeof(targets[0]))]);
			break;
		case 3: ch = WT_REMOTE_UNLINK; break;
		default: ch = WT_REMOTE_RENAME; break;
		}
		err = wt_op_remote(c->w, ch, c->remote_at, a,
				   ch == WT_REMOTE_SYMLINK || ch == WT_REMOTE_RENAME ? b : NULL,
				   0755);
		c->tot->server_changes += !err;
	}
}

/* The client's own changes there (mirrored on the server). */
static void remote_client_changes(struct ctx *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		char a[64], pa[TG_PATH_MAX + 64], pb[TG_PATH_MAX + 64];

		r_name(c, a, sizeof(a));
		tg_snprintf(pa, sizeof(pa), "%s/%s", c->remote_at, a);
		r_name(c, a, sizeof(a));
		tg_snprintf(pb, sizeof(pb), "%s/%s", c->remote_at, a);
		switch (r_below(c, 6)) {
		case 0: (void)wt_op_mkdir(c->w, pa, 0755, false); break;
		case 1: (void)wt_op_create(c->w, pa, 0644); break;
		case 2: (void)wt_op_symlink(c->w, "a", pa); break;
		case 3: (void)wt_op_link(c->w, pa, pb); break;
		case 4: (void)wt_op_rename(c->w, pa, pb, 0); break;
		default: (void)wt_op_unlink(c->w, pa); break;
		}
	}
}

/* Mount the remote fs on one of the tree's first directories, name
 * things on it from the client, change them on the server. */
static void remote_setup(struct ctx *c)
{
	static const char *const at[] = { "/c", "/d", "/a", "/b" };
	struct path p;

	c->rng = c->seed * 0x9e3779b97f4a7c15ull + 7;
	for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		bool dir;

		/* a directory, not a link to one: the client's changes
		 * below must land on the remote fs */
		if (wt_resolve(c->w, at[i], 0, &p))
			continue;
		dir = d_is_dir(p.dentry);
		wt_path_put(&p);
		if (!dir || wt_op_mount(c->w, "remote", "srv", at[i]))
			continue;
		cr_assert_eq(wt_resolve(c->w, at[i], WT_RES_FOLLOW, &p), 0);
		c->remote_mnt = real_mount(p.mnt)->wt.id;
		wt_path_put(&p);
		tg_snprintf(c->remote_at, sizeof(c->remote_at), "%s", at[i]);
		break;
	}
	if (!c->remote_mnt)
		return;
	remote_client_changes(c, 8);
	remote_server_changes(c, 6);
}

/* A query under the remote mount. */
static void remote_query(struct ctx *c, char *out, size_t size)
{
	static const char *const tails[] = { "", "", "/", "/.", "/..", "/x", "/l" };
	char a[64];

	r_name(c, a, sizeof(a));
	tg_snprintf(out, size, "%s/%s%s", c->remote_at, a,
		    tails[r_below(c, sizeof(tails) / sizeof(tails[0]))]);
}

static bool same_answer(const struct answer *a, const struct answer *b)
{
	return a->err == b->err && same_ident(&a->id, &b->id) &&
	       a->last_type == b->last_type && !strcmp(a->last, b->last);
}

static void differ(struct ctx *c, struct wt_task *task, const char *path,
		   unsigned flags, enum entry e, const char *what,
		   const struct answer *a, const struct answer *b)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "entry %d uid %u flags %#x: %s: %s "
		 "(%" PRIu64 ":%" PRIu64 ":%" PRIu64 " last %d '%s') vs %s "
		 "(%" PRIu64 ":%" PRIu64 ":%" PRIu64 " last %d '%s')", e,
		 task->cred.uid, flags, what, wt_errno_name(a->err), a->id.mnt,
		 a->id.dentry, a->id.inode, a->last_type, a->last,
		 wt_errno_name(b->err), b->id.mnt, b->id.dentry, b->id.inode,
		 b->last_type, b->last);
	fail_with_tree(c, path, msg);
}

/*
 * One name through entry e: RCU-first twice (e == E_LOOKUP; once for the
 * others), REF-only once, and the reference resolver; all must agree.
 */
static void check_entry(struct ctx *c, struct wt_task *task,
			const struct path *dir, const char *path,
			unsigned flags, enum entry e)
{
	struct wt_refwalk_opts o = { .cred = &task->cred, .flags = flags,
				     .protected_symlinks = c->protected_symlinks,
				     .parent = e == E_PARENTAT };
	struct wt_refwalk_result rr;
	struct answer a1, a2, ref_only, ref = { 0 };

	if (dir) {
		o.cwd_mnt = real_mount(dir->mnt)->wt.id;
		o.cwd_dentry = dir->dentry->wt.id;
	}
	ladder(c, task, dir, path, flags, e, false, &a1);
	if (e == E_LOOKUP)
		ladder(c, task, dir, path, flags, e, false, &a2);
	else
		a2 = a1;
	ladder(c, task, dir, path, flags, e, true, &ref_only);
	wt_refwalk(c->ns, path, &o, &rr);
	if (rr.error == -ENOSYS)
		return;		/* an automount: the resolver cannot say */
	ref.err = rr.error;
	if (!rr.error) {
		ref.id = rr.id;
		if (e == E_PARENTAT) {
			ref.last_type = rr.last_type;
			snprintf(ref.last, sizeof(ref.last), "%s", rr.last);
		}
	}
	if (!same_answer(&a1, &a2))
		differ(c, task, path, flags, e, "first run, second run", &a1, &a2);
	if (!same_answer(&a1, &ref_only))
		differ(c, task, path, flags, e, "RCU-first, REF-only", &a1,
		       &ref_only);
	/* the reference knows the client's namespace, not the server */
	if (!a1.remote && !ref_only.remote && !same_answer(&a1, &ref))
		differ(c, task, path, flags, e, "walk, reference", &a1, &ref);
	c->tot->parentat += e == E_PARENTAT;
	c->tot->openat2 += e == E_OPENAT2;
	if (e != E_LOOKUP)
		return;
	c->tot->links += rr.links;
	if (a1.err)
		c->tot->errors++;
	else
		c->tot->ok++;
}

/* filename_parentat ignores LOOKUP_FOLLOW and LOOKUP_DIRECTORY. */
static void check_path(struct ctx *c, struct wt_task *task,
		       const struct path *dir, const char *path, unsigned flags)
{
	check_entry(c, task, dir, path, flags, E_LOOKUP);
	check_entry(c, task, dir, path, flags, E_OPENAT2);
	if (!(flags & (LOOKUP_FOLLOW | LOOKUP_DIRECTORY)))
		check_entry(c, task, dir, path, flags, E_PARENTAT);
}

static const unsigned scoped_flags[] = {
	LOOKUP_FOLLOW | LOOKUP_NO_SYMLINKS, LOOKUP_NO_SYMLINKS,
	LOOKUP_FOLLOW | LOOKUP_NO_XDEV, LOOKUP_FOLLOW | LOOKUP_BENEATH,
	LOOKUP_FOLLOW | LOOKUP_IN_ROOT, LOOKUP_IN_ROOT,
	LOOKUP_FOLLOW | LOOKUP_DIRECTORY, LOOKUP_FOLLOW | LOOKUP_NO_MAGICLINKS,
	LOOKUP_FOLLOW | LOOKUP_BENEATH | LOOKUP_NO_XDEV,
};

/* Relative (and some absolute) names from a random directory, scoped. */
static void scoped_pass(struct ctx *c, struct wt_task *root,
			struct wt_task *user)
{
	for (unsigned q = 0; q < QUERIES / 2; q++) {
		const char *start = tg_dir(c->tree);
		unsigned flags = scoped_flags[tg_below(c->tree,
				sizeof(scoped_flags) / sizeof(scoped_flags[0]))];
		char path[TG_PATH_MAX + 16];
		const char *name = path;
		struct path dir;

		tg_query(c->tree, path, sizeof(path));
		if (tg_below(c->tree, 4))
			while (*name == '/')
				name++;
		if (!*name || wt_resolve(c->w, start, WT_RES_FOLLOW, &dir))
			continue;
		if (d_is_dir(dir.dentry)) {
			check_path(c, root, &dir, name, flags);
			check_path(c, user, &dir, name, flags);
			c->tot->scoped += 2;
		}
		wt_path_put(&dir);
	}
}

static void one_tree(uint64_t seed, struct totals *tot)
{
	struct tg_tree *tree = calloc(1, sizeof(*tree));
	struct wt_task root, user;
	struct ctx c = { .seed = seed, .tot = tot };
	unsigned bad = 0;
	int err;

	cr_assert_not_null(tree);
	/* odd seeds: sticky world-writable directories and
	 * fs.protected_symlinks on */
	tg_generate_ex(tree, seed, TREE_STEPS, seed & 1);
	c.protected_symlinks = seed & 1;
	c.tree = tree;
	c.w = wt_ops_world_create(seed);
	cr_assert_not_null(c.w);
	err = tg_build(c.w, tree, &bad);
	if (err) {
		tg_print(tree, stderr);
		cr_assert_fail("seed %" PRIu64 ": line %u '%s' failed: %s", seed,
			       bad + 1, tree->lines[bad], wt_errno_name(err));
	}
	if (seed % 4 == 2)
		remote_setup(&c);
	c.ns = wt_ns_create(c.w->history, wt_history_version(c.w->history));
	c.rec = wt_record_create(4096, 256 * 1024);
	c.oracle = wt_oracle_create(c.w->history);
	cr_assert(c.ns && c.rec && c.oracle);
	wt_task_init(&root, c.w, 0, 0);
	wt_task_init(&user, c.w, 1000, 1000);
	for (unsigned q = 0; q < QUERIES; q++) {
		char path[TG_PATH_MAX + 16];

		tg_query(tree, path, sizeof(path));
		if (c.remote_mnt && q == QUERIES / 2) {
			/* what the first half cached, the server now changes */
			remote_server_changes(&c, 4);
			remote_client_changes(&c, 2);
			wt_ns_destroy(c.ns);
			c.ns = wt_ns_create(c.w->history,
					    wt_history_version(c.w->history));
			cr_assert_not_null(c.ns);
		}
		if (c.remote_mnt && q % 2)
			remote_query(&c, path, sizeof(path));
		for (unsigned f = 0; f < 2; f++) {
			check_path(&c, &root, NULL, path, f ? LOOKUP_FOLLOW : 0);
			check_path(&c, &user, NULL, path, f ? LOOKUP_FOLLOW : 0);
		}
	}
	scoped_pass(&c, &root, &user);
	wt_task_release(&root);
	wt_task_release(&user);
	wt_oracle_destroy(c.oracle);
	wt_record_destroy(c.rec);
	wt_ns_destroy(c.ns);
	wt_ops_world_destroy(c.w);
	free(tree);
}

Test(property, rcu_walk_is_ref_walk_on_random_trees, .timeout = 3000)
{
	const char *env = getenv("WT_PROPERTY_SEEDS");
	const char *first_env = getenv("WT_PROPERTY_FIRST");
	unsigned seeds = env ? (unsigned)strtoul(env, NULL, 0) : SEEDS;
	uint64_t first = first_env ? strtoull(first_env, NULL, 0) : 1;
	struct totals tot = { 0 };

	/* WT_PROPERTY_FIRST=S starts the hunt at seed S (to replay one) */
	for (uint64_t seed = first; seed < first + seeds; seed++)
		one_tree(seed, &tot);
	printf("walktorture: property seeds=%u walks=%" PRIu64
	       " ref_only_walks=%" PRIu64 " parentat=%" PRIu64
	       " openat2=%" PRIu64 " ok=%" PRIu64
	       " errors=%" PRIu64 " left_rcu=%" PRIu64 " links=%" PRIu64
	       " scoped=%" PRIu64 " mutants_rejected=%" PRIu64
	       " protected_symlinks_denials=%" PRIu64 " remote_walks=%" PRIu64
	       " server_changes=%" PRIu64 "\n",
	       seeds, tot.walks, tot.ref_only_walks, tot.parentat, tot.openat2,
	       tot.ok, tot.errors, tot.ref_walks, tot.links,
	       tot.scoped, tot.mutants, tot.protected, tot.remote_walks,
	       tot.server_changes);
	printf("walktorture: oracle cost per walk=%.0fns walk=%.0fns ratio=%.2f\n",
	       tot.oracle_ns / (double)tot.walks, tot.walk_ns / (double)tot.walks,
	       tot.oracle_ns / tot.walk_ns);
	/* the trees must exercise both outcomes */
	cr_assert_gt(tot.ok, 100);
	cr_assert_gt(tot.errors, 100);
	cr_assert_gt(tot.mutants, 10);
	cr_assert_gt(tot.ref_only_walks, 1000);
	cr_assert_gt(tot.parentat, 100);
	cr_assert_gt(tot.openat2, 100);
	if (seeds >= 16) {	/* every fourth seed mounts a remote fs */
		cr_assert_gt(tot.remote_walks, 100);
		cr_assert_gt(tot.server_changes, 10);
	}
}

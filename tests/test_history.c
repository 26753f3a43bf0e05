/* SPDX-License-Identifier: MIT */
/*
 * The history and namespace snapshots: a snapshot rebuilt from the log
 * prints the same canonical listing as the live world, at the end and at
 * every recorded intermediate version; dead, unhashed and lazily detached
 * objects stay reachable by id; truncation and reset keep the namespace.
 */
#include <errno.h>
#include <stdio.h>

#include "tests/ops_test.h"

#include "sim/history_internal.h"
#include "sim/vfs/mount.h"

static uint64_t rnd(uint64_t *s)
{
	/* splitmix64: a deterministic sequence per seed */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A random path of 1..3 components over a small alphabet, so that ops
 * often meet existing names. */
static void rnd_path(uint64_t *s, char *buf, size_t size)
{
	static const char *const names[] = { "a", "b", "c", "m" };
	unsigned depth = 1 + (unsigned)(rnd(s) % 3);
	size_t o = 0;

	for (unsigned i = 0; i < depth && o + 3 < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "/%s", names[rnd(s) % 4]);
}

static void rnd_verb(uint64_t *s, char *line, size_t size)
{
	char p[64], q[64];

	rnd_path(s, p, sizeof(p));
	rnd_path(s, q, sizeof(q));
	switch (rnd(s) % 18) {
	case 0: case 1: case 2:
		snprintf(line, size, "mkdir -p %s", p);
		break;
	case 3:
		snprintf(line, size, "touch %s", p);
		break;
	case 4:
		snprintf(line, size, "ln -s %s %s", q, p);
		break;
	case 5:
		snprintf(line, size, "ln %s %s", q, p);
		break;
	case 6: case 7:
		snprintf(line, size, "mv %s %s", p, q);
		break;
	case 8:
		snprintf(line, size, "mv --exchange %s %s", p, q);
		break;
	case 9:
		snprintf(line, size, "rm %s", p);
		break;
	case 10: case 11:
		snprintf(line, size, "rmdir %s", p);
		break;
	case 12:
		snprintf(line, size, "chmod %o %s", (unsigned)(rnd(s) % 01000), p);
		break;
	case 13:
		snprintf(line, size, "mount -t tmpfs fs%u %s", (unsigned)(rnd(s) % 100), p);
		break;
	case 14:
		snprintf(line, size, "mount --%s %s %s",
			 rnd(s) % 2 ? "bind" : "rbind", p, q);
		break;
	case 15:
		snprintf(line, size, "mount --move %s %s", p, q);
		break;
	case 16:
		snprintf(line, size, "umount %s%s", rnd(s) % 2 ? "-l " : "", p);
		break;
	default:
		snprintf(line, size, "%s", rnd(s) % 2 ? "shrink" : "chown 1:1 /a");
		break;
	}
}

struct checkpoint {
	uint64_t version;
	char *dump;
};

static char *snapshot_dump(struct wt_world *w, uint64_t version)
{
	struct wt_ns *ns = wt_ns_create(w->history, version);
	char *s;

	cr_assert_not_null(ns, "no snapshot at %llu", (unsigned long long)version);
	s = wt_ns_dump_string(ns);
	wt_ns_destroy(ns);
	return s;
}

static void random_run_in(struct wt_world *w, uint64_t seed, unsigned nops)
{
	struct checkpoint cps[64];
	unsigned ncp = 0, ok = 0;
	uint64_t s = seed;
	struct wt_ns *inc;
	char *live, *snap;

	for (unsigned i = 0; i < nops; i++) {
		struct wt_verb_error e;
		char line[200];

		rnd_verb(&s, line, sizeof(line));
		ok += wt_verb_exec(w, line, &e) == 0;
		if (i % (nops / 32 + 1) == 0 && ncp < 64) {
			cps[ncp].version = wt_history_version(w->history);
			cps[ncp++].dump = wt_world_dump_string(w);
		}
	}
	cr_assert_gt(ok, nops / 4, "seed %llu: too few operations succeeded (%u)",
		     (unsigned long long)seed, ok);
	live = wt_world_dump_string(w);
	snap = snapshot_dump(w, wt_history_version(w->history));
	cr_assert_str_eq(snap, live, "seed %llu: the rebuilt namespace differs",
			 (unsigned long long)seed);
	/* Every intermediate listing, from scratch and by advancing one
	 * snapshot entry by entry. */
	inc = wt_ns_create(w->history, wt_history_first(w->history));
	for (unsigned i = 0; i < ncp; i++) {
		char *at = snapshot_dump(w, cps[i].version), *adv;

		cr_assert_str_eq(at, cps[i].dump, "seed %llu at version %llu",
				 (unsigned long long)seed,
				 (unsigned long long)cps[i].version);
		cr_assert_eq(wt_ns_advance_to(inc, cps[i].version), 0);
		adv = wt_ns_dump_string(inc);
		cr_assert_str_eq(adv, cps[i].dump);
		free(adv);
		free(at);
		free(cps[i].dump);
	}
	wt_ns_destroy(inc);
	free(live);
	free(snap);
}

static void random_run(uint64_t seed, unsigned nops)
{
	struct wt_world *w = t_build("mkdir /a /b\n");

	random_run_in(w, seed, nops);
	wt_ops_world_destroy(w);
}

Test(history, rebuild_equals_live_world)
{
	/* After 300 random operations (renames, exchanges, rmdirs, mounts,
	 * binds, rbinds, moves, sync and lazy umounts, shrinks) from several
	 * seeds, the snapshot at the last version prints exactly the live
	 * listing, and the snapshot at each recorded intermediate version the
	 * listing taken then: a step logged wrong, late or not at all shows
	 * as a difference. */
	for (uint64_t seed = 1; seed <= 6; seed++)
		random_run(seed, 300);
}

Test(history, versions_and_window)
{
	/* Each successful step publishes one version, in order; a failing
	 * operation publishes none; the reader's window [start, end] brackets
	 * the published version at quiescence. */
	struct wt_world *w = t_build(NULL);
	uint64_t v0 = wt_history_version(w->history);

	t_verb(w, "mkdir /a", 0);
	cr_assert_eq(wt_history_version(w->history), v0 + 1);
	t_verb(w, "mkdir /a", -EEXIST);
	cr_assert_eq(wt_history_version(w->history), v0 + 1);
	t_verb(w, "rmdir /a", 0);
	cr_assert_eq(wt_history_version(w->history), v0 + 3, "rmdir: two steps");
	cr_assert_str_eq(wt_history_entry(w->history, v0 + 2)->step, "rmdir.S_DEAD");
	cr_assert_str_eq(wt_history_entry(w->history, v0 + 3)->step, "rmdir.d_delete");
	cr_assert_eq(wt_history_version_start(w->history), v0 + 3);
	cr_assert_eq(wt_history_version_end(w->history), v0 + 3);
	cr_assert_null(wt_history_entry(w->history, v0 + 4));
	wt_ops_world_destroy(w);
}

static uint64_t id_at(struct wt_world *w, const char *path, bool mnt)
{
	struct path p;
	uint64_t id;

	cr_assert_eq(wt_resolve(w, path, 0, &p), 0, "%s", path);
	id = mnt ? real_mount(p.mnt)->wt.id : p.dentry->wt.id;
	wt_path_put(&p);
	return id;
}

/*
 * A snapshot in another order (wt_ns_create_moved): mkdir /a, /b, /c at
 * v1..v3 with v1 moved after v3 holds /b alone at position v1, /b and /c
 * at v2, and all three from v3 on, as the log's order does.  Each step
 * logged the root's inode too, so this one is about names only.
 */
Test(history, a_moved_snapshot_applies_the_entry_after_the_later_ones)
{
	static const char *const want[4] = { "", "b", "bc", "abc" };
	struct wt_world *w = t_build("");
	uint64_t v0 = wt_history_version(w->history), root;
	struct wt_ns *ns;

	root = id_at(w, "/", false);
	t_verb(w, "mkdir /a", 0);
	t_verb(w, "mkdir /b", 0);
	t_verb(w, "mkdir /c", 0);
	cr_assert_eq(wt_history_version(w->history), v0 + 3);
	for (uint64_t v = v0 + 1; v <= v0 + 3; v++)	/* one after the other */
		cr_assert_eq(wt_history_entry(w->history, v)->begun_after, v - 1);
	cr_assert_null(wt_ns_create_moved(w->history, v0 + 1, v0 + 1, v0 + 3));
	ns = wt_ns_create_moved(w->history, v0, v0 + 1, v0 + 3);
	cr_assert_not_null(ns);
	for (uint64_t k = 0; k <= 3; k++) {
		char got[4] = "";
		size_t n = 0;

		cr_assert_eq(wt_ns_advance_to(ns, v0 + k), 0);
		for (const char *c = "abc"; *c; c++)
			if (wt_ns_child(ns, root, c, 1))
				got[n++] = *c;
		cr_assert_str_eq(got, want[k], "position v%llu",
				 (unsigned long long)(v0 + k));
	}
	cr_assert_eq(wt_ns_entry_version(ns, v0), v0);
	cr_assert_eq(wt_ns_entry_version(ns, v0 + 1), v0 + 2);
	cr_assert_eq(wt_ns_entry_version(ns, v0 + 2), v0 + 3);
	cr_assert_eq(wt_ns_entry_version(ns, v0 + 3), v0 + 1);
	cr_assert_eq(wt_ns_entry_version(ns, v0 + 4), v0 + 4);
	wt_ns_destroy(ns);
	wt_ops_world_destroy(w);
}

Test(history, removed_directory_keeps_its_parent)
{
	/* A directory removed while someone stands in it is unhashed but
	 * keeps its last parent in the snapshot, so `..` still reaches the
	 * old parent; the name no longer finds it, and the inode is dead. */
	struct wt_world *w = t_build("mkdir -p /p/d\n");
	uint64_t p = id_at(w, "/p", false), d;
	struct path hold;
	struct wt_ns *ns;
	const struct wt_dentry_fact *f;

	cr_assert_eq(wt_resolve(w, "/p/d", 0, &hold), 0);
	d = hold.dentry->wt.id;
	t_verb(w, "rmdir /p/d", 0);
	ns = wt_ns_create(w->history, wt_history_version(w->history));
	f = wt_ns_dentry(ns, d);
	cr_assert_not_null(f);
	cr_assert_eq(f->parent, p);
	cr_assert_not(f->flags & WT_DF_HASHED);
	cr_assert_not_null(wt_ns_dentry_inode(ns, d));
	cr_assert(wt_ns_dentry_inode(ns, d)->flags & S_DEAD);
	cr_assert_null(wt_ns_child(ns, p, "d", 1));
	wt_ns_destroy(ns);
	/* one version earlier (S_DEAD set, still hashed): still found */
	ns = wt_ns_create(w->history, wt_history_version(w->history) - 1);
	cr_assert_eq(wt_ns_child(ns, p, "d", 1)->id, d);
	wt_ns_destroy(ns);
	wt_path_put(&hold);
	wt_ops_world_destroy(w);
}

Test(history, lazy_umount_keeps_the_detached_subtree)
{
	/* After umount -l, the detached mounts are still in the snapshot by
	 * id, marked MNT_UMOUNT (not MNT_SYNC_UMOUNT) and not attached; their
	 * dentries are still reachable from their roots, while the
	 * namespace no longer crosses into them. */
	struct wt_world *w = t_build("mkdir /m\nmount -t tmpfs t /m\n"
				     "mkdir -p /m/x/y\nmount -t tmpfs u /m/x\n");
	uint64_t m = id_at(w, "/m", true), x = id_at(w, "/m/x", true);
	uint64_t root = id_at(w, "/", false), mp = id_at(w, "/m", false);
	const struct wt_mount_fact *mf;
	const struct wt_dentry_fact *xd;
	uint64_t mnt, dentry;
	struct wt_ns *ns;

	(void)mp;
	t_verb(w, "umount -l /m", 0);
	ns = wt_ns_create(w->history, wt_history_version(w->history));
	mf = wt_ns_mount(ns, m);
	cr_assert_not_null(mf);
	cr_assert_not(mf->flags & WT_MF_ATTACHED);
	cr_assert(mf->mnt_flags & MNT_UMOUNT);
	cr_assert_not(mf->mnt_flags & MNT_SYNC_UMOUNT);
	cr_assert_not(wt_ns_mount(ns, x)->flags & WT_MF_ATTACHED);
	xd = wt_ns_child(ns, mf->root, "x", 1);
	cr_assert_not_null(xd, "the detached tree keeps its names");
	cr_assert_not_null(wt_ns_child(ns, xd->id, "y", 1));
	mnt = m;
	dentry = xd->id;
	cr_assert_eq(wt_ns_follow_mounts(ns, &mnt, &dentry), 0,
		     "the child mount is disconnected too");
	mnt = wt_ns_root_mount(ns);
	dentry = wt_ns_child(ns, root, "m", 1)->id;
	cr_assert_eq(wt_ns_follow_mounts(ns, &mnt, &dentry), 0);
	wt_ns_destroy(ns);
	wt_ops_world_destroy(w);
}

Test(history, casefold_child_lookup)
{
	/* On a casefold filesystem the snapshot finds a name in any case,
	 * as its d_compare does; elsewhere case matters. */
	struct wt_world *w = t_build("mkdir /cf /p\nmount -t casefold c /cf\n"
				     "mkdir /cf/MiXed /p/MiXed\n");
	uint64_t cf = id_at(w, "/cf", false), p = id_at(w, "/p", false);
	struct wt_ns *ns = wt_ns_create(w->history, wt_history_version(w->history));

	cr_assert_not_null(wt_ns_child(ns, cf, "mixed", 5));
	cr_assert_str_eq(wt_ns_child(ns, cf, "MIXED", 5)->name, "MiXed");
	cr_assert_null(wt_ns_child(ns, p, "mixed", 5));
	cr_assert_not_null(wt_ns_child(ns, p, "MiXed", 5));
	wt_ns_destroy(ns);
	wt_ops_world_destroy(w);
}

Test(history, truncate_and_reset_keep_the_namespace)
{
	/* Folding a prefix of the log into a checkpoint, or resetting it to
	 * a checkpoint of the live world, changes neither the listing at the
	 * last version nor what later steps build on. */
	struct wt_world *w = t_build("mkdir -p /a/b /m\ntouch /a/f\n"
				     "mount -t tmpfs t /m\nmv /a/f /a/b/g\n");
	uint64_t mid = wt_history_version(w->history) - 2, last;
	char *live = wt_world_dump_string(w), *snap;

	cr_assert_eq(wt_history_truncate(w->history, mid), 0);
	cr_assert_eq(wt_history_first(w->history), mid);
	cr_assert_null(wt_ns_create(w->history, mid - 1));
	snap = snapshot_dump(w, wt_history_version(w->history));
	cr_assert_str_eq(snap, live);
	free(snap);
	cr_assert_eq(wt_history_reset(w->history), 0);
	last = wt_history_version(w->history);
	cr_assert_eq(wt_history_first(w->history), last);
	t_verb(w, "mkdir /m/after", 0);
	free(live);
	live = wt_world_dump_string(w);
	snap = snapshot_dump(w, last + 1);
	cr_assert_str_eq(snap, live);
	free(snap);
	free(live);
	wt_ops_world_destroy(w);
}

/*
 * A log retired from one world serves the next one (the runner does this
 * every iteration): three worlds in turn on one log's storage, each with
 * 4000 random operations (more entries than a chunk holds; the second
 * world's log reset first, so its entries do not start at 0), rebuild the
 * live listing at the end and at every recorded version as a new log
 * does; each new world's log starts at version 0 with nothing after it,
 * in the same storage.
 */
Test(history, a_retired_log_serves_the_next_world)
{
	struct wt_history *spare = NULL;

	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct wt_world_config cfg;
		struct wt_world *w;

		wt_world_config_default(&cfg);
		cfg.seed = 7;
		w = wt_world_create(&cfg);
		cr_assert_not_null(w);
		cr_assert_eq(wt_ops_init_from(w, spare), 0);
		cr_assert(!spare || w->history == spare, "storage not reused");
		cr_assert_eq(wt_history_version(w->history), 0);
		cr_assert_eq(wt_history_first(w->history), 0);
		cr_assert_not_null(wt_history_entry(w->history, 0));
		cr_assert_null(wt_history_entry(w->history, 1));
		t_verb(w, "mkdir /a /b", 0);
		if (seed == 2)
			cr_assert_eq(wt_history_reset(w->history), 0);
		random_run_in(w, seed, 4000);
		cr_assert_gt(wt_history_version(w->history), 1024,
			     "%llu versions: one chunk only",
			     (unsigned long long)wt_history_version(w->history));
		spare = wt_ops_fini_keep(w);
		cr_assert_not_null(spare);
		wt_world_destroy(w);
	}
	wt_history_destroy(spare);
}

static void rnd_verbs(struct wt_world *w, uint64_t *s, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct wt_verb_error e;
		char line[200];

		rnd_verb(s, line, sizeof(line));
		wt_verb_exec(w, line, &e);
	}
}

/*
 * A world with a casefold mount, `before` random verbs of seed, the log
 * marked (*mark: its version, with the base namespace made there), then
 * 120 more verbs (*last: the version after them).
 */
static struct wt_world *marked_world(uint64_t seed, unsigned before,
				     uint64_t *mark, uint64_t *last)
{
	struct wt_world *w = t_build("mkdir /a /b /cf\n"
				     "mount -t casefold c /cf\n"
				     "mkdir /cf/MiXed /cf/MiXed/In\n");
	uint64_t s = seed;

	rnd_verbs(w, &s, before);
	wt_history_mark(w->history);
	*mark = wt_history_version(w->history);
	cr_assert_not_null(w->history->mark.base, "no base: proves nothing");
	rnd_verbs(w, &s, 120);
	*last = wt_history_version(w->history);
	return w;
}

/* a and b hold the same object for every id, and no other. */
static void same_objects(const struct wt_ns *a, const struct wt_ns *b,
			 uint64_t seed, uint64_t v)
{
	const struct wt_idmap *x = wt_ns_objects(a), *y = wt_ns_objects(b);

	cr_assert_eq(x->n, y->n, "seed %llu at %llu: %zu objects, not %zu",
		     (unsigned long long)seed, (unsigned long long)v, x->n, y->n);
	for (size_t i = 0; i < x->cap; i++)
		if (x->vals[i])
			cr_assert_eq(wt_idmap_get(y, x->keys[i]), x->vals[i],
				     "seed %llu at %llu: object %llu differs",
				     (unsigned long long)seed,
				     (unsigned long long)v,
				     (unsigned long long)x->keys[i]);
}

/* Every name a holds finds the same child in b, every mountpoint the
 * same mount. */
static void same_lookups(const struct wt_ns *a, const struct wt_ns *b,
			 uint64_t seed, uint64_t v)
{
	const struct wt_idmap *x = wt_ns_objects(a);

	for (size_t i = 0; i < x->cap; i++) {
		const struct wt_fact *f = x->vals[i];

		if (!f)
			continue;
		if (f->kind == WT_FACT_DENTRY && f->d.parent != f->d.id)
			cr_assert_eq(wt_ns_child(a, f->d.parent, f->d.name,
						 strlen(f->d.name)),
				     wt_ns_child(b, f->d.parent, f->d.name,
						 strlen(f->d.name)),
				     "seed %llu at %llu: child %s",
				     (unsigned long long)seed,
				     (unsigned long long)v, f->d.name);
		if (f->kind == WT_FACT_MOUNT)
			cr_assert_eq(wt_ns_mount_at(a, f->m.parent, f->m.mountpoint),
				     wt_ns_mount_at(b, f->m.parent, f->m.mountpoint),
				     "seed %llu at %llu: mount on %llu",
				     (unsigned long long)seed,
				     (unsigned long long)v,
				     (unsigned long long)f->m.mountpoint);
	}
}

/*
 * A marked log keeps the namespace at its mark (its base), and a
 * snapshot at or past the mark is a copy of it advanced from there.  The
 * copy must be the snapshot a build from the first entry gives: after a
 * random tree (mounts, a casefold filesystem, renames) is marked and
 * more random operations follow, the snapshot at every version from the
 * mark on lists the same as one built from the first entry and advanced,
 * holds the same fact for every id, and finds the same child for every
 * name and the same mount on every mountpoint it holds -- the copies
 * share the base's tables until they change one, so a copy that changed
 * the base would show in every later one.  Then the log is
 * truncated past its first entry: the base's facts are gone with it, and
 * snapshots still list what the live world does.
 */
Test(history, a_snapshot_from_the_mark_is_a_build_from_the_first_entry)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		uint64_t mark, last;
		struct wt_world *w = marked_world(seed, 60, &mark, &last);
		char *live, *snap;
		cr_assert_gt(last, mark + 20, "seed %llu: too few steps logged",
			     (unsigned long long)seed);
		for (uint64_t v = mark; v <= last; v++) {
			struct wt_ns *copy = wt_ns_create(w->history, v);
			struct wt_ns *built = wt_ns_create(w->history,
							   wt_history_first(w->history));
			char *a, *b;

			cr_assert_not_null(copy);
			cr_assert_eq(wt_ns_advance_to(built, v), 0);
			a = wt_ns_dump_string(copy);
			b = wt_ns_dump_string(built);
			cr_assert_str_eq(a, b, "seed %llu at version %llu",
					 (unsigned long long)seed,
					 (unsigned long long)v);
			same_objects(copy, built, seed, v);
			same_lookups(copy, built, seed, v);
			free(a);
			free(b);
			wt_ns_destroy(copy);
			wt_ns_destroy(built);
		}
		cr_assert_eq(wt_history_truncate(w->history, mark + 10), 0);
		cr_assert_null(w->history->mark.base);
		live = wt_world_dump_string(w);
		snap = snapshot_dump(w, last);
		cr_assert_str_eq(snap, live);
		free(live);
		free(snap);
		wt_ops_world_destroy(w);
	}
}

/*
 * The place check reads the log near its mark (a peek, sim/ns.h)
 * instead of a snapshot: proved by asking a peek, at every version up to
 * WT_NS_PEEK_MAX entries past the mark (started there, and moved there
 * one version at a time), for every object a snapshot at that version
 * holds (the same fact) and for an id no entry logged (none), after
 * random writer steps that rename, remove and mount; and the snapshot
 * made from a peek lists what one made at its version does.  Past that
 * reach a peek says so (-E2BIG) before reading anything.
 */
static void same_as_peek(const struct wt_ns_peek *p, const struct wt_ns *ns,
			 uint64_t seed)
{
	const struct wt_idmap *x = wt_ns_objects(ns);
	unsigned n = 0;

	for (size_t i = 0; i < x->cap; i++) {
		if (!x->vals[i])
			continue;
		cr_assert_eq(wt_ns_peek_fact(p, x->keys[i]), x->vals[i],
			     "seed %llu at %llu: object %llu",
			     (unsigned long long)seed,
			     (unsigned long long)p->version,
			     (unsigned long long)x->keys[i]);
		n++;
	}
	cr_assert_gt(n, 0);
	cr_assert_null(wt_ns_peek_fact(p, UINT64_MAX - 1));
}

Test(history, a_peek_near_the_mark_is_what_a_snapshot_holds)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		uint64_t mark, last;
		struct wt_world *w = marked_world(seed, 30, &mark, &last);
		struct wt_ns_peek walked;
		cr_assert_gt(last, mark + WT_NS_PEEK_MAX, "seed %llu: too few "
			     "steps logged", (unsigned long long)seed);
		cr_assert_eq(wt_ns_peek_start(&walked, w->history, mark), 0);
		for (uint64_t v = mark; v <= mark + WT_NS_PEEK_MAX; v++) {
			struct wt_ns *ns = wt_ns_create(w->history, v);
			struct wt_ns_peek p;
			struct wt_ns *made;
			char *a, *b;

			cr_assert_eq(wt_ns_peek_start(&p, w->history, v), 0);
			cr_assert_eq(wt_ns_peek_advance_to(&walked, v), 0);
			same_as_peek(&p, ns, seed);
			same_as_peek(&walked, ns, seed);
			made = wt_ns_peek_snapshot(&walked);
			a = wt_ns_dump_string(made);
			b = wt_ns_dump_string(ns);
			cr_assert_str_eq(a, b, "seed %llu at %llu",
					 (unsigned long long)seed,
					 (unsigned long long)v);
			free(a);
			free(b);
			wt_ns_destroy(made);
			wt_ns_destroy(ns);
		}
		cr_assert_eq(wt_ns_peek_advance_to(&walked, mark + WT_NS_PEEK_MAX + 1),
			     -E2BIG);
		cr_assert_eq(walked.version, mark + WT_NS_PEEK_MAX);
		cr_assert_eq(wt_ns_peek_advance_to(&walked, mark), -EINVAL);
		if (mark)
			cr_assert_eq(wt_ns_peek_start(&walked, w->history,
						      mark - 1), -E2BIG);
		wt_ops_world_destroy(w);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * The world: creation with a root tmpfs mounted on itself, the id
 * counter, seeded seq values, the object lists, teardown, snapshot and
 * restore, and tasks.
 */
#include <stdlib.h>
#include <string.h>

#ifdef WT_ASAN
#include <sanitizer/asan_interface.h>
#endif

#include "sim/atomic.h"
#include "sim/fs/remote.h"
#include "sim/history.h"
#include "sim/rcu.h"
#include "sim/vfs/internal.h"
#include "sim/vfs/world.h"

/* Salts for the seq values that are not a dentry's (ids start at 1). */
#define WT_SEQ_SALT_MOUNT_LOCK	0x6d6f756e745f6c6bull	/* "mount_lk" */
#define WT_SEQ_SALT_RENAME_LOCK	0x72656e616d655f6bull	/* "rename_k" */

/* An arena world's reserve: address space, not memory (sim/arena.h). */
#define WT_WORLD_ARENA_BYTES	(256u << 20)

/* wt_world_snapshot's copy. */
/* A dentry's d_seq as the snapshot's seed drew it, and the half of
 * initial_seq that does not depend on the seed: what world_reseed needs
 * but the new seed's mix (the dentries' list is the snapshot's). */
struct wt_snap_seq {
	uint64_t id;
	uint64_t id_mix;	/* wt_mix64(id + WT_SEQ_ID_ADD) */
	unsigned from;		/* initial_seq(snapshot seed, id) */
};

struct wt_world_snap {
	struct wt_world world;		/* the struct as the build left it */
	struct dentry **dcache_hash;	/* the tables' contents */
	struct mount **mount_hash;
	void *objects;			/* the arena's [0, world.arena.used) */
	struct wt_snap_seq *seqs;	/* [nseqs]: world.dentries in order */
	size_t nseqs;
};

void wt_world_config_default(struct wt_world_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->seed = 1;
	cfg->dcache_buckets = 64;
	cfg->mount_buckets = 16;
	cfg->quarantine_slots = 1024;
	cfg->bugs = 0;
	cfg->history = true;
}

uint64_t wt_world_new_id(struct wt_world *w)
{
	return __atomic_fetch_add(&w->next_id, 1, __ATOMIC_RELAXED);
}

#define WT_SEQ_ID_ADD	0x9e3779b97f4a7c15ull

/* initial_seq given the id's own mix, wt_mix64(id + WT_SEQ_ID_ADD). */
static unsigned initial_seq_mixed(uint64_t seed, uint64_t id_mix)
{
	return (unsigned)wt_mix64(seed ^ id_mix) & ~1u;
}

/* Even, and a function of (seed, id) only: the same in every process. */
static unsigned initial_seq(uint64_t seed, uint64_t id)
{
	return initial_seq_mixed(seed, wt_mix64(id + WT_SEQ_ID_ADD));
}

unsigned wt_world_initial_seq(const struct wt_world *w, uint64_t id)
{
	return initial_seq(w->cfg.seed, id);
}

void *wt_world_obj_alloc(struct wt_world *w, size_t size)
{
	struct wt_obj *o = wt_arena_zalloc(&w->arena, size);

	if (o) {
		o->flags = WT_OBJ_F_ARENA;
		return o;
	}
	if (w->arena.base)
		w->spilled++;
	return calloc(1, size);
}

void *wt_world_zalloc(struct wt_world *w, size_t size)
{
	void *p = wt_arena_zalloc(&w->arena, size);

	if (p)
		return p;
	if (w->arena.base)
		w->spilled++;
	return calloc(1, size);
}

void wt_world_free(struct wt_world *w, void *p, size_t size)
{
	if (!p)
		return;
	if (!wt_arena_owns(&w->arena, p)) {
		free(p);
		return;
	}
	/* no header to mark it freed: the poison says so to a stale
	 * reader (sim/obj.h), ASan to any reader */
	memset(p, WT_POISON_BYTE, size);
#ifdef WT_ASAN
	__asan_poison_memory_region(p, size);
#endif
}

struct path wt_world_root(const struct wt_world *w)
{
	struct path p = { &w->root_mnt->mnt, w->root_mnt->mnt.mnt_root };

	return p;
}

/* ------------------------------------------------------------------ */
/* Lists                                                               */

void wt_world_add_dentry(struct wt_world *w, struct dentry *d)
{
	spin_lock(&w->list_lock);
	d->d_all_next = w->dentries;
	if (d->d_all_next)
		d->d_all_next->d_all_pprev = &d->d_all_next;
	w->dentries = d;
	d->d_all_pprev = &w->dentries;
	spin_unlock(&w->list_lock);
}

void wt_world_del_dentry(struct wt_world *w, struct dentry *d)
{
	spin_lock(&w->list_lock);
	__wt_world_del_dentry(d);
	spin_unlock(&w->list_lock);
}

void wt_world_add_mount(struct wt_world *w, struct mount *m)
{
	spin_lock(&w->list_lock);
	m->mnt_all_next = w->mounts;
	if (m->mnt_all_next)
		m->mnt_all_next->mnt_all_pprev = &m->mnt_all_next;
	w->mounts = m;
	m->mnt_all_pprev = &w->mounts;
	spin_unlock(&w->list_lock);
}

void wt_world_del_mount(struct wt_world *w, struct mount *m)
{
	spin_lock(&w->list_lock);
	*m->mnt_all_pprev = m->mnt_all_next;
	if (m->mnt_all_next)
		m->mnt_all_next->mnt_all_pprev = m->mnt_all_pprev;
	m->mnt_all_next = NULL;
	m->mnt_all_pprev = NULL;
	spin_unlock(&w->list_lock);
}

/* ------------------------------------------------------------------ */
/* Create and destroy                                                  */

static bool world_root_create(struct wt_world *w)
{
	const char *name = w->cfg.root_fs ? w->cfg.root_fs : "plain";
	const struct file_system_type *type = wt_fs_type_lookup(name);
	struct super_block *sb;

	if (!type)
		return false;
	sb = wt_sb_create(w, type, "rootfs");
	if (!sb)
		return false;
	w->root_mnt = wt_mnt_root_create(sb);
	if (!w->root_mnt) {
		wt_sb_discard(sb);
		return false;
	}
	return true;
}

/* A hash table's bucket count as configured: 0 taken as 1. */
static uint32_t buckets(uint32_t n)
{
	return n ? n : 1;
}

static void world_config_set(struct wt_world *w,
			     const struct wt_world_config *cfg)
{
	w->cfg = *cfg;
	w->cfg.dcache_buckets = buckets(cfg->dcache_buckets);
	w->cfg.mount_buckets = buckets(cfg->mount_buckets);
}

/* Can a world of cfg be built in the retired spare?  Only at the same
 * sizes: the hash tables and the quarantine are allocated by size; and
 * with an arena if and only if the spare has one. */
static bool spare_fits(const struct wt_world *spare,
		       const struct wt_world_config *cfg)
{
	return spare->cfg.dcache_buckets == buckets(cfg->dcache_buckets) &&
	       spare->cfg.mount_buckets == buckets(cfg->mount_buckets) &&
	       spare->cfg.quarantine_slots == cfg->quarantine_slots &&
	       spare->cfg.arena == cfg->arena;
}

static void snap_free(struct wt_world *w)
{
	if (!w->snap)
		return;
	free(w->snap->dcache_hash);
	free(w->snap->mount_hash);
	free(w->snap->objects);
	free(w->snap->seqs);
	free(w->snap);
	w->snap = NULL;
}

/* The retired spare's storage, emptied as calloc would leave it (the
 * arena emptied, its snapshot dropped). */
static struct wt_world *world_storage_reuse(struct wt_world *w,
					    const struct wt_world_config *cfg)
{
	struct dentry **dh = w->dcache_hash;
	struct mount **mh = w->mount_hash;
	struct wt_rcu_domain *rcu = w->rcu;
	struct wt_arena arena = w->arena;

	snap_free(w);
	memset(w, 0, sizeof(*w));
	world_config_set(w, cfg);
	w->dcache_hash = dh;
	w->mount_hash = mh;
	w->rcu = rcu;
	w->arena = arena;
	wt_arena_rewind(&w->arena, 0);
	memset(dh, 0, w->cfg.dcache_buckets * sizeof(*dh));
	memset(mh, 0, w->cfg.mount_buckets * sizeof(*mh));
	return w;
}

/* A world's storage: new, or the retired spare's, emptied as calloc
 * would leave it (the domain was reset when the spare retired). */
static struct wt_world *world_storage(const struct wt_world_config *cfg,
				      struct wt_world *spare)
{
	struct wt_world *w;

	if (spare && !spare_fits(spare, cfg)) {
		wt_world_destroy(spare);
		spare = NULL;
	}
	if (!spare) {
		w = calloc(1, sizeof(*w));
		if (!w)
			return NULL;
		world_config_set(w, cfg);
		w->dcache_hash = calloc(w->cfg.dcache_buckets,
					sizeof(*w->dcache_hash));
		w->mount_hash = calloc(w->cfg.mount_buckets,
				       sizeof(*w->mount_hash));
		w->rcu = wt_rcu_domain_create(w->cfg.quarantine_slots);
		/* failing, the objects come from the heap, as without */
		if (cfg->arena)
			wt_arena_init(&w->arena, WT_WORLD_ARENA_BYTES);
		return w;
	}
	return world_storage_reuse(spare, cfg);
}

struct wt_world *wt_world_create_from(const struct wt_world_config *cfg,
				      struct wt_world *spare)
{
	struct wt_world *w = world_storage(cfg, spare);

	if (!w)
		return NULL;
	/* Seeded like d_seq, so no two runs' seq spaces line up. */
	seqlock_init(&w->mount_lock,
		     wt_world_initial_seq(w, WT_SEQ_SALT_MOUNT_LOCK));
	seqlock_init(&w->rename_lock,
		     wt_world_initial_seq(w, WT_SEQ_SALT_RENAME_LOCK));
	wt_mutex_init(&w->namespace_sem);
	spin_lock_init(&w->dcache_lock);
	spin_lock_init(&w->list_lock);
	w->next_id = 1;
	/* The history belongs to the writer side (sim/ops creates it). */
	w->history = NULL;
	if (!w->dcache_hash || !w->mount_hash || !w->rcu || !world_root_create(w)) {
		wt_world_destroy(w);
		return NULL;
	}
	return w;
}

struct wt_world *wt_world_create(const struct wt_world_config *cfg)
{
	return wt_world_create_from(cfg, NULL);
}

/*
 * Everything still alive is on a list: mounts, dentries, and each
 * super_block's inodes.  What died earlier went through RCU and is in
 * the domain (deferred or quarantined), freed with it.  Order: users
 * before what they use, the fs-private state last but one, the domain
 * last (a kill_super may still queue a free).
 */
static void world_free_objects(struct wt_world *w)
{
	struct mount *m, *mnext;
	struct dentry *d, *dnext;
	struct super_block *sb, *snext;

	for (m = w->mounts; m; m = mnext) {
		mnext = m->mnt_all_next;
		wt_mount_destroy(m);
	}
	for (d = w->dentries; d; d = dnext) {
		dnext = d->d_all_next;
		wt_dentry_destroy(d);
	}
	for (sb = w->supers; sb; sb = snext) {
		snext = sb->s_next;
		wt_sb_destroy(sb);
	}
	w->mounts = NULL;
	w->dentries = NULL;
	w->supers = NULL;
	w->root_mnt = NULL;
}

void wt_world_destroy(struct wt_world *w)
{
	if (!w)
		return;
	world_free_objects(w);
	if (w->rcu)
		wt_rcu_domain_destroy(w->rcu);
	snap_free(w);
	wt_arena_fini(&w->arena);
	free(w->dcache_hash);
	free(w->mount_hash);
	free(w);
}

/*
 * A world with a snapshot and nothing spilled has all its objects in the
 * arena and nothing of theirs on the heap (a remote server's nodes and
 * journal included): there is nothing to free one by one, the next
 * world writes the arena over (wt_world_restore) or starts it again
 * (world_storage_reuse).
 */
struct wt_world *wt_world_retire(struct wt_world *w)
{
	if (!w->snap || w->spilled)
		world_free_objects(w);
	if (w->rcu)
		wt_rcu_domain_reset(w->rcu);
	return w;
}

/* ------------------------------------------------------------------ */
/* Snapshot and restore                                                */

/* The dentries' seq halves (struct wt_snap_seq); none on ENOMEM:
 * world_reseed computes them then. */
static void snap_seqs(struct wt_world_snap *snap)
{
	const struct wt_world *w = &snap->world;
	size_t n = 0;

	for (const struct dentry *d = w->dentries; d; d = d->d_all_next)
		n++;
	snap->seqs = malloc((n ? n : 1) * sizeof(*snap->seqs));
	if (!snap->seqs)
		return;
	snap->nseqs = n;
	n = 0;
	for (const struct dentry *d = w->dentries; d; d = d->d_all_next) {
		struct wt_snap_seq *q = &snap->seqs[n++];

		q->id = d->wt.id;
		q->id_mix = wt_mix64(d->wt.id + WT_SEQ_ID_ADD);
		q->from = initial_seq_mixed(w->cfg.seed, q->id_mix);
	}
}

int wt_world_snapshot(struct wt_world *w)
{
	size_t used = w->arena.used;
	struct wt_world_snap *snap;

	if (!w->arena.base || w->spilled)
		return -1;
	snap_free(w);
	snap = calloc(1, sizeof(*snap));
	if (!snap)
		return -1;
	snap->dcache_hash = malloc(w->cfg.dcache_buckets *
				   sizeof(*w->dcache_hash));
	snap->mount_hash = malloc(w->cfg.mount_buckets *
				  sizeof(*w->mount_hash));
	snap->objects = malloc(used ? used : 1);
	if (!snap->dcache_hash || !snap->mount_hash || !snap->objects ||
	    wt_rcu_domain_mark(w->rcu)) {
		w->snap = snap;
		snap_free(w);
		return -1;
	}
	memcpy(snap->dcache_hash, w->dcache_hash,
	       w->cfg.dcache_buckets * sizeof(*w->dcache_hash));
	memcpy(snap->mount_hash, w->mount_hash,
	       w->cfg.mount_buckets * sizeof(*w->mount_hash));
#ifdef WT_ASAN
	/* What the build freed and the quarantine released is marked
	 * unaddressable; the copy takes it too (it holds sim/obj.h's
	 * poison, which is all a stale reader may find there). */
	__asan_unpoison_memory_region(w->arena.base, used);
#endif
	memcpy(snap->objects, w->arena.base, used);
	snap->world = *w;
	w->snap = snap;
	snap_seqs(snap);
	return 0;
}

/* The snapshot serves cfg: the same world in all but the seed. */
static bool snap_fits(const struct wt_world_config *was,
		      const struct wt_world_config *cfg)
{
	const char *a = was->root_fs ? was->root_fs : "";
	const char *b = cfg->root_fs ? cfg->root_fs : "";

	return was->dcache_buckets == buckets(cfg->dcache_buckets) &&
	       was->mount_buckets == buckets(cfg->mount_buckets) &&
	       was->quarantine_slots == cfg->quarantine_slots &&
	       was->bugs == cfg->bugs && was->history == cfg->history &&
	       was->arena == cfg->arena && (a == b || !strcmp(a, b));
}

/* A seq value drawn from the old seed, moved to the new seed's: the
 * writes since (the build's) keep their count. */
static void seq_reseed(seqcount_t *s, unsigned from, unsigned to)
{
	s->sequence += to - from;
	s->birth += to - from;
}

static void world_reseed(struct wt_world *w, uint64_t seed)
{
	const struct wt_world_snap *snap = w->snap;
	uint64_t old = w->cfg.seed;
	size_t i = 0;

	/* the snapshot's dentries, in its list's order: their old values
	 * and id mixes made once (snap_seqs), a mix each here */
	for (struct dentry *d = w->dentries; d; d = d->d_all_next, i++) {
		const struct wt_snap_seq *q = snap && i < snap->nseqs ?
					      &snap->seqs[i] : NULL;

		if (q && q->id == d->wt.id)
			seq_reseed(&d->d_seq, q->from,
				   initial_seq_mixed(seed, q->id_mix));
		else
			seq_reseed(&d->d_seq, initial_seq(old, d->wt.id),
				   initial_seq(seed, d->wt.id));
	}
	seq_reseed(&w->mount_lock.seqcount,
		   initial_seq(old, WT_SEQ_SALT_MOUNT_LOCK),
		   initial_seq(seed, WT_SEQ_SALT_MOUNT_LOCK));
	seq_reseed(&w->rename_lock.seqcount,
		   initial_seq(old, WT_SEQ_SALT_RENAME_LOCK),
		   initial_seq(seed, WT_SEQ_SALT_RENAME_LOCK));
	/* a remote server's handles are drawn from the seed too */
	for (struct super_block *sb = w->supers; sb; sb = sb->s_next)
		wt_remote_reseed(sb, seed);
	w->cfg.seed = seed;
}

struct wt_world *wt_world_restore(const struct wt_world_config *cfg,
				  struct wt_world *spare)
{
	struct wt_world_snap *snap = spare ? spare->snap : NULL;

	if (!snap || !snap_fits(&snap->world.cfg, cfg))
		return NULL;
	*spare = snap->world;	/* the same storage: its pointers hold */
	spare->snap = snap;
	memcpy(spare->dcache_hash, snap->dcache_hash,
	       spare->cfg.dcache_buckets * sizeof(*spare->dcache_hash));
	memcpy(spare->mount_hash, snap->mount_hash,
	       spare->cfg.mount_buckets * sizeof(*spare->mount_hash));
#ifdef WT_ASAN
	__asan_unpoison_memory_region(spare->arena.base, spare->arena.used);
#endif
	memcpy(spare->arena.base, snap->objects, spare->arena.used);
	wt_rcu_domain_rewind(spare->rcu);
	world_reseed(spare, cfg->seed);
	/* the log's entries up to its mark name the old seed's handles */
	if (spare->history)
		wt_history_reseed(spare->history, cfg->seed);
	return spare;
}

/* ------------------------------------------------------------------ */
/* Tasks                                                               */

static void task_path_get(const struct path *p)
{
	mntget(p->mnt);
	dget(p->dentry);
}

static void task_path_put(const struct path *p)
{
	dput(p->dentry);
	mntput(p->mnt);
}

void wt_task_init(struct wt_task *task, struct wt_world *w, uint32_t uid,
		  uint32_t gid)
{
	memset(task, 0, sizeof(*task));
	task->world = w;
	task->cred.uid = uid;
	task->cred.gid = gid;
	task->cred.cap_dac_override = uid == 0;
	task->cred.cap_sys_ptrace = uid == 0;
	task->umask = 022;
	task->root = wt_world_root(w);
	task->pwd = task->root;
	task_path_get(&task->root);
	task_path_get(&task->pwd);
}

void wt_task_release(struct wt_task *task)
{
	task_path_put(&task->pwd);
	task_path_put(&task->root);
	memset(&task->root, 0, sizeof(task->root));
	memset(&task->pwd, 0, sizeof(task->pwd));
}

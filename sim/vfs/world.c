/* SPDX-License-Identifier: MIT */
/*
 * The world: creation with a root tmpfs mounted on itself, the id
 * counter, seeded seq values, the object lists, teardown, and tasks.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/rcu.h"
#include "sim/vfs/internal.h"
#include "sim/vfs/world.h"

/* Salts for the seq values that are not a dentry's (ids start at 1). */
#define WT_SEQ_SALT_MOUNT_LOCK	0x6d6f756e745f6c6bull	/* "mount_lk" */
#define WT_SEQ_SALT_RENAME_LOCK	0x72656e616d655f6bull	/* "rename_k" */

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

/* Even, and a function of (seed, id) only: the same in every process. */
unsigned wt_world_initial_seq(const struct wt_world *w, uint64_t id)
{
	uint64_t x = wt_mix64(w->cfg.seed ^ wt_mix64(id + 0x9e3779b97f4a7c15ull));

	return (unsigned)x & ~1u;
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
 * sizes: the hash tables and the quarantine are allocated by size. */
static bool spare_fits(const struct wt_world *spare,
		       const struct wt_world_config *cfg)
{
	return spare->cfg.dcache_buckets == buckets(cfg->dcache_buckets) &&
	       spare->cfg.mount_buckets == buckets(cfg->mount_buckets) &&
	       spare->cfg.quarantine_slots == cfg->quarantine_slots;
}

/* The retired spare's storage, emptied as calloc would leave it. */
static struct wt_world *world_storage_reuse(struct wt_world *w,
					    const struct wt_world_config *cfg)
{
	struct dentry **dh = w->dcache_hash;
	struct mount **mh = w->mount_hash;
	struct wt_rcu_domain *rcu = w->rcu;

	memset(w, 0, sizeof(*w));
	world_config_set(w, cfg);
	w->dcache_hash = dh;
	w->mount_hash = mh;
	w->rcu = rcu;
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
	free(w->dcache_hash);
	free(w->mount_hash);
	free(w);
}

struct wt_world *wt_world_retire(struct wt_world *w)
{
	world_free_objects(w);
	if (w->rcu)
		wt_rcu_domain_reset(w->rcu);
	return w;
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

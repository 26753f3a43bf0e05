/* SPDX-License-Identifier: MIT */
/*
 * Mounts: the per-thread count, the mount hash and its lookups, attach
 * and detach, the final put, finish_automount (the model of the parts
 * of Linux 6.x fs/namespace.c that the walk meets).
 *
 * Writers of the hash and of mnt_parent/mnt_mountpoint hold mount_lock
 * for writing (lock_mount_hash); readers walk the chains under RCU and
 * validate with mount_lock's seq.  The walker's own legitimize_mnt (with
 * the zoo's variants) is in core/; lookup_mnt below has a private copy
 * of the correct one, as the kernel's lookup_mnt is namespace.c's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim/atomic.h"
#include "sim/history.h"
#include "sim/rcu.h"
#include "sim/vfs/internal.h"
#include "sim/vfs/world.h"

/* Rounds of lookup_mnt's optimistic loop before it takes mount_lock. */
#define WT_LOOKUP_MNT_ROUNDS_MAX 16

static struct wt_world *m_world(const struct mount *m)
{
	return m->mnt.mnt_sb->s_world;
}

int mnt_flags_load(const struct mount *m)
{
	return wt_load(m, mnt.mnt_flags);
}

void lock_mount_hash(struct wt_world *w)
{
	write_seqlock(&w->mount_lock);
}

void unlock_mount_hash(struct wt_world *w)
{
	write_sequnlock(&w->mount_lock);
}

/* ------------------------------------------------------------------ */
/* The count                                                           */

/* The calling thread's slot (this CPU's, in the kernel). */
static unsigned mnt_slot(void)
{
	unsigned slot = wt_self ? wt_self->id + 1 : 0;

	if (slot >= WT_MNT_SLOTS) {
		/* Two threads on one slot would lose updates. */
		wt_violation(WT_CHECK_INVARIANT, NULL, NULL,
			     "thread id %u has no mnt_count slot (max %u)",
			     slot - 1, WT_MNT_SLOTS - 1);
		return 0;
	}
	return slot;
}

void wt_mnt_add_count(struct mount *m, int n, const struct wt_point *p)
{
	unsigned slot = mnt_slot();
	int v;

	wt_access(&m->wt, p, m);
	/*
	 * this_cpu_add: a relaxed load and store of our own slot, which only
	 * this thread writes.  No read-modify-write, so no barrier: whoever
	 * needs our increment ordered against a later load (legitimize,
	 * mntput_no_expire, umount's busy check) has its own smp_mb().  Both
	 * go through sim/atomic.h, so under memory=tso the increment waits
	 * in this thread's store buffer like the kernel's per-cpu add.
	 */
	v = READ_ONCE(m->mnt_pcp[slot]);
	WRITE_ONCE(m->mnt_pcp[slot], v + n);
}

int mnt_get_count(const struct mount *m)
{
	int sum = 0;

	/* Through sim/atomic.h: under tso another thread's buffered
	 * increment is not in the sum until it is flushed.  With no store
	 * buffer (every end-of-run check) the loads READ_ONCE makes then,
	 * its test made once and not for each of the 33 slots. */
	if (!wt_tso_on()) {
		for (unsigned i = 0; i < WT_MNT_SLOTS; i++)
			sum += __atomic_load_n(&m->mnt_pcp[i], __ATOMIC_RELAXED);
		return sum;
	}
	for (unsigned i = 0; i < WT_MNT_SLOTS; i++)
		sum += READ_ONCE(m->mnt_pcp[i]);
	return sum;
}

struct vfsmount *mntget(struct vfsmount *m)
{
	if (m)
		mnt_add_count(real_mount(m), 1);
	return m;
}

/* ------------------------------------------------------------------ */
/* The final put                                                       */

/* After the final put: drop what the mount holds, free it after a
 * grace period (RCU-walkers may still stand on it). */
static void cleanup_mnt(struct wt_world *w, struct mount *m)
{
	struct dentry *root = m->mnt.mnt_root;
	struct super_block *sb = m->mnt.mnt_sb;

	wt_world_del_mount(w, m);
	dput(root);
	deactivate_super(sb);
	call_rcu_free(w->rcu, &m->wt, sizeof(*m), NULL);
}

static bool mntput_no_expire(struct mount *m)
{
	struct wt_world *w = m_world(m);
	int count, flags;

	rcu_read_lock();
	if (__builtin_expect(wt_load(m, mnt_attached), 1)) {
		/*
		 * Attached: the tree holds a reference, and it is dropped
		 * only a grace period after mnt_attached is cleared (the
		 * caller of wt_mnt_detach waits for one), so seeing it set
		 * inside our section means ours is not the last.
		 */
		mnt_add_count(m, -1);
		rcu_read_unlock();
		return false;
	}
	lock_mount_hash(w);
	/*
	 * Pairs with __legitimize_mnt's smp_mb() after its increment: either
	 * it sees mount_lock moved (we bumped it just now) and gives its
	 * count back or drops it with a real mntput, or we see its
	 * increment in the sum below and do not free under it.  The
	 * seqcount Dekker barrier (sim/seq.h): zoo WT_BUG_SEQ_NO_BARRIER
	 * removes it with the others of its kind.  In this model no walker
	 * can be legitimizing a detached mount here (the detach waited a
	 * grace period), so only the other two pairings show the bug.
	 */
	wt_seq_dekker_mb();
	mnt_add_count(m, -1);
	count = mnt_get_count(m);
	flags = __atomic_load_n(&m->mnt.mnt_flags, __ATOMIC_RELAXED);
	if (count != 0 || (flags & MNT_DOOMED)) {
		rcu_read_unlock();
		unlock_mount_hash(w);
		if (count < 0)
			wt_violation(WT_CHECK_LOCKREF, NULL, m,
				     "mntput of mount %llu below zero (%d)",
				     (unsigned long long)m->wt.id, count);
		return false;
	}
	/* MNT_DOOMED: there is exactly one final put. */
	wt_store(m, mnt.mnt_flags, flags | MNT_DOOMED);
	__atomic_store_n(&m->mnt_final_put_by, wt_self ? (int)wt_self->id + 1 : 0,
			 __ATOMIC_RELAXED);
	__atomic_add_fetch(&m->mnt_final_puts, 1, __ATOMIC_RELAXED);
	rcu_read_unlock();
	unlock_mount_hash(w);
	cleanup_mnt(w, m);
	return true;
}

void mntput(struct vfsmount *m)
{
	if (m)
		mntput_no_expire(real_mount(m));
}

bool wt_mntput_final(struct vfsmount *m)
{
	return m ? mntput_no_expire(real_mount(m)) : false;
}

/* ------------------------------------------------------------------ */
/* The hash                                                            */

static uint32_t mnt_bucket_of(const struct wt_world *w,
			      const struct mount *parent,
			      const struct dentry *mp)
{
	return wt_hash_bucket(parent->wt.id, mp->wt.id, w->cfg.mount_buckets);
}

/* A dead chain element is reported and ends the walk (its link is
 * poison). */
static bool mnt_chain_alive(const struct mount *m)
{
	wt_obj_check(&m->wt, WT_ACCESS_POINT(WT_K_LOAD, "mnt_hash",
					     "a mount hash chain element"));
	return __atomic_load_n(&m->wt.magic, __ATOMIC_RELAXED) == WT_OBJ_LIVE;
}

/* The next chain element, or NULL when m died under us: its link is
 * poison (the load reported it), see d_chain_next. */
static struct mount *mnt_chain_next(const struct mount *m)
{
	struct mount *next = wt_load_acquire(m, mnt_hash_next);

	if (__atomic_load_n(&m->wt.magic, __ATOMIC_RELAXED) != WT_OBJ_LIVE)
		return NULL;
	return next;
}

struct mount *__lookup_mnt(struct vfsmount *parent, const struct dentry *dentry)
{
	struct mount *p = real_mount(parent);
	struct wt_world *w = parent->mnt_sb->s_world;
	uint32_t b = mnt_bucket_of(w, p, dentry);
	struct mount *m = smp_load_acquire(&w->mount_hash[b]);

	/* No lock: a chain being rewritten (a mount --move elsewhere on it)
	 * can carry the walk off and give a false miss; the caller checks
	 * mount_lock to know. */
	for (; m; m = mnt_chain_next(m)) {
		WT_HOOK(WT_K_HASH_STEP, "lookup_mnt.hash_step", "mnt_hash",
			"one step along a mount hash chain", m);
		if (!mnt_chain_alive(m))
			break;
		if (wt_load(m, mnt_parent) == p &&
		    wt_load(m, mnt_mountpoint) == dentry)
			return m;
	}
	return NULL;
}

/*
 * __legitimize_mnt, correct version, for lookup_mnt: 0 with a count held,
 * 1 with none (mount_lock moved before the count, or the mount is being
 * sync-unmounted/doomed: give the count back in place, umount does the
 * final put), -1 with a count the caller must mntput outside RCU.
 */
static int lookup_mnt_legitimize(struct wt_world *w, struct mount *m,
				 unsigned seq)
{
	if (read_seqretry_at(&w->mount_lock, seq, "lookup_mnt.legit_early"))
		return 1;
	if (!m)
		return 0;
	mnt_add_count(m, 1);
	smp_mb();	/* pairs with mntput_no_expire and do_umount */
	if (!read_seqretry_at(&w->mount_lock, seq, "lookup_mnt.legit_retry"))
		return 0;
	lock_mount_hash(w);
	if (mnt_flags_load(m) & (MNT_SYNC_UMOUNT | MNT_DOOMED)) {
		mnt_add_count(m, -1);
		unlock_mount_hash(w);
		return 1;
	}
	unlock_mount_hash(w);
	return -1;
}

struct vfsmount *lookup_mnt(const struct path *path)
{
	struct wt_world *w = path->mnt->mnt_sb->s_world;
	struct mount *child;
	unsigned seq;

	rcu_read_lock();
	for (unsigned round = 0; round < WT_LOOKUP_MNT_ROUNDS_MAX; round++) {
		int res;

		seq = read_seqbegin_at(&w->mount_lock, "lookup_mnt.seq");
		child = __lookup_mnt(path->mnt, path->dentry);
		res = lookup_mnt_legitimize(w, child, seq);
		if (res == 0)
			goto out;
		if (res < 0) {
			rcu_read_unlock();
			mntput(&child->mnt);
			rcu_read_lock();
		}
	}
	/* mount_lock keeps moving: look with writers excluded.  A hashed
	 * mount is attached and holds the tree's reference, so a count
	 * taken under the lock cannot race with its final put. */
	read_seqlock_excl(&w->mount_lock);
	child = __lookup_mnt(path->mnt, path->dentry);
	if (child)
		mnt_add_count(child, 1);
	read_sequnlock_excl(&w->mount_lock);
out:
	rcu_read_unlock();
	return child ? &child->mnt : NULL;
}

/* ------------------------------------------------------------------ */
/* Writer side                                                         */

struct mount *wt_mnt_alloc(struct super_block *sb, struct dentry *root,
			   const char *devname)
{
	struct wt_world *w = sb->s_world;
	struct mount *m;

	if (wt_alloc_should_fail(WT_ALLOC_POINT("mnt_alloc")))
		return NULL;
	m = wt_world_obj_alloc(w, sizeof(*m));
	if (!m)
		return NULL;
	wt_obj_init(&m->wt, WT_OBJ_MOUNT, wt_world_new_id(w));
	m->mnt_parent = m;
	m->mnt_mountpoint = root;
	m->mnt.mnt_root = dget(root);
	m->mnt.mnt_sb = sb;
	m->mnt_pcp[mnt_slot()] = 1;
	snprintf(m->mnt_devname, sizeof(m->mnt_devname), "%s",
		 devname ? devname : sb->s_name);
	__atomic_add_fetch(&sb->s_active, 1, __ATOMIC_SEQ_CST);
	wt_world_add_mount(w, m);
	return m;
}

struct mount *wt_mnt_root_create(struct super_block *sb)
{
	struct mount *m = wt_mnt_alloc(sb, sb->s_root, "rootfs");

	/* The namespace's root: its own parent, never hashed, attached. */
	if (m)
		m->mnt_attached = true;
	return m;
}

static bool mount_lock_held(struct wt_world *w, const struct mount *m)
{
	if (spin_is_locked(&w->mount_lock.lock))
		return true;
	wt_violation(WT_CHECK_INVARIANT, NULL, m,
		     "mount %llu changed without mount_lock",
		     (unsigned long long)m->wt.id);
	return false;
}

/* One more (or one fewer) user of mp: its mounts (under mount_lock)
 * and mount --move's pin (wt_mountpoint_pin). */
static void mp_count(struct dentry *mp, int n)
{
	unsigned f;

	spin_lock(&mp->d_lock);
	mp->d_mount_count += n;
	f = mp->d_flags;
	f = mp->d_mount_count ? (f | DCACHE_MOUNTED) : (f & ~DCACHE_MOUNTED);
	wt_store_release(mp, d_flags, f);
	spin_unlock(&mp->d_lock);
}

void wt_mountpoint_pin(struct dentry *mp, int n)
{
	mp_count(mp, n);
}

void wt_mnt_attach(struct mount *m, struct mount *parent, struct dentry *mp)
{
	struct wt_world *w = m_world(m);
	uint32_t b = mnt_bucket_of(w, parent, mp);

	if (!mount_lock_held(w, m))
		return;
	if (m->mnt_hashed || m == parent)
		wt_violation(WT_CHECK_INVARIANT, NULL, m,
			     "attach of mount %llu that is attached",
			     (unsigned long long)m->wt.id);
	mnt_add_count(parent, 1);	/* essentially mntget (mnt_set_mountpoint) */
	dget(mp);
	mp_count(mp, 1);
	wt_store_step_release(m, mnt_mountpoint, mp, "mnt_attach.mnt_mountpoint");
	wt_store_step_release(m, mnt_parent, parent, "mnt_attach.mnt_parent");
	/* hlist_add_head_rcu: the link first, then the head. */
	m->mnt_bucket = b;
	wt_store_release(m, mnt_hash_next, w->mount_hash[b]);
	wt_publish_release(&w->mount_hash[b], m);	/* as __d_rehash */
	m->mnt_hashed = true;
	m->mnt_child = parent->mnt_mounts;
	parent->mnt_mounts = m;
	wt_store(m, mnt_attached, true);
}

/* hlist_del_init_rcu: off the chain, m's own link kept for readers on it. */
static void mnt_unhash(struct wt_world *w, struct mount *m)
{
	struct mount **head = &w->mount_hash[m->mnt_bucket];
	struct mount *prev = NULL, *cur;

	for (cur = *head; cur && cur != m; cur = cur->mnt_hash_next)
		prev = cur;
	if (!cur)
		wt_violation(WT_CHECK_INVARIANT, NULL, m,
			     "hashed mount %llu is not on its chain",
			     (unsigned long long)m->wt.id);
	else if (prev)
		wt_store_release(prev, mnt_hash_next, m->mnt_hash_next);
	else
		wt_publish_release(head, m->mnt_hash_next);
	m->mnt_hashed = false;
}

static void mnt_unlink_child(struct mount *parent, struct mount *m)
{
	struct mount **pp;

	for (pp = &parent->mnt_mounts; *pp && *pp != m; pp = &(*pp)->mnt_child)
		;
	if (*pp)
		*pp = m->mnt_child;
	m->mnt_child = NULL;
}

void wt_mnt_detach(struct mount *m)
{
	struct wt_world *w = m_world(m);
	struct mount *parent = m->mnt_parent;
	struct dentry *mp = m->mnt_mountpoint;

	if (!mount_lock_held(w, m) || parent == m)
		return;
	if (m->mnt_hashed)
		mnt_unhash(w, m);
	mnt_unlink_child(parent, m);
	wt_store_step_release(m, mnt_parent, m, "mnt_detach.mnt_parent");
	wt_store_step_release(m, mnt_mountpoint, m->mnt.mnt_root,
			      "mnt_detach.mnt_mountpoint");
	wt_store(m, mnt_attached, false);
	mnt_add_count(parent, -1);	/* umount_tree's plain decrement */
	mp_count(mp, -1);
	/* Under mount_lock, where the kernel defers it to namespace_unlock:
	 * harmless here, as a directory's death takes no mount lock. */
	dput(mp);
}

/* ------------------------------------------------------------------ */
/* Automount                                                           */

/* Under namespace_sem and mount_lock: attach m at path, logged. */
static void automount_attach(struct wt_world *w, struct mount *m,
			     const struct path *path)
{
	struct wt_hist_rec *rec;

	rec = wt_history_begin(w, "automount", "finish_automount.attach",
			       "%s", m->mnt_devname);
	wt_mnt_attach(m, real_mount(path->mnt), path->dentry);
	wt_history_mount(rec, m);
	wt_history_dentry(rec, path->dentry);
	wt_history_commit(rec);
}

int finish_automount(struct vfsmount *m, const struct path *path)
{
	struct dentry *dentry = path->dentry;
	struct wt_world *w;
	bool same_place;
	int err = 0;

	if (!m)
		return 0;
	if (IS_ERR(m))
		return (int)PTR_ERR(m);
	w = m_world(real_mount(m));
	/*
	 * d_automount gave back the tree the point is already in, rooted
	 * at the point itself: mounting it there would be crossed into
	 * the same point again, for ever.
	 */
	same_place = m->mnt_sb == path->mnt->mnt_sb && m->mnt_root == dentry;
	if (same_place) {
		err = -ELOOP;
		goto discard;
	}
	mutex_lock(&w->namespace_sem);
	lock_mount_hash(w);
	/* The trigger may have been removed while d_automount ran. */
	if (dentry != path->mnt->mnt_root && d_unhashed(dentry))
		err = -ENOENT;
	/* Another automount of the point won the race: ours is dropped
	 * without an error, and the walker crosses theirs instead. */
	else if (__lookup_mnt(path->mnt, dentry))
		err = 0;
	/*
	 * do_add_mount's test: the mount the trigger is on must still be
	 * in the namespace.  A walker that held it across `umount -l`
	 * would otherwise hang the new mount under a detached tree, where
	 * no path reaches it and no umount can take it, and the child's
	 * pin keeps the detached parent alive for ever.  Zoo
	 * WT_BUG_AUTOMOUNT_DETACHED_PARENT (`--bug
	 * automount_detached_parent`, the code Linux 156cacb1d0d3
	 * corrected) attaches it anyway.
	 */
	else if (!wt_load(real_mount(path->mnt), mnt_attached) &&
		 !wt_bug(w, WT_BUG_AUTOMOUNT_DETACHED_PARENT))
		err = -EINVAL;
	else {
		automount_attach(w, real_mount(m), path);
		unlock_mount_hash(w);
		mutex_unlock(&w->namespace_sem);
		return 0;
	}
	unlock_mount_hash(w);
	mutex_unlock(&w->namespace_sem);
discard:
	mntput(m);
	return err;
}

/* ------------------------------------------------------------------ */
/* Teardown                                                            */

void wt_mount_destroy(struct mount *m)
{
	wt_obj_free(&m->wt, sizeof(*m));
}

/* SPDX-License-Identifier: MIT */
/*
 * The VFS layer under real concurrency: RCU-walk lookups and REF lookups
 * racing a renamer and the shrinker, RCU and REF mount lookups racing a
 * mounter that attaches, detaches and frees mounts with their
 * super_blocks, and remote revalidation in every mode racing changes on
 * the server.  It proves, under ThreadSanitizer, that the lockless
 * paths are data-race free (every shared field through an atomic
 * accessor, every pointer published with release and read with acquire,
 * every free after a grace period), and, in any build, that a hit whose
 * d_seq sample validates always shows the name and parent looked up, and
 * that no object is used after it was poisoned.
 *
 * A program with its own main, not a Criterion suite: it runs threads of
 * its own, the same way under every preset (Criterion itself cannot
 * start under ThreadSanitizer, Snaipe/Criterion#274), and ThreadSanitizer
 * is where it matters.  Exit status 0 on success.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/fs/remote.h"
#include "sim/rcu.h"
#include "sim/thread.h"
#include "sim/vfs/lookup_flags.h"
#include "sim/vfs/world.h"

#define NFILES		16
#define READERS		3
#define WALKERS		3
#define LOOKUPS_MIN	20000		/* and on while the writer runs */
#define LOOKUPS_MAX	2000000
#define RENAMES		8000
#define MOUNTS		400

#define DIR_MODE	(WT_S_IFDIR | 0755)
#define REG_MODE	(WT_S_IFREG | 0644)

static struct wt_world *w;
static struct dentry *dirs[2];
static struct dentry *mp;
static char names[NFILES][64];
static uint32_t stop;			/* atomic: the writer is done */
static uint64_t failures;		/* atomic */
static uint64_t violations;		/* atomic */
static uint64_t validated_hits;		/* atomic */
static pthread_barrier_t start;

static void fail(const char *what)
{
	fprintf(stderr, "walktorture: !!! test_vfs_stress: %s\n", what);
	__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
}

static void sink(struct wt_thread *t, enum wt_check check,
		 const struct wt_point *p, const void *obj, const char *msg)
{
	(void)t;
	(void)obj;
	fprintf(stderr, "walktorture: !!! violation %s at %s: %s\n",
		wt_check_name(check), wt_point_name(p), msg);
	__atomic_add_fetch(&violations, 1, __ATOMIC_RELAXED);
}

struct thread_arg {
	struct wt_thread t;
	unsigned id;
	void (*body)(struct thread_arg *);
};

static void *thread_main(void *arg)
{
	struct thread_arg *a = arg;

	wt_thread_init(&a->t, a->id, "stress");
	a->t.on_violation = sink;
	a->t.rcu = wt_rcu_reader_create(w->rcu);
	wt_thread_enter(&a->t);
	pthread_barrier_wait(&start);
	a->body(a);
	wt_rcu_reader_destroy(a->t.rcu);
	wt_thread_enter(NULL);
	return NULL;
}

static struct qstr qname(const char *s)
{
	return QSTR_INIT(s, (uint32_t)strlen(s));
}

static struct dentry *mk(struct dentry *parent, const char *name, umode_t mode)
{
	struct qstr q = qname(name);
	struct dentry *d = d_alloc(parent, &q);

	d_add(d, mode ? wt_inode_alloc(parent->d_sb, mode, 0, 0) : NULL);
	return d;
}

/* ------------------------------------------------------------------ */
/* dcache                                                              */

/* One RCU-walk lookup: a validated hit must be exactly what we asked. */
static void rcu_lookup_once(struct dentry *parent, const char *name)
{
	struct qstr q = qname(name);
	char seen[NAME_MAX_LEN + 1];
	struct dentry *d, *dparent;
	struct inode *inode;
	unsigned seq;

	rcu_read_lock();
	d = __d_lookup_rcu(parent, &q, &seq);
	if (d) {
		dparent = d_parent_rcu(d);
		inode = d_inode_rcu(d);
		if (inode)
			(void)wt_load(inode, i_mode);
		d_name_copy(d, seen, sizeof(seen));
		if (!read_seqcount_retry(&d->d_seq, seq)) {
			__atomic_add_fetch(&validated_hits, 1, __ATOMIC_RELAXED);
			if (dparent != parent || strcmp(seen, name) != 0)
				fail("a validated RCU hit is not what was asked");
		}
	}
	rcu_read_unlock();
}

static bool go_on(unsigned i)
{
	if (i >= LOOKUPS_MAX)
		return false;
	return i < LOOKUPS_MIN || !__atomic_load_n(&stop, __ATOMIC_ACQUIRE);
}

static void reader(struct thread_arg *a)
{
	for (unsigned i = 0; go_on(i); i++) {
		const char *name = names[(i + a->id) % NFILES];
		struct dentry *parent = dirs[i & 1];
		struct qstr q = qname(name);
		struct dentry *d;

		rcu_lookup_once(parent, name);
		if (i % 4 == 0) {
			d = d_lookup(parent, &q);
			if (d && d_count(d) < 1)
				fail("a REF lookup without a reference");
			dput(d);
		}
		if (i % 64 == 0)
			wt_rcu_poll();
	}
}

/* Move file i to the other directory (d_move onto a new negative). */
static void renamer(struct thread_arg *a)
{
	struct dentry *files[NFILES];
	int where[NFILES] = { 0 };

	(void)a;
	for (int i = 0; i < NFILES; i++) {
		struct qstr q = qname(names[i]);

		files[i] = d_lookup(dirs[0], &q);
		if (!files[i])
			fail("set-up file missing");
	}
	for (unsigned n = 0; n < RENAMES; n++) {
		int i = (int)(n * 7 % NFILES);
		struct dentry *target;

		target = mk(dirs[!where[i]], names[i], 0);
		write_seqlock(&w->rename_lock);
		d_move(files[i], target);
		write_sequnlock(&w->rename_lock);
		dput(target);
		where[i] = !where[i];
		if (n % 32 == 0)
			wt_rcu_poll();
	}
	for (int i = 0; i < NFILES; i++)
		dput(files[i]);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
}

static void shrinker(struct thread_arg *a)
{
	(void)a;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		wt_dcache_shrink(w);
		wt_rcu_poll();
	}
}

/* ------------------------------------------------------------------ */
/* mounts                                                              */

static void walker(struct thread_arg *a)
{
	struct path p = { &w->root_mnt->mnt, mp };

	(void)a;
	for (unsigned i = 0; go_on(i); i++) {
		struct vfsmount *v;
		struct mount *m;
		unsigned seq;

		v = lookup_mnt(&p);
		if (v) {
			if (d_count(v->mnt_root) < 1)
				fail("a referenced mount's root is dead");
			mntput(v);
		}
		rcu_read_lock();
		seq = read_seqbegin(&w->mount_lock);
		m = __lookup_mnt(p.mnt, mp);
		if (m && wt_load(m, mnt_mountpoint) != mp &&
		    !read_seqretry(&w->mount_lock, seq))
			fail("a validated mount lookup is not at its mountpoint");
		rcu_read_unlock();
		if (i % 64 == 0)
			wt_rcu_poll();
	}
}

static void mounter(struct thread_arg *a)
{
	const struct file_system_type *tmpfs = wt_fs_type_lookup("tmpfs");

	(void)a;
	for (unsigned n = 0; n < MOUNTS; n++) {
		struct super_block *sb = wt_sb_create(w, tmpfs, "stress");
		struct mount *m = wt_mnt_alloc(sb, sb->s_root, "stress");

		mutex_lock(&w->namespace_sem);
		lock_mount_hash(w);
		wt_mnt_attach(m, w->root_mnt, mp);
		unlock_mount_hash(w);
		mutex_unlock(&w->namespace_sem);

		mutex_lock(&w->namespace_sem);
		lock_mount_hash(w);
		wt_mnt_detach(m);
		unlock_mount_hash(w);
		mutex_unlock(&w->namespace_sem);
		synchronize_rcu();	/* before the tree's reference goes */
		mntput(&m->mnt);
		wt_rcu_poll();
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------ */
/* remote                                                              */

#define SERVER_CHANGES	2000

static struct super_block *rsb;
static struct dentry *rx, *ry;

/* Revalidate in each mode, and look a name up through ->lookup. */
static void revalidator(struct thread_arg *a)
{
	for (unsigned i = 0; go_on(i); i++) {
		struct dentry *d = (i + a->id) & 1 ? rx : ry;
		unsigned flags = i % 3 == 0 ? 0 : i % 3 == 1 ? LOOKUP_RCU : LOOKUP_REVAL;
		int r;

		if (flags & LOOKUP_RCU)
			rcu_read_lock();
		r = d->d_op->d_revalidate(d, flags);
		if (flags & LOOKUP_RCU)
			rcu_read_unlock();
		if (r != 1 && r != 0 && r != -ECHILD && r != -ESTALE)
			fail("d_revalidate answered nonsense");
		if ((flags & LOOKUP_RCU) && r == -ESTALE)
			fail("RCU mode asked the server");
		if (i % 5 == 0)
			(void)d->d_op->d_weak_revalidate(rx, i & 2 ? LOOKUP_REVAL : 0);
		if (i % 64 == 0)
			wt_rcu_poll();
	}
}

static void server(struct thread_arg *a)
{
	(void)a;
	for (unsigned n = 0; n < SERVER_CHANGES; n++) {
		switch (n % 4) {
		case 0:
			wt_remote_server_rename(rsb, "x/y", "x/z");
			break;
		case 1:
			wt_remote_server_rename(rsb, "x/z", "x/y");
			break;
		case 2:
			wt_remote_server_invalidate(rsb, n % 8 == 2 ? "x" : "x/y");
			break;
		default:
			wt_remote_expire(rsb);
		}
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
}

/* lookup_slow's shape, single-threaded set-up */
static struct dentry *client_lookup(struct dentry *dir, const char *name)
{
	struct qstr q = qname(name);
	struct dentry *d = d_alloc_parallel(dir, &q);
	struct inode *inode = d_inode(dir);

	if (d_flags_load(d) & DCACHE_PAR_LOOKUP) {
		inode->i_op->lookup(inode, d, 0);
		d_lookup_done(d);
	}
	return d;
}

static void remote_setup(void)
{
	rsb = wt_sb_create(w, wt_fs_type_lookup("remote"), "srv");
	wt_remote_server_create(rsb, "x", DIR_MODE);
	wt_remote_server_create(rsb, "x/y", REG_MODE);
	rx = client_lookup(rsb->s_root, "x");
	ry = client_lookup(rx, "y");
	if (!d_inode(rx) || !d_inode(ry))
		fail("remote set-up");
}

static void remote_teardown(void)
{
	dput(ry);
	dput(rx);
	wt_sb_discard(rsb);
}

/* ------------------------------------------------------------------ */

static void run(void (*const bodies[])(struct thread_arg *), unsigned n)
{
	struct thread_arg args[8];
	pthread_t tids[8];

	pthread_barrier_init(&start, NULL, n);
	for (unsigned i = 0; i < n; i++) {
		args[i].id = i + 1;
		args[i].body = bodies[i];
		pthread_create(&tids[i], NULL, thread_main, &args[i]);
	}
	for (unsigned i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	pthread_barrier_destroy(&start);
}

int main(int argc, char **argv)
{
	void (*const dcache_bodies[])(struct thread_arg *) = {
		reader, reader, reader, renamer, shrinker,
	};
	void (*const mount_bodies[])(struct thread_arg *) = {
		walker, walker, walker, mounter,
	};
	void (*const remote_bodies[])(struct thread_arg *) = {
		revalidator, revalidator, revalidator, server,
	};
	struct wt_world_config cfg;

	(void)argc;
	(void)argv;
	wt_world_config_default(&cfg);
	cfg.dcache_buckets = 2;		/* collisions: chains shared by both dirs */
	cfg.mount_buckets = 1;
	w = wt_world_create(&cfg);
	dirs[0] = mk(w->root_mnt->mnt.mnt_root, "a", DIR_MODE);
	dirs[1] = mk(w->root_mnt->mnt.mnt_root, "b", DIR_MODE);
	mp = mk(w->root_mnt->mnt.mnt_root, "mnt", DIR_MODE);
	for (int i = 0; i < NFILES; i++) {
		snprintf(names[i], sizeof(names[i]),
			 i % 2 ? "f%d" : "file-%d-with-a-name-longer-than-inline", i);
		dput(mk(dirs[0], names[i], REG_MODE));
	}
	run(dcache_bodies, sizeof(dcache_bodies) / sizeof(dcache_bodies[0]));
	__atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
	run(mount_bodies, sizeof(mount_bodies) / sizeof(mount_bodies[0]));
	__atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
	remote_setup();
	run(remote_bodies, sizeof(remote_bodies) / sizeof(remote_bodies[0]));
	remote_teardown();
	if (!__atomic_load_n(&validated_hits, __ATOMIC_RELAXED))
		fail("no RCU lookup ever validated: the test tested nothing");
	if (d_mountpoint(mp) || w->mounts->mnt_all_next)
		fail("a mount outlived the mounter");
	dput(mp);
	dput(dirs[1]);
	dput(dirs[0]);
	wt_world_destroy(w);
	printf("walktorture: test_vfs_stress hits=%llu failures=%llu "
	       "violations=%llu %s\n",
	       (unsigned long long)validated_hits, (unsigned long long)failures,
	       (unsigned long long)violations,
	       failures || violations ? "FAIL" : "PASS");
	return failures || violations ? 1 : 0;
}

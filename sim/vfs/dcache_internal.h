/* SPDX-License-Identifier: MIT */
/*
 * What the dcache files share: dcache.c (the objects, the hash chains,
 * positive and negative, references and death), dcache_lookup.c,
 * dcache_move.c and dcache_shrink.c.  The rules (locks, seqs, counts)
 * are in sim/vfs/dcache.h.
 */
#ifndef WT_SIM_VFS_DCACHE_INTERNAL_H
#define WT_SIM_VFS_DCACHE_INTERNAL_H

#include "sim/vfs/internal.h"

/* No dentry tree is deeper than this: a PATH_MAX name has at most 2048
 * components, and d_move cannot make a chain of parents grow unbounded. */
#define WT_DEPTH_MAX		(1u << 16)
/* Rounds of an optimistic seq loop before it gives up or takes the lock. */
#define WT_SEQ_ROUNDS_MAX	16
/* Lookups of one name waiting for each other (d_alloc_parallel). */
#define WT_IN_LOOKUP_ROUNDS_MAX	1024

static inline bool dname_external(const struct dentry *d, const char *name)
{
	return name != d->d_iname;
}

static inline struct external_name *external_name(const char *name)
{
	return container_of(name, struct external_name, name);
}

static inline size_t external_name_size(uint32_t len)
{
	return sizeof(struct external_name) + len + 1;
}

/* dentry_string_cmp: 0 when the first len bytes match.  Stops at the
 * first difference: a name being replaced ends in its NUL, which differs
 * from every byte of a component, so the compare stays in its buffer. */
static inline int dentry_string_cmp(const char *cs, const char *ct,
				    uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (d_name_byte(cs, i) != ct[i])
			return 1;
	return 0;
}

static inline uint32_t d_bucket_of(const struct wt_world *w,
				   const struct dentry *parent, uint32_t hash)
{
	return wt_hash_bucket(parent->wt.id, hash, w->cfg.dcache_buckets);
}

/*
 * d_lock held: every writer of d_flags holds it, so the read is stable;
 * readers load the word without the lock.  Release, so that a reader
 * which sees the new type also sees the d_inode stored before it
 * (__d_set_inode_and_type's smp_store_release).
 */
void d_flags_update(struct dentry *d, unsigned clear, unsigned set);

/* Is rename_lock held for writing by the calling thread?  Then no rename
 * can run and a reader needs no seq loop (and must not wait for it). */
bool rename_lock_mine(const struct wt_world *w);

/* A dentry lets go of its name: the last user of an external name frees
 * it after a grace period, for readers may still be comparing it. */
void d_name_put(struct wt_world *w, struct dentry *d, const char *name);

/*
 * A lockless reader is about to read the bytes of name, d's name as it
 * loaded it: an external name must still be alive.  It is, as long as
 * the reader stayed inside its RCU section since loading the pointer; a
 * reader that trusted a name past its section (or a name freed without a
 * grace period) is reported here, and must then leave the bytes alone.
 */
bool d_name_alive(const struct dentry *d, const char *name,
		  const struct wt_point *p);

/* Rewrite d's inline name (d_move): byte stores readers may see torn,
 * which is what d_seq is for. */
void d_iname_set(struct dentry *d, const char *src, uint32_t len);

/* Under d_lock (writers), or for bookkeeping: the name as it is now. */
bool d_same_name(const struct dentry *d, const struct dentry *parent,
		 const struct qstr *name);

/* Add d at the head of its (new parent, new name) chain.  d's link is
 * stored before the head: a reader that finds d by the head walks on
 * into the chain; a reader already standing on d (d_move) follows the
 * new link into this chain. */
void __d_rehash(struct dentry *d);

/* hlist_bl_del_rcu: unlink d from its chain but keep d's own link, so a
 * reader standing on d walks on (into whatever d links to). */
void __d_unhash(struct dentry *d);

/* Under the parent's d_lock: on and off its children list. */
void d_child_add(struct dentry *parent, struct dentry *d);
void d_child_del(struct dentry *d);

/* A fresh dentry of sb, its own parent, on no list: nobody sees it yet,
 * so plain stores initialise it. */
struct dentry *__d_alloc(struct super_block *sb, const struct qstr *name);

/* A dentry nobody ever saw (d_alloc_parallel lost a race). */
void d_free_unused(struct dentry *d);

/* d_lock held: the kernel's dentry_unlink_inode minus the iput, which
 * the caller does once the lock is dropped.  Returns the inode. */
struct inode *d_make_negative(struct dentry *d);

/* Freed after a grace period: RCU-walk readers may stand on d. */
void d_free(struct dentry *d);

/* The unlisted, dead dentry's last steps: out of its parent's children,
 * its inode dropped, freed.  Returns the parent, whose reference the
 * caller drops (NULL for a root). */
struct dentry *dentry_finish_kill(struct dentry *d);

/* d_lock held, the caller's is the last reference: mark dead (so
 * legitimize_path's lockref_get_not_dead fails) and unhash. */
void dentry_mark_dead(struct dentry *d);

#endif /* WT_SIM_VFS_DCACHE_INTERNAL_H */

/* SPDX-License-Identifier: MIT */
/*
 * The reference resolver: a plain REF-walk over a namespace snapshot
 * (sim/ns.h), the third opinion of the property test.
 *
 * It is deliberately not the walk engine: no seqcounts, no RCU, no
 * references, no retry ladder, no dcache -- it reads facts.  It follows
 * the shape of fs/namei.c closely enough to give the same answers:
 * path_init (absolute names jump to the root, relative ones start at the
 * cwd, scoped lookups use it as the root), link_path_walk (exec permission
 * on every directory searched, `.`, `..` with choose_mountpoint and
 * path_connected, ENOTDIR on a non-directory in mid-path), step_into with
 * traverse_mounts (every mount stacked on a dentry, after `..` too; not
 * at the start), pick_link (40 links, protected_symlinks when asked,
 * absolute bodies jump to the root, magic links jump to their target),
 * the trailing component (LOOKUP_FOLLOW, a trailing slash means follow
 * and LOOKUP_DIRECTORY), and the RESOLVE_* that need no concurrency:
 * LOOKUP_NO_SYMLINKS, LOOKUP_NO_MAGICLINKS, LOOKUP_NO_XDEV,
 * LOOKUP_BENEATH, LOOKUP_IN_ROOT.  LOOKUP_CACHED is ignored (a snapshot
 * has no cache).
 *
 * Not modelled: automount (an uncovered automount point that REF-walk
 * would mount answers -ENOSYS: "cannot say"), remote revalidation (a
 * snapshot is the client's cache), d_manage.
 */
#ifndef WT_CORE_REFWALK_H
#define WT_CORE_REFWALK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/record.h"
#include "sim/ns.h"
#include "sim/vfs/types.h"

struct wt_refwalk_opts {
	const struct cred *cred;	/* NULL: root (CAP_DAC_OVERRIDE) */
	uint64_t root_mnt;		/* 0: the namespace root */
	uint64_t root_dentry;
	uint64_t cwd_mnt;		/* 0: the root */
	uint64_t cwd_dentry;
	unsigned flags;			/* LOOKUP_FOLLOW, LOOKUP_DIRECTORY, scoping */
	bool protected_symlinks;
	bool parent;			/* filename_parentat: stop before the last */
};

struct wt_refwalk_result {
	int error;			/* 0, -errno, -ENOSYS: cannot say */
	struct wt_ident id;		/* the object reached (the parent) */
	unsigned links;			/* symlinks followed */
	/* parent mode: the last component */
	int last_type;			/* LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT */
	char last[256];
};

/* Resolve name over ns.  Returns res->error. */
int wt_refwalk(const struct wt_ns *ns, const char *name,
	       const struct wt_refwalk_opts *opts,
	       struct wt_refwalk_result *res);

#endif /* WT_CORE_REFWALK_H */

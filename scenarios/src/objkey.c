/* SPDX-License-Identifier: MIT */
/*
 * The object key of a walk failure (objkey.h).
 */
#define _GNU_SOURCE	/* asprintf */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scenarios/src/objkey.h"
#include "sim/ns.h"
#include "sim/vfs/types.h"

#define PATH_MAX_DEPTH	64	/* dentries above one, and mounts, at most */
#define PATH_BYTES	1024

/* Prepend "/name" to the path being built backwards in buf[*pos..]. */
static void prepend(char *buf, size_t *pos, const char *name)
{
	size_t n = strlen(name);

	if (n + 1 > *pos)
		return;		/* too deep to show: the tail is kept */
	*pos -= n;
	memcpy(buf + *pos, name, n);
	buf[--*pos] = '/';
}

/*
 * The path of (mnt, dentry) in ns: names up to the mount's root, then on
 * from its mountpoint in its parent, to the namespace's root mount.
 * False when the chain breaks (an unknown object, a detached mount):
 * buf then holds the part that was found.
 */
static bool path_of(const struct wt_ns *ns, uint64_t mnt, uint64_t dentry,
		    char *buf)
{
	size_t pos = PATH_BYTES - 1;
	bool ok = false;	/* until the namespace's root is reached */
	unsigned hops;

	buf[pos] = 0;
	for (hops = 0; hops < PATH_MAX_DEPTH; hops++) {
		const struct wt_mount_fact *m = wt_ns_mount(ns, mnt);
		const struct wt_dentry_fact *d = wt_ns_dentry(ns, dentry);

		if (!m || !d)
			break;
		if (dentry != m->root && d->parent != d->id) {
			prepend(buf, &pos, d->name ? d->name : "?");
			dentry = d->parent;
			continue;
		}
		if (dentry != m->root)	/* a root, not the mount's */
			break;
		if (m->flags & WT_MF_NSROOT) {
			ok = true;
			break;
		}
		if (!(m->flags & WT_MF_ATTACHED) || m->parent == m->id)
			break;
		dentry = m->mountpoint;
		mnt = m->parent;
	}
	if (pos == PATH_BYTES - 1)
		buf[--pos] = '/';
	memmove(buf, buf + pos, PATH_BYTES - pos);
	return ok;
}

static void fs_of(const struct wt_ns *ns, uint64_t sb, char *buf, size_t len)
{
	const struct wt_super_fact *s = wt_ns_super(ns, sb);

	snprintf(buf, len, "%s %s", s && s->type ? s->type : "?",
		 s && s->name ? s->name : "?");
}

static bool listed(json_t *a, const char *id)
{
	size_t i;
	json_t *o;

	json_array_foreach(a, i, o)
		if (!strcmp(json_string_value(json_object_get(o, "id")), id))
			return true;
	return false;
}

static void add(json_t *a, const char *id, const char *path, const char *fs,
		const char *note)
{
	json_array_append_new(a, json_pack("{s:s, s:s?, s:s?, s:s}", "id", id,
					   "path", path, "fs", fs,
					   "note", note));
}

/* The three objects of one step's identity, those not listed yet. */
static void ident_objects(const struct wt_ns *ns, const struct wt_ident *id,
			  json_t *a)
{
	const struct wt_mount_fact *m = wt_ns_mount(ns, id->mnt);
	const struct wt_dentry_fact *d = wt_ns_dentry(ns, id->dentry);
	const struct wt_inode_fact *in = wt_ns_inode(ns, id->inode);
	char key[32], path[PATH_BYTES] = "", fs[160] = "";
	bool ok;

	snprintf(key, sizeof(key), "m%" PRIu64, id->mnt);
	if (id->mnt && !listed(a, key) && json_array_size(a) < WT_OBJKEY_MAX) {
		ok = m && path_of(ns, id->mnt, m->root, path);
		if (m)
			fs_of(ns, m->sb, fs, sizeof(fs));
		add(a, key, m ? path : NULL, m ? fs : NULL,
		    !m ? "mount, not in the history" :
		    !(m->flags & WT_MF_ATTACHED) ? "mount, detached" :
		    ok ? "mount" : "mount, not reachable from /");
	}
	ok = m && path_of(ns, id->mnt, id->dentry, path);
	snprintf(key, sizeof(key), "d%" PRIu64, id->dentry);
	if (id->dentry && !listed(a, key) && json_array_size(a) < WT_OBJKEY_MAX) {
		if (d)
			fs_of(ns, d->sb, fs, sizeof(fs));
		add(a, key, d && m ? path : NULL, d ? fs : NULL,
		    !d ? "dentry, not in the history" :
		    !d->inode ? "negative dentry" :
		    !(d->flags & WT_DF_HASHED) && d->parent != d->id ?
		    "dentry, unhashed" : ok ? "dentry" : "dentry, cut off");
	}
	snprintf(key, sizeof(key), "i%" PRIu64, id->inode);
	if (id->inode && !listed(a, key) && json_array_size(a) < WT_OBJKEY_MAX) {
		if (in)
			fs_of(ns, in->sb, fs, sizeof(fs));
		add(a, key, in && d && m && d->inode == id->inode ? path : NULL,
		    in ? fs : NULL, !in ? "inode, not in the history" :
		    wt_mode_type_name(in->mode));
	}
}

json_t *wt_scn_objects_json(const struct wt_history *h,
			    const struct wt_record *r)
{
	const struct wt_record_attempt *fin = r ? wt_record_final(r) : NULL;
	json_t *a = json_array();
	struct wt_ns *ns;
	uint64_t v;

	if (!h || !fin || !a)
		return a;
	/* the failing instant: the end of the walk, as far as published */
	v = fin->version_end;
	if (v > wt_history_version(h))
		v = wt_history_version(h);
	if (v < wt_history_first(h))
		v = wt_history_first(h);
	ns = wt_ns_create(h, v);
	if (!ns)
		return a;
	for (uint32_t i = 0; i < r->nsteps; i++) {
		ident_objects(ns, &r->steps[i].from, a);
		ident_objects(ns, &r->steps[i].to, a);
	}
	wt_ns_destroy(ns);
	return a;
}

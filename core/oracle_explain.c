/* SPDX-License-Identifier: MIT */
/*
 * The oracle's explanations: a step in words, and the writer steps that
 * touched its objects (for reports: "step 4 lookup 'f' in dentry 7: at
 * v12..v15 'f' is absent; changes: v13 rename ...").  Only called when a
 * walk is rejected: nothing here is on the fast path.
 */
#include <stdio.h>
#include <string.h>

#include "core/oracle_internal.h"
#include "core/paths.h"

#define CHANGES_MAX	4	/* entries listed */
#define LOOKBACK_MAX	256	/* entries searched before the window */

static unsigned long long u(uint64_t v)
{
	return (unsigned long long)v;
}

void oj_describe_step(const struct oj *j, const struct wt_step *s, char *buf,
		      size_t size)
{
	const char *text = wt_step_text(j->r, s);

	if (!text)
		text = "";
	switch (s->kind) {
	case WT_STEP_START:
		snprintf(buf, size, "start '%.40s' at mount %llu dentry %llu",
			 text, u(s->to.mnt), u(s->to.dentry));
		break;
	case WT_STEP_PERMISSION:
		snprintf(buf, size, "permission (exec, answer %d) on dentry %llu inode %llu",
			 s->result, u(s->to.dentry), u(s->to.inode));
		break;
	case WT_STEP_LOOKUP:
		if (s->to.inode)
			snprintf(buf, size, "lookup '%.40s' in dentry %llu (mount %llu) "
				 "-> dentry %llu inode %llu", text, u(s->from.dentry),
				 u(s->from.mnt), u(s->to.dentry), u(s->to.inode));
		else
			snprintf(buf, size, "lookup '%.40s' in dentry %llu (mount %llu) "
				 "-> negative%s", text, u(s->from.dentry),
				 u(s->from.mnt), s->result ? " (error)" : "");
		break;
	case WT_STEP_MOUNT:
		snprintf(buf, size, "mount crossing at mount %llu dentry %llu -> mount %llu",
			 u(s->from.mnt), u(s->from.dentry), u(s->to.mnt));
		break;
	case WT_STEP_MOUNT_UP:
		snprintf(buf, size, "`..` up from mount %llu to mount %llu dentry %llu",
			 u(s->from.mnt), u(s->to.mnt), u(s->to.dentry));
		break;
	case WT_STEP_DOTDOT:
		snprintf(buf, size, "`..` from dentry %llu %s dentry %llu (mount %llu)",
			 u(s->from.dentry), s->arg == 1 ? "stays at" : "to",
			 u(s->to.dentry), u(s->to.mnt));
		break;
	case WT_STEP_LINK:
		snprintf(buf, size, "link body '%.40s' of inode %llu", text,
			 u(s->from.inode));
		break;
	case WT_STEP_JUMP:
		snprintf(buf, size, "%s to mount %llu dentry %llu",
			 s->arg ? "magic jump" : "jump to the root",
			 u(s->to.mnt), u(s->to.dentry));
		break;
	case WT_STEP_AUTOMOUNT:
		snprintf(buf, size, "automount at dentry %llu (answer %d)",
			 u(s->from.dentry), s->result);
		break;
	case WT_STEP_CREATE:
		snprintf(buf, size, "create '%.40s' in dentry %llu -> dentry %llu",
			 text, u(s->from.dentry), u(s->to.dentry));
		break;
	case WT_STEP_FALLBACK:
		snprintf(buf, size, "fallback %s (seq %u, first %u, read %u, "
			 "dentry %llu)", s->arg < WT_PATH__COUNT ?
			 wt_path_info(s->arg)->name : "?", s->dep_seq,
			 s->seq_birth, s->seq_now, u(s->to.dentry));
		break;
	default:
		snprintf(buf, size, "%s (answer %d) at mount %llu dentry %llu",
			 wt_step_kind_name(s->kind), s->result, u(s->to.mnt),
			 u(s->to.dentry));
		break;
	}
}

/* Does the entry touch one of the step's objects (or a child of its
 * directory)? */
static bool touches(const struct wt_hist_entry *e, const struct wt_step *s)
{
	const uint64_t ids[] = { s->from.dentry, s->to.dentry, s->from.inode,
				 s->to.inode, s->from.mnt, s->to.mnt };

	for (uint32_t i = 0; i < e->nfacts; i++) {
		const struct wt_fact *f = &e->facts[i];
		uint64_t id = wt_fact_id(f);

		if (f->kind == WT_FACT_DENTRY && s->from.dentry &&
		    f->d.parent == s->from.dentry)
			return true;
		if (f->kind == WT_FACT_MOUNT && s->from.dentry &&
		    f->m.mountpoint == s->from.dentry)
			return true;
		for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++)
			if (ids[k] && ids[k] == id)
				return true;
	}
	return false;
}

static size_t add_entry(char *buf, size_t size, size_t n,
			const struct wt_hist_entry *e, bool first)
{
	int w = snprintf(buf + n, size - n, "%sv%llu %s(%s)", first ? "" : ", ",
			 u(e->version), e->op ? e->op : "?",
			 e->args ? e->args : "");

	if (w < 0)
		return n;
	return n + (size_t)w < size ? n + (size_t)w : size - 1;
}

void oj_describe_changes(const struct oj *j, const struct wt_step *s,
			 uint64_t from, uint64_t to, char *buf, size_t size)
{
	const struct wt_history *h = j->o->h;
	size_t n = strlen(buf);
	unsigned listed = 0;

	if (!h || n + 1 >= size)
		return;
	for (uint64_t v = from + 1; v <= to && listed <= CHANGES_MAX; v++) {
		const struct wt_hist_entry *e = wt_history_entry(h, v);

		if (!e || !touches(e, s))
			continue;
		if (listed == CHANGES_MAX) {
			snprintf(buf + n, size - n, ", ...");
			return;
		}
		if (!listed)
			n += (size_t)snprintf(buf + n, size - n, "; changes in the window: ");
		if (n >= size)
			return;
		n = add_entry(buf, size, n, e, listed == 0);
		listed++;
	}
	/* and when did they change last before the window? */
	for (uint64_t v = from, k = 0; v > wt_history_first(h) && k < LOOKBACK_MAX;
	     v--, k++) {
		const struct wt_hist_entry *e = wt_history_entry(h, v);

		if (!e || !touches(e, s))
			continue;
		n += (size_t)snprintf(buf + n, size - n, "; last change before: ");
		if (n < size)
			add_entry(buf, size, n, e, true);
		return;
	}
}

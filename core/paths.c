/* SPDX-License-Identifier: MIT */
/* The exit-path catalogue: the static table and the counter helpers. */
#include <assert.h>
#include <string.h>

#include "core/paths.h"

static const struct wt_path_info path_table[WT_PATH__COUNT] = {
#define WT_PATH_ENTRY(id, name_, group_, kind_, desc_)			\
	[WT_PATH_##id] = { .name = (name_), .group = (group_),		\
			   .kind = WT_PATH_KIND_##kind_, .desc = (desc_) },
	WT_PATH_LIST(WT_PATH_ENTRY)
#undef WT_PATH_ENTRY
};

static const char *const unreachable[WT_PATH__COUNT] = {
#define WT_PATH_UNREACHABLE_ENTRY(id, why) [WT_PATH_##id] = (why),
	WT_PATH_UNREACHABLE_LIST(WT_PATH_UNREACHABLE_ENTRY)
#undef WT_PATH_UNREACHABLE_ENTRY
};

static const bool names_seq[WT_PATH__COUNT] = {
#define WT_PATH_NAMES_SEQ_ENTRY(id) [WT_PATH_##id] = true,
	WT_PATH_NAMES_SEQ_LIST(WT_PATH_NAMES_SEQ_ENTRY)
#undef WT_PATH_NAMES_SEQ_ENTRY
};

static const char *const kind_names[WT_PATH_KIND__COUNT] = {
	[WT_PATH_KIND_OUTCOME] = "outcome",
	[WT_PATH_KIND_UNLAZY] = "unlazy",
	[WT_PATH_KIND_RESTART] = "restart",
	[WT_PATH_KIND_CAUSE] = "cause",
	[WT_PATH_KIND_EAGAIN] = "eagain",
	[WT_PATH_KIND_ESTALE] = "estale",
	[WT_PATH_KIND_RETRY] = "retry",
};

const struct wt_path_info *wt_path_info(enum wt_path id)
{
	assert(id < WT_PATH__COUNT);
	return &path_table[id];
}

const char *wt_path_unreachable(enum wt_path id)
{
	return id < WT_PATH__COUNT ? unreachable[id] : NULL;
}

bool wt_path_names_seq(enum wt_path id)
{
	return id < WT_PATH__COUNT && names_seq[id];
}

int wt_path_lookup(const char *name)
{
	for (int i = 0; i < WT_PATH__COUNT; i++)
		if (strcmp(path_table[i].name, name) == 0)
			return i;
	return -1;
}

const char *wt_path_kind_name(enum wt_path_kind kind)
{
	return (unsigned)kind < WT_PATH_KIND__COUNT ? kind_names[kind] : "?";
}

void wt_path_counts_clear(struct wt_path_counts *c)
{
	memset(c, 0, sizeof(*c));
}

void wt_path_counts_add(struct wt_path_counts *sum,
			const struct wt_path_counts *c)
{
	assert(sum != c);
	for (int i = 0; i < WT_PATH__COUNT; i++)
		sum->counts[i] += c->counts[i];
}

uint64_t wt_path_counts_kind(const struct wt_path_counts *c,
			     enum wt_path_kind kind)
{
	uint64_t n = 0;

	for (int i = 0; i < WT_PATH__COUNT; i++)
		if (path_table[i].kind == kind)
			n += c->counts[i];
	return n;
}

/* SPDX-License-Identifier: MIT */
/* Pieces shared by the report and the nightly index (internal to reports/). */
#ifndef WT_REPORTS_RENDER_H
#define WT_REPORTS_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>
#include <sqlite3.h>

/*
 * Exit paths are grouped by their first dotted component: rcu (rcu.ok),
 * unlazy.*, restart.*, eagain.*, estale.*, in that order, then any other
 * prefix (legitimize_mnt.*, ...) alphabetically.
 */
#define WT_PATH_GROUPS_KNOWN 5
extern const char *const wt_path_group_names[WT_PATH_GROUPS_KNOWN];

/* Group rank of a path name: 0..4 for the known prefixes, 5 for others. */
int wt_path_group_rank(const char *name);
/* The group's colour (a CSS colour literal). */
const char *wt_path_group_color(const char *name);

/* Sums of a paths object per known group ([5] = all others), and overall. */
struct wt_path_sums {
	long long group[WT_PATH_GROUPS_KNOWN + 1];
	long long total;
	unsigned taken, listed;	/* paths with a non-zero count / listed */
};

void wt_path_sums(json_t *paths, struct wt_path_sums *s);

/* A (name, count) pair from a counts object, for sorting. */
struct wt_count {
	const char *name;
	long long n;
};

/* The counts of obj as an array (caller frees); by group, then count, then name. */
struct wt_count *wt_counts_by_group(json_t *obj, size_t *n);
/* The counts of obj by count (descending), then name. */
struct wt_count *wt_counts_by_size(json_t *obj, size_t *n);
/* The prefix of a path name up to the first '.', in buf. */
const char *wt_path_prefix(const char *name, char *buf, size_t len);

/* One bar of a horizontal bar chart. */
struct wt_bar {
	const char *label;
	long long value;
	const char *color;
	const char *tip;	/* hover text; NULL = "label: value" */
	const char *group;	/* a group heading drawn before this bar, or NULL */
	long long group_total;
};

/* A bar chart (log scale, exact counts printed) as inline SVG. */
void wt_svg_bars(FILE *f, const char *cls, const struct wt_bar *bars,
		 size_t n, const char *aria_label);

/*
 * A sparkline over n slots (nights, oldest first); present[i] = 0 leaves a
 * gap.  data-points carries the number of points drawn.
 */
void wt_svg_spark(FILE *f, const double *v, const unsigned char *present,
		  size_t n, const char *tip, const char *color);

/* A strip of n squares: 'P' pass, 'F' fail, anything else not run. */
void wt_svg_strip(FILE *f, const char *verdicts, const char *const *tips,
		  size_t n);

/* The timeline of one failure (SVG swimlanes), with its cut message. */
struct wt_timeline_opts {
	unsigned window_events;		/* events shown around the failing one */
	const char *id;			/* a unique id for the SVG (ASCII) */
};

void wt_render_timeline(FILE *f, json_t *failure,
			const struct wt_timeline_opts *o);

/*
 * The report's "Undirected twins" section (twins.c): one row per (twin,
 * target) and how many forced paths happened unforced; nothing when no
 * scenario has a "twin".
 */
void wt_render_twins(FILE *f, json_t *doc);

/* Render OUT/index.html (atomically) from the history database. */
int wt_index_render(sqlite3 *db, const char *db_path, const char *out_dir,
		    char *err, size_t errlen);

#endif /* WT_REPORTS_RENDER_H */

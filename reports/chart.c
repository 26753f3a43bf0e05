/* SPDX-License-Identifier: MIT */
/* Exit-path groups and the small SVG charts: bars, sparklines, verdict strips. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/html.h"
#include "reports/render.h"
#include "reports/results.h"

const char *const wt_path_group_names[WT_PATH_GROUPS_KNOWN] = {
	"rcu", "unlazy", "restart", "eagain", "estale",
};

/* Muted, distinguishable, and the same in the report and the index. */
static const char *const group_colors[WT_PATH_GROUPS_KNOWN + 1] = {
	"#2da44e", "#0969da", "#bc4c00", "#8250df", "#9a6700", "#6e7781",
};

const char *wt_path_prefix(const char *name, char *buf, size_t len)
{
	size_t n = strcspn(name, ".");

	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = 0;
	return buf;
}

int wt_path_group_rank(const char *name)
{
	char prefix[64];

	wt_path_prefix(name, prefix, sizeof(prefix));
	for (int i = 0; i < WT_PATH_GROUPS_KNOWN; i++)
		if (!strcmp(prefix, wt_path_group_names[i]))
			return i;
	return WT_PATH_GROUPS_KNOWN;
}

const char *wt_path_group_color(const char *name)
{
	return group_colors[wt_path_group_rank(name)];
}

void wt_path_sums(json_t *paths, struct wt_path_sums *s)
{
	const char *name;
	json_t *x;

	memset(s, 0, sizeof(*s));
	json_object_foreach(paths, name, x) {
		long long n = json_integer_value(x);

		s->group[wt_path_group_rank(name)] += n;
		s->total += n;
		s->listed++;
		s->taken += n > 0;
	}
}

static int by_group(const void *pa, const void *pb)
{
	const struct wt_count *a = pa, *b = pb;
	int ra = wt_path_group_rank(a->name), rb = wt_path_group_rank(b->name);
	char xa[64], xb[64];
	int c;

	if (ra != rb)
		return ra - rb;
	/* Unknown prefixes: alphabetical by prefix, so each stays together. */
	c = strcmp(wt_path_prefix(a->name, xa, sizeof(xa)),
		   wt_path_prefix(b->name, xb, sizeof(xb)));
	if (c)
		return c;
	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int by_size(const void *pa, const void *pb)
{
	const struct wt_count *a = pa, *b = pb;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return strcmp(a->name, b->name);
}

static struct wt_count *counts_array(json_t *obj, size_t *n)
{
	struct wt_count *v;
	const char *name;
	json_t *x;
	size_t i = 0;

	*n = json_object_size(obj);
	v = calloc(*n ? *n : 1, sizeof(*v));
	if (!v) {
		*n = 0;
		return NULL;
	}
	json_object_foreach(obj, name, x) {
		v[i].name = name;
		v[i].n = json_integer_value(x);
		i++;
	}
	return v;
}

struct wt_count *wt_counts_by_group(json_t *obj, size_t *n)
{
	struct wt_count *v = counts_array(obj, n);

	if (v)
		qsort(v, *n, sizeof(*v), by_group);
	return v;
}

struct wt_count *wt_counts_by_size(json_t *obj, size_t *n)
{
	struct wt_count *v = counts_array(obj, n);

	if (v)
		qsort(v, *n, sizeof(*v), by_size);
	return v;
}

/* Bar chart geometry, in SVG user units (= CSS px at 100%). */
#define BAR_W 600
#define BAR_ROW 14
#define BAR_GROUP_ROW 17
#define BAR_AXIS 16
#define BAR_VALUE_W 64
#define BAR_CHAR_W 6.1

static double log_scale(long long v, long long max, double width)
{
	if (v <= 0 || max <= 0)
		return 0;
	return log10(1.0 + (double)v) / log10(1.0 + (double)max) * width;
}

static const char *tick_label(char *buf, size_t len, long long p)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	int s = 0;

	while (p >= 1000 && s < 4) {
		p /= 1000;
		s++;
	}
	snprintf(buf, len, "%lld%s", p, suffix[s]);
	return buf;
}

static void bars_axis(FILE *f, double x0, double width, long long max,
		      double height)
{
	char buf[32];

	for (long long p = 1; p <= max && p > 0; p *= 10) {
		double x = x0 + log_scale(p, max, width);

		wt_html_printf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" "
			       "stroke=\"#eaeef2\"/><text class=\"mu\" x=\"%.1f\" "
			       "y=\"10\" text-anchor=\"middle\">%s</text>\n",
			       x, BAR_AXIS - 3, x, height, x,
			       tick_label(buf, sizeof(buf), p));
	}
}

static double bars_label_width(const struct wt_bar *bars, size_t n)
{
	double w = 120;

	for (size_t i = 0; i < n; i++) {
		double lw = (double)strlen(bars[i].label) * BAR_CHAR_W + 10;

		if (lw > w)
			w = lw;
	}
	return w > 300 ? 300 : w;
}

static void bar_row(FILE *f, const struct wt_bar *b, double y, double lw,
		    double width, long long max)
{
	double w = log_scale(b->value, max, width);
	char num[40];

	if (b->value > 0 && w < 1.5)
		w = 1.5;
	fputs("<g class=\"bar\"><title>", f);
	if (b->tip)
		wt_html_esc(f, b->tip);
	else
		wt_html_printf(f, "%s: %lld", b->label, b->value);
	wt_html_printf(f, "</title><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" class=\"%s\">%s</text>",
		       lw - 6, y + 10, b->value ? "" : "mu", b->label);
	if (b->value > 0)
		wt_html_printf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			       "height=\"10\" fill=\"%s\"/>", lw, y + 2, w, b->color);
	wt_html_printf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">%s</text></g>\n",
		       lw + w + 4, y + 10, b->value ? "" : "mu",
		       wt_html_count(num, sizeof(num), b->value));
}

void wt_svg_bars(FILE *f, const char *cls, const struct wt_bar *bars,
		 size_t n, const char *aria_label)
{
	double lw = bars_label_width(bars, n);
	double width = BAR_W - lw - BAR_VALUE_W;
	long long max = 0;
	double h = BAR_AXIS, y;
	char num[40];

	for (size_t i = 0; i < n; i++) {
		if (bars[i].value > max)
			max = bars[i].value;
		h += BAR_ROW + (bars[i].group ? BAR_GROUP_ROW : 0);
	}
	h += 4;
	wt_html_printf(f, "<svg class=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
		       "viewBox=\"0 0 %d %.0f\" width=\"%d\" height=\"%.0f\" "
		       "role=\"img\" aria-label=\"%s\">\n",
		       cls, BAR_W, h, BAR_W, h, aria_label);
	bars_axis(f, lw, width, max, h);
	y = BAR_AXIS;
	for (size_t i = 0; i < n; i++) {
		if (bars[i].group) {
			wt_html_printf(f, "<text class=\"lbl\" x=\"0\" y=\"%.1f\" "
				       "fill=\"%s\" style=\"fill:%s;font-weight:700\">"
				       "%s <tspan class=\"mu\">%s</tspan></text>\n",
				       y + 13, bars[i].color, bars[i].color,
				       bars[i].group,
				       wt_html_count(num, sizeof(num),
						     bars[i].group_total));
			y += BAR_GROUP_ROW;
		}
		bar_row(f, &bars[i], y, lw, width, max);
		y += BAR_ROW;
	}
	fputs("</svg>\n", f);
}

#define SPARK_W 72
#define SPARK_H 18

void wt_svg_spark(FILE *f, const double *v, const unsigned char *present,
		  size_t n, const char *tip, const char *color)
{
	double lo = INFINITY, hi = -INFINITY, step, x = 0, y = 0;
	size_t points = 0;
	int open = 0;

	for (size_t i = 0; i < n; i++) {
		if (!present[i])
			continue;
		points++;
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	step = n > 1 ? (SPARK_W - 6.0) / (double)(n - 1) : 0;
	wt_html_printf(f, "<svg class=\"spark\" xmlns=\"http://www.w3.org/2000/svg\" "
		       "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		       "data-points=\"%zu\"><title>%s</title>",
		       SPARK_W, SPARK_H, SPARK_W, SPARK_H, points, tip);
	wt_html_printf(f, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eaeef2\"/>",
		       SPARK_H - 2, SPARK_W, SPARK_H - 2);
	for (size_t i = 0; i < n; i++) {
		if (!present[i]) {
			if (open)
				fputs("\"/>", f);
			open = 0;
			continue;
		}
		x = n > 1 ? 3 + step * (double)i : SPARK_W / 2.0;
		/* A flat line: on the baseline if it is all zeros, else mid-height. */
		y = hi > lo ? (SPARK_H - 3) - (v[i] - lo) / (hi - lo) * (SPARK_H - 6) :
		    hi == 0 ? SPARK_H - 3 : SPARK_H / 2.0;
		if (!open)
			wt_html_printf(f, "<polyline fill=\"none\" stroke=\"%s\" "
				       "stroke-width=\"1.3\" points=\"", color);
		wt_html_printf(f, "%s%.1f,%.1f", open ? " " : "", x, y);
		open = 1;
	}
	if (open)
		fputs("\"/>", f);
	if (points)
		wt_html_printf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"/>",
			       x, y, color);
	fputs("</svg>", f);
}

/* At most STRIP_W wide: 30 nights get thin bars, a few nights squares. */
#define STRIP_W 90.0
#define STRIP_CELL_MAX 8.0

void wt_svg_strip(FILE *f, const char *verdicts, const char *const *tips,
		  size_t n)
{
	double cell = n ? STRIP_W / (double)n : STRIP_CELL_MAX, w;

	if (cell > STRIP_CELL_MAX)
		cell = STRIP_CELL_MAX;
	w = cell * (double)(n ? n : 1);
	wt_html_printf(f, "<svg class=\"spark strip\" xmlns=\"http://www.w3.org/2000/svg\" "
		       "viewBox=\"0 0 %.1f 14\" width=\"%.0f\" height=\"14\" "
		       "data-nights=\"%zu\">", w, w, n);
	for (size_t i = 0; i < n; i++) {
		const char *fill = verdicts[i] == 'P' ? "#2da44e" :
				   verdicts[i] == 'F' ? "#cf222e" : "#d8dee4";

		wt_html_printf(f, "<rect x=\"%.2f\" y=\"1\" width=\"%.2f\" height=\"12\" "
			       "fill=\"%s\"><title>%s</title></rect>",
			       (double)i * cell, cell > 3 ? cell - 1 : cell - 0.5, fill, tips[i]);
	}
	fputs("</svg>", f);
}

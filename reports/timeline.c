/* SPDX-License-Identifier: MIT */
/*
 * The failure timeline: one swimlane per simulated thread (trace.threads),
 * every event of a window around the failing one on a shared time axis
 * (trace events' t).  Point events are ticks coloured by kind, writer
 * operations (events with "op") are labelled blocks, the walk's steps are
 * numbered dots; the failing event gets a red rule across every lane and
 * the failing step a red dot.  Each mark has a <title> with its index,
 * time, thread, point, kind, site and step.
 *
 * The decisive event is the read the race made stale: the failing
 * thread's last seq read (or, with none, its last load) after which
 * another thread wrote (a seq.write or a store) before the failing event.
 * A lockless walk trusts what it sampled there; the write that followed
 * is what its missing or misplaced recheck failed to see.  It gets an
 * amber ring and is named under the timeline.
 */
#include <math.h>
#include <string.h>

#include "reports/html.h"
#include "reports/render.h"
#include "reports/results.h"

#define TL_W 1240
#define TL_AXIS 30		/* axis and the failing-event label above the lanes */
#define TL_LANE 36
#define TL_PAD 8
#define TL_CHAR_W 6.1
#define TL_LABEL_CHARS 30
#define TL_DEFAULT_WINDOW 500

/* Everything the drawing needs, computed once. */
struct tl {
	json_t *fl, *events, *threads;
	long long first, total, failing;	/* failing: whole-trace index or -1 */
	long long fail_step;			/* walk step index or -1 */
	long long decisive, decisive_write;	/* events[] indices or -1 */
	size_t lo, hi;				/* window [lo, hi) in events[] */
	double tmin, tmax, x0, x1;
	double height;
};

static const char *kind_color(const char *kind)
{
	static const struct { const char *prefix, *color; } map[] = {
		{ "seq", "#0969da" }, { "rcu", "#2da44e" }, { "lock", "#57606a" },
		{ "spin", "#57606a" }, { "mutex", "#57606a" },
		{ "ref", "#8250df" }, { "lockref", "#8250df" }, { "mnt", "#8250df" },
		{ "load", "#1b7c83" }, { "store", "#1b7c83" },
		{ "alloc", "#9a6700" }, { "hash", "#6639ba" },
	};
	char prefix[32];

	if (!kind)
		return "#6e7781";
	wt_path_prefix(kind, prefix, sizeof(prefix));
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(prefix, map[i].prefix))
			return map[i].color;
	return "#6e7781";
}

/* The window: centred on the failing event, else the trace's end. */
static void tl_window(struct tl *t, unsigned window)
{
	size_t n = json_array_size(t->events);
	long long rel = t->failing - t->first;
	size_t centre = n;

	if (t->failing >= 0 && rel >= 0 && (size_t)rel < n)
		centre = (size_t)rel;
	t->lo = 0;
	t->hi = n;
	if (n <= window)
		return;
	t->lo = centre > window / 2 ? centre - window / 2 : 0;
	t->hi = t->lo + window;
	if (t->hi > n) {
		t->hi = n;
		t->lo = n - window;
	}
}

static double ev_t(struct tl *t, size_t i)
{
	return wt_json_num(json_array_get(t->events, i), "t", 0);
}

static double tl_x(struct tl *t, size_t i)
{
	if (t->tmax > t->tmin)
		return t->x0 + (ev_t(t, i) - t->tmin) / (t->tmax - t->tmin) *
			       (t->x1 - t->x0);
	/* Every event at one instant: spread them out in order. */
	if (t->hi - t->lo <= 1)
		return (t->x0 + t->x1) / 2;
	return t->x0 + (double)(i - t->lo) / (double)(t->hi - t->lo - 1) *
		       (t->x1 - t->x0);
}

static int ev_is(json_t *ev, const char *kind)
{
	const char *k = wt_json_str(ev, "kind");

	return k && !strcmp(k, kind);
}

/* The lane of the failing thread: the failure's thread, else the failing
 * event's; -1 when neither is known. */
static long long tl_fail_thread(struct tl *t, long long rel)
{
	const char *name = wt_json_str(t->fl, "thread");
	json_t *tn;
	size_t k;

	json_array_foreach(t->threads, k, tn)
		if (name && json_is_string(tn) && !strcmp(name, json_string_value(tn)))
			return (long long)k;
	if (rel >= 0 && (size_t)rel < json_array_size(t->events))
		return wt_json_int(json_array_get(t->events, (size_t)rel), "thread", -1);
	return -1;
}

/*
 * Walk back from the failing event, remembering the earliest foreign
 * write seen so far; the first read of the failing thread met with such a
 * write after it is the decisive one.  A seq read is preferred to a plain
 * load: it is the sample a recheck compares against.
 */
static void tl_decisive(struct tl *t)
{
	long long rel = t->failing - t->first, n = (long long)json_array_size(t->events);
	long long fth = tl_fail_thread(t, rel), write = -1, load = -1, load_write = -1;

	t->decisive = t->decisive_write = -1;
	if (t->failing < 0 || rel <= 0 || rel >= n || fth < 0)
		return;
	for (long long i = rel - 1; i >= 0; i--) {
		json_t *ev = json_array_get(t->events, (size_t)i);

		if (wt_json_int(ev, "thread", -1) != fth) {
			if (ev_is(ev, "seq.write") || ev_is(ev, "store"))
				write = i;
			continue;
		}
		if (write < 0)
			continue;
		if (ev_is(ev, "seq.read")) {
			t->decisive = i;
			t->decisive_write = write;
			return;
		}
		if (load < 0 && ev_is(ev, "load")) {
			load = i;
			load_write = write;
		}
	}
	t->decisive = load;
	t->decisive_write = load_write;
}

static void tl_setup(struct tl *t, json_t *fl, unsigned window)
{
	json_t *tr = json_object_get(fl, "trace");
	size_t longest = 8, i;
	json_t *name;

	memset(t, 0, sizeof(*t));
	t->fl = fl;
	t->events = json_object_get(tr, "events");
	t->threads = json_object_get(tr, "threads");
	t->first = wt_json_int(tr, "first_index", 0);
	t->total = wt_json_int(tr, "total_events", 0);
	t->failing = wt_json_int(tr, "failing_event", -1);
	t->fail_step = wt_json_int(fl, "step", -1);
	tl_decisive(t);
	tl_window(t, window);
	if (t->hi > t->lo) {
		t->tmin = ev_t(t, t->lo);
		t->tmax = ev_t(t, t->hi - 1);
	}
	json_array_foreach(t->threads, i, name)
		if (strlen(json_string_value(name)) > longest)
			longest = strlen(json_string_value(name));
	if (longest > 22)
		longest = 22;
	t->x0 = (double)longest * TL_CHAR_W + 26;
	t->x1 = TL_W - 14;
	t->height = TL_AXIS + (double)json_array_size(t->threads) * TL_LANE + TL_PAD;
}

static void tl_cut_message(FILE *f, struct tl *t, json_t *tr)
{
	long long shown = (long long)(t->hi - t->lo);
	long long dropped = wt_json_int(tr, "dropped", 0);

	if (shown < t->total)
		wt_html_printf(f, "<p class=\"cut\">showing events %lld\u2013%lld of %lld; "
			       "%lld not shown", t->first + (long long)t->lo,
			       t->first + (long long)t->hi - 1, t->total,
			       t->total - shown);
	else
		wt_html_printf(f, "<p class=\"mu\">all %lld events", t->total);
	if (dropped)
		wt_html_printf(f, "; %lld more dropped by the trace ring", dropped);
	if (t->failing >= 0 && (t->failing < t->first + (long long)t->lo ||
				t->failing >= t->first + (long long)t->hi))
		wt_html_printf(f, "; the failing event #%lld is outside the "
			       "recorded window", t->failing);
	fputs("</p>\n", f);
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for about 10 ticks. */
static double tick_step(double range)
{
	double raw = range / 10, p = pow(10, floor(log10(raw)));

	if (raw / p >= 5)
		return 5 * p;
	if (raw / p >= 2)
		return 2 * p;
	return p;
}

static void tl_axis(FILE *f, struct tl *t, const char *unit)
{
	double y = TL_AXIS - 4, bottom = t->height - TL_PAD;

	wt_html_printf(f, "<text class=\"mu\" x=\"4\" y=\"%.0f\">t (%s)</text>\n",
		       y - 4, unit ? unit : "virtual");
	wt_html_printf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
		       "stroke=\"#8c959f\"/>\n", t->x0, y, t->x1, y);
	if (!(t->tmax > t->tmin))
		return;
	double step = tick_step(t->tmax - t->tmin);
	double v0 = ceil(t->tmin / step) * step;

	/* About ten ticks by construction of step; counted, not added up:
	 * at extreme times v + step == v, and the sum would never end. */
	for (int k = 0; k < 25; k++) {
		double v = v0 + k * step;

		if (!(v <= t->tmax))
			break;
		double x = t->x0 + (v - t->tmin) / (t->tmax - t->tmin) * (t->x1 - t->x0);

		wt_html_printf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
			       "stroke=\"#f0f2f4\"/><text class=\"mu\" x=\"%.1f\" "
			       "y=\"%.0f\" text-anchor=\"middle\">%g</text>\n",
			       x, y, x, bottom, x, y - 4, v);
	}
}

/* The hover text of one event. */
static void ev_title(FILE *f, struct tl *t, size_t i, json_t *ev)
{
	json_t *tn = json_array_get(t->threads, (size_t)wt_json_int(ev, "thread", 0));
	const char *op = wt_json_str(ev, "op"), *point = wt_json_str(ev, "point");
	const char *kind = wt_json_str(ev, "kind"), *site = wt_json_str(ev, "site");
	long long step = wt_json_int(ev, "step", -1);

	wt_html_printf(f, "<title>#%lld t=%g %s", t->first + (long long)i,
		       wt_json_num(ev, "t", 0), json_string_value(tn));
	if (op)
		wt_html_printf(f, " \u00b7 op: %s", op);
	if (point)
		wt_html_printf(f, " \u00b7 %s", point);
	if (kind)
		wt_html_printf(f, " (%s)", kind);
	if (site)
		wt_html_printf(f, " \u00b7 %s", site);
	if (step >= 0)
		wt_html_printf(f, " \u00b7 walk step %lld%s", step,
			       step == t->fail_step ? " (failing step)" : "");
	if (t->first + (long long)i == t->failing)
		fputs(" \u00b7 FAILING EVENT", f);
	if ((long long)i == t->decisive)
		fputs(" \u00b7 DECISIVE EVENT (the read another thread's "
		      "write then made stale)", f);
	fputs("</title>", f);
}

/* A short label, cut to TL_LABEL_CHARS bytes (on a UTF-8 boundary). */
static void short_label(FILE *f, const char *s)
{
	char buf[TL_LABEL_CHARS + 4];
	size_t n = strlen(s);

	if (n <= TL_LABEL_CHARS) {
		wt_html_esc(f, s);
		return;
	}
	n = TL_LABEL_CHARS - 1;
	while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	memcpy(buf, s, n);
	strcpy(buf + n, "\u2026");
	wt_html_esc(f, buf);
}

static void ev_label(FILE *f, struct tl *t, double x, double mid, const char *op,
		     long long step, double *label_end)
{
	int failstep = !op && step == t->fail_step;

	if (x < *label_end)
		return;
	wt_html_printf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"%s\">", x + 5,
		       mid - 8, failstep ? "failstep" : "");
	if (op)
		short_label(f, op);
	else
		wt_html_printf(f, "%lld", step);
	fputs("</text>", f);
	*label_end = x + 9 + TL_CHAR_W *
		     (op ? (double)(strlen(op) < TL_LABEL_CHARS ?
				    strlen(op) : TL_LABEL_CHARS) :
			   log10((double)step + 1) + 1);
}

/*
 * op_start: the event begins an operation (its "op" differs from the
 * previous event of its thread; real traces name the running op on every
 * event, so only the change is a block).
 */
static void ev_mark(FILE *f, struct tl *t, size_t i, double mid, int op_start,
		    double *label_end)
{
	json_t *ev = json_array_get(t->events, i);
	const char *op = op_start ? wt_json_str(ev, "op") : NULL;
	long long step = wt_json_int(ev, "step", -1);
	int failing = t->first + (long long)i == t->failing;
	int failstep = step >= 0 && step == t->fail_step;
	int decisive = (long long)i == t->decisive;
	double x = tl_x(t, i);

	wt_html_printf(f, "<g class=\"ev%s%s%s%s\" data-index=\"%lld\">",
		       op ? " op" : "", step >= 0 ? " step" : "",
		       failing ? " failing" : "", decisive ? " decisive" : "",
		       t->first + (long long)i);
	ev_title(f, t, i, ev);
	if (decisive)
		wt_html_printf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7.5\" fill=\"#fff8c5\" "
			       "stroke=\"#bf8700\" stroke-width=\"2\"/>", x, mid);
	if (failing)
		wt_html_printf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7.5\" fill=\"#fff1f0\" "
			       "stroke=\"#cf222e\" stroke-width=\"2\"/>", x, mid);
	if (op)
		wt_html_printf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"14\" "
			       "rx=\"1\" fill=\"#d4660b\"/>", x - 3.5, mid - 7);
	else if (step >= 0)
		wt_html_printf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>",
			       x, mid, failstep ? "#cf222e" : "#1f2328");
	else
		wt_html_printf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			       "stroke=\"%s\" stroke-width=\"1.5\"/>", x, mid - 6, x,
			       mid + 6, kind_color(wt_json_str(ev, "kind")));
	if (op || step >= 0)
		ev_label(f, t, x, mid, op, step, label_end);
	fputs("</g>\n", f);
}

static size_t ev_thread(struct tl *t, size_t i)
{
	return (size_t)wt_json_int(json_array_get(t->events, i), "thread", 0);
}

static const char *ev_op(struct tl *t, size_t i)
{
	return wt_json_str(json_array_get(t->events, i), "op");
}

static int same_op(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* A faint bar under the events [a, b] of lane k that ran one operation. */
static void op_bar(FILE *f, struct tl *t, size_t a, size_t b, double mid)
{
	double x = tl_x(t, a), w = tl_x(t, b) - x;

	wt_html_printf(f, "<rect class=\"opbar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		       "height=\"10\" fill=\"#d4660b\" fill-opacity=\"0.13\"><title>op: %s "
		       "(events #%lld\u2013#%lld)</title></rect>\n", x, mid - 5, w > 1 ? w : 1,
		       ev_op(t, a), t->first + (long long)a, t->first + (long long)b);
}

/* The bars of every run of one op in lane k, drawn before its marks. */
static void tl_op_bars(FILE *f, struct tl *t, size_t k, double mid)
{
	size_t start = 0, last = 0;
	const char *op = NULL;

	for (size_t i = t->lo; i < t->hi; i++) {
		if (ev_thread(t, i) != k)
			continue;
		if (op && same_op(op, ev_op(t, i))) {
			last = i;
			continue;
		}
		if (op && last > start)
			op_bar(f, t, start, last, mid);
		op = ev_op(t, i);
		start = last = i;
	}
	if (op && last > start)
		op_bar(f, t, start, last, mid);
}

static void tl_lane(FILE *f, struct tl *t, size_t k, const char *culprit)
{
	const char *name = json_string_value(json_array_get(t->threads, k));
	double top = TL_AXIS + (double)k * TL_LANE, mid = top + TL_LANE / 2.0 + 3;
	int is_culprit = culprit && !strcmp(culprit, name);
	double label_end = -1;
	const char *prev = NULL;

	wt_html_printf(f, "<g class=\"lane\" data-thread=\"%s\" data-lane=\"%zu\">\n",
		       name, k);
	wt_html_printf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		       "stroke=\"#d8dee4\"/>", t->x0, mid, t->x1, mid);
	wt_html_printf(f, "<text class=\"lbl%s\" x=\"4\" y=\"%.1f\"><title>%s</title>",
		       is_culprit ? " culprit" : "", mid + 4, name);
	short_label(f, name);
	fputs("</text>\n", f);
	tl_op_bars(f, t, k, mid);
	for (size_t i = t->lo; i < t->hi; i++) {
		const char *op;

		if (ev_thread(t, i) != k)
			continue;
		op = ev_op(t, i);
		ev_mark(f, t, i, mid, op && !same_op(op, prev), &label_end);
		prev = op;
	}
	fputs("</g>\n", f);
}

/* Lane backgrounds go first, so the time grid and the marks lie on top. */
static void tl_lane_backgrounds(FILE *f, struct tl *t)
{
	for (size_t k = 0; k < json_array_size(t->threads); k++)
		wt_html_printf(f, "<rect x=\"0\" y=\"%.0f\" width=\"%d\" height=\"%d\" "
			       "fill=\"%s\"/>\n", TL_AXIS + (double)k * TL_LANE,
			       TL_W, TL_LANE, k % 2 ? "#ffffff" : "#f6f8fa");
}

static void tl_failing_rule(FILE *f, struct tl *t)
{
	long long rel = t->failing - t->first;
	const char *point;
	double x;

	if (t->failing < 0 || rel < (long long)t->lo || rel >= (long long)t->hi)
		return;
	x = tl_x(t, (size_t)rel);
	point = wt_json_str(json_array_get(t->events, (size_t)rel), "point");
	/* Right half: label to the left of the rule, so it stays on the page. */
	wt_html_printf(f, "<g class=\"failing-rule\"><line x1=\"%.1f\" y1=\"%d\" "
		       "x2=\"%.1f\" y2=\"%.0f\" stroke=\"#cf222e\" stroke-width=\"1.2\" "
		       "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" "
		       "text-anchor=\"%s\" class=\"failstep\">failing event #%lld %s</text></g>\n",
		       x, TL_AXIS - 4, x, t->height - TL_PAD,
		       x > TL_W / 2 ? x - 4 : x + 4, 9,
		       x > TL_W / 2 ? "end" : "start", t->failing, point ? point : "");
}

/* Name the decisive event and the write that made it stale, in words. */
static void tl_decisive_line(FILE *f, struct tl *t)
{
	json_t *rd, *wr;

	if (t->decisive < 0)
		return;
	rd = json_array_get(t->events, (size_t)t->decisive);
	wr = json_array_get(t->events, (size_t)t->decisive_write);
	wt_html_printf(f, "<p class=\"decisive\" data-index=\"%lld\" "
		       "data-write=\"%lld\">decisive event #%lld: %s read %s (%s) at %s; "
		       "then #%lld: %s wrote %s (%s), before the failing event #%lld</p>\n",
		       t->first + t->decisive, t->first + t->decisive_write,
		       t->first + t->decisive,
		       json_string_value(json_array_get(t->threads,
			       (size_t)wt_json_int(rd, "thread", 0))),
		       wt_json_str(rd, "point"), wt_json_str(rd, "kind"),
		       wt_json_str(rd, "site") ? wt_json_str(rd, "site") : "?",
		       t->first + t->decisive_write,
		       json_string_value(json_array_get(t->threads,
			       (size_t)wt_json_int(wr, "thread", 0))),
		       wt_json_str(wr, "point"), wt_json_str(wr, "kind"), t->failing);
}

static void tl_legend(FILE *f)
{
	fputs("<div class=\"legend\">"
	      "<i style=\"background:#d4660b\"></i>writer operation"
	      "<i style=\"background:#1f2328;border-radius:50%\"></i>walk step"
	      "<i style=\"background:#cf222e;border-radius:50%\"></i>failing step"
	      "<i style=\"border:2px solid #cf222e;border-radius:50%\"></i>failing event"
	      "<i style=\"border:2px solid #bf8700;border-radius:50%\"></i>decisive event"
	      " \u00a0 point events by kind:"
	      "<i style=\"background:#0969da\"></i>seq"
	      "<i style=\"background:#2da44e\"></i>rcu"
	      "<i style=\"background:#57606a\"></i>lock"
	      "<i style=\"background:#8250df\"></i>ref/mnt"
	      "<i style=\"background:#1b7c83\"></i>load/store"
	      "<i style=\"background:#9a6700\"></i>alloc"
	      "<i style=\"background:#6e7781\"></i>other"
	      " \u00a0 (hover a mark for its point and site)</div>\n", f);
}

void wt_render_timeline(FILE *f, json_t *fl, const struct wt_timeline_opts *o)
{
	json_t *tr = json_object_get(fl, "trace");
	unsigned window = o->window_events ? o->window_events : TL_DEFAULT_WINDOW;
	struct tl t;

	if (!json_is_object(tr)) {
		fputs("<p class=\"mu\">no trace recorded for this failure</p>\n", f);
		return;
	}
	tl_setup(&t, fl, window);
	tl_cut_message(f, &t, tr);
	wt_html_printf(f, "<svg class=\"timeline\" id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
		       "viewBox=\"0 0 %d %.0f\" width=\"%d\" height=\"%.0f\" "
		       "data-lanes=\"%zu\" data-events=\"%zu\" data-first=\"%lld\" "
		       "data-total=\"%lld\" role=\"img\" aria-label=\"timeline\">\n",
		       o->id, TL_W, t.height, TL_W, t.height,
		       json_array_size(t.threads), t.hi - t.lo,
		       t.first + (long long)t.lo, t.total);
	tl_lane_backgrounds(f, &t);
	tl_axis(f, &t, wt_json_str(tr, "time_unit"));
	for (size_t k = 0; k < json_array_size(t.threads); k++)
		tl_lane(f, &t, k, wt_json_str(fl, "thread"));
	tl_failing_rule(f, &t);
	fputs("</svg>\n", f);
	tl_decisive_line(f, &t);
	tl_legend(f);
}

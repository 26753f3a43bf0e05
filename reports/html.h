/* SPDX-License-Identifier: MIT */
/*
 * HTML output for the report and the nightly index.
 *
 * Every string that comes from a results file is arbitrary text (scenario
 * names, paths, messages, point names): it reaches the page only through
 * wt_html_printf()'s %s or wt_html_esc(), which escape for HTML text *and*
 * attribute contexts alike (& < > " '), inside SVG as well.  The only raw
 * markup is the format strings themselves, which are literals.
 */
#ifndef WT_REPORTS_HTML_H
#define WT_REPORTS_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Write s escaped for HTML text and quoted attribute values; NULL writes nothing. */
void wt_html_esc(FILE *f, const char *s);

/*
 * Write s as a relative URL inside a quoted attribute: every byte outside
 * [A-Za-z0-9-._~/#] is percent-encoded, so no scheme (':'), no quote and no
 * markup can survive.
 */
void wt_html_url(FILE *f, const char *s);

/*
 * printf for HTML: the format is trusted markup, and every %s argument is
 * escaped with wt_html_esc().  Supported conversions: %s %c %d %u %ld %lu
 * %lld %llu %zu %x %% and %f/%g with an optional precision (%.1f).
 */
void wt_html_printf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The page head (doctype, charset, title, the shared inline stylesheet). */
void wt_html_begin(FILE *f, const char *title);
/* The footer line, the page's one script (copy buttons) and </html>. */
void wt_html_end(FILE *f);

/* Format a count with thin grouping: 12345678 -> "12,345,678". */
const char *wt_html_count(char *buf, size_t len, long long n);

#endif /* WT_REPORTS_HTML_H */

/* SPDX-License-Identifier: MIT */
/*
 * A strict little HTML checker for the report tests (no new dependency).
 *
 * It accepts exactly the shape the reports emit and rejects anything an
 * escaping mistake would produce: every element closed in order (void
 * elements never closed, "/>" only inside <svg>), attribute values always
 * double-quoted with no raw < > " inside, no raw < or > in text, every &
 * starting an entity, <script>/<style> raw text closed.  It builds a flat
 * element list (with parents and descendant ranges) for queries.
 */
#ifndef WT_TEST_REPORT_HTML_H
#define WT_TEST_REPORT_HTML_H

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HT_MAX_ATTRS 16

struct ht_attr {
	char name[32];
	char *value;		/* decoded */
};

struct ht_node {
	char tag[16];
	int parent;		/* index, -1 for top level */
	size_t last;		/* index of the last descendant (== own index if none) */
	size_t content, content_end;	/* byte range of the content in the source */
	int nattrs;
	struct ht_attr attrs[HT_MAX_ATTRS];
};

struct ht_doc {
	const char *src;
	struct ht_node *nodes;
	size_t n, cap;
	char err[256];
};

static const char *const ht_void[] = {
	"meta", "link", "br", "hr", "img", "input", "col", "wbr", "area",
	"base", "source", NULL };

__attribute__((unused)) static int ht_is_void(const char *tag)
{
	for (int i = 0; ht_void[i]; i++)
		if (!strcmp(tag, ht_void[i]))
			return 1;
	return 0;
}

__attribute__((format(printf, 3, 4)))
static int ht_fail(struct ht_doc *d, const char *at, const char *fmt, ...)
{
	int line = 1;
	va_list ap;
	size_t o;

	for (const char *p = d->src; p < at; p++)
		line += *p == '\n';
	o = (size_t)snprintf(d->err, sizeof(d->err), "line %d: ", line);
	va_start(ap, fmt);
	vsnprintf(d->err + o, sizeof(d->err) - o, fmt, ap);
	va_end(ap);
	return -1;
}

/* Length of the entity at p ('&' ... ';'), or 0 if it is not one. */
static size_t ht_entity(const char *p)
{
	size_t i = 1;

	if (p[1] == '#') {
		i = 2;
		if (p[2] == 'x' || p[2] == 'X') {
			for (i = 3; isxdigit((unsigned char)p[i]); i++)
				;
			return i > 3 && p[i] == ';' ? i + 1 : 0;
		}
		for (; isdigit((unsigned char)p[i]); i++)
			;
		return i > 2 && p[i] == ';' ? i + 1 : 0;
	}
	for (; isalnum((unsigned char)p[i]); i++)
		;
	return i > 1 && p[i] == ';' ? i + 1 : 0;
}

/* Decode the few entities the reports use (and numeric ones) into a new string. */
static char *ht_decode(const char *s, size_t n)
{
	static const struct { const char *e; const char *c; } map[] = {
		{ "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" },
		{ "&quot;", "\"" }, { "&#39;", "'" }, { "&#xFFFD;", "\xef\xbf\xbd" },
	};
	char *out = malloc(n + 1), *o = out;

	for (size_t i = 0; i < n;) {
		size_t k, hit = 0;

		for (k = 0; k < sizeof(map) / sizeof(map[0]) && !hit; k++)
			if (!strncmp(s + i, map[k].e, strlen(map[k].e))) {
				strcpy(o, map[k].c);
				o += strlen(map[k].c);
				i += strlen(map[k].e);
				hit = 1;
			}
		if (!hit)
			*o++ = s[i++];
	}
	*o = 0;
	return out;
}

/* Text between tags: no raw < or >, every & an entity. */
static int ht_text(struct ht_doc *d, const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '>')
			return ht_fail(d, p, "raw '>' in text");
		if (*p == '&' && !ht_entity(p))
			return ht_fail(d, p, "'&' that starts no entity");
	}
	return 0;
}

static int ht_attrs(struct ht_doc *d, struct ht_node *nd, const char **pp)
{
	const char *p = *pp;

	for (;;) {
		const char *name, *val;
		size_t nl;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '>' || (p[0] == '/' && p[1] == '>'))
			break;
		name = p;
		while (isalnum((unsigned char)*p) || *p == '-' || *p == ':' || *p == '_')
			p++;
		nl = (size_t)(p - name);
		if (!nl || nl >= sizeof(nd->attrs[0].name))
			return ht_fail(d, p, "bad attribute name in <%s>", nd->tag);
		if (nd->nattrs == HT_MAX_ATTRS)
			return ht_fail(d, p, "too many attributes in <%s>", nd->tag);
		memcpy(nd->attrs[nd->nattrs].name, name, nl);
		nd->attrs[nd->nattrs].name[nl] = 0;
		if (*p != '=')
			return ht_fail(d, p, "attribute %.*s without a value", (int)nl, name);
		if (*++p != '"')
			return ht_fail(d, p, "unquoted attribute %.*s", (int)nl, name);
		val = ++p;
		for (; *p && *p != '"'; p++) {
			if (*p == '<' || *p == '>')
				return ht_fail(d, p, "raw '%c' in attribute %.*s", *p, (int)nl, name);
			if (*p == '&' && !ht_entity(p))
				return ht_fail(d, p, "'&' that starts no entity in attribute");
		}
		if (!*p)
			return ht_fail(d, p, "unterminated attribute");
		nd->attrs[nd->nattrs++].value = ht_decode(val, (size_t)(p - val));
		p++;
		if (!isspace((unsigned char)*p) && *p != '>' && *p != '/')
			return ht_fail(d, p, "no space after attribute");
	}
	*pp = p;
	return 0;
}

static int ht_in_svg(struct ht_doc *d, int parent)
{
	for (int i = parent; i >= 0; i = d->nodes[i].parent)
		if (!strcmp(d->nodes[i].tag, "svg"))
			return 1;
	return 0;
}

static int ht_open(struct ht_doc *d, const char **pp, int *stack, int *depth)
{
	const char *p = *pp + 1, *name = p;
	int parent = *depth ? stack[*depth - 1] : -1, self_close;
	struct ht_node *nd;
	size_t tl;

	while (isalnum((unsigned char)*p))
		p++;
	tl = (size_t)(p - name);
	if (!tl || tl >= sizeof(nd->tag))
		return ht_fail(d, *pp, "raw '<' in text");
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 1024;
		d->nodes = realloc(d->nodes, d->cap * sizeof(*d->nodes));
	}
	nd = &d->nodes[d->n];
	memset(nd, 0, sizeof(*nd));
	memcpy(nd->tag, name, tl);
	nd->parent = parent;
	nd->last = d->n;
	if (ht_attrs(d, nd, &p))
		return -1;
	self_close = *p == '/';
	p += self_close ? 2 : 1;
	nd->content = nd->content_end = (size_t)(p - d->src);
	if (self_close && !ht_in_svg(d, parent))
		return ht_fail(d, *pp, "'/>' outside svg on <%s>", nd->tag);
	d->n++;
	if (!self_close && !ht_is_void(nd->tag)) {
		if (*depth == 256)
			return ht_fail(d, *pp, "nesting too deep");
		stack[(*depth)++] = (int)(d->n - 1);
	}
	*pp = p;
	return 0;
}

/* Raw text of <script>/<style>: up to the matching close tag. */
static int ht_raw(struct ht_doc *d, const char **pp, const char *tag)
{
	char close[32];
	const char *end;

	snprintf(close, sizeof(close), "</%s>", tag);
	end = strstr(*pp, close);
	if (!end)
		return ht_fail(d, *pp, "unterminated <%s>", tag);
	*pp = end;
	return 0;
}

static int ht_close(struct ht_doc *d, const char **pp, int *stack, int *depth)
{
	const char *p = *pp + 2, *name = p;
	struct ht_node *nd;
	size_t tl;

	while (isalnum((unsigned char)*p))
		p++;
	tl = (size_t)(p - name);
	if (*p != '>')
		return ht_fail(d, *pp, "bad close tag");
	if (!*depth)
		return ht_fail(d, *pp, "</%.*s> closes nothing", (int)tl, name);
	nd = &d->nodes[stack[*depth - 1]];
	if (strlen(nd->tag) != tl || strncmp(nd->tag, name, tl))
		return ht_fail(d, *pp, "</%.*s> closes <%s>", (int)tl, name, nd->tag);
	nd->content_end = (size_t)(*pp - d->src);
	nd->last = d->n - 1;
	(*depth)--;
	*pp = p + 1;
	return 0;
}

/* Parse src into d; returns 0, or -1 with d->err set. */
__attribute__((unused)) static int ht_parse(struct ht_doc *d, const char *src)
{
	int stack[256], depth = 0;
	const char *p = src;

	memset(d, 0, sizeof(*d));
	d->src = src;
	if (strncmp(p, "<!DOCTYPE html>", 15))
		return ht_fail(d, p, "no <!DOCTYPE html>");
	p += 15;
	while (*p) {
		const char *lt = strchr(p, '<');
		const char *end = lt ? lt : p + strlen(p);

		if (ht_text(d, p, end))
			return -1;
		if (!lt)
			break;
		p = lt;
		if (!strncmp(p, "<!--", 4)) {
			const char *e = strstr(p, "-->");

			if (!e)
				return ht_fail(d, p, "unterminated comment");
			p = e + 3;
		} else if (p[1] == '/') {
			if (ht_close(d, &p, stack, &depth))
				return -1;
		} else {
			if (ht_open(d, &p, stack, &depth))
				return -1;
			if (depth && (!strcmp(d->nodes[d->n - 1].tag, "script") ||
				      !strcmp(d->nodes[d->n - 1].tag, "style")) &&
			    stack[depth - 1] == (int)d->n - 1 &&
			    ht_raw(d, &p, d->nodes[d->n - 1].tag))
				return -1;
		}
	}
	if (depth)
		return ht_fail(d, p, "<%s> never closed", d->nodes[stack[depth - 1]].tag);
	return 0;
}

__attribute__((unused)) static void ht_free(struct ht_doc *d)
{
	for (size_t i = 0; i < d->n; i++)
		for (int k = 0; k < d->nodes[i].nattrs; k++)
			free(d->nodes[i].attrs[k].value);
	free(d->nodes);
	memset(d, 0, sizeof(*d));
}

__attribute__((unused))
static const char *ht_attr(const struct ht_doc *d, size_t i, const char *name)
{
	for (int k = 0; k < d->nodes[i].nattrs; k++)
		if (!strcmp(d->nodes[i].attrs[k].name, name))
			return d->nodes[i].attrs[k].value;
	return NULL;
}

/* Does node i have tag (NULL: any) and class token cls (NULL: any)? */
static int ht_is(const struct ht_doc *d, size_t i, const char *tag, const char *cls)
{
	const char *c;
	size_t n;

	if (tag && strcmp(d->nodes[i].tag, tag))
		return 0;
	if (!cls)
		return 1;
	c = ht_attr(d, i, "class");
	n = strlen(cls);
	for (; c && *c; c += strcspn(c, " "), c += strspn(c, " "))
		if (!strncmp(c, cls, n) && (c[n] == ' ' || !c[n]))
			return 1;
	return 0;
}

/* The next node after 'from' (use -1 to start) within [.., limit] matching. */
__attribute__((unused))
static long ht_next(const struct ht_doc *d, long from, size_t limit,
		    const char *tag, const char *cls)
{
	for (size_t i = (size_t)(from + 1); i <= limit && i < d->n; i++)
		if (ht_is(d, i, tag, cls))
			return (long)i;
	return -1;
}

/* How many descendants of node i (or the whole document: i = -1) match. */
__attribute__((unused))
static size_t ht_count(const struct ht_doc *d, long i, const char *tag,
		       const char *cls)
{
	size_t n = 0, last = i < 0 ? d->n - 1 : d->nodes[i].last;

	for (long k = ht_next(d, i, last, tag, cls); k >= 0;
	     k = ht_next(d, k, last, tag, cls))
		n++;
	return n;
}

/* Direct children of i that match. */
__attribute__((unused))
static size_t ht_children(const struct ht_doc *d, size_t i, const char *tag,
			  const char *cls)
{
	size_t n = 0;

	for (size_t k = i + 1; k <= d->nodes[i].last; k++)
		n += d->nodes[k].parent == (int)i && ht_is(d, k, tag, cls);
	return n;
}

/* Node with id attribute id, or -1. */
__attribute__((unused))
static long ht_by_id(const struct ht_doc *d, const char *id)
{
	for (size_t i = 0; i < d->n; i++) {
		const char *v = ht_attr(d, i, "id");

		if (v && !strcmp(v, id))
			return (long)i;
	}
	return -1;
}

/* The decoded text content of node i (tags stripped); caller frees. */
__attribute__((unused)) static char *ht_text_of(const struct ht_doc *d, size_t i)
{
	const char *s = d->src + d->nodes[i].content;
	size_t n = d->nodes[i].content_end - d->nodes[i].content;
	char *raw = malloc(n + 1), *o = raw, *out;
	int in_tag = 0;

	for (size_t k = 0; k < n; k++) {
		if (s[k] == '<')
			in_tag = 1;
		else if (s[k] == '>' && in_tag)
			in_tag = 0;
		else if (!in_tag)
			*o++ = s[k];
	}
	*o = 0;
	out = ht_decode(raw, strlen(raw));
	free(raw);
	return out;
}

/* The text of the element with id `id', which must exist (caller frees). */
__attribute__((unused)) static char *text_of_id(struct ht_doc *d, const char *id)
{
	long i = ht_by_id(d, id);

	cr_assert_geq(i, 0, "no element with id %s", id);
	return ht_text_of(d, (size_t)i);
}

#endif /* WT_TEST_REPORT_HTML_H */

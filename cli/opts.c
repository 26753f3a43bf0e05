/* SPDX-License-Identifier: MIT */
/*
 * The option tables' parser (getopt_long underneath) and everything
 * printed from the tables: --help, usage lines, "did you mean".
 *
 * getopt_long gives `--opt value', `--opt=value', `-o value', `-ovalue',
 * option clusters, `--' and options after operands (it permutes a copy
 * of argv; the caller's argv stays in the order typed, which the results
 * files record as the command line).  Its own messages are off (opterr):
 * every complaint is ours, one line, "walktorture: COMMAND: ...", exit 2.
 */
#define _GNU_SOURCE	/* getopt_long's permuting and reset (optind = 0) */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "sim/nearest.h"

#define ID_HELP 'h'
#define VAL_LONG_ONLY 256	/* getopt vals of long-only options: 256 + index */

static unsigned count_opts(const struct wt_opt *o)
{
	unsigned n = 0;

	while (o && o[n].name)
		n++;
	return n;
}

static int opt_val(const struct wt_opt *o, unsigned i)
{
	return o[i].short_name ? o[i].short_name : VAL_LONG_ONLY + (int)i;
}

int wt_opts_begin(struct wt_opts *p, int argc, char **argv)
{
	const struct wt_cmd *cmd = wt_cli_command(argv[0]);
	unsigned n = cmd ? count_opts(cmd->opts) : 0;
	struct option *lo;
	char *s;

	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->argc = argc;
	p->argv = calloc((size_t)argc + 1, sizeof(*p->argv));
	p->lopts = lo = calloc(n + 2, sizeof(*lo));
	p->shorts = s = calloc(2 * n + 4, 1);
	if (!cmd || !p->argv || !lo || !s) {
		wt_opts_end(p);
		wt_usage_error("%s: out of memory", argv[0]);
		return WT_OPTS_BAD;
	}
	memcpy(p->argv, argv, (size_t)argc * sizeof(*argv));
	*s++ = ':';		/* a missing value returns ':', not '?' */
	for (unsigned i = 0; i < n; i++) {
		const struct wt_opt *o = &cmd->opts[i];

		lo[i].name = o->name;
		lo[i].has_arg = o->arg ? required_argument : no_argument;
		lo[i].val = opt_val(cmd->opts, i);
		if (o->short_name) {
			*s++ = o->short_name;
			if (o->arg)
				*s++ = ':';
		}
	}
	lo[n].name = "help";
	lo[n].val = ID_HELP;
	*s++ = ID_HELP;
	optind = 0;		/* glibc: start afresh, permuting */
	opterr = 0;
	return WT_OPTS_DONE;
}

void wt_opts_end(struct wt_opts *p)
{
	free(p->argv);
	free(p->lopts);
	free(p->shorts);
	p->argv = NULL;
	p->lopts = NULL;
	p->shorts = NULL;
	p->pos = NULL;
	p->npos = 0;
}

int wt_opts_exit(int r)
{
	return r == WT_OPTS_HELP ? WT_EXIT_OK : WT_EXIT_USAGE;
}

int wt_opts_flags(int argc, char **argv, unsigned *flags)
{
	struct wt_opts p;
	const char *v;
	int id;

	*flags = 0;
	if (wt_opts_begin(&p, argc, argv))
		return WT_OPTS_BAD;
	while ((id = wt_opts_next(&p, &v)) > 0)
		*flags |= 1u << id;
	if (!id && p.npos) {
		wt_usage_error("%s: unexpected operand '%s'", p.cmd->name,
			       p.pos[0]);
		id = WT_OPTS_BAD;
	}
	wt_opts_end(&p);
	return id;
}

/* The table entry getopt returned val for; NULL when none. */
static const struct wt_opt *by_val(const struct wt_cmd *cmd, int val)
{
	for (unsigned i = 0; cmd->opts && cmd->opts[i].name; i++)
		if (opt_val(cmd->opts, i) == val)
			return &cmd->opts[i];
	return NULL;
}

/* An unknown or ambiguous long option: say which, and what is near. */
static int bad_long(const struct wt_opts *p, const char *arg)
{
	const struct wt_opt *o = p->cmd->opts;
	unsigned n = count_opts(o), nmatch = 0;
	const char **names = calloc(n + 1, sizeof(*names));
	size_t len = strcspn(arg + 2, "=");
	char word[WT_NEAREST_MAX + 1], dym[WT_NEAREST_MAX + 32] = "";

	if (!names)
		return wt_usage_error("%s: out of memory", p->cmd->name);
	for (unsigned i = 0; i < n; i++)
		if (!strncmp(o[i].name, arg + 2, len))
			nmatch++;
	for (unsigned i = 0; i < n; i++)
		names[i] = o[i].name;
	names[n] = "help";
	snprintf(word, sizeof(word), "%.*s", (int)len, arg + 2);
	if (nmatch > 1) {
		wt_usage_error("%s: ambiguous option '--%s' (it begins %u "
			       "options; see walktorture %s --help)",
			       p->cmd->name, word, nmatch, p->cmd->name);
	} else {
		const char *near = wt_nearest(word, names, n + 1);

		if (near)
			snprintf(dym, sizeof(dym), "; did you mean '--%s'?", near);
		wt_usage_error("%s: unknown option '--%s'%s (walktorture %s "
			       "--help lists them)", p->cmd->name, word, dym,
			       p->cmd->name);
	}
	free(names);
	return WT_OPTS_BAD;
}

int wt_opts_next(struct wt_opts *p, const char **val)
{
	const struct wt_opt *o;
	int c;

	*val = NULL;
	c = getopt_long(p->argc, p->argv, p->shorts, p->lopts, NULL);
	if (c == -1) {
		p->pos = (const char **)p->argv + optind;
		p->npos = (unsigned)(p->argc - optind);
		return WT_OPTS_DONE;
	}
	if (c == ID_HELP) {
		wt_opts_help(p->cmd, stdout);
		return WT_OPTS_HELP;
	}
	if (c == ':') {
		o = by_val(p->cmd, optopt);
		if (o && (!o->short_name || !strncmp(p->argv[optind - 1], "--", 2)))
			wt_usage_error("%s: option '--%s' needs a value (%s)",
				       p->cmd->name, o->name, o->arg);
		else
			wt_usage_error("%s: option '-%c' needs a value (%s)",
				       p->cmd->name, optopt, o ? o->arg : "?");
		return WT_OPTS_BAD;
	}
	if (c == '?') {
		const char *arg = p->argv[optind - 1];

		o = optopt ? by_val(p->cmd, optopt) : NULL;
		if (o && !strncmp(arg, "--", 2)) {
			wt_usage_error("%s: option '--%s' takes no value",
				       p->cmd->name, o->name);
			return WT_OPTS_BAD;
		}
		if (!optopt && !strncmp(arg, "--", 2))
			return bad_long(p, arg);
		wt_usage_error("%s: unknown option '-%c' (walktorture %s --help "
			       "lists them)", p->cmd->name, optopt ? optopt : '?',
			       p->cmd->name);
		return WT_OPTS_BAD;
	}
	o = by_val(p->cmd, c);
	if (!o) {	/* getopt returned a val the table does not have */
		wt_usage_error("%s: internal: option value %d", p->cmd->name, c);
		return WT_OPTS_BAD;
	}
	*val = o->arg ? optarg : NULL;
	return o->id;
}

/* "[--name ARG]" of one option, as the usage line shows it. */
static int usage_item(const struct wt_opt *o, char *buf, size_t len)
{
	return snprintf(buf, len, "%s--%s%s%s%s", o->required ? "" : "[",
			o->name, o->arg ? " " : "", o->arg ? o->arg : "",
			o->required ? "" : "]");
}

#define USAGE_WIDTH 79

void wt_opts_usage(const struct wt_cmd *cmd, FILE *f)
{
	int col, indent;
	char item[256];

	col = indent = fprintf(f, "usage: walktorture %s", cmd->name);
	if (cmd->args && *cmd->args)
		col += fprintf(f, " %s", cmd->args);
	indent = indent > 40 ? 8 : indent;
	for (unsigned i = 0; cmd->opts && cmd->opts[i].name; i++) {
		int w = usage_item(&cmd->opts[i], item, sizeof(item));

		if (col + 1 + w > USAGE_WIDTH)
			col = fprintf(f, "\n%*s", indent, "") - 1;
		col += fprintf(f, " %s", item);
	}
	fputc('\n', f);
}

/* "  -s, --seed S" of one option, as the help lists it. */
static int help_item(const struct wt_opt *o, char *buf, size_t len)
{
	char sh[8] = "    ";

	if (o->short_name)
		snprintf(sh, sizeof(sh), "-%c, ", o->short_name);
	return snprintf(buf, len, "  %s--%s%s%s", sh, o->name,
			o->arg ? " " : "", o->arg ? o->arg : "");
}

#define HELP_COLUMN 30

static void help_line(FILE *f, const char *item, int w, const char *help)
{
	if (w + 2 > HELP_COLUMN)
		fprintf(f, "%s\n%*s%s\n", item, HELP_COLUMN, "", help);
	else
		fprintf(f, "%s%*s%s\n", item, HELP_COLUMN - w, "", help);
}

void wt_opts_help(const struct wt_cmd *cmd, FILE *f)
{
	const struct wt_opt help = {
		.name = "help", .short_name = 'h',
		.help = "print this help and exit",
	};
	char item[256];

	wt_opts_usage(cmd, f);
	fprintf(f, "\n%s\n\noptions:\n", cmd->summary);
	for (unsigned i = 0; cmd->opts && cmd->opts[i].name; i++) {
		int w = help_item(&cmd->opts[i], item, sizeof(item));

		help_line(f, item, w, cmd->opts[i].help);
	}
	help_line(f, item, help_item(&help, item, sizeof(item)), help.help);
}

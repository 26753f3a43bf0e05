/* SPDX-License-Identifier: MIT */
/*
 * The command line's single source: one table of options per command
 * (long name, short name, the value's name, one line of help), parsed
 * with getopt_long.  `COMMAND --help', the usage lines, `walktorture
 * options' (what the man-page check and the bash completion read) are
 * all printed from these tables, so an option added to a table is
 * parsed, documented and completed at once.
 */
#ifndef WT_CLI_OPTS_H
#define WT_CLI_OPTS_H

#include <stdbool.h>
#include <stdio.h>

struct wt_opt {
	const char *name;	/* long name, without "--" */
	int id;			/* what wt_opts_next returns for it; > 0 */
	char short_name;	/* 0: none */
	const char *arg;	/* the value's name ("N", "sim|stress"); NULL: a flag */
	const char *help;	/* one line */
	bool required;		/* shown without brackets in the usage line */
};

/* A table entry: long name, id, short name (0: none), the value's name
 * (NULL: a flag), one line of help.  _REQ: shown unbracketed in usage. */
#define WT_OPT(n, i, s, a, h) \
	{ .name = (n), .id = (i), .short_name = (s), .arg = (a), .help = (h) }
#define WT_OPT_REQ(n, i, s, a, h) \
	{ .name = (n), .id = (i), .short_name = (s), .arg = (a), .help = (h), \
	  .required = true }

struct wt_cmd {
	const char *name;
	const char *args;	/* the operands in the usage line ("" for none) */
	const char *summary;	/* one line */
	const struct wt_opt *opts;	/* ends with a zero entry */
	int (*run)(int argc, char **argv);	/* argv[0] is the command */
};

/* Every command, in the order `walktorture --help' lists them (main.c). */
const struct wt_cmd *wt_cli_commands(unsigned *n);
const struct wt_cmd *wt_cli_command(const char *name);

/* The parser of one command line. */
struct wt_opts {
	const struct wt_cmd *cmd;
	int argc;
	char **argv;		/* a copy: getopt_long permutes it, the
				 * caller's argv stays as typed (results
				 * record the command line) */
	void *lopts;		/* struct option[] */
	char *shorts;
	const char **pos;	/* the operands, in order, once done */
	unsigned npos;
};

enum {
	WT_OPTS_DONE = 0,	/* no more options; p->pos holds the operands */
	WT_OPTS_HELP = -1,	/* --help was printed to stdout: exit 0 */
	WT_OPTS_BAD = -2,	/* reported on stderr: exit 2 */
};

/* Start parsing argv (argv[0] is the command, found in the table). */
int wt_opts_begin(struct wt_opts *p, int argc, char **argv);
/* The next option's id, its value in *val (NULL for a flag); or one of
 * WT_OPTS_DONE, WT_OPTS_HELP, WT_OPTS_BAD. */
int wt_opts_next(struct wt_opts *p, const char **val);
void wt_opts_end(struct wt_opts *p);
/* A command of flags only (ids < 32) and no operands: *flags gets
 * 1u << id of each given; the WT_OPTS_* result. */
int wt_opts_flags(int argc, char **argv, unsigned *flags);
/* The WT_OPTS_* result as an exit status (HELP: 0, BAD: 2). */
int wt_opts_exit(int r);

/* `walktorture COMMAND --help' and the usage line alone. */
void wt_opts_help(const struct wt_cmd *cmd, FILE *f);
void wt_opts_usage(const struct wt_cmd *cmd, FILE *f);

#endif /* WT_CLI_OPTS_H */

/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "wt_git_rev.h"	/* generated at build time */

static const struct wt_cmd commands[] = {
	{ "points", "points [--json]", wt_cmd_points },
	{ "paths", "paths [--json]", wt_cmd_paths },
	{ "bugs", "bugs [--json]", wt_cmd_bugs },
	{ "zoo-bench", "zoo-bench [BUG...] [--seed S] [--seeds N] [--sim-cap T] [--pct-cap T] [--stress-cap T] [--stress-clean T] [--json FILE]", wt_cmd_zoo_bench },
	{ "lookup", "lookup --tree FILE [--uid U --gid G] [--nofollow] [--resolve FLAGS] PATH...", wt_cmd_lookup },
	{ "tree", "tree FILE", wt_cmd_tree },
	{ "run", "run SCENARIO|SUITE... [--seed S] [--mode sim|stress] [--iterations N|--duration T] [--cpus LIST] [--out DIR] [--json FILE] [--bug NAME] [--memory sc|tso] [--trace]", wt_cmd_run },
	{ "nightly", "nightly [SUITES...] [--seeds N] [--shard K/N] [--out DIR] [--history DB]", wt_cmd_nightly },
	{ "replay", "replay SEED SCENARIO | RESULTS.json#N [--bug NAME] [--memory sc|tso] [--order FILE] [--json FILE]", wt_cmd_replay },
	{ "merge", "merge RESULTS.json... -o MERGED.json", wt_cmd_merge },
	{ "report", "report RESULTS.json... -o report.html [--window N] [--top N]", wt_cmd_report },
	{ "index", "index --out DIR [--history DB] [--night ID] [RESULTS.json...]", wt_cmd_index },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

int wt_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("walktorture: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return WT_EXIT_USAGE;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: walktorture COMMAND [ARGS]\ncommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  walktorture %s\n", commands[i].usage);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return WT_EXIT_USAGE;
	}
	if (is_help(argv[1]) || !strcmp(argv[1], "help")) {
		usage(stdout);
		return WT_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("walktorture %s (%s, %s)\n", WT_VERSION, WT_GIT_REV,
		       WT_BUILD_TYPE);
		return WT_EXIT_OK;
	}
	for (size_t i = 0; i < N_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* `walktorture run --help': the command's own line, exit 0. */
		if (argc == 3 && is_help(argv[2])) {
			printf("usage: walktorture %s\n", commands[i].usage);
			return WT_EXIT_OK;
		}
		return commands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "walktorture: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return WT_EXIT_USAGE;
}

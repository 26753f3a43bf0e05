/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE	/* asprintf */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/zoo.h"
#include "scenarios/src/scenario.h"
#include "sim/nearest.h"
#include "wt_git_rev.h"	/* generated at build time */

/* Every command: its operands, summary and option table (opts.h). */
static const struct wt_cmd commands[] = {
	{ "run", "SCENARIO|SUITE...", "Run scenario files, folders or shipped suites; exit 1 if any fails.", wt_opts_run, wt_cmd_run },
	{ "nightly", "[SUITE...]", "Every scenario of the suites (default: all) under N seeds; history, reports.", wt_opts_nightly, wt_cmd_nightly },
	{ "replay", "SEED SCENARIO | RESULTS.json#N", "Re-run one iteration in sim mode with its full trace and timeline.", wt_opts_replay, wt_cmd_replay },
	{ "minimize", "RESULTS.json#N | SEED SCENARIO", "Delta-debug a failing iteration's schedule into a directed regression scenario (-o FILE).", wt_opts_replay, wt_cmd_minimize },
	{ "fuzz", "", "Generated workloads (random trees and threads); a failure is written as a scenario file.", wt_opts_fuzz, wt_cmd_fuzz },
	{ "lookup", "PATH...", "Resolve paths in a tree file's world, one at a time, as JSON lines.", wt_opts_lookup, wt_cmd_lookup },
	{ "tree", "FILE", "Build a tree file's world and print its namespace.", wt_opts_tree, wt_cmd_tree },
	{ "points", "", "The injection-point catalogue.", wt_opts_points, wt_cmd_points },
	{ "paths", "", "The exit-path catalogue.", wt_opts_paths, wt_cmd_paths },
	{ "bugs", "", "The bug zoo: each bug, its reference and its scenario.", wt_opts_bugs, wt_cmd_bugs },
	{ "zoo-bench", "[BUG...]", "How fast sim, PCT and stress find each zoo bug.", wt_opts_zoo_bench, wt_cmd_zoo_bench },
	{ "merge", "RESULTS.json...", "Combine results files (a nightly's shards) into one.", wt_opts_merge, wt_cmd_merge },
	{ "report", "RESULTS.json...", "Write one self-contained HTML report of results files.", wt_opts_report, wt_cmd_report },
	{ "index", "[RESULTS.json...]", "Record a night in the history database; write the nightly index.", wt_opts_index, wt_cmd_index },
	{ "options", "", "Every command's options, one a line (for completion, checks).", wt_opts_options, wt_cmd_options },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct wt_cmd *wt_cli_commands(unsigned *n)
{
	*n = N_COMMANDS;
	return commands;
}

const struct wt_cmd *wt_cli_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

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

enum { OPT_SUITES = 1, OPT_BUGS };

const struct wt_opt wt_opts_options[] = {
	WT_OPT("suites", OPT_SUITES, 0, NULL, "list the shipped suites instead"),
	WT_OPT("bugs", OPT_BUGS, 0, NULL, "list the zoo's bug names instead"),
	{ 0 }
};

/* One line per option: COMMAND, --LONG, -S or -, the value's name or -. */
static void list_options(void)
{
	for (size_t i = 0; i < N_COMMANDS; i++) {
		const struct wt_opt *o = commands[i].opts;

		for (unsigned k = 0; o && o[k].name; k++)
			printf("%s\t--%s\t%s%c\t%s\n", commands[i].name,
			       o[k].name, o[k].short_name ? "-" : "",
			       o[k].short_name ? o[k].short_name : '-',
			       o[k].arg ? o[k].arg : "-");
		printf("%s\t--help\t-h\t-\n", commands[i].name);
	}
}

int wt_cmd_options(int argc, char **argv)
{
	unsigned flags;
	int r = wt_opts_flags(argc, argv, &flags);

	if (r)
		return wt_opts_exit(r);
	if (flags & 1u << OPT_SUITES) {
		/* "walktorture: suites: a b c" -> one a line */
		char *buf = NULL, *tok, *save;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		if (!f)
			return WT_EXIT_USAGE;
		wt_scn_print_suites(f);
		fclose(f);
		tok = strtok_r(buf + strlen("walktorture: suites:"), " \n", &save);
		for (; tok; tok = strtok_r(NULL, " \n", &save))
			puts(tok);
		free(buf);
	} else if (flags & 1u << OPT_BUGS) {
		unsigned n;
		const struct wt_zoo_bug *b = wt_zoo_bugs(&n);

		for (unsigned i = 0; i < n; i++)
			puts(b[i].name);
	} else {
		list_options();
	}
	return WT_EXIT_OK;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: walktorture COMMAND [ARGS]\n"
		"       walktorture COMMAND --help   (every option of COMMAND)\n"
		"       walktorture --version\ncommands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

static int unknown_command(const char *name)
{
	const char *names[N_COMMANDS];
	char dym[WT_NEAREST_MAX + 32];

	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	wt_nearest_text(dym, sizeof(dym), name, names, N_COMMANDS);
	wt_usage_error("unknown command '%s'%s", name, dym);
	usage(stderr);
	return WT_EXIT_USAGE;
}

/*
 * An installed binary's suites are in PREFIX/share/walktorture/scenarios
 * (cmake/install.cmake), found from the binary's own path so that a
 * moved prefix works: when that folder exists and WT_SCENARIOS_DIR does
 * not name another, it becomes the scenarios root for this process (and
 * the commands it prints).  The build tree's binary has no such folder
 * beside it and keeps the source tree's (scenarios/src/suite.c).
 */
static void installed_scenarios(void)
{
#ifdef WT_INSTALL_SCENARIOS
	const char *env = getenv("WT_SCENARIOS_DIR");
	char exe[PATH_MAX], *slash, *dir = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct stat st;

	if ((env && *env) || n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	if (asprintf(&dir, "%s/%s", exe, WT_INSTALL_SCENARIOS) < 0)
		return;
	if (!stat(dir, &st) && S_ISDIR(st.st_mode)) {
		char *real = realpath(dir, NULL);	/* no "bin/.." in paths */

		setenv("WT_SCENARIOS_DIR", real ? real : dir, 1);
		free(real);
	}
	free(dir);
#endif
}

int main(int argc, char **argv)
{
	const struct wt_cmd *cmd;

	/* a sanitizer's report exits 66, not 1 (a failed scenario) */
	wt_sanitizer_exit_install();
	installed_scenarios();

	if (argc < 2) {
		usage(stderr);
		return WT_EXIT_USAGE;
	}
	if (is_help(argv[1]) || !strcmp(argv[1], "help")) {
		if (argc > 2 && (cmd = wt_cli_command(argv[2]))) {
			wt_opts_help(cmd, stdout);	/* help COMMAND */
			return WT_EXIT_OK;
		}
		usage(stdout);
		return WT_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("walktorture %s (%s, %s)\n", WT_VERSION, WT_GIT_REV,
		       WT_BUILD_TYPE);
		return WT_EXIT_OK;
	}
	cmd = wt_cli_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return cmd->run(argc - 1, argv + 1);
}

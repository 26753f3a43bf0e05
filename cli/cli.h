/* SPDX-License-Identifier: MIT */
/* The walktorture command: one function per subcommand. */
#ifndef WT_CLI_H
#define WT_CLI_H

/* Exit statuses, for every subcommand. */
enum { WT_EXIT_OK = 0, WT_EXIT_FAIL = 1, WT_EXIT_USAGE = 2 };

struct wt_cmd {
	const char *name;
	const char *usage;
	int (*run)(int argc, char **argv);	/* argv[0] is the subcommand */
};

int wt_cmd_points(int argc, char **argv);
int wt_cmd_paths(int argc, char **argv);
int wt_cmd_bugs(int argc, char **argv);		/* cmd_bugs.c */
int wt_cmd_zoo_bench(int argc, char **argv);	/* cmd_bugs.c */
int wt_cmd_lookup(int argc, char **argv);
int wt_cmd_tree(int argc, char **argv);
int wt_cmd_report(int argc, char **argv);
int wt_cmd_index(int argc, char **argv);
int wt_cmd_merge(int argc, char **argv);

int wt_cmd_run(int argc, char **argv);
int wt_cmd_nightly(int argc, char **argv);
int wt_cmd_replay(int argc, char **argv);

/* Options shared by run, nightly and replay (cmd_run.c): 1 when argv[*i]
 * (and its value) was one, 0 when not, -1 on a bad value (reported). */
struct wt_scn_opts;
int wt_cli_scn_option(int argc, char **argv, int *i, struct wt_scn_opts *o,
		      _Bool *seed_set);
void wt_cli_scn_defaults(struct wt_scn_opts *o);
/* --memory sc|tso into o->memory: 0, or -1 (reported). */
int wt_cli_memory_parse(const char *v, struct wt_scn_opts *o);

/* Print "walktorture: message" to stderr and return WT_EXIT_USAGE. */
int wt_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* WT_CLI_H */

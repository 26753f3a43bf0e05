/* SPDX-License-Identifier: MIT */
/* The walktorture command: one function per subcommand. */
#ifndef WT_CLI_H
#define WT_CLI_H

/* Exit statuses, for every subcommand. */
enum { WT_EXIT_OK = 0, WT_EXIT_FAIL = 1, WT_EXIT_USAGE = 2 };
/* and WT_EXIT_SANITIZER (66): a sanitizer's report, scenarios/src/sanitizer.h */

#include <stdint.h>

#include <jansson.h>

#include "cli/opts.h"
#include "scenarios/src/sanitizer.h"

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
int wt_cmd_minimize(int argc, char **argv);
int wt_cmd_fuzz(int argc, char **argv);		/* cmd_fuzz.c */

/* Each command's option table (in its cmd_*.c file, beside the code
 * that reads it); main.c puts them in the command table. */
extern const struct wt_opt wt_opts_points[], wt_opts_paths[],
	wt_opts_bugs[], wt_opts_zoo_bench[], wt_opts_lookup[], wt_opts_tree[],
	wt_opts_run[], wt_opts_nightly[], wt_opts_replay[], wt_opts_merge[],
	wt_opts_report[], wt_opts_index[], wt_opts_options[],
	wt_opts_fuzz[];
int wt_cmd_options(int argc, char **argv);	/* main.c */

/*
 * Options shared by run, nightly and replay (cmd_run.c): their ids and
 * table entries; wt_cli_scn_option applies one: 1 when id was one of
 * them, 0 when not, -1 on a bad value (reported).
 */
enum {
	WT_OPT_SEED = 1, WT_OPT_MODE, WT_OPT_ITERATIONS, WT_OPT_DURATION,
	WT_OPT_CPUS, WT_OPT_BUG, WT_OPT_MEMORY, WT_OPT_POLICY, WT_OPT_JOBS,
	WT_OPT_SCN__END		/* a command's own ids start here */
};
#define WT_OPT_ENTRY_SEED \
	WT_OPT("seed", WT_OPT_SEED, 's', "S", "the run's seed (decimal or 0x hex); default: random")
#define WT_OPT_ENTRY_BUG \
	WT_OPT("bug", WT_OPT_BUG, 'b', "NAME", "switch a zoo bug on (walktorture bugs lists them)")
#define WT_OPT_ENTRY_MEMORY \
	WT_OPT("memory", WT_OPT_MEMORY, 0, "sc|tso|pso", "the sim's memory model for every scenario (overrides memory:)")
#define WT_OPT_ENTRY_POLICY \
	WT_OPT("policy", WT_OPT_POLICY, 0, "P", "random, pct, pos or explore for every scenario without a schedule")
#define WT_OPT_ENTRIES_SCN \
	WT_OPT_ENTRY_SEED, \
	WT_OPT("mode", WT_OPT_MODE, 'm', "sim|stress", "the backend for every scenario (overrides mode:)"), \
	WT_OPT("iterations", WT_OPT_ITERATIONS, 'n', "N", "iterations per scenario (overrides its budget)"), \
	WT_OPT("duration", WT_OPT_DURATION, 'd', "T", "time per scenario, e.g. 30s, 500ms (overrides its budget)"), \
	WT_OPT("cpus", WT_OPT_CPUS, 0, "LIST", "stress threads bound to these PUs, e.g. 0-3,6"), \
	WT_OPT_ENTRY_BUG, \
	WT_OPT_ENTRY_MEMORY, \
	WT_OPT_ENTRY_POLICY, \
	WT_OPT("jobs", WT_OPT_JOBS, 0, "N", "scenarios at once, each in its own process (default: the online CPUs; a stress one runs alone)")
struct wt_scn_opts;

/* --scenario-cap T (run, nightly): an id no command's own enum reaches;
 * wt_cli_scenario_cap sets opts cap_ns from it ("0": none): 0, or -1
 * (reported). */
enum { WT_OPT_SCENARIO_CAP = 120 };
#define WT_OPT_ENTRY_SCENARIO_CAP(dflt) \
	WT_OPT("scenario-cap", WT_OPT_SCENARIO_CAP, 0, "T", "stop a scenario after T of real time: a failure of kind hang, the run goes on (default " dflt "; 0: none)")
int wt_cli_scenario_cap(const char *v, struct wt_scn_opts *o);

/* --ktap FILE and --junit FILE (run, nightly, merge, report): ids no
 * command's own enum reaches; wt_cli_ci_write (cmd_report.c) writes
 * them from a results document: 0, or -1 (reported). */
enum { WT_OPT_KTAP = 100, WT_OPT_JUNIT };
#define WT_OPT_ENTRIES_CI \
	WT_OPT("ktap", WT_OPT_KTAP, 0, "FILE", "write KTAP version 1 to FILE: a subtest per suite, a test per scenario"), \
	WT_OPT("junit", WT_OPT_JUNIT, 0, "FILE", "write JUnit XML to FILE: a testsuite per suite, a testcase per scenario")
int wt_cli_ci_write(json_t *doc, const char *ktap, const char *junit);

struct wt_scn_opts;
int wt_cli_scn_option(int id, const char *v, struct wt_scn_opts *o,
		      _Bool *seed_set);
void wt_cli_scn_defaults(struct wt_scn_opts *o);
/* --jobs N (run, nightly): o->jobs, 1 to WT_CLI_JOBS_MAX; 0, or -1
 * (reported).  The default is the online CPUs. */
#define WT_CLI_JOBS_MAX	256
int wt_cli_jobs(const char *v, struct wt_scn_opts *o);
/* A count from lo to hi for option opt of command cmd (NULL: an option
 * every command shares): 0, or -1 with "[CMD: ]bad OPT 'V' (a count
 * from LO to HI)" (reported). */
int wt_cli_count(const char *cmd, const char *opt, const char *v,
		 unsigned lo, unsigned hi, unsigned *out);
/* --memory sc|tso|pso into o->memory: 0, or -1 (reported). */
int wt_cli_memory_parse(const char *v, struct wt_scn_opts *o);
/* An unknown bug name: the message, a suggestion and every name. */
void wt_cli_unknown_bug(const char *cmd, const char *name);
/* --policy P (random, pct, pos, explore): 0, or -1 (reported). */
int wt_cli_policy_parse(const char *v, struct wt_scn_opts *o);

/*
 * Output paths checked before anything runs (cli/outputs.c): an empty
 * path, a directory where a file goes, a place the atomic writer cannot
 * create its temporary, --out's directories (made), a history that is
 * no history database.  opt names the flag in the message.  NULL: not
 * given, fine.  0, or -1 (reported).
 */
int wt_cli_output_file(const char *opt, const char *path);
int wt_cli_output_dir(const char *opt, const char *dir);
int wt_cli_history_check(const char *opt, const char *path);
/* A duration flag's value (--duration, --explore): a number and a unit
 * (ns, us, ms, s), "1.5" alone being ambiguous; 0, or -1 (reported). */
int wt_cli_duration(const char *opt, const char *v, uint64_t *ns);

/* Print "walktorture: message" to stderr and return WT_EXIT_USAGE. */
int wt_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* WT_CLI_H */

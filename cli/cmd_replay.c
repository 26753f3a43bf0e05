/* SPDX-License-Identifier: MIT */
/*
 * walktorture replay SEED SCENARIO [--bug NAME] [--memory sc|tso] [--json FILE]
 *	[--undirected]
 * walktorture replay RESULTS.json#N [--bug NAME] [--memory sc|tso] [--json FILE]
 *	[--order FILE]
 *
 * Re-runs one iteration -- the one whose iteration seed is SEED, as every
 * failure's replay line says -- in sim mode with the full trace, prints
 * the trace and a timeline (one lane per thread), then the failure if it
 * happens again.  RESULTS.json#N takes the N-th failure (0-based, in
 * file order) of a results file, and the memory model its scenario ran
 * under (unless --memory says otherwise).  --order FILE follows a
 * recorded order (a traced stress failure's NAME-SEED.order, or any trace
 * in its text form): the sim schedules the events in that order, and
 * where the iteration can no longer follow it (another point comes next,
 * or the thread is blocked) replay says at which event and goes on
 * under the seeded policy.  --undirected replays an iteration of the
 * scenario's undirected twin (a twin's replay lines say so; a twin's
 * failure in a results file is replayed as one).  --json writes the
 * iteration's results (with the failure's walk steps and history
 * window).  Exit 1 when it fails, 0 when not.
 */
#define _GNU_SOURCE	/* strndup */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/cli.h"
#include "reports/results.h"
#include "scenarios/src/driver.h"
#include "sim/sched/trace.h"

/* The seed and file of failure N of a results file, the memory model
 * its scenario ran under (*memory: -1 when the file does not say) and
 * whether it was an undirected twin; not 0 when there is no such failure
 * or it is not one iteration's. */
static int from_results(const char *arg, uint64_t *seed, char **file,
			int *memory, bool *twin)
{
	const char *hash = strrchr(arg, '#');
	char *path = hash ? strndup(arg, (size_t)(hash - arg)) : NULL, *end;
	long n = hash ? strtol(hash + 1, &end, 10) : -1;
	json_error_t je;
	json_t *doc, *sc, *f;
	size_t i, j;
	int ret = -1;

	if (!path || *end || n < 0)
		goto out;
	doc = json_load_file(path, 0, &je);
	if (!doc) {
		fprintf(stderr, "walktorture: %s:%d:%d: %s\n", path, je.line,
			je.column, je.text);
		goto out;
	}
	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		json_array_foreach(json_object_get(sc, "failures"), j, f)
			if (n-- == 0 && ret) {
				const char *s = json_string_value(
					json_object_get(f, "seed"));
				const char *fl = json_string_value(
					json_object_get(sc, "file"));
				const char *m = json_string_value(
					json_object_get(sc, "memory"));
				const char *rp = json_string_value(
					json_object_get(f, "replay"));

				/* A count over several iterations is no one
				 * iteration's: its replay is the whole run. */
				if (rp && !strncmp(rp, "walktorture run ", 16)) {
					fprintf(stderr, "walktorture: failure %s "
						"of %s is over several iterations, "
						"not one; replay it with: %s\n",
						hash + 1, path, rp);
					ret = 1;
					break;
				}
				if (s && fl && !wt_scn_parse_seed(s, seed)) {
					*file = strdup(fl);
					*memory = !m ? -1 : !strcmp(m, "tso") ?
						  WT_SCN_TSO : WT_SCN_SC;
					*twin = json_is_object(
						json_object_get(sc, "twin"));
					ret = 0;
				}
			}
	if (ret < 0)
		fprintf(stderr, "walktorture: %s has no failure %s with a seed\n",
			path, hash + 1);
	json_decref(doc);
out:
	free(path);
	return ret;
}

static int write_json(const char *file, const struct wt_scn_result *r,
		      unsigned nr, const struct wt_scn_opts *o, int argc,
		      char **argv)
{
	char *cmd = wt_scn_command_line(argc, argv), err[1024];
	struct wt_scn_run_info info = {
		.command = cmd, .started = time(NULL), .mode = "sim",
		.binding = "",
	};
	json_t *doc = wt_scn_results_json(r, nr, o, &info);
	int ret = wt_results_write(file, doc, err, sizeof(err));

	if (ret)
		fprintf(stderr, "walktorture: !!! %s\n", err);
	json_decref(doc);
	free(cmd);
	return ret;
}

/* An order file (the trace's text form) against s's thread names; NULL
 * when it cannot be read or parsed (reported as file:line:col). */
static struct wt_trace_event *load_order(const char *file,
					 const struct wt_scenario *s,
					 size_t *n)
{
	const char *names[WT_SCN_THREADS_MAX];
	struct wt_parse_error err = { 0 };
	struct wt_trace_event *ev;
	FILE *f = fopen(file, "r");
	char *text = NULL;
	size_t cap = 0;

	/* The whole file: a trace has no NUL byte to stop getdelim. */
	if (!f || getdelim(&text, &cap, '\0', f) < 0) {
		wt_usage_error("%s: cannot read: %s", file,
			       f && !ferror(f) ? "empty" : strerror(errno));
		if (f)
			fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	for (unsigned i = 0; i < s->nthreads; i++)
		names[i] = s->threads[i].name;
	ev = wt_trace_parse(text, names, s->nthreads, n, &err);
	if (!ev)
		wt_usage_error("%s:%u:%u: %s", file, err.line, err.col, err.msg);
	free(text);
	return ev;
}

int wt_cmd_replay(int argc, char **argv)
{
	struct wt_scn_list l = { 0 };
	struct wt_scn_result *r = NULL;
	const char *pos[2];
	unsigned npos = 0, nr = 0, failed = 0;
	char *file = NULL;
	const char *json_file = NULL, *order_file = NULL;
	struct wt_trace_event *order = NULL;
	struct wt_scn_opts o;
	bool seed_set = false, undirected = false;
	int ret = WT_EXIT_USAGE;

	wt_cli_scn_defaults(&o);
	o.replay = true;
	o.mode = WT_SCN_SIM;
	o.progress = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--bug") && i + 1 < argc) {
			if (wt_scn_bug_parse(argv[++i], &o.bugs)) {
				wt_usage_error("unknown bug '%s'", argv[i]);
				wt_scn_bug_print(stderr);
				return WT_EXIT_USAGE;
			}
			o.bug = argv[i];
		} else if (!strcmp(argv[i], "--memory") && i + 1 < argc) {
			if (wt_cli_memory_parse(argv[++i], &o))
				return WT_EXIT_USAGE;
		} else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
			json_file = argv[++i];
		} else if (!strcmp(argv[i], "--order") && i + 1 < argc) {
			order_file = argv[++i];
		} else if (!strcmp(argv[i], "--undirected")) {
			undirected = true;
		} else if (argv[i][0] == '-' || npos == 2) {
			return wt_usage_error("usage: walktorture replay SEED "
					      "SCENARIO | RESULTS.json#N");
		} else {
			pos[npos++] = argv[i];
		}
	}
	if (npos == 1 && strchr(pos[0], '#')) {
		bool twin = false;
		int memory;

		if (from_results(pos[0], &o.seed, &file, &memory, &twin))
			return WT_EXIT_USAGE;
		undirected |= twin;
		if (o.memory < 0)
			o.memory = memory;
		pos[0] = file;
		seed_set = true;
	} else if (npos == 2 && !wt_scn_parse_seed(pos[0], &o.seed)) {
		pos[0] = pos[1];
		seed_set = true;
	}
	if (!seed_set) {
		free(file);
		return wt_usage_error("usage: walktorture replay SEED SCENARIO | "
				      "RESULTS.json#N");
	}
	if (wt_scn_list_load(&l, pos, 1, stderr))
		goto out;
	if (l.n != 1) {
		wt_usage_error("replay: '%s' is %u scenarios; name one file",
			       pos[0], l.n);
		goto out;
	}
	if (undirected && l.v[0]->policy != WT_SCN_DIRECTED) {
		wt_usage_error("replay: %s has no schedule, so no undirected "
			       "twin (drop --undirected)", l.v[0]->file);
		goto out;
	}
	if (undirected && wt_scn_list_twins(&l, true, stderr))
		goto out;
	if (order_file) {
		order = load_order(order_file, l.v[0], &o.norder);
		if (!order)
			goto out;
		o.order = order;
	}
	ret = wt_scn_run_all(&l, &o, &r, &nr, &failed) ? WT_EXIT_USAGE :
	      failed ? WT_EXIT_FAIL : WT_EXIT_OK;
	if (json_file && write_json(json_file, r, nr, &o, argc, argv))
		ret = WT_EXIT_USAGE;
out:
	wt_scn_results_free(r, nr);
	wt_scn_list_free(&l);
	free(order);
	free(file);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * walktorture replay SEED SCENARIO [OPTION...]	(wt_opts_replay below)
 * walktorture replay RESULTS.json#N [OPTION...]
 *
 * Re-runs one iteration -- the one whose iteration seed is SEED, as every
 * failure's replay line says -- in sim mode with the full trace, prints
 * the trace and a timeline (one lane per thread), then the failure if it
 * happens again.  RESULTS.json#N takes the N-th failure (0-based, in
 * file order) of a results file and replays it as the run ran it: its
 * recorded replay command (the bug, the memory model, a twin's
 * --undirected, a lifted stress failure's --order), completed from the
 * record for older files; options given here override those.  --order
 * FILE follows a recorded order (a traced stress failure's
 * NAME-SEED.order, or any trace in its text form): the sim schedules the
 * events in that order, and where the iteration can no longer follow it
 * (another point comes next, or the thread is blocked) replay says at
 * which event and goes on under the seeded policy.  --undirected replays
 * an iteration of the scenario's undirected twin.  --json writes the
 * iteration's results (with the failure's walk steps and history
 * window).  Exit 1 when it fails, 0 when not.
 */
#define _GNU_SOURCE	/* strndup, asprintf */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "reports/atomic_file.h"
#include "reports/results.h"
#include "scenarios/src/minimize.h"
#include "scenarios/src/driver.h"
#include "scenarios/src/explore.h"
#include "sim/sched/trace.h"

/* --- RESULTS.json#N: the recorded command --- */

struct words {
	char **v;
	int n;
};

static int words_add(struct words *w, const char *s, size_t len)
{
	char **v = realloc(w->v, sizeof(*v) * (size_t)(w->n + 2));

	if (!v)
		return -1;
	w->v = v;
	v[w->n] = strndup(s, len);
	if (!v[w->n])
		return -1;
	v[++w->n] = NULL;
	return 0;
}

static void words_free(struct words *w)
{
	for (int i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

static bool words_have(const struct words *w, const char *opt)
{
	for (int i = 0; i < w->n; i++)
		if (!strcmp(w->v[i], opt))
			return true;
	return false;
}

/*
 * Split a command the runner wrote (wt_scn_shell_quote's words: literal,
 * or in single quotes with '\'' for a quote) back into words.  0, or -1
 * when it is not such a command.
 */
static int shell_split(const char *cmd, struct words *w)
{
	char *buf = malloc(strlen(cmd) + 1);
	const char *c = cmd;

	if (!buf)
		return -1;
	while (*c) {
		size_t n = 0;
		bool word = false;

		while (*c == ' ')
			c++;
		while (*c && *c != ' ') {
			word = true;
			if (*c == '\'') {
				const char *q = strchr(c + 1, '\'');

				if (!q)
					goto bad;
				memcpy(buf + n, c + 1, (size_t)(q - c - 1));
				n += (size_t)(q - c - 1);
				c = q + 1;
			} else if (*c == '\\' && c[1]) {
				buf[n++] = c[1];
				c += 2;
			} else {
				buf[n++] = *c++;
			}
		}
		if (word && words_add(w, buf, n))
			goto bad;
	}
	free(buf);
	return 0;
bad:
	free(buf);
	return -1;
}

/* A relative path the run wrote, as seen from here: as it is when it
 * exists, else beside the results file (a nightly's OUT moved or read
 * from elsewhere). */
static void resolve_beside(char **word, const char *results)
{
	const char *slash = strrchr(results, '/');
	char *alt;

	if (**word == '/' || !access(*word, F_OK) || !slash)
		return;
	if (asprintf(&alt, "%.*s/%s", (int)(slash - results), results,
		     *word) < 0)
		return;
	if (access(alt, F_OK)) {
		free(alt);
		return;
	}
	free(*word);
	*word = alt;
}

/*
 * The arguments of failure N of a results file's replay command, SEED
 * FILE first, then everything that shaped the run: the command the
 * runner recorded (--bug, --memory, --undirected, --order and whatever
 * else a policy or generator puts there), completed from the record's
 * fields for files written before the command said it all (the run's
 * bug, the scenario's memory model, a twin, a lifted order).  Not 0
 * when there is no such failure or it is not one iteration's.
 */
static int from_results(const char *arg, struct words *w)
{
	const char *hash = strrchr(arg, '#');
	char *path = hash ? strndup(arg, (size_t)(hash - arg)) : NULL, *end;
	unsigned long n = 0;
	json_t *doc = NULL, *sc, *f, *found = NULL, *fsc = NULL;
	json_error_t je;
	const char *rp, *bug, *m, *order, *sig;
	size_t i, j;
	int ret = -1;

	if (!path) {
		fprintf(stderr, "walktorture: %s: out of memory\n", arg);
		goto out;
	}
	errno = 0;
	if (hash[1] >= '0' && hash[1] <= '9')
		n = strtoul(hash + 1, &end, 10);
	if (hash[1] < '0' || hash[1] > '9' || *end || errno) {
		fprintf(stderr, "walktorture: %s: bad failure number '%s' (#N: "
			"N from 0, the failure's place in the file)\n", arg, hash + 1);
		goto out;
	}
	doc = json_load_file(path, 0, &je);
	if (!doc) {
		if (je.line > 0)	/* else it did not open: no place */
			fprintf(stderr, "walktorture: %s:%d:%d: %s\n", path,
				je.line, je.column, je.text);
		else
			fprintf(stderr, "walktorture: %s\n", je.text);
		goto out;
	}
	json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
		json_array_foreach(json_object_get(sc, "failures"), j, f)
			if (n-- == 0) {
				found = f;
				fsc = sc;
			}
	rp = json_string_value(json_object_get(found, "replay"));
	if (!found || !rp) {
		fprintf(stderr, "walktorture: %s has no failure %s with a "
			"replay command\n", path, hash + 1);
		goto out;
	}
	/* A count over several iterations is no one iteration's: its
	 * replay is the whole run. */
	if (strncmp(rp, "walktorture replay ", 19)) {
		fprintf(stderr, "walktorture: failure %s of %s is over several "
			"iterations, not one; replay it with: %s\n", hash + 1,
			path, rp);
		goto out;
	}
	if (shell_split(rp + 19, w) || w->n < 2) {
		fprintf(stderr, "walktorture: %s: failure %s: cannot read its "
			"replay command '%s'\n", path, hash + 1, rp);
		goto out;
	}
	bug = json_string_value(json_object_get(fsc, "bug"));
	if (!bug)
		bug = json_string_value(json_object_get(
			json_object_get(doc, "run"), "bug"));
	m = json_string_value(json_object_get(fsc, "memory"));
	order = json_string_value(json_object_get(found, "order"));
	if (bug && !words_have(w, "--bug") &&
	    (words_add(w, "--bug", 5) || words_add(w, bug, strlen(bug))))
		goto out;
	if (m && (!strcmp(m, "sc") || !strcmp(m, "tso") || !strcmp(m, "pso")) &&
	    !words_have(w, "--memory") &&
	    (words_add(w, "--memory", 8) || words_add(w, m, strlen(m))))
		goto out;
	if (json_is_object(json_object_get(fsc, "twin")) &&
	    !words_have(w, "--undirected") && words_add(w, "--undirected", 12))
		goto out;
	if (order && !words_have(w, "--order") &&
	    (words_add(w, "--order", 7) || words_add(w, order, strlen(order))))
		goto out;
	sig = json_string_value(json_object_get(found, "signature"));
	if (sig && (words_add(w, "--signature", 11) ||
		    words_add(w, sig, strlen(sig))))
		goto out;
	if (words_add(w, "--from", 6) || words_add(w, arg, strlen(arg)))
		goto out;
	resolve_beside(&w->v[1], path);
	for (int k = 2; k + 1 < w->n; k++)
		if (!strcmp(w->v[k], "--order"))
			resolve_beside(&w->v[k + 1], path);
	ret = 0;
out:
	json_decref(doc);
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

/* --- minimize --- */

struct minimize {
	bool on;
	const char *out;	/* -o */
	const char *signature;	/* the record's, when from a results file */
	const char *from;	/* RESULTS.json#N */
};

/* The new scenario's name: the output file's base name without .yaml. */
static void name_of(const char *out, char *buf, size_t len)
{
	const char *b = strrchr(out, '/');
	size_t n;

	b = b ? b + 1 : out;
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".yaml"))
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, b);
	for (char *c = buf; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", *c))
			*c = '_';
}

/*
 * Minimise the iteration into a directed scenario at mz->out, then run
 * that file with the bug and without: exit 0 when it fails with the
 * signature with the bug and passes without it, 1 when not, 2 when it
 * could not be made.
 */
static int minimize(const struct minimize *mz, const struct wt_scenario *s,
		    const struct wt_scn_opts *o, const char *file)
{
	struct wt_scn_minimized m;
	struct wt_atomic_file af;
	char name[128], note[1200], err[1024];
	bool fire = false, clean = false, fire0 = false, clean0 = false;

	(void)clean;

	name_of(mz->out, name, sizeof(name));
	if (mz->from)
		snprintf(note, sizeof(note), "%s (iteration seed %#" PRIx64 " of "
			 "%s%s%s%s)", mz->from, o->seed, s->name,
			 o->bug ? ", --bug " : "", o->bug ? o->bug : "",
			 o->order ? ", a lifted order" : "");
	else
		snprintf(note, sizeof(note), "iteration seed %#" PRIx64 " of %s%s%s",
			 o->seed, file, o->bug ? " --bug " : "",
			 o->bug ? o->bug : "");
	if (wt_scn_minimize(s, o, o->seed, mz->signature, name, note, &m))
		return WT_EXIT_USAGE;
	if (wt_atomic_open(&af, mz->out, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		free(m.yaml);
		return WT_EXIT_USAGE;
	}
	fputs(m.yaml, af.f);
	free(m.yaml);
	if (wt_atomic_commit(&af, err, sizeof(err))) {
		fprintf(stderr, "walktorture: !!! %s\n", err);
		return WT_EXIT_USAGE;
	}
	if (wt_scn_minimize_check(mz->out, o, o->bugs, m.signature, &fire,
				  &clean) ||
	    wt_scn_minimize_check(mz->out, o, 0, m.signature, &fire0, &clean0))
		return WT_EXIT_USAGE;
	printf("walktorture: minimize %s: kept %u of %u scheduling decisions, "
	       "%u schedule steps (%u candidate schedules tried)\n"
	       "walktorture: minimize signature: %s\n"
	       "walktorture: minimize %s%s%s: %s; without it: %s\n",
	       mz->out, m.kept, m.decisions, m.steps, m.tests, m.signature,
	       o->bug ? "with --bug " : "as run", o->bug ? o->bug : "", "",
	       fire ? "FAIL (the signature fires)" : "!!! the signature does not fire",
	       clean0 ? "PASS" : fire0 ? "!!! FAIL (the signature fires)" :
	       "!!! FAIL (other failures)");
	return fire && (o->bugs ? clean0 : true) ? WT_EXIT_OK : WT_EXIT_FAIL;
}

/* walktorture minimize RESULTS.json#N -o FILE: replay --minimize (the
 * same option table). */
int wt_cmd_minimize(int argc, char **argv)
{
	char **v = calloc((size_t)argc + 2, sizeof(*v));
	int ret;

	if (!v)
		return WT_EXIT_USAGE;
	/* first, so that it is never taken for an option's value */
	v[0] = argv[0];
	v[1] = (char *)"--minimize";
	for (int i = 1; i < argc; i++)
		v[i + 1] = argv[i];
	ret = wt_cmd_replay(argc + 1, v);
	free(v);
	return ret;
}

/*
 * replay RESULTS.json#N [OPTION...]: the recorded arguments, then the
 * command line's options (which win: each option's last use counts).
 */
static int replay_recorded(int argc, char **argv, const char *arg)
{
	struct words w = { 0 };
	char **v;
	int n = 0, ret = WT_EXIT_USAGE;

	if (from_results(arg, &w))
		goto out;
	v = calloc((size_t)(argc + w.n + 1), sizeof(*v));
	if (!v)
		goto out;
	v[n++] = argv[0];
	for (int i = 0; i < w.n; i++)
		v[n++] = w.v[i];
	for (int i = 1; i < argc; i++)
		if (argv[i] != arg)
			v[n++] = argv[i];
	ret = wt_cmd_replay(n, v);
	free(v);
out:
	words_free(&w);
	return ret;
}

enum {
	OPT_JSON = WT_OPT_SCN__END, OPT_ORDER, OPT_UNDIRECTED, OPT_MINIMIZE,
	OPT_OUTPUT, OPT_SIGNATURE, OPT_FROM, OPT_PREEMPTS,
};

const struct wt_opt wt_opts_replay[] = {
	WT_OPT_ENTRY_BUG,
	WT_OPT_ENTRY_MEMORY,
	WT_OPT("order", OPT_ORDER, 0, "FILE", "follow a recorded order (a traced stress failure's NAME-SEED.order)"),
	WT_OPT("json", OPT_JSON, 'j', "FILE", "write the iteration's results as JSON to FILE"),
	WT_OPT("undirected", OPT_UNDIRECTED, 0, NULL, "replay an iteration of the scenario's undirected twin"),
	WT_OPT("minimize", OPT_MINIMIZE, 0, NULL, "delta-debug the iteration's schedule into a directed scenario (with -o)"),
	WT_OPT("output", OPT_OUTPUT, 'o', "FILE", "--minimize: the regression scenario to write"),
	WT_OPT("signature", OPT_SIGNATURE, 0, "SIG", "--minimize: the failure signature to keep (RESULTS.json#N gives its record's)"),
	WT_OPT("from", OPT_FROM, 0, "RESULTS.json#N", "--minimize: where the failure came from, for the scenario's description"),
	WT_OPT_ENTRY_POLICY,
	WT_OPT("preempts", OPT_PREEMPTS, 0, "SPEC", "policy explore: the iteration's schedule, as its replay line gives it"),
	{ 0 }
};

static const char replay_usage[] =
	"usage: walktorture replay SEED SCENARIO | RESULTS.json#N";

int wt_cmd_replay(int argc, char **argv)
{
	struct wt_scn_list l = { 0 };
	struct wt_scn_result *r = NULL;
	const char *pos[1], *v;
	unsigned nr = 0, failed = 0;
	const char *json_file = NULL, *order_file = NULL, *preempts = NULL;
	struct wt_preempt pre[WT_EXPLORE_MAX_PREEMPTS];
	struct wt_trace_event *order = NULL;
	struct wt_scn_opts o;
	struct wt_opts p;
	struct minimize mz = { 0 };
	bool undirected = false, seed_set = false;
	int ret = WT_EXIT_USAGE, id;

	wt_cli_scn_defaults(&o);
	o.replay = true;
	o.mode = WT_SCN_SIM;
	o.progress = false;
	o.progress_log = false;
	if (wt_opts_begin(&p, argc, argv))
		return WT_EXIT_USAGE;
	while ((id = wt_opts_next(&p, &v)) > 0) {
		if (id == WT_OPT_BUG)
			o.bugs = 0;	/* the last --bug: the command line's */
		if (wt_cli_scn_option(id, v, &o, &seed_set) < 0)
			goto out;
		if (id == OPT_JSON)
			json_file = v;
		else if (id == OPT_ORDER)
			order_file = v;
		else if (id == OPT_UNDIRECTED)
			undirected = true;
		else if (id == OPT_MINIMIZE)
			mz.on = true;
		else if (id == OPT_OUTPUT)
			mz.out = v;
		else if (id == OPT_SIGNATURE)
			mz.signature = v;
		else if (id == OPT_FROM)
			mz.from = v;
		else if (id == OPT_PREEMPTS)
			preempts = v;
	}
	if (id < 0) {
		ret = wt_opts_exit(id);
		goto out;
	}
	if (p.npos == 1 && strchr(p.pos[0], '#')) {
		ret = replay_recorded(argc, argv, p.pos[0]);
		goto out;
	}
	if (mz.on != !!mz.out) {
		wt_usage_error("usage: walktorture minimize RESULTS.json#N -o "
			       "REGRESS.yaml (or replay ... --minimize -o "
			       "REGRESS.yaml)");
		goto out;
	}
	if (p.npos != 2 || wt_scn_parse_seed(p.pos[0], &o.seed)) {
		wt_usage_error("%s", replay_usage);
		goto out;
	}
	pos[0] = p.pos[1];
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
	if (preempts) {
		char msg[256];

		if (wt_scn_policy_of(l.v[0], &o) != WT_SCN_EXPLORE) {
			wt_usage_error("replay: --preempts is an explore "
				       "iteration's schedule (--policy explore)");
			goto out;
		}
		if (wt_explore_parse(l.v[0], preempts, pre, &o.npreempts, msg,
				     sizeof(msg))) {
			wt_usage_error("--preempts: %s", msg);
			goto out;
		}
		o.preempts = pre;
	}
	if (order_file) {
		order = load_order(order_file, l.v[0], &o.norder);
		if (!order)
			goto out;
		o.order = order;
	}
	if (mz.on) {
		ret = minimize(&mz, l.v[0], &o, p.pos[1]);
		goto out;
	}
	ret = wt_scn_run_all(&l, &o, &r, &nr, &failed) ? WT_EXIT_USAGE :
	      failed ? WT_EXIT_FAIL : WT_EXIT_OK;
	if (wt_scn_results_sanitizer(r, nr))
		ret = WT_EXIT_SANITIZER;
	if (json_file && write_json(json_file, r, nr, &o, argc, argv))
		ret = WT_EXIT_USAGE;
out:
	wt_scn_results_free(r, nr);
	wt_scn_list_free(&l);
	free(order);
	wt_opts_end(&p);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/* The fuzz loop: see fuzz.h. */
#define _GNU_SOURCE	/* open_memstream, asprintf */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scenarios/src/fuzz.h"
#include "scenarios/src/runner.h"

/* The last line of text (the runner's verdict), without its newline. */
static void last_line(const char *text, size_t len, FILE *out)
{
	size_t end = len, start;

	while (end && text[end - 1] == '\n')
		end--;
	for (start = end; start && text[start - 1] != '\n'; start--)
		;
	fprintf(out, "%.*s\n", (int)(end - start), text + start);
}

/* `walktorture run FILE --seed S [--bug B] [--memory M]' of a workload. */
static void rerun_cmd(char *buf, size_t len, const struct wt_fuzz_opts *o,
		      const char *file)
{
	char qfile[1100], qbug[160] = "";

	wt_scn_shell_quote(qfile, sizeof(qfile), file);
	if (o->run.bug)
		wt_scn_shell_quote(qbug, sizeof(qbug), o->run.bug);
	snprintf(buf, len, "walktorture run %s --seed %#" PRIx64 "%s%s%s",
		 qfile, o->run.seed, qbug[0] ? " --bug " : "", qbug,
		 o->run.memory < 0 ? "" : o->run.memory == WT_SCN_PSO ?
		 " --memory pso" : o->run.memory == WT_SCN_TSO ?
		 " --memory tso" : " --memory sc");
}

/* One workload: 0 passed, 1 failed, -1 could not run. */
static int one_workload(const struct wt_fuzz_opts *o, uint64_t j,
			struct wt_fuzz_result *res, double t0)
{
	FILE *out = o->run.out ? o->run.out : stdout;
	struct wt_scn_opts ro = o->run;
	struct wt_scn_error err = { 0 };
	struct wt_scn_result r;
	struct wt_scenario *s;
	char name[64], *text, *file = NULL, *log = NULL, cmd[1400];
	size_t loglen = 0;
	int ret = 0;

	text = wt_gen_workload(wt_gen_seed(o->run.seed, j), &o->gen, name,
			       sizeof(name));
	if (!text || asprintf(&file, "%s/%s.yaml", o->dir ? o->dir : ".",
			      name) < 0) {
		fprintf(stderr, "walktorture: fuzz: out of memory\n");
		free(text);
		return -1;
	}
	s = wt_scenario_load_text(file, WT_FUZZ_SUITE, text, &err);
	if (!s) {
		/* a generated file must load: the generator is wrong */
		fprintf(stderr, "walktorture: fuzz: !!! generated workload %"
			PRIu64 " does not load: %s\n%s", j,
			err.set ? err.text : "out of memory", text);
		free(text);
		free(file);
		return -1;
	}
	ro.out = open_memstream(&log, &loglen);
	ro.progress = false;
	if (!ro.out || wt_scn_run(s, &ro, &r)) {
		if (ro.out)
			fclose(ro.out);
		fprintf(stderr, "walktorture: fuzz: !!! workload %" PRIu64
			" (%s) could not run\n%s", j, name, log ? log : "");
		free(log);
		wt_scenario_free(s);
		free(text);
		free(file);
		return -1;
	}
	fclose(ro.out);
	res->workloads++;
	res->iterations += r.iterations;
	if (r.pass) {
		if (o->verbose)
			fputs(log, out);
		else
			last_line(log, loglen, out);
	} else {
		ret = 1;
		fputs(log, out);
		res->failed++;
		if (o->save && o->save(file, text, o->save_arg))
			ret = -1;
		rerun_cmd(cmd, sizeof(cmd), o, file);
		fprintf(out, "walktorture: fuzz !!! workload %" PRIu64 " failed: "
			"reproducer %s\nrerun: %s\n", j, file, cmd);
		if (!res->first &&
		    (!o->sought || o->sought(&r, o->search_arg))) {
			res->first = j + 1;
			res->first_seconds = wt_scn_now_s() - t0;
			res->first_iterations = res->iterations;
			snprintf(res->first_file, sizeof(res->first_file), "%s",
				 file);
		}
	}
	fflush(out);
	wt_scn_result_free(&r);
	free(log);
	wt_scenario_free(s);
	free(text);
	free(file);
	return ret;
}

int wt_scn_fuzz(const struct wt_fuzz_opts *o, struct wt_fuzz_result *res)
{
	FILE *out = o->run.out ? o->run.out : stdout;
	uint64_t n = o->workloads;
	double t0 = wt_scn_now_s();
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (!n && !o->duration_ns && !o->enough)
		n = WT_FUZZ_WORKLOADS;
	for (uint64_t j = o->first; !n || j < o->first + n; j++) {
		int k;

		if (o->duration_ns && (wt_scn_now_s() - t0) * 1e9 >= (double)o->duration_ns)
			break;
		if (o->enough && o->enough(o->search_arg))
			break;
		k = one_workload(o, j, res, t0);
		if (k < 0) {
			ret = -1;
			break;
		}
		if (k > 0 && !o->keep_going && res->first)
			break;
		if (o->run.progress)
			fprintf(stderr, "\r\033[Kwalktorture: fuzz workload %"
				PRIu64 " failed=%" PRIu64, j + 1, res->failed);
	}
	if (o->run.progress)
		fputs("\r\033[K", stderr);
	res->seconds = wt_scn_now_s() - t0;
	fprintf(out, "walktorture: fuzz seed=%#" PRIx64 " workloads=%" PRIu64
		" iterations=%" PRIu64 " failed=%" PRIu64 " seconds=%.2f",
		o->run.seed, res->workloads, res->iterations, res->failed,
		res->seconds);
	if (res->first)
		fprintf(out, " first=%" PRIu64 " first_seconds=%.3f "
			"first_iterations=%" PRIu64, res->first - 1,
			res->first_seconds, res->first_iterations);
	fprintf(out, " %s\n", ret ? "ERROR" : res->failed ? "FAIL" : "PASS");
	fflush(out);
	return ret;
}

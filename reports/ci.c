/* SPDX-License-Identifier: MIT */
/* The test cases of a results document, by suite, for KTAP and JUnit (ci.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/atomic_file.h"
#include "reports/ci.h"
#include "reports/results.h"

static struct wt_ci_suite *suite_of(struct wt_ci_run *r, const char *name,
				    unsigned max_cases)
{
	struct wt_ci_suite *s;

	for (unsigned i = 0; i < r->n; i++)
		if (!strcmp(r->suites[i].name, name))
			return &r->suites[i];
	s = &r->suites[r->n++];
	s->name = name;
	s->cases = calloc(max_cases, sizeof(*s->cases));
	return s->cases ? s : NULL;
}

static bool has_case(const struct wt_ci_suite *s, const char *name)
{
	for (unsigned i = 0; i < s->n; i++)
		if (!strcmp(s->cases[i].name, name))
			return true;
	return false;
}

int wt_ci_collect(json_t *doc, struct wt_ci_run *r)
{
	json_t *scs = json_object_get(doc, "scenarios");
	json_t *skipped = json_object_get(doc, "skipped"), *x;
	unsigned max = (unsigned)(json_array_size(scs) +
				  json_array_size(skipped));
	struct wt_ci_suite *s;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->suites = calloc(max + 1, sizeof(*r->suites));
	if (!r->suites)
		return -1;
	json_array_foreach(scs, i, x) {
		s = suite_of(r, wt_json_str(x, "suite"), max);
		if (!s)
			goto fail;
		s->cases[s->n++] = (struct wt_ci_case){
			.name = wt_json_str(x, "name"), .sc = x,
		};
		if (!strcmp(wt_scenario_verdict(x), "FAIL")) {
			s->failed++;
			r->failed++;
		}
		s->duration_s += wt_json_num(x, "duration_s", 0);
		r->duration_s += wt_json_num(x, "duration_s", 0);
		r->cases++;
	}
	json_array_foreach(skipped, i, x) {
		const char *suite = wt_json_str(x, "suite");
		const char *name = wt_json_str(x, "name");

		if (!suite || !name)
			continue;
		s = suite_of(r, suite, max);
		if (!s)
			goto fail;
		if (has_case(s, name))
			continue;	/* skipped in one merged run, run in another */
		s->cases[s->n++] = (struct wt_ci_case){
			.name = name,
			.skip = wt_json_str(x, "reason") ? wt_json_str(x, "reason") :
				"skipped",
		};
		s->skipped++;
		r->skipped++;
		r->cases++;
	}
	return 0;
fail:
	wt_ci_free(r);
	return -1;
}

void wt_ci_free(struct wt_ci_run *r)
{
	for (unsigned i = 0; r->suites && i < r->n; i++)
		free(r->suites[i].cases);
	free(r->suites);
	memset(r, 0, sizeof(*r));
}

/* text with every control character (newlines too) made a space */
static void one_line(char *buf, size_t len, const char *text)
{
	size_t i;

	snprintf(buf, len, "%s", text ? text : "");
	for (i = 0; buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = ' ';
}

void wt_ci_failure_lines(json_t *sc,
			 void (*emit)(void *ctx, const char *key,
				      const char *text),
			 void *ctx)
{
	json_t *groups = wt_scenario_groups(sc), *fl;
	char buf[4096];
	size_t i;

	snprintf(buf, sizeof(buf), "%lld failing iterations, %lld failure "
		 "records, %zu signatures", wt_scenario_failing_iterations(sc),
		 wt_scenario_failure_records(sc), json_array_size(groups));
	emit(ctx, "failures", buf);
	json_decref(groups);
	json_array_foreach(json_object_get(sc, "failures"), i, fl) {
		const char *check = wt_json_str(fl, "check");
		const char *sig = wt_json_str(fl, "signature");
		char msg[2048];

		one_line(msg, sizeof(msg), wt_json_str(fl, "message"));
		snprintf(buf, sizeof(buf), "%s%s%s: %s", wt_json_str(fl, "kind"),
			 check ? " " : "", check ? check : "", msg);
		emit(ctx, "failure", buf);
		one_line(buf, sizeof(buf), wt_json_str(fl, "replay"));
		emit(ctx, "replay", buf);
		if (sig) {
			one_line(buf, sizeof(buf), sig);
			emit(ctx, "signature", buf);
		}
	}
}

int wt_ci_write(const char *file, json_t *doc,
		 void (*render)(FILE *f, json_t *doc,
				const struct wt_ci_run *r),
		 char *err, size_t errlen)
{
	struct wt_atomic_file a;
	struct wt_ci_run r;

	if (wt_results_validate(file, doc, err, errlen))
		return -1;
	if (wt_ci_collect(doc, &r)) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	if (wt_atomic_open(&a, file, err, errlen)) {
		wt_ci_free(&r);
		return -1;
	}
	render(a.f, doc, &r);
	wt_ci_free(&r);
	if (ferror(a.f)) {
		snprintf(err, errlen, "%s: write failed", file);
		wt_atomic_abort(&a);
		return -1;
	}
	return wt_atomic_commit(&a, err, errlen);
}

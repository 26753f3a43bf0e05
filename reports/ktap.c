/* SPDX-License-Identifier: MIT */
/*
 * KTAP version 1 of a results document (ci.h), as kunit.py reads it:
 *
 *	KTAP version 1
 *	# walktorture run seed=0x5 mode=sim
 *	1..2				one test per suite
 *	    KTAP version 1
 *	    # Subtest: basic
 *	    1..3			one test per scenario
 *	    ok 1 quiet
 *	    # failure: expectation: path rcu.ok == 14: got 42
 *	    # replay: walktorture replay 0x... scenarios/basic/root.yaml
 *	    not ok 2 root
 *	    ok 3 walker # SKIP directed schedule: sim mode only
 *	# basic: pass:1 fail:1 skip:1 total:3
 *	not ok 1 basic
 *
 * A case's diagnostics come before its result line, as kunit prints a
 * test's log; names lose '#' and control characters (a '#' would start
 * a directive).
 */
#include <stdio.h>
#include <string.h>

#include "reports/ci.h"
#include "reports/results.h"

#define INDENT "    "

/* A name as a KTAP result line can hold it. */
static void ktap_name(FILE *f, const char *name)
{
	for (const char *c = name ? name : "?"; *c; c++)
		fputc(*c == '#' || (unsigned char)*c < 0x20 ? '_' : *c, f);
}

static void diag(void *ctx, const char *key, const char *text)
{
	fprintf(ctx, INDENT "# %s: %s\n", key, text);
}

static void ktap_case(FILE *f, const struct wt_ci_case *c, unsigned k)
{
	bool fail = c->sc && !strcmp(wt_scenario_verdict(c->sc), "FAIL");

	if (fail)
		wt_ci_failure_lines(c->sc, diag, f);
	fprintf(f, INDENT "%s %u ", fail ? "not ok" : "ok", k);
	ktap_name(f, c->name);
	if (c->skip) {
		fputs(" # SKIP ", f);
		ktap_name(f, c->skip);
	}
	fputc('\n', f);
}

static void ktap_suite(FILE *f, const struct wt_ci_suite *s, unsigned k)
{
	fprintf(f, INDENT "KTAP version 1\n" INDENT "# Subtest: ");
	ktap_name(f, s->name);
	fprintf(f, "\n" INDENT "1..%u\n", s->n);
	for (unsigned i = 0; i < s->n; i++)
		ktap_case(f, &s->cases[i], i + 1);
	fputs("# ", f);
	ktap_name(f, s->name);
	fprintf(f, ": pass:%u fail:%u skip:%u total:%u\n",
		s->n - s->failed - s->skipped, s->failed, s->skipped, s->n);
	fprintf(f, "%s %u ", s->failed ? "not ok" : "ok", k);
	ktap_name(f, s->name);
	/* a suite of skips only is skipped, as kunit says of one */
	fputs(s->n && s->skipped == s->n ? " # SKIP all skipped\n" : "\n", f);
}

static void ktap(FILE *f, json_t *doc, const struct wt_ci_run *r)
{
	json_t *run = json_object_get(doc, "run");
	const char *cmd = wt_json_str(run, "command");

	fputs("KTAP version 1\n# walktorture", f);
	fprintf(f, " %s seed=%s mode=%s\n", wt_json_str(run, "version"),
		wt_json_str(run, "seed"), wt_json_str(run, "mode"));
	if (cmd) {
		fputs("# command: ", f);
		ktap_name(f, cmd);
		fputc('\n', f);
	}
	fprintf(f, "1..%u\n", r->n);
	for (unsigned i = 0; i < r->n; i++)
		ktap_suite(f, &r->suites[i], i + 1);
	fprintf(f, "# Totals: pass:%u fail:%u skip:%u total:%u\n",
		r->cases - r->failed - r->skipped, r->failed, r->skipped,
		r->cases);
}

int wt_ktap_write(const char *file, json_t *doc, char *err, size_t errlen)
{
	return wt_ci_write(file, doc, ktap, err, errlen);
}

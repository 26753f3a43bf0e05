/* SPDX-License-Identifier: MIT */
/*
 * JUnit XML of a results document (ci.h), valid against the common
 * schema (Jenkins' junit-10.xsd, which GitLab's reader also accepts):
 *
 *	<testsuites name="walktorture" tests= failures= errors="0" time=>
 *	  <testsuite name="basic" tests= failures= errors="0" skipped= time=
 *	             timestamp= hostname= id= package="walktorture">
 *	    <properties><property name="seed" value="0x5"/>...</properties>
 *	    <testcase name="root" classname="walktorture.basic" time=>
 *	      <failure type="expectation" message="...">diagnostics</failure>
 *	    </testcase>
 *	    <testcase ...><skipped message="why"/></testcase>
 *	  </testsuite>
 *	</testsuites>
 *
 * timestamp is the run's start without its zone (Ant's schema wants it
 * so); times are seconds with three decimals.
 */
#include <stdio.h>
#include <string.h>

#include "reports/ci.h"
#include "reports/results.h"

/* Text as XML character data or an attribute value: the five entities,
 * newlines and tabs as character references, other control characters
 * (which XML 1.0 cannot hold) as spaces. */
static void xml(FILE *f, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
		switch (*c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\n': fputs("&#10;", f); break;
		case '\t': fputs("&#9;", f); break;
		default:
			fputc(*c < 0x20 || *c == 0x7f ? ' ' : *c, f);
		}
	}
}

static void attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	xml(f, value);
	fputc('"', f);
}

static void property(FILE *f, json_t *run, const char *key)
{
	const char *v = wt_json_str(run, key);

	if (!v)
		return;
	fputs("      <property", f);
	attr(f, "name", key);
	attr(f, "value", v);
	fputs("/>\n", f);
}

static void text_line(void *ctx, const char *key, const char *text)
{
	fprintf(ctx, "%s: ", key);
	xml(ctx, text);
	fputc('\n', ctx);
}

static void junit_case(FILE *f, const struct wt_ci_case *c,
		       const char *suite)
{
	json_t *fl = c->sc ? json_array_get(json_object_get(c->sc, "failures"), 0) :
		     NULL;
	bool fail = c->sc && !strcmp(wt_scenario_verdict(c->sc), "FAIL");

	fputs("    <testcase", f);
	attr(f, "name", c->name);
	fputs(" classname=\"walktorture.", f);
	xml(f, suite);
	fprintf(f, "\" time=\"%.3f\"", c->sc ?
		wt_json_num(c->sc, "duration_s", 0) : 0.0);
	if (!fail && !c->skip) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	if (c->skip) {
		fputs("      <skipped", f);
		attr(f, "message", c->skip);
		fputs("/>\n", f);
	} else {
		fputs("      <failure", f);
		attr(f, "type", fl ? wt_json_str(fl, "kind") : "failure");
		attr(f, "message", fl ? wt_json_str(fl, "message") :
		     "the scenario failed");
		fputc('>', f);
		wt_ci_failure_lines(c->sc, text_line, f);
		fputs("</failure>\n", f);
	}
	fputs("    </testcase>\n", f);
}

static void junit_suite(FILE *f, json_t *run, const struct wt_ci_suite *s,
			unsigned id)
{
	const char *started = wt_json_str(run, "started");
	char stamp[32] = "";

	/* "2026-12-05T01:22:15Z" -> "2026-12-05T01:22:15" */
	if (started)
		snprintf(stamp, sizeof(stamp), "%.19s", started);
	fputs("  <testsuite", f);
	attr(f, "name", s->name);
	fprintf(f, " tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"%u\""
		" time=\"%.3f\"", s->n, s->failed, s->skipped, s->duration_s);
	attr(f, "timestamp", stamp);
	attr(f, "hostname", wt_json_str(json_object_get(run, "machine"),
					"hostname"));
	fprintf(f, " id=\"%u\" package=\"walktorture\">\n    <properties>\n",
		id);
	property(f, run, "seed");
	property(f, run, "mode");
	property(f, run, "memory");
	property(f, run, "bug");
	property(f, run, "shard");
	property(f, run, "version");
	property(f, run, "git_rev");
	property(f, run, "command");
	fputs("    </properties>\n", f);
	for (unsigned i = 0; i < s->n; i++)
		junit_case(f, &s->cases[i], s->name);
	fputs("  </testsuite>\n", f);
}

static void junit(FILE *f, json_t *doc, const struct wt_ci_run *r)
{
	json_t *run = json_object_get(doc, "run");

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"walktorture\" tests=\"%u\" failures=\"%u\""
		" errors=\"0\" time=\"%.3f\">\n", r->cases, r->failed,
		r->duration_s);
	for (unsigned i = 0; i < r->n; i++)
		junit_suite(f, run, &r->suites[i], i);
	fputs("</testsuites>\n", f);
}

int wt_junit_write(const char *file, json_t *doc, char *err, size_t errlen)
{
	return wt_ci_write(file, doc, junit, err, errlen);
}

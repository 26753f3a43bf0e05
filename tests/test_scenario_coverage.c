/* SPDX-License-Identifier: MIT */
/*
 * Coverage of the exit-path catalogue: every path `walktorture paths`
 * prints is forced, with an exact count (`path NAME == N`, N >= 1), by a
 * directed scenario of the shipped suites that also pins the walk's
 * answer (a `result` expectation) and has the oracle judge it (`oracle
 * clean`) -- or the catalogue says it cannot happen
 * (WT_PATH_UNREACHABLE_LIST), or it is listed, with its reason, in
 * scenarios/UNFORCED.  Zoo scenarios force paths with a bug in place, so
 * they do not count.  An excused path that some scenario forces after
 * all, or an UNFORCED line naming no path, fails the test too, so the
 * excuses stay short and honest.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "core/paths.h"
#include "scenarios/src/scenario.h"
#include "tests/test_scenario_util.h"

static const char *source_dir(void)
{
	const char *d = getenv("WT_SOURCE_DIR");

	return d && *d ? d : WT_SOURCE_DIR;
}

/* The names in scenarios/UNFORCED (NULL-terminated). */
static char **unforced(void)
{
	char *path, line[1024];
	char **v = calloc(WT_PATH__COUNT + 1, sizeof(*v));
	unsigned n = 0;
	FILE *f;

	cr_assert(asprintf(&path, "%s/scenarios/UNFORCED", source_dir()) > 0);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');

		if (line[0] == '#' || line[0] == '\n')
			continue;
		cr_assert_not_null(tab, "UNFORCED: no reason on '%s'", line);
		*tab = '\0';
		cr_assert(wt_path_lookup(line) >= 0, "UNFORCED: '%s' is no path",
			  line);
		cr_assert(strlen(tab + 1) > 10, "UNFORCED: %s: give a reason", line);
		cr_assert_lt(n, WT_PATH__COUNT);
		v[n++] = strdup(line);
	}
	if (f)
		fclose(f);
	free(path);
	return v;
}

static bool listed(char **v, const char *name)
{
	for (; *v; v++)
		if (!strcmp(*v, name))
			return true;
	return false;
}

static bool expects_kind(const struct wt_scenario *s, enum wt_expect_kind k)
{
	for (unsigned i = 0; i < s->nexpects; i++)
		if (s->expects[i].kind == k)
			return true;
	return false;
}

/*
 * Mark the paths s forces exactly: a directed scenario outside the zoo
 * that also pins its answer and passes the oracle.
 */
static void forced_by(const struct wt_scenario *s, bool *forced)
{
	if (s->policy != WT_SCN_DIRECTED || !strcmp(s->suite, "zoo") ||
	    !expects_kind(s, WT_EXPECT_RESULT) ||
	    !expects_kind(s, WT_EXPECT_ORACLE))
		return;
	for (unsigned i = 0; i < s->nexpects; i++) {
		const struct wt_expect *e = &s->expects[i];

		if (e->kind == WT_EXPECT_PATH && e->cmp == WT_CMP_EQ &&
		    e->value >= 1 && e->npaths == 1)
			forced[e->paths[0]] = true;
	}
}

Test(scenario_coverage, every_forceable_path_is_forced_exactly)
{
	char *root, **skip = unforced();
	bool forced[WT_PATH__COUNT] = { false };
	struct wt_scn_list l = { 0 };
	const char *args[1];
	char missing[4096] = "", stale[2048] = "";

	cr_assert(asprintf(&root, "%s/scenarios", source_dir()) > 0);
	setenv("WT_SCENARIOS_DIR", root, 1);
	{
		DIR *d = opendir(root);
		struct dirent *e;

		cr_assert_not_null(d);
		while ((e = readdir(d))) {
			char *p;
			DIR *sub;

			if (e->d_name[0] == '.' || !strcmp(e->d_name, "src"))
				continue;
			cr_assert(asprintf(&p, "%s/%s", root, e->d_name) > 0);
			sub = opendir(p);
			if (sub) {
				closedir(sub);
				args[0] = p;
				cr_assert_eq(wt_scn_list_load(&l, args, 1, stderr), 0,
					     "every shipped scenario loads: %s", p);
			}
			free(p);
		}
		closedir(d);
	}
	cr_assert_gt(l.n, 0);
	for (unsigned i = 0; i < l.n; i++)
		forced_by(l.v[i], forced);
	for (unsigned p = 0; p < WT_PATH__COUNT; p++) {
		const char *name = wt_path_info(p)->name;
		char *buf = forced[p] ? stale : missing;
		size_t size = forced[p] ? sizeof(stale) : sizeof(missing);

		bool excused = listed(skip, name) || wt_path_unreachable(p);

		if (forced[p] == excused)
			snprintf(buf + strlen(buf), size - strlen(buf), " %s", name);
	}
	cr_expect_str_eq(missing, "", "forceable but not forced exactly by a "
			 "directed scenario with a result and oracle clean:%s",
			 missing);
	cr_expect_str_eq(stale, "", "excused (UNFORCED, or unreachable in "
			 "core/paths.h) but forced:%s", stale);
	wt_scn_list_free(&l);
	for (char **v = skip; *v; v++)
		free(*v);
	free(skip);
	free(root);
}

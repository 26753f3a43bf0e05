/* SPDX-License-Identifier: MIT */
/*
 * Suites: a suite is a folder of scenario files.  An argument of `run' is
 * a scenario file, a folder, or the name of a shipped suite (a folder
 * under the scenarios root), or SUITE/NAME for one shipped scenario.
 * Every file is loaded and validated before the list is handed back: one
 * bad file stops the whole run before anything runs.
 */
#define _GNU_SOURCE	/* asprintf */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scenarios/src/scenario.h"
#include "sim/nearest.h"

const char *wt_scn_root(void)
{
	const char *env = getenv("WT_SCENARIOS_DIR");

	return env && *env ? env : WT_SOURCE_DIR "/scenarios";
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted *.yaml files of dir (NULL-terminated, caller frees). */
static char **yaml_files(const char *dir, unsigned *n)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	unsigned cap = 0;
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") ||
		    e->d_name[0] == '.')
			continue;
		if (*n + 1 >= cap) {
			char **nv = realloc(v, (cap = cap * 2 + 16) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		if (asprintf(&v[*n], "%s/%s", dir, e->d_name) < 0)
			break;
		(*n)++;
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), by_name);
	return v;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

#define SUITES_MAX 64

/* The shipped suites' names, sorted (caller frees each). */
static unsigned suite_names(char **names, unsigned max)
{
	const char *root = wt_scn_root();
	DIR *d = opendir(root);
	unsigned n = 0;
	struct dirent *e;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char *p;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "src"))
			continue;
		if (asprintf(&p, "%s/%s", root, e->d_name) < 0)
			continue;
		if (is_dir(p) && (names[n] = strdup(e->d_name)))
			n++;
		free(p);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	return n;
}

void wt_scn_print_suites(FILE *f)
{
	char *names[SUITES_MAX];
	unsigned n = suite_names(names, SUITES_MAX);

	fputs("walktorture: suites:", f);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, " %s", names[i]);
		free(names[i]);
	}
	fputc('\n', f);
}

/* "unknown scenario or suite", with the nearest suite (or SUITE/NAME's
 * suite) when one is near, and every suite. */
static void unknown(const char *arg, FILE *errf)
{
	char *names[SUITES_MAX], dym[WT_NEAREST_MAX + 32] = "";
	unsigned n = suite_names(names, SUITES_MAX);

	if (!strchr(arg, '/'))
		wt_nearest_text(dym, sizeof(dym), arg,
				(const char *const *)names, n);
	fprintf(errf, "walktorture: unknown scenario or suite '%s'%s\n", arg,
		dym);
	for (unsigned i = 0; i < n; i++)
		free(names[i]);
	wt_scn_print_suites(errf);
}

int wt_scn_list_add(struct wt_scn_list *l, struct wt_scenario *s)
{
	if (l->n == l->cap) {
		unsigned cap = l->cap ? 2 * l->cap : 32;
		void *nv = realloc(l->v, cap * sizeof(*l->v));

		if (!nv)
			return -1;
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	return 0;
}

static int load_one(struct wt_scn_list *l, const char *file, FILE *errf)
{
	struct wt_scn_error err = { 0 };
	struct wt_scenario *s = wt_scenario_load(file, NULL, &err);

	if (!s) {
		fprintf(errf, "%s\n", err.set ? err.text : "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i]->file, s->file)) {
			wt_scenario_free(s);	/* named twice: run it once */
			return 0;
		}
		if (!strcmp(l->v[i]->name, s->name) &&
		    !strcmp(l->v[i]->suite, s->suite)) {
			fprintf(errf, "%s:1:1: scenario '%s' of suite '%s' is "
				"also in %s\n", file, s->name, s->suite,
				l->v[i]->file);
			wt_scenario_free(s);
			return -1;
		}
	}
	if (wt_scn_list_add(l, s)) {
		wt_scenario_free(s);
		return -1;
	}
	return 0;
}

static int load_dir(struct wt_scn_list *l, const char *dir, FILE *errf)
{
	unsigned n;
	char **files = yaml_files(dir, &n);
	int ret = 0;

	if (!n) {
		fprintf(errf, "walktorture: no scenario files (*.yaml) in %s\n",
			dir);
		ret = -1;
	}
	for (unsigned i = 0; i < n; i++) {
		if (load_one(l, files[i], errf))
			ret = -1;
		free(files[i]);
	}
	free(files);
	return ret;
}

/* A shipped suite or SUITE/NAME, under the root; NULL when none. */
static char *shipped(const char *arg, bool *dir)
{
	char *p;

	if (asprintf(&p, "%s/%s", wt_scn_root(), arg) < 0)
		return NULL;
	if ((*dir = is_dir(p)))
		return p;
	if (is_file(p))
		return p;
	free(p);
	if (asprintf(&p, "%s/%s.yaml", wt_scn_root(), arg) < 0)
		return NULL;
	if (is_file(p))
		return p;
	free(p);
	return NULL;
}

int wt_scn_list_load(struct wt_scn_list *l, const char *const *args,
		     unsigned nargs, FILE *errf)
{
	int ret = 0;

	for (unsigned i = 0; i < nargs; i++) {
		const char *a = args[i];
		bool dir = false;
		char *p;

		if (is_dir(a)) {
			ret |= load_dir(l, a, errf);
		} else if (is_file(a)) {
			ret |= load_one(l, a, errf);
		} else if ((p = shipped(a, &dir))) {
			ret |= dir ? load_dir(l, p, errf) : load_one(l, p, errf);
			free(p);
		} else {
			unknown(a, errf);
			ret = -1;
		}
	}
	return ret ? -1 : 0;
}

void wt_scn_list_free(struct wt_scn_list *l)
{
	for (unsigned i = 0; i < l->n; i++)
		wt_scenario_free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

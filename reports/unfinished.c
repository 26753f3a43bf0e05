/* SPDX-License-Identifier: MIT */
/* Unfinished nights under a nightly OUT: see unfinished.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reports/journal.h"
#include "reports/results.h"
#include "reports/unfinished.h"

#define KILLED "killed"

struct names {
	char **v;
	size_t n, cap;
};

static int names_add(struct names *s, const char *name)
{
	if (s->n == s->cap) {
		size_t cap = s->cap * 2 + 8;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n] = strdup(name);
	if (!s->v[s->n])
		return -1;
	s->n++;
	return 0;
}

static void names_free(struct names *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* The atomic writer's temporaries: ".NAME.tmp.XXXXXX" (atomic_file.c). */
static bool is_tmp(const char *name)
{
	return name[0] == '.' && strstr(name, ".tmp.");
}

static bool recorded(sqlite3 *db, const char *id)
{
	sqlite3_stmt *st = NULL;
	bool found = false;

	if (db && sqlite3_prepare_v2(db, "SELECT 1 FROM nights WHERE night_id = ?",
				     -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC) == SQLITE_OK)
		found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* A night directory's results files, journals and temporaries, sorted. */
static int scan_night(const char *dir, struct names *res, struct names *jn,
		      struct names *tmp)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return -1;
	while (!ret && (de = readdir(d))) {
		const char *s = de->d_name;

		if (is_tmp(s))
			ret = names_add(tmp, s);
		else if (!strncmp(s, "results-", 8) && ends_with(s, ".json"))
			ret = names_add(res, s);
		else if (ends_with(s, WT_JOURNAL_SUFFIX))
			ret = names_add(jn, s);
	}
	closedir(d);
	if (res->n)
		qsort(res->v, res->n, sizeof(*res->v), cmp_name);
	if (jn->n)
		qsort(jn->v, jn->n, sizeof(*jn->v), cmp_name);
	return ret;
}

/* path of jname's results file: NAME.journal -> NAME.json */
static char *results_of(const char *dir, const char *jname)
{
	char *p = NULL;
	int stem = (int)(strlen(jname) - strlen(WT_JOURNAL_SUFFIX));

	if (asprintf(&p, "%s/%.*s.json", dir, stem, jname) < 0)
		return NULL;
	return p;
}

/* Turn one journal of a dead night into its results file. */
static int recover(const char *id, const char *dir, const char *jname,
		   FILE *log, char *err, size_t errlen)
{
	char *jpath = NULL, *rpath = results_of(dir, jname);
	unsigned lines, dropped;
	json_t *doc = NULL;
	int ret = -1;

	if (!rpath || asprintf(&jpath, "%s/%s", dir, jname) < 0) {
		snprintf(err, errlen, "%s/%s: out of memory", dir, jname);
		goto out;
	}
	if (access(rpath, F_OK) == 0) {
		/* died after writing the seed's results, before removing this */
		fprintf(log, "walktorture: night %s: removed %s (its results "
			"file is whole)\n", id, jpath);
		ret = unlink(jpath);
		goto out;
	}
	if (wt_journal_read(jpath, KILLED, &doc, &lines, &dropped, err, errlen))
		goto out;
	if (doc && wt_results_write(rpath, doc, err, errlen))
		goto out;
	if (doc)
		fprintf(log, "walktorture: night %s was killed: %u scenario "
			"line(s) of its journal recovered into %s (partial)%s\n",
			id, lines, rpath, dropped ? "; a line cut short dropped" : "");
	else
		fprintf(log, "walktorture: night %s was killed: removed %s "
			"(no scenario had finished)\n", id, jpath);
	ret = unlink(jpath);
	if (ret)
		snprintf(err, errlen, "%s: cannot remove: %s", jpath, strerror(errno));
out:
	json_decref(doc);
	free(jpath);
	free(rpath);
	return ret;
}

/* What the night's results (and, running or not tidied, journals) say. */
static int summarise(const char *id, const char *dir,
		     const struct names *res, const struct names *jn,
		     struct wt_unfinished *u, char *err, size_t errlen)
{
	for (size_t i = 0; i < res->n + jn->n; i++) {
		bool journal = i >= res->n;
		const char *name = journal ? jn->v[i - res->n] : res->v[i];
		char *path = NULL, *rel = NULL, **files;
		unsigned lines, dropped;
		struct wt_results_totals t;
		const char *why;
		json_t *doc = NULL;
		int bad;

		if (asprintf(&path, "%s/%s", dir, name) < 0)
			return -1;
		bad = journal ? wt_journal_read(path, KILLED, &doc, &lines,
						&dropped, err, errlen) :
				wt_results_load(path, &doc, err, errlen);
		free(path);
		if (bad)
			return -1;
		if (!doc)
			continue;
		wt_results_totals(doc, &t);
		u->scenarios += t.scenarios;
		u->failed += t.failed;
		why = wt_json_str(json_object_get(doc, "run"), "interrupted");
		if (why && (!u->why || !strcmp(why, KILLED))) {
			free(u->why);
			u->why = strdup(why);
		}
		json_decref(doc);
		files = realloc(u->files, (u->nfiles + 1) * sizeof(*files));
		if (!files || asprintf(&rel, "%s/%s", id, name) < 0) {
			u->files = files ? files : u->files;
			return -1;
		}
		u->files = files;
		u->files[u->nfiles++] = rel;
	}
	return 0;
}

/* Remove a dead night that wrote nothing: its generated workloads, its
 * lock, the directory.  What else is in it stays (and so does it). */
static void remove_empty(const char *id, const char *dir, FILE *log)
{
	char *gen = NULL, *p = NULL;
	struct dirent *de;
	DIR *d;

	if (asprintf(&gen, "%s/generated", dir) >= 0 && (d = opendir(gen))) {
		while ((de = readdir(d)))
			if (ends_with(de->d_name, ".yaml") &&
			    asprintf(&p, "%s/%s", gen, de->d_name) >= 0) {
				unlink(p);
				free(p);
			}
		closedir(d);
		rmdir(gen);
	}
	free(gen);
	if (asprintf(&p, "%s/%s", dir, WT_NIGHT_LOCK) >= 0)
		unlink(p);
	free(p);
	if (rmdir(dir) == 0)
		fprintf(log, "walktorture: night %s was killed before any "
			"scenario finished: removed %s\n", id, dir);
	else
		fprintf(log, "walktorture: night %s was killed before any "
			"scenario finished; %s left: %s\n", id, dir,
			strerror(errno));
}

/*
 * One directory of OUT.  *listed: it is an unfinished night, in *u.
 */
static int one_night(const char *out_dir, const char *id, sqlite3 *db,
		     bool tidy, FILE *log, struct wt_unfinished *u,
		     bool *listed, char *err, size_t errlen)
{
	struct names res = { 0 }, jn = { 0 }, tmp = { 0 };
	char *dir = NULL, *lock = NULL;
	bool running;
	int fd = -1, ret = -1;

	*listed = false;
	if (asprintf(&dir, "%s/%s", out_dir, id) < 0 ||
	    asprintf(&lock, "%s/%s", dir, WT_NIGHT_LOCK) < 0)
		goto nomem;
	fd = open(lock, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || recorded(db, id)) {
		ret = 0;	/* not a night of ours, or a whole one */
		goto out;
	}
	/* held until we are done: the night cannot start running again,
	 * and two nightlies tidying at once do not both act */
	running = flock(fd, LOCK_EX | LOCK_NB) < 0;
	tidy &= !running;
	if (scan_night(dir, &res, &jn, &tmp))
		goto nomem;
	for (size_t i = 0; tidy && i < tmp.n; i++) {
		char *p = NULL;

		if (asprintf(&p, "%s/%s", dir, tmp.v[i]) < 0)
			goto nomem;
		if (!unlink(p))
			fprintf(log, "walktorture: night %s: removed the stale "
				"temporary %s\n", id, p);
		free(p);
	}
	for (size_t i = 0; tidy && i < jn.n; i++)
		if (recover(id, dir, jn.v[i], log, err, errlen))
			goto out;
	if (tidy) {
		names_free(&res);
		names_free(&jn);
		names_free(&tmp);
		if (scan_night(dir, &res, &jn, &tmp))
			goto nomem;
	}
	if (tidy && !res.n && !jn.n) {
		remove_empty(id, dir, log);
		ret = 0;
		goto out;
	}
	u->id = strdup(id);
	if (!u->id || summarise(id, dir, &res, &jn, u, err, errlen))
		goto out;
	*listed = true;
	if (running)
		u->state = WT_NIGHT_RUNNING;
	else if (jn.n || !res.n || (u->why && !strcmp(u->why, KILLED)))
		u->state = WT_NIGHT_KILLED;
	else if (u->why)
		u->state = WT_NIGHT_INTERRUPTED;
	else
		u->state = WT_NIGHT_UNINDEXED;
	ret = 0;
	goto out;
nomem:
	if (!err[0])
		snprintf(err, errlen, "%s/%s: out of memory", out_dir, id);
out:
	if (fd >= 0)
		close(fd);
	names_free(&res);
	names_free(&jn);
	names_free(&tmp);
	free(dir);
	free(lock);
	return ret;
}

/*
 * OUT's own temporaries (.index.html.tmp.XXXXXX: an index write that
 * died before its rename).  Only while no night is running: a running
 * one writes OUT/index.html at its end, with its lock held.  (A
 * `walktorture index' into OUT at this very moment would lose its
 * temporary: its rename then fails and says so; nothing is left half.)
 */
static void tidy_out(const char *out_dir, struct dirent **ents, int k,
		     const struct wt_unfinished *v, size_t n, FILE *log)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].state == WT_NIGHT_RUNNING)
			return;
	for (int i = 0; i < k; i++) {
		struct stat st;
		char *p = NULL;

		if (!is_tmp(ents[i]->d_name) ||
		    asprintf(&p, "%s/%s", out_dir, ents[i]->d_name) < 0)
			continue;
		if (!lstat(p, &st) && S_ISREG(st.st_mode) && !unlink(p))
			fprintf(log, "walktorture: removed the stale temporary "
				"%s\n", p);
		free(p);
	}
}

static void free_one(struct wt_unfinished *u)
{
	free(u->id);
	free(u->why);
	for (size_t j = 0; j < u->nfiles; j++)
		free(u->files[j]);
	free(u->files);
	memset(u, 0, sizeof(*u));
}

int wt_unfinished_nights(const char *out_dir, sqlite3 *db, bool tidy,
			 FILE *log, struct wt_unfinished **v, size_t *n,
			 char *err, size_t errlen)
{
	struct dirent **ents = NULL;
	int k = scandir(out_dir, &ents, NULL, alphasort), ret = 0;

	*v = NULL;
	*n = 0;
	err[0] = '\0';
	if (k < 0)
		return 0;	/* no OUT yet: no nights */
	*v = calloc((size_t)k + 1, sizeof(**v));
	if (!*v) {
		snprintf(err, errlen, "%s: out of memory", out_dir);
		ret = -1;
	}
	for (int i = 0; i < k; i++) {
		bool listed = false;

		if (!ret && ents[i]->d_name[0] != '.' &&
		    one_night(out_dir, ents[i]->d_name, db, tidy, log,
			      &(*v)[*n], &listed, err, errlen))
			ret = -1;
		if (listed)
			(*n)++;
		else if (*v)
			free_one(&(*v)[*n]);	/* what a failed one held */
	}
	if (tidy && !ret)
		tidy_out(out_dir, ents, k, *v, *n, log);
	for (int i = 0; i < k; i++)
		free(ents[i]);
	free(ents);
	return ret;
}

void wt_unfinished_free(struct wt_unfinished *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free_one(&v[i]);
	free(v);
}

const char *wt_unfinished_state_text(const struct wt_unfinished *u,
				     char *buf, size_t len)
{
	switch (u->state) {
	case WT_NIGHT_RUNNING:
		return "running";
	case WT_NIGHT_KILLED:
		return "killed";
	case WT_NIGHT_INTERRUPTED:
		snprintf(buf, len, "interrupted by %s", u->why);
		return buf;
	case WT_NIGHT_UNINDEXED:
		break;
	}
	return "not indexed";
}

int wt_night_lock(const char *night_dir, int *fd, char *err, size_t errlen)
{
	char *tmp = NULL, *p = NULL;

	*fd = -1;
	if (asprintf(&tmp, "%s/%s.XXXXXX", night_dir, WT_NIGHT_LOCK) < 0 ||
	    asprintf(&p, "%s/%s", night_dir, WT_NIGHT_LOCK) < 0) {
		snprintf(err, errlen, "%s: out of memory", night_dir);
		free(tmp);
		return -1;
	}
	/* locked before it has its name: whoever opens .night.lock finds
	 * it locked, never a moment free (a tidying nightly would take an
	 * empty night that is just starting for a dead one) */
	*fd = mkostemp(tmp, O_CLOEXEC);
	if (*fd < 0 || flock(*fd, LOCK_EX | LOCK_NB) < 0 || rename(tmp, p) < 0) {
		snprintf(err, errlen, "%s: cannot lock: %s", p, strerror(errno));
		if (*fd >= 0) {
			close(*fd);
			unlink(tmp);
		}
		*fd = -1;
	}
	free(tmp);
	free(p);
	return *fd < 0 ? -1 : 0;
}

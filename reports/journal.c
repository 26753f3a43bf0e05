/* SPDX-License-Identifier: MIT */
/* A run's results journal: see journal.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reports/journal.h"
#include "reports/results.h"

int wt_journal_open(struct wt_journal *j, const char *path, char *err,
		    size_t errlen)
{
	j->path = strdup(path);
	j->fd = j->path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
			       O_CLOEXEC, 0666) : -1;
	if (j->fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path,
			 j->path ? strerror(errno) : "out of memory");
		free(j->path);
		j->path = NULL;
		return -1;
	}
	return 0;
}

int wt_journal_append(struct wt_journal *j, json_t *doc, char *err,
		      size_t errlen)
{
	char *line = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER |
				     JSON_ENSURE_ASCII);
	size_t len, off = 0;
	int ret = -1;

	if (!line) {
		snprintf(err, errlen, "%s: out of memory", j->path);
		return -1;
	}
	/* the newline goes with the line: a line without one was cut short */
	len = strlen(line);
	line[len] = '\n';
	while (off <= len) {
		ssize_t w = write(j->fd, line + off, len + 1 - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto out;
		off += (size_t)w;
	}
	if (fdatasync(j->fd) && errno != EINVAL)
		goto out;
	ret = 0;
out:
	if (ret)
		snprintf(err, errlen, "%s: write failed: %s", j->path,
			 strerror(errno));
	line[len] = '\0';
	free(line);
	return ret;
}

void wt_journal_close(struct wt_journal *j, int remove)
{
	if (j->fd >= 0)
		close(j->fd);
	if (remove && j->path)
		unlink(j->path);
	free(j->path);
	j->path = NULL;
	j->fd = -1;
}

/* The journal's document so far: line 1's run, then every line's entries. */
static int add_line(json_t **doc, json_t *line, const char *why)
{
	json_t *run = json_object_get(line, "run");
	size_t i;
	json_t *x;

	if (!*doc) {
		*doc = json_pack("{s:s, s:i, s:O, s:[], s:[]}", "schema",
				 WT_RESULTS_SCHEMA, "schema_version",
				 WT_RESULTS_VERSION, "run", run, "scenarios",
				 "skipped");
		if (!*doc)
			return -1;
		run = json_object_get(*doc, "run");
		if (!json_object_get(run, "interrupted") &&
		    (json_object_set_new(run, "partial", json_true()) ||
		     json_object_set_new(run, "interrupted", json_string(why))))
			return -1;
	} else {
		/* the time the seed had run when its last scenario ended */
		json_object_set(json_object_get(*doc, "run"), "duration_s",
				json_object_get(run, "duration_s"));
		if (strcmp(wt_json_str(run, "memory") ?: "",
			   wt_json_str(json_object_get(*doc, "run"), "memory") ?: ""))
			json_object_set_new(json_object_get(*doc, "run"),
					    "memory", json_string("mixed"));
	}
	json_array_foreach(json_object_get(line, "scenarios"), i, x)
		if (json_array_append(json_object_get(*doc, "scenarios"), x))
			return -1;
	json_array_foreach(json_object_get(line, "skipped"), i, x)
		if (json_array_append(json_object_get(*doc, "skipped"), x))
			return -1;
	return 0;
}

int wt_journal_read(const char *path, const char *why, json_t **out,
		    unsigned *lines, unsigned *dropped, char *err,
		    size_t errlen)
{
	FILE *f = fopen(path, "r");
	json_t *doc = NULL, *sc;
	long long passed = 0, failed = 0;
	char *buf = NULL, lerr[512];
	size_t cap = 0, i;
	ssize_t len;
	int ret = -1;

	*out = NULL;
	*lines = *dropped = 0;
	if (!f) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&buf, &cap, f)) > 0) {
		json_error_t je;
		json_t *line = NULL;

		if (buf[len - 1] == '\n')
			line = json_loadb(buf, (size_t)len, 0, &je);
		if (!line || wt_results_validate(path, line, lerr, sizeof(lerr))) {
			(*dropped)++;	/* cut short by the crash */
			json_decref(line);
			continue;
		}
		if (add_line(&doc, line, why)) {
			json_decref(line);
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		}
		json_decref(line);
		(*lines)++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read failed", path);
		goto out;
	}
	if (doc) {
		json_array_foreach(json_object_get(doc, "scenarios"), i, sc)
			strcmp(wt_scenario_verdict(sc), "FAIL") ? passed++ : failed++;
		if (json_object_set_new(doc, "summary", json_pack("{s:I, s:I}",
				"passed", (json_int_t)passed, "failed",
				(json_int_t)failed)) ||
		    wt_results_validate(path, doc, err, errlen))
			goto out;
	}
	*out = doc;
	doc = NULL;
	ret = 0;
out:
	json_decref(doc);
	free(buf);
	fclose(f);
	return ret;
}

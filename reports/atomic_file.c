/* SPDX-License-Identifier: MIT */
/* Atomic output files: temporary file + fsync + rename + fsync of the
 * directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reports/atomic_file.h"

#define WT_OUT_BUFFER_BYTES (64 * 1024)

static char *tmp_name(const char *path)
{
	char *copy = strdup(path);
	char *tmp = NULL;

	if (!copy)
		return NULL;
	/* ".NAME.tmp.XXXXXX" beside NAME, so the rename stays in one filesystem. */
	{
		char *slash = strrchr(copy, '/');
		const char *base = slash ? slash + 1 : copy;
		int dirlen = slash ? (int)(slash - copy + 1) : 0;

		if (asprintf(&tmp, "%.*s.%s.tmp.XXXXXX", dirlen, copy, base) < 0)
			tmp = NULL;
	}
	free(copy);
	return tmp;
}

int wt_atomic_open(struct wt_atomic_file *a, const char *path,
		   char *err, size_t errlen)
{
	mode_t mask;
	int fd;

	memset(a, 0, sizeof(*a));
	a->path = strdup(path);
	a->tmp = tmp_name(path);
	if (!a->path || !a->tmp) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	fd = mkstemp(a->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a temporary file: %s",
			 path, strerror(errno));
		goto fail;
	}
	/* mkstemp makes 0600; a report is for sharing, so honour the umask. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(a->f = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s: %s", a->tmp, strerror(errno));
		close(fd);
		unlink(a->tmp);
		goto fail;
	}
	setvbuf(a->f, NULL, _IOFBF, WT_OUT_BUFFER_BYTES);
	return 0;
fail:
	free(a->path);
	free(a->tmp);
	memset(a, 0, sizeof(*a));
	return -1;
}

/*
 * The rename is an entry in the target's directory: until the directory
 * is on disk too, a power cut can bring back the old file (or none).
 * Filesystems that cannot fsync a directory (EINVAL) have nothing to
 * flush; any other error is the write's.
 */
static int sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
			  : strdup(".");
	int fd, saved = 0;

	if (!dir)
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	saved = errno;
	free(dir);
	if (fd < 0) {
		errno = saved;
		return -1;
	}
	saved = fsync(fd) < 0 && errno != EINVAL ? errno : 0;
	close(fd);
	errno = saved;
	return saved ? -1 : 0;
}

int wt_atomic_commit(struct wt_atomic_file *a, char *err, size_t errlen)
{
	int bad = fflush(a->f) || ferror(a->f) || fsync(fileno(a->f));
	int saved = errno;

	if (fclose(a->f) && !bad) {
		bad = 1;
		saved = errno;
	}
	a->f = NULL;
	if (!bad && rename(a->tmp, a->path) < 0) {
		bad = 1;
		saved = errno;
	}
	if (!bad) {
		/* renamed: the temporary's name is gone */
		free(a->tmp);
		a->tmp = NULL;
		if (sync_dir_of(a->path)) {
			snprintf(err, errlen, "%s: cannot sync its directory: %s",
				 a->path, strerror(errno));
			wt_atomic_abort(a);
			return -1;
		}
	}
	if (bad) {
		snprintf(err, errlen, "%s: write failed: %s", a->path,
			 strerror(saved));
		wt_atomic_abort(a);
		return -1;
	}
	free(a->tmp);
	a->tmp = NULL;
	wt_atomic_abort(a);
	return 0;
}

void wt_atomic_abort(struct wt_atomic_file *a)
{
	if (a->f)
		fclose(a->f);
	if (a->tmp)
		unlink(a->tmp);
	free(a->tmp);
	free(a->path);
	memset(a, 0, sizeof(*a));
}

int wt_mkdirs(const char *dir, char *err, size_t errlen)
{
	char *p;
	int ret = 0;

	if (!*dir)
		return 0;
	p = strdup(dir);
	if (!p) {
		snprintf(err, errlen, "%s: out of memory", dir);
		return -1;
	}
	/* Bounded by the path's length: one mkdir per '/'. */
	for (char *s = p + 1; ; s++) {
		char c = *s;

		if (c != '/' && c != 0)
			continue;
		*s = 0;
		if (mkdir(p, 0777) < 0 && errno != EEXIST) {
			snprintf(err, errlen, "%s: cannot create directory: %s",
				 p, strerror(errno));
			ret = -1;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

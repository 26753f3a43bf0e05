/* SPDX-License-Identifier: MIT */
/* wt_fuzz_file: fuzz.h. */
#define _GNU_SOURCE	/* memfd_create */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

const char *wt_fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("wt-fuzz", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) ||
	    (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

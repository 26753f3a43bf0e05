/* SPDX-License-Identifier: MIT */
/*
 * Where the walktorture binary of this build is: ../cli/walktorture beside
 * the running test.  For tests that skip, rather than fail, without it.
 */
#ifndef WT_TEST_CLI_PATH_H
#define WT_TEST_CLI_PATH_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Fill buf (size bytes) with the path; true when it names an executable. */
static inline bool wt_test_find_cli(char *buf, size_t size)
{
	char exe[PATH_MAX - 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	buf[0] = '\0';
	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	if ((size_t)snprintf(buf, size, "%s/../cli/walktorture", exe) >= size)
		return false;
	return access(buf, X_OK) == 0;
}

#endif

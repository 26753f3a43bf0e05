/* SPDX-License-Identifier: MIT */
/*
 * Fuzz targets of the parsers (fuzz/README.md): each file defines
 * LLVMFuzzerTestOneInput.  Built with clang and -DWT_FUZZ=ON they link
 * libFuzzer; otherwise standalone.c gives them a main that runs each file
 * (or every file of each folder) given, once: the regression inputs of
 * tests/data/regress and the seed corpus run that way in every build.
 */
#ifndef WT_FUZZ_H
#define WT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data as a C string (caller frees). */
static inline char *wt_fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/* A path whose file holds data (a memfd: no disk, one per process). */
const char *wt_fuzz_file(const uint8_t *data, size_t size);

/* A parser refused the input without saying why: that is a bug. */
#define WT_FUZZ_REQUIRE(cond)						\
	do {								\
		if (!(cond))						\
			abort();					\
	} while (0)

#endif /* WT_FUZZ_H */

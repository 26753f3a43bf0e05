/* SPDX-License-Identifier: MIT */
/*
 * main() of a fuzz target without libFuzzer: every file named, and every
 * file of every folder named, through LLVMFuzzerTestOneInput once.  A
 * crash, a sanitizer report or an abort fails the run; exit 0 otherwise.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fuzz/fuzz.h"

static int one(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return -1;
	}
	do {
		if (cap - len < 65536) {
			uint8_t *nb = realloc(buf, cap = 2 * cap + 65536);

			if (!nb)
				abort();
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	fprintf(stderr, "fuzz: %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned runs = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		struct dirent **ents;
		int n;

		if (argv[i][0] == '-')	/* libFuzzer's flags: not ours */
			continue;
		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			if (one(argv[i]))
				return 1;
			runs++;
			continue;
		}
		n = scandir(argv[i], &ents, NULL, alphasort);
		for (int k = 0; k < n; k++) {
			char *p;

			if (ents[k]->d_name[0] != '.' &&
			    asprintf(&p, "%s/%s", argv[i], ents[k]->d_name) > 0) {
				if (!stat(p, &st) && S_ISREG(st.st_mode)) {
					if (one(p))
						return 1;
					runs++;
				}
				free(p);
			}
			free(ents[k]);
		}
		if (n >= 0)
			free(ents);
	}
	fprintf(stderr, "fuzz: %u inputs, no crash\n", runs);
	return 0;
}

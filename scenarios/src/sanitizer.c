/* SPDX-License-Identifier: MIT */
/* Sanitizer builds' exit status and their test fault: see sanitizer.h. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "scenarios/src/sanitizer.h"

#define STR_(x) #x
#define STR(x) STR_(x)

#if defined(WT_ASAN) || defined(WT_TSAN)
#include <sanitizer/common_interface_defs.h>

/* The runtimes read these before main; the environment overrides them.
 * A fatal signal stays the harness's crash (isolate.c: kind crash, its
 * signal, exit 1 as in any build), not a sanitizer report. */
#define SIGNALS "handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
#ifdef WT_ASAN
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

const char *__asan_default_options(void)
{
	return SIGNALS ":exitcode=" STR(WT_EXIT_SANITIZER);
}

const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:exitcode=" STR(WT_EXIT_SANITIZER);
}
#else
const char *__tsan_default_options(void);

const char *__tsan_default_options(void)
{
	return SIGNALS ":halt_on_error=1:exitcode=" STR(WT_EXIT_SANITIZER);
}
#endif

/* Called when the runtime is about to die (after its report), before
 * it aborts (abort_on_error) or exits with its exitcode. */
static void sanitizer_died(void)
{
	_exit(WT_EXIT_SANITIZER);
}

void wt_sanitizer_exit_install(void)
{
	__sanitizer_set_death_callback(sanitizer_died);
}

bool wt_sanitizer_build(void)
{
	return true;
}
#else
void wt_sanitizer_exit_install(void)
{
}

bool wt_sanitizer_build(void)
{
	return false;
}
#endif

#ifdef WT_TSAN
static void *race_writer(void *arg)
{
	*(volatile int *)arg = 1;
	return NULL;
}
#endif

void wt_sanitizer_fault(void)
{
#if defined(WT_ASAN)
	char *volatile p = malloc(16);

	free(p);
	(void)*(volatile char *)p;	/* heap-use-after-free */
#elif defined(WT_TSAN)
	int *x = calloc(1, sizeof(*x));
	pthread_t t;

	/* the writer's store and ours are ordered by nothing: a data race
	 * (the sleep makes them far apart in time, not ordered) */
	if (x && !pthread_create(&t, NULL, race_writer, x)) {
		usleep(100 * 1000);
		*(volatile int *)x = 2;
		pthread_join(t, NULL);
	}
	free(x);
#endif
}

/* SPDX-License-Identifier: MIT */
/*
 * Sanitizer builds (the tsan and asan-ubsan presets): a sanitizer's
 * report is a bug in the harness (or the model), not a scenario that
 * failed, so the process exits with its own status, WT_EXIT_SANITIZER,
 * whatever ASAN_OPTIONS/TSAN_OPTIONS say (abort_on_error included): a
 * death callback exits with it before the runtime would abort or exit,
 * and the defaults (overridable in the environment) are exitcode=66 and,
 * for TSan and UBSan, halt_on_error=1 -- an isolated child leaves with
 * _exit, so a report that did not halt would be lost with its status.
 * The runtimes leave SIGSEGV, SIGBUS and SIGFPE alone by default
 * (handle_segv=0, ...): a fatal signal is a crash, as in any build.
 * An isolated child that exits with it is reported as a crash whose
 * result says so (isolate.c), and run/nightly/replay exit with it too.
 * Outside sanitizer builds all of this is a no-op.
 */
#ifndef WT_SCENARIOS_SANITIZER_H
#define WT_SCENARIOS_SANITIZER_H

#include <stdbool.h>

#define WT_EXIT_SANITIZER 66

/* Install the death callback (main, before anything runs). */
void wt_sanitizer_exit_install(void);

/* Is this a sanitizer build (ASan+UBSan or TSan)? */
bool wt_sanitizer_build(void);

/*
 * `harness-fault sanitizer' (scenario.h): an error the build's sanitizer
 * reports -- a use after free under ASan, a data race between two
 * threads under TSan.  Nothing in other builds.
 */
void wt_sanitizer_fault(void);

#endif /* WT_SCENARIOS_SANITIZER_H */

/* SPDX-License-Identifier: MIT */
/* The same loop with the hooks compiled out (as the nohooks preset does). */
#ifndef WT_NO_HOOKS
#define WT_NO_HOOKS 1
#endif
#define BENCH_LOOP bench_loop_nohooks
#include "bench_hooks_loop.c"

/* SPDX-License-Identifier: MIT */
/* SIGINT/SIGTERM as a flag: interrupt.h. */
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "sim/sched/interrupt.h"

/* written by the handler (atomics are async-signal-safe), read by every
 * thread at its iteration boundaries and delay slices */
static int wt_interrupt_sig;
static int wt_interrupt_is_child;

static void on_signal(int sig)
{
	int none = 0;

	if (__atomic_compare_exchange_n(&wt_interrupt_sig, &none, sig, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	/* the second one: the user means now (the isolated child dies
	 * with its parent: PR_SET_PDEATHSIG) */
	if (!__atomic_load_n(&wt_interrupt_is_child, __ATOMIC_RELAXED))
		_exit(128 + sig);
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void wt_interrupt_install(void)
{
	install();
}

void wt_interrupt_child(void)
{
	__atomic_store_n(&wt_interrupt_is_child, 1, __ATOMIC_RELAXED);
	install();
}

int wt_interrupted(void)
{
	return __atomic_load_n(&wt_interrupt_sig, __ATOMIC_ACQUIRE);
}

const char *wt_interrupt_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal";
}

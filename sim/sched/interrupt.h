/* SPDX-License-Identifier: MIT */
/*
 * Interrupts of a long run (SIGINT, SIGTERM): the run stops at the next
 * iteration boundary, says so, and writes what it has (marked partial);
 * a second signal to the process that installed the handler ends it at
 * once.  Injected stress delays poll wt_interrupted() between slices, so
 * no delay outlives the interrupt.
 *
 * The one global of the program that is not a world's or a scheduler's:
 * a signal handler reaches nothing else.  It is a flag that only goes up.
 */
#ifndef WT_SIM_SCHED_INTERRUPT_H
#define WT_SIM_SCHED_INTERRUPT_H

/* The command's process: the first SIGINT/SIGTERM raises the flag, the
 * second exits at once with 128 + the signal. */
void wt_interrupt_install(void);
/* An isolated scenario's child: every signal only raises the flag (its
 * parent decides when to give up, and the child dies with it). */
void wt_interrupt_child(void);
/* 0, or the first signal received. */
int wt_interrupted(void);
/* "SIGINT", "SIGTERM" (the results' run.interrupted). */
const char *wt_interrupt_name(int sig);

#endif /* WT_SIM_SCHED_INTERRUPT_H */

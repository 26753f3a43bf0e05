/* SPDX-License-Identifier: MIT */
/*
 * lockref: the count rules of each operation, the dead marker, and the
 * difference between lockref_get (unconditional, the zoo bug's choice)
 * and lockref_get_not_dead (legitimize_path's).
 */
#include <pthread.h>
#include <unistd.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "sim/lockref.h"

/*
 * A hang fails the test within seconds instead of at ctest's limit.  Not
 * Criterion's .timeout: Criterion 2.4.1 leaks a timeout request when two
 * timed tests overlap under --jobs, and LeakSanitizer fails the run for
 * it.  Each test runs in a process of its own, so the alarm is its own.
 */
static void watchdog(unsigned seconds)
{
	alarm(seconds);
}

Test(lockref, get_increments_and_leaves_the_lock_free)
{
	/* Proves lockref_get adds one from any live count, zero included,
	 * and does not leave the lock held. */
	struct lockref lr;

	lockref_init(&lr, 0);
	lockref_get(&lr);
	cr_assert_eq(lockref_read(&lr), 1);
	lockref_get(&lr);
	cr_assert_eq(lockref_read(&lr), 2);
	cr_assert_not(spin_is_locked(&lr.lock));
}

Test(lockref, get_not_dead_takes_live_counts_and_refuses_dead)
{
	/*
	 * Proves get_not_dead's rule: a count >= 0 (zero is an unused but
	 * live dentry) gains a reference; a dead one (marked -128) does not,
	 * and keeps its marker.
	 */
	struct lockref lr;

	lockref_init(&lr, 0);
	cr_assert(lockref_get_not_dead(&lr));
	cr_assert_eq(lockref_read(&lr), 1);
	cr_assert(lockref_get_not_dead(&lr));
	cr_assert_eq(lockref_read(&lr), 2);

	spin_lock(&lr.lock);
	lockref_mark_dead(&lr);
	spin_unlock(&lr.lock);
	cr_assert(__lockref_is_dead(&lr));
	cr_assert_not(lockref_get_not_dead(&lr));
	cr_assert_eq(lockref_read(&lr), LOCKREF_DEAD);
	cr_assert_not(spin_is_locked(&lr.lock));
}

Test(lockref, get_not_zero_refuses_zero_and_dead)
{
	/* Proves get_not_zero only adds to a count that is already above
	 * zero: zero and dead are both refused and left unchanged. */
	struct lockref lr;

	lockref_init(&lr, 0);
	cr_assert_not(lockref_get_not_zero(&lr));
	cr_assert_eq(lockref_read(&lr), 0);
	lockref_init(&lr, 3);
	cr_assert(lockref_get_not_zero(&lr));
	cr_assert_eq(lockref_read(&lr), 4);
	lockref_init(&lr, LOCKREF_DEAD);
	cr_assert_not(lockref_get_not_zero(&lr));
	cr_assert_eq(lockref_read(&lr), LOCKREF_DEAD);
	cr_assert_not(spin_is_locked(&lr.lock));
}

Test(lockref, put_return_decrements_and_refuses_zero_or_dead)
{
	/*
	 * Proves put_return's contract with dput: above zero it decrements
	 * and returns the new count (0 for the last reference); at zero or
	 * dead it returns -1 and leaves the count for the slow path.
	 */
	struct lockref lr;

	lockref_init(&lr, 2);
	cr_assert_eq(lockref_put_return(&lr), 1);
	cr_assert_eq(lockref_put_return(&lr), 0);
	cr_assert_eq(lockref_read(&lr), 0);
	cr_assert_eq(lockref_put_return(&lr), -1);
	cr_assert_eq(lockref_read(&lr), 0);
	lockref_init(&lr, LOCKREF_DEAD);
	cr_assert_eq(lockref_put_return(&lr), -1);
	cr_assert_eq(lockref_read(&lr), LOCKREF_DEAD);
	cr_assert_not(spin_is_locked(&lr.lock));
}

Test(lockref, put_or_lock_keeps_the_last_reference_and_the_lock)
{
	/*
	 * Proves put_or_lock drops a reference only when others remain: from
	 * 3 it returns true at 2 with the lock free; at 1 (and at 0 or dead)
	 * it returns false with the count unchanged and the lock held, for
	 * the caller to decide the object's fate.
	 */
	struct lockref lr;

	lockref_init(&lr, 3);
	cr_assert(lockref_put_or_lock(&lr));
	cr_assert_eq(lockref_read(&lr), 2);
	cr_assert_not(spin_is_locked(&lr.lock));
	cr_assert(lockref_put_or_lock(&lr));
	cr_assert_eq(lockref_read(&lr), 1);

	cr_assert_not(lockref_put_or_lock(&lr));
	cr_assert_eq(lockref_read(&lr), 1);
	cr_assert(spin_is_locked(&lr.lock), "false must return with the lock");
	spin_unlock(&lr.lock);

	lockref_init(&lr, 0);
	cr_assert_not(lockref_put_or_lock(&lr));
	cr_assert_eq(lockref_read(&lr), 0);
	cr_assert(spin_is_locked(&lr.lock));
	spin_unlock(&lr.lock);

	lockref_init(&lr, LOCKREF_DEAD);
	cr_assert_not(lockref_put_or_lock(&lr));
	cr_assert(spin_is_locked(&lr.lock));
	spin_unlock(&lr.lock);
}

Test(lockref, mark_dead_sets_minus_128)
{
	/* Proves the marker is exactly the kernel's -128 whatever the count
	 * was, so a few stray decrements cannot make it look alive. */
	struct lockref lr;

	lockref_init(&lr, 5);
	spin_lock(&lr.lock);
	lockref_mark_dead(&lr);
	cr_assert_eq(lockref_read(&lr), -128);
	cr_assert(spin_is_locked(&lr.lock), "mark_dead keeps the caller's lock");
	spin_unlock(&lr.lock);
	cr_assert_eq(lockref_read(&lr), LOCKREF_DEAD);
	cr_assert(__lockref_is_dead(&lr));
	cr_assert_eq(lockref_put_return(&lr), -1);
	cr_assert_eq(lockref_read(&lr), -128);
}

Test(lockref, get_on_dead_increments_as_the_zoo_bug_relies_on)
{
	/*
	 * Documents the behaviour the bug zoo's lockref_get variant needs:
	 * lockref_get on a dead lockref is not refused, it increments
	 * (-128 -> -127), so a walker using it instead of get_not_dead
	 * "legitimizes" a dying dentry, which the oracle must then catch.
	 */
	struct lockref lr;

	lockref_init(&lr, 1);
	spin_lock(&lr.lock);
	lockref_mark_dead(&lr);
	spin_unlock(&lr.lock);
	lockref_get(&lr);
	cr_assert_eq(lockref_read(&lr), LOCKREF_DEAD + 1);
	cr_assert(__lockref_is_dead(&lr), "still dead: below zero");
	cr_assert_not(lockref_get_not_dead(&lr));
}

#define GETTERS		4
#define GET_ROUNDS	20000

static void *getter_body(void *arg)
{
	struct lockref *lr = arg;

	for (int i = 0; i < GET_ROUNDS; i++) {
		lockref_get(lr);
		if (lockref_put_return(lr) < 0)
			abort();	/* we hold a reference: never zero */
	}
	return NULL;
}

Test(lockref, concurrent_gets_and_puts_balance)
{
	/*
	 * Proves every operation is atomic with respect to the others: four
	 * threads each take and drop GET_ROUNDS references on a lockref that
	 * starts at 1; a lost update would leave the count off 1 (or drive a
	 * put_return to -1, which aborts the thread).
	 */
	struct lockref lr;
	pthread_t th[GETTERS];

	watchdog(30);
	lockref_init(&lr, 1);
	for (int i = 0; i < GETTERS; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, getter_body, &lr), 0);
	for (int i = 0; i < GETTERS; i++)
		pthread_join(th[i], NULL);
	cr_assert_eq(lockref_read(&lr), 1);
	cr_assert_not(spin_is_locked(&lr.lock));
}

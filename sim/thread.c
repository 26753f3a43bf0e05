/* SPDX-License-Identifier: MIT */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/atomic.h"
#include "sim/thread.h"

__thread struct wt_thread *wt_self;
__thread bool wt_self_armed;
__thread uint32_t wt_access_key = WT_OBJ_LIVE;

static const char *const check_names[WT_CHECK__COUNT] = {
	[WT_CHECK_POISON] = "poison",
	[WT_CHECK_RCU_SLEEP] = "rcu_sleep",
	[WT_CHECK_RCU_BALANCE] = "rcu_balance",
	[WT_CHECK_LOCKREF] = "lockref",
	[WT_CHECK_INVARIANT] = "invariant",
	[WT_CHECK_FAULT] = "fault",
};

const char *wt_check_name(enum wt_check check)
{
	return (unsigned)check < WT_CHECK__COUNT ? check_names[check] : "?";
}

static const char *const obj_type_names[WT_OBJ__COUNT] = {
	[WT_OBJ_NONE] = "none",
	[WT_OBJ_DENTRY] = "dentry",
	[WT_OBJ_INODE] = "inode",
	[WT_OBJ_MOUNT] = "mount",
	[WT_OBJ_SUPER] = "super_block",
	[WT_OBJ_NAME] = "name",
	[WT_OBJ_LINK] = "link",
	[WT_OBJ_OTHER] = "object",
};

const char *wt_obj_type_name(enum wt_obj_type type)
{
	return (unsigned)type < WT_OBJ__COUNT ? obj_type_names[type] : "?";
}

void wt_thread_init(struct wt_thread *t, uint32_t id, const char *name)
{
	memset(t, 0, sizeof(*t));
	wt_thread_init_zeroed(t, id, name);
}

void wt_thread_enter(struct wt_thread *t)
{
	wt_self_set(t);
}

void wt_thread_arm(struct wt_thread *t, bool armed)
{
	t->hook_armed = armed;
	if (wt_self == t)
		wt_self_armed_set(armed);
}

bool wt_should_stop(void)
{
	struct wt_thread *t = wt_self;

	/* Relaxed: the flag only ever goes 0 -> 1, and a body that sees it
	 * late runs one more loop, which is harmless. */
	return t && t->stop_flag &&
	       __atomic_load_n(t->stop_flag, __ATOMIC_RELAXED) != 0;
}

void wt_request_stop(void)
{
	struct wt_thread *t = wt_self;

	if (t && t->stop_flag)
		__atomic_store_n(t->stop_flag, 1, __ATOMIC_RELAXED);
}

_Noreturn void wt_thread_exit(void)
{
	struct wt_thread *t = wt_self;

	if (!t || !t->exit_env) {
		fprintf(stderr, "walktorture: !!! wt_thread_exit outside a run\n");
		abort();
	}
	t->aborted = true;
	siglongjmp(*(sigjmp_buf *)t->exit_env, 1);
}

void wt_violation(enum wt_check check, const struct wt_point *p,
		  const void *obj, const char *fmt, ...)
{
	struct wt_thread *t = wt_self;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t) {
		t->violations++;
		if (t->on_violation) {
			t->on_violation(t, check, p, obj, msg);
			return;
		}
	}
	fprintf(stderr, "walktorture: !!! violation check=%s thread=%s point=%s"
		" at %s:%u: %s\n", wt_check_name(check),
		t && t->name ? t->name : "-", wt_point_name(p),
		p ? p->file : "-", p ? p->line : 0, msg);
	abort();
}

/* Only the id and type of a poisoned object are trustworthy: the header
 * keeps them, the rest is the poison fill. */
void wt_obj_poisoned(const struct wt_obj *o, const struct wt_point *p)
{
	uint32_t magic = __atomic_load_n(&o->magic, __ATOMIC_RELAXED);

	wt_violation(WT_CHECK_POISON, p, o,
		     "access to %s %s id=%llu (magic %#x)",
		     magic == WT_OBJ_FREED ? "freed" : "corrupt",
		     wt_obj_type_name(o->type), (unsigned long long)o->id,
		     magic);
}

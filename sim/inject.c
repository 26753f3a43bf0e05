/* SPDX-License-Identifier: MIT */
/*
 * The point catalogue: names built from the linker section, lookups, and
 * the slow path of the hook.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/inject.h"
#include "sim/rules.h"
#include "sim/sched/sched.h"

static const char *const kind_names[WT_K__COUNT] = {
	[WT_K_SEQ_READ] = "seq.read",
	[WT_K_SEQ_RETRY] = "seq.retry",
	[WT_K_SEQ_WRITE] = "seq.write",
	[WT_K_LOAD] = "load",
	[WT_K_STORE] = "store",
	[WT_K_LOCK] = "lock",
	[WT_K_UNLOCK] = "unlock",
	[WT_K_REF_GET] = "ref.get",
	[WT_K_REF_PUT] = "ref.put",
	[WT_K_RCU_ENTER] = "rcu.enter",
	[WT_K_RCU_EXIT] = "rcu.exit",
	[WT_K_RCU_SYNC] = "rcu.sync",
	[WT_K_HASH_STEP] = "hash.step",
	[WT_K_ALLOC] = "alloc",
	[WT_K_OP_STEP] = "op.step",
	[WT_K_WAIT] = "wait",
	[WT_K_EVENT] = "event",
};

const unsigned char wt_kind_access[WT_K__COUNT] = {
	[WT_K_SEQ_READ] = WT_ACC_READ,
	[WT_K_SEQ_RETRY] = WT_ACC_READ,
	[WT_K_SEQ_WRITE] = WT_ACC_WRITE,
	[WT_K_LOAD] = WT_ACC_READ,
	[WT_K_STORE] = WT_ACC_WRITE,
	[WT_K_LOCK] = WT_ACC_RMW,
	[WT_K_UNLOCK] = WT_ACC_WRITE,
	[WT_K_REF_GET] = WT_ACC_RMW,
	[WT_K_REF_PUT] = WT_ACC_RMW,
	[WT_K_RCU_ENTER] = WT_ACC_NONE,
	[WT_K_RCU_EXIT] = WT_ACC_NONE,
	[WT_K_RCU_SYNC] = WT_ACC_WRITE,
	[WT_K_HASH_STEP] = WT_ACC_READ,
	[WT_K_ALLOC] = WT_ACC_NONE,
	[WT_K_OP_STEP] = WT_ACC_WRITE,
	[WT_K_WAIT] = WT_ACC_NONE,
	[WT_K_EVENT] = WT_ACC_READ,
};

/* The section always has at least this point, so __start/__stop exist. */
__attribute__((used)) static void wt_point_anchor(void)
{
	(void)WT_POINT(WT_K_EVENT, "inject.anchor", NULL,
		       "anchor of the point catalogue; never hit");
}

const char *wt_point_kind_name(enum wt_point_kind kind)
{
	return (unsigned)kind < WT_K__COUNT ? kind_names[kind] : "?";
}

int wt_point_kind_parse(const char *s)
{
	for (int k = 0; k < WT_K__COUNT; k++)
		if (strcmp(kind_names[k], s) == 0)
			return k;
	return -1;
}

/*
 * The name table is built once at start-up, before any simulated thread
 * runs, and is read-only afterwards; it is derived from the (constant)
 * section, so it is no mutable state of a run.
 */
static char **point_names;

static int cmp_by_site(const void *a, const void *b)
{
	const struct wt_point *pa = *(const struct wt_point *const *)a;
	const struct wt_point *pb = *(const struct wt_point *const *)b;
	int c = strcmp(pa->file, pb->file);

	if (c)
		return c;
	return (pa->line > pb->line) - (pa->line < pb->line);
}

static char *base_name(const struct wt_point *p)
{
	char buf[256];

	if (p->name)
		return strdup(p->name);
	if (p->what)
		snprintf(buf, sizeof(buf), "%s.%s.%s", p->func,
			 wt_point_kind_name(p->kind), p->what);
	else
		snprintf(buf, sizeof(buf), "%s.%s", p->func,
			 wt_point_kind_name(p->kind));
	return strdup(buf);
}

/*
 * How many names given so far are NAME or NAME#...: a count per string,
 * kept for every name given and for each of its prefixes that ends
 * before a '#' (open addressing; keys point into the names, which are
 * kept).  What a scan of every earlier name counted, without the scan:
 * the catalogue was quadratic in the points (~500: 125 000 compares in
 * every process that runs a walk).
 */
struct name_count {
	const char *key;	/* NULL: empty */
	size_t len;
	unsigned count;
};

static uint64_t name_hash(const char *key, size_t len)
{
	return wt_fnv1a(WT_FNV1A_INIT, key, len);
}

static struct name_count *name_slot(struct name_count *tab, size_t cap,
				    const char *key, size_t len)
{
	size_t i = (size_t)name_hash(key, len) & (cap - 1);

	/* Never full: cap is over twice the keys (wt_points_catalogue). */
	while (tab[i].key &&
	       (tab[i].len != len || memcmp(tab[i].key, key, len) != 0))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static void name_count_add(struct name_count *tab, size_t cap,
			   const char *key, size_t len)
{
	struct name_count *e = name_slot(tab, cap, key, len);

	e->key = key;
	e->len = len;
	e->count++;
}

void wt_points_catalogue(void)
{
	uint32_t n = wt_point_count();
	const struct wt_point **order;
	struct name_count *counts;
	size_t cap = 16;

	if (point_names)
		return;
	/* Keys: a name and its prefixes before a '#' -- a few a point. */
	while (cap < (size_t)n * 8)
		cap *= 2;
	point_names = calloc(n, sizeof(*point_names));
	order = calloc(n, sizeof(*order));
	counts = calloc(cap, sizeof(*counts));
	if (!point_names || !order || !counts)
		abort();
	for (uint32_t i = 0; i < n; i++)
		order[i] = &__start_wt_points[i];
	/* Number duplicates in file:line order, so names do not depend on
	 * link order. */
	qsort(order, n, sizeof(*order), cmp_by_site);
	for (uint32_t i = 0; i < n; i++) {
		char *name = base_name(order[i]);
		size_t len = strlen(name);
		unsigned dup = 1 + name_slot(counts, cap, name, len)->count;

		if (dup > 1) {
			char buf[300];

			snprintf(buf, sizeof(buf), "%s#%u", name, dup);
			free(name);
			name = strdup(buf);
			if (!name)
				abort();
			len = strlen(name);
		}
		point_names[wt_point_id(order[i])] = name;
		/* What a later name X counts: this one, if it is X or X#... */
		name_count_add(counts, cap, name, len);
		for (size_t k = 0; k < len; k++)
			if (name[k] == '#')
				name_count_add(counts, cap, name, k);
	}
	free(counts);
	free(order);
}

const char *wt_point_name(const struct wt_point *p)
{
	if (!p)
		return "(none)";
	if (!point_names)
		wt_points_catalogue();
	return point_names[wt_point_id(p)];
}

const struct wt_point *wt_point_lookup(const char *name)
{
	uint32_t n = wt_point_count();

	for (uint32_t i = 0; i < n; i++)
		if (strcmp(wt_point_name(&__start_wt_points[i]), name) == 0)
			return &__start_wt_points[i];
	return NULL;
}

uint64_t wt_fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *b = data;

	for (size_t i = 0; i < len; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

const uint64_t *wt_point_hashes;
__thread struct wt_free_run wt_free WT_TLS_LE;

uint64_t wt_point_name_hash_slow(const struct wt_point *p)
{
	uint32_t n = wt_point_count();

	if (!p)
		return 0;
	if (!wt_point_hashes) {
		/* Built once at start-up (wt_run calls it before any thread
		 * runs), like the name table. */
		uint64_t *h = calloc(n ? n : 1, sizeof(*h));

		if (!h)
			abort();
		for (uint32_t i = 0; i < n; i++) {
			const char *name = wt_point_name(&__start_wt_points[i]);

			h[i] = wt_fnv1a(WT_FNV1A_INIT, name, strlen(name));
		}
		wt_point_hashes = h;
	}
	return wt_point_hashes[wt_point_id(p)];
}

/* The backend acts on the point: traces it, applies the actions, and in
 * sim mode decides who runs next. */
static inline __attribute__((always_inline)) void
hook_sched(struct wt_thread *t, const struct wt_point *p, uint32_t id,
	   const void *obj)
{
	/* the id is at hand here: a handler that takes it (and no ops
	 * table's two loads) was ~10 instructions a point of the sim's */
	if (t->sched_point)
		t->sched_point(t, p, id, obj);
	else if (t->sched && t->sched->ops->point)
		t->sched->ops->point(t->sched, t, p, obj);
}

/* A hit in some rule's points: out of line, and tail-called, so that a
 * hit in none (most) keeps no register across a call. */
static __attribute__((noinline)) void
hook_rules(struct wt_thread *t, const struct wt_point *p, const void *obj)
{
	wt_rules_apply(t, p, obj);
	hook_sched(t, p, wt_point_id(p), obj);
}

/*
 * The slow path: count the hit, evaluate the rules (which only leave
 * pending actions in t), then let the backend act on the point.  Inline
 * in both its callers, so that the thunk's reaches the backend with no
 * call between.
 */
static inline __attribute__((always_inline)) void
hook_slow(struct wt_thread *t, const struct wt_point *p, const void *obj)
{
	uint32_t id;

	if (!p)
		return;
	id = wt_hook_arrive(t, p);
	if (t->rules && wt_rules_may_select(t, id)) {
		hook_rules(t, p, obj);
		return;
	}
	hook_sched(t, p, id, obj);
}

void wt_hook_slow(struct wt_thread *t, const struct wt_point *p,
		  const void *obj)
{
	hook_slow(t, p, obj);
}

#ifdef WT_HOOK_THUNK
/* The slow path for the current thread: the thunk's usual target. */
void wt_hook_slow_self(const struct wt_point *p, const void *obj)
{
	hook_slow(wt_self, p, obj);
}

__thread wt_hook_target_fn *wt_hook_target WT_TLS_LE = wt_hook_slow_self;

/* The thunk's free run (wt_hook_free) knows these offsets. */
_Static_assert(offsetof(struct wt_free_run, left) == 0, "left");
_Static_assert(offsetof(struct wt_free_run, hits) == 8, "hits");
_Static_assert(offsetof(struct wt_free_run, hashes) == 16, "hashes");
_Static_assert(offsetof(struct wt_free_run, sum) == 24, "sum");
_Static_assert(offsetof(struct wt_free_run, last) == 32, "last");

/*
 * wt_hook_thunk: wt_hook_free(rdi) or else wt_hook_target(rdi, rsi),
 * preserving every general register but rdi and rsi (which the call
 * site saves) and the flags.  The stack is realigned, since the call
 * site may be anywhere in a function.  The unwind info describes the
 * call site's frame as it was before it stepped over the red zone and
 * saved rdi and rsi (152 bytes with the return address), so that gdb's
 * backtraces from a breakpoint in the slow path (wt_fault_hit) still
 * run through the walk.  The slow path may switch fibers or leave
 * through siglongjmp: both are fine, nothing here outlives the call but
 * the saved registers.
 */
__asm__(
	"	.text\n"
	"	.globl	wt_hook_thunk\n"
	"	.type	wt_hook_thunk, @function\n"
	"	.p2align 4\n"
	"wt_hook_thunk:\n"
	"	.cfi_startproc\n"
	"	.cfi_def_cfa_offset 152\n"
	"	.cfi_offset rip, -152\n"
	"	.cfi_offset rsi, -144\n"
	"	.cfi_offset rdi, -136\n"
	/* wt_hook_free (3:) when a free run is on; else the target */
	"	cmpq	$0, %fs:wt_free@tpoff\n"
	"	jne	3f\n"
	"2:\n"
	"	push	%rbp\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_offset rbp, -160\n"
	"	mov	%rsp, %rbp\n"
	"	.cfi_def_cfa_register rbp\n"
	"	push	%rax\n"
	"	push	%rcx\n"
	"	push	%rdx\n"
	"	push	%r8\n"
	"	push	%r9\n"
	"	push	%r10\n"
	"	push	%r11\n"
	"	and	$-16, %rsp\n"
	"	call	*%fs:wt_hook_target@tpoff\n"
	"	lea	-56(%rbp), %rsp\n"
	"	pop	%r11\n"
	"	pop	%r10\n"
	"	pop	%r9\n"
	"	pop	%r8\n"
	"	pop	%rdx\n"
	"	pop	%rcx\n"
	"	pop	%rax\n"
	"	pop	%rbp\n"
	"	.cfi_def_cfa rsp, 152\n"
	"	.cfi_restore rbp\n"
	"	ret\n"
	/* rdi the point; obj waits in the red zone (a leaf here) while
	 * rsi serves */
	"3:\n"
	"	test	%rdi, %rdi\n"
	"	je	2b\n"
	"	mov	%rsi, -8(%rsp)\n"
	"	mov	%rdi, %rsi\n"
	"	shr	$3, %rsi\n"
	"	add	%fs:wt_free@tpoff+8, %rsi\n"
	"	cmpq	$0, (%rsi)\n"
	"	je	1f\n"
	"	incq	(%rsi)\n"
	"	decq	%fs:wt_free@tpoff\n"
	"	mov	%rdi, %rsi\n"
	"	shr	$3, %rsi\n"
	"	add	%fs:wt_free@tpoff+16, %rsi\n"
	"	mov	(%rsi), %rsi\n"
	"	add	%rsi, %fs:wt_free@tpoff+24\n"
	"	mov	%rdi, %fs:wt_free@tpoff+32\n"
	"	ret\n"
	"1:\n"
	"	mov	-8(%rsp), %rsi\n"
	"	jmp	2b\n"
	"	.cfi_endproc\n"
	"	.size	wt_hook_thunk, . - wt_hook_thunk\n");
#endif

bool wt_hook_alloc_slow(struct wt_thread *t, const struct wt_point *p)
{
	wt_hook_slow(t, p, NULL);
	return t->pending_fail && p && p->kind == WT_K_ALLOC;
}

void wt_fault_hit(const struct wt_point *p)
{
	/* Empty on purpose: a place for a breakpoint. */
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* SPDX-License-Identifier: MIT */
/*
 * Injection rules: which points, on which threads, under which condition,
 * do what.
 *
 * A rule is plain data (struct wt_rule, no pointers, copyable), written by
 * hand or parsed from one line of text:
 *
 *	at=seq.read thread=walker delay=uniform(0,80us) p=0.2
 *	at=d_alloc* fail nth=3
 *	at=lookup_fast.* component=b preempt-until=renamer@d_move.done
 *
 * Keys (whitespace separates tokens; a value may hold parentheses):
 *
 *	at=PATTERN	points: an exact dotted name, a glob (fnmatch, `*'
 *			crosses dots), or a kind name (seq.read, seq.retry,
 *			load, store, lock, alloc, ...); absent = every point
 *	thread=SEL	a thread name, a role, or #ID; absent = every thread
 *	role=ROLE	the same, but only the role
 *	component=NAME	only while the walk looks up component NAME
 *	obj=ID		only on the object with that wt_obj id
 *	objtype=TYPE	only on objects of that type (dentry, inode, ...)
 *	p=P		fire with probability P (0..1, default 1)
 *	nth=N		fire on the Nth matching hit only (1-based)
 *	every=N		fire on every Nth matching hit
 *	delay[=DIST]	delay the thread; DIST is a duration (500ns, 3us,
 *			1.5ms, 2s; a bare number is ns), uniform(A,B) or
 *			exp(MEAN); bare `delay' is KCSAN's uniform(0,80us)
 *	yield		let another thread run here
 *	preempt-until=THREAD@POINT
 *			stop here until THREAD reaches POINT (stress: at
 *			most timeout=DUR, default 10ms)
 *	fail		make the allocation at this point fail (WT_K_ALLOC
 *			points, through wt_alloc_should_fail())
 *	count		no action: only count matches and fires
 *
 * A hit matches a rule when the point, the thread, the component and the
 * object all match; the matching hits of a rule are numbered 1, 2, ...
 * across all threads of the run (in sim mode that order is the
 * deterministic schedule's); nth/every select among them, then p draws
 * from the hitting thread's PRNG.  Several rules may fire at one hit:
 * delays add up.
 *
 * The object of a hit: for field loads and stores and writer steps
 * (WT_K_LOAD, WT_K_STORE, WT_K_OP_STEP) the obj passed to the hook is the
 * object itself (every VFS object starts with struct wt_obj); for other
 * points obj may be a seqcount or a lock, so the object is the one the
 * caller tagged in wt_thread.cur_obj (NULL: an obj= rule does not match).
 */
#ifndef WT_SIM_RULES_H
#define WT_SIM_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/inject.h"

#define WT_RULE_PATTERN_MAX	96
#define WT_RULE_NAME_MAX	32
#define WT_RULE_COMPONENT_MAX	64

/* KCSAN's default: a random delay of up to 80 microseconds. */
#define WT_DELAY_DEFAULT_MAX_NS	80000ull
/* How long a stress-mode preempt-until waits for the other thread. */
#define WT_PREEMPT_TIMEOUT_DEFAULT_NS 10000000ull

enum wt_rule_action {
	WT_RULE_COUNT,		/* count only */
	WT_RULE_DELAY,
	WT_RULE_YIELD,
	WT_RULE_PREEMPT,	/* preempt-until THREAD@POINT */
	WT_RULE_FAIL,
};

enum wt_dist_kind {
	WT_DIST_FIXED,		/* a_ns */
	WT_DIST_UNIFORM,	/* [a_ns, b_ns] */
	WT_DIST_EXP,		/* mean a_ns */
};

struct wt_dist {
	enum wt_dist_kind kind;
	uint64_t a_ns;
	uint64_t b_ns;
};

struct wt_rule {
	char at[WT_RULE_PATTERN_MAX];		/* "" = every point */
	char thread[WT_RULE_NAME_MAX];		/* name, role or #ID; "" any */
	bool thread_is_role;			/* role= rather than thread= */
	char component[WT_RULE_COMPONENT_MAX];	/* "" any */
	bool has_obj_id;
	uint64_t obj_id;
	int obj_type;				/* enum wt_obj_type, -1 any */
	double p;				/* default 1 */
	uint64_t nth;				/* 0: off */
	uint64_t every;				/* 0: off */
	enum wt_rule_action action;
	struct wt_dist delay;
	char preempt_thread[WT_RULE_NAME_MAX];
	char preempt_point[WT_RULE_PATTERN_MAX];
	uint64_t timeout_ns;
	unsigned line;				/* source line, for reports */
};

/* Where a parse failed: byte offset in the text (and line, 1-based, for
 * multi-line input), and what was wrong. */
struct wt_parse_error {
	size_t pos;
	unsigned line;
	unsigned col;				/* 1-based, within the line */
	char msg[160];
};

/* Defaults: every point, every thread, p=1, action count. */
void wt_rule_init(struct wt_rule *r);
/* Parse one rule line into r (initialised first).  0, or -1 with err. */
int wt_rule_parse(const char *text, struct wt_rule *r,
		  struct wt_parse_error *err);
/* Set one key (value NULL for bare words); what the parser calls, for
 * loaders that have keys and values already (YAML maps).  err->pos is
 * relative to the value. */
int wt_rule_set(struct wt_rule *r, const char *key, const char *value,
		struct wt_parse_error *err);
/* "500ns", "3us", "1.5ms", "2s", "25m", "1h", "40" (ns).  0 or -1; *end
 * after it. */
int wt_duration_parse(const char *s, uint64_t *ns, const char **end);
/* A duration or uniform(A,B) or exp(MEAN). */
int wt_dist_parse(const char *s, struct wt_dist *d,
		  struct wt_parse_error *err);
/* Draw from d with the given stream. */
uint64_t wt_dist_sample(const struct wt_dist *d, struct wt_prng *r);
/* The rule back as text (parsable by wt_rule_parse). */
int wt_rule_format(const struct wt_rule *r, char *buf, size_t size);

/*
 * A set of points chosen by a pattern (name, glob or kind), as a bitmap
 * over point ids.  Unknown exact names are an error, so a typo in a
 * scenario does not silently match nothing.
 */
struct wt_point_set {
	uint64_t *bits;
	uint32_t npoints;
	uint32_t count;		/* points in the set */
};

int wt_point_set_build(struct wt_point_set *s, const char *pattern,
		       struct wt_parse_error *err);
void wt_point_set_free(struct wt_point_set *s);

/*
 * Point sets by pattern, kept from one run to the next (struct
 * wt_run_cache: directed `until' steps and injection rules).  A set is
 * a function of its pattern alone -- the catalogue is the program's --
 * and building one matches the pattern against every point, which a run
 * of a few hundred points would otherwise pay for every iteration (a
 * tenth of a short directed file with a rule, unlazy.link_stack).
 */
#define WT_POINT_SET_CACHE	16

struct wt_point_set_cache {
	unsigned n;
	struct {
		char pattern[WT_RULE_PATTERN_MAX];
		struct wt_point_set set;
	} e[WT_POINT_SET_CACHE];
};

/* The set of pattern: c's (found, or built into it), or -- no cache, or
 * no room -- built into *own, which the caller frees.  NULL on an error
 * (*err says which). */
const struct wt_point_set *wt_point_set_cached(struct wt_point_set_cache *c,
					       const char *pattern,
					       struct wt_point_set *own,
					       struct wt_parse_error *err);
void wt_point_set_cache_free(struct wt_point_set_cache *c);

static inline bool wt_point_set_has(const struct wt_point_set *s, uint32_t id)
{
	return id < s->npoints && (s->bits[id / 64] >> (id % 64)) & 1;
}

/* Does thread t answer to selector sel (name, role, or #ID)? */
bool wt_thread_matches(const struct wt_thread *t, const char *sel,
		       bool role_only);

/*
 * A run's compiled rules: point sets built (or found in sets, which may
 * be NULL), threads resolved, counters zeroed.  wt_run creates it and
 * hangs a per-thread view on each wt_thread.rules.
 */
struct wt_ruleset;

struct wt_ruleset *wt_ruleset_create(const struct wt_rule *rules,
				     unsigned nrules,
				     struct wt_thread **threads,
				     unsigned nthreads,
				     struct wt_point_set_cache *sets,
				     char *err, size_t errlen);
void wt_ruleset_destroy(struct wt_ruleset *rs);
/* The view for thread t (NULL when no rule can select it). */
struct wt_rule_state *wt_ruleset_thread(struct wt_ruleset *rs,
					const struct wt_thread *t);
/* Does any rule need other threads' hit counters (preempt-until)? */
bool wt_ruleset_needs_hits(const struct wt_ruleset *rs);
/* Matches and fires of rule i so far. */
void wt_ruleset_stats(const struct wt_ruleset *rs, unsigned i,
		      uint64_t *matches, uint64_t *fires);

/* For preempt-until: how many times `other` has reached the points of
 * the rule t->pending_preempt_rule (its hit counters, summed). */
uint64_t wt_rule_preempt_progress(const struct wt_thread *t,
				  const struct wt_thread *other);

/* Evaluate t's rules at p; sets t->pending_* for the backend. */
void wt_rules_apply(struct wt_thread *t, const struct wt_point *p,
		    const void *obj);

/*
 * The union of the point sets of t's rules, the first member of t->rules
 * (rules.c): the hook asks wt_rules_may_select before it calls
 * wt_rules_apply, so that a hit outside every rule's points -- most hits
 * -- costs one bit test and no call.
 */
struct wt_rules_filter {
	uint64_t *any;			/* bit per point id */
	uint32_t npoints;
};

static inline bool wt_rules_may_select(const struct wt_thread *t, uint32_t id)
{
	const struct wt_rules_filter *f =
		(const struct wt_rules_filter *)(const void *)t->rules;

	return id < f->npoints && ((f->any[id / 64] >> (id % 64)) & 1);
}

#endif /* WT_SIM_RULES_H */

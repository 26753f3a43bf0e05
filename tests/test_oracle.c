/* SPDX-License-Identifier: MIT */
/*
 * The step oracle on hand-made histories and hand-written records.
 *
 * Each test builds a history with the sim writer operations, writes the
 * record a walker could have left (or could not have), and checks the
 * verdict: a result that only non-simultaneous instants explain is
 * accepted; names, inodes, permissions and windows that explain nothing
 * are rejected with an explanation naming the step; EAGAIN and ESTALE
 * are accepted only under their protocol conditions.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include <criterion/criterion.h>

#include "core/namei.h"
#include "core/oracle.h"
#include "core/record.h"
#include "core/refwalk.h"
#include "sim/history.h"
#include "sim/ns.h"
#include "sim/ops.h"
#include "sim/resolve.h"
#include "sim/tree.h"
#include "sim/vfs/world.h"

static struct wt_world *w;
static struct wt_record *rec;
static struct wt_oracle_result res;
static const struct cred root_cred = { .uid = 0, .gid = 0,
				       .cap_dac_override = true,
				       .cap_sys_ptrace = true };
static const struct cred user_cred = { .uid = 1000, .gid = 1000 };

static void setup(void)
{
	w = wt_ops_world_create(42);
	cr_assert_not_null(w);
	rec = wt_record_create(64, 4096);
	cr_assert_not_null(rec);
}

static void teardown(void)
{
	wt_record_destroy(rec);
	wt_ops_world_destroy(w);
}

/* Every test gets a fresh world (TestSuite-free: the TSan runner shim
 * knows Test's .init/.fini only). */
#define ORACLE_TEST(name) Test(oracle, name, .init = setup, .fini = teardown)

static uint64_t now(void)
{
	return wt_history_version(w->history);
}

#define OK(call) cr_assert_eq((call), 0, "%s failed", #call)

/* (mount, dentry, inode) of path at version v, without following a
 * trailing symlink; the reference resolver does the walking. */
static struct wt_ident ident_at(uint64_t v, const char *path)
{
	struct wt_ns *ns = wt_ns_create(w->history, v);
	struct wt_refwalk_opts o = { .cred = &root_cred };
	struct wt_refwalk_result r;

	cr_assert_not_null(ns);
	cr_assert_eq(wt_refwalk(ns, path, &o, &r), 0, "%s at v%llu: %d", path,
		     (unsigned long long)v, r.error);
	wt_ns_destroy(ns);
	return r.id;
}

/* The dentry named name in dir at v (a covered mountpoint, say). */
static struct wt_ident child_at(uint64_t v, struct wt_ident dir,
				const char *name)
{
	struct wt_ns *ns = wt_ns_create(w->history, v);
	const struct wt_dentry_fact *d;
	struct wt_ident id = { dir.mnt, 0, 0 };

	cr_assert_not_null(ns);
	d = wt_ns_child(ns, dir.dentry, name, strlen(name));
	cr_assert_not_null(d, "no %s", name);
	id.dentry = d->id;
	id.inode = d->inode;
	wt_ns_destroy(ns);
	return id;
}

static bool resolves_at(uint64_t v, const char *path)
{
	struct wt_ns *ns = wt_ns_create(w->history, v);
	struct wt_refwalk_opts o = { .cred = &root_cred };
	struct wt_refwalk_result r;

	wt_refwalk(ns, path, &o, &r);
	wt_ns_destroy(ns);
	return r.error == 0;
}

/* --- writing records by hand --- */

static void attempt(unsigned flags, uint64_t vs, uint64_t ve, int result)
{
	struct wt_record_attempt *a = &rec->attempts[rec->nattempts++];

	a->first = rec->nsteps;
	a->count = 0;
	a->flags = flags;
	a->result = result;
	a->version_start = vs;
	a->version_end = ve;
	rec->result = result;
}

static struct wt_step *step(enum wt_step_kind kind, struct wt_ident from,
			    struct wt_ident to, const char *text, int result,
			    uint32_t arg)
{
	struct wt_step *s = &rec->steps[rec->nsteps++];

	memset(s, 0, sizeof(*s));
	s->kind = (uint16_t)kind;
	s->attempt = (uint8_t)rec->nattempts;
	s->rcu = 0;
	s->validated = 1;
	s->result = result;
	s->arg = arg;
	s->from = from;
	s->to = to;
	s->text = WT_RECORD_NO_TEXT;
	if (text) {
		size_t len = strlen(text);

		s->text = rec->text_len;
		s->text_len = (uint32_t)len;
		memcpy(rec->text + rec->text_len, text, len + 1);
		rec->text_len += (uint32_t)len + 1;
	}
	rec->attempts[rec->nattempts - 1].count++;
	return s;
}

static const struct wt_ident none;

static void start(struct wt_ident at, const char *name)
{
	step(WT_STEP_START, none, at, name, 0, 0);
}

static void perm(struct wt_ident dir, int result)
{
	step(WT_STEP_PERMISSION, dir, dir, NULL, result, MAY_EXEC);
}

static void lookup(struct wt_ident dir, const char *name, struct wt_ident to)
{
	step(WT_STEP_LOOKUP, dir, to, name, 0, WT_LOOKUP_FAST);
}

static void end(struct wt_ident at, int result)
{
	step(WT_STEP_END, none, at, NULL, result, 0);
}

static enum wt_verdict judge_as(const struct cred *cred, const char *name)
{
	struct wt_oracle_input in = { .record = rec, .cred = cred, .name = name };
	enum wt_verdict v = wt_oracle_check(w->history, &in, &res);

	cr_log_info("verdict %s: %s", wt_verdict_name(v), res.explain);
	return v;
}

static enum wt_verdict judge(void)
{
	return judge_as(&root_cred, NULL);
}

static void reset_record(void)
{
	wt_record_reset(rec);
	rec->entry = WT_ENTRY_LOOKUP;
}

/* ------------------------------------------------------------------ */

/*
 * /a/b is reached by looking up "a" at v3 and "b" in it at v5: /a was
 * renamed away at v4 and b moved into it at v5, so no single version
 * has the whole path, yet REF-walk, holding a reference on the directory
 * between the two lookups, could have produced it.
 */
/*
 * /a and /c/b at v3, then /a renamed to /z and /c/b into it as /z/b by
 * v5: the record of a walk of "/a/b" that found /a at v3 and b under it
 * at v5 (its window [v3, v5]).
 */
static void record_two_renames(uint64_t *v3, uint64_t *v5)
{
	struct wt_ident root, a, b;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_mkdir(w, "/c", 0755, false));
	OK(wt_op_mkdir(w, "/c/b", 0755, false));
	*v3 = now();
	root = ident_at(*v3, "/");
	a = ident_at(*v3, "/a");
	b = ident_at(*v3, "/c/b");
	OK(wt_op_rename(w, "/a", "/z", 0));
	OK(wt_op_rename(w, "/c/b", "/z/b", 0));
	*v5 = now();
	reset_record();
	attempt(LOOKUP_RCU | LOOKUP_FOLLOW, *v3, *v5, 0);
	start(root, "/a/b");
	perm(root, 0);
	lookup(root, "a", a);
	perm(a, 0);
	lookup(a, "b", b);
	end(b, 0);
}

ORACLE_TEST(accepts_non_simultaneous_instants)
{
	uint64_t v3, v5;

	record_two_renames(&v3, &v5);
	for (uint64_t v = v3; v <= v5; v++)
		cr_assert(!resolves_at(v, "/a/b"), "/a/b exists at v%llu",
			  (unsigned long long)v);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	cr_assert_eq(res.last_instant, v5);

	/* the window ends before b arrives */
	rec->attempts[0].version_end = v5 - 1;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 4);
	cr_assert(strstr(res.explain, "'b'"), "%s", res.explain);

	/* the window starts after "a" was renamed away */
	rec->attempts[0].version_start = v3 + 1;
	rec->attempts[0].version_end = v5;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 2);
	cr_assert(strstr(res.explain, "'a' is absent"), "%s", res.explain);
}

/*
 * A renewed oracle is a new one: one that judged a walk over another
 * history (its snapshots dropped, as a run drops them before the rewind)
 * and is then renewed for this one gives the verdicts, results and
 * statistics a fresh oracle gives for the same walks in the same order.
 */
ORACLE_TEST(a_renewed_oracle_judges_as_a_new_one)
{
	struct wt_world *other = wt_ops_world_create(7);
	struct wt_oracle *fresh, *renewed;
	struct wt_oracle_result got[2], want[2];
	struct wt_oracle_input in = { .record = rec, .cred = &root_cred };
	uint64_t v3, v5, ends[2];

	cr_assert_not_null(other);
	OK(wt_op_mkdir(other, "/x", 0755, false));
	record_two_renames(&v3, &v5);
	ends[0] = v5;		/* accepted */
	ends[1] = v5 - 1;	/* rejected: b is not there yet */

	renewed = wt_oracle_create(other->history);
	cr_assert_not_null(renewed);
	memset(&got[0], 0, sizeof(got[0]));
	wt_oracle_judge(renewed, &in, &got[0]);	/* over the other history */
	wt_oracle_reset(renewed);
	wt_oracle_renew(renewed, w->history);
	fresh = wt_oracle_create(w->history);
	cr_assert_not_null(fresh);
	for (unsigned i = 0; i < 2; i++) {
		rec->attempts[0].version_end = ends[i];
		memset(&want[i], 0, sizeof(want[i]));
		memset(&got[i], 0, sizeof(got[i]));
		cr_assert_eq(wt_oracle_judge(fresh, &in, &want[i]),
			     i ? WT_VERDICT_REJECTED : WT_VERDICT_OK);
		cr_assert_eq(wt_oracle_judge(renewed, &in, &got[i]),
			     want[i].verdict);
		cr_assert_eq(got[i].step, want[i].step);
		cr_assert_eq(got[i].judged, want[i].judged);
		cr_assert_eq(got[i].last_instant, want[i].last_instant);
		cr_assert_str_eq(got[i].explain, want[i].explain);
	}
	cr_assert_eq(memcmp(wt_oracle_stats(renewed), wt_oracle_stats(fresh),
			    sizeof(struct wt_oracle_stats)), 0);
	wt_oracle_destroy(fresh);
	wt_oracle_destroy(renewed);
	wt_ops_world_destroy(other);
}

/* A name that never was in the directory, an inode that never was the
 * name's: no instant explains either. */
ORACLE_TEST(rejects_names_and_inodes_never_there)
{
	struct wt_ident root, a, c, ghost;
	uint64_t v;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_mkdir(w, "/c", 0755, false));
	v = now();
	root = ident_at(v, "/");
	a = ident_at(v, "/a");
	c = ident_at(v, "/c");

	reset_record();
	attempt(LOOKUP_RCU, 0, v, 0);
	start(root, "/ghost");
	perm(root, 0);
	lookup(root, "ghost", a);
	end(a, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 2);
	cr_assert(strstr(res.explain, "'ghost' is absent"), "%s", res.explain);
	cr_assert_eq(res.tried_from, 0);
	cr_assert_eq(res.tried_to, v);

	ghost = a;
	ghost.inode = c.inode;
	reset_record();
	attempt(LOOKUP_RCU, 0, v, 0);
	start(root, "/a");
	perm(root, 0);
	lookup(root, "a", ghost);
	end(ghost, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 2);

	/* an ENOENT for a name that is there all along */
	reset_record();
	attempt(LOOKUP_RCU, v, v, -ENOENT);
	start(root, "/a");
	perm(root, 0);
	lookup(root, "a", (struct wt_ident){ root.mnt, 0, 0 });
	end(root, -ENOENT);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "'a' is dentry"), "%s", res.explain);

	/* and the same ENOENT, in a window where it was absent first */
	rec->attempts[0].version_start = 0;
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
}

/*
 * A rejection says what the namespace held at the first instant tried
 * and, when that differs, at the last.  The window is searched with the
 * matchers quiet and they run again, aloud, at those two instants
 * (oracle.c, explain_instants): this pins what they say to what each
 * instant holds.  /a/x is looked up with an inode it never had: absent
 * when the window opens, another inode when it closes.
 */
ORACLE_TEST(a_rejection_says_the_first_and_the_last_instant)
{
	struct wt_ident root, a, c, x;
	char want[160];
	uint64_t v1, v2;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_mkdir(w, "/c", 0755, false));
	v1 = now();
	root = ident_at(v1, "/");
	a = ident_at(v1, "/a");
	c = ident_at(v1, "/c");
	OK(wt_op_mkdir(w, "/a/x", 0755, false));
	v2 = now();
	cr_assert_gt(v2, v1);
	x = ident_at(v2, "/a/x");
	snprintf(want, sizeof(want),
		 "at v%llu..v%llu 'x' is absent; at the end 'x' is dentry "
		 "%llu inode %llu", (unsigned long long)v1,
		 (unsigned long long)v2, (unsigned long long)x.dentry,
		 (unsigned long long)x.inode);
	x.inode = c.inode;

	reset_record();
	attempt(LOOKUP_RCU, v1, v2, 0);
	start(root, "/a/x");
	perm(root, 0);
	lookup(root, "a", a);
	perm(a, 0);
	lookup(a, "x", x);
	end(x, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 4);
	cr_assert(strstr(res.explain, want), "%s\nwants %s", res.explain, want);
	cr_assert_eq(res.tried_from, v1);
	cr_assert_eq(res.tried_to, v2);

	/* one instant: no "at the end" */
	rec->attempts[0].version_end = v1;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	snprintf(want, sizeof(want), "at v%llu..v%llu 'x' is absent",
		 (unsigned long long)v1, (unsigned long long)v1);
	cr_assert(strstr(res.explain, want), "%s\nwants %s", res.explain, want);
	cr_assert_null(strstr(res.explain, "at the end"), "%s", res.explain);
}

/* An exec permission never granted in the window is rejected; granted by
 * a chmod inside the window, accepted; root's override as the kernel's. */
ORACLE_TEST(permissions_at_their_instant)
{
	struct wt_ident root, a, f;
	uint64_t v, v2;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_create(w, "/a/f", 0644));
	OK(wt_op_chmod(w, "/a", 0700));
	v = now();
	root = ident_at(v, "/");
	a = ident_at(v, "/a");
	f = ident_at(v, "/a/f");

	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(root, "/a/f");
	perm(root, 0);
	lookup(root, "a", a);
	perm(a, 0);
	lookup(a, "f", f);
	end(f, 0);
	cr_assert_eq(judge_as(&user_cred, "/a/f"), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 3);
	cr_assert(strstr(res.explain, "denied"), "%s", res.explain);
	/* root may search it */
	cr_assert_eq(judge_as(&root_cred, "/a/f"), WT_VERDICT_OK, "%s", res.explain);

	/* the refusal is what the user gets */
	reset_record();
	attempt(LOOKUP_RCU, v, v, -EACCES);
	start(root, "/a/f");
	perm(root, 0);
	lookup(root, "a", a);
	perm(a, -EACCES);
	end(a, -EACCES);
	cr_assert_eq(judge_as(&user_cred, "/a/f"), WT_VERDICT_OK, "%s", res.explain);
	cr_assert_eq(judge_as(&root_cred, "/a/f"), WT_VERDICT_REJECTED);

	/* a chmod inside the window grants it */
	OK(wt_op_chmod(w, "/a", 0711));
	v2 = now();
	reset_record();
	attempt(LOOKUP_RCU, v, v2, 0);
	start(root, "/a/f");
	perm(root, 0);
	lookup(root, "a", a);
	perm(a, 0);
	lookup(a, "f", f);
	end(f, 0);
	cr_assert_eq(judge_as(&user_cred, "/a/f"), WT_VERDICT_OK, "%s", res.explain);
	cr_assert_eq(res.last_instant, v2);

	/* a lookup with no exec check before it */
	reset_record();
	attempt(LOOKUP_RCU, v2, v2, 0);
	start(root, "/a/f");
	perm(root, 0);
	lookup(root, "a", a);
	lookup(a, "f", f);
	end(f, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "exec check"), "%s", res.explain);
}

/* EAGAIN is protocol: only with LOOKUP_CACHED, or a scoped `..` while a
 * rename or mount was published in the window. */
ORACLE_TEST(eagain_only_under_protocol)
{
	struct wt_ident a, d;
	uint64_t v, v2;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_mkdir(w, "/a/d", 0755, false));
	OK(wt_op_mkdir(w, "/c", 0755, false));
	v = now();
	a = ident_at(v, "/a");
	d = ident_at(v, "/a/d");

	/* RESOLVE_CACHED: the RCU attempt gave up, the retry says EAGAIN */
	reset_record();
	rec->flags = LOOKUP_CACHED;
	attempt(LOOKUP_RCU | LOOKUP_CACHED, v, v, -ECHILD);
	attempt(LOOKUP_CACHED, v, v, -EAGAIN);
	end(none, -EAGAIN);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	rec->flags = 0;
	rec->attempts[0].flags = LOOKUP_RCU;
	rec->attempts[1].flags = 0;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);

	/* a scoped `..` with a rename published in the window */
	OK(wt_op_rename(w, "/c", "/c2", 0));
	v2 = now();
	reset_record();
	attempt(LOOKUP_RCU | LOOKUP_BENEATH, v, v2, -EAGAIN);
	start(a, "d/..");
	perm(a, 0);
	lookup(a, "d", d);
	perm(d, 0);
	step(WT_STEP_DOTDOT, d, a, NULL, 0, 0);
	end(a, -EAGAIN);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* with nothing published in the window it is still right after a
	 * scoped `..`: mount_lock has writers the history does not log */
	rec->attempts[0].version_start = v;
	rec->attempts[0].version_end = v;
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* not scoped: a `..` never answers EAGAIN */
	rec->attempts[0].flags = LOOKUP_RCU;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "EAGAIN"), "%s", res.explain);

	/* scoped, but the EAGAIN came after a lookup, not after `..`
	 * (IN_ROOT: its `..` at the root stays) */
	reset_record();
	attempt(LOOKUP_RCU | LOOKUP_IN_ROOT, v, v2, -EAGAIN);
	start(a, "d/..");
	perm(a, 0);
	step(WT_STEP_DOTDOT, a, a, NULL, 0, 1);
	perm(a, 0);
	lookup(a, "d", d);
	end(d, -EAGAIN);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "after a scoped"), "%s", res.explain);
	/* under BENEATH that `..` cannot stay: follow_dotdot's EXDEV */
	rec->attempts[0].flags = LOOKUP_RCU | LOOKUP_BENEATH;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 2);
	cr_assert(strstr(res.explain, "RESOLVE_BENEATH"), "%s", res.explain);
}

/* ESTALE reaches a caller only from the LOOKUP_REVAL attempt, after an
 * attempt that met ESTALE, and only from something remote. */
ORACLE_TEST(estale_only_after_reval)
{
	struct wt_ident root, r, rroot;
	uint64_t v;

	OK(wt_op_mkdir(w, "/r", 0755, false));
	OK(wt_op_mount(w, "remote", "srv", "/r"));
	v = now();
	root = ident_at(v, "/");
	r = child_at(v, root, "r");
	rroot = ident_at(v, "/r");

#define REMOTE_WALK(flags, res_) do {				\
		attempt((flags), v, v, (res_));			\
		start(root, "/r/x");				\
		perm(root, 0);					\
		lookup(root, "r", r);				\
		step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);	\
		perm(rroot, 0);					\
		step(WT_STEP_LOOKUP, rroot, (struct wt_ident){ rroot.mnt, 0, 0 }, \
		     "x", -ESTALE, WT_LOOKUP_SLOW);		\
		end(rroot, (res_));				\
	} while (0)

	/* the RCU attempt's ESTALE went straight to the caller */
	reset_record();
	REMOTE_WALK(LOOKUP_RCU, -ESTALE);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "LOOKUP_REVAL"), "%s", res.explain);

	/* RCU, then LOOKUP_REVAL: both met the stale handle */
	reset_record();
	REMOTE_WALK(LOOKUP_RCU, -ESTALE);
	REMOTE_WALK(LOOKUP_REVAL, -ESTALE);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* ESTALE after ECHILD -> REF, without the REVAL attempt */
	reset_record();
	REMOTE_WALK(LOOKUP_RCU, -ECHILD);
	REMOTE_WALK(0, -ESTALE);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);

	/* ESTALE from a walk that met nothing remote */
	reset_record();
	attempt(LOOKUP_RCU, v, v, -ESTALE);
	start(root, "/");
	end(root, -ESTALE);
	attempt(LOOKUP_REVAL, v, v, -ESTALE);
	start(root, "/");
	end(root, -ESTALE);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "remote"), "%s", res.explain);
#undef REMOTE_WALK
}

/*
 * complete_walk's weak revalidation decides the attempt's answer: a 0
 * (stale) is -ESTALE, and only the LOOKUP_REVAL attempt may take it to
 * the caller.  The walk here crosses onto a remote mount and ends on its
 * root, so it jumped; every step holds at v, so nothing but the recorded
 * answer tells an `ok` after a 0 from a right one.  Without the check
 * the first rejection below is accepted.
 */
ORACLE_TEST(weak_revalidate_answer_decides)
{
	struct wt_ident root, r, rroot;
	uint64_t v;

	OK(wt_op_mkdir(w, "/r", 0755, false));
	OK(wt_op_mount(w, "remote", "srv", "/r"));
	v = now();
	root = ident_at(v, "/");
	r = child_at(v, root, "r");
	rroot = ident_at(v, "/r");

#define JUMPED_WALK(flags, weak, res_) do {			\
		attempt((flags), v, v, (res_));			\
		start(root, "/r");				\
		perm(root, 0);					\
		lookup(root, "r", r);				\
		step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);	\
		step(WT_STEP_WEAK_REVALIDATE, rroot, rroot, NULL,	\
		     (weak), 0);				\
		end(rroot, (res_));				\
	} while (0)

	/* valid: the walk ends where it stands */
	reset_record();
	JUMPED_WALK(LOOKUP_RCU, 1, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* stale, taken for valid: the walker's answer contradicts it */
	reset_record();
	JUMPED_WALK(LOOKUP_RCU, 0, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 4);
	cr_assert(strstr(res.explain, "d_weak_revalidate"), "%s", res.explain);

	/* stale, and then some other error: still not what complete_walk
	 * returns */
	reset_record();
	JUMPED_WALK(LOOKUP_RCU, -ESTALE, 0);
	rec->attempts[0].result = rec->result = -ENOENT;
	rec->steps[5].result = -ENOENT;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "d_weak_revalidate"), "%s", res.explain);

	/* stale -> -ESTALE; the LOOKUP_REVAL retry refreshed the handle */
	reset_record();
	JUMPED_WALK(LOOKUP_RCU, 0, -ESTALE);
	JUMPED_WALK(LOOKUP_REVAL, 1, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* stale in the LOOKUP_REVAL attempt too: ESTALE to the caller */
	reset_record();
	JUMPED_WALK(LOOKUP_RCU, 0, -ESTALE);
	JUMPED_WALK(LOOKUP_REVAL, 0, -ESTALE);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* ... but not `ok` there either */
	rec->attempts[1].result = rec->result = 0;
	rec->steps[rec->nsteps - 1].result = 0;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 10);
	cr_assert(strstr(res.explain, "answered 0 (stale)"), "%s", res.explain);
#undef JUMPED_WALK
}

/*
 * A successful walk that ended on a remote object by a jump -- here a
 * mount crossing, or a `..` -- was weakly revalidated by complete_walk;
 * one that ended on a name it looked up was not, and need not be.
 * Without the check the first and third walks are accepted.
 */
ORACLE_TEST(weak_revalidation_is_due_after_a_jump)
{
	struct wt_ident root, r, rroot, x;
	uint64_t v;

	OK(wt_op_mkdir(w, "/r", 0755, false));
	OK(wt_op_mount(w, "remote", "srv", "/r"));
	OK(wt_op_mkdir(w, "/r/x", 0755, false));
	v = now();
	root = ident_at(v, "/");
	r = child_at(v, root, "r");
	rroot = ident_at(v, "/r");
	x = ident_at(v, "/r/x");

	/* `stat /r`: the crossing is the last step */
	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(root, "/r");
	perm(root, 0);
	lookup(root, "r", r);
	step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);
	end(rroot, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 4);
	cr_assert(strstr(res.explain, "did not weakly revalidate"), "%s",
		  res.explain);

	/* `stat /r/x`: a lookup by name ends it */
	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(root, "/r/x");
	perm(root, 0);
	lookup(root, "r", r);
	step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);
	perm(rroot, 0);
	lookup(rroot, "x", x);
	end(x, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* `stat /r/x/..`: the `..` jumps back to the root */
	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(root, "/r/x/..");
	perm(root, 0);
	lookup(root, "r", r);
	step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);
	perm(rroot, 0);
	lookup(rroot, "x", x);
	perm(x, 0);
	step(WT_STEP_DOTDOT, x, rroot, NULL, 0, 0);
	end(rroot, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "did not weakly revalidate"), "%s",
		  res.explain);
	/* ... and asked, it passes */
	rec->nsteps--;
	rec->attempts[0].count--;
	step(WT_STEP_WEAK_REVALIDATE, rroot, rroot, NULL, 1, 0);
	end(rroot, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
}

/* -ECHILD never reaches a caller; the ladder retries only on it and on
 * -ESTALE. */
ORACLE_TEST(ladder_protocol)
{
	struct wt_ident root = ident_at(now(), "/");

	reset_record();
	attempt(LOOKUP_RCU, now(), now(), -ECHILD);
	attempt(0, now(), now(), -ECHILD);
	end(root, -ECHILD);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "ECHILD"), "%s", res.explain);

	reset_record();
	attempt(LOOKUP_RCU, now(), now(), -ENOENT);
	attempt(0, now(), now(), -ENOENT);
	end(root, -ENOENT);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "retried"), "%s", res.explain);
}

/* `..` from a removed directory still reaches its old parent: the
 * snapshot keeps the unhashed dentry with its last parent. */
ORACLE_TEST(dotdot_from_removed_directory)
{
	struct wt_ident p, q;
	struct path held;
	uint64_t v;

	OK(wt_op_mkdir(w, "/p", 0755, false));
	OK(wt_op_mkdir(w, "/p/q", 0755, false));
	v = now();
	p = ident_at(v, "/p");
	q = ident_at(v, "/p/q");
	/* the walker's cwd holds q, as REF-walk's reference would */
	OK(wt_resolve(w, "/p/q", 0, &held));
	OK(wt_op_rmdir(w, "/p/q"));
	v = now();

	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(q, "..");
	perm(q, 0);
	step(WT_STEP_DOTDOT, q, p, NULL, 0, 0);
	end(p, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* but a lookup in it finds nothing, whatever was there */
	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(q, "x");
	perm(q, 0);
	lookup(q, "x", p);
	end(p, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	wt_path_put(&held);
}

/* Each mount layer is its own step; a walk that did not cross a mount
 * that was there all along is rejected, one that looked before the mount
 * was attached is not. */
/* The answer of the reference resolver for path as cred. */
static int refwalk_as(const struct cred *cred, const char *path, unsigned flags)
{
	struct wt_ns *ns = wt_ns_create(w->history, now());
	struct wt_refwalk_opts o = { .cred = cred, .flags = flags };
	struct wt_refwalk_result r;

	cr_assert_not_null(ns);
	wt_refwalk(ns, path, &o, &r);
	wt_ns_destroy(ns);
	return r.error;
}

/*
 * proc's processes: a magic link of a process the walker may not read
 * (another uid, a non-dumpable process; not its own, not for root) is
 * EACCES in REF-walk, before RESOLVE_NO_MAGICLINKS' ELOOP; a walk that
 * ends there with EACCES is explained only when the check refuses it,
 * and a walk that jumps through such a link is rejected.
 */
ORACLE_TEST(magic_links_of_other_processes)
{
	static const char *const lines[] = {
		"mkdir /d", "mkdir /p", "mount -t proc p /p",
		"proc-task -u 1000:1000 --cwd /d 42",
		"proc-task -u 1000:1000 --cwd /d --nondumpable 43",
	};
	const struct cred own43 = { .uid = 1000, .gid = 1000, .tgid = 43 };
	struct wt_ident root, p, proot, t43, cwd, d;
	struct wt_verb_error e;
	uint64_t v;

	for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		cr_assert_eq(wt_verb_exec(w, lines[i], &e), 0, "%s", lines[i]);
	cr_assert_eq(refwalk_as(&user_cred, "/p/42/cwd", LOOKUP_FOLLOW), 0);
	cr_assert_eq(refwalk_as(&user_cred, "/p/43/cwd", LOOKUP_FOLLOW), -EACCES);
	cr_assert_eq(refwalk_as(&user_cred, "/p/43/cwd",
				LOOKUP_FOLLOW | LOOKUP_NO_MAGICLINKS), -EACCES);
	cr_assert_eq(refwalk_as(&user_cred, "/p/42/cwd",
				LOOKUP_FOLLOW | LOOKUP_NO_MAGICLINKS), -ELOOP);
	cr_assert_eq(refwalk_as(&own43, "/p/43/cwd", LOOKUP_FOLLOW), 0);
	cr_assert_eq(refwalk_as(&root_cred, "/p/43/cwd", LOOKUP_FOLLOW), 0);
	cr_assert_eq(refwalk_as(&user_cred, "/p/43/cwd", 0), 0, "not followed");

	v = now();
	root = ident_at(v, "/");
	p = child_at(v, root, "p");
	proot = ident_at(v, "/p");
	t43 = ident_at(v, "/p/43");
	cwd = ident_at(v, "/p/43/cwd");
	d = ident_at(v, "/d");
	reset_record();
	attempt(LOOKUP_RCU | LOOKUP_FOLLOW, v, v, -EACCES);
	start(root, "/p/43/cwd");
	perm(root, 0);
	lookup(root, "p", p);
	step(WT_STEP_MOUNT, p, proot, NULL, 0, 0);
	perm(proot, 0);
	lookup(proot, "43", t43);
	perm(t43, 0);
	lookup(t43, "cwd", cwd);
	end(cwd, -EACCES);
	cr_assert_eq(judge_as(&user_cred, "/p/43/cwd"), WT_VERDICT_OK, "%s",
		     res.explain);
	cr_assert_eq(judge_as(&own43, "/p/43/cwd"), WT_VERDICT_REJECTED,
		     "its own process: no refusal");
	cr_assert(strstr(res.explain, "EACCES"), "%s", res.explain);
	cr_assert_eq(judge_as(&root_cred, "/p/43/cwd"), WT_VERDICT_REJECTED);

	/* the jump through it, as if nothing had been checked */
	rec->nsteps--;
	rec->attempts[0].count--;
	rec->attempts[0].result = rec->result = 0;
	step(WT_STEP_JUMP, none, d, NULL, 0, 1);
	end(d, 0);
	cr_assert_eq(judge_as(&user_cred, "/p/43/cwd"), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "may not read"), "%s", res.explain);
	cr_assert_eq(judge_as(&own43, "/p/43/cwd"), WT_VERDICT_OK, "%s",
		     res.explain);
	/* nd_jump_link refuses before it jumps: under NO_MAGICLINKS and
	 * under either scoping flag a recorded jump is an escape */
	rec->attempts[0].flags = LOOKUP_RCU | LOOKUP_FOLLOW | LOOKUP_NO_MAGICLINKS;
	cr_assert_eq(judge_as(&own43, "/p/43/cwd"), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "RESOLVE_NO_MAGICLINKS"), "%s",
		  res.explain);
	rec->attempts[0].flags = LOOKUP_RCU | LOOKUP_FOLLOW | LOOKUP_IN_ROOT;
	cr_assert_eq(judge_as(&own43, "/p/43/cwd"), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "nd_jump_link refuses"), "%s",
		  res.explain);
	rec->attempts[0].flags = LOOKUP_RCU | LOOKUP_FOLLOW | LOOKUP_BENEATH;
	cr_assert_eq(judge_as(&own43, "/p/43/cwd"), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "nd_jump_link refuses"), "%s",
		  res.explain);
}

ORACLE_TEST(mount_crossings)
{
	struct wt_ident root, mp, mroot;
	uint64_t v0, v;

	OK(wt_op_mkdir(w, "/m", 0755, false));
	v0 = now();
	OK(wt_op_mount(w, "tmpfs", "t", "/m"));
	v = now();
	root = ident_at(v, "/");
	mp = child_at(v, root, "m");
	mroot = ident_at(v, "/m");
	cr_assert_neq(mp.mnt, mroot.mnt);

	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(root, "/m");
	perm(root, 0);
	lookup(root, "m", mp);
	step(WT_STEP_MOUNT, mp, mroot, NULL, 0, 0);
	end(mroot, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* the crossing left out */
	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(root, "/m");
	perm(root, 0);
	lookup(root, "m", mp);
	end(mp, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "nothing is mounted"), "%s", res.explain);

	/* ... which is right in a window that starts before the mount */
	rec->attempts[0].version_start = v0;
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* `..` from the mount's root goes up to the mountpoint first */
	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(mroot, "..");
	perm(mroot, 0);
	step(WT_STEP_MOUNT_UP, mroot, mp, NULL, 0, 0);
	step(WT_STEP_DOTDOT, mp, root, NULL, 0, 0);
	end(root, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* an unvalidated way up is skipped, but the torn pair it leaves the
	 * walk on (the child mount with the parent's dentry) is still seen */
	reset_record();
	attempt(LOOKUP_RCU, v, v, -ENOENT);
	start(mroot, "../x");
	perm(mroot, 0);
	step(WT_STEP_MOUNT_UP, mroot, (struct wt_ident){ mroot.mnt, mp.dentry,
		mp.inode }, NULL, 0, 0)->validated = 0;
	step(WT_STEP_DOTDOT, (struct wt_ident){ mroot.mnt, mp.dentry, mp.inode },
	     root, NULL, 0, 0);
	end(root, -ENOENT);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "another's mount"), "%s", res.explain);

	/* straight to the parent of the mount's root is not a REF-walk step */
	reset_record();
	attempt(LOOKUP_RCU, v, v, 0);
	start(mroot, "..");
	perm(mroot, 0);
	step(WT_STEP_DOTDOT, mroot, root, NULL, 0, 0);
	end(root, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
}

/* A symlink body is what the inode says; an absolute one jumps to the
 * root. */
ORACLE_TEST(symlink_bodies)
{
	struct wt_ident root, a, l;
	uint64_t v;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_symlink(w, "/a", "/l"));
	v = now();
	root = ident_at(v, "/");
	a = ident_at(v, "/a");
	l = ident_at(v, "/l");

	for (int bad = 0; bad < 2; bad++) {
		reset_record();
		attempt(LOOKUP_RCU | LOOKUP_FOLLOW, v, v, 0);
		start(root, "/l");
		perm(root, 0);
		lookup(root, "l", l);
		step(WT_STEP_LINK, l, l, bad ? "/b" : "/a", 0, 0);
		step(WT_STEP_JUMP, none, root, NULL, 0, 0);
		perm(root, 0);
		lookup(root, "a", a);
		end(a, 0);
		if (bad) {
			cr_assert_eq(judge(), WT_VERDICT_REJECTED);
			cr_assert_eq(res.step, 3);
			cr_assert(strstr(res.explain, "'/a'"), "%s", res.explain);
		} else {
			cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
		}
	}

	/* LOOKUP_FOLLOW and the answer is the link itself */
	reset_record();
	attempt(LOOKUP_RCU | LOOKUP_FOLLOW, v, v, 0);
	start(root, "/l");
	perm(root, 0);
	lookup(root, "l", l);
	end(l, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	rec->attempts[0].flags = LOOKUP_RCU;
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
}

/* Walks that overflowed their record, or ran with no history, are not
 * judged; a window not yet published waits. */
ORACLE_TEST(not_judged)
{
	struct wt_ident root = ident_at(now(), "/");

	reset_record();
	attempt(LOOKUP_RCU, now(), now(), 0);
	start(root, "/");
	end(root, 0);
	rec->overflow = true;
	cr_assert_eq(judge(), WT_VERDICT_NOT_JUDGED);
	rec->overflow = false;
	rec->attempts[0].version_end = now() + 5;
	cr_assert(!wt_oracle_ready(w->history, rec));
	cr_assert_eq(judge(), WT_VERDICT_NOT_JUDGED);
	cr_assert(strstr(res.explain, "not published"), "%s", res.explain);
}

/* The reason given names the step, the instants tried and the writer
 * step that changed things. */
ORACLE_TEST(explanation_names_the_change)
{
	struct wt_ident root, f;
	uint64_t v1, v2;

	OK(wt_op_create(w, "/f", 0644));
	v1 = now();
	root = ident_at(v1, "/");
	f = ident_at(v1, "/f");
	OK(wt_op_rename(w, "/f", "/g", 0));
	OK(wt_op_mkdir(w, "/unrelated", 0755, false));
	v2 = now();

	reset_record();
	attempt(LOOKUP_RCU, v1 + 1, v2, 0);
	start(root, "/f");
	perm(root, 0);
	lookup(root, "f", f);
	end(f, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_log_info("%s", res.explain);
	cr_assert(strstr(res.explain, "step 2 lookup 'f'"), "%s", res.explain);
	cr_assert(strstr(res.explain, "rename"), "%s", res.explain);
}

/*
 * REF-walk holds the dentry its lookup found, negative or not; a create
 * that instantiates that very dentry before step_into reads it again
 * makes the walk go on from it.  The record says "negative" at the
 * lookup and then goes on from the dentry, now positive.
 */
ORACLE_TEST(negative_dentry_instantiated_under_the_walk)
{
	struct wt_ident root, neg, f;
	uint64_t v1, v2;

	OK(wt_op_create(w, "/f", 0644));
	OK(wt_op_unlink(w, "/f"));
	v1 = now();
	root = ident_at(v1, "/");
	neg = child_at(v1, root, "f");
	cr_assert_eq(neg.inode, 0, "unlink left a positive dentry");
	OK(wt_op_create(w, "/f", 0644));
	v2 = now();
	f = child_at(v2, root, "f");
	if (f.dentry != neg.dentry)
		cr_skip_test("the create made a new dentry (%llu, not %llu)",
			     (unsigned long long)f.dentry,
			     (unsigned long long)neg.dentry);

	reset_record();
	attempt(LOOKUP_RCU, v1, v2, 0);
	start(root, "/f");
	perm(root, 0);
	lookup(root, "f", neg);
	end(f, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	cr_assert_eq(res.last_instant, v2);
	/* ... but not in a window that ends before the create */
	rec->attempts[0].version_end = v1;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
}

/* The walk engine's own records of O_CREAT: the creation is a step whose
 * instant is the create's history entry; a record naming another name is
 * rejected. */
ORACLE_TEST(open_create_records)
{
	struct open_how how = { .flags = O_CREAT | O_RDWR, .mode = 0644 };
	struct wt_task task;
	struct wt_walker wk = { .task = &task, .record = rec };
	struct wt_oracle_input in = { .record = rec, .cred = &root_cred,
				      .name = "/a/new" };
	struct wt_file file;
	int err;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	wt_task_init(&task, w, 0, 0);
	err = do_openat2(&wk, NULL, "/a/new", &how, &file);
	if (err == -EROFS)
		cr_skip_test("O_CREAT is not wired to sim/ops in this build");
	cr_assert_eq(err, 0);
	cr_assert(file.created);
	wt_file_close(&file);
	cr_assert_eq(wt_oracle_check(w->history, &in, &res), WT_VERDICT_OK,
		     "%s", res.explain);
	for (uint32_t i = 0; i < rec->nsteps; i++)
		if (rec->steps[i].kind == WT_STEP_CREATE)
			rec->text[rec->steps[i].text] = 'Z';
	cr_assert_eq(wt_oracle_check(w->history, &in, &res), WT_VERDICT_REJECTED);
	cr_log_info("%s", res.explain);
	wt_task_release(&task);
}

/* The first LOOKUP step of name in rec, or NULL. */
static struct wt_step *lookup_step_of(const char *name)
{
	for (uint32_t i = 0; i < rec->nsteps; i++) {
		struct wt_step *s = &rec->steps[i];
		const char *t = wt_step_text(rec, s);

		if (s->kind == WT_STEP_LOOKUP && t && !strcmp(t, name))
			return s;
	}
	return NULL;
}

/* The walk engine's records of an O_CREAT open that finds its last
 * component lazily (6.12+): an existing file is one RCU-mode attempt whose
 * lookup step is __d_lookup_rcu's, validated by step_into, and accepted;
 * the same record naming another dentry for the name is rejected.  A
 * cached negative dentry is discarded unused: its record has only
 * lookup_open's lookup, then the create, and is accepted. */
ORACLE_TEST(open_create_lazy_records)
{
	struct open_how how = { .flags = O_CREAT | O_RDWR, .mode = 0644 };
	struct wt_task task;
	struct wt_walker wk = { .task = &task, .record = rec };
	struct wt_oracle_input in = { .record = rec, .cred = &root_cred,
				      .name = "/a/f" };
	struct wt_file file;
	struct wt_step *s;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_create(w, "/a/f", 0644));
	OK(wt_op_create(w, "/a/gone", 0644));
	OK(wt_op_unlink(w, "/a/gone"));
	wt_task_init(&task, w, 0, 0);

	cr_assert_eq(do_openat2(&wk, NULL, "/a/f", &how, &file), 0);
	cr_assert(!file.created);
	wt_file_close(&file);
	cr_assert_eq(rec->nattempts, 1);
	s = lookup_step_of("f");
	cr_assert_not_null(s);
	cr_expect_eq(s->arg, WT_LOOKUP_RCU);
	cr_expect(s->rcu && s->validated);
	cr_assert_eq(wt_oracle_check(w->history, &in, &res), WT_VERDICT_OK,
		     "%s", res.explain);
	s->to.dentry = s->from.dentry;
	s->to.inode = s->from.inode;
	cr_assert_eq(wt_oracle_check(w->history, &in, &res), WT_VERDICT_REJECTED);
	cr_log_info("%s", res.explain);

	in.name = "/a/gone";
	cr_assert_eq(do_openat2(&wk, NULL, "/a/gone", &how, &file), 0);
	cr_assert(file.created);
	wt_file_close(&file);
	cr_assert_eq(rec->nattempts, 1);
	s = lookup_step_of("gone");
	cr_assert_not_null(s);
	cr_expect_eq(s->arg, WT_LOOKUP_OPEN,
		     "the discarded RCU-mode lookup is in the record");
	cr_expect_eq(s->to.inode, 0);
	cr_assert_eq(wt_oracle_check(w->history, &in, &res), WT_VERDICT_OK,
		     "%s", res.explain);
	wt_task_release(&task);
}

/* A FALLBACK step as the walker records it (core/record.h). */
static struct wt_step *fallback(enum wt_path path, bool known, unsigned birth,
				unsigned start, unsigned seq_now)
{
	struct wt_step *s = step(WT_STEP_FALLBACK, none, none, NULL, known,
				 (uint32_t)path);

	s->dep_seq = start;
	s->seq_birth = birth;
	s->seq_now = seq_now;
	return s;
}

/*
 * No spurious fallback: a restart that names a seq must follow a retry
 * of that seq which failed because the seq moved since its sample.
 * Here the RCU attempt restarted at step_into and the REF attempt found
 * /a; only the evidence of the restart changes.
 */
ORACLE_TEST(rejects_spurious_fallback)
{
	struct wt_ident root, a;
	uint64_t v;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	v = now();
	root = ident_at(v, "/");
	a = ident_at(v, "/a");

#define WALK(known, birth, start_, seq_now)				\
	do {								\
		reset_record();						\
		attempt(LOOKUP_RCU, v, v, -ECHILD);			\
		start(root, "/a");					\
		perm(root, 0);						\
		fallback(WT_PATH_RESTART_STEP_INTO_CHILD_SEQ, (known),	\
			 (birth), (start_), (seq_now));			\
		attempt(0, v, v, 0);					\
		start(root, "/a");					\
		perm(root, 0);						\
		lookup(root, "a", a);					\
		end(a, 0);						\
	} while (0)

	/* the child's seq moved from its sample 1000 to 1002 */
	WALK(true, 996, 1000, 1002);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* moved and moved back (a rename and its undo): still moved */
	WALK(true, 1000, 1000, 1004);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* a count that wrapped is still a count that moved */
	WALK(true, 0xfffffffcu, 0xfffffffeu, 2);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);

	/* compared with 77, which that seqcount never held: a sample of
	 * another dentry (a stale seq compared against the wrong one) */
	WALK(true, 996, 77, 1002);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 2);
	cr_assert(strstr(res.explain, "spurious fallback") &&
		  strstr(res.explain, "restart.step_into.child_seq") &&
		  strstr(res.explain, "never held"), "%s", res.explain);
	/* a start past the current value was never held either */
	WALK(true, 996, 1010, 1002);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);

	/* no retry failed since the last sample: nothing had moved */
	WALK(false, 0, 0, 0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "no seq retry failed"), "%s",
		  res.explain);
#undef WALK

	/* a scoped EAGAIN names rename_lock: judged the same way */
	reset_record();
	attempt(LOOKUP_RCU | LOOKUP_BENEATH, v, v, -EAGAIN);
	start(root, "a/..");
	perm(root, 0);
	lookup(root, "a", a);
	perm(a, 0);
	step(WT_STEP_DOTDOT, a, root, NULL, 0, 0);
	fallback(WT_PATH_EAGAIN_SCOPED_RENAME_LOCK, false, 0, 0, 0);
	end(root, -EAGAIN);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 5);
	rec->steps[5].result = 1;
	rec->steps[5].seq_birth = 10;
	rec->steps[5].dep_seq = 12;
	rec->steps[5].seq_now = 14;
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
}

/*
 * A scoped success must be under its root at some instant after its last
 * step (complete_walk's path_is_under).  RESOLVE_BENEATH at /a walks
 * "d/e": it looks up d in /a, then d is renamed to /b/d, then e is made
 * in it and found: the walk's last step is after the rename, and at no
 * instant from then on is e under /a -- REF-walk answers EXDEV.  With e
 * there before the rename, success is right (the walk could have ended
 * before it).
 */
ORACLE_TEST(rejects_scoped_result_carried_out)
{
	struct wt_ident a, d, e;
	uint64_t v1, v3;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_mkdir(w, "/a/d", 0755, false));
	OK(wt_op_mkdir(w, "/b", 0755, false));
	v1 = now();
	a = ident_at(v1, "/a");
	d = ident_at(v1, "/a/d");
	OK(wt_op_rename(w, "/a/d", "/b/d", 0));
	OK(wt_op_create(w, "/b/d/e", 0644));
	v3 = now();
	e = ident_at(v3, "/b/d/e");

#define SCOPED_WALK(scope)						\
	do {								\
		reset_record();						\
		rec->flags = (scope);					\
		attempt(LOOKUP_RCU | (scope), v1, v3, 0);		\
		start(a, "d/e");					\
		perm(a, 0);						\
		lookup(a, "d", d);					\
		perm(d, 0);						\
		lookup(d, "e", e);					\
		end(e, 0);						\
	} while (0)

	SCOPED_WALK(LOOKUP_BENEATH);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 5);
	cr_assert(strstr(res.explain, "scoped result under its root") &&
		  strstr(res.explain, "not under the root"), "%s", res.explain);
	SCOPED_WALK(LOOKUP_IN_ROOT);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	/* not scoped: the same walk is a plain success */
	SCOPED_WALK(0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
#undef SCOPED_WALK
}

/* The same walk with e made before the rename: it could have ended
 * before /a/d left /a, so success is a REF-walk answer. */
ORACLE_TEST(accepts_scoped_result_before_the_rename)
{
	struct wt_ident a, d, e;
	uint64_t v1, v3;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_mkdir(w, "/a/d", 0755, false));
	OK(wt_op_create(w, "/a/d/e", 0644));
	OK(wt_op_mkdir(w, "/b", 0755, false));
	v1 = now();
	a = ident_at(v1, "/a");
	d = ident_at(v1, "/a/d");
	e = ident_at(v1, "/a/d/e");
	OK(wt_op_rename(w, "/a/d", "/b/d", 0));
	v3 = now();

	reset_record();
	rec->flags = LOOKUP_BENEATH;
	attempt(LOOKUP_RCU | LOOKUP_BENEATH, v1, v3, 0);
	start(a, "d/e");
	perm(a, 0);
	lookup(a, "d", d);
	perm(d, 0);
	lookup(d, "e", e);
	end(e, 0);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	cr_assert_eq(res.last_instant, v1);
	/* a window that starts after the rename has no such instant */
	rec->attempts[0].version_start = v3;
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
}

/*
 * A negative answer on a remote filesystem is accepted only where the
 * server could lack the name.  /r/a was made on the client (mirrored on
 * the server) and the dcache may have dropped it: a walk answering ENOENT for
 * "a" has no server change to blame -- the lookup after the shrink asks
 * the server, which has it (a dentry unhashed by the shrink and still
 * matched by the RCU hash walk as negative, say).  Once the server
 * deleted a behind the client's back, the same record is a right answer.
 */
ORACLE_TEST(rejects_remote_negative_the_server_never_explains)
{
	struct wt_ident root, r, rroot;
	uint64_t v;

	OK(wt_op_mkdir(w, "/r", 0755, false));
	OK(wt_op_mount(w, "remote", "srv", "/r"));
	OK(wt_op_mkdir(w, "/r/a", 0755, false));
	/* a shrink would drop the client's dentry: it logs no namespace
	 * change, so the history is the same with or without one */
	v = now();
	root = ident_at(v, "/");
	r = child_at(v, root, "r");
	rroot = ident_at(v, "/r");

#define NEGATIVE_WALK(vs, ve) do {					\
		reset_record();						\
		attempt(LOOKUP_RCU, (vs), (ve), -ENOENT);		\
		start(root, "/r/a");					\
		perm(root, 0);						\
		lookup(root, "r", r);					\
		step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);		\
		perm(rroot, 0);						\
		step(WT_STEP_LOOKUP, rroot,				\
		     (struct wt_ident){ rroot.mnt, 0, 0 }, "a", 0,	\
		     WT_LOOKUP_SLOW);					\
		end(rroot, -ENOENT);					\
	} while (0)

	NEGATIVE_WALK(v, v);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 5);
	cr_assert(strstr(res.explain, "the server holds 'a' in '/'"), "%s",
		  res.explain);

	/* the server deletes a behind the client's back */
	OK(wt_op_remote(w, WT_REMOTE_UNLINK, "/r", "a", NULL, 0));
	NEGATIVE_WALK(v, now());
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* a window that ends before the delete still has no excuse */
	NEGATIVE_WALK(v, v);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
#undef NEGATIVE_WALK
}

/*
 * The other side: a name the server made behind the client's back.  The
 * client's namespace never shows /r/x, but the creation expired its
 * cache, so a walk that began after it cannot answer absent (a negative
 * dentry trusted without d_revalidate, say).  A window that begins
 * before it can; a second LOOKUP of x right after the negative one is
 * lookup_slow after d_revalidate said 0, so the first is no answer; and
 * a name the server removed elsewhere changes nothing for x (the oracle
 * replays the server's tree, it does not stand aside).
 */
/*
 * EINVAL from finish_automount (do_add_mount's test) is an answer only
 * where the mount the trigger is on was out of the namespace at an
 * instant of the window: after `umount -l`, not before.
 */
ORACLE_TEST(einval_needs_the_automount_mount_detached)
{
	struct wt_ident root, a, aroot, x;
	uint64_t v0, v1;

	OK(wt_op_mkdir(w, "/auto", 0755, false));
	OK(wt_op_mount(w, "autofs", "a", "/auto"));
	OK(wt_op_mkdir(w, "/auto/x", 0755, false));
	v0 = now();
	root = ident_at(v0, "/");
	a = child_at(v0, root, "auto");
	aroot = ident_at(v0, "/auto");
	x = child_at(v0, aroot, "x");

#define EINVAL_WALK(vs, ve) do {					\
		reset_record();						\
		attempt(LOOKUP_RCU, (vs), (ve), -EINVAL);		\
		start(root, "/auto/x/");				\
		perm(root, 0);						\
		lookup(root, "auto", a);				\
		step(WT_STEP_MOUNT, a, aroot, NULL, 0, 0);		\
		perm(aroot, 0);						\
		lookup(aroot, "x", x);					\
		step(WT_STEP_AUTOMOUNT, x, x, NULL, -EINVAL, 0);	\
		end(x, -EINVAL);					\
	} while (0)

	EINVAL_WALK(v0, v0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "detached"), "%s", res.explain);
	OK(wt_op_umount(w, "/auto", WT_UMOUNT_DETACH));
	v1 = now();
	EINVAL_WALK(v0, v1);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
#undef EINVAL_WALK
}

ORACLE_TEST(rejects_remote_negative_for_a_name_the_server_made)
{
	struct wt_ident root, r, rroot;
	uint64_t v0, v;

	OK(wt_op_mkdir(w, "/r", 0755, false));
	OK(wt_op_mount(w, "remote", "srv", "/r"));
	OK(wt_op_mkdir(w, "/r/a", 0755, false));
	v0 = now();
	root = ident_at(v0, "/");
	r = child_at(v0, root, "r");
	rroot = ident_at(v0, "/r");
	OK(wt_op_remote(w, WT_REMOTE_CREATE, "/r", "x", NULL, 0644));
	/* a failed delete removes nothing: logged without its super_block,
	 * it does not make the judgement stand aside */
	cr_assert_eq(wt_op_remote(w, WT_REMOTE_UNLINK, "/r", "nope", NULL, 0),
		     -ENOENT);
	v = now();

#define NEGATIVE_WALK(vs, ve, relookup) do {				\
		reset_record();						\
		attempt(LOOKUP_RCU, (vs), (ve), -ENOENT);		\
		start(root, "/r/x");					\
		perm(root, 0);						\
		lookup(root, "r", r);					\
		step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);		\
		perm(rroot, 0);						\
		step(WT_STEP_LOOKUP, rroot,				\
		     (struct wt_ident){ rroot.mnt, 0, 0 }, "x", 0,	\
		     WT_LOOKUP_RCU);					\
		if (relookup)						\
			step(WT_STEP_LOOKUP, rroot,			\
			     (struct wt_ident){ rroot.mnt, 0, 0 }, "x",	\
			     0, WT_LOOKUP_SLOW);			\
		end(rroot, -ENOENT);					\
	} while (0)

	NEGATIVE_WALK(v, v, false);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 5);
	cr_assert(strstr(res.explain, "the server holds 'x' in '/'"), "%s",
		  res.explain);
	/* the relookup is negative too: still rejected, at the second */
	NEGATIVE_WALK(v, v, true);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert_eq(res.step, 6, "%s", res.explain);
	/* a window from before the creation has the instant it needs */
	NEGATIVE_WALK(v0, v, false);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* another name removed on the server: x is still there */
	OK(wt_op_remote(w, WT_REMOTE_UNLINK, "/r", "a", NULL, 0));
	NEGATIVE_WALK(now(), now(), false);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED, "%s", res.explain);
	cr_assert(strstr(res.explain, "the last server change"), "%s",
		  res.explain);
	/* x removed on the server: absent from then on */
	OK(wt_op_remote(w, WT_REMOTE_UNLINK, "/r", "x", NULL, 0));
	NEGATIVE_WALK(now(), now(), false);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
#undef NEGATIVE_WALK
}

/*
 * The server's truth through renames and removals, on either side: a
 * name the server renamed is absent under its old name and present
 * under its new one (in the directory the server moved it to, by path
 * and by the directory's handle); a client hard link is not mirrored, so
 * the server lacks it although the client's namespace shows it; a name
 * the client removed is absent on the server too.
 */
ORACLE_TEST(rejects_remote_negative_the_server_renamed_into_place)
{
	struct wt_ident root, r, rroot, d;
	uint64_t v;

	OK(wt_op_mkdir(w, "/r", 0755, false));
	OK(wt_op_mount(w, "remote", "srv", "/r"));
	OK(wt_op_mkdir(w, "/r/d", 0755, false));
	OK(wt_op_mkdir(w, "/r/gone", 0755, false));
	OK(wt_op_create(w, "/r/f", 0644));
	OK(wt_op_remote(w, WT_REMOTE_CREATE, "/r", "x", NULL, 0644));
	OK(wt_op_remote(w, WT_REMOTE_RENAME, "/r", "x", "d/y", 0));
	OK(wt_op_link(w, "/r/f", "/r/l"));
	OK(wt_op_rmdir(w, "/r/gone"));
	v = now();
	root = ident_at(v, "/");
	r = child_at(v, root, "r");
	rroot = ident_at(v, "/r");
	d = ident_at(v, "/r/d");

#define NEGATIVE_IN(dir, name) do {							reset_record();								attempt(LOOKUP_RCU, v, v, -ENOENT);					start(root, "/r/...");							perm(root, 0);								lookup(root, "r", r);							step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);				perm(rroot, 0);								if ((dir).dentry != rroot.dentry) {						lookup(rroot, "d", (dir));						perm((dir), 0);							}									step(WT_STEP_LOOKUP, (dir),						     (struct wt_ident){ rroot.mnt, 0, 0 }, (name), 0,			     WT_LOOKUP_SLOW);							end((dir), -ENOENT);						} while (0)

	/* d/y: the server moved x there */
	NEGATIVE_IN(d, "y");
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "the server holds 'y' in '/d'"), "%s",
		  res.explain);
	/* x: gone from the root */
	NEGATIVE_IN(rroot, "x");
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* l: the client's hard link, which the server never had */
	NEGATIVE_IN(rroot, "l");
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* f: made by the client, mirrored on the server */
	NEGATIVE_IN(rroot, "f");
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	/* gone: removed by the client, from the server too */
	NEGATIVE_IN(rroot, "gone");
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
#undef NEGATIVE_IN
}

/* /r, a remote mount, and on its server the symlink l -> a, which no
 * writer logged: the walk's objects at the version this returns. */
struct remote_link {
	struct wt_ident root, r, rroot, l;
};

static uint64_t remote_link_make(struct remote_link *rl)
{
	uint64_t v;

	OK(wt_op_mkdir(w, "/r", 0755, false));
	OK(wt_op_mount(w, "remote", "srv", "/r"));
	OK(wt_op_remote(w, WT_REMOTE_SYMLINK, "/r", "l", "a", 0));
	v = now();
	rl->root = ident_at(v, "/");
	rl->r = child_at(v, rl->root, "r");
	rl->rroot = ident_at(v, "/r");
	/* the client's own dentry and inode: not in the history */
	rl->l = (struct wt_ident){ rl->rroot.mnt, 999001, 999002 };
	return v;
}

/* The record of a walk of /r/l in [vs, ve] that answers ELOOP at l. */
static void remote_link_eloop(const struct remote_link *rl, unsigned flags,
			      uint64_t vs, uint64_t ve)
{
	reset_record();
	attempt(LOOKUP_RCU | flags, vs, ve, -ELOOP);
	start(rl->root, "/r/l");
	perm(rl->root, 0);
	lookup(rl->root, "r", rl->r);
	step(WT_STEP_MOUNT, rl->r, rl->rroot, NULL, 0, 0);
	perm(rl->rroot, 0);
	step(WT_STEP_LOOKUP, rl->rroot, rl->l, "l", 0, WT_LOOKUP_SLOW);
	end(rl->rroot, -ELOOP);
}

/*
 * A symlink a remote ->lookup made (the server's, never in the history):
 * its type is unknown to the oracle, so RESOLVE_NO_SYMLINKS's ELOOP
 * there is accepted -- found by the property test's remote trees -- but
 * an ELOOP no flag explains still is not.
 */
ORACLE_TEST(accepts_eloop_at_a_remote_link_the_history_never_saw)
{
	struct remote_link rl;
	uint64_t v = remote_link_make(&rl);

	remote_link_eloop(&rl, LOOKUP_NO_SYMLINKS, v, v);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	remote_link_eloop(&rl, 0, v, v);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "no flag refusing a link"), "%s",
		  res.explain);
}

/*
 * A step that names an object the history does not know (UNKNOWN: the
 * dentry a remote ->lookup made) is taken at the first instant that
 * says so, whatever later instants say: the search stops there.  Before
 * it did, it went on to the window's end and then came back, which
 * rebuilt a snapshot from the log for every such step (echild/
 * random.shrink: 124 rebuilds and 15 k entries applied an iteration,
 * then 2 and 3.6 k).  A window of five versions, all after the link:
 * one snapshot, built at the start, and nothing applied.
 */
ORACLE_TEST(an_unknown_object_ends_the_search_at_its_first_instant)
{
	struct wt_oracle_input in = { .record = rec, .cred = &root_cred };
	const struct wt_oracle_stats *st;
	struct remote_link rl;
	struct wt_oracle *o;
	uint64_t v0, v1;

	v0 = remote_link_make(&rl);
	for (unsigned i = 0; i < 5; i++) {
		char path[16];

		snprintf(path, sizeof(path), "/d%u", i);
		OK(wt_op_mkdir(w, path, 0755, false));
	}
	v1 = now();
	cr_assert_eq(v1, v0 + 5);
	remote_link_eloop(&rl, LOOKUP_NO_SYMLINKS, v0, v1);
	o = wt_oracle_create(w->history);
	cr_assert_not_null(o);
	cr_assert_eq(wt_oracle_judge(o, &in, &res), WT_VERDICT_OK, "%s",
		     res.explain);
	cr_assert_eq(res.last_instant, v0);
	st = wt_oracle_stats(o);
	cr_assert_eq(st->rebuilds, 1);
	cr_assert_eq(st->advances, 0, "%llu entries applied",
		     (unsigned long long)st->advances);
	wt_oracle_destroy(o);
}

/*
 * EEXIST from an O_CREAT open whose lookup_open found the name absent:
 * in a remote directory the create asks the server, which may have got
 * the name since (walktorture fuzz --seed 0xa5, workload 2170), so it is
 * accepted where the server held the name at an instant after that
 * lookup -- not where it never did, not in a window that ends before the
 * server made it, and never in a local directory, where i_rwsem keeps
 * every creator out.
 */
ORACLE_TEST(eexist_after_a_negative_lookup_needs_the_server_to_hold_it)
{
	struct wt_ident root, r, rroot, e, a;
	uint64_t v0, v1;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_mkdir(w, "/r", 0755, false));
	OK(wt_op_mount(w, "remote", "srv", "/r"));
	OK(wt_op_mkdir(w, "/r/e", 0755, false));
	v0 = now();
	root = ident_at(v0, "/");
	a = child_at(v0, root, "a");
	r = child_at(v0, root, "r");
	rroot = ident_at(v0, "/r");
	e = child_at(v0, rroot, "e");

#define EEXIST_WALK(vs, ve) do {					\
		reset_record();						\
		rec->entry = WT_ENTRY_OPEN;				\
		attempt(LOOKUP_RCU, (vs), (ve), -EEXIST);		\
		start(root, "/r/e/n");					\
		perm(root, 0);						\
		lookup(root, "r", r);					\
		step(WT_STEP_MOUNT, r, rroot, NULL, 0, 0);		\
		perm(rroot, 0);						\
		lookup(rroot, "e", e);					\
		perm(e, 0);						\
		step(WT_STEP_LOOKUP, e,					\
		     (struct wt_ident){ e.mnt, 0, 0 }, "n", 0,		\
		     WT_LOOKUP_OPEN);					\
		end(e, -EEXIST);					\
	} while (0)

	/* the server never had n */
	EEXIST_WALK(v0, v0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "EEXIST, but the name was absent"),
		  "%s", res.explain);
	/* another client makes n on the server */
	OK(wt_op_remote(w, WT_REMOTE_CREATE, "/r", "e/n", NULL, 0644));
	v1 = now();
	EEXIST_WALK(v0, v1);
	cr_assert_eq(judge(), WT_VERDICT_OK, "%s", res.explain);
	/* a window that ends before it has no such instant */
	EEXIST_WALK(v0, v0);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
	cr_assert(strstr(res.explain, "the server lacks 'n'"), "%s",
		  res.explain);
#undef EEXIST_WALK

	/* a local directory: nobody but the opener creates under i_rwsem */
	reset_record();
	rec->entry = WT_ENTRY_OPEN;
	attempt(LOOKUP_RCU, v0, now(), -EEXIST);
	start(root, "/a/n");
	perm(root, 0);
	lookup(root, "a", a);
	perm(a, 0);
	step(WT_STEP_LOOKUP, a, (struct wt_ident){ a.mnt, 0, 0 }, "n", 0,
	     WT_LOOKUP_OPEN);
	end(a, -EEXIST);
	cr_assert_eq(judge(), WT_VERDICT_REJECTED);
}

/* ------------------------------------------------------------------ */
/* steps in flight at once (core/oracle_reorder.c)                      */

/*
 * A step no writer mutex orders, as a walker's open(O_CREAT): it takes
 * its version, waits until the writer's step has taken the next one,
 * then makes /a mode 0700 and commits (and logs shared's inode too,
 * untouched, when there is one).  The writer's commit waits for it.
 */
struct overlap {
	struct inode *a;
	struct inode *shared;
	uint64_t version;	/* atomic: the step's, once begun */
};

static void *overlap_step(void *arg)
{
	struct overlap *o = arg;
	struct wt_hist_rec *r = wt_history_begin(w, "chmod", "chmod.i_mode",
						 "/a 700");
	uint64_t v = wt_history_version_end(w->history);

	__atomic_store_n(&o->version, v, __ATOMIC_RELEASE);
	while (wt_history_version_end(w->history) <= v)	/* the writer's */
		sched_yield();
	WRITE_ONCE(o->a->i_mode, WT_S_IFDIR | 0700);
	wt_history_inode(r, o->a);
	if (o->shared)
		wt_history_inode(r, o->shared);
	wt_history_commit(r);
	return NULL;
}

static struct inode *inode_of(const char *path)
{
	struct path p;
	struct inode *inode;

	OK(wt_resolve(w, path, 0, &p));
	inode = d_inode(p.dentry);
	wt_path_put(&p);
	return inode;
}

/*
 * /a made 0700 by the step above (version va) while the writer's mkdir
 * /b/g (va + 1) was in flight, or (together false) before the mkdir
 * began.  The record: an unprivileged walk of /b/g/../../a/x that found
 * g -- at va + 1 or later -- and then passed /a's exec check -- before
 * va -- and found no x.  The instants of one walk only go forward, so no
 * prefix of the log explains it; the order with va moved after va + 1
 * does, when the two overlapped and touch different objects.
 */
static void record_overlap(bool together, bool shared)
{
	struct overlap o = { 0 };
	struct wt_ident root, a, b, g;
	pthread_t t;
	uint64_t v0, va;

	OK(wt_op_mkdir(w, "/a", 0755, false));
	OK(wt_op_mkdir(w, "/b", 0755, false));
	o.a = inode_of("/a");
	v0 = now();
	root = ident_at(v0, "/");
	a = ident_at(v0, "/a");
	b = ident_at(v0, "/b");
	o.shared = shared ? inode_of("/b") : NULL;
	cr_assert_eq(pthread_create(&t, NULL, overlap_step, &o), 0);
	while (!__atomic_load_n(&o.version, __ATOMIC_ACQUIRE))
		sched_yield();
	if (!together) {
		/* the step waits for a version after its own: an empty step
		 * takes it, and the mkdir begins once the step published */
		wt_history_commit(wt_history_begin(w, "shrink", "shrink",
						   "%s", ""));
		cr_assert_eq(pthread_join(t, NULL), 0);
	}
	OK(wt_op_mkdir(w, "/b/g", 0755, false));
	if (together)
		cr_assert_eq(pthread_join(t, NULL), 0);
	va = o.version;
	cr_assert_eq(wt_history_entry(w->history, va)->begun_after, v0);
	g = ident_at(now(), "/b/g");

	reset_record();
	attempt(LOOKUP_RCU, v0, now(), -ENOENT);
	start(root, "/b/g/../../a/x");
	perm(root, 0);
	lookup(root, "b", b);
	perm(b, 0);
	lookup(b, "g", g);
	perm(g, 0);
	step(WT_STEP_DOTDOT, g, b, NULL, 0, 0);
	perm(b, 0);
	step(WT_STEP_DOTDOT, b, root, NULL, 0, 0);
	perm(root, 0);
	lookup(root, "a", a);
	perm(a, 0);
	lookup(a, "x", (struct wt_ident){ a.mnt, 0, 0 });
	end(a, -ENOENT);
}

ORACLE_TEST(steps_in_flight_at_once_are_judged_in_either_order)
{
	record_overlap(true, false);
	cr_assert_eq(judge_as(&user_cred, NULL), WT_VERDICT_OK, "%s",
		     res.explain);
	cr_assert(res.reordered);
}

ORACLE_TEST(steps_one_after_the_other_keep_their_order)
{
	record_overlap(false, false);
	cr_assert_eq(judge_as(&user_cred, NULL), WT_VERDICT_REJECTED);
	cr_assert(!res.reordered);
	cr_assert(strstr(res.explain, "permission"), "%s", res.explain);
}

ORACLE_TEST(steps_on_one_object_keep_their_order)
{
	record_overlap(true, true);
	cr_assert_eq(judge_as(&user_cred, NULL), WT_VERDICT_REJECTED);
	cr_assert(!res.reordered);
}

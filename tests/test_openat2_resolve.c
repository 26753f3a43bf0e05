/* SPDX-License-Identifier: MIT */
/*
 * The kernel's openat2 resolve selftest
 * (tools/testing/selftests/openat2/resolve_test.c, its 88 O_PATH and
 * O_CREAT cases) against `walktorture lookup`.  The code is ours; what
 * carries over are the facts: the test directory it builds, and for each
 * case the dirfd, the path, the open_how and the answer the kernel gives
 * -- an errno, or the path (readlink of /proc/self/fd/N) the new fd names.
 *
 * The tree: the test's root directory is /tmp/ksft/root on a tmpfs at
 * /tmp (the selftest makes /tmp a private mount in its own namespace),
 * with a tmpfs at root/mnt, the links the selftest makes, and proc at
 * /proc.  The walker runs in that directory (the selftest's fchdir), as
 * process PID, and its dirfd is fd 3 in /proc/PID/fd (the selftest dup2s
 * the dirfd onto the number its "self/fd/N" case names).  The kernel's
 * /proc/self/exe is --exe, a file outside the test root.
 *
 * Each case becomes one path of a `walktorture lookup --open FLAGS
 * --resolve R --at DIR` run (cases with the same options share a run; an
 * O_CREAT case makes a name no other case uses); a passing case's d_path
 * must be the expected path, resolved the selftest's way (no path: the
 * dirfd's own; relative: under the test root; absolute: itself).  A case
 * the command cannot express fails like a wrong answer: the test reports
 * N of 88 and passes only with all of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sim/ops.h"
#include "tests/test_cli_path.h"

#define R_NO_XDEV	0x01
#define R_NO_MAGICLINKS	0x02
#define R_NO_SYMLINKS	0x04
#define R_BENEATH	0x08
#define R_IN_ROOT	0x10

#define ROOT		"/tmp/ksft/root"
#define PID		"4242"
#define NCASES		88

/* The selftest's directory, built with our verbs (the same names). */
static const char tree[] =
	"mkdir -p /tmp /proc /bin\n"
	"mount -t tmpfs tmp /tmp\n"
	"mount -t proc proc /proc\n"
	"touch /bin/walker\n"
	"mkdir -p " ROOT "/root " ROOT "/mnt " ROOT "/etc " ROOT "/cheeky\n"
	"ln -s /proc/self/exe " ROOT "/procexe\n"
	"ln -s /proc/self/root " ROOT "/procroot\n"
	"mount -t tmpfs mnt " ROOT "/mnt\n"
	"ln -s ../mnt/ " ROOT "/mnt/self\n"
	"ln -s /mnt/ " ROOT "/mnt/absself\n"
	"touch " ROOT "/etc/passwd\n"
	"ln -s /newfile3 " ROOT "/creatlink\n"
	"ln -s etc/ " ROOT "/reletc\n"
	"ln -s etc/passwd " ROOT "/relsym\n"
	"ln -s /etc/ " ROOT "/absetc\n"
	"ln -s /etc/passwd " ROOT "/abssym\n"
	"ln -s /cheeky " ROOT "/abscheeky\n"
	"ln -s / " ROOT "/cheeky/absself\n"
	"ln -s ../../root/ " ROOT "/cheeky/self\n"
	"ln -s /../../root/ " ROOT "/cheeky/garbageself\n"
	"ln -s ../cheeky/../cheeky/../etc/../etc/passwd " ROOT "/cheeky/passwd\n"
	"ln -s /../cheeky/../cheeky/../etc/../etc/passwd " ROOT "/cheeky/abspasswd\n"
	"ln -s ../../../../../../../../../../../../../../etc/passwd "
		ROOT "/cheeky/dotdotlink\n"
	"ln -s /../../../../../../../../../../../../../../etc/passwd "
		ROOT "/cheeky/garbagelink\n";

enum { OPATH = 0, CREAT = 1, OPATH_NOFOLLOW = 2 };

struct rcase {
	const char *what;
	const char *dir;	/* relative to the test root; NULL: the root */
	const char *path;
	int open;		/* OPATH, CREAT (mode 0700) or OPATH_NOFOLLOW */
	unsigned resolve;
	int err;		/* the errno expected, or 0 ... */
	const char *want;	/* ... and the path the fd names (NULL: dir's) */
};

static const struct rcase cases[] = {
	/* RESOLVE_BENEATH: nothing may leave the dirfd */
	{ "beneath: /", NULL, "/", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: a link to /", NULL, "cheeky/absself", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: two links to /", NULL, "abscheeky/absself", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: ..", NULL, "..", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: out and back in by ..", NULL, "../root/", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: a link out and back in", NULL, "cheeky/self", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: two links out and back in", NULL, "abscheeky/self", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: /.. link to the root", NULL, "cheeky/garbageself", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: two links, /.. to the root", NULL, "abscheeky/garbageself", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: root", NULL, "root", OPATH, R_BENEATH, 0, "root" },
	{ "beneath: etc", NULL, "etc", OPATH, R_BENEATH, 0, "etc" },
	{ "beneath: etc/passwd", NULL, "etc/passwd", OPATH, R_BENEATH, 0, "etc/passwd" },
	{ "beneath: a relative link inside", NULL, "relsym", OPATH, R_BENEATH, 0, "etc/passwd" },
	{ "beneath: a link with .. that stays inside", NULL, "cheeky/passwd", OPATH, R_BENEATH, 0, "etc/passwd" },
	{ "beneath: an absolute link as a component", NULL, "abscheeky/passwd", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: an absolute link at the end", NULL, "abssym", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: an absolute path", NULL, "/etc/passwd", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: a /.. link", NULL, "cheeky/abspasswd", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: two links, /.. last", NULL, "abscheeky/abspasswd", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: many .. in a link", NULL, "cheeky/dotdotlink", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: two links, many .. last", NULL, "abscheeky/dotdotlink", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: /../.. link", NULL, "cheeky/garbagelink", OPATH, R_BENEATH, EXDEV, NULL },
	{ "beneath: two links, /../.. last", NULL, "abscheeky/garbagelink", OPATH, R_BENEATH, EXDEV, NULL },
	/* RESOLVE_IN_ROOT: the dirfd is the root; nothing gets out */
	{ "in-root: /", NULL, "/", OPATH, R_IN_ROOT, 0, NULL },
	{ "in-root: a link to /", NULL, "cheeky/absself", OPATH, R_IN_ROOT, 0, NULL },
	{ "in-root: two links to /", NULL, "abscheeky/absself", OPATH, R_IN_ROOT, 0, NULL },
	{ "in-root: .. at the root", NULL, "..", OPATH, R_IN_ROOT, 0, NULL },
	{ "in-root: ../root", NULL, "../root/", OPATH, R_IN_ROOT, 0, "root" },
	{ "in-root: a link with .. above the root", NULL, "cheeky/self", OPATH, R_IN_ROOT, 0, "root" },
	{ "in-root: a /.. link", NULL, "cheeky/garbageself", OPATH, R_IN_ROOT, 0, "root" },
	{ "in-root: two links, /.. last", NULL, "abscheeky/garbageself", OPATH, R_IN_ROOT, 0, "root" },
	{ "in-root: root", NULL, "root", OPATH, R_IN_ROOT, 0, "root" },
	{ "in-root: etc", NULL, "etc", OPATH, R_IN_ROOT, 0, "etc" },
	{ "in-root: etc/passwd", NULL, "etc/passwd", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: a relative link", NULL, "relsym", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: a link with ..", NULL, "cheeky/passwd", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: an absolute then a relative link", NULL, "abscheeky/passwd", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: an absolute link", NULL, "abssym", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: an absolute path", NULL, "/etc/passwd", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: a /.. link", NULL, "cheeky/abspasswd", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: two links, /.. last", NULL, "abscheeky/abspasswd", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: many .. in a link", NULL, "cheeky/dotdotlink", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: two links, many .. last", NULL, "abscheeky/dotdotlink", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: /../.. then two links", NULL, "/../../../../abscheeky/dotdotlink", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: a /../.. link", NULL, "cheeky/garbagelink", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: two links, /../.. last", NULL, "abscheeky/garbagelink", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	{ "in-root: /../.. then two links, /../.. last", NULL, "/../../../../abscheeky/garbagelink", OPATH, R_IN_ROOT, 0, "etc/passwd" },
	/* O_CREAT under RESOLVE_IN_ROOT, a trailing link included */
	{ "in-root: O_CREAT of a relative name", NULL, "newfile1", CREAT, R_IN_ROOT, 0, "newfile1" },
	{ "in-root: O_CREAT of an absolute name", NULL, "/newfile2", CREAT, R_IN_ROOT, 0, "newfile2" },
	{ "in-root: O_CREAT through an absolute link", NULL, "/creatlink", CREAT, R_IN_ROOT, 0, "newfile3" },
	/* RESOLVE_NO_XDEV: no mount crossed, down ... */
	{ "no-xdev: into mnt", NULL, "mnt", OPATH, R_NO_XDEV, EXDEV, NULL },
	{ "no-xdev: into mnt/", NULL, "mnt/", OPATH, R_NO_XDEV, EXDEV, NULL },
	{ "no-xdev: into mnt/.", NULL, "mnt/.", OPATH, R_NO_XDEV, EXDEV, NULL },
	/* ... nor up, from a dirfd at a mount's root */
	{ "no-xdev: . at mnt", "mnt", ".", OPATH, R_NO_XDEV, 0, "mnt" },
	{ "no-xdev: .. out of mnt", "mnt", "..", OPATH, R_NO_XDEV, EXDEV, NULL },
	{ "no-xdev: out of mnt and back", "mnt", "../mnt", OPATH, R_NO_XDEV, EXDEV, NULL },
	{ "no-xdev: a relative link out of mnt", "mnt", "self", OPATH, R_NO_XDEV, EXDEV, NULL },
	{ "no-xdev: an absolute link out of mnt", "mnt", "absself", OPATH, R_NO_XDEV, EXDEV, NULL },
	/* a leading / is no crossing; what follows it may be */
	{ "no-xdev: / from mnt", "mnt", "/", OPATH, R_NO_XDEV, 0, "/" },
	{ "no-xdev: / from /", "/", "/", OPATH, R_NO_XDEV, 0, "/" },
	{ "no-xdev: / then into proc", NULL, "/proc/1", OPATH, R_NO_XDEV, EXDEV, NULL },
	{ "no-xdev: / then into tmp", NULL, "/tmp", OPATH, R_NO_XDEV, EXDEV, NULL },
	/* a magic link to another mount is a crossing; within one it is not */
	{ "no-xdev: proc's self/root", "/proc", "self/root", OPATH, R_NO_XDEV, EXDEV, NULL },
	{ "no-xdev: proc's self/cwd", "/proc", "self/cwd", OPATH, R_NO_XDEV, EXDEV, NULL },
	{ "no-xdev: proc's self/fd/N to proc", "/proc", "self/fd/3", OPATH, R_NO_XDEV, 0, "/proc" },
	/* RESOLVE_NO_MAGICLINKS: symlinks yes, magic links no */
	{ "no-magiclinks: a relative link", NULL, "relsym", OPATH, R_NO_MAGICLINKS, 0, "etc/passwd" },
	{ "no-magiclinks: a link to a magic link", NULL, "procexe", OPATH, R_NO_MAGICLINKS, ELOOP, NULL },
	{ "no-magiclinks: a magic link at the end", NULL, "/proc/self/exe", OPATH, R_NO_MAGICLINKS, ELOOP, NULL },
	{ "no-magiclinks: O_NOFOLLOW opens the magic link", NULL, "/proc/self/exe", OPATH_NOFOLLOW, R_NO_MAGICLINKS, 0, "/proc/" PID "/exe" },
	{ "no-magiclinks: a link to a magic link as a component", NULL, "procroot/etc", OPATH, R_NO_MAGICLINKS, ELOOP, NULL },
	{ "no-magiclinks: a magic link as a component", NULL, "/proc/self/root/etc", OPATH, R_NO_MAGICLINKS, ELOOP, NULL },
	{ "no-magiclinks: a magic link as a component, O_NOFOLLOW", NULL, "/proc/self/root/etc", OPATH_NOFOLLOW, R_NO_MAGICLINKS, ELOOP, NULL },
	/* RESOLVE_NO_SYMLINKS: no link of any kind */
	{ "no-symlinks: .", NULL, ".", OPATH, R_NO_SYMLINKS, 0, NULL },
	{ "no-symlinks: root", NULL, "root", OPATH, R_NO_SYMLINKS, 0, "root" },
	{ "no-symlinks: etc", NULL, "etc", OPATH, R_NO_SYMLINKS, 0, "etc" },
	{ "no-symlinks: etc/passwd", NULL, "etc/passwd", OPATH, R_NO_SYMLINKS, 0, "etc/passwd" },
	{ "no-symlinks: a relative link at the end", NULL, "relsym", OPATH, R_NO_SYMLINKS, ELOOP, NULL },
	{ "no-symlinks: a relative link as a component", NULL, "reletc/passwd", OPATH, R_NO_SYMLINKS, ELOOP, NULL },
	{ "no-symlinks: an absolute link at the end", NULL, "abssym", OPATH, R_NO_SYMLINKS, ELOOP, NULL },
	{ "no-symlinks: an absolute link as a component", NULL, "absetc/passwd", OPATH, R_NO_SYMLINKS, ELOOP, NULL },
	{ "no-symlinks: a /../.. link", NULL, "cheeky/garbagelink", OPATH, R_NO_SYMLINKS, ELOOP, NULL },
	{ "no-symlinks: two links", NULL, "abscheeky/garbagelink", OPATH, R_NO_SYMLINKS, ELOOP, NULL },
	{ "no-symlinks: two links to /", NULL, "abscheeky/absself", OPATH, R_NO_SYMLINKS, ELOOP, NULL },
	/* a trailing link not followed is no crossing */
	{ "no-symlinks: O_NOFOLLOW, a relative link", NULL, "relsym", OPATH_NOFOLLOW, R_NO_SYMLINKS, 0, "relsym" },
	{ "no-symlinks: O_NOFOLLOW, an absolute link", NULL, "abssym", OPATH_NOFOLLOW, R_NO_SYMLINKS, 0, "abssym" },
	{ "no-symlinks: O_NOFOLLOW, a /../.. link", NULL, "cheeky/garbagelink", OPATH_NOFOLLOW, R_NO_SYMLINKS, 0, "cheeky/garbagelink" },
	{ "no-symlinks: O_NOFOLLOW, a link as a component", NULL, "abscheeky/absself", OPATH_NOFOLLOW, R_NO_SYMLINKS, ELOOP, NULL },
	{ "no-symlinks: O_NOFOLLOW, links as components", NULL, "abscheeky/garbagelink", OPATH_NOFOLLOW, R_NO_SYMLINKS, ELOOP, NULL },
};

static char cli[PATH_MAX];

/* The string value of "key" in one JSON line ("" when absent). */
static void json_str(const char *line, const char *key, char *out, size_t size)
{
	char pat[40];
	const char *p;
	size_t n = 0;

	out[0] = '\0';
	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	p = strstr(line, pat);
	if (!p)
		return;
	for (p += strlen(pat); *p && *p != '"' && n + 1 < size; p++) {
		if (*p == '\\' && p[1])
			p++;
		out[n++] = *p;
	}
	out[n] = '\0';
}

/* The expected path, the selftest's way: the dirfd's, or one under the
 * test root, or an absolute one. */
static void expected_path(const struct rcase *c, char *out, size_t size)
{
	const char *dir = !c->dir ? ROOT : c->dir[0] == '/' ? c->dir : NULL;
	char dirbuf[PATH_MAX];

	if (!dir) {
		snprintf(dirbuf, sizeof(dirbuf), ROOT "/%s", c->dir);
		dir = dirbuf;
	}
	if (!c->want)
		snprintf(out, size, "%s", dir);
	else if (c->want[0] == '/')
		snprintf(out, size, "%s", c->want);
	else
		snprintf(out, size, ROOT "/%s", c->want);
}

static bool same_options(const struct rcase *a, const struct rcase *b)
{
	return a->open == b->open && a->resolve == b->resolve &&
	       !strcmp(a->dir ? a->dir : "", b->dir ? b->dir : "");
}

static void resolve_words(unsigned r, char *out, size_t size)
{
	static const struct { unsigned bit; const char *word; } w[] = {
		{ R_NO_XDEV, "no-xdev" }, { R_NO_MAGICLINKS, "no-magiclinks" },
		{ R_NO_SYMLINKS, "no-symlinks" }, { R_BENEATH, "beneath" },
		{ R_IN_ROOT, "in-root" },
	};
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (r & w[i].bit)
			n += (size_t)snprintf(out + n, size - n, "%s%s", n ? "," : "",
					      w[i].word);
}

/*
 * One lookup run for the cases idx[0..n): their answers ("ok PATH" or an
 * errno name) in got[].  0, or -1 when the command failed.
 */
static int run_cases(const char *treefile, const unsigned *idx, unsigned n,
		     char (*got)[PATH_MAX + 8])
{
	const struct rcase *c = &cases[idx[0]];
	char at[PATH_MAX], resolve[64], line[4096], result[32], dpath[PATH_MAX];
	char *argv[NCASES + 32];
	int argc = 0, pipefd[2], status;
	posix_spawn_file_actions_t fa;
	unsigned q = 0;
	pid_t pid;
	FILE *f;

	if (!c->dir)
		snprintf(at, sizeof(at), ROOT);
	else if (c->dir[0] == '/')
		snprintf(at, sizeof(at), "%s", c->dir);
	else
		snprintf(at, sizeof(at), ROOT "/%s", c->dir);
	resolve_words(c->resolve, resolve, sizeof(resolve));
	argv[argc++] = cli;
	argv[argc++] = "lookup";
	argv[argc++] = "--tree";
	argv[argc++] = (char *)treefile;
	argv[argc++] = "--pid";
	argv[argc++] = PID;
	argv[argc++] = "--exe";
	argv[argc++] = "/bin/walker";
	argv[argc++] = "--cwd";
	argv[argc++] = ROOT;
	argv[argc++] = "--at";
	argv[argc++] = at;
	argv[argc++] = "--resolve";
	argv[argc++] = resolve;
	argv[argc++] = "--open";
	argv[argc++] = c->open == CREAT ? "O_CREAT" :
		       c->open == OPATH ? "O_PATH" : "O_PATH,O_NOFOLLOW";
	if (c->open == CREAT) {
		argv[argc++] = "--mode";
		argv[argc++] = "700";
	}
	for (unsigned i = 0; i < n; i++)
		argv[argc++] = (char *)cases[idx[i]].path;
	argv[argc] = NULL;
	cr_assert_eq(pipe(pipefd), 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	cr_assert_eq(posix_spawn(&pid, cli, &fa, NULL, argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	f = fdopen(pipefd[0], "r");
	cr_assert_not_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] != '{' || q >= n)
			continue;
		json_str(line, "result", result, sizeof(result));
		json_str(line, "d_path", dpath, sizeof(dpath));
		if (!strcmp(result, "ok"))
			snprintf(got[idx[q]], sizeof(got[0]), "ok %s", dpath);
		else
			snprintf(got[idx[q]], sizeof(got[0]), "%s", result);
		q++;
	}
	fclose(f);
	cr_assert_geq(waitpid(pid, &status, 0), 0);
	return WIFEXITED(status) && !WEXITSTATUS(status) && q == n ? 0 : -1;
}

Test(openat2, resolve_selftest_cases)
{
	static char got[NCASES][PATH_MAX + 8];
	char treefile[] = "/tmp/wt-openat2.XXXXXX";
	bool done[NCASES] = { false };
	unsigned passed = 0, runs = 0;
	int fd;
	FILE *f;

	cr_assert_eq(sizeof(cases) / sizeof(cases[0]), NCASES);
	if (!wt_test_find_cli(cli, sizeof(cli)))
		cr_skip_test("no walktorture binary next to the tests (%s)", cli);
	fd = mkstemp(treefile);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	cr_assert_not_null(f);
	fputs(tree, f);
	fclose(f);
	for (unsigned i = 0; i < NCASES; i++) {
		unsigned idx[NCASES], n = 0;

		if (done[i])
			continue;
		for (unsigned j = i; j < NCASES; j++)
			if (!done[j] && same_options(&cases[i], &cases[j])) {
				idx[n++] = j;
				done[j] = true;
			}
		runs++;
		if (run_cases(treefile, idx, n, got))
			for (unsigned k = 0; k < n; k++)
				if (!got[idx[k]][0])
					snprintf(got[idx[k]], sizeof(got[0]),
						 "(walktorture lookup failed)");
	}
	unlink(treefile);
	for (unsigned i = 0; i < NCASES; i++) {
		const struct rcase *c = &cases[i];
		char want[PATH_MAX + 8], path[PATH_MAX];

		if (c->err) {
			snprintf(want, sizeof(want), "%s", wt_errno_name(-c->err));
		} else {
			expected_path(c, path, sizeof(path));
			snprintf(want, sizeof(want), "ok %s", path);
		}
		if (!strcmp(want, got[i])) {
			passed++;
			continue;
		}
		fprintf(stderr, "!!! case %u (%s): %s%s%s: want %s, got %s\n", i + 1,
			c->what, c->dir ? c->dir : "", c->dir ? " " : "", c->path,
			want, got[i]);
	}
	printf("walktorture: openat2 resolve selftest %u/%u cases (%u lookup runs)\n",
	       passed, NCASES, runs);
	cr_assert_eq(passed, NCASES, "%u of %u openat2 selftest cases differ "
		     "(see the !!! lines)", NCASES - passed, NCASES);
}

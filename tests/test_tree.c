/* SPDX-License-Identifier: MIT */
/*
 * Tree files and verbs: the parser's errors carry file:line:col and say
 * what is wrong; parsing is separate from running; and the walktorture
 * tree command exits 0 for a good file and 2 for a bad one.
 */
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/ops_test.h"

extern char **environ;

static void parse_err(const char *text, unsigned line, unsigned col,
		      const char *needle)
{
	struct wt_verb_error e;
	struct wt_tree *t;

	cr_assert_eq(wt_tree_parse(text, "t.tree", &t, &e), -1, "%s", text);
	cr_assert_null(t);
	cr_assert_str_eq(e.file, "t.tree");
	cr_assert_eq(e.line, line, "%s: line %u, want %u (%s)", text, e.line,
		     line, e.msg);
	cr_assert_eq(e.col, col, "%s: col %u, want %u (%s)", text, e.col, col,
		     e.msg);
	cr_assert(strstr(e.msg, needle), "%s: '%s' lacks '%s'", text, e.msg, needle);
}

Test(tree, parse_errors_have_file_line_col)
{
	/* Each class of mistake is reported at its line and the column of
	 * the offending word, with a message that names the problem. */
	parse_err("mkdir /a\nmkdri /b\n", 2, 1, "unknown command 'mkdri'");
	parse_err("mkdri /b\n", 1, 1, "valid: mkdir, touch");
	parse_err("\n\nchmod 9z9 /a\n", 3, 7, "bad mode");
	parse_err("mkdir -m 8 /a\n", 1, 10, "bad mode");
	parse_err("chmod 17777 /a\n", 1, 7, "bad mode");
	parse_err("chown 1-2 /a\n", 1, 7, "bad owner");
	parse_err("ln -s /a\n", 1, 7, "missing operands");
	parse_err("mv /a /b /c\n", 1, 10, "too many operands");
	parse_err("touch '/a\n", 1, 7, "unterminated single quote");
	parse_err("touch \"/a\n", 1, 7, "unterminated double quote");
	parse_err("mkdir relative\n", 1, 7, "not absolute");
	parse_err("mount -t nofs x /a\n", 1, 10, "unknown filesystem type");
	parse_err("mount --bond /a /b\n", 1, 7, "unknown option");
	parse_err("umount -x /a\n", 1, 8, "unknown option");
	parse_err("rmdir\n", 1, 1, "missing operands");
	parse_err("mount -t tmpfs -o noexec,rx t /a\n", 1, 26, "unknown mount option 'rx'");
	parse_err("mount -t tmpfs -o ro,bind t /a\n", 1, 22, "unknown mount option 'bind'");
	parse_err("mount -o remount,ro\n", 1, 10, "missing operands");
	parse_err("mount -o bind,remount /a\n", 1, 7, "unknown option");
	parse_err("mount --rbind -o ro /a /b\n", 1, 15, "unknown option '-o'");
	parse_err("mount -t tmpfs -o nosymfollow t\n", 1, 31, "missing operands");
	parse_err("mount -t tmpfs t /a -o noexec\n", 1, 21, "unknown option '-o'");
	parse_err("ln -s -x /a\n", 1, 7, "unknown option '-x'");
	/* proc-task: its options, values and PID */
	parse_err("proc-task\n", 1, 1, "missing PID");
	parse_err("proc-task -u 1000 42\n", 1, 14, "bad owner");
	parse_err("proc-task --cwd d 42\n", 1, 17, "not absolute");
	parse_err("proc-task 42 --root\n", 1, 14, "--root needs a value");
	parse_err("proc-task --fd x=/a 42\n", 1, 16, "bad --fd 'x=/a'");
	parse_err("proc-task --fd 3=a 42\n", 1, 18, "path 'a' is not absolute");
	parse_err("proc-task --fd 3=/a --fd 3=/b 42\n", 1, 26, "fd 3 given twice");
	parse_err("proc-task --dumpable 42\n", 1, 11, "unknown option '--dumpable'");
	parse_err("proc-task 0\n", 1, 11, "bad PID '0'");
	parse_err("proc-task 4x\n", 1, 11, "bad PID");
	parse_err("proc-task 42 43\n", 1, 14, "too many operands");
	parse_err("proc-task --fd 0=/ --fd 1=/ --fd 2=/ --fd 3=/ --fd 4=/ "
		  "--fd 5=/ --fd 6=/ --fd 7=/ --fd 8=/ 42\n", 1, 88,
		  "too many --fd");
}

Test(tree, proc_task_verb)
{
	/* proc-task parses to PID, ROOT, CWD, EXE and N/PATH pairs, runs
	 * into every proc mounted so far, and fails by naming the operand:
	 * a root that is no directory, a PID already there, no proc. */
	struct wt_world *w = t_build(NULL);
	struct wt_verb_error e;
	struct wt_verb v;
	char buf[600];
	FILE *f;

	cr_assert_eq(wt_verb_parse("proc-task -u 5:6 --nondumpable --exe /f "
				   "--fd 7=/f --cwd /d 42", &v, &e), 0);
	cr_assert_eq(v.kind, WT_V_PROC_TASK);
	cr_assert_eq(v.uid, 5);
	cr_assert_eq(v.gid, 6);
	cr_assert(v.flags & WT_VERB_NONDUMPABLE);
	cr_assert_eq(v.argc, 6);
	cr_assert_str_eq(v.argv[0], "42");
	cr_assert_str_eq(v.argv[1], "/");
	cr_assert_str_eq(v.argv[2], "/d");
	cr_assert_str_eq(v.argv[3], "/f");
	cr_assert_str_eq(v.argv[4], "7");
	cr_assert_str_eq(v.argv[5], "/f");
	wt_verb_free(&v);
	t_verb(w, "mkdir /d", 0);
	t_verb(w, "touch /f", 0);
	t_verb(w, "proc-task 42", -ENOENT);	/* no proc yet */
	t_verb(w, "mkdir /p", 0);
	t_verb(w, "mount -t proc p /p", 0);
	t_verb(w, "proc-task -u 5:6 --nondumpable --exe /f --fd 7=/f --cwd /d 42", 0);
	t_verb(w, "proc-task 42", -EEXIST);
	cr_assert_eq(wt_tree_build_string(w, "proc-task --root /f 44\n", "p.tree",
					  &e), -ENOTDIR);
	f = fmemopen(buf, sizeof(buf), "w");
	wt_verb_error_print(&e, f);
	fclose(f);
	cr_assert(strstr(buf, "p.tree:1: proc-task /f: ENOTDIR"), "%s", buf);
	wt_ops_world_destroy(w);
}

Test(tree, words_quotes_comments)
{
	/* Quotes group words with spaces, backslashes escape, # comments a
	 * word out only at its start, blank lines are nothing. */
	struct wt_verb v;
	struct wt_verb_error e;

	cr_assert_eq(wt_verb_parse("  # only a comment", &v, &e), 1);
	cr_assert_eq(wt_verb_parse("", &v, &e), 1);
	cr_assert_eq(wt_verb_parse("touch '/a b' \"/c\\\"d\" /e\\ f /g#h # c", &v, &e), 0);
	cr_assert_eq(v.argc, 4);
	cr_assert_str_eq(v.argv[0], "/a b");
	cr_assert_str_eq(v.argv[1], "/c\"d");
	cr_assert_str_eq(v.argv[2], "/e f");
	cr_assert_str_eq(v.argv[3], "/g#h");
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("mkdir -p -m 700 /x /y", &v, &e), 0);
	cr_assert_eq(v.kind, WT_V_MKDIR);
	cr_assert(v.flags & WT_VERB_PARENTS);
	cr_assert_eq(v.mode, 0700);
	cr_assert_eq(v.argc, 2);
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("mv --exchange /a /b", &v, &e), 0);
	cr_assert_eq(v.flags, WT_RENAME_EXCHANGE);
	wt_verb_free(&v);
	/* mount -o's flags; "--" ends the options (a target may begin
	 * with '-', as `ln -s -- -x /l` makes in a shell) */
	cr_assert_eq(wt_verb_parse("mount -t tmpfs -o nosymfollow,noexec,nosuid,nodev t /m",
				   &v, &e), 0);
	cr_assert_eq(v.kind, WT_V_MOUNT);
	cr_assert_eq(v.flags, MNT_NOSYMFOLLOW | MNT_NOEXEC | MNT_NOSUID | MNT_NODEV);
	cr_assert_eq(v.argc, 3);
	cr_assert_str_eq(v.argv[0], "tmpfs");
	cr_assert_str_eq(v.argv[2], "/m");
	wt_verb_free(&v);
	/* ro: the mount (and, for a new filesystem, the filesystem); the
	 * last of ro/rw wins; remount[,bind] replaces the mount's flags */
	cr_assert_eq(wt_verb_parse("mount -t tmpfs -o rw,ro,nosymfollow t /m", &v, &e), 0);
	cr_assert_eq(v.flags, MNT_READONLY | MNT_NOSYMFOLLOW);
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("mount -t tmpfs -o ro,rw t /m", &v, &e), 0);
	cr_assert_eq(v.flags, 0);
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("mount -t tmpfs -o noatime t /m", &v, &e), 0);
	cr_assert_eq(v.flags, MNT_NOATIME);
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("mount --bind -o ro /a /b", &v, &e), 0);
	cr_assert_eq(v.kind, WT_V_BIND);
	cr_assert_eq(v.flags, MNT_READONLY);
	cr_assert_eq(v.argc, 2);
	cr_assert_str_eq(v.argv[0], "/a");
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("mount -o remount,bind,ro /m", &v, &e), 0);
	cr_assert_eq(v.kind, WT_V_REMOUNT);
	cr_assert_eq(v.flags, WT_VERB_REMOUNT_BIND | MNT_READONLY);
	cr_assert_eq(v.argc, 1);
	cr_assert_str_eq(v.argv[0], "/m");
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("mount -o remount /m", &v, &e), 0);
	cr_assert_eq(v.kind, WT_V_REMOUNT);
	cr_assert_eq(v.flags, 0);
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("ln -s -- -x /l", &v, &e), 0);
	cr_assert_eq(v.kind, WT_V_SYMLINK);
	cr_assert_eq(v.argc, 2);
	cr_assert_str_eq(v.argv[0], "-x");
	cr_assert_str_eq(v.argv[1], "/l");
	wt_verb_free(&v);
	cr_assert_eq(wt_verb_parse("remote-mkdir /r d 700", &v, &e), 0);
	cr_assert_eq(v.remote, WT_REMOTE_MKDIR);
	cr_assert_eq(v.mode, 0700);
	cr_assert_eq(v.argc, 2);
	wt_verb_free(&v);
}

Test(tree, nothing_runs_half_parsed)
{
	/* A file whose last line is a typo builds nothing: the world stays
	 * at version 0, so no earlier line ran. */
	struct wt_world *w = t_build(NULL);
	struct wt_verb_error e;

	cr_assert_eq(wt_tree_build_string(w, "mkdir /a\nmkdir /b\nbad\n", "x", &e), -1);
	cr_assert_eq(wt_history_version(w->history), 0);
	wt_ops_world_destroy(w);
}

Test(tree, failing_line_stops_the_build)
{
	/* The first verb that fails stops the build: its error names the
	 * file, the line and the errno, and later lines do not run. */
	struct wt_world *w = t_build(NULL);
	struct wt_verb_error e;
	char buf[600];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	cr_assert_eq(wt_tree_build_string(w, "mkdir /a\nmkdir /a\nmkdir /b\n",
					  "x.tree", &e), -EEXIST);
	cr_assert_eq(e.line, 2);
	wt_verb_error_print(&e, f);
	fclose(f);
	cr_assert(strstr(buf, "x.tree:2: mkdir /a: EEXIST"), "%s", buf);
	cr_assert_eq(wt_tree_build_string(w, "touch /b\n", "y", &e), 0);
	t_verb(w, "mkdir /b", -EEXIST);	/* /b is the file: line 3 never ran */
	wt_ops_world_destroy(w);
}

Test(tree, rcu_answer_verbs)
{
	/* touch -h, remote-bad and remote-layer (the knobs that make RCU-walk
	 * meet an atime update, a 0 and an error from d_revalidate): typos
	 * are parse errors at their column, a wrong target fails its line
	 * with the errno, and good lines build. */
	struct wt_world *w = t_build(NULL);
	struct wt_verb_error e;
	char buf[600];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	parse_err("touch -x /l\n", 1, 7, "unknown option '-x'");
	parse_err("touch -h\n", 1, 7, "missing operands: usage: touch [-h] PATH...");
	parse_err("touch -h l\n", 1, 10, "not absolute");
	parse_err("remote-bad /r\n", 1, 12, "usage: remote-bad FSPATH PATH");
	parse_err("remote-bad r a\n", 1, 12, "not absolute");
	parse_err("remote-layer /r yes\n", 1, 17, "expected on or off");
	parse_err("remote-lyer /r on\n", 1, 1, "remote-bad, remote-layer");
	cr_assert_eq(wt_tree_build_string(w, "mkdir /t\nremote-bad /t x\n",
					  "x.tree", &e), -EINVAL);
	wt_verb_error_print(&e, f);
	fclose(f);
	cr_assert(strstr(buf, "x.tree:2: remote-bad /t: EINVAL"), "%s", buf);
	cr_assert_eq(wt_tree_build_string(w, "touch -h /nope\n", "y", &e), -ENOENT);
	cr_assert_eq(wt_tree_build_string(w, "mkdir /r\nmount -t remote s /r\n"
					  "mkdir /r/a\nremote-bad /r b\n", "z", &e),
		     -ENOENT);
	cr_assert_eq(e.line, 4);
	cr_assert_eq(wt_tree_build_string(w, "remote-bad /r a\nremote-layer /r on\n"
					  "remote-layer /t on\nln -s /r /l\n"
					  "touch -h /l /r\n", "ok", &e), -EINVAL);
	cr_assert_eq(e.line, 3, "remote-layer on a tmpfs: %s", e.msg);
	cr_assert_eq(wt_tree_build_string(w, "ln -s /r /l\ntouch -h /l /r\n",
					  "ok", &e), 0);
	wt_ops_world_destroy(w);
}

/* ------------------------------------------------------------------ */
/* the command                                                          */

static void walktorture_path(char *buf, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	cr_assert_gt(n, 0);
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	cr_assert_not_null(slash);
	*slash = '\0';
	snprintf(buf, size, "%s/../cli/walktorture", exe);
}

/* Run walktorture tree FILE with stdout/stderr to /dev/null; exit code. */
static int run_tree(const char *file)
{
	char exe[PATH_MAX + 32];
	char *argv[] = { exe, "tree", (char *)file, NULL };
	posix_spawn_file_actions_t fa;
	int status;
	pid_t pid;

	walktorture_path(exe, sizeof(exe));
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
	cr_assert_eq(posix_spawn(&pid, exe, &fa, NULL, argv, environ), 0, "%s", exe);
	posix_spawn_file_actions_destroy(&fa);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void example(char *buf, size_t size, const char *name)
{
	const char *src = getenv("WT_SOURCE_DIR");

	snprintf(buf, size, "%s/examples/%s", src ? src : WT_SOURCE_DIR, name);
}

Test(tree, command_exit_codes)
{
	/* walktorture tree exits 0 for each shipped example, 2 for the bad
	 * one, a missing file, and a usage error. */
	char path[PATH_MAX];

	example(path, sizeof(path), "basic.tree");
	cr_assert_eq(run_tree(path), 0);
	example(path, sizeof(path), "mounts.tree");
	cr_assert_eq(run_tree(path), 0);
	example(path, sizeof(path), "fstypes.tree");
	cr_assert_eq(run_tree(path), 0);
	example(path, sizeof(path), "bad.tree");
	cr_assert_eq(run_tree(path), 2);
	cr_assert_eq(run_tree("/nonexistent/x.tree"), 2);
	{
		char bad[] = "/tmp/wt-tree-proc.XXXXXX";
		int fd = mkstemp(bad);

		cr_assert_geq(fd, 0);
		cr_assert_eq(write(fd, "mkdir /p\nproc-task --fd 3 42\n", 29), 29);
		close(fd);
		cr_assert_eq(run_tree(bad), 2, "a bad proc-task line");
		unlink(bad);
	}
	cr_assert_eq(run_tree("--bogus"), 2);
}

Test(tree, examples_build_the_same_world_in_process)
{
	/* The shipped basic example builds, and its listing matches its
	 * history snapshot (what walktorture tree prints is rebuildable). */
	char path[PATH_MAX];
	struct wt_world *w = t_build(NULL);
	struct wt_verb_error e;
	struct wt_ns *ns;
	char *live, *snap;

	example(path, sizeof(path), "basic.tree");
	cr_assert_eq(wt_tree_build_file(w, path, &e), 0, "%s", e.msg);
	live = wt_world_dump_string(w);
	ns = wt_ns_create(w->history, wt_history_version(w->history));
	snap = wt_ns_dump_string(ns);
	cr_assert_str_eq(live, snap);
	cr_assert(strstr(live, "/a/with\\x20space inode="));
	cr_assert(strstr(live, "mount /mnt tmpfs data rw"));
	free(live);
	free(snap);
	wt_ns_destroy(ns);
	wt_ops_world_destroy(w);
}

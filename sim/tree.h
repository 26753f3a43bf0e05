/* SPDX-License-Identifier: MIT */
/*
 * Shell-like writer verbs and tree files.
 *
 * A tree file is one verb a line; `#` starts a comment (at the start of a
 * word); words split like a shell's, with 'single' and "double" quotes
 * (a backslash escapes the next character outside single quotes).  Paths
 * are absolute.  The whole file is parsed first -- nothing runs half
 * parsed --, then run line by line; the first line that fails stops the
 * build.  Errors read `file:line:col: message` for syntax (the column of
 * the offending word) and `file:line: message` for a verb that failed.
 *
 * Verbs (the same parser serves scenario writer threads, one verb at a
 * time: parse before the run, wt_verb_run during it):
 *
 *   mkdir [-p] [-m MODE] PATH...      directories (MODE octal, default 755)
 *   touch PATH...                     regular files (0644); existing: kept
 *   touch -h PATH...                  the path itself, not followed nor
 *                                     created: atime and mtime now, so a
 *                                     symlink's next follow updates its
 *                                     atime (relatime; RCU-walk unlazies)
 *   ln -s TARGET PATH                 a symlink
 *   ln TARGET PATH                    a hard link
 *   chmod MODE PATH                   octal MODE, follows a symlink
 *   chown UID:GID PATH                numeric, follows a symlink
 *   mv [--exchange|--noreplace] SRC DST   rename (RENAME_EXCHANGE, ..._NOREPLACE)
 *   rm PATH...                        unlink
 *   rmdir PATH...
 *   mount -t TYPE [-o OPTS] NAME PATH a new filesystem (tmpfs/plain, remote,
 *                                     casefold, autofs, proc, slowperm);
 *                                     OPTS: ro (the filesystem and the
 *                                     mount read-only: EROFS for every
 *                                     write, open's and the verbs'), rw,
 *                                     nosymfollow (following a symlink on
 *                                     it is ELOOP), noatime (no atime
 *                                     update is due there), noexec,
 *                                     nosuid, nodev (kept, not checked)
 *   mount --bind [-o OPTS] SRC DST    a bind mount: the source mount's flags
 *                                     (ro too), plus OPTS (ro: this mount
 *                                     only, the filesystem stays writable)
 *   mount --rbind SRC DST | --move SRC DST
 *   mount -o remount[,bind][,OPTS] PATH  PATH's mount (its root) gets
 *                                     exactly OPTS' flags (nosymfollow
 *                                     not repeated is cleared); without
 *                                     bind the filesystem becomes ro/rw too
 *   umount [-l] PATH                  sync, or lazy (MNT_DETACH)
 *   shrink                            drop every unused dentry
 *   proc-magic PROCPATH NAME TARGET   a magic link PROCPATH/NAME -> TARGET
 *   proc-task [-u UID:GID] [--root DIR] [--cwd DIR] [--exe FILE]
 *             [--fd N=PATH]... [--nondumpable] PID
 *                                     a process in every proc mounted so
 *                                     far: /proc/PID (owner UID:GID, default
 *                                     0:0) with the magic links root and cwd
 *                                     (default /), exe, fd/N (at most 8);
 *                                     following them is the ptrace-style
 *                                     check (same uid and gid and dumpable,
 *                                     or root, or the walker's own PID);
 *                                     --nondumpable: refused to all but
 *                                     root, fd/ and the links root-owned
 *   remote-create FSPATH PATH [MODE]  server-side changes behind a remote
 *   remote-mkdir FSPATH PATH [MODE]   fs's client (PATH relative to the fs
 *   remote-symlink FSPATH TARGET PATH root; FSPATH where it is mounted)
 *   remote-rm FSPATH PATH
 *   remote-mv FSPATH FROM TO
 *   remote-invalidate FSPATH PATH     same handle, new object (ESTALE)
 *   remote-expire FSPATH              every cached entry times out
 *   acl-uncache PATH                  slowperm: the next RCU check blocks
 *   autofs-busy FSPATH on|off         autofs: the daemon blocks d_manage
 *   remote-bad FSPATH PATH            remote: the client marks its inode bad
 *                                     (is_bad_inode): d_revalidate answers 0,
 *                                     in RCU mode too
 *   remote-layer FSPATH on|off        remote seen through overlayfs: a 0
 *                                     from d_revalidate becomes -ESTALE
 *                                     (ovl_revalidate_real), in RCU mode too
 */
#ifndef WT_SIM_TREE_H
#define WT_SIM_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/ops.h"

struct wt_world;

enum wt_verb_kind {
	WT_V_MKDIR,
	WT_V_TOUCH,
	WT_V_SYMLINK,
	WT_V_LINK,
	WT_V_CHMOD,
	WT_V_CHOWN,
	WT_V_MV,
	WT_V_RM,
	WT_V_RMDIR,
	WT_V_MOUNT,
	WT_V_BIND,
	WT_V_RBIND,
	WT_V_MOVE,
	WT_V_UMOUNT,
	WT_V_SHRINK,
	WT_V_PROC_MAGIC,
	WT_V_REMOTE,
	WT_V_ACL_UNCACHE,
	WT_V_AUTOFS_BUSY,
	WT_V_REMOTE_BAD,
	WT_V_REMOTE_LAYER,
	WT_V_REMOUNT,
	WT_V_PROC_TASK,
	WT_V__COUNT
};

#define WT_VERB_MAX_ARGS 64

/* A parsed verb: everything checked that can be without a world. */
struct wt_verb {
	enum wt_verb_kind kind;
	unsigned flags;		/* mkdir -p, mv's WT_RENAME_*, umount's WT_UMOUNT_* */
	umode_t mode;
	uint32_t uid;
	uint32_t gid;
	bool busy;		/* autofs-busy, remote-layer: on */
	enum wt_remote_change remote;
	unsigned argc;		/* the operands (paths, names, types) */
	char *argv[WT_VERB_MAX_ARGS];
	unsigned col[WT_VERB_MAX_ARGS];	/* each operand's column (1-based) */
	unsigned line;		/* in its file (0 for a lone verb) */
};

#define WT_VERB_PARENTS	0x100	/* mkdir -p */
#define WT_VERB_NO_DEREF	0x200	/* touch -h */
#define WT_VERB_NONDUMPABLE	0x400	/* proc-task --nondumpable */
#define WT_VERB_REMOUNT_BIND	0x10000	/* mount -o remount,bind (beside MNT_*) */

struct wt_verb_error {
	char file[256];		/* "" for a lone verb */
	unsigned line;		/* 0: none */
	unsigned col;		/* 0: none */
	int err;		/* -errno of a failed operation; 0 for syntax */
	char msg[512];
};

/* Parse one line: 0 (a verb in *v), 1 (blank or comment: nothing to do)
 * or -1 (*e says why; e->col is set). */
int wt_verb_parse(const char *line, struct wt_verb *v, struct wt_verb_error *e);
/* Run a parsed verb: 0, or -errno with *e filled. */
int wt_verb_run(struct wt_world *w, const struct wt_verb *v,
		struct wt_verb_error *e);
void wt_verb_free(struct wt_verb *v);
/* Parse and run one line: 0, -1 for a syntax error, or -errno. */
int wt_verb_exec(struct wt_world *w, const char *line, struct wt_verb_error *e);
/* Every verb name, comma-separated, for error messages. */
const char *wt_verb_names(void);

/* Print "file:line:col: message" (parts that are unset left out). */
void wt_verb_error_print(const struct wt_verb_error *e, FILE *f);

/* A parsed tree file. */
struct wt_tree;
/* 0, or -1 with *e (e->file is name). */
int wt_tree_parse(const char *text, const char *name, struct wt_tree **out,
		  struct wt_verb_error *e);
/* Read and parse a file: 0, or -1 with *e (a read error too). */
int wt_tree_parse_file(const char *path, struct wt_tree **out,
		       struct wt_verb_error *e);
unsigned wt_tree_count(const struct wt_tree *t);
/* Run every verb in order; stops at the first failure (-errno, *e). */
int wt_tree_run(struct wt_world *w, const struct wt_tree *t,
		struct wt_verb_error *e);
void wt_tree_free(struct wt_tree *t);
/* Parse then run: 0, -1 (syntax) or -errno. */
int wt_tree_build_file(struct wt_world *w, const char *path,
		       struct wt_verb_error *e);
int wt_tree_build_string(struct wt_world *w, const char *text, const char *name,
			 struct wt_verb_error *e);

#endif /* WT_SIM_TREE_H */

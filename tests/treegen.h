/* SPDX-License-Identifier: MIT */
/*
 * Random trees for the property and kernel-comparison tests: a seeded
 * generator of tree-file lines (DESIGN.md "walktorture lookup": mkdir -m,
 * touch, ln -s, chmod, chown, mount -t tmpfs, mount --bind/--rbind) and
 * of paths to resolve in them, and an applier that builds a line in a
 * sim world through the writer operations.
 *
 * Only what a real kernel accepts the same way is generated: every mount
 * root is chmod'ed right after the mount (a kernel tmpfs root is 1777, the
 * sim's 0755), no sticky bits (fs.protected_symlinks is on in kernels and
 * off in the walker by default), names from a small alphabet so that
 * random paths hit.  Header-only: static functions, one copy per test.
 */
#ifndef WT_TESTS_TREEGEN_H
#define WT_TESTS_TREEGEN_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ops.h"
#include "sim/vfs/mount.h"
#include "sim/vfs/world.h"

/* snprintf whose truncation is fine (paths are bounded by the generator):
 * using the return value keeps -Wformat-truncation quiet at -O2 */
#define tg_snprintf(...)	((void)(snprintf(__VA_ARGS__) < 0))

#define TG_MAX_LINES	96
#define TG_MAX_PATHS	160
#define TG_LINE_MAX	256
#define TG_PATH_MAX	200

static const char *const tg_names[] = { "a", "b", "c", "d", "e", "l", "m", "x" };
#define TG_NNAMES (sizeof(tg_names) / sizeof(tg_names[0]))
static const unsigned tg_modes[] = { 0755, 0755, 0755, 0711, 0700, 0750,
				     0705, 0701, 0744, 0500, 0000, 0777 };
#define TG_NMODES (sizeof(tg_modes) / sizeof(tg_modes[0]))

struct tg_tree {
	uint64_t rng;
	unsigned nlines;
	char lines[TG_MAX_LINES][TG_LINE_MAX];
	/* every generated line with the model's answer (tg_build) */
	unsigned norig;
	char orig[TG_MAX_LINES][TG_LINE_MAX];
	int orig_err[TG_MAX_LINES];
	unsigned ndirs, nother;
	char dirs[TG_MAX_PATHS][TG_PATH_MAX];	/* "/" first */
	char other[TG_MAX_PATHS][TG_PATH_MAX];	/* files and links */
	unsigned nfs;				/* tmpfs mounts made */
	bool sticky;				/* some 1777 directories */
};

static uint64_t tg_next(struct tg_tree *t)
{
	uint64_t z = (t->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned tg_below(struct tg_tree *t, unsigned n)
{
	return n ? (unsigned)(tg_next(t) % n) : 0;
}

static const char *tg_dir(struct tg_tree *t)
{
	return t->dirs[tg_below(t, t->ndirs)];
}

static bool tg_known(const struct tg_tree *t, const char *p)
{
	for (unsigned i = 0; i < t->ndirs; i++)
		if (!strcmp(t->dirs[i], p))
			return true;
	for (unsigned i = 0; i < t->nother; i++)
		if (!strcmp(t->other[i], p))
			return true;
	return false;
}

static void tg_line(struct tg_tree *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tg_line(struct tg_tree *t, const char *fmt, ...)
{
	va_list ap;

	if (t->nlines >= TG_MAX_LINES)
		return;
	va_start(ap, fmt);
	(void)(vsnprintf(t->lines[t->nlines++], TG_LINE_MAX, fmt, ap) < 0);
	va_end(ap);
}

/* a, b, c concatenated into out (TG_PATH_MAX bytes), truncated. */
static void tg_join(char *out, const char *a, const char *b, const char *c)
{
	const char *parts[3] = { a, b, c };
	size_t n = 0;

	for (unsigned k = 0; k < 3; k++) {
		size_t len = strnlen(parts[k], TG_PATH_MAX - 1 - n);

		memcpy(out + n, parts[k], len);
		n += len;
	}
	out[n] = '\0';
}

/* A new path under a random directory, or NULL when the name is taken. */
static bool tg_new_path(struct tg_tree *t, char *out)
{
	const char *dir = tg_dir(t);
	const char *name = tg_names[tg_below(t, TG_NNAMES)];

	if (strlen(dir) + strlen(name) + 2 >= TG_PATH_MAX - 16)
		return false;
	tg_join(out, strcmp(dir, "/") ? dir : "", "/", name);
	return !tg_known(t, out);
}

/* Forget what a mount at path hides (its old subtree). */
static void tg_hide(struct tg_tree *t, const char *path)
{
	size_t len = strlen(path);
	unsigned n = 0;

	for (unsigned i = 0; i < t->ndirs; i++)
		if (!(strncmp(t->dirs[i], path, len) == 0 && t->dirs[i][len] == '/'))
			memmove(t->dirs[n++], t->dirs[i], TG_PATH_MAX);
	t->ndirs = n;
	n = 0;
	for (unsigned i = 0; i < t->nother; i++)
		if (!(strncmp(t->other[i], path, len) == 0 && t->other[i][len] == '/'))
			memmove(t->other[n++], t->other[i], TG_PATH_MAX);
	t->nother = n;
}

/* After a bind of src at dst, what was under src is under dst too. */
static void tg_copy_under(struct tg_tree *t, const char *src, const char *dst)
{
	size_t len = strlen(src), nd = t->ndirs, no = t->nother;
	char p[TG_PATH_MAX];

	if (!strcmp(src, "/"))
		len = 0;
	for (unsigned i = 0; i < nd && t->ndirs < TG_MAX_PATHS; i++)
		if (!strncmp(t->dirs[i], src, len) && t->dirs[i][len] == '/' &&
		    t->dirs[i][len + 1] &&
		    strlen(dst) + strlen(t->dirs[i] + len) < TG_PATH_MAX - 16) {
			tg_join(p, dst, t->dirs[i] + len, "");
			if (!tg_known(t, p))
				tg_snprintf(t->dirs[t->ndirs++], TG_PATH_MAX, "%s", p);
		}
	for (unsigned i = 0; i < no && t->nother < TG_MAX_PATHS; i++)
		if (!strncmp(t->other[i], src, len) && t->other[i][len] == '/' &&
		    strlen(dst) + strlen(t->other[i] + len) < TG_PATH_MAX - 16) {
			tg_join(p, dst, t->other[i] + len, "");
			if (!tg_known(t, p))
				tg_snprintf(t->other[t->nother++], TG_PATH_MAX, "%s", p);
		}
}

static void tg_symlink_target(struct tg_tree *t, const char *path, char *target)
{
	const char *name = tg_names[tg_below(t, TG_NNAMES)];

	switch (tg_below(t, 9)) {
	case 0:		/* an absolute directory */
		tg_snprintf(target, TG_PATH_MAX, "%s", tg_dir(t));
		break;
	case 1:		/* anything absolute, maybe a link: chains and loops */
		tg_snprintf(target, TG_PATH_MAX, "%s", t->nother ?
			 t->other[tg_below(t, t->nother)] : "/");
		break;
	case 2:		/* itself: a loop */
		tg_snprintf(target, TG_PATH_MAX, "%s", path);
		break;
	case 3:
		tg_snprintf(target, TG_PATH_MAX, "../%s", name);
		break;
	case 4:
		tg_snprintf(target, TG_PATH_MAX, "%s/%s", name,
			 tg_names[tg_below(t, TG_NNAMES)]);
		break;
	case 5:		/* dangling */
		tg_snprintf(target, TG_PATH_MAX, "/nonexistent/%s", name);
		break;
	case 6:
		tg_snprintf(target, TG_PATH_MAX, "%s/", tg_dir(t));
		break;
	case 7:
		tg_snprintf(target, TG_PATH_MAX, "%s", tg_below(t, 2) ? "." : "..");
		break;
	default:
		tg_snprintf(target, TG_PATH_MAX, "%s", name);
		break;
	}
}

static void tg_add(char (*list)[TG_PATH_MAX], unsigned *n, const char *p)
{
	if (*n < TG_MAX_PATHS)
		tg_snprintf(list[(*n)++], TG_PATH_MAX, "%s", p);
}

/* A directory mode: sticky and world-writable now and then, if asked
 * (fs.protected_symlinks then matters). */
static unsigned tg_mode(struct tg_tree *t)
{
	if (t->sticky && !tg_below(t, 6))
		return 01777;
	return tg_modes[tg_below(t, TG_NMODES)];
}

/* Names, files, links, attributes: the tree's content. */
static void tg_step_names(struct tg_tree *t, unsigned r)
{
	char p[TG_PATH_MAX], target[TG_PATH_MAX];

	if (r < 30) {
		if (tg_new_path(t, p)) {
			tg_line(t, "mkdir -m %04o %s", tg_mode(t), p);
			tg_add(t->dirs, &t->ndirs, p);
		}
	} else if (r < 40) {
		if (tg_new_path(t, p)) {
			tg_line(t, "touch %s", p);
			tg_add(t->other, &t->nother, p);
		}
	} else if (r < 58) {
		if (tg_new_path(t, p)) {
			tg_symlink_target(t, p, target);
			tg_line(t, "ln -s %s %s", target, p);
			tg_add(t->other, &t->nother, p);
		}
	} else if (r < 61) {
		if (t->nother && tg_new_path(t, p)) {
			tg_line(t, "ln %s %s", t->other[tg_below(t, t->nother)], p);
			tg_add(t->other, &t->nother, p);
		}
	} else if (r < 68) {
		tg_line(t, "chmod %04o %s", tg_mode(t), tg_dir(t));
	} else {
		tg_line(t, "chown %u:%u %s", tg_below(t, 2) ? 1000 : 0,
			tg_below(t, 2) ? 1000 : 0, tg_dir(t));
	}
}

/* Renames and removals: errors (EBUSY, ENOTEMPTY, EINVAL, EXDEV, ...) are
 * compared as well as their effects. */
static void tg_step_moves(struct tg_tree *t, unsigned r)
{
	char p[TG_PATH_MAX];
	const char *src;

	if (r < 50) {
		bool dir = tg_below(t, 2) || !t->nother;

		src = dir ? tg_dir(t) : t->other[tg_below(t, t->nother)];
		if (!strcmp(src, "/"))
			return;
		if (tg_below(t, 3) && tg_new_path(t, p)) {
			tg_line(t, "mv %s %s", src, p);
			tg_add(dir ? t->dirs : t->other, dir ? &t->ndirs : &t->nother, p);
		} else {		/* onto something that exists */
			tg_line(t, "mv %s %s", src, tg_below(t, 2) || !t->nother ?
				tg_dir(t) : t->other[tg_below(t, t->nother)]);
		}
	} else if (r < 75) {
		if (t->nother)
			tg_line(t, "rm %s", t->other[tg_below(t, t->nother)]);
	} else {
		src = tg_dir(t);
		if (strcmp(src, "/"))
			tg_line(t, "rmdir %s", src);
	}
}

static void tg_step_mounts(struct tg_tree *t, unsigned r)
{
	const char *dir = tg_dir(t), *src = tg_dir(t);
	char p[TG_PATH_MAX];

	tg_snprintf(p, sizeof(p), "%s", dir);
	if (r < 40) {
		/* "/" too: a mount on the root is crossed by "/..", not "/" */
		if (strcmp(dir, "/") || !tg_below(t, 4)) {
			tg_line(t, "mount -t tmpfs t%u %s", t->nfs++, p);
			tg_line(t, "chmod %04o %s", tg_modes[tg_below(t, 4)], p);
			tg_hide(t, p);
			/* now and then read-only: the mount alone, or the
			 * filesystem too (what is written below gets EROFS) */
			if (strcmp(p, "/") && !tg_below(t, 6))
				tg_line(t, "mount -o remount,%sro %s",
					tg_below(t, 2) ? "bind," : "", p);
		}
	} else if (r < 75) {
		if (strcmp(src, dir) && (strcmp(dir, "/") || !tg_below(t, 4))) {
			bool bind = tg_below(t, 3), ro = bind && !tg_below(t, 5);

			tg_line(t, "mount %s%s %s %s", bind ? "--bind" : "--rbind",
				ro ? " -o ro" : "", src, p);
			tg_hide(t, p);
			tg_copy_under(t, src, p);
		}
	} else if (r < 85) {
		/* not "/": in the kernel comparison's chroot it is no
		 * namespace root, which the model's "/" is */
		if (strcmp(src, dir) && strcmp(src, "/"))
			tg_line(t, "mount --move %s %s", src, p);
	} else if (r < 88 && strcmp(dir, "/")) {
		/* a writable mount again (EINVAL where dir is no mount root) */
		tg_line(t, "mount -o remount,%srw %s", tg_below(t, 2) ? "bind," : "", p);
	} else if (strcmp(dir, "/")) {
		tg_line(t, "umount %s%s", tg_below(t, 2) ? "-l " : "", p);
	}
}

static void tg_step(struct tg_tree *t)
{
	unsigned r = tg_below(t, 100);

	if (r < 70)
		tg_step_names(t, tg_below(t, 100));
	else if (r < 82)
		tg_step_moves(t, tg_below(t, 100));
	else
		tg_step_mounts(t, tg_below(t, 100));
}

/* A tree of about nsteps commands from seed (sticky: some 1777 dirs). */
static void tg_generate_ex(struct tg_tree *t, uint64_t seed, unsigned nsteps,
			   bool sticky)
{
	memset(t, 0, sizeof(*t));
	t->sticky = sticky;
	t->rng = seed * 0x2545f4914f6cdd1dull + 1;
	tg_snprintf(t->dirs[t->ndirs++], TG_PATH_MAX, "/");
	/* a few directories first, so that the rest has room */
	for (unsigned i = 0; i < 4; i++) {
		tg_snprintf(t->dirs[t->ndirs], TG_PATH_MAX, "/%s", tg_names[i]);
		tg_line(t, "mkdir -m 0755 %s", t->dirs[t->ndirs++]);
	}
	for (unsigned i = 0; i < nsteps; i++)
		tg_step(t);
}

static inline void tg_generate(struct tg_tree *t, uint64_t seed, unsigned nsteps)
{
	tg_generate_ex(t, seed, nsteps, false);
}

/* A path to resolve: known paths with tails, and random compositions. */
static void tg_query(struct tg_tree *t, char *out, size_t size)
{
	static const char *const tails[] = { "", "", "", "/", "/.", "/..", "/x",
					     "//", "/a", "/../a", "/l" };
	unsigned r = tg_below(t, 40);
	size_t n = 0;

	out[0] = '\0';
	if (r == 39) {		/* a component of 256 bytes: ENAMETOOLONG */
		n = (size_t)snprintf(out, size, "%s/", tg_dir(t));
		for (; n < size - 1 && n < 260; n++)
			out[n] = 'n';
		out[n] = '\0';
		return;
	}
	r %= 10;
	if (r < 5) {
		const char *base = (r < 2 || !t->nother) ? tg_dir(t)
				   : t->other[tg_below(t, t->nother)];

		tg_snprintf(out, size, "%s%s", base,
			 tails[tg_below(t, sizeof(tails) / sizeof(tails[0]))]);
		return;
	}
	if (r < 9)
		n += (size_t)snprintf(out + n, size - n, "/");
	for (unsigned i = 0, k = 1 + tg_below(t, 6); i < k && n < size; i++) {
		unsigned c = tg_below(t, TG_NNAMES + 3);
		const char *comp = c < TG_NNAMES ? tg_names[c] :
				   c == TG_NNAMES ? "." : "..";

		n += (size_t)snprintf(out + n, size - n, "%s%s", i ? "/" : "", comp);
	}
}

/* --- building a line in a sim world --- */

static int tg_words(char *line, char **argv, int max)
{
	int argc = 0;

	for (char *tok = strtok(line, " "); tok && argc < max;
	     tok = strtok(NULL, " "))
		argv[argc++] = tok;
	return argc;
}

/* mount -o's options as MNT_* (those the tree files take). */
static int tg_mount_flags(const char *opts)
{
	int flags = 0;

	flags |= strstr(opts, "ro") && !strstr(opts, "rw") ? MNT_READONLY : 0;
	flags |= strstr(opts, "nosymfollow") ? MNT_NOSYMFOLLOW : 0;
	flags |= strstr(opts, "noexec") ? MNT_NOEXEC : 0;
	flags |= strstr(opts, "nosuid") ? MNT_NOSUID : 0;
	flags |= strstr(opts, "nodev") ? MNT_NODEV : 0;
	return flags;
}

/* Apply one generated line through sim/ops; 0 or -errno (-ENOSYS: a
 * line it does not know). */
static int tg_apply(struct wt_world *w, const char *text)
{
	char line[TG_LINE_MAX], *argv[8];
	int argc;

	tg_snprintf(line, sizeof(line), "%s", text);
	argc = tg_words(line, argv, 8);
	if (argc == 4 && !strcmp(argv[0], "mkdir"))
		return wt_op_mkdir(w, argv[3], (umode_t)strtoul(argv[2], NULL, 8), false);
	if (argc == 2 && !strcmp(argv[0], "touch"))
		return wt_op_create(w, argv[1], 0644);
	if (argc == 4 && !strcmp(argv[0], "ln"))	/* '' : an empty target */
		return wt_op_symlink(w, strcmp(argv[2], "''") ? argv[2] : "",
				     argv[3]);
	if (argc == 3 && !strcmp(argv[0], "ln"))
		return wt_op_link(w, argv[1], argv[2]);
	if (argc == 3 && !strcmp(argv[0], "mv"))
		return wt_op_rename(w, argv[1], argv[2], 0);
	if (argc == 2 && !strcmp(argv[0], "rm"))
		return wt_op_unlink(w, argv[1]);
	if (argc == 2 && !strcmp(argv[0], "rmdir"))
		return wt_op_rmdir(w, argv[1]);
	if (argc == 2 && !strcmp(argv[0], "umount"))
		return wt_op_umount(w, argv[1], 0);
	if (argc == 3 && !strcmp(argv[0], "umount"))
		return wt_op_umount(w, argv[2], WT_UMOUNT_DETACH);
	if (argc == 3 && !strcmp(argv[0], "chmod"))
		return wt_op_chmod(w, argv[2], (umode_t)strtoul(argv[1], NULL, 8));
	if (argc == 3 && !strcmp(argv[0], "chown")) {
		unsigned uid = 0, gid = 0;

		sscanf(argv[1], "%u:%u", &uid, &gid);
		return wt_op_chown(w, argv[2], uid, gid);
	}
	if (argc == 5 && !strcmp(argv[0], "ln") && !strcmp(argv[2], "--"))
		return wt_op_symlink(w, argv[3], argv[4]);	/* ln -s -- -x /l */
	if (argc == 5 && !strcmp(argv[0], "mount") && !strcmp(argv[1], "-t"))
		return wt_op_mount(w, argv[2], argv[3], argv[4]);
	if (argc == 7 && !strcmp(argv[0], "mount") && !strcmp(argv[3], "-o"))
		return wt_op_mount_flags(w, argv[2], argv[5], argv[6],
					 tg_mount_flags(argv[4]));
	if (argc == 4 && !strcmp(argv[0], "mount") && !strcmp(argv[1], "--move"))
		return wt_op_move_mount(w, argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[0], "mount") && !strcmp(argv[1], "-o"))
		return wt_op_remount(w, argv[3], strstr(argv[2], "bind") != NULL,
				     tg_mount_flags(argv[2]));
	if (argc == 6 && !strcmp(argv[0], "mount") && !strcmp(argv[2], "-o"))
		return wt_op_bind_flags(w, argv[4], argv[5], false,
					tg_mount_flags(argv[3]));
	if (argc == 4 && !strcmp(argv[0], "mount"))
		return wt_op_bind(w, argv[2], argv[3], !strcmp(argv[1], "--rbind"));
	return -ENOSYS;
}

/*
 * Build the whole tree.  The generator's picture of the tree is rough
 * (binds copy it approximately, renames and removals are not followed),
 * so a line the sim refuses is dropped from the tree file, keeping its
 * answer in orig_err: the kernel comparison checks that the kernel
 * refuses it the same way.
 */
static int tg_build(struct wt_world *w, struct tg_tree *t, unsigned *bad)
{
	unsigned n = 0;

	t->norig = t->nlines;
	for (unsigned i = 0; i < t->nlines; i++) {
		int err = tg_apply(w, t->lines[i]);

		memcpy(t->orig[i], t->lines[i], TG_LINE_MAX);
		t->orig_err[i] = err;
		if (err == -ENOSYS) {
			*bad = i;
			return err;	/* a line the applier does not know */
		}
		if (err)
			continue;
		if (n != i)
			memcpy(t->lines[n], t->lines[i], TG_LINE_MAX);
		n++;
	}
	t->nlines = n;
	return 0;
}

static void tg_print(const struct tg_tree *t, FILE *f)
{
	for (unsigned i = 0; i < t->nlines; i++)
		fprintf(f, "%s\n", t->lines[i]);
}

#endif /* WT_TESTS_TREEGEN_H */

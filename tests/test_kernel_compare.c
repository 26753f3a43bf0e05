/* SPDX-License-Identifier: MIT */
/*
 * The model against the real kernel: random trees (tests/treegen.h) are
 * built twice -- as a tree file for `walktorture lookup`, and for real,
 * with syscalls, on a tmpfs in a private mount namespace (unshare, a
 * private /, chroot) -- and every generated path is resolved by both, as
 * root and as uid 1000 (setresuid in a forked child), following and not
 * following a trailing symlink, and with some RESOLVE_* flags (openat2
 * on the kernel side).  The answers must agree: the errno, and on success
 * the file type, which created object it is (the kernel's device and inode
 * numbers mapped back to the creating command's path, as `walktorture
 * lookup` names it), and the path where the mount holding it is attached
 * (statx's mount id, through /proc/self/mountinfo).  Any difference fails
 * with the tree, the path and both answers.
 *
 * Every generated writer line is also run in the kernel, those the model
 * refused too, and must get the model's errno: the tree file holds only
 * the lines the model accepted, so the two trees are the same.  Writer
 * disagreements already reported (sim/ops error precedence, kc_known) are
 * counted and printed with `!!!`, and fail only with WT_KC_STRICT=1; a
 * line only one side accepted ends that tree's comparison.
 *
 * When the command line has no `lookup` yet, the walk engine is asked
 * in-process (filename_lookup on the same tree) instead.
 *
 * Some modes start elsewhere (a directory of the tree that resolves,
 * drawn from the seed): from a dirfd (lookup --at; openat2/statx with a
 * dirfd opened as root), from a cwd (--cwd; chdir) or under a chroot
 * (--root and --cwd; chroot and chdir("/")), with every other query made
 * relative; and some open
 * the result for real (lookup --open; openat2 without O_PATH: the
 * open's own permission check, O_NOFOLLOW's ELOOP, O_DIRECTORY); two
 * walk as uid 1000 in the supplementary group 0 (lookup --groups 0;
 * setgroups).
 *
 * Besides the random trees, a table of hand-written cases (kc_cases)
 * pins down differences found before, each one a tree, some writer
 * lines whose errno must match and some paths: the length limit that
 * belongs to the filesystem (proc: ENOENT), tmpfs's uncached negative
 * dentries (RESOLVE_CACHED: EAGAIN), `ln -s ''`, `umount /` under a
 * mount on the root, link's error order, creating in proc, read-only
 * mounts (mount --bind -o ro, mount -o remount[,bind],ro|rw: EROFS from
 * writers and from opens that write).
 *
 * And proc's processes (proc_processes_agree): real helper processes
 * with other uids, gids and dumpable flags against the model's
 * `proc-task` lines, their magic links followed as root and as uid 1000
 * (the ptrace-style check, its EACCES before RESOLVE_NO_MAGICLINKS'
 * ELOOP), and the querier's own /proc/self.  And open(O_CREAT) on
 * read-only mounts (creat_on_readonly_mounts), each mode on a fresh tree
 * on both sides, as creating changes it.
 *
 * Needs root and unshare(CLONE_NEWNS); skipped with the reason otherwise.
 * WT_KC_SEEDS=N WT_KC_FIRST=S run a longer hunt.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "core/namei.h"
#include "sim/ns.h"
#include "sim/ops.h"
#include "sim/resolve.h"
#include "sim/vfs/world.h"
#include "tests/treegen.h"
#include "tests/test_cli_path.h"

#ifndef ST_NOSYMFOLLOW
#define ST_NOSYMFOLLOW	8192
#endif
#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW	256
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#define KC_RESOLVE_NO_XDEV	0x01
#define KC_RESOLVE_NO_MAGICLINKS 0x02
#define KC_RESOLVE_NO_SYMLINKS	0x04
#define KC_RESOLVE_BENEATH	0x08
#define KC_RESOLVE_IN_ROOT	0x10
#define KC_RESOLVE_CACHED	0x20

struct kc_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

/* WT_KC_SEEDS=N for a longer hunt.  Under a sanitizer every one of the
 * ~29 x 32 lookup runs is an instrumented process: fewer seeds keep the
 * test near its release time (the walk engine is the same code). */
#if defined(WT_TSAN) || defined(WT_ASAN)
#define KC_SEEDS	6
#else
#define KC_SEEDS	24
#endif
#define KC_QUERIES	50
#define KC_STR		512	/* a path with a name over 255 bytes */
#define KC_SKIP		77
#define KC_LINE_FAILED	3

enum kc_start { KC_FROM_CWD, KC_AT, KC_CWD, KC_ROOT };

struct kc_mode {
	unsigned uid;
	bool nofollow;
	const char *resolve;		/* walktorture lookup --resolve */
	uint64_t resolve_bits;		/* openat2's */
	enum kc_start start;		/* where relative paths begin */
	const char *open;		/* walktorture lookup --open */
	uint64_t open_bits;		/* openat2's flags (no O_PATH) */
	bool group0;			/* uid 1000 in supplementary group 0 */
};

static const struct kc_mode kc_modes[] = {
	{ 0, false, NULL, 0, KC_FROM_CWD, NULL, 0, false },
	{ 0, true, NULL, 0, KC_FROM_CWD, NULL, 0, false },
	{ 1000, false, NULL, 0, KC_FROM_CWD, NULL, 0, false },
	{ 1000, true, NULL, 0, KC_FROM_CWD, NULL, 0, false },
	{ 0, false, "no-xdev", KC_RESOLVE_NO_XDEV, KC_FROM_CWD, NULL, 0, false },
	{ 1000, false, "beneath", KC_RESOLVE_BENEATH, KC_FROM_CWD, NULL, 0, false },
	{ 0, false, "in-root", KC_RESOLVE_IN_ROOT, KC_FROM_CWD, NULL, 0, false },
	{ 0, true, "no-symlinks", KC_RESOLVE_NO_SYMLINKS, KC_FROM_CWD, NULL, 0, false },
	{ 0, false, "no-symlinks", KC_RESOLVE_NO_SYMLINKS, KC_FROM_CWD, NULL, 0, false },
	{ 0, false, "cached", KC_RESOLVE_CACHED, KC_FROM_CWD, NULL, 0, false },
	{ 1000, false, "cached", KC_RESOLVE_CACHED, KC_FROM_CWD, NULL, 0, false },
	{ 0, true, "cached", KC_RESOLVE_CACHED, KC_FROM_CWD, NULL, 0, false },
	{ 0, false, "no-magiclinks", KC_RESOLVE_NO_MAGICLINKS, KC_FROM_CWD, NULL, 0, false },
	{ 0, true, "in-root", KC_RESOLVE_IN_ROOT, KC_FROM_CWD, NULL, 0, false },
	{ 1000, false, "no-xdev,beneath", KC_RESOLVE_NO_XDEV | KC_RESOLVE_BENEATH, KC_FROM_CWD, NULL, 0, false },
	{ 0, false, NULL, 0, KC_AT, NULL, 0, false },
	{ 1000, true, NULL, 0, KC_AT, NULL, 0, false },
	{ 0, false, "beneath", KC_RESOLVE_BENEATH, KC_AT, NULL, 0, false },
	{ 1000, false, "in-root", KC_RESOLVE_IN_ROOT, KC_AT, NULL, 0, false },
	{ 0, true, "no-xdev,in-root", KC_RESOLVE_NO_XDEV | KC_RESOLVE_IN_ROOT, KC_AT, NULL, 0, false },
	{ 1000, false, NULL, 0, KC_CWD, NULL, 0, false },
	{ 0, false, NULL, 0, KC_ROOT, NULL, 0, false },
	{ 1000, false, NULL, 0, KC_ROOT, NULL, 0, false },
	{ 1000, false, NULL, 0, KC_FROM_CWD, "O_RDONLY", O_RDONLY, false },
	{ 0, true, NULL, 0, KC_FROM_CWD, "O_RDONLY", O_RDONLY, false },
	{ 1000, false, "beneath", KC_RESOLVE_BENEATH, KC_AT, "O_RDONLY,O_DIRECTORY",
	  O_RDONLY | O_DIRECTORY, false },
	{ 1000, false, NULL, 0, KC_CWD, "O_WRONLY", O_WRONLY, false },
	{ 1000, false, NULL, 0, KC_FROM_CWD, NULL, 0, true },
	{ 1000, false, NULL, 0, KC_FROM_CWD, "O_RDWR", O_RDWR, true },
	/* writes on read-only mounts: EROFS after may_open (root passes it),
	 * a truncate's EROFS before its EACCES */
	{ 0, false, NULL, 0, KC_FROM_CWD, "O_WRONLY", O_WRONLY, false },
	{ 1000, false, NULL, 0, KC_FROM_CWD, "O_RDONLY,O_TRUNC", O_RDONLY | O_TRUNC, false },
};
#define KC_NMODES (sizeof(kc_modes) / sizeof(kc_modes[0]))

struct kc_answer {
	char result[24];		/* "ok" or the errno name */
	char type[12];
	char object[KC_STR];
	char mount[KC_STR];
};

/* Shared with the kernel-side children (MAP_SHARED). */
struct kc_shared {
	char msg[512];
	char start[KC_STR];		/* the start modes' directory */
	/* writer lines the kernel answered otherwise (see kc_known) */
	unsigned known[8];		/* per kc_known entry */
	unsigned unknown;
	char unknown_msg[1024];
	bool diverged;			/* the trees differ from then on */
	struct kc_answer ans[KC_NMODES][KC_QUERIES];
};

/*
 * Writer operations the model answers otherwise than the kernel, already
 * reported (sim/ops, not the walk engine): each is counted and printed,
 * and fails the test only under WT_KC_STRICT=1.  Anything else fails.
 */
struct kc_known {
	const char *verb;
	int kernel;
	int model;
	const char *why;
};

static const struct kc_known kc_known[] = {
	{ "mv", -EBUSY, -ENOTEMPTY, "rename onto a non-empty mountpoint: "
	  "vfs_rename's is_local_mountpoint EBUSY comes before the "
	  "filesystem's ENOTEMPTY" },
	{ "mount", -ENOENT, 0, "mount on a directory removed while it was a "
	  "bind mount's root: lock_mount refuses it (cant_mount, ENOENT)" },
};
#define KC_NKNOWN (sizeof(kc_known) / sizeof(kc_known[0]))

/*
 * The path a mode resolves for query q: a start mode makes every other
 * query relative (to its dirfd, cwd or root), so both kinds are asked.
 */
static const char *kc_start_path(enum kc_start start, unsigned q,
				 const char *path)
{
	if (start != KC_FROM_CWD && q % 2 == 1)
		while (*path == '/' && path[1])
			path++;
	return path;
}

static const char *kc_mode_path(unsigned mode, unsigned q, const char *path)
{
	return kc_start_path(kc_modes[mode].start, q, path);
}

/* ------------------------------------------------------------------ */
/* the kernel side (in a child with its own mount namespace)            */

#define KC_MAX_OBJS	(TG_MAX_LINES + 8)
#define KC_MAX_MOUNTS	256

struct kc_obj {
	dev_t dev;
	ino_t ino;
	char path[KC_STR];
};

struct kc_mnt {
	uint64_t id;
	char point[KC_STR];
};

static struct kc_obj kc_objs[KC_MAX_OBJS];
static unsigned kc_nobjs;
static struct kc_mnt kc_mnts[KC_MAX_MOUNTS];
static unsigned kc_nmnts;

/* The creating path as the model names it: no duplicate or trailing '/'. */
static void kc_normalise(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; *in && n + 1 < size; in++)
		if (*in != '/' || !n || out[n - 1] != '/')
			out[n++] = *in;
	if (n > 1 && out[n - 1] == '/')
		n--;
	out[n] = '\0';
}

static void kc_origin(const char *path, const char *prefix, bool follow)
{
	char norm[KC_STR];
	struct stat st;

	if ((follow ? stat(path, &st) : lstat(path, &st)) || kc_nobjs >= KC_MAX_OBJS)
		return;
	for (unsigned i = 0; i < kc_nobjs; i++)
		if (kc_objs[i].dev == st.st_dev && kc_objs[i].ino == st.st_ino)
			return;		/* the first name is the object's */
	kc_objs[kc_nobjs].dev = st.st_dev;
	kc_objs[kc_nobjs].ino = st.st_ino;
	kc_normalise(path, norm, sizeof(norm));
	tg_snprintf(kc_objs[kc_nobjs++].path, KC_STR, "%s%s", prefix, norm);
}

/*
 * A new tmpfs at path: an unmounted one's device number is reused, and
 * its inode numbers start again, so what we knew of that device is
 * forgotten first.
 */
static void kc_new_fs(const char *path, const char *name)
{
	struct stat st;
	unsigned n = 0;

	if (stat(path, &st))
		return;
	for (unsigned i = 0; i < kc_nobjs; i++)
		if (kc_objs[i].dev != st.st_dev)
			kc_objs[n++] = kc_objs[i];
	kc_nobjs = n;
	if (kc_nobjs >= KC_MAX_OBJS)
		return;
	kc_objs[kc_nobjs].dev = st.st_dev;
	kc_objs[kc_nobjs].ino = st.st_ino;
	tg_snprintf(kc_objs[kc_nobjs++].path, KC_STR, "%s", name);
}

static int kc_words(char *line, char **argv, int max)
{
	int argc = 0;

	for (char *tok = strtok(line, " "); tok && argc < max;
	     tok = strtok(NULL, " "))
		argv[argc++] = tok;
	return argc;
}

/* mount -o's options as MS_* (ro, rw, nosymfollow, noexec, ...). */
static unsigned long kc_mount_flags(const char *opts)
{
	char buf[128], *save = NULL;
	unsigned long f = 0;

	tg_snprintf(buf, sizeof(buf), "%s", opts);
	for (char *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (!strcmp(o, "ro"))
			f |= MS_RDONLY;
		else if (!strcmp(o, "rw"))
			f &= ~(unsigned long)MS_RDONLY;
		else if (!strcmp(o, "nosymfollow"))
			f |= MS_NOSYMFOLLOW;
		else if (!strcmp(o, "noexec"))
			f |= MS_NOEXEC;
		else if (!strcmp(o, "nosuid"))
			f |= MS_NOSUID;
		else if (!strcmp(o, "nodev"))
			f |= MS_NODEV;
	}
	return f;
}

/* A mount's own flags (statvfs) as MS_*, for a bind remount keeping them. */
static unsigned long kc_statvfs_flags(const struct statvfs *sv)
{
	return ((sv->f_flag & ST_NOSYMFOLLOW) ? MS_NOSYMFOLLOW : 0) |
	       ((sv->f_flag & ST_NOEXEC) ? MS_NOEXEC : 0) |
	       ((sv->f_flag & ST_NOSUID) ? MS_NOSUID : 0) |
	       ((sv->f_flag & ST_NODEV) ? MS_NODEV : 0);
}

/* One tree line with syscalls; 0 or -errno. */
static int kc_apply(const char *text)
{
	char line[TG_LINE_MAX], *argv[8];
	int argc, fd;

	tg_snprintf(line, sizeof(line), "%s", text);
	argc = kc_words(line, argv, 8);
	if (argc == 4 && !strcmp(argv[0], "mkdir")) {
		mode_t mode = (mode_t)strtoul(argv[2], NULL, 8);

		if (mkdir(argv[3], mode) || chmod(argv[3], mode))
			return -errno;
		kc_origin(argv[3], "", false);
	} else if (argc == 2 && !strcmp(argv[0], "touch")) {
		struct stat st;

		/* sim/tree's touch keeps whatever exists -- a directory, and a
		 * symlink too, which touch(1) would follow (creating a dangling
		 * link's target): do as the model does */
		if (!lstat(argv[1], &st))
			return 0;
		fd = open(argv[1], O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return -errno;
		close(fd);
		kc_origin(argv[1], "", false);
	} else if (argc == 5 && !strcmp(argv[0], "ln") && !strcmp(argv[2], "--")) {
		if (symlink(argv[3], argv[4]))	/* a target beginning with '-' */
			return -errno;
		kc_origin(argv[4], "", false);
	} else if (argc == 4 && !strcmp(argv[0], "mount") && !strcmp(argv[1], "-o")) {
		/* mount -o remount[,bind],ro|rw PATH: the flags given, exactly */
		unsigned long f = MS_REMOUNT | kc_mount_flags(argv[2]) |
				  (strstr(argv[2], "bind") ? MS_BIND : 0);

		if (mount(NULL, argv[3], NULL, f, NULL))
			return -errno;
	} else if (argc == 6 && !strcmp(argv[0], "mount") && !strcmp(argv[2], "-o")) {
		/* mount --bind -o ro SRC DST: bind, then a bind remount with
		 * the new mount's flags (the source's, copied) plus ro, as
		 * libmount does */
		struct statvfs sv;

		if (mount(argv[4], argv[5], NULL, MS_BIND, NULL))
			return -errno;
		if (statvfs(argv[5], &sv))
			return -errno;
		if (mount(NULL, argv[5], NULL, MS_REMOUNT | MS_BIND |
			  kc_mount_flags(argv[3]) | kc_statvfs_flags(&sv), NULL))
			return -errno;
	} else if (argc == 7 && !strcmp(argv[0], "mount") && !strcmp(argv[3], "-o")) {
		unsigned long f = kc_mount_flags(argv[4]) |
				  (strstr(argv[4], "noexec") ? MS_NOEXEC : 0) |
				  (strstr(argv[4], "nosuid") ? MS_NOSUID : 0) |
				  (strstr(argv[4], "nodev") ? MS_NODEV : 0);
		char name[KC_STR];

		if (mount(argv[5], argv[6], argv[2], f, NULL))
			return -errno;
		kc_normalise(argv[6], name + 7, sizeof(name) - 7);
		memcpy(name, "fsroot:", 7);
		kc_new_fs(argv[6], name);
	} else if (argc == 4 && !strcmp(argv[0], "ln")) {
		if (symlink(strcmp(argv[2], "''") ? argv[2] : "", argv[3]))
			return -errno;
		kc_origin(argv[3], "", false);
	} else if (argc == 3 && !strcmp(argv[0], "ln")) {
		if (link(argv[1], argv[2]))	/* linkat(0): not following */
			return -errno;
	} else if (argc == 3 && !strcmp(argv[0], "mv")) {
		if (rename(argv[1], argv[2]))
			return -errno;
	} else if (argc == 2 && !strcmp(argv[0], "rm")) {
		if (unlink(argv[1]))
			return -errno;
	} else if (argc == 2 && !strcmp(argv[0], "rmdir")) {
		if (rmdir(argv[1]))
			return -errno;
	} else if (argc >= 2 && !strcmp(argv[0], "umount")) {
		if (umount2(argv[argc - 1], argc == 3 ? MNT_DETACH : 0))
			return -errno;
	} else if (argc == 4 && !strcmp(argv[0], "mount") &&
		   !strcmp(argv[1], "--move")) {
		if (mount(argv[2], argv[3], NULL, MS_MOVE, NULL))
			return -errno;
	} else if (argc == 3 && !strcmp(argv[0], "chmod")) {
		if (chmod(argv[2], (mode_t)strtoul(argv[1], NULL, 8)))
			return -errno;
	} else if (argc == 3 && !strcmp(argv[0], "chown")) {
		unsigned uid = 0, gid = 0;

		sscanf(argv[1], "%u:%u", &uid, &gid);
		if (chown(argv[2], uid, gid))
			return -errno;
	} else if (argc == 5 && !strcmp(argv[0], "mount") &&
		   !strcmp(argv[2], "proc")) {
		if (mount("proc", argv[4], "proc", 0, NULL))
			return -errno;
	} else if (argc == 5 && !strcmp(argv[0], "mount")) {
		char name[KC_STR];

		if (mount(argv[3], argv[4], "tmpfs", 0, NULL))
			return -errno;
		/* "/" itself does not cross what is mounted on it; "/.." does */
		kc_normalise(argv[4], name + 7, sizeof(name) - 7);
		memcpy(name, "fsroot:", 7);
		kc_new_fs(strcmp(argv[4], "/") ? argv[4] : "/..", name);
	} else if (argc == 4 && !strcmp(argv[0], "mount")) {
		unsigned long f = MS_BIND | (!strcmp(argv[1], "--rbind") ? MS_REC : 0);

		if (mount(argv[2], argv[3], NULL, f, NULL))
			return -errno;
	} else {
		return -EINVAL;
	}
	return 0;
}

/* /proc/self/mountinfo: mount id -> mount point (relative to our root). */
static void kc_read_mounts(int procfd)
{
	int fd = openat(procfd, "self/mountinfo", O_RDONLY);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char line[1024];

	kc_nmnts = 0;
	while (f && fgets(line, sizeof(line), f) && kc_nmnts < KC_MAX_MOUNTS) {
		unsigned long long id, parent;
		char devs[64], root[KC_STR], point[KC_STR];

		if (sscanf(line, "%llu %llu %63s %511s %511s", &id, &parent, devs,
			   root, point) != 5)
			continue;
		kc_mnts[kc_nmnts].id = id;
		tg_snprintf(kc_mnts[kc_nmnts++].point, KC_STR, "%s", point);
	}
	if (f)
		fclose(f);
}

static const char *kc_type(mode_t mode)
{
	if (S_ISDIR(mode))
		return "dir";
	if (S_ISREG(mode))
		return "file";
	if (S_ISLNK(mode))
		return "symlink";
	return "other";
}

static void kc_fill(struct kc_answer *a, const struct statx *stx)
{
	dev_t dev = makedev(stx->stx_dev_major, stx->stx_dev_minor);

	tg_snprintf(a->result, sizeof(a->result), "ok");
	tg_snprintf(a->type, sizeof(a->type), "%s", kc_type(stx->stx_mode));
	tg_snprintf(a->object, sizeof(a->object), "?dev=%u:%u,ino=%llu",
		 major(dev), minor(dev), (unsigned long long)stx->stx_ino);
	for (unsigned i = 0; i < kc_nobjs; i++)
		if (kc_objs[i].dev == dev && kc_objs[i].ino == stx->stx_ino)
			tg_snprintf(a->object, sizeof(a->object), "%s", kc_objs[i].path);
	tg_snprintf(a->mount, sizeof(a->mount), "?mnt_id=%llu",
		 (unsigned long long)stx->stx_mnt_id);
	for (unsigned i = 0; i < kc_nmnts; i++)
		if (kc_mnts[i].id == stx->stx_mnt_id)
			tg_snprintf(a->mount, sizeof(a->mount), "%s", kc_mnts[i].point);
}

/*
 * mount_lock and rename_lock are the whole machine's: a mount or a
 * rename anywhere, in any namespace, while a walk runs can make the
 * kernel answer EAGAIN where nothing in our namespace changed -- and
 * Criterion runs this file's tests side by side, each building its trees
 * with mounts in a namespace of its own (ctest -j adds other tests).  RESOLVE_CACHED answers EAGAIN whenever its
 * RCU-walk cannot finish (legitimize_mnt fails on the moved mount_lock),
 * and RESOLVE_BENEATH / RESOLVE_IN_ROOT answer it when either seqlock
 * moved across a "..".  Neither changes the dcache (a cached lookup
 * never fills it), so an EAGAIN that is our namespace's own comes back
 * on every try, and one that is another process's does not: such a
 * query is asked again, a few times.
 */
#define KC_EAGAIN_TRIES	8
#define KC_EAGAIN_RESOLVE (KC_RESOLVE_CACHED | KC_RESOLVE_BENEATH | \
			   KC_RESOLVE_IN_ROOT)

static void kc_resolve(const struct kc_mode *m, int dirfd, const char *path,
		       struct kc_answer *a)
{
	unsigned mask = STATX_TYPE | STATX_INO | STATX_MNT_ID;
	unsigned tries = m->resolve_bits & KC_EAGAIN_RESOLVE ? KC_EAGAIN_TRIES : 1;
	struct statx stx;
	int err = 0;

again:
	err = 0;
	if (m->resolve || m->open) {
		struct kc_open_how how = {
			.flags = (m->open ? m->open_bits : O_PATH) | O_CLOEXEC |
				 (m->nofollow ? O_NOFOLLOW : 0),
			/* lookup --open O_CREAT's default mode */
			.mode = (m->open_bits & O_CREAT) ? 0644 : 0,
			.resolve = m->resolve_bits,
		};
		int fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

		if (fd < 0)
			err = errno;
		else if (statx(fd, "", AT_EMPTY_PATH, mask, &stx))
			err = errno;
		if (fd >= 0)
			close(fd);
	} else if (statx(dirfd, path, m->nofollow ? AT_SYMLINK_NOFOLLOW : 0,
			 mask, &stx)) {
		err = errno;
	}
	if (err == EAGAIN && --tries)
		goto again;
	memset(a, 0, sizeof(*a));
	if (err)
		tg_snprintf(a->result, sizeof(a->result), "%s", wt_errno_name(-err));
	else
		kc_fill(a, &stx);
}

static void kc_queries(unsigned mode, int dirfd, char (*paths)[KC_STR],
		       unsigned n, struct kc_shared *sh)
{
	for (unsigned q = 0; q < n; q++)
		kc_resolve(&kc_modes[mode], dirfd, kc_mode_path(mode, q, paths[q]),
			   &sh->ans[mode][q]);
}

/*
 * In a child of our own: the start directory set up as root (a dirfd
 * opened, a chdir, a chroot), then as uid/gid 1000 with no groups when
 * the mode says so.  The parent's cwd and root stay as they were.
 */
static int kc_queries_as(unsigned mode, char (*paths)[KC_STR], unsigned n,
			 struct kc_shared *sh)
{
	const struct kc_mode *m = &kc_modes[mode];
	unsigned uid = m->uid;
	int dirfd = AT_FDCWD;
	pid_t pid;
	int status;

	if (!uid && m->start == KC_FROM_CWD) {
		kc_queries(mode, AT_FDCWD, paths, n, sh);
		return 0;
	}
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (m->start == KC_AT) {
			dirfd = open(sh->start, O_PATH | O_DIRECTORY);
			if (dirfd < 0)
				_exit(2);
		} else if (m->start == KC_CWD && chdir(sh->start)) {
			_exit(2);
		} else if (m->start == KC_ROOT &&
			   (chroot(sh->start) || chdir("/"))) {
			_exit(2);	/* chroot DIR, as a shell's: the cwd too */
		}
		gid_t group0 = 0;

		if (uid && (setgroups(m->group0 ? 1 : 0, &group0) ||
			    setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
			_exit(1);
		kc_queries(mode, dirfd, paths, n, sh);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -ECHILD;
	return 0;
}

/* A writer line answered otherwise; true when the trees now differ. */
static bool kc_writer_differs(struct kc_shared *sh, unsigned i,
			      const struct tg_tree *t, int err)
{
	int model = t->orig_err[i];
	size_t n = strlen(sh->unknown_msg);
	unsigned k;

	for (k = 0; k < KC_NKNOWN; k++)
		if (!strncmp(t->orig[i], kc_known[k].verb, strlen(kc_known[k].verb)) &&
		    t->orig[i][strlen(kc_known[k].verb)] == ' ' &&
		    kc_known[k].kernel == err && kc_known[k].model == model)
			break;
	if (k < KC_NKNOWN) {
		sh->known[k]++;
	} else {
		sh->unknown++;
		tg_snprintf(sh->unknown_msg + n, sizeof(sh->unknown_msg) - n,
			 "generated line %u '%s': kernel %s, model %s\n", i + 1,
			 t->orig[i], err ? wt_errno_name(err) : "ok",
			 model ? wt_errno_name(model) : "ok");
	}
	/* both refused: the same tree either way */
	sh->diverged = !err || !model;
	return sh->diverged;
}

static int kc_child(const char *dir, const struct tg_tree *t,
		    char (*paths)[KC_STR], unsigned n, struct kc_shared *sh)
{
	int procfd;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		tg_snprintf(sh->msg, sizeof(sh->msg), "unshare -m: %s", strerror(errno));
		return KC_SKIP;
	}
	if (mount("wtkc", dir, "tmpfs", 0, "mode=0755")) {
		tg_snprintf(sh->msg, sizeof(sh->msg), "mount tmpfs: %s", strerror(errno));
		return KC_SKIP;
	}
	procfd = open("/proc", O_DIRECTORY | O_RDONLY);
	if (procfd < 0 || chdir(dir) || chroot(".") || chdir("/")) {
		tg_snprintf(sh->msg, sizeof(sh->msg), "chroot: %s", strerror(errno));
		return KC_SKIP;
	}
	umask(0);
	kc_nobjs = 0;
	kc_origin("/", "", false);
	/* every generated line, also those the model refused: the kernel
	 * must answer each the same way */
	for (unsigned i = 0; i < t->norig; i++) {
		int err = kc_apply(t->orig[i]);

		if (err != t->orig_err[i] && kc_writer_differs(sh, i, t, err))
			return KC_LINE_FAILED;
	}
	kc_read_mounts(procfd);
	for (unsigned m = 0; m < KC_NMODES; m++)
		if (kc_queries_as(m, paths, n, sh))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* the model's side: walktorture lookup                                 */

static char kc_cli[PATH_MAX];

/* The string value of "key" in one JSON line ("" when absent). */
static void kc_json_str(const char *line, const char *key, char *out,
			size_t size)
{
	char pat[40];
	const char *p;
	size_t n = 0;

	out[0] = '\0';
	tg_snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(line, pat);
	if (!p)
		return;
	p += strlen(pat);
	while (*p == ' ' || *p == ':')
		p++;
	if (*p++ != '"')
		return;
	for (; *p && *p != '"' && n + 1 < size; p++) {
		if (*p == '\\' && p[1])
			p++;
		out[n++] = *p;
	}
	out[n] = '\0';
}

/* Run walktorture lookup for mode m over every path (as process pid
 * when not NULL); 0, or the exit status with the first lines of its
 * output in msg. */
static int kc_model_as(const char *tree, const char *start,
		       const struct kc_mode *m, const char *pid,
		       char (*paths)[KC_STR], unsigned n, struct kc_answer *ans,
		       char *msg, size_t msize)
{
	static const char *const start_opt[] = {
		[KC_AT] = "--at", [KC_CWD] = "--cwd", [KC_ROOT] = "--root",
	};
	char *argv[KC_QUERIES + 18];
	int argc = 0, pipefd[2], status;
	posix_spawn_file_actions_t fa;
	char line[2048];
	unsigned q = 0;
	pid_t child;
	FILE *f;

	argv[argc++] = kc_cli;
	argv[argc++] = "lookup";
	argv[argc++] = "--tree";
	argv[argc++] = (char *)tree;
	if (m->uid) {
		argv[argc++] = "--uid";
		argv[argc++] = "1000";
		argv[argc++] = "--gid";
		argv[argc++] = "1000";
	}
	if (m->nofollow)
		argv[argc++] = "--nofollow";
	if (m->resolve) {
		argv[argc++] = "--resolve";
		argv[argc++] = (char *)m->resolve;
	}
	if (m->open) {
		argv[argc++] = "--open";
		argv[argc++] = (char *)m->open;
	}
	if (m->group0) {
		argv[argc++] = "--groups";
		argv[argc++] = "0";
	}
	if (m->start != KC_FROM_CWD) {
		argv[argc++] = (char *)start_opt[m->start];
		argv[argc++] = (char *)start;
	}
	if (m->start == KC_ROOT) {
		argv[argc++] = "--cwd";
		argv[argc++] = (char *)start;
	}
	if (pid) {
		argv[argc++] = "--pid";
		argv[argc++] = (char *)pid;
	}
	for (unsigned i = 0; i < n; i++)
		argv[argc++] = (char *)kc_start_path(m->start, i, paths[i]);
	argv[argc] = NULL;
	if (pipe(pipefd)) {
		tg_snprintf(msg, msize, "pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	if ((errno = posix_spawn(&child, kc_cli, &fa, NULL, argv, environ))) {
		tg_snprintf(msg, msize, "posix_spawn: %s", strerror(errno));
		posix_spawn_file_actions_destroy(&fa);
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	f = fdopen(pipefd[0], "r");
	msg[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] != '{') {
			if (strlen(msg) + strlen(line) + 1 < msize)
				strcat(msg, line);
			continue;
		}
		if (q >= n)
			continue;
		kc_json_str(line, "result", ans[q].result, sizeof(ans[q].result));
		kc_json_str(line, "type", ans[q].type, sizeof(ans[q].type));
		kc_json_str(line, "object", ans[q].object, sizeof(ans[q].object));
		kc_json_str(line, "mount", ans[q].mount, sizeof(ans[q].mount));
		q++;
	}
	if (f)
		fclose(f);
	if (waitpid(child, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	if (WEXITSTATUS(status) > 1 || q != n)
		return WEXITSTATUS(status) ? WEXITSTATUS(status) : -1;
	return 0;
}

static int kc_model(const char *tree, const char *start, unsigned mode,
		    char (*paths)[KC_STR], unsigned n, struct kc_answer *ans,
		    char *msg, size_t msize)
{
	return kc_model_as(tree, start, &kc_modes[mode], NULL, paths, n, ans,
			   msg, msize);
}

/*
 * The same answers from the walk engine in this process, for when the
 * command line has no lookup yet: filename_lookup on a world built from
 * the tree, the inode's creating path, the attach path of its mount.
 */
static void kc_dentry_path(const struct wt_ns *ns, uint64_t root, uint64_t d,
			   char *out, size_t size)
{
	const char *names[64];
	unsigned n = 0;
	size_t len = 0;

	for (unsigned k = 0; k < 64 && d != root; k++) {
		const struct wt_dentry_fact *f = wt_ns_dentry(ns, d);

		if (!f || f->parent == f->id)
			break;
		names[n++] = f->name;
		d = f->parent;
	}
	out[0] = '\0';
	while (n--)
		len += (size_t)snprintf(out + len, len < size ? size - len : 0,
					"/%s", names[n]);
}

static void kc_mount_path(const struct wt_ns *ns, uint64_t mnt, char *out,
			  size_t size)
{
	static char parts[64][KC_STR];
	char rel[KC_STR];
	unsigned n = 0;
	size_t len = 0;

	for (unsigned k = 0; k < 64; k++) {
		const struct wt_mount_fact *m = wt_ns_mount(ns, mnt);

		if (!m || m->parent == m->id)
			break;
		kc_dentry_path(ns, wt_ns_mount_root(ns, m->parent), m->mountpoint,
			       rel, sizeof(rel));
		tg_snprintf(parts[n++], KC_STR, "%s", rel);
		mnt = m->parent;
	}
	out[0] = '\0';
	while (n--)
		len += (size_t)snprintf(out + len, len < size ? size - len : 0,
					"%s", parts[n]);
	if (!out[0])
		tg_snprintf(out, size, "/");
}

static int kc_model_inproc(const struct tg_tree *t, unsigned mode,
			   char (*paths)[KC_STR], unsigned n,
			   struct kc_answer *ans)
{
	const struct kc_mode *m = &kc_modes[mode];
	struct wt_world *w = wt_ops_world_create_fs(1, "tmpfs");
	unsigned flags = (m->nofollow ? 0 : LOOKUP_FOLLOW) |
			 wt_resolve_lookup_flags(m->resolve_bits);
	struct wt_task task;
	struct wt_walker wk = { .task = &task };
	unsigned bad;
	struct wt_ns *ns;

	int err;

	if (!w)
		return -1;
	err = tg_build(w, (struct tg_tree *)t, &bad);
	if (err) {
		cr_log_error("in-process rebuild: line %u '%s': %s", bad + 1,
			     t->lines[bad], wt_errno_name(err));
		wt_ops_world_destroy(w);
		return -1;
	}
	ns = wt_ns_from_world(w);
	wt_task_init(&task, w, m->uid, m->uid);
	for (unsigned q = 0; q < n; q++) {
		struct path p;
		int e = filename_lookup(&wk, NULL, paths[q], flags, &p, NULL);
		struct kc_answer *a = &ans[q];

		memset(a, 0, sizeof(*a));
		if (e) {
			tg_snprintf(a->result, sizeof(a->result), "%s", wt_errno_name(e));
			continue;
		}
		tg_snprintf(a->result, sizeof(a->result), "ok");
		tg_snprintf(a->type, sizeof(a->type), "%s",
			 kc_type(p.dentry->d_inode->i_mode));
		tg_snprintf(a->object, sizeof(a->object), "%s",
			 wt_inode_origin(w, p.dentry->d_inode->wt.id) ?
			 wt_inode_origin(w, p.dentry->d_inode->wt.id) : "?");
		kc_mount_path(ns, real_mount(p.mnt)->wt.id, a->mount,
			      sizeof(a->mount));
		path_put(&p);
	}
	wt_task_release(&task);
	wt_ns_destroy(ns);
	wt_ops_world_destroy(w);
	return 0;
}

/* ------------------------------------------------------------------ */

static bool kc_same(const struct kc_answer *k, const struct kc_answer *s)
{
	if (strcmp(k->result, s->result))
		return false;
	if (strcmp(k->result, "ok"))
		return true;
	return !strcmp(k->type, s->type) && !strcmp(k->object, s->object) &&
	       !strcmp(k->mount, s->mount);
}

__attribute__((noinline))
static void kc_describe(char *buf, size_t size, const struct kc_answer *a)
{
	if (strcmp(a->result, "ok"))
		tg_snprintf(buf, size, "%s", a->result);
	else
		tg_snprintf(buf, size, "ok %s object=%s mount=%s", a->type, a->object,
			 a->mount);
}

struct kc_run {
	uint64_t seed;
	struct tg_tree *tree;
	char (*paths)[KC_STR];
	unsigned npaths;
	char treefile[64];
	char dir[64];
	char start[KC_STR];		/* the start modes' directory */
	struct kc_shared *sh;
	struct kc_answer model[KC_QUERIES];
	unsigned compared;
	unsigned differences;
	unsigned inproc_noted;
	unsigned known[KC_NKNOWN];
	unsigned ok;			/* answers the kernel gave: ok, EACCES */
	unsigned eacces;
	unsigned erofs;
};

/*
 * The start modes' directory: one of the tree's directories that still
 * resolves to a directory (renames and unmounts may have moved it), drawn
 * from the seed; "/" when none does.
 */
static void kc_pick_start(struct kc_run *r, struct wt_world *w)
{
	const struct tg_tree *t = r->tree;

	tg_snprintf(r->start, sizeof(r->start), "/");
	for (unsigned k = 0; k < t->ndirs; k++) {
		const char *d = t->dirs[(r->seed + k) % t->ndirs];
		struct path p;

		if (!strcmp(d, "/") ||
		    wt_resolve(w, d, WT_RES_FOLLOW | WT_RES_DIRECTORY, &p))
			continue;
		wt_path_put(&p);
		tg_snprintf(r->start, sizeof(r->start), "%s", d);
		return;
	}
}

/* Build r->tree in the sim (dropping lines it refuses the kernel's way)
 * and write the tree file. */
static void kc_build_and_write(struct kc_run *r)
{
	struct wt_world *w = wt_ops_world_create_fs(r->seed, "tmpfs");
	unsigned bad = 0;
	int fd, err;
	FILE *f;

	cr_assert_not_null(w);
	err = tg_build(w, r->tree, &bad);
	if (!err)
		kc_pick_start(r, w);
	wt_ops_world_destroy(w);
	cr_assert_eq(err, 0, "seed %" PRIu64 ": line %u '%s': %s", r->seed,
		     bad + 1, r->tree->lines[bad], wt_errno_name(err));
	tg_snprintf(r->treefile, sizeof(r->treefile), "/tmp/wtkc-tree.XXXXXX");
	fd = mkstemp(r->treefile);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fprintf(f, "# walktorture kernel comparison, seed %" PRIu64 "\n", r->seed);
	tg_print(r->tree, f);
	fclose(f);
}

/* A random tree and random paths, from r->seed. */
static void kc_prepare(struct kc_run *r)
{
	tg_generate(r->tree, r->seed, 40);
	r->npaths = KC_QUERIES;
	for (unsigned q = 0; q < r->npaths; q++)
		tg_query(r->tree, r->paths[q], KC_STR);
	kc_build_and_write(r);
}

static int kc_kernel(struct kc_run *r)
{
	pid_t pid;
	int status;

	tg_snprintf(r->dir, sizeof(r->dir), "/tmp/wtkc-root.XXXXXX");
	cr_assert_not_null(mkdtemp(r->dir));
	memset(r->sh, 0, sizeof(*r->sh));
	tg_snprintf(r->sh->start, sizeof(r->sh->start), "%s", r->start);
	/* no Criterion call in the child: it would talk to the runner */
	pid = fork();
	if (pid == 0)
		_exit(kc_child(r->dir, r->tree, r->paths, r->npaths, r->sh));
	cr_assert_geq(pid, 0);
	cr_assert_geq(waitpid(pid, &status, 0), 0);
	rmdir(r->dir);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void kc_report(struct kc_run *r, unsigned mode, unsigned q)
{
	const struct kc_mode *m = &kc_modes[mode];
	char k[2 * KC_STR + 64], s[2 * KC_STR + 64];

	kc_describe(k, sizeof(k), &r->sh->ans[mode][q]);
	kc_describe(s, sizeof(s), &r->model[q]);
	if (!r->differences++) {
		fprintf(stderr, "!!! seed %" PRIu64 " tree (%s):\n", r->seed,
			r->treefile);
		tg_print(r->tree, stderr);
	}
	fprintf(stderr, "!!! seed %" PRIu64 " uid %u%s%s%s%s%s%s%s%s path '%s': "
		"kernel %s, walktorture %s\n", r->seed, m->uid,
		m->group0 ? " groups=0" : "",
		m->nofollow ? " nofollow" : "", m->resolve ? " resolve=" : "",
		m->resolve ? m->resolve : "", m->open ? " open=" : "",
		m->open ? m->open : "",
		m->start == KC_AT ? " at=" : m->start == KC_CWD ? " cwd=" :
		m->start == KC_ROOT ? " root=" : "",
		m->start != KC_FROM_CWD ? r->start : "",
		kc_mode_path(mode, q, r->paths[q]), k, s);
}

/* 0 when compared, KC_SKIP with a reason in *why, or a failure; the
 * tree and paths are ready (kc_prepare or a directed case). */
static int kc_compare(struct kc_run *r, char *why, size_t wsize)
{
	int status = kc_kernel(r);

	if (status == KC_SKIP) {
		tg_snprintf(why, wsize, "%s", r->sh->msg);
		unlink(r->treefile);
		return KC_SKIP;
	}
	for (unsigned k = 0; k < KC_NKNOWN; k++)
		r->known[k] += r->sh->known[k];
	if (r->sh->unknown) {
		r->differences += r->sh->unknown;
		fprintf(stderr, "!!! seed %" PRIu64 " tree (%s):\n", r->seed,
			r->treefile);
		tg_print(r->tree, stderr);
		fprintf(stderr, "!!! seed %" PRIu64 " %s", r->seed, r->sh->unknown_msg);
	}
	if (status == KC_LINE_FAILED) {
		unlink(r->treefile);
		return 0;	/* the trees differ from here on: no paths */
	}
	cr_assert_eq(status, 0, "seed %" PRIu64 ": the kernel side failed (%d): %s",
		     r->seed, status, r->sh->msg);
	for (unsigned m = 0; m < KC_NMODES; m++) {
		char msg[1024];
		int err;

		memset(r->model, 0, sizeof(r->model));
		err = kc_model(r->treefile, r->start, m, r->paths, r->npaths,
			       r->model, msg, sizeof(msg));
		if (err && strstr(msg, "unknown command")) {
			if (!r->inproc_noted++)
				cr_log_warn("walktorture has no lookup command yet: "
					    "comparing the walk engine in-process");
			err = kc_model_inproc(r->tree, m, r->paths, r->npaths,
					      r->model);
		}
		cr_assert_eq(err, 0, "seed %" PRIu64 ": walktorture lookup --tree %s "
			     "failed (%d): %s", r->seed, r->treefile, err, msg);
		for (unsigned q = 0; q < r->npaths; q++) {
			const char *res = r->sh->ans[m][q].result;

			r->compared++;
			r->ok += !strcmp(res, "ok");
			r->eacces += !strcmp(res, "EACCES");
			r->erofs += !strcmp(res, "EROFS");
			if (!kc_same(&r->sh->ans[m][q], &r->model[q]))
				kc_report(r, m, q);
		}
	}
	if (!r->differences)
		unlink(r->treefile);
	return 0;
}

static int kc_one(struct kc_run *r, char *why, size_t wsize)
{
	kc_prepare(r);
	return kc_compare(r, why, wsize);
}


/* A comparison's buffers (the shared page is written by the forked
 * kernel side); the test is skipped where the kernel side cannot run. */
static void kc_run_begin(struct kc_run *r)
{
	if (geteuid() != 0)
		cr_skip_test("not root: the kernel side needs unshare -m, mount and chroot");
	if (!wt_test_find_cli(kc_cli, sizeof(kc_cli)))
		cr_skip_test("no walktorture binary next to the tests (%s)", kc_cli);
	r->tree = calloc(1, sizeof(*r->tree));
	r->paths = calloc(KC_QUERIES, KC_STR);
	r->sh = mmap(NULL, sizeof(*r->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cr_assert(r->tree && r->paths && r->sh != MAP_FAILED);
}

/* Before each tree: its seed, and no answers counted yet. */
static void kc_run_reset(struct kc_run *r, uint64_t seed)
{
	r->seed = seed;
	r->compared = r->differences = 0;
	memset(r->known, 0, sizeof(r->known));
}

static void kc_run_end(struct kc_run *r)
{
	munmap(r->sh, sizeof(*r->sh));
	free(r->paths);
	free(r->tree);
}
Test(kernel, model_agrees_with_the_kernel, .timeout = 600)
{
	const char *env = getenv("WT_KC_SEEDS");
	const char *first_env = getenv("WT_KC_FIRST");
	unsigned seeds = env ? (unsigned)strtoul(env, NULL, 0) : KC_SEEDS;
	uint64_t first = first_env ? strtoull(first_env, NULL, 0) : 1;
	struct kc_run r = { 0 };
	unsigned compared = 0, differences = 0, failed_seeds = 0;
	unsigned known[KC_NKNOWN] = { 0 };
	char why[512] = "";

	kc_run_begin(&r);
	for (uint64_t seed = first; seed < first + seeds; seed++) {
		kc_run_reset(&r, seed);
		if (kc_one(&r, why, sizeof(why)) == KC_SKIP)
			cr_skip_test("%s", why);
		compared += r.compared;
		differences += r.differences;
		for (unsigned k = 0; k < KC_NKNOWN; k++)
			known[k] += r.known[k];
		failed_seeds += r.differences != 0;
	}
	printf("walktorture: kernel-compare seeds=%u answers=%u ok=%u eacces=%u "
	       "erofs=%u differences=%u seeds_with_differences=%u\n", seeds,
	       compared, r.ok, r.eacces, r.erofs, differences, failed_seeds);
	for (unsigned k = 0; k < KC_NKNOWN; k++) {
		if (!known[k])
			continue;
		printf("walktorture: kernel-compare known writer difference "
		       "'%s' kernel=%s model=%s times=%u !!! %s\n", kc_known[k].verb,
		       wt_errno_name(kc_known[k].kernel),
		       kc_known[k].model ? wt_errno_name(kc_known[k].model) : "ok",
		       known[k], kc_known[k].why);
		if (getenv("WT_KC_STRICT"))
			differences += known[k];
	}
	kc_run_end(&r);
	cr_assert_eq(differences, 0, "%u answers differ from the kernel's "
		     "(see the !!! lines)", differences);
}

/* ------------------------------------------------------------------ */
/* directed cases: differences found before, each pinned by a tree      */

#define KC_LONG_NAME	300	/* "@" in a case's path: this many 'x's */

struct kc_case {
	const char *what;
	const char *lines[10];
	const char *paths[8];
};

static const struct kc_case kc_cases[] = {
	{ "a name over 255 bytes: simple_lookup's ENAMETOOLONG, proc's ENOENT",
	  { "mkdir -m 0755 /d", "mkdir -m 0755 /p", "mount -t proc p /p" },
	  { "/d/@", "/p/@", "/d/@/x", "/p/@/x", "/@" } },
	{ "tmpfs keeps no negative dentry: RESOLVE_CACHED misses (EAGAIN)",
	  { "mkdir -m 0755 /d", "touch /d/f", "touch /d/g", "rm /d/f",
	    "mkdir -m 0755 /d/e", "rmdir /d/e" },
	  { "/d/f", "/d/e", "/d/h", "/d/g", "/d/f/x", "/d/g/x" } },
	{ "ln -s with an empty target: ENOENT",
	  { "mkdir -m 0755 /d", "ln -s '' /e", "ln -s '' /d/e" },
	  { "/e", "/d/e" } },
	{ "umount / with a tmpfs on the root unmounts that tmpfs",
	  { "mkdir -m 0755 /a", "mount -t tmpfs t0 /", "chmod 0755 /..",
	    "mkdir -m 0755 /../b", "umount /", "mkdir -m 0755 /c" },
	  { "/a", "/..", "/../b", "/c", "/b" } },
	{ "umount -l / with tmpfs mounts on the root",
	  { "mkdir -m 0755 /a", "mount -t tmpfs t0 /", "mount -t tmpfs t1 /",
	    "umount -l /", "umount -l /" },
	  { "/a", "/..", "/../a" } },
	{ "link's error order: EEXIST, then EXDEV, then a directory's EPERM",
	  { "mkdir -m 0755 /d", "touch /f", "mkdir -m 0755 /m",
	    "mount -t tmpfs t0 /m", "chmod 0755 /m", "touch /m/y",
	    "ln /d /f", "ln /d /m/x", "ln /f /m/y", "ln /d /g" },
	  { "/f", "/g", "/m/x", "/m/y" } },
	{ "mount -o nosymfollow: no link on it is followed (ELOOP), by walks "
	  "and by writers; ln -s -- with a target beginning with '-'",
	  { "mkdir -m 0755 /n", "mount -t tmpfs -o nosymfollow,noexec t0 /n",
	    "chmod 0755 /n", "mkdir -m 0755 /n/d", "ln -s d /n/l", "ln -s /n/d /m",
	    "ln -s -- -x /n/y", "ln -s -- -d /e", "mkdir -m 0755 /-d",
	    "touch /n/l/z" },
	  { "/n/l", "/n/l/", "/n/l/z", "/m", "/m/.", "/n/y", "/e", "/e/" } },
	{ "a read-only bind mount: every writer refuses with EROFS, after a "
	  "create's EEXIST, before unlink's lookup and link's EXDEV",
	  { "mkdir -m 0755 /w", "mkdir -m 0755 /w/d", "touch /w/f",
	    "mkdir -m 0755 /b", "mount --bind -o ro /w /b", "mkdir -m 0755 /b/d",
	    "rm /b/nope", "ln /w/f /b/h", "mv /b/f /b/g", "chmod 0700 /b/f" },
	  { "/b/f", "/b/d", "/w/f", "/b/h", "/b/nope", "/b/d/" } },
	{ "a read-only filesystem stays so through a mount remounted rw with "
	  "bind; remount rw makes it writable",
	  { "mkdir -m 0755 /m", "mount -t tmpfs t0 /m", "chmod 0755 /m",
	    "touch /m/f", "mkdir -m 0755 /c", "mount --bind /m /c",
	    "mount -o remount,ro /m", "mount -o remount,bind,rw /c",
	    "touch /c/g", "mount -o remount,bind,rw /c/." },
	  { "/m/f", "/c/f", "/c/g", "/m" } },
	{ "remount rw again; ro on a bind keeps nosymfollow (libmount); "
	  "remount on a non-root: EINVAL",
	  { "mkdir -m 0755 /m", "mount -t tmpfs -o ro,nosymfollow t0 /m",
	    "mkdir -m 0755 /m/d", "mount -o remount,rw,nosymfollow /m", "chmod 0755 /m",
	    "mkdir -m 0755 /m/d", "ln -s d /m/l", "mkdir -m 0755 /b",
	    "mount --bind -o ro /m /b", "mount -o remount,ro /m/d" },
	  { "/m/l", "/b/l", "/b/l/", "/m/d", "/b/d" } },
	{ "creating in proc: its lookup answers ENOENT first",
	  { "mkdir -m 0755 /p", "mount -t proc p /p", "mkdir -m 0755 /p/x",
	    "touch /p/y", "ln -s /p /p/z", "mkdir -m 0755 /d", "ln /d /p/w" },
	  { "/p/x", "/p/y", "/p/z", "/p/w" } },
};
#define KC_NCASES (sizeof(kc_cases) / sizeof(kc_cases[0]))

static void kc_case_prepare(struct kc_run *r, const struct kc_case *c)
{
	memset(r->tree, 0, sizeof(*r->tree));
	for (unsigned i = 0; i < 10 && c->lines[i]; i++)
		tg_line(r->tree, "%s", c->lines[i]);
	r->npaths = 0;
	for (unsigned q = 0; q < 8 && c->paths[q]; q++) {
		char *out = r->paths[r->npaths++];
		size_t n = 0;

		for (const char *p = c->paths[q]; *p && n + KC_LONG_NAME < KC_STR; p++) {
			if (*p != '@') {
				out[n++] = *p;
				continue;
			}
			memset(out + n, 'x', KC_LONG_NAME);
			n += KC_LONG_NAME;
		}
		out[n] = '\0';
	}
	kc_build_and_write(r);
}

/*
 * Each case of kc_cases in the kernel and in the model: every writer
 * line must get the same errno (no known difference excused here) and
 * every path the same answer in every mode.  Each of these once differed.
 */
Test(kernel, directed_cases_agree, .timeout = 300)
{
	struct kc_run r = { 0 };
	unsigned differences = 0, compared = 0;
	char why[512] = "";

	kc_run_begin(&r);
	for (unsigned i = 0; i < KC_NCASES; i++) {
		kc_run_reset(&r, i);
		kc_case_prepare(&r, &kc_cases[i]);
		if (kc_compare(&r, why, sizeof(why)) == KC_SKIP)
			cr_skip_test("%s", why);
		for (unsigned k = 0; k < KC_NKNOWN; k++)
			r.differences += r.known[k];
		if (r.differences)
			fprintf(stderr, "!!! case %u (%s): %u differences\n", i,
				kc_cases[i].what, r.differences);
		differences += r.differences;
		compared += r.compared;
	}
	printf("walktorture: kernel-compare directed cases=%zu answers=%u "
	       "differences=%u\n", KC_NCASES, compared, differences);
	kc_run_end(&r);
	cr_assert_eq(differences, 0, "%u answers differ from the kernel's "
		     "(see the !!! lines)", differences);
}

/* ------------------------------------------------------------------ */
/* proc's processes: the ptrace-style check on their magic links        */

/*
 * Real processes in the kernel, tree lines in the model: each helper is
 * forked in the private namespace with its cwd, an open file as fd 3,
 * its uid and gid (setresuid/setresgid) and its dumpable flag (prctl,
 * after the id change that cleared it), and waits; its real PID goes
 * into the model's `proc-task` line.  Each query mode asks from a
 * querier process of its own (its PID is the model's `lookup --pid`, so
 * /p/self and /p/PID/... of itself are compared too).
 */
#define KC_NHELPERS	4
#define KC_PROC_NQ	20

struct kc_helper {
	unsigned uid, gid;
	bool nondumpable;
};

static const struct kc_helper kc_helpers[KC_NHELPERS] = {
	{ 1000, 1000, false },		/* %1: the same ids, dumpable */
	{ 1000, 1000, true },		/* %2: the same ids, not dumpable */
	{ 0, 0, false },		/* %3: root's */
	{ 1000, 1001, false },		/* %4: another gid */
};

/*
 * A private mount namespace whose root is a fresh tmpfs on DIR, holding
 * the tree of LINES (kc_apply), with the mounts read back: the kernel
 * side of a dedicated comparison.  *procfd is the real /proc, opened
 * before the chroot.  0, KC_SKIP (no namespace: not root) or 1 (a line
 * failed), with the reason in msg.
 */
static int kc_fresh_root(const char *dir, const char *const *lines, size_t n,
			 char *msg, size_t msgsz, int *procfd)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("wtkc", dir, "tmpfs", 0, "mode=0755")) {
		tg_snprintf(msg, msgsz, "unshare -m: %s", strerror(errno));
		return KC_SKIP;
	}
	*procfd = open("/proc", O_DIRECTORY | O_RDONLY);
	if (*procfd < 0 || chdir(dir) || chroot(".") || chdir("/")) {
		tg_snprintf(msg, msgsz, "chroot: %s", strerror(errno));
		return KC_SKIP;
	}
	umask(0);
	kc_nobjs = 0;
	kc_origin("/", "", false);
	for (size_t i = 0; i < n; i++)
		if (kc_apply(lines[i])) {
			tg_snprintf(msg, msgsz, "'%s' failed", lines[i]);
			return 1;
		}
	kc_read_mounts(*procfd);
	return 0;
}

static const char *const kc_proc_lines[] = {
	"mkdir -m 0755 /d", "mkdir -m 0755 /p", "mount -t proc p /p",
	"touch /d/f", "mkdir -m 0700 /d/priv",
};

/* %1..%4: a helper's PID, %s: the querier's own */
static const char *const kc_proc_paths[] = {
	"/p/%1/cwd", "/p/%1/cwd/f", "/p/%1/fd/3", "/p/%1/root/d",
	"/p/%1/cwd/priv", "/p/%2/cwd", "/p/%2/fd/3", "/p/%2/root",
	"/p/%3/cwd", "/p/%3/fd/3", "/p/%3/root/d/f", "/p/%4/cwd/f",
	"/p/%4/fd/3", "/p/%s/cwd", "/p/%s/root/d/f", "/p/self/cwd",
	"/p/self/root/d",
};
#define KC_PROC_NPATHS (sizeof(kc_proc_paths) / sizeof(kc_proc_paths[0]))

static const struct kc_mode kc_proc_modes[] = {
	{ 0, false, NULL, 0, KC_FROM_CWD, NULL, 0, false },
	{ 1000, false, NULL, 0, KC_FROM_CWD, NULL, 0, false },
	{ 1000, false, "no-magiclinks", KC_RESOLVE_NO_MAGICLINKS, KC_FROM_CWD,
	  NULL, 0, false },
	{ 0, false, "no-magiclinks", KC_RESOLVE_NO_MAGICLINKS, KC_FROM_CWD,
	  NULL, 0, false },
	{ 1000, false, NULL, 0, KC_FROM_CWD, "O_RDONLY", O_RDONLY, false },
};
#define KC_PROC_NMODES (sizeof(kc_proc_modes) / sizeof(kc_proc_modes[0]))

struct kc_proc_shared {
	char msg[512];
	pid_t helper[KC_NHELPERS];
	pid_t querier[KC_PROC_NMODES];
	char paths[KC_PROC_NMODES][KC_PROC_NQ][KC_STR];
	struct kc_answer ans[KC_PROC_NMODES][KC_PROC_NQ];
};

static void kc_proc_expand(const char *tmpl, const pid_t *helper, pid_t self,
			   char *out, size_t size)
{
	size_t n = 0;

	for (const char *p = tmpl; *p && n + 16 < size; p++) {
		if (*p != '%') {
			out[n++] = *p;
			continue;
		}
		p++;
		n += (size_t)snprintf(out + n, size - n, "%d",
				      *p == 's' ? (int)self : (int)helper[*p - '1']);
	}
	out[n] = '\0';
}

/* A helper: its state set up, then it says so and waits for EOF on hold. */
static void kc_helper_run(const struct kc_helper *h, int ready, int hold)
{
	gid_t none = 0;
	char c = 'r';
	int fd = open("/d/f", O_RDONLY);

	if (fd < 0 || dup2(fd, 3) != 3 || chdir("/d") ||
	    setgroups(0, &none) || setresgid(h->gid, h->gid, h->gid) ||
	    setresuid(h->uid, h->uid, h->uid) ||
	    prctl(PR_SET_DUMPABLE, h->nondumpable ? 0 : 1, 0, 0, 0))
		_exit(1);
	if (write(ready, &c, 1) != 1)
		_exit(1);
	while (read(hold, &c, 1) > 0)
		;
	_exit(0);
}

/* Start the helpers; 0, or -1 with sh->msg. */
static int kc_helpers_start(struct kc_proc_shared *sh, int hold[2])
{
	for (unsigned i = 0; i < KC_NHELPERS; i++) {
		int ready[2];
		pid_t pid;
		char c;

		if (pipe(ready))
			return -1;
		/* the shared page is written by the parent only: a child's
		 * own fork() answer is 0 */
		pid = fork();
		if (pid == 0) {
			close(ready[0]);
			close(hold[1]);
			kc_helper_run(&kc_helpers[i], ready[1], hold[0]);
		}
		sh->helper[i] = pid;
		close(ready[1]);
		if (pid < 0 || read(ready[0], &c, 1) != 1) {
			tg_snprintf(sh->msg, sizeof(sh->msg), "helper %u did not "
				    "start", i);
			close(ready[0]);
			return -1;
		}
		close(ready[0]);
	}
	return 0;
}

/* One mode's queries from a querier process of its own. */
static int kc_proc_query(unsigned mode, struct kc_proc_shared *sh)
{
	const struct kc_mode *m = &kc_proc_modes[mode];
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		gid_t none = 0;

		if (m->uid && (setgroups(0, &none) ||
			       setresgid(m->uid, m->uid, m->uid) ||
			       setresuid(m->uid, m->uid, m->uid)))
			_exit(1);
		sh->querier[mode] = getpid();
		for (unsigned q = 0; q < KC_PROC_NPATHS; q++) {
			kc_proc_expand(kc_proc_paths[q], sh->helper, getpid(),
				       sh->paths[mode][q], KC_STR);
			kc_resolve(m, AT_FDCWD, sh->paths[mode][q],
				   &sh->ans[mode][q]);
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

static int kc_proc_child(const char *dir, struct kc_proc_shared *sh)
{
	int procfd, hold[2], ret;

	ret = kc_fresh_root(dir, kc_proc_lines, sizeof(kc_proc_lines) /
			    sizeof(kc_proc_lines[0]), sh->msg, sizeof(sh->msg),
			    &procfd);
	if (ret)
		return ret;
	if (pipe(hold))
		return 1;
	if (kc_helpers_start(sh, hold))
		ret = 1;
	for (unsigned m = 0; !ret && m < KC_PROC_NMODES; m++)
		if (kc_proc_query(m, sh)) {
			tg_snprintf(sh->msg, sizeof(sh->msg), "querier %u failed", m);
			ret = 1;
		}
	close(hold[1]);		/* the helpers see EOF and leave */
	for (unsigned i = 0; i < KC_NHELPERS; i++)
		if (sh->helper[i] > 0)
			waitpid(sh->helper[i], NULL, 0);
	return ret;
}

/* The model's tree: the same lines, and a proc-task line per helper. */
static void kc_proc_tree(const struct kc_proc_shared *sh, char *file, size_t size)
{
	FILE *f;
	int fd;

	tg_snprintf(file, size, "/tmp/wtkc-proc.XXXXXX");
	fd = mkstemp(file);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	for (unsigned i = 0; i < sizeof(kc_proc_lines) / sizeof(kc_proc_lines[0]); i++)
		fprintf(f, "%s\n", kc_proc_lines[i]);
	for (unsigned i = 0; i < KC_NHELPERS; i++)
		fprintf(f, "proc-task -u %u:%u --cwd /d --fd 3=/d/f%s %d\n",
			kc_helpers[i].uid, kc_helpers[i].gid,
			kc_helpers[i].nondumpable ? " --nondumpable" : "",
			(int)sh->helper[i]);
	fclose(f);
}

/*
 * Other processes' magic links, in the kernel and in the model: as root
 * (CAP_SYS_PTRACE: every link), as uid 1000 (a dumpable uid-1000:1000
 * process's links; EACCES for a non-dumpable one's, whose fd directory
 * is root's too, for root's and for another gid's), under
 * RESOLVE_NO_MAGICLINKS (EACCES before ELOOP) and with open(O_RDONLY),
 * and the querier's own process (/p/self, /p/PID).  Compared: the errno,
 * and on success the type, the object and its mount.  Not compared: the
 * owners of the proc entries (stat's uid; the model's follow
 * task_dump_owner, tested in test_fs) and links of fds the querier
 * holds itself (the model's walker has only --at's fd 3).
 */
Test(kernel, proc_processes_agree)
{
	struct kc_proc_shared *sh;
	struct kc_answer model[KC_PROC_NQ];
	char dir[64], tree[64], msg[1024], pid[16];
	unsigned compared = 0, differences = 0, eacces = 0, eloop = 0, ok = 0;
	int status;
	pid_t child;

	if (geteuid() != 0)
		cr_skip_test("not root: the kernel side needs unshare -m, mount and chroot");
	if (!wt_test_find_cli(kc_cli, sizeof(kc_cli)))
		cr_skip_test("no walktorture binary next to the tests (%s)", kc_cli);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cr_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	tg_snprintf(dir, sizeof(dir), "/tmp/wtkc-root.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	child = fork();
	if (child == 0)
		_exit(kc_proc_child(dir, sh));
	cr_assert_geq(child, 0);
	cr_assert_geq(waitpid(child, &status, 0), 0);
	rmdir(dir);
	if (WIFEXITED(status) && WEXITSTATUS(status) == KC_SKIP)
		cr_skip_test("%s", sh->msg);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the kernel side failed: %s", sh->msg);
	kc_proc_tree(sh, tree, sizeof(tree));
	for (unsigned m = 0; m < KC_PROC_NMODES; m++) {
		const struct kc_mode *km = &kc_proc_modes[m];
		int err;

		tg_snprintf(pid, sizeof(pid), "%d", (int)sh->querier[m]);
		memset(model, 0, sizeof(model));
		err = kc_model_as(tree, "/", km, pid, sh->paths[m],
				  KC_PROC_NPATHS, model, msg, sizeof(msg));
		cr_assert_eq(err, 0, "walktorture lookup --tree %s failed (%d): %s",
			     tree, err, msg);
		for (unsigned q = 0; q < KC_PROC_NPATHS; q++) {
			const struct kc_answer *k = &sh->ans[m][q];
			char kd[2 * KC_STR + 64], md[2 * KC_STR + 64];

			compared++;
			ok += !strcmp(k->result, "ok");
			eacces += !strcmp(k->result, "EACCES");
			eloop += !strcmp(k->result, "ELOOP");
			if (kc_same(k, &model[q]))
				continue;
			differences++;
			kc_describe(kd, sizeof(kd), k);
			kc_describe(md, sizeof(md), &model[q]);
			fprintf(stderr, "!!! proc uid %u%s%s%s%s '%s': kernel %s, "
				"walktorture %s\n", km->uid,
				km->resolve ? " resolve=" : "",
				km->resolve ? km->resolve : "",
				km->open ? " open=" : "", km->open ? km->open : "",
				sh->paths[m][q], kd, md);
		}
	}
	printf("walktorture: kernel-compare proc processes=%u modes=%zu answers=%u "
	       "ok=%u eacces=%u eloop=%u differences=%u\n", KC_NHELPERS,
	       KC_PROC_NMODES, compared, ok, eacces, eloop, differences);
	if (!differences)
		unlink(tree);
	else
		fprintf(stderr, "!!! the model's tree: %s\n", tree);
	munmap(sh, sizeof(*sh));
	cr_assert_eq(differences, 0, "%u answers differ from the kernel's "
		     "(see the !!! lines)", differences);
}

/* ------------------------------------------------------------------ */
/* O_CREAT on read-only mounts                                          */

/*
 * open(O_CREAT) creates, so each mode gets a fresh tree on both sides: a
 * kernel child of its own (namespace, tmpfs, the lines), and a lookup
 * run of its own (each run builds the tree anew).  The tree: a writable
 * /w (a 0777 /w/pub in it), its read-only bind /b, and a tmpfs /m
 * remounted read-only.
 */
static const char *const kc_creat_lines[] = {
	"mkdir -m 0755 /w", "mkdir -m 0777 /w/pub", "touch /w/f",
	"mkdir -m 0755 /b", "mount --bind -o ro /w /b", "mkdir -m 0755 /m",
	"mount -t tmpfs t0 /m", "chmod 0755 /m", "touch /m/g",
	"mount -o remount,ro /m",
};

static const char *const kc_creat_paths[] = {
	"/b/new", "/b/f", "/b/pub/new", "/m/new", "/m/g", "/w/new", "/w/new",
	"/w/pub/u", "/w/pub/u", "/w/u", "/b/f/x", "/b/nodir/x", "/b", "/m/",
	"/w/new/", "/b/pub",
};
#define KC_CREAT_NPATHS (sizeof(kc_creat_paths) / sizeof(kc_creat_paths[0]))

static const struct kc_mode kc_creat_modes[] = {
	{ 0, false, NULL, 0, KC_FROM_CWD, "O_CREAT,O_WRONLY", O_CREAT | O_WRONLY, false },
	{ 0, false, NULL, 0, KC_FROM_CWD, "O_CREAT,O_RDONLY", O_CREAT | O_RDONLY, false },
	{ 0, false, NULL, 0, KC_FROM_CWD, "O_CREAT,O_EXCL,O_RDONLY",
	  O_CREAT | O_EXCL | O_RDONLY, false },
	{ 1000, false, NULL, 0, KC_FROM_CWD, "O_CREAT,O_RDONLY", O_CREAT | O_RDONLY, false },
	{ 1000, false, NULL, 0, KC_FROM_CWD, "O_CREAT,O_WRONLY,O_TRUNC",
	  O_CREAT | O_WRONLY | O_TRUNC, false },
};
#define KC_CREAT_NMODES (sizeof(kc_creat_modes) / sizeof(kc_creat_modes[0]))

struct kc_creat_shared {
	char msg[512];
	struct kc_answer ans[KC_CREAT_NPATHS];
};

/* The queries as the mode's uid; a file made here is named by its path,
 * as the model names what an open created. */
static void kc_creat_queries(const struct kc_mode *m, struct kc_creat_shared *sh)
{
	gid_t none = 0;

	if (m->uid && (setgroups(0, &none) || setresgid(m->uid, m->uid, m->uid) ||
		       setresuid(m->uid, m->uid, m->uid)))
		_exit(1);
	for (unsigned q = 0; q < KC_CREAT_NPATHS; q++) {
		struct kc_answer *a = &sh->ans[q];
		struct statx stx;

		kc_resolve(m, AT_FDCWD, kc_creat_paths[q], a);
		if (strcmp(a->result, "ok") || strncmp(a->object, "?dev=", 5))
			continue;
		kc_origin(kc_creat_paths[q], "", true);
		if (!statx(AT_FDCWD, kc_creat_paths[q], 0, STATX_TYPE | STATX_INO |
			   STATX_MNT_ID, &stx))
			kc_fill(a, &stx);
	}
	_exit(0);
}

static int kc_creat_child(const char *dir, const struct kc_mode *m,
			  struct kc_creat_shared *sh)
{
	int procfd, status, ret;
	pid_t pid;

	ret = kc_fresh_root(dir, kc_creat_lines, sizeof(kc_creat_lines) /
			    sizeof(kc_creat_lines[0]), sh->msg, sizeof(sh->msg),
			    &procfd);
	if (ret)
		return ret;
	pid = fork();
	if (pid == 0)
		kc_creat_queries(m, sh);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return 1;
	return 0;
}

/*
 * Opens with O_CREAT where the mount or the filesystem is read-only:
 * EROFS for an absent name (lookup_open's create_error, before the
 * directory's permission check: uid 1000 too), for a write or truncate
 * of an existing file; a read of an existing file goes through; on the
 * writable mount the file is made (then found: EEXIST with O_EXCL), and
 * uid 1000 gets EACCES where it may not write the directory.  Compared:
 * the errno, and on success the type, the object and its mount.
 */
Test(kernel, creat_on_readonly_mounts)
{
	struct kc_creat_shared *sh;
	struct kc_answer model[KC_CREAT_NPATHS];
	char tree[64], msg[1024];
	unsigned compared = 0, differences = 0, erofs = 0, ok = 0;
	int fd;
	FILE *f;

	if (geteuid() != 0)
		cr_skip_test("not root: the kernel side needs unshare -m, mount and chroot");
	if (!wt_test_find_cli(kc_cli, sizeof(kc_cli)))
		cr_skip_test("no walktorture binary next to the tests (%s)", kc_cli);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cr_assert(sh != MAP_FAILED);
	tg_snprintf(tree, sizeof(tree), "/tmp/wtkc-creat.XXXXXX");
	fd = mkstemp(tree);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	for (unsigned i = 0; i < sizeof(kc_creat_lines) / sizeof(kc_creat_lines[0]); i++)
		fprintf(f, "%s\n", kc_creat_lines[i]);
	fclose(f);
	for (unsigned m = 0; m < KC_CREAT_NMODES; m++) {
		const struct kc_mode *km = &kc_creat_modes[m];
		char paths[KC_CREAT_NPATHS][KC_STR], dir[64];
		int status, err;
		pid_t child;

		memset(sh, 0, sizeof(*sh));
		tg_snprintf(dir, sizeof(dir), "/tmp/wtkc-root.XXXXXX");
		cr_assert_not_null(mkdtemp(dir));
		child = fork();
		if (child == 0)
			_exit(kc_creat_child(dir, km, sh));
		cr_assert_geq(child, 0);
		cr_assert_geq(waitpid(child, &status, 0), 0);
		rmdir(dir);
		if (WIFEXITED(status) && WEXITSTATUS(status) == KC_SKIP)
			cr_skip_test("%s", sh->msg);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "the kernel side failed: %s", sh->msg);
		for (unsigned q = 0; q < KC_CREAT_NPATHS; q++)
			tg_snprintf(paths[q], KC_STR, "%s", kc_creat_paths[q]);
		memset(model, 0, sizeof(model));
		err = kc_model_as(tree, "/", km, NULL, paths, KC_CREAT_NPATHS,
				  model, msg, sizeof(msg));
		cr_assert_eq(err, 0, "walktorture lookup --tree %s failed (%d): %s",
			     tree, err, msg);
		for (unsigned q = 0; q < KC_CREAT_NPATHS; q++) {
			const struct kc_answer *k = &sh->ans[q];
			char kd[2 * KC_STR + 64], md[2 * KC_STR + 64];

			compared++;
			ok += !strcmp(k->result, "ok");
			erofs += !strcmp(k->result, "EROFS");
			if (kc_same(k, &model[q]))
				continue;
			differences++;
			kc_describe(kd, sizeof(kd), k);
			kc_describe(md, sizeof(md), &model[q]);
			fprintf(stderr, "!!! creat uid %u open=%s '%s': kernel %s, "
				"walktorture %s\n", km->uid, km->open, paths[q], kd, md);
		}
	}
	printf("walktorture: kernel-compare creat modes=%zu answers=%u ok=%u "
	       "erofs=%u differences=%u\n", KC_CREAT_NMODES, compared, ok, erofs,
	       differences);
	if (!differences)
		unlink(tree);
	else
		fprintf(stderr, "!!! the model's tree: %s\n", tree);
	munmap(sh, sizeof(*sh));
	cr_assert_eq(differences, 0, "%u answers differ from the kernel's "
		     "(see the !!! lines)", differences);
}

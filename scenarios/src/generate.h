/* SPDX-License-Identifier: MIT */
/*
 * Generated workloads: a random scenario (a tree, walker threads, writer
 * threads) drawn from one 64-bit seed, as the YAML text of an ordinary
 * scenario file, so that a failing workload is its own reproducer:
 * `walktorture run FILE --seed S' and `walktorture replay SEED FILE' run
 * it like any shipped file.
 *
 * What is drawn:
 *   - the tree: a few top directories populated from a small pool of
 *     names (d, e / f, g), negative dentries (touch then rm), tmpfs
 *     mounts over populated directories (so a covered directory holds
 *     names its mount holds too), stacked mounts, a bind or rbind, a
 *     remote filesystem (maybe expired), symlinks (relative, absolute,
 *     chains, dangling), restrictive modes; the mount and dcache hash
 *     sizes (down to one bucket);
 *   - writer threads: a few fragments of writer verbs, each on operands
 *     taken from the model of the tree the generator keeps (exchange,
 *     rename there and back, rename over, unlink and recreate, rmdir and
 *     mkdir -m, chmod, symlink retarget, mount/umount sync and lazy,
 *     bind/rbind, mount --move out and (as the writer's last item)
 *     back, remote server changes, client renames, shrink); in one
 *     workload in two (generator 8) a directory renamed out of its
 *     parent has a name made and removed in it before it comes back;
 *   - walker threads (uid 0 or 1000): stat, lstat, open (O_CREAT,
 *     O_EXCL, O_DIRECTORY), openat2 with resolve flags, parentat and
 *     mountpoint, on paths biased toward the writers' operands (every
 *     mount's, when a writer moves or unmounts one: they share the
 *     mount hash) and past a mount's root into it; in one workload in
 *     two (generator 7) also down and back up with `..', from a cwd,
 *     and from a root of their own (open_root); in the generator-8
 *     half, scoped walks rooted below the top directories too, and
 *     from the parent a renamed directory left to the name made in it;
 *   - the policy: PCT (depth 2 to 4, k calibrated: `pct_steps: auto')
 *     or random (switch_p drawn); POS or explore when asked for;
 *   - the memory model: tso in one workload of eight, pso in one, else
 *     sc (`fuzz --memory' overrides it).
 * The only expectation is `oracle clean': the oracle and the safety
 * checks judge every walk.  Nothing about any particular race is known
 * to the generator: no schedule, no point, no exit path.
 */
#ifndef WT_SCENARIOS_GENERATE_H
#define WT_SCENARIOS_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#define WT_GEN_VERSION		8	/* changes what a seed generates */
#define WT_GEN_TAG		0x500000000ull	/* + workload index */
#define WT_GEN_ITERATIONS	20	/* per workload, by default */
#define WT_GEN_THREADS_MAX	8

struct wt_gen_config {
	unsigned threads;	/* 2..WT_GEN_THREADS_MAX; 0: drawn (2 to 4) */
	int policy;		/* -1: drawn (PCT or random); else WT_SCN_RANDOM,
				 * _PCT, _POS or _EXPLORE */
	uint64_t iterations;	/* the workload's budget; 0: WT_GEN_ITERATIONS */
};

/* Workload j of run seed `seed': its generator seed. */
uint64_t wt_gen_seed(uint64_t seed, uint64_t j);

/*
 * The YAML text of the workload of generator seed gseed (caller frees),
 * its name ("gen.HEX", one word) into name.  NULL: out of memory.
 */
char *wt_gen_workload(uint64_t gseed, const struct wt_gen_config *c,
		      char *name, size_t namelen);

#endif /* WT_SCENARIOS_GENERATE_H */

#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Where a simulated iteration's time goes, against its bare side, in one
# run:
#
#	bench/bench_iter_split.sh BUILD_DIR SCENARIO.yaml[.undirected]
#		[ITERATIONS]
#
# BUILD_DIR is a release build (build/release).  The script runs
# BUILD_DIR/bench/bench_iter on the file (ITERATIONS, default 500, five
# rounds) for sim_us and bare_us, then `walktorture run FILE
# --iterations 4*ITERATIONS --seed 0x5eed' under `perf record -e
# cpu-clock' (the build's first iteration and its load are then a
# fraction of a percent), and sorts the samples by the source file of
# their function (`nm -l'; the debug info of RelWithDebInfo) into
#
#	kernel	 the model of the kernel under test and its primitives:
#		 core/ but record.c, oracle*.c and zoo.c; sim/vfs/, sim/fs/;
#		 sim/{rcu,seq,spinlock,lockref,mutex}.c but the RCU waits'
#		 conditions, which the sim evaluates at its decisions
#	writers	 what the writer verbs run besides: sim/ops*.c, resolve.c,
#		 history.c, idmap.c, arena.c, tree*.c, thread.c
#	harness	 the scheduler, store buffers, hooks, rules, the oracle's
#		 snapshots and judgement, records, checks, the scenario body:
#		 sim/sched/, sim/{inject,tso,rules,ns}.c, core/record.c,
#		 core/oracle*.c, scenarios/
#	other	 libc and anything without a source line
#
# and prints
#
#	bench_iter_split: NAME sim_us=S bare_us=B overhead=S/B
#		kernel=K% writers=W% harness=H% other=O%
#		kernel_us=K*S kernel_floor=K*S/B
#
# kernel_us is the time the kernel's own functions took in a simulated
# iteration, kernel_floor that over the whole bare iteration -- which
# also runs the writers and the body.  So kernel_floor bounds from below
# the overhead of this simulator on this file's interleavings, whatever
# its scheduler, buffers, oracle and checks cost: with all of them free
# the walks still take kernel_us.  (Their inline hook tests are in it:
# points that cost less than a test to pass would lower it a little; a
# run of the file with no switch, each thread to its end, shows how
# little: kernel_floor 0.87 on the tso file under sc.)  Where the
# interleaving makes the walks restart (REF-walk after a mount_lock or
# d_seq change), kernel_floor is above 1 by that much.  Needs perf
# (Debian: linux-perf) and nm; not a ctest test (perf is not in
# .ci/run's packages).
set -eu

if [ $# -lt 2 ]; then
	echo "usage: $0 BUILD_DIR SCENARIO.yaml[.undirected] [ITERATIONS]" >&2
	exit 2
fi
build=$1
file=$2
iters=${3:-500}
# FILE.yaml.undirected: bench_iter's name for the file's twin
yaml=${file%.undirected}
twin=
[ "$yaml" = "$file" ] || twin=--undirected
bin=$build/cli/walktorture
for f in "$bin" "$build/bench/bench_iter"; do
	if [ ! -x "$f" ]; then
		echo "$0: $f: not built" >&2
		exit 2
	fi
done
if [ ! -r "$yaml" ]; then
	echo "$0: $yaml: cannot read" >&2
	exit 2
fi
if ! command -v perf > /dev/null; then
	echo "$0: perf not found (Debian: apt-get install linux-perf)" >&2
	exit 2
fi
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

line=$("$build/bench/bench_iter" "$iters" 5 "$file" | grep '^bench_iter: ')
perf record -q -e cpu-clock -o "$tmp/perf.data" "$bin" run $twin "$yaml" \
	--iterations $((iters * 4)) --seed 0x5eed > /dev/null 2>&1
perf report -i "$tmp/perf.data" --no-children --sort sym --stdio -q \
	2> /dev/null > "$tmp/syms"
nm -l --defined-only "$bin" > "$tmp/nm"

awk -v src="$src/" -v line="$line" '
function kind(f) {
	if (f == "")
		return "other"
	sub("^" src, "", f)
	sub(":[0-9]+$", "", f)
	if (f ~ /^core\/(record|oracle[a-z_]*|zoo)\.c$/ ||
	    f ~ /^sim\/sched\// || f ~ /^scenarios\// ||
	    f ~ /^sim\/(inject|tso|rules|ns|ns_dump)\.[ch]$/)
		return "harness"
	if (f ~ /^core\// || f ~ /^sim\/vfs\// || f ~ /^sim\/fs\// ||
	    f ~ /^sim\/(rcu|seq|spinlock|lockref|mutex)\.[ch]$/)
		return "kernel"
	if (f ~ /^sim\//)
		return "writers"
	return "other"
}
# perf names the function of a sample, not its file: a static name
# defined in files of two kinds (choose_mountpoint: core/mounts.c and
# core/oracle_steps.c) counts as harness, and so do the conditions of
# RCU waits (sim/rcu.c), which the sim evaluates at its decisions: so
# kernel_floor stays a lower bound.  (No apostrophe in here: this is a
# quoted shell word.)
FNR == NR {
	if ($2 !~ /^[tTW]$/)
		next
	k = kind($4)
	if ($3 ~ /^(waiter_poll|reader_drained|rcu_sync_done)$/)
		k = "harness"
	if (($3 in sym) && sym[$3] != k)
		k = "harness"
	sym[$3] = k
	next
}
$1 ~ /%$/ {
	p = $1 + 0
	s = $3
	if (s == "wt_hook_thunk")	# assembly of sim/inject.c, no line
		k = "harness"
	else if (s in sym)
		k = sym[s]
	else
		k = "other"
	share[k] += p
	total += p
}
END {
	split(line, w, " ")
	for (i in w) {
		if (w[i] ~ /^sim_us=/) { sub(/^sim_us=/, "", w[i]); sim = w[i] }
		if (w[i] ~ /^bare_us=/) { sub(/^bare_us=/, "", w[i]); bare = w[i] }
	}
	name = w[2]
	if (total <= 0 || bare <= 0) {
		print "bench_iter_split: no samples or no bare time" > "/dev/stderr"
		exit 1
	}
	k = share["kernel"] / total
	printf "bench_iter_split: %s sim_us=%.2f bare_us=%.2f overhead=%.2f", \
	       name, sim, bare, sim / bare
	printf " kernel=%.1f%% writers=%.1f%% harness=%.1f%% other=%.1f%%", \
	       100 * k, 100 * share["writers"] / total, \
	       100 * share["harness"] / total, 100 * share["other"] / total
	printf " kernel_us=%.2f kernel_floor=%.2f\n", k * sim, k * sim / bare
}' "$tmp/nm" "$tmp/syms"

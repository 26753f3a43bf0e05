#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Two builds' simulator throughput side by side, in one run:
#
#	bench/bench_iter_compare.sh OLD_BENCH_ITER NEW_BENCH_ITER \
#		[ITERATIONS [LAPS]] [SCENARIO.yaml[.undirected]...]
#
# OLD_BENCH_ITER and NEW_BENCH_ITER are the bench_iter binaries of two
# release builds (each next to its own bench_iter_nohooks), e.g. a build
# of main's code in another directory and this tree's.  They take turns,
# LAPS laps (3) of one round each, on the same scenario files (default:
# bench_iter's five, read from THIS source tree, so both builds run the
# same files; the generated set gen:1:0..40 needs both builds to know
# gen: specs, and each generates it with its own generator); for each
# scenario the best lap of each build is kept (a set's laps by its
# line's sim_us) and the line reads
#
#	bench_iter_compare: NAME old_us=A new_us=B old/new=A/B
#		old_overhead=X new_overhead=Y
#
# old_us and new_us: CPU time per simulated iteration (bench_iter's
# sim_us); old/new > 1 means the new build is faster.  The overheads are
# each build's best sim_us over its best bare_us, each the smallest of
# its laps: a lap's own ratio would take the bare side of whichever lap
# the sim side did best in, and a bare side of a few microseconds that
# a neighbour slowed by half (seen: 58 us one lap, 126 the next) made
# the factor swing by as much.  Taking turns within one run keeps the
# two under the same machine load, which on a shared machine moves more
# than most changes do.
set -eu

if [ $# -lt 2 ]; then
	echo "usage: $0 OLD_BENCH_ITER NEW_BENCH_ITER [ITERATIONS [LAPS]] [SCENARIO...]" >&2
	exit 2
fi
old=$1
new=$2
shift 2
iters=2000
laps=3
case ${1-} in [0-9]*) iters=$1; shift ;; esac
case ${1-} in [0-9]*) laps=$1; shift ;; esac
src=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
	set -- "$src/scenarios/echild/restart.step_into.child_seq.yaml" \
	       "$src/scenarios/echild/restart.step_into.child_seq.yaml.undirected" \
	       "$src/scenarios/zoo/seq_no_barrier.yaml" gen:1:0..40 \
	       "$src/scenarios/soak/mixed.sim.yaml"
fi
out=$(mktemp /tmp/bench_iter_compare-XXXXXX)
trap 'rm -f "$out"' EXIT
lap=0
while [ $lap -lt "$laps" ]; do
	for side in old new; do
		if [ $side = old ]; then bin=$old; else bin=$new; fi
		"$bin" "$iters" 1 "$@" | sed -n "s/^bench_iter: /$side /p" >> "$out"
	done
	lap=$((lap + 1))
done
# "old|new NAME iterations=N sim_us=S bare_us=B overhead=O ...": the
# smallest sim_us and the smallest bare_us of the laps, per side and
# scenario, in the scenarios' order.
awk '
function val(k,   i) { for (i = 3; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
{
	key = $2
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	s = val("sim_us") + 0
	b = val("bare_us") + 0
	if (!((($1, key) in best)) || s < best[$1, key])
		best[$1, key] = s
	if (!((($1, key) in bare)) || b < bare[$1, key])
		bare[$1, key] = b
}
END {
	for (i = 1; i <= n; i++) {
		k = order[i]
		if (!((("old", k) in best)) || !((("new", k) in best))) {
			printf("bench_iter_compare: %s !!! missing from a build\n", k)
			bad = 1
			continue
		}
		if (bare["old", k] <= 0 || bare["new", k] <= 0 || best["new", k] <= 0) {
			printf("bench_iter_compare: %s !!! a zero time\n", k)
			bad = 1
			continue
		}
		printf("bench_iter_compare: %s old_us=%.2f new_us=%.2f old/new=%.3f old_overhead=%.2f new_overhead=%.2f\n",
		       k, best["old", k], best["new", k],
		       best["old", k] / best["new", k],
		       best["old", k] / bare["old", k],
		       best["new", k] / bare["new", k])
	}
	exit bad
}' "$out"

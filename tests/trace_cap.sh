#!/bin/sh
# The cap on --trace's order files in stress mode (ctest trace.cap, issue
# 21): a bug that fails every iteration (no_symlinks_ignored needs no
# race) writes one order file per failing iteration until the
# scenario's files reach WT_TRACE_MAX_BYTES; then none more, said once,
# every failure still counted, and the run ends as it would.
#   tests/trace_cap.sh WALKTORTURE SOURCE_DIR
set -u
wt=$1
zoo=$2/scenarios/zoo/no_symlinks_ignored.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; tail -20 out err 2>/dev/null; exit 1; }
run() {
	"$wt" run "$zoo" --mode stress --bug no_symlinks_ignored --trace \
		--iterations 12 --seed 1 --out "$1" >out 2>err
}

mkdir all capped
run all
rc=$?
[ $rc -eq 1 ] || fail "uncapped: exit $rc, not 1"
[ "$(ls all/*.order | wc -l)" -eq 12 ] || fail "uncapped: $(ls all | wc -l) order files, not 12"
grep -q "order files reached" out && fail "uncapped: a cap message"
one=$(wc -c <"$(ls all/*.order | head -1)")

# room for two files and a bit: the third and later are not written
WT_TRACE_MAX_BYTES=$((one * 2 + one / 2)) run capped
rc=$?
[ $rc -eq 1 ] || fail "capped: exit $rc, not 1"
n=$(ls capped/*.order | wc -l)
[ "$n" -ge 2 ] && [ "$n" -le 3 ] || fail "capped: $n order files"
[ "$(grep -c "^walktorture: no_symlinks_ignored !!! --trace: its order files reached [0-9]* bytes (cap $((one * 2 + one / 2)), WT_TRACE_MAX_BYTES): no more are written$" out)" -eq 1 ] ||
	fail "capped: not one cap message"
grep -q "^walktorture: no_symlinks_ignored !!! --trace: $((12 - n)) failing iterations past the order files' cap have none$" out ||
	fail "capped: no count of the unsaved ones"
grep -q "^walktorture: no_symlinks_ignored failing_iterations=12/12 " out ||
	fail "capped: not every failure counted"

WT_TRACE_MAX_BYTES=12k "$wt" run "$zoo" --mode stress --trace --iterations 1 >out 2>err
[ $? -eq 2 ] || fail "a bad WT_TRACE_MAX_BYTES is not exit 2"
grep -q "bad WT_TRACE_MAX_BYTES '12k'" err || fail "no message for a bad WT_TRACE_MAX_BYTES"
echo "ok"
exit 0

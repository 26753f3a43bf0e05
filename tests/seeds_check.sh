#!/bin/sh
# SPDX-License-Identifier: MIT
# seeds_check.sh WT SEED SEEDS K N
#	Issue 24's "0 false positives in 1000 seeds of every suite": shard K
#	of N of `walktorture nightly' over every shipped suite (the directed
#	files' twins included) under SEEDS seeds of night seed SEED, one
#	iteration a seed (--iterations 1; no explore twins, no generated
#	workloads).  Passes when no walk was rejected by the oracle and no
#	safety check fired.  Exact-count expectations (`path', `point',
#	`walks') of files whose budget is more than one iteration cannot hold
#	at one iteration: those failures are listed, not counted.
set -u
wt=$1; seed=$2; seeds=$3; k=$4; n=$5
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$wt" nightly --seeds "$seeds" --iterations 1 --explore 0 --generated 0 \
	--quiet --seed "$seed" --shard "$k/$n" --out "$tmp/night" \
	>"$tmp/log" 2>&1
rc=$?
grep -v '^==[0-9]*==' "$tmp/log" | grep -F '!!!' | grep -v -F '!!! FAILED' \
	>"$tmp/fail"
grep -E '!!! expectation [^:]*: (path|point|walks) ' "$tmp/fail" >"$tmp/counts"
grep -v -E '!!! expectation [^:]*: (path|point|walks) ' "$tmp/fail" >"$tmp/real"
runs=$(grep -c ' mode=[a-z]* seed=' "$tmp/log")
echo "seeds_check: shard $k/$n of $seeds seeds: $runs scenario runs, nightly exit $rc," \
	"$(wc -l <"$tmp/counts") count expectations missed at one iteration" \
	"($(sed -n 's/^walktorture: \([^ ]*\) !!!.*/\1/p' "$tmp/counts" | sort -u | tr '\n' ' '))," \
	"$(wc -l <"$tmp/real") other failures"
if [ -s "$tmp/real" ]; then
	head -n 40 "$tmp/real"
	exit 1
fi
[ "$runs" -gt 0 ] || { tail -n 20 "$tmp/log"; exit 1; }
# 0 and 1 (a count expectation missed) are a verdict; anything else (66:
# a sanitizer report, a signal, a usage error) is not, even with no `!!!'.
[ "$rc" -le 1 ] || { tail -n 40 "$tmp/log"; exit 1; }
exit 0

#!/bin/sh
# Stuck iterations end cleanly (ctest stuck.teardown, issue 21): at
# --seed 1, iteration 4 of tests/data/stuck/a_stuck.yaml is abandoned by
# max_points while a fiber holds a d_lock (the walker inside
# dentry_mark_dead; others are in an RCU read section).  (Iteration 2
# was, before umount let the writer mutex go for its grace period and
# put its mountpoints before it: that moved every interleaving.)  Its teardown used to wait on that lock
# for ever -- until the isolation watchdog killed the child, a failure
# of kind hang.  Now every stuck iteration is reported by the stuck
# detection itself (kind stuck), its world is thrown away, and the next
# iteration runs: all 12 ran, most of them stuck (7 of 12 now, 12
# before that change), every failure of every iteration is of kind
# stuck, the next scenario passes.  In-process (WT_ISOLATE=0: no watchdog at all) the run
# ends the same way with the same output, and the replay of iteration
# 4's seed is stuck again.  No timing is judged: a regression hangs (or
# turns into a hang failure), which the checks below see as such.
#   tests/stuck_teardown.sh WALKTORTURE SOURCE_DIR
set -u
wt=$1
data=$2/tests/data/stuck
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; grep -v '^==[0-9]*==' err 2>/dev/null | tail -5; tail -20 out 2>/dev/null; exit 1; }

"$wt" run "$data" --seed 1 --json r.json >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "run: exit $rc, not 1"
grep -q "^walktorture: a_stuck !!! stuck iteration=4 seed=0x[0-9a-f]*: stuck: no end within max_points=20000 points$" out ||
	fail "no stuck line for iteration 4"
grep -q "!!! hang\|!!! crash" out && fail "a hang or crash instead of stuck"
grep -q "^walktorture: b_quick mode=sim .* PASS$" out || fail "b_quick did not run after it"
python3 - r.json >seed <<'EOF2' || fail "results"
import json, sys
d = json.load(open(sys.argv[1]))
sc = {s["name"]: s for s in d["scenarios"]}
a = sc["a_stuck"]
assert a["verdict"] == "FAIL" and "partial" not in a, a
assert a["iterations"] == 12 and a["failing_iterations"] >= 6, a
assert {f["kind"] for f in a["failures"]} == {"stuck"}, a["failures"]
assert {g["kind"] for g in a["groups"]} == {"stuck"}, a["groups"]
assert sum(g["count"] for g in a["groups"]) == a["failing_iterations"], a["groups"]
f2 = [f for f in a["failures"] if f["iteration"] == 4][0]
assert f2["replay"].startswith("walktorture replay " + f2["seed"]), f2
print(f2["seed"])
assert sc["b_quick"]["verdict"] == "PASS"
EOF2
grep -v '^replay:' out >isolated
# In-process, what an abandoned fiber allocated for itself (a history
# record it was building, resolve's copy of a path: ~170 bytes an
# iteration here) is not freed; the isolated child _exits, so only this
# run would have LeakSanitizer report it.
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" WT_ISOLATE=0 \
	"$wt" run "$data" --seed 1 >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "in-process run: exit $rc, not 1"
grep -v '^replay:' out | cmp -s - isolated || fail "in-process output differs from the isolated run's"
"$wt" replay "$(cat seed)" "$data/a_stuck.yaml" >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "replay: exit $rc, not 1"
grep -q "^walktorture: a_stuck !!! stuck iteration=0 seed=$(cat seed): stuck: no end within max_points=20000 points$" out ||
	fail "the replay is not stuck"
echo "ok"
exit 0

#!/bin/sh
# The per-scenario real-time cap (ctest scenario.cap, issue 21): a
# scenario whose budget would run for hours stops at --scenario-cap with
# a failure of kind hang and its results marked partial, and the run (or
# night) goes on with the next scenario.
#   tests/scenario_cap.sh WALKTORTURE SOURCE_DIR
set -u
wt=$1
data=$2/tests/data/cap
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; tail -20 out err 2>/dev/null; exit 1; }

"$wt" run "$data" --scenario-cap 1s --seed 1 --json r.json >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "run: exit $rc, not 1"
grep -Eq "^walktorture: a_endless !!! hang( seed=0x[0-9a-f]+)?: the scenario ran past its real-time cap of 1 s \(--scenario-cap\): stopped after [0-9]+ iterations, its budget unfinished$" out ||
	fail "no hang line"
grep -q "^walktorture: b_quick mode=sim .* PASS$" out || fail "b_quick did not run after it"
python3 - r.json <<'EOF' || fail "results"
import json, sys
d = json.load(open(sys.argv[1]))
sc = {s["name"]: s for s in d["scenarios"]}
a = sc["a_endless"]
assert a["verdict"] == "FAIL" and a.get("partial") is True, a
assert 0 < a["iterations"] < 1000000000, a["iterations"]
assert [f["kind"] for f in a["failures"]] == ["hang"], a["failures"]
assert "--iterations %d" % a["iterations"] in a["failures"][0]["replay"], a["failures"][0]
assert sc["b_quick"]["verdict"] == "PASS" and "partial" not in sc["b_quick"]
EOF
"$wt" run "$data" --scenario-cap 1.5 >out 2>err
[ $? -eq 2 ] || fail "--scenario-cap without a unit: not exit 2"
"$wt" nightly --help | grep -q -- "--scenario-cap T .*default 1800s" || fail "nightly: no default cap in --help"
echo "ok"
exit 0

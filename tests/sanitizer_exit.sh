#!/bin/sh
# A sanitizer's report exits 66, not 1 (ctest sanitizer.exit, issue 21):
# in the tsan and asan-ubsan builds `harness-fault sanitizer' makes the
# sanitizer report an error; run (isolated and in-process), replay and
# nightly exit 66, the report is on stderr, the night goes on and its
# results say what happened, and a plain failure still exits 1.  In
# other builds the fault does nothing: the scenario passes.
#   tests/sanitizer_exit.sh WALKTORTURE SOURCE_DIR
set -u
wt=$1
data=$2/tests/data/sanitizer
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; tail -20 out err 2>/dev/null; exit 1; }

"$wt" run "$data/b_fails.yaml" --seed 1 >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "a failing scenario: exit $rc, not 1"
if ! "$wt" --version | grep -Eq 'asan|tsan'; then
	"$wt" run "$data/a_sanitizer.yaml" --seed 1 >out 2>err ||
		fail "not a sanitizer build: the fault is a no-op, exit $?"
	echo "ok (not a sanitizer build)"
	exit 0
fi
sanitizer_report() {
	grep -Eq "ERROR: AddressSanitizer: heap-use-after-free|WARNING: ThreadSanitizer: data race" err ||
		fail "no sanitizer report on stderr"
}

"$wt" run "$data/a_sanitizer.yaml" --seed 1 >out 2>err
rc=$?
[ $rc -eq 66 ] || fail "run: exit $rc, not 66"
sanitizer_report
grep -q "sanitizer reported an error (exit 66; its report is on stderr) in iteration 0" out ||
	fail "run: no crash line naming the sanitizer"
grep -q "^walktorture: !!! a sanitizer reported an error in the harness (its report is on stderr): exit 66$" out ||
	fail "run: no closing line"

WT_ISOLATE=0 "$wt" run "$data/a_sanitizer.yaml" --seed 1 >out 2>err
rc=$?
[ $rc -eq 66 ] || fail "in-process run: exit $rc, not 66"
sanitizer_report

"$wt" replay 0x1 "$data/a_sanitizer.yaml" >out 2>err
rc=$?
[ $rc -eq 66 ] || fail "replay: exit $rc, not 66"

"$wt" nightly "$data" --seeds 1 --explore 0 --generated 0 --seed 1 \
	--out o >out 2>err
rc=$?
[ $rc -eq 66 ] || fail "nightly: exit $rc, not 66"
sanitizer_report
python3 - o/*/results-1-1-0.json <<'EOF' || fail "nightly results"
import json, sys
d = json.load(open(sys.argv[1]))
sc = {s["name"]: s for s in d["scenarios"]}
f = sc["a_sanitizer"]["failures"][0]
assert f["kind"] == "crash" and "sanitizer reported" in f["message"], f
assert sc["b_fails"]["verdict"] == "FAIL", sc["b_fails"]
EOF
echo "ok"
exit 0

#!/bin/sh
# `run --json FILE' killed with SIGKILL (ctest run.killed, issue 21):
# each finished scenario's result is in FILE's journal (r.json ->
# r.journal) before the next one starts; the killed run leaves no r.json
# and its journal holds what finished.  A new run into the same FILE
# refuses to overwrite that journal (exit 2, naming it and the command
# that recovers it); `merge r.journal -o r.json' and `report r.journal'
# make its results, marked partial ("killed").  A run that ends leaves
# no journal behind.
#   tests/run_kill.sh WALKTORTURE SOURCE_DIR
set -u
wt=$1
. "$2/tests/proc_lib.sh"
data=$2/tests/data/nightkill
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL $pid 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; grep -v '^==[0-9]*==' err 2>/dev/null | tail -5; tail -10 out 2>/dev/null; exit 1; }

# a_quiet passes, b_hang hangs (120 s): killed while b_hang runs
"$wt" run "$data" --seed 1 --json r.json >out 2>err &
pid=$!
n=0
while [ "$(grep -c '' r.journal 2>/dev/null)" != 1 ]; do
	n=$((n + 1))
	[ $n -gt 600 ] && fail "no journal line in 60 s"
	kill -0 $pid 2>/dev/null || fail "the run exited"
	sleep 0.1
done
n=0
while child=$(child_of $pid); [ -z "$child" ]; do
	n=$((n + 1))
	[ $n -gt 300 ] && fail "no child running b_hang"
	sleep 0.1
done
kill -KILL $pid
gone $pid 10
gone "$child" 10	# PR_SET_PDEATHSIG
pid=
[ -e r.json ] && fail "a killed run wrote r.json"
[ "$(grep -c '' r.journal)" -eq 1 ] || fail "r.journal: not one line"
cp r.journal kept

# the same --json again: refused before anything runs, journal intact
"$wt" run "$data/a_quiet.yaml" --json r.json >out 2>err
rc=$?
[ $rc -eq 2 ] || fail "a run over a left journal: exit $rc, not 2"
grep -q "^walktorture: r.journal: the journal of a run that did not finish .*walktorture merge r.journal -o r.json" err ||
	fail "no message naming the journal"
grep -q "run seed=" out && fail "it ran"
cmp -s r.journal kept || fail "r.journal changed"
[ -e r.json ] && fail "r.json written"

# its results: merge (and report) read a journal as a results file
"$wt" merge r.journal -o r.json >out 2>err || fail "merge r.journal: exit $?"
[ "$(json r.json 'd["run"].get("partial"), d["run"].get("interrupted"), [(s["name"], s["verdict"]) for s in d["scenarios"]]')" = \
  "True killed [('a_quiet', 'PASS')]" ] || fail "r.json: $(json r.json 'd["run"], [s["name"] for s in d["scenarios"]]')"
"$wt" report r.journal -o r.html >out 2>err || fail "report r.journal: exit $?"
grep -q "a_quiet" r.html || fail "r.html does not show a_quiet"
: >empty.journal
"$wt" report empty.journal -o e.html >out 2>err
[ $? -eq 2 ] || fail "an empty journal: not exit 2"
grep -q "^walktorture: empty.journal: no scenario finished\|^empty.journal: no scenario finished" err ||
	fail "an empty journal: no message"

# a run that ends: its results whole, no journal left
rm r.journal
"$wt" run "$data/a_quiet.yaml" --seed 1 --json r2.json >out 2>err || fail "a_quiet: exit $?"
[ -e r2.journal ] && fail "a finished run left its journal"
[ "$(json r2.json '"partial" in d["run"], len(d["scenarios"])')" = "False 1" ] || fail "r2.json"
echo "ok"
exit 0

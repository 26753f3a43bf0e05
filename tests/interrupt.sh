#!/bin/sh
# SIGINT/SIGTERM of run and nightly (ctest interrupt.CASE, issue 21):
# the run stops at an iteration boundary, prints the summary and the
# seed, writes its results marked partial (and a night records nothing
# in the history); an injected delay does not hold it up; a second
# signal exits at once.
#   tests/interrupt.sh WALKTORTURE SOURCE_DIR CASE
set -u
wt=$1
src=$2
. "$src/tests/proc_lib.sh"
case_=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; cat out err 2>/dev/null | tail -15; exit 1; }

# start CMD...: in the background, stdout in out, stderr in err; $pid.
start() {
	: >out
	"$@" >out 2>err &
	pid=$!
}

# wait_for PATTERN SECS: until out has a line matching PATTERN.
wait_for() {
	n=0
	while ! grep -Eq -- "$1" out; do
		n=$((n + 1))
		[ $n -gt $(($2 * 10)) ] && fail "no '$1' in $2 s"
		kill -0 $pid 2>/dev/null || fail "exited before '$1'"
		sleep 0.1
	done
}

# finish SECS: wait for $pid at most SECS; its exit status in $rc.
finish() {
	n=0
	while kill -0 $pid 2>/dev/null; do
		n=$((n + 1))
		if [ $n -gt $(($1 * 10)) ]; then
			kill -KILL $pid
			fail "still running $1 s after the signal"
		fi
		sleep 0.1
	done
	wait $pid
	rc=$?
}

# a stress scenario whose walker sleeps 300 s (timeout 120 s: not the
# watchdog's doing when it ends sooner)
cat >delay.yaml <<'EOF'
name: delay300
description: a 300 s injected delay, interrupted
mode: stress
sched: {timeout: 120s}
budget: {iterations: 100}
tree: |
  mkdir -p /a/b
inject:
  - at=seq.read thread=walker delay=300s
threads:
  walker:
    do:
      - stat /a/b
EOF

case $case_ in
run)
	nbasic=$(ls "$src"/scenarios/basic/*.yaml | wc -l)
	start "$wt" run basic --duration 60s --seed 1 --json p.json --jobs 2
	wait_for "^walktorture: run seed=" 20
	sleep 1
	kill -INT $pid
	finish 20
	[ $rc -eq 130 ] || fail "exit $rc, not 130"
	grep -q "^walktorture: interrupted by SIGINT after [0-9]* of $nbasic scenarios$" out ||
		fail "no 'interrupted' line"
	grep -Eq "^walktorture: [0-9]+ passed, [0-9]+ failed" out || fail "no summary"
	grep -q "^walktorture: run seed=0x1 interrupted by SIGINT" out ||
		fail "no seed on the interrupted line"
	[ "$(json p.json "d['run'].get('partial'), d['run'].get('interrupted')")" = "True SIGINT" ] ||
		fail "run not marked partial: $(json p.json "d['run']")"
	ran=$(json p.json "len(d['scenarios']) + len(d['skipped'])")
	[ "$ran" -ge 1 ] && [ "$ran" -lt "$nbasic" ] || fail "$ran scenarios in the results"
	# the ones cut short say so: those running at once (--jobs 2),
	# at the end; the ones before them do not
	json p.json "[s.get('partial', False) for s in d['scenarios']]" >parts
	grep -Eq "^\[(False, )*(True(, (True|False))?|False)\]$" parts ||
		fail "partial flags: $(cat parts)"
	"$wt" report p.json -o r.html >/dev/null 2>&1 || fail "report refuses the partial results"
	;;
stress_delay)
	# the injected 300 s sleep ends at the interrupt, not the timeout
	start "$wt" run delay.yaml --seed 1 --json p.json
	wait_for "^walktorture: run seed=" 20
	sleep 1
	kill -INT $pid
	finish 10
	[ $rc -eq 130 ] || fail "exit $rc, not 130"
	[ "$(json p.json "d['run'].get('partial')")" = True ] || fail "not partial"
	;;
twice)
	# a hang no boundary ends: the first signal waits for one, the
	# second exits at once, and the scenario's child goes with it
	start "$wt" run "$src/tests/data/isolation/b_hang.yaml" --seed 0 --iterations 3
	wait_for "^walktorture: run seed=" 20
	# its child, polled for up to 10 s: a loaded machine may fork it
	# late
	child=
	for i in $(seq 100); do
		sleep 0.1
		child=$(child_of $pid)
		[ -z "$child" ] || break
	done
	[ -n "$child" ] || fail "no isolated child"
	kill -INT $pid
	sleep 0.5
	kill -0 $pid 2>/dev/null || fail "the first signal ended the hang's run at once"
	kill -INT $pid
	finish 3
	[ $rc -eq 130 ] || fail "exit $rc, not 130"
	n=0
	while kill -0 "$child" 2>/dev/null; do
		n=$((n + 1))
		[ $n -gt 30 ] && fail "the child $child outlived its parent"
		sleep 0.1
	done
	;;
nightly)
	# a whole night first, then an interrupted one into the same OUT
	"$wt" nightly basic/quiet.yaml --seeds 1 --iterations 20 --explore 0 \
		--generated 0 --seed 1 --out n >out 2>err
	rc=$?
	[ $rc -le 1 ] || fail "first night: exit $rc"
	cp n/index.html index.before
	start "$wt" nightly basic --seeds 3 --duration 30s --explore 0 \
		--generated 0 --seed 2 --out n
	wait_for "^walktorture: nightly run 1/3 " 20
	sleep 1
	kill -TERM $pid
	finish 20
	[ $rc -eq 143 ] || fail "exit $rc, not 143"
	grep -q "^walktorture: night seed=0x2 interrupted by SIGTERM: partial results in n/" out ||
		fail "no interrupted line with the seed"
	night=$(sed -n 's|.*partial results in n/\([^,]*\),.*|\1|p' out)
	[ -n "$night" ] && [ -d "n/$night" ] || fail "no night directory '$night'"
	files=$(ls n/"$night"/results-*.json)
	[ "$(echo "$files" | wc -l)" -eq 1 ] || fail "results: $files"
	[ "$(json $files "d['run'].get('partial')")" = True ] || fail "$files not partial"
	"$wt" report $files -o r.html >/dev/null 2>&1 || fail "report refuses $files"
	# the history: whole, the first night only, untouched index
	python3 - n/history.sqlite "$night" <<'EOF' || fail "history"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
nights = [r[0] for r in db.execute("SELECT night_id FROM nights")]
assert len(nights) == 1 and sys.argv[2] not in nights, nights
assert db.execute("SELECT count(*) FROM results WHERE night_id = ?",
                  (sys.argv[2],)).fetchone()[0] == 0
EOF
	cmp -s n/index.html index.before || fail "the index was rewritten"
	ls -A n/"$night" | grep -q '\.tmp\.' && fail "a temporary was left"
	;;
*)
	fail "unknown case $case_"
	;;
esac
echo "ok: $case_"
exit 0

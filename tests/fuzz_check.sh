#!/bin/sh
# SPDX-License-Identifier: MIT
# Generated workloads as their users meet them (scenarios/CMakeLists.txt
# registers the cases):
#
#   fuzz_check.sh WT clean SEED N [FUZZ-OPTION...]
#	N workloads of run seed SEED pass on the clean build (exit 0),
#	under the options given (--memory tso).
#   fuzz_check.sh WT zoo BUG WITNESS SEED FIRST N|DURATION
#	`fuzz --bug BUG' from workload FIRST finds it (exit 1), the first
#	failure is of kind WITNESS (oracle, or a check's name), and the
#	reproducer it wrote reproduces it: its `rerun:' command fails with
#	the same verdict line (digest included), the same file without the
#	bug passes, and its first `replay:' command run in two processes
#	fails and prints byte-identical output (the trace digest with it).
#	The last argument is a workload count, or a duration (60s): the
#	budget within which the bug must be found.
#   fuzz_check.sh WT zoo BUG WITNESS SEED FIRST N|DURATION POLICY
#	The same through `run --generate --policy POLICY' (fuzz's other
#	spelling); under explore the replay checked is the first whose
#	line carries an iteration's schedule (--preempts), so two processes
#	must rebuild that schedule byte for byte.
set -u
wt=$1; mode=$2; shift 2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "fuzz_check: $*"; exit 1; }

case $mode in
clean)
	seed=$1; n=$2; shift 2
	"$wt" fuzz --seed "$seed" --workloads "$n" "$@" -o "$tmp" >"$tmp/log" 2>&1
	rc=$?
	tail -n 1 "$tmp/log"
	[ $rc -eq 0 ] || { grep -F '!!!' "$tmp/log" | head -n 20; \
		fail "clean build: fuzz exit $rc, not 0"; }
	exit 0
	;;
zoo)
	bug=$1; witness=$2; seed=$3; first=$4; budget=$5; policy=${6:-}
	case $budget in
	*s) lim="--duration $budget" ;;
	*) lim="--workloads $budget" ;;
	esac
	cmd=fuzz
	[ -z "$policy" ] || cmd="run --generate --policy $policy"
	# shellcheck disable=SC2086
	"$wt" $cmd --seed "$seed" --first "$first" $lim --bug "$bug" \
		-o "$tmp" >"$tmp/log" 2>&1
	rc=$?
	tail -n 1 "$tmp/log"
	[ $rc -eq 1 ] || fail "--bug $bug: fuzz exit $rc, not 1 (not found)"
	first_kind=$(grep -m 1 -E '^walktorture: gen\.[0-9a-f]+ !!! ' "$tmp/log")
	echo "$first_kind"
	case $witness in
	oracle) echo "$first_kind" | grep -q '!!! oracle ' ;;
	*) echo "$first_kind" | grep -q "!!! check .*: $witness at\|!!! check .*: $witness:" ;;
	esac || fail "the first failure is not of kind $witness"
	file=$(sed -n 's/^walktorture: fuzz !!! workload [0-9]* failed: reproducer //p' "$tmp/log" | head -n 1)
	[ -f "$file" ] || fail "no reproducer file '$file'"
	verdict=$(grep -E "^walktorture: gen\.[0-9a-f]+ mode=sim .* FAIL$" "$tmp/log" | head -n 1)
	rerun=$(sed -n 's/^rerun: walktorture //p' "$tmp/log" | head -n 1)
	# shellcheck disable=SC2086
	"$wt" $rerun >"$tmp/rerun" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "rerun '$rerun': exit $rc, not 1"
	grep -qxF "$verdict" "$tmp/rerun" || { grep 'mode=sim' "$tmp/rerun"; \
		fail "rerun's verdict differs from '$verdict'"; }
	"$wt" run "$file" --seed "$seed" >"$tmp/clean" 2>&1 || \
		fail "the reproducer fails without --bug $bug"
	replay=$(sed -n 's/^replay: walktorture //p' "$tmp/log" | head -n 1)
	if [ "$policy" = explore ]; then
		replay=$(sed -n 's/^replay: walktorture //p' "$tmp/log" | \
			grep -e ' --preempts ' | head -n 1)
		[ -n "$replay" ] || fail "no replay line carries --preempts"
	fi
	# shellcheck disable=SC2086
	# stdout only: a sanitizer's warnings on stderr carry the pid
	"$wt" $replay >"$tmp/replay1" 2>"$tmp/replay1.err"
	rc=$?
	# shellcheck disable=SC2086
	"$wt" $replay >"$tmp/replay2" 2>"$tmp/replay2.err"
	[ $rc -eq 1 ] || fail "replay '$replay': exit $rc, not 1"
	cmp -s "$tmp/replay1" "$tmp/replay2" || \
		fail "two replays of '$replay' differ"
	grep -q '^# trace events=.* digest=' "$tmp/replay1" || \
		fail "the replay printed no trace digest"
	echo "reproduced: $rerun; replay $replay twice, identical"
	exit 0
	;;
*)
	fail "unknown mode '$mode'"
	;;
esac

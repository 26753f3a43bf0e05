#!/bin/sh
# Every reproducer of tests/data/regress through the command its users
# run (ctest regress.inputs): each must exit 0, 1 or 2 within 10 s, and a
# refusal (2) must say why -- for scenario and tree files as
# file:line:col.  Under the asan-ubsan preset a sanitizer report aborts
# the command, which then fails this test.
#   tests/regress_inputs.sh WALKTORTURE SOURCE_DIR
set -u
wt=$1
src=$2
reg=$src/tests/data/regress
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# check WANT PATTERN CMD...: exit status one of WANT ("0 1 2"), and when
# it is 2, a line of stderr matching PATTERN (grep -E).
check() {
	want=$1 pat=$2
	shift 2
	timeout 10 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case " $want " in
	*" $rc "*) ;;
	*)	echo "FAIL: walktorture ${*#"$wt"}: exit $rc, want one of $want"
		head -5 "$tmp/err"
		fail=1
		return ;;
	esac
	if [ "$rc" -eq 2 ] && ! grep -Eq -- "$pat" "$tmp/err"; then
		echo "FAIL: walktorture ${*#"$wt"}: exit 2 without a message matching $pat"
		head -5 "$tmp/err"
		fail=1
	fi
}

for f in "$reg"/scenario/*; do
	check 2 "^$f:[0-9]+:[0-9]+: " "$wt" run "$f" --iterations 1
done
for f in "$reg"/tree/*; do
	check 2 "^$f:[0-9]+:[0-9]+: " "$wt" tree "$f"
done
for f in "$reg"/results/*; do
	check "0 2" "^(walktorture: )?$f: " "$wt" report "$f" -o "$tmp/r.html"
done
for f in "$reg"/order/*; do
	check "0 1 2" "^walktorture: $f:[0-9]+:[0-9]+: " \
		"$wt" replay 1 "$src/scenarios/basic/quiet.yaml" --order "$f"
done
for f in "$reg"/cpus/*; do
	check "0 1 2" "cpus" "$wt" run "$src/scenarios/basic/quiet.yaml" \
		--iterations 1 --cpus "$(cat "$f")"
done
# stuck iterations (max_points) whose threads hold locks: exit 1 with
# every one reported stuck, never a hang
for f in "$reg"/stuck/*; do
	check 1 "" "$wt" run "$f" --seed 5
	if ! grep -q "!!! stuck iteration=" "$tmp/out" ||
	   grep -q "!!! hang\|!!! crash" "$tmp/out"; then
		echo "FAIL: walktorture run $f --seed 5: not reported stuck"
		grep "!!!" "$tmp/out" | head -5
		fail=1
	fi
done
# the command line's own
check 2 "^/: .*[Ii]s a directory" "$wt" tree /
[ $fail -eq 0 ] && echo "regress: every input exited 0, 1 or 2 in time"
exit $fail

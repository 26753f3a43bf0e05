#!/bin/sh
# SPDX-License-Identifier: MIT
#
#	failed_world.sh WT FILE
#
# A failed iteration's world is dropped whole (tests/data/found/
# failed_world.yaml says why): under --bug unlazy_next_leak each of three
# iterations fails with the refcount check, none with a crash, and the
# run goes on to its end; without the bug the file passes.
set -u
wt=$1; file=$2
fail() { echo "failed_world: $*"; exit 1; }

out=$("$wt" run -n 3 --seed 1 --bug unlazy_next_leak "$file" 2>&1)
rc=$?
echo "$out" | tail -n 1
[ $rc -eq 1 ] || fail "--bug unlazy_next_leak: exit $rc, not 1"
echo "$out" | grep -q '!!! crash' && fail "an iteration crashed"
n=$(echo "$out" | grep -c '!!! check iteration=[0-9]* .*: refcount: at quiescence')
[ "$n" -eq 3 ] || fail "$n refcount failures, not 3"
"$wt" run -n 3 --seed 1 "$file" >/dev/null 2>&1 ||
	fail "the clean build's run failed"
exit 0

# SPDX-License-Identifier: MIT
# Helpers shared by the shell tests that kill or interrupt walktorture
# (interrupt.sh, night_kill.sh, run_kill.sh); sourced, never run.

# json FILE EXPR: python's value of EXPR over the document d.
json() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# child_of PID: the first child of PID (from /proc: no procps on a bare
# CI image), or nothing.
child_of() {
	awk -v p="$1" '$4 == p { print $1; exit }' /proc/[0-9]*/stat 2>/dev/null
}

# gone PID SECS: wait until PID has exited; fail (the caller's fail())
# when it is still alive after SECS.
gone() {
	n=0
	while kill -0 "$1" 2>/dev/null; do
		n=$((n + 1))
		[ $n -gt $(($2 * 10)) ] && fail "$1 still alive after $2 s"
		sleep 0.1
	done
}

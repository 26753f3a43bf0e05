#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Take a screenshot of an HTML report with headless Chromium, for the
# README (docs/report.png by default).  By default the report is of a
# fresh real run: the zoo scenario of a bug run with that bug, beside two
# scenarios that pass, so the page shows a real failure, its timeline and
# its replay command.  Given results files, it renders those instead.
#
# usage: scripts/screenshot-report.sh [-o PNG] [--size WxH] [--index PNG] [--seed S]
#                                     [--run BUG [SCENARIO...] | RESULTS.json...]
#
#   (no argument)    the README's screenshot: --run step_into_no_seq
#                    scenarios/zoo/follow_mount_no_stop.yaml
#                    scenarios/echild/restart.lookup_fast.parent_seq.yaml
#   --run BUG [SCENARIO...]
#                    a fresh run of scenarios/zoo/BUG.yaml and the SCENARIO
#                    files or suites (scenarios/..., as from the top) with
#                    --bug BUG, which must fail (exit 1)
#   --seed S         the run's seed (default 0x5eed)
#   RESULTS.json...  report these results files instead of running
#   -o PNG           the report screenshot (default: docs/report.png)
#   --size WxH       window size (default: 1280x2000)
#   --index PNG      also index two nights and screenshot the nightly index
#                    into PNG: with --run, the same scenarios run without
#                    the bug, then the failing run; else tests/data/pass.json,
#                    then the results
#
# The binary is $WALKTORTURE, else build/release or build/debug's.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/docs/report.png
index_png=
size=1280x2000
seed=0x5eed
bug=
run=

usage() {
	sed -n '/^# usage:/,/^# The binary/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	--size) [ $# -ge 2 ] || usage; size=$2; shift 2 ;;
	--index) [ $# -ge 2 ] || usage; index_png=$2; shift 2 ;;
	--seed) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
	--run) [ $# -ge 2 ] || usage; run=1; bug=$2; shift 2; break ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) echo "screenshot-report: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
if [ -z "$run" ] && [ $# -eq 0 ]; then
	run=1
	bug=step_into_no_seq
	set -- scenarios/zoo/follow_mount_no_stop.yaml scenarios/echild/restart.lookup_fast.parent_seq.yaml
fi
case $size in
*[!0-9x]*|x*|*x) echo "screenshot-report: --size wants WxH, not '$size'" >&2; exit 2 ;;
esac
case $out in /*) ;; *) out=$PWD/$out ;; esac
case $index_png in ''|/*) ;; *) index_png=$PWD/$index_png ;; esac

wt=${WALKTORTURE:-}
for candidate in "$top/build/release/cli/walktorture" "$top/build/debug/cli/walktorture"; do
	[ -n "$wt" ] && break
	[ -x "$candidate" ] && wt=$candidate
done
[ -n "$wt" ] && [ -x "$wt" ] || {
	echo "screenshot-report: no walktorture binary (build first, or set WALKTORTURE)" >&2
	exit 2
}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || {
	echo "screenshot-report: chromium not installed (apt-get install chromium)" >&2
	exit 2
}

tmp=$(mktemp -d /tmp/wt-screenshot.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

shoot() {	# URL PNG
	mkdir -p "$(dirname "$2")"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --hide-scrollbars --user-data-dir="$(mktemp -d "$tmp/profile.XXXXXX")" \
		--window-size="$(echo "$size" | tr x ,)" --screenshot="$2" "$1" \
		>/dev/null 2>>"$tmp/chromium.log" || {
		cat "$tmp/chromium.log" >&2
		exit 1
	}
	echo "screenshot-report: $2 ($size)"
}

# Run in $tmp/run, where scenarios/ is the tree's: the report then shows
# the command as a user at the top would type it (no temporary paths).
mkdir "$tmp/run"
ln -s "$top/scenarios" "$tmp/run/scenarios"
real_run() {	# NAME.json [SCENARIO...] [--bug BUG]
	json=$1
	shift
	status=0
	(cd "$tmp/run" && "$wt" run "scenarios/zoo/$bug.yaml" "$@" --seed "$seed" \
		--json "$json") >"$tmp/run/$json.log" 2>&1 || status=$?
	echo "screenshot-report: walktorture run scenarios/zoo/$bug.yaml $* --seed $seed --json $json: exit $status"
}

if [ -n "$run" ]; then
	[ -f "$top/scenarios/zoo/$bug.yaml" ] || {
		echo "screenshot-report: no scenarios/zoo/$bug.yaml (walktorture bugs)" >&2
		exit 2
	}
	real_run results.json "$@" --bug "$bug"
	[ "$status" -eq 1 ] || {
		cat "$tmp/run/results.json.log" >&2
		echo "screenshot-report: the run with --bug $bug did not fail" >&2
		exit 1
	}
	# The index's night 1: the same scenarios without the bug.
	if [ -n "$index_png" ]; then
		real_run clean.json "$@"
		[ "$status" -eq 0 ] || { cat "$tmp/run/clean.json.log" >&2; exit 1; }
	fi
	set -- "$tmp/run/results.json"
fi

"$wt" report "$@" -o "$tmp/report.html"
shoot "file://$tmp/report.html" "$out"

if [ -n "$index_png" ]; then
	night1=$top/tests/data/pass.json
	[ -z "$run" ] || night1=$tmp/run/clean.json
	"$wt" index --out "$tmp/nightly" --night night-1 "$night1" >/dev/null
	"$wt" index --out "$tmp/nightly" --night night-2 "$@" >/dev/null
	shoot "file://$tmp/nightly/index.html" "$index_png"
fi

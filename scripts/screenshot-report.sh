#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Render an HTML report from results JSON and take a screenshot of it with
# headless Chromium, for the README (docs/report.png by default).
#
# usage: scripts/screenshot-report.sh [-o PNG] [--size WxH] [--index PNG] [RESULTS.json...]
#
#   RESULTS.json...  results files (default: tests/data/fail_zoo.json)
#   -o PNG           the report screenshot (default: docs/report.png)
#   --size WxH       window size (default: 1280x2000)
#   --index PNG      also index two nights (tests/data/pass.json, then the
#                    results) and screenshot the nightly index into PNG
#
# The binary is $WALKTORTURE, else build/release or build/debug's.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/docs/report.png
index_png=
size=1280x2000

usage() {
	sed -n '/^# usage:/,/^# The binary/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	--size) [ $# -ge 2 ] || usage; size=$2; shift 2 ;;
	--index) [ $# -ge 2 ] || usage; index_png=$2; shift 2 ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) echo "screenshot-report: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- "$top/tests/data/fail_zoo.json"
case $size in
*[!0-9x]*|x*|*x) echo "screenshot-report: --size wants WxH, not '$size'" >&2; exit 2 ;;
esac

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

"$wt" report "$@" -o "$tmp/report.html"
shoot "file://$tmp/report.html" "$out"

if [ -n "$index_png" ]; then
	"$wt" index --out "$tmp/nightly" --night night-1 "$top/tests/data/pass.json" >/dev/null
	"$wt" index --out "$tmp/nightly" --night night-2 "$@" >/dev/null
	shoot "file://$tmp/nightly/index.html" "$index_png"
fi

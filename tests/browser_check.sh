#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A real browser renders what the unit tests only parse: headless Chromium
# loads a failing report and a two-night index from disk (file://, no
# network), its --dump-dom output (the DOM after parsing and the script)
# must hold the verdict, one SVG lane per trace thread, the failing event
# and the sparklines; its --screenshot must be a PNG of the window size
# asked for, and not blank.
#
# usage: tests/browser_check.sh WALKTORTURE DATA_DIR
# Exit 77 (ctest: skipped) when no Chromium is installed.
set -eu

wt=$1
data=$2
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
	echo "SKIPPED: chromium not installed (apt-get install chromium)"
	exit 77
fi

tmp=$(mktemp -d /tmp/wt-browser.XXXXXX)
fail() {
	echo "browser_check: FAIL: $*" >&2
	echo "browser_check: files kept in $tmp" >&2
	exit 1
}

chrome() {
	profile=$(mktemp -d "$tmp/profile.XXXXXX")
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --hide-scrollbars --user-data-dir="$profile" "$@" \
		2>>"$tmp/chromium.log"
}

# PNG width and height from the IHDR chunk (bytes 16..23, big-endian).
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%d %d\n",
		(($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }'
}

check_png() {	# FILE WIDTH HEIGHT
	[ -s "$1" ] || fail "$1: no screenshot"
	[ "$(od -An -c -j1 -N3 "$1" | tr -d ' ')" = PNG ] || fail "$1: not a PNG"
	size=$(png_size "$1")
	[ "$size" = "$2 $3" ] || fail "$1: ${size% *}x${size#* }, expected $2x$3"
	# A blank page compresses to a few kB; a rendered report does not.
	[ "$(wc -c <"$1")" -gt 40000 ] || fail "$1: suspiciously small (blank page?)"
}

"$wt" report "$data/fail_zoo.json" -o "$tmp/report.html" >/dev/null
"$wt" index --out "$tmp/out" --night n1 "$data/pass.json" >/dev/null
"$wt" index --out "$tmp/out" --night n2 "$data/fail_zoo.json" "$data/pass.json" >/dev/null

chrome --dump-dom "file://$tmp/report.html" >"$tmp/report.dom"
grep -q 'id="verdict">FAIL<' "$tmp/report.dom" || fail "report: no FAIL verdict in the DOM"
lanes=$(grep -o '<g class="lane" data-thread="[a-z]*"' "$tmp/report.dom" | wc -l)
[ "$lanes" -eq 3 ] || fail "report: $lanes timeline lanes, expected 3"
grep -q '<g class="ev failing" data-index="32">' "$tmp/report.dom" ||
	fail "report: failing event #32 not marked"
grep -q 'class="copy"' "$tmp/report.dom" || fail "report: no copy button"

chrome --dump-dom "file://$tmp/out/index.html" >"$tmp/index.dom"
grep -q 'id="verdict">FAIL<' "$tmp/index.dom" || fail "index: no FAIL verdict in the DOM"
grep -q 'data-points="2"' "$tmp/index.dom" || fail "index: no two-night sparkline"
grep -q 'href="n2/fail_zoo.html#s-0"' "$tmp/index.dom" || fail "index: no link to the failing report"
[ -f "$tmp/out/n2/fail_zoo.html" ] || fail "index: the linked report does not exist"

chrome --screenshot="$tmp/report.png" --window-size=1280,2000 "file://$tmp/report.html" >/dev/null
check_png "$tmp/report.png" 1280 2000
chrome --screenshot="$tmp/index.png" --window-size=1280,1200 "file://$tmp/out/index.html" >/dev/null
check_png "$tmp/index.png" 1280 1200

echo "browser_check: PASS ($browser: report and index render; lanes=$lanes)"
rm -rf "$tmp"

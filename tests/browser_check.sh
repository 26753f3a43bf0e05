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
# Then the same from real runs of the source tree's scenarios: night 1
# runs scenarios/basic and zoo/step_into_no_seq.yaml (passing), night 2
# the same with --bug step_into_no_seq on the zoo scenario; both are
# indexed.  A probe page loads the index in an iframe and measures every
# sparkline as laid out (its size, its polyline's length); the failing
# night and the failing scenario link to the report that exists and shows
# that scenario failing, with one timeline lane per thread.
#
# Every page must fit a 1280-pixel-wide window: a probe lays out the
# index (a night whose failing scenario has the longest name the source
# tree's suites have, and the real nights' index) and the reports in an
# iframe 1280 pixels wide, and the document must not be wider (no
# horizontal scrolling).
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

# The page in an iframe 1280 pixels wide: how wide its document is laid
# out ("scroll=W client=C"; W > C: a horizontal scroll bar).
width_page() {	# URL
	cat <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"><title>width</title></head>
<body style="margin:0"><iframe id="f" src="$1" width="1280" height="1000"
style="border:0"></iframe><pre id="out">no load</pre>
<script>
window.addEventListener('load', function () {
	var d = document.getElementById('f').contentDocument;
	document.getElementById('out').textContent = !d ? 'no access' :
		'scroll=' + d.documentElement.scrollWidth + ' client=' +
		d.documentElement.clientWidth;
});
</script></body></html>
EOF
}

fits_1280() {	# DIR PAGE (relative to DIR)
	width_page "$2" >"$1/width.html"
	chrome --allow-file-access-from-files --dump-dom "file://$1/width.html" >"$1/width.dom"
	w=$(sed -n 's/.*<pre id="out">scroll=\([0-9]*\) client=\([0-9]*\)<.*/\1 \2/p' "$1/width.dom")
	[ -n "$w" ] || fail "$1/$2: not measured ($1/width.dom)"
	[ "${w#* }" -eq 1280 ] || fail "$1/$2: laid out ${w#* } pixels wide, not 1280"
	[ "${w% *}" -le 1280 ] || fail "$1/$2: ${w% *} pixels wide in a 1280-pixel window"
	echo "${w% *}"
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

# The longest scenario name of the suites, and a key path as long.
sed 's/"legitimize_mnt.sync_umount_steal"/"restart.follow_mount.mount_lock.undirected"/g' \
	"$data/fail_zoo.json" >"$tmp/long_name.json"
grep -q '"restart.follow_mount.mount_lock.undirected"' "$tmp/long_name.json" ||
	fail "fail_zoo.json: no scenario legitimize_mnt.sync_umount_steal to rename"
"$wt" index --out "$tmp/long" --night n1 "$data/pass.json" >/dev/null
"$wt" index --out "$tmp/long" --night n2 "$tmp/long_name.json" "$data/pass.json" >/dev/null
long_width=$(fits_1280 "$tmp/long" index.html)
report_width=$(fits_1280 "$tmp" report.html)

chrome --screenshot="$tmp/report.png" --window-size=1280,2000 "file://$tmp/report.html" >/dev/null
check_png "$tmp/report.png" 1280 2000
chrome --screenshot="$tmp/index.png" --window-size=1280,1200 "file://$tmp/out/index.html" >/dev/null
check_png "$tmp/index.png" 1280 1200

# Real runs: two nights, the second with a zoo failure.
real_nights() {	# DIR
	scn=$top/scenarios
	"$wt" run "$scn/basic" "$scn/zoo/step_into_no_seq.yaml" --seed 0x5eed \
		--json "$1/n1.json" >"$1/n1.log" 2>&1 || fail "real night 1 does not pass ($1/n1.log)"
	"$wt" run "$scn/basic" --seed 0x5eee --json "$1/basic.json" >"$1/basic.log" 2>&1 ||
		fail "scenarios/basic does not pass ($1/basic.log)"
	status=0
	"$wt" run "$scn/zoo/step_into_no_seq.yaml" --bug step_into_no_seq --seed 0x5eee \
		--json "$1/zoo.json" >"$1/zoo.log" 2>&1 || status=$?
	[ "$status" -eq 1 ] || fail "the zoo run with its bug exits $status, expected 1"
	"$wt" index --out "$1/out" --night real-1 "$1/n1.json" >/dev/null
	"$wt" index --out "$1/out" --night real-2 "$1/basic.json" "$1/zoo.json" >/dev/null
}

# The index in an iframe; the probe writes what the layout made of it.
probe_page() {	# INDEX_URL
	cat <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"><title>probe</title></head><body>
<iframe id="f" src="$1" width="1280" height="1200"></iframe><pre id="out">no load</pre>
<script>
window.addEventListener('load', function () {
	var out = [], d = document.getElementById('f').contentDocument;
	if (!d) { document.getElementById('out').textContent = 'no access'; return; }
	d.querySelectorAll('svg.spark:not(.strip)').forEach(function (s) {
		var r = s.getBoundingClientRect(), p = s.querySelector('polyline');
		out.push('spark ' + Math.round(r.width) + 'x' + Math.round(r.height) + ' points=' +
			s.getAttribute('data-points') + ' len=' + (p ? p.getTotalLength() : 0).toFixed(1));
	});
	document.getElementById('out').textContent = out.join(' | ');
});
</script></body></html>
EOF
}

# Section s-K of a report DOM: its heading's text.
section_heading() {	# DOM K
	awk -v id="id=\"s-$2\"" 'index($0, id) { on = 1 } on && /<h2>/ { print; exit }' "$1" |
		sed 's/<[^>]*>//g'
}

top=$(cd "$(dirname "$0")/.." && pwd)
real=$tmp/real
mkdir -p "$real"
real_nights "$real"
chrome --dump-dom "file://$real/out/index.html" >"$real/index.dom"
grep -q 'id="verdict">FAIL<' "$real/index.dom" || fail "real index: no FAIL verdict"
probe_page "out/index.html" >"$real/probe.html"
chrome --allow-file-access-from-files --dump-dom "file://$real/probe.html" >"$real/probe.dom"
sparks=$(grep -o 'spark 72x18 points=2 len=[1-9][0-9.]*' "$real/probe.dom" | wc -l)
# two sparklines (walks, failures) a scenario seen on both nights: basic's and the zoo one
want=$(( 2 * ($(ls "$top/scenarios/basic/"*.yaml | wc -l) + 1) ))
[ "$sparks" -eq "$want" ] ||
	fail "real index: $sparks two-night sparklines laid out with a line, expected $want ($real/probe.dom)"
grep -q '<title>failures per night, oldest first: 0 3</title>' "$real/index.dom" ||
	fail "real index: step_into_no_seq's failures sparkline is not 0 then 3"
night=$(grep '<td class="m">real-2</td>' "$real/index.dom") || fail "real index: no row for night real-2"
echo "$night" | grep -q '<a href="real-2/zoo.html" class="bad">' ||
	fail "real index: the failing night does not link to its report"
grep -q '<a href="real-2/zoo.html#s-0" class="bad">report</a>' "$real/index.dom" ||
	fail "real index: the failing scenario does not link to its section"
[ -f "$real/out/real-2/zoo.html" ] || fail "real index: the linked report does not exist"
chrome --dump-dom "file://$real/out/real-2/zoo.html" >"$real/zoo.dom"
grep -q 'id="verdict">FAIL<' "$real/zoo.dom" || fail "real report: no FAIL verdict"
section_heading "$real/zoo.dom" 0 | grep -q 'FAIL zoo / step_into_no_seq' ||
	fail "real report: #s-0 is not the failing step_into_no_seq"
real_lanes=$(grep -o '<g class="lane" data-thread="[a-z]*"' "$real/zoo.dom" | sort | uniq -c |
	awk '{ printf "%s%s=%s", sep, $4, $1; sep = " " }')
[ "$real_lanes" = 'data-thread="exchanger"=2 data-thread="remover"=2 data-thread="walker"=2' ] ||
	fail "real report: lanes $real_lanes, expected two traced failures of walker, exchanger, remover"
real_width=$(fits_1280 "$real/out" index.html)
fits_1280 "$real/out" real-2/zoo.html >/dev/null
chrome --screenshot="$real/index.png" --window-size=1280,1000 "file://$real/out/index.html" >/dev/null
check_png "$real/index.png" 1280 1000

echo "browser_check: PASS ($browser: report and index render; lanes=$lanes; real runs: sparklines=$sparks; widths at 1280: index $long_width, report $report_width, real index $real_width)"
rm -rf "$tmp"

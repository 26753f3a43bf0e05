#!/bin/sh
# A nightly killed with SIGKILL (ctest night.killed, issue 21): each
# finished scenario's result is in the seed's journal; the next night
# recovers it into partial results marked "killed", removes the dead
# night's stale temporaries and an empty dead night, leaves a running
# night and foreign directories alone, and the index lists the
# unfinished nights.
#   tests/night_kill.sh WALKTORTURE SOURCE_DIR
set -u
wt=$1
. "$2/tests/proc_lib.sh"
data=$2/tests/data/nightkill
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL $pid 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; tail -15 out err 2>/dev/null; exit 1; }

# night_hang: a night whose first scenario passes and whose second hangs
# (120 s), started in the background; returns once the first one's
# result is in the journal, with $pid, $child and $night set
night_hang() {
	"$wt" nightly "$data" --seeds 1 --explore 0 --generated 0 --seed 1 \
		--out o >out 2>err &
	pid=$!
	n=0
	while :; do
		j=$(ls o/*/results-1-1-0.journal 2>/dev/null | head -1)
		[ -n "$j" ] && [ "$(grep -c '' "$j")" -ge 1 ] && break
		n=$((n + 1))
		[ $n -gt 600 ] && fail "no journal line in 60 s"
		kill -0 $pid 2>/dev/null || fail "the night exited"
		sleep 0.1
	done
	night=$(basename "$(dirname "$j")")
	n=0
	while child=$(child_of $pid); [ -z "$child" ]; do
		n=$((n + 1))
		[ $n -gt 300 ] && fail "no child running b_hang"
		sleep 0.1
	done
}

mkdir o
night_hang
killed=$night
kill -KILL $pid
wait $pid 2>/dev/null
pid=
gone "$child" 10
# on disk: the journal's one line, no results file, no index, no history
j=o/$killed/results-1-1-0.journal
[ "$(grep -c '' $j)" -eq 1 ] || fail "journal: $(grep -c '' $j) lines"
[ -e o/$killed/results-1-1-0.json ] && fail "a results file after the kill"
[ -e o/index.html ] && fail "an index after the kill"
python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).readline()); \
assert [s['name'] for s in d['scenarios']] == ['a_quiet'], d['scenarios']" $j ||
	fail "the journal's line"
# what a crash can leave: a line cut short, a temporary; a night that
# died before its first result; a directory that is not a night
printf '{"schema":"walktorture-res' >>$j
: >o/$killed/.results-1-1-0.json.tmp.AbC123
mkdir -p o/2020-01-01T000000Z/generated o/mine
: >o/.index.html.tmp.XyZ123	# an index write that died before its rename
: >o/2020-01-01T000000Z/.night.lock
: >o/2020-01-01T000000Z/generated/gen.1.yaml
: >o/mine/results-1-1-0.journal

# the next night
"$wt" nightly "$data/a_quiet.yaml" --seeds 1 --explore 0 --generated 0 \
	--seed 2 --out o >out 2>err || fail "second night: exit $?"
grep -q "^walktorture: night $killed was killed: 1 scenario line(s) of its journal recovered into o/$killed/results-1-1-0.json (partial); a line cut short dropped$" out ||
	fail "no recovery line"
grep -q "^walktorture: night $killed: removed the stale temporary o/$killed/.results-1-1-0.json.tmp.AbC123$" out ||
	fail "no stale temporary line"
grep -q "^walktorture: night 2020-01-01T000000Z was killed before any scenario finished: removed o/2020-01-01T000000Z$" out ||
	fail "no empty night line"
grep -q "^walktorture: removed the stale temporary o/.index.html.tmp.XyZ123$" out ||
	fail "no OUT temporary line"
[ -e o/.index.html.tmp.XyZ123 ] && fail "OUT's temporary was left"
grep -q "^walktorture: unfinished night $killed (killed): 1 scenarios, 0 failed, in o/$killed; not in the history$" out ||
	fail "no unfinished night line"
r=o/$killed/results-1-1-0.json
[ "$(json $r "d['run']['partial'], d['run']['interrupted'], [s['name'] for s in d['scenarios']], d['summary']")" = \
  "True killed ['a_quiet'] {'passed': 1, 'failed': 0}" ] || fail "recovered: $(json $r "d['run'], d['summary']")"
"$wt" report $r -o r.html >/dev/null 2>&1 || fail "report refuses $r"
[ -e $j ] && fail "the journal was left"
ls -A o/$killed | grep -q '\.tmp\.' && fail "the temporary was left"
[ -e o/2020-01-01T000000Z ] && fail "the empty dead night was left"
[ -e o/mine/results-1-1-0.journal ] || fail "a foreign directory was touched"
# the index: the killed night, as such, with its results
python3 - o/index.html "$killed" <<'EOF' || fail "index"
import re, sys
page = open(sys.argv[1]).read()
i = page.index("Unfinished nights")
row = re.search(r'<tr class="unfinished">(.*?)</tr>', page[i:]).group(1)
assert sys.argv[2] in row and "<td>killed</td>" in row, row
assert 'href="%s/results-1-1-0.json"' % sys.argv[2] in row, row
EOF
# the history holds the second night only, whole
python3 - o/history.sqlite "$killed" <<'EOF' || fail "history"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
nights = [r[0] for r in db.execute("SELECT night_id FROM nights")]
assert len(nights) == 1 and sys.argv[2] not in nights, nights
EOF

# a night that is running is not a dead one: left alone, listed running
night_hang
running=$night
: >o/.index.html.tmp.Run123	# perhaps the running night's: left alone
"$wt" nightly "$data/a_quiet.yaml" --seeds 1 --explore 0 --generated 0 \
	--seed 3 --out o >out2 2>err2 || fail "third night: exit $?"
grep -q "^walktorture: night $running is running (another nightly holds o/$running/.night.lock)$" out2 ||
	fail "no running line: $(cat out2)"
grep -q "night $running was killed" out2 && fail "the running night was taken for dead"
[ -e o/$running/results-1-1-0.journal ] || fail "the running night's journal was touched"
grep -A3 "$running" o/index.html | grep -q "<td>running</td>" || fail "index: not running"
[ -e o/.index.html.tmp.Run123 ] || fail "an OUT temporary removed while a night runs"
kill -KILL $pid
wait $pid 2>/dev/null
pid=
gone "$child" 10
echo "ok"
exit 0

#!/usr/bin/env bash
# The command line as its users meet it, from the option tables outward:
#   cli.sh WALKTORTURE CASE [MANPAGE | COMPLETION | BUILD_DIR]
# Each case fails (exit 1, saying why) when the binary does not behave;
# the option lists come from `walktorture options', the tables themselves,
# so a new option is checked without touching this file.
set -u
W=$1
CASE=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_usage_error "ARGS..." REGEX: exit 2, nothing on stdout, and the
# first line of stderr is "walktorture: ..." matching REGEX.
expect_usage_error() {
	local want=$1; shift
	"$W" "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "walktorture $*: exit $rc, not 2"
	[ -s "$TMP/out" ] && fail "walktorture $*: wrote to stdout: $(head -1 "$TMP/out")"
	head -1 "$TMP/err" | grep -Eq "^walktorture: " ||
		fail "walktorture $*: stderr does not start 'walktorture: ': $(head -1 "$TMP/err")"
	head -1 "$TMP/err" | grep -Eq -- "$want" ||
		fail "walktorture $*: '$(head -1 "$TMP/err")' does not match '$want'"
}

commands() { "$W" options | cut -f1 | uniq; }

# stderr without a sanitizer's own notes ("==PID==WARNING: ASan doesn't
# fully support makecontext..."): what walktorture itself wrote there.
own_err() { grep -v '^==[0-9]*==' "$1"; }

case $CASE in
help)
	# Every command's --help (and -h, and `help COMMAND') lists every
	# option of its table, long and short, in the usage line and with
	# a line of help; exit 0, on stdout.
	n=0
	"$W" options >"$TMP/options" || fail "walktorture options: exit $?"
	for c in $(cut -f1 "$TMP/options" | uniq); do
		for form in "$c --help" "$c -h" "help $c"; do
			"$W" $form >"$TMP/help" 2>"$TMP/err" || fail "walktorture $form: exit $?"
			[ -s "$TMP/err" ] && fail "walktorture $form: wrote to stderr"
			head -1 "$TMP/help" | grep -q "^usage: walktorture $c\b" ||
				fail "walktorture $form: first line: $(head -1 "$TMP/help")"
		done
		# the usage lines: up to the first blank line
		usage=$(sed '/^$/q' "$TMP/help")
		help=$(cat "$TMP/help")
		while IFS=$'\t' read -r cmd long short arg; do
			[ "$cmd" = "$c" ] || continue
			n=$((n + 1))
			[ "$long" = --help ] || [[ $usage =~ [[:space:]]\[?$long( |\]|$) ]] ||
				fail "$c: $long is not in the usage line"
			[[ $help =~ (^|$'\n')(  (-., |    )$long( [^$'\n']*)?)($'\n'|$) ]] ||
				fail "$c: $long has no help line"
			line=${BASH_REMATCH[2]}
			[ "$short" = - ] || [[ $line == "  $short, $long"* ]] ||
				fail "$c: $long's help line lacks $short: $line"
			[ "$arg" = - ] || [[ $line == *"$long $arg "* ]] ||
				fail "$c: $long's help line lacks its value $arg"
			text=${line#*"$long"}
			text=${text#" $arg"}
			[ "$arg" = - ] && text=${line#*"$long"}
			text=${text#"${text%%[! ]*}"}
			[ ${#text} -gt 8 ] || fail "$c: $long's help is empty: '$line'"
		done <"$TMP/options"
	done
	[ $n -gt 40 ] || fail "only $n options listed by walktorture options"
	echo "ok: $(commands | wc -l) commands, $n options"
	;;
equals)
	# --opt=value, --opt value, -o value and -ovalue are one command
	# line: the same seed, iterations and digests; and the results
	# record the line as typed (not as getopt permuted it).
	"$W" run basic/quiet --seed=5 --iterations=2 --json="$TMP/a.json" >/dev/null
	"$W" run --seed 5 basic/quiet --iterations 2 --json "$TMP/b.json" >/dev/null
	"$W" run -s5 -n 2 -j "$TMP/c.json" basic/quiet >/dev/null
	python3 - "$TMP" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
docs = [json.load(open(f"{d}/{x}.json")) for x in "abc"]
for doc in docs:
    assert doc["run"]["seed"] == "0x5", doc["run"]["seed"]
    sc = doc["scenarios"]
    assert len(sc) == 1 and sc[0]["iterations"] == 2, sc[0]["iterations"]
digests = {doc["scenarios"][0]["digest"] for doc in docs}
assert len(digests) == 1, digests
assert docs[1]["run"]["command"].endswith(
    "run --seed 5 basic/quiet --iterations 2 --json " + d + "/b.json"), docs[1]["run"]["command"]
print("ok: three spellings, one digest", digests.pop())
PY
	"$W" report "$TMP/a.json" --output="$TMP/r.html" --top=5 >/dev/null ||
		fail "report --output=FILE --top=5"
	grep -q '<html' "$TMP/r.html" || fail "report --output=: no HTML written"
	"$W" merge --output="$TMP/m.json" "$TMP/a.json" "$TMP/b.json" >/dev/null ||
		fail "merge --output=FILE"
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['scenarios'][0]['iterations'] == 4, d['scenarios'][0]['iterations']" "$TMP/m.json" ||
		fail "merge --output=: not the two runs merged"
	"$W" run -- basic/quiet --seed=5 >"$TMP/out" 2>&1
	[ $? -eq 2 ] && grep -q "unknown scenario or suite '--seed=5'" "$TMP/out" ||
		fail "after --, --seed=5 is an operand"
	;;
did_you_mean)
	# An unknown command, option, bug or suite: a suggestion when one is
	# near, none when nothing is, and exit 2.
	expect_usage_error "unknown command 'rnu'; did you mean 'run'\?" rnu
	expect_usage_error "unknown command 'nigthly'; did you mean 'nightly'\?" nigthly
	expect_usage_error "unknown command 'xyzzy'$" xyzzy
	expect_usage_error "run: unknown option '--seeds'; did you mean '--seed'\?" run --seeds 3 basic
	expect_usage_error "nightly: unknown option '--sedes'; did you mean '--seeds'\?" nightly --sedes 3
	expect_usage_error "run: unknown option '--undirectd'; did you mean '--undirected'\?" run --undirectd basic
	expect_usage_error "run: unknown option '--frobnicate' \(" run --frobnicate basic
	expect_usage_error "unknown bug 'free_no_grac'; did you mean 'free_no_grace'\?" run --bug free_no_grac basic
	expect_usage_error "unknown bug 'free_no_grac'; did you mean 'free_no_grace'\?" replay --bug=free_no_grac 1 basic/quiet
	expect_usage_error "zoo-bench: unknown bug 'inode_no_sq'; did you mean 'inode_no_seq'\?" zoo-bench inode_no_sq
	expect_usage_error "unknown scenario or suite 'basci'; did you mean 'basic'\?" run basci
	expect_usage_error "unknown scenario or suite 'mount'; did you mean 'mounts'\?" nightly mount
	expect_usage_error "unknown scenario or suite 'nothing-like-it'$" run nothing-like-it
	grep -q "^walktorture: suites: .*basic" "$TMP/err" || fail "no suite list after an unknown suite"
	expect_usage_error "bad --jobs '0' \(a count from 1 to 256\)" run --jobs 0 basic
	expect_usage_error "bad --jobs '2x' \(a count from 1 to 256\)" nightly --jobs 2x
	;;
bad_flags)
	# Every command refuses an unknown flag, a missing value and a
	# value given to a flag, with one "walktorture: COMMAND: ..." line,
	# before doing anything.
	for c in $(commands); do
		expect_usage_error "^walktorture: $c: unknown option '--frobnicate'" $c --frobnicate
		expect_usage_error "^walktorture: $c: unknown option '-Z'" $c -Z
	done
	# one value-taking option and one flag of each command
	"$W" options | sort -t$'\t' -k1,1 -k4,4 -u | while IFS=$'\t' read -r cmd long short arg; do
		if [ "$arg" = - ]; then
			[ "$long" = --help ] && continue
			expect_usage_error "$cmd: option '$long' takes no value" $cmd "$long=1"
		else
			expect_usage_error "$cmd: option '$long' needs a value \($arg\)" $cmd "$long"
		fi
	done || exit 1
	expect_usage_error "nightly: ambiguous option '--se' \(it begins 2 options" nightly --se 1
	expect_usage_error "lookup: --tree FILE is required" lookup /a
	expect_usage_error "tree: no tree file given" tree
	expect_usage_error "bugs: unexpected operand 'x'" bugs x
	;;
values)
	# Values that parsed as something else (issue 21): counts that
	# wrapped, a bare number taken as nanoseconds, a failure number
	# below 0; each refused with a line naming the flag, exit 2.
	cd "$TMP" || fail "cd $TMP"
	expect_usage_error "bad --seeds '-1' \(a count from 1 to" nightly basic --seeds -1
	expect_usage_error "bad --seeds '99999999999999999999'" nightly basic --seeds 99999999999999999999
	expect_usage_error "bad --generated '-3'" nightly basic --generated -3
	expect_usage_error "bad --shard '1/-1'" nightly basic --shard 1/-1
	expect_usage_error "--duration '1.5': give a unit \(ns, us, ms, s, m or h\), e.g. 1.5s" run basic --duration 1.5
	expect_usage_error "--duration '2': give a unit" fuzz --duration 2
	expect_usage_error "--explore '3': give a unit" nightly basic --explore 3
	expect_usage_error "zoo-bench: bad duration '10x'" zoo-bench --generated-cap 10x
	expect_usage_error "R.json#-1: bad failure number '-1'" replay R.json#-1
	expect_usage_error "R.json#: bad failure number ''" replay R.json#
	expect_usage_error "^walktorture: unable to open R.json" replay R.json#0
	[ -e nightly ] && fail "a refused nightly made its directory"
	# --duration with its unit still works
	"$W" run basic/quiet.yaml --duration 1.5ms >/dev/null 2>&1 ||
		[ $? -eq 1 ] || fail "run --duration 1.5ms: exit $?"
	# ... and so do minutes (a night's fuzz is given as --duration 25m)
	"$W" run basic/quiet.yaml --duration 0.0001m >/dev/null 2>&1 ||
		[ $? -eq 1 ] || fail "run --duration 0.0001m: exit $?"
	;;
outputs)
	# Output paths are checked before anything runs: nothing on stdout
	# (a run prints its seed first), no night directory, exit 2.
	cd "$TMP" || fail "cd $TMP"
	mkdir adir
	echo "not a database" >notdb
	expect_usage_error "^walktorture: --out: an empty path" nightly basic --out ''
	expect_usage_error "^walktorture: --history: an empty path" nightly basic --out o1 --history ''
	expect_usage_error "^walktorture: --history adir: not a regular file" nightly basic --out o2 --history adir
	expect_usage_error "^walktorture: --history: notdb: not a history database" nightly basic --out o3 --history notdb
	expect_usage_error "^walktorture: --out: notdb/x: cannot create directory" nightly basic --out notdb/x
	expect_usage_error "^walktorture: --out: notdb/.walktorture-probe: cannot create a temporary file: Not a directory" run basic --out notdb
	expect_usage_error "^walktorture: --ktap: nodir/k.tap: cannot create a temporary file" nightly basic --out o4 --ktap nodir/k.tap
	expect_usage_error "^walktorture: --json: an empty path" run basic --json ''
	expect_usage_error "^walktorture: --json adir: is a directory" run basic --json adir
	expect_usage_error "^walktorture: --json: nodir/r.json: cannot create a temporary file" run basic --json nodir/r.json
	expect_usage_error "^walktorture: --out: an empty path" run basic --out ''
	expect_usage_error "^walktorture: --junit: nodir/j.xml" run basic --junit nodir/j.xml
	expect_usage_error "^walktorture: --history: an empty path" index --out o5 --history ''
	for d in o1 o2 o3 o4; do
		[ -z "$(ls -A "$d" 2>/dev/null | grep -v '^history.sqlite$')" ] ||
			fail "a refused nightly left $d/$(ls "$d")"
	done
	[ "$(cat notdb)" = "not a database" ] || fail "notdb was changed"
	[ -z "$(ls -A adir)" ] || fail "a probe was left in adir: $(ls -A adir)"
	case $(ls -A .) in
	*.tmp.*) fail "a temporary was left: $(ls -A .)" ;;
	esac
	;;
progress)
	# A log (stderr not a terminal): a "walktorture: progress" line after
	# a scenario once WT_PROGRESS_INTERVAL seconds passed (0: after each),
	# counting up to N of N; none within the default 30 s; nothing of it
	# on stdout.
	WT_PROGRESS_INTERVAL=0 "$W" run basic --seed 1 >"$TMP/out" 2>"$TMP/err" ||
		fail "run basic: exit $?"
	own_err "$TMP/err" >"$TMP/err.own"
	n=$(grep -c '^walktorture: run seed=0x1 scenarios=' "$TMP/out")
	total=$(sed -n 's/^walktorture: run seed=0x1 scenarios=\([0-9]*\)$/\1/p' "$TMP/out")
	[ "$n" = 1 ] && [ -n "$total" ] || fail "no run line: $(head -1 "$TMP/out")"
	grep -q progress "$TMP/out" && fail "a progress line on stdout"
	k=0
	while read -r line; do
		k=$((k + 1))
		echo "$line" | grep -Eq "^walktorture: progress scenarios=$k/$total failed=0 elapsed=[0-9]+s eta=[0-9]+s$" ||
			fail "progress line $k: '$line'"
	done <"$TMP/err.own"
	[ "$k" = "$total" ] || fail "$k progress lines for $total scenarios"
	t0=$(date +%s)
	"$W" run basic --seed 1 >/dev/null 2>"$TMP/err" || fail "run basic: exit $?"
	# (a sanitizer build on a slow machine may take the 30 s)
	if [ $(( $(date +%s) - t0 )) -lt 29 ] && [ -n "$(own_err "$TMP/err")" ]; then
		fail "a progress line within 30 s: $(own_err "$TMP/err" | head -1)"
	fi
	# A terminal: one line rewritten in place, with the scenario's place
	# in the run, its iterations and the time so far.
	python3 -c 'import pty, sys; pty.spawn(sys.argv[1:])' "$W" run basic/quiet \
		--iterations 2000 --seed 1 </dev/null >"$TMP/tty" 2>&1 ||
		fail "run under a terminal: exit $?"
	grep -aq $'\r\033\[Kwalktorture: \[1/1 [0-9]*s\] quiet iteration [0-9]*/2000 failures=0' "$TMP/tty" ||
		fail "no progress line on the terminal: $(head -c 300 "$TMP/tty" | od -c | head -5)"
	;;

quiet)
	# --quiet: a passing scenario prints its verdict line only, a failing
	# one its failures, expectations and verdict; no progress anywhere.
	WT_PROGRESS_INTERVAL=0 "$W" run basic --seed 1 -q >"$TMP/out" 2>"$TMP/err" ||
		fail "run -q basic: exit $?"
	[ -n "$(own_err "$TMP/err")" ] && fail "run -q wrote to stderr: $(own_err "$TMP/err" | head -1)"
	total=$(sed -n 's/^walktorture: run seed=0x1 scenarios=\([0-9]*\)$/\1/p' "$TMP/out")
	v=$(grep -Ec '^walktorture: [a-z0-9_.-]+ mode=sim seed=0x[0-9a-f]+ iterations=[0-9]+ failures=0 digest=[0-9a-f]+ PASS$' "$TMP/out")
	[ "$v" = "$total" ] || fail "$v verdict lines for $total scenarios"
	[ "$(wc -l <"$TMP/out")" -eq $((total + 2)) ] ||
		fail "run -q printed more than its verdicts: $(grep -v ' PASS$' "$TMP/out" | head -3)"
	"$W" run zoo/step_into_no_seq --bug step_into_no_seq --seed 1 --quiet \
		>"$TMP/out" 2>&1
	[ $? -eq 1 ] || fail "run -q of a zoo bug: not exit 1"
	grep -q '^walktorture: step_into_no_seq !!! ' "$TMP/out" || fail "no failure line"
	grep -q '^replay: walktorture replay ' "$TMP/out" || fail "no replay line"
	grep -q '^walktorture: step_into_no_seq expect .* !!! FAILED' "$TMP/out" ||
		fail "the failed expectations are not shown"
	grep -q 'FAIL$' "$TMP/out" || fail "no FAIL verdict"
	WT_PROGRESS_INTERVAL=0 "$W" nightly basic --seeds 1 --seed 1 --explore 0 --generated 0 \
		-q -o "$TMP/night" >"$TMP/out" 2>"$TMP/err" || fail "nightly -q: exit $?"
	grep -Eq ' (paths|walks=)' "$TMP/out" && fail "nightly -q printed a scenario's stats"
	if grep -q progress "$TMP/err"; then fail "nightly -q printed progress"; fi
	;;

man)
	# walktorture(1) documents every command and every option of the
	# tables (long, short, value) in the command's section, and no
	# option the tables do not have.
	MAN=$3
	"$W" options >"$TMP/options" || fail "walktorture options: exit $?"
	# section per command: the lines from .SS "CMD" to the next .SS
	for c in $(cut -f1 "$TMP/options" | uniq); do
		# the tag lines (after .TP) of the section
		awk -v c="$c" '/^\.SS /{ on = ($0 == ".SS \"" c "\""); found += on }
			on && prev == ".TP" { print } { prev = $0 }
			END { if (!found) print "NO SECTION" }' "$MAN" |
			sed 's/\\-/-/g; s/\\f[BIR]//g' >"$TMP/man.$c"
		grep -q "NO SECTION" "$TMP/man.$c" && fail "$MAN: no section .SS \"$c\""
		grep -E '^--[a-z]|^-[a-z], --' "$TMP/man.$c" |
			sed -E 's/^-., //; s/ .*//' | sort >"$TMP/man_opts.$c"
	done
	n=0
	while IFS=$'\t' read -r cmd long short arg; do
		[ "$long" = --help ] && continue
		n=$((n + 1))
		line=$(grep -E -- "^(-., )?$long( |$)" "$TMP/man.$cmd") ||
			fail "$MAN: $cmd $long is not documented"
		[ "$short" = - ] || [[ $line == "$short, $long"* ]] ||
			fail "$MAN: $cmd $long: no $short in '$line'"
		[ "$arg" = - ] || [[ $line == *"$long $arg" ]] ||
			fail "$MAN: $cmd $long: value not $arg in '$line'"
	done <"$TMP/options"
	for c in $(cut -f1 "$TMP/options" | uniq); do
		while read -r long; do
			grep -q -P "^$c\t$long\t" "$TMP/options" ||
				fail "$MAN: $c $long is documented but not an option"
		done <"$TMP/man_opts.$c"
	done
	grep -q '^\.SS "common to every command"' "$MAN" &&
		grep -q -- '-h, --help' <(sed 's/\\-/-/g; s/\\f[BIR]//g' "$MAN") ||
		fail "$MAN: --help is not documented"
	echo "ok: $n options documented"
	;;
completion)
	# The bash completion (cli/walktorture.bash) offers what the tables
	# hold: commands, a command's options, an option's values, bugs and
	# suites.
	# shellcheck disable=SC1090
	source "$3"
	complete_words() {
		COMP_WORDS=("$W" "$@")
		COMP_CWORD=$#
		COMPREPLY=()
		_walktorture
		echo "${COMPREPLY[*]}"
	}
	expect_completion() {
		local want=$1; shift
		local got
		got=$(complete_words "$@")
		[[ " $got " == *" $want "* ]] ||
			fail "completing '$*': '$got' lacks '$want'"
	}
	expect_completion run ru
	expect_completion zoo-bench zoo
	expect_completion --undirected run --und
	expect_completion --shard nightly --sh
	expect_completion --ktap merge --kt
	expect_completion stress run --mode st
	expect_completion tso replay --memory t
	expect_completion step_into_no_seq run --bug step_into
	expect_completion inode_no_seq zoo-bench inode
	expect_completion basic run bas
	[ -z "$(complete_words run --seed '')" ] || fail "completed a seed value"
	[[ " $(complete_words run --) " != *" --seeds "* ]] ||
		fail "offered nightly's --seeds to run"
	echo "ok: completion"
	;;
install)
	# cmake --install into a temporary prefix, then the installed binary
	# runs a shipped suite from its own share/ (not the source tree),
	# and the man page and completion are where man and bash look.
	BUILD=$3
	cmake --install "$BUILD" --prefix "$TMP/p" >"$TMP/install.log" 2>&1 ||
		fail "cmake --install: $(tail -3 "$TMP/install.log")"
	IW=$TMP/p/bin/walktorture
	SHARE=$TMP/p/share/walktorture/scenarios
	[ -x "$IW" ] || fail "no bin/walktorture installed"
	[ -f "$TMP/p/share/man/man1/walktorture.1" ] || fail "no man page installed"
	[ -f "$TMP/p/share/bash-completion/completions/walktorture" ] ||
		fail "no bash completion installed"
	[ -f "$SHARE/basic/quiet.yaml" ] || fail "no suites installed"
	[ ! -e "$SHARE/src" ] || fail "scenarios/src installed"
	(cd "$TMP" && env -u WT_SCENARIOS_DIR "$IW" options --suites) >"$TMP/suites" ||
		fail "installed options --suites"
	grep -qx basic "$TMP/suites" || fail "installed binary lists no basic suite"
	(cd "$TMP" && env -u WT_SCENARIOS_DIR "$IW" run basic --seed 1 \
		--json "$TMP/r.json" >"$TMP/run.log" 2>&1) ||
		fail "installed run basic: exit $?: $(tail -3 "$TMP/run.log")"
	python3 - "$TMP/r.json" "$SHARE" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
files = [sc["file"] for sc in doc["scenarios"]]
assert len(files) >= 5 and all(f.startswith(sys.argv[2] + "/basic/") for f in files), files
print("ok: installed binary ran", len(files), "scenarios from", sys.argv[2])
PY
	# a moved prefix still finds its suites
	mv "$TMP/p" "$TMP/q"
	(cd "$TMP" && env -u WT_SCENARIOS_DIR "$TMP/q/bin/walktorture" run basic/root) \
		>"$TMP/run2.log" 2>&1 || fail "moved prefix: $(tail -3 "$TMP/run2.log")"
	grep -q "$TMP/q/share/walktorture/scenarios/basic/root.yaml\|root .*PASS" "$TMP/run2.log" ||
		fail "moved prefix did not run its own basic/root"
	;;
package)
	BUILD=$3
	if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
		(cd "$BUILD" && cpack -G DEB -B "$TMP/pkg") >"$TMP/cpack.log" 2>&1 ||
			fail "cpack: $(tail -5 "$TMP/cpack.log")"
		deb=$(ls "$TMP"/pkg/*.deb) || fail "cpack made no .deb"
		dpkg-deb -c "$deb" >"$TMP/deb"
		for f in ./usr/bin/walktorture ./usr/share/man/man1/walktorture.1 \
			 ./usr/share/bash-completion/completions/walktorture \
			 ./usr/share/walktorture/scenarios/basic/quiet.yaml; do
			grep -q " $f\$" "$TMP/deb" || fail ".deb lacks $f"
		done
		dpkg-deb -f "$deb" Depends | grep -q libjansson ||
			fail ".deb Depends lacks libjansson: $(dpkg-deb -f "$deb" Depends)"
		echo "ok: $(basename "$deb")"
	else
		echo "no cpack or dpkg-deb: skipped"
		exit 77
	fi
	;;
lookup)
	# lookup's walker (issue 23): a dirfd (--at), a cwd, a chroot, open
	# flags, AT_EMPTY_PATH, supplementary groups; each DIR or flag that
	# does not make sense exits 2 before any path is printed.
	cat >"$TMP/t.tree" <<-'EOF'
	mkdir -p /d/sub /m
	touch /d/f
	ln -s f /d/ln
	mount -t tmpfs m /m
	mkdir -m 750 /priv
	touch /priv/x
	chown 0:27 /priv
	EOF
	look() { "$W" lookup --tree "$TMP/t.tree" "$@" >"$TMP/out" 2>"$TMP/err" ||
		fail "lookup $*: exit $? ($(own_err "$TMP/err" | head -1))"; }
	# has N FRAGMENT: output line N contains FRAGMENT
	has() { sed -n "$1p" "$TMP/out" | grep -qF -- "$2" ||
		fail "lookup: line $1 '$(sed -n "$1p" "$TMP/out")' lacks '$2'"; }
	look --at /d sub f /d/f
	has 1 '"path": "sub", "result": "ok", "object": "/d/sub", "type": "dir"'
	has 1 '"d_path": "/d/sub"'
	has 2 '"object": "/d/f", "type": "file"'
	has 3 '"d_path": "/d/f"'
	look --cwd /d f ../d/sub
	has 1 '"object": "/d/f"'
	has 2 '"d_path": "/d/sub"'
	# chroot: "/" and ".." stop at the new root; d_path is from it
	look --root /d --cwd /d /f ../.. /sub/../.. /ln
	has 1 '"object": "/d/f", "type": "file", "mount": "/", "d_path": "/f"'
	has 2 '"object": "/d", "type": "dir", "mount": "/", "d_path": "/"'
	has 3 '"object": "/d", "type": "dir", "mount": "/", "d_path": "/"'
	has 4 '"object": "/d/f"'
	# a cwd outside the root: d_path from the namespace root
	look --root /d --cwd /m .
	has 1 '"object": "fsroot:/m", "type": "dir", "mount": "/m", "d_path": "/m"'
	# AT_EMPTY_PATH: "" is the start; without it, ENOENT
	look --at /d/sub --empty-path ''
	has 1 '"d_path": "/d/sub"'
	look --at /d/sub ''
	has 1 '"path": "", "result": "ENOENT"'
	# open: O_CREAT (then EEXIST with O_EXCL), O_NOFOLLOW's ELOOP and
	# O_PATH's link, O_DIRECTORY
	look --open O_CREAT,O_EXCL,O_WRONLY --mode 600 --at /d new new
	has 1 '"path": "new", "result": "ok"'
	has 1 '"d_path": "/d/new", "created": true'
	has 2 '"path": "new", "result": "EEXIST"'
	look --open O_RDONLY --nofollow /d/ln
	has 1 '"result": "ELOOP"'
	look --open O_PATH,O_NOFOLLOW /d/ln
	has 1 '"object": "/d/ln", "type": "symlink"'
	look --open O_RDONLY /d/ln
	has 1 '"object": "/d/f", "type": "file"'
	look --open O_DIRECTORY /d/f /d/sub
	has 1 '"result": "ENOTDIR"'
	has 2 '"result": "ok"'
	look --open O_RDONLY --mode 644 /d/f
	has 1 '"result": "EINVAL"'
	look --open O_PATH --resolve beneath --at /d ../d/f sub
	has 1 '"result": "EXDEV"'
	has 2 '"d_path": "/d/sub"'
	# supplementary groups: /priv is 750 root:27
	look --uid 1000 --gid 1000 /priv/x
	has 1 '"result": "EACCES"'
	look --uid 1000 --gid 1000 --groups 4,27 /priv/x
	has 1 '"object": "/priv/x"'
	# proc shows the walker: /proc/PID/{root,cwd,exe,fd/3}, self -> PID
	printf 'mkdir /proc\nmount -t proc proc /proc\n' >>"$TMP/t.tree"
	look --pid 7 --cwd /d/sub --at /m --exe /d/f /proc/self /proc/self/root \
		/proc/7/cwd /proc/self/fd/3 /proc/self/exe /proc/1 /proc/self/fd/0
	has 1 '"object": "proc:7", "type": "dir", "mount": "/proc"'
	has 2 '"object": "/", "type": "dir", "mount": "/", "d_path": "/"'
	has 3 '"object": "/d/sub"'
	has 4 '"object": "fsroot:/m", "type": "dir", "mount": "/m"'
	has 5 '"object": "/d/f", "type": "file"'
	has 6 '"result": "ENOENT"'
	has 7 '"result": "ENOENT"'
	look --open O_PATH,O_NOFOLLOW /proc/self/root
	has 1 '"object": "proc:1/root", "type": "symlink", "mount": "/proc"'
	# other processes (proc-task): their magic links are proc's
	# ptrace-style check, whose EACCES comes before no-magiclinks' ELOOP
	printf 'proc-task -u 1000:1000 --cwd /d 42\nproc-task -u 1000:1000 --cwd /d --nondumpable 43\n' >>"$TMP/t.tree"
	look --uid 1000 --gid 1000 /proc/42/cwd /proc/43/cwd /proc/self/cwd /proc/43
	has 1 '"object": "/d", "type": "dir"'
	has 2 '"result": "EACCES"'
	has 3 '"object": "/", "type": "dir"'
	has 4 '"object": "proc:43", "type": "dir"'
	look --uid 1000 --gid 1000 --resolve no-magiclinks /proc/42/cwd /proc/43/cwd
	has 1 '"result": "ELOOP"'
	has 2 '"result": "EACCES"'
	look /proc/43/cwd
	has 1 '"object": "/d", "type": "dir"'
	expect_usage_error "lookup: the walker's process 42 in proc: EEXIST" lookup --tree "$TMP/t.tree" --pid 42 /x
	# bad input: exit 2, nothing printed
	expect_usage_error "lookup: --exe '/d': EISDIR|lookup: --exe '/nope': ENOENT" lookup --tree "$TMP/t.tree" --exe /nope /x
	expect_usage_error "lookup: bad --pid '0'" lookup --tree "$TMP/t.tree" --pid 0 /x
	expect_usage_error "lookup: --at '/nope': ENOENT" lookup --tree "$TMP/t.tree" --at /nope /x
	expect_usage_error "lookup: --root '/d/f': ENOTDIR" lookup --tree "$TMP/t.tree" --root /d/f /x
	expect_usage_error "lookup: --cwd '/priv/x/y': ENOTDIR" lookup --tree "$TMP/t.tree" --cwd /priv/x/y /x
	expect_usage_error "lookup: --at 'd': give an absolute path" lookup --tree "$TMP/t.tree" --at d /x
	expect_usage_error "lookup: bad open flag at 'O_FOO'" lookup --tree "$TMP/t.tree" --open O_RDONLY,O_FOO /x
	expect_usage_error "lookup: bad open flag at 'O_WRONLY'" lookup --tree "$TMP/t.tree" --open O_RDONLY,O_WRONLY /x
	expect_usage_error "lookup: bad open flag at ''" lookup --tree "$TMP/t.tree" --open '' /x
	expect_usage_error "lookup: bad --groups '1,x'" lookup --tree "$TMP/t.tree" --groups 1,x /x
	expect_usage_error "lookup: bad --groups '1,2,3,4,5,6,7,8,9'" lookup --tree "$TMP/t.tree" --groups 1,2,3,4,5,6,7,8,9 /x
	expect_usage_error "lookup: bad --mode '9'" lookup --tree "$TMP/t.tree" --open O_CREAT --mode 9 /x
	expect_usage_error "lookup: --mode is openat2's" lookup --tree "$TMP/t.tree" --mode 644 /x
	expect_usage_error "lookup: --empty-path is for stat-like" lookup --tree "$TMP/t.tree" --open O_PATH --empty-path ''
	;;
*)
	fail "unknown case $CASE"
	;;
esac

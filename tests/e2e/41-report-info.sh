#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report's "show and exit" modes (-e, -f, -P, -E, --events, --stat,
# --uname, --version, --cpus, --first-event, --last-event): byte for byte
# what Debian's trace-cmd report 3.1.6 prints, run live, and the same exit
# status, on every fixture and on synthetic files for what the corpus
# lacks (made by tests/tools/mkvariant and tests/tools/mkodd: big-endian
# and 32-bit-kernel files, a CPU without data or without events, CPU ids
# with gaps, DATE and OFFSET options, a raw clock, no uname/version/stats).
#
# Where 3.1.6 cannot answer, the reference is trace-cmd on a conversion
# by our convert: zlib files (3.1.6 has no zlib) on the zstd copy, and
# --events on v7 files (3.1.6 prints nothing for them) on the v6 copy.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
# Under make check-asan: no summary of the suppressed libtraceevent leaks
# on stderr, which must stay empty.
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"

MODES="-e|-f|-P|-E|--events|--stat|--uname|--version|--cpus|--first-event\
|--last-event|--first-event --last-event|-t --first-event --last-event\
|--raw-ts --first-event --last-event|--cpus --last-event|-N --stat"
# What mkodd's edits change (their formats and symbols are the input's).
DATA_MODES="--stat|--uname|--version|--cpus|--first-event --last-event\
|-t --first-event --last-event|--raw-ts --first-event --last-event"

# as_this_host FILE: -e names the host's byte order, which trace-cmd
# here says is little endian (make check-cross on s390x: big).
as_this_host() {
	[ -n "${TDAT_HOST_BIG_ENDIAN:-}" ] || return 0
	sed 's/ and host is little endian$/ and host is big endian/' "$1" \
		>"$1.host"
	mv "$1.host" "$1"
}

# same_as REF_FILE OURS_FILE ARGS...: trace-cmd report ARGS -i REF_FILE
# and our report ARGS -i OURS_FILE print the same and both exit 0.  The
# reference file's name is replaced by ours in trace-cmd's output.
same_as() {
	local ref=$1 ours=$2 rc=0

	shift 2
	trace-cmd report "$@" -i "$ref" >ref.out 2>ref.err || rc=$?
	[ $rc -eq 0 ] || { cat ref.err >&2; fail "trace-cmd report $* -i $ref exited $rc"; }
	if [ "$ref" != "$ours" ]; then
		sed "s|^List of CPUs in $ref |List of CPUs in $ours |" ref.out >ref.sed
		mv ref.sed ref.out
	fi
	as_this_host ref.out
	expect_exit 0 $TDAT report "$@" -i "$ours"
	cmp -s ref.out "$OUT" || {
		diff ref.out "$OUT" | head -n 10 >&2
		fail "report $* -i $ours differs from trace-cmd's"
	}
	[ ! -s "$ERR" ] || fail "report $* -i $ours wrote to stderr"
}

# every_mode REF OURS [SKIP]: same_as for each of $modes (default
# MODES) but SKIP.
every_mode() {
	local ref=$1 ours=$2 skip=${3:-} m

	while read -r m; do
		[ "$m" = "$skip" ] && continue
		# shellcheck disable=SC2086
		same_as "$ref" "$ours" $m
	done <<EOF
$(echo "${modes:-$MODES}" | tr '|' '\n')
EOF
}

# A v6 copy of a v7 file, for --events (3.1.6 shows nothing for v7).
events_v7() {
	$TDAT convert -q --file-version 6 -i "$1" -o "$1.v6.dat" ||
		fail "convert $1 to v6"
	same_as "$1.v6.dat" "$1" --events
}

one_file() {
	local f=$1 v

	step "$(basename "$f")"
	v=$(head -c 11 "$f" | tail -c 1)
	if [ "$v" = 7 ]; then
		every_mode "$f" "$f" --events
		events_v7 "$f"
	else
		every_mode "$f" "$f"
	fi
}

# ---- the fixtures ----
n=0
for f in "$FIX"/*.dat "$FIX"/crashed/restored.dat; do
	case $f in
	*zlib*)
		step "$(basename "$f") (against trace-cmd on its zstd copy)"
		cp "$f" zlib.dat
		$TDAT convert -q --compression zstd -i zlib.dat -o zlib-zstd.dat
		every_mode zlib-zstd.dat zlib.dat --events
		events_v7 zlib.dat
		;;
	*)
		cp "$f" .
		one_file "$(basename "$f")"
		;;
	esac
	n=$((n + 1))
done
[ "$n" -ge 13 ] || fail "only $n fixtures compared"

# ---- synthetic files ----
v6=$FIX/v6-sched-irq.dat
v7=$FIX/v7-zstd-sched-irq.dat
inst=$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat
"$TOOLS/mkvariant" --big-endian "$v6" be.dat
"$TOOLS/mkvariant" --long4 "$v7" long4.dat
"$TOOLS/mkvariant" --big-endian --long4 "$inst" be-long4-inst.dat
"$TOOLS/mkodd" --no-data 0 "$v6" nodata0.dat
"$TOOLS/mkodd" --no-data 1 --version 7 --codec zstd "$v6" nodata1-zstd.dat
"$TOOLS/mkodd" --no-data 0 --version 7 --codec none "$v6" nodata0-v7.dat
"$TOOLS/mkodd" --empty-page 0 "$v6" emptypage0.dat
"$TOOLS/mkodd" --empty-page 1 --version 7 --codec zstd "$v6" emptypage1.dat
"$TOOLS/mkodd" --cpu-id 1=12 "$v7" cpu12.dat
"$TOOLS/mkodd" --cpu-id 1=12 --codec none "$v7" cpu12-none.dat
"$TOOLS/mkodd" --add-option 1 1000000 "$v6" date.dat
"$TOOLS/mkodd" --add-option 7 -517000000000 --drop-option 4 \
	--add-option 4 "local [counter]" "$v6" offset-counter.dat
"$TOOLS/mkodd" --drop-option 2 --drop-option 5 --drop-option 9 "$v7" bare.dat
for f in be long4 be-long4-inst; do
	one_file "$f.dat"
done
modes=$DATA_MODES
for f in nodata0 nodata1-zstd nodata0-v7 emptypage0 emptypage1 date \
	 offset-counter bare cpu12 cpu12-none; do
	step "$f.dat"
	every_mode "$f.dat" "$f.dat"
done
modes=

# ---- which mode wins when several are given ----
step "every pair of modes: the same one wins as in trace-cmd"
cp "$FIX/v6-clock-global.dat" pair.dat
all="-e -f -P -E --events --stat --uname --version --cpus --first-event
     --last-event"
for a in $all; do
	after=0
	for b in $all; do
		[ $after = 1 ] && same_as pair.dat pair.dat "$a" "$b"
		[ "$a" = "$b" ] && after=1
	done
done
same_as pair.dat pair.dat --stat -f
same_as pair.dat pair.dat --last-event --first-event
same_as pair.dat pair.dat --uname --stat --version -q

# ---- damaged and unreadable inputs ----
cut6=$FIX/truncated/v6-sched-irq.cut-at-5470064.dat
cut7=$FIX/truncated/v7-zstd-markers-raw_syscalls.cut-at-1059000.dat
step "v6 cut inside CPU data: what needs no trace data is trace-cmd's"
cp "$cut6" cut6.dat
cp "$v6" whole6.dat
for m in -e -f -P -E --events; do
	same_as cut6.dat cut6.dat $m
done
# trace-cmd refuses the rest ("possibly truncated"); the metadata and the
# first pages are intact, so we show what it shows for the whole file.
for m in --stat --uname --version --cpus --first-event; do
	same_as whole6.dat cut6.dat $m
done
expect_exit 1 $TDAT report --last-event -i cut6.dat
assert_grep "cut6.dat: offset [0-9]+: .*truncated" "$ERR"
assert_lines 1 "$ERR"

step "v7 cut before its last section: -e answers, the rest is an error"
cp "$cut7" cut7.dat
same_as cut7.dat cut7.dat -e
for m in -f -P -E --events --stat --uname --version --cpus --first-event \
	 --last-event; do
	expect_exit 1 $TDAT report $m -i cut7.dat
	assert_grep "cut7.dat: offset [0-9]+: " "$ERR"
	assert_lines 1 "$ERR"
	[ ! -s "$OUT" ] || fail "report $m printed something for cut7.dat"
done

step "unreadable inputs: one error line, exit 1 (trace-cmd fails too)"
: >empty.dat
mkdir dir.dat
head -c 12 "$v6" >short.dat
printf 'not a trace file at all\n' >text.dat
for f in missing.dat empty.dat dir.dat short.dat text.dat; do
	for m in -e -f -E --events --stat --uname --cpus --last-event; do
		if trace-cmd report $m -i $f >/dev/null 2>&1; then
			fail "trace-cmd report $m -i $f succeeded"
		fi
		expect_exit 1 $TDAT report $m -i $f
		assert_grep "^tdat report: $f: " "$ERR"
		assert_lines 1 "$ERR"
	done
done

# ---- several inputs (once report takes them) ----
step "several -i files"
if expect_exit 0,2 $TDAT report --uname -i pair.dat -i be.dat &&
   grep -q "not supported yet" "$ERR"; then
	echo "several inputs not supported yet: skipped"
else
	for m in -e -f -P -E --events --stat --uname --version --cpus \
		 "--first-event --last-event"; do
		# shellcheck disable=SC2086
		trace-cmd report $m -i pair.dat -i be.dat -i ./nodata0.dat \
			>ref.out 2>&1
		as_this_host ref.out
		# shellcheck disable=SC2086
		expect_exit 0 $TDAT report $m -i pair.dat -i be.dat -i ./nodata0.dat
		cmp -s ref.out "$OUT" || fail "report $m with three inputs differs"
	done
fi
echo "all modes identical"

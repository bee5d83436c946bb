#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# split: every fixture cut by each unit, checked event by event.
#  - tdat-events lists every event (buffer, CPU, timestamp, payload hash,
#    missed-event markers) in report order.  Without -c the pieces' lists,
#    one after the other, must equal the original's list inside the range
#    (same events, same order); with -c/-p every CPU's events are cut on
#    their own, so the lists must be equal as sets, and every event is in
#    exactly one piece (so the sum of events over the pieces == the
#    original's inside the range);
#  - Debian's trace-cmd is the oracle: the event lines of its reports of
#    the pieces, one after the other, equal the event lines of its report
#    of the original ("cpus=" lines, one per file, left out); its own
#    split makes the same pieces for -e and -m;
#  - names, buffer choice and renaming, CPU choice, START/END, output
#    version and codec, missed-event markers, bad input, all-or-nothing.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
EV=$TOOLS/tdat-events
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
for t in tdat-events tdat-digest mkvariant; do
	[ -x "$TOOLS/$t" ] || fail "$TOOLS/$t missing (make $(dirname "$TDAT")/tools/$t)"
done

# events FILE: its event list (tdat-events must succeed).
events() {
	"$EV" "$1" || fail "tdat-events $1"
}

# tc_lines FILE: trace-cmd's report without the cpus= line.
tc_lines() {
	trace-cmd report -i "$1" 2>/dev/null | grep -v '^cpus=' || true
}

# in_range LIST LO HI: lines of an event list with LO <= ts <= HI (ns).
# Dropped markers go with the event after them.
in_range() {
	awk -v lo="$2" -v hi="$3" '
		$3 == "dropped" { held = $0; next }
		$3 + 0 >= lo + 0 && $3 + 0 <= hi + 0 {
			if (held != "") print held; print }
		{ held = "" }' "$1"
}

# split_ok DIR ARGS...: run split with pieces in DIR (created).
split_ok() {
	local d=$1

	shift
	rm -rf "$d"; mkdir -p "$d"
	expect_exit 0 "$TDAT" split "$@"
}

# pieces_list DIR: the pieces' event lists, one after the other.
pieces_list() {
	local p

	for p in $(ls "$1" | sort); do events "$1/$p"; done
}

# same_list WANT GOT WHAT [sorted]
same_list() {
	if [ "${4:-}" = sorted ]; then
		sort "$1" >"$1.s"; sort "$2" >"$2.s"
		cmp -s "$1.s" "$2.s" || fail "$3: events differ (as sets): $(diff "$1.s" "$2.s" | head -n 4 | tr '\n' ' ')"
	else
		cmp -s "$1" "$2" || fail "$3: events differ: $(diff "$1" "$2" | head -n 4 | tr '\n' ' ')"
	fi
	[ -s "$2" ] || fail "$3: no events at all"
}

# seconds NS: a START/END argument.
seconds() {
	awk -v n="$1" 'BEGIN { printf "%d.%09d", int(n / 1e9), n % 1e9 }'
}

for in in $(fixtures); do
	name=$(basename "$in" .dat)
	step "$name"
	events "$in" >all.ev
	grep -v ' dropped ' all.ev >all.data
	n=$(wc -l <all.data)
	first=$(head -n 1 all.data | cut -d' ' -f3)
	last=$(tail -n 1 all.data | cut -d' ' -f3)
	cpus=$(cut -d' ' -f2 all.data | sort -u | tr '\n' ' ')
	extra=
	case $name in *zlib*) extra="--compression zstd" ;; esac

	# -e N -r: slices of the report; trace-cmd reads the pieces the same
	per=$((n / 3 + 1))
	split_ok e -i "$in" -o e/p -e "$per" -r $extra
	assert_eq 3 "$(ls e | wc -l)" "$name -e $per -r pieces"
	assert_file_absent e/p
	pieces_list e >got.ev
	same_list all.ev got.ev "$name -e $per -r"
	for p in e/p.0001 e/p.0002; do
		assert_eq "$per" "$(events "$p" | grep -vc ' dropped ')" "$p events"
	done
	case $name in *x86tsc*|*zlib*) ;; *)
		# trace-cmd as oracle (it cannot read zlib; x86-tsc: below)
		tc_lines "$in" >want.tc
		for p in e/p.*; do tc_lines "$p"; done >got.tc
		cmp -s want.tc got.tc || fail "$name: trace-cmd report of the pieces differs: $(diff want.tc got.tc | head -n 4 | tr '\n' ' ')"
	esac

	# -m M -r: about two pieces by time, like trace-cmd's own
	ms=$(( (last - first) / 2000000 + 1 ))
	split_ok m -i "$in" -o m/p -m "$ms" -r
	pieces_list m >got.ev
	same_list all.ev got.ev "$name -m $ms -r"

	# -u U -c -r: every CPU with its own windows
	us=$(( (last - first) / 1500 + 1 ))
	split_ok u -i "$in" -o u/p -u "$us" -c -r
	pieces_list u >got.ev
	same_list all.ev got.ev "$name -u $us -c -r" sorted

	# -p N -r: N input pages per CPU per piece, about 2 pieces
	pp=$(( $("$EV" --pages "$in") / 2 + 1 ))
	split_ok p -i "$in" -o p/p -p "$pp" -r
	pieces_list p >got.ev
	same_list all.ev got.ev "$name -p $pp -r" sorted

	# START END with -e -r: the events inside, in order
	lo=$(sed -n "$((n / 4 + 1))p" all.data | cut -d' ' -f3)
	hi=$(sed -n "$((3 * n / 4))p" all.data | cut -d' ' -f3)
	in_range all.ev "$lo" "$hi" >want.ev
	pr=$((n / 4 + 1))
	split_ok r -i "$in" -o r/p -e "$pr" -r "$(seconds "$lo")" "$(seconds "$hi")"
	assert_eq 2 "$(ls r | wc -l)" "$name START END -e $pr -r pieces"
	pieces_list r >got.ev
	same_list want.ev got.ev "$name START END -e $pr -r"

	# START only, no unit, no -r: one piece OUT (not OUT.1)
	split_ok s -i "$in" -o s/one "$(seconds "$lo")"
	assert_eq one "$(ls s)" "$name single piece name"
	in_range all.ev "$lo" 99999999999999999 >want.ev
	events s/one >got.ev
	same_list want.ev got.ev "$name START only"

	# -C CPU, in another version and codec: that CPU's events
	cpu=${cpus%% *}
	case $(head -c 11 "$in" | tail -c 1) in
	6) conv="--file-version 7 --compression zstd" ;;
	*) conv="--file-version 6" ;;
	esac
	split_ok k -i "$in" -o k/p -C "$cpu" $conv
	events k/p >got.ev
	awk -v c="$cpu" '$2 == c' all.ev >want.ev
	same_list want.ev got.ev "$name -C $cpu $conv"
done

step "trace-cmd's own split makes the same pieces"
for c in "v6-sched-irq:-e 200 -r" "v7-zstd-sched-irq:-m 100 -r" \
	 "v6-sched-irq:-e 150 -c -r"; do
	in=$FIX/${c%%:*}.dat a=${c#*:}
	rm -rf tc tb; mkdir tc tb
	trace-cmd split -i "$in" -o tc/p $a >/dev/null 2>&1 ||
		fail "trace-cmd split $a"
	expect_exit 0 "$TDAT" split -i "$in" -o tb/p $a
	assert_eq "$(ls tc | tr '\n' ' ')" "$(ls tb | tr '\n' ' ')" "pieces of $a"
	for p in $(ls tc); do
		tc_lines "tc/$p" >a.tc; tc_lines "tb/$p" >b.tc
		cmp -s a.tc b.tc || fail "$(basename "$in") $a: piece $p differs from trace-cmd's"
	done
done

step "-e N -c: every CPU counts on its own"
in=$FIX/v7-zstd-sched-irq.dat
events "$in" >all.ev
split_ok c -i "$in" -o c/p -e 300 -c -r
for p in c/p.*; do
	events "$p" | grep -v ' dropped ' | cut -d' ' -f2 | sort | uniq -c |
		awk '$1 > 300 { exit 1 }' || fail "$p: a CPU has more than 300 events"
done
pieces_list c >got.ev
same_list all.ev got.ev "-e 300 -c -r" sorted

step "compressed chunks wholly inside a piece are copied as stored"
in=$FIX/v7-zstd-markers-raw_syscalls.dat
split_ok z -i "$in" -o z/p -e 10000 -r
"$TOOLS/tdat-digest" --chunks "$in" | sort >in.ch
"$TOOLS/tdat-digest" --chunks z/p.0002 | sort >p2.ch
same=$(comm -12 in.ch p2.ch | wc -l)
[ "$same" -gt 0 ] && [ "$same" -ge $(($(wc -l <p2.ch) - 4)) ] ||
	fail "piece 2: only $same of $(wc -l <p2.ch) chunks copied as stored"

step "chunks bigger than the writer's own (convert --chunk-size 160K) pass too: one rule with convert and merge"
expect_exit 0 $TDAT convert -q -i "$in" --chunk-size 160K -o big.dat
split_ok zb -i big.dat -o zb/p -p 120 -r
"$TOOLS/tdat-digest" --chunks big.dat | sort >in.ch
"$TOOLS/tdat-digest" --chunks zb/p.0001 | sort >p1.ch
assert_grep ' [0-9]+/163840 ' p1.ch
[ "$(comm -12 in.ch p1.ch | wc -l)" -ge 2 ] ||
	fail "piece 1: its 160K chunks were not copied as stored"

step "big-endian, 32-bit-kernel pages (mkvariant) cut right"
"$TOOLS/mkvariant" --big-endian --long4 "$FIX/v6-sched-irq.dat" be4.dat >/dev/null 2>&1 ||
	fail "mkvariant"
events be4.dat >all.ev
split_ok w -i be4.dat -o w/p -e 77 -r
pieces_list w >got.ev
same_list all.ev got.ev "big-endian long4 -e 77 -r"

step "buffers: all by default, --top, -B, -t, -b"
in=$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat
events "$in" >all.ev
split_ok b -i "$in" -o b/all -e 100000
events b/all >got.ev
same_list all.ev got.ev "every buffer kept"
split_ok b -i "$in" -o b/top --top
events b/top >got.ev
grep '^- ' all.ev >want.ev
same_list want.ev got.ev "--top"
split_ok b -i "$in" -o b/inst -B inst1
events b/inst >got.ev
grep '^inst1 ' all.ev >want.ev
same_list want.ev got.ev "-B inst1"
split_ok b -i "$in" -o b/promoted -B inst1 -t
events b/promoted >got.ev
grep '^inst1 ' all.ev | sed 's/^inst1 /- /' >want.ev
same_list want.ev got.ev "-B inst1 -t"
split_ok b -i "$in" -o b/swap --top -b old -B inst1 -t
events b/swap >got.ev
sed 's/^- /old /; s/^inst1 /- /' all.ev >want.ev
same_list want.ev got.ev "--top -b old -B inst1 -t" sorted
trace-cmd report -i b/swap >swap.tc 2>&1 || fail "trace-cmd cannot read b/swap"
assert_grep '^ *old: ' swap.tc
expect_exit 2 "$TDAT" split -i "$in" -o b/x -B nosuch
assert_grep 'no instance "nosuch"' "$ERR"
expect_exit 2 "$TDAT" split -i "$in" -o b/x --top -B inst1 -t
assert_grep 'only one buffer can be the top' "$ERR"

step "names: default, .1, -r numbering"
cp "$FIX/v6-sched-irq.dat" trace.dat
expect_exit 0 "$TDAT" split -e 100
[ -f trace.dat.1 ] || fail "default output is not trace.dat.1"
cmp -s trace.dat "$FIX/v6-sched-irq.dat" || fail "the input changed"
expect_exit 0 "$TDAT" split -e 200 -r
[ -f trace.dat.0001 ] && [ -f trace.dat.0003 ] && [ ! -f trace.dat.0004 ] ||
	fail "-r names: $(ls)"

step "missed events stay with the piece that holds the event after them"
cp "$FIX/v6-sched-irq.dat" missed.dat
# CPU 0's second page (v6: CPU 0 data at 0x534000): set MISSED_EVENTS
printf '\x80' | dd of=missed.dat bs=1 seek=$((0x535000 + 11)) conv=notrunc 2>/dev/null
events missed.dat >all.ev
assert_eq 1 "$(grep -c ' dropped ' all.ev)" "markers in the changed file"
tc_lines missed.dat >want.tc
for k in 120 231 300; do
	split_ok d -i missed.dat -o d/p -e "$k" -r
	pieces_list d >got.ev
	same_list all.ev got.ev "missed, -e $k"
	for p in d/p.*; do tc_lines "$p"; done >got.tc
	cmp -s want.tc got.tc || fail "missed, -e $k: trace-cmd reports differ: $(diff want.tc got.tc | head -n 4 | tr '\n' ' ')"
done
grep -q 'EVENTS DROPPED' want.tc || fail "trace-cmd shows no dropped events"

step "latency text: kept whole, in the first piece (trace-cmd refuses it)"
off=$(grep -bao flyrecord "$FIX/v6-sched-irq.dat" | head -n 1 | cut -d: -f1)
head -c "$off" "$FIX/v6-sched-irq.dat" >lat.dat
printf 'latency  \0# tracer: irqsoff\n#\n  <idle>-0  0d.s2  0us : x\n' >>lat.dat
split_ok l -i lat.dat -o l/p -e 10 -r
assert_eq p.0001 "$(ls l | tr '\n' ' ' | sed 's/ $//')" "latency pieces"
# (lat.dat keeps the fixture's TRACECLOCK option, which makes trace-cmd
# eat 8 bytes of the text; the piece, written like convert writes v6,
# has none, so trace-cmd shows the whole text)
trace-cmd report -i l/p.0001 >got.tc 2>/dev/null || fail "trace-cmd cannot read the latency piece"
printf 'cpus=2\n# tracer: irqsoff\n#\n  <idle>-0  0d.s2  0us : x\n\n' >want.tc
assert_same want.tc got.tc

step "bad input: one line naming the file, no pieces"
mkdir bad
expect_exit 1 "$TDAT" split -i nosuch.dat -o bad/p -e 10 -r
assert_lines 1 "$ERR"
assert_grep 'nosuch.dat' "$ERR"
head -c 700000 "$FIX/v7-zstd-sched-irq.dat" >cut.dat
expect_exit 1,2 "$TDAT" split -i cut.dat -o bad/p -e 10 -r
assert_lines 1 "$ERR"
assert_grep 'cut.dat' "$ERR"
cp "$FIX/v6-sched-irq.dat" corrupt.dat
# a commit word larger than the page, in CPU 0's last page
printf '\xff\xff' | dd of=corrupt.dat bs=1 seek=$((0x536000 + 8)) conv=notrunc 2>/dev/null
expect_exit 1 "$TDAT" split -i corrupt.dat -o bad/p -e 10 -r
assert_lines 1 "$ERR"
assert_grep 'corrupt.dat: offset [0-9]+' "$ERR"
assert_eq "" "$(ls bad)" "pieces left by failed splits"

step "a time split reads only pages near its cuts; damage elsewhere is copied as it is"
# CPU 1 of the fixture has 3 pages: one window over the whole file probes
# page headers past its first, so the broken event in its second page
# (type 0, a length past the commit) is never walked.  Walking every
# event, as an event split still does, the split refuses the file.
cp "$FIX/v6-sched-irq.dat" farbad.dat
printf '\x00\x00\x00\x00\xff\xff\xff\x7f' |
	dd of=farbad.dat bs=1 seek=$((5464064 + 4096 + 16)) conv=notrunc 2>/dev/null
mkdir far
"$TDAT" split -i farbad.dat -o far/p -s 1000 || fail "time split of a file damaged away from its cuts"
assert_eq p "$(ls far)" "pieces of one window"
expect_exit 1 "$TDAT" report -i farbad.dat
sed 's/farbad\.dat/FILE/g' "$OUT" >want.far
sed 's/farbad\.dat/FILE/g' "$ERR" >want.far.err
expect_exit 1 "$TDAT" report -i far/p
sed 's/far\/p/FILE/g' "$OUT" >got.far
sed 's/far\/p/FILE/g' "$ERR" >got.far.err
assert_same want.far got.far
assert_same want.far.err got.far.err
assert_grep 'offset 5468160: buffer "" CPU 1: corrupt event' got.far.err
expect_exit 1 "$TDAT" split -i farbad.dat -o bad/p -e 10 -r
assert_grep 'farbad.dat: offset 5468176: .*a corrupt event' "$ERR"

step "all or nothing: a piece that cannot be written removes the others"
mkdir -p aon/p.0002	# a directory where piece 2 must go
expect_exit 1 "$TDAT" split -i "$FIX/v6-sched-irq.dat" -o aon/p -e 100 -r
assert_lines 1 "$ERR"
assert_eq "p.0002" "$(ls aon)" "pieces left after a failure"

step "--dat-suffix: NAME.0001.dat, the same pieces as NAME.0001"
mkdir dat
"$TDAT" split -i "$FIX/v7-zstd-sched-irq.dat" -o dat/p.dat -e 300 -r
"$TDAT" split -i "$FIX/v7-zstd-sched-irq.dat" -o dat/p.dat -e 300 -r --dat-suffix
n=$(ls dat | grep -c '^p\.dat\.[0-9]*$')
[ "$n" -ge 2 ] || fail "only $n pieces"
for f in dat/p.dat.0*; do
	assert_same "$f" "dat/p.${f#dat/p.dat.}.dat"
done
assert_eq "$n" "$(ls dat | grep -c '^p\.[0-9][0-9][0-9][0-9]\.dat$')" "pieces ending in .dat"
cp "$FIX/v6-sched-irq.dat" dat/in.dat
"$TDAT" split -i dat/in.dat -e 100 --dat-suffix
[ -f dat/in.1.dat ] || fail "a single piece named like the input: $(ls dat)"

step "usage errors"
expect_exit 2 "$TDAT" split -i "$FIX/v6-sched-irq.dat" -e 10 -m 5
expect_exit 2 "$TDAT" split -i "$FIX/v6-sched-irq.dat" -b name
expect_exit 2 "$TDAT" split -i "$FIX/v6-sched-irq.dat" -t
expect_exit 2 "$TDAT" split -i "$FIX/v6-sched-irq.dat" -e 0
expect_exit 2 "$TDAT" split -i "$FIX/v6-sched-irq.dat" 20 10
assert_grep 'END is before START' "$ERR"
expect_exit 2 "$TDAT" split -i "$FIX/v6-sched-irq.dat" -o x 1 2 3
expect_exit 0 "$TDAT" split --help
assert_grep '^usage: tdat split' "$OUT"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# split on files whose options adjust the timestamps readers show: DATE
# (microseconds), OFFSET (nanoseconds, also negative), TSC2NSEC
# ((ts * mult) >> shift, whose rounding makes ties between CPUs).  START,
# END and the -s/-m/-u windows are in those adjusted times, and the walk
# breaks ties in their order, as trace-cmd report does.  Made from the
# fixtures with mkodd; for each file and each cut:
#  (a) the pieces' events add up to the original's inside the range;
#  (b) trace-cmd report -t of the pieces, one after the other ("cpus="
#      lines left out), equals the slice of its report of the original
#      that START/END bound;
#  (c) Debian's trace-cmd split makes pieces that report the same (it
#      writes adjusted times and drops the options; ours keeps both).
# Then: the first pass holds one chunk per compressed stream, so peak
# memory stays flat as the CPU count grows.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
for t in tdat-events mkodd; do
	[ -x "$TOOLS/$t" ] || fail "$TOOLS/$t missing (make $(dirname "$TDAT")/tools/$t)"
done

# tc_rep FILE: trace-cmd report with full nanoseconds, no cpus= line.
tc_rep() {
	trace-cmd report -t -i "$1" 2>/dev/null | grep -v '^cpus=' || true
}

# keys REP: every line's time as a sortable key "SSSSSSSSSSSS.NNNNNNNNN"
# (exact: seconds and nanoseconds are kept apart), one a line.
keys() {
	awk '{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				split(substr($i, 1, length($i) - 1), t, ".")
				k = sprintf("%012d.%s", t[1], t[2])
				break
			}
		print k }' "$1"
}

# slice REP LO HI: lines of REP with LO <= time <= HI (keys as above).
slice() {
	keys "$1" | paste -d '\t' - "$1" |
		awk -F '\t' -v lo="$2" -v hi="$3" '$1 >= lo && $1 <= hi' |
		cut -f 2-
}

# seconds KEY: the START/END argument for a key.
seconds() {
	echo "$1" | sed 's/^0*\([0-9]\)/\1/'
}

# ns_between KEY1 KEY2: KEY2 - KEY1 in nanoseconds (a float is enough).
ns_between() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		split(a, x, "."); split(b, y, ".")
		printf "%.0f\n", (y[1] - x[1]) * 1e9 + (y[2] - x[2]) }'
}

# pieces_rep DIR: trace-cmd's reports of the pieces, one after the other;
# each piece's is kept in DIR.rep/PIECE.
pieces_rep() {
	local p

	rm -rf "$1.rep"; mkdir "$1.rep"
	for p in $(ls "$1" | sort); do
		tc_rep "$1/$p" >"$1.rep/$p"
		cat "$1.rep/$p"
	done
}

# pieces_events DIR: events (data, no markers) over every piece.
pieces_events() {
	local p n=0

	for p in $(ls "$1" | sort); do
		n=$((n + $("$TOOLS/tdat-events" "$1/$p" | grep -vc ' dropped ' || true)))
	done
	echo "$n"
}

# check WHAT DIR WANT: (a) and (b) for the pieces in DIR.
check() {
	pieces_rep "$2" >got.rep
	assert_eq "$(wc -l <"$3")" "$(pieces_events "$2")" "$1: events in the pieces"
	[ -s "$3" ] || fail "$1: the range holds no event"
	cmp -s "$3" got.rep || fail "$1: reports differ from the original's slice: $(diff "$3" got.rep | head -n 4 | tr '\n' ' ')"
}

# same_as_tc WHAT IN ARGS...: (c) trace-cmd's own split, piece by piece.
same_as_tc() {
	local what=$1 in=$2 p

	shift 2
	rm -rf tc; mkdir tc
	trace-cmd split -i "$in" -o tc/p "$@" >/dev/null 2>&1 ||
		fail "$what: trace-cmd split $*"
	# without -r 3.1.6 names its one piece OUT.1, we name it OUT
	[ -f tc/p.1 ] && mv tc/p.1 tc/p
	assert_eq "$(ls tc | tr '\n' ' ')" "$(ls tb | tr '\n' ' ')" "$what: pieces (trace-cmd's, ours)"
	# (tb.rep/: our pieces' reports, made by check)
	for p in $(ls tc); do
		tc_rep "tc/$p" >a.rep
		cmp -s a.rep "tb.rep/$p" || fail "$what: piece $p differs from trace-cmd's: $(diff a.rep "tb.rep/$p" | head -n 4 | tr '\n' ' ')"
	done
}

# ours ARGS...: our split into tb/ (made afresh).
ours() {
	rm -rf tb; mkdir tb
	expect_exit 0 "$TDAT" split -o tb/p "$@"
}

# NAME:FIXTURE:MKODD ARGS.  DATE is hex microseconds (date6: 1.7e15,
# a wall clock as trace-cmd record -C ... --date writes), OFFSET
# nanoseconds.
while IFS=: read -r -u 3 name fix args; do
	[ -n "$name" ] || continue
	step "$name ($fix, $args)"
	# shellcheck disable=SC2086
	"$TOOLS/mkodd" $args "$FIX/$fix.dat" "$name.dat" || fail "mkodd $args"
	in=$name.dat
	tc_rep "$in" >all.rep
	keys all.rep >all.keys
	n=$(wc -l <all.rep)
	assert_eq "$n" "$("$TOOLS/tdat-events" "$in" | grep -vc ' dropped ')" "$name: trace-cmd's lines vs events"
	first=$(head -n 1 all.keys) last=$(tail -n 1 all.keys)
	span=$(ns_between "$first" "$last")

	# START END, no unit: one piece
	lo=$(sed -n "$((n / 4 + 1))p" all.keys)
	hi=$(sed -n "$((3 * n / 4))p" all.keys)
	slice all.rep "$lo" "$hi" >want.rep
	ours -i "$in" "$(seconds "$lo")" "$(seconds "$hi")"
	assert_eq p "$(ls tb)" "$name START END: pieces"
	check "$name START END" tb want.rep
	# trace-cmd turns seconds into ns through a double, which can land
	# 1 ns short (0.008153424 -> 8153423, leaving out the events at END);
	# ours reads the digits exactly.  A 10th decimal 5 gives trace-cmd the
	# intended nanosecond -- except at wall-clock magnitudes (a real DATE,
	# about 1.7e9 s), where a double is off by up to 256 ns.
	case $name in date*) ;; *)
		same_as_tc "$name START END" "$in" "$(seconds "$lo")5" "$(seconds "$hi")5"
	esac

	# START END -e N -r
	per=$(( $(wc -l <want.rep) / 3 + 1 ))
	ours -i "$in" -e "$per" -r "$(seconds "$lo")" "$(seconds "$hi")"
	assert_eq 3 "$(ls tb | wc -l)" "$name START END -e $per -r: pieces"
	check "$name START END -e $per -r" tb want.rep
	# (not (c): trace-cmd 3.1.6 stops after the first piece when END
	# is given with -r, raw times or not)

	# -e N -r: N report lines a piece.  Only TSC2NSEC changes the order
	# (its rounding makes ties, broken by CPU); DATE and OFFSET shift
	# every time alike, so 60-split covers them.
	case $args in *--add-tsc2nsec*)
		per=$((n / 3 + 1))
		ours -i "$in" -e "$per" -r
		check "$name -e $per -r" tb all.rep
		for p in p.0001 p.0002; do
			assert_eq "$per" "$(wc -l <"tb.rep/$p")" "$name -e $per -r: lines of $p"
		done
		same_as_tc "$name -e $per -r" "$in" -e "$per" -r
	esac

	# -m M -r (or -u U -r when the span is short): windows of adjusted
	# time, about 3 pieces
	if [ "$span" -ge 30000000 ]; then
		set -- -m $((span / 3000000 + 1)) 1000000
	else
		set -- -u $((span / 3000 + 1)) 1000
	fi
	ours -i "$in" "$1" "$2" -r
	check "$name $1 $2 -r" tb all.rep
	# each piece runs from its first event to at most first + window;
	# the next one starts beyond that
	prev=
	for p in $(ls tb); do
		keys "tb.rep/$p" >p.keys
		a=$(head -n 1 p.keys) z=$(tail -n 1 p.keys)
		[ "$(ns_between "$a" "$z")" -le $(($2 * $3)) ] ||
			fail "$name $1 $2: $p spans more than the window"
		[ -z "$prev" ] || [ "$(ns_between "$prev" "$a")" -gt $(($2 * $3)) ] ||
			fail "$name $1 $2: $p starts inside the previous window"
		prev=$a
	done
	[ "$(ls tb | wc -l)" -ge 3 ] || fail "$name $1 $2: only $(ls tb | wc -l) pieces"
	same_as_tc "$name $1 $2 -r" "$in" "$1" "$2" -r

	# the same windows with -c, every CPU on its own: (a) and (c)
	case $args in *--add-tsc2nsec*)
		ours -i "$in" "$1" "$2" -c -r
		assert_eq "$n" "$(pieces_events tb)" "$name $1 $2 -c -r: events in the pieces"
		pieces_rep tb >/dev/null
		same_as_tc "$name $1 $2 -c -r" "$in" "$1" "$2" -c -r
	esac
done 3<<EOF
date6:v6-sched-irq:--add-option 1 0x60A24181E4000
offneg7:v7-zstd-sched-irq:--add-option 7 -123456789
offhex7none:v7-none-sched-irq:--add-option 7 0x3b9aca00
tie7:v7-zstd-sched-irq:--add-tsc2nsec 1 16
all7:v7-zstd-sched-irq-tc34:--add-tsc2nsec 3 2 --add-option 1 -0x10 --add-option 7 777
EOF

step "the options are in effect: trace-cmd shows raw - 123456789 ns"
raw=$("$TOOLS/tdat-events" offneg7.dat | head -n 1 | cut -d' ' -f3)
raw=$(printf '%012d.%09d' $((raw / 1000000000)) $((raw % 1000000000)))
adj=$(tc_rep offneg7.dat | head -n 1 >first.rep && keys first.rep)
assert_eq -123456789 "$(ns_between "$raw" "$adj")" "offneg7: shown - raw"

step "memory: one chunk per compressed stream, flat as CPUs grow"
"$TOOLS/mkodd" --clone-cpus 2 "$FIX/v7-zstd-markers-raw_syscalls.dat" c2.dat ||
	fail "mkodd --clone-cpus 2"
"$TOOLS/mkodd" --clone-cpus 256 "$FIX/v7-zstd-markers-raw_syscalls.dat" c256.dat ||
	fail "mkodd --clone-cpus 256"
rm -rf m2 m256; mkdir m2 m256
rss2=$(peak_rss_kb "$TDAT" split -i c2.dat -o m2/p -e 2000000 -r)
rss256=$(peak_rss_kb "$TDAT" split -i c256.dat -o m256/p -e 2000000 -r)
assert_eq 2 "$(ls m256 | wc -l)" "pieces of the 256-CPU file"
slack=16384
# (ASan's redzones and quarantine triple small allocations: the bound
# only means something in the plain build)
[ "${TDAT_SANITIZED:-0}" = 1 ] && slack=131072
echo "peak RSS: 2 CPUs $rss2 KiB, 256 CPUs $rss256 KiB"
[ "$rss256" -lt $((rss2 + slack)) ] ||
	fail "256 CPUs take $rss256 KiB, 2 CPUs $rss2 KiB (allowed: + $slack)"
# and the cut is right: every CPU's events, 128 copies of the same
"$TOOLS/mkodd" --clone-cpus 128 "$FIX/v7-zstd-sched-irq.dat" s128.dat ||
	fail "mkodd --clone-cpus 128"
n=$("$TOOLS/tdat-events" s128.dat | grep -vc ' dropped ')
ours -i s128.dat -e $((n / 3 + 1)) -r
assert_eq 3 "$(ls tb | wc -l)" "pieces of the 128-CPU file"
assert_eq "$n" "$(pieces_events tb)" "events over the pieces of the 128-CPU file"
"$TOOLS/tdat-events" s128.dat >all.ev
for p in tb/*; do "$TOOLS/tdat-events" "$p"; done >got.ev
cmp -s all.ev got.ev || fail "128 CPUs: events differ: $(diff all.ev got.ev | head -n 4 | tr '\n' ' ')"

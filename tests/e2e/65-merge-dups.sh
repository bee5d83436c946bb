#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# merge: inputs that overlap give each event once, whatever their page
# boundaries and their order of events at one timestamp, while identical
# events that one input holds at one timestamp are all kept.
#
# The fixtures' clocks give almost every event its own timestamp, so
# each is first rewritten with a coarse clock (mkpieces -R 100 -q Q:
# timestamps rounded down to multiples of Q, several events at one
# timestamp on a CPU, as with clocks like jiffies).  From that file A
# come inputs packed into other pages (-R FILL), with events at one
# timestamp reversed (-x), with some events written twice (-d) and
# pieces that overlap (-w), and two readers that shared the ring buffer
# (-i 2, -s: their events at one timestamp add up, checked against a
# model of the rules).  Debian's trace-cmd report is the oracle.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
[ -x "$TOOLS/mkpieces" ] && [ -x "$TOOLS/tdat-digest" ] &&
	[ -x "$TOOLS/tdat-events" ] ||
	skip "build the test tools first (make $TOOLS/mkpieces $TOOLS/tdat-digest $TOOLS/tdat-events)"
command -v trace-cmd >/dev/null || skip "Debian's trace-cmd is not installed"
sums=$(sha256sum "$FIX"/*.dat)

streams() { "$TOOLS/tdat-digest" "$1" | grep -E '^(buffer|  cpu)'; }
# The events as a sorted list: the same multiset, whatever their order.
events() { "$TOOLS/tdat-events" "$1" | sort; }
report() { trace-cmd report -i "$1" >"$2" 2>&1 || fail "trace-cmd cannot report $1"; }

# merged WANT-REPORT INPUT...: the merge reports exactly like WANT.
merged() {
	local want=$1

	shift
	expect_exit 0 $TDAT merge -q -o m.dat "$@"
	report m.dat r.m
	assert_same "$want" r.m
}

# same_events WANT-FILE INPUT...: the merge holds WANT's events (as a
# multiset: the order at one timestamp may differ).
same_events() {
	local want=$1

	shift
	expect_exit 0 $TDAT merge -q -o m.dat "$@"
	events "$want" >e.want
	events m.dat >e.m
	assert_same e.want e.m
}

# Several events at one timestamp on one CPU: how many such groups.
groups() {
	"$TOOLS/tdat-events" "$1" | awk '{ print $1, $2, $3 }' | uniq -c |
		awk '$1 > 1 { n++ } END { print n + 0 }'
}

# last_first P1 P2: a CPU where P1's last event is P2's first one (the
# same timestamp and bytes): an identical event on both sides of a cut.
last_first() {
	"$TOOLS/tdat-events" "$1" | awk '{ l[$1 " " $2] = $0 } END { for (k in l) print l[k] }' | sort >e.last
	"$TOOLS/tdat-events" "$2" | awk '!(($1 " " $2) in f) { f[$1 " " $2] = $0; print }' | sort >e.first
	[ -n "$(comm -12 e.last e.first)" ]
}

# The first timestamp of each CPU of P2 is before P1's last one there.
overlap_in_time() {
	"$TOOLS/tdat-events" "$1" | awk '{ l[$1 " " $2] = $3 } END { for (k in l) print k, l[k] }' | sort >e.last
	"$TOOLS/tdat-events" "$2" | awk '!(($1 " " $2) in f) { f[$1 " " $2] = $3; print $1, $2, $3 }' | sort >e.first
	join -j1 <(awk '{ print $1 "/" $2, $3 }' e.last | sort) \
		<(awk '{ print $1 "/" $2, $3 }' e.first | sort) |
		awk '$3 >= $2 { bad = 1 } END { exit bad }'
}

# readers_model R1 R2 (tdat-events lists of two readers that shared one
# ring buffer): "COUNT BUFFER CPU TS SIZE HASH", how many copies of each
# event the merge must hold.  At each CPU's timestamp the second
# reader's share (the first: the one whose events began earlier, then
# R1) is added to the first's when neither holds the other (as
# multisets) and its stream neither starts nor ends there; else the
# larger count of each event wins (overlapping copies).
readers_model() {
	awk '
	{
		r = FILENAME == ARGV[1] ? 1 : 2
		cpu = $1 " " $2
		if (!((r, cpu) in lo)) lo[r, cpu] = $3
		hi[r, cpu] = $3
		k = cpu " " $3
		ev = $4 " " $5
		if (!n[1, k, ev] && !n[2, k, ev]) evs[k] = evs[k] SUBSEP ev
		n[r, k, ev]++
		has[r, k] = 1
	}
	END {
		for (k in evs) {
			split(k, kk, " ")
			cpu = kk[1] " " kk[2]
			m = split(substr(evs[k], 2), list, SUBSEP)
			sum = 0
			if (has[1, k] && has[2, k]) {
				f = 1; o = 2
				if (lo[1, cpu] == kk[3] && lo[2, cpu] != kk[3]) {
					f = 2; o = 1
				}
				osub = fsub = 1
				for (i = 1; i <= m; i++) {
					a = n[f, k, list[i]] + 0
					b = n[o, k, list[i]] + 0
					if (b > a) osub = 0
					if (a > b) fsub = 0
				}
				sum = lo[o, cpu] != kk[3] && hi[o, cpu] != kk[3] &&
				      !osub && !fsub
			}
			for (i = 1; i <= m; i++) {
				a = n[1, k, list[i]] + 0
				b = n[2, k, list[i]] + 0
				print (sum ? a + b : a > b ? a : b), k, list[i]
			}
		}
	}' "$1" "$2"
}

for n in v6-sched-irq v7-zstd-markers-raw_syscalls \
	 v7-zstd-2inst-irq-top-sched-inst1; do
	f=$FIX/$n.dat
	rm -f ./*.dat
	# Q: about 4 events of the whole file per multiple of Q.
	q=$("$TOOLS/tdat-events" "$f" | awk '$3 ~ /^[0-9]+$/ {
		if (!lo || $3 < lo) lo = $3; if ($3 > hi) hi = $3; k++ }
		END { printf "%d\n", (hi - lo) * 4 / k + 1 }')
	"$TOOLS/mkpieces" -R 100 -q "$q" "$f" a.dat >/dev/null
	g=$(groups a.dat)
	step "$n: coarse clock (Q=$q): $g groups of events sharing a timestamp"
	[ "$g" -ge 10 ] || fail "expected 10 groups or more, got $g"
	report a.dat r.a
	"$TOOLS/mkpieces" -R 70 a.dat b.dat >/dev/null
	"$TOOLS/mkpieces" -R 55 -x a.dat c.dat >/dev/null
	"$TOOLS/mkpieces" -R 80 -d 7 a.dat d.dat >/dev/null
	streams a.dat >s.a
	streams b.dat >s.b
	cmp -s s.a s.b && fail "-R 70 did not move page boundaries"
	report c.dat r.c
	cmp -s r.a r.c && fail "-x did not reorder events at one timestamp"

	step "$n: the same events in other pages, either first"
	merged r.a a.dat b.dat
	merged r.a b.dat a.dat

	step "$n: the same events in another order at each timestamp"
	merged r.a a.dat c.dat
	merged r.c c.dat a.dat

	step "$n: identical events of one input at one timestamp are kept"
	report d.dat r.d
	cmp -s r.a r.d && fail "-d did not repeat events"
	merged r.d d.dat a.dat
	same_events d.dat a.dat d.dat c.dat
	assert_eq "$("$TOOLS/tdat-events" d.dat | wc -l)" \
		"$("$TOOLS/tdat-events" m.dat | wc -l)" "events of the merge"

	step "$n: readers that shared one ring buffer (-i 2, -s): a model's counts"
	for how in "-i 2" "-s"; do
		rm -f rd.*
		"$TOOLS/mkpieces" $how a.dat rd >/dev/null
		expect_exit 0 $TDAT merge -q -o m.dat rd.0001 rd.0002
		"$TOOLS/tdat-events" rd.0001 >e.1
		"$TOOLS/tdat-events" rd.0002 >e.2
		readers_model e.1 e.2 | sort >e.want
		"$TOOLS/tdat-events" m.dat | sort | uniq -c |
			awk '{ print $1, $2, $3, $4, $5, $6 }' | sort >e.got
		assert_same e.want e.got
	done

	step "$n: a file merged with itself is itself, stream by stream"
	for x in a c d; do
		expect_exit 0 $TDAT merge -q -o m.dat $x.dat $x.dat
		streams $x.dat >s.x
		streams m.dat >s.m
		assert_same s.x s.m
	done
	[ $n = v7-zstd-2inst-irq-top-sched-inst1 ] && continue

	step "$n: pieces overlapping by 40% of the events, other pages"
	"$TOOLS/mkpieces" -R 90 -w 0:70 a.dat p1.dat >/dev/null
	"$TOOLS/mkpieces" -R 65 -w 30:100 a.dat p2.dat >/dev/null
	"$TOOLS/mkpieces" -R 75 -x -w 20:100 a.dat p3.dat >/dev/null
	overlap_in_time p1.dat p2.dat ||
		fail "p1 and p2 do not overlap by a timestamp on every CPU"
	merged r.a p1.dat p2.dat
	merged r.a p2.dat p1.dat
	same_events a.dat p1.dat p3.dat
	same_events a.dat p3.dat p1.dat p2.dat b.dat c.dat

	step "$n: pieces cut inside a timestamp's events, an identical event on both sides"
	"$TOOLS/mkpieces" -R 80 -d 1 a.dat dd.dat >/dev/null
	report dd.dat r.dd
	for k in 49 50 51 52; do
		"$TOOLS/mkpieces" -R 100 -w 0:$k dd.dat t1.dat >/dev/null
		"$TOOLS/mkpieces" -R 60 -w $k:100 dd.dat t2.dat >/dev/null
		last_first t1.dat t2.dat && break
		[ $k != 52 ] || fail "no cut between two identical events"
	done
	merged r.dd t1.dat t2.dat
	merged r.dd t2.dat t1.dat
	merged r.dd t1.dat dd.dat t2.dat

	step "$n: every event at one timestamp, in other pages"
	"$TOOLS/mkpieces" -R 100 -q 0x4000000000000000 "$f" one.dat >/dev/null
	"$TOOLS/mkpieces" -R 60 -x one.dat one-x.dat >/dev/null
	"$TOOLS/mkpieces" -R 85 -w 50:100 one.dat one-half.dat >/dev/null
	report one.dat r.one
	merged r.one one.dat one-x.dat
	merged r.one one.dat one-half.dat
	same_events one.dat one-half.dat one-x.dat
done

step "inputs are never modified"
assert_eq "$sums" "$(sha256sum "$FIX"/*.dat)" "fixture checksums"
echo "merge dups ok"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# all.sh: every job of issue 22's table, tdat against Debian's trace-cmd
# (or cat) on one big input, in one run, as one table (`make bench`).
#
# Input: BENCH_FILE, or else a recording made here first with tdat
# record (v6; sched, irq, raw_syscalls, timer and kmem under a fixed
# workload: a byte-at-a-time dd of BENCH_BYTES bytes, default 2500000,
# beside forks and a tar of /usr/share; several hundred MB; root only).
# Jobs, each timed RUNS times (default 3) in alternating pairs after one
# warm-up of each, medians of wall and CPU (user + system), largest
# peak RSS:
#   report        tdat report / trace-cmd report, to /dev/null
#   v6 -> v7 zstd tdat convert / trace-cmd convert (both defaults)
#   v7 zstd -> v6 --file-version 6, from trace-cmd's v7 zstd output
#   split -s 2 -r of the v6 input
#   merge         tdat merge of split's pieces / cat of the same pieces,
#                 then / cat and sync of its output (the same guarantee)
#   record        bench/record.sh at -b 256 and -b 1024, RUNS rounds
#                 (root, ../shared/tools/tc-record; RECORD=0 skips it)
# Outputs go to BENCH_DIR (default /var/tmp: a disk, so that the syncing
# that makes tdat's outputs durable is paid for as it is in use;
# trace-cmd and cat do not sync; a sync before each timed run of a job
# that writes puts every run on a clean page cache, so that no run pays
# for the write-back the previous one left).  Before any timing every output is
# checked: tdat's report text equals trace-cmd's; trace-cmd reports each
# converted file and the merged file as it reports the input; the
# reports of the split pieces, one after the other, equal the input's
# (cpus= lines left out), and the pieces are as many as trace-cmd's.  A
# check that fails stops the benchmark with exit status 1.
# Environment: BUILD (default build/), BENCH_FILE, BENCH_BYTES, RUNS,
# RECORD, BENCH_DIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=$(realpath -m "${BUILD:-$root/build}/tdat")
runs=${RUNS:-3}
TMPDIR=${BENCH_DIR:-/var/tmp}
. "$root/bench/lib.sh"
bench_setup all
rows=$tmp/rows

# ---- the input ----

# record_input OUT: the fixed workload recorded by tdat record as v6.
record_input() {
	local load

	[ "$(id -u)" = 0 ] || { echo "all.sh: recording needs root (or BENCH_FILE=)" >&2; exit 2; }
	load="dd if=/dev/zero of=/dev/null bs=1 count=${BENCH_BYTES:-2500000} 2>/dev/null &
i=0; while [ \$i -lt 2000 ]; do /bin/true; i=\$((i+1)); done &
tar cf - /usr/share 2>/dev/null | cat >/dev/null; wait"
	exec 9>/tmp/tdat-tracefs.lock
	flock -w 300 9 || { echo "all.sh: tracefs is busy" >&2; exit 1; }
	"$tb" record -q --file-version 6 -b 16384 -e sched -e irq \
		-e raw_syscalls -e timer -e kmem -o "$1" sh -c "$load" >/dev/null
	exec 9>&-
}

if [ -n "${BENCH_FILE:-}" ]; then
	in=$(realpath "$BENCH_FILE")
else
	in=$tmp/input.dat
	echo "recording the input (tdat record, fixed workload)..."
	record_input "$in"
fi
v6in=$in
if [ "$(version "$in")" != 6 ]; then
	v6in=$tmp/input-v6.dat
	trace-cmd convert -i "$in" -o "$v6in" --file-version 6 >/dev/null 2>&1
fi

# ---- checks ----

# report_sums FILE TAG: digests of trace-cmd's report of FILE, whole
# ($tmp/TAG.full) and without its cpus= line ($tmp/TAG.body).
report_sums() {
	local p

	rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
	grep -v '^cpus=' <"$tmp/fifo" | sha256sum >"$tmp/$2.body" &
	p=$!
	trace-cmd report -i "$1" 2>/dev/null | tee "$tmp/fifo" | sha256sum >"$tmp/$2.full"
	wait $p
}

# same_report FILE WHAT: trace-cmd reports FILE as it reports the input.
same_report() {
	report_sums "$1" got
	if cmp -s "$tmp/got.full" "$tmp/want.full"; then
		echo "check $2: trace-cmd reports it as it reports the input"
	else
		echo "check $2: trace-cmd's report DIFFERS from the input's"
		exit 1
	fi
}

check_report() {
	local same

	set +e
	trace-cmd report -i "$v6in" 2>/dev/null | cmp - <("$tb" report -i "$v6in" 2>/dev/null) >"$tmp/cmp" 2>&1
	same=${PIPESTATUS[1]}
	set -e
	if [ "$same" != 0 ]; then
		echo "check report: DIFFERS from trace-cmd's ($(head -n 1 "$tmp/cmp"))"
		exit 1
	fi
	echo "check report: tdat's text equals trace-cmd's"
}

check_pieces() {
	local p n=0

	for p in "$tmp/pb"/*; do
		trace-cmd report -i "$p" 2>/dev/null | grep -v '^cpus='
		n=$((n + 1))
	done | sha256sum >"$tmp/got.body"
	if ! cmp -s "$tmp/got.body" "$tmp/want.body"; then
		echo "check split: the pieces' reports DIFFER from the input's"
		exit 1
	fi
	if [ "$(ls "$tmp/pa" | wc -l)" != "$(ls "$tmp/pb" | wc -l)" ]; then
		echo "check split: $(ls "$tmp/pb" | wc -l) pieces, trace-cmd made $(ls "$tmp/pa" | wc -l)"
		exit 1
	fi
	echo "check split: $(ls "$tmp/pb" | wc -l) pieces (as trace-cmd's), reported as the input"
}

# ---- timing ----

# timed NAME GOAL VERDICT-EXPR: A_CMD (the reference) and B_CMD (tdat)
# in alternating pairs (PAIR_PREP before each run), then one row.
# VERDICT-EXPR is an awk condition over w (wall ratio), c (CPU ratio)
# and r (tdat's peak RSS, MiB).
timed() {
	local name=$1 goal=$2 verdict=$3 i ref=${REF:-trace-cmd} w c r ok=no

	rm -f "$tmp"/a.* "$tmp"/b.*
	for i in $(seq 0 "$runs"); do
		eval "${PAIR_PREP:-}"
		if [ "$i" = 0 ]; then
			eval "set -- $A_CMD"; "$@" >/dev/null 2>&1 || true
			eval "${PAIR_PREP:-}"
			eval "set -- $B_CMD"; "$@" >/dev/null 2>&1 || true
			continue
		fi
		eval "set -- $A_CMD"; cpu_once a "$@"
		eval "${PAIR_PREP:-}"
		eval "set -- $B_CMD"; cpu_once b "$@"
	done
	cpu_stats a; a_w=$wall a_c=$cpu a_r=$rss
	cpu_stats b
	w=$(ratio "$wall" "$a_w") c=$(ratio "$cpu" "$a_c") r=$(mib "$rss")
	awk -v w="$w" -v c="$c" -v r="$r" "BEGIN { exit !($verdict) }" && ok=yes
	printf '%-14s %7s %7s  %-9s %7s %7s  %6s %6s  %7s %7s  %-30s %s\n' \
		"$name" "$wall" "$cpu" "$ref" "$a_w" "$a_c" "$w" "$c" "$r" \
		"$(mib "$a_r")" "$goal" "$ok" >>"$rows"
}

# record_row KB: bench/record.sh at -b KB, RUNS rounds, its sums as one
# row: CPU milliseconds per 100 000 events in the CPU columns, events
# lost in the goal's.
record_row() {
	local kb=$1 ok=no goal="cpu/event <= 0.70x, lost <= tc"

	[ "$kb" = 1024 ] && goal="cpu/event <= 0.70x, 0 lost"
	TDAT=$tb "$root/bench/record.sh" 400000 "$runs" "$kb" >"$tmp/rec.$kb" 2>&1 ||
		{ cat "$tmp/rec.$kb" >&2; exit 1; }
	# tdat: events, lost, ms/100k; then trace-cmd's
	set -- $(awk '$2 == "cpu" && $1 == "tdat" { print $5, $7, $11 }' "$tmp/rec.$kb") \
	       $(awk '$2 == "cpu" && $1 == "trace-cmd" { print $5, $7, $11 }' "$tmp/rec.$kb")
	awk -v a="$3" -v b="$6" -v la="$2" -v lb="$5" \
		'BEGIN { exit !(a <= 0.7 * b && la <= lb) }' && ok=yes
	[ "$kb" = 1024 ] && [ "$2" != 0 ] && ok=no
	printf '%-14s %7s %7s  %-9s %7s %7s  %6s %6s  %7s %7s  %-30s %s\n' \
		"record -b $kb" - "$3" trace-cmd - "$6" - "$(ratio "$3" "$6")" \
		- - "$goal (lost $2 vs $5)" "$ok" >>"$rows"
}

# ---- the jobs ----

echo "input: $in ($(wc -c <"$in") bytes, v$(version "$in")); outputs in $tmp"
echo "tdat: $tb; trace-cmd: $(trace-cmd 2>&1 | grep -m1 -o 'version [^ ]*' || true)"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo "RUNS=$runs alternating pairs, medians; checks first:"
report_sums "$v6in" want
: >"$rows"

check_report
A_CMD="trace-cmd report -i '$v6in'" B_CMD="'$tb' report -i '$v6in'" PAIR_PREP=
timed report "CPU<=0.20x wall<=0.12x <=64MiB" "c <= 0.20 && w <= 0.12 && r <= 64"

trace-cmd convert -i "$v6in" -o "$tmp/in.v7" >/dev/null 2>&1
"$tb" convert -q -i "$v6in" -o "$tmp/tb.v7"
same_report "$tmp/tb.v7" "v6 -> v7 zstd ($(ratio "$(wc -c <"$tmp/tb.v7")" "$(wc -c <"$tmp/in.v7")")x trace-cmd's size)"
A_CMD="trace-cmd convert -i '$v6in' -o '$tmp/tc.v7'"
B_CMD="'$tb' convert -q -i '$v6in' -o '$tmp/tb.v7'"
PAIR_PREP='rm -f "$tmp/tc.v7" "$tmp/tb.v7"; sync'
timed "v6 -> v7 zstd" "wall<=0.55x" "w <= 0.55"

"$tb" convert -q -i "$tmp/in.v7" -o "$tmp/tb.v6" --file-version 6
same_report "$tmp/tb.v6" "v7 zstd -> v6"
A_CMD="trace-cmd convert -i '$tmp/in.v7' -o '$tmp/tc.v6' --file-version 6"
B_CMD="'$tb' convert -q -i '$tmp/in.v7' -o '$tmp/tb.v6' --file-version 6"
PAIR_PREP='rm -f "$tmp/tc.v6" "$tmp/tb.v6"; sync'
timed "v7 zstd -> v6" "wall<=0.70x" "w <= 0.70"

# --archive: its size against trace-cmd's default file (goal <= 0.65x,
# in the row's name), and tdat's report of it against tdat's report of
# trace-cmd's file (wall <= 1.10x).
"$tb" convert -q --archive -i "$v6in" -o "$tmp/tb.ar"
ar_x=$(ratio "$(wc -c <"$tmp/tb.ar")" "$(wc -c <"$tmp/in.v7")")
same_report "$tmp/tb.ar" "--archive (${ar_x}x trace-cmd's size)"
A_CMD="'$tb' report -i '$tmp/in.v7'" B_CMD="'$tb' report -i '$tmp/tb.ar'"
PAIR_PREP=
REF="tdat, tc's" timed "archive ${ar_x}x" "size<=0.65x, report wall<=1.10x" \
	"w <= 1.10 && $ar_x <= 0.65"
rm -f "$tmp/tc.v6" "$tmp/tb.v6" "$tmp/tc.v7" "$tmp/tb.v7" "$tmp/in.v7" \
	"$tmp/tb.ar"

PAIR_PREP='rm -rf "$tmp/pa" "$tmp/pb"; mkdir "$tmp/pa" "$tmp/pb"; sync'
eval "$PAIR_PREP"
trace-cmd split -i "$v6in" -o "$tmp/pa/p" -s 2 -r >/dev/null 2>&1
"$tb" split -i "$v6in" -o "$tmp/pb/p" -s 2 -r >/dev/null
check_pieces
A_CMD="trace-cmd split -i '$v6in' -o '$tmp/pa/p' -s 2 -r"
B_CMD="'$tb' split -i '$v6in' -o '$tmp/pb/p' -s 2 -r"
timed "split -s 2 -r" "wall<=0.30x" "w <= 0.30"

"$tb" merge -q -o "$tmp/merged.dat" "$tmp"/pb/*
same_report "$tmp/merged.dat" "merge of split's $(ls "$tmp/pb" | wc -l) pieces"
A_CMD="sh -c 'cat $tmp/pb/* >$tmp/cat.out'"
B_CMD="'$tb' merge -q -o '$tmp/merged.dat' $tmp/pb/*"
PAIR_PREP='rm -f "$tmp/cat.out" "$tmp/merged.dat"; sync'
REF=cat timed "merge" "wall<=1.10x cat" "w <= 1.10"
# the same guarantee as merge gives: the bytes on disk when it ends
A_CMD="sh -c 'cat $tmp/pb/* >$tmp/cat.out && sync $tmp/cat.out'"
REF=cat+sync timed "merge" "wall<=1.10x cat+sync" "w <= 1.10"
rm -rf "$tmp/pa" "$tmp/pb" "$tmp/cat.out" "$tmp/merged.dat"

if [ "${RECORD:-1}" != 0 ] && [ "$(id -u)" = 0 ] &&
   [ -x "$root/../shared/tools/tc-record" ]; then
	record_row 256
	record_row 1024
fi

echo
printf '%-14s %7s %7s  %-9s %7s %7s  %6s %6s  %7s %7s  %-30s %s\n' \
	job "tdat s" "cpu s" ref "wall s" "cpu s" wall_x cpu_x "rss MiB" \
	"ref MiB" goal holds
cat "$rows"
exit 0

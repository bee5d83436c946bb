#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/record.sh [BYTES] [ROUNDS] [BUFFER_KB]: tdat record against
# trace-cmd record (../shared/tools/tc-record) under a heavy event load.
# Three recorders: tdat (its defaults: the files synced every second,
# --flush-interval 1), tdat0 (tdat record --flush-interval 0: left to
# the kernel's writeback, the recorder before issue 50) and trace-cmd.
#
# Each recorder in turn (the order rotates between rounds: 2 shared
# cores are noisy) records raw_syscalls + sched + irq with the same
# per-CPU buffer size (-b) while it runs a fixed workload as its COMMAND:
# a byte-at-a-time dd of BYTES bytes (two syscalls a byte) beside a loop
# of 300 forks (sched events).  The same work makes the same events, so
# the recorders are compared on equal ground.  For each recording:
#   cpu      user + system CPU seconds of the recorder: /usr/bin/time of
#            the whole (the recorder and what it waited for: trace-cmd's
#            per-CPU recorders, our threads, the workload) minus the
#            workload's own times (the shell's "times")
#   events   event lines in trace-cmd's report of the file
#   lost     events the kernel overwrote or dropped ("overrun:" plus
#            "dropped events:" of report --stat, per-CPU stats)
#   markers  "[EVENTS DROPPED]" lines of the report (missed-event flags)
#   cpu_ms/100k  recorder CPU milliseconds per 100000 events recorded
# then the sums per recorder.
#
# Environment: TDAT (default build/tdat), TC_RECORD (default
# ../shared/tools/tc-record beside this repository), RECORD_OPTS (more
# options for every recorder, e.g. "-T" for a stack trace after every
# event), TOOLS (default "tdat tdat0 trace-cmd"; "tdat-old" is the tdat
# binary TDAT_OLD names, an older build, with its defaults), TMPDIR (where the
# recordings go: a disk, for the syncs to cost what they cost).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
TDAT=${TDAT:-$root/build/tdat}
TC_RECORD=${TC_RECORD:-$(cd "$root/.." && pwd)/shared/tools/tc-record}
bytes=${1:-400000}
rounds=${2:-3}
kb=${3:-1024}
events="-e raw_syscalls -e sched -e irq ${RECORD_OPTS:-}"

[ "$(id -u)" = 0 ] || { echo "bench/record.sh: needs root" >&2; exit 2; }
[ -x "$TDAT" ] || { echo "bench/record.sh: no $TDAT (make first)" >&2; exit 2; }
[ -x "$TC_RECORD" ] || { echo "bench/record.sh: no $TC_RECORD" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/record.sh: needs /usr/bin/time" >&2; exit 2; }

# One recorder on the top buffer at a time (tests/e2e/70-record.sh too).
exec 9>/tmp/tdat-tracefs.lock
flock -w 300 9 || { echo "bench/record.sh: tracefs is busy" >&2; exit 1; }

# trace-cmd dies on this machine before its cleanup (see tc-record) and
# leaves the top buffer's size, events, trace options (-T) and tracing_on
# changed: put them back after each of its runs.
T=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
T=${T:-/sys/kernel/tracing}
saved_kb=$(sed 's/.*expanded: *\([0-9]*\).*/\1/; s/ .*//' "$T/buffer_size_kb")
saved_on=$(cat "$T/tracing_on")
saved_events=$(cat "$T/set_event")
saved_opts=$(grep -H . "$T"/options/* 2>/dev/null)
put_back() {
	local e
	echo "$saved_opts" | while IFS=: read -r f v; do
		[ "$(cat "$f")" = "$v" ] || echo "$v" >"$f"
	done
	echo "$saved_kb" >"$T/buffer_size_kb"
	: >"$T/set_event"
	for e in $saved_events; do echo "$e" >>"$T/set_event"; done
	echo "$saved_on" >"$T/tracing_on"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-record.XXXXXX")
tools=${TOOLS:-tdat tdat0 trace-cmd}
cleanup() {
	put_back
	rm -rf "$work"
}
trap cleanup EXIT

# The workload, as the recorder's COMMAND; its own CPU times go to $work/times.
load="dd if=/dev/zero of=/dev/null bs=1 count=$bytes 2>/dev/null &
i=0; while [ \$i -lt 300 ]; do /bin/true; i=\$((i+1)); done; wait; times >$work/times"

# run TOOL FILE: one recording; prints "cpu events lost markers".
run() {
	local tool=$1 out=$2 t=$work/time rec
	rm -rf "$out" "$out".rec "$out".cpu* "$work/times"
	case $tool in
	tdat) rec=$TDAT; set -- record ;;
	tdat0) rec=$TDAT; set -- record --flush-interval 0 ;;
	tdat-old) rec=$TDAT_OLD; set -- record ;;
	*) rec=$TC_RECORD; set -- ;;
	esac
	/usr/bin/time -f "%U %S" -o "$t" "$rec" "$@" -q -b "$kb" $events \
		-o "$out" sh -c "$load" >/dev/null 2>"$work/err" || true
	[ "$rec" = "$TDAT" ] || [ "$rec" = "${TDAT_OLD:-}" ] || put_back
	[ -s "$out" ] && [ -s "$work/times" ] ||
		{ cat "$work/err" >&2; echo "bench/record.sh: $tool failed" >&2; exit 1; }
	# "times": shell user/sys, then children user/sys, as 0m1.234s
	cpu=$(sed 's/m/ /g; s/s//g' "$work/times" |
	      awk -v all="$(tail -n 1 "$t")" '
		{ w += $1 * 60 + $2 + $3 * 60 + $4 }
		END { split(all, a, " "); printf "%.2f", a[1] + a[2] - w }')
	lost=$(trace-cmd report --stat -i "$out" 2>/dev/null |
	       awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }')
	trace-cmd report -i "$out" 2>/dev/null | tail -n +2 >"$work/rep"
	markers=$(grep -c "EVENTS DROPPED\]" "$work/rep" || true)
	ev=$(( $(wc -l <"$work/rep") - markers ))
	echo "$cpu $ev $lost $markers"
}

printf "%-9s %5s %6s %10s %10s %8s %12s\n" tool round cpu_s events lost markers cpu_ms/100k
declare -A cpu_sum ev_sum lost_sum mark_sum
for tool in $tools; do
	cpu_sum[$tool]=0; ev_sum[$tool]=0; lost_sum[$tool]=0; mark_sum[$tool]=0
done
order=$tools
for r in $(seq 1 "$rounds"); do
	[ "$r" = 1 ] || order="${order#* } ${order%% *}"	# rotate
	for tool in $order; do
		read -r c e l m < <(run "$tool" "$work/$tool.dat")
		printf "%-9s %5d %6s %10d %10d %8d %12s\n" "$tool" "$r" "$c" "$e" "$l" "$m" \
			"$(awk -v c="$c" -v e="$e" 'BEGIN { printf "%.1f", e ? c * 1e8 / e : 0 }')"
		cpu_sum[$tool]=$(awk -v a="${cpu_sum[$tool]}" -v b="$c" 'BEGIN { printf "%.2f", a + b }')
		ev_sum[$tool]=$(( ${ev_sum[$tool]} + e ))
		lost_sum[$tool]=$(( ${lost_sum[$tool]} + l ))
		mark_sum[$tool]=$(( ${mark_sum[$tool]} + m ))
	done
done
echo "sums over $rounds rounds of a $bytes-byte dd + 300 forks, -b $kb, $events:"
for tool in $tools; do
	printf "%-9s cpu %6ss  events %10d  lost %10d  markers %6d  cpu_ms/100k %s\n" "$tool" \
		"${cpu_sum[$tool]}" "${ev_sum[$tool]}" "${lost_sum[$tool]}" "${mark_sum[$tool]}" \
		"$(awk -v c="${cpu_sum[$tool]}" -v e="${ev_sum[$tool]}" 'BEGIN { printf "%.1f", e ? c * 1e8 / e : 0 }')"
done

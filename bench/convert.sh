#!/bin/bash
# convert.sh FILE: tracebox convert against trace-cmd convert, same input,
# same run.  For each case: median wall time of RUNS runs (default 5) of
# each tool, the ratio tracebox/trace-cmd, output sizes and their ratio,
# and peak RSS.  Cases:
#   v6 -> v7 zstd     both tools' defaults (input: FILE if it is v6, else
#                     trace-cmd's v6 conversion of it, made untimed first)
#   v7 zstd -> v6     --file-version 6 (input: FILE if it is v7 zstd,
#                     else trace-cmd's v7 output of the first case)
#   archive           tracebox $ARCHIVE (default --level 19
#                     --chunk-size 16M) from the v6 input,
#                     sized against trace-cmd's default v7 output
# Unless CHECK=0, every tracebox output is then checked: Debian's
# trace-cmd must report it exactly as it reports the input.
# Environment: BUILD (default build/), RUNS, CHECK, TMPDIR, ARCHIVE.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=${BUILD:-$root/build}/tracebox
runs=${RUNS:-5}
# Highest zstd level, big chunks: the smallest file trace-cmd still reads.
ARCHIVE=${ARCHIVE:---level 19 --chunk-size 16M}

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "usage: bench/convert.sh FILE   (env: BUILD RUNS CHECK)" >&2
	exit 2
fi
in=$(realpath "$1")
[ -x "$tb" ] || { echo "convert.sh: $tb missing (make)" >&2; exit 2; }
command -v trace-cmd >/dev/null && [ -x /usr/bin/time ] ||
	"$root/scripts/install-deps"

# Outputs go to memory (tmpfs) when there is one, so disk write-back
# does not drown the difference between the tools.
[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && TMPDIR=/dev/shm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-convert.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Version digit and codec name of a trace.dat (from its first bytes).
version() { head -c 11 "$1" | tail -c 1; }
codec() { head -c 24 "$1" | tail -c +19 | tr -d '\0' | head -c 4; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# once TAG CMD...: one timed run of CMD; appends its wall time (us) to
# $tmp/TAG.times and its peak RSS (KiB) to $tmp/TAG.rss.
once() {
	local tag=$1 t0 t1

	shift
	t0=$(date +%s%N)
	/usr/bin/time -f %M -a -o "$tmp/$tag.rss" "$@" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000)) >>"$tmp/$tag.times"
}

# stats TAG: secs (median wall seconds) and rss (largest peak, KiB).
stats() {
	secs=$(median <"$tmp/$1.times" | awk '{ printf "%.3f", $1 / 1e6 }')
	rss=$(sort -n "$tmp/$1.rss" | tail -n 1)
}

# pair A-OUT B-OUT: runs the commands in $A_CMD and $B_CMD alternately,
# RUNS times each after one warm-up of each, so that a slow spell of the
# machine hits both tools alike.
pair() {
	local i

	rm -f "$tmp"/a.* "$tmp"/b.*
	eval "set -- $A_CMD"; "$@" >/dev/null 2>&1 || true
	eval "set -- $B_CMD"; "$@" >/dev/null 2>&1 || true
	for i in $(seq "$runs"); do
		eval "set -- $A_CMD"; once a "$@"
		eval "set -- $B_CMD"; once b "$@"
	done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
size() { wc -c <"$1"; }

row() {	# case tool secs rss bytes
	printf '%-16s %-10s %9s s %9s MiB %12s bytes\n' "$1" "$2" "$3" "$(mib "$4")" "$5"
}

# compare CASE TOOL-SECS TOOL-RSS TOOL-OUT TC-SECS TC-RSS TC-OUT
compare() {
	row "$1" trace-cmd "$5" "$6" "$(size "$7")"
	row "" tracebox "$2" "$3" "$(size "$4")"
	printf '%-16s %-10s %9sx %14s %12sx size\n' "" ratio \
		"$(ratio "$2" "$5")" "" "$(ratio "$(size "$4")" "$(size "$7")")"
}

# Inputs for the two directions.
v6in=$in
if [ "$(version "$in")" != 6 ]; then
	v6in=$tmp/input-v6.dat
	trace-cmd convert -i "$in" -o "$v6in" --file-version 6 >/dev/null 2>&1
fi

echo "input: $in ($(size "$in") bytes, v$(version "$in")), median of $runs runs"
echo "tracebox: $tb; trace-cmd: $(trace-cmd 2>&1 | grep -m1 -o 'version [^ ]*' || true)"
echo

A_CMD="trace-cmd convert -i '$v6in' -o '$tmp/tc.v7'"
B_CMD="'$tb' convert -q -i '$v6in' -o '$tmp/tb.v7'"
pair
stats a; tc_s=$secs tc_r=$rss
stats b
compare "v6 -> v7 zstd" "$secs" "$rss" "$tmp/tb.v7" "$tc_s" "$tc_r" "$tmp/tc.v7"
t67=$(ratio "$secs" "$tc_s") s67=$(ratio "$(size "$tmp/tb.v7")" "$(size "$tmp/tc.v7")")
maxrss=$rss
echo

v7in=$tmp/tc.v7
if [ "$(version "$in")" = 7 ] && [ "$(codec "$in")" = zstd ]; then
	v7in=$in
fi
A_CMD="trace-cmd convert -i '$v7in' -o '$tmp/tc.v6' --file-version 6"
B_CMD="'$tb' convert -q -i '$v7in' -o '$tmp/tb.v6' --file-version 6"
pair
stats a; tc_s=$secs tc_r=$rss
stats b
compare "v7 zstd -> v6" "$secs" "$rss" "$tmp/tb.v6" "$tc_s" "$tc_r" "$tmp/tc.v6"
t76=$(ratio "$secs" "$tc_s")
[ "$rss" -gt "$maxrss" ] && maxrss=$rss
echo

# The archive setting: one run (it is slow); memory stays in budget
# because the chunk pool uses fewer threads for big chunks.
rm -f "$tmp"/c.*
once c "$tb" convert -q $ARCHIVE -i "$v6in" -o "$tmp/tb.arch"
stats c
row "archive" tracebox "$secs" "$rss" "$(size "$tmp/tb.arch")"
printf '%-16s %-10s %25s %12sx size of trace-cmd v7 zstd\n' "" ratio "" \
	"$(ratio "$(size "$tmp/tb.arch")" "$(size "$tmp/tc.v7")")"
sarch=$(ratio "$(size "$tmp/tb.arch")" "$(size "$tmp/tc.v7")")
[ "$rss" -gt "$maxrss" ] && maxrss=$rss

# target WHAT VALUE LIMIT: one line, ok when VALUE <= LIMIT.
target() {
	local verdict=MISS

	awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }' && verdict=ok
	printf '  %-4s %-34s %8s (target <= %s)\n' "$verdict" "$1" "$2" "$3"
}
echo
echo "targets (issue 2):"
target "v6 -> v7 zstd time ratio" "$t67" 0.6
target "v6 -> v7 zstd size ratio" "$s67" 1.0
target "v7 zstd -> v6 time ratio" "$t76" 0.5
target "archive size ratio" "$sarch" 0.6
target "tracebox peak RSS (MiB)" "$(mib "$maxrss")" 64

if [ "${CHECK:-1}" != 0 ]; then
	echo
	trace-cmd report -i "$v6in" >"$tmp/want.txt"
	for f in tb.v7 tb.v6 tb.arch; do
		if trace-cmd report -i "$tmp/$f" 2>/dev/null | cmp -s - "$tmp/want.txt"; then
			echo "check $f: trace-cmd report identical to the input's"
		else
			echo "check $f: trace-cmd report DIFFERS from the input's"
			exit 1
		fi
	done
fi

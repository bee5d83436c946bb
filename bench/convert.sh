#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# convert.sh FILE: tdat convert against trace-cmd convert, same input,
# same run.  For each case: median wall time of RUNS runs (default 5) of
# each tool, the ratio tdat/trace-cmd, output sizes and their ratio,
# and peak RSS.  Cases:
#   v6 -> v7 zstd     both tools' defaults (input: FILE if it is v6, else
#                     trace-cmd's v6 conversion of it, made untimed first)
#   v7 zstd -> v6     --file-version 6 (input: FILE if it is v7 zstd,
#                     else trace-cmd's v7 output of the first case)
#   archive           tdat $ARCHIVE (default --archive: zstd 19, 1 MiB
#                     chunks; larger chunks make trace-cmd 3.4 read
#                     slowly, see tdat-convert(1)) from the v6 input,
#                     sized against trace-cmd's default v7 output
# Unless CHECK=0, every tdat output is then checked: Debian's
# trace-cmd must report it exactly as it reports the input.
# Environment: BUILD (default build/), RUNS, CHECK, TMPDIR, ARCHIVE.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=${BUILD:-$root/build}/tdat
runs=${RUNS:-5}
# The smallest file trace-cmd still reads (convert/archive/archive.h).
ARCHIVE=${ARCHIVE:---archive}

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "usage: bench/convert.sh FILE   (env: BUILD RUNS CHECK)" >&2
	exit 2
fi
in=$(realpath "$1")
. "$root/bench/lib.sh"
bench_setup convert

size() { wc -c <"$1"; }

row() {	# case tool secs rss bytes
	printf '%-16s %-10s %9s s %9s MiB %12s bytes\n' "$1" "$2" "$3" "$(mib "$4")" "$5"
}

# compare CASE TOOL-SECS TOOL-RSS TOOL-OUT TC-SECS TC-RSS TC-OUT
compare() {
	row "$1" trace-cmd "$5" "$6" "$(size "$7")"
	row "" tdat "$2" "$3" "$(size "$4")"
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
echo "tdat: $tb; trace-cmd: $(trace-cmd 2>&1 | grep -m1 -o 'version [^ ]*' || true)"
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
row "archive" tdat "$secs" "$rss" "$(size "$tmp/tb.arch")"
printf '%-16s %-10s %25s %12sx size of trace-cmd v7 zstd\n' "" ratio "" \
	"$(ratio "$(size "$tmp/tb.arch")" "$(size "$tmp/tc.v7")")"
sarch=$(ratio "$(size "$tmp/tb.arch")" "$(size "$tmp/tc.v7")")
[ "$rss" -gt "$maxrss" ] && maxrss=$rss

echo
echo "targets (issue 2):"
target "v6 -> v7 zstd time ratio" "$t67" 0.6
target "v6 -> v7 zstd size ratio" "$s67" 1.0
target "v7 zstd -> v6 time ratio" "$t76" 0.5
target "archive size ratio" "$sarch" 0.6
target "tdat peak RSS (MiB)" "$(mib "$maxrss")" 64

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

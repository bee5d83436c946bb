#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# archive.sh FILE: what tdat convert --archive gives against trace-cmd's
# default v7 zstd file of the same recording, in the same run: the two
# sizes and their ratio (goal <= 0.65: 35% smaller), the time to make
# the archive, and the report of each file by tdat, Debian's trace-cmd
# 3.1.6 and trace-cmd 3.4 (scripts/oracle-tc34, when it can be had),
# RUNS alternating runs each (default 5), output to /dev/null, and the
# ratio archive / trace-cmd's file (goal for tdat: <= 1.10).  Every
# report of the archive is first checked equal to the same tool's
# report of trace-cmd's file.
# Environment: BUILD (default build/), RUNS, TMPDIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=${BUILD:-$root/build}/tdat
runs=${RUNS:-5}

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "usage: bench/archive.sh FILE   (env: BUILD RUNS)" >&2
	exit 2
fi
in=$(realpath "$1")
. "$root/bench/lib.sh"
bench_setup archive
tc34=$root/scripts/oracle-tc34
"$tc34" --setup >/dev/null 2>&1 || tc34=

# trace-cmd's default file: from a v6 copy (trace-cmd converts v6 only).
"$tb" convert -q --file-version 6 -i "$in" -o "$tmp/v6.dat"
trace-cmd convert -i "$tmp/v6.dat" -o "$tmp/tc.dat" >/dev/null 2>&1
t0=$(date +%s%N)
"$tb" convert -q --archive -i "$tmp/v6.dat" -o "$tmp/ar.dat"
t1=$(date +%s%N)
rm -f "$tmp/v6.dat"
tcs=$(wc -c <"$tmp/tc.dat")
ars=$(wc -c <"$tmp/ar.dat")
printf 'trace-cmd default v7 zstd  %12s bytes\n' "$tcs"
printf 'tdat convert --archive     %12s bytes  %sx  (goal <= 0.65)  made in %s s\n' \
	"$ars" "$(ratio "$ars" "$tcs")" "$(awk -v t=$((t1 - t0)) 'BEGIN { printf "%.1f", t / 1e9 }')"

# report_pair NAME CMD...: CMD FILE for both files, checked, then timed.
report_pair() {
	local name=$1

	shift
	"$@" "$tmp/tc.dat" >"$tmp/r-tc.txt" 2>/dev/null || true
	"$@" "$tmp/ar.dat" >"$tmp/r-ar.txt" 2>/dev/null || true
	cmp -s "$tmp/r-tc.txt" "$tmp/r-ar.txt" ||
		{ echo "$name: the archive reports otherwise" >&2; exit 1; }
	A_CMD="$* $tmp/tc.dat" B_CMD="$* $tmp/ar.dat" pair
	stats a; local ta=$secs
	stats b; local tb_=$secs
	printf 'report %-22s %8s s  archive %8s s  %sx\n' "$name" "$ta" "$tb_" \
		"$(ratio "$tb_" "$ta")"
}

report_pair "tdat" "$tb" report
report_pair "trace-cmd 3.1.6" trace-cmd report
[ -z "$tc34" ] || report_pair "trace-cmd 3.4" "$tc34" report

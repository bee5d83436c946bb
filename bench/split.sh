#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# split.sh FILE: tdat split against trace-cmd split, same input, same
# run.  For each case: median wall time of RUNS runs (default 5) of each
# tool (alternating, after one warm-up each), the ratio tdat/trace-cmd,
# pieces made and peak RSS.  Cases (issue 4):
#   v6 -s 1 -r         input: FILE if it is v6, else trace-cmd's v6
#                      conversion of it (made untimed first)
#   v7 zstd -m 500 -r  input: FILE if it is v7 zstd, else trace-cmd's
#                      v7 zstd conversion of it
# Unless CHECK=0, tdat's pieces are then checked with Debian's
# trace-cmd: the event lines of its reports of the pieces, one after the
# other, must equal the event lines of its report of the input ("cpus="
# lines left out: each file has one).
# Environment: BUILD (default build/), RUNS, CHECK, TMPDIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=${BUILD:-$root/build}/tdat
runs=${RUNS:-5}

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "usage: bench/split.sh FILE   (env: BUILD RUNS CHECK)" >&2
	exit 2
fi
in=$(realpath "$1")
. "$root/bench/lib.sh"
bench_setup split
# each run starts from empty piece directories (expanded by pair)
# shellcheck disable=SC2016
PAIR_PREP='rm -rf "$tmp/pa" "$tmp/pb"; mkdir "$tmp/pa" "$tmp/pb"'

row() {	# case tool secs rss pieces
	printf '%-20s %-10s %9s s %9s MiB %6s pieces\n' "$1" "$2" "$3" "$(mib "$4")" "$5"
}

# run_case NAME INPUT ARGS...: time both tools, print rows, keep pieces in
# $tmp/keep.NAME for the check.
run_case() {
	local name=$1 input=$2 tc_s tc_r

	shift 2
	A_CMD="trace-cmd split -i '$input' -o '$tmp/pa/p' $*"
	B_CMD="'$tb' split -i '$input' -o '$tmp/pb/p' $*"
	pair
	stats a; tc_s=$secs tc_r=$rss
	stats b
	row "$name" trace-cmd "$tc_s" "$tc_r" "$(ls "$tmp/pa" | wc -l)"
	row "" tdat "$secs" "$rss" "$(ls "$tmp/pb" | wc -l)"
	printf '%-20s %-10s %9sx\n' "" ratio "$(ratio "$secs" "$tc_s")"
	last_ratio=$(ratio "$secs" "$tc_s")
	[ "$rss" -gt "$maxrss" ] && maxrss=$rss
	rm -rf "$tmp/keep.$name"
	mv "$tmp/pb" "$tmp/keep.$name"
}

v6in=$in v7in=$in
if [ "$(version "$in")" != 6 ]; then
	v6in=$tmp/input-v6.dat
	trace-cmd convert -i "$in" -o "$v6in" --file-version 6 >/dev/null 2>&1
fi
if [ "$(version "$in")" != 7 ] || [ "$(codec "$in")" != zstd ]; then
	v7in=$tmp/input-v7zstd.dat
	trace-cmd convert -i "$v6in" -o "$v7in" --compression zstd >/dev/null 2>&1
fi

echo "input: $in ($(wc -c <"$in") bytes, v$(version "$in")), median of $runs runs"
echo "tdat: $tb; trace-cmd: $(trace-cmd 2>&1 | grep -m1 -o 'version [^ ]*' || true)"
echo
maxrss=0
run_case v6-s1 "$v6in" -s 1 -r
t6=$last_ratio
echo
run_case v7zstd-m500 "$v7in" -m 500 -r
t7=$last_ratio

echo
echo "targets (issue 4):"
target "v6 split -s 1 -r time ratio" "$t6" 0.3
target "v7 zstd split -m 500 -r time ratio" "$t7" 0.25
target "tdat peak RSS (MiB)" "$(mib "$maxrss")" 64

if [ "${CHECK:-1}" != 0 ]; then
	echo
	for c in v6-s1:$v6in v7zstd-m500:$v7in; do
		name=${c%%:*} input=${c#*:}
		trace-cmd report -i "$input" 2>/dev/null | grep -v '^cpus=' >"$tmp/want.txt"
		for p in "$tmp/keep.$name"/*; do
			trace-cmd report -i "$p" 2>/dev/null | grep -v '^cpus='
		done >"$tmp/got.txt"
		if cmp -s "$tmp/got.txt" "$tmp/want.txt"; then
			echo "check $name: trace-cmd reports of the $(ls "$tmp/keep.$name" | wc -l) pieces = its report of the input ($(wc -l <"$tmp/want.txt") lines)"
		else
			echo "check $name: trace-cmd reports of the pieces DIFFER from its report of the input"
			exit 1
		fi
	done
fi

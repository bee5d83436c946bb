#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# perfetto.sh [FILE]: convert --to perfetto against tdat report (text, to
# /dev/null) on the same input, in the same run (issue 23).  FILE
# defaults to /work/bigdata/big2.dat when it is there.
# Runs, alternately after one warm-up each, RUNS times (default 5) and
# prints median wall and CPU time, peak RSS, the ratios report/export
# (the goal: the export 3x faster), and the trace's size against the
# same trace as v7 zstd (the goal: at most 1.5x).  The machine's load
# moves wall times: CPU times are the steadier figure.
# Environment: BUILD (default build/), RUNS.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=${BUILD:-$root/build}/tdat
runs=${RUNS:-5}
. "$root/bench/lib.sh"
bench_setup perfetto

in=${1:-/work/bigdata/big2.dat}
[ -f "$in" ] || { echo "perfetto.sh: no input $in (give one)" >&2; exit 2; }
in=$(realpath "$in")

REPORT=("$tb" report -i "$in")
EXPORT=("$tb" convert -q --to perfetto -i "$in" -o "$tmp/out.pftrace")

echo "input: $in ($(wc -c <"$in") bytes), median of $runs runs"
"${REPORT[@]}" >/dev/null 2>&1 || true
"${EXPORT[@]}" 2>/dev/null || true
for i in $(seq "$runs"); do
	cpu_once report "${REPORT[@]}"
	cpu_once export "${EXPORT[@]}"
done
cpu_stats report; r_wall=$wall r_cpu=$cpu r_rss=$rss
cpu_stats export
printf '%-22s %9s %9s %11s\n' "" wall cpu "peak RSS"
printf '%-22s %7s s %7s s %7s MiB\n' "tdat report" "$r_wall" "$r_cpu" "$(mib "$r_rss")"
printf '%-22s %7s s %7s s %7s MiB\n' "convert --to perfetto" "$wall" "$cpu" "$(mib "$rss")"

"$tb" convert -q -i "$in" -o "$tmp/v7.dat" --file-version 7 --compression zstd
v7=$(wc -c <"$tmp/v7.dat")
out=$(wc -c <"$tmp/out.pftrace")
echo "trace $out bytes, v7 zstd $v7 bytes"
echo
echo "targets (issue 23):"
target "export wall / report wall" "$(ratio "$wall" "$r_wall")" 0.333
target "export CPU / report CPU" "$(ratio "$cpu" "$r_cpu")" 0.333
target "export peak RSS (MiB)" "$(mib "$rss")" 64
target "trace / v7 zstd size" "$(ratio "$out" "$v7")" 1.5

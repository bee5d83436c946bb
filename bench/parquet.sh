#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# parquet.sh [FILE]: convert --to parquet against tdat report on the same
# input, in the same run (issue 19, point 6).  Without FILE it records
# one first (root: sched, irq, raw_syscalls, timer and kmem for 3 s of
# find and ls -R, a few hundred MB) with tdat record.
# Runs, alternately after one warm-up each, RUNS times (default 5):
# tdat report (text, to /dev/null) and tdat convert --to parquet; prints
# median wall and CPU time, peak RSS, the CPU ratio export/report, the
# dataset's size against the same trace as v7 zstd, and the time DuckDB
# takes for a GROUP BY event count over the dataset (median of 5).
# Environment: BUILD (default build/), RUNS.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=${BUILD:-$root/build}/tdat
runs=${RUNS:-5}
. "$root/bench/lib.sh"
bench_setup parquet

if [ $# -ge 1 ]; then
	in=$(realpath "$1")
else
	in=$tmp/rec.dat
	echo "recording $in (3 s of find and ls -R) ..."
	"$tb" record -q -b 10000 -e sched -e irq -e raw_syscalls -e timer \
		-e kmem -o "$in" sh -c 'timeout 3 sh -c "while :; do find / -xdev >/dev/null 2>&1; done" &
			timeout 3 sh -c "while :; do ls -R /usr >/dev/null 2>&1; done"; wait' \
		>/dev/null
fi

# the dataset goes each time: convert never writes over one
export_once() {
	rm -rf "$tmp/ds"
	cpu_once "$@"
}

REPORT=("$tb" report -i "$in")
EXPORT=("$tb" convert -q --to parquet -i "$in" -o "$tmp/ds")

echo "input: $in ($(wc -c <"$in") bytes), median of $runs runs"
"${REPORT[@]}" >/dev/null 2>&1 || true
rm -rf "$tmp/ds"; "${EXPORT[@]}" 2>/dev/null || true
for i in $(seq "$runs"); do
	cpu_once report "${REPORT[@]}"
	export_once export "${EXPORT[@]}"
done
cpu_stats report; r_wall=$wall r_cpu=$cpu r_rss=$rss
cpu_stats export
printf '%-22s %9s %9s %11s\n' "" wall cpu "peak RSS"
printf '%-22s %7s s %7s s %7s MiB\n' "tdat report" "$r_wall" "$r_cpu" "$(mib "$r_rss")"
printf '%-22s %7s s %7s s %7s MiB\n' "convert --to parquet" "$wall" "$cpu" "$(mib "$rss")"

"$tb" convert -q -i "$in" -o "$tmp/v7.dat" --file-version 7 --compression zstd
v7=$(wc -c <"$tmp/v7.dat")
ds=$(find "$tmp/ds" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
rows=$(grep -o '"rows":[0-9]*' "$tmp/ds/meta.json" | head -n 1 | cut -d: -f2)
echo "rows: $rows; dataset $ds bytes, v7 zstd $v7 bytes"

# DuckDB's GROUP BY event count, timed inside node (no start-up).
groupby=-
if [ -d "$root/build-npm/parquet/node_modules/@duckdb" ]; then
	groupby=$(cd "$root/build-npm/parquet" && node --input-type=module -e "
import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const q = \"SELECT regexp_extract(tdat_table, '([^/]+/[^/]+)\\\\.parquet\$', 1) AS event, count(*) \" +
	\"FROM read_parquet('$tmp/ds/*/*.parquet', union_by_name=true, filename='tdat_table') GROUP BY event\";
const t = [];
for (let i = 0; i < 5; i++) {
	const t0 = process.hrtime.bigint();
	await c.runAndReadAll(q);
	t.push(Number(process.hrtime.bigint() - t0) / 1e9);
}
t.sort((a, b) => a - b);
console.log(t[2].toFixed(3));")
else
	echo "(no DuckDB in build-npm/: run tests/e2e/run build 80-parquet once)"
fi
echo "DuckDB GROUP BY event count: $groupby s"
echo
echo "targets (issue 19):"
target "export CPU / report CPU" "$(ratio "$cpu" "$r_cpu")" 0.25
target "export peak RSS (MiB)" "$(mib "$rss")" 64
target "dataset / v7 zstd size" "$(ratio "$ds" "$v7")" 1.0
[ "$groupby" = - ] || target "DuckDB GROUP BY event (s)" "$groupby" 1.0

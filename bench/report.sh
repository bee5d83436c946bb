#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report.sh FILE: tdat report against Debian's trace-cmd report, same
# input, same run.  First both reports are made once and compared: when
# they differ no figure is printed and the exit status is 1.  Then each
# tool runs RUNS times (default 5), alternately, after one warm-up of
# each, output to /dev/null; printed: median wall time, median CPU time
# (user + system), largest peak RSS, and the ratios.
# Environment: BUILD (default build/), RUNS, ARGS (more report
# options for both tools, e.g. ARGS=-R).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=${BUILD:-$root/build}/tdat
runs=${RUNS:-5}
args=${ARGS:-}

if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "usage: bench/report.sh FILE   (env: BUILD RUNS ARGS)" >&2
	exit 2
fi
in=$(realpath "$1")
[ -x "$tb" ] || { echo "report.sh: $tb missing (make)" >&2; exit 2; }
command -v trace-cmd >/dev/null && [ -x /usr/bin/time ] ||
	"$root/scripts/install-deps"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# median, ratio, mib, cpu_once, cpu_stats
. "$root/bench/lib.sh"

# shellcheck disable=SC2086 # ARGS is a list of words
TC=(trace-cmd report $args -i "$in")
# shellcheck disable=SC2086
TDAT=("$tb" report $args -i "$in")

echo "input: $in ($(wc -c <"$in") bytes), median of $runs runs"
echo "tdat: $tb; trace-cmd: $(trace-cmd 2>&1 | grep -m1 -o 'version [^ ]*' || true)"

# The check compares the two reports as they stream (a big report does
# not fit in memory twice); the warm-up runs count lines and bytes.
set +e
"${TC[@]}" 2>/dev/null | cmp - <("${TDAT[@]}" 2>/dev/null) >"$tmp/cmp" 2>&1
same=${PIPESTATUS[1]}
set -e
if [ "$same" != 0 ]; then
	echo "outputs DIFFER ($(head -n 1 "$tmp/cmp")): no figures"
	exit 1
fi
"${TC[@]}" >/dev/null 2>&1 || true
"${TDAT[@]}" 2>/dev/null | wc -lc >"$tmp/count" || true
read -r lines bytes <"$tmp/count"
echo "outputs identical: $lines lines, $bytes bytes"
echo

for i in $(seq "$runs"); do
	cpu_once tc "${TC[@]}"
	cpu_once tb "${TDAT[@]}"
done

printf '%-10s %9s %9s %11s\n' tool wall cpu "peak RSS"
cpu_stats tc; tc_w=$wall tc_c=$cpu tc_r=$rss
printf '%-10s %7s s %7s s %7s MiB\n' trace-cmd "$tc_w" "$tc_c" "$(mib "$tc_r")"
cpu_stats tb
printf '%-10s %7s s %7s s %7s MiB\n' tdat "$wall" "$cpu" "$(mib "$rss")"
speed=$(ratio "$tc_w" "$wall")
printf '%-10s %7sx %7sx %7sx   (trace-cmd / tdat)\n' ratio "$speed" \
	"$(ratio "$tc_c" "$cpu")" "$(ratio "$tc_r" "$rss")"

# target WHAT VALUE OP LIMIT: one line, ok when VALUE OP LIMIT holds.
target() {
	local verdict=MISS

	awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN {
		exit !(op == ">=" ? v >= l : v <= l) }' && verdict=ok
	printf '  %-4s %-30s %8s (target %s %s)\n' "$verdict" "$1" "$2" "$3" "$4"
}
echo
echo "targets (issue 3):"
target "wall time, trace-cmd/tdat" "$speed" ">=" 3
target "tdat peak RSS (MiB)" "$(mib "$rss")" "<=" 64

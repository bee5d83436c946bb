#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report: byte for byte what Debian's trace-cmd report printed for every
# fixture (the .report.txt beside it), and what it prints live for the
# crashed-and-restored recording.
. "$E2E/lib.sh"

n=0
for ref in "$FIX"/*.dat.report.txt "$FIX"/crashed/restored.dat.report.txt; do
	in=${ref%.report.txt}
	case $in in *zlib*) continue ;; esac	# 3.4's output, latency column
	step "$(basename "$in")"
	$TDAT report -i "$in" >"$TMPDIR/out" || fail "report exited $?"
	assert_same "$ref" "$TMPDIR/out"
	n=$((n + 1))
done
[ "$n" -ge 12 ] || fail "only $n fixtures compared"

step "-N (no plugins) matches trace-cmd -N"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -N -i "$FIX/v6-sched-irq.dat" >"$TMPDIR/ref-N"
	$TDAT report -N -i "$FIX/v6-sched-irq.dat" >"$TMPDIR/out-N"
	assert_same "$TMPDIR/ref-N" "$TMPDIR/out-N"
	grep -q "prev_comm=" "$TMPDIR/out-N" || fail "-N output has plugin text"
	trace-cmd report -t -i "$FIX/v7-zstd-sched-irq.dat" >"$TMPDIR/ref-t"
	$TDAT report -t -i "$FIX/v7-zstd-sched-irq.dat" >"$TMPDIR/out-t"
	assert_same "$TMPDIR/ref-t" "$TMPDIR/out-t"
fi

step "a v6 file cut inside CPU 1's data: every complete page, then an error"
cut=$FIX/truncated/v6-sched-irq.cut-at-5470064.dat
set +e
$TDAT report -i "$cut" >"$TMPDIR/cut.out" 2>"$TMPDIR/cut.err"
rc=$?
set -e
assert_eq 1 "$rc" "exit status on a truncated file"
assert_grep "offset [0-9]+" "$TMPDIR/cut.err"
# CPU 0 (2 pages) and CPU 1's first page survive the cut: 340 events.
assert_eq 341 "$(wc -l <"$TMPDIR/cut.out")" "lines before the cut"
echo "$n reports identical"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report's worker threads (report/pipeline.c) change nothing: with no
# worker or three, every fixture reports byte for byte the same, in
# trace-cmd's text and in --json; so do -R, -l, -t, -N and two inputs.
. "$E2E/lib.sh"

# same OPTS...: the report with 0 and 3 workers must be identical.
same() {
	TDAT_REPORT_THREADS=0 $TDAT report "$@" >"$TMPDIR/t0" 2>"$TMPDIR/e0" || true
	TDAT_REPORT_THREADS=3 $TDAT report "$@" >"$TMPDIR/t3" 2>"$TMPDIR/e3" || true
	assert_same "$TMPDIR/t0" "$TMPDIR/t3"
	# Our messages only: under ASan, LSan's summary of libtraceevent's
	# suppressed leaks grows with the workers' handles.
	grep '^tdat' "$TMPDIR/e0" >"$TMPDIR/m0" || true
	grep '^tdat' "$TMPDIR/e3" >"$TMPDIR/m3" || true
	assert_same "$TMPDIR/m0" "$TMPDIR/m3"
	[ -s "$TMPDIR/t0" ] || fail "empty report: $*"
}

n=0
for in in "$FIX"/*.dat "$FIX"/crashed/restored.dat; do
	step "$(basename "$in")"
	same -i "$in"
	same --json -i "$in"
	n=$((n + 1))
done
[ "$n" -ge 12 ] || fail "only $n fixtures compared"

for opt in -R -l -t -N; do
	step "$opt"
	same $opt -i "$FIX/v7-zstd-markers-raw_syscalls.dat"
	same $opt -i "$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat"
done

step "two inputs interleaved"
same -i "$FIX/v6-sched-irq.dat" -i "$FIX/v7-zstd-sched-irq.dat"

# samarxie_android.dat's bprints include a format whose arguments the
# records do not hold: libtraceevent flags bprint failed at the first,
# and prints every later one "[FAILED TO PARSE]".  A worker seeing only
# some records printed some of them decoded, differently run to run.
step "bprint's failed flag: threaded as serial, every run"
runs="2 3 4 2 3 4"
[ "${TDAT_SANITIZED:-}" = 1 ] && runs=3	# check-asan: memory errors only
for t in $runs; do
	TDAT_REPORT_THREADS=0 $TDAT report -i "$FIX/external/samarxie_android.dat" \
		>"$TMPDIR/t0" 2>/dev/null
	TDAT_REPORT_THREADS=$t $TDAT report -i "$FIX/external/samarxie_android.dat" \
		>"$TMPDIR/tn" 2>/dev/null
	assert_same "$TMPDIR/t0" "$TMPDIR/tn"
done
grep -q 'bprint: .*\[FAILED TO PARSE\]' "$TMPDIR/t0" ||
	fail "no failed bprint in samarxie_android.dat's report"

step "threaded report equals trace-cmd's text"
TDAT_REPORT_THREADS=2 $TDAT report -i "$FIX/v6-sched-irq.dat" >"$TMPDIR/t2"
assert_same "$FIX/v6-sched-irq.dat.report.txt" "$TMPDIR/t2"
echo "$n fixtures, 0 and 3 workers identical"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# trace-cmd 2.x v6 files: their clock record holds the whole trace_clock
# list ("[local] global counter ... x86-tsc\n", 62 bytes) and their
# TRACECLOCK option is empty.  Every applet opens them, report's
# timestamp rules follow the bracketed clock as trace-cmd's do, and
# v6 -> v7 -> v6 gives the file back byte for byte.
# fixtures/external/alexiusmd.dat: a real recording by someone else
# (i686 buildroot, Linux 4.13.9, 4-byte longs, trace-cmd 2.9.7).
. "$E2E/lib.sh"

f=$FIX/external/alexiusmd.dat
command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"

step "report: as trace-cmd, whatever the timestamp options"
for o in "" "--ts-diff" "--raw-ts" "-t" "-t --ts-diff" "--raw-ts --ts-diff" \
	 "-l" "-R" "--stat" "--cpus"; do
	expect_exit 0 $TDAT report $o -i "$f"
	assert_tc_report "$OUT" $o -i "$f"
done
expect_exit 0 $TDAT report --ts-diff -i "$f"
assert_grep '^ +rcu_sched-8 +\[000\] +142\.189830: \(\+526\) +sched_switch' "$OUT"

step "convert: v6 -> v7 -> v6 and v6 -> v6 give the same bytes"
for c in zstd none; do
	expect_exit 0 $TDAT convert -q --compression $c -i "$f" -o v7.dat
	assert_lines 0 "$ERR"
	expect_exit 0 $TDAT convert -q --file-version 6 -i v7.dat -o back.dat
	assert_lines 0 "$ERR"
	assert_same "$f" back.dat
	$TDAT report -i "$f" >want.txt	# trace-cmd's text, checked above
	assert_tc_report want.txt -i v7.dat
	expect_exit 0 $TDAT report --ts-diff -i v7.dat
	assert_tc_report "$OUT" --ts-diff -i "$f"
done
expect_exit 0 $TDAT convert -q --file-version 6 -i "$f" -o v6.dat
assert_same "$f" v6.dat

step "split and merge keep the record"
expect_exit 0 $TDAT split -i "$f" -o piece -e 100 -r
ls piece.* >pieces.txt
[ "$(wc -l <pieces.txt)" -ge 2 ] || fail "split made $(wc -l <pieces.txt) pieces"
expect_exit 0 $TDAT merge -q -o merged.dat $(cat pieces.txt)
$TDAT report -i "$f" >want.txt
assert_tc_report want.txt -i merged.dat
expect_exit 0 $TDAT check-events -i "$f"
# merged with itself into v6: the clock record goes back, nothing is
# said to be dropped (it is tdat's own section, kept by the v6 writer)
expect_exit 0 $TDAT merge --file-version 6 -o self6.dat "$f" "$f"
assert_same "$f" self6.dat
if grep -q 'section .* dropped' "$ERR"; then
	cat "$ERR" >&2
	fail "merge warned that v6 drops tdat's own clock records"
fi

step "a record that names no clock is kept, not refused"
python3 - "$f" odd.dat <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = d.index(b'[local] global')
d[i:i + 7] = b'(local)'
open(sys.argv[2], 'wb').write(d)
PY
expect_exit 0 $TDAT convert -q -i odd.dat -o odd7.dat
expect_exit 0 $TDAT convert -q --file-version 6 -i odd7.dat -o odd6.dat
assert_same odd.dat odd6.dat

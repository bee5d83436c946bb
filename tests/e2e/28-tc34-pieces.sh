#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# trace-cmd 3.4's split of a v6 file with instances writes each instance's
# BUFFER option twice, first with offset 0.  trace-cmd warns and reads the
# other one; so does every applet here, with one warning line.  The pieces
# are made by trace-cmd 3.4 itself (scripts/oracle-tc34).
. "$E2E/lib.sh"

tc34=$(tc34_oracle) || skip "$tc34"
command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"

"$tc34" split -i "$FIX/v6-2inst-irq-top-sched-inst1.dat" -o p34 -e 2000 \
	>/dev/null 2>&1 || fail "tc34 split failed"
n=$(trace-cmd dump --options -i p34 2>&1 | grep -c 'Option BUFFER')
assert_eq 2 "$n" "BUFFER options in 3.4's piece"
trace-cmd report -i p34 >theirs.txt 2>/dev/null

step "report: trace-cmd's text, one warning naming the skipped option"
expect_exit 0 $TDAT report -i p34
assert_same theirs.txt "$OUT"
assert_lines 1 "$ERR"
assert_grep 'p34: offset 0: buffer "inst1": .* no "flyrecord" block: skipped' "$ERR"
expect_exit 0 $TDAT report --layout 3.4 -N -i p34
assert_oracle "$OUT" "$tc34" report -N -i p34

step "convert, split, merge"
for v in 6 7; do
	expect_exit 0 $TDAT convert -q --file-version $v -i p34 -o c$v.dat
	assert_lines 1 "$ERR"
	trace-cmd report -i c$v.dat 2>&1 | cmp -s - theirs.txt ||
		fail "v$v conversion reports otherwise (or trace-cmd warns)"
done
expect_exit 0 $TDAT split -i p34 -o q -e 300 -r
assert_lines 1 "$ERR"
expect_exit 0 $TDAT merge -q -o m.dat q.0*
trace-cmd report -i m.dat 2>/dev/null | cmp -s - theirs.txt ||
	fail "split and merge back report otherwise"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A recording whose buffers hold no CPU data: its BUFFER option (name,
# clock, page size, 0 CPUs) is all it says, and every applet keeps it.
# fixtures/external/akshudev_aos.dat: a real v7 recording by someone else
# (x86_64, Linux 7.1.6, trace-cmd 3.4.0) whose top buffer has 0 CPUs.
. "$E2E/lib.sh"

f=$FIX/external/akshudev_aos.dat
command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"

# top_buffer FILE: the top buffer's BUFFER option as trace-cmd dumps it.
top_buffer() {
	trace-cmd dump --options -i "$1" 2>&1 |
		grep -A5 'Option BUFFER,' | grep -v offset | tr -d '\t' | tr '\n' ' '
}
want=$(top_buffer "$f")
case $want in *'"" [name] "local" [clock] 4096 [Page size'*'0 [CPUs]'*) ;;
*) fail "the fixture's top buffer: $want" ;; esac

step "report as trace-cmd"
expect_exit 0 $TDAT report -i "$f"
trace-cmd report -i "$f" >theirs.txt 2>/dev/null
assert_same theirs.txt "$OUT"

step "convert keeps the buffer"
for c in zstd none; do
	expect_exit 0 $TDAT convert -q --compression $c -i "$f" -o v7.dat
	assert_eq "$want" "$(top_buffer v7.dat)" "top buffer after convert ($c)"
	trace-cmd report -i v7.dat >got.txt 2>/dev/null
	assert_same theirs.txt got.txt
done
expect_exit 0 $TDAT convert -q --file-version 6 -i "$f" -o v6.dat
expect_exit 0 $TDAT report -i v6.dat
assert_same theirs.txt "$OUT"
trace-cmd report -i v6.dat 2>/dev/null | cmp -s - theirs.txt ||
	fail "trace-cmd reports the v6 conversion otherwise"

step "v6 without data: ends after its clock record, as trace-cmd 2.x wrote it"
# The CPU table points at the page boundary where data would start, past
# the end; no padding up to nothing.  Then v6 -> v7 -> v6 and v6 -> v6
# give the same bytes.
python3 - v6.dat <<'PY' || fail "v6.dat's layout"
import struct, sys
d = open(sys.argv[1], 'rb').read()
i = d.index(b'flyrecord\0')
ncpu = struct.unpack_from('<I', d, d.index(b'options  \0') - 4)[0]
table = [struct.unpack_from('<QQ', d, i + 10 + 16 * c) for c in range(ncpu)]
clock_len = struct.unpack_from('<Q', d, i + 10 + 16 * ncpu)[0]
end = i + 10 + 16 * ncpu + 8 + clock_len
assert len(d) == end, (len(d), end)
for off, size in table:
    assert size == 0 and off % 4096 == 0 and off >= end, (off, size, end)
PY
expect_exit 0 $TDAT convert -q -i v6.dat -o v67.dat
expect_exit 0 $TDAT convert -q --file-version 6 -i v67.dat -o v676.dat
assert_same v6.dat v676.dat
expect_exit 0 $TDAT convert -q --file-version 6 -i v6.dat -o v66.dat
assert_same v6.dat v66.dat
expect_exit 0 $TDAT convert -q -i v6.dat -o v67.dat
expect_exit 0 $TDAT report -i v67.dat
assert_same theirs.txt "$OUT"

step "split and merge keep it"
expect_exit 0 $TDAT split -i "$f" -o piece -e 10
assert_eq "$want" "$(top_buffer piece)" "top buffer after split"
expect_exit 0 $TDAT merge -q -o merged.dat "$f" piece
assert_eq "$want" "$(top_buffer merged.dat)" "top buffer after merge"
trace-cmd report -i merged.dat >got.txt 2>/dev/null
assert_same theirs.txt got.txt
# libtraceevent 1.7 cannot parse kvm_inj_exception's print fmt: check-events
# names it (and only it) and exits 1; a later libtraceevent may parse it.
expect_exit 0,1 $TDAT check-events -i "$f"
# (failure lines are "FILE: SYSTEM:EVENT: why"; a sanitizer build adds
# its own summary on stderr)
if cat "$OUT" "$ERR" | grep -E '^[^ ]+: [a-z0-9_]+:[a-z0-9_]+: ' |
		grep -v ': kvm:kvm_inj_exception: ' | grep -q .; then
	cat "$OUT" "$ERR" >&2
	fail "check-events found more than kvm_inj_exception"
fi

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# v6 clock records as older trace-cmd versions left them (issue 20):
#  - none at all: 2014-era files have no TRACECLOCK option, and their CPU
#    table ends exactly where the first CPU's data starts.  trace-cmd
#    reads a clock record only when TRACECLOCK is there; tdat reads none
#    where none fits, and writes none when there is no TRACECLOCK and no
#    clock;
#  - one without TRACECLOCK (trace-cmd 3.4's split pieces): kept;
#  - "[tsc2nsec]" in a file without data (trace-cmd 2.9.1's agent
#    files): v7 leaves out a top buffer without data, and its clock with
#    it, so tdat keeps the record in its own section.
# Every file is read as trace-cmd reads it, and v6 -> v6 and v6 -> v7 ->
# v6 give it back byte for byte.
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"
TOOLS=$(dirname "$TDAT")/tools

# round_trips FILE: v6 -> v6 and v6 -> v7 (zstd, none) -> v6 give FILE
# back; trace-cmd reports the v7 files as FILE.
round_trips() {
	trace-cmd report -i "$1" >theirs.txt 2>/dev/null
	expect_exit 0 $TDAT convert -q --file-version 6 -i "$1" -o rt6.dat
	assert_same "$1" rt6.dat
	for c in zstd none; do
		expect_exit 0 $TDAT convert -q --compression $c -i "$1" -o rt7.dat
		assert_lines 0 "$ERR"
		trace-cmd report -i rt7.dat 2>/dev/null | cmp -s - theirs.txt ||
			fail "trace-cmd reports the v7 ($c) conversion of $1 otherwise"
		expect_exit 0 $TDAT convert -q --file-version 6 -i rt7.dat \
			-o rt76.dat
		assert_lines 0 "$ERR"
		assert_same "$1" rt76.dat
	done
}

step "a 2014-style file: no TRACECLOCK, data right after the CPU table"
# Made from fixtures/external/igt_tests_trace.dat (x86_64, 2014, no
# options; its clock position holds zeros up to the page-aligned data):
# the saved cmdlines grow by as many bytes (lines "1999999 padding-comm")
# as lie between the CPU table and the first CPU's data, so that the
# table ends exactly where the data starts, every offset unchanged.
python3 - "$FIX/external/igt_tests_trace.dat" old.dat <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
u32 = lambda p: struct.unpack_from('<I', d, p)[0]
u64 = lambda p: struct.unpack_from('<Q', d, p)[0]
p = 18
p += 12; p += 8 + u64(p)                     # header_page
p += 13; p += 8 + u64(p)                     # header_event
n = u32(p); p += 4
for _ in range(n):                           # ftrace formats
    p += 8 + u64(p)
n = u32(p); p += 4
for _ in range(n):                           # event systems
    p = d.index(b'\0', p) + 1
    k = u32(p); p += 4
    for _ in range(k):
        p += 8 + u64(p)
p += 4 + u32(p)                              # kallsyms
p += 4 + u32(p)                              # printk
cmd = p                                      # cmdlines: u64 size, text
p += 8 + u64(p)
cpus = u32(p)
assert b'\x04\x00' not in d[p + 14:d.index(b'flyrecord\0', p)]  # no TRACECLOCK
table = d.index(b'flyrecord\0', p) + 10
end = table + 16 * cpus
first = min(u64(table + 16 * i) for i in range(cpus)
            if u64(table + 16 * i + 8))
gap = first - end
assert d[end:first] == bytes(gap) and gap >= 12, gap
pad = b'1999999 padding-comm\n' * ((gap - 12) // 21)
pad += b'1999999 pad' + b'\n' * (gap - len(pad) - 11)
size = u64(cmd)
out = (d[:cmd] + struct.pack('<Q', size + gap) + d[cmd + 8:cmd + 8 + size] +
       pad + d[cmd + 8 + size:end] + d[first:])
assert len(out) == len(d) and len(pad) == gap
open(sys.argv[2], 'wb').write(out)
PY
for o in "" "-t" "--ts-diff" "--raw-ts" "-l" "--cpus"; do
	expect_exit 0 $TDAT report $o -i old.dat
	assert_lines 0 "$ERR"
	assert_tc_report "$OUT" $o -i old.dat
done
for o in "" "--flyrecord --clock" "--cmd-lines" "--all"; do
	expect_exit 0 $TDAT dump $o old.dat
	assert_oracle "$OUT" trace-cmd dump $o old.dat
done
assert_grep 'No tracing clock saved in the file' "$OUT"
round_trips old.dat
rm -f piece*
expect_exit 0 $TDAT split -i old.dat -o piece -e 2000 -r
expect_exit 0 $TDAT merge -q --file-version 6 -o merged.dat piece*
$TDAT report -i old.dat >want.txt
assert_tc_report want.txt -i merged.dat
expect_exit 0 $TDAT check-events -i old.dat

step "a clock record without TRACECLOCK, as trace-cmd 3.4's split pieces have"
"$TOOLS/mkodd" --drop-option 4 "$FIX/v6-sched-irq.dat" piece34.dat
python3 - piece34.dat <<'PY' || fail "piece34.dat has no [local] record"
import struct, sys
d = open(sys.argv[1], 'rb').read()
t = d.index(b'flyrecord\0') + 10 + 2 * 16
assert d[t:t + 15] == struct.pack('<Q', 7) + b'[local]', d[t:t + 15]
PY
for o in "" "--raw-ts" "--ts-diff"; do
	expect_exit 0 $TDAT report $o -i piece34.dat
	assert_tc_report "$OUT" $o -i piece34.dat
done
round_trips piece34.dat

step "a file without data whose clock record is [tsc2nsec]"
# Made from fixtures/tc291/v6-tc291-record-nodata.dat (trace-cmd 2.9.1, no
# data, empty TRACECLOCK, the file ends after its clock record): the
# record becomes "[tsc2nsec]", as 2.9.1's agent files have it.
python3 - "$FIX/tc291/v6-tc291-record-nodata.dat" tsc.dat <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
fly = d.index(b'flyrecord\0')
cpus = struct.unpack_from('<I', d, d.rindex(b'options  \0', 0, fly) - 4)[0]
rec = fly + 10 + 16 * cpus
n = struct.unpack_from('<Q', d, rec)[0]
assert rec + 8 + n == len(d), (rec, n, len(d))
text = b'[tsc2nsec]'
open(sys.argv[2], 'wb').write(d[:rec] + struct.pack('<Q', len(text)) + text)
PY
expect_exit 0 $TDAT report -i tsc.dat
assert_tc_report "$OUT" -i tsc.dat
expect_exit 0 $TDAT dump --clock tsc.dat
assert_oracle "$OUT" trace-cmd dump --clock tsc.dat
assert_grep '^		\[tsc2nsec\]$' "$OUT"
round_trips tsc.dat

step "the clock record decides how times show, in v6 and after v7"
# trace-cmd reads v6's top clock record when there is a TRACECLOCK
# option, and a word in either that is not a clock of time (boot,
# counter, x86-tsc) makes it show raw counts; v7 has no record, so its
# option alone decides.  An Android recording (samarxie_android.dat: an
# empty option, "... mono_raw [boot]\n" in the record) showed raw counts
# in v6 and seconds after v6 -> v7.  Made from it: every pair of option
# and record below ('-': no option), the rest of the file unchanged.
# clocked IN OUT OPTION RECORD
clocked() {
	python3 - "$@" <<'PY'
import struct, sys
src, out, opt, rec = sys.argv[1:5]
text = lambda s: s.encode().replace(b'\\n', b'\n').replace(b'\\0', b'\0')
d = open(src, 'rb').read()
fly = d.index(b'flyrecord\0')
start = d.rindex(b'options  \0', 0, fly)
cpus = struct.unpack_from('<I', d, start - 4)[0]
p, opts = start + 10, b''
while struct.unpack_from('<H', d, p)[0]:
    oid, size = struct.unpack_from('<HI', d, p)
    v = d[p + 6:p + 6 + size]
    p += 6 + size
    if oid == 4:
        if opt == '-':
            continue
        v = text(opt)
    opts += struct.pack('<HI', oid, len(v)) + v
assert p + 2 == fly, (p, fly)
table = d[fly + 10:fly + 10 + 16 * cpus]
first = min(struct.unpack_from('<Q', table, 16 * i)[0] for i in range(cpus))
head = (d[:start + 10] + opts + b'\0\0flyrecord\0' + table +
        struct.pack('<Q', len(text(rec))) + text(rec))
assert len(head) <= first
open(out, 'wb').write(head + bytes(first - len(head)) + d[first:])
PY
}
for pair in "|local global counter uptime perf mono mono_raw [boot]\n" \
	    "|[boot]" "|[local]" "|boot" "|" "-|[boot]" "junk\0|[counter]" \
	    "[local]\0|[boot]" "[boot]\0|[local]" "[mono]\0|[x86-tsc]"; do
	clocked "$FIX/external/samarxie_android.dat" clk.dat "${pair%%|*}" \
		"${pair#*|}"
	for o in "" "--ts-diff" "--raw-ts" "-t"; do
		expect_exit 0 $TDAT report $o -i clk.dat
		assert_tc_report "$OUT" $o -i clk.dat
		cp "$OUT" want.txt
		expect_exit 0 $TDAT convert -q -i clk.dat -o clk7.dat
		expect_exit 0 $TDAT report $o -i clk7.dat
		assert_same want.txt "$OUT"
		assert_tc_report want.txt $o -i clk7.dat
	done
	round_trips clk.dat
done
# A v7 file trace-cmd 3.4 converted from such a v6 file has the empty
# option and "boot" only in its BUFFER option: tdat's v6 of it writes
# the record without brackets, so that it shows times as the v7 file.
clocked "$FIX/external/samarxie_android.dat" clk.dat "" "[boot]"
if tc34=$(tc34_oracle); then
	"$tc34" convert -i clk.dat -o tc7.dat >/dev/null 2>&1 ||
		fail "trace-cmd 3.4 cannot convert clk.dat"
	for o in "" "--ts-diff" "--raw-ts"; do
		expect_exit 0 $TDAT report $o -i tc7.dat
		assert_tc_report "$OUT" $o -i tc7.dat
		cp "$OUT" want.txt
		expect_exit 0 $TDAT convert -q --file-version 6 -i tc7.dat \
			-o tc76.dat
		expect_exit 0 $TDAT report $o -i tc76.dat
		assert_same want.txt "$OUT"
		assert_tc_report want.txt $o -i tc76.dat
	done
	expect_exit 0 $TDAT dump --clock tc76.dat
	assert_grep '^		boot$' "$OUT"
else
	echo "skipped: the v7 file of trace-cmd 3.4's convert: $tc34"
fi

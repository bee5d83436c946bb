#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report on damaged data: a chunk that does not decompress is named once
# on stderr (file, buffer, CPU, offset), its pages are skipped, and every
# other event still prints, in order; the exit status says something was
# skipped.  (trace-cmd stops or prints nothing on such files.)  A damaged
# input is one line however many places are skipped (a cut v6 file).
. "$E2E/lib.sh"
in=$FIX/v7-zstd-markers-raw_syscalls.dat

# Corrupt 16 bytes in the middle of CPU 0's 4th chunk payload; the chunk
# headers stay intact.
at=$(chunk_at "$in" 3)
python3 - "$in" bad.dat "$at" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
p = int(sys.argv[3])
c = struct.unpack_from('<I', d, p)[0]
mid = p + 8 + c // 2
for i in range(16):
    d[mid + i] ^= 0xff
open(sys.argv[2], 'wb').write(d)
PY

$TDAT report -i "$in" >full.txt || fail "report of the intact file"
set +e
$TDAT report -i bad.dat >out.txt 2>err.txt
rc=$?
set -e
assert_eq 1 "$rc" "exit status with a skipped chunk"
assert_lines 1 err.txt
assert_grep 'bad\.dat: offset [0-9]+: buffer "" CPU 0: chunk does not decompress' err.txt
full=$(wc -l <full.txt) got=$(wc -l <out.txt)
[ "$got" -gt $((full / 2)) ] && [ "$got" -lt "$full" ] ||
	fail "$got of $full lines printed"
# Only whole events of the intact file, in the same order.
awk 'BEGIN { n = 0; i = 0 }
     NR == FNR { want[n++] = $0; next }
     { while (i < n && want[i] != $0) i++; if (i++ >= n) { print "extra: " $0; exit 1 } }' \
	full.txt out.txt || fail "output is not an ordered subset of the intact report"
# Reading went on after the bad chunk: CPU 0's last event is there.
last0=$(grep '\[000\]' full.txt | tail -n 1)
grep -qxF -- "$last0" out.txt || fail "CPU 0's events after the bad chunk are missing"
echo "damaged chunk skipped, $got of $full lines kept"

# A v6 file cut inside CPU 0's data: both CPUs run past its end, and
# that is one line (it was one per CPU), at the first place in the file.
v6=$FIX/v6-sched-irq.dat
cut=$(python3 - "$v6" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
fly = d.index(b'flyrecord\0')
print(struct.unpack_from('<Q', d, fly + 10)[0] + 4096)
PY
)
head -c "$cut" "$v6" >cut6.dat
set +e
$TDAT report -i cut6.dat >out6.txt 2>err6.txt
rc=$?
set -e
assert_eq 1 "$rc" "exit status of a cut v6 file"
assert_lines 1 err6.txt
assert_grep "^tdat report: cut6\.dat: offset $cut: buffer \"\" CPU 0: data runs past the end of the file .*; 1 more damaged place skipped as well \(tdat restore -o FIXED\.dat cut6\.dat saves what can be read\)$" err6.txt
[ -s out6.txt ] || fail "nothing printed of the pages before the cut"
echo "cut v6 file: one line"

# A format libtraceevent 1.7 crashes on (trace-cmd too): __print_symbolic()
# of a field the event lacks, the softirq formats' "vec" renamed "vex".
# Only their fields are handed over: those events print as trace-cmd
# prints an event whose print fmt it cannot parse, "[FAILED TO PARSE]"
# and the fields by name; every other line as in the intact file (found
# by the fuzz_report target).
v6=$FIX/v6-sched-irq.dat
python3 - "$v6" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
old = b'\tfield:unsigned int vec;'
assert d.count(old) == 3
open('vex.dat', 'wb').write(d.replace(old, b'\tfield:unsigned int vex;'))
PY
$TDAT report -i "$v6" >full6.txt || fail "report of the intact v6 file"
sed 's/^\(.* softirq_[a-z]*: *\)vec=\([0-9]*\) \[action=[A-Z_]*\]$/\1[FAILED TO PARSE] vex=\2/' \
	full6.txt >want.txt
assert_eq "$(grep -c softirq_ full6.txt)" \
	"$(grep -c 'FAILED TO PARSE\] vex=' want.txt)" "softirq events"
for t in 0 2; do
	TDAT_REPORT_THREADS=$t expect_exit 0 $TDAT report -i vex.dat
	assert_eq "" "$(cat "$ERR")" "stderr for vex.dat"
	assert_same want.txt "$OUT"
done

# One it crashes on that no check of the text foresees: sched_wakeup's
# "REC->target_cpu" made "REC->pid[0]]   " (an index then a stray ']').
# The trial parse in a child process dies on it, and its fields alone
# are handed over (found by the fuzz_format campaign).
python3 - "$v6" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
s = d.index(b'name: sched_wakeup\n')
i = d.index(b'REC->target_cpu', s, d.index(b'\n', d.index(b'print fmt:', s)))
open('index.dat', 'wb').write(d[:i] + b'REC->pid[0]]   ' + d[i + 15:])
PY
for n in "" -N; do
	$TDAT report $n -i "$v6" >full.txt || fail "report $n of the intact v6 file"
	sed 's/^\(.* sched_wakeup: *\)\(comm=.* target_cpu=\)0*\([0-9][0-9]*\)$/\1[FAILED TO PARSE] \2\3/' \
		full.txt >want.txt
	# with plugins, the sched_switch plugin prints sched_wakeup from its
	# fields: as in the intact file
	[ -z "$n" ] || grep -q 'sched_wakeup: *\[FAILED TO PARSE\] comm=' want.txt ||
		fail "no sched_wakeup line printed by its print fmt"
	for t in 0 2; do
		TDAT_REPORT_THREADS=$t expect_exit 0 $TDAT report $n -i index.dat
		assert_eq "" "$(cat "$ERR")" "stderr for index.dat"
		assert_same want.txt "$OUT"
	done
done
echo "formats libtraceevent would crash on: their events print as [FAILED TO PARSE] with their fields"

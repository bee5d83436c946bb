#!/bin/sh
# report on damaged data: a chunk that does not decompress is named once
# on stderr (file, buffer, CPU, offset), its pages are skipped, and every
# other event still prints, in order; the exit status says something was
# skipped.  (trace-cmd stops or prints nothing on such files.)
. "$E2E/lib.sh"
in=$FIX/v7-zstd-markers-raw_syscalls.dat

# Corrupt 16 bytes in the middle of CPU 0's 4th chunk payload; the chunk
# headers stay intact.  The v7 options chain is walked to find CPU 0.
python3 - "$in" bad.dat <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
name_end = d.index(0, 18)
ver_end = d.index(0, name_end + 1)
off = struct.unpack_from('<Q', d, ver_end + 1)[0]
cpu0 = None
while off:
    size = struct.unpack_from('<Q', d, off + 8)[0]
    body, pos, nxt = off + 16, off + 16, 0
    while pos < body + size:
        oid, osz = struct.unpack_from('<HI', d, pos)
        data = pos + 6
        if oid == 0:
            nxt = struct.unpack_from('<Q', d, data)[0]
        elif oid == 3:                       # BUFFER: find CPU 0
            p = data + 8
            p = d.index(0, p) + 1            # name
            p = d.index(0, p) + 1            # clock
            p += 4
            n = struct.unpack_from('<I', d, p)[0]; p += 4
            for i in range(n):
                cpu, coff, csz = struct.unpack_from('<IQQ', d, p + 20 * i)
                if cpu == 0:
                    cpu0 = coff
        pos = data + osz
    off = nxt
p = cpu0 + 4
for k in range(3):                           # skip chunks 0..2
    c = struct.unpack_from('<I', d, p)[0]
    p += 8 + c
c = struct.unpack_from('<I', d, p)[0]
mid = p + 8 + c // 2
for i in range(16):
    d[mid + i] ^= 0xff
open(sys.argv[2], 'wb').write(d)
print(p)
PY

$TB report -i "$in" >full.txt || fail "report of the intact file"
set +e
$TB report -i bad.dat >out.txt 2>err.txt
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

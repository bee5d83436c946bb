#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Offsets past 4 GiB: a sparse copy of a v6 fixture whose CPU data is
# moved 4 GiB + 64 KiB further into the file (the CPU table says so; the
# hole costs no disk).  report prints what trace-cmd printed for the
# original; convert reads it, and writing it back as v6 gives the
# original's compact bytes.
. "$E2E/lib.sh"

python3 - "$FIX/v6-sched-irq.dat" far.dat <<'PY' || skip "cannot make a sparse file here"
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
d = open(src, 'rb').read()
fly = d.index(b'flyrecord\0')
table = fly + 10
ncpu = 2                       # v6-sched-irq.dat records 2 CPUs
shift = (4 << 30) + (64 << 10)
first = min(struct.unpack_from('<Q', d, table + 16 * i)[0] for i in range(ncpu))
out = bytearray(d[:first])
for i in range(ncpu):
    off, size = struct.unpack_from('<QQ', d, table + 16 * i)
    struct.pack_into('<Q', out, table + 16 * i, off + shift)
with open(dst, 'wb') as f:
    f.write(out)
    for i in range(ncpu):
        off, size = struct.unpack_from('<QQ', d, table + 16 * i)
        f.seek(off + shift)
        f.write(d[off:off + size])
PY
size=$(stat -c %s far.dat)
[ "$size" -gt 4294967296 ] || fail "far.dat is only $size bytes"

step "report reads pages past 4 GiB"
expect_exit 0 $TDAT report -i far.dat
assert_same "$FIX/v6-sched-irq.dat.report.txt" "$OUT"

step "convert to v7 zstd and back to v6: the original's compact bytes"
expect_exit 0 $TDAT convert -i far.dat -o far7.dat
expect_exit 0 $TDAT convert -i far7.dat -o near6.dat --file-version 6
assert_same "$FIX/v6-sched-irq.dat" near6.dat
rm -f far.dat
echo "offsets past 4 GiB ok"

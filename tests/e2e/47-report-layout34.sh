#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report --layout 3.4: event lines as trace-cmd 3.3 and later print them
# (latency flags after the CPU, "-0x.." flags with -R), byte for byte
# against trace-cmd 3.4 (scripts/oracle-tc34, Debian's own 3.4 packages
# set up in a private directory).  Plugins are off (-N) on both sides:
# 3.4 comes with libtraceevent 1.9, whose plugins print some events
# otherwise than the system's 1.7 (sched_switch's prev_state "I" for "W",
# raw function pointers as "sym (0xaddr)"); that is the library, not the
# layout.
. "$E2E/lib.sh"

tc34=$(tc34_oracle) || skip "$tc34"

step "3.1 stays the default"
f=$FIX/v7-zstd-sched-irq-tc34.dat
expect_exit 0 $TDAT report -i "$f"
cp "$OUT" default.txt
expect_exit 0 $TDAT report --layout 3.1 -i "$f"
assert_same default.txt "$OUT"
expect_exit 2 $TDAT report --layout 3.2 -i "$f"
assert_lines 1 "$ERR"
# an argument's control characters do not break the one-line message
expect_exit 2 $TDAT report --layout $'3\n\033[1m4' -i "$f"
assert_lines 1 "$ERR"

step "3.4's lines, every fixture"
for f in "$FIX"/*.dat "$FIX"/external/alexiusmd.dat; do
	for o in "" "-t" "--ts-diff" "-l" "--cpu 0" "-R"; do
		# 1.9 prints raw function pointers with their symbol
		# (markers' ip, kmem's call_site: "sym+0x24 (0xffff...)")
		[ "$o" = -R ] && case $f in *markers* | *kmem*) continue ;; esac
		expect_exit 0 $TDAT report --layout 3.4 -N $o -i "$f"
		assert_oracle "$OUT" "$tc34" report -N $o -i "$f"
	done
done
expect_exit 0 $TDAT report --layout 3.4 -i "$FIX/v7-zstd-sched-irq-tc34.dat"
assert_grep '^ +[^ ]+-[0-9]+ +\[00[01]\] d\.\.2\. +[0-9]+\.[0-9]{6}: sched_switch: ' "$OUT"

step "the latency flags, every value of the flags byte"
# Kernels since 6.12 set bit 0x02 for a lazy need-resched, which 3.4's
# libtraceevent shows as 'L' and Debian 12's as 'X' (irqs not
# supported).  A copy of a fixture whose events take the flags byte
# values 0 to 255 in turn; every line as 3.4 prints it.
python3 - "$FIX/v6-sched-irq.dat" flags.dat <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
fly = d.index(b'flyrecord\0')
k = 0
for c in range(2):
    off, size = struct.unpack_from('<QQ', d, fly + 10 + 16 * c)
    for p in range(off, off + size, 4096):
        q = p + 16
        end = q + (struct.unpack_from('<Q', d, p + 8)[0] & 0xfffff)
        while q < end:
            h = struct.unpack_from('<I', d, q)[0]
            tl = h & 31
            if tl == 0:
                data, q = q + 8, q + 4 + struct.unpack_from('<I', d, q + 4)[0]
            elif tl <= 28:
                data, q = q + 4, q + 4 + 4 * tl
            elif tl in (29, 30):
                data, q = None, q + 8
            else:
                data, q = None, q + 4 + struct.unpack_from('<I', d, q + 4)[0]
            if data is not None:
                d[data + 2] = k % 256
                k += 1
assert k >= 256, k
open(sys.argv[2], 'wb').write(d)
PY
expect_exit 0 $TDAT report --layout 3.4 -N -i flags.dat
assert_oracle "$OUT" "$tc34" report -N -i flags.dat
assert_grep '\] \.L\.' "$OUT"

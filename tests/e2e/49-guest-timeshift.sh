#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A guest recording's TIME_SHIFT option (per guest CPU: samples of guest
# time and offset to the host's clock) moves its timestamps onto the
# host's clock, as trace-cmd report does.  No real guest recording is at
# hand: each case is a copy of a real recording with a TIME_SHIFT option
# added by tests/tools/mkodd, its samples written here (python3) around
# the recording's times: one sample, pairs, interpolation, samples out of
# order or repeated, per CPU, before and after every event, fraction bits.
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"
command -v python3 >/dev/null || skip "python3 makes the TIME_SHIFT options"
mkodd=$(dirname "$TDAT")/tools/mkodd
[ -x "$mkodd" ] || fail "no $mkodd (make check builds it)"
f=$FIX/v7-zstd-sched-irq.dat

# The recording's events run from 534.057 s to 534.363 s (raw ns).
python3 - <<'PY'
import struct
def opt(per_cpu, flags=0, frac=False):
    b = struct.pack('<QII', 0x1234, flags, len(per_cpu))
    for s in per_cpu:
        b += struct.pack('<I', len(s))
        for k in range(3):
            b += struct.pack('<%dq' % len(s), *[x[k] for x in s])
    if frac:
        for s in per_cpu:
            b += struct.pack('<%dq' % len(s), *[10] * len(s))
    return b
two = [(534000000000, 1000, 1), (535500000000, 2000000, 1)]
three = [(0, 100, 1), (534200000000, 200, 1), (534300000000, 300, 1)]
cases = {
    'one': [[(0, 1000000000, 1)]] * 2,
    'pair': [two] * 2,
    'pair-interp': ([two] * 2, 1),
    'unsorted': [[two[1], two[0]]] * 2,
    'per-cpu': [[(0, 1000, 1)], [(0, 5000, 1)]],
    'after-all': [[(100, 10, 1), (200, 20, 1)]] * 2,
    'after-all-interp': ([[(100, 10, 1), (200, 20, 1)]] * 2, 1),
    'before-all-interp': ([[(536000000000, 7000, 1),
                            (537000000000, 9000, 1)]] * 2, 1),
    'three': [three] * 2,
    'repeated': [three + [(534300000000, 999, 1)]] * 2,
    'three-interp': ([three] * 2, 1),
    'scaled': ([[(0, 50, 1000)]] * 2, 0, True),
}
for name, c in cases.items():
    if isinstance(c, tuple):
        c = (c + (0, False))[:3]
        b = opt(c[0], c[1], c[2])
    else:
        b = opt(c)
    open(name + '.bin', 'wb').write(b)
PY

for c in *.bin; do
	c=${c%.bin}
	step "$c"
	"$mkodd" --add-option-file 12 "$c.bin" "$f" "$c.dat" ||
		fail "mkodd could not make $c.dat"
	for o in "-t" "" "--ts-diff" "-t --cpu 1"; do
		expect_exit 0 $TDAT report $o -i "$c.dat"
		assert_tc_report "$OUT" $o -i "$c.dat"
	done
	# host and guest on one timeline
	expect_exit 0 $TDAT report -t -i "$f" -i "$c.dat"
	assert_tc_report "$OUT" -t -i "$f" -i "$c.dat"
done

step "split counts the guest's events on the host's clock"
expect_exit 0 $TDAT report -t -i pair-interp.dat
cp "$OUT" whole.txt
expect_exit 0 $TDAT split -i pair-interp.dat -o piece -m 50 -r
: >pieces.txt
for p in piece.0*; do
	$TDAT report -t -i "$p" | tail -n +2 >>pieces.txt
done
tail -n +2 whole.txt | cmp -s - pieces.txt || fail "split's pieces do not add up"

step "a malformed option moves nothing and says so"
head -c 20 pair.bin >bad.bin
"$mkodd" --add-option-file 12 bad.bin "$f" bad.dat
expect_exit 0 $TDAT report -t -i bad.dat
assert_grep 'TIME_SHIFT option is malformed' "$ERR"
assert_lines 1 "$ERR"

step "a host with a GUEST option and its guest, ids matching"
python3 - <<'PY'
import struct
host_id = 0x385D95BCB43E1719	# the fixture's TRACEID
guest_id = 0x1111
name = b'myguest\0'
open('guest-opt.bin', 'wb').write(name + struct.pack('<QI', guest_id, 2) +
                                  struct.pack('<IIII', 0, 4242, 1, 4243))
open('traceid.bin', 'wb').write(struct.pack('<Q', guest_id))
s = [(534000000000, 1000, 1), (535500000000, 2000000, 1)]
b = struct.pack('<QII', host_id, 1, 2)
for c in range(2):
    b += struct.pack('<I', 2)
    for k in range(3):
        b += struct.pack('<2q', *[x[k] for x in s])
open('shift-peer.bin', 'wb').write(b)
PY
"$mkodd" --add-option-file 13 guest-opt.bin "$f" host.dat
"$mkodd" --drop-option 11 --add-option-file 11 traceid.bin \
	--add-option-file 12 shift-peer.bin "$f" guest.dat
for o in "" "-t" "--ts-diff"; do
	expect_exit 0 $TDAT report $o -i host.dat -i guest.dat
	assert_tc_report "$OUT" $o -i host.dat -i guest.dat
done

# Scaling, fraction bits, wrapping.  With two samples or more trace-cmd 3.1.6
# and 3.4 both scale t by the pair's lower sample, (t * scaling) >>
# fraction in 64 bits that wrap, shift modulo 64, then add the offset
# found from the unscaled t.  A KVM guest's TIME_SHIFT holds a scaling
# and fraction bits, and its file is x86-tsc with TSC2NSEC: the last
# pair below is made that way (on a 3.4 x86-tsc recording), in zlib as
# trace-cmd 3.2 writes it, which only 3.4 reads.
step "scaling and fraction bits, as 3.1.6 and 3.4 apply them"
if tc34=$(tc34_oracle); then have34=1
else have34=; echo "  $tc34: its checks skipped"
fi
x86=$FIX/v7-zstd-clock-x86tsc-tc34.dat
python3 - <<'PY'
import struct
def opt(per_cpu, flags, frac, peer=0x1234):
    b = struct.pack('<QII', peer, flags, len(per_cpu))
    for s in per_cpu:
        b += struct.pack('<I', len(s))
        for k in range(3):
            b += struct.pack('<%dq' % len(s), *[x[k] for x in s])
    for s in per_cpu:
        if frac is not None:
            b += struct.pack('<%dq' % len(s), *[frac] * len(s))
    return b
g = 600000000000
cases = {
    'sc-lower': ([[(0, 0, 5), (g, 0, 3)]] * 2, 0, None),
    'sc-sorted': ([[(g, 0, 5), (0, 0, 4)]] * 2, 1, 1),
    'sc-one': ([[(0, 50, 3)]] * 2, 1, None),
    'sc-wrap48': ([[(0, 0, 1 << 48), (g, 0, 1 << 48)]] * 2, 1, 48),
    'sc-frac65': ([[(0, 0, 4), (g, 0, 4)]] * 2, 0, 65),
    'sc-interp': ([[(0, 12345, (1 << 32) + 12345678),
                    (g, 99999, (1 << 32) + 12345678)]] * 2, 1, 32),
    'sc-negative': ([[(0, 0, -2), (g, 0, -2)]] * 2, 1, 1),
    # negative sample times sort first and, taken unsigned, lie past
    # every timestamp: trace-cmd takes the first pair
    'neg-first': ([[(-200, 1000, 1), (100, 2000, 1), (200, 3000, 1)]] * 2, 0, None),
    'neg-middle': ([[(100, 1000, 1), (-300, 3000, 1), (300, 4000, 1)]] * 2, 1, None),
    # its interpolation wraps in signed 64 bits
    'wrap-interp': ([[(0, 0, 1), (g, 6000000000, 1)]] * 2, 1, None),
    'wrap-ends': ([[(-(1 << 63), 0, 1), ((1 << 63) - 1, 7, 1)]] * 2, 1, None),
}
for name, (c, flags, frac) in cases.items():
    open(name + '.sbin', 'wb').write(opt(c, flags, frac))
host_id, guest_id, t0 = 0x6AF35A35FF5B9D19, 0x2222, 347907112797636
open('kvm-guest.bin', 'wb').write(b'vm1\0' + struct.pack('<QI', guest_id, 2) +
                                  struct.pack('<IIII', 0, 777, 1, 778))
open('kvm-id.bin', 'wb').write(struct.pack('<Q', guest_id))
s = [(t0 - 10**9, -5000000, (1 << 32) + 4000), (t0 + 10**9, -3000000, (1 << 32) + 4000)]
open('kvm-shift.bin', 'wb').write(opt([s, s], 1, 32, host_id))
PY
for c in *.sbin; do
	c=${c%.sbin}
	"$mkodd" --add-option-file 12 "$c.sbin" "$f" "$c.dat" ||
		fail "mkodd could not make $c.dat"
	for o in "-t" "--ts-diff"; do
		expect_exit 0 $TDAT report $o -i "$c.dat"
		assert_tc_report "$OUT" $o -i "$c.dat"
		[ -n "$have34" ] || continue
		expect_exit 0 $TDAT report --layout 3.4 -N $o -i "$c.dat"
		assert_oracle "$OUT" "$tc34" report -N $o -i "$c.dat"
	done
done
"$mkodd" --add-tsc2nsec 5 1 --add-option-file 13 kvm-guest.bin "$x86" kh.dat
"$mkodd" --drop-option 11 --add-option-file 11 kvm-id.bin --add-tsc2nsec 5 1 \
	--add-option-file 12 kvm-shift.bin "$x86" kg.dat
for x in kh kg; do
	expect_exit 0 $TDAT convert --compression zlib -i $x.dat -o z$x.dat
done
for o in "" "-t" "--ts-diff"; do
	expect_exit 0 $TDAT report $o -i kh.dat -i kg.dat
	assert_tc_report "$OUT" $o -i kh.dat -i kg.dat
	[ -n "$have34" ] || continue
	expect_exit 0 $TDAT report --layout 3.4 -N $o -i zkh.dat -i zkg.dat
	assert_oracle "$OUT" "$tc34" report -N $o -i zkh.dat -i zkg.dat
done

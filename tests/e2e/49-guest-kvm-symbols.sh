#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A host's kvm_entry and kvm_exit name the guest's function at rip, from
# the guest file's kallsyms, as trace-cmd report does (issue 20, point 6):
# `vcpu 0 rip 0xffffffff82260f40 default_idle+0x10`.  libtraceevent's kvm
# plugin asks the program through tep_plugin_kvm_get_func; the host's
# GUEST option maps the host task running each vCPU to the guest's trace
# id, the guest file's TRACEID.
#
# The pairs are SYNTHETIC, made from real layouts: the host is made by
# tests/tools/mkevents from this kernel's kvm formats
# (fixtures/kvm/kvm-formats.txt) with records whose rip lies in the
# guests' kernels, then given a GUEST option per guest (tests/tools/mkodd);
# the guests are real recordings (an x86_64 fixture, the arm64 LISA
# file), given the trace ids the GUEST options name.  Debian's trace-cmd
# is the oracle for every case.
. "$E2E/lib.sh"
command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"
command -v python3 >/dev/null || skip "python3 makes the GUEST options"
tools=$(dirname "$TDAT")/tools
mk=$tools/mkevents mkodd=$tools/mkodd
[ -x "$mk" ] && [ -x "$mkodd" ] || fail "mkevents or mkodd is missing"

x86=$FIX/v7-zstd-sched-irq.dat	# TRACEID 0x385D95BCB43E1719
arm=$FIX/external/lisa_example_rtapp.dat	# no TRACEID: one is added
python3 - <<'PY'
import struct
idle, do_idle = 0xffffffff82260f30, 0xffffffff813cfd60	# x86 guest
sched = 0xffffffc0006f6628				# arm64 guest: schedule
s = "cmdline 4242 qemu-vcpu0\ncmdline 4243 qemu-vcpu1\n"
s += "cmdline 5000 arm-vcpu0\ncmdline 9999 other\n"
ev = [
    (0, 4242, "kvm_entry vcpu_id=0 rip=%d" % (idle + 0x10)),
    (0, 4242, "kvm_exit exit_reason=12 guest_rip=%d isa=1 vcpu_id=0" % (idle + 0x10)),
    (1, 4243, "kvm_entry vcpu_id=1 rip=%d" % idle),	# a function's start
    (1, 9999, "kvm_entry vcpu_id=0 rip=%d" % (idle + 4)),	# no guest's task
    (0, 4242, "kvm_entry vcpu_id=1 rip=%d" % (do_idle + 0x33)),
    (0, 4242, "kvm_entry vcpu_id=0 rip=%d" % 0xffffffffff000000),	# past all
    (0, 4242, "kvm_entry vcpu_id=0 rip=%d" % 0x1000),	# before all
    (0, 4242, "kvm_entry vcpu_id=0 rip=%d" % sched),	# the other guest's
    (1, 5000, "kvm_entry vcpu_id=0 rip=%d" % (sched + 0x18)),
    (1, 5000, "kvm_exit exit_reason=30 guest_rip=%d isa=1 vcpu_id=0" % (idle + 0x10)),
]
for i, (cpu, pid, e) in enumerate(ev):
    s += "%d %d %d %s\n" % (cpu, 1000000 * (i + 1), pid, e)
open('host.txt', 'w').write(s)
def guest(name, gid, pairs):
    b = name + b'\0' + struct.pack('<QI', gid, len(pairs))
    for v, t in pairs:
        b += struct.pack('<II', v, t)
    return b
open('g-x86.bin', 'wb').write(guest(b'x86', 0x385D95BCB43E1719,
                                    [(0, 4242), (1, 4243)]))
open('g-arm.bin', 'wb').write(guest(b'arm', 0x2222, [(0, 5000)]))
open('g-short.bin', 'wb').write(guest(b'cut', 0x2222, [(0, 9999)])[:-6])
open('id-host.bin', 'wb').write(struct.pack('<Q', 0x1111))
open('id-arm.bin', 'wb').write(struct.pack('<Q', 0x2222))
PY
cat "$FIX/kvm/kvm-formats.txt" host.txt > script.txt
"$mk" script.txt host0.dat || fail "mkevents"
"$mkodd" --add-option-file 11 id-host.bin --add-option-file 13 g-x86.bin \
	--add-option-file 13 g-arm.bin --add-option-file 13 g-short.bin \
	host0.dat host.dat || fail "mkodd host"
"$mkodd" --add-option-file 11 id-arm.bin "$arm" arm.dat || fail "mkodd arm"

step "host then guests: guest functions named by the task's guest"
expect_exit 0 $TDAT report -i host.dat -i "$x86" -i arm.dat
assert_grep 'vcpu 0 rip 0xffffffff82260f40 default_idle\+0x10$' "$OUT"
assert_grep 'rip 0xffffffc0006f6640 schedule\+0x18$' "$OUT"
assert_tc_report "$OUT" -i host.dat -i "$x86" -i arm.dat

step "with worker threads, the same"
for t in 1 2; do
	TDAT_REPORT_THREADS=$t expect_exit 0 $TDAT report -i host.dat \
		-i "$x86" -i arm.dat
	assert_tc_report "$OUT" -i host.dat -i "$x86" -i arm.dat
done

# trace-cmd takes the first input for the host: with another first,
# nothing is named, even for a guest after the host.
step "the host not first, one guest, the host alone: as trace-cmd"
for order in "-i $x86 -i host.dat -i arm.dat" "-i arm.dat -i host.dat -i $x86" \
	     "-i host.dat -i arm.dat" "-i host.dat -i arm.dat -i $x86" \
	     "-i host.dat"; do
	expect_exit 0 $TDAT report $order
	assert_tc_report "$OUT" $order
done
expect_exit 0 $TDAT report -i host.dat
if grep -q 'default_idle' "$OUT"; then
	fail "the host alone named a guest function"
fi

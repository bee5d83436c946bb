#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# %p of a 64-bit recording's pointers, whole on every host.  A 32-bit
# host's libtraceevent casts a %p value to its own pointer and printed
# 0xffff9ebf9638c240 as 0x9638c240 (armhf: compiled formats, formats it
# prints itself, expressions like kmem's "((struct page *)vmemmap_base)
# + (REC->pfn)", bprint's trace_printk formats, -R's field list).
# report prints what trace-cmd prints on x86_64: here (and under make
# check-cross, where the 32-bit case is real) against the host's
# trace-cmd, plain and -R, on the external recordings whose events print
# kernel pointers (kmem, x86_fpu, i915, amdgpu, bprint).
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"

for f in carverdamien_full igt_tests_trace gpuvis_amdgpu lisa_example_rtapp; do
	in=$FIX/external/$f.dat
	for opt in "" -R; do
		step "$f ${opt:-(plain)}"
		tc_copy "$in" tc.dat
		$TDAT report $opt -i "$in" >got.txt 2>/dev/null ||
			fail "report $opt -i $in exited $?"
		assert_tc_report got.txt $opt -i tc.dat
	done
done
# the files hold pointers printed with %p, NULLs among them
grep -q '=0xffff[0-9a-f]\{12\}' got.txt || fail "no 64-bit pointer printed"
$TDAT report -i "$FIX/external/carverdamien_full.dat" >all.txt
grep -q 'ptr=(nil)' all.txt || fail "no NULL pointer printed"
grep -q 'page=0xffff[0-9a-f]\{12\}' all.txt || fail "no page pointer"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# __print_array, __print_hex and __print_hex_str take their element
# count from the record: libtraceevent reads that many elements whatever
# the record holds, so a forged count read far past the record and
# killed report (and trace-cmd).  report bounds the count by the
# elements that lie inside the record, whatever the count's expression
# (a field, an expression on fields, a dynamic array's length), the
# array (a static field, __get_dynamic_array, __get_rel_dynamic_array)
# and the element size (1, 2, 4, 8, a bad one).
#
# The files are SYNTHETIC, made by tests/tools/mkevents: each case is a
# record with a count that fits and one with a forged count, and a twin
# file where the forged count is the largest that fits.  report of the
# forged file must print, in every mode, what trace-cmd prints for the
# twin; on both byte orders and long sizes, v6 and v7, with and without
# worker threads.
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"
mk=$(dirname "$TDAT")/tools/mkevents
[ -x "$mk" ] || fail "$mk is missing (make build/tools/mkevents)"

# static fields up to 44; buf (6 bytes) at 44, ids (two u32) at 50, rel
# (two u16) at 58 (14 from the end of its descriptor): 64 bytes
script() {
	cat <<EOF
format test
name: counts
ID: 200
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:int n;	offset:8;	size:4;	signed:1;
	field:unsigned short len;	offset:12;	size:2;	signed:0;
	field:unsigned char k;	offset:14;	size:1;	signed:0;
	field:u64 vals[2];	offset:16;	size:16;	signed:0;
	field:__data_loc u8[] buf;	offset:32;	size:4;	signed:0;
	field:__data_loc u32[] ids;	offset:36;	size:4;	signed:0;
	field:__rel_loc u16[] rel;	offset:40;	size:4;	signed:0;

print fmt: $1
end
cmdline 42 prog
EOF
	r="vals=0x1111111111111111,0x2222222222222222 buf=x:0a0b0c0d0e0f ids=7,8 rel=5,6"
	echo "0 1000 42 counts n=1 len=2 k=1 $r"
	echo "1 2000 42 counts $r $2"
	echo "0 3000 42 counts n=2 len=1 k=1 $r"
}

# PRINT FMT | FORGED | THE LARGEST THAT FITS
cases=(
	'"a=%s", __print_array(REC->vals, REC->n, 8)|n=0x7fffffff|n=6'
	'"a=%s", __print_array(REC->vals, REC->n, 8)|n=-1|n=6'
	'"h=%s", __print_hex(REC->vals, REC->len)|len=0xffff|len=48'
	'"s=%s", __print_hex_str(__get_dynamic_array(buf), REC->len - REC->k)|len=3 k=5|len=20'
	# libtraceevent finds a dynamic array's length past the record 0
	# itself: trace-cmd prints the forged file
	'"d=%s", __print_array(__get_dynamic_array(ids), __get_dynamic_array_len(ids) / 4, 4)|ids=loc:50:0xfff0|ids=loc:50:0xfff0'
	'"d=%s", __print_array(__get_dynamic_array(ids), __get_dynamic_array_len(ids) / 4, 4)|ids=loc:50:14|ids=loc:50:12'
	'"e=%s", __print_array(REC->vals, REC->k, 1)|k=255|k=48'
	'"f=%s", __print_array(__get_dynamic_array(buf), REC->n * 2, 2)|n=-3|n=5'
	'"g=%s", __print_array(REC->vals, REC->n, 3)|n=100000|n=48'
	'"r=%s", __print_array(__get_rel_dynamic_array(rel), REC->n + REC->len, 2)|n=0x7ffffff0 len=0x20|n=3'
)

i=0
for c in "${cases[@]}"; do
	pf=${c%%|*}
	rest=${c#*|}
	forged=${rest%%|*}
	fit=${rest#*|}
	i=$((i + 1))
	for layout in "" --big-endian --long4 "--big-endian --long4"; do
		step "case $i ($forged) ${layout:-little endian, 8-byte longs}"
		script "$pf" "$forged" >forged.txt
		script "$pf" "$fit" >fit.txt
		"$mk" $layout forged.txt forged.dat || fail "mkevents forged"
		"$mk" $layout fit.txt fit.dat || fail "mkevents fit"
		for opts in "" -l -t --ts-diff -N; do
			for t in 0 2; do
				TDAT_REPORT_THREADS=$t expect_exit 0 \
					$TDAT report $opts -i forged.dat
				assert_tc_report "$OUT" $opts -i fit.dat
			done
		done
		# the count as it is in the record: raw fields, JSON
		expect_exit 0 $TDAT report -R -i forged.dat
		assert_tc_report "$OUT" -R -i forged.dat
		expect_exit 0 $TDAT report --json -i forged.dat
		assert_lines 3 "$OUT"
		expect_exit 0 $TDAT convert -q -i forged.dat -o forged7.dat
		expect_exit 0 $TDAT report -i forged7.dat
		assert_tc_report "$OUT" -i fit.dat
	done
done
echo "${#cases[@]} forged counts bounded by their records, 4 layouts, v6 and v7"

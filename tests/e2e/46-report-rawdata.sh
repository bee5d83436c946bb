#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ftrace's raw_data (trace_marker_raw writes) prints as "# ID" and its
# payload's bytes in hex.  libtraceevent walks the payload by the file's
# long size and prints a host long's worth each step, so a 32-bit host
# skipped half of a 64-bit recording's bytes (armhf printed
# "# 2a 72 61 77 2d 6f 61 64 2d" for "# 2a 72 61 77 2d 70 61 79 ...").
# report prints what trace-cmd prints on x86_64 on every host: here
# (and under make check-cross) against the host's trace-cmd, for
# payloads of every length modulo 8, both byte orders and long sizes,
# v6 and v7, plain, -R, -l and -N (no plugin: the print fmt).
#
# The files are SYNTHETIC, made by tests/tools/mkevents.
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"
mk=$(dirname "$TDAT")/tools/mkevents
[ -x "$mk" ] || fail "$mk is missing (make build/tools/mkevents)"

{
	cat <<-'EOF2'
	format ftrace
	name: raw_data
	ID: 19
	format:
		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
		field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
		field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
		field:int common_pid;	offset:4;	size:4;	signed:1;

		field:unsigned int id;	offset:8;	size:4;	signed:0;
		field:char buf[];	offset:12;	size:0;	signed:0;

	print fmt: "id:%04x %08x", REC->id, (int)REC->buf[0]
	end
	cmdline 42 prog
	EOF2
	bytes=$(printf '%02x' $(seq 1 40))
	n=1
	for size in 12 13 16 17 20 24 28 33 40 52; do
		echo "$((n % 2)) $((n * 1000)) 42 raw_data id=0x1a2b3c @12=x:$bytes size=$size"
		n=$((n + 1))
	done
} >raw.txt

for layout in "" --big-endian --long4 "--big-endian --long4"; do
	step "raw_data, ${layout:-little endian, 8-byte longs}"
	"$mk" $layout raw.txt raw.dat || fail "mkevents"
	expect_exit 0 $TDAT convert -q -i raw.dat -o raw7.dat
	for m in "" -R -l -N; do
		expect_exit 0 $TDAT report $m -i raw.dat
		assert_tc_report "$OUT" $m -i raw.dat
		expect_exit 0 $TDAT report $m -i raw7.dat
		assert_tc_report "$OUT" $m -i raw.dat
	done
done
echo "raw_data payloads of 0 to 40 bytes, 4 layouts, v6 and v7"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every recording of fixtures/external/ (other people's machines, kernels
# and trace-cmd versions: i686, armv7, arm64, x86_64; trace-cmd 2.x to
# 3.4) goes through what the corpus goes through: report as Debian's
# trace-cmd reports it, conversions to v6 and v7 that trace-cmd reports
# the same way, v6 -> v6 and v6 -> v7 -> v6 byte for byte for v6 files,
# split then merge back to the same report, check-events, and dump's
# text as trace-cmd's.  So does every recording of fixtures/tc291/
# (trace-cmd 2.9.1 on this machine: a file without data, an instance
# whose BUFFER option stands before its CPUSTAT options).  Besides:
# samarxie_android.dat's version string is empty; gpuvis_amdgpu.dat has
# an option 8 trace-cmd cannot read past (see tc_copy).
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"

# gpuvis_amdgpu.dat: trace-cmd reads tc_copy's copy of it (lib.sh).
for f in "$FIX"/external/*.dat "$FIX"/tc291/*.dat; do
	n=${f##*/}
	step "$n"
	tc_copy "$f" tc.dat
	expect_exit 0 $TDAT report -i "$f"
	assert_tc_report "$OUT" -i tc.dat
	cp "$OUT" want.txt
	if [ "$n" = gpuvis_amdgpu.dat ]; then
		trace-cmd report -i "$f" >/dev/null 2>&1 &&
			fail "trace-cmd reads $n now: compare with it directly"
		assert_lines 1 "$ERR"
		assert_grep ': offset 5943655: option CPUCOUNT \(8\) of 1047 bytes holds no CPU count .*: ignored, the header.s 4 CPUs are read$' "$ERR"
	fi
	# the version string's digit ("" in samarxie_android.dat: v6)
	v=$(head -c 11 "$f" | tail -c 1 | tr -d '\0')
	for to in "--file-version 6" "--file-version 7 --compression zstd" \
		  "--file-version 7 --compression none"; do
		expect_exit 0 $TDAT convert -q $to -i "$f" -o c.dat
		tc_copy c.dat tc.dat
		expect_exit 0 $TDAT report -i c.dat
		assert_tc_report "$OUT" -i tc.dat
		assert_same want.txt "$OUT"
	done
	if [ "$v" != 7 ]; then
		expect_exit 0 $TDAT convert -q --file-version 6 -i "$f" -o v6.dat
		assert_same "$f" v6.dat
		expect_exit 0 $TDAT convert -q -i "$f" -o v7.dat
		expect_exit 0 $TDAT convert -q --file-version 6 -i v7.dat -o v6.dat
		assert_same "$f" v6.dat
	fi
	rm -f piece*
	expect_exit 0 $TDAT split -i "$f" -o piece -e 2000 -r
	expect_exit 0 $TDAT merge -q -o merged.dat piece*
	tc_copy merged.dat tc.dat
	assert_tc_report want.txt -i tc.dat
	# trace-cmd 3.1.6's dump stops with an error on a v6 file that ends
	# before its data offset; its text up to there is ours.  (The copy's
	# option 8 is an unknown one to trace-cmd, tdat dumps CPUCOUNT.)
	expect_exit 0 $TDAT dump "$f"
	tc_copy "$f" tc.dat
	trace-cmd dump tc.dat 2>/dev/null | sed "s|file tc.dat:\$|file $f:|" |
		python3 -c "import sys; sys.stdout.write(sys.stdin.read().replace(
			' 32767 1047\t[Unknown option, size - skipping]\n',
			'\t\t[Option CPUCOUNT, 1047 bytes]\n825505074\n'))" >theirs.txt
	assert_same theirs.txt "$OUT"
	# 1 when libtraceevent cannot parse a format (named, one line each)
	expect_exit 0,1 $TDAT check-events -i "$f"
done

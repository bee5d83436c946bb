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
# whose BUFFER option stands before its CPUSTAT options).
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"

for f in "$FIX"/external/*.dat "$FIX"/tc291/*.dat; do
	n=${f##*/}
	step "$n"
	expect_exit 0 $TDAT report -i "$f"
	assert_tc_report "$OUT" -i "$f"
	cp "$OUT" want.txt
	v=$(head -c 11 "$f" | tail -c 1)
	for to in "--file-version 6" "--file-version 7 --compression zstd" \
		  "--file-version 7 --compression none"; do
		expect_exit 0 $TDAT convert -q $to -i "$f" -o c.dat
		assert_tc_report want.txt -i c.dat
	done
	if [ "$v" = 6 ]; then
		expect_exit 0 $TDAT convert -q --file-version 6 -i "$f" -o v6.dat
		assert_same "$f" v6.dat
		expect_exit 0 $TDAT convert -q -i "$f" -o v7.dat
		expect_exit 0 $TDAT convert -q --file-version 6 -i v7.dat -o v6.dat
		assert_same "$f" v6.dat
	fi
	rm -f piece*
	expect_exit 0 $TDAT split -i "$f" -o piece -e 2000 -r
	expect_exit 0 $TDAT merge -q -o merged.dat piece*
	assert_tc_report want.txt -i merged.dat
	# trace-cmd 3.1.6's dump stops with an error on a v6 file that ends
	# before its data offset; its text up to there is ours
	expect_exit 0 $TDAT dump "$f"
	trace-cmd dump "$f" >theirs.txt 2>/dev/null || true
	assert_same theirs.txt "$OUT"
	# 1 when libtraceevent cannot parse a format (named, one line each)
	expect_exit 0,1 $TDAT check-events -i "$f"
done

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# selftest.sh TDAT [WORK]: prove that pqcheck.mjs fails on bad data
# before trusting it to pass good data.  Gathers what tdat says of a few
# fixtures (report --json, formats, kallsyms, cmdlines; filtered to keep
# it small and fast), then selftest.mjs writes datasets of the design
# with DuckDB, checks they pass, and spoils copies that must each fail.
# Last, the command lines: pqcheck and pqread exit 1 with one line.
# Needs the readers (tests/e2e/lib.sh: need_parquet_readers).
set -eu

TDAT=${1:?usage: selftest.sh TDAT [WORK]}
here=$(cd "$(dirname "$0")" && pwd)
fix=$(cd "$here/../../../fixtures" && pwd)
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/pqselftest.XXXXXX")}
mkdir -p "$work"

# facts NAME INPUT [REPORT OPTIONS...]
facts() {
	local d=$work/$1 in=$2

	shift 2
	mkdir -p "$d"
	"$TDAT" report --json "$@" -i "$in" >"$d/report.jsonl"
	"$TDAT" dump --ftrace-events --events "$in" >"$d/formats.txt"
	# 2000 symbols and the last ones (a module's): enough, and quick
	"$TDAT" dump --kallsyms "$in" >"$d/kallsyms.all"
	{ head -n 2000 "$d/kallsyms.all"; tail -n 3 "$d/kallsyms.all"; } >"$d/kallsyms.txt"
	rm "$d/kallsyms.all"
	"$TDAT" dump --cmd-lines "$in" >"$d/cmdlines.txt"
	echo "$in" >"$d/input"
}

# a: sched and irq, strings, fields named pid and comm; one event is
# given a missed_events count (no fixture lost events)
facts a "$fix/v6-sched-irq.dat"
awk '/"event":"sched_switch"/ && ++k == 2 { sub(/,"buffer":/, ",\"missed_events\":42,\"buffer\":") } 1' \
	"$work/a/report.jsonl" >"$work/a/report.new"
mv "$work/a/report.new" "$work/a/report.jsonl"
[ "$(grep -c '"missed_events":42' "$work/a/report.jsonl")" = 1 ]
# b: 64-bit addresses (print's ip, syscall arguments), raw_data's bytes
facts b "$fix/v7-zstd-markers-raw_syscalls.dat" -F print -F raw_data \
	-F 'sys_enter: id == 293 || id == 87 || id == 12'
# c: bprint (a 32-bit kernel: u32 words, 4-byte addresses)
facts c "$fix/external/lisa_trappy_2014a.dat" -F bprint
# d: kernel_stack, whose caller[8] holds as many frames as the record
# (5 and 29)
facts d "$fix/external/lanhao.dat" -F 'kernel_stack: size == 5 || size == 29'

node "$here/selftest.mjs" "$work"

# The command lines: a pass, then one line and exit 1.
node "$here/pqcheck.mjs" "$work/fleet" "$work/c/report.jsonl" --trace c \
	--formats "$work/c/formats.txt" >"$work/out" ||
	{ cat "$work/out"; echo "selftest: pqcheck failed a good dataset" >&2; exit 1; }
rc=0
node "$here/pqcheck.mjs" "$work/fleet" "$work/a/report.jsonl" --trace b \
	>"$work/out" 2>"$work/err" || rc=$?
[ $rc = 1 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" = 1 ] || {
	cat "$work/out" "$work/err"
	echo "selftest: pqcheck with the wrong report: exit $rc, expected 1 and one line" >&2
	exit 1
}
f=$work/fleet/ftrace/print/b.parquet
node "$here/pqread.mjs" "$f" >"$work/out"
[ "$(wc -l <"$work/out")" = 8 ] || { echo "selftest: pqread: not 1 + 7 lines" >&2; exit 1; }
head -c 300 "$f" >"$work/cut.parquet"
rc=0
node "$here/pqread.mjs" "$work/cut.parquet" >"$work/out" 2>"$work/err" || rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$work/err")" = 1 ] || {
	cat "$work/err"
	echo "selftest: pqread of a cut file: exit $rc, expected 1 and one line" >&2
	exit 1
}
echo "selftest: pqcheck and pqread fail with one line on bad input"
[ $# -ge 2 ] || rm -rf "$work"

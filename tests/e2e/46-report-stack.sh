#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report -R of kernel_stack events: libtraceevent prints the static array
# caller[8] whole, whatever the record's size, so it reads past short
# records.  report hands it the bytes that follow the record in its page
# (what trace-cmd prints there too) and zeros past the page's end, where
# trace-cmd prints whatever lies after its page buffer in memory.  Before,
# report read past its chunk buffer (the sanitizer pass catches that) and
# printed other bytes than trace-cmd inside the page.
# fixtures/external/lanhao.dat: a real v7 recording by someone else
# (x86_64, Linux 5.15, trace-cmd 3.1.4) with 20 700 kernel_stack events.
. "$E2E/lib.sh"

f=$FIX/external/lanhao.dat
command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"

step "threads or not, the same text, twice"
expect_exit 0 $TDAT report -R -i "$f"
cp "$OUT" ours.txt
TDAT_REPORT_THREADS=0 expect_exit 0 $TDAT report -R -i "$f"
assert_same ours.txt "$OUT"
expect_exit 0 $TDAT report -R -i "$f"
assert_same ours.txt "$OUT"

step "as trace-cmd, but past a page's end"
trace-cmd report -R -i "$f" >theirs.txt 2>/dev/null
assert_eq "$(wc -l <theirs.txt)" "$(wc -l <ours.txt)" "line count"
diff ours.txt theirs.txt | grep '^<' | cut -c3- >ours.diff || true
diff ours.txt theirs.txt | grep '^>' | cut -c3- >theirs.diff || true
n=$(wc -l <ours.diff)
[ "$n" -lt 20 ] || fail "$n lines differ from trace-cmd's"
# Each differing line: kernel_stack, equal up to an array element, and
# from there on ours is all zeros (the bytes past the page).
paste -d '\n' ours.diff theirs.diff | while read -r a && read -r b; do
	case $a in *" kernel_stack: "*) ;; *) fail "differs: $a" ;; esac
	i=0
	while [ "${a:i:1}" = "${b:i:1}" ]; do i=$((i + 1)); done
	rest=${a:i}
	rest=${rest#*, }
	head=${a:0:i}
	case $head in *"caller=ARRAY["*) ;; *) fail "differs before the array: $a" ;; esac
	tail=${a:${#head}}
	tail=${tail%]}
	if echo "$tail" | tr -d ' ' | tr ',' '\n' | grep -v -x -E '0?0|' | grep -q .; then
		fail "not zeros past the page: $a"
	fi
done
echo "$n lines differ, each only past its page's end"

step "JSON stops at the record's end"
expect_exit 0 $TDAT report --json -i "$f"
grep -m1 '"event":"kernel_stack"' "$OUT" >js.txt
assert_grep '"caller":\[' js.txt

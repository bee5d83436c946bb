#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The VM test bed's judgement (tests/vm/compare.sh, tests/vm/cases.sh),
# without a VM: results as tests/vm/init leaves them, made up here around
# a real recording, must get the verdicts the bed promises: a pass when
# the reports agree and the case's WANT/UNWANTED hold; a skip, shown, when
# tdat record refuses the options (exit 2) or the kernel lacks the
# tracer; a failure for a record error, a report difference, a WANT not
# met, an UNWANTED met, and tracefs not put back by tdat record.
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
vm=$E2E/../vm
. "$vm/cases.sh"
. "$vm/compare.sh"
dat=$FIX/v7-zstd-sched-irq-tc34.dat

step "cases: fields trimmed, tdat's options default to trace-cmd's"
cat >cases <<'EOF2'
# a comment
ok        | -e sched -e irq | sched_switch: | |
nowant    | -e sched        | no_such_event: | |
unwanted  | -e sched        | | softirq_raise |
notracer  | -p wakeup -e sched | | |
putback   | -e sched        | | |
differs   | -p function -l 'do_*' | | | -p function -l do_sys_open
EOF2
vm_cases cases >vm.txt
cat >want.txt <<'EOF2'
ok|tc||-e sched -e irq
ok|tdat||-e sched -e irq
nowant|tc||-e sched
nowant|tdat||-e sched
unwanted|tc||-e sched
unwanted|tdat||-e sched
notracer|tc|wakeup|-p wakeup -e sched
notracer|tdat|wakeup|-p wakeup -e sched
putback|tc||-e sched
putback|tdat||-e sched
differs|tc|function|-p function -l 'do_*'
differs|tdat|function|-p function -l do_sys_open
EOF2
assert_same want.txt vm.txt

# put NAME RECORDER RC [LOG]: a run as tests/vm/init records it.
put() {
	local b=res/$1.$2

	echo "$3" >"$b.rc"
	echo 123 >"$b.cs"
	echo "${4:-}" >"$b.log"
	echo "current_tracer: nop" >"$b.before"
	cp "$b.before" "$b.after"
	[ "$3" = 0 ] && cp "$dat" "$b.dat"
	return 0
}

step "verdicts"
mkdir res
put ok tc 0
put ok tdat 0
put nowant tc 0
put nowant tdat 2 "tdat record: unknown option -p (see --help)"
put unwanted tc 0
put unwanted tdat 1 "tdat record: cannot open tracefs"
put notracer tc no-tracer
put notracer tdat no-tracer
put putback tc 0
put putback tdat 0
# trace-cmd is not held to putting tracefs back; tdat record is.
echo "current_tracer: function" >res/putback.tc.after
echo "current_tracer: function" >res/putback.tdat.after
put differs tc 0
put differs tdat 0
# A tdat whose report of one file has a line too many.
cat >tdat-off <<EOF2
#!/bin/sh
"$TDAT" "\$@" || exit
case "\$*" in *differs.tdat*) echo extra ;; esac
EOF2
chmod +x tdat-off
rc=0
compare_all cases "$PWD/tdat-off" res >out.txt || rc=$?
cat out.txt
assert_eq 1 "$rc" "compare_all's status"
assert_grep '^PASS ok +trace-cmd +recorded in 1.2 s; 3373 report lines alike$' out.txt
assert_grep '^PASS ok +tdat +recorded in 1.2 s' out.txt
assert_grep '^FAIL nowant +trace-cmd +the report has no line matching /no_such_event:/$' out.txt
assert_grep '^SKIP nowant +tdat +not yet supported by tdat record: tdat record: unknown option -p' out.txt
assert_grep '^FAIL unwanted +trace-cmd +the report has a line matching /softirq_raise/: ' out.txt
assert_grep '^FAIL unwanted +tdat +record exited 1: tdat record: cannot open tracefs$' out.txt
assert_grep '^SKIP notracer +trace-cmd +the kernel does not offer tracer wakeup$' out.txt
assert_grep '^SKIP notracer +tdat +the kernel does not offer tracer wakeup$' out.txt
assert_grep '^PASS putback +trace-cmd ' out.txt
assert_grep '^FAIL putback +tdat +tracefs not put back: < current_tracer: nop > current_tracer: function' out.txt
assert_grep '^PASS differs +trace-cmd ' out.txt
assert_grep '^FAIL differs +tdat +tdat report differs from trace-cmd.s \(.*differs.tdat.diff\):$' out.txt
assert_grep '^> extra$' out.txt
assert_grep '^check-vm: 4 passed, 5 failed, 3 skipped$' out.txt
assert_lines 15 out.txt
echo ok

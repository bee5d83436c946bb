#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report options, byte for byte against Debian's trace-cmd report 3.1.6
# run live on the fixtures: several -i files (labels, interleaving, ties),
# --ts-offset, --ts2secs, --cpu, -F/-v/-T, -I, -S, --event, -l,
# --ts-diff, --align-ts, --raw-ts, and combinations of them.
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"
command -v stdbuf >/dev/null || skip "stdbuf is not installed"

a=$FIX/v6-sched-irq.dat
b=$FIX/v6-2inst-irq-top-sched-inst1.dat
c=$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat
g=$FIX/v6-clock-global.dat
x=$FIX/v7-zstd-clock-x86tsc-tc34.dat
m=$FIX/v7-zstd-markers-raw_syscalls.dat
mono=$FIX/v7-zstd-clock-mono-tc34.dat
r=$FIX/crashed/restored.dat
n=0

# same ARGS...: tdat report prints what trace-cmd report prints and
# exits 0.  trace-cmd 3.1.6 crashes on exit when -F meets a file with
# instances (after printing everything), so its output is taken
# unbuffered and its exit status is not looked at.
same() {
	stdbuf -o0 trace-cmd report "$@" >ref.out 2>/dev/null || true
	expect_exit 0 $TDAT report "$@"
	cmp -s ref.out "$OUT" || {
		diff ref.out "$OUT" | head -n 10 >&2
		fail "differs from trace-cmd: report $*"
	}
	n=$((n + 1))
}

step "several -i files: labels, interleaving, cpus= lines"
same -i $a -i $g
same -i $a -i $b
same -i $b -i $c
same -i $a -i $b -i $c -i $g -i $x -i $m -i $r
same -i $x -i $a
# A file name shorter than its instance name: cpus= lines are padded to
# the longest file name, event lines to the longest name of all.
cp $b b.d
cp $a c
same -i c -i b.d
same -i b.d -i c -i $c

step "equal timestamps: scan order decides (the same file several times)"
same -i $a -i $a
same -i $b -i b.d -i $b
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	ln -s $c many$i.dat
	set -- "$@" -i many$i.dat
done
same "$@"

step "--ts-offset applies to the -i before it (never to the first)"
same -i $a --ts-offset 3000000000
same -i $a -i $g --ts-offset -3000000000
same -i $a --ts-offset 1000000000 -i $g --ts-offset 2000000000 \
     -i $c --ts-offset 3000000000
same -t -i $g -i $a --ts-offset 1

step "--ts2secs: before the second -i the default, after it per file"
for hz in 3000000000 1000000007 1000 7; do
	same -i $x --ts2secs $hz
	same -t -i $a --ts2secs $hz
	same --ts2secs $hz -i $a -i $g -i $c
	same -i $a --ts2secs $hz -i $g -i $c
	same -i $a -i $g --ts2secs $hz -i $c
done
same --ts2secs 4000000000 -i $a -i $g --ts2secs 2000000000 -i $c
same -t -i $a -i $g --ts2secs 3000000000 --ts-offset 1

step "--cpu"
for list in 0 1 0,1 1,0 0-1 1: "1 0" 0,0 3 5-7 0-100 01 1-1 1,; do
	same --cpu "$list" -i $a
done
same --cpu 1 -i $b
same --cpu 0 -i $a -i $b
same --cpu 1 -i $b -i $a
same -i $a --cpu 1 -i $c
for list in 1-0 "" a 0- ,1 1::0 -1 0-1-2 1x; do
	expect_exit 2 $TDAT report --cpu "$list" -i $a
	assert_lines 1 "$ERR"
	assert_grep "^tdat report: --cpu" "$ERR"
done

step "-F, -v: per input, as trace-cmd assigns them"
same -F sched_switch -i $a
same -i $a -F sched_switch
same -F sched_wakeup -i $a -F sched_switch
same -v -F sched_switch -i $a
same -F sched_switch -v -F sched_wakeup -i $a
same -F sched_switch,sched_wakeup -v -F sched_wakeup -i $a
same -F 'sched/sched_switch: prev_pid > 0' -i $g
same -F 'sched : bogus == 1 || common_pid == 0' -i $g
same -F '.*:COMM != "trace-cmd"' -i $g
same -F 'sched_switch:prev_comm=~"z.*"' -i $a
same -F 'sys_enter:id==1' -i $m
same -v -F raw_syscalls -i $m
same -v -F irq -i $c
same -F softirq_raise -i $b
same -F softirq_raise -i $a -i $b -F sched_switch
same -i $a -F sched_switch -i $b
same -i $a -i $b -F sched_wakeup -F sched_switch -i $c
same -F sched_switch -i $a -i $b -F sched_wakeup -i $c -v -F softirq_raise
expect_exit 2 $TDAT report -F bogus -i $a
assert_lines 1 "$ERR"
expect_exit 2 $TDAT report -F 'sched_switch:prev_pid>' -i $a
assert_lines 1 "$ERR"

step "-T"
same -T -F 'sched_switch: prev_pid > 0' -i $a
same -T -F 'sched:prev_pid>0 || common_pid == 3' -i $a
same -T -F sched_switch -v -F sched_wakeup -i $a
same -T -i $a -i $b -F irq
same -T -F sched_switch -i $a -i $b -F irq
same -T -i $a

step "-I, -S"
same -I -i $a
same -S -i $b
same -I -S -i $c
same -I -i $a -i $b
same -S -l -i $m

step "--event"
for re in sched SCHED :irq tasklet: irq::exit sch: irq:handler 'x*' \
	  'sched_\(switch\|wakeup\)$' sched:wak ftrace : .; do
	same --event "$re" -i $a
done
same --event sched -f -i $a
same --event sched --events -i $a
expect_exit 2 $TDAT report --event '[' -i $a
assert_lines 1 "$ERR"

step "-l, --ts-diff, --align-ts, --raw-ts on every kind of clock"
for f in $a $b $c $g $x $m $mono $r; do
	same -l -i $f
	same -l -R -i $f
	same --ts-diff -i $f
	same --ts-diff -t -i $f
	same --align-ts -i $f
	same --align-ts --ts-diff -t -l -i $f
	same --raw-ts --ts-diff -i $f
	same --raw-ts -t -i $f
done

step "combinations"
same -l --ts-diff -i $a -i $b -F sched_switch -i $c -v -F irq
same --align-ts --ts-diff -i $b -i $g --ts-offset -100000000000
same --align-ts -F sched_switch -i $a
same --align-ts --cpu 1 -i $a
same -l -t --cpu 0 -I -i $b -i $a

echo "$n reports identical to trace-cmd's"

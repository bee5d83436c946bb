#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# extract on this machine's tracefs: what an instance (-B), every
# instance (-a) and the top buffer (-t) hold, read into a file that
# trace-cmd reports as tdat does, with tracefs left as it was (events,
# tracer, tracing_on: only the pages are gone); every version and codec;
# bad options and names refused in one line, with nothing left behind.
# A buffer kept across a reboot is tested in the VM bed (tests/vm/crash).
. "$E2E/lib.sh"

tracefs_for_record

SNAP=$E2E/tracefs-snapshot
inst=tbext$$
inst2=tbext2$$
cleanup() {
	rmdir "$T/instances/$inst" "$T/instances/$inst2" 2>/dev/null
	true
}
trap cleanup EXIT

# fill NAME: sched events into instance NAME for a moment, then its
# tracing off (the events stay enabled)
fill() {
	[ -d "$T/instances/$1" ] || mkdir "$T/instances/$1" ||
		fail "cannot make instance $1"
	echo 1 >"$T/instances/$1/events/sched/enable"
	echo 1 >"$T/instances/$1/tracing_on"
	sh -c 'for i in 1 2 3 4 5; do ls / >/dev/null; done; sleep 0.2'
	echo 0 >"$T/instances/$1/tracing_on"
}

# events FILE: its event lines as trace-cmd reports them, tdat's the same
events() {
	$TDAT report -i "$1" >ours.txt 2>/dev/null || fail "report -i $1"
	assert_tc_report ours.txt -i "$1"
	tail -n +2 ours.txt
}

step "usage"
expect_exit 0 $TDAT extract --help
assert_grep "^usage: tdat extract" "$OUT"
for args in "-p function" "-O stacktrace" "--bogus" "-B" "--file-version 5" \
	    "-B $'a\nb'" "--file-version 6 --compression zstd" "stray"; do
	eval "expect_exit 2 $TDAT extract $args"
	assert_lines 1 "$ERR"
done
expect_exit 1 $TDAT extract -B no_such_instance_xyz -o none.dat
assert_lines 1 "$ERR"
assert_grep "no_such_instance_xyz" "$ERR"
assert_file_absent none.dat
assert_file_absent none.dat.rec

step "an instance: its pages, tracefs as it was"
fill $inst
n=$(grep -vc '^#' "$T/instances/$inst/trace")
[ "$n" -gt 10 ] || fail "only $n events in $inst"
"$SNAP" "$T" >before.txt
expect_exit 0 $TDAT extract -q -B $inst -o one.dat
assert_lines 0 "$ERR"
assert_file_absent one.dat.rec
"$SNAP" "$T" >after.txt
diff before.txt after.txt >&2 || fail "extract changed tracefs"
events one.dat >ev.txt
assert_eq "$n" "$(wc -l <ev.txt)" "events extracted from $inst"
assert_grep "^ *$inst: .* sched_switch: " ev.txt
# the pages are taken: nothing is left to read
assert_eq 0 "$(grep -vc '^#' "$T/instances/$inst/trace")" "events left in $inst"
expect_exit 0 $TDAT dump --options -i one.dat
assert_grep "^Buffer: $inst$" "$OUT"

step "every version and codec"
for v in "--file-version 6" "--compression none" "--compression zlib" ""; do
	fill $inst
	expect_exit 0 $TDAT extract -q $v -B $inst -o v.dat
	$TDAT report -i v.dat >ev.txt || fail "report of extract $v"
	assert_grep "sched_switch: " ev.txt
done

step "-a, -t: every instance, the top buffer too"
fill $inst
fill $inst2
expect_exit 0 $TDAT extract -q -a -o all.dat
$TDAT report -i all.dat >ev.txt
assert_grep "^ *$inst: .* sched_switch: " ev.txt
assert_grep "^ *$inst2: .* sched_switch: " ev.txt
fill $inst
expect_exit 0 $TDAT extract -q -t -B $inst -B $inst -o top.dat
expect_exit 0 $TDAT dump --options -i top.dat
assert_eq 1 "$(grep -c "^Buffer: $inst$" "$OUT")" "-B twice: the instance once"
$TDAT report -i top.dat >ev.txt
assert_grep "^ *$inst: .* sched_switch: " ev.txt

step "-s: the snapshot buffers, where the kernel keeps them"
fill $inst
if [ -e "$T/instances/$inst/per_cpu/cpu0/snapshot_raw" ]; then
	echo 1 >"$T/instances/$inst/snapshot"
	expect_exit 0 $TDAT extract -q -s -B $inst -o snap.dat
	$TDAT report -i snap.dat >ev.txt
	assert_grep "^ *$inst: .* sched_switch: " ev.txt
	echo 0 >"$T/instances/$inst/snapshot"
else
	echo "skipped the snapshot recording: this kernel keeps no snapshot" \
		"buffers (no snapshot_raw); checked that -s fails cleanly"
	expect_exit 1 $TDAT extract -q -s -B $inst -o snap.dat
	assert_lines 1 "$ERR"
	assert_grep "snapshot_raw: not there \(this kernel keeps no snapshot buffers\)$" "$ERR"
	assert_file_absent snap.dat
	assert_file_absent snap.dat.rec
fi

step "an extract left behind"
mkdir left.dat.rec
expect_exit 1 $TDAT extract -q -B $inst -o left.dat
assert_lines 1 "$ERR"
assert_grep "left\.dat\.rec exists" "$ERR"
assert_file_absent left.dat
rmdir left.dat.rec

step "a killed extract: restore makes the file of what it read"
echo 20000 >"$T/instances/$inst2/buffer_size_kb"
echo 1 >"$T/instances/$inst2/events/raw_syscalls/enable"
echo 1 >"$T/instances/$inst2/tracing_on"
dd if=/dev/zero of=/dev/null bs=1 count=200000 2>/dev/null
echo 0 >"$T/instances/$inst2/tracing_on"
before=$(grep -c ': sys_e' "$T/instances/$inst2/trace")
$TDAT extract -q -B $inst2 -o killed.dat &
pid=$!
i=0
until [ -s killed.dat.rec/manifest ] || [ $i -gt 5000 ]; do
	sleep 0.001
	i=$((i + 1))
done
kill -KILL $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
if [ -e killed.dat ]; then
	echo "skipped: extract ended before it could be killed"
else
	[ -d killed.dat.rec ] || fail "a killed extract left no killed.dat.rec/"
	expect_exit 0 $TDAT restore killed.dat
	$TDAT report -i killed.dat >ev.txt || fail "report of the restored file"
	# what was read is in the file, the rest still in the kernel; at
	# most the batch being moved at the kill (64 pages) is lost
	got=$(grep -c ': sys_e' ev.txt || true)	# (0: exit 1)
	left=$(grep -c ': sys_e' "$T/instances/$inst2/trace" || true)
	echo "    $before events: $got restored, $left left in the kernel"
	[ $((got + left)) -le "$before" ] || fail "events counted twice"
	[ $((got + left)) -ge $((before - 64 * 4096 / 16)) ] ||
		fail "$((before - got - left)) of $before events lost"
fi

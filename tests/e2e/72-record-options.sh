#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# record: trace-cmd record's options on this machine's tracefs, each with
# trace-cmd's meaning: processes (-F, -P, -c, --user), events (-v, -R,
# -i, -T, -a), trace options (-O, -d, -D), time (--date, --ts-offset),
# the recorder (-s, --poll, -r, -k, --cmdlines-size), tracers (-p, -l,
# refused by this kernel), every trace-cmd option in --help and the man
# page, and tracefs put back by "restore" after a SIGKILL.  After each
# recording every setting record may touch (tracefs-snapshot) is what it
# was before.  The tracers themselves are tested in the VM (check-vm).
. "$E2E/lib.sh"

tracefs_for_record

SNAP=$E2E/tracefs-snapshot
"$SNAP" "$T" >before.txt
cp "$T/set_event" top_events.txt
top_on=$(cat "$T/tracing_on")
top_percent=$(cat "$T/buffer_percent")
top_stack=$(cat "$T/options/stacktrace")
assert_tracefs_same() {
	"$SNAP" "$T" >after.txt
	diff before.txt after.txt >&2 || fail "tracefs changed: $1"
}

# report FILE: trace-cmd's raw report, no cpus= line.
report() { trace-cmd report -R -i "$1" 2>/dev/null | tail -n +2; }

# owners FILE ROOT: print the pids the events of FILE may belong to:
# ROOT and the children its sched_process_fork events show, recursively.
owners() {
	report "$1" | awk -v root="$2" '
		BEGIN { ok[root] = 1; print root }
		/ sched_process_fork: / {
			match($0, /parent_pid=[0-9]+/); p = substr($0, RSTART + 11, RLENGTH - 11)
			match($0, /child_pid=[0-9]+/); c = substr($0, RSTART + 10, RLENGTH - 10)
			if (p in ok && !(c in ok)) { ok[c] = 1; print c }
		}'
}

# only_from FILE PIDFILE: every event of FILE is a process of PIDFILE's,
# or a sched_switch to or from one (the kernel's pid filter keeps those).
only_from() {
	report "$1" | awk -v list="$2" '
		BEGIN { while ((getline p < list) > 0) ok[p] = 1 }
		/^ *[^ ].*\[[0-9]+\] +[0-9.]+: / {
			n++
			match($0, /-[0-9]+ +\[[0-9]+\]/)
			pid = substr($0, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", pid)
			if (pid in ok) next
			if ($0 ~ / sched_switch: /) {
				match($0, /prev_pid=[0-9]+/); pp = substr($0, RSTART + 9, RLENGTH - 9)
				match($0, /next_pid=[0-9]+/); np = substr($0, RSTART + 9, RLENGTH - 9)
				if (pp in ok || np in ok) next
			}
			print "not followed: " $0; bad = 1; exit
		}
		END { if (!bad && n < 10) { print "only " n " events"; exit 1 } exit bad }' >&2 ||
		fail "$1: events of other processes (or too few)"
}

step "--help and tdat-record(1) name every option of trace-cmd record -h"
expect_exit 0 $TDAT record --help
cp "$OUT" help.txt
sed 's/\\-/-/g' "$E2E/../../doc/tdat-record.1" >man.txt
trace-cmd record -h 2>&1 | sed -n 's/^ *\(-[a-zA-Z]\|--[a-z0-9-]*\) .*/\1/p' | sort -u >tc-opts.txt
[ "$(wc -l <tc-opts.txt)" -gt 40 ] || fail "trace-cmd record -h listed $(wc -l <tc-opts.txt) options"
while read -r opt; do
	grep -q -e "$opt\b" help.txt || fail "--help does not name $opt"
	grep -q -e "$opt\b" man.txt || fail "tdat-record(1) does not name $opt"
done <tc-opts.txt
for args in "-N host:1" "-A guest" "-t" "--profile" "--temp /tmp" "--proc-map" \
	    "--module snd" "--tsync-interval 5" "-v -B x"; do
	expect_exit 2 $TDAT record -e sched $args true
	assert_lines 1 "$ERR"
	assert_grep "not implemented" "$ERR"
done

step "-F: the command's events only; -c: its children's too"
expect_exit 0 $TDAT record -q -F -e sched:sched_process_exec -e sched:sched_process_fork \
	-e sched:sched_switch -e raw_syscalls -o f.dat \
	sh -c 'echo $$ >pid; sleep 0.1; ls >/dev/null; true'
cat pid >pids
only_from f.dat pids
if report f.dat | grep -Eq "sched_process_exec: +filename=\S*/ls "; then
	fail "-F without -c recorded a child (ls)"
fi
expect_exit 0 $TDAT record -q -F -c -e sched:sched_process_exec -e sched:sched_process_fork \
	-e sched:sched_switch -e raw_syscalls -o c.dat \
	sh -c 'echo $$ >pid; sleep 0.1; ls >/dev/null; true'
owners c.dat "$(cat pid)" >pids
[ "$(wc -l <pids)" -ge 3 ] || fail "-c: the forks of sleep and ls are not in the trace"
only_from c.dat pids
report c.dat >ev.txt
assert_grep "sched_process_exec: +filename=\S*/ls " ev.txt
assert_grep "sched_process_exec: +filename=\S*/sleep " ev.txt
assert_tracefs_same "after -F and -F -c"

step "-P (no command: until it ends) with -c"
sh -c 'sleep 1.5; for i in 1 2 3; do cat /proc/self/stat >/dev/null; done; sleep 0.2' &
bg=$!
t0=$(date +%s)
expect_exit 0 timeout 20 $TDAT record -q -P $bg -c -e sched:sched_process_exec \
	-e sched:sched_process_fork -e sched:sched_switch -e raw_syscalls -o p.dat
wait $bg || true
[ $(($(date +%s) - t0)) -lt 10 ] || fail "-P: the recording did not end with the process"
owners p.dat $bg >pids
only_from p.dat pids
report p.dat >ev.txt
assert_grep "sched_process_exec: +filename=\S*/cat " ev.txt
expect_exit 1 $TDAT record -q -P 999999999 -e sched -o gone.dat
assert_lines 1 "$ERR"
assert_tracefs_same "after -P"

step "--user runs the command as that user"
expect_exit 0 $TDAT record -q --user nobody -e sched:sched_switch -o u.dat id -u
assert_eq "$(id -u nobody)" "$(cat "$OUT")" "uid of the command"
expect_exit 2 $TDAT record -q --user no_such_user_xyz -e sched true
assert_lines 1 "$ERR"

step "-T: a kernel stack after each event"
expect_exit 0 $TDAT record -q -T -e sched:sched_process_exec -e sched:sched_switch -o t.dat \
	sh -c "cat $T/options/stacktrace >during; ls >/dev/null"
assert_eq 1 "$(cat during)" "options/stacktrace while recording"
trace-cmd report -i t.dat 2>/dev/null | awk '
	/^ *[^ =].*\[[0-9]+\] +[0-9.]+: / {
		match($0, /\[[0-9]+\]/); cpu = substr($0, RSTART, RLENGTH)
		if ($0 ~ / kernel_stack: /) {
			if (!(cpu in open) || !open[cpu]) { print "stack without event: " $0; exit 1 }
			open[cpu] = 0; stacks++
		} else {
			if (open[cpu]) { print "no stack after: " last[cpu]; exit 1 }
			open[cpu] = 1; last[cpu] = $0; events++
		}
	}
	END { if (events < 5 || stacks < events - 2) { print events " events, " stacks " stacks"; exit 1 } }' >&2 ||
	fail "-T: events without their kernel_stack"
assert_tracefs_same "after -T"

step "-v: the -e after it are disabled; -R: triggers, also on those"
expect_exit 0 $TDAT record -q -e sched -v -e 'sched:sched_stat*' -e sched_waking -o v.dat \
	sh -c "cat $T/set_event >during; sleep 0.1"
assert_grep "^sched:sched_switch$" during
if grep -q -e sched_stat -e sched_waking during; then
	fail "-v -e: the events are enabled"
fi
if report v.dat | grep -q -e "sched_stat_[a-z]*: " -e "sched_waking: "; then
	fail "-v -e: the events are in the trace"
fi
expect_exit 0 $TDAT record -q -e sched:sched_switch -R 'traceoff if prev_pid == 999999999' \
	-v -e sched:sched_process_exec -R stacktrace -o r.dat \
	sh -c "cat $T/events/sched/sched_process_exec/trigger $T/events/sched/sched_switch/trigger >during; ls >/dev/null"
assert_grep "^stacktrace" during
assert_grep "^traceoff.* if prev_pid == 999999999" during
trace-cmd report -i r.dat 2>/dev/null >ev.txt
assert_grep "=> trace_event_raw_event_sched_process_exec" ev.txt
if grep -q "sched_process_exec: " ev.txt; then
	fail "-v -e -R: the event itself was recorded"
fi
expect_exit 1 $TDAT record -q -e sched:sched_switch -R no_such_trigger -o bad.dat true
assert_lines 1 "$ERR"
assert_file_absent bad.dat
assert_tracefs_same "after -v and -R"

step "-i: missing events are a warning; -a: every format in the file"
expect_exit 0 $TDAT record -q -i -a -e sched:sched_switch -e no_such:event -o i.dat true
assert_grep "warning: -e no_such:event: no such event .*ignored" "$ERR"
trace-cmd report -E -i i.dat 2>/dev/null | grep -c "^irq:" >n.txt || true
[ "$(cat n.txt)" -gt 0 ] || fail "-a: no irq formats in the file"
expect_exit 1 $TDAT record -q -e sched:sched_switch -e no_such:event -o i2.dat true
assert_lines 1 "$ERR"
assert_file_absent i2.dat
assert_tracefs_same "after -i"

step "--date: report shows the wall clock; --ts-offset"
now=$(date +%s)
expect_exit 0 $TDAT record -q --date -e sched:sched_switch -o d.dat sleep 0.1
trace-cmd dump --options -i d.dat >opts.txt 2>&1
assert_grep "Option DATE" opts.txt
$TDAT report -i d.dat >d.txt
assert_tc_report d.txt -i d.dat
first=$(sed -n '2s/.* \([0-9]*\)\.[0-9]*: .*/\1/p' d.txt)
[ -n "$first" ] && [ $((first - now)) -ge 0 ] && [ $((first - now)) -le 10 ] ||
	fail "--date: first event at $first, recorded at $now"
expect_exit 0 $TDAT record -q --ts-offset 5000000000000 -e sched:sched_switch -o o.dat sleep 0.1
$TDAT report -i o.dat >o.txt
assert_tc_report o.txt -i o.dat
up=$(cut -d. -f1 /proc/uptime)
first=$(sed -n '2s/.* \([0-9]*\)\.[0-9]*: .*/\1/p' o.txt)
[ $((first - up)) -ge 4990 ] && [ $((first - up)) -le 5010 ] ||
	fail "--ts-offset 5000 s: first event at $first, uptime $up"
assert_tracefs_same "after --date"

step "-O, -d, --cmdlines-size, -r: set while recording, then put back"
expect_exit 0 $TDAT record -q -O nooverwrite -O sym-offset -d --cmdlines-size 10000 -r 10 \
	-e sched:sched_switch -o O.dat sh -c "cat $T/options/overwrite $T/options/sym-offset \
	$T/options/function-trace $T/saved_cmdlines_size >during; ps -L -o rtprio= -p \$PPID >>during"
assert_eq "0 1 0" "$(head -n 3 during | tr '\n' ' ' | sed 's/ $//')" "-O, -d"
# (the kernel rounds the size up to whole pages of entries)
[ "$(sed -n 4p during)" -ge 10000 ] || fail "--cmdlines-size 10000: $(sed -n 4p during)"
[ "$(tail -n +5 during | grep -c '^ *10$')" -ge 1 ] || fail "-r 10: no reader at priority 10"
expect_exit 1 $TDAT record -q -O no_such_option -e sched -o bad.dat true
assert_lines 1 "$ERR"
assert_file_absent bad.dat
# -D also turns /proc/sys/kernel/ftrace_enabled off, which some kernels
# (this one) refuse: then one line and nothing changed.
rc=0
$TDAT record -q -D -e sched:sched_switch -o D.dat cat /proc/sys/kernel/ftrace_enabled >D.out 2>D.err || rc=$?
case $rc in
0) assert_eq 0 "$(cat D.out)" "ftrace_enabled with -D" ;;
1) assert_lines 1 D.err; assert_grep "^tdat record: -D: the kernel refused it" D.err ;;
*) fail "-D: exit $rc" ;;
esac
assert_tracefs_same "after -O, -d, -D"

step "-s and --poll: how often the readers look"
if command -v strace >/dev/null; then
	# (LeakSanitizer cannot run under ptrace)
	nolsan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	ASAN_OPTIONS=$nolsan strace -f -e trace=ppoll -o s.st $TDAT record -q -s 20000 --poll \
		-e sched:sched_switch -o s.dat sleep 1 || fail "record -s --poll under strace failed"
	ASAN_OPTIONS=$nolsan strace -f -e trace=ppoll -o s2.st $TDAT record -q \
		-e sched:sched_switch -o s2.dat sleep 1 || fail "record under strace failed"
	fast=$(grep -c "ppoll(\[{fd=-1}.*tv_nsec=20000000}" s.st || true)
	slow=$(grep -c "ppoll(" s2.st || true)
	[ "$fast" -ge 40 ] || fail "-s 20000 --poll: $fast sleeps of 20 ms without the ring buffer"
	[ "$slow" -le 30 ] || fail "default: $slow reader wakeups in 1 s"
	if grep -q "ppoll(\[{fd=-1}" s2.st; then
		fail "without --poll the readers do not wait on the ring buffer"
	fi
else
	echo "(no strace: -s and --poll not checked)"
fi
assert_tracefs_same "after -s"

step "--flush-interval: the readers' files go on disk while recording"
if command -v strace >/dev/null; then
	nolsan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	# syncs PREFIX STRACE: fdatasync calls per file of PREFIX.rec/
	syncs() {
		grep -o "fdatasync([0-9]*<[^>]*$1\\.rec/[^>]*>" "$2" |
			sed 's/.*\///; s/>$//' | sort | uniq -c
	}
	# One CPU only (the first this shell may run on), busy every 50 ms
	# for 2 s (an idle CPU's file does not change and is not synced);
	# the other CPUs' files, if any, never change.
	c0=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')
	busy="taskset -c $c0 sh -c 'i=0; while [ \$i -lt 40 ]; do sleep 0.05; i=\$((i+1)); done'"
	for f in 1:"" 2:"--flush-interval 0.2" 0:"--flush-interval 0"; do
		n=${f%%:*}
		ASAN_OPTIONS=$nolsan strace -f -y -e trace=fdatasync,ppoll \
			-o f$n.st $TDAT record -q ${f#*:} -M "$(printf %x $((1 << c0)))" \
			-e sched:sched_switch -o f$n.dat sh -c "$busy" ||
			fail "record ${f#*:} under strace failed"
	done
	# synced every half second (default 1 s), or every 0.1 s; none with 0
	[ "$(syncs f1.dat f1.st | awk -v c=cpu$c0 '$2 == c { print $1 }')" -ge 3 ] ||
		fail "default: CPU $c0's file synced $(syncs f1.dat f1.st | tr '\n' ' ')"
	[ "$(syncs f2.dat f2.st | awk -v c=cpu$c0 '$2 == c { print $1 }')" -ge 10 ] ||
		fail "--flush-interval 0.2: CPU $c0's file synced $(syncs f2.dat f2.st | tr '\n' ' ')"
	[ "$(syncs f2.dat f2.st | awk -v c=cpu$c0 '$2 != c && $2 != "synced" && $1 > 1' | wc -l)" = 0 ] ||
		fail "--flush-interval 0.2: unchanged files synced again: $(syncs f2.dat f2.st | tr '\n' ' ')"
	# the rounds' sizes (synced): after the files, only when one grew
	[ "$(syncs f2.dat f2.st | awk '$2 == "synced" { print $1 }')" -ge 5 ] &&
	[ "$(syncs f2.dat f2.st | awk '$2 == "synced" { print $1 }')" -le \
	  "$(syncs f2.dat f2.st | awk -v c=cpu$c0 '$2 == c { print $1 }')" ] ||
		fail "--flush-interval 0.2: rounds written $(syncs f2.dat f2.st | tr '\n' ' ')"
	[ -z "$(syncs f0.dat f0.st)" ] || fail "--flush-interval 0 synced: $(syncs f0.dat f0.st)"
	# the readers look every 0.1 s for a sync every 0.2 s
	grep -q "ppoll(\\[{fd=[0-9]*<[^>]*trace_pipe_raw>.*tv_nsec=100000000}" f2.st ||
		fail "--flush-interval 0.2: no reader sleeps 0.1 s"
	for n in 1 2 0; do
		assert_eq "$(trace-cmd report -i f$n.dat 2>/dev/null | grep -c sched_switch)" \
			"$($TDAT report -i f$n.dat | grep -c sched_switch)" "f$n.dat as trace-cmd reports it"
	done
	expect_exit 2 $TDAT record --flush-interval 1.5x -o x.dat true
	assert_grep "^tdat record: --flush-interval 1.5x: not a number of seconds" "$ERR"
	expect_exit 2 $TDAT record --flush-interval 3601 -o x.dat true
	assert_file_absent x.dat.rec
else
	echo "(no strace: --flush-interval not checked)"
fi
assert_tracefs_same "after --flush-interval"

step "record's own threads are left out of the events, as trace-cmd's are; --no-filter keeps them"
# Run as "selfrec" (a link to tdat: the applet is the first argument),
# so that its threads have a name no other process on the machine has.
# own_syscalls FILE: sys_enter/sys_exit lines of its threads (its
# command is named by its exec).
ln -sf "$(realpath "$TDAT")" selfrec
own_syscalls() {
	report "$1" | grep -E '^ *selfrec-[0-9]+ .* sys_(enter|exit)' | wc -l
}
for nf in "" --no-filter; do
	expect_exit 0 ./selfrec record -q $nf -e raw_syscalls -e sched:sched_switch \
		-o self$nf.dat sh -c 'dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null'
	report "self$nf.dat" | grep -q ' dd-[0-9]* .*sys_enter\| sys_enter' ||
		fail "record $nf: no syscalls recorded"
done
[ "$(own_syscalls self.dat)" = 0 ] ||
	fail "record's own syscalls were recorded: $(own_syscalls self.dat)"
[ "$(own_syscalls self--no-filter.dat)" -gt 0 ] ||
	fail "--no-filter: record's own syscalls were left out"
assert_tracefs_same "after leaving record out"

step "-k: the tracing state is kept (tracing_on goes off)"
expect_exit 0 $TDAT record -q -k -T -e sched:sched_switch -o k.dat sleep 0.1
assert_eq 0 "$(cat $T/tracing_on)" "tracing_on after -k"
assert_eq 1 "$(cat $T/options/stacktrace)" "options/stacktrace after -k"
assert_grep "^sched:sched_switch$" $T/set_event
# record's own buffer_percent is not tracing state: put back
assert_eq "$top_percent" "$(cat $T/buffer_percent)" "buffer_percent after -k"
echo "$top_stack" >$T/options/stacktrace
: >$T/set_event
while read -r e; do echo "$e" >>$T/set_event; done <top_events.txt
echo "$top_on" >$T/tracing_on
assert_tracefs_same "after -k and putting it back by hand"

step "-p and -l: a tracer this kernel refuses changes nothing"
expect_exit 1 $TDAT record -q -p no_such_tracer -e sched -o p.dat true
assert_lines 1 "$ERR"
assert_grep "no such tracer" "$ERR"
if grep -qw function $T/available_tracers; then
	rc=0
	$TDAT record -q -p function -e sched -o pf.dat true >pf.out 2>pf.err || rc=$?
	[ $rc = 0 ] || { assert_lines 1 pf.err; assert_grep "refused" pf.err; assert_file_absent pf.dat; }
fi
rc=0
$TDAT record -q -l schedule -e sched -o pl.dat true >pl.out 2>pl.err || rc=$?
[ $rc = 0 ] || { assert_lines 1 pl.err; assert_grep "^tdat record: -l schedule: " pl.err; }
assert_file_absent p.dat.rec
assert_tracefs_same "after a refused -p and -l"

step "a journal alone (killed before tracing started): restore puts it back"
mkdir early.dat.rec
so=$(cat $T/options/sym-offset)
sa=$(cat $T/options/sym-addr)
printf 'tdat-tracefs 1 pid 1 keep 0\nsave\t0\t%s\toptions/sym-offset\t%s\\n\n' "$T" "$so" \
	>early.dat.rec/tracefs
# a last line cut by the kill: its change never happened, it is not undone
printf 'save\t0\t%s\toptions/sym-addr\t%s\\n' "$T" "$((1 - sa))" >>early.dat.rec/tracefs
echo $((1 - so)) >$T/options/sym-offset
expect_exit 1 $TDAT restore early.dat
assert_grep "tracefs put back" "$ERR"
assert_grep "no manifest: the recording was killed before tracing started" "$ERR"
assert_eq "$so $sa" "$(cat $T/options/sym-offset) $(cat $T/options/sym-addr)" "options after restore"
assert_file_absent early.dat.rec/tracefs
assert_tracefs_same "after restoring a journal alone"

step "a journal of another boot is left alone; an empty one is nothing to put back"
# After a panic or power cut the journal names the boot it was written
# in (the kernel's boot_id): tracefs now is a new one, the recording
# changed nothing in it.  And its first line may never have reached the
# disk: an empty journal.
boot=$(cat /proc/sys/kernel/random/boot_id)
for kind in other empty same; do
	mkdir $kind.dat.rec
	case $kind in
	other) printf 'tdat-tracefs 1 pid 1 keep 0 boot 0f0f0f0f-1111-2222-3333-444444444444\nsave\t0\t%s\toptions/sym-offset\t%s\\n\n' "$T" "$((1 - so))" ;;
	empty) : ;;
	same) printf 'tdat-tracefs 1 pid 1 keep 0 boot %s\nsave\t0\t%s\toptions/sym-offset\t%s\\n\n' "$boot" "$T" "$((1 - so))" ;;
	esac >$kind.dat.rec/tracefs
done
expect_exit 1 $TDAT restore other.dat
assert_grep "tracefs left alone: the machine has restarted since the recording \(other.dat.rec/tracefs names another boot\)" "$ERR"
assert_eq "$so" "$(cat $T/options/sym-offset)" "sym-offset after a journal of another boot"
assert_file_absent other.dat.rec/tracefs
expect_exit 1 $TDAT restore empty.dat
assert_lines 1 "$ERR"
assert_grep "no manifest" "$ERR"
assert_file_absent empty.dat.rec/tracefs
# the same boot: put back (what it says sym-offset held before)
expect_exit 1 $TDAT restore same.dat
assert_grep "tracefs put back" "$ERR"
assert_eq "$((1 - so))" "$(cat $T/options/sym-offset)" "sym-offset after a journal of this boot"
echo "$so" >$T/options/sym-offset
# what record writes names this boot
$TDAT record -q -e sched:sched_switch -o jb.dat sh -c 'head -n 1 jb.dat.rec/tracefs >jb.head'
assert_grep "^tdat-tracefs 1 pid [0-9]+ keep 0 boot $boot\$" jb.head
assert_tracefs_same "after journals of other boots"

step "SIGKILL, then restore puts tracefs back"
# The top buffer follows this shell (-P -c): set_event_pid, event-fork.
inst=tbopt$$
$TDAT record -q --compression none -O nooverwrite -T -P $$ -c -e sched:sched_switch \
	-R 'traceoff if prev_pid == 999999999' -B $inst -e sched -e raw_syscalls -T \
	-o kill.dat sh -c 'echo $$ >kill.pid; exec sleep 30' &
pid=$!
i=0
until [ -s kill.dat.rec/manifest ] && [ "$(cat kill.dat.rec/$inst.cpu* 2>/dev/null | head -c 8192 | wc -c)" = 8192 ]; do
	i=$((i + 1)); [ $i -lt 100 ] || fail "no pages on disk after 10 s"
	dd if=/dev/zero of=/dev/null bs=1 count=2000 2>/dev/null
	sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null || true
kill "$(cat kill.pid)"	# the command lives on
"$SNAP" "$T" >killed.txt
if diff -q before.txt killed.txt >/dev/null; then
	fail "tracefs is unchanged after SIGKILL (nothing to test)"
fi
expect_exit 0 $TDAT restore kill.dat
assert_grep "tracefs put back as it was before the recording" "$ERR"
assert_tracefs_same "after SIGKILL and restore"
trace-cmd report -i kill.dat 2>/dev/null >ev.txt
assert_grep "^ *$inst: .*kernel_stack" ev.txt
# A second restore has no tracefs journal left to apply.
expect_exit 0 $TDAT restore -o again.dat kill.dat
if grep -q "tracefs put back" "$ERR"; then
	fail "the journal was applied twice"
fi
step "a machine that died: every CPU's file is cut at the last round on disk"
# The syncer's rounds (OUT.rec/synced, two slots with a CRC) give every
# file's size at one moment.  In this boot restore takes every byte (the
# page cache holds them); once the slots name another boot (what a panic
# or a power cut leaves), the files are cut there, the newest whole slot
# (a torn one is passed over), as if the files had ended there.
$TDAT record -q --flush-interval 0.2 -e sched:sched_switch -o die.dat \
	sh -c 'exec sleep 30' &
pid=$!
i=0
until [ "$(python3 "$E2E/synced-slots" die.dat.rec/synced 2>/dev/null | wc -l)" -ge 2 ]; do
	i=$((i + 1)); [ $i -lt 100 ] || fail "no two rounds on disk after 10 s"
	sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null || true
pkill -f 'exec sleep 30' 2>/dev/null || true
python3 "$E2E/synced-slots" die.dat.rec/synced >slots.txt || fail "synced: $(cat slots.txt)"
assert_lines 2 slots.txt
for d in cut torn whole; do cp -r die.dat.rec $d.dat.rec; done
# what reached the disk after the last round as the machine died: a
# page of the kernel's, which a hole would follow
for f in cut.dat.rec/cpu* torn.dat.rec/cpu*; do
	head -c 4096 $f >page && cat page >>$f
done
# whole: this boot's recording, every byte kept
expect_exit 0 $TDAT restore -o whole.dat die.dat
if grep -q "cut at the last round" "$ERR"; then
	fail "a recording of this boot was cut"
fi
# cut: the newest slot, now of another boot; torn: that slot torn too
python3 "$E2E/synced-slots" --boot 0f0f0f0f-1111-2222-3333-444444444444 cut.dat.rec/synced
python3 "$E2E/synced-slots" --boot 0f0f0f0f-1111-2222-3333-444444444444 --tear torn.dat.rec/synced
for d in cut torn; do
	# what each file held at the chosen round, alone
	mkdir $d-ref.dat.rec
	cp $d.dat.rec/head.dat $d.dat.rec/manifest $d.dat.rec/output $d-ref.dat.rec/
	python3 "$E2E/synced-slots" $d.dat.rec/synced | tail -n 1 |
		tr ' ' '\n' | sed -n 's/^\(cpu[0-9]*\)=\([0-9]*\)$/\1 \2/p' |
		while read f n; do head -c "$n" $d.dat.rec/$f >$d-ref.dat.rec/$f; done
	expect_exit 0 $TDAT restore $d-ref.dat
	expect_exit 0 $TDAT restore $d.dat
	assert_grep "cut at the last round the disk completed \(round [0-9]+\): [0-9]+ bytes after it dropped" "$ERR"
	assert_same $d-ref.dat $d.dat
done
newest=$(tail -n 1 slots.txt | sed 's/^round \([0-9]*\).*/\1/')
assert_grep "round $((newest - 1))\)" "$ERR"
# a FIFO planted as synced is not ours: not waited on, nothing cut
cp -r die.dat.rec fifo.dat.rec
rm fifo.dat.rec/synced
mkfifo fifo.dat.rec/synced
expect_exit 0 timeout 20 $TDAT restore -o fifo.dat fifo.dat
if grep -q "cut at the last round" "$ERR"; then
	fail "a FIFO as synced cut the files"
fi
assert_tracefs_same "after the cuts"

echo "record options: all checks passed"

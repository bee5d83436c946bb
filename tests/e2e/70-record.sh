#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# record: real recordings through this machine's tracefs.  Every version
# and codec, an instance, filters, clock, CPU mask, size limit, a
# command's exit status, SIGINT, SIGKILL then restore; Debian's trace-cmd
# reads every result (but zlib files: its build has no zlib), and the
# tracefs control files record touches are the same before and after.
. "$E2E/lib.sh"

tracefs_for_record

# snapshot: every setting record may change, top buffer and instances.
snapshot() { "$E2E/tracefs-snapshot" "$T"; }
snapshot >before.txt

# assert_tracefs_same WHEN
assert_tracefs_same() {
	snapshot >after.txt
	diff before.txt after.txt >&2 || fail "tracefs changed: $1"
}

# wait_for WHAT CMD...: until CMD succeeds (20 s at most).
wait_for() {
	local what=$1 i=0
	shift
	until "$@"; do
		i=$((i + 1))
		[ $i -lt 200 ] || fail "waited 20 s for $what"
		sleep 0.1
	done
}

# version FILE, codec FILE: from the file's header.
version() { head -c 11 "$1" | tail -c 1; }
codec() { head -c 22 "$1" | tail -c 4; }

# events FILE: event lines of trace-cmd's report (tdat's for zlib).
events() {
	if [ "$(version "$1")" = 7 ] && [ "$(codec "$1")" = zlib ]; then
		$TDAT report -i "$1" | tail -n +2
	else
		trace-cmd report -i "$1" 2>/dev/null | tail -n +2
	fi
}

step "usage"
expect_exit 0 $TDAT record --help
assert_grep "^usage: tdat record" "$OUT"
for args in "" "-e" "-e sched --bogus" "-f x -e sched" "-e sched --file-version 5" \
	    "-e sched --file-version 6 --compression zstd" "-e sched -B inst"; do
	expect_exit 2 $TDAT record $args
	assert_lines 1 "$ERR"
done
expect_exit 2 $TDAT record -B $'a\nb\033[1m'
assert_lines 1 "$ERR"
expect_exit 1 $TDAT record -q -e no_such_system_xyz -o bad.dat true
assert_grep "no_such_system_xyz" "$ERR"
assert_file_absent bad.dat
assert_file_absent bad.dat.rec
assert_tracefs_same "after a refused event"

step "every version and codec"
for v in "--file-version 6" "--compression none" "--compression zlib" \
	 "--compression zstd"; do
	expect_exit 0 $TDAT record -q -e sched -e irq -o v.dat $v sleep 0.2
	assert_file_absent v.dat.rec
	events v.dat >ev.txt
	assert_grep "sched_switch: " ev.txt
	case $v in
	*6) assert_eq 6 "$(version v.dat)" "version with $v" ;;
	*) assert_eq 7 "$(version v.dat)" "version with $v"
	   assert_eq "${v#--compression }" "$(codec v.dat)" "codec with $v" ;;
	esac
	case $v in
	*6)	trace-cmd report --stat -i v.dat >stat.txt 2>&1
		assert_grep "^overrun: [0-9]+$" stat.txt
		assert_grep "^CPU: 1$" stat.txt ;;
	*zstd)	trace-cmd report --uname -i v.dat >uname.txt 2>&1
		assert_grep "$(uname -r)" uname.txt ;;
	esac
done
assert_tracefs_same "after the version and codec recordings"

step "instance, filters, clock (v7 and v6)"
for v in "" "--file-version 6"; do
	inst=tbrec$$
	expect_exit 0 $TDAT record -q $v -C global -b 1024 -e irq -B $inst \
		-e sched:sched_switch -f 'prev_pid != 0' -e sched:sched_wakeup \
		-o i.dat sleep 0.3
	[ ! -d "$T/instances/$inst" ] || fail "instance $inst was left behind"
	trace-cmd report -R -i i.dat 2>/dev/null >raw.txt
	grep "^ *$inst: .* sched_switch: " raw.txt >switch.txt ||
		fail "no sched_switch in instance $inst ($v)"
	if grep -q " prev_pid=0 " switch.txt; then
		fail "the filter prev_pid != 0 let prev_pid=0 through ($v)"
	fi
	assert_grep "^ *$inst: .* sched_wakeup: " raw.txt
	if grep -v "^ *$inst: " raw.txt | grep -q "sched_"; then
		fail "sched events in the top buffer, which only had irq ($v)"
	fi
	trace-cmd dump --options -i i.dat >opts.txt 2>&1
	assert_grep "\[global\]" opts.txt
	assert_grep "^Buffer: $inst$" opts.txt
	assert_tracefs_same "after an instance with filters ($v)"
done

step "CPU mask, size limit, sub-buffer size"
# (and a command's exit status becomes record's; and a glob as -e)
expect_exit 3 $TDAT record -q -M 1 -e 'sched:sched_sw*' -o m.dat sh -c \
	'for i in 1 2 3 4 5 6 7 8; do cat /proc/stat >/dev/null; done; sleep 0.2; exit 3'
assert_grep "sh exited with status 3" "$ERR"
events m.dat >ev.txt
assert_grep "\[000\]" ev.txt
if grep -q "\[001\]" ev.txt; then
	fail "-M 1 recorded CPU 1"
fi
if grep -v " sched_switch: " ev.txt | grep -q .; then
	fail "-e 'sched:sched_sw*' recorded other events"
fi
expect_exit 0 $TDAT record -q -m 16 --compression none -e sched -e raw_syscalls \
	-o lim.dat dd if=/dev/zero of=/dev/null bs=1 count=100000
trace-cmd report --stat -i lim.dat 2>&1 | sed -n 's/^ *\([0-9]*\) bytes in size.*/\1/p' >sizes.txt
[ -s sizes.txt ] || fail "-m 16: no CPU sizes in report --stat"
while read -r n; do
	[ "$n" -le $((24 * 1024)) ] || fail "-m 16: a CPU kept $n bytes"
done <sizes.txt
# Some kernels refuse root a new sub-buffer size (EPERM), others allow
# it: probed by writing 8 and putting the old size back.  Where it is
# refused, record must say so in one line, exit 1, put back every file
# and leave no output.
subbuf=$T/buffer_subbuf_size_kb
if [ ! -e "$subbuf" ]; then
	echo "skipped --subbuf-size: this kernel has no $subbuf"
elif old=$(cat "$subbuf") && (echo 8 >"$subbuf") 2>/dev/null; then
	echo "$old" >"$subbuf" || fail "cannot put $subbuf back to $old"
	expect_exit 0 $TDAT record -q --subbuf-size 8 -e sched -o sb.dat sleep 0.2
	ps=$(od -An -tu4 -j14 -N4 sb.dat | tr -d ' ')
	assert_eq 8192 "$ps" "page size with --subbuf-size 8"
	events sb.dat >ev.txt
	assert_grep "sched_switch: " ev.txt
else
	echo "skipped the 8 KiB recording: this kernel refuses root a new" \
		"$subbuf; checked that record fails cleanly instead"
	expect_exit 1 $TDAT record -q --subbuf-size 8 -e sched -o sb.dat sleep 0.2
	assert_lines 1 "$ERR"
	assert_grep "buffer_subbuf_size_kb: cannot write \"8\": " "$ERR"
	assert_file_absent sb.dat
	assert_file_absent sb.dat.rec
fi
assert_tracefs_same "after -M, -m, --subbuf-size"

step "writes the kernel refuses"
# Machines of one kind differ in what tracefs lets root write.  Here a
# file refuses every write as such a kernel's does: in a mount namespace
# of the command alone, a read-only bind mount of a copy of the file
# lies over it.  A recording does without buffer_percent and without
# leaving its own threads out (one warning each); --subbuf-size fails
# cleanly; tracefs is put back either way.
# refusing FILE... -- CMD...: CMD with each tracefs FILE refusing writes.
refusing() {
	local s="set -e" f

	while [ "$1" != -- ]; do
		cat "$T/$1" >"ro.$1"
		f=$T/$1
		s="$s; mount --bind '$PWD/ro.$1' '$f'"
		s="$s; mount -o remount,ro,bind '$f'"
		shift
	done
	shift
	unshare -m sh -c "$s; exec \"\$@\"" sh "$@"
}
if ! refusing buffer_percent -- true 2>/dev/null; then
	echo "skipped: no read-only bind mounts over tracefs files here (unshare -m)"
else
	expect_exit 0 refusing buffer_percent set_event_notrace_pid -- \
		$TDAT record -q -e sched -o ro.dat sleep 0.2
	assert_lines 2 "$ERR"
	assert_grep "^tdat record: warning: .*/buffer_percent: cannot (open|write .*): Read-only file system; readers wake as the kernel's setting says$" "$ERR"
	assert_grep "^tdat record: warning: .*/set_event_notrace_pid: cannot (open|write .*): Read-only file system; record's own threads stay in the events$" "$ERR"
	events ro.dat >ev.txt
	assert_grep "sched_switch: " ev.txt
	assert_tracefs_same "after refused buffer_percent and set_event_notrace_pid"
	if [ -e "$T/buffer_subbuf_size_kb" ]; then
		expect_exit 1 refusing buffer_subbuf_size_kb -- \
			$TDAT record -q --subbuf-size 8 -e sched -o ro2.dat sleep 0.2
		assert_lines 1 "$ERR"
		assert_grep "buffer_subbuf_size_kb: cannot (open|write \"8\"): Read-only file system$" "$ERR"
		assert_file_absent ro2.dat
		assert_file_absent ro2.dat.rec
		assert_tracefs_same "after a refused --subbuf-size"
	fi
fi

step "lost events: per-CPU stats and the missed-event markers"
expect_exit 0 $TDAT record -q -b 16 -e sched -e raw_syscalls -o lost.dat \
	dd if=/dev/zero of=/dev/null bs=1 count=60000
lost=$(trace-cmd report --stat -i lost.dat 2>/dev/null |
       awk '/^overrun:/ { s += $NF } END { print s + 0 }')
if [ "$lost" -gt 0 ]; then
	trace-cmd report -i lost.dat 2>/dev/null >ev.txt
	assert_grep "^CPU:[0-9]+ \[([0-9]+ )?EVENTS DROPPED\]$" ev.txt
else
	echo "no event was lost with a 16 KiB buffer: markers not checked"
fi

step "under load: readers that catch up with the kernel"
# At -b 256 a reader empties the ring buffer and takes the page the
# kernel is filling; with record's own syscalls filtered out such a page
# can hold nothing but their padding, and must not reach the file (the
# assembly would warn "empty page").  Every event is there or counted
# lost: dd makes 4 raw_syscalls events a byte.
expect_exit 0 $TDAT record -q -b 256 -e raw_syscalls -o load.dat \
	sh -c 'dd if=/dev/zero of=/dev/null bs=1 count=100000 2>/dev/null'
assert_lines 0 "$ERR"
lost=$(trace-cmd report --stat -i load.dat 2>/dev/null |
       awk '/^overrun:/ { s += $NF } END { print s + 0 }')
n=$(trace-cmd report -i load.dat 2>/dev/null | grep -cE " sys_(enter|exit): ")
[ $((n + lost)) -ge 400000 ] ||
	fail "under load: $n events and $lost lost, not the 400000 dd made"

step "a command that cannot run"
expect_exit 127 $TDAT record -q -e sched:sched_switch -o c.dat /no/such/command
assert_grep "/no/such/command: cannot run" "$ERR"
assert_tracefs_same "after commands"

step "SIGINT and SIGTERM end a recording without a command"
for sig in INT TERM; do
	$TDAT record -e sched -o s.dat >s.out 2>s.err &
	pid=$!
	wait_for "tracing to start" grep -q "Hit Ctrl" s.err
	sleep 0.3
	kill -$sig $pid
	rc=0
	wait $pid || rc=$?
	[ $rc = 0 ] || { cat s.err >&2; fail "SIG$sig: record exited $rc"; }
	assert_grep "Hit Ctrl\^C to stop recording" s.err
	events s.dat >ev.txt
	assert_grep "sched_switch: " ev.txt
	assert_tracefs_same "after SIG$sig"
done

step "SIGKILL, then restore"
inst=tbkill$$
$TDAT record -q --compression none -B $inst -e sched -e raw_syscalls -o k.dat &
pid=$!
wait_for "pages on disk" sh -c "cat k.dat.rec/$inst.cpu* 2>/dev/null | head -c 20000 | wc -c | grep -q 20000"
dd if=/dev/zero of=/dev/null bs=1 count=20000 2>/dev/null
sleep 0.6
kill -KILL $pid
wait $pid 2>/dev/null || true
wait
# The recorder was killed: its instance is still there.
[ -d "$T/instances/$inst" ] || fail "instance $inst gone after SIGKILL"
[ -f k.dat.rec/manifest ] || fail "no k.dat.rec/manifest after SIGKILL"
[ -f k.dat.rec/head.dat ] || fail "no k.dat.rec/head.dat after SIGKILL"
raw=0
for f in k.dat.rec/$inst.cpu*; do
	raw=$((raw + $(stat -c %s "$f") / 4096 * 4096))
done
[ $raw -gt 0 ] || fail "no page reached the disk in 1.5 s"
rc=0
$TDAT restore k.dat >r.out 2>r.err || rc=$?
[ $rc = 0 ] || { cat r.err >&2; fail "restore k.dat exited $rc"; }
# restore put tracefs back from k.dat.rec/tracefs: the instance is gone.
assert_tracefs_same "after SIGKILL and restore"
events k.dat >ev.txt
assert_grep "^ *$inst: .*sys_(enter|exit)" ev.txt
got=$(trace-cmd dump --summary -i k.dat 2>&1 |
      sed -n 's/.* \([0-9]*\) bytes flyrecord data.*/\1/p')
assert_eq "$raw" "$got" "bytes of whole pages restored"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 31-outputs: outputs nothing can be planted at, never half-written, and
# cleaned up on signals (issue 12, points 5 to 7).
#
# Planted symlinks (at the old ".OUT.tmp-PID" name, at OUT) are never
# written through; while an output is written no name for it exists;
# -o onto a device node or a directory is refused and leaves it alone;
# a FIFO and /dev/stdout get the file; a missing or read-only directory
# gives one line.  convert, merge, split and restore are stopped at
# several moments (found through /proc/PID, not by sleeping), sent
# SIGINT, SIGTERM, SIGHUP or SIGKILL, and must die of that signal
# leaving no temporary file and no partial output; split removes the
# pieces it had finished (held unnamed until the last is written, so
# SIGKILL leaves none either).
. "$E2E/lib.sh"
shopt -s nullglob dotglob

v6=$FIX/v6-sched-irq.dat
sums=$(sha256sum "$FIX"/*.dat)
mkdir out in
$TDAT convert -q -i "$v6" -o ref.dat || fail "cannot make ref.dat"

# assert_empty DIR WHAT: nothing at all in DIR (dot files included).
assert_empty() {
	local left=("$1"/*)

	[ ${#left[@]} -eq 0 ] || fail "$2: left ${left[*]}"
}

# assert_regular FILE: a regular file, not a symlink.
assert_regular() {
	[ -f "$1" ] && [ ! -L "$1" ] || fail "$1 is not a regular file"
}

step "a symlink planted at the old temporary name .OUT.tmp-PID is not followed"
echo precious >victim
# exec keeps the shell's PID, so $$ is the PID convert runs as
bash -c 'ln -s victim .out.dat.tmp-$$ && exec "$0" convert -q -i "$1" -o out.dat' \
	"$TDAT" "$v6" || fail "convert failed"
assert_eq precious "$(cat victim)" "the link's target"
assert_regular out.dat
assert_same ref.dat out.dat
rm -f .out.dat.tmp-*

step "a symlink at OUT is replaced, never written through (dangling too)"
ln -s victim link.dat
ln -s nosuch dangling.dat
expect_exit 0 $TDAT convert -q -i "$v6" -o link.dat
expect_exit 0 $TDAT convert -q -i "$v6" -o dangling.dat
assert_eq precious "$(cat victim)" "the link's target"
assert_file_absent nosuch
assert_regular link.dat
assert_regular dangling.dat
assert_same ref.dat link.dat

step "OUT is replaced by a new file: a hard link to the old one keeps it"
ln out.dat hard.dat
expect_exit 0 $TDAT convert -q -i "$v6" -o out.dat --file-version 6
cmp -s out.dat ref.dat && fail "out.dat was not rewritten"
assert_same ref.dat hard.dat
rm -f out.dat hard.dat link.dat dangling.dat

step "-o onto a character device node: refused, the node stays"
if mknod null c 1 3 2>/dev/null; then
	for a in "convert -i $v6" "merge $v6" "split -i $v6" "restore $v6"; do
		expect_exit 1 $TDAT $a -o null
		assert_lines 1 "$ERR"
		assert_grep "^tdat [a-z]+: null: not a regular file \(a character device\); refusing to replace it$" "$ERR"
		[ -c null ] || fail "$a -o null replaced the device node"
	done
	rm -f null
else
	echo "(mknod is not permitted here: device node not checked)"
fi

step "-o onto a directory: refused in one line before any work"
mkdir adir
expect_exit 1 $TDAT convert -i "$v6" -o adir
assert_lines 1 "$ERR"
assert_grep "^tdat convert: adir: not a regular file \(a directory\); refusing to replace it$" "$ERR"
[ -d adir ] || fail "adir is gone"
rmdir adir

step "-o onto a FIFO: the file goes through it, the FIFO stays"
mkfifo fifo
timeout 60 cat fifo >from-fifo &
reader=$!
expect_exit 0 $TDAT convert -q -i "$v6" -o fifo
wait $reader || fail "the FIFO's reader failed"
[ -p fifo ] || fail "the FIFO was replaced"
assert_same ref.dat from-fifo
rm -f fifo from-fifo

step "-o to a link into /proc/self/fd (what /dev/stdout is): standard output"
# a link of our own first: old code would have replaced it, not /dev/stdout
ln -s /proc/self/fd/1 my-stdout
$TDAT convert -q -i "$v6" -o my-stdout | cat >piped.dat
[ -L my-stdout ] || fail "my-stdout was replaced"
assert_same ref.dat piped.dat
$TDAT convert -q -i "$v6" -o /dev/stdout | cat >piped.dat
assert_same ref.dat piped.dat
$TDAT merge -q -o /dev/fd/1 "$v6" | cat >piped.dat
$TDAT merge -q -o merged.dat "$v6"
assert_same merged.dat piped.dat
$TDAT convert -q -i "$v6" -o /dev/stdout >redirected.dat
assert_same ref.dat redirected.dat
[ -L /dev/stdout ] || fail "/dev/stdout is no longer a symlink"
trace-cmd report -i redirected.dat >r1.txt 2>/dev/null
trace-cmd report -i ref.dat >r2.txt 2>/dev/null
assert_same r2.txt r1.txt
rm -f my-stdout piped.dat redirected.dat merged.dat r1.txt r2.txt

step "-o /dev/stdout on a terminal: refused, nothing printed"
python3 - "$TDAT" "$v6" <<'EOF' >tty.txt
import os, pty, subprocess, sys
m, s = pty.openpty()
r = subprocess.run([sys.argv[1], "convert", "-q", "-i", sys.argv[2], "-o",
                    "/dev/stdout"], stdout=s, stderr=subprocess.PIPE)
os.set_blocking(m, False)
try:
    n = len(os.read(m, 65536))
except BlockingIOError:
    n = 0
print(r.returncode, n, r.stderr.decode().strip())
EOF
assert_grep "^1 0 tdat convert: /dev/stdout: is a terminal; refusing to write a binary file to it$" tty.txt

step "a missing or read-only directory: one line, exit 1"
expect_exit 1 $TDAT convert -i "$v6" -o nodir/x.dat
assert_lines 1 "$ERR"
assert_grep "^tdat convert: nodir/x.dat: cannot create: No such file or directory$" "$ERR"
mkdir ro
if mount --bind ro ro 2>/dev/null; then
	if mount -o remount,ro,bind ro 2>/dev/null; then
		expect_exit 1 $TDAT convert -i "$v6" -o ro/x.dat
		assert_lines 1 "$ERR"
		assert_grep "^tdat convert: ro/x.dat: cannot create: Read-only file system$" "$ERR"
	fi
	umount ro
else
	echo "(no bind mount here: read-only directory not checked)"
fi
rmdir ro

# ---- signals ----

tdat_exe=$(readlink -f "$TDAT")
pid=
rc=


# Size of the biggest file under out/ that $pid has open, or -1.
# Files in out/ the process has open: split's finished pieces are held
# unnamed until the last one is written.
out_open_count() {
	local l n=0

	for l in /proc/$pid/fd/*; do
		case $(readlink "$l" 2>/dev/null) in
		"$PWD/out/"*) n=$((n + 1)) ;;
		esac
	done
	echo $n
}

out_open_size() {
	local l t s best=-1

	for l in /proc/$pid/fd/*; do
		t=$(readlink "$l" 2>/dev/null) || continue
		case $t in
		"$PWD/out/"*)
			s=$(stat -L -c %s "$l" 2>/dev/null) || continue
			[ "$s" -gt "$best" ] && best=$s
			;;
		esac
	done
	echo $best
}

# Does $pid run tdat?  Under make check-cross $TDAT is a script that
# execs qemu-user on the foreign tdat: then qemu runs, tdat its argument.
runs_tdat() {
	if [ -n "${TDAT_CROSS:-}" ]; then
		case $(readlink /proc/$pid/exe 2>/dev/null) in
		*qemu*) tr '\0' '\n' </proc/$pid/cmdline 2>/dev/null |
			grep -q '/tdat$' ;;
		*) return 1 ;;
		esac
	else
		[ "$(readlink /proc/$pid/exe 2>/dev/null)" = "$tdat_exe" ]
	fi
}

# reached WHEN: has $pid come to moment WHEN?
#   exec   it runs tdat (its output may not be open yet)
#   open   it has an output open under out/
#   grown  that output holds 256 KiB or more (the metadata is written,
#          trace data is being written)
#   piece  a finished piece, out/pc.0001, exists (split)
#   head   restore's scratch header exists
reached() {
	case $1 in
	exec) runs_tdat ;;
	open) [ "$(out_open_size)" -ge 0 ] ;;
	grown) [ "$(out_open_size)" -ge 262144 ] ;;
	held) [ "$(out_open_count)" -gt 8 ] ;;	# 8 pieces a batch
	two) [ "$(out_open_count)" -ge 2 ] ;;	# restore: header + output
	*) fail "unknown moment $1" ;;
	esac
}

# stop_at WHEN CMD...: run CMD and stop it (SIGSTOP) at moment WHEN;
# 1 if it ended first (its output is then removed).
stop_at() {
	local when=$1 i

	shift
	spawn "$@"
	for ((i = 0; i < 6000; i++)); do
		reached "$when" && break
		[ -e /proc/$pid ] && [ "$(proc_state $pid)" != Z ] || break
		sleep 0.01
	done
	kill -STOP $pid 2>/dev/null || true
	while [ "$(proc_state $pid)" = R ] || [ "$(proc_state $pid)" = S ] ||
	      [ "$(proc_state $pid)" = D ]; do
		sleep 0.01
	done
	[ "$(proc_state $pid)" = T ] && reached "$when" && return 0
	rc=0
	wait $pid || rc=$?
	echo "(ended, exit $rc, before moment $when: once more)"
	rm -f out/*
	return 1
}

# interrupt SIG WHEN CMD...: run CMD, stop it at moment WHEN (up to three
# tries, a busy machine may run past it), send SIG, let it go on; $rc
# gets its exit status.
interrupt() {
	local sig=$1 when=$2 try

	shift 2
	for try in 1 2 3; do
		stop_at "$when" "$@" && break
		[ $try = 3 ] && fail "$* ended three times before moment $when"
	done
	kill -"$sig" $pid
	kill -CONT $pid 2>/dev/null || true	# SIGKILL: gone already
	rc=0
	wait $pid || rc=$?
	if grep -Eq 'Sanitizer|runtime error:' "$TMPDIR/.spawn-err"; then
		sed 's/^/    | /' "$TMPDIR/.spawn-err" | head -n 40 >&2
		fail "sanitizer report from: $*"
	fi
}

# killed_by SIG: $rc says death by SIG.
killed_by() {
	assert_eq $((128 + $(kill -l "$1"))) "$rc" "exit status after SIG$1"
}

# Workloads slow enough to be caught at each moment: zstd level 19
# (convert, merge: about a second on metadata, then on trace data),
# every piece's metadata recompressed (split).
big=$FIX/v7-zstd-markers-raw_syscalls.dat
convert_cmd=($TDAT convert -q -i "$big" -o out/c.dat --level 19 --threads 1)
$TDAT split -i "$big" -o in/p -e 8000 -r || fail "cannot make merge inputs"
merge_cmd=($TDAT merge -q -o out/m.dat --level 19 --threads 1 in/p.0001
	   in/p.0002 in/p.0003 in/p.0004)
split_cmd=($TDAT split -i "$big" -o out/pc -e 3000 -r --compression zlib)

if [ -n "$(python3 -c 'import os; os.close(os.open("out", os.O_TMPFILE | os.O_RDWR))' 2>&1)" ]; then
	echo "(no O_TMPFILE in $PWD: unnamed outputs not checked)"
else
	step "while an output is written, no name for it exists"
	stop_at grown "${convert_cmd[@]}" || stop_at grown "${convert_cmd[@]}" ||
		fail "convert ended twice before moment grown"
	assert_empty out "convert, stopped while writing"
	kill -KILL $pid
	wait $pid || true
fi

for sig in INT TERM HUP KILL; do
	for when in exec open grown; do
		step "convert, SIG$sig at moment $when"
		interrupt $sig $when "${convert_cmd[@]}"
		killed_by $sig
		assert_empty out "convert, SIG$sig at $when"
	done
	for when in open grown; do
		step "merge, SIG$sig at moment $when"
		interrupt $sig $when "${merge_cmd[@]}"
		killed_by $sig
		assert_empty out "merge, SIG$sig at $when"
	done
	step "split, SIG$sig while the first pieces are written"
	interrupt $sig open "${split_cmd[@]}"
	killed_by $sig
	assert_empty out "split, SIG$sig at open"
	step "split, SIG$sig after the first pieces are finished"
	interrupt $sig held "${split_cmd[@]}"
	killed_by $sig
	assert_empty out "split, SIG$sig after the first pieces"
done

step "a signal ignored when convert starts (nohup) stays ignored"
"${convert_cmd[@]}" >/dev/null 2>&1 </dev/null &
pid=$!
for ((i = 0; i < 6000; i++)); do
	reached open && break
	sleep 0.01
done
kill -INT $pid
rc=0
wait $pid || rc=$?
assert_eq 0 "$rc" "exit status with SIGINT ignored"
expect_exit 0 $TDAT report -i out/c.dat
rm -f out/c.dat

step "restore without -i: no signal, SIGKILL included, leaves its scratch header"
if $TDAT restore -c -o head.dat >/dev/null 2>&1; then
	crashed=$FIX/crashed
	for sig in INT TERM HUP KILL; do
		interrupt $sig two $TDAT restore -q -o out/r.dat \
			--file-version 7 --compression zlib \
			"$crashed/trace.dat.cpu0" "$crashed/trace.dat.cpu1"
		killed_by $sig
		assert_empty out "restore, SIG$sig"
	done
else
	echo "(no tracefs here: restore's scratch header not checked)"
fi

step "record refuses a planted OUT.rec (a symlink to a directory)"
mkdir victim-dir
ln -s victim-dir rec.dat.rec
expect_exit 1 $TDAT record -q -e sched:sched_switch -o rec.dat true
assert_lines 1 "$ERR"
if grep -q tracefs "$ERR"; then
	echo "(no tracefs here: record not checked)"
else
	assert_grep "^tdat record: rec\.dat\.rec exists" "$ERR"
fi
assert_empty victim-dir "record through a planted OUT.rec"
[ -L rec.dat.rec ] || fail "the planted link is gone"

step "inputs are never modified"
assert_eq "$sums" "$(sha256sum "$FIX"/*.dat)" "fixture checksums"
echo "outputs ok"

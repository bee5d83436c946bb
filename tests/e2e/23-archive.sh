#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# convert --archive: the preset's file is v7 zstd that trace-cmd reads as
# it reads the original; --archive --in-place over a tree with odd
# members (a cut file, zlib and zstd files, a text file, a symlink, a
# file that cannot be replaced, a hard-linked file) archives every
# trace.dat it can, leaves and names the rest, and, killed at random
# points and run again, finishes with no file lost, half written or
# changed in what it reports.
. "$E2E/lib.sh"

# tdat_of FILE, tc_of FILE: what tdat and trace-cmd 3.1.6 report of
# it (3.1.6 reads no zlib file: "unreadable", and then anything after).
tdat_of() {
	"$TDAT" report "$1" 2>&1 || echo "exit $?"
}
tc_of() {
	trace-cmd report "$1" 2>/dev/null || echo unreadable
}

step "--archive: v7 zstd, reported by trace-cmd as the original"
expect_exit 0 "$TDAT" convert -q --archive -i "$FIX/v6-sched-irq.dat" -o a.dat
"$TDAT" dump a.dat >dump.txt
assert_grep '^		7	\[Version\]' dump.txt
assert_grep '^		zstd	\[Compression algorithm\]' dump.txt
trace-cmd report a.dat >a.txt 2>/dev/null
assert_same "$FIX/v6-sched-irq.dat.report.txt" a.txt
tc34=$(tc34_oracle) || tc34=
if [ -n "$tc34" ]; then
	"$tc34" report a.dat >a34.txt 2>/dev/null
	"$tc34" report "$FIX/v6-sched-irq.dat" >o34.txt 2>/dev/null
	assert_same o34.txt a34.txt
fi
expect_exit 2 "$TDAT" convert --archive --file-version 6 -i a.dat -o b.dat
expect_exit 2 "$TDAT" convert --archive --compression zlib -i a.dat -o b.dat
expect_exit 2 "$TDAT" convert --in-place a.dat
assert_file_absent b.dat

# The tree: real recordings of several kinds and the odd members.
make_tree() {
	rm -rf tree && mkdir -p tree/sub/deeper
	cp "$FIX/v6-sched-irq.dat" "$FIX/v7-zlib-sched-irq-tc34.dat" tree/
	cp "$FIX/v7-zstd-2inst-irq-top-sched-inst1-tc34.dat" tree/sub/
	cp "$FIX/external/lanhao.dat" "$FIX/external/samarxie_android.dat" \
		tree/sub/deeper/
	cp "$FIX/v6-clock-global.dat" tree/sub/big1.dat
	cp "$FIX/v6-2inst-irq-top-sched-inst1.dat" tree/sub/big2.dat
	head -c 30000 "$FIX/v6-sched-irq.dat" >tree/sub/cut.dat
	echo "not a trace" >tree/notes.txt
	ln -s ../v6-sched-irq.dat tree/sub/link.dat
}

# snapshot NAME: every file's name, and each trace.dat's report.
snapshot() {
	(cd tree && find . -type f -o -type l | sort) >"$1.names"
	for f in $(cd tree && find . -type f -name '*.dat' | sort); do
		tc_of "tree/$f" >"$1.$(echo "$f" | tr / %).crep"
		tdat_of "tree/$f" >"$1.$(echo "$f" | tr / %).trep"
	done
}

# same_as NAME: the tree reports as at snapshot NAME, file for file.
same_as() {
	local r

	snapshot now
	assert_same "$1.names" now.names
	for r in "$1".*rep; do
		[ "$(tail -n 1 "$r")" = unreadable ] ||
			assert_same "$r" "now${r#"$1"}"
	done
}

step "--in-place over a tree: archived, odd members named, exit 1"
make_tree
snapshot orig
before=$(du -sb tree | cut -f1)
expect_exit 1 "$TDAT" convert -q --archive --in-place tree
assert_grep 'tree/notes.txt: not a trace.dat: left as it is' "$ERR"
assert_grep 'tree/sub/link.dat: a symlink \(not followed\): left as it is' "$ERR"
assert_grep 'tree/sub/cut.dat: offset [0-9]+: .*: left as it is' "$ERR"
assert_grep '^tdat convert: 7 archived .*, 0 archived already, 2 left as they are, 1 failed$' "$ERR"
same_as orig
after=$(du -sb tree | cut -f1)
[ "$after" -lt $((before / 3)) ] || fail "tree $before -> $after bytes"
assert_same <(head -c 30000 "$FIX/v6-sched-irq.dat") tree/sub/cut.dat
[ "$(readlink tree/sub/link.dat)" = ../v6-sched-irq.dat ] || fail "link changed"

step "run again: every trace.dat archived already, nothing rewritten"
ls -li --time-style=full-iso tree tree/sub tree/sub/deeper >ls1.txt
expect_exit 1 "$TDAT" convert -q --archive --in-place tree
assert_grep '^tdat convert: 0 archived .*, 7 archived already, 2 left as they are, 1 failed$' "$ERR"
ls -li --time-style=full-iso tree tree/sub tree/sub/deeper >ls2.txt
assert_same ls1.txt ls2.txt

step "a v6 file whose CPUs hold no data: archived (its empty top buffer is no v7 buffer)"
# The v7 writer leaves out a top buffer without data, as trace-cmd does;
# the read-back check compared buffers one for one and failed the file.
mkdir nodata
cp "$FIX/tc291/v6-tc291-record-nodata.dat" nodata/
trace-cmd report -i nodata/v6-tc291-record-nodata.dat >nodata.before 2>&1
expect_exit 0 "$TDAT" convert -q --archive --in-place --level 3 nodata
assert_grep '^tdat convert: 1 archived .*, 0 failed$' "$ERR"
trace-cmd report -i nodata/v6-tc291-record-nodata.dat >nodata.after 2>&1
assert_same nodata.before nodata.after
"$TDAT" dump -i nodata/v6-tc291-record-nodata.dat | grep -q '7	\[Version\]' ||
	fail "not archived as v7"

# From here zstd level 3: the same tree mechanics, quicker.
step "mode, owner and times kept; a hard-linked file left alone"
make_tree
chmod 640 tree/v6-sched-irq.dat
chown 1234:5678 tree/v6-sched-irq.dat
touch -d '2020-01-02 03:04:05' tree/v6-sched-irq.dat
ln tree/v7-zlib-sched-irq-tc34.dat tree/sub/hard.dat
stat -c '%a %u %g %Y' tree/v6-sched-irq.dat >attr1.txt
expect_exit 0 "$TDAT" convert -q --archive --level 3 --in-place tree/v6-sched-irq.dat \
	tree/v7-zlib-sched-irq-tc34.dat
stat -c '%a %u %g %Y' tree/v6-sched-irq.dat >attr2.txt
assert_same attr1.txt attr2.txt
assert_grep 'tree/v7-zlib-sched-irq-tc34.dat: has other hard links: left as it is' "$ERR"
assert_same "$FIX/v7-zlib-sched-irq-tc34.dat" tree/sub/hard.dat
rm tree/sub/hard.dat

step "a file that cannot be replaced (a read-only mount) is named, untouched"
if unshare -m true 2>/dev/null; then
	make_tree
	unshare -m sh -c 'mount --bind tree/sub/big1.dat tree/sub/big1.dat &&
		mount -o remount,ro,bind tree/sub/big1.dat &&
		exec "$@"' sh "$TDAT" convert -q --archive --level 3 --in-place tree \
		>/dev/null 2>"$ERR" && fail "exit 0 with a file not replaced"
	assert_grep 'tree/sub/big1.dat: cannot be replaced .*: left as it is' "$ERR"
	assert_same "$FIX/v6-clock-global.dat" tree/sub/big1.dat
else
	echo "skipped: no private mount namespace here (unshare -m)"
fi

step "what a killed run can leave is removed; the same names without an original are not"
make_tree
cp "$FIX/v6-sched-irq.dat" tree/.v6-sched-irq.dat.tdat-archive
head -c 5000 "$FIX/v6-sched-irq.dat" \
	>tree/..v6-sched-irq.dat.tdat-archive.tmp-0123456789abcdef
echo mine >tree/.gone.dat.tdat-archive
expect_exit 1 "$TDAT" convert -q --archive --level 3 --in-place tree
assert_grep 'tree/.v6-sched-irq.dat.tdat-archive: removed: what an interrupted run left' "$ERR"
assert_grep 'tree/..v6-sched-irq.dat.tdat-archive.tmp-0123456789abcdef: removed' "$ERR"
assert_grep 'tree/.gone.dat.tdat-archive: not a trace.dat: left as it is' "$ERR"
assert_file_absent tree/.v6-sched-irq.dat.tdat-archive
assert_file_absent tree/..v6-sched-irq.dat.tdat-archive.tmp-0123456789abcdef
rm tree/.gone.dat.tdat-archive
same_as orig

# The moments a run is stopped at come from the run itself, not from
# a guess at how fast this machine is: a point within the time a whole
# run takes here (timed on a copy), or the moment an archive is open
# for writing (an unnamed file or ".NAME.tdat-archive" under tree/).
make_tree
cp -a tree timed
t0=$(date +%s%N)
"$TDAT" convert -q --archive --level 3 --in-place timed >/dev/null 2>&1 || true
run_ms=$((($(date +%s%N) - t0) / 1000000))
rm -rf timed
echo "(a whole run takes $run_ms ms here)"

# sleep_ms N: sleep N milliseconds.
sleep_ms() {
	sleep "$(($1 / 1000)).$(printf %03d $(($1 % 1000)))"
}

# archive_open: has $pid or a child of its (jobs.c: one per file) an
# archive open for writing?  (find: one process a look, quick enough to
# see a small file's archive.)
archive_open() {
	local kids= k dirs="/proc/$pid/fd"

	read -r kids 2>/dev/null </proc/$pid/task/$pid/children || true
	for k in $kids; do
		dirs="$dirs /proc/$k/fd"
	done
	[ -n "$(find $dirs -maxdepth 1 \( -lname "$PWD/tree/*#*" -o \
		-lname "$PWD/tree/*.tdat-archive*" \) -print -quit 2>/dev/null)" ]
}

# wait_archive_open: 0 at the moment $pid has an archive open, 1 if it
# ended first.
wait_archive_open() {
	while [ -e /proc/$pid ] &&
	      [ "$(proc_state $pid)" != Z ]; do
		archive_open && return 0
		sleep 0.002
	done
	return 1
}

# signal_round SIG WRITING: run --in-place over tree (a process group of
# its own, as a shell's job is) and send SIG to the group at a random
# point of a whole run's time, or with WRITING=1 at the first moment
# after a random point of its first half that an archive is open; $rc
# gets its exit status (128 + SIG when the signal came first).
signal_round() {
	spawn setsid "$TDAT" convert -q --archive --level 3 --in-place tree
	if [ "$2" = 1 ]; then
		sleep_ms $((RANDOM % (run_ms / 2 + 1)))
		wait_archive_open || true
	else
		sleep_ms $((RANDOM % (run_ms * 9 / 10 + 1)))
	fi
	kill -"$1" -- -$pid 2>/dev/null || true
	rc=0
	wait $pid 2>/dev/null || rc=$?
}

step "SIGINT in the middle: nothing left behind, the tree as before"
make_tree
for round in $(seq 20); do
	signal_round INT 1
	[ "$rc" = 130 ] && break
	make_tree	# it ended first: once more
done
[ "$rc" = 130 ] || fail "SIGINT never came before the run ended (exit $rc)"
echo "(interrupted in round $round)"
same_as orig

step "killed (SIGKILL) at random points and run again: it finishes"
make_tree
killed=0 writing=0
for round in $(seq 40); do
	w=$((round % 2))
	signal_round KILL $w
	if [ "$rc" = 137 ]; then
		killed=$((killed + 1))
		writing=$((writing + w))
	else
		echo "(round $round ended, exit $rc, before its kill: a new tree)"
	fi
	# every name reports as before; a leftover beside it is allowed
	for r in orig.*.trep; do
		f=${r#orig.}
		tdat_of "tree/$(echo "${f%.trep}" | tr % /)" >cmp.trep
		assert_same "$r" cmp.trep
	done
	[ "$rc" = 137 ] || make_tree
	[ "$killed" -ge 6 ] && [ "$writing" -ge 3 ] && break
done
[ "$killed" -ge 6 ] && [ "$writing" -ge 3 ] ||
	fail "$killed rounds killed, $writing of them while writing, in 40"
echo "($killed rounds killed, $writing of them while writing, in $round)"
expect_exit 1 "$TDAT" convert -q --archive --level 3 --in-place tree
assert_grep '^tdat convert: [0-9]+ archived .* 2 left as they are, 1 failed$' "$ERR"
same_as orig
expect_exit 1 "$TDAT" convert -q --archive --level 3 --in-place tree
assert_grep '^tdat convert: 0 archived .*, 7 archived already,' "$ERR"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-events: the formats of every fixture, deliberately broken formats
# (in files whose framing stays valid), bad input files, then the live
# tracefs of this machine, including finding or mounting it.
. "$E2E/lib.sh"
v6=$FIX/v6-sched-irq.dat
# Sanitized builds: libtraceevent's own leaks are suppressed (tests/lsan.supp);
# the list of suppressions used must not land in the stderr checked here.
export LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0
sums=$(sha256sum "$FIX"/*.dat)

# summary_count FILE: N of the last line "checked ... N event formats: ...".
summary_count() {
	tail -n 1 "$1" | sed -n 's/^checked .* \([0-9][0-9]*\) event formats\{0,1\}: .*/\1/p'
}

# tracefs_relative FILE: failure lines with the tracefs directory taken out.
tracefs_relative() {
	sed 's|^[^:]*/events/|TRACEFS/events/|' "$1"
}

step "usage"
expect_exit 0 $TDAT check-events --help
assert_grep "^usage: tdat check-events" "$OUT"
for args in "--bogus" "-x" "-i" "--verbose=9" "--verbose=loud" "extra"; do
	expect_exit 2 $TDAT check-events $args
	assert_lines 1 "$ERR"
done

step "every fixture: all formats parse, with and without plugins"
for f in $(fixtures); do
	for opt in "" -N; do
		expect_exit 0 $TDAT check-events $opt -i "$f"
		assert_lines 1 "$OUT"
		assert_grep "^checked header_page and [0-9]+ event formats: 0 failed$" "$OUT"
		assert_eq "" "$(cat "$ERR")" "stderr for $f"
	done
	# trace-cmd's own count of the file's formats (3.1.6 cannot read zlib).
	n=$(trace-cmd dump --events --ftrace-events -i "$f" 2>/dev/null |
	    grep -c '^name:') || true
	if [ "$n" -gt 0 ]; then
		assert_eq "$n" "$(summary_count "$OUT")" "formats in $f"
	fi
done
expect_exit 0 "$(dirname "$TDAT")/check-events" -i "$v6"

# Broken texts of the same length as the originals: the file's framing
# (sizes, offsets) stays valid, only libtraceevent's parse must fail.
step "broken formats are named, the exit status is 1"
python3 - "$v6" <<'EOF'
import sys
src = open(sys.argv[1], 'rb').read()

def sub(data, event, old, new):
    """Replace old by new (same length) inside EVENT's format text."""
    assert len(old) == len(new)
    start = data.index(b'name: ' + event + b'\n')
    end = data.index(b'\n', data.index(b'print fmt:', start))
    i = data.index(old, start, end)
    return data[:i] + new + data[i + len(old):]

def sub_print(data, event, new):
    """Replace EVENT's print fmt, padded with spaces to the same length."""
    start = data.index(b'name: ' + event + b'\n')
    p = data.index(b'print fmt: ', start) + len(b'print fmt: ')
    e = data.index(b'\n', p)
    assert len(new) <= e - p
    return data[:p] + new + b' ' * (e - p - len(new)) + data[e:]

d = sub(src, b'sched_switch', b'print fmt:', b'print fxt:')
d = sub(d, b'irq_handler_entry', b'offset:', b'offxet:')
d = sub(d, b'sched_wakeup', b'REC->pid', b'REC<-pid')
open('broken.dat', 'wb').write(d)

# header_page without a timestamp field: libtraceevent takes it for size 0.
i = src.index(b'u64 timestamp;')
open('badheader.dat', 'wb').write(src[:i] + b'u64 timestxmp;' + src[i + 14:])

# A print fmt that needs a libtraceevent plugin (plugin_jbd2).
open('plugin.dat', 'wb').write(sub_print(src, b'sched_waking',
    b'"comm=%s pid=%d prio=%u", REC->comm, REC->pid, jiffies_to_msecs(REC->prio)'))
EOF
# The framing is intact: trace-cmd still reads the whole file.
trace-cmd report -i broken.dat >/dev/null 2>&1 || fail "trace-cmd cannot read broken.dat"
expect_exit 0 $TDAT convert -i broken.dat -o broken-v7.dat
expect_exit 0 $TDAT convert -i broken.dat -o broken-zlib.dat --compression zlib
for f in broken.dat broken-v7.dat broken-zlib.dat; do
	expect_exit 1 $TDAT check-events -i $f
	assert_eq "" "$(cat "$ERR")" "stderr for $f"
	assert_lines 4 "$OUT"
	assert_grep "^$f: sched:sched_switch: cannot parse the print fmt line$" "$OUT"
	assert_grep "^$f: irq:irq_handler_entry: cannot parse the field list$" "$OUT"
	assert_grep "^$f: sched:sched_wakeup: cannot parse the print fmt arguments$" "$OUT"
	assert_grep "^checked header_page and 51 event formats: 3 failed$" "$OUT"
done
step "--verbose shows libtraceevent's own messages"
expect_exit 1 $TDAT check-events --verbose=warning -i broken.dat
assert_grep "offxet" "$ERR"
expect_exit 1 $TDAT check-events --verbose=0 -i broken.dat
assert_eq "" "$(cat "$ERR")" "stderr with --verbose=0"

step "a broken header_page"
expect_exit 1 $TDAT check-events -i badheader.dat
assert_grep "^badheader.dat: header_page: the timestamp field has size 0, not 8$" "$OUT"
assert_grep "^checked header_page and 51 event formats: 1 failed$" "$OUT"

step "a format that needs a plugin fails only with -N"
if ls /usr/lib/*/traceevent/plugins/plugin_jbd2.so >/dev/null 2>&1; then
	expect_exit 0 $TDAT check-events -i plugin.dat
	expect_exit 1 $TDAT check-events -N -i plugin.dat
	assert_grep "^plugin.dat: sched:sched_waking: cannot parse the print fmt arguments$" "$OUT"
else
	echo "(libtraceevent's plugin_jbd2 is not installed: not checked)"
fi

# libtraceevent 1.7 (trace-cmd too) crashes on __print_symbolic() of a
# field the event lacks: the three softirq formats' "vec" renamed "vex"
# (found by the fuzz_report target).
step "a format libtraceevent would crash on is refused, not parsed"
python3 - "$v6" <<'EOF2'
import sys
d = open(sys.argv[1], 'rb').read()
old = b'\tfield:unsigned int vec;'
assert d.count(old) == 3
open('vex.dat', 'wb').write(d.replace(old, b'\tfield:unsigned int vex;'))
EOF2
expect_exit 1 $TDAT check-events -i vex.dat
assert_eq "" "$(cat "$ERR")" "stderr for vex.dat"
assert_lines 4 "$OUT"
for e in softirq_raise softirq_entry softirq_exit; do
	assert_grep "^vex.dat: irq:$e: __print_flags or __print_symbolic on a field the event does not have$" "$OUT"
done
# One no check of the text foresees: an index, then a stray ']'.  The
# trial parse in a child process dies on it (found by fuzz_format).
python3 - "$v6" <<'EOF2'
import sys
d = open(sys.argv[1], 'rb').read()
s = d.index(b'name: sched_wakeup\n')
i = d.index(b'REC->target_cpu', s, d.index(b'\n', d.index(b'print fmt:', s)))
open('index.dat', 'wb').write(d[:i] + b'REC->pid[0]]   ' + d[i + 15:])
EOF2
expect_exit 1 $TDAT check-events -i index.dat
assert_eq "" "$(cat "$ERR")" "stderr for index.dat"
assert_lines 2 "$OUT"
assert_grep "^index.dat: sched:sched_wakeup: libtraceevent crashes parsing it \(in a trial in a child process\)$" "$OUT"

step "bad input files: one line, exit 1"
: >empty.dat
head -c 10000 "$v6" >cut.dat	# cut inside the ftrace formats
mkdir dir.dat
for f in nosuch.dat empty.dat cut.dat dir.dat; do
	expect_exit 1 $TDAT check-events -i $f
	assert_lines 1 "$ERR"
	assert_grep "^tdat check-events: $f: " "$ERR"
	assert_eq "" "$(cat "$OUT")" "stdout for $f"
done
assert_grep "offset [0-9]+" /dev/stdin <<EOF2
$($TDAT check-events -i cut.dat 2>&1)
EOF2
assert_eq "$sums" "$(sha256sum "$FIX"/*.dat)" "fixture checksums"

# ---- the live tracefs -------------------------------------------------

step "the live tracefs"
rc=0
$TDAT check-events >live.out 2>live.err </dev/null || rc=$?
if [ $rc -eq 1 ] && [ ! -s live.out ]; then
	skip "live tracefs unavailable ($(cat live.err)); the trace.dat checks passed"
fi
[ $rc -le 1 ] || fail "exit $rc: $(cat live.err)"
assert_eq "" "$(cat live.err)" "stderr"
tfs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
[ -n "$tfs" ] || fail "check-events ran but no tracefs is mounted"
nformats=$(ls "$tfs"/events/*/*/format | wc -l)
assert_eq "$nformats" "$(summary_count live.out)" "formats checked"
grep -v '^checked ' live.out >live.failed || true
nfailed=$(wc -l <live.failed)
assert_grep "^checked header_page and $nformats event formats: $nfailed failed$" live.out
if [ "$nfailed" -eq 0 ]; then
	assert_eq 0 $rc "exit status with no failure"
else
	assert_eq 1 $rc "exit status with failures"
	echo "formats of this kernel that libtraceevent cannot parse:"
	sed 's/^/    /' live.failed
fi
# Each failure names a real format file and its system:event.
while IFS= read -r line; do
	path=${line%%: *}
	rest=${line#*: }
	what=${rest%%: *}
	[ -f "$path" ] || fail "not a format file: $line"
	sys=${path%/*/format}; sys=${sys##*/}
	ev=${path%/format}; ev=${ev##*/}
	assert_eq "$sys:$ev" "$what" "event named in: $line"
done <live.failed
# Formats every kernel has that libtraceevent has always parsed.
for e in sched:sched_switch sched:sched_wakeup irq:irq_handler_entry; do
	! grep -q ": $e: " live.failed || fail "$e reported as failing"
done

step "the live tracefs with -N: the same failures or more (plugins only help)"
expect_exit 0,1 $TDAT check-events -N
grep -v '^checked ' "$OUT" | sort >live-n.failed || true
missing=$(sort live.failed | comm -23 - live-n.failed)
assert_eq "" "$missing" "failures with plugins but not without"

# tracefs mount discovery and mounting, in a private mount namespace
# where every tracefs and debugfs mount is first taken away: the host's
# mounts are untouched.
bare_ns() {
	unshare -m --propagation private sh -c '
		awk "\$3 == \"tracefs\" || \$3 == \"debugfs\" { print \$2 }" \
			/proc/mounts | sort -r | while read -r m; do
			umount -l "$m" || exit 1
		done
		[ "$(stat -f -c %T /sys/kernel/tracing)" != tracefs ] || exit 1
		'"$1"
}
if [ "$(id -u)" -ne 0 ] || ! bare_ns true 2>/dev/null; then
	echo "(no private mount namespace here: mount discovery not checked)"
else
	step "no tracefs mounted: check-events mounts it at /sys/kernel/tracing"
	bare_ns "$TDAT check-events >ns.out 2>ns.err; echo \$? >ns.rc;
		 stat -f -c %T /sys/kernel/tracing >ns.type"
	assert_eq "$rc" "$(cat ns.rc)" "exit status"
	assert_eq "" "$(cat ns.err)" "stderr"
	assert_eq tracefs "$(cat ns.type)" "/sys/kernel/tracing afterwards"
	assert_eq "$(tracefs_relative live.out)" "$(tracefs_relative ns.out)" \
		"output"

	step "tracefs mounted elsewhere: found through /proc/mounts"
	mkdir tfs
	bare_ns "mount -t tracefs nodev $TMPDIR/tfs &&
		 $TDAT check-events >ns2.out 2>ns2.err; echo \$? >ns2.rc;
		 stat -f -c %T /sys/kernel/tracing >ns2.type"
	assert_eq "$rc" "$(cat ns2.rc)" "exit status"
	assert_eq "" "$(cat ns2.err)" "stderr"
	assert_eq sysfs "$(cat ns2.type)" "/sys/kernel/tracing (nothing mounted)"
	assert_eq "$(tracefs_relative live.out)" "$(tracefs_relative ns2.out)" \
		"output"
	if [ -s live.failed ]; then
		assert_grep "^$TMPDIR/tfs/events/" ns2.out
	fi
fi
echo "check-events ok"

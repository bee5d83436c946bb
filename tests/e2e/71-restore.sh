#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# restore: trace-cmd's crashed-recorder case, killed "record -o OUT"
# directories (OUT.rec/), and salvage of truncated or corrupt trace.dat
# files.  Debian's trace-cmd is the oracle: it must read every output,
# and print exactly what it prints for the undamaged part.  Inputs are
# never modified, no temporary file is left behind.
. "$E2E/lib.sh"
t0=$(date +%s)
step() {	# with the seconds so far: this script must stay under 60 s
	echo "--- [$(($(date +%s) - t0))s] $*"
}
MKREC=$(dirname "$TDAT")/tools/mkrecdir
[ -x "$MKREC" ] || fail "$MKREC missing (make B=... $(dirname "$TDAT")/tools/mkrecdir)"
command -v trace-cmd >/dev/null || skip "Debian's trace-cmd is not installed"

# oracle FILE [FIXTURE]: Debian's trace-cmd report, except for zlib
# (FILE or the FIXTURE it comes from), which it cannot read: ours then.
oracle() {
	case $1${2:-} in
	*zlib*) "$TDAT" report -i "$1" ;;
	*) trace-cmd report -i "$1" ;;
	esac
}

# The report of a fixture: trace-cmd's, stored beside it (ours for zlib,
# whose stored one is trace-cmd 3.4's).
fixture_report() {
	case $1 in
	*zlib*) "$TDAT" report -i "$1" ;;
	*) cat "$1.report.txt" ;;
	esac
}

sum_inputs() {
	sha256sum "$FIX"/crashed/* "$FIX"/truncated/*.dat "$FIX"/*.dat
}
sum_inputs >sums.before

# ---- trace-cmd's case: restore -i HEAD -o OUT CPUFILE... ----
step "crashed recorder: restore -i head -o out cpu0 cpu1 = trace-cmd's restored.dat"
# The header-only file trace-cmd's "restore -c" made, from its result.
"$MKREC" --head "$FIX/crashed/restored.dat" head.dat
trace-cmd report -i head.dat >head.txt
assert_eq "cpus=0" "$(cat head.txt)" "report of the header-only file"
expect_exit 0 "$TDAT" restore -i head.dat -o restored.dat \
	"$FIX/crashed/trace.dat.cpu0" "$FIX/crashed/trace.dat.cpu1"
[ ! -s "$ERR" ] || fail "restore said something on good data: $(cat "$ERR")"
trace-cmd report -i restored.dat >restored.txt
assert_same "$FIX/crashed/restored.dat.report.txt" restored.txt

step "crashed recorder: a cut last page and zero pages are dropped and told"
cat "$FIX/crashed/trace.dat.cpu1" >cpu1
head -c 4096 /dev/zero >>cpu1
head -c 1500 "$FIX/crashed/trace.dat.cpu1" >>cpu1
expect_exit 0 "$TDAT" restore -i head.dat -o restored2.dat \
	"$FIX/crashed/trace.dat.cpu0" cpu1
assert_lines 2 "$ERR"
assert_grep 'cpu1: offset 65536: dropped: buffer "" CPU 1: 1 empty page \(4096 bytes\)' "$ERR"
assert_grep 'cpu1: offset 69632: dropped: buffer "" CPU 1: 1500 bytes: an incomplete last page' "$ERR"
trace-cmd report -i restored2.dat | cmp -s - "$FIX/crashed/restored.dat.report.txt" ||
	fail "dropping the tail changed the events"

step "restore -c on this machine, then -i with it, and without -i"
# The crashed files come from another boot: the events are the same,
# only comm names (saved cmdlines) may differ.
events_only() {
	sed -n 's/^.* \(\[[0-9][0-9][0-9]\] \)/\1/p' "$1"
}
events_only "$FIX/crashed/restored.dat.report.txt" >want-events.txt
# Each event line's CPU and time ("[000] 123.456789:").
cpu_times() {
	awk '{ for (i = 1; i < NF; i++) if ($i ~ /^\[[0-9]+\]$/) {
		print $i, $(i + 1); break } }' "$1"
}
# The format of event NAME in FILE's --events list.
format_of() {
	"$TDAT" report --events -i "$1" |
		awk -v n="name: $2" '$0 == n { p = 1; print; next } /^name: /{ p = 0 } p'
}
# same_events REPORT: the crashed recording's events, as the fixture's
# report has them when this kernel's formats of them are the recording
# kernel's (Linux 6.18 here).  On another kernel (a fresh Debian 12 VM
# runs 6.1) its header gives the recorded ids other events: then each
# event's CPU and time, which come from the pages alone.
same_events() {
	local e kernel=same

	for e in $(awk '{ for (i = 1; i < NF; i++) if ($i ~ /^\[[0-9]+\]$/) {
			n = $(i + 2); sub(":$", "", n); print n; break } }' \
			"$FIX/crashed/restored.dat.report.txt" | sort -u); do
		[ "$(format_of live-head.dat "$e")" = \
		  "$(format_of "$FIX/crashed/restored.dat" "$e")" ] || kernel=other
	done
	if [ $kernel = same ]; then
		events_only "$1" | cmp -s - want-events.txt
	else
		echo "(this kernel's formats are not the recording's: CPUs and times compared)"
		cpu_times "$1" >got-times.txt
		cpu_times "$FIX/crashed/restored.dat.report.txt" |
			cmp -s - got-times.txt
	fi
}
# Under emulation (tests/cross/run) the live tracefs is another
# architecture's kernel's: restore -c describes a machine that is not.
if [ -n "${TDAT_CROSS:-}" ]; then
	echo "(under emulation: restore -c not checked)"
elif "$TDAT" restore -c -o live-head.dat 2>live.err; then
	trace-cmd report -i live-head.dat >live-head.txt
	assert_grep '^cpus=[0-9]+$' live-head.txt
	expect_exit 0 "$TDAT" restore -i live-head.dat -o live.dat \
		"$FIX/crashed/trace.dat.cpu0" "$FIX/crashed/trace.dat.cpu1"
	trace-cmd report -i live.dat >live.txt
	same_events live.txt || fail "restore -i with our own header differs"
	expect_exit 0 "$TDAT" restore -o nohead.dat "$FIX/crashed/trace.dat.cpu0" \
		"$FIX/crashed/trace.dat.cpu1"
	trace-cmd report -i nohead.dat >nohead.txt
	same_events nohead.txt || fail "restore without -i differs"
	expect_exit 1 "$TDAT" restore -c -o bad-head.dat -t /nonexistent
	assert_lines 1 "$ERR"
	assert_file_absent bad-head.dat
else
	echo "(no tracefs here: $(head -n 1 live.err); restore -c not checked)"
fi

# ---- a killed "record -o OUT": OUT.rec/ ----
step "OUT.rec/ of fixtures (v6, v7, codecs, instances): restore OUT reports like the fixture"
for n in v6-2inst-irq-top-sched-inst1 v7-none-sched-irq \
	 v7-zlib-sched-irq-tc34 v7-zstd-2inst-irq-top-sched-inst1; do
	f=$FIX/$n.dat
	"$MKREC" "$f" "$n.rec"
	expect_exit 0 "$TDAT" restore "$n"
	[ ! -s "$ERR" ] || grep -q "^tdat restore: wrote $n from $n.rec/" "$ERR" ||
		fail "$n: restore complained: $(head -n 1 "$ERR")"
	oracle "$n" "$f" >"$n.txt"
	fixture_report "$f" | cmp -s - "$n.txt" || fail "$n: restored report differs"
done

step "OUT.rec/ of a latency tracer: its text, as trace-cmd reports it"
# What record leaves for -p irqsoff: no CPU files, the kernel's "trace"
# text in OUT.rec/latency.  trace-cmd prints "cpus=N", the text and a
# newline; so must the file restore writes, and our report of it.
mkdir lat.rec
"$MKREC" --head "$FIX/v7-none-sched-irq.dat" lat.rec/head.dat
printf 'tdat-recording 1\npage_size 4096\nbuffer - clock local cpus 2 latency latency\n' >lat.rec/manifest
cat >lat.rec/latency <<'EOF'
# tracer: irqsoff
#
# irqsoff latency trace v1.1.5 on 6.1.0-28-amd64
# --------------------------------------------------------------------
# latency: 259 us, #4/4, CPU#0 | (M:desktop VP:0, KP:0, SP:0 HP:0 #P:2)
#    -----------------
#    | task: swapper/0-0 (uid:0 nice:0 policy:0 rt_prio:0)
#    -----------------
#  => started at: default_idle_call
#  => ended at:   default_idle_call
#
#  cmd     pid     |||||| time  |   caller
#     \   /        ||||||  \    |    /
  <idle>-0         0d....    0us : default_idle_call
  <idle>-0         0d....  259us : default_idle_call
EOF
{ echo "cpus=2"; cat lat.rec/latency; echo; } >lat-want.txt
for v in "--file-version 6" "--file-version 7" \
	 "--file-version 7 --compression none" "--file-version 7 --compression zlib"; do
	expect_exit 0 "$TDAT" restore -q $v lat
	"$TDAT" report -i lat >lat-ours.txt
	assert_same lat-want.txt lat-ours.txt
	case $v in *zlib*) ;; *)
		trace-cmd report -i lat >lat-tc.txt 2>/dev/null
		assert_same lat-want.txt lat-tc.txt ;;
	esac
done
rm lat.rec/latency
expect_exit 0 "$TDAT" restore lat
assert_grep 'lat.rec/latency: missing: the latency tracer' "$ERR"

step "OUT.rec/output names the version and codec asked for"
echo "6 none" >v7-zstd-2inst-irq-top-sched-inst1.rec/output
expect_exit 0 "$TDAT" restore -o asked6.dat v7-zstd-2inst-irq-top-sched-inst1
assert_eq "6" "$(head -c 11 asked6.dat | tail -c 1)" "version of the output"
trace-cmd report -i asked6.dat | cmp -s - "$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat.report.txt" ||
	fail "the v6 output reports differently"
echo "8 zstd" >v7-zstd-2inst-irq-top-sched-inst1.rec/output
expect_exit 1 "$TDAT" restore -o asked8.dat v7-zstd-2inst-irq-top-sched-inst1
assert_grep 'output: not "6 none" or "7 CODEC"' "$ERR"

step "OUT.rec/ with zero pages, cut pages and a corrupt page in every stream"
f=$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat
"$MKREC" --zero-pages 2 --partial 700 --bad-page 1 "$f" bad.rec
expect_exit 0 "$TDAT" restore -o bad.dat bad.rec
assert_grep 'inst1.cpu0: offset 4096: dropped: buffer "inst1" CPU 0: 1 bad page \(4096 bytes\): the commit is larger than the page' "$ERR"
assert_grep 'top.cpu1: offset [0-9]+: dropped: buffer "" CPU 1: 700 bytes: an incomplete last page' "$ERR"
[ "$(grep -c 'empty pages' "$ERR")" -eq 4 ] || fail "4 runs of empty pages expected"
trace-cmd report -i bad.dat >bad.txt
fixture_report "$f" >full.txt
# The events of the dropped page are gone, all others are kept in order.
awk 'BEGIN { n = 0; i = 0 }
     NR == FNR { want[n++] = $0; next }
     { while (i < n && want[i] != $0) i++; if (i++ >= n) { print "extra: " $0; exit 1 } }' \
	full.txt bad.txt || fail "restored events are not a subset of the original's"
[ "$(wc -l <bad.txt)" -lt "$(wc -l <full.txt)" ] || fail "the bad page's events are still there"

step "OUT.rec/ with foreign pages out of time order (stale blocks after a crash): dropped and told"
# What a file system may hand back after a crash: blocks this file never
# wrote, here genuine pages of the same machine.  CPU 1's last page
# copied after its first (later than all that follow), and its second
# page, its time stamp halved, after its fourth (earlier than all before).
f=$FIX/v7-zstd-sched-irq-tc34.dat
"$MKREC" "$f" good.rec
cp -r good.rec stale.rec
python3 - stale.rec/top.cpu1 <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
p = [d[i:i + 4096] for i in range(0, len(d), 4096)]
old = bytearray(p[1])
old[:8] = struct.pack('<Q', struct.unpack('<Q', old[:8])[0] // 2)
open(sys.argv[1], 'wb').write(b''.join([p[0], p[-1]] + p[1:3] + [bytes(old)] + p[3:]))
PY
expect_exit 0 "$TDAT" restore -q -o good.dat good.rec
expect_exit 0 "$TDAT" restore -o stale.dat stale.rec
for o in 4096 16384; do
	assert_grep "top.cpu1: offset $o: dropped: buffer \"\" CPU 1: 1 bad page \(4096 bytes\): out of time order with the pages around it" "$ERR"
done
assert_eq 3 "$(wc -l <"$ERR")" "lines of restore (two drops, the end)"
trace-cmd report -i good.dat >good.txt
trace-cmd report -i stale.dat >stale.txt
assert_same good.txt stale.txt

step "--vmcore DUMP: only with a recording; a dump not read: one line, nothing written"
printf 'no dump' >nodump
for d in nosuch.dump nodump; do
	expect_exit 1 "$TDAT" restore --vmcore $d -o v.dat good.rec
	assert_lines 1 "$ERR"
	assert_grep "^tdat restore: $d: " "$ERR"
	assert_file_absent v.dat
done
expect_exit 2 "$TDAT" restore --vmcore nodump -i good.rec/head.dat -o v.dat good.rec/top.cpu0 good.rec/top.cpu1
assert_grep 'goes with one recording' "$ERR"
expect_exit 2 "$TDAT" restore --vmcore nodump -o v.dat "$FIX/v6-sched-irq.dat"
assert_grep 'goes with a recording' "$ERR"
assert_file_absent v.dat

step "bad manifests and missing inputs: one line, exit 1 or 2, nothing written"
mkdir m.rec
cp bad.rec/head.dat m.rec/
printf 'tdat-recording 1\npage_size 4096\ncpu - 0 top.cpu0\n' >m.rec/manifest
expect_exit 1 "$TDAT" restore m
assert_lines 1 "$ERR"
assert_grep 'm\.rec/manifest: line 3: CPU of a buffer not listed before' "$ERR"
printf 'tdat-recording 1\npage_size 4096\nbuffer - clock local cpus 1\ncpu - 0 ../x\n' >m.rec/manifest
expect_exit 1 "$TDAT" restore m
assert_grep 'line 4: a FILE must stay inside the directory' "$ERR"
assert_file_absent m
expect_exit 2 "$TDAT" restore nothing-here
assert_lines 1 "$ERR"
expect_exit 1 "$TDAT" restore -i head.dat -o x.dat no-such-cpu-file
assert_lines 1 "$ERR"
assert_grep 'no-such-cpu-file: cannot open: No such file' "$ERR"
expect_exit 1 "$TDAT" restore -i "$FIX/crashed/trace.dat.cpu0" -o x.dat cpu1
assert_lines 1 "$ERR"
assert_file_absent x.dat
expect_exit 2 "$TDAT" restore "$FIX/v6-sched-irq.dat"
assert_grep 'is a trace.dat .*name a new output with -o' "$ERR"
expect_exit 2 "$TDAT" restore -i head.dat -o head.dat cpu1
assert_grep 'is the input' "$ERR"

# ---- salvage: restore -o OUT DAMAGED ----

# subset FULL PART: every event line of PART is in FULL, in FULL's order
# (CPU numbers left out: a searched buffer's CPUs are numbered anew;
# instance labels and alignment too: a lost instance changes them).
subset() {
	sed -E 's/ \[[0-9]{3}\] / [cpu] /; s/^ *[A-Za-z0-9_.-]+: +//; s/^ +//' "$1" >.full
	sed -E 's/ \[[0-9]{3}\] / [cpu] /; s/^ *[A-Za-z0-9_.-]+: +//; s/^ +//' "$2" >.part
	awk 'BEGIN { n = 0; i = 0 }
	     NR == FNR { want[n++] = $0; next }
	     { while (i < n && want[i] != $0) i++; if (i++ >= n) { print "invented: " $0; exit 1 } }' \
		.full .part
}

# The v6 file trace-cmd itself can read that holds exactly the complete
# pages of ORIG before byte CUT: each CPU table entry shrunk to its whole
# pages below CUT.  (Top buffer only.)
cat >ref6.py <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
cut = int(sys.argv[2])
ps = struct.unpack_from('<I', d, 14)[0]
ncpu = struct.unpack_from('<I', d, d.index(b'options  \0') - 4)[0]
fly = d.index(b'flyrecord\0')
end = fly + 10 + 16 * ncpu + 8 + 64
for i in range(ncpu):
    off, size = struct.unpack_from('<QQ', d, fly + 10 + 16 * i)
    keep = max(0, min(size, (cut - off) // ps * ps)) if off < cut else 0
    struct.pack_into('<QQ', d, fly + 10 + 16 * i, off, keep)
    end = max(end, off + keep)
open(sys.argv[3], 'wb').write(d[:end])
PY

step "the truncated v6 fixture: exactly its complete pages (= trace-cmd on the same pages)"
cut=$FIX/truncated/v6-sched-irq.cut-at-5470064.dat
expect_exit 0 "$TDAT" restore -o cut6.dat "$cut"
assert_grep 'offset 5468160: dropped: buffer "" CPU 1: 1904 bytes: a page cut by the end of the file' "$ERR"
assert_grep 'offset 5470064: lost: buffer "" CPU 1: 6288 bytes recorded past the end of the file' "$ERR"
python3 ref6.py "$FIX/v6-sched-irq.dat" 5470064 ref6.dat
trace-cmd report -i ref6.dat >ref6.txt
trace-cmd report -i cut6.dat >cut6.txt
assert_same ref6.txt cut6.txt
[ "$(wc -l <cut6.txt)" -gt 300 ] || fail "too few events salvaged"

step "the truncated v7 fixture (options section lost): CPU 0's 10 whole chunks"
cut=$FIX/truncated/v7-zstd-markers-raw_syscalls.cut-at-1059000.dat
trace-cmd report -i "$cut" >tc.txt 2>&1 || true
[ ! -s tc.txt ] || fail "trace-cmd now reads the cut file: update this test"
expect_exit 0 "$TDAT" restore -o cut7.dat "$cut"
assert_grep 'offset 1017846: inferred: buffer "" \(its BUFFER option is lost\).*clock "local" from the TRACECLOCK option.*1 chunk stream' "$ERR"
assert_grep 'offset 1057413: dropped: buffer "" CPU 0: 1587 bytes: a chunk cut by the end of the file' "$ERR"
assert_grep 'lost: buffer "" CPU 0: 24 of its 34 chunks' "$ERR"
trace-cmd report -i cut7.dat >cut7.txt
fixture_report "$FIX/v7-zstd-markers-raw_syscalls.dat" >full7.txt
# Exactly CPU 0's first events of the original, in order: its 10 chunks
# of 10 pages, every page kept (as a v6 copy shows).
grep '\[000\]' full7.txt | head -n "$(($(wc -l <cut7.txt) - 1))" >want7.txt
tail -n +2 cut7.txt | cmp -s - want7.txt || fail "not a prefix of CPU 0's events"
"$TDAT" convert --file-version 6 -i cut7.dat -o cut7v6.dat
python3 - cut7v6.dat <<'PY' || fail "CPU 0 does not hold 100 pages"
import struct, sys
d = open(sys.argv[1], 'rb').read()
fly = d.index(b'flyrecord\0')
off, size = struct.unpack_from('<QQ', d, fly + 10)
assert size == 100 * 4096, size
PY

step "truncations of every fixture at many offsets: valid files or one-line errors"
for f in $(fixtures); do
	n=$(basename "$f" .dat)
	fixture_report "$f" >full.txt
	size=$(stat -c %s "$f")
	cuts="$((size - 3000))"
	case $n in	# and inside the metadata, once per version
	v6-sched-irq|v7-zstd-sched-irq) cuts="$cuts $((size / 2))" ;;
	esac
	for c in $cuts; do
		head -c "$c" "$f" >cut.dat
		rm -f out.dat
		expect_exit 0,1 "$TDAT" restore -o out.dat cut.dat
		if [ ! -e out.dat ]; then
			tail -n 1 "$ERR" | grep -Eq '^tdat restore: cut\.dat: .+' ||
				fail "$n cut at $c: no clear error: $(tail -n 1 "$ERR")"
			continue
		fi
		oracle out.dat "$f" >out.txt 2>out.err ||
			fail "$n cut at $c: the oracle cannot read the output"
		[ "$(wc -l <out.txt)" -gt 1 ] || fail "$n cut at $c: an output without events"
		subset full.txt out.txt || fail "$n cut at $c: events not in the original"
	done
done

step "truncations at many offsets of small copies of every fixture (no kallsyms)"
MKVAR=$(dirname "$TDAT")/tools/mkvariant
for f in $(fixtures); do
	n=$(basename "$f" .dat)
	"$MKVAR" --small "$f" small.dat
	oracle small.dat "$f" >full.txt
	size=$(stat -c %s small.dat)
	for c in $((size / 3)) $((size * 3 / 4)) $((size - 4500)) \
		 $((size - 2500)) $((size - 1100)) $((size - 300)) $((size - 40)); do
		head -c "$c" small.dat >cut.dat
		rm -f out.dat
		expect_exit 0,1 "$TDAT" restore -q -o out.dat cut.dat
		if [ ! -e out.dat ]; then
			assert_lines 1 "$ERR"
			assert_grep '^tdat restore: cut\.dat: ' "$ERR"
			continue
		fi
		oracle out.dat "$f" >out.txt 2>out.err ||
			fail "small $n cut at $c: the oracle cannot read the output"
		subset full.txt out.txt || fail "small $n cut at $c: events not in the original"
	done
done

# corrupt FILE OUT WHAT: damage the first CPU stream of the first buffer
# in the middle (WHAT = chunk: 16 bytes of a chunk's payload; page: the
# commit word of a page; event: an event header inside a page).
cat >corrupt.py <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
what = sys.argv[3]
best = (0, 0, 0)                # (size, offset, cpu) of the largest stream
if d[10:11] == b'6':
    fly = d.index(b'flyrecord\0')
    ncpu = struct.unpack_from('<I', d, d.index(b'options  \0') - 4)[0]
    for i in range(ncpu):
        off, size = struct.unpack_from('<QQ', d, fly + 10 + 16 * i)
        best = max(best, (size, off, i))
else:
    ne = d.index(0, 18); ve = d.index(0, ne + 1)
    o = struct.unpack_from('<Q', d, ve + 1)[0]
    off = None
    while o and off is None:
        size = struct.unpack_from('<Q', d, o + 8)[0]
        pos, nxt = o + 16, 0
        while pos < o + 16 + size:
            oid, osz = struct.unpack_from('<HI', d, pos)
            if oid == 0:
                nxt = struct.unpack_from('<Q', d, pos + 6)[0]
            elif oid == 3 and off is None:
                p = d.index(0, pos + 14) + 1
                p = d.index(0, p) + 1 + 4
                for i in range(struct.unpack_from('<I', d, p)[0]):
                    cpu, coff, csz = struct.unpack_from('<IQQ', d, p + 4 + 20 * i)
                    best = max(best, (csz, coff, cpu))
                off = best[1]
            pos += 6 + osz
        o = nxt
size, off, cpu = best
if what == 'chunk':
    p = off + 4
    for k in range(2):
        p += 8 + struct.unpack_from('<I', d, p)[0]
    c = struct.unpack_from('<I', d, p)[0]
    for i in range(16):
        d[p + 8 + c // 2 + i] ^= 0xff
    print(p, cpu)
elif what == 'page':
    p = off + 4096
    struct.pack_into('<Q', d, p + 8, 5000)
    print(p, cpu)
else:                           # the 3rd item of the page: a length past the commit
    p = off + 4096
    q = p + 16
    for k in range(2):
        w = struct.unpack_from('<I', d, q)[0]
        tl, a0 = w & 31, struct.unpack_from('<I', d, q + 4)[0]
        q += 4 + 4 * tl if 1 <= tl <= 28 else 8 + (a0 - 4 + 3) // 4 * 4 if tl == 0 else 4 + a0 if tl == 29 else 8
    struct.pack_into('<II', d, q, struct.unpack_from('<I', d, q)[0] & ~31, 0xfff0)
    print(p, cpu)
open(sys.argv[2], 'wb').write(d)
PY

step "a corrupt chunk in the middle: dropped and told, the rest kept"
f=$FIX/v7-zstd-markers-raw_syscalls.dat
set -- $(python3 corrupt.py "$f" bad7.dat chunk)
at=$1 cpu=$2
expect_exit 0 "$TDAT" restore -o fixed7.dat bad7.dat
assert_grep "offset $at: dropped: buffer \"\" CPU $cpu: [0-9]+ bytes: a chunk that does not decompress" "$ERR"
trace-cmd report -i fixed7.dat >fixed7.txt
fixture_report "$f" >full.txt
subset full.txt fixed7.txt || fail "invented events"
lost=$(($(wc -l <full.txt) - $(wc -l <fixed7.txt)))
[ "$lost" -gt 0 ] && [ "$lost" -le 1000 ] || fail "$lost events lost for one chunk"
grep -qxF -- "$(grep "\[00$cpu\]" full.txt | tail -n 1)" fixed7.txt ||
	fail "CPU $cpu's events after the bad chunk are missing"

step "a broken chunk header: the walk goes on at the next chunk found"
# Chunk 2's compressed size made huge; in the intact file and in the one
# cut before its options (where the stream is found by searching).
for f in "$FIX/v7-zstd-markers-raw_syscalls.dat" \
	 "$FIX/truncated/v7-zstd-markers-raw_syscalls.cut-at-1059000.dat"; do
	python3 - "$f" badh.dat "$at" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<I', d, int(sys.argv[3]), 0xfffffff0)
open(sys.argv[2], 'wb').write(d)
PY
	expect_exit 0 "$TDAT" restore -o fixedh.dat badh.dat
	assert_grep "offset $at: dropped: buffer \"\" CPU 0: [0-9]+ bytes: a chunk header that does not hold together; the stream goes on at the next chunk found" "$ERR"
	trace-cmd report -i fixedh.dat >fixedh.txt
	subset full.txt fixedh.txt || fail "invented events"
	# One chunk of 10 pages lost at most, the chunks after it kept.
	case $f in
	*cut-at*) want=$((8400 - 840)) ;;
	*) want=$(($(wc -l <full.txt) - 1 - 840)) ;;
	esac
	[ "$(($(wc -l <fixedh.txt) - 1))" -ge "$want" ] ||
		fail "$f: $(wc -l <fixedh.txt) lines left"
done

step "a corrupt page in the middle of raw data (v6, v7 none): dropped and told"
for f in "$FIX/v6-clock-global.dat" "$FIX/v7-none-sched-irq.dat"; do
	for what in page event; do
		set -- $(python3 corrupt.py "$f" bad.dat $what)
		at=$1 cpu=$2
		expect_exit 0 "$TDAT" restore -o fixed.dat bad.dat
		assert_grep "offset $at: dropped: buffer \"\" CPU $cpu: 1 bad page \(4096 bytes\)" "$ERR"
		trace-cmd report -i fixed.dat >fixed.txt
		fixture_report "$f" >full.txt
		subset full.txt fixed.txt || fail "$f $what: invented events"
		[ "$(wc -l <fixed.txt)" -lt "$(wc -l <full.txt)" ] || fail "$f $what: nothing dropped"
		[ "$(wc -l <fixed.txt)" -gt 100 ] || fail "$f $what: too much dropped"
	done
done

step "big-endian, 32-bit-kernel pages (synthetic): whole, and cut"
MKVAR=$(dirname "$TDAT")/tools/mkvariant
"$MKVAR" --big-endian --long4 "$FIX/v7-zstd-sched-irq.dat" be.dat
trace-cmd report -i be.dat >be.txt
expect_exit 0 "$TDAT" restore -o be-whole.dat be.dat
trace-cmd report -i be-whole.dat | cmp -s - be.txt || fail "big-endian copy reports differently"
head -c $(($(stat -c %s be.dat) - 2000)) be.dat >be-cut.dat
expect_exit 0 "$TDAT" restore -o be-fixed.dat be-cut.dat
assert_grep 'inferred: buffer "".*2 chunk streams' "$ERR"
trace-cmd report -i be-fixed.dat >be-fixed.txt
subset be.txt be-fixed.txt || fail "big-endian salvage invented events"

step "--file-version and --compression choose the output"
expect_exit 0 "$TDAT" restore -q --file-version 6 -o v6of7.dat \
	"$FIX/truncated/v7-zstd-markers-raw_syscalls.cut-at-1059000.dat"
[ ! -s "$ERR" ] || fail "-q still printed: $(head -n 1 "$ERR")"
assert_eq "6" "$(head -c 11 v6of7.dat | tail -c 1)" "version of the output"
trace-cmd report -i v6of7.dat | cmp -s - cut7.txt || fail "v6 copy of the salvage differs"
expect_exit 2 "$TDAT" restore --compression zstd -o y.dat "$FIX/v6-sched-irq.dat"
assert_grep 'needs --file-version' "$ERR"

step "an undamaged file comes out whole"
for f in "$FIX/v6-2inst-irq-top-sched-inst1.dat" "$FIX/v7-zstd-2inst-irq-top-sched-inst1-tc34.dat"; do
	expect_exit 0 "$TDAT" restore -o whole.dat "$f"
	assert_lines 1 "$ERR"
	assert_grep 'dropped 0 bytes$' "$ERR"
	oracle whole.dat | cmp -s - "$f.report.txt" || fail "$f: report changed"
done

step "bad input: one-line errors"
printf 'not a trace' >junk.dat
expect_exit 2 "$TDAT" restore -o x.dat "$FIX/v6-sched-irq.dat" "$FIX/v6-sched-irq.dat" junk.dat
assert_lines 1 "$ERR"
assert_grep 'is a trace.dat, not a raw CPU file' "$ERR"
head -c 30 "$FIX/v7-zstd-sched-irq.dat" >short.dat
expect_exit 1 "$TDAT" restore -o x.dat short.dat
assert_lines 1 "$ERR"
assert_file_absent x.dat
expect_exit 2 "$TDAT" restore -o "$PWD/cut7.dat" cut7.dat
assert_grep 'is the input' "$ERR"

step "a lone input that is not a trace.dat or a recording: refused, one line"
# Each of these once became a 7 MB "trace" of this machine's tracefs
# metadata and no event (taken for one raw CPU file), exit 0.
cp "$FIX/v6-sched-irq.dat" magic0.dat
printf '\030' | dd of=magic0.dat bs=1 conv=notrunc status=none
cp "$FIX/v7-zstd-sched-irq.dat" magic5.dat
printf 'A' | dd of=magic5.dat bs=1 seek=5 conv=notrunc status=none
: >empty.dat
printf 'hello\n' >text.txt
mkdir plain.dir
for f in magic0.dat magic5.dat empty.dat text.txt /proc/self/status plain.dir; do
	case $f in
	magic0.dat) want='offset 0: a trace.dat whose magic is damaged' ;;
	magic5.dat) want='offset 5: a trace.dat whose magic is damaged \(17 08 44 74 72 41 .*salvage' ;;
	empty.dat) want='offset 0: an empty file' ;;
	plain.dir) want='a directory without a manifest' ;;
	*) want='offset 0: not a trace.dat file .*give their header with -i HEAD' ;;
	esac
	for o in "" "-o lone.dat"; do
		rm -f trace.dat lone.dat
		# shellcheck disable=SC2086
		expect_exit 1 "$TDAT" restore $o "$f"
		assert_lines 1 "$ERR"
		grep -qF "tdat restore: $f: " "$ERR" || fail "$f: the error does not name it: $(cat "$ERR")"
		assert_grep "$want" "$ERR"
		! grep -q '/sys/' "$ERR" || fail "$f: the error names tracefs: $(cat "$ERR")"
		assert_file_absent trace.dat
		assert_file_absent lone.dat
	done
done
if command -v strace >/dev/null &&
   strace -f -e trace=open,openat -o st.txt true 2>/dev/null; then
	for f in text.txt magic0.dat; do
		strace -f -e trace=open,openat -o st.txt "$TDAT" restore "$f" 2>/dev/null || true
		! grep -Eq 'kernel/(debug/)?tracing' st.txt || fail "restore $f read tracefs"
	done
fi

step "raw CPU files: a lone one with -i; bytes that are no kernel page make no trace"
"$MKREC" --head "$FIX/crashed/restored.dat" head.dat
expect_exit 0 "$TDAT" restore -i head.dat -o one.dat "$FIX/crashed/trace.dat.cpu0"
grep '\[000\]' "$FIX/crashed/restored.dat.report.txt" >want0.txt
trace-cmd report -i one.dat | grep '\[000\]' | cmp -s - want0.txt || fail "CPU 0 alone differs"
expect_exit 1 "$TDAT" restore -q -i head.dat -o junk-out.dat text.txt /proc/self/status
assert_lines 1 "$ERR"
assert_grep '^tdat restore: text\.txt: offset 0: nothing to restore: no page of the CPU files is a ring-buffer page' "$ERR"
assert_file_absent junk-out.dat
expect_exit 1 "$TDAT" restore -q -o junk-out.dat "$FIX/crashed/trace.dat.cpu0" magic0.dat
assert_lines 1 "$ERR"
assert_grep '^tdat restore: magic0\.dat: offset 0: a trace.dat whose magic is damaged' "$ERR"
assert_file_absent junk-out.dat

step "salvage: a BUFFER option that cannot be read is searched past, the input named"
# Its page size made 2^31: the output used to be named, with no offset.
python3 - "$FIX/v7-zstd-sched-irq.dat" bigpage.dat <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
ne = d.index(0, 18); ve = d.index(0, ne + 1)
o = struct.unpack_from('<Q', d, ve + 1)[0]
pos = o + 16                    # the options chain, to the BUFFER option
while True:
    oid, osz = struct.unpack_from('<HI', d, pos)
    if oid == 0:
        pos = struct.unpack_from('<Q', d, pos + 6)[0] + 16
        continue
    if oid == 3:
        p = d.index(0, pos + 14) + 1
        p = d.index(0, p) + 1
        struct.pack_into('<I', d, p, 0x80000000)
        break
    pos += 6 + osz
open(sys.argv[2], 'wb').write(d)
PY
expect_exit 0 "$TDAT" restore -o bigpage-out.dat bigpage.dat
assert_grep '^tdat restore: bigpage\.dat: offset [0-9]+: skipped: section 0: .*page size 2147483648 is not usable' "$ERR"
! grep -q 'bigpage-out\.dat: buffer' "$ERR" || fail "the output is named: $(cat "$ERR")"
trace-cmd report -i bigpage-out.dat >bigpage.txt
subset "$FIX/v7-zstd-sched-irq.dat.report.txt" bigpage.txt || fail "invented events"
[ "$(wc -l <bigpage.txt)" -gt 1000 ] || fail "too few events salvaged"

step "salvage: nothing left to salvage is said with an offset"
python3 - "$FIX/v6-sched-irq.dat" nodata.dat <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
fly = d.index(b'flyrecord\0')
off = struct.unpack_from('<Q', d, fly + 10)[0]
open(sys.argv[2], 'wb').write(d[:off + 100])
PY
expect_exit 1 "$TDAT" restore -q -o nodata-out.dat nodata.dat
assert_lines 1 "$ERR"
assert_grep '^tdat restore: nodata\.dat: offset [0-9]+: nothing to salvage' "$ERR"
assert_file_absent nodata-out.dat

step "inputs unchanged, no temporary files left"
sum_inputs | cmp -s sums.before - || fail "an input was modified"
left=$(find . -name '*.tmp*' -o -name '.*tdat*' -o -name '*.head-*' | head -n 3)
[ -z "$left" ] || fail "temporary files left: $left"
echo "restore: all checks passed"

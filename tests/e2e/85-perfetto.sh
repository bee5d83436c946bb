#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# convert --to perfetto, read by Perfetto's own trace processor
# (../shared/tools/tp, the engine behind ui.perfetto.dev): on every
# fixture, external, trace-cmd 2.9.1 and restored recording, a made
# big-endian 32-bit one, a made guest, a synthetic one of atrace markers,
# counters and odd fields (tests/tools/perfetto/synth.txt), instances,
# and a host and its guest in one trace (two Perfetto machines),
# tests/tools/perfetto/pfcheck.py checks the trace against report --json: no import error, per event
# name as many rows as report prints, the sched slices of the
# sched_switch events, thread names, cpufreq and cpuidle counters, every
# event's args, atrace markers as slices.  The checker proves first that
# it fails on a spoiled report.  Then damaged input, outputs in the way,
# signals, and memory.
. "$E2E/lib.sh"

root=$(cd "$E2E/../.." && pwd)
TP=${TDAT_TP:-$root/../shared/tools/tp}
[ -x "$TP" ] || skip "Perfetto's trace processor ($TP) is absent"
command -v python3 >/dev/null || skip "python3 is not installed"
check=$root/tests/tools/perfetto/pfcheck.py
tools=$(dirname "$TDAT")/tools
for t in mkevents mkodd mkvariant; do
	[ -x "$tools/$t" ] || fail "$tools/$t is missing (make $tools/$t)"
done

# pf INPUT... [-- PFCHECK OPTIONS]: export, report --json, check
pf() {
	local ins=() opts=() f

	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		ins+=(-i "$1")
		shift
	done
	[ $# -gt 0 ] && shift && opts=("$@")
	expect_exit 0 $TDAT convert --to perfetto -q "${ins[@]}" -o out.pftrace
	[ -s out.pftrace ] || fail "no trace from ${ins[*]}"
	$TDAT report --json "${ins[@]}" >report.jsonl 2>/dev/null ||
		fail "report --json ${ins[*]}"
	$TDAT report "${ins[@]}" >report.txt 2>/dev/null ||
		fail "report ${ins[*]}"
	$TDAT report -N "${ins[@]}" >plain.txt 2>/dev/null ||
		fail "report -N ${ins[*]}"
	python3 "$check" "$TP" out.pftrace report.jsonl --text report.txt \
		--plain plain.txt "${opts[@]}" ||
		fail "the trace of ${ins[*]} is not what report says"
}

step "the checker fails on a spoiled report"
f=$FIX/v7-zstd-sched-irq.dat
$TDAT convert --to perfetto -q -i "$f" -o good.pftrace || fail "export $f"
$TDAT report --json -i "$f" >good.jsonl
python3 "$check" "$TP" good.pftrace good.jsonl >/dev/null ||
	fail "the checker refuses a good trace"
for spoil in 's/"prev_state":1,/"prev_state":2,/' \
	     's/"comm":"kworker[^"]*"/"comm":"zzz"/' \
	     's/"runtime":1/"runtime":2/' \
	     '0,/"sched_switch"/{/"sched_switch"/d}' \
	     's/"timestamp":534057/"timestamp":534058/'; do
	sed "$spoil" good.jsonl >spoiled.jsonl
	cmp -s good.jsonl spoiled.jsonl && fail "spoiling ($spoil) changed nothing"
	if python3 "$check" "$TP" good.pftrace spoiled.jsonl >spoiled.log; then
		fail "the checker passes a report spoiled by $spoil"
	fi
done
$TDAT report -N -i "$f" >good-plain.txt
python3 "$check" "$TP" good.pftrace good.jsonl --plain good-plain.txt >/dev/null ||
	fail "the checker refuses a good trace's states"
awk '!done && / sched_switch: / && / prev_state=S / && !/ prev_pid=0 / {
	sub(/ prev_state=S /, " prev_state=D "); done = 1 } 1' good-plain.txt >spoiled-plain.txt
cmp -s good-plain.txt spoiled-plain.txt && fail "spoiling report -N's states changed nothing"
if python3 "$check" "$TP" good.pftrace good.jsonl --plain spoiled-plain.txt >spoiled.log; then
	fail "the checker passes a report -N whose S is made D"
fi

# Made as 80-parquet makes them: a guest whose TIME_SHIFT moves its
# timestamps, a big-endian variant with 4-byte longs.
python3 - <<'PY'
import struct
s = [(534000000000, 1000, 1), (535500000000, 2000000, 1)]
b = struct.pack('<QII', 0x385D95BCB43E1719, 1, 2)
for c in range(2):
    b += struct.pack('<I', 2)
    for k in range(3):
        b += struct.pack('<2q', *[x[k] for x in s])
open('shift.bin', 'wb').write(b)
PY
"$tools/mkodd" --add-option-file 12 shift.bin "$FIX/v7-zstd-sched-irq.dat" made-guest.dat ||
	fail "mkodd could not make a guest"
"$tools/mkvariant" --big-endian --long4 "$FIX/v6-sched-irq.dat" made-be-long4.dat ||
	fail "mkvariant could not make a big-endian variant"
"$tools/mkevents" "$root/tests/tools/perfetto/synth.txt" synth6.dat ||
	fail "mkevents synth.txt"
printf 'Linux synth 6.1.0 x86_64\0' >uname.bin
"$tools/mkodd" --add-option-file 5 uname.bin synth6.dat made-synth.dat ||
	fail "mkodd could not add a UNAME"

n=0
for f in "$FIX"/*.dat "$FIX"/external/*.dat "$FIX"/tc291/*.dat \
	 "$FIX"/workqueue/*.dat "$FIX"/crashed/restored.dat "$PWD"/made-*.dat; do
	n=$((n + 1))
	step "${f#"$FIX"/}"
	case $f in
	*made-synth.dat) pf "$f" -- --atrace 4 ;;
	*) pf "$f" ;;
	esac
done
[ "$n" -ge 25 ] || fail "only $n fixtures"

step "the synthetic trace: what its events make in Perfetto's tables"
pf made-synth.dat -- --atrace 4
"$TP" -q /dev/stdin out.pftrace >tables.csv 2>/dev/null <<'SQL' || fail "tp on the synthetic trace"
select 'slice', ts, dur, name from slice order by ts;
select 'counter', c.ts, t.name, cast(c.value as int) from counter c join track t on c.track_id = t.id order by c.ts;
select 'thread', tid, name from thread where tid in (201, 300) order by tid;
select 'legacy', count(*) from ftrace_event e join args a using(arg_set_id) where e.name = 'wide';
select 'release', str_value from metadata where name = 'system_release';
SQL
tr -d '"' <tables.csv | grep -E '^(slice|counter|thread|legacy|release),' >got.txt
cat >want.txt <<'TXT'
slice,1000,1000,frame
slice,3000,2000,outer
slice,3500,500,inner
slice,8000,-1,unended
counter,100,cpufreq,1800000
counter,700,cpufreq,2400000
counter,6000,depth,42
counter,9500,cpuidle,1
counter,9600,cpuidle,4294967295
thread,201,renamed
thread,300,never-scheduled
legacy,33
release,6.1.0
TXT
assert_same want.txt got.txt

step "thread states as each kernel's format shows them, whatever release is declared"
# lisa_example_rtapp: a 4.x kernel's format (x K W P N, preemption at
# 0x800, 16 printed Z and 32 X) and no uname; v7-zstd-sched-irq: 6.18's
# (P I, preemption at 0x100).  Each declared as a release of each
# decoding trace_processor has, and with none: the same sched and
# thread_state tables every time, those of the states report -N shows
# (pf, with no error stat, on the first and on the issue's case: an old
# format and a 4.14+ release), and SystemInfo's sysname saying where tdat
# chose the bits (no release; a 4.14+ release whose bits lack the
# format's x K W N).  Nothing else trace_processor makes depends on the
# release either: slices (IRQs, softirqs), counters, threads, every
# event's args but prev_state and the stats are the same every time.
for base in external/lisa_example_rtapp v7-zstd-sched-irq; do
	name=$(basename $base)
	for rel in none 3.10.0 4.9.0 4.19.0-rpi; do
		v=$PWD/rel-$name-$rel.dat
		if [ $rel = none ]; then
			"$tools/mkodd" --drop-option 5 "$FIX/$base.dat" "$v"
		else
			"$tools/mkodd" --drop-option 5 --add-option 5 \
				"Linux pi $rel #1 SMP x86_64" "$FIX/$base.dat" "$v"
		fi || fail "mkodd could not declare $rel"
		case $name-$rel in
		*-none | lisa_example_rtapp-4.19.0-rpi) pf "$v" ;;
		*) expect_exit 0 $TDAT convert --to perfetto -q -i "$v" -o out.pftrace ;;
		esac
		"$TP" -q /dev/stdin out.pftrace 2>/dev/null <<'SQL' | tr -d '"' >tables-$rel.csv
select ts, dur, cpu, utid, end_state from sched order by ts, cpu;
select utid, ts, dur, state, waker_utid from thread_state order by utid, ts;
select ts, dur, name, category, depth from slice order by ts, name;
select c.ts, t.name, c.value from counter c join track t on c.track_id = t.id order by c.ts, t.name;
select utid, tid, name, upid, start_ts, end_ts from thread order by utid;
select e.name, a.key, a.display_value, count(*) from ftrace_event e join args a using(arg_set_id) where a.key != 'prev_state' group by 1, 2, 3 order by 1, 2, 3;
select name, idx, value from stats where value > 0 and name not like '%duration%' order by 1, 2;
select 'sysname', str_value from metadata where name = 'system_name';
SQL
		case $name-$rel in
		*-none) want="Linux (no uname in the trace.dat: prev_state in Linux 4.4's bits)" ;;
		lisa_example_rtapp-4.19.0-rpi) want="Linux (prev_state in Linux 4.4's bits, which have every state this kernel's sched_switch shows)" ;;
		*) want=Linux ;;
		esac
		assert_eq "sysname,$want" "$(grep '^sysname,' tables-$rel.csv)" "$name as $rel: SystemInfo"
		grep -v '^sysname,' tables-$rel.csv >states-$rel.csv
		[ "$(grep -cE ',(R|R\+|S|D|I)$' states-$rel.csv)" -gt 200 ] || fail "$name as $rel: few states"
		assert_same states-none.csv states-$rel.csv
	done
done
# Bits already right are kept: 6.18's as 4.19, prev_state as recorded.
v=rel-v7-zstd-sched-irq-4.19.0-rpi.dat
expect_exit 0 $TDAT convert --to perfetto -q -i $v -o out.pftrace
$TDAT report --json -i $v 2>/dev/null | grep '"sched_switch"' |
	grep -o '"prev_state":[0-9-]*' | cut -d: -f2 | sort | uniq -c >want.txt
"$TP" -q /dev/stdin out.pftrace 2>/dev/null <<'SQL' | tr -d '"' | tail -n +2 |
select EXTRACT_ARG(arg_set_id, 'prev_state') from ftrace_event where name = 'sched_switch';
SQL
	sort | uniq -c >got.txt
assert_same want.txt got.txt

step "lost events: the next bundle of their CPU is marked, the stats say so"
# No fixture has lost events: a copy of one gets the ring buffer's flags
# on each CPU's 2nd page, as 44-report-json makes them (CPU 0: a count
# of 42 stored after the data; CPU 1: a count unknown).
v6=$FIX/v6-sched-irq.dat
expect_exit 0 $TDAT report --stat -i "$v6"
python3 - "$v6" "$OUT" <<'PY' || fail "cannot make drop.dat"
import re, struct, sys
src, stat = sys.argv[1:3]
offs = [int(o, 16) for o in re.findall(
    r"CPU\d+ data recorded at offset=(0x[0-9a-f]+)", open(stat).read())]
assert len(offs) == 2, offs
drop = bytearray(open(src, "rb").read())
for cpu, stored in ((0, True), (1, False)):
    page = offs[cpu] + 4096
    commit = struct.unpack_from("<Q", drop, page + 8)[0]
    size = commit & 0xfffff
    struct.pack_into("<Q", drop, page + 8,
                     commit | 1 << 31 | (1 << 30 if stored else 0))
    if stored:
        struct.pack_into("<Q", drop, page + 16 + size, 42)
open("drop.dat", "wb").write(drop)
PY
pf drop.dat
[ "$(grep -c '"missed_events"' report.jsonl)" = 2 ] || fail "drop.dat: not 2 events after a loss"
"$TP" -q /dev/stdin out.pftrace 2>/dev/null <<'SQL' | tr -d '"' | grep '^ftrace_cpu_has_data_loss' >loss.txt || true
select name, idx, value from stats where name = 'ftrace_cpu_has_data_loss' order by idx;
SQL
printf 'ftrace_cpu_has_data_loss,0,1\nftrace_cpu_has_data_loss,1,1\n' >want.txt
assert_same want.txt loss.txt

step "the per-CPU stats of the recording are Perfetto's ftrace_cpu_*_end stats"
for f in "$FIX/v6-sched-irq.dat" "$FIX/external/lisa_trappy_2014a.dat"; do
	expect_exit 0 $TDAT convert --to perfetto -q -i "$f" -o stats.pftrace
	$TDAT dump --options "$f" | python3 -c '
import re, sys
keys = {"entries": "entries", "overrun": "overrun", "commit overrun": "commit_overrun",
        "bytes": "bytes", "dropped events": "dropped_events", "read events": "read_events"}
cpu = None
for line in sys.stdin:
    m = re.match(r"CPU: (\d+)$", line.strip())
    if m:
        cpu = int(m.group(1))
    elif line.startswith("Buffer:"):
        break
    elif cpu is not None and ": " in line:
        k, v = line.strip().split(": ", 1)
        if k in keys and int(v):
            print("ftrace_cpu_%s_end,%d,%s" % (keys[k], cpu, v))
' | sort >want.txt
	"$TP" -q /dev/stdin stats.pftrace 2>/dev/null <<'SQL' | tr -d '"' | grep '^ftrace_cpu_' | grep -v '_ts_end,' | sort >got.txt || true
select name, idx, value from stats where name like 'ftrace_cpu_%_end' and value != 0;
SQL
	[ -s want.txt ] || fail "$f: no CPUSTAT numbers"
	assert_same want.txt got.txt
done

step "work items: slices named by their kernel function, as report names it"
w=$FIX/workqueue/v7-zstd-workqueue-tc.dat
pf "$w"
grep -o 'workqueue_execute_start: .*function [^ ]*' report.txt |
	sed 's/.*function //' | sort >want.txt
"$TP" -q /dev/stdin out.pftrace 2>/dev/null <<'SQL' | tr -d '"' | tail -n +2 | sort >got.txt
select s.name from slice s where s.category = 'workqueue';
SQL
[ "$(wc -l <want.txt)" -ge 50 ] || fail "only $(wc -l <want.txt) work items"
assert_same want.txt got.txt
grep -q '^0x' got.txt && fail "a work item named by its address"
expect_exit 0 $TDAT convert --to perfetto -q -i "$w" -i "$w" -o two.pftrace
"$TP" -q /dev/stdin two.pftrace 2>/dev/null <<'SQL' | tr -d '"' | grep -c '^0x' >hex.txt || true
select s.name from slice s where s.category = 'workqueue';
SQL
assert_eq 0 "$(cat hex.txt)" "work items of the second machine named by address"

step "a pid/tgid table (gpuvis's option 8): threads in their processes"
g=$FIX/external/gpuvis_amdgpu.dat
expect_exit 0 $TDAT convert --to perfetto -q -i "$g" -o g.pftrace
"$TP" -q /dev/stdin g.pftrace 2>/dev/null <<'SQL' | tr -d '"' | grep '^[0-9]' >got.txt || true
select t.tid, p.pid, p.name from thread t join process p using(upid) where t.tid in (25412, 20337, 25310) order by t.tid;
SQL
printf '20337,20337,steam\n25310,25159,vrdashboard\n25412,20337,steam\n' >want.txt
assert_same want.txt got.txt

step "a host and its guest in one trace: two machines, each its own CPUs and threads"
host=$FIX/v7-zstd-sched-irq.dat
pf "$host" made-guest.dat -- --machine "$host=0" --machine made-guest.dat=1
"$TP" -q /dev/stdin out.pftrace 2>/dev/null <<'SQL' | tr -d '"' | grep '^[0-9]' >cpus.txt || true
select m.raw_id, c.cpu from cpu c join machine m on c.machine_id = m.id order by m.raw_id, c.cpu;
SQL
assert_eq "0,0 0,1 1,0 1,1" "$(tr '\n' ' ' <cpus.txt | sed 's/ $//')" "the machines' CPUs"
# the guest is the host's recording shifted: every pid is in both, once
"$TP" -q /dev/stdin out.pftrace 2>/dev/null <<'SQL' | tr -d '"' | grep '^[0-9]' >dup.txt || true
select count(*), sum(n = 2) from (select tid, count(*) n from thread where tid > 0 group by tid);
SQL
IFS=, read -r tids twice <dup.txt
[ "${tids:-0}" -gt 10 ] && [ "$tids" = "$twice" ] ||
	fail "host and guest threads: $tids pids, $twice of them on both machines"

step "several chains compressed on two threads: the same file every time"
six=()
for i in 1 2 3 4 5 6; do six+=(-i "$FIX/external/lisa_trappy_2014a.dat"); done
expect_exit 0 $TDAT convert --to perfetto -q "${six[@]}" -o six1.pftrace
expect_exit 0 $TDAT convert --to perfetto -q "${six[@]}" -o six2.pftrace
assert_same six1.pftrace six2.pftrace
packets=$(python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
i = n = 0
def varint(i):
    v = s = 0
    while True:
        c = d[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if c < 0x80: return v, i
while i < len(d):
    _, i = varint(i); ln, i = varint(i)
    n += d[i:i + 2] == bytes([0x92, 0x03]); i += ln
print(n)' six1.pftrace)
[ "$packets" -ge 3 ] || fail "only $packets compressed packets: the threads are not exercised"
"$TP" -q /dev/stdin six1.pftrace 2>/dev/null <<'SQL' | tr -d '"' | tail -n 1 >got.txt
select count(*) from ftrace_event;
SQL
assert_eq $((6 * 51797)) "$(cat got.txt)" "events of six inputs"

step "a cut file: its complete pages exported, one line, exit 1"
cut=$FIX/truncated/v6-sched-irq.cut-at-5470064.dat
expect_exit 1 $TDAT convert --to perfetto -q -i "$cut" -o cut.pftrace
assert_lines 1 "$ERR"
assert_grep "^tdat convert: $cut: offset [0-9]+: " "$ERR"
$TDAT report --json -i "$cut" >report.jsonl 2>/dev/null || true
python3 "$check" "$TP" cut.pftrace report.jsonl || fail "the cut file's trace"

mkdir out
step "not a trace.dat: one line with the file and offset, nothing left"
head -c 20000 /dev/urandom >junk.dat
expect_exit 1 $TDAT convert --to perfetto -i junk.dat -o out/x.pftrace
assert_lines 1 "$ERR"
assert_grep '^tdat convert: junk.dat: offset [0-9]+: ' "$ERR"
expect_exit 1 $TDAT convert --to perfetto -i "$FIX/v6-sched-irq.dat" -i junk.dat -o out/x.pftrace
assert_file_absent out/x.pftrace
[ -z "$(ls -A out)" ] || fail "left in out/: $(ls -A out)"

step "trace.dat options are usage errors; -i == -o refused"
expect_exit 2 $TDAT convert --to perfetto --compression zlib -i "$FIX/v6-sched-irq.dat" -o out/x.pftrace
assert_grep 'compression does not go with --to perfetto' "$ERR"
expect_exit 2 $TDAT convert --to perfetto --level 10 -i "$FIX/v6-sched-irq.dat" -o out/x.pftrace
assert_grep 'not a zlib level' "$ERR"
cp "$FIX/v6-sched-irq.dat" in.dat
expect_exit 2 $TDAT convert --to perfetto -i in.dat -o in.dat
cmp -s in.dat "$FIX/v6-sched-irq.dat" || fail "the input was written over"

step "a symlink planted at the output name is replaced, not followed"
echo precious >victim
ln -s "$PWD/victim" out/link.pftrace
expect_exit 0 $TDAT convert --to perfetto -q -i "$FIX/v6-sched-irq.dat" -o out/link.pftrace
assert_eq precious "$(cat victim)" "the link's target"
[ -f out/link.pftrace ] && [ ! -L out/link.pftrace ] || fail "out/link.pftrace is not the trace"
rm -f out/*

step "a full disk: one line naming the trace, exit 2, nothing left"
if mkdir small && mount -t tmpfs -o size=100k tmpfs small 2>/dev/null; then
	expect_exit 2 $TDAT convert --to perfetto -q -i "$FIX/external/lisa_trappy_2014a.dat" -o small/x.pftrace
	assert_lines 1 "$ERR"
	assert_grep '^tdat convert: small/x.pftrace: offset [0-9]+: write error: No space left on device' "$ERR"
	[ -z "$(ls -A small)" ] || fail "a full disk left $(ls -A small)"
	umount small
else
	echo "(cannot mount a tmpfs here: full disk not checked)"
fi

step "SIGTERM and SIGINT while the trace is written: nothing left"
big=()
for i in 1 2 3 4 5 6; do big+=(-i "$FIX/external/lisa_trappy_2014a.dat"); done
for sig in TERM INT; do
	spawn $TDAT convert --to perfetto --level 9 -q "${big[@]}" -o out/sig.pftrace
	sleep 0.3
	kill -"$sig" $pid 2>/dev/null || true
	rc=0
	wait $pid || rc=$?
	[ $rc -eq 0 ] && { echo "(ended before SIG$sig)"; rm -f out/*; continue; }
	assert_eq $((128 + $(kill -l "$sig"))) "$rc" "exit status after SIG$sig"
	[ -z "$(ls -A out)" ] || fail "SIG$sig left $(ls -A out)"
done

step "memory: within 64 MiB on the largest fixture"
kb=$(peak_rss_kb $TDAT convert --to perfetto -q -i "$FIX/external/gpuvis_amdgpu.dat" -o out/m.pftrace)
lim=$((64 * 1024))
[ "${TDAT_SANITIZED:-0}" = 1 ] && lim=$((lim * 4))
[ "$kb" -le $lim ] || fail "peak RSS $kb KiB"
echo "$n inputs: the trace processor reads each as report shows it (peak RSS $kb KiB)"

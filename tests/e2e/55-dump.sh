#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 55-dump: tdat dump against trace-cmd dump, option by option, on every
# fixture trace-cmd reads; the stored --summary outputs; the zlib file
# against trace-cmd 3.4; files cut at structure offsets (trace-cmd's
# stdout, then one error line with the offset, exit 1); --json; -v.
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"

PARTS="--summary --head-page --head-event --ftrace-events --systems
	--events --printk --cmd-lines --options --flyrecord --clock --sections
	--strings"

step "every part option on every fixture, as trace-cmd dump prints it"
for f in "$FIX"/*.dat "$FIX"/external/*.dat "$FIX"/truncated/*.dat \
	 "$FIX"/crashed/restored.dat; do
	# (gpuvis_amdgpu.dat: trace-cmd cannot read it, 29-external.sh
	# compares its dump with trace-cmd's of a copy it can read)
	case $f in *zlib*|*/gpuvis_amdgpu.dat) continue ;; esac
	for o in $PARTS; do
		expect_exit 0,1 "$TDAT" dump -i "$f" $o
		assert_oracle "$OUT" trace-cmd dump -i "$f" $o
	done
done

step "--all, --kallsyms, two options at once, the default, FILE without -i"
for f in "$FIX"/v6-sched-irq.dat "$FIX"/v7-zstd-2inst-irq-top-sched-inst1.dat; do
	for o in --all --kallsyms "--options --clock" "--systems --head-page" ""; do
		expect_exit 0 "$TDAT" dump -i "$f" $o
		assert_oracle "$OUT" trace-cmd dump -i "$f" $o
	done
	expect_exit 0 "$TDAT" dump "$f"
	assert_oracle "$OUT" trace-cmd dump "$f"
done

step "the stored trace-cmd dump --summary outputs, run in the fixtures' directory"
for want in "$FIX"/*.dat.dump.txt; do
	n=${want##*/}
	n=${n%.dump.txt}
	(cd "$FIX" && "$TDAT" dump -i "$n" --summary) >got.txt ||
		fail "tdat dump -i $n failed"
	cmp -s "$want" got.txt || { diff "$want" got.txt | head >&2; fail "$n: not its .dump.txt"; }
done

step "-v on files trace-cmd calls valid"
for f in "$FIX"/v6-sched-irq.dat "$FIX"/v7-zstd-sched-irq.dat "$FIX"/v7-none-sched-irq.dat; do
	expect_exit 0 "$TDAT" dump -v -i "$f"
	assert_oracle "$OUT" trace-cmd dump -v -i "$f"
done

step "-v reads the data: a cut CPU stream is named, trace-cmd misses it"
cut=$FIX/truncated/v6-sched-irq.cut-at-5470064.dat
expect_exit 1 "$TDAT" dump --validate -i "$cut"
assert_lines 1 "$ERR"
assert_grep "cut-at-5470064.dat: offset 5468160: .*CPU 1" "$ERR"
[ -s "$OUT" ] && fail "-v printed 'valid' for a cut file"

step "cut files: trace-cmd's stdout, then one line with the offset, exit 1"
# cut FILE BYTES OFFSET-IN-MESSAGE
cut_at() {
	head -c "$2" "$1" >cut.dat
	expect_exit 1 "$TDAT" dump -i cut.dat
	assert_oracle "$OUT" trace-cmd dump -i cut.dat
	assert_lines 1 "$ERR"
	assert_grep "^tdat dump: cut.dat: offset $3: " "$ERR"
}
v6=$FIX/v6-sched-irq.dat
cut_at "$v6" 10 10		# in the version string
cut_at "$v6" 30 30		# header_page's size
cut_at "$v6" 250 243		# the header_event keyword
cut_at "$v6" 20000 19292	# an event format
cut_at "$v6" 1000000 32870	# kallsyms
cut_at "$v6" 5452500 5451784	# saved command lines
v7=$FIX/v7-zstd-sched-irq.dat
cut_at "$v7" 30 29		# the options offset
cut_at "$v7" 40 39		# the first section's header
cut_at "$v7" 20000 1019157	# the options section is gone
cut_at "$v7" 1019200 1019193	# inside an option
cut_at "$v7" 1031100 1031072	# the BUFFER option
cut_at "$v7" 1031160 1031157	# the strings section's header
cut_at "$v7" 1031216 1031149	# the strings body: trace-cmd prints all, tdat says so
expect_exit 1 "$TDAT" dump -i "$FIX"/truncated/v7-zstd-markers-raw_syscalls.cut-at-1059000.dat --all
assert_oracle "$OUT" trace-cmd dump -i "$FIX"/truncated/v7-zstd-markers-raw_syscalls.cut-at-1059000.dat --all
assert_grep "offset 1149511: section id" "$ERR"

step "not a trace.dat, missing file"
expect_exit 1 "$TDAT" dump -i /proc/version
assert_lines 1 "$ERR"
expect_exit 1 "$TDAT" dump -i /no/such.dat
assert_grep "^tdat dump: /no/such.dat: " "$ERR"
expect_exit 2 "$TDAT" dump --no-such-option
assert_grep "unknown option" "$ERR"

step "--json: one object that python parses, with the file's numbers"
expect_exit 0 "$TDAT" dump --json -i "$FIX"/v7-zstd-2inst-irq-top-sched-inst1.dat
python3 - "$OUT" <<'PY' || fail "--json values"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["version"] == 7 and j["compression"] == "zstd", j
assert j["buffers"] == 2 and j["cpus"] == 2 and j["sections"] == 12, j
assert j["options"] == 21 and j["kallsyms_bytes"] == 5414586, j
assert j["cmdlines_bytes"] == 1704 and j["clock"] == "local", j
assert j["valid"] is True and j["error"] is None, j
PY
head -c 1000000 "$v6" >cut.dat
expect_exit 1 "$TDAT" dump --json -i cut.dat
python3 - "$OUT" <<'PY' || fail "--json of a cut file"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["version"] == 6 and j["ftrace_events"] == 18 and j["systems"] == 2, j
assert j["valid"] is False and "offset 32870" in j["error"], j
PY

step "zlib: as trace-cmd 3.4 prints it"
if tc34=$(tc34_oracle); then
	z=$FIX/v7-zlib-sched-irq-tc34.dat
	for o in $PARTS --all; do
		expect_exit 0 "$TDAT" dump -i "$z" $o
		assert_oracle "$OUT" "$tc34" dump -i "$z" $o
	done
	expect_exit 0 "$TDAT" dump -v -i "$z"
else
	echo "skipped the zlib part: $tc34"
fi

step "options and sections trace-cmd does not know, as it prints them"
# (an option id 200, a section id 40: mkvariant --unknown), v6 and v7
for f in "$FIX/v6-sched-irq.dat" "$FIX/v7-zstd-sched-irq.dat"; do
	"$(dirname "$TDAT")/tools/mkvariant" --unknown "$f" unknown.dat
	expect_exit 0 "$TDAT" dump --all -i unknown.dat
	assert_oracle "$OUT" trace-cmd dump --all -i unknown.dat
	assert_grep '^ 200 23	\[Unknown option, size - skipping\]$' "$OUT"
done
assert_grep '^Unknown section id 40: section from the future	\[Section 40 @' "$OUT"

# No fixture holds the options of host and guest recordings: copies of a
# fixture get them from tests/tools/mkodd, with payloads written here,
# among them the short and broken ones trace-cmd checks.
step "TIME_SHIFT, GUEST and TSC2NSEC as trace-cmd prints them"
mkodd=$(dirname "$TDAT")/tools/mkodd
python3 - <<'PY'
import struct
def cpu(s):
    b = struct.pack('<I', len(s))
    for k in range(3):
        b += struct.pack('<%dq' % len(s), *[x[k] for x in s])
    return b
two, three = [(100, -7, 1), (200, 8, 2)], [(300, 9, 3), (400, -10, 4), (500, 11, 5)]
head = struct.pack('<QII', 0xabcdef, 3, 2)
cases = {
    'shift': head + cpu(two) + cpu(three),
    'shift-frac': head + cpu(two) + cpu(three) + struct.pack('<5q', 1, 2, 3, 4, 5),
    'shift-nocpu': struct.pack('<QII', 1, 0, 0),
    'shift-halffrac': head + cpu(two) + cpu(three) + struct.pack('<2q', 1, 2),
    'shift-signs': struct.pack('<QII', 7, 1, 2) + cpu([(-100, -7, -2)]) + cpu([]) +
                   struct.pack('<q', -3),
    'shift-cpumissing': struct.pack('<QII', 7, 1, 2) + cpu([(1, 2, 3)]),
    'shift-count': struct.pack('<QII', 7, 1, 1) + struct.pack('<I', 1000) + bytes(24),
}
for n, b in cases.items():
    open(n + '.opt12', 'wb').write(b)
guests = {
    'guest': b'guest-two\0' + struct.pack('<QI', 2**64 - 1, 1) + struct.pack('<Ii', 3, -1),
    'guest-noname': b'\0' + struct.pack('<QI', 5, 0),
    'guest-short': b'gx\0' + struct.pack('<QI', 5, 3) + struct.pack('<II', 0, 1),
}
for n, b in guests.items():
    open(n + '.opt13', 'wb').write(b)
PY
f=$FIX/v7-zstd-sched-irq.dat
for o in *.opt12 *.opt13; do
	id=${o##*.opt}
	"$mkodd" --add-option-file "$id" "$o" "$f" "${o%.*}.dat"
done
"$mkodd" --add-option-file 12 shift-frac.opt12 --add-tsc2nsec 7 3 "$f" tsc.dat
for x in shift*.dat guest*.dat tsc.dat; do
	expect_exit 0 "$TDAT" dump --options -i "$x"
	assert_oracle "$OUT" trace-cmd dump --options -i "$x"
done

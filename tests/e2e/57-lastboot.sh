#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A ring buffer kept across a reboot, as extract reads it after a crash
# (fixtures/lastboot/: real files of the VM bed, tests/vm/crash, on
# Debian's 6.12 and 7.2 kernels with KASLR, one by trace-cmd 3.4's
# extract, and beside each the kernel's own text of the instance):
#  - report names every function and symbol of the last boot as the
#    kernel's text names it, with both LAST_BOOT_INFO forms (6.12's text
#    delta, 6.15's addresses), as many events, the last marker last; and
#    as trace-cmd 3.4 reports it (7.2);
#  - dump prints the options 23, 24, 25 and the modules section as
#    trace-cmd 3.4's dump prints them;
#  - convert (v7; v6 keeps LAST_BOOT_INFO and says what it drops), split
#    and merge keep them, and report the same;
#  - the Parquet and Perfetto exports carry the same names;
#  - a malformed LAST_BOOT_INFO, module lines of garbage, a damaged BTF
#    or modules section: one line, the events still reported.
. "$E2E/lib.sh"

root=$(cd "$E2E/../.." && pwd)
LB=$FIX/lastboot
TOOLS=$(dirname "$TDAT")/tools
[ -x "$TOOLS/mkodd" ] || fail "$TOOLS/mkodd is missing (make $TOOLS/mkodd)"
if ! tc34=$(tc34_oracle); then
	echo "skipped the comparisons with trace-cmd 3.4: $tc34"
	tc34=-
fi

# results F: what tests/vm/crash-check reads, for fixture F
results() {
	local b=${1%.dat}

	rm -rf res && mkdir res
	cp "$b.kernel.txt" res/kernel.txt
	cp "$b.state" res/state
	cp "$b.last_boot_info" res/last_boot_info
	cp "$1" res/f.dat
}

step "report: the last boot's names, as the kernel's text has them"
for f in "$LB"/*.dat; do
	results "$f"
	"$root/tests/vm/crash-check" "$TDAT" "$tc34" res f >check.txt 2>&1 ||
		{ cat check.txt >&2; fail "${f##*/}: not as the kernel shows it"; }
	echo "    ${f##*/}: $(cat check.txt)"
done

step "report --json: every stack frame recorded, at the last boot's addresses"
# kernel_stack's caller[8] is cut short by the record: as many frames
# as the stack had, not null
for f in "$LB"/*.dat; do
	$TDAT report --json -i "$f" >j.jsonl || fail "report --json -i $f"
	python3 - j.jsonl <<'PY' || fail "${f##*/}: kernel_stack's frames in --json"
import json, sys
n = 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e['event'] != 'kernel_stack':
        continue
    c, k = e['fields']['caller'], e['fields']['size']
    assert isinstance(c, list) and len(c) == k, (k, c)
    assert all(a >= 0xffffffff80000000 for a in c), c
    n += 1
assert n >= 3, n
PY
done

step "report without the last boot's info names them otherwise"
# the same file with LAST_BOOT_INFO dropped: the check must fail, or it
# proves nothing
"$TOOLS/mkodd" --drop-option 24 "$LB/boot_map-7.2-kaslr.dat" nolb.dat
results "$LB/boot_map-7.2-kaslr.dat"
cp nolb.dat res/f.dat
if "$root/tests/vm/crash-check" "$TDAT" - res f >check.txt 2>&1; then
	fail "the check passes without LAST_BOOT_INFO: it checks nothing"
fi

step "dump: as trace-cmd 3.4's"
for f in "$LB"/*.dat; do
	for o in "" --options --sections --all --cmd-lines; do
		expect_exit 0 $TDAT dump $o -i "$f"
		[ "$tc34" = - ] || assert_oracle "$OUT" "$tc34" dump $o -i "$f"
	done
done
expect_exit 0 $TDAT dump --options -i "$LB/boot_map-7.2-kaslr.dat"
assert_grep '^		\[Option LAST_BOOT_INFO, [0-9]+ bytes\]$' "$OUT"
assert_grep '^boot_map:ffffffff[0-9a-f]{8}	\[kernel\]$' "$OUT"
assert_grep '^		\[Option MODULES_FILE, 8 bytes\] @ [0-9]+$' "$OUT"
assert_grep '^ 23 8	\[Unknown option, size - skipping\]$' "$OUT"
expect_exit 0 $TDAT dump -i "$LB/boot_map-7.2-kaslr.dat"
assert_grep '^	\[Saved modules\]$' "$OUT"

step "convert, split, merge keep them"
for f in "$LB"/*.dat; do
	$TDAT report -i "$f" >want.txt
	for to in "--compression none" "--compression zlib" \
		  "--compression zstd --level 19" "--file-version 6"; do
		expect_exit 0 $TDAT convert -q $to -i "$f" -o c.dat
		expect_exit 0 $TDAT report -i c.dat
		assert_same want.txt "$OUT"
		expect_exit 0 $TDAT dump --options -i c.dat
		assert_grep '^		\[Option LAST_BOOT_INFO' "$OUT"
		case $to in
		*6) expect_exit 0 $TDAT convert $to -i "$f" -o c.dat
		    assert_grep 'v6 cannot hold the BTF section: dropped' "$ERR"
		    assert_grep 'v6 cannot hold the modules section: dropped' "$ERR" ;;
		*) assert_grep '^		\[Option MODULES_FILE' "$OUT"
		   assert_grep '^ 23 8	' "$OUT" ;;
		esac
	done
	rm -f piece*
	expect_exit 0 $TDAT split -i "$f" -o piece -e 40 -r
	expect_exit 0 $TDAT dump --options -i piece.0001
	assert_grep '^		\[Option LAST_BOOT_INFO' "$OUT"
	assert_grep '^		\[Option MODULES_FILE' "$OUT"
	expect_exit 0 $TDAT merge -q -o merged.dat piece*
	expect_exit 0 $TDAT report -i merged.dat
	assert_same want.txt "$OUT"
done
[ "$tc34" = - ] || {
	expect_exit 0 $TDAT convert -q -i "$LB/boot_map-7.2-kaslr.dat" -o c.dat
	$TDAT report --layout 3.4 -N -i c.dat >ours.txt
	assert_oracle ours.txt "$tc34" report -N -i c.dat
}

step "Perfetto: work items named as the kernel names them"
TP=${TDAT_TP:-$root/../shared/tools/tp}
grep -o 'workqueue_execute_start: .*function=[A-Za-z_][A-Za-z0-9_.]*' \
	"${f%.dat}.kernel.txt" | sed 's/.*function=//' | sort >want.txt
[ -s want.txt ] || fail "no work item in ${f##*/}'s kernel text"
if [ -x "$TP" ]; then
	expect_exit 0 $TDAT convert --to perfetto -q -i "$f" -o out.pftrace
	"$TP" -q /dev/stdin out.pftrace 2>/dev/null <<'SQL' | tr -d '"' | tail -n +2 | sort >got.txt
select s.name from slice s where s.category = 'workqueue';
SQL
	assert_same want.txt got.txt
else
	echo "skipped the Perfetto part: no trace processor ($TP)"
fi

step "bad LAST_BOOT_INFO, modules or BTF: one line, the events still there"
f=$LB/boot_map-7.2-kaslr-tc34.dat
n=$($TDAT report -i "$f" | wc -l)
for text in 'boot_map:garbage here' $'boot_map:ffffffff82800000\t[kernel]\nzz\tvirtio_blk\n' \
	    'no colon' $'boot_map:text delta:\t12\n' \
	    $'boot_map:ffffffff82800000\t[kernel]\n\033[31mred\tmod\n' \
	    "boot_map:$(head -c 3000 /dev/zero | tr '\0' 'f')"; do
	"$TOOLS/mkodd" --drop-option 24 --add-option 24 "$text" "$f" bad.dat
	expect_exit 0 $TDAT report -i bad.dat
	assert_lines 1 "$ERR"
	assert_grep '^tdat report: bad\.dat: offset [0-9]+: option LAST_BOOT_INFO \(24\) of [0-9]+ bytes: .*: ignored, addresses are named by this file.s kallsyms$' "$ERR"
	assert_eq "$n" "$(wc -l <"$OUT")" "events reported with a bad LAST_BOOT_INFO"
	expect_exit 0 $TDAT dump --options -i bad.dat
done
# a damaged BTF or modules section: left out, with one line
$TDAT dump --sections -i "$f" >sections.txt
python3 - "$f" sections.txt <<'PY'
import re, sys
f = sys.argv[1]
d = open(f, 'rb').read()
out = open(sys.argv[2]).read()
for sid, name in ((23, 'btf'), (25, 'mod')):
    off = int(re.search(r'Section %d @ (\d+)' % sid, out).group(1))
    e = bytearray(d)
    for i in range(off + 30, off + 60):
        e[i] ^= 0x5a
    open('bad-%s.dat' % name, 'wb').write(e)
PY
for b in btf mod; do
	expect_exit 0 $TDAT report -i bad-$b.dat
	assert_lines 1 "$ERR"
	assert_grep ": the (BTF|modules) section is left out$" "$ERR"
	assert_eq "$n" "$(wc -l <"$OUT")" "events reported with a damaged $b section"
done
# the names still come out with the modules section gone
$TDAT report -i "$f" >want.txt
$TDAT report -i bad-mod.dat 2>/dev/null | cmp -s - want.txt ||
	fail "a damaged modules section changes the names"
# a file cut inside them: one line, exit 1, a pointer at restore
head -c "$(($(stat -c %s "$f") / 2))" "$f" >cut.dat
expect_exit 1 $TDAT report -i cut.dat
assert_lines 1 "$ERR"
assert_grep '^tdat report: cut\.dat: offset [0-9]+: ' "$ERR"

step "Parquet: kallsyms as the last boot had them"
f=$LB/boot_map-7.2-kaslr.dat
# the kernel's names of the function tracer's calls, in time order
sed -n 's/.*: \([^ ]*\) <-\([^ ]*\)$/\1 \2/p' "${f%.dat}.kernel.txt" >want.txt
[ "$(wc -l <want.txt)" -ge 5 ] || fail "only $(wc -l <want.txt) calls"
# last: it skips when the npm registry cannot be reached
need_parquet_readers
expect_exit 0 $TDAT convert --to parquet -q -i "$f" -o pq
node "$PQ/pqsql.mjs" "SELECT a.name, b.name FROM
	(SELECT timestamp, ip, parent_ip FROM 'pq/ftrace/function.parquet') f
	ASOF JOIN 'pq/kallsyms.parquet' a ON f.ip >= a.address
	ASOF JOIN 'pq/kallsyms.parquet' b ON f.parent_ip >= b.address
	ORDER BY f.timestamp" | tr '\t' ' ' >got.txt ||
	fail "DuckDB cannot join the dataset's function calls to kallsyms"
assert_same want.txt got.txt
# the stack frames of kernel_stack (caller[8] cut short by the record:
# as many as the stack had), named through the same table
grep -A20 '<stack trace>' "${f%.dat}.kernel.txt" | sed -n 's/^ => \(.*\)/\1/p' >want.txt
[ "$(wc -l <want.txt)" -ge 5 ] || fail "only $(wc -l <want.txt) stack frames"
node "$PQ/pqsql.mjs" "SELECT k.name FROM
	(SELECT timestamp, generate_subscripts(caller, 1) AS i,
		unnest(caller) AS a FROM 'pq/ftrace/kernel_stack.parquet') s
	ASOF JOIN 'pq/kallsyms.parquet' k ON s.a >= k.address
	ORDER BY s.timestamp, s.i" >got.txt ||
	fail "DuckDB cannot join the dataset's stack frames to kallsyms"
assert_same want.txt got.txt

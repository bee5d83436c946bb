#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# convert --to parquet, read by two independent Parquet implementations
# (DuckDB, and hyparquet in JavaScript; tests/tools/parquet/): on every
# fixture, external, trace-cmd 2.9.1 and restored recording, every row
# of every table equals the matching `report --json` object, every key
# and value (64-bit addresses exactly), integer columns follow the C
# types, kallsyms and cmdlines hold what `dump` prints, and one DuckDB
# query over the whole dataset (union_by_name) counts the report's
# events.  Fleets (several -i, a directory, two inputs of one name):
# each trace's files against its own input's report, and a query over
# every trace's sched_switch.  The checker proves first that it fails
# on spoiled datasets (tests/tools/parquet/selftest.sh).
. "$E2E/lib.sh"

need_parquet_readers

step "the checker fails on bad data"
sh "$PQ/selftest.sh" "$TDAT" "$TMPDIR/selftest" >selftest.log 2>&1 || {
	tail -n 20 selftest.log >&2
	fail "tests/tools/parquet/selftest.sh failed: the checker cannot be trusted"
}
tail -n 2 selftest.log
rm -rf "$TMPDIR/selftest"

# facts DIR INPUT: what tdat itself says of INPUT, for pqcheck
facts() {
	mkdir -p "$1"
	expect_exit 0 $TDAT report --json -i "$2"
	mv "$OUT" "$1/report.jsonl"
	$TDAT dump --ftrace-events --events "$2" >"$1/formats.txt" || fail "dump --events $2"
	$TDAT dump --kallsyms "$2" >"$1/kallsyms.txt" || fail "dump --kallsyms $2"
	$TDAT dump --cmd-lines "$2" >"$1/cmdlines.txt" || fail "dump --cmd-lines $2"
}

# want DATASET FACTS [OPTIONS...]: add the dataset to those pqcheck
# checks (all in one node process: the readers load once)
checks=()
want() {
	local ds=$1 f=$2

	shift 2
	[ ${#checks[@]} -eq 0 ] || checks+=(--and)
	checks+=("$ds" "$f/report.jsonl" --formats "$f/formats.txt" \
		 --kallsyms "$f/kallsyms.txt" --cmdlines "$f/cmdlines.txt" --counts "$@")
}

# pqcheck WHAT: check the datasets wanted, one line each
pqcheck() {
	node "$PQ/pqcheck.mjs" "${checks[@]}" || fail "$1: a dataset is not what tdat says of its input (above)"
	checks=()
}

# Made here, as 49-guest-timeshift makes them: a guest whose TIME_SHIFT
# moves its timestamps (two samples per CPU), and a big-endian variant
# with 4-byte longs of a fixture (tests/tools/mkvariant).
tools=$(dirname "$TDAT")/tools
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

step "convert --to parquet every fixture"
n=0
for f in "$FIX"/*.dat "$FIX"/external/*.dat "$FIX"/tc291/*.dat "$FIX"/crashed/restored.dat \
	 "$PWD"/made-*.dat; do
	n=$((n + 1))
	d=${f#"$FIX"/}
	d=${d#"$PWD"/}
	d=${d%.dat}
	d=${d//\//_}
	expect_exit 0 $TDAT convert --to parquet -i "$f" -o "pq.$d"
	facts "facts.$d" "$f"
	want "pq.$d" "facts.$d"
done
[ "$n" -ge 20 ] || fail "only $n fixtures"
step "check every dataset"
pqcheck "the fixtures"
rm -rf pq.* facts.*

# meta OUT: the traces of OUT/traces/*.json (one object a trace) into
# traces.txt, "NAME<tab>PATH" a line, read with DuckDB's JSON reader
meta() {
	node "$PQ/pqsql.mjs" "SELECT name, path FROM read_json('$1/traces/*.json',
		format = 'auto', union_by_name = true) ORDER BY name" >traces.txt ||
		fail "$1/traces/*.json: no traces"
}

# fleet_check OUT N: each of the N traces meta.json lists against its
# own input
fleet_check() {
	local name path k=0

	meta "$1"
	rm -rf facts.*
	while IFS=$'\t' read -r name path; do
		k=$((k + 1))
		facts "facts.$k" "$path"
		want "$1" "facts.$k" --trace "$name" --input "$path"
	done <traces.txt
	assert_eq "$2" "$k" "traces in $1/traces/"
	pqcheck "the fleet $1"
}

step "a fleet of three: -i A -i B -i C"
a=$FIX/v6-sched-irq.dat
b=$FIX/external/alexiusmd.dat
c=$FIX/external/lisa_example_rtapp.dat
rm -rf out
expect_exit 0 $TDAT convert --to parquet -i "$a" -i "$b" -i "$c" -o out
fleet_check out 3
assert_eq "alexiusmd lisa_example_rtapp v6-sched-irq" \
	"$(cut -f1 traces.txt | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')" \
	"trace names: the inputs' file names without .dat"
step "one query over every trace's sched_switch (union_by_name)"
node "$PQ/pqsql.mjs" "SELECT trace, count(*), count(DISTINCT prev_pid)
	FROM read_parquet('out/sched/sched_switch/*.parquet', union_by_name = true)
	GROUP BY trace ORDER BY trace" >got.txt ||
	fail "DuckDB cannot query the fleet's sched_switch tables together"
for x in "$b" "$c" "$a"; do
	t=$(basename "$x" .dat)
	$TDAT report --json -F sched_switch -i "$x" >ss.json
	pids=$(grep -o '"prev_pid":-\?[0-9]*' ss.json | LC_ALL=C sort -u | wc -l)
	printf '%s\t%s\t%s\n' "$t" "$(wc -l <ss.json)" "$pids"
done >want.txt
assert_same want.txt got.txt

step "a fleet from a directory, two inputs of one name"
rm -rf in in2 out
mkdir in in2
cp "$FIX/external/kinmax.dat" "$FIX/v7-zstd-clock-mono-tc34.dat" in/
cp "$FIX/external/kinmax.dat" in2/
expect_exit 0 $TDAT convert --to parquet -i in -o out
fleet_check out 2
assert_eq "kinmax v7-zstd-clock-mono-tc34" \
	"$(cut -f1 traces.txt | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')" \
	"trace names of the directory's files"
rm -rf out
expect_exit 0 $TDAT convert --to parquet -i in/kinmax.dat -i in2/kinmax.dat -o out
fleet_check out 2
assert_eq 2 "$(cut -f1 traces.txt | LC_ALL=C sort -u | wc -l)" "names made unique"
step "trace_printk: each bprint row's message is the text report's"
for f in "$FIX"/external/lisa_example_rtapp.dat "$FIX"/external/samarxie_android.dat; do
	rm -rf out
	expect_exit 0 $TDAT convert --to parquet -i "$f" -o out
	node "$PQ/pqsql.mjs" "SELECT message FROM 'out/ftrace/bprint.parquet'" >got.txt ||
		fail "$f: no bprint table"
	$TDAT report -i "$f" 2>/dev/null | sed -n 's/^.* bprint: *//p' >want.txt
	[ -s want.txt ] || fail "$f: no bprint line in the report"
	assert_same want.txt got.txt
done

echo "$n fixtures and 3 fleets: both readers read every table as tdat reports it"

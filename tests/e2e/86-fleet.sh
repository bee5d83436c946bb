#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Work a cluster's tasks divide (issue 51): --files-from [-0], --shard
# K/N|slurm and --log in convert --archive --in-place, convert --to
# parquet [--add] and dump --validate, on a tree of real recordings with
# odd members (a cut file, a symlink, a text file, two files of one base
# name).  The parts of --shard are disjoint, cover the list and do not
# depend on its order; bad --shard values are usage errors; tasks run at
# once append whole JSON lines to one log; archive and Parquet tasks run
# at once do each file once, a task SIGKILLed and run again finishes
# and redoes nothing; dump --validate run again with its log reads no
# file validated unchanged since (strace), and says the same; the dataset made by tasks adding to it at once is
# the dataset made in one run, byte for byte and as DuckDB reads it.
. "$E2E/lib.sh"

# The tree: small recordings of several kinds and the odd members.
mkdir -p tree/a tree/b/c
cp "$FIX/external/kinmax.dat" "$FIX/external/alexiusmd.dat" tree/a/
cp "$FIX/v7-zstd-clock-mono-tc34.dat" "$FIX/v7-zlib-sched-irq-tc34.dat" tree/b/
cp "$FIX/truncated/v7-zstd-markers-raw_syscalls.cut-at-1059000.dat" tree/b/c/cut.dat
cp "$FIX/v7-zstd-sched-irq.dat" tree/b/c/
cp "$FIX/external/kinmax.dat" "tree/b/c/kin max.dat"
echo "not a recording" >tree/b/notes.txt
ln -s ../a/kinmax.dat tree/b/link.dat
cp -a tree orig
find tree -type f -name '*.dat' | LC_ALL=C sort >list.txt
assert_lines 7 list.txt

# json_lines LOG N: LOG is N lines, each one whole JSON object.
json_lines() {
	python3 - "$1" "$2" <<'PY' || fail "$1: not $2 whole JSON lines"
import json, sys
lines = open(sys.argv[1], 'rb').read().split(b'\n')
assert lines[-1] == b'', 'no newline at the end'
lines = lines[:-1]
for l in lines:
    e = json.loads(l)
    assert isinstance(e, dict) and set(e) >= {'path', 'result', 'bytes_before',
        'bytes_after', 'seconds', 'reason', 'time', 'host', 'pid', 'task'}, l
assert len(lines) == int(sys.argv[2]), f'{len(lines)} lines'
PY
}

# logged LOG RESULT: the paths LOG gives that result, sorted.
logged() {
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["result"] == sys.argv[2]:
        print(e["path"])' "$1" "$2" | LC_ALL=C sort
}

step "--shard: usage errors, one line each, exit 2"
for bad in 2/2 0/0 x 1 1/ /2 -1/2 1/2/3 "1 /2" 0/1000001; do
	expect_exit 2 "$TDAT" dump --validate --shard "$bad" tree/a/kinmax.dat
	assert_lines 1 "$ERR"
	expect_exit 2 "$TDAT" convert --archive --in-place --shard "$bad" tree
	assert_lines 1 "$ERR"
done
for v in SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN; do
	unset "$v"
done
expect_exit 2 "$TDAT" convert --to parquet --add --shard slurm -i tree/a -o ds
assert_grep 'SLURM_ARRAY_TASK_ID' "$ERR"
assert_lines 1 "$ERR"
expect_exit 2 env SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4 \
	"$TDAT" dump -v --shard slurm tree/a/kinmax.dat
expect_exit 2 "$TDAT" dump -v -0 tree/a/kinmax.dat
expect_exit 2 "$TDAT" dump --shard 0/2 tree/a/kinmax.dat
expect_exit 2 "$TDAT" convert -i tree/a/kinmax.dat -o x.dat --shard 0/2
expect_exit 2 "$TDAT" convert --to parquet -i tree/a/kinmax.dat -o x --log l
assert_file_absent ds
assert_file_absent x

step "--files-from: a missing list, a NUL in a list of lines: one line"
expect_exit 1 "$TDAT" dump -v --files-from nolist
assert_grep '^tdat dump: nolist: No such file' "$ERR"
printf 'tree/a/kinmax.dat\n\0x\n' >nul.txt
expect_exit 1 "$TDAT" convert --archive --in-place --files-from nul.txt
assert_grep '^tdat convert: nul.txt: offset 18: a NUL byte' "$ERR"
assert_lines 1 "$ERR"
cmp -s tree/a/kinmax.dat orig/a/kinmax.dat || fail "a bad list, and a file changed"

step "a path given that is not there: failed, not also left alone"
expect_exit 1 "$TDAT" convert --archive --in-place -q nosuch --log miss.log
assert_grep '^tdat convert: 0 archived .*, 0 archived already, 0 left as they are, 1 failed$' "$ERR"
assert_eq nosuch "$(logged miss.log failed)" "logged failed"

step "--shard: parts disjoint, the whole list, the same in any order"
# task_paths LOG K/N: the paths LOG's lines of that task name, sorted
task_paths() {
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["task"] == sys.argv[2]:
        print(e["path"])' "$1" "$2" | LC_ALL=C sort
}
for n in 1 2 3 5; do
	for k in $(seq 0 $((n - 1))); do
		expect_exit 0,1 "$TDAT" dump --validate --files-from list.txt \
			--shard "$k/$n" --log "fwd.$n"
		LC_ALL=C sort -r list.txt | tr '\n' '\0' >rev.txt
		rc=0
		"$TDAT" dump --validate --files-from - -0 --shard "$k/$n" \
			--log "rev.$n" <rev.txt >/dev/null 2>&1 || rc=$?
		[ $rc -le 1 ] || fail "dump --files-from - -0: exit $rc"
		task_paths "fwd.$n" "$k/$n" >a.txt
		task_paths "rev.$n" "$k/$n" >b.txt
		assert_same a.txt b.txt
	done
	json_lines "fwd.$n" 7
	python3 -c 'import json, sys
print("\n".join(sorted(json.loads(l)["path"] for l in open(sys.argv[1]))))' \
		"fwd.$n" >all.txt
	assert_same list.txt all.txt
done

step "--log: four tasks appending at once, every line whole"
for i in $(seq 1 30); do cat list.txt; done >long.txt
pids=
for k in 0 1 2 3; do
	"$TDAT" dump --validate --files-from long.txt --log busy.log \
		>/dev/null 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || true; done
json_lines busy.log $((4 * 210))

step "dump --validate of many files: a line each, a summary, exit 1"
expect_exit 1 "$TDAT" dump --validate tree/a/kinmax.dat tree/b/c/cut.dat tree/b/notes.txt
assert_lines 1 "$OUT"
assert_grep '^File tree/a/kinmax.dat is a valid trace-cmd file$' "$OUT"
assert_grep '^tdat dump: tree/b/c/cut.dat: offset [0-9]+: ' "$ERR"
assert_grep '^tdat dump: tree/b/notes.txt: offset 0: not a trace.dat' "$ERR"
assert_grep '^tdat dump: 1 valid, 2 invalid$' "$ERR"

step "dump --validate again with its --log: what was validated is not read again"
rm -rf vt && cp -a orig vt
{ find vt -name '*.dat'; echo vt/b/notes.txt; } | LC_ALL=C sort >vlist.txt
for k in 0 1; do
	expect_exit 0,1 "$TDAT" dump --validate --files-from vlist.txt \
		--shard "$k/2" --log v.log
done
json_lines v.log 9
expect_exit 1 "$TDAT" dump --validate --files-from vlist.txt --log first.log
assert_grep '^tdat dump: 7 valid, 2 invalid, 0 of them validated already$' "$ERR"
grep -v 'validated already' "$ERR" | LC_ALL=C sort >first.err
# untouched since: no file opened, the verdicts and reasons of the log
if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace: off for this run alone
	expect_exit 1 env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -f -qq -e trace=open,openat,openat2 -o st.txt \
		"$TDAT" dump --validate --files-from vlist.txt --log v.log
	! grep -F '"vt/' st.txt || fail "a file validated already was opened"
	grep -qF '"v.log"' st.txt || fail "strace saw no open (of the log)"
else
	echo "(no strace: the files are only made unreadable)" >&2
	chmod 000 $(grep -v link.dat vlist.txt | tr '\n' ' ')
	expect_exit 1 "$TDAT" dump --validate --files-from vlist.txt --log v.log
	chmod 644 $(grep -v link.dat vlist.txt | tr '\n' ' ')
fi
assert_grep '^tdat dump: 7 valid, 2 invalid, 9 of them validated already$' "$ERR"
assert_eq 7 "$(grep -c ' is a valid trace-cmd file (validated already)$' "$OUT")" "valid already on stdout"
sed -n 's/ (validated already)$//p' "$ERR" | LC_ALL=C sort >again.err
grep -v '^tdat dump: 7 valid' first.err >want.err
assert_same want.err again.err
json_lines v.log 18
assert_eq "$(grep -v -e cut.dat -e notes.txt vlist.txt)" "$(logged v.log 'valid already')" "valid already"
assert_eq "vt/b/c/cut.dat vt/b/notes.txt" "$(logged v.log 'invalid already' | tr '\n' ' ' | sed 's/ $//')" "invalid already"
python3 -c 'import json, sys
r = {}
for l in open(sys.argv[1]):
    e = json.loads(l)
    assert e["mtime"] and e["bytes_before"] is not None, l
    r.setdefault(e["path"], []).append(e["reason"])
for p, v in r.items():
    assert len(v) == 2 and v[0] == v[1], (p, v)' v.log || fail "an earlier verdict's reason not logged again"
step "dump --validate again: a file touched since is read again; a cut line and one not JSON passed over"
touch -d '+1 sec' vt/a/kinmax.dat
printf 'not JSON\n{"time":"2026-12-06T15:42:35Z","host":"h","pid":1,"task":null,"path":"vt/a/alexiusmd.dat","result":"val' >>v.log
expect_exit 1 "$TDAT" dump --validate --files-from vlist.txt --shard 0/1 --log v.log
assert_grep '^tdat dump: warning: v.log: 2 of 20 lines passed over \(cut or not JSON\)$' "$ERR"
# kinmax.dat touched, and link.dat, whose target it is
assert_grep '^tdat dump: 7 valid, 2 invalid, 7 of them validated already$' "$ERR"
assert_grep '^File vt/a/kinmax.dat is a valid trace-cmd file$' "$OUT"
assert_grep '^File vt/a/alexiusmd.dat is a valid trace-cmd file \(validated already\)$' "$OUT"
# the cut line stays alone on its line: every line after it is whole
tail -n 9 v.log >tail.log
json_lines tail.log 9
assert_eq "vt/a/kinmax.dat vt/b/link.dat" "$(logged tail.log valid | tr '\n' ' ' | sed 's/ $//')" "read again"

step "--archive --in-place: three parts at once, then again"
pids=
for k in 0 1 2; do
	"$TDAT" convert --archive --in-place --threads 1 -q \
		--shard "$k/3" --log arch.log tree >"arch.$k.out" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || true; done
json_lines arch.log 9
# the v7 zstd files are no smaller archived: "archived already"
{ logged arch.log archived; logged arch.log 'archived already'; } |
	LC_ALL=C sort >got.txt
grep -v cut.dat list.txt >want.txt
assert_same want.txt got.txt
assert_eq 3 "$(logged arch.log archived | grep -c -e kinmax -e 'kin max' -e alexiusmd)" "v6 and external files archived"
assert_eq tree/b/c/cut.dat "$(logged arch.log failed)" "the cut file failed"
assert_eq "tree/b/link.dat tree/b/notes.txt" "$(logged arch.log 'left alone' | tr '\n' ' ' | sed 's/ $//')" "left alone"
while IFS= read -r f; do
	"$TDAT" report -i "$f" >a.txt 2>&1
	"$TDAT" report -i "orig/${f#tree/}" >o.txt 2>&1
	assert_same o.txt a.txt
done <want.txt
rm arch.log
for k in 0 1 2; do
	expect_exit 0,1 "$TDAT" convert --archive --in-place -q \
		--shard "$k/3" --log arch.log tree
done
assert_eq 6 "$(logged arch.log 'archived already' | wc -l)" "archived already"
assert_eq 0 "$(logged arch.log archived | wc -l)" "archived again"

step "leftovers of a killed run beside files given by name: removed, this part's only"
rm -rf tree3 && mkdir tree3 && cp "$FIX/external/kinmax.dat" "$FIX/external/alexiusmd.dat" tree3/
for f in kinmax alexiusmd; do
	echo x >"tree3/.$f.dat.tdat-archive"
	echo x >"tree3/..$f.dat.tdat-archive.tmp-0123456789abcdef"
done
for k in 0 1; do
	"$TDAT" dump -v --shard "$k/2" --log part3.log tree3/kinmax.dat tree3/alexiusmd.dat >/dev/null 2>&1 || true
done
k=$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["path"] == "tree3/kinmax.dat": print(e["task"])' part3.log)
printf 'tree3/kinmax.dat\ntree3/alexiusmd.dat\n' >list3.txt
expect_exit 0 "$TDAT" convert --archive --in-place -q --files-from list3.txt --shard "$k"
assert_grep 'tree3/\.kinmax\.dat\.tdat-archive: removed' "$ERR"
assert_grep 'tree3/\.\.kinmax\.dat\.tdat-archive\.tmp-0123456789abcdef: removed' "$ERR"
assert_file_absent tree3/.kinmax.dat.tdat-archive
assert_file_absent tree3/..kinmax.dat.tdat-archive.tmp-0123456789abcdef
if [ "${k%/2}" = "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["path"] == "tree3/alexiusmd.dat": print(e["task"].split("/")[0])' part3.log)" ]; then
	assert_file_absent tree3/.alexiusmd.dat.tdat-archive
else
	[ -f tree3/.alexiusmd.dat.tdat-archive ] || fail "another part's leftover removed"
fi

step "--archive --in-place SIGKILLed with its children, then again"
rm -rf tree2 && cp -a orig tree2 && cp "$FIX/v6-sched-irq.dat" tree2/a/big.dat
find tree2 -name '*.dat' | LC_ALL=C sort >list2.txt
setsid "$TDAT" convert --archive --in-place --threads 1 --log kill.log \
	--files-from list2.txt >/dev/null 2>&1 &
pid=$!
for i in $(seq 1 600); do
	grep -q '"result":"archived"' kill.log 2>/dev/null && break
	sleep 0.02
done
kill -KILL -- -"$pid" 2>/dev/null || kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
logged kill.log archived >before.txt
[ -s before.txt ] || fail "nothing archived before the kill"
[ "$(wc -l <before.txt)" -lt 7 ] || fail "the run ended before it was killed"
: >kill2.log
expect_exit 1 "$TDAT" convert --archive --in-place --threads 1 -q \
	--log kill2.log --files-from list2.txt
logged kill2.log archived >again.txt
[ -z "$(LC_ALL=C comm -12 before.txt again.txt)" ] || fail "archived again: $(comm -12 before.txt again.txt)"
{ cat before.txt again.txt; logged kill2.log 'archived already'; } | LC_ALL=C sort -u >got.txt
grep -v -e cut.dat -e link.dat list2.txt >want.txt
assert_same want.txt got.txt
[ -z "$(find tree2 -name '.*')" ] || fail "left behind: $(find tree2 -name '.*')"

step "Parquet: one run, and tasks adding to one dataset at once"
# cut.dat's metadata is cut: one run writes nothing with it; tasks
# add every other input whole, and fail it alone
find orig -name '*.dat' -type f | grep -v cut.dat | LC_ALL=C sort >pq.txt
expect_exit 0 "$TDAT" convert --to parquet -q --files-from pq.txt -o one
pids=
for k in 0 1 2; do
	"$TDAT" convert --to parquet --add -q --files-from pq.txt \
		-i orig/b/c/cut.dat --shard "$k/3" --log pq.log -o many \
		>"pq.$k.out" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || true; done
json_lines pq.log 7
assert_eq 6 "$(logged pq.log added | wc -l)" "inputs added"
assert_eq orig/b/c/cut.dat "$(logged pq.log failed)" "the cut input failed"
diff -r one many || fail "the tasks' dataset is not the one-run dataset"
need_parquet_readers
q="SELECT trace, count(*) FROM read_parquet('DS/*/*/*.parquet', union_by_name = true) GROUP BY 1 ORDER BY 1"
node "$PQ/pqsql.mjs" "${q//DS/one}" >one.txt || fail "DuckDB cannot read the one-run dataset"
node "$PQ/pqsql.mjs" "${q//DS/many}" >many.txt || fail "DuckDB cannot read the tasks' dataset"
assert_same one.txt many.txt
assert_lines 6 one.txt

step "--add again: every input there already, nothing rewritten"
ls -lR --time-style=full-iso many >before.txt
expect_exit 0 "$TDAT" convert --to parquet --add -q --files-from pq.txt --log again.log -o many
assert_eq 6 "$(logged again.log 'added already' | wc -l)" "added already"
ls -lR --time-style=full-iso many >after.txt
assert_same before.txt after.txt
expect_exit 1 "$TDAT" convert --to parquet --add -q -i tree/b/notes.txt -o many
assert_grep '^tdat convert: 0 added, 0 added already, 1 failed$' "$ERR"
[ -z "$(find many -name '.*' -o -name '*.claim')" ] || fail "a failed input left: $(find many -name '.*' -o -name '*.claim')"

step "--add SIGKILLed, then again: the same dataset, nothing left over"
head -n 3 pq.txt >pq3.txt	# at zstd level 19: slow enough to be killed
setsid "$TDAT" convert --to parquet --add -q --level 19 --files-from pq3.txt -o killed \
	>/dev/null 2>&1 &
pid=$!
for i in $(seq 1 400); do
	[ -n "$(ls -A killed/traces 2>/dev/null)" ] && break
	sleep 0.02
done
kill -KILL -- -"$pid" 2>/dev/null || kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
[ -n "$(find killed -name '.tdat-add-*' -o -name '*.claim')" ] ||
	[ "$(ls killed/traces | grep -c json)" -lt 3 ] || fail "the run ended before it was killed"
expect_exit 0 "$TDAT" convert --to parquet --add -q --level 19 --files-from pq3.txt --log k.log -o killed
[ "$(logged k.log added | wc -l)" -ge 1 ] || fail "nothing was left to add"
[ -z "$(find killed -name '.*' -o -name '*.claim')" ] || fail "left over: $(find killed -name '.*' -o -name '*.claim')"
expect_exit 0 "$TDAT" convert --to parquet -q --level 19 --files-from pq3.txt -o one19
diff -r one19 killed || fail "a dataset killed and finished is not the one-run dataset"

step "two inputs of one base name: the second's name is its path's, in a run and in tasks"
mkdir dup && cp "$FIX/external/kinmax.dat" dup/
expect_exit 0 "$TDAT" convert --to parquet -q -i orig/a/kinmax.dat -i dup/kinmax.dat -o two
expect_exit 0 "$TDAT" convert --to parquet --add -q -i orig/a/kinmax.dat -o two-add
expect_exit 0 "$TDAT" convert --to parquet --add -q -i dup/kinmax.dat -o two-add
diff -r two two-add || fail "two inputs of one name: the datasets differ"
ls two/traces | grep -Eq '^kinmax-[0-9a-f]{8}\.json$' || fail "no kinmax-HASH: $(ls two/traces)"

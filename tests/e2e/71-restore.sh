#!/bin/sh
# restore: trace-cmd's crashed-recorder case, killed "record -o OUT"
# directories (OUT.rec/), and salvage of truncated or corrupt trace.dat
# files.  Debian's trace-cmd is the oracle: it must read every output,
# and print exactly what it prints for the undamaged part.  Inputs are
# never modified, no temporary file is left behind.
. "$E2E/lib.sh"
MKREC=$(dirname "$TB")/tools/mkrecdir
[ -x "$MKREC" ] || fail "$MKREC missing (make B=... $(dirname "$TB")/tools/mkrecdir)"
command -v trace-cmd >/dev/null || skip "Debian's trace-cmd is not installed"

# Debian's trace-cmd cannot read zlib: those files are checked with ours.
oracle() {
	case $1 in
	*zlib*) "$TB" report -i "$1" ;;
	*) trace-cmd report -i "$1" ;;
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
expect_exit 0 "$TB" restore -i head.dat -o restored.dat \
	"$FIX/crashed/trace.dat.cpu0" "$FIX/crashed/trace.dat.cpu1"
[ ! -s "$ERR" ] || fail "restore said something on good data: $(cat "$ERR")"
trace-cmd report -i restored.dat >restored.txt
assert_same "$FIX/crashed/restored.dat.report.txt" restored.txt

step "crashed recorder: a cut last page and zero pages are dropped and told"
cat "$FIX/crashed/trace.dat.cpu1" >cpu1
head -c 4096 /dev/zero >>cpu1
head -c 1500 "$FIX/crashed/trace.dat.cpu1" >>cpu1
expect_exit 0 "$TB" restore -i head.dat -o restored2.dat \
	"$FIX/crashed/trace.dat.cpu0" cpu1
assert_lines 2 "$ERR"
assert_grep 'cpu1: offset 65536: dropped: buffer "" CPU 1: 1 empty page \(4096 bytes\)' "$ERR"
assert_grep 'cpu1: offset 69632: dropped: buffer "" CPU 1: 1500 bytes: an incomplete last page' "$ERR"
trace-cmd report -i restored2.dat | cmp -s - "$FIX/crashed/restored.dat.report.txt" ||
	fail "dropping the tail changed the events"

# ---- a killed "record -o OUT": OUT.rec/ ----
step "OUT.rec/ of every fixture: restore OUT reports like the fixture"
for f in $(fixtures); do
	n=$(basename "$f" .dat)
	"$MKREC" "$f" "$n.rec"
	expect_exit 0 "$TB" restore "$n"
	oracle "$n" >"$n.txt"
	oracle "$f" | cmp -s - "$n.txt" || fail "$n: restored report differs"
done

step "OUT.rec/ with zero pages, cut pages and a corrupt page in every stream"
f=$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat
"$MKREC" --zero-pages 2 --partial 700 --bad-page 1 "$f" bad.rec
expect_exit 0 "$TB" restore -o bad.dat bad.rec
assert_grep 'inst1.cpu0: offset 4096: dropped: buffer "inst1" CPU 0: 1 bad page \(4096 bytes\): the commit is larger than the page' "$ERR"
assert_grep 'top.cpu1: offset [0-9]+: dropped: buffer "" CPU 1: 700 bytes: an incomplete last page' "$ERR"
[ "$(grep -c 'empty pages' "$ERR")" -eq 4 ] || fail "4 runs of empty pages expected"
trace-cmd report -i bad.dat >bad.txt
trace-cmd report -i "$f" >full.txt
# The events of the dropped page are gone, all others are kept in order.
awk 'BEGIN { n = 0; i = 0 }
     NR == FNR { want[n++] = $0; next }
     { while (i < n && want[i] != $0) i++; if (i++ >= n) { print "extra: " $0; exit 1 } }' \
	full.txt bad.txt || fail "restored events are not a subset of the original's"
[ "$(wc -l <bad.txt)" -lt "$(wc -l <full.txt)" ] || fail "the bad page's events are still there"

step "bad manifests and missing inputs: one line, exit 1 or 2, nothing written"
mkdir m.rec
cp bad.rec/head.dat m.rec/
printf 'tracebox-recording 1\npage_size 4096\ncpu - 0 top.cpu0\n' >m.rec/manifest
expect_exit 1 "$TB" restore m
assert_lines 1 "$ERR"
assert_grep 'm\.rec/manifest: line 3: CPU of a buffer not listed before' "$ERR"
printf 'tracebox-recording 1\npage_size 4096\nbuffer - clock local cpus 1\ncpu - 0 ../x\n' >m.rec/manifest
expect_exit 1 "$TB" restore m
assert_grep 'line 4: a FILE must stay inside the directory' "$ERR"
assert_file_absent m
expect_exit 2 "$TB" restore nothing-here
assert_lines 1 "$ERR"
expect_exit 1 "$TB" restore -i head.dat -o x.dat no-such-cpu-file
assert_lines 1 "$ERR"
assert_grep 'no-such-cpu-file: No such file' "$ERR"
expect_exit 1 "$TB" restore -i "$FIX/crashed/trace.dat.cpu0" -o x.dat cpu1
assert_lines 1 "$ERR"
assert_file_absent x.dat
expect_exit 2 "$TB" restore "$FIX/v6-sched-irq.dat"
assert_grep 'is a trace.dat .*name a new output with -o' "$ERR"
expect_exit 2 "$TB" restore -i head.dat -o head.dat cpu1
assert_grep 'is the input' "$ERR"

step "inputs unchanged, no temporary files left"
sum_inputs | cmp -s sums.before - || fail "an input was modified"
left=$(find . -name '*.tmp*' -o -name '.*tracebox*' -o -name '*.head-*' | head -n 3)
[ -z "$left" ] || fail "temporary files left: $left"
echo "restore: all checks passed"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# merge: pieces of every fixture put back together (split's and
# mkpieces'), instances recorded apart joined, duplicates dropped, every
# conflict refused with nothing written, bad input, output options.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
[ -x "$TOOLS/mkpieces" ] && [ -x "$TOOLS/tdat-digest" ] ||
	skip "build the test tools first (make $TOOLS/mkpieces $TOOLS/tdat-digest)"
command -v trace-cmd >/dev/null || skip "Debian's trace-cmd is not installed"
sums=$(sha256sum "$FIX"/*.dat)

# Content digest without the first line (version and codec).
digest() { "$TOOLS/tdat-digest" "$1" | sed 1d; }
# Per-CPU page streams only.
streams() { "$TOOLS/tdat-digest" "$1" | grep -E '^(buffer|  cpu)'; }

# report_same ORIG MERGED: Debian trace-cmd reports both alike (ours for
# zlib files, which Debian's trace-cmd cannot read).
# The original's report is kept in r.orig until ORIG changes.
report_same() {
	local rep=trace-cmd

	case $1 in *zlib*) rep=$TDAT ;; esac
	if [ "$(cat r.of 2>/dev/null)" != "$1" ]; then
		$rep report -i "$1" >r.orig 2>&1 || fail "$rep cannot report $1"
		echo "$1" >r.of
	fi
	$rep report -i "$2" >r.merged 2>&1 || fail "$rep cannot report $2"
	assert_same r.orig r.merged
}

# split_cases FILE NAME: our split's pieces merge back.
split_cases() {
	step "$2: split -p $np -r, then merge: every CPU stream byte for byte"
	rm -f sp.*
	expect_exit 0 $TDAT split -i "$1" -o sp -p $np -r
	expect_exit 0 $TDAT merge -q -o m.dat sp.*
	streams m.dat >s.merged
	assert_same s.orig s.merged

	step "$2: split -m 200 -r (pages cut at events), then merge"
	rm -f sp.*
	expect_exit 0 $TDAT split -i "$1" -o sp -m 200 -r
	expect_exit 0 $TDAT merge -q -o m.dat sp.*
	report_same "$1" m.dat
}

split_works=1
$TDAT split --help >/dev/null 2>&1 || split_works=0

for f in $(fixtures); do
	n=$(basename "$f" .dat)
	rm -f pc.* sp.*
	# Every piece carries the metadata (5 MB of kallsyms): about 3
	# pieces per fixture keep the test fast.
	most=$("$TOOLS/tdat-digest" "$f" | awk '$1 == "cpu" && $4 > m { m = $4 } END { print m + 0 }')
	np=$((most / 3 + 1))
	[ $np -ge 2 ] || np=2

	streams "$f" >s.orig
	if [ $split_works = 1 ]; then
		split_cases "$f" "$n"
	else
		step "$n: page-aligned pieces (mkpieces -p $np) merge back"
		"$TOOLS/mkpieces" -p $np "$f" pc >/dev/null
		expect_exit 0 $TDAT merge -q -o m.dat pc.*
		streams m.dat >s.merged
		assert_same s.orig s.merged
		report_same "$f" m.dat
	fi

	# mkpieces' cases (whole metadata kept byte for byte, cuts by time,
	# repeated pages, repeated events): a few fixtures are enough.
	case $n in v6-sched-irq|v7-none-sched-irq|v7-zstd-sched-irq|v7-zstd-2inst-irq-top-sched-inst1|v7-zstd-clock-mono-tc34) ;;
	*) continue ;;
	esac
	step "$n: page-aligned pieces (mkpieces -p $np): the whole content"
	rm -f pc.*
	"$TOOLS/mkpieces" -p $np "$f" pc >/dev/null
	expect_exit 0 $TDAT merge -q -o m.dat pc.*
	digest "$f" >d.orig
	digest m.dat >d.merged
	assert_same d.orig d.merged

	step "$n: whole-page pieces by time, given in reverse order"
	rm -f pc.*
	"$TOOLS/mkpieces" -t 4 "$f" pc >/dev/null
	expect_exit 0 $TDAT merge -q -o m.dat $(ls -r pc.*)
	streams m.dat >s.merged
	assert_same s.orig s.merged

	step "$n: repeated pages are dropped"
	rm -f pc.*
	"$TOOLS/mkpieces" -p $np -o 1 "$f" pc >/dev/null
	expect_exit 0 $TDAT merge -o m.dat pc.*
	[ "$(ls pc.* | wc -l)" -lt 2 ] ||
		assert_grep "dropped [1-9][0-9]* repeated pages" "$ERR"
	streams m.dat >s.merged
	assert_same s.orig s.merged

	step "$n: repeated events (a page cut in two) are dropped"
	rm -f pc.*
	"$TOOLS/mkpieces" -p $np -h "$f" pc >/dev/null
	expect_exit 0 $TDAT merge -o m.dat pc.*
	streams m.dat >s.merged
	assert_same s.orig s.merged

	step "$n: pieces taking turns page by page (two readers of one buffer)"
	rm -f pc.*
	"$TOOLS/mkpieces" -i 2 "$f" pc >/dev/null
	expect_exit 0 $TDAT merge -q -o m.dat pc.*
	streams m.dat >s.merged
	assert_same s.orig s.merged

	step "$n: events interleaving inside pages (each page cut in two)"
	rm -f pc.*
	"$TOOLS/mkpieces" -s "$f" pc >/dev/null
	expect_exit 0 $TDAT merge -q -o m.dat pc.*
	report_same "$f" m.dat
done

step "stored chunks pass through unchanged (pieces of whole chunks)"
rm -f sp.* pc.*
zs=$FIX/v7-zstd-markers-raw_syscalls.dat
if [ $split_works = 1 ]; then
	expect_exit 0 $TDAT split -i "$zs" -o sp -p 110 -r
else
	"$TOOLS/mkpieces" -p 110 "$zs" sp >/dev/null
fi
expect_exit 0 $TDAT merge -q -o m.dat sp.*
"$TOOLS/tdat-digest" --chunks "$zs" >c.orig
"$TOOLS/tdat-digest" --chunks m.dat >c.merged
assert_same c.orig c.merged
expect_exit 0 $TDAT merge -q -o m.dat --level 9 sp.*
"$TOOLS/tdat-digest" --chunks m.dat >c.merged
cmp -s c.orig c.merged && fail "--level 9 copied chunks instead of recompressing"
streams m.dat >s.merged
streams "$zs" >s.orig
assert_same s.orig s.merged

step "a file merged with itself is itself; the note counts what was dropped"
v6=$FIX/v6-sched-irq.dat
expect_exit 0 $TDAT merge -o twice.dat "$v6" "$v6"
assert_same "$v6" twice.dat
assert_grep "^tdat merge: dropped [1-9][0-9]* repeated pages" "$ERR"
expect_exit 0 $TDAT merge -q -o twice.dat "$v6" "$v6"
assert_eq "" "$(cat "$ERR")" "stderr with -q"

step "instances recorded apart become one file with both buffers"
for f in "$FIX"/v6-2inst-irq-top-sched-inst1.dat \
	 "$FIX"/v7-zstd-2inst-irq-top-sched-inst1.dat; do
	# top buffer with only the irq formats, inst1 with only sched's
	"$TOOLS/mkpieces" -b "" -e irq "$f" top.dat >/dev/null
	"$TOOLS/mkpieces" -b inst1 -e sched "$f" inst.dat >/dev/null
	trace-cmd report top.dat >r.top 2>&1
	grep -q sched_ r.top && fail "the top-only file still has sched events"
	expect_exit 0 $TDAT merge -q -o both.dat inst.dat top.dat
	report_same "$f" both.dat
	streams both.dat >s.merged
	streams "$f" >s.orig
	assert_same s.orig s.merged
done

# refused MESSAGE-REGEXP FILE...: merge refuses with one line, exit 1,
# and writes nothing.
refused() {
	local re=$1

	shift
	expect_exit 1 $TDAT merge -o no.dat "$@"
	assert_lines 1 "$ERR"
	assert_grep "$re" "$ERR"
	assert_file_absent no.dat
}

step "conflicts are refused, naming the conflict and both files"
"$TOOLS/mkpieces" -b "" -c "$v6" changed.dat >/dev/null
refused "changed.dat: cannot be merged with .*v6-sched-irq.dat: different formats of event" "$v6" changed.dat
refused "clock.*: cannot be merged with .*: buffer \(top\) has different clocks \((global and local|local and global)\)" \
	"$v6" "$FIX"/v6-clock-global.dat
cp "$v6" page8k.dat
printf '\000\040' | dd of=page8k.dat bs=1 seek=14 conv=notrunc 2>/dev/null
refused "page8k.dat: cannot be merged with .*: different page sizes \(8192 and 4096\)" "$v6" page8k.dat
if [ -x "$TOOLS/mkvariant" ]; then
	"$TOOLS/mkvariant" --big-endian "$v6" be.dat
	refused "be.dat: cannot be merged with .*: different byte order" "$v6" be.dat
	"$TOOLS/mkvariant" --long4 "$v6" l4.dat
	refused "l4.dat: cannot be merged with .*: different (long size|header_page)" "$v6" l4.dat
fi
"$TOOLS/mkpieces" -b "" -e irq "$FIX"/v6-2inst-irq-top-sched-inst1.dat irqonly.dat >/dev/null
"$TOOLS/mkpieces" -b "" -c irqonly.dat irqchanged.dat >/dev/null
refused "different formats of event irq:" irqonly.dat irqchanged.dat
if [ -x "$TOOLS/mkodd" ]; then
	"$TOOLS/mkodd" --add-option 1 123456 "$v6" dated.dat
	refused "dated.dat: cannot be merged with .*: different DATE offsets" "$v6" dated.dat
	"$TOOLS/mkodd" --drop-option 5 --add-option 5 "Linux other 9.9" "$v6" uname.dat
	refused "uname.dat: cannot be merged with .*: different kernels \(UNAME\)" "$v6" uname.dat
fi

step "bad input: one line, exit 1, nothing written"
refused "nosuch.dat" "$v6" nosuch.dat
head -c 5470000 "$v6" >cut.dat
refused "cut.dat" "$v6" cut.dat
mkdir adir
refused "adir" adir
: >empty.dat
refused "empty.dat" empty.dat "$v6"
cp "$v6" badpage.dat	# CPU 0's first page (0x534000) claims 64 KiB
printf '\377\377\000\000' | dd of=badpage.dat bs=1 seek=$((0x534000 + 8)) conv=notrunc 2>/dev/null
refused "badpage.dat: offset 5455872: buffer \"\" CPU 0: page commit is larger than the page" "$v6" badpage.dat

step "usage: no output, no input, output is an input"
expect_exit 2 $TDAT merge "$v6"
assert_lines 1 "$ERR"
expect_exit 2 $TDAT merge -o x.dat
assert_file_absent x.dat
cp "$v6" mine.dat
sum=$(sha256sum <mine.dat)
expect_exit 2 $TDAT merge -o mine.dat "$v6" mine.dat
assert_eq "$sum" "$(sha256sum <mine.dat)" "input after a refused merge"
for args in "--file-version 5" "--compression lz4" "--level x" \
	    "--file-version 6 --compression zstd" "--bogus"; do
	expect_exit 2 $TDAT merge $args -o u.dat "$v6"
	assert_file_absent u.dat
done
expect_exit 0 $TDAT merge --help
assert_grep "--file-version" "$OUT"

step "output options: version, codec, level, chunk size, threads"
v7=$FIX/v7-zstd-sched-irq.dat
rm -f pc.*
"$TOOLS/mkpieces" -p 2 "$v7" pc >/dev/null
expect_exit 0 $TDAT merge -q -o o6.dat --file-version 6 pc.*
assert_grep "^version 6 codec none$" /dev/stdin <<EOF2
$("$TOOLS/tdat-digest" o6.dat | head -n 1)
EOF2
streams o6.dat >s.o6
streams "$v7" >s.v7
assert_same s.v7 s.o6
trace-cmd report o6.dat >r.o6 2>&1
trace-cmd report "$v7" >r.v7 2>&1
assert_same r.v7 r.o6
expect_exit 0 $TDAT merge -q -o oz.dat --compression zlib --level 5 \
	--chunk-size 8K --threads 1 pc.*
assert_grep "^version 7 codec zlib$" /dev/stdin <<EOF2
$("$TOOLS/tdat-digest" oz.dat | head -n 1)
EOF2
"$TOOLS/tdat-digest" --chunks oz.dat | grep -Eq 'chunk [0-9]+/8192 ' ||
	fail "--chunk-size 8K was not used"
streams oz.dat >s.oz
assert_same s.v7 s.oz
expect_exit 0 $TDAT merge -q -o on.dat --compression none "$v6"
streams on.dat >s.on
streams "$v6" >s.v6
assert_same s.v6 s.on

# (Pieces one after another under ulimit -n 9: 64-merge-copy.)
# (Not under emulation, tests/cross/run: qemu-user needs descriptors of
# its own below that limit.)
if [ -z "${TDAT_CROSS:-}" ]; then
	step "12 pieces read all at once under ulimit -n 9: one line, nothing written"
	rm -f pc.*
	"$TOOLS/mkpieces" -i 12 "$FIX/v7-zstd-sched-irq-tc34.dat" pc >/dev/null
	(ulimit -n 9 && expect_exit 1 $TDAT merge -q -o many.dat pc.*)
	assert_lines 1 "$ERR"
	assert_grep '^tdat merge: pc\.[0-9]+: .*[Tt]oo many open files' "$ERR"
	assert_file_absent many.dat
fi

step "v7 zstd to v6: chunks decompressed ahead or not (--threads 1), same file, same error"
many=$FIX/v7-zstd-markers-raw_syscalls.dat	# 34 chunks on CPU 0
expect_exit 0 $TDAT merge -q --file-version 6 --threads 1 -o one.v6 "$many"
expect_exit 0 $TDAT merge -q --file-version 6 -o two.v6 "$many"
assert_same one.v6 two.v6
python3 - "$many" bad7.dat <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
at = 1019904 + 4	# CPU 0's stream (tdat dump --flyrecord)
for _ in range(20):
    at += 8 + struct.unpack_from('<I', d, at)[0]
d[at + 8:at + 24] = b'\xa5' * 16	# chunk 20 undecodable
open(sys.argv[2], 'wb').write(d)
PY
expect_exit 1 $TDAT merge -q --file-version 6 --threads 1 -o bad1.v6 bad7.dat
cp "$ERR" err.one
expect_exit 1 $TDAT merge -q --file-version 6 -o bad2.v6 bad7.dat
assert_same err.one "$ERR"
assert_grep "chunk does not decompress" "$ERR"
assert_file_absent bad2.v6

step "no temporary files are left behind"
left=$(ls -A | grep -E '\.tmp|^\.' | grep -v -E '^\.(out|err|log|rss)$' || true)
assert_eq "" "$left" "leftover files"

step "inputs are never modified"
assert_eq "$sums" "$(sha256sum "$FIX"/*.dat)" "fixture checksums"
echo "merge ok"

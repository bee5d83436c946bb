#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# merge's fast path: a CPU stream lying wholly before the others is
# copied as stored (raw pages as they are, compressed chunks not even
# decompressed), and `merge -v` says so.  Its output is byte for byte
# the original's per CPU; a damaged chunk payload passes through as the
# same damage (report names it in both), a damaged chunk header or frame
# header is refused with one line and nothing written; pieces that
# overlap still take the merging path and come out right.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
[ -x "$TOOLS/tdat-digest" ] && [ -x "$TOOLS/mkpieces" ] ||
	skip "build the test tools first (make $TOOLS/mkpieces $TOOLS/tdat-digest)"
$TDAT split --help >/dev/null 2>&1 || skip "split is not built"
sums=$(sha256sum "$FIX"/*.dat)

streams() { "$TOOLS/tdat-digest" "$1" | grep -E '^(buffer|  cpu)'; }
# stat WORD: the number before WORD in merge -v's line.
stat() {
	grep '^tdat merge: .* pages in' "$ERR" |
		sed -E "s/.* ([0-9]+) $1.*/\\1/"
}

# poke FILE OFFSET HEX: overwrite bytes.
poke() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

for f in $(fixtures); do
	n=$(basename "$f" .dat)
	# about 4 pieces: each carries megabytes of metadata
	most=$("$TOOLS/tdat-digest" "$f" | awk '$1 == "cpu" && $4 > m { m = $4 } END { print m + 0 }')
	np=$((most / 4 + 1))
	step "$n: page-aligned pieces (-p $np) merge back as stored, byte for byte"
	rm -f sp.*
	expect_exit 0 $TDAT split -i "$f" -o sp -p $np -r
	expect_exit 0 $TDAT merge -q -v -o m.dat sp.*
	streams "$f" >s.orig
	streams m.dat >s.merged
	assert_same s.orig s.merged
	assert_eq 0 "$(stat cut)" "pages cut"
	[ "$(stat streams)" -ge 1 ] || fail "no stream was copied whole"
	case $n in v7-zstd*|v7-zlib*)
		[ "$(stat "of them")" -ge 1 ] ||
			fail "no chunk was copied without decompressing" ;;
	esac
	# every page of the pieces went out unparsed, and nothing else
	[ "$(stat "pages unparsed")" = "$(stat "pages in")" ] ||
		fail "pages were parsed: $(cat "$ERR")"
done

zs=$FIX/v7-zstd-markers-raw_syscalls.dat
step "chunks of whole-chunk pieces are the original's, none decompressed"
rm -f sp.*
expect_exit 0 $TDAT split -i "$zs" -o sp -p 110 -r
expect_exit 0 $TDAT merge -q -v -o m.dat sp.*
"$TOOLS/tdat-digest" --chunks "$zs" >c.orig
"$TOOLS/tdat-digest" --chunks m.dat >c.merged
assert_same c.orig c.merged
assert_eq "$(stat "chunks copied")" "$(stat "of them")" "chunks not decompressed"
assert_eq "$(wc -l <c.orig)" "$(stat "of them")" "chunks stored"

step "a damaged chunk payload is copied as it is: the same damage"
cp sp.0001 bad.0001
at=$(chunk_at bad.0001 3)
c=$(od -An -tu4 -j "$at" -N4 bad.0001 | tr -d ' ')
poke bad.0001 $((at + 8 + c / 2)) ffffffffffffffffffffffffffffffff
expect_exit 0 $TDAT merge -q -v -o mbad.dat bad.0001 sp.0002 sp.0003 sp.0004
assert_eq "$(stat "chunks copied")" "$(stat "of them")" "chunks not decompressed"
set +e
$TDAT report -i sp.0001 >r.good 2>/dev/null
$TDAT report -i bad.0001 >r.bad 2>e.bad; rb=$?
$TDAT report -i m.dat >r.all 2>/dev/null
$TDAT report -i mbad.dat >r.mbad 2>e.mbad; rm=$?
set -e
assert_eq 1 "$rb" "report of the damaged piece"
assert_eq 1 "$rm" "report of the merge of the damaged piece"
assert_grep 'mbad\.dat: offset [0-9]+: buffer "" CPU 0: chunk does not decompress' e.mbad
assert_eq "$(sed 's/^.*: offset [0-9]*//; s/ (tdat restore -o FIXED.dat .*)$//' e.bad)" \
	  "$(sed 's/^.*: offset [0-9]*//; s/ (tdat restore -o FIXED.dat .*)$//' e.mbad)" "the damage reported"
# exactly the events the damaged piece lost are missing
diff r.good r.bad | grep '^[<>]' >lost.piece || true
diff r.all r.mbad | grep '^[<>]' >lost.merged || true
[ -s lost.piece ] || fail "the damage lost no event"
assert_same lost.piece lost.merged

step "a damaged chunk header is refused: one line, nothing written"
cp sp.0002 hdr.0002
at=$(chunk_at hdr.0002 2)
poke hdr.0002 "$at" ffffff7f
expect_exit 1 $TDAT merge -q -o no.dat sp.0001 hdr.0002 sp.0003
assert_lines 1 "$ERR"
assert_grep "hdr\.0002: offset $at: buffer \"\" CPU 0: chunk" "$ERR"
assert_file_absent no.dat

step "a chunk that is not a zstd frame is refused: one line, nothing written"
cp sp.0002 frame.0002
at=$(chunk_at frame.0002 2)
poke frame.0002 $((at + 8)) 00000000
expect_exit 1 $TDAT merge -q -o no.dat sp.0001 frame.0002 sp.0003
assert_lines 1 "$ERR"
assert_grep "frame\.0002: offset $at: buffer \"\" CPU 0: zstd chunk \([0-9]+ bytes\) is not a zstd frame" "$ERR"
assert_file_absent no.dat

step "--chunk-size the pieces have: their chunks still pass as stored"
# (the rule is the writer's, the same for merged and copied streams:
# merge once refused any --chunk-size here)
expect_exit 0 $TDAT merge -q -v --chunk-size 40K -o cs.dat sp.*
assert_eq "$(wc -l <c.orig)" "$(stat "of them")" "chunks stored"
"$TOOLS/tdat-digest" --chunks cs.dat >c.merged
assert_same c.orig c.merged
expect_exit 0 $TDAT merge -q -v --chunk-size 20K -o cs.dat sp.*
# (only a stream's lone chunk shorter than 20K may pass, as convert's)
[ "$(stat "chunks copied")" -lt "$(wc -l <c.orig)" ] ||
	fail "chunks of 40K passed into a file of 20K chunks"

step "a raw stream copied whole goes out unread, as chunks do; pages that are read are checked"
# Pieces that follow each other are copied by the kernel, as stored (the
# output is as sound as its inputs, as with cp; dump --validate checks);
# a compressed output reads every page, and refuses a broken one.
rm -f rp.*
expect_exit 0 $TDAT split -i "$FIX"/v6-sched-irq.dat -o rp -p 2 -r
at=$($TDAT dump --flyrecord rp.0001 | awk '/size of cpu 0/ { print $1; exit }')
poke rp.0001 $((at + 8)) 0000010000000000
expect_exit 0 $TDAT merge -q -v -o raw.dat rp.*
[ "$(stat "pages unparsed")" -gt 0 ] || fail "no page copied unread: $(cat "$ERR")"
expect_exit 1 $TDAT dump --validate -i raw.dat
expect_exit 1 $TDAT merge -q --file-version 7 --compression zstd -o no.dat rp.*
assert_lines 1 "$ERR"
assert_grep "rp\.0001: offset $at: buffer \"\" CPU 0: page commit is larger than the page" "$ERR"
assert_file_absent no.dat

step "overlapping pieces take the merging path and come out right"
for f in "$zs" "$FIX"/v6-sched-irq.dat; do
	rm -f pc.*
	"$TOOLS/mkpieces" -i 2 "$f" pc >/dev/null
	expect_exit 0 $TDAT merge -q -v -o m.dat pc.*
	[ "$(stat "pages unparsed")" -lt "$(stat "pages in")" ] ||
		fail "interleaved pieces were copied unparsed: $(cat "$ERR")"
	streams "$f" >s.orig
	streams m.dat >s.merged
	assert_same s.orig s.merged
	rm -f pc.*
	"$TOOLS/mkpieces" -p 2 -o 1 "$f" pc >/dev/null
	expect_exit 0 $TDAT merge -v -o m.dat pc.*
	assert_grep "dropped [1-9][0-9]* repeated pages" "$ERR"
	streams m.dat >s.merged
	assert_same s.orig s.merged
done

step "a piece given twice: its copies are merged (repeats dropped), the rest copied"
expect_exit 0 $TDAT merge -v -o m2.dat sp.0001 sp.0002 sp.0003 sp.0002 sp.0004
assert_grep "dropped [1-9][0-9]* repeated pages" "$ERR"
[ "$(stat streams)" -ge 2 ] || fail "the other pieces were not copied whole"
[ "$(stat "pages unparsed")" -lt "$(stat "pages in")" ] ||
	fail "the repeated piece was copied unparsed: $(cat "$ERR")"
streams "$zs" >s.orig
streams m2.dat >s.merged
assert_same s.orig s.merged

step "other codec or level: pages fed to the compressor, events unread"
rm -f sp.*
expect_exit 0 $TDAT split -i "$FIX"/v6-sched-irq.dat -o sp -p 2 -r
expect_exit 0 $TDAT merge -q -v -o z.dat --compression zstd sp.*
[ "$(stat streams)" -ge 1 ] || fail "no stream was copied whole"
assert_eq 0 "$(stat "of them")" "chunks stored from raw pieces"
streams "$FIX"/v6-sched-irq.dat >s.orig
streams z.dat >s.merged
assert_same s.orig s.merged
rm -f sp.*
expect_exit 0 $TDAT split -i "$zs" -o sp -p 110 -r
expect_exit 0 $TDAT merge -q -v -o l9.dat --level 9 sp.*
assert_eq 0 "$(stat "of them")" "chunks stored with --level 9"
streams "$zs" >s.orig
streams l9.dat >s.merged
assert_same s.orig s.merged

# (Not under emulation, tests/cross/run: qemu-user needs descriptors of
# its own below that limit.)
if [ -z "${TDAT_CROSS:-}" ]; then
	step "descriptors stay bounded on the fast path: 12 pieces, ulimit -n 9"
	rm -f pc.*
	many=$FIX/v7-zstd-sched-irq-tc34.dat
	"$TOOLS/mkpieces" -p 4 "$many" pc >/dev/null
	[ "$(ls pc.* | wc -l)" -ge 10 ] || fail "expected 10 pieces or more"
	(ulimit -n 9 && $TDAT merge -q -v -o many.dat pc.*) 2>"$ERR" ||
		fail "merge of many pieces under ulimit -n 9: $(cat "$ERR")"
	[ "$(stat streams)" -ge 1 ] || fail "no stream was copied whole"
	streams "$many" >s.orig
	streams many.dat >s.merged
	assert_same s.orig s.merged
fi

step "inputs are never modified"
assert_eq "$sums" "$(sha256sum "$FIX"/*.dat)" "fixture checksums"
echo "merge copy ok"

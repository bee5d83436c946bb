#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# merge's metadata: v7 sections that stay unchanged are copied as the
# inputs stored them (not decompressed, not compressed again), sections
# that change are joined; unknown sections of every input are kept
# (identical ones once, different ones of one id both, with a note), and
# dropped only by a v6 output, with a warning naming file and section;
# damaged metadata in any input is refused in one line.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
for t in mkvariant tdat-digest tdat-sections; do
	[ -x "$TOOLS/$t" ] || skip "build the test tools first (make $TOOLS/$t)"
done
command -v trace-cmd >/dev/null || skip "Debian's trace-cmd is not installed"
F=$FIX/v7-zstd-sched-irq.dat
sums=$(sha256sum "$FIX"/*.dat)

# Metadata sections (ids 16-25) as stored: id, flags, size, hash.
meta_sections() {
	"$TOOLS/tdat-sections" "$1" | awk '$2 >= 16 && $2 <= 25 {
		print $2, $4, $8, $10 }'
}
# Unknown sections as libfmt reads them (id, flags, size, body hash).
unknown() { "$TOOLS/tdat-digest" "$1" | grep '^section ' || true; }
# The decoded metadata and options.
meta_digest() { "$TOOLS/tdat-digest" "$1" | grep -E '^(meta|option) '; }

step "pieces whose metadata is zstd level 1: merged, the sections are the pieces' bytes"
expect_exit 0 $TDAT split -i "$F" -o sp -p 3 -r
n=0
for p in sp.*; do
	expect_exit 0 $TDAT convert -q --level 1 -i "$p" -o "lo.$p"
	n=$((n + 1))
done
[ $n -ge 3 ] || fail "split made $n pieces, want 3 or more"
expect_exit 0 $TDAT merge -q -o m.dat lo.sp.*
meta_sections lo.sp.0001 >s.piece
meta_sections m.dat >s.merged
[ -s s.piece ] || fail "no metadata sections listed"
assert_same s.piece s.merged
trace-cmd report "$F" >r.orig 2>&1 || fail "trace-cmd cannot report $F"
trace-cmd report m.dat >r.merged 2>&1 || fail "trace-cmd cannot report m.dat"
assert_same r.orig r.merged

step "... compressed again when asked: --level 3 (other bytes), --compression zlib"
expect_exit 0 $TDAT merge -q --level 3 -o m3.dat lo.sp.*
meta_sections m3.dat >s.m3
cmp -s s.piece s.m3 && fail "--level 3 copied the level 1 sections"
meta_digest m.dat >d.merged
meta_digest m3.dat >d.m3
assert_same d.merged d.m3
expect_exit 0 $TDAT merge -q --compression zlib -o mz.dat lo.sp.*
meta_digest mz.dat >d.mz
assert_same d.merged d.mz
expect_exit 0 $TDAT merge -q --file-version 6 -o m6.dat lo.sp.*
trace-cmd report m6.dat >r.m6 2>&1 || fail "trace-cmd cannot report m6.dat"
assert_same r.orig r.m6

step "a piece of another recording (other cmdlines, an instance): cmdlines joined, the rest copied"
expect_exit 0 $TDAT split -i "$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat" -o ip -p 3 -r
expect_exit 0 $TDAT merge -q -o mi.dat sp.0001 ip.0001
meta_sections sp.0001 | grep -v '^21 ' >s.sp
meta_sections mi.dat | grep -v '^21 ' >s.mi
assert_same s.sp s.mi
cm() { "$TOOLS/tdat-digest" "$1" | awk '$1 == "meta" && $2 == 21 { print $4 }'; }
a=$(cm sp.0001) b=$(cm ip.0001) c=$(cm mi.dat)
[ "$c" -gt "$a" ] && [ "$c" -ge "$b" ] || fail "cmdlines not joined: $a + $b -> $c"
trace-cmd report mi.dat >r.mi 2>&1 || fail "trace-cmd cannot report mi.dat"
assert_grep '^cpus=' r.mi

step "unknown sections: pieces carrying the same ones keep them once"
expect_exit 0 "$TOOLS/mkvariant" --section 41:plain --zsection 42:packed-text-packed-text "$F" u.dat
expect_exit 0 $TDAT split -i u.dat -o up -p 3 -r
expect_exit 0 $TDAT merge -q -o um.dat up.*
unknown u.dat >x.orig
unknown um.dat >x.merged
assert_lines 2 x.orig
assert_same x.orig x.merged
"$TOOLS/tdat-sections" u.dat | awk '$2 == 42 { print $10 }' >h.orig
"$TOOLS/tdat-sections" um.dat | awk '$2 == 42 { print $10 }' >h.merged
assert_same h.orig h.merged

step "unknown sections: a later input's new one is added, a different one of the same id kept beside"
expect_exit 0 "$TOOLS/mkvariant" --section 43:new --section 41:other up.0002 up2.dat
expect_exit 0 $TDAT merge -q -o um2.dat up.0001 up2.dat up.0003
unknown um2.dat >x.m2
assert_lines 4 x.m2
assert_grep '^section 43 flags 0 "test section 43" size 3 ' x.m2
assert_eq 2 "$(grep -c '^section 41 ' x.m2)" "sections 41 kept"
assert_grep "^tdat merge: warning: up2.dat: section 41 differs from the one up.0001 has: both kept" "$ERR"
assert_lines 1 "$ERR"

step "unknown sections: a compressed one of a zlib input joins a zstd output decompressed"
expect_exit 0 $TDAT convert -q --compression zlib -i up.0002 -o z.dat
expect_exit 0 "$TOOLS/mkvariant" --zsection 45:zlib-packed-zlib-packed z.dat z45.dat
expect_exit 0 "$TOOLS/mkvariant" --section 45:zlib-packed-zlib-packed up.0002 plain45.dat
expect_exit 0 $TDAT merge -q -o um3.dat up.0001 z45.dat
unknown plain45.dat | grep '^section 45 ' >x.want
unknown um3.dat | grep '^section 45 ' >x.got
assert_same x.want x.got

step "unknown sections: a v6 output drops them, one warning line each"
expect_exit 0 $TDAT merge -q --file-version 6 -o um6.dat up.0001 up2.dat
assert_grep '^tdat merge: warning: up.0001: section 41 \("test section 41"\) dropped: a v6 file cannot hold it$' "$ERR"
assert_grep '^tdat merge: warning: up.0001: section 42 ' "$ERR"
assert_grep '^tdat merge: warning: up2.dat: section 43 .*dropped' "$ERR"
assert_grep '^tdat merge: warning: up2.dat: section 41 .*dropped' "$ERR"
assert_lines 4 "$ERR"

step "BTF and modules: a v6 output drops them with convert's words (issue 49: merge said nothing)"
lb=$FIX/lastboot/boot_map-7.2-kaslr.dat
expect_exit 0 $TDAT merge --file-version 6 -o lb6.dat "$lb"
assert_grep '^tdat merge: warning: v6 cannot hold the BTF section: dropped$' "$ERR"
assert_grep '^tdat merge: warning: v6 cannot hold the modules section: dropped$' "$ERR"
assert_lines 2 "$ERR"
expect_exit 0 $TDAT convert --file-version 6 -i "$lb" -o lbc6.dat
sed 's/^tdat convert:/tdat merge:/' "$ERR" >convert-said.txt
expect_exit 0 $TDAT merge --file-version 6 -o lb6.dat "$lb"
assert_same convert-said.txt "$ERR"
expect_exit 0 $TDAT merge -o lb7.dat "$lb"
assert_lines 0 "$ERR"

step "damaged kallsyms in the first or a later piece: refused in one line, nothing written"
off=$("$TOOLS/tdat-sections" sp.0002 | awk '$2 == 19 { print $6 + 16 + 8 }')
[ -n "$off" ] || fail "no kallsyms section in sp.0002"
cp sp.0002 bad.dat
printf 'XXXXXXXX' | dd of=bad.dat bs=1 seek="$off" conv=notrunc 2>/dev/null
expect_exit 1 $TDAT report -i bad.dat
assert_grep "bad.dat: offset $off: zstd data does not decompress" "$ERR"
for order in "sp.0001 bad.dat" "bad.dat sp.0001"; do
	expect_exit 1 $TDAT merge -q -o mb.dat $order
	assert_lines 1 "$ERR"
	assert_grep "^tdat merge: bad.dat: offset $off: zstd data does not decompress" "$ERR"
	assert_file_absent mb.dat
done

step "inputs unchanged"
assert_eq "$sums" "$(sha256sum "$FIX"/*.dat)" "fixture checksums"

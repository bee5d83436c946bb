#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# convert on what the corpus lacks, made from real content by mkvariant
# (see tests/tools/mkvariant.c for exactly how):
#  - big-endian files and files of a 32-bit kernel (4-byte commit word)
#    convert to every version x codec and back: Debian's trace-cmd and our
#    report print the same for all of them, and v6 -> v7 -> v6 is
#    byte-identical;
#  - (d) an unknown option and an unknown section survive every conversion
#    the target can hold, and v6's refusal of the section is reported.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"

report_of() {
	trace-cmd report -i "$1" >"$2" 2>/dev/null || fail "trace-cmd report -i $1"
}

digest_body() {
	"$TOOLS/tdat-digest" "$1" | sed 1d
}

# roundtrip FILE [OURS]: every target; same reports, same content, v6
# identity.  OURS=no: this host's report of FILE is not compared (the
# host's trace-cmd still judges every conversion).
roundtrip() {
	local in=$1 ref=$1.ref v c out
	report_of "$in" "$ref"
	$TDAT report -i "$in" >"$in.ours" || fail "our report of $in"
	[ "${2:-}" = no ] || assert_same "$ref" "$in.ours"
	digest_body "$in" >"$in.digest"
	for t in 6:none 7:none 7:zstd 7:zlib; do
		v=${t%%:*} c=${t#*:} out=$in.v$v$c
		expect_exit 0 $TDAT convert -i "$in" -o "$out" --file-version "$v" \
			--compression "$c"
		digest_body "$out" >"$out.digest"
		assert_same "$in.digest" "$out.digest"
		case $c in zlib) ;; *)
			report_of "$out" "$out.rep"
			assert_same "$ref" "$out.rep" ;;
		esac
		expect_exit 0 $TDAT convert -i "$out" -o "$out.back" \
			--file-version "$(head -c 11 "$in" | tail -c 1)" \
			--compression "$(codec_of "$in")"
		case $in in *v6*) assert_same "$in" "$out.back" ;; esac
		digest_body "$out.back" >"$out.back.digest"
		assert_same "$in.digest" "$out.back.digest"
	done
}

codec_of() {
	"$TOOLS/tdat-digest" "$1" | head -n 1 | sed 's/.* codec //'
}

for f in v6-sched-irq v6-2inst-irq-top-sched-inst1 v7-none-sched-irq \
	 v7-zstd-sched-irq v7-zstd-2inst-irq-top-sched-inst1-tc34 \
	 v7-zstd-markers-raw_syscalls; do
	step "$f: big-endian"
	"$TOOLS/mkvariant" --big-endian "$FIX/$f.dat" "$f.be.dat" ||
		fail "mkvariant --big-endian $f"
	assert_grep "^endian big long 8" /dev/stdin <<EOF2
$("$TOOLS/tdat-digest" "$f.be.dat" | sed -n 2p)
EOF2
	roundtrip "$f.be.dat"
	# The payload fields were swapped too: trace-cmd prints the original.
	report_of "$FIX/$f.dat" "$f.orig.rep"
	assert_same "$f.orig.rep" "$f.be.dat.ref"

	step "$f: 32-bit kernel (12-byte page headers)"
	"$TOOLS/mkvariant" --long4 "$FIX/$f.dat" "$f.l4.dat" ||
		fail "mkvariant --long4 $f"
	# The variant keeps the 8-byte fields of a 64-bit kernel under a
	# long-4 header, which no kernel writes.  Where the compiled path
	# does not print an event (sys_enter's args), a 32-bit host's
	# libtraceevent prints %lx of such a field as its own 4-byte long,
	# as its trace-cmd would: x86_64's text is no reference for our
	# report there (46-report-fastfmt leaves such variants out too).
	ours=yes
	[ "${TDAT_HOST_32BIT:-}" = 1 ] && ours=no
	roundtrip "$f.l4.dat" $ours
	rm -f "$f".*
done

step "(d) unknown option 200 and section 40"
"$TOOLS/mkvariant" --unknown "$FIX/v7-zstd-sched-irq.dat" unk.dat
digest_body unk.dat >unk.digest
assert_grep "^option 200 " unk.digest
assert_grep "^section 40 .*section from the future" unk.digest
for c in none zstd zlib; do
	expect_exit 0 $TDAT convert -i unk.dat -o unk.$c.dat --compression $c
	digest_body unk.$c.dat >unk.$c.digest
	assert_same unk.digest unk.$c.digest
done
expect_exit 0 $TDAT convert -i unk.dat -o unk6.dat --file-version 6
assert_lines 1 "$ERR"
assert_grep "section 40" "$ERR"
digest_body unk6.dat >unk6.digest
assert_grep "^option 200 " unk6.digest
grep -q "^section 40" unk6.digest && fail "v6 output claims section 40"
expect_exit 0 $TDAT convert -i unk6.dat -o unk67.dat
digest_body unk67.dat >unk67.digest
assert_same unk6.digest unk67.digest
"$TOOLS/mkvariant" --unknown "$FIX/v6-sched-irq.dat" unkv6.dat
expect_exit 0 $TDAT convert -i unkv6.dat -o unkv67.dat --compression zlib
expect_exit 0 $TDAT convert -i unkv67.dat -o unkv676.dat --file-version 6
assert_same unkv6.dat unkv676.dat

# (e) an empty strings section besides the writer's (a file may hold
# several): read as usual.  Under UBSan (make check-asan) appending it
# was a memcpy from NULL (found by the fuzz_merge target).
"$TOOLS/mkvariant" --section 15: "$FIX/v7-zstd-sched-irq.dat" emptystr.dat
$TDAT report -i "$FIX/v7-zstd-sched-irq.dat" >emptystr.want ||
	fail "report of the fixture"
expect_exit 0 $TDAT report -i emptystr.dat
assert_same emptystr.want "$OUT"

step "(f) a v7 top buffer whose page size is not the header's: v6 takes the buffer's"
# v7 keeps a page size per buffer (the header's is only a default); v6
# has one, read for the top buffer's pages.  The header of this copy
# says 4112 (its offset 14, little-endian); its pages are 4096.  v6
# outputs had the header's 4112, and every page read wrong (found by
# the fuzz_split target).
cp "$FIX/v7-zstd-sched-irq.dat" pagesize.dat
printf '\x10\x10\x00\x00' | dd of=pagesize.dat bs=1 seek=14 conv=notrunc 2>/dev/null
expect_exit 0 $TDAT report -i pagesize.dat
tail -n +2 "$OUT" >pagesize.want
expect_exit 0 $TDAT convert -i pagesize.dat -o pagesize.v6 --file-version 6
expect_exit 0 $TDAT report -i pagesize.v6
tail -n +2 "$OUT" >pagesize.got
assert_same pagesize.want pagesize.got
trace-cmd report -i pagesize.v6 2>/dev/null | tail -n +2 >pagesize.tc
assert_same pagesize.want pagesize.tc
mkdir pagesize.split
expect_exit 0 $TDAT split -i pagesize.dat -o pagesize.split/p -e 1000 -r --file-version 6
for f in pagesize.split/*; do
	expect_exit 0 $TDAT report -i "$f"
done
# with an instance of the top buffer's page size: no warning that v6
# misreads it (it compared with the header's), and it reads right
cp "$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat" pagesize2.dat
printf '\x10\x10\x00\x00' | dd of=pagesize2.dat bs=1 seek=14 conv=notrunc 2>/dev/null
expect_exit 0 $TDAT report -i pagesize2.dat
cp "$OUT" pagesize2.want
expect_exit 0 $TDAT convert -i pagesize2.dat -o pagesize2.v6 --file-version 6
! grep -q "page size" "$ERR" || fail "a page size warning: $(cat "$ERR")"
expect_exit 0 $TDAT report -i pagesize2.v6
assert_same pagesize2.want "$OUT"
echo "variants ok"

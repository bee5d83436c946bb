#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# convert's command line: trace-cmd's forms, refusals, atomic output,
# chunk copy-through, silence when not on a terminal.
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
v6=$FIX/v6-sched-irq.dat
v7=$FIX/v7-zstd-sched-irq.dat
sums=$(sha256sum "$v6" "$v7")

step "OUT as the last argument; the default is v7 zstd"
expect_exit 0 $TDAT convert -i "$v6" out.dat
assert_eq "" "$(cat "$ERR")" "stderr when not on a terminal"
assert_eq "" "$(cat "$OUT")" "stdout"
assert_grep "^version 7 codec zstd$" /dev/stdin <<EOF2
$("$TOOLS/tdat-digest" out.dat | head -n 1)
EOF2

step "-o OUT, --file-version 6; -q"
expect_exit 0 $TDAT convert -q -i out.dat -o back.dat --file-version 6
assert_same "$v6" back.dat

step "the symlinked applet works the same"
expect_exit 0 "$(dirname "$TDAT")/convert" -i "$v6" -o sym.dat --compression none
assert_grep "^version 7 codec none$" /dev/stdin <<EOF2
$("$TOOLS/tdat-digest" sym.dat | head -n 1)
EOF2

step "compressed chunks are copied through when nothing asks to recompress"
expect_exit 0 $TDAT convert -i "$v7" -o same.dat
"$TOOLS/tdat-digest" --chunks "$v7" >chunks.in
"$TOOLS/tdat-digest" --chunks same.dat >chunks.same
assert_same chunks.in chunks.same
expect_exit 0 $TDAT convert -i "$v7" -o lvl.dat --level 9
"$TOOLS/tdat-digest" --chunks lvl.dat >chunks.lvl
cmp -s chunks.in chunks.lvl && fail "--level 9 copied chunks instead of recompressing"
many=$FIX/v7-zstd-markers-raw_syscalls.dat	# 29 chunks of 10 pages
expect_exit 0 $TDAT convert -i "$many" -o big.dat --chunk-size 80K --threads 1
"$TOOLS/tdat-digest" --chunks big.dat >chunks.big
assert_grep "chunk [0-9]+/81920 " chunks.big
"$TOOLS/tdat-digest" "$many" | sed 1d >d.in
"$TOOLS/tdat-digest" big.dat | sed 1d >d.big
assert_same d.in d.big

step "chunks decompressed ahead (default) or not (--threads 1): same file, same error"
expect_exit 0 $TDAT convert -q -i "$many" -o one.v6 --file-version 6 --threads 1
expect_exit 0 $TDAT convert -q -i "$many" -o two.v6 --file-version 6
assert_same one.v6 two.v6
# Chunk 20 of CPU 0 made undecodable: the same line from both.
off=$(python3 - "$many" bad.dat <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
at = 1019904 + 4	# CPU 0's stream (tdat dump --flyrecord)
for _ in range(20):
    at += 8 + struct.unpack_from('<I', d, at)[0]
d[at + 8:at + 24] = b'\xa5' * 16
open(sys.argv[2], 'wb').write(d)
print(at)
PY
)
expect_exit 1 $TDAT convert -q -i bad.dat -o bad1.v6 --file-version 6 --threads 1
cp "$ERR" err.one
expect_exit 1 $TDAT convert -q -i bad.dat -o bad2.v6 --file-version 6
assert_same err.one "$ERR"
assert_grep "offset $off: buffer \"\" CPU 0: chunk does not decompress" "$ERR"
assert_file_absent bad2.v6

step "an output equal to the input is refused, also through a symlink"
cp "$v7" mine.dat
ln -s mine.dat link.dat
sum=$(sha256sum <mine.dat)
expect_exit 2 $TDAT convert -i mine.dat -o mine.dat
assert_lines 1 "$ERR"
expect_exit 2 $TDAT convert -i mine.dat link.dat
assert_eq "$sum" "$(sha256sum <mine.dat)" "input after refused conversions"

step "usage errors exit 2 with one line"
for args in "--file-version 5" "--compression lz4" "--level x" \
	    "--chunk-size 100" "--threads x" "--bogus" "-i"; do
	expect_exit 2 $TDAT convert $args -i "$v6" -o u.dat
	assert_file_absent u.dat
done
expect_exit 0 $TDAT convert --help
assert_grep "--file-version" "$OUT"

step "a missing input: one line, exit 1, nothing written"
expect_exit 1 $TDAT convert -i nosuch.dat -o m.dat
assert_lines 1 "$ERR"
assert_grep "nosuch.dat" "$ERR"
assert_file_absent m.dat

step "an unwritable output directory: one line, exit 1"
expect_exit 1 $TDAT convert -i "$v6" -o /nonexistent-dir/x.dat
assert_lines 1 "$ERR"

step "no temporary files are left behind"
left=$(ls -A | grep -E '\.tmp|^\.' | grep -v -E '^\.(out|err|log)$' || true)
assert_eq "" "$left" "leftover files"

step "inputs are never modified"
assert_eq "$sums" "$(sha256sum "$v6" "$v7")" "fixture checksums"
echo "convert command line ok"

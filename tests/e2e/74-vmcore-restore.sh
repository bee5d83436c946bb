#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# restore --vmcore on a real dump: fixtures/vmcore/powercut-6.12-dump.elf.zst
# is the memory of Debian's 6.12 cloud kernel that panicked 7 s into
# "tdat record --flush-interval 0" in the power-cut bed (tests/vm/powercut,
# cut dump), cut down by tests/tools/vmcore/vmcore-min to what restore
# --vmcore and extract --vmcore -t read of it; powercut-6.12.rec/ is the
# recording's directory as the disk kept it (its raw files empty: nothing
# synced).  The writer wrote markers 1 to 119 before the panic.
#  - restore --vmcore: every page of both files from the page cache, all
#    of them missing on the disk; markers 1-118;
#  - extract --vmcore -t: what no reader had taken, marker 119;
#  - merge: 1-119, each once;
#  - a disk page that differs from the cache's is counted; a directory
#    of another name finds nothing: the disk's bytes, said per file; a
#    dump without the structures, or cut: one line, no output.
# The head is extract's file of the same dump (restore takes the
# metadata of any trace.dat; the recording's own head.dat is 7 MB).
. "$E2E/lib.sh"

V=$FIX/vmcore/powercut-6.12
command -v zstd >/dev/null || fail "zstd is missing (scripts/install-deps)"
zstd -q -d -c "$V-dump.elf.zst" >dump.elf || fail "cannot decompress $V-dump.elf.zst"
sum=$(sha256sum <dump.elf)

expect_exit 0,1 "$TDAT" extract -q --vmcore dump.elf -t -o rings.dat
if grep -q 'built without libkdumpfile' "$ERR"; then
	skip "this tdat was built without libkdumpfile and libbpf (the Makefile's VMCORE=0)"
fi
[ ! -s "$ERR" ] || { cat "$ERR" >&2; fail "extract --vmcore of the fixture"; }
cp -r "$V.rec" tdat.dat.rec
cp rings.dat tdat.dat.rec/head.dat

# markers FILE: "COUNT FIRST-LAST TWICE" of FILE's markers
markers() {
	"$TDAT" report -i "$1" | grep -o 'powercut-marker [0-9]*' |
		awk '{ print $2 }' | sort -n | uniq -c |
		awk 'NR == 1 { f = $2 } { n++; l = $2; if ($1 > 1) d++ }
		     END { print n + 0, f "-" l, d + 0 }'
}

step "restore --vmcore: both files from the page cache, none of it on the disk"
expect_exit 0 timeout 60 "$TDAT" restore --vmcore dump.elf -o cache.dat tdat.dat.rec
assert_grep '^tdat restore: tdat\.dat\.rec/cpu0: 64 of 64 pages from the crashed kernel.s page cache \(64 not on disk\)$' "$ERR"
assert_grep '^tdat restore: tdat\.dat\.rec/cpu1: 75 of 75 pages from the crashed kernel.s page cache \(75 not on disk\)$' "$ERR"
assert_grep '^tdat restore: wrote cache\.dat from tdat\.dat\.rec/ and the page cache in dump\.elf$' "$ERR"
assert_lines 3 "$ERR"
assert_eq "118 1-118 0" "$(markers cache.dat)" "markers from the page cache"
expect_exit 0 "$TDAT" report -i cache.dat
assert_tc_report "$OUT" -i cache.dat

step "extract --vmcore -t and merge: every marker up to the panic, once"
assert_eq "1 119-119 0" "$(markers rings.dat)" "markers from the ring buffers"
expect_exit 0 "$TDAT" merge -q -o all.dat cache.dat rings.dat
assert_eq "119 1-119 0" "$(markers all.dat)" "markers merged"
expect_exit 0 "$TDAT" report -i all.dat
assert_tc_report "$OUT" -i all.dat

step "a disk page unlike the cache's is counted; the cache's is taken"
head -c 4096 /dev/zero | tr '\0' 'x' >tdat.dat.rec/cpu1
expect_exit 0 "$TDAT" restore -q --vmcore dump.elf -o again.dat tdat.dat.rec
cmp -s again.dat cache.dat || fail "a stale disk page changed the output"
expect_exit 0 "$TDAT" restore --vmcore dump.elf -o again.dat tdat.dat.rec
assert_grep 'cpu1: 75 of 75 pages from the crashed kernel.s page cache \(75 not on disk\)$' "$ERR"
cp "$V.rec/cpu1" tdat.dat.rec/cpu1

step "a damaged i_size: the file ends where the cache and the disk end"
# cpu1's inode in the fixture says 307200 bytes (75 pages) at this
# offset of dump.elf (little-endian); made 512 GiB, restore once wrote and read a sparse
# file of that size (a hang): the pages held are what counts.
at=615928
[ "$(od -An -t x1 -j $at -N 8 dump.elf | tr -d ' ')" = 00b0040000000000 ] ||
	fail "dump.elf: no i_size 307200 at offset $at (the fixture changed?)"
cp dump.elf isize.elf
printf '\0\0\0\0\x80\0\0\0' | dd of=isize.elf bs=1 seek=$at conv=notrunc 2>/dev/null
expect_exit 0 timeout 60 "$TDAT" restore --vmcore isize.elf -o isize.dat tdat.dat.rec
assert_grep 'cpu1: 75 of 75 pages from the crashed kernel.s page cache \(75 not on disk\)$' "$ERR"
cmp -s isize.dat cache.dat || fail "a damaged i_size changed the output"
rm isize.elf

step "files whose names never reached the disk: taken from the page cache"
# A panic before the file system's first commit leaves the directory
# without the raw files' names (the bed's cuts 2.5 and 3.6 s in).
mkdir nonames
cp -r tdat.dat.rec nonames/
rm nonames/tdat.dat.rec/cpu0 nonames/tdat.dat.rec/cpu1
expect_exit 0 "$TDAT" restore -q --vmcore dump.elf -o nonames.dat nonames/tdat.dat.rec
assert_eq "118 1-118 0" "$(markers nonames.dat)" "markers of files the disk lacks"

step "a FIFO planted as a raw file: refused, not waited on"
mkdir fifo
cp -r tdat.dat.rec fifo/
rm fifo/tdat.dat.rec/cpu0
mkfifo fifo/tdat.dat.rec/cpu0
expect_exit 1 timeout 20 "$TDAT" restore --vmcore dump.elf -o fifo.dat fifo/tdat.dat.rec
assert_grep '^tdat restore: fifo/tdat\.dat\.rec/cpu0: not a regular file' "$ERR"
assert_file_absent fifo.dat

step "another directory name: the disk's bytes, said"
cp -r tdat.dat.rec other.rec
expect_exit 0 "$TDAT" restore --vmcore dump.elf -o other.dat other.rec
assert_grep '^tdat restore: other\.rec/cpu0: not in dump\.elf.s page cache: the disk.s 0 bytes$' "$ERR"
assert_grep '^tdat restore: other\.rec/cpu1: not in dump\.elf.s page cache: the disk.s 0 bytes$' "$ERR"

step "a dump without the structures, a cut dump: one line naming it, nothing written"
# 74-vmcore's dump holds only what extract reads: no super block
zstd -q -d -c "$FIX/vmcore/qemu-6.12-kaslr.elf.zst" >vmcore.elf || fail "cannot decompress the vmcore fixture"
expect_exit 1 "$TDAT" restore --vmcore vmcore.elf -o other2.dat tdat.dat.rec
assert_lines 1 "$ERR"
assert_grep '^tdat restore: vmcore\.elf: kernel address 0x[0-9a-f]*: super_block\.s_bdev: not in the dump' "$ERR"
assert_file_absent other2.dat
head -c 5000000 dump.elf >cut.elf
expect_exit 1 "$TDAT" restore --vmcore cut.elf -o cutout.dat tdat.dat.rec
assert_lines 1 "$ERR"
assert_grep '^tdat restore: cut\.elf: ' "$ERR"
assert_file_absent cutout.dat

step "the inputs unchanged"
assert_eq "$sum" "$(sha256sum <dump.elf)" "the dump"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# extract --vmcore on a real dump: fixtures/vmcore/qemu-6.12-kaslr.elf.zst,
# the memory Debian's 6.12 cloud kernel had when it crashed in the VM bed
# (tests/vm/vmcore), cut down by tests/tools/vmcore/vmcore-min to what
# extract reads of it and the page tables that map it (13 MB, 2.5 MB
# compressed), with the original's notes:
#  - -t -a (v7, zstd by default), v6, none: report as the full dump's
#    (the golden .report.txt) and as trace-cmd 3.1.6 reports the file;
#    as many events per buffer as the crashed kernel said it held; every
#    format, header_page, header_event, printk_formats, saved_cmdlines
#    and kallsyms text byte for byte as the kernel printed them (their
#    sha256 in .texts.sha256);
#  - -B crashme, -t, -a, no option: each buffer's events, the same;
#  - makedumpfile's flattened form of the dump (written here): the same
#    file;
#  - no dump, the dump cut, its VMCOREINFO note gone, a flattened record
#    past 2^48 or cut short, -B of no instance: exit 1, one line naming
#    the dump, no output left, no crash or hang; the input unchanged.
. "$E2E/lib.sh"

V=$FIX/vmcore/qemu-6.12-kaslr
TOOLS=$(dirname "$TDAT")/tools
for t in tdat-texts tdat-events; do
	[ -x "$TOOLS/$t" ] || fail "$TOOLS/$t is missing (make $TOOLS/$t)"
done
command -v zstd >/dev/null || fail "zstd is missing (scripts/install-deps)"
zstd -q -d -c "$V.elf.zst" >dump.elf || fail "cannot decompress $V.elf.zst"
sum=$(sha256sum <dump.elf)

# x OPTS...: extract --vmcore dump.elf OPTS under a time limit
x() {
	timeout -k 5 60 $TDAT extract --vmcore "$@"
}

expect_exit 0,1 x dump.elf -q -o probe.dat
if grep -q 'built without libkdumpfile' "$ERR"; then
	skip "this tdat was built without libkdumpfile and libbpf (the Makefile's VMCORE=0: a static or cross build)"
fi
[ ! -s "$ERR" ] || { cat "$ERR" >&2; fail "extract --vmcore of the fixture"; }

# events FILE [BUFFER]: tdat-events' lines of FILE (of BUFFER only)
events() {
	"$TOOLS/tdat-events" "$1" >ev.all || fail "tdat-events $1"
	if [ $# -gt 1 ]; then
		awk -v b="$2" '$1 == b' ev.all
	else
		cat ev.all
	fi
}

step "-t -a: as the full dump, as trace-cmd reports it"
expect_exit 0 x dump.elf -t -a -o all.dat
assert_lines 1 "$ERR"
assert_grep '^tdat extract: wrote all\.dat: 2 buffers, 1745 events in 18 pages, from dump\.elf$' "$ERR"
assert_file_absent all.dat.rec
expect_exit 0 $TDAT dump --summary -i all.dat
assert_grep '^		7	\[Version\]$' "$OUT"
assert_grep '^		zstd	\[Compression algorithm\]$' "$OUT"
expect_exit 0 $TDAT report -i all.dat
assert_same "$V.report.txt" "$OUT"
assert_tc_report "$OUT" -i all.dat

step "as many events per buffer as the kernel held"
events all.dat >all.ev
while read -r buf n; do
	[ "$buf" = top ] && buf=-
	assert_eq "$n" "$(awk -v b="$buf" '$1 == b' all.ev | wc -l)" "events of buffer $buf"
done <"$V.entries"
assert_eq 1745 "$(wc -l <all.ev)" "events"

step "formats, headers, printk formats, cmdlines, kallsyms: the kernel's texts"
"$TOOLS/tdat-texts" all.dat texts || fail "tdat-texts all.dat"
(cd texts && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >got.list
awk '{ print $2 }' "$V.texts.sha256" | LC_ALL=C sort >want.list
assert_same want.list got.list
assert_eq 1552 "$(grep -c '/format$' got.list)" "event formats"
(cd texts && sha256sum --quiet -c "$V.texts.sha256") >&2 ||
	fail "texts differ from the kernel's (above)"

step "v6, no compression: the same report"
for o in "--file-version 6" "--compression none"; do
	expect_exit 0 x dump.elf -q $o -t -a -o v.dat
	assert_lines 0 "$ERR"
	expect_exit 0 $TDAT report -i v.dat
	assert_same "$V.report.txt" "$OUT"
	assert_tc_report "$OUT" -i v.dat
done
expect_exit 0 $TDAT dump --summary -i v.dat
assert_grep '^		none	\[Compression algorithm\]$' "$OUT"

step "-B crashme, -t, -a, no option: each buffer's events"
for o in "-B crashme:crashme" "-t:-" "-a:crashme" ":-"; do
	opt=${o%:*} buf=${o##*:}
	expect_exit 0 x dump.elf -q $opt -o one.dat
	events one.dat >one.ev
	[ "$(awk '{ print $1 }' one.ev | sort -u)" = "$buf" ] ||
		fail "extract $opt: buffers $(awk '{ print $1 }' one.ev | sort -u | tr '\n' ' ')"
	awk -v b="$buf" '$1 == b' all.ev >want.ev
	assert_same want.ev one.ev
	expect_exit 0 $TDAT report -i one.dat
	assert_tc_report "$OUT" -i one.dat
done

# flatten IN OUT [BAD]: makedumpfile's flattened form of IN (a 4096-byte
# header beginning "makedumpfile", records of a big-endian offset and
# size then the bytes, offset -1 last): 64 KiB records out of order, the
# file's head last (makedumpfile writes it so), pieces of zeros left out
# but the last; BAD: a 16-byte record for that offset in the middle.
# makedumpfile -R gives IN back from it.
flatten() {
	python3 - "$@" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
recs = [(o, d[o:o + 65536]) for o in range(0, len(d), 65536)]
recs = [r for r in recs[:-1] if r[1].count(0) != len(r[1])] + recs[-1:]
recs = recs[1::2] + recs[2::2] + recs[:1]
if len(sys.argv) > 3:
    recs.insert(len(recs) // 2, (int(sys.argv[3]), b'x' * 16))
with open(sys.argv[2], 'wb') as f:
    f.write(b'makedumpfile'.ljust(16, b'\0') + struct.pack('>qq', 1, 1))
    f.write(bytes(4096 - 32))
    for o, b in recs:
        f.write(struct.pack('>qq', o, len(b)) + b)
    f.write(struct.pack('>qq', -1, -1))
PY
}

step "makedumpfile's flattened form: the same file"
flatten dump.elf flat.dump
expect_exit 0 x flat.dump -t -a -o flat.dat
assert_grep '^tdat extract: wrote flat\.dat: 2 buffers, 1745 events in 18 pages, from flat\.dump$' "$ERR"
assert_same all.dat flat.dat

# bad FILE [OPTS]: extract --vmcore FILE fails as it should
bad() {
	local f=$1

	shift
	rm -rf out.dat out.dat.rec
	expect_exit 1 x "$f" "$@" -t -a -o out.dat
	assert_lines 1 "$ERR"
	assert_grep "^tdat extract: $f: " "$ERR"
	assert_file_absent out.dat
	assert_file_absent out.dat.rec
}

step "no dump: one line, nothing written"
cp "$FIX/v6-sched-irq.dat" trace.dat
bad trace.dat
assert_grep 'not a dump libkdumpfile reads' "$ERR"
echo 'not a dump' >text.txt
bad text.txt
: >empty.elf
bad empty.elf

step "the dump cut short: one line, nothing written"
# where its parts end: the ELF header, the program headers, the notes,
# then the pages
read -r phend ntend size <<<"$(python3 - dump.elf <<'PY'
import os, struct, sys
d = open(sys.argv[1], 'rb').read(1 << 16)
phoff, = struct.unpack_from('<Q', d, 32)
phnum, = struct.unpack_from('<H', d, 56)
note = struct.unpack_from('<QQQQ', d, phoff + 8)
print(phoff + 56 * phnum, note[0] + note[3], os.path.getsize(sys.argv[1]))
PY
)"
[ "$phend" -gt 4096 ] && [ "$ntend" -lt "$((size / 2))" ] ||
	fail "the fixture's layout: program headers to $phend, notes to $ntend"
# Cut in the headers' first page, where a whole page of the headers and
# notes is gone (4097 to 12288 bytes: libkdumpfile, mapping them, died of
# SIGBUS there before extract read the dump with read(2) and checked the
# segments against the file's size), in their last one (the notes cut
# short), after them.
for n in 40 100 2000 4097 8000 12288 $(((ntend - 1) / 4096 * 4096 + 1)) \
	 $ntend $(((ntend + 4095) / 4096 * 4096 + 4096)) $((size / 2)) \
	 $((size - 4096)); do
	head -c $n dump.elf >cut.elf
	bad cut.elf
done

step "a segment past the end of the file (libkdumpfile reads zeros there): refused"
# The PT_LOAD of program header 57 holds a ring-buffer page: moved to
# the file's end, its page reads as zeros, and extract said nothing of
# the 109 events gone before it checked the segments.
cp dump.elf past.elf
python3 - past.elf <<'PY'
import os, struct, sys
f = open(sys.argv[1], 'r+b')
f.seek(64 + 56 * 57 + 8)
f.write(struct.pack('<Q', os.path.getsize(sys.argv[1])))
PY
bad past.elf
assert_grep 'ELF program header 57: its 4096 bytes at .* run past the end of the file' "$ERR"

step "a ring page zeroed inside the dump: written, with a warning"
cp dump.elf hollow.elf
python3 - hollow.elf <<'PY'
import struct, sys
f = open(sys.argv[1], 'r+b')
f.seek(64 + 56 * 57 + 8)
off, = struct.unpack('<Q', f.read(8))
f.seek(off)
f.write(bytes(4096))
PY
expect_exit 0 x hollow.elf -t -a -o hollow.dat
assert_grep '1 ring-buffer page inside a ring empty' "$ERR"
[ -f hollow.dat ] || fail "extract of hollow.elf wrote nothing"

step "no VMCOREINFO note: one line, nothing written"
python3 - dump.elf novmci.elf <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
phoff, = struct.unpack_from('<Q', d, 32)
off, size = struct.unpack_from('<QQQQ', d, phoff + 8)[0::3]
notes, p, kept = d[off:off + size], 0, b''
while p + 12 <= len(notes):
    nsz, dsz, _ = struct.unpack_from('<III', notes, p)
    end = p + 12 + ((nsz + 3) & ~3) + ((dsz + 3) & ~3)
    if notes[p + 12:p + 12 + nsz].rstrip(b'\0') != b'VMCOREINFO':
        kept += notes[p:end]
    p = end
assert len(kept) < size
d[off:off + size] = kept + bytes(size - len(kept))
struct.pack_into('<QQ', d, phoff + 32, len(kept), len(kept))
open(sys.argv[2], 'wb').write(d)
PY
bad novmci.elf
assert_grep 'no VMCOREINFO' "$ERR"

step "flattened: a record past 2^48, cut short, none: one line, nothing written"
flatten dump.elf far.dump $((1 << 48))
bad far.dump
assert_grep 'flattened dump: a record for offset 281474976710656, 16 bytes' "$ERR"
flatten dump.elf far.dump $(((1 << 48) - 8))
bad far.dump
fsize=$(stat -c %s flat.dump)
for n in 4096 4100 $((fsize / 2)) $((fsize - 16)); do
	head -c $n flat.dump >cut.dump
	bad cut.dump
done
head -c 4096 flat.dump >none.dump
printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' >>none.dump
bad none.dump
assert_grep 'flattened dump: no record' "$ERR"

step "-B of no instance: one line, nothing written"
bad dump.elf -B no_such_instance
assert_grep '-B no_such_instance: the crashed kernel has no such instance' "$ERR"

assert_eq "$sum" "$(sha256sum <dump.elf)" "the dump after extract"
echo ok

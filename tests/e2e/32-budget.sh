# SPDX-License-Identifier: GPL-2.0-or-later
# 32-budget: decompression bombs (issue 12, points 1 and 2).  Decoded
# data held at once is charged to one budget for the process (64 MiB plus
# eight times the size of each open input, TDAT_MEMORY sets the base): a
# file claiming more gets one line naming it, the offset and the budget,
# never gigabytes.  The bombs are made here from fixtures:
#   - a v7 zlib file whose kallsyms, printk and cmdlines sections each
#     inflate to 1 GiB (4 MB file: report took 4.2 GB, convert 3.1 GB);
#   - a v7 zlib file whose three sections inflate to 60 MiB each: each
#     fits, all three held at once do not;
#   - a v7 zstd file whose 20 CPUs point at one chunk claiming 256 MiB
#     (report took 5.4 GB, holding one decoded chunk per CPU).
# Every applet ends with exit 1, one printable line and peak RSS under
# 256 MiB; TDAT_MEMORY lets a trusted file through; out of memory (ulimit
# -v) says so on every line instead of printing garbage.
. "$E2E/lib.sh"

command -v python3 >/dev/null || skip "python3 is missing"
command -v zstd >/dev/null || skip "zstd is missing (scripts/install-deps)"
[ -x /usr/bin/time ] || fail "/usr/bin/time missing (scripts/install-deps)"
BUILD=$(dirname "$TDAT")
if [ "${TDAT_SANITIZED:-}" = 1 ]; then
	MAX_RSS_KB=600000	# the sanitizers' own maps
else
	MAX_RSS_KB=262144
fi

cat >bomb.py <<'PY'
# bomb.py meta IN OUT SIZE   : v7 zlib/zstd IN; kallsyms, printk and cmdlines
#                             sections replaced by blocks inflating to SIZE
# bomb.py chunk IN OUT SIZE  : v7 zstd IN; every CPU of the top buffer
#                             points at one stream whose one chunk claims SIZE
import struct, subprocess, sys, zlib

made = {}

def compress(codec, size, prefix=b""):
    """size bytes, prefix then zeros, compressed with codec (once)."""
    if (size, prefix) not in made:
        made[size, prefix] = compress_now(codec, size, prefix)
    return made[size, prefix]

def compress_now(codec, size, prefix):
    if codec == b"zlib":
        co = zlib.compressobj(9)
        out = [co.compress(prefix)]
        piece = bytes(1 << 20)
        left = size - len(prefix)
        while left:
            n = min(left, len(piece))
            out.append(co.compress(piece[:n]))
            left -= n
        return b"".join(out) + co.flush()
    p = subprocess.run("(printf '%s'; head -c %d /dev/zero) | zstd -q -19"
                       " --no-check --no-content-size -c"
                       % ("".join("\\%03o" % c for c in prefix),
                          size - len(prefix)), shell=True,
                       stdout=subprocess.PIPE, check=True)
    return p.stdout

def header(d):
    p = 18
    codec = d[p:d.index(b"\0", p)]
    p = d.index(b"\0", p) + 1
    p = d.index(b"\0", p) + 1
    return codec, struct.unpack_from("<Q", d, p)[0]

def options(d, first):
    """(id, payload offset, size) of every option in the chain."""
    off = first
    while off:
        size = struct.unpack_from("<Q", d, off + 8)[0]
        p, end, nxt = off + 16, off + 16 + size, 0
        while p + 6 <= end:
            oid, osz = struct.unpack_from("<HI", d, p)
            if oid == 0:
                nxt = struct.unpack_from("<Q", d, p + 6)[0]
            yield oid, p + 6, osz
            p += 6 + osz
        off = nxt

def meta(d, size):
    codec, first = header(d)
    for oid, pay, _ in list(options(d, first)):
        if oid in (19, 20, 21):
            # The size field inside the body says the rest is text.
            inner = struct.pack("<Q" if oid == 21 else "<I",
                                size - (8 if oid == 21 else 4))
            blob = compress(codec, size, inner)
            body = struct.pack("<II", len(blob), size) + blob
            at = len(d)
            d += struct.pack("<HHiQ", oid, 1, -1, len(body)) + body
            d[pay:pay + 8] = struct.pack("<Q", at)
    return d

def chunk(d, size):
    codec, first = header(d)
    blob = compress(codec, size)
    d += b"\0" * (-len(d) % 4096)
    at = len(d)
    stream = struct.pack("<III", 1, len(blob), size) + blob
    d += stream
    for oid, pay, _ in list(options(d, first)):
        if oid != 3 or d[pay + 8] != 0:
            continue	# the top buffer only: empty name
        p = pay + 9
        p = d.index(b"\0", p) + 1 + 4	# clock, page size
        n = struct.unpack_from("<I", d, p)[0]
        for i in range(n):
            e = p + 4 + i * 20 + 4
            d[e:e + 16] = struct.pack("<QQ", at, len(stream))
    return d

kind, src, dst, size = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
size = int(size[:-1]) * mult[size[-1]] if size[-1] in mult else int(size)
d = bytearray(open(src, "rb").read())
d = meta(d, size) if kind == "meta" else chunk(d, size)
open(dst, "wb").write(d)
PY

step "making the bombs"
python3 bomb.py meta "$FIX/v7-zlib-sched-irq-tc34.dat" meta-1g.dat 1G
python3 bomb.py meta "$FIX/v7-zlib-sched-irq-tc34.dat" meta-60m.dat 60M
"$BUILD/tools/mkodd" --clone-cpus 20 "$FIX/v7-zstd-sched-irq.dat" z20.dat
python3 bomb.py chunk z20.dat chunk-256m.dat 256M

# refused FILE APPLET ARGS...: exit 1, one printable line naming FILE, an
# offset and the budget, peak RSS under the bound, no output left.
refused() {
	local file=$1 rc=0 rss
	shift
	rm -rf out && mkdir out
	(cd out && timeout -k 5 60 /usr/bin/time -f %M -o ../rss \
		"$TDAT" "$@" >../stdout 2>../stderr </dev/null) || rc=$?
	rss=$(tail -n 1 rss)
	grep -Eq 'Sanitizer|runtime error:' stderr && { cat stderr >&2; fail "sanitizer: $*"; }
	assert_eq 1 "$rc" "exit status of $*"
	assert_lines 1 stderr
	assert_grep "^tdat [a-z]+: (\.\./)?$file: offset [0-9]+: .*memory budget" stderr
	! LC_ALL=C grep -q '[^[:print:]]' stderr || fail "unprintable bytes: $(od -c stderr | head -3)"
	[ "$rss" -le $MAX_RSS_KB ] || fail "$*: peak RSS $rss KB"
	[ -z "$(ls -A out)" ] || fail "$* left: $(ls -A out)"
}

step "metadata inflating to 1 GiB a section"
refused meta-1g.dat report -i ../meta-1g.dat
refused meta-1g.dat convert -i ../meta-1g.dat -o o.dat
refused meta-1g.dat convert -i ../meta-1g.dat -o o.dat --file-version 6
refused meta-1g.dat convert -i ../meta-1g.dat -o o.dat --compression zstd

step "three sections of 60 MiB: each fits, not all held at once"
refused meta-60m.dat report -i ../meta-60m.dat
assert_grep "(60\.0 MiB held|held)" stderr

step "TDAT_MEMORY raises the budget for a file one trusts"
TDAT_MEMORY=512M "$TDAT" report -i meta-60m.dat --cpus | sed 1d >cpus.txt
"$TDAT" report -i "$FIX/v7-zlib-sched-irq-tc34.dat" --cpus | sed 1d >want.txt
assert_same want.txt cpus.txt
[ -s cpus.txt ] || fail "report --cpus printed no CPU"
expect_exit 2 env TDAT_MEMORY=lots "$TDAT" report -i meta-60m.dat
assert_grep 'TDAT_MEMORY: "lots" is not a size' "$ERR"

step "20 CPUs pointing at one chunk of 256 MiB"
refused chunk-256m.dat report -i ../chunk-256m.dat
refused chunk-256m.dat convert -i ../chunk-256m.dat -o o.dat
refused chunk-256m.dat convert -i ../chunk-256m.dat -o o.dat --file-version 6
refused chunk-256m.dat convert -i ../chunk-256m.dat -o o.dat --compression zlib
refused chunk-256m.dat split -i ../chunk-256m.dat -o o.dat
refused chunk-256m.dat merge -o o.dat ../chunk-256m.dat ../z20.dat

step "out of memory is said on every line, never garbage"
if ! address_limit_works; then
	echo "(sanitizers or qemu-arm reserve more address space: no ulimit -v here)"
else
	rc=0
	(ulimit -v 1048576; TDAT_MEMORY=8G exec "$TDAT" report -i chunk-256m.dat) \
		>/dev/null 2>stderr || rc=$?
	assert_eq 1 "$rc" "exit status under ulimit -v"
	[ -s stderr ] || fail "no message under ulimit -v"
	! LC_ALL=C grep -q '[^[:print:]]' stderr || fail "unprintable bytes: $(od -c stderr | head -3)"
	! grep -v 'chunk-256m.dat: offset [0-9]*: .*out of memory$' stderr ||
		fail "a line does not say out of memory"
fi

# SPDX-License-Identifier: GPL-2.0-or-later
# 30-badinput: malformed trace.dat files, made here from fixtures, fed to
# `tdat convert` (to the default v7 and with --file-version 6).
#
# The damaged files come from three real recordings (v6, v7 none, v7 zstd)
# and a v7 zstd file with an instance: truncations at many offsets (every
# header field, inside each metadata part, options, CPU data, chunks),
# fields overwritten in the header, metadata framing, options, section
# headers, BUFFER options and chunk tables, sizes and offsets past the end
# of the file, options chains that loop, chunks claiming huge uncompressed
# sizes, corrupt compressed data; plus an empty file, a directory and a
# missing file.  The offsets come from walking each fixture's structure
# (python, below), not from hard-coded numbers.
#
# Every case must end with exit status 1 or 2 (never 0, a signal or a
# sanitizer's status), exactly one line on stderr naming the input file
# and, for damage inside a file, the word "offset"; no output file and no
# temporary file left; peak memory under a bound; no hang.  Cases marked
# "any" damage bytes that a reader may legitimately not look at (padding,
# texts, descriptions, versions, dropped trailing sections): they may also
# succeed, and the output must then be readable by trace-cmd report.
. "$E2E/lib.sh"

command -v python3 >/dev/null || skip "python3 is missing"
# out/* must list temporary files (".NAME.tmp-RANDOM" where the file
# system has no O_TMPFILE) and nothing if empty.
shopt -s nullglob dotglob
[ -x /usr/bin/time ] || fail "/usr/bin/time missing (scripts/install-deps)"

# Sanitized builds are slower and map much more memory.
if [ "${TDAT_SANITIZED:-}" = 1 ]; then
	MAX_RSS_KB=800000
else
	MAX_RSS_KB=200000
fi

cat >gen.py <<'EOF'
# gen.py FIXTURE [options]: print one damage case a line ("options": only
# the cases in options and what they describe: chains, BUFFER, chunks):
#   cut NAME EXPECT LENGTH
#   set NAME EXPECT OFFSET HEXBYTES [OFFSET HEXBYTES ...]
# EXPECT is "fail" or "any".  Offsets come from walking the file.
import struct, sys

path = sys.argv[1]
only_options = sys.argv[2:] == ["options"]
d = open(path, "rb").read()
size = len(d)
cases = []
cuts = set()

def u16(o): return struct.unpack_from("<H", d, o)[0]
def u32(o): return struct.unpack_from("<I", d, o)[0]
def u64(o): return struct.unpack_from("<Q", d, o)[0]

def cut(o):
    if 0 <= o < size:
        cuts.add(o)

def put(name, expect, *pairs):
    args = []
    for off, data in pairs:
        args += [str(off), data.hex()]
    cases.append("set %s %s %s" % (name, expect, " ".join(args)))

def flip(name, expect, off, mask=0x80):
    put(name, expect, (off, bytes([d[off] ^ mask])))

def p32(v): return struct.pack("<I", v & 0xffffffff)
def p64(v): return struct.pack("<Q", v & 0xffffffffffffffff)

def field(o, n):
    """Cut at a field's start and inside it."""
    cut(o)
    if n > 1:
        cut(o + n // 2)

def text(o, n):
    """Cut at a text's start, middle and last byte."""
    cut(o)
    if n > 2:
        cut(o + n // 2)
        cut(o + n - 1)

# ---- initial header (both versions) ----
for o, n in ((0, 3), (3, 7), (10, 2), (12, 1), (13, 1), (14, 4)):
    field(o, n)
flip("magic0", "fail", 0, 0xff)
flip("magic5", "fail", 5, 0x20)
put("version8", "fail", (10, b"8"))
put("version5", "fail", (10, b"5"))
put("version-nul", "fail", (11, b"1"))
put("endian1", "fail", (12, b"\x01"))
put("endian2", "fail", (12, b"\x02"))
put("long9", "fail", (13, b"\x09"))
put("page0", "fail", (14, p32(0)))
put("page-huge", "fail", (14, p32(0x80000000)))
put("page2k", "fail", (14, p32(2048)))

def walk_v6_meta(o):
    """Walk parts 2..8 of a v6 file; return the offset after the CPU count."""
    field(o, 12); flip("hp-keyword", "fail", o + 3, 0x20); o += 12
    n = u64(o); field(o, 8)
    flip("hp-size-high", "fail", o + 6)
    put("hp-size-plus1", "fail", (o, p64(n + 1)))
    o += 8; text(o, n)
    hp = d[o:o + n]
    i = hp.find(b"commit;")
    j = hp.find(b"size:8", i)
    if i >= 0 and j >= 0:
        put("hp-commit-size7", "fail", (o + j + 5, b"7"))
    o += n
    field(o, 13); flip("he-keyword", "fail", o + 1, 0x20); o += 13
    n = u64(o); field(o, 8); flip("he-size-high", "fail", o + 7); o += 8
    text(o, n); o += n
    # ftrace formats
    cnt = u32(o); field(o, 4); flip("ftrace-count", "fail", o + 3); o += 4
    for i in range(cnt):
        n = u64(o)
        if i in (0, cnt - 1):
            field(o, 8); text(o + 8, n)
        if i == 1:
            flip("ftrace-size1", "fail", o + 5)
        o += 8 + n
    # event systems
    nsys = u32(o); field(o, 4); flip("nsys", "fail", o + 3); o += 4
    for s in range(nsys):
        e = d.index(b"\0", o)
        field(o, e + 1 - o)
        if s == 0:
            flip("sysname-nul", "any", e, 0x41)
        o = e + 1
        nev = u32(o); field(o, 4)
        if s == 0:
            flip("nev", "fail", o + 3)
        o += 4
        for i in range(nev):
            n = u64(o)
            if i == 0:
                field(o, 8); text(o + 8, n); flip("event-size", "fail", o + 4)
            o += 8 + n
    # kallsyms, printk (u32 sizes), cmdlines (u64)
    for name, w in (("kallsyms", 4), ("printk", 4), ("cmdlines", 8)):
        n = u32(o) if w == 4 else u64(o)
        field(o, w)
        flip(name + "-size-high", "fail", o + w - 1)
        put(name + "-size-past-eof", "fail",
            (o, (p32 if w == 4 else p64)(size - o)))
        if n > 40:
            flip(name + "-text", "any", o + w + n // 2, 0x01)
        text(o + w, n)
        o += w + n
    return o

def walk_v6(o):
    o = walk_v6_meta(o)
    cpus = u32(o); field(o, 4)
    flip("cpus-high", "fail", o + 3)
    o += 4
    if d[o:o + 7] == b"options":
        field(o, 10); flip("options-keyword", "fail", o, 0x20); o += 10
        k = 0
        while True:
            oid = u16(o)
            field(o, 2)
            if oid == 0:
                put("done-nonzero", "fail", (o, b"\x00\x01"))
                o += 2
                break
            sz = u32(o + 2)
            field(o + 2, 4)
            text(o + 6, sz)
            if k == 0:
                flip("opt-size-high", "fail", o + 5)
                put("opt-size-past-eof", "fail", (o + 2, p32(size)))
            if k == 1:
                flip("opt-id-unknown", "any", o, 0x40)
                put("opt-size-plus1", "any", (o + 2, p32(sz + 1)))
            if oid == 11:
                flip("traceid-payload", "any", o + 6)
            o += 6 + sz
            k += 1
    field(o, 10); flip("flyrecord-keyword", "fail", o + 1, 0x20)
    fly = o
    o += 10
    table = o
    offs = []
    for c in range(cpus):
        off, sz = u64(o), u64(o + 8)
        offs.append((off, sz))
        field(o, 8); field(o + 8, 8)
        o += 16
    clock = o
    n = u64(o); field(o, 8); text(o + 8, n)
    flip("clock-len-high", "fail", o + 6)
    put("clock-len-0", "any", (o, p64(0)))
    o += 8 + n
    if offs and offs[0][0] > o + 1:
        flip("padding", "any", (o + offs[0][0]) // 2, 0x5a)
    put("cpu0-offset-high", "fail", (table + 7, b"\x40"))
    put("cpu0-offset-eof", "fail", (table, p64(size)))
    put("cpu1-size-high", "fail", (table + 16 + 8 + 6, b"\x01"))
    put("cpu0-size-odd", "fail", (table + 8, p64(offs[0][1] + 1)))
    put("cpu-last-past-eof", "fail",
        (table + 16 * (cpus - 1) + 8, p64(offs[-1][1] + 4096)))
    data_cuts(offs)

def data_cuts(streams, compressed=False):
    for off, sz in streams:
        if not sz:
            continue
        if compressed:
            k = u32(off)
            cut(off); cut(off + 2); o = off + 4
            for i in range(k):
                c = u32(o)
                field(o, 4); field(o + 4, 4); cut(o + 8 + c // 2)
                o += 8 + c
        else:
            for p in range(0, min(sz, 3 * 4096), 4096):
                cut(off + p); cut(off + p + 12); cut(off + p + 2048)
            cut(off + sz - 1)

def walk_v7():
    o = 18
    e = d.index(b"\0", o); field(o, e + 1 - o)
    codec = d[o:e]
    put("codec-name", "fail", (o, b"Z"))
    o = e + 1
    e = d.index(b"\0", o); field(o, e + 1 - o)
    if e > o:
        flip("codec-version", "any", o, 0x01)
    o = e + 1
    optoff = u64(o); field(o, 8)
    hdr_opt = o
    put("optoff-0", "fail", (o, p64(0)))
    flip("optoff-high", "fail", o + 6)
    put("optoff-eof", "fail", (o, p64(size)))
    first = o + 8
    put("optoff-to-meta", "fail", (o, p64(first)))
    compressed = codec != b"none"
    # sections, linearly
    secs = {}
    o = first
    k = 0
    while o + 16 <= size:
        sid, flags, strid, sz = struct.unpack_from("<HHiQ", d, o)
        secs.setdefault(sid, []).append((o, flags, sz))
        field(o, 2); field(o + 8, 8)
        body = o + 16
        if sid in range(16, 22):
            if sid == 16:
                put("sec16-id", "fail", (o, struct.pack("<H", 17)))
                put("sec16-size-high", "fail", (o + 15, b"\x10"))
            if sid == 18:
                flip("sec18-strid", "any", o + 4, 0x01)
            if flags & 1:
                c, u = u32(body), u32(body + 4)
                field(body, 4); field(body + 4, 4); text(body + 8, c)
                if sid == 17:
                    put("block-c-high", "fail", (body + 3, b"\x40"))
                    put("block-u-huge", "fail", (body + 4, p32(0x7ffffff0)))
                    put("block-u-plus", "fail", (body + 4, p32(u + 4096)))
                    flip("block-magic", "fail", body + 8, 0xff)
                    put("block-u-1g", "fail", (body + 4, p32(1 << 30)))
                if sid == 19:
                    put("block-c-minus", "fail", (body, p32(c - 1)))
                if sid == 20:
                    put("sec20-flags-clear", "any", (o + 2, b"\x00"))
            else:
                text(body, sz)
                if sid == 16:
                    put("sec16-flags-set", "fail", (o + 2, b"\x01"))
                if sid == 19:
                    flip("kallsyms-size-high", "fail", body + 3)
        if sid == 15:
            text(body, sz)
            flip("strings-text", "any", body + 8 + sz // 2 if compressed
                 else body + sz // 2, 0x01)
            flip("strings-size-high", "any", o + 14)
        o = body + sz
        k += 1
    # options chain
    options_from[0] = len(cases)
    chain = []
    o = optoff
    while o:
        chain.append(o)
        sid, flags, strid, sz = struct.unpack_from("<HHiQ", d, o)
        body = o + 16
        if len(chain) == 1:
            put("opts-id", "fail", (o, struct.pack("<H", 1)))
            flip("opts-size-high", "fail", o + 14)
            put("opts-size-minus8", "fail", (o + 8, p64(sz - 8)))
        p = body
        nopt = 0
        nxt = 0
        while p < body + sz:
            oid, osz = u16(p), u32(p + 2)
            field(p, 2); field(p + 2, 4)
            data = p + 6
            if oid == 0:
                nxt = u64(data)
                field(data, 8)
                n = len(chain)
                put("done%d-self" % n, "fail", (data, p64(o)))
                put("done%d-high" % n, "fail", (data + 6, b"\x20"))
                put("done%d-size4" % n, "fail", (p + 2, p32(4)))
                if n > 1:
                    put("done%d-to-first" % n, "fail", (data, p64(chain[0])))
                else:
                    put("done1-to-meta", "fail", (data, p64(first)))
                break
            if oid == 16:
                flip("opt16-id", "fail", p, 0x40)
            if oid == 19:
                flip("opt19-offset-high", "fail", data + 6)
                put("opt19-to-sec20", "fail", (data, p64(secs[20][0][0])))
                flip("opt19-id", "any", p, 0x40)
            if oid == 4:
                flip("traceclock-size-high", "fail", p + 5)
                text(data, osz)
            if oid == 8:
                put("cpucount-huge", "any", (data, p32(0x7fffffff)))
            if oid == 5:
                flip("uname-text", "any", data + 2, 0x01)
            if oid == 3:
                buffer_option(p, data, osz, compressed, secs)
            p = data + osz
            nopt += 1
        o = nxt

bufopt_done = [False]
options_from = [0]

def buffer_option(p, data, osz, compressed, secs):
    secoff = u64(data)
    q = data + 8
    name_end = d.index(b"\0", q)
    name = d[q:name_end]
    q = name_end + 1
    q = d.index(b"\0", q) + 1
    page = q
    ncpu = u32(q + 4)
    ents = [(q + 8 + 20 * i) for i in range(ncpu)]
    streams = [(u64(e + 4), u64(e + 12)) for e in ents]
    field(data, 8); field(page, 4); field(page + 4, 4)
    for e in ents:
        field(e, 4); field(e + 4, 8); field(e + 12, 8)
    data_cuts(streams, compressed)
    if bufopt_done[0]:
        put("inst-secoff-high", "fail", (data + 6, b"\x10"))
        put("inst-name-nul", "any", (name_end, b"x"))
        return
    bufopt_done[0] = True
    # the buffer section's header
    sec = secoff
    put("bufsec-id", "fail", (sec, struct.pack("<H", 4)))
    flip("bufsec-size-high", "fail", sec + 14)
    flip("bufsec-flags", "fail", sec + 2, 0x01)
    if streams[0][0] > sec + 17:
        flip("bufsec-padding", "any", sec + 17, 0x5a)
    # the option itself
    flip("buf-secoff-high", "fail", data + 6)
    put("buf-secoff-to-opts", "fail", (data, p64(secs[0][0][0])))
    put("buf-page-0", "fail", (page, p32(0)))
    put("buf-page-huge", "fail", (page, p32(0x80000000)))
    put("buf-ncpu-huge", "fail", (page + 4, p32(0x10000)))
    put("buf-ncpu-1", "any", (page + 4, p32(1)))
    put("buf-cpuid-huge", "fail", (ents[0] + 2, b"\x10"))
    if ncpu > 1:
        put("buf-cpuid-dup", "fail", (ents[1], p32(u32(ents[0]))))
    put("buf-cpu0-offset-high", "fail", (ents[0] + 4 + 6, b"\x10"))
    put("buf-cpu0-offset-eof", "fail", (ents[0] + 4, p64(size)))
    put("buf-cpu0-size-high", "fail", (ents[0] + 12 + 6, b"\x10"))
    if not compressed:
        put("buf-cpu0-size-odd", "fail", (ents[0] + 12, p64(streams[0][1] + 1)))
        first = streams[0][0]
        put("page-commit-huge", "fail", (first + 8, p64(0x07fffff0)))
        return
    # chunk tables of the first CPU stream
    off = streams[0][0]
    k = u32(off)
    put("chunk-count-huge", "fail", (off, p32(0x7fffffff)))
    put("chunk-count-0", "any", (off, p32(0)))
    c0, u0 = u32(off + 4), u32(off + 8)
    put("chunk-c-high", "fail", (off + 4 + 3, b"\x40"))
    put("chunk-c-minus", "fail", (off + 4, p32(c0 - 1)))
    put("chunk-u-huge", "fail", (off + 8, p32(0xfffff000)))
    put("chunk-u-256m", "fail", (off + 8, p32(256 << 20)))
    put("chunk-u-plus", "fail", (off + 8, p32(u0 + 4096)))
    put("chunk-u-odd", "fail", (off + 8, p32(u0 + 1)))
    flip("chunk-magic", "fail", off + 12, 0xff)
    flip("chunk-data", "any", off + 12 + c0 // 2, 0x10)
    if k > 1:
        c1 = off + 12 + c0
        put("chunk1-c-past-eof", "fail", (c1, p32(size)))

if d[10:11] == b"6":
    walk_v6(18)
else:
    walk_v7()

if only_options:
    cases = cases[options_from[0]:]
    cuts = set()
# A sample of the cut points keeps the run short: the first 30 (header
# and metadata framing), then an even spread over the rest.
cl = sorted(cuts)
keep = cl[:30] + cl[30::max(1, (len(cl) - 30) // 15)]
for o in sorted(set(keep)):
    # Bytes after the last structure a reader needs may be lost quietly.
    cases.append("cut cut%d %s %d" % (o, "fail", o))
print("\n".join(cases))
EOF

# Every broken rule is reported; the script fails at the end, so one run
# lists every problem.
problems=0 cases=0 passed=0

# check NAME EXPECT BAD WANT_OFFSET [ARGS]: convert BAD and judge it.
# Shell builtins only, but for the conversion itself: it runs hundreds
# of times.
check() {
	local name="$1 ${*:5}" expect=$2 bad=$3 want_off=$4 rc=0 rss=0 why=
	local err= line nlines=0 left
	shift 4
	left=(out/*)
	[ ${#left[@]} -eq 0 ] || rm -f -- "${left[@]}"
	: >rss
	timeout -k 5 20 /usr/bin/time -f %M -o rss \
		"$TDAT" convert -i "$bad" -o out/o.dat "$@" \
		>stdout 2>stderr </dev/null || rc=$?
	while read -r line; do rss=$line; done <rss
	while IFS= read -r line; do
		err+=$line$'\n'
		nlines=$((nlines + 1))
	done <stderr
	left=(out/*)
	cases=$((cases + 1))
	if [[ $err == *Sanitizer* || $err == *"runtime error:"* ]]; then
		why="sanitizer report: ${err:0:300}"
	elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		why="no exit within 20 s"
	elif [ $rc -gt 128 ]; then
		why="killed by signal $((rc - 128))"
	elif ! [ "$rss" -le $MAX_RSS_KB ] 2>/dev/null; then
		why="peak memory $rss KB"
	elif [ $rc -eq 0 ] && [ "$expect" = any ]; then
		if [ $nlines -ne 0 ]; then
			why="exit 0 with stderr: $err"
		elif [ "${left[*]}" != out/o.dat ]; then
			why="exit 0, out/ holds: ${left[*]}"
		elif ! trace-cmd report -i out/o.dat >/dev/null 2>report.err
		then
			why="exit 0 but trace-cmd cannot read the output"
		fi
	elif [ $rc -ne 1 ] && [ $rc -ne 2 ]; then
		why="exit $rc, expected 1 or 2: ${err:0:300}"
	elif [ $nlines -ne 1 ]; then
		why="$nlines lines on stderr, expected 1: ${err:0:300}"
	elif [[ $err != *"$bad"* ]]; then
		why="the error does not name the file: $err"
	elif [ "$want_off" = yes ] && [[ $err != *offset* ]]; then
		why="the error has no offset: $err"
	elif [ ${#left[@]} -ne 0 ]; then
		why="left behind in out/: ${left[*]}"
	elif [ -s stdout ]; then
		why="wrote to stdout"
	fi
	if [ -n "$why" ]; then
		echo "FAIL: $name: ${why%$'\n'}" >&2
		problems=$((problems + 1))
		[ $problems -lt 60 ] || fail "too many problems"
	else
		passed=$((passed + 1))
	fi
	return 0
}

# make_case FIXTURE KIND NAME EXPECT ARGS...: build bad/NAME.dat.
make_case() {
	local fix=$1 kind=$2 bad=bad/$3.dat off hex esc i
	shift 4
	case $kind in
	cut)	head -c "$1" "$fix" >"$bad" ;;
	set)	cp "$fix" "$bad"
		while [ $# -ge 2 ]; do
			off=$1 hex=$2 esc=
			shift 2
			for ((i = 0; i < ${#hex}; i += 2)); do
				esc+="\\x${hex:i:2}"
			done
			# shellcheck disable=SC2059
			printf "$esc" | dd of="$bad" bs=1 seek="$off" \
				conv=notrunc status=none
		done ;;
	esac
}

# worker DIR FIXTURE CASES STRINGS_AT: run a share of the cases in DIR.
worker() {
	local dir=$1 fix=$2 list=$3 strings_at=$4 kind name expect rest
	mkdir -p "$dir/bad" "$dir/out" && cd "$dir"
	# Memory is bounded for every program run from here: its address
	# space where that can be (address_limit_works), its peak RSS in
	# check always.
	if address_limit_works; then
		ulimit -v 1048576
	fi
	while read -r kind name expect rest; do
		# shellcheck disable=SC2086
		make_case "$fix" $kind "$name" $expect $rest
		# A v7 file cut at or inside its strings section (the last
		# one) loses only section descriptions.
		if [ "$kind" = cut ] && [ "$strings_at" -gt 0 ] &&
		   [ "${rest%% *}" -ge "$strings_at" ]; then
			expect=any
		fi
		check "${fix##*/}:$name" "$expect" "bad/$name.dat" yes
		check "${fix##*/}:$name" "$expect" "bad/$name.dat" yes \
			--file-version 6
		rm -f "bad/$name.dat"
	done <"$list"
	echo "$cases $passed $problems" >counts
}

# Offset of the strings section of a v7 file (0 for v6).
strings_at() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
last = 0
if d[10:11] == b"7":
    o = d.index(b"\0", d.index(b"\0", 18) + 1) + 9
    while o + 16 <= len(d):
        sid, fl, s, sz = struct.unpack_from("<HHiQ", d, o)
        if sid == 15:
            last = o
        o += 16 + sz
print(last)
PY
}

total=0 total_pass=0 total_bad=0

# run_fixture NAME [options]: every case of one fixture, on two workers.
run_fixture() {
	local fix=$FIX/$1 n at w c p b
	step "$1 ${2:-}"
	python3 gen.py "$fix" ${2:-} >"cases.$1" || fail "gen.py failed on $1"
	n=$(wc -l <"cases.$1")
	[ $n -ge 40 ] || fail "$1: only $n cases generated"
	at=$(strings_at "$fix")
	awk 'NR % 2 == 1' "cases.$1" >"cases.$1.1"
	awk 'NR % 2 == 0' "cases.$1" >"cases.$1.2"
	for w in 1 2; do
		rm -rf "w$w"
		(worker "w$w" "$fix" "$PWD/cases.$1.$w" "$at") &
	done
	wait
	for w in 1 2; do
		[ -s "w$w/counts" ] || fail "$1: worker $w stopped early"
		read -r c p b <"w$w/counts"
		total=$((total + c)) total_pass=$((total_pass + p))
		total_bad=$((total_bad + b))
	done
	echo "$1: $n damaged files, $((2 * n)) conversions"
}

run_fixture v6-sched-irq.dat
run_fixture v7-none-sched-irq.dat
run_fixture v7-zstd-sched-irq.dat
run_fixture v7-zstd-2inst-irq-top-sched-inst1-tc34.dat options

step "an empty file, a directory, a missing file"
mkdir -p w0/bad w0/out && cd w0
: >rss
: >bad/empty.dat
check empty fail bad/empty.dat yes
check empty fail bad/empty.dat yes --file-version 6
mkdir bad/dir.dat
check directory fail bad/dir.dat no
check directory fail bad/dir.dat no --file-version 6
check missing fail bad/missing.dat no
check missing fail bad/missing.dat no --file-version 6
cd ..
total=$((total + cases)) total_pass=$((total_pass + passed))
total_bad=$((total_bad + problems))

step "a FIFO as input: refused at once by every applet, never waited on"
mkfifo fifo.dat
for a in "report -i fifo.dat" "convert -i fifo.dat -o o.dat" \
	 "split -i fifo.dat -o piece -e 10" "merge -o m.dat fifo.dat" \
	 "restore -o r.dat fifo.dat" "check-events -i fifo.dat" \
	 "restore -i $FIX/crashed/restored.dat -o r.dat fifo.dat"; do
	rc=0
	timeout 20 $TDAT $a >fifo.out 2>fifo.err </dev/null || rc=$?
	[ $rc != 124 ] || fail "$a: waited on the FIFO"
	[ $rc = 1 ] || { cat fifo.err >&2; fail "$a: exit $rc, expected 1"; }
	assert_lines 1 fifo.err
	assert_grep 'fifo\.dat: not a regular file' fifo.err
done
assert_file_absent o.dat
assert_file_absent m.dat
assert_file_absent r.dat

step "every applet on a few damaged files: one line naming the input and an offset"
# Each case once broke the rule in some applet: report said a cut v6
# file once per CPU; split named no offset for a corrupt event; convert
# named its output for a chunk of impossible sizes, restore for a BUFFER
# option of an impossible page size; merge named no file for an event
# whose length is not whole words.
mkdir -p w9 && cd w9
v6=$FIX/v6-sched-irq.dat v6i=$FIX/v6-2inst-irq-top-sched-inst1.dat
v7z=$FIX/v7-zstd-sched-irq.dat
python3 - "$v6" "$v6i" "$v7z" "$(chunk_at "$v7z" 0)" <<'PY'
import struct, sys
def load(p): return bytearray(open(p, 'rb').read())
def save(name, d): open(name, 'wb').write(d)
def cpu_table(d): return d.index(b'flyrecord\0') + 10
v6, v6i, v7z, chunk = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
d = load(v6)                    # cut inside CPU 0's data: every CPU cut
save('v6-cut.dat', d[:struct.unpack_from('<Q', d, cpu_table(d))[0] + 4096])
d = load(v6i)                   # CPU 1's size: 2^48 more
d[cpu_table(d) + 16 + 8 + 6] ^= 1
save('v6i-cpu1-size.dat', d)
d = load(v7z)                   # CPU 0's first chunk: 0 bytes of pages
struct.pack_into('<I', d, chunk + 4, 0)
save('v7z-chunk-u0.dat', d)
d = load(v7z)                   # the BUFFER option's page size: 2^31
o = struct.unpack_from('<Q', d, d.index(0, d.index(0, 18) + 1) + 1)[0] + 16
while True:
    oid, osz = struct.unpack_from('<HI', d, o)
    if oid == 0:
        o = struct.unpack_from('<Q', d, o + 6)[0] + 16
        continue
    if oid == 3:
        p = d.index(0, d.index(0, o + 14) + 1) + 1
        struct.pack_into('<I', d, p, 0x80000000)
        break
    o += 6 + osz
save('v7z-page-huge.dat', d)
d = load(v6)                    # an event of 4k-1 bytes in 4k: same walk
off = struct.unpack_from('<Q', d, cpu_table(d) + 16)[0]
q, n = off + 16, 0
while True:
    w = struct.unpack_from('<I', d, q)[0]
    tl = w & 31
    if 2 <= tl <= 28:
        n += 1
        if n == 5:
            break
    q += 4 + 4 * tl if 1 <= tl <= 28 else 8
struct.pack_into('<II', d, q, w & ~31, 4 * tl - 1)
save('v6-odd-event.dat', d)
PY
# applet CASE FIXTURE APPLET: exit 1 or 2, one line naming CASE (never the
# output) with an offset and ending with "(tdat restore -o FIXED.dat CASE
# saves what can be read)", nothing left in out/; or exit 0 in silence for
# damage an applet need not see (restore: an output trace-cmd reads).
applet() {
	local bad=$1 fix=$2 rc=0 left
	rm -rf out && mkdir out
	case $3 in
	report) set -- report -i "$bad" ;;
	split) set -- split -i "$bad" -o out/piece -e 100000 ;;
	merge) set -- merge -o out/m.dat "$fix" "$bad" ;;
	restore) set -- restore -q -o out/r.dat "$bad" ;;
	convert) set -- convert -i "$bad" -o out/c.dat ;;
	esac
	timeout 60 "$TDAT" "$@" >/dev/null 2>err || rc=$?
	if [ $rc = 0 ]; then
		[ ! -s err ] || fail "$*: exit 0 with stderr: $(cat err)"
		[ "$1" != restore ] || trace-cmd report -i out/r.dat >/dev/null 2>&1 ||
			fail "$*: trace-cmd cannot read the output"
		return 0
	fi
	[ $rc = 1 ] || [ $rc = 2 ] || fail "$*: exit $rc: $(head -c 300 err)"
	[ "$(wc -l <err)" = 1 ] || fail "$*: $(wc -l <err) lines: $(head -c 600 err)"
	grep -qF "$bad: offset " err || fail "$*: no input and offset: $(cat err)"
	! grep -q 'out/' err || fail "$*: the output is named: $(cat err)"
	# damage ends by pointing at restore, except in restore itself
	if [ "$1" = restore ]; then
		! grep -q 'tdat restore -o FIXED' err || fail "$*: restore points at itself"
	else
		grep -qF "(tdat restore -o FIXED.dat $bad saves what can be read)" err ||
			fail "$*: no pointer at restore: $(cat err)"
	fi
	left=$(ls -A out)
	[ -z "$left" ] || fail "$*: left in out/: $left"
}
for c in v6-cut:"$v6" v6i-cpu1-size:"$v6i" v7z-chunk-u0:"$v7z" \
	 v7z-page-huge:"$v7z" v6-odd-event:"$v6"; do
	for a in report split merge restore convert; do
		applet "${c%%:*}.dat" "${c#*:}" $a
	done
done
cd ..

step "the inputs were never modified"
(cd "$FIX" && sha256sum --quiet -c SHA256SUMS) || fail "a fixture changed"

echo "$total conversions of damaged files:" \
	"$total_pass passed, $total_bad failed"
[ $total_bad -eq 0 ] ||
	fail "$total_bad conversions broke the rules (FAIL lines above)"

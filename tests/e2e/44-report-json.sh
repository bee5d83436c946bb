#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report --json: on every fixture each line is one JSON object (python3's
# json module reads them), one per event line of the text report with the
# same options, and what each says (time, CPU, buffer, pid, comm, event,
# the fields) is what the text report says (-t -R: full timestamps, every
# field as name=value).  Filters, several -i files, trace markers,
# dropped events (also against live trace-cmd), escaping.
# python3 starts slowly here: it runs twice, once to make the odd inputs,
# once at the end to check every case listed in cases.txt.
. "$E2E/lib.sh"

command -v python3 >/dev/null || skip "python3 is missing"

a=$FIX/v6-sched-irq.dat
b=$FIX/v6-2inst-irq-top-sched-inst1.dat
c=$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat
g=$FIX/v6-clock-global.dat
x=$FIX/v7-zstd-clock-x86tsc-tc34.dat
m=$FIX/v7-zstd-markers-raw_syscalls.dat

step "made-up inputs: lost events, odd strings"
# No fixture has lost events, so a copy of one gets the ring buffer's
# flags: CPU 0's 2nd page "missed, count 42 stored after the data", CPU
# 1's 2nd page "missed, count unknown".  Another copy has a comm with
# '"', '\', a tab, an ESC and the byte 0xff.  Offsets come from --stat.
expect_exit 0 $TDAT report --stat -i $a
python3 - "$a" "$OUT" <<'PY' || fail "cannot make the made-up inputs"
import re, struct, sys
src, stat = sys.argv[1:3]
offs = [int(o, 16) for o in re.findall(
    r"CPU\d+ data recorded at offset=(0x[0-9a-f]+)", open(stat).read())]
assert len(offs) == 2, offs
data = bytearray(open(src, "rb").read())
drop = bytearray(data)
for cpu, stored in ((0, True), (1, False)):
    page = offs[cpu] + 4096
    commit = struct.unpack_from("<Q", drop, page + 8)[0]
    size = commit & 0xfffff
    assert 16 + size + 8 <= 4096
    flags = 1 << 31 | (1 << 30 if stored else 0)
    struct.pack_into("<Q", drop, page + 8, commit | flags)
    if stored:
        struct.pack_into("<Q", drop, page + 16 + size, 42)
open("drop.dat", "wb").write(drop)
old = b"trace-cmd\0"
i = data.index(old, offs[0])
data[i:i + len(old)] = b'a"b\\c\t\x1b\xff\0\0'
open("odd.dat", "wb").write(data)
PY

# case TAG [OPTIONS...]: run --json and the text report -t -R with the
# same options; the JSON must have one object per event line of the text
# (all lines but cpus= and drop lines): of the plain text report too
# when PLAIN=1.  check.py compares the JSON with the -t -R text later.
k=0
PLAIN=0
case_() {
	local tag=$1 multi=one text

	shift
	k=$((k + 1))
	case " $* " in *" -i "*" -i "*) multi=multi ;; esac
	expect_exit 0,1 $TDAT report --json "$@"
	mv "$OUT" json.$k
	$TDAT report -t -R "$@" >raw.$k 2>/dev/null || true
	text=raw.$k
	if [ $PLAIN = 1 ]; then
		$TDAT report "$@" >text.out 2>/dev/null || true
		text=text.out
	fi
	assert_eq "$(grep -Evc '(^|: )cpus=[0-9]+$|^CPU:[0-9]+ \[.*EVENTS DROPPED\]$' \
		     $text || true)" "$(wc -l <json.$k)" \
		"objects vs event lines of the text: report $*"
	echo "$tag json.$k raw.$k $multi $*" >>cases.txt
}

step "every fixture"
n=0
PLAIN=1
for f in "$FIX"/*.dat "$FIX"/crashed/restored.dat "$FIX"/truncated/*.dat; do
	case_ - -i "$f"
	n=$((n + 1))
done
PLAIN=0
[ "$n" -ge 15 ] || fail "only $n fixtures"

step "the truncated file still gives its complete pages, exit 1"
expect_exit 1 $TDAT report --json -i "$FIX/truncated/v6-sched-irq.cut-at-5470064.dat"
assert_lines 340 "$OUT"

step "filters apply as in the text report"
case_ only:sched_switch -F sched_switch -i $a
case_ - -v -F sched_switch -i $a
case_ - -F 'sched_switch: prev_pid > 0 && next_comm ~ "zstd*"' -i $a
case_ cpu:1 --cpu 1 -i $a
case_ - --cpu 0 --cpu 1 -i $c
case_ - -I -i $a
case_ - -S -i $c
case_ - -F irq_handler_entry -i $b
case_ markers -F print -F raw_data -i $m

step "several -i files, offsets, clocks"
case_ - -i $a -i $g
case_ - -i $a -i $c --ts-offset 1000000
case_ - -i $b -i $c -i $x
case_ - --ts2secs 1000000000 -i $x
case_ - --align-ts -i $a -i $g

step "lost events and odd strings"
case_ drop -i drop.dat
case_ - -F sched_switch -i drop.dat
case_ - -F sched_wakeup -i drop.dat
case_ odd -i odd.dat

step "check every case: JSON read back, compared with the text"
cat >check.py <<'PY'
import json, os, re, sys

event_re = re.compile(r"^(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s*"
                      r"(?P<ts>\d+(?:\.\d{9})?): (?P<event>[^: ]+): ?"
                      r"(?P<rest>.*)$")
drop_re = re.compile(r"^CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]$")
cpus_re = re.compile(r"^\s*(?:\S+: )?cpus=\d+$")
types = {"timestamp": int, "cpu": int, "buffer": str, "pid": int,
         "comm": str, "system": str, "event": str, "common": dict,
         "fields": dict}

def read_json(jpath, multi):
    objs = []
    for n, raw in enumerate(open(jpath, "rb"), 1):
        where = "%s line %d" % (jpath, n)
        assert raw.endswith(b"}\n"), where + ": not one object a line"
        o = json.loads(raw.decode("utf-8"))   # strict UTF-8, then JSON
        assert type(o) is dict, where
        for k, t in types.items():
            assert type(o.get(k)) is t, "%s: %s not %s" % (where, k, t)
        assert ("file" in o) == multi, where + ": file"
        if "missed_events" in o:
            v = o["missed_events"]
            assert type(v) is int and (v > 0 or v == -1), where
        objs.append(o)
    return objs

def compare(objs, tpath, multi):
    """Walk the objects and the text's event lines side by side."""
    k = fields = 0
    dropped = None
    for t in open(tpath, encoding="utf-8", errors="surrogateescape"):
        t = t.rstrip("\n")
        if cpus_re.match(t):
            continue
        d = drop_re.match(t)
        if d:
            dropped = (int(d.group(1)), int(d.group(2) or -1))
            continue
        assert k < len(objs), "text has more events: %r" % t
        o = objs[k]
        k += 1
        where = "object %d" % k
        label = o["buffer"] or (os.path.basename(o["file"]) if multi else "")
        if label:
            pre = re.match(r"^\s*" + re.escape(label) + ": ", t)
            assert pre, "%s: no label %r in %r" % (where, label, t)
            t = t[pre.end():]
        e = event_re.match(t)
        assert e, "%s: unexpected text line %r" % (where, t)
        sec, _, ns = e.group("ts").partition(".")
        ts = int(sec) * 10**9 + int(ns) if ns else int(sec)
        got = (o["timestamp"], o["cpu"], o["pid"], o["comm"], o["event"])
        want = (ts, int(e.group("cpu")), int(e.group("pid")),
                e.group("comm").strip(), e.group("event"))
        assert got == want, "%s: %r, text %r" % (where, got, want)
        miss = (o["cpu"], o["missed_events"]) if "missed_events" in o else None
        assert miss == dropped, "%s: missed %r, text %r" % (where, miss, dropped)
        dropped = None
        # -R: "name=value" per field.  Decimal integers are compared, and
        # printable strings (looked up whole: they may hold spaces).
        # raw_data's -R text is hex from its own handler: see markers.
        if o["event"] == "raw_data":
            continue
        rest = " " + e.group("rest") + " "
        for name, v in o["fields"].items():
            if type(v) is int:
                r = re.search(r" %s=(-?\d+) " % re.escape(name), rest)
                assert not r or int(r.group(1)) == v, \
                    "%s: %s=%d, text %s" % (where, name, v, r.group(1))
                fields += bool(r)
            elif type(v) is str and v.rstrip("\n").isprintable():
                s = " %s=%s" % (name, v.rstrip("\n"))
                assert s + " " in rest or rest.endswith(s + " "), \
                    "%s: %s=%r not in %r" % (where, name, v, rest)
                fields += 1
    assert k == len(objs), "%d objects, %d text events" % (len(objs), k)
    return fields

def markers(objs, fix):
    text = open(fix + ".report.txt").read()
    prints = [o for o in objs if o["event"] == "print"]
    raws = [o for o in objs if o["event"] == "raw_data"]
    assert prints and raws and len(prints) + len(raws) == len(objs)
    for o in prints:
        buf = o["fields"]["buf"]
        assert "tracing_mark_write: " + buf.rstrip("\n") in text, buf
        assert type(o["fields"]["ip"]) is int and o["fields"]["ip"] > 2**63
    for o in raws:
        # the text: "raw_data: # <id in hex> <bytes in hex>"
        b = o["fields"]["buf"]
        assert all(type(x) is int and 0 <= x < 256 for x in b), b
        line = "# %x %s" % (o["fields"]["id"], " ".join("%02x" % x for x in b))
        assert line in text, line

def drop(objs):
    missed = [(o["cpu"], o["missed_events"]) for o in objs
              if "missed_events" in o]
    assert missed == [(1, -1), (0, 42)], missed

def odd(objs):
    want = 'a"b\\c\t\x1b\xff'      # 0xff reads back as U+00FF
    hits = [o for o in objs if want in o["fields"].values()]
    assert len(hits) == 1, len(hits)

for line in open("cases.txt"):
    tag, jpath, tpath, multi, args = line.rstrip("\n").split(" ", 4)
    try:
        objs = read_json(jpath, multi == "multi")
        n = compare(objs, tpath, multi == "multi")
        if tag == "markers":
            markers(objs, os.environ["FIX"] + "/v7-zstd-markers-raw_syscalls.dat")
        elif tag.startswith("only:"):
            assert {o["event"] for o in objs} == {tag[5:]}
        elif tag.startswith("cpu:"):
            assert {o["cpu"] for o in objs} == {int(tag[4:])}
        elif tag in ("drop", "odd"):
            globals()[tag](objs)
    except AssertionError as e:
        sys.exit("report --json %s: %s" % (args, e))
    print("%s: %d objects, %d field values compared" % (args, len(objs), n))
PY
python3 check.py || fail "JSON and text disagree (above)"
grep -q '\\u001b\\u00ff' json.$k || fail "odd.dat: escapes not as documented"

step "--json with --stat, --cpus, --first/--last-event, --uname: one object"
i2=$FIX/v7-zstd-2inst-irq-top-sched-inst1.dat
$TDAT report --json --stat --uname --cpus --first-event --last-event -i "$i2" >info.json
assert_lines 1 info.json
$TDAT report --cpus --first-event --last-event -t -i "$i2" >cpus.txt
$TDAT report --uname -i "$i2" >uname.txt
$TDAT report --stat -i "$i2" >stat.txt
cat >info.py <<'PY'
import json, re, sys
d = json.loads(open("info.json").read())
assert d["file"] == sys.argv[1] and d["cpus"] == 2, d
uname = open("uname.txt").read().splitlines()
assert d["uname"] == uname[1] and d["version"] == uname[2], (d, uname)
# "  0\tFirst event:   539.506827144\tLast event: ..." with -t
rows = [l.split() for l in open("cpus.txt") if l.startswith("  ")]
want = [{"cpu": int(r[0]), "first_event": int(r[3].replace(".", "")),
         "last_event": int(r[6].replace(".", ""))} for r in rows]
assert d["cpus_with_data"] == want, (d["cpus_with_data"], want)
text = open("stat.txt").read()
entries = [int(x) for x in re.findall(r"^entries: (\d+)$", text, re.M)]
assert [s["entries"] for s in d["stat"]] == entries, (d["stat"], entries)
assert [s["buffer"] for s in d["stat"]] == ["", "", "inst1", "inst1"], d["stat"]
assert all(isinstance(s["bytes"], int) for s in d["stat"])
PY
python3 info.py "$i2" || fail "--json info disagrees with the text (above)"

step "options --json does not go with, and those it ignores"
for opt in -e -f -P -E --events "--event sched" "-T -F sched_switch"; do
	# shellcheck disable=SC2086
	expect_exit 2 $TDAT report --json $opt -i $a
	assert_lines 0 "$OUT"
	assert_grep "^tdat report: --json does not go with" "$ERR"
	assert_lines 1 "$ERR"
done
expect_exit 0 $TDAT report --json -i $a
cp "$OUT" plain.json
expect_exit 0 $TDAT report --json -R -t -l --ts-diff -i $a
assert_same plain.json "$OUT"

step "CPU:N [EVENTS DROPPED] as trace-cmd prints it, with filters"
expect_exit 0 $TDAT report -i drop.dat
assert_grep '^CPU:0 \[42 EVENTS DROPPED\]$' "$OUT"
assert_grep '^CPU:1 \[EVENTS DROPPED\]$' "$OUT"
command -v trace-cmd >/dev/null || skip "trace-cmd is missing (the rest passed)"
# -F that keeps or hides the event right after a drop: trace-cmd prints
# the drop line only before an event it shows.
for args in "" "-F sched_switch" "-F sched_wakeup" "-v -F sched_wakeup" \
	    "-F irq_handler_entry" "--cpu 0" "--cpu 1" \
	    "-F sched_switch --cpu 1" "-I" "-t -R"; do
	# shellcheck disable=SC2086
	trace-cmd report $args -i drop.dat >ref.out 2>/dev/null
	# shellcheck disable=SC2086
	expect_exit 0 $TDAT report $args -i drop.dat
	assert_same ref.out "$OUT"
done
echo "$n fixtures, $k cases"

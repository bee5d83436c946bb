#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Event formats libtraceevent cannot parse whole.  trace-cmd prints their
# records as "NAME: [FAILED TO PARSE] FIELD=VALUE ...", the fields by
# name; report printed [UNKNOWN EVENT], because it kept from
# libtraceevent the formats its own checks refuse (convert/tepfmt: those
# libtraceevent would crash on) and because one it cannot parse was
# refused too (fixtures/external/carverdamien_full.dat: fs:do_sys_open
# and fs:open_exec, print fmt ""%s" %x %o").  Now a refused format's
# fields alone are handed over, and such records print as trace-cmd
# prints them in every mode, filters on their fields work, and --json
# shows the fields by name.
#
# The other files are SYNTHETIC, made by tests/tools/mkevents, with
# fields of every kind (numbers signed and not of 1 to 8 bytes, a long,
# char and number arrays, __data_loc strings and arrays, a __rel_loc
# string), on both byte orders and long sizes, v6 and v7.  Where
# trace-cmd dies (a format libtraceevent crashes on), report must print
# what trace-cmd prints for a twin file whose print fmt is one it
# cannot parse.
. "$E2E/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd (the oracle) is not installed"
mk=$(dirname "$TDAT")/tools/mkevents
[ -x "$mk" ] || fail "$mk is missing (make build/tools/mkevents)"

modes=("" -R -l -t --ts-diff -N "-R -l")

# report of FILE with OPTS... (TDAT_REPORT_THREADS each of $threads,
# "default" unset)
# as trace-cmd prints TWIN (or FILE itself): same_as TWIN FILE OPTS...
threads="0 2"
same_as() {
	local twin=$1 file=$2 t

	shift 2
	for t in $threads; do
		if [ "$t" = default ]; then
			expect_exit 0 env -u TDAT_REPORT_THREADS \
				$TDAT report "$@" -i "$file"
		else
			TDAT_REPORT_THREADS=$t expect_exit 0 \
				$TDAT report "$@" -i "$file"
		fi
		assert_tc_report "$OUT" "$@" -i "$twin"
	done
}

step "carverdamien_full.dat: fs:do_sys_open and fs:open_exec"
f=$FIX/external/carverdamien_full.dat
# (its kmem:mm_page_alloc print fmt names the kernel symbol vmemmap_base,
# which a worker thread's handle cannot resolve: workers are left to
# their default, none for so small a file)
threads="0 default"
for m in "${modes[@]}"; do
	same_as "$f" "$f" $m
done
expect_exit 0 $TDAT report -i "$f"
assert_eq 22 "$(grep -c -E ' (open_exec|do_sys_open): +\[FAILED TO PARSE\] filename=/' "$OUT")" \
	"events printed as [FAILED TO PARSE] with their fields"
for flt in open_exec 'do_sys_open: flags == 32768' \
	   'do_sys_open: filename ~ "/proc/*"' 'fs: mode == 0'; do
	same_as "$f" "$f" -F "$flt"
done
# -E lists them too (they were left out)
expect_exit 0 $TDAT report -E -i "$f"
assert_tc_report "$OUT" -E -i "$f"
assert_grep '^fs:do_sys_open$' "$OUT"
expect_exit 0 $TDAT report --json -F do_sys_open -F open_exec -i "$f"
assert_lines 22 "$OUT"
assert_grep '^\{"timestamp":[0-9]+,.*"system":"fs","event":"do_sys_open",.*"fields":\{"filename":"/proc/5488/cmdline","flags":32768,"mode":0\}\}$' "$OUT"
assert_grep '"event":"open_exec",.*"fields":\{"filename":"/bin/echo"\}\}$' "$OUT"
threads="0 2"

# fields L: the test events' fields (L: the long size)
fields() {
	local o=$((48 + $1))

	cat <<EOF
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:s8 s8v;	offset:8;	size:1;	signed:1;
	field:u8 u8v;	offset:9;	size:1;	signed:0;
	field:short s16v;	offset:10;	size:2;	signed:1;
	field:unsigned short u16v;	offset:12;	size:2;	signed:0;
	field:int s32v;	offset:16;	size:4;	signed:1;
	field:unsigned int u32v;	offset:20;	size:4;	signed:0;
	field:long long s64v;	offset:24;	size:8;	signed:1;
	field:u64 u64v;	offset:32;	size:8;	signed:0;
	field:char comm[8];	offset:40;	size:8;	signed:0;
	field:unsigned long addr;	offset:48;	size:$1;	signed:0;
	field:u8 bytes[4];	offset:$o;	size:4;	signed:0;
	field:u32 words[3];	offset:$((o + 4));	size:12;	signed:0;
	field:__data_loc char[] name;	offset:$((o + 16));	size:4;	signed:0;
	field:__data_loc u16[] halves;	offset:$((o + 20));	size:4;	signed:0;
	field:__rel_loc char[] rname;	offset:$((o + 24));	size:4;	signed:0;
EOF
	[ -z "${2:-}" ] ||
		printf '\tfield:__data_loc char[] wide;\toffset:%d;\tsize:8;\tsigned:0;\n' $((o + 28))
}

# format NAME ID L PRINTFMT [WIDE]: a format of system "test"
format() {
	printf 'format test\nname: %s\nID: %s\nformat:\n' "$1" "$2"
	fields "$3" "${5:-}"
	printf '\nprint fmt: %s\nend\n' "$4"
}

# records EVENT1 EVENT2 [MORE]: four records, the last two all zeros
# but for MORE and a few fields (an empty __rel_loc string then points
# at the end of the record's static fields)
records() {
	echo "cmdline 42 prog"
	echo "0 1000 42 $1 s8v=-5 u8v=200 s16v=-300 u16v=60000 s32v=-70000 u32v=4000000000 s64v=-5000000000 u64v=0xffffffffffffffff comm=s:prog addr=0xc0001234 bytes=1,2,3,255 words=1,0xffffffff,7 name=s:/bin/echo halves=1,65535 rname=s:rel"
	echo "1 2000 43 $2 s8v=127 name=s:abc u32v=9 comm=s:x bytes=65,66,67,0 rname=s:"
	echo "0 3000 42 $1 ${3:-}"
	echo "1 4000 42 $2 s8v=0 u32v=7 name=s:/proc/1/stat ${3:-}"
}

layouts=("" --big-endian --long4 "--big-endian --long4")

# One libtraceevent cannot parse (it is not refused: a comma missing),
# and one tdat refuses that it cannot parse either (carverdamien's).
for layout in "${layouts[@]}"; do
	L=8
	case $layout in *long4*) L=4 ;; esac
	step "unparsed and refused formats, ${layout:-little endian, 8-byte longs}"
	{
		format unparsed 300 $L '"%d %u" REC->s8v, REC->u8v'
		format quoted 301 $L '""%s" %x", __get_str(name), REC->u32v'
		records unparsed quoted
	} >a.txt
	"$mk" $layout a.txt a.dat || fail "mkevents"
	expect_exit 0 $TDAT convert -q -i a.dat -o a7.dat
	for m in "${modes[@]}"; do
		same_as a.dat a.dat $m
		same_as a.dat a7.dat $m
	done
	for flt in 'unparsed: s32v < 0' 'unparsed: s32v == -70000' \
		   'unparsed: name == "/bin/echo"' 'quoted: u32v == 9' \
		   'unparsed: comm ~ "pr*"' 'quoted' \
		   'unparsed: u64v > 5 || s8v == 0' 'unparsed: bytes == 1' \
		   'unparsed: addr == 0xc0001234' 'quoted: name ~ "/proc*"'; do
		same_as a.dat a.dat -F "$flt"
	done
	expect_exit 0 $TDAT report --json -i a7.dat
	python3 - "$OUT" <<'PY' || fail "--json fields"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert [l["event"] for l in lines] == ["unparsed", "quoted", "unparsed", "quoted"]
f = lines[0]["fields"]
assert list(f) == ["s8v", "u8v", "s16v", "u16v", "s32v", "u32v", "s64v", "u64v",
                   "comm", "addr", "bytes", "words", "name", "halves", "rname"], list(f)
assert (f["s8v"], f["u8v"], f["s16v"], f["u16v"]) == (-5, 200, -300, 60000), f
assert (f["s32v"], f["u32v"], f["s64v"]) == (-70000, 4000000000, -5000000000), f
assert f["u64v"] == 2**64 - 1 and f["addr"] == 0xc0001234, f
assert f["comm"] == "prog" and f["name"] == "/bin/echo" and f["rname"] == "rel", f
assert f["bytes"] == [1, 2, 3, 255] and f["words"] == [1, 0xffffffff, 7], f
assert f["halves"] == [1, 65535], f
assert lines[1]["pid"] == 43 and lines[1]["system"] == "test", lines[1]
assert lines[3]["fields"]["name"] == "/proc/1/stat", lines[3]
PY
done

# Formats libtraceevent 1.7 dies on (trace-cmd too), each made to print
# [FAILED TO PARSE] with its fields: as trace-cmd prints a twin whose
# print fmt it cannot parse ("X"), and whose wide __data_loc field (8
# bytes: libtraceevent would read its length whole) is left out.
crashers=(
	'"%s", __print_symbolic(REC->vec, { 0, "HI" })'
	'"%d", REC->u32v / REC->s8v'
	'"%d", REC->s32v[0]]   '
	'"%d", __get_rel_dynamic_array_len(rname)'
	'"%s", __print_hex(REC->u32v + 1, 2)'
	'"%s", __print_hex((u8 *)REC->bytes, 2)'
	'"%s", __get_str(wide)|wide'
)
for layout in "" "--big-endian --long4"; do
	L=8
	case $layout in *long4*) L=4 ;; esac
	for c in "${crashers[@]}"; do
		pf=${c%|*}
		wide=
		[ "$pf" = "$c" ] || wide=1
		step "dies on: $pf ${layout:-little endian, 8-byte longs}"
		# (the twin's static fields end 8 bytes sooner without the
		# wide field: no __rel_loc string may point there)
		{
			format unparsed 300 $L '"%d %u" REC->s8v, REC->u8v'
			format crashy 302 $L "$pf" $wide
			records unparsed crashy rname=s:
		} >c.txt
		{
			format unparsed 300 $L '"%d %u" REC->s8v, REC->u8v'
			format crashy 302 $L X
			records unparsed crashy rname=s:
		} >twin.txt
		"$mk" $layout c.txt c.dat || fail "mkevents"
		"$mk" $layout twin.txt twin.dat || fail "mkevents twin"
		for m in "" -R -l; do
			same_as twin.dat c.dat $m
		done
		same_as twin.dat c.dat -F 'crashy: u32v == 7'
		# check-events names it
		expect_exit 1 $TDAT check-events -i c.dat
		assert_grep '^c\.dat: test:crashy: ' "$OUT"
	done
done
echo "formats libtraceevent cannot parse: [FAILED TO PARSE] and their fields, as trace-cmd"

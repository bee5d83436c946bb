#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 81-parquet-safety: convert --to parquet with bad input, an output in
# the way, a full disk and signals (issue 19, point 1).  A dataset
# appears whole or not at all: nothing is written over, a damaged input
# gets one line with its file and offset, a cut one is exported as far
# as its pages go (exit 1), and SIGINT, SIGTERM or SIGHUP while tables
# are written leave neither DIR nor its hidden stage beside it.
. "$E2E/lib.sh"
shopt -s nullglob dotglob

v6=$FIX/v6-sched-irq.dat
sums=$(sha256sum "$FIX"/*.dat "$FIX"/truncated/*.dat)
mkdir out

# assert_empty DIR WHAT: nothing at all in DIR (dot files included).
assert_empty() {
	local left=("$1"/*)

	[ ${#left[@]} -eq 0 ] || fail "$2: left ${left[*]}"
}

step "an output that exists and is not empty is refused, untouched"
mkdir out/ds && echo keep >out/ds/mine
expect_exit 2 $TDAT convert --to parquet -i "$v6" -o out/ds
assert_grep '^tdat convert: out/ds: exists and is not an empty directory' "$ERR"
assert_eq keep "$(cat out/ds/mine)" "the file in the way"
echo data >out/file
expect_exit 2 $TDAT convert --to parquet -i "$v6" -o out/file
assert_eq data "$(cat out/file)" "a file in the way"
rm -r out/ds out/file

step "an empty directory is replaced by the dataset"
mkdir out/ds
expect_exit 0 $TDAT convert --to parquet -i "$v6" -o out/ds
[ -f out/ds/meta.json ] && [ -f out/ds/sched/sched_switch.parquet ] ||
	fail "no dataset in the empty directory"
[ "$(stat -c %a out/ds)" = "$(printf %o $((0777 & ~$(umask))))" ] ||
	fail "dataset mode $(stat -c %a out/ds) is not 0777 less the umask"
rm -r out/ds

step "trace.dat options and bad --to values are usage errors"
expect_exit 2 $TDAT convert --to parquet --compression zlib -i "$v6" -o out/x
assert_grep 'compression does not go with --to parquet' "$ERR"
expect_exit 2 $TDAT convert --to csv -i "$v6" -o out/x
assert_grep '"csv" is not a format' "$ERR"
expect_exit 2 $TDAT convert -i "$v6" -i "$v6" -o out/x.dat
assert_empty out "usage errors"

step "not a trace.dat: one line with the file and offset, nothing left"
head -c 20000 /dev/urandom >junk.dat
expect_exit 1 $TDAT convert --to parquet -i junk.dat -o out/ds
assert_lines 1 "$ERR"
assert_grep '^tdat convert: junk.dat: offset [0-9]+: ' "$ERR"
assert_empty out "an unreadable input"

step "one unreadable input of a fleet: nothing is written"
expect_exit 1 $TDAT convert --to parquet -i "$v6" -i junk.dat -o out/ds
assert_grep '^tdat convert: junk.dat: offset [0-9]+: ' "$ERR"
assert_empty out "a fleet with an unreadable input"

step "a cut file: its complete pages exported, one line, exit 1"
cut=$FIX/truncated/v6-sched-irq.cut-at-5470064.dat
expect_exit 1 $TDAT convert --to parquet -i "$cut" -o out/ds
assert_lines 1 "$ERR"
assert_grep "^tdat convert: $cut: offset [0-9]+: " "$ERR"
rows=$(grep -o '"rows":[0-9]*' out/ds/meta.json | head -n 1 | cut -d: -f2)
want=$($TDAT report --json -i "$cut" 2>/dev/null | wc -l)
assert_eq "$want" "$rows" "rows of the cut file (report --json's)"
rm -r out/ds

step "a full disk: one line naming the table, nothing left"
if mkdir small && mount -t tmpfs -o size=400k tmpfs small 2>/dev/null; then
	expect_exit 1,2 $TDAT convert --to parquet -i "$v6" -o small/ds
	assert_lines 1 "$ERR"
	assert_grep '^tdat convert: small/ds(/[^:]*)?: No space left on device' "$ERR"
	assert_empty small "a full disk"
	umount small
else
	echo "(cannot mount a tmpfs here: full disk not checked)"
fi

# ---- signals: stopped while tables are written, then signalled ----
pid=

# A stage holding a table file: the export is under way.
staged() {
	local s

	for s in out/.ds.tdat-*; do
		[ -n "$(find "$s" -name '*.parquet' 2>/dev/null | head -n 1)" ] &&
			return 0
	done
	return 1
}

# signal_while_staged SIG: run a slow export (a fleet at level 19),
# stop it once a table is written, send SIG; it must die of SIG and
# leave nothing.  Up to three tries: a busy machine may run past.
signal_while_staged() {
	local sig=$1 try i rc

	for try in 1 2 3; do
		spawn $TDAT convert --to parquet --level 19 -q \
			-i "$v6" -i "$v6" -i "$v6" -i "$v6" -o out/ds
		for ((i = 0; i < 3000; i++)); do
			staged && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.01
		done
		if kill -STOP $pid 2>/dev/null && staged; then
			kill -"$sig" $pid
			kill -CONT $pid
			rc=0
			wait $pid || rc=$?
			assert_eq $((128 + $(kill -l "$sig"))) "$rc" \
				"exit status after SIG$sig"
			assert_empty out "SIG$sig while tables are written"
			return 0
		fi
		kill -KILL $pid 2>/dev/null || true
		wait $pid 2>/dev/null || true
		rm -rf out/* out/.ds.tdat-*
		echo "(ended before a table was written: once more)"
	done
	fail "the export ended three times before a table was written"
}

for sig in INT TERM HUP; do
	step "SIG$sig while tables are written: nothing left"
	signal_while_staged $sig
done

step "the inputs are unchanged"
assert_eq "$sums" "$(sha256sum "$FIX"/*.dat "$FIX"/truncated/*.dat)" "fixture digests"

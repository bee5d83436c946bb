# SPDX-License-Identifier: GPL-2.0-or-later
# 06-oracle: how the tests ask the oracles (tests/e2e/oracle/ask).
# An oracle that now and then prints garbage must neither fail a test
# (the question is asked until two answers agree; known strays are cut)
# nor pass one (the strays rule cuts only the bytes past what the file
# holds; an oracle that never repeats itself is an error).  Checked with
# a made-up oracle whose answers are scripted, and the strays rule on
# tdat's own dump of a file with saved modules.
. "$E2E/lib.sh"

ask=$E2E/oracle/ask
unset TC_CACHE TC_REFRESH TC_AUDIT

# fake ANSWER...: an oracle that gives ANSWERs in turn ("rc=N" as an
# answer exits N), one per run; runs counted in runs.txt
fake() {
	printf '%s\n' "$@" >answers.txt
	: >runs.txt
	cat >fake.sh <<'EOF'
#!/bin/bash
echo x >>runs.txt
a=$(sed -n "$(wc -l <runs.txt)p" answers.txt)
case $a in rc=*) echo "failing" >&2; exit "${a#rc=}" ;; esac
printf '%b' "$a"
EOF
	chmod +x fake.sh
}
runs() { wc -l <runs.txt; }

step "answers agree at once: asked twice"
fake 'good\n' 'good\n' 'never\n'
expect_exit 0 "$ask" 3.1.6 ./fake.sh report -i x.dat
printf 'good\n' >want.txt
assert_same want.txt "$OUT"
assert_eq 2 "$(runs)" "runs"

step "garbage now and then: asked until two answers agree"
fake 'good\177\n' 'good\n' 'good\001\n' 'good\n' 'never\n'
expect_exit 0 "$ask" 3.1.6 ./fake.sh report -i x.dat
assert_same want.txt "$OUT"
assert_eq 4 "$(runs)" "runs"

step "the exit status and stderr are part of the answer"
fake 'rc=1' 'good\n' 'rc=1' 'never\n'
expect_exit 1 "$ask" 3.1.6 ./fake.sh dump -i x.dat
assert_grep '^failing$' "$ERR"
assert_eq 3 "$(runs)" "runs"

step "an oracle that never repeats itself: exit 125, one line, no answer"
fake 'a\n' 'b\n' 'c\n' 'd\n' 'e\n' 'f\n' 'g\n'
expect_exit 125 "$ask" 3.1.6 ./fake.sh report -i x.dat
assert_lines 1 "$ERR"
assert_grep '^ask: trace-cmd 3.1.6 gave 6 different answers to: report -i x.dat$' "$ERR"
[ -s "$OUT" ] && fail "an answer was printed"
assert_eq 6 "$(runs)" "runs"

step "other commands go straight to the oracle, once"
fake 'rc=3' 'never\n'
expect_exit 3 "$ask" 3.1.6 ./fake.sh split -i x.dat
assert_eq 1 "$(runs)" "runs"

step "answers remembered by the bytes of the files named; TC_REFRESH asks again"
echo one >x.dat
fake 'good\n' 'good\n' 'other\n' 'other\n'
TC_CACHE=$TMPDIR/cache expect_exit 0 "$ask" 3.1.6 ./fake.sh report -i x.dat
TC_CACHE=$TMPDIR/cache expect_exit 0 "$ask" 3.1.6 ./fake.sh report -i x.dat
assert_same want.txt "$OUT"
assert_eq 2 "$(runs)" "runs after the remembered answer"
echo two >x.dat
fake 'other\n' 'other\n' 'never\n'
TC_CACHE=$TMPDIR/cache expect_exit 0 "$ask" 3.1.6 ./fake.sh report -i x.dat
assert_grep '^other$' "$OUT"
echo one >x.dat
fake 'fresh\n' 'fresh\n'
TC_CACHE=$TMPDIR/cache TC_REFRESH=1 expect_exit 0 "$ask" 3.1.6 ./fake.sh report -i x.dat
assert_grep '^fresh$' "$OUT"
TC_CACHE=$TMPDIR/cache expect_exit 0 "$ask" 3.1.6 ./fake.sh report -i x.dat
assert_grep '^fresh$' "$OUT"
assert_eq 2 "$(runs)" "runs"

step "trace-cmd 3.4's dump: the heap bytes after the saved modules are cut"
f=$FIX/lastboot/boot_map-6.12-kaslr.dat
expect_exit 0 "$TDAT" dump -i "$f"
cp "$OUT" clean.txt
assert_grep '^	\[Saved modules\]$' clean.txt
# what 3.4 prints when the heap holds bytes after the module text
python3 - clean.txt <<'PY'
import re, sys
d = open(sys.argv[1], 'rb').read()
m = re.search(rb'\t\[Saved modules\]\n(.*?)\n\[(\d+) bytes\]\n', d, re.S)
end = m.start(1) + int(m.group(2))
assert end == m.end(1), 'the module text is not N bytes long'
for name, stray in (('stray1', b'\x7f'), ('stray2', b'\x01\xff\xfe\n\x03')):
    open(name + '.txt', 'wb').write(d[:end] + stray + d[end:])
# a byte changed inside the text: what tdat would print wrongly
open('inside.txt', 'wb').write(d[:end - 3] + b'X' + d[end - 2:])
open('shorter.txt', 'wb').write(d[:end - 2] + d[end - 1:])
PY
strays=$E2E/oracle/strays
for s in stray1 stray2; do
	"$strays" 3.4 dump <$s.txt >cut.txt
	assert_same clean.txt cut.txt
	cmp -s $s.txt clean.txt && fail "$s.txt has no stray"
	# no other oracle or command has it
	"$strays" 3.1.6 dump <$s.txt >kept.txt
	assert_same $s.txt kept.txt
	"$strays" 3.4 report <$s.txt >kept.txt
	assert_same $s.txt kept.txt
done
for s in clean inside shorter; do
	"$strays" 3.4 dump <$s.txt >kept.txt
	assert_same $s.txt kept.txt
done

# script FILE...: the fake oracle's answers are these files, in turn
script() {
	fake never
	python3 - "$@" <<'PY'
import sys
# one line each, as fake.sh's printf %b reads it back
lines = [''.join('\\0%03o' % b for b in open(f + '.txt', 'rb').read())
         for f in sys.argv[1:]]
open('answers.txt', 'w').write('\n'.join(lines) + '\n')
PY
}

step "through ask: a 3.4 dump with strays now and then agrees with tdat's"
script stray1 stray2 inside
expect_exit 0 "$ask" 3.4 ./fake.sh dump -i "$f"
assert_same clean.txt "$OUT"
assert_eq 2 "$(runs)" "runs"

step "TC_AUDIT: questions whose answers differ are logged"
script clean clean stray1
TC_AUDIT=1 TC_AUDIT_LOG=$TMPDIR/audit.log expect_exit 0 "$ask" 3.4 ./fake.sh dump -i "$f"
assert_same clean.txt "$OUT"
assert_eq 1 "$(grep -c '^[a-z]' audit.log)" "questions logged"
assert_grep "^stray trace-cmd 3.4 \(in $TMPDIR\): dump -i " audit.log
script clean clean clean inside
TC_AUDIT=2 TC_AUDIT_LOG=$TMPDIR/audit.log expect_exit 0 "$ask" 3.4 ./fake.sh dump -i "$f"
assert_same clean.txt "$OUT"
assert_grep "^unstable trace-cmd 3.4 .*: dump -i " audit.log
echo ok

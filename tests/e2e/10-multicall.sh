# SPDX-License-Identifier: GPL-2.0-or-later
# 10-multicall: dispatch of the multicall binary (multicall/main.c).
# By "tdat APPLET", by symlinks named after applets, by a symlink
# named trace-cmd; --help, --version, unknown applets, unbuilt applets.
. "$E2E/lib.sh"

APPLETS="record report split merge restore convert check-events dump extract"
BUILD=$(dirname "$TDAT")

step "tdat --help lists every applet, one line each"
expect_exit 0 "$TDAT" --help
for a in $APPLETS; do
	assert_grep "^  $a +[a-z]" "$OUT"
done
assert_eq 9 "$(grep -Ec '^  [a-z-]+ +[a-z]' "$OUT")" "applet lines"
[ -s "$ERR" ] && fail "--help wrote to stderr"
cp "$OUT" help.txt
expect_exit 0 "$TDAT" -h
assert_same help.txt "$OUT"

step "tdat with no arguments: the list on stderr, exit 2"
expect_exit 2 "$TDAT"
for a in $APPLETS; do
	assert_grep "^  $a " "$ERR"
done

step "tdat --version"
expect_exit 0 "$TDAT" --version
assert_lines 1 "$OUT"
assert_grep '^tdat [0-9]+\.[0-9]+\.[0-9]+$' "$OUT"

step "unknown applet: exit 2, one line naming it, the nearest for a typo"
expect_exit 2 "$TDAT" no-such-applet --help
assert_lines 1 "$ERR"
assert_grep '^tdat: unknown applet "no-such-applet" \(tdat --help lists them\)$' "$ERR"
[ -s "$OUT" ] && fail "unknown applet wrote to stdout"
for typo in reprot:report splt:split covnert:convert merg:merge rec:record; do
	expect_exit 2 "$TDAT" "${typo%%:*}" -i x.dat
	assert_lines 1 "$ERR"
	assert_grep "^tdat: unknown applet \"${typo%%:*}\" \(did you mean ${typo#*:}\?\)$" "$ERR"
done

step "unknown options: one wording in every applet, the nearest long option"
for a in $APPLETS; do
	expect_exit 2 "$TDAT" "$a" --no-such-option-at-all
	assert_lines 1 "$ERR"
	assert_grep "^tdat $a: unknown option \"--no-such-option-at-all\" \(see tdat $a --help\)$" "$ERR"
done
expect_exit 2 "$TDAT" convert --compresion zstd
assert_grep '^tdat convert: unknown option "--compresion" \(did you mean --compression\?\) \(see tdat convert --help\)$' "$ERR"
expect_exit 2 "$TDAT" report --stt
assert_grep '^tdat report: unknown option "--stt" \(did you mean --stat\?\)' "$ERR"
expect_exit 2 "$TDAT" split -Z
assert_grep '^tdat split: unknown option "-Z" \(see tdat split --help\)$' "$ERR"

step "every applet: tdat APPLET --help, the symlink and help APPLET agree"
for a in $APPLETS; do
	[ -L "$BUILD/$a" ] || fail "$BUILD/$a is not a symlink"
	assert_eq tdat "$(readlink "$BUILD/$a")" "$a symlink target"
	expect_exit 0 "$TDAT" "$a" --help
	assert_grep "$a" "$OUT"
	assert_grep '[Uu]sage:' "$OUT"
	cp "$OUT" "$a.help"
	expect_exit 0 "$BUILD/$a" --help
	assert_same "$a.help" "$OUT"
	expect_exit 0 "$TDAT" help "$a"
	assert_same "$a.help" "$OUT"
done
assert_grep '--file-version' convert.help

step "no applet is left a stub"
for a in $APPLETS; do
	if grep -q "not implemented yet" "$a.help"; then
		fail "$a --help still says it is not implemented"
	fi
done

step "a symlink named trace-cmd behaves as tdat"
mkdir bin
ln -s "$TDAT" bin/trace-cmd
expect_exit 0 bin/trace-cmd --help
assert_same help.txt "$OUT"
expect_exit 0 bin/trace-cmd --version
assert_grep '^tdat ' "$OUT"
expect_exit 0 bin/trace-cmd convert --help
assert_same convert.help "$OUT"
expect_exit 2 bin/trace-cmd no-such-applet
assert_grep "^tdat: unknown applet \"no-such-applet\"" "$ERR"

step "applet symlinks work from anywhere, by absolute path"
ln -s "$TDAT" bin/split
expect_exit 0 "$TMPDIR/bin/split" --help
assert_same split.help "$OUT"

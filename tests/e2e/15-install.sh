#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make install: bin/tdat, applet symlinks under libexec/tdat/ (never
# bare applet names in bin/), man pages; the symlinks run their applet.
. "$E2E/lib.sh"
root=$(cd "$E2E/../.." && pwd)
build=$(cd "$(dirname "$TDAT")" && pwd)

make -C "$root" -s install B="$build" PREFIX=/usr DESTDIR="$TMPDIR/inst" \
	>make.log 2>&1 || { cat make.log >&2; fail "make install"; }
d=$TMPDIR/inst/usr
[ -x "$d/bin/tdat" ] || fail "bin/tdat missing"
assert_eq "tdat" "$(ls "$d/bin")" "contents of bin/"
for a in record report split merge restore convert check-events dump; do
	[ -L "$d/libexec/tdat/$a" ] || fail "libexec/tdat/$a missing"
	expect_exit 0 "$d/libexec/tdat/$a" --help
done
for m in man1/tdat.1 man1/tdat-convert.1 man5/tdat-format.5; do
	[ -s "$d/share/man/$m" ] || fail "man page $m missing"
done
expect_exit 0 "$d/libexec/tdat/convert" -i "$FIX/v6-sched-irq.dat" -o x.dat

step "man tdat-report finds the installed page"
if command -v man >/dev/null; then
	page=$(MANPATH="$d/share/man" man -w tdat-report) || fail "man -w tdat-report"
	assert_eq "$d/share/man/man1/tdat-report.1" "$page" "man page path"
fi

step "bash completion: applets, their options, file names"
comp=$d/share/bash-completion/completions/tdat
[ -s "$comp" ] || fail "completion file missing"
mkdir -p cdir && : >cdir/a.dat && : >cdir/b.txt
# complete WORDS...: what TAB offers after them (the last is the word
# being completed), one per line
complete_words() {
	PATH="$d/bin:$d/libexec/tdat:$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		spec=$(complete -p "$1") || exit 3
		fn=${spec#*-F }; fn=${fn%% *}
		"$fn"; printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@"
}
complete_words tdat rep >out.txt
assert_eq "report" "$(cat out.txt)" "tdat rep<TAB>"
complete_words tdat "" >out.txt
for a in record report split merge restore convert check-events dump; do
	grep -qx "$a" out.txt || fail "tdat <TAB> lacks $a: $(cat out.txt)"
done
complete_words tdat convert --comp >out.txt
assert_eq "--compression" "$(cat out.txt)" "tdat convert --comp<TAB>"
complete_words tdat split --dat >out.txt
assert_eq "--dat-suffix" "$(cat out.txt)" "tdat split --dat<TAB>"
complete_words tdat convert --compression z >out.txt
assert_eq "zlib zstd" "$(sort out.txt | tr '\n' ' ' | sed 's/ $//')" "--compression z<TAB>"
complete_words tdat report -i cdir/ >out.txt
assert_eq "cdir/a.dat" "$(cat out.txt)" "report -i <TAB> offers trace files"
complete_words report -i cdir/ >out.txt
assert_eq "cdir/a.dat" "$(cat out.txt)" "the report link completes as tdat report"

step "make uninstall removes exactly what install put"
make -C "$root" -s uninstall B="$build" PREFIX=/usr DESTDIR="$TMPDIR/inst" \
	>make.log 2>&1 || { cat make.log >&2; fail "make uninstall"; }
left=$(cd "$TMPDIR/inst" && find . -mindepth 1)
[ -z "$left" ] || fail "left after uninstall: $left"
mkdir -p "$TMPDIR/inst2/usr/bin" && : >"$TMPDIR/inst2/usr/bin/other"
make -C "$root" -s install uninstall B="$build" PREFIX=/usr DESTDIR="$TMPDIR/inst2" \
	>make.log 2>&1 || { cat make.log >&2; fail "install, uninstall"; }
assert_eq "./usr/bin/other" "$(cd "$TMPDIR/inst2" && find . -type f)" "what was there before"
echo "install ok"

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
for a in record report split merge restore convert check-events; do
	[ -L "$d/libexec/tdat/$a" ] || fail "libexec/tdat/$a missing"
	expect_exit 0 "$d/libexec/tdat/$a" --help
done
for m in man1/tdat.1 man1/tdat-convert.1 man5/tdat-format.5; do
	[ -s "$d/share/man/$m" ] || fail "man page $m missing"
done
expect_exit 0 "$d/libexec/tdat/convert" -i "$FIX/v6-sched-irq.dat" -o x.dat
echo "install ok"

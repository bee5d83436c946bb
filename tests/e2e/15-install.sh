#!/bin/sh
# make install: bin/tracebox, applet symlinks under libexec/tracebox/ (never
# bare applet names in bin/), man pages; the symlinks run their applet.
. "$E2E/lib.sh"
root=$(cd "$E2E/../.." && pwd)
build=$(cd "$(dirname "$TB")" && pwd)

make -C "$root" -s install B="$build" PREFIX=/usr DESTDIR="$TMPDIR/inst" \
	>make.log 2>&1 || { cat make.log >&2; fail "make install"; }
d=$TMPDIR/inst/usr
[ -x "$d/bin/tracebox" ] || fail "bin/tracebox missing"
assert_eq "tracebox" "$(ls "$d/bin")" "contents of bin/"
for a in record report split merge restore convert check-events; do
	[ -L "$d/libexec/tracebox/$a" ] || fail "libexec/tracebox/$a missing"
	expect_exit 0 "$d/libexec/tracebox/$a" --help
done
for m in man1/tracebox.1 man1/tracebox-convert.1 man5/tracebox-dat.5; do
	[ -s "$d/share/man/$m" ] || fail "man page $m missing"
done
expect_exit 0 "$d/libexec/tracebox/convert" -i "$FIX/v6-sched-irq.dat" -o x.dat
echo "install ok"

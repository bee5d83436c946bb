#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tree's shape, as README's Layout states it: the top level holds the
# card's rooms and nothing else, no C file lies directly in convert/,
# includes never go upward (libfmt -> nothing, engines -> libfmt and the
# shared convert/ headers, applets -> engine interfaces), build/libfmt.a
# holds libfmt's objects only, every source file names its license, and
# nothing says the project's old name.
. "$E2E/lib.sh"

root=$(cd "$E2E/../.." && pwd)
build=$(dirname "$TDAT")
cd "$root"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files >"$TMPDIR/files"
else
	find . -path ./.git -prune -o -path './build*' -prune -o -type f -print |
		sed 's|^\./||' | sort >"$TMPDIR/files"
fi
files=$TMPDIR/files

step "top level: the card's rooms, bench/ and scripts/"
cut -d/ -f1 "$files" | sort -u >"$TMPDIR/top"
for t in $(cat "$TMPDIR/top"); do
	case $t in
	Makefile|README.md|LICENSE|COPYING|COPYING.LGPL|.gitignore|.ci) ;;
	multicall|libfmt|cmds|convert|tests|fixtures|doc|bench|scripts) ;;
	*) fail "unexpected top-level entry: $t" ;;
	esac
done

step "convert/: engines in folders, no C file directly inside"
if grep -E '^convert/[^/]+\.c$' "$files"; then
	fail "C files directly in convert/"
fi

# includes FILE...: "FILE: HEADER" for every quoted include.
includes() {
	grep -H '^#include "' "$@" | sed 's/:#include "\([^"]*\)".*/: \1/'
}

step "libfmt includes only libfmt"
includes $(grep -E '^libfmt/.*\.[ch]$' "$files") | grep -v ': libfmt/' >"$TMPDIR/bad.txt" || true
[ ! -s "$TMPDIR/bad.txt" ] || { cat "$TMPDIR/bad.txt" >&2; fail "libfmt includes outside itself"; }

step "engines include libfmt and convert/ only"
includes $(grep -E '^convert/.*\.[ch]$' "$files") |
	grep -v -E ': (libfmt|convert)/' >"$TMPDIR/bad.txt" || true
[ ! -s "$TMPDIR/bad.txt" ] || { cat "$TMPDIR/bad.txt" >&2; fail "an engine includes upward"; }

step "an engine reaches another only through its interface"
includes $(grep -E '^convert/[a-z_]+/.*\.[ch]$' "$files") |
	sed -n 's|^convert/\([a-z_]*\)/[^:]*: convert/\([a-z_]*\)/\(.*\)$|\1 \2 \3|p' |
	while read -r from to hdr; do
		[ "$from" = "$to" ] && continue
		case $to/$hdr in
		"$to/$to.h"|tracefs/tracefs.h|tracefs/sysmeta.h) ;;
		events/stream.h|events/inputs.h) ;;	# the stream walked by hand
		*) fail "convert/$from includes convert/$to/$hdr" ;;
		esac
	done

# The event stream is a room of its own (convert/events/): report and the
# exports are peers above it, and an export reads nothing of report's.
step "the exports include nothing of report's"
includes $(grep -E '^convert/(parquet|perfetto)/.*\.[ch]$' "$files") |
	grep -E ': convert/report/' >"$TMPDIR/bad.txt" || true
[ ! -s "$TMPDIR/bad.txt" ] || { cat "$TMPDIR/bad.txt" >&2; fail "an export includes report's headers"; }
step "the event stream includes no consumer of it"
includes $(grep -E '^convert/events/.*\.[ch]$' "$files") |
	grep -E ': convert/(report|parquet|perfetto)/' >"$TMPDIR/bad.txt" || true
[ ! -s "$TMPDIR/bad.txt" ] || { cat "$TMPDIR/bad.txt" >&2; fail "the event stream includes a consumer"; }

step "applets include engine interfaces, never an engine's internals"
includes $(grep -E '^(cmds|multicall)/.*\.[ch]$' "$files") |
	grep -v -E ': (libfmt/[a-z_]+\.h|cmds/[a-z_]+\.h|convert/(opts|repair_hint)\.h|convert/tracefs/(tracefs|sysmeta)\.h)$' |
	grep -v -E ': convert/([a-z_]+)/\1\.h$' >"$TMPDIR/bad.txt" || true
[ ! -s "$TMPDIR/bad.txt" ] || { cat "$TMPDIR/bad.txt" >&2; fail "an applet reaches into an engine"; }
if includes $(grep -E '^multicall/.*\.c$' "$files") | grep -E ': convert/'; then
	fail "multicall/ is the applet table and dispatch only"
fi

step "build/libfmt.a holds libfmt's objects only"
[ -f "$build/libfmt.a" ] || fail "no $build/libfmt.a"
ar t "$build/libfmt.a" | sort >"$TMPDIR/got.txt"
grep -E '^libfmt/[^/]+\.c$' "$files" | sed 's|libfmt/||; s|\.c$|.o|' | sort >"$TMPDIR/want.txt"
assert_same "$TMPDIR/want.txt" "$TMPDIR/got.txt"

step "every source file names its license"
while read -r f; do
	case $f in
	*.c|*.h|*.sh|Makefile|doc/*.[15]|scripts/*|bench/*|.ci/run|tests/e2e/run|tests/e2e/oracle/*|tests/vm/*|tests/fleet/*|tests/lsan.supp) ;;
	*) continue ;;
	esac
	want=GPL-2.0-or-later
	case $f in libfmt/*) want=LGPL-2.1-or-later ;; esac
	head -n 3 "$f" | grep -q "SPDX-License-Identifier: $want\b" ||
		fail "$f: no 'SPDX-License-Identifier: $want' in its first lines"
done <"$files"

step "nothing says the old name"
old=trace; old=${old}box
if grep -v -E '\.(dat|txt|zst)$|SHA256SUMS' "$files" | xargs grep -l -i "$old" 2>/dev/null; then
	fail "files above still say $old"
fi
echo ok

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vmcore.sh DUMP...: tdat extract --vmcore -t -a of each dump against
# cat of the whole dump (what a tool that scans the dump would need at
# least), in the same run: RUNS alternating runs each (default 5), after
# a warm-up (the dump in the page cache for both), medians of wall
# seconds, and tdat's peak RSS.  Goals: at most 2 s whatever the
# dump's size (tdat reads the same few MiB of any dump: kallsyms, BTF,
# rodata, the structures and the pages); and, cold, less time than
# reading an ELF dump of a 1 GiB guest once (ratio < 1).
# With COLD=1 (root) the page cache is dropped before every run, so
# that both read the disk, as right after a crash.
# Dumps come from the VM bed: VM_KEEP_DUMPS=1 tests/vm/vmcore build.
# Environment: BUILD (default build/), RUNS, TMPDIR, COLD.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tb=${BUILD:-$root/build}/tdat
runs=${RUNS:-5}

if [ $# -lt 1 ]; then
	echo "usage: bench/vmcore.sh DUMP...   (env: BUILD RUNS)" >&2
	exit 2
fi
. "$root/bench/lib.sh"
bench_setup vmcore

# cold: with COLD=1, nothing of the dump in the page cache.
cold() {
	[ "${COLD:-}" != 1 ] || { sync; echo 3 >/proc/sys/vm/drop_caches; }
}

printf '%-48s %9s %8s %8s %7s %8s\n' dump "MB" "tdat s" "cat s" ratio "rss MiB"
for d in "$@"; do
	d=$(realpath "$d")
	"$tb" extract -q --vmcore "$d" -t -a -o "$tmp/x.dat"
	rm -f "$tmp"/a.* "$tmp"/b.*
	for i in $(seq "$runs"); do
		cold
		once a "$tb" extract -q --vmcore "$d" -t -a -o "$tmp/x.dat"
		cold
		once b cat "$d"
	done
	stats a; ta=$secs rssa=$rss
	stats b; tc=$secs
	printf '%-48s %9s %8s %8s %7s %8s\n' "${d#"$root"/}" \
		$(($(stat -c %s "$d") >> 20)) "$ta" "$tc" "$(ratio "$ta" "$tc")" \
		"$(mib "$rssa")"
done

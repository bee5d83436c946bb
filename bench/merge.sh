#!/bin/bash
# merge.sh [FILE]: tracebox merge against cat over the same bytes.
#
# FILE (default /work/big/big6.dat, else ../big/big6.dat) is cut into
# pieces: page-aligned ones with our split (-p N -r, about PIECES pieces,
# default 14), or, if split does not work, with tests/tools/mkpieces.
# Then, alternately RUNS times (default 5) after one warm-up each:
#   cat       cat PIECES > OUT            (the floor: read + write once)
#   merge     tracebox merge -q -o OUT PIECES
# and it prints the median wall times, their ratio (target <= 2) and
# merge's peak RSS (target <= 64 MiB).  Pieces of a v6 input stay v6 and
# so does the output (no compression: the case cat can be compared
# with).  With ZSTD=1 a second case does the same with the v7 zstd
# conversion of FILE (merge decompresses and recompresses every page,
# so it is slower than cat by far; shown for information).
# Unless CHECK=0, the merged file must equal FILE byte for byte (v6
# case) and Debian's trace-cmd must report it as it reports FILE.
# Environment: BUILD (default build/), RUNS, PIECES, CHECK, ZSTD, TMPDIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
tb=$build/tracebox
runs=${RUNS:-5}
npieces=${PIECES:-14}

in=${1:-}
if [ -z "$in" ]; then
	for c in /work/big/big6.dat "$root/../big/big6.dat"; do
		[ -f "$c" ] && in=$c && break
	done
fi
if [ -z "$in" ] || [ ! -f "$in" ]; then
	echo "usage: bench/merge.sh [FILE]   (env: BUILD RUNS PIECES CHECK ZSTD)" >&2
	echo "  make a large FILE with: tc-record -e sched -e irq -e raw_syscalls" \
	     "-e timer -e kmem -o big6.dat --file-version 6 sh -c '...'" >&2
	exit 2
fi
in=$(realpath "$in")
. "$root/bench/lib.sh"
bench_setup merge

# Pages per CPU of the longest stream (stored bytes / page size).
pages_per_cpu() {
	"$build/tools/tdat-digest" "$1" | awk '$1 == "cpu" && $4 > m { m = $4 } END { print m + 0 }'
}

# cut FILE PREFIX: page-aligned pieces of FILE as PREFIX.0001...
cut_pieces() {
	local n

	[ -x "$build/tools/tdat-digest" ] || make -s -C "$root" B="$build" \
		"$build/tools/tdat-digest" "$build/tools/mkpieces" >/dev/null
	n=$(($(pages_per_cpu "$1") / npieces + 1))
	if "$tb" split -i "$1" -o "$2" -p "$n" -r >/dev/null 2>&1; then
		how="tracebox split -p $n -r"
	else
		rm -f "$2".*
		[ -x "$build/tools/mkpieces" ] ||
			make -s -C "$root" B="$build" "$build/tools/mkpieces"
		"$build/tools/mkpieces" -p "$n" "$1" "$2" >/dev/null
		how="tests/tools/mkpieces -p $n"
	fi
}

# bench CASE INPUT: pieces of INPUT, cat vs merge; sets ratio_, rss_.
bench() {
	local name=$1 input=$2 bytes i

	rm -f "$tmp"/p.* "$tmp"/*.times "$tmp"/*.rss
	cut_pieces "$input" "$tmp/p"
	bytes=$(cat "$tmp"/p.* | wc -c)
	echo "$name: $(ls "$tmp"/p.* | wc -l) pieces ($how), $bytes bytes"
	# warm-up, then alternate
	cat "$tmp"/p.* >"$tmp/cat.out"
	"$tb" merge -q -o "$tmp/merged.dat" "$tmp"/p.*
	for i in $(seq "$runs"); do
		once cat sh -c "cat '$tmp'/p.* >'$tmp/cat.out'"
		once merge "$tb" merge -q -o "$tmp/merged.dat" "$tmp"/p.*
	done
	rm -f "$tmp/cat.out"
	stats cat; cat_s=$secs
	stats merge
	ratio_=$(ratio "$secs" "$cat_s")
	rss_=$rss
	printf '  %-8s %8s s\n' cat "$cat_s"
	printf '  %-8s %8s s %8s MiB peak RSS\n' merge "$secs" "$(mib "$rss")"
	printf '  %-8s %8sx\n' ratio "$ratio_"
}

check() {
	local want=$1

	[ "${CHECK:-1}" = 0 ] && return 0
	trace-cmd report -i "$want" >"$tmp/want.txt" 2>&1
	if trace-cmd report -i "$tmp/merged.dat" 2>&1 | cmp -s - "$tmp/want.txt"; then
		echo "  check: trace-cmd report of the merged file is identical"
	else
		echo "  check: trace-cmd report of the merged file DIFFERS"
		exit 1
	fi
}

echo "input: $in ($(wc -c <"$in") bytes), median of $runs runs, alternating"
echo "tracebox: $tb"
echo

bench "v6 pieces -> v6" "$in"
r6=$ratio_ rss6=$rss_
if [ "${CHECK:-1}" != 0 ] && [ "$(head -c 11 "$in" | tail -c 1)" = 6 ]; then
	if cmp -s "$tmp/merged.dat" "$in"; then
		echo "  check: merged file is byte for byte the input"
	else
		echo "  check: merged file DIFFERS from the input"
		exit 1
	fi
fi
check "$in"

if [ "${ZSTD:-0}" = 1 ]; then
	echo
	"$tb" convert -q -i "$in" -o "$tmp/in7.dat"
	bench "v7 zstd pieces -> v7 zstd" "$tmp/in7.dat"
	check "$tmp/in7.dat"
	rm -f "$tmp/in7.dat"
fi

echo
echo "targets (issue 4):"
target "merge / cat time ratio (v6)" "$r6" 2
target "merge peak RSS (MiB)" "$(mib "$rss6")" 64

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# merge.sh [FILE]: tdat merge against cat over the same bytes.
#
# Two cases, each cut into page-aligned pieces with our split (-p N -r,
# about PIECES pieces, default 14), or, if split does not work, with
# tests/tools/mkpieces:
#   v6        FILE (default /work/big/big6.dat, else ../big/big6.dat),
#             merged to v6 (no compression: the case cat compares with)
#   v7 zstd   ZFILE (default /work/big/split-big7zstd.dat when FILE is
#             the default, else FILE converted to v7 zstd), merged to v7
#             zstd: streams that follow each other go out as stored,
#             their chunks not even decompressed
# Then, alternately RUNS times (default 5) after one warm-up each:
#   cat       cat PIECES > OUT            (the floor: read + write once)
#   merge     tdat merge -q -o OUT PIECES
#   meta      the same merge of metadata-only pieces (each piece split
#             down to an empty time range: same metadata, no trace data)
# and it prints the median wall times, their ratio (target <= 2), the
# trace-data part (merge - meta: what merging the trace data costs; in
# wall time, and in CPU time from extra runs, which a busy machine
# disturbs less) and merge's peak RSS (target <= 64 MiB).
# Unless CHECK=0, the merged v6 file must equal FILE byte for byte and
# Debian's trace-cmd must report each merged file as it reports its
# input.  ZSTD=0 skips the v7 case.
# Last, overlapping inputs (OVERLAP=0 skips them), as from two recorders
# or successive snapshots whose files overlap in time: FILE cut by tdat
# split into PIECES equal time windows, each but the first reaching
# OVERLAP% (default 30) of a window back into the one before, so that
# merge must drop the events repeated there.  It prints cat of those
# pieces and the merge's median wall time, CPU time, peak RSS and -v
# lines; TDAT2=BINARY times a second tdat too, alternately with the
# first (e.g. a build without a fast path), and their ratios.  Unless
# CHECK=0, the merged file must equal byte for byte the merge of the
# same windows without overlap (and TDAT2's output), and trace-cmd must
# report it as it reports FILE.
# Environment: BUILD (default build/), RUNS, PIECES, CHECK, ZSTD, ZFILE,
# OVERLAP, TDAT2, TMPDIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
tb=$build/tdat
runs=${RUNS:-5}
npieces=${PIECES:-14}

in=${1:-}
zin=${ZFILE:-}
if [ -z "$in" ]; then
	for c in /work/big/big6.dat "$root/../big/big6.dat"; do
		[ -f "$c" ] && in=$c && break
	done
	if [ -z "$zin" ] && [ -n "$in" ] &&
	   [ -f "$(dirname "$in")/split-big7zstd.dat" ]; then
		zin=$(dirname "$in")/split-big7zstd.dat
	fi
fi
if [ -z "$in" ] || [ ! -f "$in" ]; then
	echo "usage: bench/merge.sh [FILE]   (env: BUILD RUNS PIECES CHECK ZSTD ZFILE OVERLAP TDAT2)" >&2
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
		how="tdat split -p $n -r"
	else
		rm -f "$2".*
		[ -x "$build/tools/mkpieces" ] ||
			make -s -C "$root" B="$build" "$build/tools/mkpieces"
		"$build/tools/mkpieces" -p "$n" "$1" "$2" >/dev/null
		how="tests/tools/mkpieces -p $n"
	fi
}

# meta_pieces: each piece split down to an empty time range (its
# metadata, no trace data) as $tmp/m.0001...
meta_pieces() {
	local p

	rm -f "$tmp"/m.*
	for p in "$tmp"/p.*; do
		"$tb" split -i "$p" -o "$tmp/m.${p##*.}" 0.000001 0.000002 \
			>/dev/null 2>&1 || { rm -f "$tmp"/m.*; return 1; }
	done
}

# cpu_once TAG CMD...: CPU time (user + system, ms) of one run of CMD,
# appended to $tmp/TAG.cpu: less disturbed than wall time by a busy
# machine, so the difference of two of them means something.  perf's
# task clock when perf works, else /usr/bin/time (10 ms steps).
cpu_once() {
	local tag=$1

	shift
	if perf stat -x, -e task-clock -o "$tmp/perf" "$@" >/dev/null 2>&1 &&
	   grep -q task-clock "$tmp/perf"; then
		awk -F, '/task-clock/ { printf "%.1f\n", $1 }' "$tmp/perf" >>"$tmp/$tag.cpu"
	else
		/usr/bin/time -f '%U %S' -o "$tmp/perf" "$@" >/dev/null 2>&1
		awk '{ printf "%.1f\n", ($1 + $2) * 1000 }' "$tmp/perf" >>"$tmp/$tag.cpu"
	fi
}
cpu_median() { median <"$tmp/$1.cpu"; }

# bench CASE INPUT# bench CASE INPUT: pieces of INPUT, cat vs merge (vs the metadata-only
# merge); sets ratio_, rss_, data_.
bench() {
	local name=$1 input=$2 bytes i have_meta=1

	rm -f "$tmp"/p.* "$tmp"/m.* "$tmp"/*.times "$tmp"/*.rss "$tmp"/*.cpu
	cut_pieces "$input" "$tmp/p"
	bytes=$(cat "$tmp"/p.* | wc -c)
	echo "$name: $(ls "$tmp"/p.* | wc -l) pieces ($how), $bytes bytes"
	meta_pieces || have_meta=0
	# warm-up, then alternate
	cat "$tmp"/p.* >"$tmp/cat.out"
	"$tb" merge -q -o "$tmp/merged.dat" "$tmp"/p.*
	for i in $(seq "$runs"); do
		once cat sh -c "cat '$tmp'/p.* >'$tmp/cat.out'"
		once merge "$tb" merge -q -o "$tmp/merged.dat" "$tmp"/p.*
		[ $have_meta = 1 ] || continue
		once meta "$tb" merge -q -o "$tmp/meta.dat" "$tmp"/m.*
		cpu_once cat sh -c "cat '$tmp'/p.* >'$tmp/cat.out'"
		cpu_once merge "$tb" merge -q -o "$tmp/merged.dat" "$tmp"/p.*
		cpu_once meta "$tb" merge -q -o "$tmp/meta.dat" "$tmp"/m.*
	done
	rm -f "$tmp/cat.out" "$tmp/meta.dat"
	stats cat; cat_s=$secs
	stats merge; merge_s=$secs
	ratio_=$(ratio "$merge_s" "$cat_s")
	rss_=$rss
	printf '  %-8s %8s s\n' cat "$cat_s"
	printf '  %-8s %8s s %8s MiB peak RSS\n' merge "$merge_s" "$(mib "$rss")"
	printf '  %-8s %8sx\n' ratio "$ratio_"
	data_=-
	if [ $have_meta = 1 ]; then
		stats meta
		printf '  %-8s %8s s (merge of the pieces'"'"' metadata alone)\n' meta "$secs"
		printf '  %-8s %8s s = merge - meta (wall: noisy on a busy machine)\n' data \
			"$(awk -v a="$merge_s" -v b="$secs" 'BEGIN { printf "%.3f", a - b }')"
		cc=$(cpu_median cat) cm=$(cpu_median merge) ct=$(cpu_median meta)
		data_=$(awk -v a="$cm" -v b="$ct" -v c="$cc" \
			'BEGIN { printf "%.3f", (a - b) / c }')
		printf '  %-8s cat %s ms, merge %s ms, meta %s ms: trace data %s ms = %sx cat\n' \
			"cpu" "$cc" "$cm" "$ct" \
			"$(awk -v a="$cm" -v b="$ct" 'BEGIN { printf "%.1f", a - b }')" "$data_"
	fi
	{ "$tb" merge -q -v -o "$tmp/merged.dat" "$tmp"/p.* 2>&1 || true; } |
		sed 's/^tdat merge: /  how:     /'
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
echo "tdat: $tb"
echo

bench "v6 pieces -> v6" "$in"
r6=$ratio_ rss6=$rss_ d6=$data_
if [ "${CHECK:-1}" != 0 ] && [ "$(head -c 11 "$in" | tail -c 1)" = 6 ]; then
	if cmp -s "$tmp/merged.dat" "$in"; then
		echo "  check: merged file is byte for byte the input"
	else
		echo "  check: merged file DIFFERS from the input"
		exit 1
	fi
fi
check "$in"

if [ "${ZSTD:-1}" = 1 ]; then
	echo
	if [ -z "$zin" ]; then
		"$tb" convert -q -i "$in" -o "$tmp/in7.dat"
		zin=$tmp/in7.dat
	fi
	bench "v7 zstd pieces -> v7 zstd ($zin)" "$zin"
	r7=$ratio_ rss7=$rss_ d7=$data_
	check "$zin"
	rm -f "$tmp/in7.dat"
fi

echo
echo "targets (issue 4):"
target "merge / cat time ratio (v6)" "$r6" 2
echo "       (v6 trace-data part alone: ${d6}x cat, CPU time)"
if [ "${ZSTD:-1}" = 1 ]; then
	target "merge / cat time ratio (v7 zstd)" "$r7" 2
	echo "       (v7 zstd trace-data part alone: ${d7}x cat, CPU time)"
fi
target "merge peak RSS (MiB)" "$(mib "$rss6")" 64
[ "${ZSTD:-1}" = 1 ] && target "merge peak RSS, v7 (MiB)" "$(mib "$rss7")" 64

# windows FILE PREFIX PCT: FILE cut by tdat split into $npieces equal
# time windows as PREFIX.0001..., each but the first reaching PCT% of a
# window back into the one before.
windows() {
	local t0 t1 i s e

	read -r t0 t1 < <("$tb" report --first-event --last-event -i "$1" |
		awk -F'\t' '/First event:/ { sub(/.*:/, "", $2); sub(/.*:/, "", $3)
			if (a == "" || $2 + 0 < a + 0) a = $2; if ($3 + 0 > b + 0) b = $3 }
			END { print a, b }')
	rm -f "$2".*
	for i in $(seq 0 $((npieces - 1))); do
		s=$(awk -v t0="$t0" -v t1="$t1" -v n="$npieces" -v i="$i" -v p="$3" \
			'BEGIN { w = (t1 - t0) / n; printf "%.6f", i ? t0 + (i - p / 100) * w : 0 }')
		e=$(awk -v t0="$t0" -v t1="$t1" -v n="$npieces" -v i="$i" \
			'BEGIN { printf "%.6f", t0 + (i + 1) * (t1 - t0) / n }')
		[ "$i" != $((npieces - 1)) ] || e=
		"$tb" split -q -i "$1" -o "$2.$(printf %04d $((i + 1)))" "$s" ${e:+"$e"}
	done
}

# The overlapping case: cat vs the merge (by tb, and by TDAT2 when set,
# alternately) of $in cut into overlapping windows.
if [ "${OVERLAP:-30}" != 0 ]; then
	pct=${OVERLAP:-30} tb2=${TDAT2:-} tags=ovl
	if [ -n "$tb2" ]; then
		[ -x "$tb2" ] || { echo "merge.sh: TDAT2 $tb2 is not executable" >&2; exit 2; }
		tags="ovl ovl2"
	fi
	bin() { if [ "$1" = ovl ]; then echo "$tb"; else echo "$tb2"; fi; }
	echo
	rm -f "$tmp"/p.* "$tmp"/m.* "$tmp"/*.times "$tmp"/*.rss "$tmp"/*.cpu "$tmp/merged.dat"
	windows "$in" "$tmp/o" "$pct"
	bytes=$(cat "$tmp"/o.* | wc -c)
	echo "v6 overlapping pieces -> v6: $npieces pieces (tdat split of equal time" \
	     "windows, each reaching back ${pct}% of a window), $bytes bytes" \
	     "($(ratio "$bytes" "$(wc -c <"$in")")x the input)"
	# warm-up, then alternate
	cat "$tmp"/o.* >"$tmp/cat.out"
	for t in $tags; do "$(bin "$t")" merge -q -o "$tmp/$t.dat" "$tmp"/o.*; done
	for i in $(seq "$runs"); do
		once ocat sh -c "cat '$tmp'/o.* >'$tmp/cat.out'"
		for t in $tags; do
			once "$t" "$(bin "$t")" merge -q -o "$tmp/$t.dat" "$tmp"/o.*
		done
		for t in $tags; do
			cpu_once "$t" "$(bin "$t")" merge -q -o "$tmp/$t.dat" "$tmp"/o.*
		done
	done
	rm -f "$tmp/cat.out"
	stats ocat; cat_s=$secs
	printf '  %-8s %8s s\n' cat "$cat_s"
	for t in $tags; do
		stats "$t"
		printf '  %-8s %8s s %8s s CPU %8s MiB peak RSS  (%s)\n' \
			"merge${t#ovl}" "$secs" "$(awk -v c="$(cpu_median "$t")" \
			'BEGIN { printf "%.3f", c / 1000 }')" "$(mib "$rss")" "$(bin "$t")"
	done
	stats ovl; merge_s=$secs
	printf '  %-8s %8sx\n' ratio "$(ratio "$merge_s" "$cat_s")"
	if [ -n "$tb2" ]; then
		stats ovl2
		printf '  %-8s %8sx wall %8sx CPU (merge2 / merge)\n' ratio2 \
			"$(ratio "$secs" "$merge_s")" \
			"$(ratio "$(cpu_median ovl2)" "$(cpu_median ovl)")"
	fi
	for t in $tags; do
		{ "$(bin "$t")" merge -v -o "$tmp/$t.dat" "$tmp"/o.* 2>&1 || true; } |
			sed "s/^tdat merge: /  $(printf %-9s "how${t#ovl}:")/"
	done
	if [ "${CHECK:-1}" != 0 ]; then
		if [ -n "$tb2" ]; then
			if cmp -s "$tmp/ovl.dat" "$tmp/ovl2.dat"; then
				echo "  check: merge2's output is byte for byte merge's"
			else
				echo "  check: merge2's output DIFFERS from merge's"
				exit 1
			fi
		fi
		windows "$in" "$tmp/q" 0
		"$tb" merge -q -o "$tmp/q.dat" "$tmp"/q.*
		if cmp -s "$tmp/ovl.dat" "$tmp/q.dat"; then
			echo "  check: merged file is byte for byte the merge of the windows without overlap"
		else
			echo "  check: merged file DIFFERS from the merge of the windows without overlap"
			exit 1
		fi
		rm -f "$tmp"/q.* "$tmp/ovl2.dat"
		mv "$tmp/ovl.dat" "$tmp/merged.dat"
		check "$in"
	fi
fi
exit 0

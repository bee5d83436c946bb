# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2154,SC2034 # tb, root, runs: set by the caller; secs, rss: read by it
# lib.sh: what the benchmarks share (convert, split, merge, report,
# parquet).  Sourced,
# not run.  The caller sets tb (the tdat binary) and runs (how many
# timed runs), then calls bench_setup NAME, which sets tmp.

# bench_setup NAME: checks tb and the tools, makes $tmp (in memory, on
# tmpfs, when there is one: disk write-back would drown the difference
# between the tools), removed on exit.
bench_setup() {
	[ -x "$tb" ] || { echo "$1.sh: $tb missing (make)" >&2; exit 2; }
	command -v trace-cmd >/dev/null && [ -x /usr/bin/time ] ||
		"$root/scripts/install-deps"
	[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
		TMPDIR=/dev/shm
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-$1.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
}

# Version digit and codec name of a trace.dat (from its first bytes).
version() { head -c 11 "$1" | tail -c 1; }
codec() { head -c 24 "$1" | tail -c +19 | tr -d '\0' | head -c 4; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# once TAG CMD...: one timed run of CMD; appends its wall time (us) to
# $tmp/TAG.times and its peak RSS (KiB) to $tmp/TAG.rss.
once() {
	local tag=$1 t0 t1

	shift
	t0=$(date +%s%N)
	/usr/bin/time -f %M -a -o "$tmp/$tag.rss" "$@" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000)) >>"$tmp/$tag.times"
}

# stats TAG: secs (median wall seconds) and rss (largest peak, KiB).
stats() {
	secs=$(median <"$tmp/$1.times" | awk '{ printf "%.3f", $1 / 1e6 }')
	rss=$(sort -n "$tmp/$1.rss" | tail -n 1)
}

# pair: runs the commands in $A_CMD and $B_CMD alternately, RUNS times
# each after one warm-up of each, so that a slow spell of the machine
# hits both tools alike.  $PAIR_PREP, if set, is evaluated before each
# of them (e.g. to empty an output directory).
pair() {
	local i

	rm -f "$tmp"/a.* "$tmp"/b.*
	for i in $(seq 0 "$runs"); do
		eval "${PAIR_PREP:-}"
		if [ "$i" = 0 ]; then
			eval "set -- $A_CMD"; "$@" >/dev/null 2>&1 || true
			eval "set -- $B_CMD"; "$@" >/dev/null 2>&1 || true
			continue
		fi
		eval "set -- $A_CMD"; once a "$@"
		eval "set -- $B_CMD"; once b "$@"
	done
}

# target WHAT VALUE LIMIT: one line, ok when VALUE <= LIMIT.
target() {
	local verdict=MISS

	awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }' && verdict=ok
	printf '  %-4s %-34s %8s (target <= %s)\n' "$verdict" "$1" "$2" "$3"
}

# cpu_once TAG CMD...: one timed run of CMD, output to /dev/null; appends
# its wall time (us) to $tmp/TAG.wall, its CPU time (user + system, s)
# to $tmp/TAG.cpu and its peak RSS (KiB) to $tmp/TAG.rss.
cpu_once() {
	local tag=$1 t0 t1

	shift
	t0=$(date +%s%N)
	/usr/bin/time -f '%U %S %M' -o "$tmp/res" "$@" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000)) >>"$tmp/$tag.wall"
	awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/res" >>"$tmp/$tag.cpu"
	awk '{ print $3 }' "$tmp/res" >>"$tmp/$tag.rss"
}

# cpu_stats TAG: wall and cpu (median seconds), rss (largest peak, KiB).
cpu_stats() {
	wall=$(median <"$tmp/$1.wall" | awk '{ printf "%.3f", $1 / 1e6 }')
	cpu=$(median <"$tmp/$1.cpu" | awk '{ printf "%.2f", $1 }')
	rss=$(sort -n "$tmp/$1.rss" | tail -n 1)
}

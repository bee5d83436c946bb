#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report's compiled print fmts (convert/fastfmt) print byte for byte what
# libtraceevent prints: every recording of fixtures/ (external, tc291,
# cut and restored ones too) and big-endian and 4-byte-long variants of
# the fixtures (mkvariant), under the option sets that change the lines,
# with worker threads and without, reported with the compiled path on
# and off (TDAT_NO_FASTFMT=1: every event through libtraceevent); same
# stdout, stderr and exit status.  Where trace-cmd's own output is stored
# (.report.txt), the compiled path's output is that.
. "$E2E/lib.sh"

TOOLS=$(dirname "$TDAT")/tools

# both ARGS...: report ARGS with the compiled path on and off.  On a
# 32-bit host (make check-cross, armhf) libtraceevent cuts %ld, %zu and
# %p to its own 32 bits where the compiled path keeps x86_64's text:
# there the reference is this x86_64 host's tdat (TDAT_HOST_TDAT).
both() {
	local rc1=0 rc2=0

	"$TDAT" report "$@" >fast.out 2>fast.err </dev/null || rc1=$?
	if [ "${TDAT_HOST_32BIT:-}" = 1 ] && [ -n "${TDAT_HOST_TDAT:-}" ]; then
		"$TDAT_HOST_TDAT" report "$@" >slow.out 2>slow.err \
			</dev/null || rc2=$?
	else
		TDAT_NO_FASTFMT=1 "$TDAT" report "$@" >slow.out 2>slow.err \
			</dev/null || rc2=$?
	fi
	assert_eq "$rc2" "$rc1" "exit status of report $*"
	assert_same slow.out fast.out
	assert_same slow.err fast.err
}

files=$(ls "$FIX"/*.dat "$FIX"/external/*.dat "$FIX"/tc291/*.dat \
	"$FIX"/truncated/*.dat "$FIX"/crashed/restored.dat)
step "variants"
for f in v6-sched-irq v7-zstd-markers-raw_syscalls v7-zstd-sched-irq-tc34 \
	v7-zstd-kmem-tc; do
	"$TOOLS/mkvariant" --big-endian "$FIX/$f.dat" "$f.be.dat" ||
		fail "mkvariant --big-endian $f"
	files="$files $PWD/$f.be.dat"
	# A long-4 header over 8-byte fields is made up: where neither
	# path compiles it (sys_enter's 8-byte args), a 32-bit host's
	# libtraceevent prints %lx its own way, so x86_64's text is no
	# reference there.
	[ "${TDAT_HOST_32BIT:-}" = 1 ] && continue
	"$TOOLS/mkvariant" --long4 "$FIX/$f.dat" "$f.l4.dat" ||
		fail "mkvariant --long4 $f"
	files="$files $PWD/$f.l4.dat"
done

# Under the sanitizers (check-asan) two modes and the threaded run do:
# the proof is make check's, this run looks for memory errors.  Under
# qemu-user (make check-cross) the modes that reach the compiled path
# (-R prints fields, -l -t only the line's head): 10x slower there.
modes=("" "-N" "-R" "-l -t")
least=100
short=
if [ "${TDAT_SANITIZED:-}" = 1 ]; then
	modes=("" "-l -t")
	least=50
	short=1
elif [ "${TDAT_CROSS:-}" = 1 ]; then
	modes=("" "-N")
	least=50
	short=1
fi
n=0
for f in $files; do
	step "${f#$FIX/}"
	for opts in "${modes[@]}"; do
		# shellcheck disable=SC2086
		both $opts -i "$f"
		n=$((n + 1))
	done
	[ -n "$short" ] || TDAT_REPORT_THREADS=0 both -i "$f"
	TDAT_REPORT_THREADS=2 both -i "$f"
done
[ "$n" -ge "$least" ] || fail "only $n reports compared"

step "trace-cmd's stored reports"
for ref in "$FIX"/*.dat.report.txt "$FIX"/crashed/restored.dat.report.txt; do
	in=${ref%.report.txt}
	case $in in *zlib*) continue ;; esac	# 3.4's output, latency column
	$TDAT report -i "$in" >out || fail "report exited $?"
	assert_same "$ref" out
done
echo "$n reports identical with the compiled print fmts on and off"

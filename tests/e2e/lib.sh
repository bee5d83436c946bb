# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - helpers for the end-to-end tests; source "$E2E/lib.sh".
#
# tests/e2e/run gives each script TDAT (the tdat binary), FIX (fixtures/),
# E2E (this directory) and a fresh TMPDIR that is also the working
# directory.  A script fails by exiting non-zero (fail does that), and
# skips itself with skip.  TDAT_SANITIZED=1 means the binary was built
# with ASan/UBSan (slower, more memory: loosen time and memory limits).

set -eu

: "${TDAT:?run through tests/e2e/run}" "${FIX:?}" "${TMPDIR:?}"

# Output of the last expect_exit.
OUT=$TMPDIR/.out
ERR=$TMPDIR/.err

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "skipped: $*"
	exit 77
}

# Say what is being checked, so a failure's log shows where it was.
step() {
	echo "--- $*"
}

# assert_eq EXPECTED ACTUAL [WHAT]
assert_eq() {
	[ "$1" = "$2" ] || fail "${3:-value}: expected '$1', got '$2'"
}

assert_file_absent() {
	[ ! -e "$1" ] || fail "$1 exists but should not"
}

# assert_grep PATTERN FILE: an extended regexp matches a line of FILE.
assert_grep() {
	grep -Eq -- "$1" "$2" || {
		sed 's/^/    | /' "$2" | head -n 20 >&2
		fail "no line of $2 matches '$1'"
	}
}

# assert_same FILE1 FILE2: byte-identical.
assert_same() {
	cmp -s -- "$1" "$2" || fail "$1 and $2 differ: $(cmp -- "$1" "$2" 2>&1 | head -n 1)"
}

# assert_lines N FILE: FILE has exactly N lines.
assert_lines() {
	local n

	n=$(wc -l <"$2")
	[ "$n" -eq "$1" ] || {
		sed 's/^/    | /' "$2" | head -n 20 >&2
		fail "$2 has $n lines, expected $1"
	}
}

# expect_exit CODES CMD [ARGS...]: run CMD with stdout in $OUT and stderr
# in $ERR; its exit status must be one of CODES (comma-separated, e.g.
# "0" or "1,2").  A signal or a sanitizer report always fails.
expect_exit() {
	local codes=$1 rc=0

	shift
	"$@" >"$OUT" 2>"$ERR" </dev/null || rc=$?
	if grep -Eq 'Sanitizer|runtime error:' "$ERR"; then
		sed 's/^/    | /' "$ERR" | head -n 40 >&2
		fail "sanitizer report from: $*"
	fi
	case ",$codes," in
	*",$rc,"*) return 0 ;;
	esac
	sed 's/^/    | /' "$ERR" | head -n 20 >&2
	if [ $rc -gt 128 ]; then
		fail "killed by signal $((rc - 128)) (expected exit $codes): $*"
	fi
	fail "exit $rc (expected $codes): $*"
}

# peak_rss_kb CMD [ARGS...]: run CMD (output discarded) and print its
# peak resident memory in KiB; needs /usr/bin/time (package "time").
peak_rss_kb() {
	local f=$TMPDIR/.rss

	[ -x /usr/bin/time ] || fail "/usr/bin/time missing (scripts/install-deps)"
	/usr/bin/time -f %M -o "$f" "$@" >/dev/null 2>&1 </dev/null || true
	tail -n 1 "$f"
}

# address_limit_works: 0 when `ulimit -v` can bound the program under
# test.  Not under the sanitizers (they reserve terabytes of address
# space) nor under qemu-user for a 32-bit host (check-cross: qemu-arm
# reserves the guest's whole 4 GiB at its start).  Peak RSS still can.
address_limit_works() {
	[ "${TDAT_SANITIZED:-}" != 1 ] &&
		! { [ -n "${TDAT_CROSS:-}" ] && [ "${TDAT_HOST_32BIT:-}" = 1 ]; }
}

# fixtures: every top-level fixture trace.dat, one path a line.
fixtures() {
	ls "$FIX"/*.dat
}

# chunk_at FILE K: file offset of the header of CPU 0's chunk K in a v7
# file (first BUFFER option, found by walking the options chain).
chunk_at() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
name_end = d.index(0, 18)
ver_end = d.index(0, name_end + 1)
off = struct.unpack_from('<Q', d, ver_end + 1)[0]
cpu0 = None
while off:
    size = struct.unpack_from('<Q', d, off + 8)[0]
    body, pos, nxt = off + 16, off + 16, 0
    while pos < body + size:
        oid, osz = struct.unpack_from('<HI', d, pos)
        data = pos + 6
        if oid == 0:
            nxt = struct.unpack_from('<Q', d, data)[0]
        elif oid == 3 and cpu0 is None:
            p = d.index(0, data + 8) + 1
            p = d.index(0, p) + 1 + 4
            n = struct.unpack_from('<I', d, p)[0]; p += 4
            for i in range(n):
                cpu, coff, csz = struct.unpack_from('<IQQ', d, p + 20 * i)
                if cpu == 0:
                    cpu0 = coff
        pos = data + osz
    off = nxt
p = cpu0 + 4
for k in range(int(sys.argv[2])):
    p += 8 + struct.unpack_from('<I', d, p)[0]
print(p)
PY
}

# assert_oracle OURS CMD...: the file OURS holds what CMD (trace-cmd,
# or tc34_oracle's command) prints on stdout, as oracle/ask gets it:
# known strays cut, asked until two answers agree.  A difference is asked
# once more, past the answers remembered (TC_REFRESH), before it counts:
# an answer both misread alike may have been remembered.
assert_oracle() {
	local ours=$1 tc=$TMPDIR/.oracle-out

	shift
	"$@" >"$tc" 2>/dev/null || true
	cmp -s "$tc" "$ours" && return 0
	TC_REFRESH=1 "$@" >"$tc" 2>/dev/null || true
	cmp -s "$tc" "$ours" && return 0
	diff "$tc" "$ours" | head -n 10 >&2
	fail "not what $* prints"
}

# tc34_oracle: trace-cmd 3.4, the second oracle (scripts/oracle-tc34:
# Debian sid's packages in a private root, set up on first use), asked
# through oracle/tc34: prints the command to run it, or why it cannot be
# had and returns 1.
tc34_oracle() {
	local why

	if ! why=$("$E2E/../../scripts/oracle-tc34" --setup 2>&1 >/dev/null); then
		echo "trace-cmd 3.4 cannot be set up here: ${why##*oracle-tc34: }"
		return 1
	fi
	echo "$E2E/oracle/tc34"
}

# tc_copy FILE OUT: where trace-cmd cannot read a file, what it is asked
# about instead (a plain copy of any other file).
# gpuvis_amdgpu.dat: gpuvis's patched trace-cmd stored a 1047-byte
# pid/tgid table under option id 8, which trace-cmd takes for CPUCOUNT
# and fails on ("Cannot allocate memory"), as on every output made from
# it (they keep the option's bytes).  tdat says so in one warning line
# and reads the rest; trace-cmd reads a copy whose option 8 has an id it
# skips, every other byte the same.
tc_copy() {
	python3 - "$1" "$2" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = d.find(b'\x08\x00\x17\x04\x00\x0025412 20337\n')  # id 8, 1047 bytes
if i >= 0:
    d[i:i + 2] = b'\xff\x7f'
open(sys.argv[2], 'wb').write(d)
PY
}

# assert_tc_report OURS ARGS...: OURS holds `trace-cmd report ARGS`.
assert_tc_report() {
	local ours=$1

	shift
	assert_oracle "$ours" trace-cmd report "$@"
}

# tracefs_for_record: what every recording test needs first: root, a
# tracefs (mounted if need be) in $T with raw per-CPU pipes, the oracle
# trace-cmd, and the lock that keeps recorders off the top buffer one at
# a time (bench/record.sh takes it too).  Skips when one is missing.
tracefs_for_record() {
	[ "$(id -u)" = 0 ] || skip "record needs root"
	T=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	if [ -z "$T" ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
			skip "tracefs is not mounted and cannot be mounted here"
		T=/sys/kernel/tracing
	fi
	[ -e "$T/per_cpu/cpu0/trace_pipe_raw" ] ||
		skip "$T has no per_cpu/cpu0/trace_pipe_raw"
	command -v trace-cmd >/dev/null ||
		skip "trace-cmd (the oracle) is not installed"
	exec 9>/tmp/tdat-tracefs.lock
	flock -w 300 9 || fail "tracefs lock held for 5 minutes"
}

# need_parquet_readers: the two independent Parquet readers the Parquet
# tests check datasets with (DuckDB and hyparquet, tests/tools/parquet/),
# installed once with `npm ci` from the committed lockfile into
# build-npm/parquet/ at the top of the tree (ignored), and again only
# when package.json or the lockfile change (a stamp holds their hash).
# Sets PQ (tests/tools/parquet: run `node "$PQ/pqcheck.mjs" ...`) and
# exports TDAT_PARQUET_READERS (where the scripts find the packages).
# Skips only when the npm registry cannot be reached; any other npm
# failure fails.
need_parquet_readers() {
	local root dir want log rc=0

	root=$(cd "$E2E/../.." && pwd)
	PQ=$root/tests/tools/parquet
	dir=$root/build-npm/parquet
	command -v node >/dev/null && command -v npm >/dev/null ||
		fail "node and npm are missing (Node.js 20; Debian: apt-get install nodejs npm)"
	want=$(cat "$PQ/package.json" "$PQ/package-lock.json" | sha256sum | cut -d' ' -f1)
	mkdir -p "$root/build-npm"
	# one installer at a time (scripts, or two test runs, at once)
	exec 8>"$root/build-npm/.lock"
	flock -w 600 8 || fail "build-npm/.lock held for 10 minutes"
	if [ "$(cat "$dir/.stamp" 2>/dev/null)" != "$want" ]; then
		log=$TMPDIR/.npm-ci.log
		rm -rf "$dir.new"
		mkdir -p "$dir.new"
		cp "$PQ/package.json" "$PQ/package-lock.json" "$dir.new/"
		echo "installing the Parquet readers into $dir (npm ci)"
		(cd "$dir.new" && npm ci --prefer-offline --no-audit --no-fund \
			--fetch-retries=1 --loglevel=error) >"$log" 2>&1 || rc=$?
		if [ $rc -ne 0 ]; then
			rm -rf "$dir.new"
			exec 8>&-
			sed 's/^/    | /' "$log" | tail -n 20 >&2
			# npm's codes for a registry it cannot reach (DNS, refused,
			# reset, timeout, no route, proxy) against everything else
			grep -Eq 'code (ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENETDOWN|ERR_SOCKET_TIMEOUT|ECONNABORTED|EPROTO)|(npm (ERR!|error) network)' "$log" &&
				skip "the npm registry cannot be reached: npm ci of the Parquet readers (DuckDB, hyparquet) failed as shown above"
			fail "npm ci of tests/tools/parquet failed (exit $rc), see above"
		fi
		echo "$want" >"$dir.new/.stamp"
		rm -rf "$dir"
		mv "$dir.new" "$dir"
	fi
	exec 8>&-
	export TDAT_PARQUET_READERS=$dir
}

# proc_state PID: its state, one letter: R, S, T (stopped), Z (ended,
# not reaped)...; nothing once it is gone.
proc_state() {
	sed 's/.*) //; s/ .*//' /proc/$1/stat 2>/dev/null
}

# spawn CMD...: start CMD in the background, SIGINT at its default action
# (a background job starts with it ignored), stderr in $TMPDIR/.spawn-err;
# $pid gets its PID.
spawn() {
	if env --default-signal=INT true 2>/dev/null; then
		env --default-signal=INT "$@" >/dev/null 2>"$TMPDIR/.spawn-err" </dev/null &
	else
		python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@" >/dev/null 2>"$TMPDIR/.spawn-err" </dev/null &
	fi
	pid=$!
}

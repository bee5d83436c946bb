# SPDX-License-Identifier: GPL-2.0-or-later
# 17-demo: scripts/demo (make demo) shows the main job with tdat's own
# tools only: it passes with every trace-cmd on PATH replaced by one that
# fails and leaves a mark, and it says what it checked.
. "$E2E/lib.sh"
root=$(cd "$E2E/../.." && pwd)

mkdir bin
cat >bin/trace-cmd <<'SH'
#!/bin/sh
touch "$(dirname "$0")/../trace-cmd-was-called"
exit 99
SH
chmod +x bin/trace-cmd
cp bin/trace-cmd bin/tc34
expect_exit 0 env PATH="$PWD/bin:$PATH" "$root/scripts/demo" "$(dirname "$TDAT")"
assert_file_absent trace-cmd-was-called
assert_grep '^\$ tdat dump --summary -i .*v6-sched-irq.dat$' "$OUT"
assert_grep '^identical: tdat report prints the same [0-9]+ lines for both$' "$OUT"
assert_grep 'is a valid trace-cmd file$' "$OUT"
assert_grep '^identical: v6 -> v7 zstd -> v6 gave back the original bytes$' "$OUT"
! grep -q 'trace-cmd report\|trace-cmd dump' "$OUT" || fail "the demo shows trace-cmd"

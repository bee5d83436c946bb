# SPDX-License-Identifier: GPL-2.0-or-later
# 16-progress: the progress line of convert, merge, split, restore,
# dump --validate and report to a file (issue 14, point 4).  On a terminal (a pseudo-terminal made by script(1)) a job
# draws "\rtdat APPLET:  42%, about 12 s left" and erases it at the end;
# with -q, with stderr not a terminal, or for a job shorter than a second
# (TDAT_PROGRESS_DELAY_MS, 0 here so that small fixtures draw) nothing.
. "$E2E/lib.sh"

command -v script >/dev/null || skip "script(1) is missing (bsdutils)"
v6=$FIX/v6-sched-irq.dat
v7=$FIX/v7-zstd-sched-irq.dat

# on_tty FILE CMD...: run CMD with stdin/stdout/stderr on a new pty,
# everything it wrote in FILE.
on_tty() {
	local file=$1
	shift
	script -qec "$*" /dev/null </dev/null >"$file" 2>&1 ||
		fail "$*: exit $? on a pty: $(cat -v "$file" | head -c 300)"
}

# drawn FILE APPLET: a progress line was drawn, then erased.
drawn() {
	grep -aq $'\r'"tdat $2: *[0-9]*%" "$1" ||
		fail "$2: no progress line: $(cat -v "$1" | head -c 300)"
	[ "$(tail -c 4 "$1" | od -An -c | tr -d ' ')" = '\r033[K' ] ||
		fail "$2: the line is not erased at the end: $(cat -v "$1" | tail -c 100)"
}

export TDAT_PROGRESS_DELAY_MS=0
step "convert, merge and split draw it on a terminal"
on_tty conv.tty "$TDAT" convert -i "$v6" -o c.dat
drawn conv.tty convert
[ -s c.dat ] || fail "convert wrote nothing"
on_tty merge.tty "$TDAT" merge -o m.dat "$v7" "$FIX/v7-zstd-markers-raw_syscalls.dat"
drawn merge.tty merge
on_tty split.tty "$TDAT" split -i "$v7" -o p -r -e 100
drawn split.tty split
[ -s p.0001 ] || fail "split wrote nothing"

step "restore draws it, and erases it before what it says at the end"
on_tty rest.tty "$TDAT" restore -o r.dat "$v6"
grep -aq $'\r''tdat restore: *[0-9]*%' rest.tty || fail "restore: no line: $(cat -v rest.tty)"
grep -aq $'\r\033\[Ktdat restore: r.dat: kept' rest.tty ||
	fail "restore: the line is not erased first: $(cat -v rest.tty)"

step "dump --validate draws it, and erases it before its verdict"
on_tty dump.tty "$TDAT" dump -v -i "$FIX/v7-zstd-markers-raw_syscalls.dat"
grep -aq $'\r''tdat dump: *[0-9]*%' dump.tty || fail "dump -v: no line: $(cat -v dump.tty)"
grep -aq $'\r\033\[KFile .* is a valid trace-cmd file' dump.tty ||
	fail "dump -v: the line is not erased first: $(cat -v dump.tty)"

step "report to a file draws it; report to the terminal does not"
big=$FIX/v7-zstd-markers-raw_syscalls.dat	# 29510 events
on_tty rep.tty "$TDAT" report -i "$big" ">rep.txt"
drawn rep.tty report
"$TDAT" report -i "$big" >want.txt
assert_same want.txt rep.txt
on_tty term.tty "$TDAT" report -i "$big"
! grep -aq $'\r''tdat report' term.tty || fail "report drew over its own lines"

step "-q: no line"
on_tty q.tty "$TDAT" convert -q -i "$v6" -o q.dat
! grep -aq '%' q.tty || fail "convert -q drew: $(cat -v q.tty)"
on_tty q.tty "$TDAT" split -q -i "$v7" -o q -r -e 100
! grep -aq '%' q.tty || fail "split -q drew: $(cat -v q.tty)"

step "stderr not a terminal: no line"
"$TDAT" convert -i "$v6" -o n.dat 2>err.txt
[ ! -s err.txt ] || fail "convert wrote to a file's stderr: $(cat -v err.txt)"
"$TDAT" split -i "$v7" -o n -r -e 100 2>err.txt
[ ! -s err.txt ] || fail "split wrote to a file's stderr: $(cat -v err.txt)"

step "a job shorter than a second: no line"
unset TDAT_PROGRESS_DELAY_MS
on_tty short.tty "$TDAT" convert -i "$v6" -o s.dat
! grep -aq '%' short.tty || fail "a short convert drew: $(cat -v short.tty)"

# SPDX-License-Identifier: GPL-2.0-or-later
# compare.sh: judging the VM's recordings out here (sourced by
# tests/vm/run, after cases.sh).

# verdict WORD NAME RECORDER WHY: one result line, counted.
verdict() {
	case $1 in
	PASS) pass=$((pass + 1)) ;;
	FAIL) fail=$((fail + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	esac
	printf '%s %-14s %-9s %s\n' "$1" "$2" "$3" "$4"
}

# Report option sets compared for every recording: the plain listing,
# latency format, raw fields, no plugins, time differences.
REPORT_OPTS=("" "-l" "-R" "-N" "--ts-diff")

# The oracles as the e2e tests ask them (tests/e2e/oracle/ask: known
# strays cut, each question asked until two answers agree): trace-cmd
# 3.1.6 first in PATH, and trace-cmd 3.4 (scripts/oracle-tc34: set up on
# first use from Debian's packages; TC34 empty when it cannot be had).
ORACLES=$(cd "$(dirname "${BASH_SOURCE[0]}")/../e2e/oracle" && pwd)
case :$PATH: in
*":$ORACLES:"*) ;;
*) PATH=$ORACLES:$PATH ;;
esac
TC34=$ORACLES/tc34
"$ORACLES/../../../scripts/oracle-tc34" --setup >/dev/null 2>&1 || TC34=

# same_as_34 DAT TDAT OPTS: a function_graph recording whose listing
# trace-cmd 3.1.6 prints in an order of its own.  When a task moves to
# another CPU inside a traced call, 3.1.6 joins the call's entry on one
# CPU to its exit on the other, and what it prints next depends on its
# allocator's freed memory (under emulation such moves are common).  3.4
# never joins across CPUs: tdat's --layout 3.4 must print what it does.
same_as_34() {
	local o=${1%.dat}.report-34

	[ -n "$TC34" ] && grep -q 'funcgraph_entry' "${1%.dat}.report-tc.txt" ||
		return 1
	"$TC34" report $3 "$1" >"$o-tc.txt" 2>/dev/null &&
		"$2" report --layout 3.4 $3 -i "$1" >"$o-tdat.txt" 2>/dev/null &&
		cmp -s "$o-tc.txt" "$o-tdat.txt"
}

# same_report DAT TDAT: tdat report prints what trace-cmd report prints,
# with every option set; DAT.report-{tc,tdat}.txt hold the plain ones.
# On a difference, say which set and keep DAT.diff (a function_graph
# listing may pass on 3.4's instead: same_as_34, named in DAT.note).
same_report() {
	local o tc=${1%.dat}.report-tc.txt ours=${1%.dat}.report-tdat.txt

	rm -f "${1%.dat}.note"
	for o in "${REPORT_OPTS[@]}"; do
		trace-cmd report $o "$1" >"$tc" 2>/dev/null
		"$2" report $o -i "$1" >"$ours" 2>"${1%.dat}.report-tdat.err"
		if ! cmp -s "$tc" "$ours"; then
			diff "$tc" "$ours" >"${1%.dat}.diff"
			if same_as_34 "$1" "$2" "$o"; then
				echo "report${o:+ $o}" >>"${1%.dat}.note"
				continue
			fi
			echo "report${o:+ $o}"
			return 1
		fi
	done
	# Leave the plain listings for the checks that follow.
	trace-cmd report "$1" >"$tc" 2>/dev/null
	"$2" report -i "$1" >"$ours" 2>/dev/null
}

# compare_one NAME RECORDER WANT UNWANTED TDAT RESULTS OPTIONS: one
# recording.
compare_one() {
	local b=$6/$1.$2 who=trace-cmd rc secs how

	[ "$2" = tdat ] && who=tdat
	rc=$(cat "$b.rc" 2>/dev/null) || { verdict FAIL "$1" "$who" "not run"; return; }
	if [ "$rc" = no-tracer ]; then
		verdict SKIP "$1" "$who" "the kernel does not offer tracer $(tracer_of "$7")"
		return
	fi
	if [ "$2" = tdat ] && [ "$rc" = 2 ]; then
		verdict SKIP "$1" "$who" "not yet supported by tdat record: $(head -n 1 "$b.log")"
		return
	fi
	secs="$(($(cat "$b.cs") / 100)).$(($(cat "$b.cs") / 10 % 10)) s"
	if [ "$rc" != 0 ]; then
		verdict FAIL "$1" "$who" "record exited $rc: $(tail -n 1 "$b.log")"
	elif ! how=$(same_report "$b.dat" "$5"); then
		verdict FAIL "$1" "$who" "tdat $how differs from trace-cmd's ($b.diff):"
		head -n 10 "$b.diff"
	elif [ -n "$3" ] && ! grep -q -E -- "$3" "$b.report-tc.txt"; then
		verdict FAIL "$1" "$who" "the report has no line matching /$3/"
	elif [ -n "$4" ] && grep -q -E -- "$4" "$b.report-tc.txt"; then
		verdict FAIL "$1" "$who" "the report has a line matching /$4/: $(grep -m 1 -E -- "$4" "$b.report-tc.txt")"
	elif [ "$2" = tdat ] && ! cmp -s "$b.before" "$b.after"; then
		verdict FAIL "$1" "$who" "tracefs not put back: $(diff "$b.before" "$b.after" | grep '^[<>]' | head -n 2 | tr '\n' ' ')"
	elif [ -s "$b.note" ]; then
		verdict PASS "$1" "$who" "recorded in $secs; $(tr '\n' ',' <"$b.note" | sed 's/,$//') as trace-cmd 3.4's (3.1.6 joins a call across CPUs)"
	else
		verdict PASS "$1" "$who" "recorded in $secs; $(($(wc -l <"$b.report-tc.txt") - 1)) report lines alike"
	fi
}

# compare_all CASES TDAT RESULTS: every recording; the summary line.
compare_all() {
	local name opts want unwanted topts pass=0 fail=0 skip=0

	while IFS='|' read -r name opts want unwanted topts; do
		compare_one "$name" tc "$want" "$unwanted" "$2" "$3" "$opts"
		compare_one "$name" tdat "$want" "$unwanted" "$2" "$3" "$topts"
	done < <(case_lines "$1")
	echo "check-vm: $pass passed, $fail failed, $skip skipped"
	[ "$fail" = 0 ]
}

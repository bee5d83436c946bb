# SPDX-License-Identifier: GPL-2.0-or-later
# cases.sh: reading tests/vm/cases (sourced by tests/vm/run).

# case_lines FILE: each case as NAME|OPTIONS|WANT|UNWANTED|TDAT_OPTIONS,
# fields trimmed, TDAT_OPTIONS filled in; comments and blanks dropped.
case_lines() {
	local name opts want unwanted topts

	while IFS='|' read -r name opts want unwanted topts; do
		name=$(trim "$name")
		case $name in '' | '#'*) continue ;; esac
		opts=$(trim "$opts")
		topts=$(trim "$topts")
		printf '%s|%s|%s|%s|%s\n' "$name" "$opts" "$(trim "$want")" \
			"$(trim "$unwanted")" "${topts:-$opts}"
	done <"$1"
}

trim() {
	local s=$1

	s=${s#"${s%%[![:space:]]*}"}
	echo "${s%"${s##*[![:space:]]}"}"
}

# tracer_of OPTIONS: the tracer -p names, or nothing.
tracer_of() {
	local prev="" w

	for w in $1; do
		[ "$prev" = -p ] && { echo "$w"; return; }
		prev=$w
	done
}

# vm_cases FILE: the lines tests/vm/init reads, NAME|RECORDER|TRACER|OPTIONS,
# trace-cmd's run of each case then tdat's.
vm_cases() {
	local name opts want unwanted topts

	case_lines "$1" | while IFS='|' read -r name opts want unwanted topts; do
		echo "$name|tc|$(tracer_of "$opts")|$opts"
		echo "$name|tdat|$(tracer_of "$topts")|$topts"
	done
}

# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for tdat and its applets: `tdat APPLET --<TAB>`, the
# applet names, and file names (trace.dat files first where a trace.dat
# is asked for).  The options are read from the applets' own --help, so
# they never drift from the binary.  Installed as
# share/bash-completion/completions/tdat; the applet links (libexec/tdat/)
# complete the same once that directory is on PATH.

# The applets, from "tdat --help".
_tdat_applets()
{
	"$1" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p'
}

# Every -x and --long option of an applet's --help.
_tdat_options()
{
	"$1" "$2" --help 2>/dev/null |
		grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z0-9-]*' |
		sed 's/^[ ,]*//' | sort -u
}

# Complete word cur for applet (run as "bin applet"), prev the word before.
_tdat_applet_words()
{
	local bin=$1 applet=$2 cur=$3 prev=$4

	case $prev in
	-i|-o|--input|--output)
		COMPREPLY=($(compgen -f -X '!*.dat*' -- "$cur") $(compgen -d -- "$cur"))
		[ ${#COMPREPLY[@]} -gt 0 ] || COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--compression)
		COMPREPLY=($(compgen -W 'none zlib zstd any' -- "$cur"))
		return ;;
	--file-version)
		COMPREPLY=($(compgen -W '6 7' -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_tdat_options "$bin" "$applet")" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

_tdat()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local bin=${COMP_WORDS[0]}

	compopt -o filenames 2>/dev/null
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$(_tdat_applets "$bin") --help --version" -- "$cur"))
		return
	fi
	_tdat_applet_words "$bin" "${COMP_WORDS[1]}" "$cur" "$prev"
}

# An applet link: "report -i <TAB>" is "tdat report -i <TAB>".
_tdat_link()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local bin

	bin=$(type -P "${COMP_WORDS[0]}")
	compopt -o filenames 2>/dev/null
	_tdat_applet_words "$bin" "$(basename "${COMP_WORDS[0]}")" "$cur" "$prev"
}

complete -F _tdat tdat
# The applet names only where they are tdat's links, not another
# program of that name (coreutils' split).
_tdat_register_links()
{
	local tdat a path

	tdat=$(type -P tdat) || return
	tdat=$(readlink -f "$tdat")
	for a in $(_tdat_applets "$tdat"); do
		path=$(type -P "$a") || continue
		[ "$(readlink -f "$path")" = "$tdat" ] && complete -F _tdat_link "$a"
	done
}
_tdat_register_links

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# convert: every fixture to every version x codec and back.
#  - Debian's trace-cmd reports every output exactly as it reports the input
#    (it cannot read zlib: those outputs are converted back and checked);
#  - (a) v6 -> v6 is byte-identical;
#  - (b) v6 -> v7 (each codec) -> v6 gives the original bytes back;
#  - (c) v7 -> v6 -> v7 keeps every section's and option's content
#    (tdat-digest prints it, independent of layout and codec).
. "$E2E/lib.sh"
TOOLS=$(dirname "$TDAT")/tools
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed"

# report_of FILE OUT: Debian trace-cmd's report, which must succeed.
report_of() {
	trace-cmd report -i "$1" >"$2" 2>"$2.err" ||
		fail "trace-cmd report -i $1 failed: $(head -n 3 "$2.err")"
}

# digest_body FILE: content digest without the version/codec line.
digest_body() {
	"$TOOLS/tdat-digest" "$1" | sed 1d
}

targets="6:none 7:none 7:zstd 7:zlib"

for in in "$FIX"/*.dat; do
	name=$(basename "$in" .dat)
	step "$name"
	ref=$TMPDIR/$name.ref
	case $name in
	*zlib*)	# trace-cmd 3.1.6 cannot read zlib: its v6 twin is the reference
		$TDAT convert -i "$in" -o "$TMPDIR/$name.refv6" --file-version 6 ||
			fail "$name: convert to v6"
		report_of "$TMPDIR/$name.refv6" "$ref" ;;
	*)	report_of "$in" "$ref"
		assert_same "$FIX/$name.dat.report.txt" "$ref" ;;
	esac
	digest_body "$in" >"$TMPDIR/$name.digest"
	for t in $targets; do
		v=${t%%:*} c=${t#*:}
		out=$TMPDIR/$name.v$v-$c.dat
		$TDAT convert -i "$in" -o "$out" --file-version "$v" \
			--compression "$c" || fail "$name -> v$v $c: exit $?"
		digest_body "$out" >"$out.digest"
		assert_same "$TMPDIR/$name.digest" "$out.digest"
		back=$out
		if [ "$c" = zlib ]; then
			back=$out.zstd
			$TDAT convert -i "$out" -o "$back" --compression zstd ||
				fail "$name: zlib -> zstd"
		fi
		report_of "$back" "$out.report"
		assert_same "$ref" "$out.report"
		# back to the input's version
		case $name in v6-*)
			$TDAT convert -i "$out" -o "$out.v6" --file-version 6 ||
				fail "$name: v$v $c -> v6"
			assert_same "$in" "$out.v6" ;;		# (a) and (b)
		*)
			if [ "$v" = 6 ]; then
				$TDAT convert -i "$out" -o "$out.v7" \
					--compression zstd || fail "$name: v6 -> v7"
				digest_body "$out.v7" >"$out.v7.digest"
				assert_same "$TMPDIR/$name.digest" "$out.v7.digest"	# (c)
			fi ;;
		esac
		rm -f "$out" "$out".*
	done
done
echo "all fixtures converted both ways"

#!/usr/bin/env bash
# PGN written by our library must be read by an independent reader, pgn-extract, as
# the same moves.  For each sample file: read it with our reader and write it with
# pgn_format; pgn-extract must read our output without complaint and find the same
# UCI moves and results as our reader did; pgn-extract's reading of the original file
# must agree too (a check on our reader).  Our output must keep movetext under 80 columns.
# The master games in tests/games are canonical SAN, so there our SAN must match theirs
# token for token (disambiguation, check and mate marks).
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin pgn-extract
tool="$build/bench/bench_pgn_roundtrip"
extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$tool" ] || give_up "$tool missing (make tests)"
[ -x "$extract" ] || give_up "pgn-extract not installed (make deps)"

# pgn-extract's UCI output as one line per game ending in the result, promotions in
# lower case, like `bench_pgn_roundtrip --uci`.
# The SAN tokens of a PGN file: movetext without move numbers, comments or the result.
san_tokens() {
	awk '!/^\[/' "$1" | sed -e 's/{[^}]*}//g' | tr -s ' \t\r' '\n' |
		grep -Ev '^([0-9]+\.+|1-0|0-1|1/2-1/2|\*|)$'
}

normalise() {
	tr 'A-Z' 'a-z' | awk '
		{ for (i = 1; i <= NF; i++) {
			line = line (line == "" ? "" : " ") $i
			if ($i == "1-0" || $i == "0-1" || $i == "1/2-1/2" || $i == "*") {
				print line; line = ""
			}
		} }
		END { if (line != "") print line }'
}

extract_uci() {
	"$extract" -Wuci --notags --nomovenumbers --nochecks --nocomments -s -w 100000 "$1" \
		2>"$2" | normalise
}

fail() { bad "FAIL $1: $2"; }

shopt -s nullglob
for f in "$dir"/games/*.pgn "$dir"/fuzz/corpus/pgn/*.pgn; do
	name=${f#"$dir"/}
	if ! "$tool" <"$f" >"$work/ours.pgn" 2>"$work/read.err"; then
		fail "$name" "our reader: $(head -3 "$work/read.err")"
		continue
	fi
	"$tool" --uci <"$f" | tr 'A-Z' 'a-z' >"$work/ours.uci"
	if [ ! -s "$work/ours.uci" ]; then
		fail "$name" "no games read"
		continue
	fi
	extract_uci "$work/ours.pgn" "$work/extract.err" >"$work/theirs.uci"
	if [ -s "$work/extract.err" ]; then
		fail "$name" "pgn-extract complains about our PGN: $(head -3 "$work/extract.err")"
		continue
	fi
	if ! diff -u "$work/ours.uci" "$work/theirs.uci" >"$work/diff"; then
		fail "$name" "pgn-extract reads other moves from our PGN: $(head -12 "$work/diff")"
		continue
	fi
	extract_uci "$f" "$work/orig.err" >"$work/orig.uci"
	if ! diff -u "$work/ours.uci" "$work/orig.uci" >"$work/diff"; then
		fail "$name" "our reader and pgn-extract disagree on the original: $(head -12 "$work/diff")"
		continue
	fi
	if [ "${name#games/}" != "$name" ] &&
		! diff -u <(san_tokens "$f") <(san_tokens "$work/ours.pgn") >"$work/diff"; then
		fail "$name" "our SAN differs from the original's: $(head -12 "$work/diff")"
		continue
	fi
	long=$(awk 'length($0) >= 80 && !/^\[/ { print FNR ": " $0 }' "$work/ours.pgn" | head -3)
	if [ -n "$long" ]; then
		fail "$name" "movetext line of 80 columns or more: $long"
		continue
	fi
	ok
done
[ "$passed" -gt 0 ] || bad "no file read"
summary

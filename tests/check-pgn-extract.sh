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
dir=$(cd "$(dirname "$0")" && pwd)
tool="$build/bench/bench_pgn_roundtrip"
extract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
passed=0
failed=0

if [ ! -x "$tool" ]; then
	echo "check-pgn-extract: $tool missing (make tests)" >&2
	echo "pgn-extract: 0 passed, 1 failed"
	exit 1
fi
if [ ! -x "$extract" ]; then
	echo "check-pgn-extract: pgn-extract not installed (make deps)" >&2
	echo "pgn-extract: 0 passed, 1 failed"
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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

fail() {
	echo "FAIL $1: $2" >&2
	failed=$((failed + 1))
}

shopt -s nullglob
for f in "$dir"/games/*.pgn "$dir"/fuzz/corpus/pgn/*.pgn; do
	name=${f#"$dir"/}
	if ! "$tool" <"$f" >"$tmp/ours.pgn" 2>"$tmp/read.err"; then
		fail "$name" "our reader: $(head -3 "$tmp/read.err")"
		continue
	fi
	"$tool" --uci <"$f" | tr 'A-Z' 'a-z' >"$tmp/ours.uci"
	if [ ! -s "$tmp/ours.uci" ]; then
		fail "$name" "no games read"
		continue
	fi
	extract_uci "$tmp/ours.pgn" "$tmp/extract.err" >"$tmp/theirs.uci"
	if [ -s "$tmp/extract.err" ]; then
		fail "$name" "pgn-extract complains about our PGN: $(head -3 "$tmp/extract.err")"
		continue
	fi
	if ! diff -u "$tmp/ours.uci" "$tmp/theirs.uci" >"$tmp/diff"; then
		fail "$name" "pgn-extract reads other moves from our PGN: $(head -12 "$tmp/diff")"
		continue
	fi
	extract_uci "$f" "$tmp/orig.err" >"$tmp/orig.uci"
	if ! diff -u "$tmp/ours.uci" "$tmp/orig.uci" >"$tmp/diff"; then
		fail "$name" "our reader and pgn-extract disagree on the original: $(head -12 "$tmp/diff")"
		continue
	fi
	if [ "${name#games/}" != "$name" ] &&
		! diff -u <(san_tokens "$f") <(san_tokens "$tmp/ours.pgn") >"$tmp/diff"; then
		fail "$name" "our SAN differs from the original's: $(head -12 "$tmp/diff")"
		continue
	fi
	long=$(awk 'length($0) >= 80 && !/^\[/ { print FNR ": " $0 }' "$tmp/ours.pgn" | head -3)
	if [ -n "$long" ]; then
		fail "$name" "movetext line of 80 columns or more: $long"
		continue
	fi
	passed=$((passed + 1))
done

echo "pgn-extract: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

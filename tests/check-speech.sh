#!/usr/bin/env bash
# The phoneme golden: every phrase of every language, moves, durations and numbers through
# eSpeak NG's phoneme output (annabella speech-phonemes), one line per segment with its
# language, compared with tests/speech/phonemes.golden (reviewed).  The golden is eSpeak NG
# 1.51's; with another version the check is skipped and says so.
# REGRESS_UPDATE=1 (make regress-update) rewrites the golden: review the diff.
set -u
build=${1:-build}
dir=$(cd "$(dirname "$0")" && pwd)
golden="$dir/speech/phonemes.golden"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

if ! "$build/annabella" speech-phonemes >"$out"; then
	echo "speech: annabella speech-phonemes failed"
	exit 1
fi
if [ "${REGRESS_UPDATE:-}" = 1 ]; then
	cp "$out" "$golden"
	echo "speech: $golden rewritten ($(grep -vc '^#' "$golden") segments)"
	exit 0
fi
want=$(head -1 "$golden")
got=$(head -1 "$out")
if [ "$want" != "$got" ]; then
	echo "speech: SKIPPED: the golden is for ${want#\# }, this is ${got#\# }"
	exit 0
fi
if ! diff -u "$golden" "$out" >"$out.diff"; then
	echo "speech: phonemes differ from $golden:"
	head -40 "$out.diff" | sed 's/^/    /'
	rm -f "$out.diff"
	exit 1
fi
rm -f "$out.diff"
echo "speech: $(grep -vc '^#' "$golden") segments as in the golden"

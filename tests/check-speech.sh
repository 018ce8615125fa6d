#!/usr/bin/env bash
# The phoneme golden: every phrase of every language, moves, durations and numbers through
# eSpeak NG's phoneme output (annabella speech-phonemes), one line per segment with its
# language, compared with tests/speech/phonemes.golden (reviewed).  The golden is eSpeak NG
# 1.51's; with another version the check is skipped and says so.
# REGRESS_UPDATE=1 (make regress-update) rewrites the golden: review the diff.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin speech
golden="$tests/speech/phonemes.golden"
out=$work/phonemes

"$build/annabella" speech-phonemes >"$out" || give_up "annabella speech-phonemes failed"
if [ "${REGRESS_UPDATE:-}" = 1 ]; then
	cp "$out" "$golden"
	echo "speech: $golden rewritten ($(grep -vc '^#' "$golden") segments)"
	exit 0
fi
want=$(head -1 "$golden")
got=$(head -1 "$out")
[ "$want" = "$got" ] || skip "the golden is for ${want#\# }, this is ${got#\# }"
if diff -u "$golden" "$out" >"$out.diff"; then
	echo "speech: $(grep -vc '^#' "$golden") segments as in the golden"
	ok
else
	bad "phonemes differ from $golden:"
	show "$out.diff" 40
fi
summary

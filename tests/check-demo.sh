#!/usr/bin/env bash
# make demo as a newcomer meets it (tests/demo.sh): the master game played through the
# daemon says nothing of a control socket or of /run/annabella (the demo has none, and as a
# user other than root it could not make one there), logs no warning or error, ends with the
# game's result, and gives the length of each WAV file it names as the file's own header
# says (Python's wave module reads them here), with nothing but the tools of make deps-runtime.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin demo
need python3
DEMO_AUDIO=wav "$tests/demo.sh" "$build" >"$work/out" 2>"$work/err"
check $? "tests/demo.sh failed: $(tail -3 "$work/err")"
if grep -E -i 'control socket|/run/annabella|annabellad: .*(warn|error)' "$work/out" "$work/err" \
	>"$work/said"; then
	bad "the demo said what a newcomer need not see:"
	show "$work/said"
else
	ok
fi
grep -q '^\[Result "0-1"\]' "$build/demo/state/game.pgn"
check $? "the demo's scoresheet has not Fischer's win: $(grep Result "$build/demo/state/game.pgn")"
n=0
while read -r path secs; do
	n=$((n + 1))
	want=$(python3 -c 'import sys, wave
w = wave.open(sys.argv[1])
print("%.1f" % (w.getnframes() / w.getframerate()))' "$path")
	[ "$secs" = "$want" ]
	check $? "the demo says $path lasts $secs s; its header says $want s"
done < <(sed -n 's/^  \(.*\.wav\) (\(.*\) s)$/\1 \2/p' "$work/out")
[ "$n" -eq 2 ]
check $? "the demo named $n WAV files with their lengths, not public.wav and private.wav: $(grep wav "$work/out")"
summary

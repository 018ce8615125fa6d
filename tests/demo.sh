#!/usr/bin/env bash
# make demo: a real master game played on a simulated tactile board through the whole daemon,
# in virtual time.  The announcements are printed as they happen and spoken through ALSA where
# a sound card exists, else written to WAV files.
set -euo pipefail
build=${1:-build}
game=tests/games/1956-byrne-fischer.pgn
out=$build/demo
rm -rf "$out"
mkdir -p "$out"

# The tactile player has Black (Fischer); classical clock; a varied, human order of lifts.
"$build/annabella" script "$game" --player black --variants 1956 --time-control 5400+30 \
	>"$out/game.script"

# The scoresheet's tags from the game's own.
tag() { sed -n "s/^\[$1 \"\(.*\)\"\]/\1/p" "$game" | head -1 | tr -d '\\'; }
{
	echo "[game]"
	echo "event = $(tag Event)"
	echo "site = $(tag Site)"
	echo "round = $(tag Round)"
	echo "white = $(tag White)"
	echo "black = $(tag Black)"
} >"$out/annabella.conf"

# DEMO_AUDIO=wav writes the WAV files even where a sound card exists (make cross-check
# compares them across architectures).
audio=${DEMO_AUDIO:-wav}
if [ -z "${DEMO_AUDIO:-}" ] && [ -r /proc/asound/cards ] && grep -q '^ *[0-9]' /proc/asound/cards; then
	audio=alsa
fi

echo "demo: D. Byrne - R. Fischer, New York 1956, the tactile player has Black"
echo "demo: board script $out/game.script ($(grep -c -E 'lift|place' "$out/game.script") peg actions)"
echo "demo: annabellad --config $out/annabella.conf --board sim:$out/game.script --time virtual --audio $audio --state $out/state"
mkdir -p "$out/state"
: >"$out/state/speech.log"
# Print each announcement as the daemon logs it.
tail -n +1 -f "$out/state/speech.log" &
tailer=$!
trap 'kill $tailer 2>/dev/null || true' EXIT
status=0
"$build/annabellad" --config "$out/annabella.conf" --board "sim:$out/game.script" \
	--time virtual --audio "$audio" --state "$out/state" || status=$?
sleep 0.3
kill $tailer 2>/dev/null || true
wait $tailer 2>/dev/null || true
trap - EXIT
if [ $status -ne 0 ]; then
	echo "demo: annabellad failed with status $status" >&2
	exit $status
fi
echo
echo "demo: scoresheet $out/state/game.pgn:"
cat "$out/state/game.pgn"
echo
if [ "$audio" = wav ]; then
	echo "demo: no sound card here; the announcements were spoken into"
	for f in "$out"/state/audio/public.wav "$out"/state/audio/private.wav; do
		[ -f "$f" ] && echo "  $f ($(soxi -D "$f" 2>/dev/null || echo '?') s)"
	done
	echo "  play them with: aplay $out/state/audio/public.wav"
fi
echo "demo: the game's audio record: $(ls "$out"/state/games/*.opus 2>/dev/null | head -1)"
echo "demo: braille scoresheet:"
"$build/annabella" scoresheet --format unicode "$out/state" || true

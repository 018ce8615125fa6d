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
# The demo needs no control socket (the daemon's default, /run/annabella/control, is the
# service's, where another user may not write).
echo "demo: annabellad --config $out/annabella.conf --board sim:$out/game.script --time virtual --audio $audio --state $out/state --control none"
mkdir -p "$out/state"
: >"$out/state/speech.log"
# Print each announcement as the daemon logs it.
tail -n +1 -f "$out/state/speech.log" &
tailer=$!
trap 'kill $tailer 2>/dev/null || true' EXIT
status=0
"$build/annabellad" --config "$out/annabella.conf" --board "sim:$out/game.script" \
	--time virtual --audio "$audio" --state "$out/state" --control none || status=$?
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
# A WAV file's length in seconds (one decimal) from its header: the data chunk's size over
# the fmt chunk's bytes per second; "?" for what is not PCM WAV.
wav_seconds() {
	local f=$1 pos=12 size id rate=0 fsize
	fsize=$(stat -c %s "$f") || { echo '?'; return; }
	[ "$(head -c 4 "$f")" = RIFF ] && [ "$(tail -c +9 "$f" | head -c 4)" = WAVE ] ||
		{ echo '?'; return; }
	le32() { od -An -tu4 -j "$1" -N4 --endian=little "$f" | tr -d ' '; }
	while [ $((pos + 8)) -le "$fsize" ]; do
		id=$(tail -c +$((pos + 1)) "$f" | head -c 4)
		size=$(le32 $((pos + 4)))
		case $id in
		"fmt ") rate=$(le32 $((pos + 16))) ;; # bytes per second
		data)
			[ "$rate" -gt 0 ] || break
			# A header not brought up to date counts what the file holds.
			[ $((pos + 8 + size)) -le "$fsize" ] || size=$((fsize - pos - 8))
			size=$(((size * 10 + rate / 2) / rate)) # tenths of a second, rounded
			echo "$((size / 10)).$((size % 10))"
			return
			;;
		esac
		pos=$((pos + 8 + size + size % 2))
	done
	echo '?'
}
if [ "$audio" = wav ]; then
	echo "demo: no sound card here; the announcements were spoken into"
	for f in "$out"/state/audio/public.wav "$out"/state/audio/private.wav; do
		[ -f "$f" ] && echo "  $f ($(wav_seconds "$f") s)"
	done
	echo "  play them with: aplay $out/state/audio/public.wav"
fi
echo "demo: the game's audio record: $(ls "$out"/state/games/*.opus 2>/dev/null | head -1)"
echo "demo: braille scoresheet:"
"$build/annabella" scoresheet --format unicode "$out/state" || true

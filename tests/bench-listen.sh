#!/usr/bin/env bash
# The listening bench: a machine listener of our own (PocketSphinx with its US English
# model, a closed grammar of every Appendix D move announcement and the German prompts, and
# a dictionary of their words in its phones, made from eSpeak NG's phonemes) hears the moves
# of four master games (253 plies) and the German prompts as each installed German voice
# says them through the voice thread: eSpeak NG's own (de) and every MBROLA voice
# (mbrola-de1 .. de8, Debian's non-free: docs/speech.md "Voices").  A rough stand-in for a listener,
# not a German one: it shows a change that makes speech less clear as a number.
#   LISTEN_VOICES="de mb-de6" to choose; LISTEN_GAMES to give other games.
# Prints "bench listen_VOICE_* VALUE UNIT" lines.
set -u
build=${1:-build}
dir=$(cd "$(dirname "$0")" && pwd)
model=/usr/share/pocketsphinx/model/en-us/en-us
games=${LISTEN_GAMES:-"$dir/games/1851-anderssen-kieseritzky.pgn $dir/games/1858-morphy-duke-karl-isouard.pgn $dir/games/1956-byrne-fischer.pgn $dir/games/1946-levin-santasiere.pgn"}
if ! command -v pocketsphinx_batch >/dev/null || [ ! -d "$model" ]; then
	echo "bench-listen: pocketsphinx and pocketsphinx-en-us are not installed (make deps)" >&2
	exit 1
fi
voices=${LISTEN_VOICES:-}
if [ -z "$voices" ]; then
	voices=de
	if command -v mbrola >/dev/null; then
		for n in 1 2 3 4 5 6 7 8; do
			[ -r "/usr/share/mbrola/de$n/de$n" ] && voices="$voices mb-de$n"
		done
	fi
	[ "$voices" = de ] && echo "bench-listen: no German MBROLA voice installed: eSpeak NG's own voice alone" >&2
fi
work=$(mktemp -d /tmp/annabella-listen-XXXXXX)
trap 'rm -rf "$work"' EXIT
status=0
for voice in $voices; do
	# shellcheck disable=SC2086
	"$build/bench/bench_listen" "$work" "$voice" $games
	rc=$?
	if [ $rc -eq 3 ]; then
		echo "bench-listen: $voice is not installed: skipped" >&2
		continue
	elif [ $rc -ne 0 ]; then
		status=1
		continue
	fi
	(cd "$work/$voice" && ls -- *.raw | sed 's/\.raw$//' >ctl)
	pocketsphinx_batch -hmm "$model" -jsgf "$work/grammar.jsgf" -dict "$work/words.dict" \
		-ctl "$work/$voice/ctl" -cepdir "$work/$voice" -cepext .raw -adcin yes -adchdr 0 \
		-samprate 16000 -hyp "$work/$voice/hyp" -logfn /dev/null || status=1
	python3 "$dir/listen_score.py" "$voice" "$work/$voice/refs.txt" "$work/$voice/hyp" || status=1
done
exit $status

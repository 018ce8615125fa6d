#!/usr/bin/env bash
# Voice latency (move made -> first sample to ALSA's null PCM) against spawning espeak-ng,
# the resident size with the German voice loaded; then the same voice on a sound card that
# plays in real time (tests/bench/pcm_paced.c): a move with nothing ahead of it, one made
# while an echo is being said (it cuts it short) and one made while a move the Laws need
# heard whole is being said (it waits for it), VOICE_PACED_PLIES (20) moves each; the joints
# between voices, and the audio record's size a ply.  Prints "bench NAME VALUE UNIT" lines.
set -u
status=0
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin_bench bench-voice
"$build/bench/bench_voice" || status=1
paced_card "$build" speaker
"$build/bench/bench_voice" speaker "${VOICE_PACED_PLIES:-20}" || status=1
"$build/bench/bench_joint" || status=1
"$build/bench/bench_record" "$tests/games/1956-byrne-fischer.pgn" || status=1
exit $status

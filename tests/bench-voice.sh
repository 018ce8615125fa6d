#!/usr/bin/env bash
# Voice latency (move made -> first sample to ALSA's null PCM) against spawning espeak-ng,
# the resident size with the German voice loaded, and the audio record's size a ply.
# Prints "bench NAME VALUE UNIT" lines.
set -u
status=0
build=${1:-build}
"$build/bench/bench_voice" || status=1
"$build/bench/bench_joint" || status=1
"$build/bench/bench_record" "$(dirname "$0")/games/1956-byrne-fischer.pgn" || status=1
exit ${status:-0}

#!/usr/bin/env bash
# Voice latency (move made -> first sample to ALSA's null PCM) against spawning espeak-ng,
# and the resident size with the German voice loaded.  Prints "bench NAME VALUE UNIT" lines.
set -u
status=0
build=${1:-build}
"$build/bench/bench_voice" || status=1
"$build/bench/bench_joint" || status=1
exit ${status:-0}

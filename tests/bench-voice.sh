#!/usr/bin/env bash
# Voice latency (move made -> first sample to ALSA's null PCM) against spawning espeak-ng,
# and the resident size with the German voice loaded.  Prints "bench NAME VALUE UNIT" lines.
set -u
build=${1:-build}
exec "$build/bench/bench_voice"

#!/usr/bin/env bash
# PINs an attacker gets checked in an hour (README "Security model"): the best schedules run
# against the product's own budgets on a virtual clock (tests/bench/bench_pins.c): per Unix
# user, board or address, through the page from 66 addresses, and through every door at once.
# Prints "bench NAME VALUE UNIT" lines.
set -u
build=${1:-build}
out=$("$build/bench/bench_pins" 66 2) || exit 1
grep -q '^bench pins_per_hour_every_door ' <<<"$out" || { echo "bench-pins: no figure" >&2; exit 1; }
echo "$out"

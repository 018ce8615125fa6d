#!/usr/bin/env bash
# Detection alone over a long master game (Carlsen - Nepomniachtchi 2021, 136 moves), and the
# same game with every quiet move's source sensor reporting 30 ms late.  Prints "bench NAME
# VALUE UNIT" lines (tests/bench/bench_detect.c).
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-detect
"$build/annabella" script "$dir/games/2021-carlsen-nepomniachtchi.pgn" --player white \
	--variants 1 >"$work/game.script"
"$build/bench/bench_detect" "$work/game.script"

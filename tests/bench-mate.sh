#!/usr/bin/env bash
# Who can still checkmate on real games (tests/bench/bench_mate.c): every position of the
# master games in tests/games/, both colours; the share left to the arbiter and the time a
# question takes.  Prints "bench NAME VALUE UNIT" lines.
set -u
build=${1:-build}
dir=$(cd "$(dirname "$0")" && pwd)
"$build/bench/bench_mate" "$dir"/games/*.pgn

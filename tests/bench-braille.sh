#!/usr/bin/env bash
# The live braille display: the time from the show-move call (the moment the move is
# announced) to its cells on a display, through a real BRLTTY with its Virtual braille
# driver (tests/brltty/brltest.c, BRAILLE_BENCH_MOVES (200) moves).  Prints "bench NAME VALUE UNIT" lines:
#  - braille_move_shown_median_ms, _p95_ms, _max_ms (goal: within 50 ms).
set -u
build=${1:-build}
out=$("$build/tests/brltest" --bench "${BRAILLE_BENCH_MOVES:-200}" 2>/dev/null)
status=$?
grep '^bench ' <<<"$out"
[ "$status" -eq 0 ] || echo "bench-braille: the display test failed" >&2
exit "$status"

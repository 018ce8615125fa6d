#!/usr/bin/env bash
# The recovery torture test, short (tests/torture.py; `make torture` runs it at full size):
# a power cut at a random action of a real game, then one kind of damage to the state
# directory (a flipped byte, a cut, the journal emptied or deleted, two records swapped, a
# block written twice, both copies flipped, both cut), then the rest of the game: every move
# and reading on disk is in the final game.pgn unchanged, nothing invented, and the game goes
# on to its end.  TORTURE_TRIALS (default 4) trials of each kind.
set -u
build=${1:-build}
exec python3 "$(dirname "$0")/torture.py" "$build" "${TORTURE_TRIALS:-4}"

#!/usr/bin/env bash
# From the player's clock press to the first audio sample of the engine's announced reply,
# `annabella train` with Stockfish at --movetime 100 (docs/training.md "Training and study"):
# tests/train/benchtrain.py (its work directory and clean-up from tests/checklib.py).
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/train/benchtrain.py" "$build"

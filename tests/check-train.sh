#!/usr/bin/env bash
# Training and study (docs/training.md "Training and study") with the real Debian Stockfish: a whole
# game against level 0 played on a live board script, a hint, a takeback, an engine killed
# and one answering nonsense, tournament mode refusing it all, reviews of a game from games/
# and of a PGN file, the strength said as set, train --wait waiting again after a failure, a
# game from a FEN with the evaluation and draw offers.  The test itself is
# tests/train/traintest.py (TRAIN_ONLY="game killed faults tournament strength again coach"
# runs a part).
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
named train
stockfish=${STOCKFISH:-/usr/games/stockfish}
[ -x "$stockfish" ] || give_up "$stockfish is not installed (make deps installs it)"
exec /usr/bin/python3 "$here/train/traintest.py" "$build"

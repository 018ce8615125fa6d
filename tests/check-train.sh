#!/usr/bin/env bash
# Training and study (docs/training.md "Training and study") with the real Debian Stockfish: a whole
# game against level 0 played on a live board script, a hint, a takeback, an engine killed
# and one answering nonsense, tournament mode refusing it all, reviews of a game from games/
# and of a PGN file.  The test itself is tests/train/traintest.py.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
named train
stockfish=${STOCKFISH:-/usr/games/stockfish}
[ -x "$stockfish" ] || give_up "$stockfish is not installed (make deps installs it)"
exec /usr/bin/python3 "$here/train/traintest.py" "$build"

#!/usr/bin/env bash
# Online play (docs/online.md "Playing online"): from the player's press to their move at the server,
# and from the opponent's move written into the game's stream to the first sample of its
# announcement, through the test's own lichess (tests/online/benchonline.py).
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/online/benchonline.py" "$build"

#!/usr/bin/env bash
# Online play (docs/online.md "Playing online") without the internet: a lichess of the test's own
# (tests/online/lichess_server.py, every message checked against lichess's published OpenAPI
# description in ../shared/data/lichess-api/), a real daemon on a live board script and
# `annabella online` between them; Stockfish plays both sides.  The test itself is
# tests/online/onlinetest.py.  It takes about four minutes, one of them the minute HTTP 429
# asks for.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
named online
stockfish=${STOCKFISH:-/usr/games/stockfish}
[ -x "$stockfish" ] || give_up "$stockfish is not installed (make deps installs it)"
/usr/bin/python3 -c 'import jsonschema, yaml' 2>/dev/null ||
	give_up "python3-jsonschema and python3-yaml are not installed (make deps installs them)"
/usr/bin/python3 -c 'import sys; sys.path.insert(0, "'"$here"'/online")
import lichess_server; sys.exit(lichess_server.specs_dir() is None)' ||
	give_up "lichess's OpenAPI description is not found (shared/data/lichess-api beside the checkout, or LICHESS_API_SPECS)"
exec /usr/bin/python3 "$here/online/onlinetest.py" "$build"

#!/usr/bin/env bash
# The page and the room relay against one visitor's flood (README "Security model"): too many
# connections, slow headers and bodies, unread event streams, reads without a PIN, requests
# from another site's page and other host names; real `annabellad`, `annabella web`,
# mosquitto and `annabella relay`, with raw sockets and http.client (tests/web/floodtest.py).
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
named webflood
need mosquitto mosquitto_pub
exec /usr/bin/python3 "$here/web/floodtest.py" "$build"

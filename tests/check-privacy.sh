#!/usr/bin/env bash
# Who hears what (docs/control.md "Control interface", `watch`): a real daemon plays a game in
# real time with a promotion, private times and repeats, a mismatch with its guidance, a board
# kept from the player, claims and a ruling, refused PINs, the arbiter's clock setting, pause
# and result; every sink is a real client: the watches of an assistant and an arbiter (throwaway
# Unix users made here, as check-control does), `watch public`, the web page's event stream in
# headless Chromium, the broadcast through a real mosquitto, and speech.log's channels. Each
# event type is checked at each sink against its audience.  The web page and the broadcast run
# as the arbiter's user, so nothing but the audiences keeps the arbiter's events from them.
# Needs root (or sudo) to make the users; the test is tests/web/privacytest.py.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/web/privacytest.py" "$build"

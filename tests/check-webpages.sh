#!/usr/bin/env bash
# The assistant's and the arbiter's page at 320 px (Dutch) and 1280 px (German) against a real
# daemon on a live board script: the time control in words, the moves in the page's piece
# letters, the claim dialog as the daemon takes the claimant, the arbiter's claim, the draw
# offer's focus, a restart's clocks, the names isolated, the boxes after approval, the PIN
# waits in seconds, codes.js's size as docs/web.md says; axe-core as in check-web.sh.  The test
# itself is tests/web/pagestest.py.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
named webpages
axe=$(bash "$here/web/axe.sh" "$build") || give_up "axe-core is not there (tests/web/axe.sh)"
exec /usr/bin/python3 "$here/web/pagestest.py" "$build" "$axe"

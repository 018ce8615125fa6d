#!/usr/bin/env bash
# The daemon's replies on the web page in its language (de, en, sv, nl), and two assistants
# relaying at once from two browsers, in headless Chromium (tests/web/codestest.py); axe-core
# from the npm registry as in check-web.sh.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
named webcodes
axe=$(bash "$here/web/axe.sh" "$build") || give_up "axe-core is not there (tests/web/axe.sh)"
exec /usr/bin/python3 "$here/web/codestest.py" "$build" "$axe"

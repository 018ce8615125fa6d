#!/usr/bin/env bash
# The assistant's web page (docs/web.md "The web page for the assistant and the arbiter") in a real
# browser: a real daemon plays a sim game in real time, `annabella web` serves the page, and
# headless Chromium (driven by chromedriver through Python's selenium) reads and uses it.
# axe-core, from the npm registry, checks the page's accessibility.  The test itself is
# tests/web/webtest.py.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
named web
axe=$(bash "$here/web/axe.sh" "$build") || give_up "axe-core is not there (tests/web/axe.sh)"
exec /usr/bin/python3 "$here/web/webtest.py" "$build" "$axe"

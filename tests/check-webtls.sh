#!/usr/bin/env bash
# The web page over TLS (docs/web.md "The web page for the assistant and the arbiter"): its
# certificate made and checked against openssl and `annabella status`, curl trusting it alone, a
# tap between client and page that must never see the PIN, and headless Chromium trusting the
# page's key alone (tests/web/tlstest.py).
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
named webtls
need openssl curl chromium
cd "$here/web" && exec /usr/bin/python3 "$here/web/tlstest.py" "$build"

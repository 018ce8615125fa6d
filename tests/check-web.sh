#!/usr/bin/env bash
# The assistant's web page (DESIGN 9) in a real browser: a real daemon plays a sim game in
# real time, `annabella web` serves the page, and headless Chromium (driven by
# chromedriver through Python's selenium) reads and uses it.  axe-core, from the npm
# registry, checks the page's accessibility.  The test itself is tests/web/webtest.py.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
axe_version=4.10.3
cache=${ANNABELLA_CACHE:-$build/cache}
axe=$cache/axe-core-$axe_version/node_modules/axe-core/axe.min.js
if [ ! -s "$axe" ]; then
	if ! command -v npm >/dev/null; then
		"$here/deps.sh" npm >&2 || true
	fi
	mkdir -p "$cache/axe-core-$axe_version"
	if ! npm install --silent --no-audit --no-fund --prefix "$cache/axe-core-$axe_version" \
		"axe-core@$axe_version" >"$cache/npm.log" 2>&1; then
		cat "$cache/npm.log" >&2
		echo "web: cannot install axe-core $axe_version from the npm registry"
		echo "web: 0 passed, 1 failed"
		exit 1
	fi
fi
exec /usr/bin/python3 "$here/web/webtest.py" "$build" "$axe"

#!/usr/bin/env bash
# Prints the path of axe-core's axe.min.js (from the npm registry, cached in BUILD/cache),
# installing it first if needed.  Usage: axe.sh BUILD
set -u
build=$1
here=$(cd "$(dirname "$0")/.." && pwd)
axe_version=4.10.3
cache=${ANNABELLA_CACHE:-$build/cache}
axe=$cache/axe-core-$axe_version/node_modules/axe-core/axe.min.js
if [ ! -s "$axe" ]; then
	command -v npm >/dev/null || "$here/../tools/deps.sh" npm >&2 || true
	mkdir -p "$cache/axe-core-$axe_version"
	if ! npm install --silent --no-audit --no-fund --prefix "$cache/axe-core-$axe_version" \
		"axe-core@$axe_version" >"$cache/npm.log" 2>&1; then
		cat "$cache/npm.log" >&2
		echo "cannot install axe-core $axe_version from the npm registry" >&2
		exit 1
	fi
fi
echo "$axe"

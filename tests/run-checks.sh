#!/usr/bin/env bash
# Runs every tests/check-*.sh with the build directory; each prints its own summary.
set -u
build=${1:-build}
dir=$(dirname "$0")
failed=0
passed=0
for c in "$dir"/check-*.sh; do
	[ -e "$c" ] || continue
	echo "== $(basename "$c")"
	if bash "$c" "$build"; then
		passed=$((passed + 1))
	else
		echo "FAILED: $c" >&2
		failed=$((failed + 1))
	fi
done
echo "checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

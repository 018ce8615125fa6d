#!/usr/bin/env bash
# Runs cmocka test binaries; prints their output (with cmocka's summaries) and a total.
set -u
failed=0
passed=0
for t in "$@"; do
	if "$t"; then
		passed=$((passed + 1))
	else
		echo "FAILED: $t" >&2
		failed=$((failed + 1))
	fi
done
echo "unit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

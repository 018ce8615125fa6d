#!/usr/bin/env bash
# make bench: runs every tests/bench-*.sh; each prints lines "bench NAME VALUE UNIT".
set -u
build=${1:-build}
dir=$(dirname "$0")
status=0
for b in "$dir"/bench-*.sh; do
	[ -e "$b" ] || continue
	bash "$b" "$build" || status=1
done
exit $status

#!/usr/bin/env bash
# The time a restart gives back, on slow storage (tests/uncharged.py): power cuts that lose
# what was not yet synced, with each sync 0, 20, 100 and 300 ms longer, and the true gap
# within status's uncharged_ms and uncharged_up_to_ms every time.  UNCHARGED_TRIALS (default
# 12) cuts for each.
set -u
build=${1:-build}
exec python3 "$(dirname "$0")/uncharged.py" "$build" "${UNCHARGED_TRIALS:-12}"

#!/usr/bin/env bash
# The live braille display against a real BRLTTY with its Virtual braille driver, started in
# a private directory with its own BrlAPI port and key (tests/brltty/brltest.c).
set -u
build=${1:-build}
exec "$build/tests/brltest"

#!/usr/bin/env bash
# The live braille display against a real BRLTTY with its Virtual braille driver, started in
# a private directory with its own BrlAPI port and key (tests/brltty/brltest.c): the display
# module alone, then the daemon with [braille] display = yes.
set -u
build=${1:-build}
status=0
"$build/tests/brltest" || status=1
"$build/tests/brltest" --daemon "$build/annabellad" || status=1
# A player who cannot hear the device: every private utterance on the display.
"$build/tests/brltest" --messages "$build/annabellad" || status=1
exit $status

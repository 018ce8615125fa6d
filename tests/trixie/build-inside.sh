#!/usr/bin/env bash
# Runs in the Debian 13 build tree (tests/trixie/run.sh), on a copy of the source in /src:
# the build with -Werror and no warning at all, the unit tests, the golden replays, the amd64
# and the arm64 package (each checked by lintian), and the demo game's script and scoresheet
# for the arm64 test.  Writes "ok NAME" / "FAIL NAME" lines to /out/results.
set -u
cd /src
res() { echo "$1 $2" >>/out/results; }
run() { # NAME LOG COMMAND...
	local name=$1 log=$2
	shift 2
	if "$@" >"/out/$log" 2>&1; then res ok "$name"; else res FAIL "$name"; fi
}
export CI=true
run build build.log make -j2 all tests
if grep -n 'warning:' /out/build.log >/out/warnings.log; then
	res FAIL build-without-warnings
else
	res ok build-without-warnings
fi
run unit unit.log make --no-print-directory unit
run regress regress.log make --no-print-directory regress
grep -h -E '^(unit|regress): [0-9]+ passed' /out/unit.log /out/regress.log >>/out/summary
run package-amd64 package-amd64.log tools/pkg/build.sh /out/amd64
DEB_BUILD_OPTIONS=nocheck run package-arm64 package-arm64.log \
	tools/pkg/build.sh /out/arm64 -a arm64 -Pcross,nocheck
grep -h 'lintian clean' /out/package-amd64.log >/dev/null && res ok lintian-amd64 ||
	res FAIL lintian-amd64
grep -h 'lintian clean' /out/package-arm64.log >/dev/null && res ok lintian-arm64 ||
	res FAIL lintian-arm64
# The demo, natively: its script and configuration for the arm64 device, its scoresheet to
# compare with.
DEMO_AUDIO=none run demo demo.log tests/demo.sh build
cp build/demo/game.script /out/demo.script
cp build/demo/annabella.conf /out/demo.conf
cp build/demo/state/game.pgn /out/demo-expected.pgn

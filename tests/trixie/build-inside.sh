#!/usr/bin/env bash
# Runs in the Debian 13 build tree (tests/trixie/run.sh), on a copy of the source in /src:
# the build with -Werror and no warning at all, the unit tests, the golden replays, the amd64
# and the arm64 package (each checked by lintian), and the demo game's script and scoresheet
# for the arm64 test.  Writes "ok NAME", "FAIL NAME" and "NOTRUN NAME: WHY" (a stage that
# could not run because one before it failed) to /out/results, one line for every stage.
# With --list, prints the stages' names (tests/trixie/run.sh reports them as not run when
# this script could not run at all).
set -u
stages="build build-without-warnings demo package-amd64 lintian-amd64 package-arm64
lintian-arm64 unit regress"
if [ "${1:-}" = --list ]; then
	echo $stages
	exit 0
fi
cd /src
res() { echo "$*" >>/out/results; }
run() { # NAME LOG COMMAND...: ok or FAIL, its time in /out/times; the command's status
	local name=$1 log=$2 start=$SECONDS status=0
	shift 2
	"$@" >"/out/$log" 2>&1 || status=$?
	echo "$name $((SECONDS - start)) s" >>/out/times
	if [ $status -eq 0 ]; then res ok "$name"; else res FAIL "$name"; fi
	return $status
}
notrun() { # WHY NAME...
	local why=$1 name
	shift
	for name in "$@"; do res NOTRUN "$name: $why"; done
}
# A package and its lintian run: lintian is not run when the package was not built.
package() { # ARCH COMMAND...
	local arch=$1
	shift
	if run "package-$arch" "package-$arch.log" "$@"; then
		touch "/out/package-$arch.done"
		res ok "lintian-$arch"
	elif grep -q 'pkg: lintian failed' "/out/package-$arch.log"; then
		res FAIL "lintian-$arch"
	else
		notrun "the $arch package was not built" "lintian-$arch"
	fi
}
export CI=true
# The compiler through ccache, its cache kept between runs (tests/trixie/run.sh binds it at
# /ccache); the packages built in fixed directories, so their commands, and ccache's hashes,
# are the same from run to run.
export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=/ccache CCACHE_MAXSIZE=2G CCACHE_NOHASHDIR=1
: >/out/results
# In the order that lets the boots start early (tests/trixie/run.sh starts each once its
# package, or the demo, is marked done): the build and the demo, the packages, the tests.
if run build build.log make -j2 all tests; then
	if grep -n 'warning:' /out/build.log >/out/warnings.log; then
		res FAIL build-without-warnings
	else
		res ok build-without-warnings
	fi
	# The demo, natively: its script and configuration for the arm64 device, its scoresheet
	# to compare with.
	DEMO_AUDIO=none run demo demo.log tests/demo.sh build &&
		cp build/demo/game.script /out/demo.script &&
		cp build/demo/annabella.conf /out/demo.conf &&
		cp build/demo/state/game.pgn /out/demo-expected.pgn &&
		touch /out/demo.done
else
	notrun "the build failed" build-without-warnings demo
fi
ANNABELLA_PKG_WORK=/tmp/pkg-amd64 package amd64 tools/pkg/build.sh /out/amd64
DEB_BUILD_OPTIONS=nocheck ANNABELLA_PKG_WORK=/tmp/pkg-arm64 package arm64 \
	tools/pkg/build.sh /out/arm64 -a arm64 -Pcross,nocheck
if [ -x build/annabellad ]; then
	run unit unit.log make --no-print-directory unit
	run regress regress.log make --no-print-directory regress
	grep -h -E '^(unit|regress): [0-9]+ passed' /out/unit.log /out/regress.log >>/out/summary
else
	notrun "the build failed" unit regress
fi
ccache -s >/out/ccache.log 2>&1
echo done >>/out/results

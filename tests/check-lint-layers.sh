#!/usr/bin/env bash
# make lint's layer check (tests/lint-layers.sh) rejects an include that breaks a layer and
# accepts the includes a layer may have; and the tree itself keeps its layers.
set -u
dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
probe() { # LAYER INCLUDE WANT(0 ok / 1 refused)
	mkdir -p "$work/$1"
	printf '#include <stdio.h>\n#include "%s"\n' "$2" >"$work/$1/probe.c"
	(cd "$work" && bash "$dir/lint-layers.sh" "$1/probe.c" >"$work/out" 2>&1)
	if [ $? -eq "$3" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "lint-layers: $1 including $2: want $3, said: $(cat "$work/out")"
	fi
}
probe game voice/voice.h 1
probe game daemon/config.h 1
probe chess game/game.h 1
probe base chess/chess.h 1
probe control voice/phrases.h 1
probe gpio chess/chess.h 1
probe braille game/game.h 1
probe game chess/chess.h 0
probe control game/referee.h 0
probe voice chess/chess.h 0
probe daemon voice/voice.h 0
probe daemon cli/cli.h 1
probe daemon net/httpd.h 1
probe store daemon/loop.h 1
probe store config/config.h 1
probe config daemon/power.h 1
probe config store/store.h 1
probe net daemon/ctlsock.h 1
probe net store/journal.h 1
probe net cli/cli.h 1
probe net config/config.h 0
probe cli daemon/present.h 1
probe cli net/net.h 0
probe cli store/store.h 0
probe daemon store/store.h 0
probe daemon config/config.h 0
if bash "$dir/lint-layers.sh"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
fi
echo "lint-layers: $passed passed, $failed failed"
[ $failed -eq 0 ]

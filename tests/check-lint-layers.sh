#!/usr/bin/env bash
# make lint's layer check (tests/lint-layers.sh) rejects an include that breaks a layer and
# accepts the includes a layer may have; and the tree itself keeps its layers.
set -u
. "$(dirname "$0")/lib.sh"
begin lint-layers
probe() { # LAYER INCLUDE WANT(0 ok / 1 refused)
	mkdir -p "$work/$1"
	printf '#include <stdio.h>\n#include "%s"\n' "$2" >"$work/$1/probe.c"
	(cd "$work" && bash "$tests/lint-layers.sh" "$1/probe.c" >"$work/out" 2>&1)
	[ $? -eq "$3" ]
	check $? "$1 including $2: want $3, said: $(cat "$work/out")"
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
bash "$tests/lint-layers.sh"
check $? "the tree breaks its layers"
summary

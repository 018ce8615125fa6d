#!/usr/bin/env bash
# The web page (docs/web.md "The web page for the assistant and the arbiter"): its size with
# everything it loads, and its first contentful paint in headless Chromium over 15 fresh loads
# (p50, max), with a game of 60 plies being played.  Prints "bench NAME VALUE UNIT" lines.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-web
"$build/annabella" script "$dir/games/1956-byrne-fischer.pgn" --player black --variants 3 \
	--time-control 900+10 >"$work/full.script"
# A quick player: the first 60 plies or so, every wait a tenth.
awk '/^\+[0-9]+ / { w = int(substr($1, 2) / 10); if (w < 20) w = 20; $1 = "+" w } { print }' \
	"$work/full.script" | head -800 >"$work/game.script"
printf '+600000 crash\n' >>"$work/game.script"
printf '[voice]\nrecord = no\n[state]\nsync = no\n' >"$work/bench.conf"
spawn "$build/annabellad" --config "$work/bench.conf" --board "sim:$work/game.script" --time real \
	--audio none --state "$work/state" --control "$work/control" >/dev/null 2>&1
daemon=$!
/usr/bin/python3 "$dir/web/benchweb.py" "$build" "$work/control"

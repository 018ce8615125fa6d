#!/usr/bin/env bash
# The control socket while a game is played (real time, sim board, a quick player): `status`
# round trips p50/p99 from a client asking every 5 ms; and the time to resume a 300-ply game
# from its journal.  Prints "bench NAME VALUE UNIT" lines.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-control
"$build/annabella" script "$dir/games/1956-byrne-fischer.pgn" --player black --variants 3 \
	--time-control 900+10 >"$work/full.script"
# A quick player: every wait a fifth (at least 40 ms), the first 30 plies or so.
awk '/^\+[0-9]+ / { w = int(substr($1, 2) / 5); if (w < 40) w = 40; $1 = "+" w } { print }' \
	"$work/full.script" | head -400 >"$work/game.script"
printf '[voice]\nrecord = no\n[state]\nsync = no\n' >"$work/bench.conf"
spawn "$build/annabellad" --config "$work/bench.conf" --board "sim:$work/game.script" --time real \
	--audio none --state "$work/state" --control "$work/control" >/dev/null 2>&1
daemon=$!
"$build/bench/bench_control" "$work/control" "${CONTROL_BENCH_REQUESTS:-2000}" 5000
stop $daemon
moves=$(grep -c ' public ' "$work/state/speech.log")
echo "bench control_during_game_moves_announced $moves moves"
"$build/bench/bench_resume"

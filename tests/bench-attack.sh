#!/usr/bin/env bash
# The arbiter's `status` under each attack on the web page (README "Security model"): a real
# daemon playing in real time, a real `annabella web`, and one visitor's attacks from loopback
# addresses of their own (tests/web/attackbench.py), each for ATTACK_SECONDS (default 20): the
# arbiter's status at the control socket and through the page with the PIN, p50 and max; and
# control.log's growth under a flood of reads.  Prints "bench NAME VALUE UNIT" lines.
set -u
build=$(cd "${1:-build}" && pwd)
seconds=${ATTACK_SECONDS:-20}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-attack
need python3 curl
sock="$work/control"
cat >"$work/annabella.conf" <<CONF
[control]
socket = $sock
arbiter-pin = 471108
assistant-pin = 123456
[voice]
record = no
[state]
sync = no
CONF
# A slow game: a move every few seconds for the whole run.
"$build/annabella" script "$dir/games/1956-byrne-fischer.pgn" --player black --variants 3 \
	--time-control 5400+30 >"$work/game.script"
spawn "$build/annabellad" --config "$work/annabella.conf" --board "sim:$work/game.script" \
	--time real --audio none --state "$work/state" >/dev/null 2>&1
wait_socket "$sock" || give_up "the daemon did not start"
port=$(free_port)
spawn "$build/annabella" web --config "$work/annabella.conf" --listen "127.0.0.1:$port" \
	>/dev/null 2>"$work/web.err"
wait_port "$port" || give_up "the page did not start"
wait_for 5 sh -c "curl -sf http://127.0.0.1:$port/api/status >/dev/null" || give_up "the page has no status"
out=$(/usr/bin/python3 "$dir/web/attackbench.py" "$build" "$sock" "$port" "$work/state" "$seconds") ||
	give_up "the measurement failed: $out"
grep -q '^bench attack_commands_status_page_ms ' <<<"$out" || give_up "no figures: $out"
echo "$out"

#!/usr/bin/env bash
# Whole games through annabellad in virtual time, and what the idle daemon costs.
# Prints "bench NAME VALUE UNIT" lines:
#  - replay_100_moves_ms: a long master game (Carlsen - Nepomniachtchi 2021, 136 moves)
#    from its board script through the daemon without speech (--audio none, no audio record,
#    state on a RAM disk without syncing), best of five, scaled to 100 moves; target < 50 ms;
#  - replay_100_moves_synced_ms: the same with the state directory on disk, synced at every
#    completed move and press, as in a tournament;
#  - replay_rss_kb: the daemon's peak resident size during that replay;
#  - idle_wakeups_per_s: the daemon waiting in real time with direct wiring (edge-driven): its
#    voluntary context switches per second while nothing happens (target 0).
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-replay
shm=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
at_exit 'rm -rf "$shm"'
game="$dir/games/2021-carlsen-nepomniachtchi.pgn"
plies=$(/usr/games/pgn-extract -s -Wuci --notags --noresults -w 100000 "$game" 2>/dev/null | wc -w)
moves=$(((plies + 1) / 2))
"$build/annabella" script "$game" --player white --variants 1 --time-control 5400+30 \
	>"$work/game.script"
printf '[voice]\nrecord = no\n[state]\nsync = no\n' >"$work/fast.conf"
printf '[voice]\nrecord = no\n' >"$work/synced.conf"

best_ms() { # CONF STATE_BASE -> best of five wall times in microseconds
	local best=0 t0 t1 d
	for i in 1 2 3 4 5; do
		rm -rf "$2.$i"
		t0=$(date +%s%N)
		"$build/annabellad" --control none --config "$1" --board "sim:$work/game.script" --time virtual \
			--audio none --state "$2.$i" >/dev/null 2>&1
		t1=$(date +%s%N)
		d=$(((t1 - t0) / 1000))
		if [ "$best" -eq 0 ] || [ "$d" -lt "$best" ]; then best=$d; fi
	done
	echo "$best"
}

us=$(best_ms "$work/fast.conf" "$shm/state")
awk -v us="$us" -v m="$moves" 'BEGIN { printf "bench replay_100_moves_ms %.1f ms\n", us / 1000 * 100 / m }'
us=$(best_ms "$work/synced.conf" "$work/state")
awk -v us="$us" -v m="$moves" 'BEGIN { printf "bench replay_100_moves_synced_ms %.1f ms\n", us / 1000 * 100 / m }'
rm -rf "$shm/rss"
/usr/bin/time -o "$work/rss" -f '%M' "$build/annabellad" --control none --config "$work/fast.conf" \
	--board "sim:$work/game.script" --time virtual --audio none --state "$shm/rss" \
	>/dev/null 2>&1
echo "bench replay_rss_kb $(tail -1 "$work/rss") KB"

# Idle: a script that waits 4 s in real time before its only action.
printf 'player white\ntime-control -\n+4000 lift e2\n' >"$work/idle.script"
"$build/annabellad" --control none --config "$work/fast.conf" --board "sim:$work/idle.script" --time real \
	--audio none --state "$shm/idle" >/dev/null 2>&1 &
pid=$!
sleep 1
ctx() { awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }' /proc/$pid/task/*/status 2>/dev/null; }
c0=$(ctx)
sleep 2
c1=$(ctx)
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
awk -v a="$c0" -v b="$c1" 'BEGIN { printf "bench idle_wakeups_per_s %.1f 1/s\n", (b - a) / 2 }'

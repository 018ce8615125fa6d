#!/usr/bin/env bash
# The cost of watching the machine for the fair-play state (daemon/fairplay.h) during a
# tournament game with nothing changing: the daemon's CPU time and wake-ups over a window of
# BENCH_FAIRPLAY_S seconds (60) of a game that waits, with [fairplay] watch = yes (interval 10
# s, the default) and watch = no; the difference, as CPU seconds an hour and wake-ups a second.
# Also one reading of the machine as `annabella seal` makes it (its files not checked).
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin_bench fairplay
window=${BENCH_FAIRPLAY_S:-60}
hz=$(getconf CLK_TCK)

# CPU ticks (user + system) and voluntary context switches (each a wake-up) of a process.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
switches() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$1/status"; }

run() { # WATCH: prints "TICKS SWITCHES" over the window
	local st=$work/state-$1
	printf '[game]\nmode = tournament\n[voice]\nrecord = no\n[fairplay]\nwatch = %s\nfiles = skip\nengine = idle\n' \
		"$1" >"$work/$1.conf"
	printf 'player white\ntime-control 5400+30\n+200 press opponent-clock\n+%d press info\n' \
		$(((window + 30) * 1000)) >"$work/$1.script"
	spawn "$build/annabellad" --config "$work/$1.conf" --board "sim:$work/$1.script" \
		--time real --audio none --control none --state "$st" 2>/dev/null
	local pid=$!
	wait_for 10 grep -q ' fairplay \| press ' "$st/journal" 2>/dev/null
	sleep 2
	local t0 s0
	t0=$(ticks "$pid")
	s0=$(switches "$pid")
	sleep "$window"
	echo "$(($(ticks "$pid") - t0)) $(($(switches "$pid") - s0))"
	stop "$pid"
}
read -r on_ticks on_switches < <(run yes)
read -r off_ticks off_switches < <(run no)
awk -v on="$on_ticks" -v off="$off_ticks" -v hz="$hz" -v w="$window" \
	'BEGIN { d = (on - off) / hz; if (d < 0) d = 0; printf "bench fairplay_cpu_per_hour %.3f s\n", d * 3600 / w }'
awk -v on="$on_switches" -v off="$off_switches" -v w="$window" \
	'BEGIN { d = (on - off) / w; if (d < 0) d = 0; printf "bench fairplay_wakeups %.3f /s\n", d }'
printf '[fairplay]\nfiles = skip\n' >"$work/seal.conf"
start=$(date +%s%N)
for _ in 1 2 3 4 5 6 7 8 9 10; do
	"$build/annabella" seal --config "$work/seal.conf" --socket "$work/none" >/dev/null 2>&1
done
echo "bench fairplay_seal_reading $(((($(date +%s%N) - start) / 10) / 1000000)) ms"

#!/usr/bin/env bash
# Signals and outputs that misbehave (docs/state.md "State directory"): the daemon runs a real-time
# game whose public audio goes through ALSA's file plugin into a FIFO nobody reads (the voice
# blocks once the pipe is full); SIGHUP reloads the configuration's safe parts and says what it
# did not; SIGTERM stops it with the journal whole although its audio output blocks.  A second
# run's audio FIFO loses its reader mid-game (SIGPIPE): the game goes on.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin signals

cat >"$work/game.script" <<'SCRIPT'
player white
time-control -
+300 lift e2
+300 place e4
+1000 lift e7
+300 place e5
+1000 lift g1
+300 place f3
+1000 lift b8
+300 place c6
+600000 lift f1
SCRIPT
conf() { # FIFO RATE
	printf '[voice]\nrate = %s\npublic-device = file:FILE=%s,FORMAT=raw\nprivate-device = null\n[log]\nlevel = info\n' \
		"$2" "$1" >"$work/a.conf"
}
conf "$work/fifo1" 175

# 1. A blocking audio output, SIGHUP, SIGTERM.
mkfifo "$work/fifo1"
sleep 60 <"$work/fifo1" & # a reader that never reads: the pipe fills, the voice blocks
track $!
spawn "$build/annabellad" --config "$work/a.conf" --board "sim:$work/game.script" --time real \
	--audio alsa --control none --state "$work/s1" >"$work/s1.out" 2>&1
pid=$!
sleep 4.5
conf "$work/fifo1" 190
kill -HUP $pid
sleep 0.5
kill -0 $pid 2>/dev/null
check $? "the daemon died of SIGHUP"
grep -q "SIGHUP: reloaded" "$work/s1.out"
check $? "SIGHUP did not say what it reloaded: $(tail -3 "$work/s1.out")"
t0=$(date +%s%N)
kill -TERM $pid
for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && { kill -9 $pid; false; } || true
wait $pid 2>/dev/null
rc=$?
t1=$(date +%s%N)
echo "signals: SIGTERM with a blocked audio output: exited $rc after $(((t1 - t0) / 1000000)) ms"
check $((rc != 0)) "SIGTERM: exit status $rc"
[ "$(records "$build" "$work/s1" made | wc -l)" = 4 ]
check $? "SIGTERM: the journal does not hold the 4 moves"

# 2. An audio reader that goes away: SIGPIPE is no end.
mkfifo "$work/fifo2"
conf "$work/fifo2" 175
(timeout 1.5 cat "$work/fifo2" >/dev/null) &
spawn "$build/annabellad" --config "$work/a.conf" --board "sim:$work/game.script" --time real \
	--audio alsa --control none --state "$work/s2" >"$work/s2.out" 2>&1
pid=$!
sleep 5
kill -0 $pid 2>/dev/null
check $? "the daemon died when its audio reader went away: $(tail -2 "$work/s2.out")"
[ "$(records "$build" "$work/s2" made | wc -l)" = 4 ]
check $? "after SIGPIPE the moves were not recorded"
stop $pid
summary

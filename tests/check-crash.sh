#!/usr/bin/env bash
# Power loss at random points of a game (the sim's `crash`: SIGKILL, nothing flushed), each
# followed by a restart that plays the rest: the final game.pgn must hold the whole game.
# CRASH_POINTS (default 200) crash points, chosen at random (seeded) through a real game with
# a Fischer clock; the restart's script places the pegs as they stood at the crash.
# CRASH_FAST=1 plays the game fast (every wait cut to at most 250 ms: replies begun within
# the settle time, replications not yet settled); CRASH_ALL=1 cuts the power after every
# action of the script instead of at random points (make torture).  Every other point cuts
# the power at a random byte offset of the writes the action causes instead (`crash after
# BYTES`): a torn journal record, a scoresheet's temporary file written in part and never
# renamed; CRASH_BYTES=0 leaves them out, CRASH_BYTES=all makes every point one.  Every
# third of the other points is a real power cut (`crash unsynced`): the journal also loses
# what was written after its last sync; CRASH_UNSYNCED=0 leaves them out.
set -u
build=${1:-build}
points=${CRASH_POINTS:-200}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin crash
pgnx=/usr/games/pgn-extract
game="$dir/games/1999-kasparov-topalov.pgn"

$pgnx -s -Wuci --nomovenumbers --notags --noresults -w 100000 "$game" >"$work/orig.uci" 2>/dev/null
"$build/annabella" script "$game" --player black --variants 77 --time-control 5400+30 \
	--chatter >"$work/game.script"
if [ "${CRASH_FAST:-0}" = 1 ]; then
	awk '{ if (match($0, /^\+[0-9]+ /)) { n = substr($0, 2, RLENGTH - 2) + 0;
		if (n > 250) n = 250; print "+" n substr($0, RLENGTH) } else print }' \
		"$work/game.script" >"$work/fast.script"
	mv "$work/fast.script" "$work/game.script"
fi
actions=$(grep -c -E '^\+[0-9]+ ' "$work/game.script")
# No fsync: what a power cut keeps is simulated (`crash unsynced` cuts the journal back to
# where it would have been synced), so the test needs no slow storage.
printf '[state]\nsync = no\n' >"$work/crash.conf"
[ "${CRASH_ALL:-0}" = 1 ] && points=$((actions + 1))
RANDOM=20261121
for ((i = 1; i <= points; i++)); do
	k=$((RANDOM % (actions + 1)))
	wait_ms=$((RANDOM % 400))
	[ "${CRASH_ALL:-0}" = 1 ] && k=$((i - 1)) && wait_ms=0
	run="$work/run$i"
	mkdir -p "$run/state"
	bytes=""
	case ${CRASH_BYTES:-half} in
	all) bytes=$((RANDOM % 600 + 1)) ;;
	half) [ $((i % 2)) -eq 0 ] && [ "$k" -gt 0 ] && bytes=$((RANDOM % 600 + 1)) ;;
	esac
	# Every third point a real power cut: the journal loses what was not yet synced.
	[ -z "$bytes" ] && [ "${CRASH_UNSYNCED:-1}" = 1 ] && [ $((i % 3)) -eq 0 ] && bytes=unsynced
	python3 "$dir/gamecheck.py" split "$work/game.script" "$k" "$wait_ms" "$run/1.script" \
		"$run/2.script" $bytes
	# In a subshell whose own report of the expected SIGKILL goes nowhere.
	rc1=$( (
		"$build/annabellad" --config "$work/crash.conf" --control none --board "sim:$run/1.script" --time virtual --audio none \
			--state "$run/state" >"$run/1.out" 2>&1
		echo $?
	) 2>/dev/null)
	"$build/annabellad" --config "$work/crash.conf" --control none --board "sim:$run/2.script" --time virtual --audio none \
		--state "$run/state" >"$run/2.out" 2>&1
	rc2=$?
	$pgnx -s -Wuci --nomovenumbers --notags --noresults -w 100000 "$run/state/game.pgn" \
		>"$run/final.uci" 2>/dev/null
	if [ $rc1 -eq 137 ] && [ $rc2 -eq 0 ] && cmp -s "$work/orig.uci" "$run/final.uci"; then
		ok
		rm -rf "$run"
	else
		bad "point $i (after action $k of $actions, +$wait_ms ms${bytes:+, $bytes}): runs exited $rc1, $rc2;" \
			"moves: $(wc -w <"$run/final.uci") of $(wc -w <"$work/orig.uci")"
	fi
done
summary

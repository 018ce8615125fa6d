#!/usr/bin/env bash
# The recovery torture test, short (tests/torture.py; `make torture` runs it at full size):
# a power cut at a random action of a real game, then one kind of damage to the state
# directory (a flipped byte, a cut, the journal emptied or deleted, two records swapped, a
# block written twice, both copies flipped, both cut, the journal and game.record both lost),
# then the rest of the game: every move and reading on disk is in the final game.pgn
# unchanged, nothing invented, and the game goes on to its end.  TORTURE_TRIALS (default 4)
# trials of each kind.  First its checks are shown to find a loss: a reading taken out, a
# reading changed and moves taken out of the final game.pgn (TORTURE_PLANT) each fail it.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin torture
for plant in reading:"reading of move 1 .* lost" invent:"move 1's reading .* became" \
	move:"move 4 lost"; do
	TORTURE_PLANT=${plant%%:*} python3 "$tests/torture.py" "$build" 1 7 flip >"$work/plant.out" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q "${plant#*:}" "$work/plant.out"; then ok; else
		bad "a planted loss (${plant%%:*}) was not found: exit $rc"
		indent <"$work/plant.out"
	fi
done
python3 "$tests/torture.py" "$build" "${TORTURE_TRIALS:-4}" >"$work/torture.out" 2>&1
check $? "$(grep -v '^torture: [a-z-]* *[0-9]* trials' "$work/torture.out" | head -20)"
grep '^torture: [a-z-]* *[0-9]* trials' "$work/torture.out"
summary

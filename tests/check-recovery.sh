#!/usr/bin/env bash
# Damaged journals (DESIGN 4.4): a long game is played, then its journal is damaged (one
# flipped byte at a random offset, or cut at a random offset) and the daemon restarted on it,
# RECOVERY_TRIALS times each (default 50; `make torture` runs 200).  Every restart must start;
# the scoresheet on disk must never lose a move it held (game.pgn, or the copy kept under
# games/ when the journal gave back fewer moves); the recovered game must be a prefix of the
# real one (nothing invented).  The share of restarts whose recovered game is whole is
# reported: a move record the journal lost is put back from game.pgn; only a damaged game
# record (the journal's first line) leaves a new game, with the old scoresheet kept.
set -u
build=${1:-build}
trials=${RECOVERY_TRIALS:-50}
dir=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pgnx=/usr/games/pgn-extract
game="$dir/games/1999-kasparov-topalov.pgn"
passed=0
failed=0
whole=0

# The moves of a PGN file in UCI, one per line (an empty game gives none).
uci() {
	$pgnx -s -Wuci --nomovenumbers --notags --noresults -w 100000 "$1" 2>/dev/null |
		tr -s ' ' '\n' | grep -E '^[a-h][1-8][a-h][1-8][qrbn]?$'
}

"$build/annabella" script "$game" --player white --variants 5 --time-control 5400+30 \
	>"$work/game.script"
"$build/annabellad" --control none --board "sim:$work/game.script" --time virtual --audio none \
	--state "$work/base" >"$work/base.out" 2>&1 || {
	echo "recovery: the game did not play"
	exit 1
}
uci "$work/base/game.pgn" >"$work/orig.uci"
plies=$(wc -l <"$work/orig.uci")
size=$(stat -c %s "$work/base/journal")
printf 'player white\ntime-control 5400+30\n' >"$work/restart.script"
RANDOM=20261124
for kind in flip cut; do
	for ((i = 1; i <= trials; i++)); do
		run="$work/$kind$i"
		cp -r "$work/base" "$run"
		offset=$(((RANDOM * 32768 + RANDOM) % size))
		if [ $kind = flip ]; then
			python3 -c 'import sys
p, o = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
b[o] ^= 1 << (o % 8)
open(p, "wb").write(bytes(b))' "$run/journal" "$offset"
		else
			truncate -s "$offset" "$run/journal"
		fi
		"$build/annabellad" --control none --board "sim:$work/restart.script" --time virtual \
			--audio none --state "$run" >"$run.out" 2>&1
		rc=$?
		uci "$run/game.pgn" >"$run.uci"
		kept=$(ls "$run"/games/*before-recovery* 2>/dev/null | head -1)
		held=$(wc -l <"$run.uci")
		[ -n "$kept" ] && held=$(uci "$kept" | wc -l)
		got=$(wc -l <"$run.uci")
		if [ $rc -eq 0 ] && [ "$held" -eq "$plies" ] &&
			head -n "$got" "$work/orig.uci" | cmp -s - "$run.uci"; then
			passed=$((passed + 1))
			if [ "$got" -eq "$plies" ]; then
				whole=$((whole + 1))
			else
				echo "recovery: $kind at byte $offset: recovered $got of $plies moves;" \
					"the scoresheet kept whole"
			fi
			rm -rf "$run" "$run.out" "$run.uci"
		else
			failed=$((failed + 1))
			echo "recovery: $kind at byte $offset: exit $rc; recovered $got, on disk $held of $plies"
			sed 's/^/    /' "$run.out" | head -5
		fi
	done
done
# annabella fsck: a dry run changes nothing and says the record is damaged; --repair mends
# it as the daemon would; then it is whole.
cp -r "$work/base" "$work/fsck"
python3 -c 'import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 2] ^= 4
open(p, "wb").write(bytes(b))' "$work/fsck/journal"
before=$(md5sum <"$work/fsck/journal")
"$build/annabella" fsck "$work/fsck" >"$work/fsck1.out"
rc1=$?
after=$(md5sum <"$work/fsck/journal")
"$build/annabella" fsck "$work/fsck" --repair >"$work/fsck2.out"
rc2=$?
"$build/annabella" fsck "$work/fsck" >"$work/fsck3.out"
rc3=$?
if [ $rc1 -eq 1 ] && [ "$before" = "$after" ] && grep -q "damaged" "$work/fsck1.out" &&
	[ $rc2 -eq 1 ] && grep -q "mended" "$work/fsck2.out" && [ $rc3 -eq 0 ] &&
	grep -q "whole" "$work/fsck3.out" && grep -q "$plies moves recovered" "$work/fsck3.out"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "recovery: fsck: exits $rc1 $rc2 $rc3"
	cat "$work"/fsck?.out | sed 's/^/    /'
fi
echo "recovery: recovered game whole in $whole of $((2 * trials))"
echo "recovery: $passed passed, $failed failed"
[ $failed -eq 0 ]

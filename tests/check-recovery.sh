#!/usr/bin/env bash
# Damaged journals (docs/state.md "State directory"): a long game is played, then its journal is
# damaged (one flipped byte at a random offset, or cut at a random offset) and the daemon
# restarted on it, RECOVERY_TRIALS times each (default 50; `make torture` runs 200).  Every
# restart must start; the scoresheet on disk must never lose a move it held (game.pgn, or the
# copy kept under games/ when the journal gave back fewer moves); the recovered game must be a
# prefix of the real one (nothing invented).  The share of restarts whose recovered game is
# whole is reported: a move record the journal lost is put back from game.pgn; only a damaged
# game record (the journal's first line) leaves a new game, with the old scoresheet kept.
set -u
build=${1:-build}
trials=${RECOVERY_TRIALS:-50}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin recovery
pgnx=/usr/games/pgn-extract
game="$dir/games/1999-kasparov-topalov.pgn"
whole=0

# The moves of a PGN file in UCI, one per line (an empty game gives none).
uci() {
	$pgnx -s -Wuci --nomovenumbers --notags --noresults -w 100000 "$1" 2>/dev/null |
		tr -s ' ' '\n' | grep -E '^[a-h][1-8][a-h][1-8][qrbn]?$'
}

"$build/annabella" script "$game" --player white --variants 5 --time-control 5400+30 \
	>"$work/game.script"
"$build/annabellad" --control none --board "sim:$work/game.script" --time virtual --audio none \
	--state "$work/base" >"$work/base.out" 2>&1 || give_up "the game did not play"
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
			ok
			if [ "$got" -eq "$plies" ]; then
				whole=$((whole + 1))
			else
				echo "recovery: $kind at byte $offset: recovered $got of $plies moves;" \
					"the scoresheet kept whole"
			fi
			rm -rf "$run" "$run.out" "$run.uci"
		else
			bad "$kind at byte $offset: exit $rc; recovered $got, on disk $held of $plies"
			show "$run.out"
		fi
	done
done
# annabella fsck: a dry run changes nothing and says the record is damaged; --repair mends
# it as the daemon would; then it is whole.
# The game record itself damaged, or the journal emptied by a power cut: the game comes back
# whole from the game record's copy (game.record) and the moves in game.pgn; a finished
# game, whose scoresheet is under games/, is not brought back as an empty game.
restart() { # STATE
	"$build/annabellad" --control none --board "sim:$work/restart.script" --time virtual \
		--audio none --state "$1" >"$1.out" 2>&1
}
same() { # NAME STATE WANT_UCI: game.pgn's moves equal WANT_UCI's
	uci "$2/game.pgn" >"$2.uci"
	if cmp -s "$3" "$2.uci"; then ok; else
		bad "$1: $(wc -l <"$2.uci") of $(wc -l <"$3") moves"
		show "$2.out"
	fi
}
cp -r "$work/base" "$work/first"
python3 -c 'import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[20] ^= 2
open(p, "wb").write(bytes(b))' "$work/first/journal"
restart "$work/first"
same "the game record damaged" "$work/first" "$work/orig.uci"
head -n $(($(wc -l <"$work/game.script") / 2)) "$work/game.script" >"$work/half.script"
"$build/annabellad" --control none --board "sim:$work/half.script" --time virtual --audio none \
	--state "$work/half" >"$work/half.out" 2>&1
uci "$work/half/game.pgn" >"$work/half.uci"
: >"$work/half/journal"
restart "$work/half"
same "an empty journal" "$work/half" "$work/half.uci"
head -n 1 "$work/half/journal" | grep -q ' game game-0001 ' &&
	[ "$(grep -c ' made ' "$work/half/journal")" -eq "$(wc -l <"$work/half.uci")" ]
check $? "an empty journal: the game did not resume: $(head -c 200 "$work/half/journal")"
{ cat "$work/half.script"; printf '+1000 control arbiter result 1/2-1/2 agreed\n'; } \
	>"$work/ended.script"
"$build/annabellad" --control none --board "sim:$work/ended.script" --time virtual \
	--audio none --state "$work/ended" >"$work/ended0.out" 2>&1
: >"$work/ended/journal"
restart "$work/ended"
uci "$work/ended/games/game-0001.pgn" >"$work/ended.uci"
if cmp -s "$work/half.uci" "$work/ended.uci" && grep -q '1/2-1/2' "$work/ended/games/game-0001.pgn" &&
	head -n 1 "$work/ended/journal" | grep -q ' game game-0002 '; then
	ok
else
	bad "an empty journal after the game ended: the archive holds" \
		"$(wc -l <"$work/ended.uci") moves; the journal: $(head -c 100 "$work/ended/journal")"
	show "$work/ended.out"
fi
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
	ok
else
	bad "fsck: exits $rc1 $rc2 $rc3"
	cat "$work"/fsck?.out | indent
fi
echo "recovery: recovered game whole in $whole of $((2 * trials))"
summary

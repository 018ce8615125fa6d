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
records "$build" "$work/half" game | grep -q '^1 0 game game-0001 ' &&
	[ "$(records "$build" "$work/half" made | wc -l)" -eq "$(wc -l <"$work/half.uci")" ]
check $? "an empty journal: the game did not resume: $(head -c 200 "$work/half/journal")"
{ cat "$work/half.script"; printf '+1000 control arbiter result 1/2-1/2 agreed\n'; } \
	>"$work/ended.script"
"$build/annabellad" --control none --board "sim:$work/ended.script" --time virtual \
	--audio none --state "$work/ended" >"$work/ended0.out" 2>&1
: >"$work/ended/journal"
restart "$work/ended"
uci "$work/ended/games/game-0001.pgn" >"$work/ended.uci"
if cmp -s "$work/half.uci" "$work/ended.uci" && grep -q '1/2-1/2' "$work/ended/games/game-0001.pgn" &&
	records "$build" "$work/ended" game | grep -q '^1 0 game game-0002 '; then
	ok
else
	bad "an empty journal after the game ended: the archive holds" \
		"$(wc -l <"$work/ended.uci") moves; the journal: $(head -c 100 "$work/ended/journal")"
	show "$work/ended.out"
fi
# The journal and game.record both lost (deleted, emptied, or the journal's first line and
# game.record each with a bad byte: one damaged region of a card takes both): game.pgn, the
# only copy, resumes the game (never a new game written over it) and is kept under games/
# as it was; fsck says so first.
for how in deleted emptied flipped; do
	st="$work/only-$how"
	"$build/annabellad" --control none --board "sim:$work/half.script" --time virtual \
		--audio none --state "$st" >"$st.0.out" 2>&1
	cp "$st/game.pgn" "$st.pgn"
	case $how in
	deleted) rm "$st/journal" "$st/game.record" ;;
	emptied) : >"$st/journal" && : >"$st/game.record" ;;
	flipped) python3 -c 'import sys
for p in sys.argv[1:]:
    b = bytearray(open(p, "rb").read())
    b[b.index(b" game ") + 3] ^= 4
    open(p, "wb").write(bytes(b))' "$st/journal" "$st/game.record" ;;
	esac
	"$build/annabella" fsck "$st" >"$st.fsck" 2>&1
	rc=$?
	restart "$st"
	uci "$st/game.pgn" >"$st.uci"
	kept=$(ls "$st"/games/*-before-recovery-*.pgn 2>/dev/null | head -1)
	if [ $rc -eq 1 ] && grep -q 'resumed from game.pgn alone' "$st.fsck" &&
		cmp -s "$work/half.uci" "$st.uci" && [ -n "$kept" ] && cmp -s "$kept" "$st.pgn" &&
		grep -q 'private .*Partieformular war noch da' "$st/speech.log" &&
		records "$build" "$st" game | grep -q '^1 0 game game-0001 '; then
		ok
	else
		bad "the journal and game.record $how: fsck exit $rc; $(wc -l <"$st.uci") of" \
			"$(wc -l <"$work/half.uci") moves; kept: ${kept:-none}"
		show "$st.fsck"
		show "$st.out"
	fi
done
# Every two adjacent records of a game with moves made and presses given while the clocks
# stood, swapped in turn: after a restart every move keeps the reading it had and no move
# gets one it did not have (the arbiter resumes; nothing else is played).
cat >"$work/paused.script" <<'EOF'
player white
time-control 300+2
+500 press opponent-clock
+1000 lift e2
+300 place e4
+500 press player-clock
+1500 lift c7
+300 place c5
+500 press opponent-clock
+500 control arbiter pause
+1000 lift g1
+300 place f3
+700 press player-clock
+500 control arbiter resume
+1800 lift d7
+300 place d6
+400 press opponent-clock
+500 control arbiter pause
+800 press opponent-clock
+1000 lift f1
+300 place b5
+500 control arbiter resume
+1000 crash
EOF
printf 'player white\ntime-control 300+2\n+500 control arbiter resume\n' >"$work/resume.script"
( "$build/annabellad" --control none --board "sim:$work/paused.script" --time virtual \
	--audio none --state "$work/paused" >/dev/null 2>&1 ) 2>/dev/null
readings() { "$build/annabella" journal --json "$1" 2>/dev/null | python3 -c 'import json, sys
print(" ".join("%s:%d" % (p["san"], p["clk_ms"] // 1000)
               for p in json.load(sys.stdin)["scoresheet"]["plies"]))'; }
want=$(readings "$work/paused")
n=$(wc -l <"$work/paused/journal")
swaps=0
for ((i = 1; i < n; i++)); do
	st="$work/swap$i"
	cp -r "$work/paused" "$st"
	python3 -c 'import sys
p, i = sys.argv[1], int(sys.argv[2])
l = open(p, "rb").read().split(b"\n")
l[i - 1], l[i] = l[i], l[i - 1]
open(p, "wb").write(b"\n".join(l))' "$st/journal" "$i"
	"$build/annabellad" --control none --board "sim:$work/resume.script" --time virtual \
		--audio none --state "$st" >"$st.out" 2>&1
	got=$(readings "$st")
	if [ "$got" != "$want" ]; then
		bad "lines $i and $((i + 1)) swapped: the readings are $got, not $want"
	else
		swaps=$((swaps + 1))
		rm -rf "$st" "$st.out"
	fi
done
[ $swaps -eq $((n - 1)) ] && ok
# Both copies damaged and the card full at the restart: the repair waits; the next restart on
# a card with room finishes it (fsck calls the record whole after it, one copy of each file
# kept under games/).
"$build/annabellad" --control none --board "sim:$work/half.script" --time virtual --audio none \
	--state "$work/full" >"$work/full.half.out" 2>&1
python3 -c 'import sys
j = bytearray(open(sys.argv[1], "rb").read())
j[j.index(b" made 2 ") + 3] ^= 1
open(sys.argv[1], "wb").write(bytes(j))
p = bytearray(open(sys.argv[2], "rb").read())
p[p.index(b"2. d4") + 4] ^= 0x20
open(sys.argv[2], "wb").write(bytes(p))' "$work/full/journal" "$work/full/game.pgn"
printf 'player white\ntime-control 5400+30\n+0 disk full\n+1000 crash\n' >"$work/full.script"
( "$build/annabellad" --control none --board "sim:$work/full.script" --time virtual --audio none \
	--state "$work/full" >"$work/full.0.out" 2>&1 ) 2>/dev/null
restart "$work/full"
"$build/annabella" fsck "$work/full" >"$work/full.fsck" 2>&1
rc=$?
copies=$(ls "$work/full/games" | grep -c -e '-damaged-' -e '-before-recovery-')
if [ $rc -eq 0 ] && [ "$copies" = 2 ]; then ok; else
	bad "a repair postponed by a full card: fsck exit $rc after one restart, $copies copies kept"
	show "$work/full.fsck"
	ls "$work/full/games" | indent
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

#!/usr/bin/env bash
# Many games in one run (virtual time): each a short game to mate, approved, the board set
# up again for the next.  The daemon's peak memory after 100 games is that after 10 (within
# 10 %, and it must not grow with the games), and games/ keeps the last `keep-audio` (3)
# games' audio records and every scoresheet.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin soak
games() { # N: fool's mate N times, each approved and the start position set up again
	echo "player white"
	echo "time-control -"
	for ((i = 0; i < $1; i++)); do
		printf '+1000 lift f2\n+300 place f3\n+1000 lift e7\n+300 place e5\n'
		printf '+1000 lift g2\n+300 place g4\n+1000 lift d8\n+300 place h4\n'
		printf '+2000 control assistant approve\n'
		printf '+1000 lift f3\n+300 place f2\n+300 lift g4\n+300 place g2\n'
		printf '+300 lift e5\n+300 place e7\n+300 lift h4\n+300 place d8\n+2000 lift a2\n+300 place a2\n'
	done
}
printf '[state]\nkeep-audio = 3\n' >"$work/a.conf"
for n in 10 100; do
	games $n >"$work/$n.script"
	/usr/bin/time -f %M -o "$work/$n.rss" "$build/annabellad" --config "$work/a.conf" \
		--board "sim:$work/$n.script" --time virtual --audio none --control none \
		--state "$work/s$n" >"$work/$n.out" 2>&1
	check $? "$n games: the daemon failed: $(tail -3 "$work/$n.out")"
done
r10=$(cat "$work/10.rss")
r100=$(cat "$work/100.rss")
echo "soak: peak resident size after 10 games ${r10} KB, after 100 games ${r100} KB"
[ "$r100" -le $((r10 * 11 / 10)) ]
check $? "memory grows with the games: $r10 KB after 10, $r100 KB after 100"
pgns=$(ls "$work/s100/games/"*.pgn | wc -l)
wavs=$(ls "$work/s100/games/"*.opus | wc -l)
echo "soak: games/ after 100 games: $pgns scoresheets, $wavs audio records"
[ "$pgns" -ge 100 ]
check $? "scoresheets kept: $pgns (want every game)"
[ "$wavs" -le 4 ]
check $? "audio records kept: $wavs (want the last 3 and the game being played)"
summary

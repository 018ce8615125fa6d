#!/usr/bin/env bash
# Property test over whole games: PGN -> board script -> annabellad -> game.pgn with the same
# moves (read back by pgn-extract, an independent PGN reader), every move announced with its
# Appendix D words, and with a clock every [%clk] equal to the time computed independently
# from the script's presses.  Real master games from tests/games/, both colours, varied lift
# orders, chatter, opponent presses before and after replication, several time controls, a
# fast player whose moves follow one another with no still moment between them;
# plus Stockfish self-play games when Stockfish is installed.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin games
pgnx=/usr/games/pgn-extract

games=("$dir"/games/*.pgn)
if [ -x /usr/games/stockfish ]; then
	if "$dir/selfplay.sh" 4 2024 "$work/selfplay.pgn" >/dev/null 2>&1; then
		# One file per game.
		awk -v out="$work/selfplay" '/^\[Event /{n++} {print > (out "-" n ".pgn")}' \
			"$work/selfplay.pgn"
		games+=("$work"/selfplay-*.pgn)
	else
		echo "games: Stockfish self-play failed; master games only"
	fi
else
	echo "games: Stockfish not installed; master games only"
fi

tcs=("-" "5400+30" "40/5400+30:1800+30" "900+10" "3600d5" "1800b10" "7200")
i=0
for g in "${games[@]}"; do
	name=$(basename "$g" .pgn)
	$pgnx -s -Wuci --nomovenumbers --notags --noresults -w 100000 "$g" >"$work/$name.orig" 2>/dev/null
	for player in white black fast; do
		i=$((i + 1))
		tc=${tcs[$((i % ${#tcs[@]}))]}
		extra=()
		[ $((i % 3)) -eq 0 ] && extra+=(--chatter)
		run="$work/$name-$player"
		mkdir -p "$run"
		colour=$player
		[ "$player" = fast ] && colour=$([ $((i % 2)) -eq 0 ] && echo white || echo black)
		if ! "$build/annabella" script "$g" --player "$colour" --variants "$i" \
			--time-control "$tc" "${extra[@]}" >"$run.script" 2>"$run.err"; then
			bad "$name as $player: script failed: $(cat "$run.err")"
			continue
		fi
		# "fast": every wait a fifth (at least 100 ms): moves follow one another with no
		# still moment between them.
		if [ "$player" = fast ]; then
			python3 "$dir/gamecheck.py" squeeze "$run.script" 5 100 "$run.fast"
			mv "$run.fast" "$run.script"
		fi
		if ! "$build/annabellad" --control none --board "sim:$run.script" --time virtual --audio none \
			--state "$run" >"$run.out" 2>&1; then
			bad "$name as $player: annabellad failed: $(head -3 "$run.out")"
			continue
		fi
		$pgnx -s -Wuci --nomovenumbers --notags --noresults -w 100000 "$run/game.pgn" \
			>"$run.uci" 2>"$run.pgnx"
		if [ -s "$run.pgnx" ]; then
			bad "$name as $player: pgn-extract complains: $(head -3 "$run.pgnx")"
		elif python3 "$dir/gamecheck.py" check "$run.script" "$work/$name.orig" "$run" \
			"$run.uci" | sed "s/^/$name as $player: /"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
			ok
		else
			bad "$name as $player (tc $tc, variants $i ${extra[*]}) FAILED"
		fi
	done
done
summary

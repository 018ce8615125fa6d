#!/usr/bin/env bash
# Differential test of the move generator: `annabella perft FEN N` against Stockfish's
# `go perft N` on positions from real games (every tests/games/*.pgn, through
# pgn-extract -Wepd) and a fixed list of tricky middlegame and endgame positions.
# Usage: tests/check-stockfish.sh BUILD_DIR
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin check-stockfish
annabella="$build/annabella"
stockfish=${STOCKFISH:-/usr/games/stockfish}
pgn_extract=${PGN_EXTRACT:-/usr/games/pgn-extract}
depth=${PERFT_DEPTH:-4}
sample=${PERFT_SAMPLE:-80} # positions taken from the games

[ -x "$stockfish" ] || skip "$stockfish not found"
[ -x "$annabella" ] || give_up "$annabella not built"

# Positions known to catch move generator bugs (pins, e.p., castling, promotions).
cat >"$work/fens" <<'FENS'
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1
r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1
rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8
r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10
8/8/8/K2pP2r/8/8/8/7k w - d6 0 1
3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1
8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1
8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1
5k2/8/8/8/8/8/8/4K2R w K - 0 1
3k4/8/8/8/8/8/8/R3K3 w Q - 0 1
r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1
r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1
2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1
8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1
4k3/1P6/8/8/8/8/K7/8 w - - 0 1
8/P1k5/K7/8/8/8/8/8 w - - 0 1
K1k5/8/P7/8/8/8/8/8 w - - 0 1
8/k1P5/8/1K6/8/8/8/8 w - - 0 1
8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1
r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1
8/5pk1/6p1/7p/5P1P/6P1/6K1/8 w - - 0 40
2r3k1/pp3ppp/8/3p4/3P4/8/PP3PPP/2R3K1 b - - 0 25
FENS

if [ -x "$pgn_extract" ] && compgen -G "$dir/games/*.pgn" >/dev/null; then
	# Every position of every game, openings included; take an even sample of them.
	"$pgn_extract" -Wepd --quiet "$dir"/games/*.pgn 2>/dev/null |
		awk '{ print $1, $2, $3, $4, "0", "1" }' >"$work/game-fens"
	total=$(wc -l <"$work/game-fens")
	if [ "$total" -gt 0 ]; then
		step=$(((total + sample - 1) / sample))
		awk -v s="$step" 'NR % s == 0' "$work/game-fens" >>"$work/fens"
	fi
else
	echo "check-stockfish: no games or no pgn-extract, built-in positions only"
fi

# One Stockfish process answers every position, in order.
{
	echo "setoption name Threads value 1"
	while IFS= read -r fen; do
		echo "position fen $fen"
		echo "go perft $depth"
	done <"$work/fens"
	if [ "${PERFT_START6:-1}" = 1 ]; then
		echo "position startpos"
		echo "go perft 6"
	fi
	echo "quit"
} | "$stockfish" 2>/dev/null | sed -n 's/^Nodes searched: *//p' >"$work/expected"

i=0
run_one() { # FEN DEPTH EXPECTED
	local got
	got=$("$annabella" perft "$1" "$2" 2>&1 | tail -1)
	[ "$got" = "$3" ]
	check $? "MISMATCH perft $2 \"$1\": annabella $got, stockfish $3"
}
mapfile -t expected <"$work/expected"
while IFS= read -r fen; do
	run_one "$fen" "$depth" "${expected[$i]:-none}"
	i=$((i + 1))
done <"$work/fens"
if [ "${PERFT_START6:-1}" = 1 ]; then
	run_one startpos 6 "${expected[$i]:-none}"
fi

summary

#!/usr/bin/env bash
# Who can still checkmate (chess/mate.c), proven exact for positions of at most five men
# without pawns against an independent retrograde analysis (tests/mate/mateproof.c):
#  - make check: every material of up to four men, every position with the white king in
#    the a1-d1-d4 triangle (all positions up to the board's symmetries), and the five-man
#    material K+N v K+Q+Q; 20,000 random positions of each material anywhere, with both
#    colours' questions;
#  - MATE_FULL=1 (make torture): every material of up to five men in the same way (about two
#    hours here).
# White's questions of every material in both colours are all the questions there are
# (Black's are White's of the mirrored material); the random positions ask both.
# The checkmates and stalemates the analysis starts from are also put to Stockfish
# (/usr/games/stockfish, run as a separate program), which must see each the same way.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin check-mate
proof="$build/tests/mateproof"

if [ -n "${MATE_FULL:-}" ]; then
	"$proof" --men 5 --white-only --sample 100000 --quiet --stockfish "$work/terminal.fen"
	check $? "the proof of every material of up to five men failed"
else
	"$proof" --men 4 --white-only --sample 20000 --quiet --stockfish "$work/terminal.fen"
	check $? "the proof of every material of up to four men failed"
	"$proof" --material KNvKQQ --white-only --sample 20000 --quiet
	check $? "the proof of K+N v K+Q+Q failed"
fi

# Stockfish's view of the oracle's terminal positions: a checkmate has no move and a mate
# score, a stalemate no move and a draw score.
sf=/usr/games/stockfish
if [ -x "$sf" ] && [ -s "$work/terminal.fen" ]; then
	n=$(wc -l <"$work/terminal.fen")
	{
		echo uci
		while read -r kind fen; do
			echo "position fen $fen"
			echo "go depth 1"
		done <"$work/terminal.fen"
		echo quit
	} | "$sf" >"$work/sf.out" 2>&1
	# One verdict per search: the last score before each bestmove.
	awk '/^info .* score /{ for (i = 1; i <= NF; i++) if ($i == "score") s = $(i + 1) " " $(i + 2) }
	     /^bestmove/{ print $2, s; s = "" }' "$work/sf.out" >"$work/sf.verdicts"
	paste -d' ' <(cut -d' ' -f1 "$work/terminal.fen") "$work/sf.verdicts" |
		awk -v n="$n" '
		$1 == "mate" && $2 == "(none)" && $3 == "mate" && $4 == 0 { ok++; next }
		$1 == "stalemate" && $2 == "(none)" && $3 == "cp" && $4 == 0 { ok++; next }
		{ bad++; if (bad <= 5) print "check-mate: Stockfish disagrees: " $0 }
		END { printf "check-mate: Stockfish agrees on %d of %d checkmates and stalemates\n", ok, n
		      exit (ok == n ? 0 : 1) }'
	check $? "Stockfish sees some checkmates or stalemates otherwise"
else
	echo "check-mate: no Stockfish or no terminal positions: that cross-check skipped"
fi
summary

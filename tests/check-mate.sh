#!/usr/bin/env bash
# Who can still checkmate (chess/mate.c), docs/arbiter.md "Who can still checkmate".
#
# 1. Proven exact for positions of at most five men without pawns against an independent
#    retrograde analysis (tests/mate/mateproof.c):
#    - make check: every material of up to four men, every position with the white king in
#      the a1-d1-d4 triangle (all positions up to the board's symmetries), and the five-man
#      material K+N v K+Q+Q; 20,000 random positions of each material anywhere, with both
#      colours' questions, 300 of them also with the helpmate line, which is replayed;
#    - MATE_FULL=1 (make torture): every material of up to five men in the same way (about
#      two hours here).
#    White's questions of every material in both colours are all the questions there are
#    (Black's are White's of the mirrored material); the random positions ask both.  The
#    checkmates and stalemates the analysis starts from are also put to Stockfish
#    (/usr/games/stockfish, run as a separate program), which must see each the same way.
# 2. On the public classified sets of ../shared/data (tests/mate/mateset.c; MATE_DATA names
#    another place; where they are absent that part says it was skipped, and is counted so):
#    the final positions of about 30,000 online games lost on time (the side with time left
#    asked), CHA-Solver's 65,536 positions of lichess games, every position from ply 40 of
#    tests/games/ (both sides: there no answer may be undecided but the cases named in
#    tests/mate/undecided.txt), and the hard constructed sets (D3-Chess's test vector,
#    CHA-Solver's positions.txt: undecided answers are listed, none may be wrong).  Every
#    "possible" answer's helpmate is replayed to mate, every answer must agree with the
#    set's class, and every "never" of a position with pawns is put to an independent proof
#    (every reachable position generated, up to MATE_VERIFY of them: 20,000, 300,000 with
#    MATE_FULL); one it cannot settle within that is counted, and rests on the set's class.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin check-mate
proof="$build/tests/mateproof"
sets="$build/tests/mateset"

if [ -n "${MATE_FULL:-}" ]; then
	"$proof" --men 5 --white-only --sample 100000 --lines 1000 --quiet \
		--stockfish "$work/terminal.fen"
	check $? "the proof of every material of up to five men failed"
else
	"$proof" --men 4 --white-only --sample 20000 --lines 300 --quiet \
		--stockfish "$work/terminal.fen"
	check $? "the proof of every material of up to four men failed"
	"$proof" --material KNvKQQ --white-only --sample 20000 --lines 300 --quiet
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
	skip_part "no Stockfish or no terminal positions: that cross-check"
fi

# The public sets.
data=${MATE_DATA:-}
if [ -z "$data" ]; then
	for d in "$tests/../../shared/data" "$tests/../../../shared/data"; do
		[ -d "$d/chasolver" ] && data=$(cd "$d" && pwd) && break
	done
fi
verify=${MATE_VERIFY:-20000}
[ -n "${MATE_FULL:-}" ] && verify=${MATE_VERIFY:-300000}
if [ -z "$data" ] || [ ! -r "$data/cha/lichess-timeouts.fen" ] ||
	[ ! -r "$data/chasolver/lichess.txt" ]; then
	skip_part "the public sets (../shared/data) are not here: 5 sets, no question asked"
else
	"$sets" --verify "$verify" --allow "$tests/mate/undecided.txt" \
		--real "$data/cha/lichess-timeouts.fen" --real "$data/chasolver/lichess.txt" \
		"$tests"/games/*.pgn >"$work/real.out" 2>&1
	check $? "real games: a wrong answer, or an undecided one not named in tests/mate/undecided.txt"
	grep -E "questions|refused by|undecided$|: (answered|no line|the line|never not)" \
		"$work/real.out"
	"$sets" --verify "$verify" "$data/cha/test-vector.txt" "$data/chasolver/positions.txt" \
		>"$work/hard.out" 2>&1
	check $? "the hard sets: a wrong answer"
	grep -E "questions|refused by the FEN reader$|: (answered|no line|the line)" "$work/hard.out"
	echo "check-mate: the hard sets' undecided answers (each a question left to the arbiter):"
	grep -E "undecided$" "$work/hard.out" | sed 's/^mateset: /    /'
fi

# `annabella mate`: the answer per side, a bad FEN named with status 2.
out=$("$build/annabella" mate "8/8/1k6/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1")
[ "$(echo "$out" | awk '{print $1, $2}' | tr '\n' ' ')" = "white never black never " ]
check $? "annabella mate on kings and locked pawns: $out"
out=$(printf '%s\n' "8/8/8/3k1p2/6p1/6P1/5K2/8 w - - 0 1 black" "not a fen" |
	"$build/annabella" mate 2>"$work/mate.err")
status=$?
[ $status -eq 2 ] && grep -q "line 2: bad FEN" "$work/mate.err" &&
	echo "$out" | grep -qE "^black possible [0-9.]+ [a-h][1-8][a-h][1-8]"
check $? "annabella mate on standard input: status $status, $out, $(cat "$work/mate.err")"
summary

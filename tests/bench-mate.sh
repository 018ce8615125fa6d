#!/usr/bin/env bash
# Who can still checkmate (chess/mate.c, docs/arbiter.md "Who can still checkmate"): the goal
# figures.
#  - On positions of real games (the final positions of about 30,000 online games lost on
#    time, the side with time left asked; CHA-Solver's 65,536 lichess positions, both sides;
#    every position from ply 40 of tests/games/, both sides): the answers, the undecided ones
#    (goal 0 but the cases named in tests/mate/undecided.txt) and their share, the wrong
#    ones (goal 0: a line that does not replay, an answer against the set's class), and the
#    time a question takes the thread (p50, p99, max; goals 5 ms and 50 ms).
#  - On the hard constructed sets (D3-Chess's test vector, CHA-Solver's positions.txt):
#    the wrong answers (goal 0) and the undecided ones, each listed.
#  - The dead-position check after every move (bench_mate): its time on every position of
#    tests/games/ and the lichess sets.
# Figures, not timed tests: "bench NAME VALUE UNIT" lines.  The public sets are read from
# ../shared/data (MATE_DATA names another place); without them only the games are measured
# and the bench says so.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin_bench bench-mate
sets="$build/tests/mateset"

data=${MATE_DATA:-}
if [ -z "$data" ]; then
	for d in "$tests/../../shared/data" "$tests/../../../shared/data"; do
		[ -d "$d/chasolver" ] && data=$(cd "$d" && pwd) && break
	done
fi
if [ -z "$data" ]; then
	echo "bench-mate: the public sets (../shared/data) are not here: the games alone" >&2
	"$sets" --bench --allow "$tests/mate/undecided.txt" "$tests"/games/*.pgn | grep '^bench '
	"$build/bench/bench_mate" "$tests"/games/*.pgn
	exit
fi
"$sets" --bench --allow "$tests/mate/undecided.txt" --real "$data/cha/lichess-timeouts.fen" \
	--real "$data/chasolver/lichess.txt" "$tests"/games/*.pgn >"$work/real.out"
grep '^bench ' "$work/real.out"
grep -E 'undecided$' "$work/real.out" | sed 's/^mateset: /bench-mate: undecided (named): /' >&2
"$sets" --bench "$data/chasolver/positions.txt" >"$work/hard.out"
grep -E '^bench mate_positions_(questions|undecided|wrong)' "$work/hard.out"
grep -E 'undecided$' "$work/hard.out" | sed 's/^mateset: /bench-mate: undecided: /' >&2
"$build/bench/bench_mate" "$tests"/games/*.pgn "$data/cha/lichess-timeouts.fen" \
	"$data/chasolver/lichess.txt"

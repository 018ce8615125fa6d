#!/usr/bin/env bash
# Move generation speed: perft nodes per second of `annabella perft` next to Stockfish's
# `go perft` on the same positions, in the same run.  Prints "bench NAME VALUE UNIT".
# Usage: tests/bench-perft.sh BUILD_DIR
set -u
build=${1:-build}
annabella="$build/annabella"
stockfish=${STOCKFISH:-/usr/games/stockfish}
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

now_ns() { date +%s%N; }

# Best of three, so that a busy moment on the machine does not decide the figure.
best_ns() { # command...
	local best=0 t0 t1 d
	for _ in 1 2 3; do
		t0=$(now_ns)
		"$@" >/dev/null 2>&1
		t1=$(now_ns)
		d=$((t1 - t0))
		if [ "$best" -eq 0 ] || [ "$d" -lt "$best" ]; then best=$d; fi
	done
	echo "$best"
}

sf_perft() { # FEN DEPTH
	printf 'setoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" |
		"$stockfish"
}

nodes() { "$annabella" perft "$1" "$2" | tail -1; }

if [ ! -x "$annabella" ]; then
	echo "bench-perft: $annabella not built" >&2
	exit 1
fi

start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
n_start=$(nodes "$start" 6)
n_kiwi=$(nodes "$kiwipete" 5)
total=$((n_start + n_kiwi))

a_start=$(best_ns "$annabella" perft "$start" 6)
a_kiwi=$(best_ns "$annabella" perft "$kiwipete" 5)
a_ns=$((a_start + a_kiwi))
a_nps=$((total * 1000000000 / a_ns))
echo "bench perft6_start_annabella $(awk -v n="$a_start" 'BEGIN { printf "%.3f", n / 1e9 }') s"
echo "bench perft_nps_annabella $a_nps nodes/s"

if [ ! -x "$stockfish" ]; then
	echo "bench-perft: $stockfish not found, no comparison" >&2
	exit 0
fi
# Stockfish prints no time for perft: time whole runs and take off the start-up
# (network loading and so on), measured as a perft 1 run.
s_boot=$(best_ns sf_perft "$start" 1)
s_start=$(($(best_ns sf_perft "$start" 6) - s_boot))
s_kiwi=$(($(best_ns sf_perft "$kiwipete" 5) - s_boot))
s_ns=$((s_start + s_kiwi))
[ "$s_ns" -gt 0 ] || s_ns=1
s_nps=$((total * 1000000000 / s_ns))
echo "bench perft6_start_stockfish $(awk -v n="$s_start" 'BEGIN { printf "%.3f", n / 1e9 }') s"
echo "bench perft_nps_stockfish $s_nps nodes/s"
echo "bench perft_ratio $(awk -v a="$a_nps" -v s="$s_nps" 'BEGIN { printf "%.2f", a / s }') x"

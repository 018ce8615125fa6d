#!/usr/bin/env bash
# make bench: runs every tests/bench-*.sh; each prints lines "bench NAME VALUE UNIT".  A
# benchmark that exits with a failure, or prints no such line, or a line of that word that is
# not one (a note may follow the unit), fails: its name and its last lines are said, and the run fails.  The last line
# counts them: "bench: N scripts, M figures, K failed".
#
# BENCH_QUICK=1 (make bench-quick, in CI): every benchmark runs, on a few moves, boards and
# loads each (the sizes its own variables take), so that one that breaks is seen at once; its
# figures are not the ones to compare.  BENCH_ONLY=NAME... runs those alone (bench-announce ...).
set -u
build=${1:-build}
dir=$(cd "$(dirname "$0")" && pwd)
if [ -n "${BENCH_QUICK:-}" ]; then
	export ANNOUNCE_PLIES=${ANNOUNCE_PLIES:-6} BOARDS=${BOARDS:-4} BROADCAST_PLIES=${BROADCAST_PLIES:-6}
	export DISK_PLIES=${DISK_PLIES:-6} DISK_SLOW_MS=${DISK_SLOW_MS:-20}
	export TRAIN_BENCH_PLIES=${TRAIN_BENCH_PLIES:-6} VOICE_PACED_PLIES=${VOICE_PACED_PLIES:-4}
	export BRAILLE_BENCH_MOVES=${BRAILLE_BENCH_MOVES:-20} WEB_BENCH_LOADS=${WEB_BENCH_LOADS:-3}
	export CONTROL_BENCH_REQUESTS=${CONTROL_BENCH_REQUESTS:-200} DISK_CUTS=${DISK_CUTS:-2}
	export PHONES=${PHONES:-20} SECONDS_RUN=${SECONDS_RUN:-10} ATTACK_SECONDS=${ATTACK_SECONDS:-5}
	export BENCH_FAIRPLAY_S=${BENCH_FAIRPLAY_S:-10} ONLINE_BENCH_PLIES=${ONLINE_BENCH_PLIES:-6}
	export LISTEN_VOICES=${LISTEN_VOICES:-de}
	export LISTEN_GAMES=${LISTEN_GAMES:-$dir/games/1858-morphy-duke-karl-isouard.pgn}
fi
# A figure: its name, a number and its unit, perhaps a note after them.
figure='^bench [A-Za-z0-9_]+ -?[0-9]+(\.[0-9]+)? [^ ]+( .*)?$'
scripts=0 figures=0 failed=0
for b in "$dir"/bench-*.sh; do
	[ -e "$b" ] || continue
	name=$(basename "$b" .sh)
	if [ -n "${BENCH_ONLY:-}" ] && [[ " $BENCH_ONLY " != *" $name "* ]]; then
		continue
	fi
	scripts=$((scripts + 1))
	out=$(mktemp)
	t0=$(date +%s)
	bash "$b" "$build" >"$out" 2>"$out.err"
	status=$?
	grep '^bench ' "$out"
	good=$(grep -cE "$figure" "$out")
	bad=$(grep '^bench ' "$out" | grep -cvE "$figure")
	figures=$((figures + good))
	if [ "$status" -ne 0 ] || [ "$good" -eq 0 ] || [ "$bad" -ne 0 ]; then
		failed=$((failed + 1))
		echo "bench: $name FAILED (exit $status, $good figures, $bad malformed) after $(($(date +%s) - t0)) s:"
		tail -n 15 "$out.err" | sed 's/^/    /'
	else
		tail -n 5 "$out.err" | sed "s/^/    $name: /"
		[ -n "${BENCH_QUICK:-}" ] && echo "bench: $name: $good figures in $(($(date +%s) - t0)) s"
	fi
	rm -f "$out" "$out.err"
done
echo "bench: $scripts scripts, $figures figures, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# The first performance goal of tests/README.md "Tests and measures", through the whole daemon: from the
# last sensor edge of a move to its first audio sample handed to the sound sink, minus the
# settle time, p50/p99 over a real-time game (sim backend, ALSA's null PCM), for the daemon as
# built (eSpeak NG's library in the voice thread) and for the same daemon spawning espeak-ng per
# phrase ([voice] engine = process).  Times come from the daemon's timing trace
# (ANNABELLA_TRACE, base/trace.h).  Prints "bench NAME VALUE UNIT" lines.
set -u
build=${1:-build}
plies=${ANNOUNCE_PLIES:-40}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-announce
settle_ms=150

# The first plies of a master game as a board script, with the think time before each move
# cut to 700 ms (the daemon runs in real time); the orders of lifts and placings as varied.
"$build/annabella" script "$dir/games/1999-kasparov-topalov.pgn" --variants 7 |
	awk -v plies="$plies" '
		/^# [0-9]+\./ { n++; if (n > plies) exit; think = 1; print; next }
		/^\+[0-9]+ / && think { sub(/^\+[0-9]+/, "+700"); think = 0 }
		{ print }' >"$work/game.script"

run() {
	local engine=$1
	mkdir -p "$work/$engine"
	cat >"$work/$engine/annabella.conf" <<CONF
[voice]
audio = alsa
public-device = null
private-device = null
engine = $engine
CONF
	ANNABELLA_TRACE="$work/$engine/trace" "$build/annabellad" \
		--config "$work/$engine/annabella.conf" --board "sim:$work/game.script" \
		--time real --control none --state "$work/$engine/state" \
		>"$work/$engine/out" 2>&1 || {
		echo "bench-announce: the daemon failed ($engine):" >&2
		tail -5 "$work/$engine/out" >&2
		return 1
	}
	python3 - "$work/$engine/trace" "$engine" "$settle_ms" <<'PY'
import sys
path, engine, settle = sys.argv[1], sys.argv[2], int(sys.argv[3])
last_edge = None
pending = None  # the last edge of a move whose announcement was asked for
lat = []
for line in open(path):
    f = line.split()
    ns, what = int(f[0]), f[1]
    if what == "edge":
        last_edge = ns
    elif what == "say" and f[2:4] == ["public", "move"] and last_edge is not None:
        pending = last_edge
    elif what == "first-sample" and f[2:4] == ["public", "move"] and pending is not None:
        lat.append((ns - pending) / 1e6 - settle)
        pending = None
if not lat:
    sys.exit("bench-announce: no move announced (" + engine + ")")
lat.sort()
def pct(p):
    return lat[min(len(lat) - 1, int(round(p / 100 * (len(lat) - 1))))]
name = "daemon" if engine == "library" else "daemon_espeak_spawn"
print(f"bench {name}_moves {len(lat)} moves")
print(f"bench {name}_edge_to_first_sample_minus_settle_p50 {pct(50):.2f} ms")
print(f"bench {name}_edge_to_first_sample_minus_settle_p99 {pct(99):.2f} ms")
PY
}

run library && run process

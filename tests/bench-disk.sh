#!/usr/bin/env bash
# Storage as slow as an SD card (`disk slow MS`, docs/scripts.md "Board scripts, line logs, time
# controls"): a master game's first plies played in real time through the whole daemon (sim
# backend, ALSA's null PCM, the journal and scoresheets synced), once with syncs as fast as this
# machine's storage and once with each sync DISK_SLOW_MS longer (default "20 100 300").  For each:
# from the last sensor edge of a move to the first audio sample of its announcement, minus the
# settle time, p50/p99 (the goal: p99 within settle + 2 ms whatever the sync time; the loop's
# part alone, from the edge to the announcement handed to the voice thread, too), and the
# clock's error at a press: each reading the journal holds against the one computed here from
# the script's press times (the press is the button's edge, whenever the loop got to it).
# Then, for each, power cuts that lose what was not yet synced (`crash unsynced`) in real time,
# DISK_CUTS (default 6) of them, and how often the true gap of the running clock fell
# outside status's [uncharged_ms, uncharged_up_to_ms] (tests/uncharged.py --real; the goal
# is 0).  Prints "bench NAME VALUE UNIT" lines; DISK_PLIES (default 24) plies.
set -u
build=${1:-build}
plies=${DISK_PLIES:-24}
slows=${DISK_SLOW_MS:-20 100 300}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-disk
settle_ms=150

# The think time before each move 2 s (the last announcement has ended: none waits for
# another), every other wait cut to at most 400 ms (more than the settle time, so each
# move is made when the board is still); the presses and the orders of lifts and placings
# as the script tool varies them.
"$build/annabella" script "$dir/games/1999-kasparov-topalov.pgn" --variants 7 \
	--time-control 5400+30 |
	awk -v plies="$plies" '
		/^# [0-9]+\./ { n++; if (n > plies) exit; think = 1; print; next }
		match($0, /^\+[0-9]+ /) { w = substr($0, 2, RLENGTH - 2) + 0; if (w > 400) w = 400;
			if (think) w = 2000; think = 0; print "+" w substr($0, RLENGTH); next }
		{ print }' >"$work/game.script"

run() {
	local slow=$1 run="$work/slow$1"
	mkdir -p "$run"
	cat >"$run/annabella.conf" <<CONF
[voice]
audio = alsa
public-device = null
private-device = null
[state]
sync = yes
CONF
	{
		sed -n '1,/^+/{/^+/!p}' "$work/game.script"
		echo "disk slow $slow"
		sed -n '/^+/,$p' "$work/game.script"
	} >"$run/game.script"
	ANNABELLA_TRACE="$run/trace" "$build/annabellad" --config "$run/annabella.conf" \
		--board "sim:$run/game.script" --time real --control none --state "$run/state" \
		>"$run/out" 2>&1 || {
		echo "bench-disk: the daemon failed (disk slow $slow):" >&2
		tail -5 "$run/out" >&2
		return 1
	}
	python3 - "$run" "$slow" "$settle_ms" "$dir" "$build" <<'PY'
import sys
run, slow, settle, tests, build = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
sys.path.insert(0, tests)
import gamecheck
import record

last_edge = None
pending = None
lat, loop = [], []
for line in open(run + "/trace"):
    f = line.split()
    ns, what = int(f[0]), f[1]
    if what == "edge":
        last_edge = ns
    elif what == "say" and f[2:4] == ["public", "move"] and last_edge is not None:
        pending = last_edge
        loop.append((ns - last_edge) / 1e6 - settle)
    elif what == "first-sample" and f[2:4] == ["public", "move"] and pending is not None:
        lat.append((ns - pending) / 1e6 - settle)
        pending = None
if not lat:
    sys.exit("bench-disk: no move announced (disk slow %s)" % slow)
lat.sort()
loop.sort()

def pct(values, p):
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

header, actions = gamecheck.read_script(run + "/game.script")
want = gamecheck.expected_clocks(header, actions, "white")
# The journal's readings, read by the product's own reader (tests/record.py).
readings = record.readings(record.read(build, run + "/state"))
got = [readings[p] for p in sorted(readings) if readings[p] >= 0]
if not got or len(got) != len(want):
    sys.exit("bench-disk: %d readings in the journal, %d presses in the script (disk slow %s)"
             % (len(got), len(want), slow))
err = sorted(abs(a - b) for a, b in zip(got, want))
name = "disk_slow_%s" % slow
print(f"bench {name}_edge_to_first_sample_minus_settle_p50 {pct(lat, 50):.2f} ms")
print(f"bench {name}_edge_to_first_sample_minus_settle_p99 {pct(lat, 99):.2f} ms")
# The loop's part alone (edge to the announcement handed to the voice thread): what a slow
# sync would delay if the loop waited for it.
print(f"bench {name}_edge_to_say_minus_settle_p99 {pct(loop, 99):.2f} ms")
print(f"bench {name}_clock_error_at_press_max {err[-1]} ms")
PY
}

status=0
for slow in 0 $slows; do
	run "$slow" || status=1
done
for slow in 0 $slows; do
	python3 "$dir/uncharged.py" --real "$build" "${DISK_CUTS:-6}" "$slow" | grep '^bench ' ||
		status=1
done
exit $status

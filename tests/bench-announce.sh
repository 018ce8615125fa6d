#!/usr/bin/env bash
# The first performance goal of tests/README.md "Tests and measures", through the whole
# daemon: from the last sensor edge of a move to its first audio sample handed to the sound
# sink, minus the settle time, p50/p99 over a real-time game (sim backend).  Times come from
# the daemon's timing trace (ANNABELLA_TRACE, base/trace.h), each move's with what its
# announcement came behind (the say line's behind=).  Runs, each printing "bench NAME VALUE UNIT" lines:
#  - daemon: as built (eSpeak NG's library in the voice thread) and as its unit runs it (at
#    real-time priority, chrt -f 10, as CPUSchedulingPolicy=fifo, CPUSchedulingPriority=10,
#    where this user may), on ALSA's null device, which takes any amount of sound at once;
#  - daemon_espeak_spawn: the same spawning espeak-ng per phrase ([voice] engine = process);
#  - daemon_paced: on sound cards that play in real time (tests/bench/pcm_paced.c, speaker
#    and earphone), where a move made while the one before is still being said waits for it
#    unless it may cut it short (docs/speech.md "Speech"): the moves with nothing being said, and
#    those with the previous announcement still playing (behind an echo, which the move cuts,
#    or behind the tactile player's own move, which it waits for), p50/p99/max;
#  - daemon_loaded: every core kept busy by other work at normal priority (goal: p99 under 5 ms
#    beyond settle), and daemon_loaded_normal_priority the same daemon without its real-time
#    priority, for comparison (both on null).
#  - daemon_paced_unhurried: on those cards with 2.5 s before each move: nothing is being said
#    when a move comes.
#  - daemon_tournament_fairplay_watch: a tournament game with the machine watched for the
#    fair-play state at a 1 s interval (docs/fairplay.md; the default is 10 s), next to
#    daemon_tournament_fairplay_off, the same game unwatched, run in turn with it (both on
#    null, 2.5 s before each move): the watch must add nothing to a move's announcement.
# Elsewhere the think time before each move is cut to 700 ms: each move comes while the one
# before is still being said.  ANNOUNCE_PLIES (40) plies per run.
set -u
build=${1:-build}
plies=${ANNOUNCE_PLIES:-40}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-announce
settle_ms=150

# The first plies of a master game as a board script, with the think time before each move
# set to THINK ms (the daemon runs in real time); the orders of lifts and placings as varied.
game_script() { # THINK
	"$build/annabella" script "$dir/games/1999-kasparov-topalov.pgn" --variants 7 |
		awk -v plies="$plies" -v think_ms="$1" '
			/^# [0-9]+\./ { n++; if (n > plies) exit; think = 1; print; next }
			/^\+[0-9]+ / && think { sub(/^\+[0-9]+/, "+" think_ms); think = 0 }
			{ print }' >"$work/think$1.script"
}
game_script 700
game_script 2500

paced_card "$build" speaker
paced_card "$build" earphone
busy=()
load() { # on|off: one busy loop per core at normal priority (nice 0), or none
	local i
	if [ "$1" = on ]; then
		for ((i = 0; i < $(nproc); i++)); do
			spawn nice -n "$((0 - $(nice)))" sh -c 'while :; do :; done'
			busy+=($!)
		done
	elif [ ${#busy[@]} -gt 0 ]; then
		stop "${busy[@]}"
		busy=()
	fi
}

run() { # NAME THINK ENGINE DEVICE [COMMAND PREFIX...]
	local name=$1 think=$2 engine=$3 device=$4 out
	shift 4
	out="$work/$name"
	mkdir -p "$out"
	cat >"$out/annabella.conf" <<CONF
[voice]
audio = alsa
public-device = ${device/paced/speaker}
private-device = ${device/paced/earphone}
engine = $engine
CONF
	printf '%b' "${EXTRA_CONF:-}" >>"$out/annabella.conf"
	ANNABELLA_TRACE="$out/trace" "$@" "$build/annabellad" --config "$out/annabella.conf" \
		--board "sim:$work/think$think.script" --time real --control none --state "$out/state" \
		>"$out/out" 2>&1 || {
		echo "bench-announce: the daemon failed ($name):" >&2
		tail -5 "$out/out" >&2
		return 1
	}
	python3 - "$out/trace" "$name" "$settle_ms" "$device" <<'PY'
import sys
path, name, settle, device = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
last_edge = None
said = {}  # utterance -> (the move's last edge, what its announcement came behind)
lat = {}
cut = 0
for line in open(path):
    f = line.split()
    ns, what = int(f[0]), f[1]
    words = dict(w.split("=", 1) for w in f[2:] if "=" in w)
    if what == "edge":
        last_edge = ns
    elif what == "say" and f[2:4] == ["public", "move"] and last_edge is not None:
        said[words["utterance"]] = (last_edge, words.get("behind", "-"))
    elif what == "first-sample" and f[2:4] == ["public", "move"]:
        edge, behind = said.pop(words["utterance"], (None, None))
        if edge is not None:
            lat.setdefault(behind, []).append((ns - edge) / 1e6 - settle)
# An echo with the next move already waiting behind it is cut before it sounds.
cut = len(said)
every = sorted(v for vs in lat.values() for v in vs)
if not every:
    sys.exit("bench-announce: no move announced (" + name + ")")

def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

def figures(prefix, values):
    print(f"bench {prefix}_moves {len(values)} moves")
    if values:
        print(f"bench {prefix}_edge_to_first_sample_minus_settle_p50 {pct(values, 50):.2f} ms")
        print(f"bench {prefix}_edge_to_first_sample_minus_settle_p99 {pct(values, 99):.2f} ms")

figures(name, every)
if device == "paced":
    # What each move came behind: nothing being said, or the previous announcement still
    # playing (an echo the move cuts short, the tactile player's own move it waits for).
    figures(name + "_nothing_ahead", lat.get("-", []))
    playing = [v for k, vs in lat.items() if k != "-" for v in vs]
    figures(name + "_previous_playing", playing)
    if playing:
        print(f"bench {name}_previous_playing_edge_to_first_sample_minus_settle_max "
              f"{max(playing):.2f} ms")
    print(f"bench {name}_echoes_cut_before_heard {cut} moves")
    for kind in ("echo", "move"):
        if lat.get(kind):
            print(f"bench {name}_behind_{kind}_edge_to_first_sample_minus_settle_p50 "
                  f"{pct(lat[kind], 50):.2f} ms")
PY
}

# The daemon as its unit runs it, at real-time priority, where this user may take it (root,
# or LimitRTPRIO): other work on a shared machine then moves its figures less.
rt=(chrt -f 10)
"${rt[@]}" true 2>/dev/null || {
	echo "bench-announce: no real-time priority here: every run at normal priority" >&2
	rt=()
}
status=0
run daemon 700 library null "${rt[@]}" || status=1
run daemon_espeak_spawn 700 process null "${rt[@]}" || status=1
run daemon_paced 700 library paced "${rt[@]}" || status=1
run daemon_paced_unhurried 2500 library paced "${rt[@]}" || status=1
tournament='[game]\nmode = tournament\n[fairplay]\nfiles = skip\nengine = idle\ninterval = 1\nwatch = '
EXTRA_CONF="${tournament}yes\n" run daemon_tournament_fairplay_watch 2500 library null "${rt[@]}" ||
	status=1
EXTRA_CONF="${tournament}no\n" run daemon_tournament_fairplay_off 2500 library null "${rt[@]}" ||
	status=1
load on
run daemon_loaded 700 library null "${rt[@]}" || status=1
run daemon_loaded_normal_priority 700 library null || status=1
load off
exit $status

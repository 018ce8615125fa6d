#!/usr/bin/env bash
# A club room at once (docs/broadcast.md "Live broadcast and the room relay"): BOARDS daemons (default 50),
# each in real time with its own board script (a master game with clock presses, no sound), its
# own `annabella broadcast`, all into one mosquitto and one `annabella relay`.  Measured: the
# time from a clock press (the daemon's timing trace, `button`) to the relay holding the game
# with that move (`relay-pgn`; the relay serves round.pgn from what it holds), p50 and p99 over
# every move; the relay's RSS; the messages the broker took per move.  Both traces are on
# CLOCK_MONOTONIC (base/trace.h).  Prints "bench NAME VALUE UNIT" lines.
set -u
build=$(cd "${1:-build}" && pwd)
boards=${BOARDS:-50}
plies=${BROADCAST_PLIES:-40}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-broadcast
need mosquitto mosquitto_sub curl python3

port=$(free_port)
broker_conf "$work/broker.conf" "$port" "max_queued_messages 100000"
start_broker "$work/broker.conf"
wait_port "$port"
# Every message the broker takes, by topic only (a PGN spans lines).
spawn mosquitto_sub -p "$port" -q 1 -t 'annabella/#' -F '%t' >"$work/messages" 2>/dev/null
spawn env ANNABELLA_TRACE="$work/relay.trace" "$build/annabella" relay --mqtt "127.0.0.1:$port" \
	--listen 127.0.0.1:0 >"$work/relay.log" 2>&1
relay_pid=$!

# Master games cut to their first plies, with clock presses, and a think time of 1 to 2 s
# before each move (varied per board, so the boards do not move in step).
games=("$dir"/games/*.pgn)
cat >"$work/annabella.conf" <<'CONF'
[voice]
record = no
[state]
sync = no
[log]
level = error
CONF
for i in $(seq "$boards"); do
	game=${games[$((i % ${#games[@]}))]}
	"$build/annabella" script "$game" | awk -v plies="$plies" -v seed="$i" '
		BEGIN { srand(seed) }
		/^time-control/ { print "time-control 5400+30"; next }
		/^# [0-9]+\./ {
			if (n > 0) print "+200 press " side
			n++
			if (n > plies) { done = 1; exit }
			side = /\(player\)/ ? "player-clock" : "opponent-clock"
			think = 1; print; next
		}
		/^\+[0-9]+ / && think {
			if (n == 1) print "+" int(1000 + rand() * 2000) " press opponent-clock"
			sub(/^\+[0-9]+/, "+" int(1000 + rand() * 1000)); think = 0
		}
		!/^#/ || n == 0 { print }
		END { if (!done && n > 0) print "+200 press " side }' \
		>"$work/b$i.script"
done
for i in $(seq "$boards"); do
	spawn env ANNABELLA_TRACE="$work/b$i.trace" "$build/annabellad" --config "$work/annabella.conf" \
		--board "sim:$work/b$i.script" --time real --audio none --state "$work/b$i.state" \
		--control "$work/b$i.sock" >"$work/b$i.log" 2>&1
	daemons+=($!)
done
for i in $(seq "$boards"); do
	wait_socket "$work/b$i.sock"
	spawn "$build/annabella" broadcast --mqtt "127.0.0.1:$port" --board "b$i" \
		--socket "$work/b$i.sock" >"$work/b$i.broadcast.log" 2>&1
done
# A broadcast's software polling round.pgn every 50 ms (If-None-Match, gzip), as lichess
# polls a round's URL (more slowly): when each move's clock reading was in what it got.
relay=$(for _ in $(seq 50); do grep -o 'http://[0-9.:]*' "$work/relay.log" | head -1 && break; sleep 0.1; done)
spawn /usr/bin/python3 "$dir/web/pollround.py" "$relay/round.pgn" 50 "$work/polls"
poller=$!
# The games end on their own (a sim daemon exits after its script).
start=$(date +%s)
for p in "${daemons[@]}"; do wait "$p" 2>/dev/null; done
elapsed=$(($(date +%s) - start))
sleep 1
stop "$poller"
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$relay_pid/status")
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$relay_pid/status")
relay=$(grep -o 'http://[0-9.:]*' "$work/relay.log" | head -1)
curl -s "$relay/round.pgn" >"$work/round.pgn"
# What a broadcast polling round.pgn pays: the whole round, gzipped, and a poll of the
# unchanged round with If-None-Match (headers and body, as sent).
etag=$(curl -s -D - -o /dev/null "$relay/round.pgn" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }')
round_bytes=$(curl -s -o /dev/null -w '%{size_header} %{size_download}' "$relay/round.pgn" | awk '{ print $1 + $2 }')
round_gz_bytes=$(curl -s -o /dev/null -w '%{size_header} %{size_download}' -H 'Accept-Encoding: gzip' \
	"$relay/round.pgn" | awk '{ print $1 + $2 }')
read -r poll_code poll_bytes < <(curl -s -o /dev/null -w '%{http_code} %{size_header} %{size_download}\n' \
	-H "If-None-Match: $etag" -H 'Accept-Encoding: gzip' "$relay/round.pgn" | awk '{ print $1, $2 + $3 }')
echo "bench broadcast_round_pgn_bytes $round_bytes bytes (gzipped: $round_gz_bytes)"
echo "bench broadcast_unchanged_poll_bytes $poll_bytes bytes (HTTP $poll_code)"
/usr/bin/python3 "$dir/web/benchroom.py" "$relay/"

python3 - "$work" "$boards" "$elapsed" "$rss" "$hwm" <<'PY'
import glob, os, re, sys
work, boards, elapsed, rss, hwm = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
# The relay's receipts: for each board, the first time it held N moves completed by their
# clock press (each with its [%clk]; a move is in the PGN from when it is made on the board,
# before the press).
held = {}
for line in open(os.path.join(work, "relay.trace")):
    f = line.split()
    if f[1] != "relay-pgn":
        continue
    ns, board, n = int(f[0]), f[2], int(f[4])
    h = held.setdefault(board, {})
    for k in range(1, n + 1):
        h.setdefault(k, ns)
lat, moves, missing = [], 0, 0
for i in range(1, boards + 1):
    presses = []
    for line in open(os.path.join(work, f"b{i}.trace")):
        f = line.split()
        if f[1] == "button" and f[3] == "1":
            presses.append(int(f[0]))
    # The first press starts the clocks; each later one completes a ply.
    for k, t in enumerate(presses[1:], start=1):
        moves += 1
        got = held.get(f"b{i}", {}).get(k)
        if got is None:
            missing += 1
        else:
            lat.append((got - t) / 1e6)
if not lat:
    sys.exit("bench-broadcast: no move reached the relay")
# The same from the press to the poller's round.pgn holding the move's clock reading.
polled, poll_stats = {}, ""
for line in open(os.path.join(work, "polls")):
    f = line.split()
    if f[0] == "polls":
        poll_stats = f
        continue
    ns, board, n = int(f[0]), f[1], int(f[2])
    h = polled.setdefault(board, {})
    for k in range(1, n + 1):
        h.setdefault(k, ns)
poll_lat = []
for i in range(1, boards + 1):
    presses = [int(l.split()[0]) for l in open(os.path.join(work, f"b{i}.trace"))
               if l.split()[1] == "button" and l.split()[3] == "1"]
    for k, t in enumerate(presses[1:], start=1):
        got = polled.get(f"b{i}", {}).get(k)
        if got is not None:
            poll_lat.append((got - t) / 1e6)
poll_lat.sort()
lat.sort()
def pct(p, lat=lat):
    return lat[min(len(lat) - 1, int(round(p / 100 * (len(lat) - 1))))]
messages = sum(1 for _ in open(os.path.join(work, "messages")))
by = {}
for line in open(os.path.join(work, "messages")):
    kind = line.strip().rsplit("/", 1)[-1]
    by[kind] = by.get(kind, 0) + 1
games = open(os.path.join(work, "round.pgn")).read().count("[Event ")
print(f"bench broadcast_boards {boards} boards ({games} games in round.pgn, {elapsed} s)")
print(f"bench broadcast_moves {moves} moves ({missing} not seen by the relay)")
print(f"bench broadcast_press_to_relay_p50 {pct(50):.1f} ms")
print(f"bench broadcast_press_to_relay_p99 {pct(99):.1f} ms")
print(f"bench broadcast_press_to_relay_max {lat[-1]:.1f} ms")
if poll_lat:
    print(f"bench broadcast_press_to_round_pgn_p50 {pct(50, poll_lat):.1f} ms (polled every 50 ms)")
    print(f"bench broadcast_press_to_round_pgn_p99 {pct(99, poll_lat):.1f} ms (polled every 50 ms)")
if poll_stats:
    polls, changed, sent = int(poll_stats[1]), int(poll_stats[3]), int(poll_stats[5])
    print(f"bench broadcast_round_pgn_polls {polls} polls ({changed} changed, "
          f"{sent / max(polls, 1):.0f} bytes a poll on average as sent)")
print(f"bench broadcast_relay_rss {rss / 1024:.1f} MiB (peak {hwm / 1024:.1f})")
print(f"bench broadcast_broker_messages_per_move {messages / max(moves, 1):.1f} messages "
      f"(" + ", ".join(f"{k} {v / max(moves, 1):.1f}" for k, v in sorted(by.items())) + ")")
PY

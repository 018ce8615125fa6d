#!/usr/bin/env bash
# The room relay's capacity (docs/broadcast.md "Live broadcast and the room relay"): BOARDS boards (default
# 30, master games of 60 plies or more with their clock readings) on mosquitto, one of them
# moving every second, a real `annabella relay`, PHONES phones (default 500) polling the room
# page's /api/boards every second as the page does, each from a loopback address of its own,
# and a broadcast's software polling round.pgn every 100 ms, for SECONDS (default 60).
# Measured: the phones whose every poll was answered, their polls' p99, round.pgn's p99 while
# they poll, the relay's RSS.  On this machine, not a Raspberry Pi: see the README for the Pi.
# Prints "bench NAME VALUE UNIT" lines.
set -u
build=$(cd "${1:-build}" && pwd)
boards=${BOARDS:-30}
phones=${PHONES:-500}
seconds=${SECONDS_RUN:-60}
. "$(dirname "$0")/lib.sh"
dir=$tests
begin_bench bench-relay
need mosquitto mosquitto_pub python3

port=$(free_port)
broker_conf "$work/broker.conf" "$port"
start_broker "$work/broker.conf"
wait_port "$port" || give_up "the broker did not start"
# Each board's game: a master game's moves with a clock reading each, and its status.
python3 - "$work" "$boards" "$dir"/games/*.pgn <<'PY'
import json, os, re, sys
work, boards, games = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def moves(path):
    text = re.sub(r"\{[^}]*\}|\([^)]*\)|\[[^\]]*\]|\$\d+", " ", open(path).read())
    return [t for t in text.split() if re.match(r"^[KQRBNOa-h][-a-hxO1-8=QRBN+#]*$", t)]
for i in range(1, boards + 1):
    ms = moves(games[i % len(games)])
    os.makedirs(f"{work}/b{i}", exist_ok=True)
    for n in range(1, len(ms) + 1):
        body = "".join((f"{k // 2 + 1}. " if k % 2 == 0 else "") + m
                       + " {[%clk 1:2" + str(k % 10) + ":0" + str(k % 7) + "]} " for k, m in enumerate(ms[:n]))
        pgn = (f'[Event "Club championship"]\n[Round "3"]\n[Board "{i}"]\n[White "White {i}"]\n'
               f'[Black "Black {i}"]\n[Result "*"]\n\n{body}*\n')
        open(f"{work}/b{i}/{n}.pgn", "w").write(pgn)
    status = {"ok": True, "plies": len(ms), "fen": "8/8/8/8/8/8/8/8 w - - 0 1",
              "clock": {"white_ms": 3600000, "black_ms": 3500000, "running": "white",
                        "state": "running"}, "last_move": {"san": ms[-1]}}
    open(f"{work}/b{i}/status", "w").write(json.dumps(status))
    open(f"{work}/b{i}/plies", "w").write(str(len(ms)))
PY
for i in $(seq "$boards"); do
	n=$(cat "$work/b$i/plies")
	mosquitto_pub -p "$port" -r -q 1 -t "annabella/b$i/pgn" -f "$work/b$i/$((n > 60 ? 60 : n)).pgn"
	mosquitto_pub -p "$port" -r -q 1 -t "annabella/b$i/status" -f "$work/b$i/status"
	mosquitto_pub -p "$port" -r -q 1 -t "annabella/b$i/link" -m '{"broadcast":true,"daemon":true}'
done
rport=$(free_port)
spawn "$build/annabella" relay --mqtt "127.0.0.1:$port" --listen "127.0.0.1:$rport" \
	>"$work/relay.log" 2>&1
relay_pid=$!
wait_port "$rport" || give_up "the relay did not start: $(cat "$work/relay.log")"
url=http://127.0.0.1:$rport
wait_for 10 sh -c "curl -s $url/round.pgn | grep -c '^\[Event' | grep -qx $boards" ||
	give_up "the relay holds fewer than $boards games"
# One board moves each second (round.pgn and /api/boards change every second).
(
	ply=61
	while :; do
		for i in $(seq "$boards"); do
			[ -e "$work/b$i/$ply.pgn" ] || continue
			mosquitto_pub -p "$port" -r -q 1 -t "annabella/b$i/pgn" -f "$work/b$i/$ply.pgn"
			sleep 1
		done
		ply=$((ply + 1))
	done
) &
track $!
cpu() { awk '{ print $14 + $15 }' "/proc/$relay_pid/stat"; } # the relay's CPU time, in ticks
cpu_before=$(cpu)
/usr/bin/python3 "$dir/web/phones.py" round "$url" "$seconds" 100 >"$work/round" &
round=$!
/usr/bin/python3 "$dir/web/phones.py" phones "$url" "$phones" "$seconds" >"$work/phones"
wait "$round"
cpu_used=$(($(cpu) - cpu_before))
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$relay_pid/status")
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$relay_pid/status")
read -r _ polls _ pfailed _ p50 _ p99 _ pmax <"$work/phones"
served=$(awk '$1 == "phones_served" { print $2 }' "$work/phones")
read -r _ rpolls _ rfailed _ r50 _ r99 _ rmax <"$work/round"
[ -n "${served:-}" ] && [ -n "${r99:-}" ] || give_up "no figures: $(cat "$work/phones" "$work/round")"
echo "bench relay_phones_served $served phones (of $phones polling /api/boards every second for ${seconds} s, $boards boards; $polls polls, $pfailed failed)"
echo "bench relay_boards_poll_p99 $p99 ms (p50 $p50, max $pmax)"
echo "bench relay_round_pgn_p99 $r99 ms (p50 $r50, max $rmax; $rpolls polls every 100 ms, $rfailed failed, while the phones poll)"
echo "bench relay_rss $((rss / 1024)) MiB (peak $((hwm / 1024)) MiB)"
echo "bench relay_cpu $(awk -v t="$cpu_used" -v hz="$(getconf CLK_TCK)" -v s="$seconds" \
	'BEGIN { printf "%.0f", 100 * t / hz / s }') % of one core (while the phones poll)"

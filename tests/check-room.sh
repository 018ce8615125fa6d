#!/usr/bin/env bash
# The room (`annabella relay`, docs/broadcast.md "Live broadcast and the room relay") as a broadcast's
# software and a spectator meet it: Debian's mosquitto on a free port, boards published to it as
# a board's broadcast does (retained pgn, status and link, with mosquitto_pub), and a real relay
# with a public delay and an undelayed arbiter's address.  With curl: round.pgn's ETag and 304
# for If-None-Match, Last-Modified and If-Modified-Since, gzip when asked, CORS (and the
# preflight a cross-origin poll with If-None-Match makes), an untagged board named by its board,
# the delay (the public view behind, the arbiter's not), the same message again changing
# nothing, a broker outage in /api/boards.  Then the room page in headless Chromium
# (tests/web/roomtest.py).
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
dir=$tests
begin room
need mosquitto mosquitto_pub curl python3

port=$(free_port)
broker_conf "$work/broker.conf" "$port"
start_broker "$work/broker.conf"
wait_port "$port" || bad "the broker did not start"

# A board as its broadcast publishes it: NAME PLIES [TAGS...] (the first PLIES moves of a
# Ruy Lopez, each with a clock reading, and a status with the position after them).
board() {
	local board=$1 plies=$2
	shift 2
	python3 - "$board" "$plies" "$@" >"$work/$board.pgn" 3>"$work/$board.status" <<'PY'
import json, os, sys
name, plies, tags = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]
fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
        "r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4",
        "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5",
        "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 3 5",
        "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"]
head = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?",
        "Black": "?", "Result": "*"}
for t in tags:
    k, v = t.split("=", 1)
    head[k] = v
text = "".join(f'[{k} "{v}"]\n' for k, v in head.items()) + "\n"
for i, m in enumerate(moves[:plies]):
    text += (f"{i // 2 + 1}. " if i % 2 == 0 else "") + m + " {[%clk 0:15:0" + str(i % 10) + "]} "
text += head["Result"] + "\n"
sys.stdout.write(text)
status = {"ok": True, "game": name, "fen": fens[plies], "plies": plies,
          "to_move": "white" if plies % 2 == 0 else "black",
          "clock": {"white_ms": 900000 - plies * 1000, "black_ms": 890000 - plies * 1000,
                    "running": "white" if plies % 2 == 0 else "black", "state": "running"},
          "last_move": {"san": moves[plies - 1]} if plies else None}
os.write(3, json.dumps(status).encode())
PY
	mosquitto_pub -p "$port" -r -q 1 -t "annabella/$board/pgn" -f "$work/$board.pgn"
	mosquitto_pub -p "$port" -r -q 1 -t "annabella/$board/status" -f "$work/$board.status"
}
link() { # NAME BROADCAST DAEMON
	mosquitto_pub -p "$port" -r -q 1 -t "annabella/$1/link" -m "{\"broadcast\":$2,\"daemon\":$3}"
}
board b1 4 Board=1 "White=Berg, Anna" "Black=Kühn, Jonas" Event=Club Round=3
link b1 true true
board b2 3
link b2 true true
board b3 2 Board=3 White=Lind Black=Haas
link b3 true true

pub_port=$(free_port)
arb_port=$(free_port)
delay_s=4
spawn "$build/annabella" relay --mqtt "127.0.0.1:$port" --listen "127.0.0.1:$pub_port" \
	--arbiter-listen "127.0.0.1:$arb_port" --delay 0.0667 >"$work/relay.log" 2>&1
relay_pid=$!
pub=http://127.0.0.1:$pub_port
arb=http://127.0.0.1:$arb_port
wait_port "$pub_port" && wait_port "$arb_port" || bad "the relay did not start: $(cat "$work/relay.log")"
for _ in $(seq 50); do
	[ "$(curl -s "$arb/round.pgn" | grep -c '^\[Event ')" = 3 ] && break
	sleep 0.1
done
start=$(date +%s.%N)

# ------------------------------------------------------------------ the delay
[ "$(curl -s "$arb/round.pgn" | grep -c '^\[Event ')" = 3 ] && ok ||
	bad "the arbiter's round.pgn lacks boards: $(curl -s "$arb/round.pgn")"
[ "$(curl -s "$pub/round.pgn" | grep -c '^\[Event ')" = 0 ] && ok ||
	bad "the public round.pgn shows the boards before the delay"
[ "$(curl -s -D - -o /dev/null "$pub/round.pgn" | tr -d '\r' | awk -F': ' '$1 == "X-Delay-S" { print $2 }')" = $delay_s ] &&
	ok || bad "the public round.pgn does not say its delay"
curl -s "$pub/api/boards" | python3 -c 'import json,sys; j=json.load(sys.stdin); assert j["delay_ms"]==4000 and j["boards"]==[] and not j["arbiter"], j' &&
	ok || bad "the public /api/boards before the delay"
curl -s "$arb/api/boards" | python3 -c 'import json,sys; j=json.load(sys.stdin); assert j["delay_ms"]==0 and j["arbiter"] and len(j["boards"])==3, j' &&
	ok || bad "the arbiter's /api/boards"
for _ in $(seq 80); do
	[ "$(curl -s "$pub/round.pgn" | grep -c '^\[Event ')" = 3 ] && break
	sleep 0.1
done
waited=$(python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.1f}')" "$(date +%s.%N)" "$start")
[ "$(curl -s "$pub/round.pgn")" = "$(curl -s "$arb/round.pgn")" ] && ok ||
	bad "after the delay the public round.pgn is not the arbiter's"
python3 -c "import sys; assert 2.5 <= float(sys.argv[1]) <= 6, sys.argv[1]" "$waited" && ok ||
	bad "the public view came after ${waited}s, not the delay's 4"
# A new move: the arbiter sees it at once, the public 4 s later.
board b1 5 Board=1 "White=Berg, Anna" "Black=Kühn, Jonas" Event=Club Round=3
sleep 0.5
curl -s "$arb/round.pgn" | grep -q '3. Bb5' && ok || bad "the arbiter does not see the new move at once"
curl -s "$pub/round.pgn" | grep -q '3. Bb5' && bad "the public sees the new move before the delay" || ok
for _ in $(seq 80); do
	curl -s "$pub/round.pgn" | grep -q '3. Bb5' && break
	sleep 0.1
done
curl -s "$pub/round.pgn" | grep -q '3. Bb5' && ok || bad "the public never sees the new move"

# ------------------------------------------------------------------ round.pgn as polled
round=$(curl -s "$arb/round.pgn")
grep -q '^\[White "b2 (White)"\]$' <<<"$round" && grep -q '^\[Black "b2 (Black)"\]$' <<<"$round" &&
	ok || bad "the untagged board is not named by its board: $(grep -A1 '^\[White' <<<"$round")"
grep -q '? - ?\|\[White "?"\]' <<<"$round" && bad "a board without names is still '?'" || ok
headers=$(curl -s -D - -o /dev/null "$arb/round.pgn" | tr -d '\r')
etag=$(awk -F': ' 'tolower($1) == "etag" { print $2 }' <<<"$headers")
modified=$(awk -F': ' 'tolower($1) == "last-modified" { print $2 }' <<<"$headers")
[ -n "$etag" ] && [ -n "$modified" ] && ok || bad "no ETag or Last-Modified: $headers"
grep -qi '^Cache-Control: no-cache' <<<"$headers" && ok || bad "round.pgn may not be revalidated: $headers"
read -r code size < <(curl -s -o /dev/null -w '%{http_code} %{size_download}\n' -H "If-None-Match: $etag" "$arb/round.pgn")
[ "$code" = 304 ] && [ "$size" = 0 ] && ok || bad "If-None-Match with the ETag: $code, $size bytes"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: \"other\", W/$etag" "$arb/round.pgn")
[ "$code" = 304 ] && ok || bad "If-None-Match with a list and a weak ETag: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'If-None-Match: "other"' "$arb/round.pgn")
[ "$code" = 200 ] && ok || bad "If-None-Match with another ETag: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "If-Modified-Since: $modified" "$arb/round.pgn")
[ "$code" = 304 ] && ok || bad "If-Modified-Since Last-Modified: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'If-Modified-Since: Mon, 01 Jan 2024 00:00:00 GMT' "$arb/round.pgn")
[ "$code" = 200 ] && ok || bad "If-Modified-Since long ago: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -I -H "If-None-Match: $etag" "$arb/round.pgn")
[ "$code" = 304 ] && ok || bad "HEAD with If-None-Match: $code"
# gzip when asked, the same text.
gz_headers=$(curl -s -D - -o "$work/round.gz" -H 'Accept-Encoding: gzip' "$arb/round.pgn" | tr -d '\r')
grep -qi '^Content-Encoding: gzip' <<<"$gz_headers" && grep -qi '^Vary: Accept-Encoding' <<<"$gz_headers" &&
	[ "$(gzip -dc "$work/round.gz")" = "$round" ] && ok || bad "gzip: $gz_headers"
grep -qi '^Content-Encoding' <<<"$headers" && bad "gzip without asking" || ok
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' -H "If-None-Match: $etag" "$arb/round.pgn")
[ "$code" = 304 ] && ok || bad "the gzipped round.pgn has another ETag: $code"
# CORS: a page elsewhere may read round.pgn and the JSON, and poll with If-None-Match.
grep -qi '^Access-Control-Allow-Origin: \*' <<<"$headers" &&
	grep -qi '^Access-Control-Expose-Headers: .*ETag' <<<"$headers" && ok || bad "round.pgn without CORS"
curl -s -D - -o /dev/null -H 'Origin: https://broadcast.example' "$arb/api/boards" | tr -d '\r' |
	grep -qi '^Access-Control-Allow-Origin: \*' && ok || bad "/api/boards without CORS"
pre=$(curl -s -D - -o /dev/null -X OPTIONS -H 'Origin: https://broadcast.example' \
	-H 'Access-Control-Request-Method: GET' -H 'Access-Control-Request-Headers: if-none-match' \
	-w '%{http_code}' "$arb/round.pgn" | tr -d '\r')
grep -q '204$' <<<"$pre" && grep -qi '^Access-Control-Allow-Headers: .*If-None-Match' <<<"$pre" &&
	grep -qi '^Access-Control-Allow-Methods: GET' <<<"$pre" && ok || bad "the CORS preflight: $pre"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data x "$arb/round.pgn")
[ "$code" = 405 ] && ok || bad "POST got $code"
# A change gives another ETag; the same message again (as a reconnect brings it) does not.
board b3 3 Board=3 White=Lind Black=Haas
sleep 0.5
etag2=$(curl -s -D - -o /dev/null "$arb/round.pgn" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }')
[ -n "$etag2" ] && [ "$etag2" != "$etag" ] && ok || bad "a new move kept the ETag $etag"
board b3 3 Board=3 White=Lind Black=Haas
sleep 0.5
etag3=$(curl -s -D - -o /dev/null "$arb/round.pgn" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }')
[ "$etag3" = "$etag2" ] && ok || bad "the same game again changed the ETag"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag2" "$arb/round.pgn")
[ "$code" = 304 ] && ok || bad "after the same message again: $code"
# What a poll of an unchanged round costs, headers included.
bytes=$(curl -s -o /dev/null -w '%{size_header} %{size_download}' -H "If-None-Match: $etag2" \
	-H 'Accept-Encoding: gzip' "$arb/round.pgn" | awk '{ print $1 + $2 }')
full=$(curl -s -o /dev/null -w '%{size_header} %{size_download}' "$arb/round.pgn" | awk '{ print $1 + $2 }')
echo "room: a poll of the unchanged round: $bytes bytes (the round itself: $full bytes)"
[ "$bytes" -lt 1024 ] && ok || bad "an unchanged poll costs $bytes bytes"

# ------------------------------------------------------------------ the page in a browser
if axe=$(bash "$dir/web/axe.sh" "$build" 2>"$work/axe.err"); then
	/usr/bin/python3 "$dir/web/roomtest.py" "$build" "$axe" "$port" "$pub" "$arb" \
		"$work/broker.conf" "$relay_pid" >"$work/roomtest.out" 2>&1
	grep -v '^room: [0-9]* passed' "$work/roomtest.out"
	p=$(sed -n 's/^room: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$work/roomtest.out")
	f=$(sed -n 's/^room: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$work/roomtest.out")
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-1}))
else
	bad "axe-core: $(cat "$work/axe.err")"
fi

summary

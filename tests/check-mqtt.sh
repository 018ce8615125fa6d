#!/usr/bin/env bash
# Live broadcast through a real broker (docs/broadcast.md "Live broadcast and the room relay"): Debian's
# mosquitto started here on free ports with its own configuration, real daemons playing sim
# games in real time, real `annabella broadcast` and `annabella relay` processes, checked with
# mosquitto_sub and curl.  The retained PGN equals the daemon's export, and is whole again after
# the broker and after the daemon were stopped and started mid-game; status and events arrive;
# the relay's round.pgn holds every board in order with the tags a broadcast needs; `relay tags`
# reaches only a board whose broadcast accepts tags; the relay refuses POST; a broker with
# passwords and TLS takes the right password and refuses a wrong one, and the refused broadcast
# touches nothing.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
dir=$tests
begin mqtt
need mosquitto mosquitto_sub mosquitto_passwd openssl curl python3

port=$(free_port)
broker_conf "$work/broker.conf" "$port"
start_broker "$work/broker.conf"
wait_port "$port" || bad "the broker did not start: $(cat "$work/broker.conf.log")"

# The broadcasts, the relay and the test's own requests all run as the tester, where a club
# gives each service its user: the tester is an arbiter (as root is by default), so the
# socket's places per user (docs/control.md "Control interface") do not refuse the harness.
printf '[voice]\nrecord = no\n[control]\narbiters = root %s\n' "$(id -un)" >"$work/annabella.conf"
daemon() { # NAME SCRIPT: a daemon in real time with its own state and socket; pid in $dpid
	spawn "$build/annabellad" --config "$work/annabella.conf" --board "sim:$2" --time real \
		--audio none --state "$work/$1.state" --control "$work/$1.sock" \
		>>"$work/$1.daemon.log" 2>&1
	dpid=$!
	wait_socket "$work/$1.sock" || bad "$1: no control socket"
}
broadcast() { # NAME LOG ARGS...: pid in $bpid
	local board=$1 log=$2
	shift 2
	spawn "$build/annabella" broadcast --board "$board" --socket "$work/$board.sock" "$@" \
		>>"$log" 2>&1
	bpid=$!
}
export_pgn() { # NAME
	"$build/annabella" control --socket "$work/$1.sock" export pgn 2>/dev/null |
		python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["text"])'
}
retained() { # PORT TOPIC [mosquitto_sub options]: the retained message, if any
	local p=$1 t=$2
	shift 2
	mosquitto_sub -p "$p" -t "$t" -C 1 -W 2 "$@" 2>/dev/null
}
plies() { # PGN on stdin: its SAN moves
	python3 -c '
import re, sys
t = sys.stdin.read().split("\n\n", 1)[-1]
t = re.sub(r"\{[^}]*\}", " ", t)
print(len([w for w in t.split() if re.match(r"[KQRBNa-hO]", w)]))'
}
has_plies() { [ "$(export_pgn "$1" | plies)" -ge "$2" ] 2>/dev/null; } # NAME N
wait_plies() { wait_for 20 has_plies "$@"; } # NAME N: until the daemon has N plies
same_pgn() { # WHAT NAME PORT [mosquitto_sub options]: the retained PGN equals the export
	local what=$1 board=$2 p=$3 want got
	shift 3
	for _ in $(seq 60); do
		want=$(export_pgn "$board")
		got=$(retained "$p" "annabella/$board/pgn" "$@")
		[ -n "$want" ] && [ "$got" = "$want" ] && {
			ok
			return 0
		}
		sleep 0.25
	done
	bad "$what: the retained PGN is not the daemon's:"
	diff <(echo "$want") <(echo "$got") | head -8
	return 1
}

# ------------------------------------------------------------------ broker and daemon restarts
# Six plies with pauses between (the broker freezes before the third, dies after it and is
# started again after the fourth), then a long wait.
cat >"$work/b1.script" <<'SCRIPT'
player white
time-control 600+5
+300 press opponent-clock
+300 lift e2
+200 place e4
+300 press player-clock
+300 lift e7
+200 place e5
+300 press opponent-clock
+4000 lift g1
+200 place f3
+300 press player-clock
+3000 lift b8
+200 place c6
+300 press opponent-clock
+8000 lift f1
+200 place c4
+300 press player-clock
+300 lift f8
+200 place c5
+300 press opponent-clock
+600000 lift a2
SCRIPT
# After the restart: the same game goes on (the clocks come back paused).
cat >"$work/b1-again.script" <<'SCRIPT'
player white
time-control 600+5
setup r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4
+500 control arbiter resume
+300 lift d2
+200 place d3
+300 press player-clock
+300 lift d7
+200 place d6
+300 press opponent-clock
+600000 lift a2
SCRIPT
spawn mosquitto_sub -p "$port" -t 'annabella/b1/#' -v >"$work/b1.sub" 2>/dev/null
daemon b1 "$work/b1.script"
b1_daemon=$dpid
broadcast b1 "$work/b1.broadcast.log" --mqtt "127.0.0.1:$port" --accept-tags
b1_broadcast=$bpid
wait_plies b1 2 || bad "b1: the game did not start"
same_pgn "two plies" b1 "$port"
# The broker freezes: the third ply's PGN is published but never acknowledged.  It dies; the
# fourth ply is made while it is down; it starts again.  The broadcast publishes the game whole
# when it connects, and the client library sends the unacknowledged third-ply PGN again: the
# broker must keep the whole one (the regression: the stale one, retained until the next move).
kill -STOP "$broker_pid"
wait_plies b1 3 || bad "b1: no third ply while the broker was frozen"
sleep 1
{
	kill -KILL "$broker_pid"
	wait "$broker_pid"
} 2>/dev/null
connects=$(grep -c 'broker .*: connected' "$work/b1.broadcast.log")
wait_plies b1 4 || bad "b1: no fourth ply while the broker was down"
start_broker "$work/broker.conf"
wait_port "$port" || bad "the broker did not start again"
reconnected() { [ "$(grep -c 'broker .*: connected' "$work/b1.broadcast.log")" -gt "$connects" ]; }
wait_for 20 reconnected || bad "the broadcast did not connect to the broker again"
sleep 1
# Before the fifth ply (eight seconds after the fourth): the retained PGN is the export.
want=$(export_pgn b1)
got=$(retained "$port" annabella/b1/pgn)
[ "$(plies <<<"$want")" = 4 ] && [ "$got" = "$want" ] && ok ||
	bad "after the broker's restart the retained PGN has $(plies <<<"$got") plies, not the daemon's $(plies <<<"$want")"
same_pgn "after the broker's restart" b1 "$port"
wait_plies b1 6 || bad "b1: no sixth ply"
same_pgn "six plies" b1 "$port"
stop "$b1_daemon"
sleep 1
daemon b1 "$work/b1-again.script"
b1_daemon=$dpid
wait_plies b1 8 || bad "b1: the game did not go on after the daemon's restart"
same_pgn "after the daemon's restart" b1 "$port"
# d6 is in the PGN once made, its [%clk] once Black's press follows (300 ms later): wait for
# the reading rather than race the press.
for _ in $(seq 40); do
	got=$(retained "$port" annabella/b1/pgn)
	grep -q '4... d6 {\[%clk 0:' <<<"$got" && break
	sleep 0.25
done
grep -q '4... d6 {\[%clk 0:' <<<"$got" && grep -q '^1. e4 {\[%clk 0:10:' <<<"$got" && ok ||
	bad "the retained PGN after both restarts is not whole: $got"
grep -q 'retrying' "$work/b1.broadcast.log" && grep -q 'connected' "$work/b1.broadcast.log" &&
	ok || bad "the broadcast did not say it lost and found the broker and daemon: $(cat "$work/b1.broadcast.log")"
kill -0 "$b1_broadcast" 2>/dev/null && ok || bad "the broadcast died"
status=$(retained "$port" annabella/b1/status)
grep -q '"plies":8' <<<"$status" && grep -q '"clock":{' <<<"$status" && ok ||
	bad "the retained status: ${status:0:200}"
grep -q '^annabella/b1/event {"event":"made".*"san":"e4"' "$work/b1.sub" &&
	grep -q '^annabella/b1/event {"event":"made".*"san":"d6"' "$work/b1.sub" && ok ||
	bad "the events of e4 and d6 did not arrive"
[ "$(grep -c '^annabella/b1/status ' "$work/b1.sub")" -ge 8 ] && ok ||
	bad "too few status messages: $(grep -c '^annabella/b1/status ' "$work/b1.sub")"

# ------------------------------------------------------------------ the relay and tags
two_plies() { # the first two plies, then a long wait
	printf 'player white\ntime-control 900+10\n+300 press opponent-clock\n+300 lift e2\n'
	printf '+200 place e4\n+300 press player-clock\n+300 lift c7\n+200 place c5\n'
	printf '+300 press opponent-clock\n+600000 lift a2\n'
}
two_plies >"$work/short.script"
daemon b2 "$work/short.script"
broadcast b2 "$work/b2.broadcast.log" --mqtt "127.0.0.1:$port"
daemon b3 "$work/short.script"
b3_daemon=$dpid
broadcast b3 "$work/b3.broadcast.log" --mqtt "127.0.0.1:$port" --accept-tags
spawn "$build/annabella" relay --mqtt "127.0.0.1:$port" --listen 127.0.0.1:0 \
	>"$work/relay.log" 2>&1
for _ in $(seq 50); do
	relay=$(grep -o 'http://[0-9.:]*' "$work/relay.log" | head -1)
	[ -n "$relay" ] && break
	sleep 0.1
done
wait_plies b2 2 && wait_plies b3 2 || bad "b2 and b3 did not play"

# A bad CSV: the file and line named, nothing sent.
printf 'name,Board,White\nb1,1,"Berg, Anna\nb2,2,x\n' >"$work/bad.csv"
"$build/annabella" relay tags "$work/bad.csv" --mqtt "127.0.0.1:$port" >"$work/out" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "bad.csv:2: " "$work/out" && ok ||
	bad "a bad CSV: exit $st, said $(cat "$work/out")"
printf 'name,White,Result\nb1,x,1-0\n' >"$work/bad2.csv"
"$build/annabella" relay tags "$work/bad2.csv" --mqtt "127.0.0.1:$port" >"$work/out" 2>&1
grep -q "bad2.csv:1: column 3: 'Result' is not a tag" "$work/out" && ok ||
	bad "a CSV with Result: $(cat "$work/out")"
[ -z "$(mosquitto_sub -p "$port" -t 'annabella/+/tags' -W 1 2>/dev/null)" ] && ok ||
	bad "a bad CSV sent tags"

cat >"$work/round.csv" <<'CSV'
name,Event,Site,Round,Board,White,Black,WhiteElo
b1,Club Open,"Hall, Room 2",3,3,"Berg, Anna","Kühn, Jonas",2012
b2,Club Open,"Hall, Room 2",3,2,"Should, Not",Appear,
b3,Club Open,"Hall, Room 2",3,1,"Lind, Eva","Haas, Tom",1950
CSV
"$build/annabella" relay tags "$work/round.csv" --mqtt "127.0.0.1:$port" >"$work/out" 2>&1 &&
	grep -q 'relay tags: 3 boards' "$work/out" && ok ||
	bad "relay tags: $(cat "$work/out")"
for _ in $(seq 50); do
	round=$(curl -s "$relay/round.pgn")
	grep -q 'Lind, Eva' <<<"$round" && grep -q 'Berg, Anna' <<<"$round" && break
	sleep 0.2
done
grep -q '\[White "Berg, Anna"\]' <<<"$round" && grep -q '\[Site "Hall, Room 2"\]' <<<"$round" &&
	grep -q '\[WhiteElo "2012"\]' <<<"$round" && ok || bad "b1 did not take the tags: $round"
grep -q 'Should, Not' <<<"$round" && bad "b2 took tags without --accept-tags" || ok
grep -q 'tags' "$work/b2.state/control.log" && bad "b2's broadcast gave a command" || ok
# Board order: b3 (Board 1), b1 (Board 3), b2 (no Board tag) last, named by its board.
order=$(grep '^\[White ' <<<"$round" | tr '\n' '|')
[ "$order" = '[White "Lind, Eva"]|[White "Berg, Anna"]|[White "b2 (White)"]|' ] && ok ||
	bad "round.pgn's order: $order"
python3 - "$round" <<'PY' && ok || bad "round.pgn's tags or clocks"
import re, sys
games = sys.argv[1].strip().split("\n\n[")
assert len(games) == 3, len(games)
want = ["Event", "Site", "Date", "Round", "Board", "White", "Black", "Result"]
for g in games:
    names = re.findall(r"^\[?\[?(\w+) \"", g, re.M)
    assert names[:8] == want, names
    assert "[%clk 0:" in g, g
PY
# The same CSV again: nothing applied twice.
"$build/annabella" relay tags "$work/round.csv" --mqtt "127.0.0.1:$port" >/dev/null 2>&1
sleep 1
n=$(grep -c ' tags ' "$work/b1.state/control.log")
[ "$n" -eq 7 ] && ok || bad "b1 was given $n tags commands (want 7, once each)"
api=$(curl -s "$relay/api/boards")
python3 -c '
import json, sys
j = json.loads(sys.argv[1])
names = [b["name"] for b in j["boards"]]
assert names == ["b3", "b1", "b2"], names
b = j["boards"][0]
assert b["clock"]["running"] == "white" and b["clock"]["white_ms"] > 0 and b["last_move"] == "c5", b
' "$api" && ok || bad "/api/boards: ${api:0:300}"
# Each board's link, retained: its broadcast on and reaching its daemon; a broadcast that
# dies leaves its last will, so the room shows the board offline.
[ "$(retained "$port" annabella/b2/link)" = '{"broadcast":true,"daemon":true}' ] && ok ||
	bad "b2's link: $(retained "$port" annabella/b2/link)"
broadcast b4 "$work/b4.broadcast.log" --mqtt "127.0.0.1:$port"
b4=$bpid
for _ in $(seq 50); do
	[ "$(retained "$port" annabella/b4/link)" = '{"broadcast":true,"daemon":false}' ] && break
	sleep 0.1
done
[ "$(retained "$port" annabella/b4/link)" = '{"broadcast":true,"daemon":false}' ] && ok ||
	bad "a broadcast without its daemon: link $(retained "$port" annabella/b4/link)"
kill -9 "$b4"
stop "$b4"
for _ in $(seq 50); do
	[ "$(retained "$port" annabella/b4/link)" = '{"broadcast":false,"daemon":null}' ] && break
	sleep 0.1
done
[ "$(retained "$port" annabella/b4/link)" = '{"broadcast":false,"daemon":null}' ] && ok ||
	bad "a broadcast killed left no last will: $(retained "$port" annabella/b4/link)"
# A frozen daemon keeps its socket and says nothing: its broadcast asks for the status
# after 5 s of quiet and, without a reply in 5 s, says the daemon is lost; back once it is.
link_now() { [ "$(retained "$port" "annabella/$1/link")" = "$2" ]; } # NAME WANT
link_is() { wait_for 20 link_now "$@"; } # NAME WANT
kill -STOP "$b3_daemon"
link_is b3 '{"broadcast":true,"daemon":false}' && ok ||
	bad "a frozen daemon: b3's link $(retained "$port" annabella/b3/link)"
kill -CONT "$b3_daemon"
link_is b3 '{"broadcast":true,"daemon":true}' && ok ||
	bad "the daemon going on: b3's link $(retained "$port" annabella/b3/link)"
# The broadcast's client id is new each run and not to be guessed: a client of the room that
# takes the id a board once had (annabella-broadcast-NAME) pushes nobody off.
id=$(grep -o 'as annabella-b2-[0-9a-f]\{16\} ' "$work/broker.conf.log" | head -1)
[ -n "$id" ] && ok ||
	bad "b2's client id is not annabella-b2-RANDOM: $(grep -o 'as [^ ]*b2[^ ]* ' "$work/broker.conf.log" | head -2)"
before=$(grep -c 'connected$' "$work/b2.broadcast.log")
for _ in 1 2 3; do
	mosquitto_sub -p "$port" -i annabella-broadcast-b2 -t annabella/b2/link -C 1 -W 1 >/dev/null 2>&1
done
sleep 0.5
[ "$(grep -c 'connected$' "$work/b2.broadcast.log")" = "$before" ] &&
	! grep -q "Client ${id#as }\?already connected" "$work/broker.conf.log" &&
	link_now b2 '{"broadcast":true,"daemon":true}' && ok ||
	bad "a client with the old client id pushed b2's broadcast off: $(grep -c 'connected$' "$work/b2.broadcast.log") connections (had $before); $(grep 'already connected' "$work/broker.conf.log" | head -2)"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST --data 'tags White x' "$relay/round.pgn")
[ "$code" = 405 ] && ok || bad "POST got $code, not 405"
code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$relay/api/boards")
[ "$code" = 405 ] && ok || bad "PUT got $code, not 405"
page=$(curl -s "$relay/")
grep -q '<html lang="en">' <<<"$page" && grep -q 'aria-live' <<<"$page" &&
	[ "$(curl -s -o /dev/null -w '%{http_code}' "$relay/relay.js")" = 200 ] && ok ||
	bad "the room page"
# The room page in a real browser: every board shown, and axe-core finds no violation.
if axe=$(bash "$dir/web/axe.sh" "$build" 2>"$work/axe.err"); then
	out=$(/usr/bin/python3 "$dir/web/pagecheck.py" "$relay/" "$axe" '#boards > li' 3 2>&1) &&
		ok || bad "the room page in Chromium: $out"
else
	bad "axe-core: $(cat "$work/axe.err")"
fi

# ------------------------------------------------------------------ passwords and TLS
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca.key" -out "$work/ca.crt" \
	-days 2 -subj /CN=annabella-test-ca >/dev/null 2>&1
openssl req -newkey rsa:2048 -nodes -keyout "$work/server.key" -out "$work/server.csr" \
	-subj /CN=localhost >/dev/null 2>&1
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$work/san.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" \
	-CAcreateserial -out "$work/server.crt" -days 2 -extfile "$work/san.ext" >/dev/null 2>&1
mosquitto_passwd -b -c "$work/passwd" board-pi s3cret-Pw 2>/dev/null
chmod 600 "$work/passwd" "$work/server.key"
printf 's3cret-Pw\n' >"$work/pw.right"
printf 'guessed\n' >"$work/pw.wrong"
chmod 600 "$work/pw.right" "$work/pw.wrong"
sport=$(free_port)
tport=$(free_port)
cat >"$work/secure.conf" <<CONF
per_listener_settings false
allow_anonymous false
password_file $work/passwd
persistence false
user $(id -un)
listener $sport 127.0.0.1
listener $tport 127.0.0.1
cafile $work/ca.crt
certfile $work/server.crt
keyfile $work/server.key
CONF
start_broker "$work/secure.conf"
wait_port "$sport" && wait_port "$tport" || bad "the secure broker did not start: $(cat "$work/secure.conf.log")"
before=$(wc -l <"$work/b2.state/control.log")
broadcast b2 "$work/b2.wrong.log" --mqtt "127.0.0.1:$sport" --user board-pi \
	--password-file "$work/pw.wrong"
wrong=$bpid
broadcast b2 "$work/b2.tls.log" --mqtt "localhost:$tport" --user board-pi \
	--password-file "$work/pw.right" --tls-ca "$work/ca.crt" --accept-tags
same_pgn "over TLS with the password" b2 "$tport" --cafile "$work/ca.crt" -u board-pi \
	-P s3cret-Pw -h localhost
grep -q 'refused the connection: .*not authori[sz]ed' "$work/b2.wrong.log" && ok ||
	bad "the wrong password was not reported: $(cat "$work/b2.wrong.log")"
kill -0 "$wrong" 2>/dev/null && ok || bad "the refused broadcast gave up"
awk -v n="$before" 'NR > n && $4 != "watch" && $4 != "status" && $4 != "export"' \
	"$work/b2.state/control.log" | grep -q . && bad "the broadcasts gave commands: $(tail -3 "$work/b2.state/control.log")" || ok
mosquitto_sub -p "$tport" -h localhost -t 'annabella/+/pgn' -C 1 -W 2 >/dev/null 2>&1 &&
	bad "the TLS listener let a client in without CA and password" || ok
"$build/annabella" relay tags "$work/round.csv" --mqtt "127.0.0.1:$sport" >"$work/out" 2>&1
st=$?
[ $st -eq 1 ] && grep -q 'refused; nothing sent' "$work/out" && ok ||
	bad "relay tags without a password: exit $st, $(cat "$work/out")"

summary

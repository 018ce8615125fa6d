#!/usr/bin/env bash
# The room is the round's boards only (docs/broadcast.md "Live broadcast and the room relay"), on a real
# mosquitto set up as the README shows a club opening its broker to the room
# (configs/mosquitto/: a password per board and for the relay, the ACL): two real daemons with
# real broadcasts log in as their boards; a third board's user publishes under its own name but
# is not in the round; one board's user tries to publish in the other's place; a client of the
# room without a name tries to publish.  The relay with --boards (and again with --round
# ROUND.csv) serves only the two boards' real games in round.pgn and /api/boards, and says once
# in its log which name it ignored; each board's link reaches the relay and the room (and a
# killed broadcast's last will); the broker keeps a board out of another's topic and the room
# out of all; the room can read the games.  Without --boards every publisher is shown, as
# before.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
conf_dir=$(cd "$tests/../configs/mosquitto" && pwd)
begin relay-round
need mosquitto mosquitto_pub mosquitto_sub mosquitto_passwd curl python3

# The README's broker: its two files, with this test's port, paths and user.
port=$(free_port)
: >"$work/annabella.passwd"
for u in relay pi-01 pi-02 pi-99; do
	mosquitto_passwd -b "$work/annabella.passwd" "$u" "secret-$u" 2>/dev/null
	echo "secret-$u" >"$work/$u.password"
done
sed -e "s|^listener 1883|listener $port 127.0.0.1|" \
	-e "s|/etc/mosquitto/|$work/|g" "$conf_dir/annabella.conf" >"$work/broker.conf"
printf 'persistence false\nuser %s\n' "$(id -un)" >>"$work/broker.conf"
cp "$conf_dir/annabella.acl" "$work/annabella.acl"
start_broker "$work/broker.conf"
wait_port "$port" || bad "the broker did not start: $(cat "$work/broker.conf.log")"

printf '[voice]\nrecord = no\n' >"$work/annabella.conf"
board() { # NAME WHITE: a daemon playing 1. e4 e5 with its broadcast logged in as NAME
	local board=$1 white=$2
	printf 'player white\ntime-control 600+5\n+300 press opponent-clock\n+300 lift e2\n+200 place e4\n+300 press player-clock\n+300 lift e7\n+200 place e5\n+300 press opponent-clock\n+60000 lift a2\n' \
		>"$work/$board.script"
	spawn "$build/annabellad" --config "$work/annabella.conf" --board "sim:$work/$board.script" \
		--time real --audio none --state "$work/$board.state" --control "$work/$board.sock" \
		>>"$work/$board.daemon.log" 2>&1
	wait_socket "$work/$board.sock"
	"$build/annabella" control --socket "$work/$board.sock" tags White "$white" >/dev/null
	spawn "$build/annabella" broadcast --board "$board" --socket "$work/$board.sock" \
		--mqtt "127.0.0.1:$port" --user "$board" --password-file "$work/$board.password" \
		>>"$work/$board.broadcast.log" 2>&1
}
board pi-01 "Berg, Anna"
board pi-02 "Lind, Eva"
pi02_broadcast=$!
sleep 2.5

# Publishers that are not the round's: pi-99 (a name of its own), pi-01's user in pi-02's
# place, a client without a name.
fake='[Event "?"]
[White "Impostor"]
[Black "?"]
[Result "*"]

1. a4 *'
mosquitto_pub -p "$port" -u pi-99 -P secret-pi-99 -t annabella/pi-99/pgn -r -q 1 -m "$fake"
mosquitto_pub -p "$port" -u pi-01 -P secret-pi-01 -t annabella/pi-02/pgn -r -q 1 -m "$fake"
mosquitto_pub -p "$port" -t annabella/pi-03/pgn -r -q 1 -m "$fake"
sleep 0.5

relay() { # LOG ARGS...: a relay on a free port (its port in $rport)
	local log=$1
	shift
	rport=$(free_port)
	spawn "$build/annabella" relay --mqtt "127.0.0.1:$port" --listen "127.0.0.1:$rport" \
		--user relay --password-file "$work/relay.password" "$@" >>"$log" 2>&1
	rpid=$!
	wait_port "$rport" || bad "the relay did not listen: $(cat "$log")"
}
round_ok() { # WHAT: round.pgn holds the two real games, nothing else
	local what=$1 pgn
	for _ in $(seq 40); do
		pgn=$(curl -s "http://127.0.0.1:$rport/round.pgn")
		[ "$(grep -c '^\[White ' <<<"$pgn")" -ge 2 ] && break
		sleep 0.25
	done
	if grep -q '^\[White "Berg, Anna"\]' <<<"$pgn" && grep -q '^\[White "Lind, Eva"\]' <<<"$pgn" &&
		[ "$(grep -c '^\[White ' <<<"$pgn")" -eq 2 ] && ! grep -q Impostor <<<"$pgn" &&
		! curl -s "http://127.0.0.1:$rport/api/boards" | grep -q 'pi-99\|pi-03\|Impostor'; then
		ok
	else
		bad "$what: round.pgn is not the round's two games: $pgn"
	fi
}

relay "$work/relay1.log" --boards pi-01,pi-02
round_ok "--boards"
mosquitto_pub -p "$port" -u pi-99 -P secret-pi-99 -t annabella/pi-99/status -r -q 1 -m '{}'
sleep 0.5
[ "$(grep -c "'pi-99' is not a board of the round" "$work/relay1.log")" -eq 1 ] && ok ||
	bad "the relay's log on pi-99 (want one line): $(cat "$work/relay1.log")"
grep -q "the round: 2 boards" "$work/relay1.log" && ok || bad "the relay does not say its round: $(cat "$work/relay1.log")"
# Each board's link (its broadcast and its daemon up; its last will when the broadcast is
# gone) reaches the relay and the room through the shipped ACL.
links() { # the boards' links as the relay shows them
	curl -s "http://127.0.0.1:$rport/api/boards" | python3 -c '
import json, sys
for b in json.load(sys.stdin)["boards"]:
    print("%s=%s/%s" % (b["name"], b["link"]["broadcast"], b["link"]["daemon"]), end=" ")'
}
links_are() { [ "$(links)" = "$1" ]; }
wait_for 5 links_are "pi-01=True/True pi-02=True/True " && ok ||
	bad "the relay does not see the boards' links: $(links)"
got=$(mosquitto_sub -p "$port" -t annabella/pi-01/link -C 1 -W 2 2>/dev/null)
[ "$got" = '{"broadcast":true,"daemon":true}' ] && ok || bad "the room does not read pi-01's link: '$got'"
kill -9 "$pi02_broadcast"
stop "$pi02_broadcast"
wait_for 5 links_are "pi-01=True/True pi-02=False/None " && ok ||
	bad "pi-02's last will does not reach the relay: $(links)"
got=$(mosquitto_sub -p "$port" -t annabella/pi-02/link -C 1 -W 2 2>/dev/null)
[ "$got" = '{"broadcast":false,"daemon":null}' ] && ok || bad "the room does not read pi-02's last will: '$got'"
stop "$rpid"

# The round from its tags CSV (as `annabella relay tags` sends it).
printf 'name,Round,Board\npi-02,3,2\npi-01,3,1\n' >"$work/round.csv"
relay "$work/relay2.log" --round "$work/round.csv"
round_ok "--round"
stop "$rpid"

# The broker: pi-01 could not write in pi-02's place, the room could not write at all, and
# the room reads the games.
got=$(mosquitto_sub -p "$port" -t annabella/pi-02/pgn -C 1 -W 3 2>/dev/null)
grep -q 'Lind, Eva' <<<"$got" && ! grep -q Impostor <<<"$got" && ok ||
	bad "the broker let pi-01 publish as pi-02 (or the room cannot read): $got"
got=$(mosquitto_sub -p "$port" -t annabella/pi-03/pgn -C 1 -W 2 2>/dev/null)
[ -z "$got" ] && ok || bad "the broker let a client without a name publish: $got"
mosquitto_sub -p "$port" -u pi-02 -P wrong -t annabella/pi-02/tags -C 1 -W 2 >/dev/null 2>&1
[ $? -ne 0 ] && ok || bad "the broker took a wrong password"

# Without a round: every publisher (pi-99 too), as before.
relay "$work/relay3.log"
for _ in $(seq 40); do
	curl -s "http://127.0.0.1:$rport/round.pgn" | grep -q Impostor && break
	sleep 0.25
done
curl -s "http://127.0.0.1:$rport/round.pgn" | grep -q Impostor && ok ||
	bad "without a round, pi-99's game is not shown"
grep -q 'every board that publishes on the broker is shown' "$work/relay3.log" && ok ||
	bad "without a round, the relay does not say so: $(cat "$work/relay3.log")"
"$build/annabella" relay --mqtt "127.0.0.1:$port" --listen "127.0.0.1:$(free_port)" \
	--boards 'pi-01,pi 02/x' >"$work/bad.log" 2>&1
[ $? -eq 2 ] && grep -q "'pi' is not\|'02/x' is not" "$work/bad.log" && ok ||
	bad "a bad --boards is not refused: $(cat "$work/bad.log")"
summary

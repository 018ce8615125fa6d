#!/usr/bin/env bash
# The web page's PINs (docs/web.md "The web page for the assistant and the arbiter") with curl
# against a real daemon and a real `annabella web`: forty wrong PINs sent at once from one
# address are counted one by one (five refused as wrong, the others told to wait: none gets
# through by a race); the arbiter's PIN from another address is taken while that address waits;
# wrong PINs from many addresses are held back in total, but not at an address that gave a right
# PIN before; and the daemon never counts the page's user as guessing (its control.log has no
# wrong PIN of it).  Without the PINs in its configuration the page passes each on to the
# daemon, one at a time per address, and the daemon's wait (code pin-wait) is a 429.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin webpin
sock="$work/control"
cat >"$work/annabella.conf" <<CONF
[control]
socket = $sock
arbiters = nobody-here
arbiter-pin = 471108
assistant-pin = 123456
[voice]
record = no
CONF
printf 'player white\ntime-control 600+5\n+120000 lift a2\n' >"$work/idle.script"
spawn "$build/annabellad" --config "$work/annabella.conf" --board "sim:$work/idle.script" \
	--time real --audio none --state "$work/state" 2>"$work/daemon.err"
wait_socket "$sock"
port=$(free_port)
spawn "$build/annabella" web --config "$work/annabella.conf" --listen "127.0.0.1:$port" \
	>"$work/web.out" 2>"$work/web.err"
web=$!
wait_port "$port" || bad "the page does not listen"
base="http://127.0.0.1:$port/api/command"
post() { # FROM-ADDRESS PIN COMMAND: "STATUS BODY"
	curl -s --interface "$1" -o /dev/null -w '%{http_code}' -H "X-PIN: $2" \
		--data-binary "$3" "$base" 2>/dev/null
}
burst() { # FROM N: N wrong PINs at once from one address; their status codes, one a line
	local from=$1 n=$2
	seq "$n" | xargs -P "$n" -I{} curl -s --interface "$from" -o /dev/null -w '%{http_code}\n' \
		-H 'X-PIN: 9{}0000' --data-binary status "$base"
}

# Forty at once from one address: five wrong, thirty-five told to wait.
burst 127.0.0.1 40 >"$work/burst"
wrong=$(grep -c '^403$' "$work/burst")
waits=$(grep -c '^429$' "$work/burst")
[ "$wrong" -eq 5 ] && [ "$waits" -eq 35 ] && ok ||
	bad "40 PINs at once from one address: $wrong refused as wrong (want 5), $waits told to wait (want 35): $(sort "$work/burst" | uniq -c | tr '\n' ' ')"
# That address waits, even with the right PIN; the arbiter at another is taken at once.
code=$(post 127.0.0.1 471108 status)
[ "$code" = 429 ] && ok || bad "the waiting address's right PIN: $code (want 429)"
code=$(curl -s --interface 127.0.0.2 -H 'X-PIN: 471108' --data-binary 'status' -o "$work/arb.json" \
	-w '%{http_code}' "$base")
[ "$code" = 200 ] && grep -q '"plies"' "$work/arb.json" && ok ||
	bad "the arbiter's PIN from another address: $code $(head -c 200 "$work/arb.json")"
code=$(curl -s --interface 127.0.0.2 -H 'X-PIN: 471108' --data-binary 'clock set 0:09:00 0:09:00' \
	-o "$work/arb.json" -w '%{http_code}' "$base")
grep -q '"ok":true' "$work/arb.json" && ok ||
	bad "the arbiter's command from another address: $code $(cat "$work/arb.json")"

# The total: wrong PINs from 30 more addresses (one each) within the minute; the 31st new
# address waits; the address that gave a right PIN does not.
for i in $(seq 10 40); do post "127.0.0.$i" 555555 status >>"$work/many"; echo >>"$work/many"; done
many_wrong=$(grep -c '^403$' "$work/many")
many_wait=$(grep -c '^429$' "$work/many")
[ "$many_wrong" -eq 25 ] && [ "$many_wait" -eq 6 ] && ok ||
	bad "31 addresses with a wrong PIN after the 5: $many_wrong wrong (want 25: 30 a minute in all), $many_wait waiting (want 6)"
code=$(post 127.0.0.50 471108 status)
[ "$code" = 429 ] && ok || bad "a new address while the total is full: $code (want 429)"
code=$(post 127.0.0.2 471108 status)
[ "$code" = 200 ] && ok || bad "the trusted address while the total is full: $code (want 200)"
# The daemon saw only right PINs from the page's user.
if grep -q 'auth \*\*\*\* => error' "$work/state/control.log"; then
	bad "the daemon counted the page's wrong PINs: $(grep 'auth' "$work/state/control.log" | head -3)"
else
	ok
fi
grep -q 'annabella web: 127.0.0.1 waits' "$work/web.err" && ok ||
	bad "the page's log does not say that the address waits: $(head -5 "$work/web.err")"

# Without the PINs in its configuration: passed on, one at a time per address.
stop "$web"
grep -q 'PINs from 127.0.0.1 refused unchecked during a' "$work/web.err" && ok ||
	bad "the page's log lacks the refused PINs' line at its stop: $(tail -3 "$work/web.err")"
port=$(free_port)
spawn "$build/annabella" web --socket "$sock" --listen "127.0.0.1:$port" >"$work/web2.out" \
	2>"$work/web2.err"
wait_port "$port" || bad "the second page does not listen"
base="http://127.0.0.1:$port/api/command"
burst 127.0.0.3 40 >"$work/burst2"
wrong=$(grep -c '^403$' "$work/burst2")
[ "$wrong" -ge 1 ] && [ "$wrong" -le 5 ] && [ "$(grep -c '^429$' "$work/burst2")" -eq $((40 - wrong)) ] &&
	ok || bad "40 PINs at once, passed on to the daemon: $wrong reached it (want 1 to 5): $(sort "$work/burst2" | uniq -c | tr '\n' ' ')"
# One at a time from new addresses: the daemon checks them until its fifth wrong PIN of the
# page's user (a 403 like the others, though its reply, code wrong-pin-wait, says when the
# next is checked); the next, within its 2 s wait, it refuses unchecked (code pin-wait): a
# 429 on the page.
want=""
for _ in $(seq $((5 - wrong))); do want="${want}403 "; done
want="${want}429 "
got=""
for i in $(seq 60 $((60 + 5 - wrong))); do got="$got$(post "127.0.0.$i" 555555 status) "; done
[ "$got" = "$want" ] && ok ||
	bad "wrong PINs passed on one at a time after $wrong: $got(want $want: 403 until the daemon's fifth, then its wait as 429)"
grep -q 'auth \*\*\*\* => error wrong PIN; the next is checked in 2 s$' "$work/state/control.log" && ok ||
	bad "the daemon's control.log lacks its fifth wrong PIN: $(grep auth "$work/state/control.log" | tail -3)"
summary

#!/usr/bin/env bash
# The web page's PINs (docs/web.md "The web page for the assistant and the arbiter"; README "Security
# model") with curl and Python's http.client, each request from a loopback address of its own
# (127.x.y.z), against a real daemon and a real `annabella web`:
# - forty wrong PINs sent at once from one address are counted one by one (five refused as
#   wrong, the others told to wait, with the real wait in seconds: none gets through by a race);
# - the arbiter's PIN is checked against its address's own budget only: taken from another
#   address while the first waits, and from a new address while the page's total for new
#   addresses is full (which holds back the assistant's PIN there);
# - 66 addresses that know the assistant's PIN guessing the arbiter's in turns (the churn that
#   once evicted one another's counts): each held to its own five and its waits, at most 64
#   addresses counted at once; the others told to wait, unchecked;
# - trust kept per role: 86 assistant logins do not push the arbiter's address out, which
#   still gets in while the table is full of guessing addresses;
# - the daemon's refusal of the page's connection (its user at its six) is 503 "busy", never
#   "wrong PIN"; the daemon never counts the page's user as guessing (its control.log has no
#   wrong PIN of it);
# - without the PINs in its configuration the page passes each on to the daemon, one at a time
#   per address, and the daemon's wait (code pin-wait) is a 429.
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
post() { # FROM-ADDRESS PIN COMMAND: the status code
	curl -s --interface "$1" -o /dev/null -w '%{http_code}' -H "X-PIN: $2" \
		--data-binary "$3" "$base" 2>/dev/null
}
burst() { # FROM N: N wrong PINs at once from one address; their status codes, one a line
	local from=$1 n=$2
	seq "$n" | xargs -P "$n" -I{} curl -s --interface "$from" -o /dev/null -w '%{http_code}\n' \
		-H 'X-PIN: 9{}0000' --data-binary status "$base"
}
# PINs from many addresses, in order: lines "ADDRESS PIN" on stdin; "ADDRESS PIN STATUS
# REASON-OR-CODE SECONDS" on stdout.
many() {
	python3 -c '
import http.client, json, sys
port = int(sys.argv[1])
for line in sys.stdin:
    addr, pin = line.split()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(addr, 0))
    c.request("POST", "/api/command", body="status", headers={"X-PIN": pin})
    r = c.getresponse()
    try:
        j = json.loads(r.read())
    except ValueError:
        j = {}
    print(addr, pin, r.status, j.get("reason") or j.get("code") or "-", j.get("seconds", "-"))
    c.close()' "$port"
}

# Twenty assistants log in, each from an address of their own.
{
	for i in $(seq 1 20); do echo "127.0.1.$i 123456"; done
	for i in $(seq 1 66); do echo "127.0.2.$i 123456"; done
} | many >"$work/assistants"
[ "$(grep -c ' 200 ' "$work/assistants")" -eq 86 ] && ok ||
	bad "86 assistants' logins: $(cut -d' ' -f3- "$work/assistants" | sort | uniq -c | tr '\n' ' ')"

# Forty at once from one address: five wrong, the other thirty-five told to wait, or, on a
# machine slow enough that more than the address's connections (16 at first) are open at
# once, refused at the door before any PIN is read (curl's 000): no PIN more is checked.
burst 127.0.0.1 40 >"$work/burst"
wrong=$(grep -c '^403$' "$work/burst")
waits=$(grep -c '^429$' "$work/burst")
door=$(grep -c '^000$' "$work/burst")
[ "$wrong" -eq 5 ] && [ "$waits" -ge 1 ] && [ $((waits + door)) -eq 35 ] && [ "$door" -le 24 ] && ok ||
	bad "40 PINs at once from one address: $wrong refused as wrong (want 5), $waits told to wait and $door refused at the door (want 35 together): $(sort "$work/burst" | uniq -c | tr '\n' ' ')"
# The wait is said in seconds, as the page words it (code pin-wait) and as Retry-After.
curl -s --interface 127.0.0.1 -D "$work/wait.head" -o "$work/wait.json" -H 'X-PIN: 471108' \
	--data-binary status "$base"
grep -q '"code":"pin-wait","args":{"seconds":[12]}' "$work/wait.json" &&
	grep -qi '^Retry-After: [12]' "$work/wait.head" && ok ||
	bad "the waiting address's right PIN: not the wait in seconds: $(cat "$work/wait.json") $(grep -i retry "$work/wait.head")"
# The arbiter at another address is taken at once.
code=$(curl -s --interface 127.0.0.2 -H 'X-PIN: 471108' --data-binary 'status' -o "$work/arb.json" \
	-w '%{http_code}' "$base")
[ "$code" = 200 ] && grep -q '"plies"' "$work/arb.json" && ok ||
	bad "the arbiter's PIN from another address: $code $(head -c 200 "$work/arb.json")"
code=$(curl -s --interface 127.0.0.2 -H 'X-PIN: 471108' --data-binary 'clock set 0:09:00 0:09:00' \
	-o "$work/arb.json" -w '%{http_code}' "$base")
grep -q '"ok":true' "$work/arb.json" && ok ||
	bad "the arbiter's command from another address: $code $(cat "$work/arb.json")"

# The total: wrong PINs from 30 more addresses (one each) within the minute fill it with the
# five of 127.0.0.1; the last six are checked against the arbiter's PIN only, and told to wait.
for i in $(seq 10 40); do echo "127.0.0.$i 555555"; done | many >"$work/many"
many_wrong=$(grep -c ' 403 ' "$work/many")
many_wait=$(grep -c ' 429 total ' "$work/many")
[ "$many_wrong" -eq 25 ] && [ "$many_wait" -eq 6 ] && ok ||
	bad "31 addresses with a wrong PIN after the 5: $many_wrong wrong (want 25: 30 a minute in all), $many_wait waiting for the total (want 6): $(cut -d' ' -f3- "$work/many" | sort | uniq -c | tr '\n' ' ')"
# A new address while the total is full: the arbiter's PIN is taken, the assistant's waits.
code=$(post 127.0.0.50 471108 status)
[ "$code" = 200 ] && ok || bad "the arbiter's PIN from a new address while the total is full: $code (want 200)"
code=$(post 127.0.0.51 123456 status)
[ "$code" = 429 ] && ok || bad "the assistant's PIN from a new address while the total is full: $code (want 429)"
code=$(post 127.0.0.2 471108 status)
[ "$code" = 200 ] && ok || bad "the arbiter's address while the total is full: $code (want 200)"

# 66 addresses that know the assistant's PIN (they logged in before the total filled) guess
# the arbiter's in turns, four PINs a turn, two turns.  Each is held to its own count: five checked, then a
# wait; the table keeps every count (64 places: 32 taken above), so the addresses beyond it are
# told to wait, unchecked.
for turn in 1 2; do
	for i in $(seq 1 66); do
		for t in 1 2 3 4; do echo "127.0.2.$i 9$turn$t$i"; done
	done
done | many >"$work/guessers"
checked=$(grep -c ' 9[0-9]* 403 ' "$work/guessers")
crowded=$(grep -c ' 9[0-9]* 429 addresses ' "$work/guessers")
per_address=$(awk '$3 == 403 { n[$1]++ } END { m = 0; for (a in n) if (n[a] > m) m = n[a]; print m }' "$work/guessers")
[ "$checked" -le $((32 * 5)) ] && [ "$per_address" -le 5 ] && [ "$crowded" -gt 0 ] && ok ||
	bad "66 assistants guessing the arbiter's PIN: $checked checked (want at most 32 places x 5), at most $per_address from one address (want 5), $crowded refused for the full table (want some): $(cut -d' ' -f3- "$work/guessers" | sort | uniq -c | tr '\n' ' ')"
# The table is full: a new address waits, the arbiter's address still gets in, an assistant's
# address gets in with the assistant's PIN only.
code=$(post 127.0.3.1 471108 status)
[ "$code" = 429 ] && ok || bad "the arbiter's PIN from a new address with the table full: $code (want 429)"
code=$(post 127.0.0.2 471108 status)
[ "$code" = 200 ] && ok ||
	bad "the arbiter's own address after 86 assistant logins, the table full: $code (want 200)"
code=$(post 127.0.2.66 123456 status)
[ "$code" = 200 ] && ok || bad "an assistant's address with the table full: $code (want 200)"
code=$(post 127.0.2.66 471108 status)
[ "$code" = 429 ] && ok || bad "an assistant's address trying the arbiter's PIN with the table full: $code (want 429)"

# The daemon never counted a wrong PIN of the page's user.
if grep -q 'auth \*\*\*\* => error' "$work/state/control.log"; then
	bad "the daemon counted the page's wrong PINs: $(grep 'auth' "$work/state/control.log" | head -3)"
else
	ok
fi
grep -q 'annabella web: 127.0.0.1 waits' "$work/web.err" && ok ||
	bad "the page's log does not say that the address waits: $(head -5 "$work/web.err")"

# The daemon refuses the page's user a seventh connection: the arbiter's command is "busy"
# (503), never "wrong PIN".
python3 - "$sock" "$base" >"$work/busy" <<'PY' || bad "holding the page user's connections: $(cat "$work/busy")"
import socket, subprocess, sys, time
held = []
for _ in range(6):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    held.append(s)
time.sleep(0.3)
out = subprocess.run(["curl", "-s", "--interface", "127.0.0.2", "-w", " %{http_code}", "-H",
                      "X-PIN: 471108", "--data-binary", "status", sys.argv[2]],
                     capture_output=True, text=True).stdout
print(out)
PY
grep -q '"reason":"busy".* 503$' "$work/busy" && ok ||
	bad "the daemon's refusal of the page's connection: $(cat "$work/busy") (want 503 busy)"

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
[ "$wrong" -ge 1 ] && [ "$wrong" -le 5 ] &&
	[ $(($(grep -c '^429$' "$work/burst2") + $(grep -c '^000$' "$work/burst2"))) -eq $((40 - wrong)) ] &&
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

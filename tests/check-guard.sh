#!/usr/bin/env bash
# A socket nobody can block and PINs nobody can guess (docs/control.md "Control interface"), with real
# Unix users made for the test: an assistant who tries wrong PINs over many connections (counted
# for the user: five free, then growing waits, never more than ten in a minute, the tries during
# a wait refused unchecked even when right, and one control.log line per wait for them), while
# the arbiter's own user is never slowed and another user's right PIN is taken; silent and
# half-line clients closed after 10 s while one that has spoken stays; at most six connections
# per user; the last two places kept for the arbiters; and, under `ulimit -n`, clients held open
# never keep the daemon from writing game.pgn, and the arbiter still gets in.  The control round
# trip is not slowed by it (tests/bench-control.sh measures it). Needs root (or sudo) to make
# the users; they are removed at the end.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin guard
group=anb-guardtest
make_group "$group"
make_user anb-gassist "$group"
make_user anb-garbiter "$group"
make_user anb-gother "$group"
# What the users' clients write.
o="$work/out"
mkdir -m 1777 "$o"
sock="$work/run/control"
cat >"$work/annabella.conf" <<CONF
[control]
socket = $sock
group = $group
arbiters = anb-garbiter
arbiter-pin = 471108
assistant-pin = 123456
[voice]
record = no
CONF
# client.py: the socket driven as one user (run under runuser).
cat >"$work/client.py" <<'PY'
import json, socket, sys, time
path, what = sys.argv[1], sys.argv[2]
def connect():
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    return s
def ask(s, line):
    s.sendall(line.encode() + b"\n")
    buf = b""
    while not buf.endswith(b"\n"):
        got = s.recv(65536)
        if not got:
            return "(closed)"
        buf += got
    return buf.decode().strip()
if what == "hammer":
    # Wrong PINs for `seconds`, a new connection after every three tries (the daemon closes
    # one after five): each reply with its time.
    seconds, out = float(sys.argv[3]), open(sys.argv[4], "w")
    start, s, n = time.monotonic(), None, 0
    while time.monotonic() - start < seconds:
        if n % 3 == 0:
            if s: s.close()
            s = connect()
        reply = ask(s, "auth %06d" % (900000 + n))
        out.write("%.3f %s\n" % (time.monotonic() - start, reply)); out.flush()
        n += 1
        time.sleep(0.05)
elif what == "once":
    # One request on a new connection; its reply.
    s = connect()
    for line in sys.argv[3:]:
        print(ask(s, line))
elif what == "hold":
    # N connections that say `line` ("" for nothing, "sta" for half a line) and stay; how
    # long each stayed open (or "refused: ERROR [CODE]" at once) when all are closed or
    # after T s.
    n, line, t, out = int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), sys.argv[6]
    socks, start = [], time.monotonic()
    for i in range(n):
        s = connect()
        try:
            if line == "sta":
                s.sendall(b"sta")
            elif line:
                s.sendall(line.encode() + b"\n")
        except OSError:
            pass  # refused at once: its reply is read below
        socks.append(s)
    time.sleep(0.3)
    result = [None] * n
    for i, s in enumerate(socks):
        s.setblocking(False)
        try:
            got = s.recv(4096)
            if got and b"too many" in got:
                reply = json.loads(got.split(b"\n")[0])
                result[i] = "refused: %s [%s]" % (reply["error"], reply.get("code"))
        except BlockingIOError:
            pass
        except OSError:
            result[i] = "refused: (closed at once)"
    open(out + ".ready", "w").close()
    while time.monotonic() - start < t and any(r is None for r in result):
        for i, s in enumerate(socks):
            if result[i] is not None:
                continue
            try:
                while True:
                    got = s.recv(65536)
                    if not got:
                        result[i] = "closed %.1f" % (time.monotonic() - start)
                        break
            except BlockingIOError:
                pass
            except ConnectionResetError:
                result[i] = "closed %.1f" % (time.monotonic() - start)
        time.sleep(0.05)
    open(out, "w").write("\n".join(r or "open" for r in result) + "\n")
PY
as() { # USER ARGS...: client.py as that user
	local u=$1
	shift
	run_as "$u" python3 "$work/client.py" "$sock" "$@"
}
start_daemon() { # NAME SCRIPT [ULIMIT]: the daemon in the socket's group; its PID in $daemon
	local run=$1 script=$2 limit=${3:-}
	rm -rf "$work/$run"
	spawn_in_group "$group" sh -c '[ -z "$0" ] || ulimit -n "$0" && exec "$@"' "$limit" \
		"$build/annabellad" --config "$work/annabella.conf" --board "sim:$script" --time real \
		--audio none --state "$work/$run" 2>"$work/$run.err"
	daemon=$spawned
	daemon_job=$!
	wait_socket "$sock" || bad "$run: no socket"
}
stop_daemon() {
	kill "$daemon" 2>/dev/null
	wait "$daemon_job" 2>/dev/null
}

# ---------------------------------------------------------------- the PIN budget
printf 'player white\n+60000 lift a2\n' >"$work/idle.script"
start_daemon pins "$work/idle.script"
# The descriptors the daemon holds by itself (for the ulimit below).
base_fds=$(ls /proc/"$daemon"/fd | wc -l)
spawn as anb-gassist hammer 16 "$o/hammer.out"
hammer=$!
sleep 3
# Meanwhile (the assistant waits): the arbiter's own user, wrong PINs and all, is not
# slowed; another user's right PIN is taken; the assistant's right PIN is refused unchecked.
as anb-garbiter once "auth 1" "auth 2" "auth 3" "auth 4" "auth 5" "auth 6" "auth 7" >"$work/arb.out"
as anb-garbiter once "auth 8" "status" >>"$work/arb.out"
if [ "$(grep -c '"error":"wrong PIN"' "$work/arb.out")" -eq 8 ] && grep -q '"plies"' "$work/arb.out"; then
	ok
else
	bad "the arbiter's own user was slowed: $(cat "$work/arb.out")"
fi
as anb-gother once "auth 471108" "status" >"$work/other.out"
grep -q '"ok":true,"text":"arbiter"' "$work/other.out" && ok ||
	bad "another user's right PIN during the assistant's wait: $(cat "$work/other.out")"
as anb-gassist once "auth 123456" >"$work/right.out"
grep -q '"error":"too many wrong PINs: wait [0-9]* s","code":"pin-wait","args":{"seconds":[0-9]*}' \
	"$work/right.out" && ok ||
	bad "the waiting assistant's right PIN was checked: $(cat "$work/right.out")"
wait $hammer
checked=$(grep -c '"wrong PIN' "$o/hammer.out")
refused=$(grep -c 'too many wrong PINs' "$o/hammer.out")
# From the fifth on, a wrong PIN's reply says when the next is checked, by its code too.
waited=$(grep -c '"error":"wrong PIN; the next is checked in [0-9]* s","code":"wrong-pin-wait","args":{"seconds":[0-9]*}' "$o/hammer.out")
# 5 free at once, then after waits of 2, 4 and 8 s: at 2, 6 and 14 s.
times=$(grep '"wrong PIN' "$o/hammer.out" | cut -d' ' -f1 | tr '\n' ' ')
# (7 when the machine is so loaded that no try came between the third wait's end and 16 s)
if [ "$checked" -ge 7 ] && [ "$checked" -le 8 ] && [ "$refused" -gt 50 ] &&
	[ "$waited" -eq $((checked - 4)) ] &&
	[ "$(grep -c '"code":"pin-wait"' "$o/hammer.out")" -eq "$refused" ]; then
	ok
else
	bad "wrong PINs checked in 16 s: $checked at $times (want 8: five, then after 2, 4, 8 s), $waited saying when the next is checked; refused $refused"
fi
python3 - "$o/hammer.out" <<'PY' && ok || bad "more than ten PINs checked in a minute: $times"
import sys
t = [float(l.split()[0]) for l in open(sys.argv[1]) if '"wrong PIN' in l]
gaps = [b - a for a, b in zip(t[4:], t[5:])]
ok = all(sum(1 for y in t if x <= y < x + 60) <= 10 for x in t) and \
     all(g > w - 0.2 for g, w in zip(gaps, [2, 4, 8, 16, 32]))
sys.exit(0 if ok else 1)
PY
stop_daemon
# The audit: each checked wrong PIN a line; the refused ones one line per wait, with their
# count, nothing else.
log="$work/pins/control.log"
lines=$(grep -c '^[0-9]* anb-gassist assistant auth \*\*\*\* => error wrong PIN' "$log")
waits=$(grep -c '^[0-9]* anb-gassist assistant auth \*\*\*\* => error [0-9]* PINs\? refused unchecked during a' "$log")
sum=$(sed -n 's/.* => error \([0-9]*\) PINs\? refused unchecked during a.*/\1/p' "$log" |
	awk '{ n += $1 } END { print n + 0 }')
all_refused=$((refused + 1)) # and the right PIN refused while waiting
if [ "$lines" -eq "$checked" ] && [ "$waits" -ge 2 ] && [ "$waits" -le 4 ] &&
	[ "${sum:-0}" -eq "$all_refused" ] &&
	[ "$(grep -c 'anb-gassist' "$log")" -eq $((lines + waits)) ]; then
	ok
else
	bad "control.log: $lines wrong-PIN lines for $checked, $waits wait lines for $sum of $all_refused refused: $(grep gassist "$log" | tail -5)"
fi
grep -q 'anb-garbiter arbiter auth \*\*\*\* => error wrong PIN$' "$log" && ok ||
	bad "the arbiter's wrong PINs are not in control.log"

# ---------------------------------------------------------------- silent clients, places
start_daemon places "$work/idle.script"
spawn as anb-gassist hold 7 "" 14 "$o/silent"
holds=($!)
spawn as anb-gother hold 1 sta 14 "$o/half"
holds+=($!)
spawn as anb-gother hold 1 status 14 "$o/spoke"
holds+=($!)
wait_file "$o/silent.ready" && wait_file "$o/half.ready" && wait_file "$o/spoke.ready"
wait "${holds[@]}" 2>/dev/null
silent=$(cat "$o/silent")
if [ "$(grep -c '^closed \(9\.[5-9]\|1[0-2]\.\)' "$o/silent")" -eq 6 ] &&
	grep -q '^refused: too many connections of this user (at most 6) \[too-many-user-connections\]$' "$o/silent"; then
	ok
else
	bad "seven silent connections of one user (want six closed after about 10 s, one refused): $silent"
fi
grep -q '^closed \(9\.[5-9]\|1[0-2]\.\)' "$o/half" && ok ||
	bad "a half line (want closed after about 10 s): $(cat "$o/half")"
grep -qx open "$o/spoke" && ok || bad "a client that spoke was closed: $(cat "$o/spoke")"

# Fourteen watchers of three users fill what is not kept for the arbiters.
rm -f "$o"/w*.ready
spawn as anb-gassist hold 6 watch 8 "$o/w1"
holds=($!)
spawn as anb-gother hold 6 watch 8 "$o/w2"
holds+=($!)
wait_file "$o/w1.ready" && wait_file "$o/w2.ready"
spawn python3 "$work/client.py" "$sock" hold 3 watch 4 "$o/w3"
holds+=($!)
wait_file "$o/w3.ready"
as anb-garbiter once status >"$work/arb1.out"
as anb-garbiter once status >"$work/arb2.out"
sleep 4.5
if [ "$(grep -c '^refused' "$o/w3")" -eq 1 ] &&
	grep -q 'the last 2 places are kept for the arbiters \[arbiters-places\]$' "$o/w3"; then
	ok
else
	bad "the 15th place went to a user who is no arbiter: $(cat "$o/w3")"
fi
grep -q '"plies"' "$work/arb1.out" && ok || bad "the arbiter was kept out: $(cat "$work/arb1.out")"
wait "${holds[@]}" 2>/dev/null
stop_daemon

# ---------------------------------------------------------------- file descriptors
# The descriptors the daemon needs and twelve more (sixteen clients would take them all, as
# before the limits); watchers hold every client place they get for the whole game.
# game.pgn has every move, and the arbiter still gets in.
limit=$((base_fds + 12))
cat >"$work/game.script" <<'SCRIPT'
player white
time-control 600+5
+1500 press opponent-clock
+300 lift e2
+200 place e4
+300 press player-clock
+300 lift e7
+200 place e5
+300 press opponent-clock
+300 lift g1
+200 place f3
+300 press player-clock
+300 lift b8
+200 place c6
+300 press opponent-clock
+300 lift f1
+200 place c4
+300 press player-clock
+2000 lift a2
SCRIPT
start_daemon fds "$work/game.script" "$limit"
spawn as anb-gassist hold 6 watch 9 "$o/f1"
holds=($!)
spawn as anb-gother hold 6 watch 9 "$o/f2"
holds+=($!)
spawn python3 "$work/client.py" "$sock" hold 6 watch 9 "$o/f3"
holds+=($!)
wait_file "$o/f1.ready" && wait_file "$o/f2.ready" && wait_file "$o/f3.ready"
as anb-garbiter once status >"$work/farb.out"
grep -q '"plies"' "$work/farb.out" && ok || bad "ulimit -n $limit: the arbiter was kept out: $(cat "$work/farb.out")"
sleep 9.5
held=$(cat "$o/f1" "$o/f2" "$o/f3" 2>/dev/null | grep -vc '^refused')
wait "$daemon_job" 2>/dev/null
wait "${holds[@]}" 2>/dev/null
grep -q '^1\. e4 {\[%clk [0-9:]*\]} 1\.\.\. e5 {\[%clk [0-9:]*\]} 2\. Nf3 {\[%clk [0-9:]*\]}$' "$work/fds/game.pgn" &&
	grep -q '^2\.\.\. Nc6 {\[%clk [0-9:]*\]} 3\. Bc4 {\[%clk [0-9:]*\]} \*$' "$work/fds/game.pgn" && ok ||
	bad "ulimit -n $limit with clients held: game.pgn lacks moves: $(cat "$work/fds/game.pgn"); $(grep -v refused "$work/fds.err" | tail -3)"
grep -q 'file descriptors left are kept' "$work/fds.err" && ok ||
	bad "ulimit -n $limit: no client was refused for the descriptors: $(tail -3 "$work/fds.err")"
echo "guard: under ulimit -n $limit, $held watchers held a place, the rest were refused"
summary

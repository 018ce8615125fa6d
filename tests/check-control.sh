#!/usr/bin/env bash
# The control socket through the annabella CLI (docs/control.md "Control interface"), with real Unix
# users: an assistant and an arbiter in the socket's group, and a third user outside it who is
# refused at connect.  A daemon plays a sim game in real time while the users give commands;
# then it is killed as by a power cut, restarted, and the commands' effects are still there.
# Also: a PIN, a watcher, a client that sends 10,000 requests without reading, one that sends
# nothing and one that leaves mid-line: the game goes on.  The CLI's --help and its completion
# on a terminal come from the daemon's command table. Needs root (or sudo) to make the test
# users; they are removed at the end.  Run by a user with sudo, the daemon runs as that user in
# the socket's group (sudo -g: Debian's rule for the group sudo allows it), as the socket's
# group must be one the daemon is in.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin control
group=anb-ctltest
make_group "$group"
make_user anb-assistant "$group"
make_user anb-arbiter "$group"
make_user anb-outsider
tool=$(copy_for_users "$build/annabella")
sock="$work/run/control"
cat >"$work/annabella.conf" <<CONF
[control]
socket = $sock
group = $group
arbiters = anb-arbiter
arbiter-pin = 4711
assistant-pin = 1234
[voice]
record = no
CONF
as() { # USER CLI-ARGS...: the CLI as that user; its output in $work/out, status echoed
	local u=$1
	shift
	run_as "$u" "$tool" control --socket "$sock" "$@" >"$work/out" 2>&1
	echo $?
}
expect() { # WHAT STATUS WANT-STATUS [TEXT]
	if [ "$2" -ne "$3" ] || { [ -n "${4:-}" ] && ! grep -qF -- "$4" "$work/out"; }; then
		bad "$1: exit $2 (want $3), said: $(head -c 300 "$work/out")"
	else
		ok
	fi
}
# The daemon in the background, in the socket's group: daemon_pid is its own process (to
# signal), daemon_job what to wait for.
start_daemon() { # ERRLOG ARGS...
	local err=$1
	shift
	spawn_in_group "$group" "$build/annabellad" "$@" 2>"$err"
	daemon_job=$!
	daemon_pid=$spawned
}

# A game in real time on a live script (tests/lib.sh): two plies, the users' commands, a
# watcher, a third ply when they are done; the power goes.
live_open "$work/run1.board"
live "player white" "time-control 600+5" ""
start_daemon "$work/daemon1.err" --config "$work/annabella.conf" --board "sim:$work/run1.board" \
	--time real --audio none --state "$work/state"
wait_socket "$sock" || bad "no socket at $sock"
live "+300 press opponent-clock" "+300 lift e2" "+200 place e4" "+300 press player-clock" \
	"+300 lift e7" "+200 place e5" "+300 press opponent-clock"
# Black's press made too (White's clock runs): a press that came during the pause below
# would find the clocks stopped, and the claim after it would be Black's move still.
two_plies() {
	as anb-assistant status >/dev/null
	grep -q '"plies":2' "$work/out" && grep -q '"running":"white"' "$work/out"
}
wait_for 10 two_plies || bad "the first two plies were not made"

expect "assistant status" "$(as anb-assistant status)" 0 '"plies":2'
expect "assistant tags" "$(as anb-assistant tags White "Anna Berg")" 0 '"ok":true'
expect "assistant draw offer" "$(as anb-assistant draw-offer)" 0 'draw offer by black'
expect "assistant may not give a result" "$(as anb-assistant result 1-0 because)" 1 \
	'not allowed for this role'
expect "assistant may not pause" "$(as anb-assistant pause)" 1 'not allowed'
expect "arbiter pause" "$(as anb-arbiter pause)" 0 'clocks paused'
expect "arbiter resume" "$(as anb-arbiter resume)" 0 'clocks running'
expect "malformed argument" "$(as anb-assistant resign green)" 1 "'green': white or black"
expect "unknown command" "$(as anb-assistant teleport e2 e8)" 1 'unknown command'
expect "outsider refused at connect" "$(as anb-outsider status)" 2 'cannot reach the daemon'
# A PIN gives the arbiter's role to the assistant's connection.
printf 'auth 4711\nclaim threefold white\n' >"$work/pin.in"
run_as anb-assistant "$tool" control --socket "$sock" <"$work/pin.in" >"$work/out" 2>&1
expect "PIN gives the arbiter's reply" $? 0 'threefold claim by white is not correct'
expect "arbiter resumes after the claim" "$(as anb-arbiter resume)" 0 'clocks running'
printf 'auth 1\nauth 2\nauth 3\nauth 4\nauth 5\nstatus\n' >"$work/pins.in"
run_as anb-assistant "$tool" control --socket "$sock" <"$work/pins.in" >"$work/out" 2>&1
st=$?
if [ "$(grep -c 'wrong PIN' "$work/out")" -eq 5 ] && ! grep -q '"plies"' "$work/out" &&
	[ $st -ne 0 ]; then ok; else bad "five wrong PINs: exit $st, said: $(cat "$work/out")"; fi
# A watcher sees the next move.
spawn run_as anb-assistant "$tool" control --socket "$sock" watch >"$work/watch.out" 2>&1
watcher=$!
# Unruly clients: silent, half a line, and a burst that is never read.
python3 - "$sock" <<'PY' &
import socket, sys, time
path = sys.argv[1]
silent = socket.socket(socket.AF_UNIX); silent.connect(path)
half = socket.socket(socket.AF_UNIX); half.connect(path); half.sendall(b"sta"); half.close()
burst = socket.socket(socket.AF_UNIX); burst.connect(path); burst.setblocking(False)
sent = 0
try:
    for i in range(10000):
        burst.send(b"status\n"); sent += 1
except BlockingIOError:
    pass
time.sleep(6)
PY
unruly=$!
track $unruly
wait_line "$work/watch.out" . 5 # the watcher is in
live "+300 lift g1" "+200 place f3" "+1500 crash"
wait $daemon_job 2>/dev/null
rc1=$?
stop $watcher $unruly
[ $rc1 -eq 137 ] && ok || bad "the first run exited $rc1 (want 137, the crash)"
grep -q '"event":"made".*"san":"Nf3"' "$work/watch.out" && ok ||
	bad "the watcher did not see Nf3: $(head -c 300 "$work/watch.out")"
# The move is made after the settle time from f3's placing (the journal has its time).
live_close
said=$(awk '/public Springer Gustav eins Felix drei/ { print $1; exit }' "$work/state/speech.log")
placed=$(awk '$4 == "place" && $5 == "f3" { print $3; exit }' "$work/state/journal")
if [ -n "$said" ] && [ -n "$placed" ]; then
	ok
	echo "control: with the unruly clients, Nf3 was announced $((said - placed)) ms after its" \
		"peg went in (settle time 150 ms)"
else
	bad "the move after the unruly clients was not announced"
fi
grep -q '^[0-9]* anb-assistant+pin arbiter claim threefold white => ok' "$work/state/control.log" &&
	ok || bad "control.log lacks the PIN's author: $(grep claim "$work/state/control.log")"
grep -q '^[0-9]* anb-arbiter arbiter pause => ok clocks paused' "$work/state/control.log" &&
	ok || bad "control.log lacks the arbiter's pause"

# The power comes back: the commands' effects are in the journal.  The board a live script
# with no action, so the daemon runs until the test stops it (a script's wait ended it
# before the test was done on a loaded machine).
live_open "$work/run2.board"
live "player white" "time-control 600+5" ""
start_daemon "$work/daemon2.err" --config "$work/annabella.conf" --board "sim:$work/run2.board" \
	--time real --audio none --state "$work/state"
# The socket is there a moment before its group may use it (it is given its mode after it
# is made): until the assistant reaches the daemon.
reachable() { as anb-assistant status >/dev/null && grep -q '"ok":true' "$work/out"; }
wait_for 10 reachable || bad "the assistant cannot reach the daemon after the restart: $(cat "$work/out")"
# The CLI's help and completion are the daemon's command table: --help lists every row of
# `help`, and on a terminal Tab completes a command and its first argument.
"$build/annabella" control --socket "$sock" help >"$work/help.json" 2>&1
"$build/annabella" control --help >"$work/help.txt" 2>&1
python3 - "$work/help.json" "$work/help.txt" <<'PY' && ok || bad "--help is not the table: $(head -c 300 "$work/help.txt")"
import json, sys
rows = json.load(open(sys.argv[1]))["commands"]
text = open(sys.argv[2]).read()
missing = [r["usage"] for r in rows if r["usage"] not in text]
sys.exit(1 if missing or len(rows) < 20 else 0)
PY
python3 - "$build/annabella" "$sock" <<'PY' && ok || bad "completion on a terminal did not offer the table's words"
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], ["annabella", "control", "--socket", sys.argv[2]])
def read(t=0.7):
    out, end = b"", time.time() + t
    while time.time() < end:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out.decode(errors="replace")
read()
os.write(fd, b"exp\t")
first = read()
os.write(fd, b"\x15claim \t\t")
second = read()
os.write(fd, b"\x15\x04")
read()
os.waitpid(pid, 0)
sys.exit(0 if "export" in first and all(w in second for w in
         ("threefold", "fifty", "uphold", "reject")) else 1)
PY
expect "tags after the restart" "$(as anb-assistant status)" 0 '"White":"Anna Berg"'
expect "draw offer after the restart" "$(as anb-assistant moves)" 0 \
	'"san":"e5","clk":"0:10:04","clk_ms":604'
grep -q '"san":"e5"[^}]*"draw_offer":true' "$work/out" && ok || bad "the offer's mark is lost"
expect "arbiter result after the restart" \
	"$(as anb-arbiter result 1/2-1/2 agreed draw)" 0 'agreed draw'
expect "approve" "$(as anb-assistant approve)" 0 'approved'
expect "resign after the end" "$(as anb-assistant resign white)" 1 'the game is over'
kill $daemon_pid
wait $daemon_job 2>/dev/null
rc2=$?
[ $rc2 -eq 0 ] && ok || bad "the second run exited $rc2 on SIGTERM"
archived=$(ls "$work/state/games/"game-0001*.pgn | head -1)
grep -q '\[White "Anna Berg"\]' "$archived" &&
	grep -q '\[Result "1/2-1/2"\]' "$archived" && ok ||
	bad "the archived scoresheet: $(cat "$archived")"
[ ! -e "$sock" ] && ok || bad "the socket was left behind"
summary

#!/usr/bin/env bash
# A new version installed while the daemon runs (its program file replaced, as dpkg does:
# a new file renamed over it) takes over only when no game is in progress
# (daemon/takeover.h): at once on an idle board, and in a game only once its result is
# approved; the game before that is never interrupted.  The "new version" here is a script
# that writes its PID and arguments: the daemon executes it in its own process.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin takeover
mkdir -p "$work/bin"
cat >"$work/new-version" <<SH
#!/bin/sh
echo "\$\$ \$*" >"$work/marker"
SH
chmod 755 "$work/new-version"
install_new() { # as dpkg: the new file next to the old, renamed over it
	cp "$work/new-version" "$work/bin/annabellad.dpkg-new"
	mv "$work/bin/annabellad.dpkg-new" "$work/bin/annabellad"
}
marker_is_daemon() { [ -f "$work/marker" ] && [ "$(cut -d' ' -f1 "$work/marker")" = "$pid" ]; }
run() { # NAME SCRIPT: the daemon from a copy of the build, in real time
	cp "$build/annabellad" "$work/bin/annabellad"
	rm -f "$work/marker"
	args=(--board "sim:$work/$2" --time real --audio none --state "$work/$1"
		--control "$work/$1.sock")
	spawn "$work/bin/annabellad" "${args[@]}" 2>"$work/$1.err"
	pid=$!
	wait_for 5 test -S "$work/$1.sock" || bad "$1: the daemon did not start"
}

# The daemon's threads' voluntary context switches: each is a wake-up.
wakeups() { awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }' /proc/$pid/task/*/status; }

# An idle board: nothing played, the clock not started.  Nothing wakes the daemon while
# its program stays as it is (the folder is watched, not looked at every two seconds); the
# new version takes over at once.
printf '+30000 press info\n' >"$work/idle.script"
run idle idle.script
sleep 1
w0=$(wakeups)
sleep 3
w1=$(wakeups)
[ "$w1" = "$w0" ] && ok || bad "idle: the daemon woke $((w1 - w0)) times in 3 s with nothing to do"
install_new
if wait_for 4 marker_is_daemon; then
	ok
	[ "$(cut -d' ' -f2- "$work/marker")" = "${args[*]}" ] && ok ||
		bad "idle: the new version got other arguments: $(cat "$work/marker")"
else
	bad "idle: the new version did not take over within 4 s: $(cat "$work/marker" 2>/dev/null)"
fi
grep -q 'no game is in progress: starting it' "$work/idle.err" && ok ||
	bad "idle: the log does not say why: $(cat "$work/idle.err")"
wait "$pid" 2>/dev/null

# A game: two moves, the new version installed, a third move, the arbiter's result, the
# players' approval.  It takes over after the approval, never before.
cat >"$work/game.script" <<'SCRIPT'
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
+1500 control arbiter result 1-0 adjudication
+2500 control assistant approve
+30000 press info
SCRIPT
run game game.script
wait_for 5 grep -q 'public Bauer Eva sieben Eva fünf' "$work/game/speech.log" ||
	bad "game: e5 was not announced"
install_new
sleep 2.5
[ ! -f "$work/marker" ] && kill -0 "$pid" 2>/dev/null && ok ||
	bad "game: the new version took over in the middle of the game"
grep -q "$work/bin/annabellad (deleted)" <(readlink "/proc/$pid/exe" 2>/dev/null) && ok ||
	bad "game: the running program is not the old one: $(readlink "/proc/$pid/exe")"
grep -q 'takes over once this game.s result is approved' "$work/game.err" && ok ||
	bad "game: the log does not say the new version waits: $(cat "$work/game.err")"
# The game goes on with the old version: f3 is made, its press gives its reading.
movetext() { tr '\n' ' ' <"$work/game/game.pgn"; }
nf3_read() { movetext | grep -q '2\. Nf3 {\[%clk'; }
wait_for 5 nf3_read && ok ||
	bad "game: the move after the upgrade is not on the scoresheet: $(cat "$work/game/game.pgn")"
# The result given (not yet approved): still the old version.
wait_for 3 grep -q '^\[Result "1-0"\]' "$work/game/game.pgn" || bad "game: no result"
[ ! -f "$work/marker" ] && ok || bad "game: the new version took over before the approval"
# Approved: the new version takes over, in the same process, with the same arguments.
if wait_for 6 marker_is_daemon; then
	ok
	[ "$(cut -d' ' -f2- "$work/marker")" = "${args[*]}" ] && ok ||
		bad "game: the new version got other arguments: $(cat "$work/marker")"
else
	bad "game: the new version did not take over after the approval: $(cat "$work/game.err")"
fi
archived=$(ls "$work"/game/games/game-0001*.pgn 2>/dev/null | head -1)
[ -n "$archived" ] && grep -q '2\. Nf3' "$archived" && grep -q '1-0' "$archived" && ok ||
	bad "game: the archived scoresheet is not whole: $(cat "$archived" 2>/dev/null)"
wait "$pid" 2>/dev/null
summary

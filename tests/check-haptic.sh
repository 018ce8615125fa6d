#!/usr/bin/env bash
# The vibration motor ([haptic]; docs/wiring.md "The vibration motor"): the daemon plays a game
# on the sim board in virtual time with the motor on an output line, and every change of that
# line is read back from the sim backend's output (the daemon's timing trace, `haptic MS LEVEL
# EVENT`): the opponent's move relayed by the assistant, the arbiter's words right after it
# (waiting their turn behind the move's pattern, a pause between), the time warning, the
# arbiter's clocks and the flag, each with its own pattern; the player's own move, the info
# and the move replicated on the board are not felt.  Then patterns of its own from the
# configuration, and the errors a bad [haptic] gets at the start.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin check-haptic

cat >"$work/game.script" <<'EOF2'
player white
time-control 40+0
+500 press opponent-clock
+1000 lift e2
+300 place e4
+500 press player-clock
+1000 control assistant move e5
+100 control arbiter clock set 0:00:38 0:00:39
+400 press opponent-clock
+1000 lift e7
+300 place e5
+8000 press info
+1700 control arbiter clock set 0:00:05 0:00:30
+9000 press info
EOF2
# MS LEVEL EVENT.  The arbiter's setting at 3400 (White to move) leaves White's clock running
# with 38 s: the warning at 30 s left comes at 11400; the second setting, at 14800, leaves 5 s:
# the flag at 19800.
cat >"$work/want" <<'EOF2'
3300 1 move
3700 0 move
4200 1 arbiter
4350 0 arbiter
4450 1 arbiter
4600 0 arbiter
4700 1 arbiter
5500 0 arbiter
11400 1 warning
11550 0 warning
11700 1 warning
11850 0 warning
12000 1 warning
12150 0 warning
14800 1 arbiter
14950 0 arbiter
15050 1 arbiter
15200 0 arbiter
15300 1 arbiter
16100 0 arbiter
19800 1 flag
21300 0 flag
EOF2

run() { # NAME CONF: the daemon's haptic trace into $work/NAME.got
	rm -f "$work/trace"
	if ! ANNABELLA_TRACE="$work/trace" "$build/annabellad" --config "$2" \
		--board "sim:$work/game.script" --time virtual --audio none --control none \
		--state "$work/state-$1" >"$work/$1.out" 2>&1; then
		bad "$1: the daemon failed:"
		show "$work/$1.out" 10
		return 1
	fi
	awk '$2 == "haptic" { print $3, $4, $5 }' "$work/trace" >"$work/$1.got"
}

printf '[clock]\nwarnings = 30\n[haptic]\nline = 70\n' >"$work/default.conf"
if run default "$work/default.conf"; then
	if diff -u "$work/want" "$work/default.got" >"$work/diff"; then
		echo "check-haptic: each event's pattern on the motor's line, read back from the sim ($(wc -l <"$work/want") changes)"
		ok
	else
		bad "the motor's line differs:"
		indent <"$work/diff"
	fi
fi

# The club's own patterns: a move three pulses.
printf '[clock]\nwarnings = 30\n[haptic]\nline = 70\nmove = 100 50 100 50 100\n' >"$work/own.conf"
if run own "$work/own.conf"; then
	if head -6 "$work/own.got" | tr '\n' ' ' | grep -q '^3300 1 move 3400 0 move 3450 1 move 3550 0 move 3600 1 move 3700 0 move $'; then
		echo "check-haptic: a pattern of the configuration's own"
		ok
	else
		bad "[haptic] move = 100 50 100 50 100 was not played so:"
		indent <"$work/own.got"
	fi
fi

# Bad settings are refused at the start with file, line and why.
expect_refused() { # CONF-TEXT WORDS
	printf '%b' "$1" >"$work/bad.conf"
	if "$build/annabellad" --config "$work/bad.conf" --board "sim:$work/game.script" \
		--time virtual --audio none --control none --state "$work/state-bad" >"$work/out" 2>&1; then
		bad "accepted: $1"
	elif grep -q "$2" "$work/out"; then
		echo "check-haptic: refused: $(head -1 "$work/out")"
		ok
	else
		bad "$1: unexpected message:"
		show "$work/out"
	fi
}
expect_refused '[haptic]\nline = 3\n' 'line 3 used twice'
expect_refused '[haptic]\nline = 70\nwarning = 100 100\n' 'bad.conf:3: .*begins and ends with the motor on'
expect_refused '[haptic]\nflag = 10\n' 'bad.conf:2: .*10 ms: each on or off time must be 20..5000 ms'
expect_refused '[haptic]\narbiter = 100 x 100\n' 'is not a pattern of milliseconds'
summary

#!/usr/bin/env bash
# The clock's LEDs ([display] led-white, led-black): the daemon plays a game on the sim board
# in virtual time, with both wirings that scan (matrix) and edge wiring (direct), and every
# change of an LED is read back from the sim backend's output line (the daemon's timing
# trace, `led MS SIDE LEVEL`): the running side's LED alone is lit, both are out before the
# start, while the arbiter has stopped the clocks and after the flag.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin check-leds

cat >"$work/game.script" <<'EOF'
player white
time-control 10+0
+500 press opponent-clock
+1000 lift e2
+300 place e4
+500 press player-clock
+2000 lift e7
+300 place e5
+500 press opponent-clock
+500 control arbiter pause
+500 control arbiter resume
+12000 press info
EOF
# MS SIDE LEVEL: the starting press (500, confirmed after 20 ms of debounce) lights White's;
# each press hands over; the arbiter's pause puts White's out, his resume lights it again;
# the flag at 13800 puts it out.
cat >"$work/want" <<'EOF'
0 white 0
0 black 0
520 white 1
2320 white 0
2320 black 1
5120 white 1
5120 black 0
5600 white 0
6100 white 1
13800 white 0
EOF

for wiring in direct matrix; do
	conf="$work/$wiring.conf"
	printf '[display]\nled-white = 40\nled-black = 41\n' >"$conf"
	if [ $wiring = matrix ]; then
		printf '[board]\nwiring = matrix\nrows = 0-7\ncolumns = 8-15\n' >>"$conf"
	else
		# direct wiring uses lines 0..69: the LEDs above them
		printf '[display]\nled-white = 80\nled-black = 81\n' >>"$conf"
	fi
	rm -f "$work/trace"
	if ! ANNABELLA_TRACE="$work/trace" "$build/annabellad" --config "$conf" \
		--board "sim:$work/game.script" --time virtual --audio none --control none \
		--state "$work/state-$wiring" >"$work/out" 2>&1; then
		bad "$wiring: the daemon failed:"
		show "$work/out" 10
		continue
	fi
	awk '$2 == "led" { print $3, $4, $5 }' "$work/trace" >"$work/got"
	if diff -u "$work/want" "$work/got" >"$work/diff"; then
		echo "check-leds: $wiring: the running side's LED lit, read back from the sim's lines ($(wc -l <"$work/got") changes)"
		ok
	else
		bad "$wiring: the LEDs differ:"
		indent <"$work/diff"
	fi
done

# A line the board already uses is refused at the start, naming the line.
printf '[display]\nled-white = 3\n' >"$work/bad.conf"
if "$build/annabellad" --config "$work/bad.conf" --board "sim:$work/game.script" \
	--time virtual --audio none --control none --state "$work/state-bad" >"$work/out" 2>&1; then
	bad "an LED on a hole's line was accepted"
elif grep -q "line 3 used twice" "$work/out"; then
	echo "check-leds: an LED on a hole's line is refused"
	ok
else
	bad "an LED on a hole's line: unexpected message:"
	show "$work/out"
fi
summary

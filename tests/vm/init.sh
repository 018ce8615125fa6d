#!/bin/sh
# /init of the VM test's initramfs (tests/vm/run.sh builds it).  Runs as PID 1 under busybox:
# creates a gpio-sim chip with 70 lines, runs annabellad on it with the gpiod backend in real
# time, plays /test/game.script by pulling the simulated lines up and down, stops the daemon
# with SIGTERM and prints everything the host checks between @@BEGIN NAME@@ / @@END NAME@@
# markers, then resets the machine, which ends QEMU.  Facts for the host are printed as
# "@@INFO KEY VALUE".
#
# Lines: direct wiring with the default numbering, a1..h8 on lines 0..63 (active high: a peg
# pulls its line up), buttons player-clock..pause on 64..69 (active low: pressed pulls down).

PATH=/bin:/sbin:/usr/bin:/usr/sbin
export PATH

/bin/busybox mkdir -p /proc /sys /dev /tmp /run /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t configfs configfs /sys/kernel/config

info() { echo "@@INFO $*"; }
fail() {
	info fatal "$*"
	finish
}
finish() {
	echo "@@DONE@@"
	sync
	# The kernel has no ACPI, so poweroff would only halt: reset instead (QEMU runs with
	# -no-reboot and ends).
	reboot -f
	sleep 5
	poweroff -f
}

echo # the firmware leaves the cursor at the end of its last line
info kernel "$(uname -r)"
info uptime-start "$(cut -d' ' -f1 /proc/uptime)"

# ---------------------------------------------------------------- the simulated chip
sim=/sys/kernel/config/gpio-sim/annabella
mkdir "$sim" || fail "no gpio-sim in configfs"
mkdir "$sim/bank0" || fail "cannot create a gpio-sim bank"
echo 70 >"$sim/bank0/num_lines" || fail "cannot set num_lines"
# The daemon opens the chip by its label, as the config allows (libgpiod 1.6 and 2.x).
echo annabella-sim >"$sim/bank0/label" || fail "cannot set the bank's label"
echo 1 >"$sim/live" || fail "cannot bring the gpio-sim chip up"
chip=$(cat "$sim/bank0/chip_name")
dev=$(cat "$sim/dev_name")
info chip "$chip"
info device "$dev"
[ -c "/dev/$chip" ] || fail "no /dev/$chip"
lines=/sys/devices/platform/$dev/$chip
[ -d "$lines" ] || lines=/sys/bus/gpio/devices/$chip
[ -e "$lines/sim_gpio69/pull" ] || fail "no sim_gpio pull attributes under $lines"

pull() { echo "$2" >"$lines/sim_gpio$1/pull" || info pull-failed "$1 $2"; }

# a1 -> 0 ... h8 -> 63 (no subshells: the game loop keeps its timing)
square_line() {
	r=${1#?}
	case ${1%?} in a) f=0 ;; b) f=1 ;; c) f=2 ;; d) f=3 ;; e) f=4 ;; f) f=5 ;; g) f=6 ;; h) f=7 ;; esac
	line=$(((r - 1) * 8 + f))
}
button_line() {
	case $1 in
	player-clock) line=64 ;; opponent-clock) line=65 ;; info) line=66 ;;
	repeat) line=67 ;; select) line=68 ;; pause) line=69 ;;
	*) line= ;;
	esac
}
occupied="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63"

# The initial position: pegs on ranks 1, 2, 7 and 8; buttons released.
for l in $occupied; do pull "$l" pull-up; done
for l in 64 65 66 67 68 69; do pull "$l" pull-up; done

# ---------------------------------------------------------------- the daemon
cat >/tmp/annabella.conf <<EOF
[board]
chip = annabella-sim
wiring = direct
squares = 0-63
[log]
level = info
EOF
rm -rf /tmp/state
mkdir -p /tmp/state
annabellad --config /tmp/annabella.conf --board gpiod --time real --audio none \
	--state /tmp/state --record-lines /tmp/lines.log 2>/tmp/daemon.err &
pid=$!
info daemon-pid "$pid"

# The line log's header is written once the lines are requested and read.
i=0
while ! grep -q '^# occupancy:' /tmp/lines.log 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "@@BEGIN daemon.err@@"
		cat /tmp/daemon.err
		echo "@@END daemon.err@@"
		if kill -0 "$pid" 2>/dev/null; then
			info daemon-state "running, no line log after $i tries"
			for t in /proc/"$pid"/task/*; do
				info daemon-thread "${t##*/} $(cat "$t"/comm) $(cat "$t"/wchan) $(cat "$t"/syscall 2>/dev/null | cut -d' ' -f1)"
			done
		else
			wait "$pid"
			info daemon-state "exited with status $?"
		fi
		fail "the daemon did not start"
	fi
	sleep 0.1
done
info start-occupancy "$(sed -n 's/^# occupancy: //p' /tmp/lines.log)"
info start-buttons "$(sed -n 's/^# buttons: //p' /tmp/lines.log)"
info pull-a1-after-request "$(cat "$lines/sim_gpio0/pull")"
info pull-a3-after-request "$(cat "$lines/sim_gpio16/pull")"
info pull-player-clock-after-request "$(cat "$lines/sim_gpio64/pull")"

# gpio-sim has one pull per line: the bias the daemon requests (pull-down for active-high
# holes) replaces the simulated pegs' pull-ups.  On a board the sensor drives the line and
# wins over the weak bias; here the pegs are put back.  With no change this writes nothing
# new and makes no edges.
repull=0
for l in $occupied; do
	if [ "$(cat "$lines/sim_gpio$l/pull")" != pull-up ]; then
		pull "$l" pull-up
		repull=$((repull + 1))
	fi
done
info pegs-pulled-again "$repull"

sleep 1
# Context switches of all the daemon's threads while the board is idle.
switches() {
	cat /proc/"$pid"/task/*/status | awk '/ctxt_switches:/ { t += $2 } END { print t + 0 }'
}
s0=$(switches)
sleep 2
s1=$(switches)
info idle-switches-2s "$((s1 - s0))"

# ---------------------------------------------------------------- the game
# Each edge made is reported as "@@INFO edge UPTIME LINE rising|falling", UPTIME read from
# /proc/uptime right after the write, so the host can hold the kernel's time stamps against it.
ms_to_s() { echo "$(($1 / 1000)).$(printf %03d $(($1 % 1000)))"; }
edge() {
	pull "$1" "$2"
	read -r up _ </proc/uptime
	if [ "$2" = pull-up ]; then info edge "$up $1 rising"; else info edge "$up $1 falling"; fi
}
while read -r wait action arg; do
	case $wait in '' | '#'*) continue ;; esac
	case $wait in
	+*) delay=$(ms_to_s "${wait#+}") ;;
	*) delay=0 arg=$action action=$wait ;;
	esac
	case $action in
	lift | place) square_line "$arg" ;;
	press) button_line "$arg" ;;
	*) line= ;;
	esac
	if [ -z "$line" ]; then
		info unknown-action "$action $arg"
		continue
	fi
	sleep "$delay"
	case $action in
	lift) edge "$line" pull-down ;;
	place) edge "$line" pull-up ;;
	press)
		edge "$line" pull-down
		sleep 0.1
		edge "$line" pull-up
		;;
	esac
done </test/game.script

sleep 2
kill -TERM "$pid"
wait "$pid"
info daemon-exit "$?"

for f in /tmp/state/game.pgn /tmp/state/speech.log /tmp/lines.log /tmp/daemon.err; do
	echo "@@BEGIN ${f##*/}@@"
	cat "$f"
	echo "@@END ${f##*/}@@"
done
ls -l /tmp/state
info uptime-end "$(cut -d' ' -f1 /proc/uptime)"
finish

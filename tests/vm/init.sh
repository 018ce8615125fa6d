#!/bin/sh
# /init of the VM test's initramfs (tests/vm/run.sh builds it).  Runs as PID 1 under busybox:
# creates a gpio-sim chip with 70 lines, runs annabellad on it with the gpiod backend in real
# time, plays /test/game.script by pulling the simulated lines up and down, stops the daemon
# with SIGTERM and prints everything the host checks between @@BEGIN NAME@@ / @@END NAME@@
# markers, then resets the machine, which ends QEMU.  Facts for the host are printed as
# "@@INFO KEY VALUE".
#
# Lines: direct wiring with the default numbering, a1..h8 on lines 0..63 (active high: a peg
# pulls its line up), buttons player-clock..pause on 64..69 (active low: pressed pulls down);
# line 70 the vibration motor's output in the haptic run.

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
mount -t tracefs tracefs /sys/kernel/tracing

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
# The wiring of this run (run.sh boots once per wiring): annabella.wiring= on the command line.
wiring=direct
for arg in $(cat /proc/cmdline); do
	case $arg in annabella.wiring=*) wiring=${arg#annabella.wiring=} ;; esac
done
info wiring "$wiring"
info uptime-start "$(cut -d' ' -f1 /proc/uptime)"

# ---------------------------------------------------------------- the simulated chip
sim=/sys/kernel/config/gpio-sim/annabella
mkdir "$sim" || fail "no gpio-sim in configfs"
mkdir "$sim/bank0" || fail "cannot create a gpio-sim bank"
echo 71 >"$sim/bank0/num_lines" || fail "cannot set num_lines"
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
# The chip's first GPIO number, which the trace events name its lines by.
base=
for c in /sys/class/gpio/gpiochip*; do
	[ "$(cat "$c/label")" = annabella-sim ] && base=$(cat "$c/base")
done
[ -n "$base" ] || fail "no /sys/class/gpio entry for the chip"
info gpio-base "$base"

# ---------------------------------------------------------------- the clock display
# i2c-stub answers at the displays' addresses on /dev/i2c-0; a trace instance of its own
# (the wiring harness consumes the top buffer) records every SMBus write with its bytes.
insmod /lib/modules/i2c-stub.ko chip_addr=0x27,0x3c,0x3d || fail "cannot load i2c-stub"
[ -c /dev/i2c-0 ] || fail "no /dev/i2c-0"
disp=/sys/kernel/tracing/instances/display
mkdir "$disp" || fail "no tracefs instances"
echo 4096 >"$disp/buffer_size_kb"
echo 1 >"$disp/events/smbus/smbus_write/enable" || fail "no smbus_write trace event"
echo 1 >"$disp/tracing_on"
# One display per run: the HD44780's backpack with the direct wiring, the SSD1306 at 128x64
# with the matrix, at 128x32 (on its other address) with the shift registers.
case $wiring in
direct | haptic) display="type = hd44780" ;;
matrix) display="type = ssd1306" ;;
*) display="type = ssd1306
height = 32
address = 0x3d" ;;
esac

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
direct=
case $wiring in direct | haptic) direct=1 ;; esac
[ -n "$direct" ] && for l in $occupied; do pull "$l" pull-up; done
for l in 64 65 66 67 68 69; do pull "$l" pull-up; done

# ---------------------------------------------------------------- the wiring
# direct: a1..h8 on lines 0..63, as above.  matrix: rows (ranks 1..8) on lines 0..7, columns
# (files a..h) on 8..15, a peg sensed high.  shift: SH/LD 0, CLK 1, QH 2, a peg sensed low
# (as configs/wirings/shift-pi.conf).  The scanned wirings are played by /usr/bin/wiring
# (tests/vm/wiring.c), which answers each step of a scan within a millisecond or two: the
# scan waits scan-settle-us before each read, and scans less often to make room for it.
game=/test/game.script
extra=
case $wiring in
direct)
	board="wiring = direct
squares = 0-63"
	;;
haptic)
	# The direct wiring with the vibration motor on line 70: a clock short enough for its
	# warnings and its flag within the run (haptic.script), each felt as [haptic]'s default
	# pattern on the line, which a trace instance of its own records.
	board="wiring = direct
squares = 0-63"
	game=/test/haptic.script
	extra="[clock]
warnings = 12, 8
[haptic]
line = 70"
	hap=/sys/kernel/tracing/instances/haptic
	mkdir "$hap" || fail "no tracefs instance for the motor"
	echo "gpio == $((base + 70))" >"$hap/events/gpio/gpio_value/filter"
	echo 1 >"$hap/events/gpio/gpio_value/enable" || fail "no gpio_value trace event"
	echo 1 >"$hap/tracing_on"
	;;
matrix)
	board="wiring = matrix
rows = 0-7
columns = 8-15
scan-hz = 10
scan-settle-us = 10000"
	;;
shift)
	board="wiring = shift
load = 0
clock = 1
data = 2
active-low = yes
scan-hz = 2
scan-settle-us = 6000"
	;;
*) fail "unknown wiring $wiring" ;;
esac
if [ -z "$direct" ]; then
	mkfifo /tmp/pegs
	if [ "$wiring" = matrix ]; then
		wiring "$wiring" "$lines" "$base" 0 0,1,2,3,4,5,6,7 8,9,10,11,12,13,14,15 \
			ffff00000000ffff /tmp/pegs >/tmp/harness.out 2>&1 &
	else
		wiring "$wiring" "$lines" "$base" 1 0,1 2 ffff00000000ffff /tmp/pegs \
			>/tmp/harness.out 2>&1 &
	fi
	harness=$!
	i=0
	until grep -q harness-ready /tmp/harness.out; do
		i=$((i + 1))
		[ $i -gt 50 ] && fail "the wiring harness did not start: $(cat /tmp/harness.out)"
		sleep 0.1
	done
fi

# ---------------------------------------------------------------- the package's user
# As the package makes them (annabella.sysusers: the user annabella, its groups) and as its
# udev rule gives the devices their group and mode (60-annabella-gpio.rules): the daemon runs
# as that user with exactly those groups, so it reaches the display's bus and the chip through
# them or not at all.  Group ids are given here in the order the file names them.
gid=900
names=
for g in $(sed -n 's/^g \([a-z0-9_-]*\) .*/\1/p;s/^m annabella \([a-z0-9_-]*\)$/\1/p' \
	/test/annabella.sysusers); do
	case " $names " in *" $g "*) continue ;; esac
	names="$names $g"
	eval "gid_$(echo "$g" | tr - _)=$gid"
	echo "$g:x:$gid:" >>/etc/group
	gid=$((gid + 1))
done
uid=990
pgid=$gid_annabella
supp=
supp_names=
for g in $(sed -n 's/^m annabella \([a-z0-9_-]*\)$/\1/p' /test/annabella.sysusers); do
	eval "supp=\"\${supp:+\$supp,}\$gid_$(echo "$g" | tr - _)\""
	supp_names="$supp_names $g"
done
info package-groups "$pgid / $(echo "$supp" | tr , '\n' | sort -n | tr '\n' ' ' | sed 's/ $//')"
info package-group-names "annabella$supp_names"
# A rule's GROUP and MODE for a subsystem.
rule() { sed -n "s/^SUBSYSTEM==\"$1\".*GROUP=\"\([a-z0-9_-]*\)\", MODE=\"\([0-7]*\)\".*/\1 \2/p" \
	/test/60-annabella-gpio.rules | head -1; }
set -- $(rule i2c-dev)
[ -n "${1:-}" ] || fail "the udev rule has no i2c-dev line"
eval "chgrp \$gid_$1 /dev/i2c-0" && chmod "$2" /dev/i2c-0 && chown 0 /dev/i2c-0
info i2c-dev "$(ls -ln /dev/i2c-0 | cut -c1-10) root:$1"
# The rule names gpiochip0, the header of a Pi; the simulated chip has the number the kernel
# gave it (the README: copy the rule and change the name for another chip).
set -- $(rule gpio)
[ -n "${1:-}" ] || fail "the udev rule has no gpio line"
eval "chgrp \$gid_$1 /dev/$chip" && chmod "$2" "/dev/$chip" && chown 0 "/dev/$chip"
info gpio-dev "$(ls -ln "/dev/$chip" | cut -c1-10) root:$1"

# ---------------------------------------------------------------- the daemon
cat >/tmp/annabella.conf <<EOF
[game]
player = white
time-control = $(sed -n 's/^time-control //p' $game)
[board]
chip = annabella-sim
$board
[display]
bus = /dev/i2c-0
$display
[control]
socket = /tmp/run/control
[log]
level = info
$extra
EOF
rm -rf /tmp/state /tmp/run
mkdir -p /tmp/state /tmp/run
chown "$uid:$pgid" /tmp/state /tmp/run
chmod 644 /tmp/annabella.conf
runas "$uid" "$pgid" "${supp:--}" /usr/bin/annabellad --config /tmp/annabella.conf --board gpiod \
	--time real --audio none --state /tmp/state --record-lines /tmp/lines.log \
	2>/tmp/daemon.err &
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
info daemon-uid "$(sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' /proc/$pid/status)"
info daemon-groups "$(sed -n 's/^Gid:[[:space:]]*\([0-9]*\).*/\1/p' /proc/$pid/status) / $(sed -n 's/^Groups:[[:space:]]*//p' /proc/$pid/status | tr ' ' '\n' | grep . | sort -n | tr '\n' ' ' | sed 's/ $//')"
info start-buttons "$(sed -n 's/^# buttons: //p' /tmp/lines.log)"
info pull-a1-after-request "$(cat "$lines/sim_gpio0/pull")"
info pull-a3-after-request "$(cat "$lines/sim_gpio16/pull")"
info pull-player-clock-after-request "$(cat "$lines/sim_gpio64/pull")"

# gpio-sim has one pull per line: the bias the daemon requests (pull-down for active-high
# holes) replaces the simulated pegs' pull-ups.  On a board the sensor drives the line and
# wins over the weak bias; here the pegs are put back.  With no change this writes nothing
# new and makes no edges.
repull=0
[ -n "$direct" ] && for l in $occupied; do
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
	if [ "$1" -ge 64 ] || [ -n "$direct" ]; then
		pull "$1" "$2"
	elif [ "$2" = pull-up ]; then
		echo "$1 1" >/tmp/pegs
	else
		echo "$1 0" >/tmp/pegs
	fi
	read -r up _ </proc/uptime
	if [ "$2" = pull-up ]; then info edge "$up $1 rising"; else info edge "$up $1 falling"; fi
}
while read -r wait action arg; do
	case $wait in '' | '#'* | player | time-control) continue ;; esac
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
done <$game

sleep 2
kill -TERM "$pid"
wait "$pid"
info daemon-exit "$?"

if [ -n "${harness:-}" ]; then
	kill -TERM "$harness"
	wait "$harness"
	grep '^@@INFO' /tmp/harness.out
	grep -v '^@@INFO' /tmp/harness.out
fi
cat "$disp/trace" >/tmp/display.trace
[ -n "${hap:-}" ] && cat "$hap/trace" >/tmp/haptic.trace
for f in /tmp/state/game.pgn /tmp/state/speech.log /tmp/lines.log /tmp/daemon.err \
	/tmp/display.trace ${hap:+/tmp/haptic.trace}; do
	echo "@@BEGIN ${f##*/}@@"
	cat "$f"
	echo "@@END ${f##*/}@@"
done
ls -l /tmp/state
info uptime-end "$(cut -d' ' -f1 /proc/uptime)"
finish

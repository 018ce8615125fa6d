#!/usr/bin/env bash
# The device's power ([power], daemon/power.h) through the whole daemon, on a sysfs tree made
# here: the Pi's under-voltage flag at the start is said privately after the settings and is
# in status; its end is said; the UPS going on battery, then low by its discharge rate and by
# its charge, is said with the charge;
# status follows each change; a daemon with a simulated board and no [power] reads nothing.
set -u
build=$(cd "${1:-build}" && pwd)
. "$(dirname "$0")/lib.sh"
begin power
sys=$work/sys
mkdir -p "$sys/class/hwmon/hwmon0" "$sys/class/hwmon/hwmon1" "$sys/class/power_supply/AC" \
	"$sys/class/power_supply/ups"
echo cpu_thermal >"$sys/class/hwmon/hwmon0/name"
echo rpi_volt >"$sys/class/hwmon/hwmon1/name"
echo 1 >"$sys/class/hwmon/hwmon1/in0_lcrit_alarm"
echo Mains >"$sys/class/power_supply/AC/type"
echo UPS >"$sys/class/power_supply/ups/type"
echo Charging >"$sys/class/power_supply/ups/status"
echo 80 >"$sys/class/power_supply/ups/capacity"
cat >"$work/annabella.conf" <<CONF
[voice]
language = en
record = no
[power]
monitor = yes
sysfs = $sys
CONF
printf 'player white\n+1000 lift e2\n+300 place e4\n+60000 press info\n' >"$work/game.script"
sock=$work/control
spawn "$build/annabellad" --config "$work/annabella.conf" --board "sim:$work/game.script" \
	--time real --audio none --state "$work/state" --control "$sock" 2>"$work/daemon.err"
pid=$!
said() { grep -q "private $1" "$work/state/speech.log" 2>/dev/null; }
power_is() { # PYTHON-EXPRESSION on the status reply's "power" as p
	"$build/annabella" control --socket "$sock" status 2>/dev/null |
		python3 -c "import json,sys; p = json.load(sys.stdin)['power']; sys.exit(0 if ($1) else 1)"
}
expect() { # WHAT SECONDS COMMAND...
	local what=$1
	shift
	if wait_for "$@"; then ok; else bad "$what"; fi
}

expect "the under-voltage at the start is not said" 5 \
	said "Warning: the power supply is too weak, please call the arbiter"
# After the settings, which the first game opens with.
settings=$(grep -n 'private Language English' "$work/state/speech.log" | cut -d: -f1)
warning=$(grep -n 'private Warning: the power supply' "$work/state/speech.log" | cut -d: -f1)
[ -n "$settings" ] && [ -n "$warning" ] && [ "$settings" -lt "$warning" ] && ok ||
	bad "the warning is not after the settings: $(cat "$work/state/speech.log")"
expect "status lacks the under-voltage" 3 power_is \
	"p['state'] == 'undervoltage' and p['undervoltage'] is True and p['battery'] == {'status': 'Charging', 'percent': 80, 'minutes_left': None}"
grep -q 'power: undervoltage' "$work/daemon.err" && ok || bad "the log lacks the warning"

echo 0 >"$sys/class/hwmon/hwmon1/in0_lcrit_alarm"
expect "the end of the under-voltage is not said" 5 said "The power supply is fine again"
expect "status is not ok again" 3 power_is "p['state'] == 'ok' and p['undervoltage'] is False"

echo Discharging >"$sys/class/power_supply/ups/status"
echo 50 >"$sys/class/power_supply/ups/capacity"
expect "running on the battery is not said" 5 \
	said "Warning: no mains power, running on battery, fifty percent"
expect "status is not on-battery" 3 power_is \
	"p['state'] == 'on-battery' and p['battery']['percent'] == 50"
# The charge falling without a change of state is in status, not said again; one percent
# gives no rate yet.
echo 49 >"$sys/class/power_supply/ups/capacity"
expect "status does not follow the charge" 5 power_is \
	"p['battery']['percent'] == 49 and p['battery']['minutes_left'] is None"
[ "$(grep -c 'private Warning: no mains power' "$work/state/speech.log")" -eq 1 ] && ok ||
	bad "the same state was said again"
# Three percent in a few seconds: at that rate the battery lasts minutes, far under the ten
# hours FIDE's clocks give after their warning, so it is low at forty-seven percent.
echo 47 >"$sys/class/power_supply/ups/capacity"
expect "the low battery by its rate is not said" 5 \
	said "Warning: the battery is almost empty, please call the arbiter, forty-seven percent"
expect "status is not battery-low with the time left" 3 power_is \
	"p['state'] == 'battery-low' and 0 <= p['battery']['minutes_left'] < 600"
"$build/annabella" status --socket "$sock" 2>&1 |
	grep -qx 'Power: battery-low; battery Discharging, 47 %, [0-9]* min left' &&
	ok || bad "annabella status: $("$build/annabella" status --socket "$sock" 2>&1)"
# The mains back, then gone again at fifteen percent: low at once, by the charge, before
# any rate is measured.
echo Charging >"$sys/class/power_supply/ups/status"
fine_again() { [ "$(grep -c 'private The power supply is fine again' "$work/state/speech.log")" -eq 2 ]; }
expect "the mains back is not said" 5 fine_again
echo 15 >"$sys/class/power_supply/ups/capacity"
echo Discharging >"$sys/class/power_supply/ups/status"
expect "the low battery by its charge is not said" 5 \
	said "Warning: the battery is almost empty, please call the arbiter, fifteen percent"
expect "status is not battery-low" 3 power_is \
	"p['state'] == 'battery-low' and p['battery']['minutes_left'] is None"
# The game went on meanwhile.
grep -q 'public Pawn e2 e4\|public Bauer Eva zwei Eva vier' "$work/state/speech.log" && ok ||
	bad "the move was not announced: $(grep public "$work/state/speech.log")"
stop "$pid"

# A simulated board without [power]: nothing is read, status says null.
printf '[voice]\nrecord = no\n' >"$work/plain.conf"
spawn "$build/annabellad" --config "$work/plain.conf" --board "sim:$work/game.script" \
	--time real --audio none --state "$work/plain" --control "$sock" 2>/dev/null
pid=$!
expect "the plain daemon did not start" 5 test -S "$sock"
"$build/annabella" control --socket "$sock" status 2>/dev/null | grep -q '"power":null' && ok ||
	bad "status has a power reading with a simulated board and no [power]"
stop "$pid"
summary

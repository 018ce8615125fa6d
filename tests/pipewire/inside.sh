#!/bin/bash
# Runs in the Debian 12 tree with PipeWire (tests/pipewire/run.sh), as root, the daemon in
# /test: see run.sh.  Prints "pipewire: ok NAME" / "pipewire: FAIL NAME: WHY" and a last line
# "pipewire: N passed, N failed".
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "pipewire: ok $1"; }
bad() { failed=$((failed + 1)); echo "pipewire: FAIL $*"; }
set -x
unset NOTIFY_SOCKET
# The desktop user's session: a D-Bus session bus, PipeWire, WirePlumber (without its
# Bluetooth part, which needs logind, absent here), and a sink with no card behind it.
useradd -m -u 1000 desk
useradd -r -M -s /usr/sbin/nologin annabella
run=/run/user/1000
mkdir -p "$run" && chown desk "$run" && chmod 700 "$run"
mkdir -p /home/desk/.config/wireplumber/bluetooth.lua.d
echo 'bluez_monitor.enabled = false' >/home/desk/.config/wireplumber/bluetooth.lua.d/80-test.lua
chown -R desk /home/desk/.config
as_desk() {
	runuser -u desk -- env HOME=/home/desk XDG_RUNTIME_DIR=$run \
		DBUS_SESSION_BUS_ADDRESS=unix:path=$run/bus "$@"
}
wait_until() { # SECONDS COMMAND...: until it succeeds, tried every 0.1 s; 1 if it never did
	local n=$(($1 * 10))
	shift
	until "$@"; do
		[ $n -gt 0 ] || return 1
		n=$((n - 1))
		sleep 0.1
	done
}
as_desk dbus-daemon --session --address=unix:path=$run/bus --fork --nopidfile
as_desk pipewire >/tmp/pipewire.log 2>&1 &
wait_until 30 test -S $run/pipewire-0
as_desk wireplumber >/tmp/wireplumber.log 2>&1 &
as_desk pw-cli create-node adapter '{ factory.name=support.null-audio-sink
	node.name=annabella-test media.class=Audio/Sink object.linger=true
	audio.position=[FL FR] }' >/dev/null
as_desk pw-metadata 0 default.configured.audio.sink '{ "name": "annabella-test" }' >/dev/null
# WirePlumber runs its policy once it makes the sink the default.
default_sink() { as_desk pw-metadata 0 default.audio.sink | grep -q annabella-test; }
if wait_until 60 default_sink; then ok sink; else
	bad "sink: WirePlumber did not make annabella-test the default sink"
	tail /tmp/pipewire.log /tmp/wireplumber.log
fi

# A short game in real time, both channels speaking.
printf 'player white\n+300 lift e2\n+300 place e4\n+1500 lift e7\n+300 place e5\n+1500 press info\n' \
	>/tmp/game.script
printf '[voice]\npublic-device = pipewire\nprivate-device = default\nrecord = no\n' >/tmp/annabella.conf
chmod 644 /tmp/game.script /tmp/annabella.conf
movetext_ok() { tr '\n' ' ' <"$1/game.pgn" | grep -q '1\. e4 .*e5'; }

# 1. The desktop user runs the daemon: PipeWire's ALSA plugin takes both channels.
as_desk pw-record --target annabella-test -P '{ stream.capture.sink=true }' --rate 16000 \
	--channels 1 /tmp/rec.wav &
rec=$!
recording() { as_desk pw-link -l | grep -q pw-record; }
wait_until 30 recording
as_desk /test/annabellad --config /tmp/annabella.conf --board sim:/tmp/game.script --time real \
	--audio alsa --control none --state /tmp/desk >/tmp/desk.log 2>&1
rc=$?
sleep 0.5
kill $rec
wait $rec
cat /tmp/desk.log
[ $rc -eq 0 ] && movetext_ok /tmp/desk && ok desk-game || bad "desk-game: exit $rc"
if grep -q 'alsa: .*\(cannot\|stalled\|failed\)' /tmp/desk.log; then
	bad "desk-alsa: the daemon's ALSA output failed through PipeWire"
else
	ok desk-alsa
fi
# What reached the sink: 16-bit samples after the 44-byte header; sound is a peak over
# 2000 and a second's worth of samples over 500.
read -r peak loud < <(od -An -v -td2 -j44 /tmp/rec.wav | tr -s ' ' '\n' | grep . |
	awk '{ v = $1 < 0 ? -$1 : $1; if (v > m) m = v; if (v > 500) n++ } END { print m + 0, n + 0 }')
if [ "${peak:-0}" -gt 2000 ] && [ "${loud:-0}" -gt 16000 ]; then ok desk-heard; else
	bad "desk-heard: the sink's recording is silent (peak ${peak:-?}, ${loud:-?} samples over 500)"
fi

# 2. Another user (the service's user annabella is one) has no PipeWire of its own and may
# not use the desktop user's: the devices cannot be opened, the daemon says so, the game
# goes on.
runuser -u annabella -- /test/annabellad --config /tmp/annabella.conf --board sim:/tmp/game.script \
	--time real --audio alsa --control none --state /tmp/other >/tmp/other.log 2>&1
rc=$?
cat /tmp/other.log
[ $rc -eq 0 ] && movetext_ok /tmp/other && ok other-user-game || bad "other-user-game: exit $rc"
grep -q 'alsa: public device "pipewire": cannot open' /tmp/other.log &&
	grep -q 'alsa: private device "default": cannot open' /tmp/other.log && ok other-user-said ||
	bad "other-user-said: the daemon did not say it cannot open the devices"
set +x
echo "pipewire: $passed passed, $failed failed"

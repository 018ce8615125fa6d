#!/bin/sh
# Runs in the booted arm64 Debian 13 container (tests/trixie/run.sh): installs the arm64
# package, and the service, given a sim board by a drop-in, reaches READY and plays the
# demo game (D. Byrne - R. Fischer, 1956) in virtual time; its scoresheet has the game's
# moves.  Writes "ok NAME" / "FAIL NAME" lines to /pkgtest/out/results, then powers off.
out=/pkgtest/out
exec >"$out/log" 2>&1
set -x
ok() { echo "ok $1" >>"$out/results"; }
fail() { echo "FAIL $1" >>"$out/results"; }
check() {
	name=$1
	shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}
prop() { systemctl show -P "$1" annabellad; }
wait_for() { # SECONDS COMMAND...
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 1
		n=$((n - 1))
	done
	return 1
}
inactive() { [ "$(prop ActiveState)" = inactive ]; }
movetext() { tr '\n' ' ' <"$1" | sed -e 's/{[^}]*}//g' -e 's/[0-9]*\.\.\. //g' -e 's/  */ /g' -e 's/^.*\] 1\./1./'; }

check arch sh -c '[ "$(dpkg --print-architecture)" = arm64 ]'
mkdir -p /usr/share/annabella-test /etc/systemd/system/annabellad.service.d \
	/etc/annabella/annabella.conf.d
cp /pkgtest/demo.script /usr/share/annabella-test/
cp /pkgtest/demo.conf /etc/annabella/annabella.conf.d/50-demo.conf
cat >/etc/systemd/system/annabellad.service.d/sim.conf <<'UNIT'
[Service]
ExecStart=
ExecStart=/usr/bin/annabellad --config /etc/annabella/annabella.conf --board sim:/usr/share/annabella-test/demo.script --time virtual --audio wav
Restart=on-failure
# Under qemu-user a whole game's speech takes a while.
WatchdogSec=0
TimeoutStartSec=300
# qemu-user cannot set up the sandbox's namespaces: its network namespace ("Failed at step
# NETWORK spawning /usr/bin/annabellad: Input/output error") nor its mount namespace
# ("Failed to set up mount namespacing: Invalid argument").  The sandbox is checked natively
# on amd64 (tests/pkg/inside.sh); here it is off, the rest of the unit as shipped.
PrivateNetwork=no
ProtectSystem=no
ProtectHome=no
PrivateTmp=no
PrivateDevices=no
ProtectKernelTunables=no
ProtectKernelModules=no
ProtectKernelLogs=no
ProtectControlGroups=no
ProtectClock=no
ProtectHostname=no
ProtectProc=default
ProcSubset=all
UNIT
systemctl daemon-reload
check install dpkg -i /pkgtest/annabella.deb
check package-arch sh -c 'dpkg-query -W -f="\${Architecture}" annabella | grep -qx arm64'
check program-arch sh -c 'od -An -tx1 -j18 -N2 /usr/bin/annabellad | grep -q "b7 00"'
check user-in-i2c sh -c 'id -nG annabella | grep -qw i2c'
systemctl stop annabellad
rm -rf /var/lib/annabella/*
if ! systemctl start annabellad; then
	fail start
	systemctl status annabellad --no-pager
	journalctl -u annabellad --no-pager | tail -20
	echo done >>"$out/results"
	systemctl poweroff
	exit 0
fi
ok start
check ready-status sh -c 'systemctl show -P StatusText annabellad | grep -q "^game-"'
check game-ends wait_for 900 inactive
check exit-0 sh -c '[ "$(systemctl show -P Result annabellad)" = success ]'
journalctl -u annabellad --no-pager | tail -20
movetext /var/lib/annabella/game.pgn >/tmp/got
movetext /pkgtest/demo-expected.pgn >/tmp/want
cat /tmp/got /tmp/want
check demo-scoresheet cmp /tmp/got /tmp/want
check demo-event grep -q '^\[White "Byrne, Donald"\]' /var/lib/annabella/game.pgn
check demo-announced sh -c 'grep -c " public " /var/lib/annabella/speech.log | awk "{ exit !(\$1 >= 80) }"'
check demo-audio sh -c 'test -s /var/lib/annabella/audio/public.wav'
echo done >>"$out/results"
systemctl poweroff

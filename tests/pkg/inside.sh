#!/bin/sh
# Runs in the booted Debian 12 container (tests/pkg/run.sh): installs the package, starts
# the service with the sim board, stalls it for the watchdog, checks the hardening score.
# Writes "ok NAME" / "FAIL NAME" lines to /pkgtest/out/results, then powers off.
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
wait_for() { # SECONDS COMMAND...: until the command succeeds
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

# The sim board by a drop-in, there before the package starts the service.
mkdir -p /usr/share/annabella-test /etc/systemd/system/annabellad.service.d
cp /pkgtest/game.script /pkgtest/stall.script /usr/share/annabella-test/
cat >/etc/systemd/system/annabellad.service.d/sim.conf <<'UNIT'
[Service]
ExecStart=
ExecStart=/usr/bin/annabellad --config /etc/annabella/annabella.conf --board sim:/usr/share/annabella-test/game.script --audio wav
# The sim game ends with exit 0; the shipped Restart=always would play it again.
Restart=on-failure
UNIT
systemctl daemon-reload

check install dpkg -i /pkgtest/annabella.deb
systemctl status annabellad --no-pager
journalctl -u annabellad --no-pager | tail -20
check user id annabella
check group-gpio getent group gpio
check user-in-gpio sh -c 'id -nG annabella | grep -qw gpio'
check conffile sh -c 'dpkg-query -W -f="\${Conffiles}" annabella | grep -q /etc/annabella/annabella.conf'
check version sh -c '/usr/bin/annabellad --version | grep -q "^annabellad "'
check cli-version sh -c 'annabella --version | grep -q "^annabella "'
check config-group sh -c 'stat -c "%U %G %a" /etc/annabella/annabella.conf | grep -qx "root annabella 640"'
check man sh -c 'test -f /usr/share/man/man8/annabellad.8.gz && test -f /usr/share/man/man5/annabella.conf.5.gz'

# The package started it; start again to see READY (Type=notify: start returns at READY).
systemctl stop annabellad
check start systemctl start annabellad
check active sh -c '[ "$(systemctl show -P ActiveState annabellad)" = active ]'
check ready-status sh -c 'systemctl show -P StatusText annabellad | grep -q "^game "'
check runtime-dir sh -c 'stat -c "%U %G %a" /run/annabella | grep -qx "annabella annabella 750"'
# The game ends with the script: the daemon exits 0, its scoresheet written.
check game-ends wait_for 60 inactive
check exit-0 sh -c '[ "$(systemctl show -P Result annabellad)" = success ]'
# The moves without their [%clk] comments and Black's move numbers.
movetext() { tr '\n' ' ' <"$1" | sed -e 's/{[^}]*}//g' -e 's/[0-9]*\.\.\. //g' -e 's/  */ /g'; }
scoresheet_ok() { movetext /var/lib/annabella/game.pgn | grep -q '1\. e4 e5 2\. Nf3 Nc6'; }
check scoresheet scoresheet_ok
check state-owner sh -c 'stat -c %U /var/lib/annabella/game.pgn | grep -qx annabella'
# Nothing to warn about in a game with the shipped configuration.
check no-warnings sh -c '! journalctl -u annabellad -p warning -o cat | grep annabellad:'
check no-pulse-dir sh -c '! test -e /var/lib/annabella/.config'

# A bad configuration: exit 2, logged at priority err, not retried.
cp /etc/annabella/annabella.conf /tmp/good.conf
echo 'nonsense = 1' >>/etc/annabella/annabella.conf
systemctl start annabellad
sleep 5
check bad-config-exit-2 sh -c '[ "$(systemctl show -P ExecMainStatus annabellad)" = 2 ]'
check bad-config-not-retried sh -c '[ "$(systemctl show -P NRestarts annabellad)" = 0 ]'
check bad-config-priority-err sh -c 'journalctl -u annabellad -p err -o cat | grep -q "annabella.conf:.*nonsense"'
cp /tmp/good.conf /etc/annabella/annabella.conf

# The watchdog: a stopped process stops pinging; systemd kills and restarts it.
cat >/etc/systemd/system/annabellad.service.d/sim.conf <<'UNIT'
[Service]
ExecStart=
ExecStart=/usr/bin/annabellad --config /etc/annabella/annabella.conf --board sim:/usr/share/annabella-test/stall.script --audio wav
Restart=on-failure
WatchdogSec=3
TimeoutAbortSec=2
UNIT
systemctl daemon-reload
systemctl reset-failed annabellad
rm -rf /var/lib/annabella/*
systemctl start annabellad
pid1=$(prop MainPID)
sleep 4
check watchdog-kept-alive sh -c "[ \"\$(systemctl show -P MainPID annabellad)\" = $pid1 ]"
[ "$pid1" -gt 1 ] && kill -STOP "$pid1"
restarted() { [ "$(prop NRestarts)" -ge 1 ] && [ "$(prop ActiveState)" = active ]; }
check watchdog-restarts wait_for 30 restarted
check watchdog-new-pid sh -c "[ \"\$(systemctl show -P MainPID annabellad)\" != $pid1 ]"
journalctl -u annabellad --no-pager | tail -20

# The web page (DESIGN 9): installed, off by default; enabled with [web] listen, it serves
# the page and the game's status from the daemon's control socket as its own user.
check web-not-enabled sh -c '[ "$(systemctl is-enabled annabella-web)" = disabled ]'
check web-not-running sh -c '[ "$(systemctl show -P ActiveState annabella-web)" = inactive ]'
printf '[web]\nlisten = 127.0.0.1:8080\n' >>/etc/annabella/annabella.conf
systemctl start annabella-web
http_get() { # PATH: the response of the page's server
	bash -c "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET $1 HTTP/1.0\r\n\r\n' >&3 && cat <&3"
}
page_up() { http_get / | grep -q 'annabella'; }
check web-serves-page wait_for 10 page_up
status_up() { http_get /api/status | grep -q '"ok":true'; }
check web-reads-status wait_for 10 status_up
check web-own-user sh -c '[ "$(ps -o user= -p "$(systemctl show -P MainPID annabella-web)")" != root ]'
webscore=$(systemd-analyze security annabella-web --no-pager | sed -n 's/.*Overall exposure level for annabella-web.service: \([0-9.]*\).*/\1/p')
echo "web-score $webscore" >>"$out/results"
systemctl stop annabella-web
cp /tmp/good.conf /etc/annabella/annabella.conf

# The hardening, as systemd judges the running unit.
systemd-analyze security annabellad --no-pager | tail -3
score=$(systemd-analyze security annabellad --no-pager | sed -n 's/.*Overall exposure level for annabellad.service: \([0-9.]*\).*/\1/p')
echo "score $score" >>"$out/results"
check security-under-2 awk -v s="$score" 'BEGIN { exit !(s != "" && s < 2.0) }'
systemctl stop annabellad
echo done >>"$out/results"
systemctl poweroff

#!/bin/sh
# Runs in the booted Debian 12 or 13 container (tests/pkg/run.sh, tests/trixie/run.sh):
# installs the package, starts the service with the sim board, upgrades it in the middle of
# a game, stalls it for the watchdog, checks the hardening score, purges it and installs it
# again on a machine without a GPIO chip.  Writes "ok NAME" / "FAIL NAME" lines to
# /pkgtest/out/results, then powers off.
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

# The sim board by a drop-in, there before the package starts the service; a local setting
# in a configuration drop-in.
mkdir -p /usr/share/annabella-test /etc/systemd/system/annabellad.service.d \
	/etc/annabella/annabella.conf.d
cp /pkgtest/game.script /pkgtest/stall.script /pkgtest/upgrade.script /usr/share/annabella-test/
printf '[game]\nevent = Drop-in Open\n' >/etc/annabella/annabella.conf.d/60-club.conf
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
check group-i2c getent group i2c
check user-in-i2c sh -c 'id -nG annabella | grep -qw i2c'
check unit-groups sh -c 'systemctl show -P SupplementaryGroups annabellad | grep -qw i2c'
check udev-rule-i2c sh -c 'grep -h "i2c-dev" /usr/lib/udev/rules.d/60-annabella-gpio.rules \
	/lib/udev/rules.d/60-annabella-gpio.rules 2>/dev/null | grep -q "GROUP=\"i2c\""'
check conf-d-closed sh -c 'stat -c "%U %G %a" /etc/annabella/annabella.conf.d | grep -qx "root annabella 750"'
check examples sh -c 'test -f /usr/share/doc/annabella/examples/matrix-pi.conf &&
	test -f /usr/share/doc/annabella/examples/shift-pi.conf'
check readme-debian test -f /usr/share/doc/annabella/README.Debian.gz
check conffile sh -c 'dpkg-query -W -f="\${Conffiles}" annabella | grep -q /etc/annabella/annabella.conf'
check version sh -c '/usr/bin/annabellad --version | grep -q "^annabellad "'
check cli-version sh -c 'annabella --version | grep -q "^annabella "'
check config-group sh -c 'stat -c "%U %G %a" /etc/annabella/annabella.conf | grep -qx "root annabella 640"'
check man sh -c 'test -f /usr/share/man/man8/annabellad.8.gz && test -f /usr/share/man/man5/annabella.conf.5.gz'

# A container (systemd-nspawn without CAP_IPC_LOCK) refuses mlockall to every service, so
# the daemon's memory lock is checked only where a plain service may take it.
cat >/tmp/mlock-probe.pl <<'PL'
syscall(151, 5) == 0 and print "locked\n";
PL
chmod 644 /tmp/mlock-probe.pl
mlock_ok=no
systemd-run --wait --pipe -p User=annabella -p PrivateTmp=no -p LimitMEMLOCK=96M \
	perl /tmp/mlock-probe.pl 2>/dev/null | grep -q locked && mlock_ok=yes
[ "$(uname -m)" = x86_64 ] || mlock_ok=unknown # the probe's syscall number is x86_64's
echo "memory lock here: $mlock_ok"
# The daemon's warning that it could not lock its memory, where nothing may.
unlockable() { [ "$mlock_ok" = yes ] && cat || grep -v 'memory cannot be locked'; }

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
check conf-drop-in-read grep -q '^\[Event "Drop-in Open"\]' /var/lib/annabella/game.pgn
check state-owner sh -c 'stat -c %U /var/lib/annabella/game.pgn | grep -qx annabella'
# Nothing to warn about in a game with the shipped configuration.
no_warnings() { ! journalctl -u annabellad -p warning -o cat | unlockable | grep annabellad:; }
check no-warnings no_warnings
check no-pulse-dir sh -c '! test -e /var/lib/annabella/.config'

# An MBROLA voice (docs/speech.md "Voices"), where the tree has one: with [voice] voice-de = mb-de7
# and an English interface in a drop-in, the daemon under the unit's sandbox starts mbrola
# and reads its voice (no falling back), keeps English in its worker, and says the move.
children_named() { # NAME: the daemon's child processes whose command line starts with NAME
	main=$(prop MainPID)
	for s in /proc/[0-9]*/stat; do
		d=${s%/stat}
		[ "$(cut -d' ' -f4 "$s" 2>/dev/null)" = "$main" ] || continue
		tr '\0' ' ' <"$d/cmdline" | grep -q "^$1" && echo "${d#/proc/}"
	done
}
mbrola_voice_read() { journalctl -u annabellad -o cat | grep -q 'voice-de = mb-de7: 22050 Hz'; }
mbrola_runs() { [ -n "$(children_named mbrola)" ]; }
worker_runs() { [ -n "$(children_named annabella-voice)" ]; }
no_fallback() { ! journalctl -u annabellad -o cat | grep -q 'speaks instead'; }
move_said() { [ "$(stat -c %s /var/lib/annabella/audio/public.wav 2>/dev/null || echo 0)" -gt 40000 ]; }
if [ -x /usr/bin/mbrola ] && [ -r /usr/share/mbrola/de7/de7 ]; then
	printf '[voice]\nvoice-de = mb-de7\nlanguage = en\n[log]\nlevel = info\n' \
		>/etc/annabella/annabella.conf.d/80-mbrola.conf
	sed 's|game.script|stall.script|' /etc/systemd/system/annabellad.service.d/sim.conf \
		>/etc/systemd/system/annabellad.service.d/sim-mbrola.conf
	systemctl daemon-reload
	rm -rf /var/lib/annabella/*
	journalctl --rotate --vacuum-time=1s >/dev/null 2>&1
	systemctl start annabellad
	check mbrola-voice-read wait_for 20 mbrola_voice_read
	check mbrola-runs mbrola_runs
	check mbrola-worker worker_runs
	check mbrola-move-said wait_for 20 move_said
	check mbrola-no-fallback no_fallback
	systemctl stop annabellad
	rm /etc/annabella/annabella.conf.d/80-mbrola.conf \
		/etc/systemd/system/annabellad.service.d/sim-mbrola.conf
	systemctl daemon-reload
	rm -rf /var/lib/annabella/*
else
	echo "skip mbrola: not installed in this tree" >>"$out/results"
fi

# A bad line in a configuration drop-in: exit 2, logged at priority err with the drop-in's
# own name and line, not retried.
printf '[game]\nnonsense = 1\n' >/etc/annabella/annabella.conf.d/90-bad.conf
systemctl start annabellad
sleep 5
check bad-config-exit-2 sh -c '[ "$(systemctl show -P ExecMainStatus annabellad)" = 2 ]'
check bad-config-not-retried sh -c '[ "$(systemctl show -P NRestarts annabellad)" = 0 ]'
check bad-config-priority-err sh -c 'journalctl -u annabellad -p err -o cat | grep -q "annabella.conf.d/90-bad.conf:2:.*nonsense"'
rm /etc/annabella/annabella.conf.d/90-bad.conf
# The shipped file was never edited: an upgrade replaces it without a question.
shipped_unchanged() {
	want=$(dpkg-query -W -f='${Conffiles}\n' annabella | awk '$1 == "/etc/annabella/annabella.conf" { print $2 }')
	[ -n "$want" ] && [ "$(md5sum </etc/annabella/annabella.conf | cut -d' ' -f1)" = "$want" ]
}
check shipped-conf-unchanged shipped_unchanged

# An upgrade in the middle of a game: the daemon is neither stopped nor restarted; the game
# goes on with the old program, and the new one takes over, in the same process, once the
# result is approved.
cat >/etc/systemd/system/annabellad.service.d/sim.conf <<'UNIT'
[Service]
ExecStart=
ExecStart=/usr/bin/annabellad --config /etc/annabella/annabella.conf --board sim:/usr/share/annabella-test/upgrade.script --audio wav
Restart=on-failure
UNIT
systemctl daemon-reload
systemctl reset-failed annabellad
rm -rf /var/lib/annabella/*
check upgrade-game-start systemctl start annabellad
pid0=$(prop MainPID)
movetext_has() { movetext /var/lib/annabella/game.pgn | grep -q "$1"; }
check upgrade-game-on wait_for 20 movetext_has '1\. e4 e5'
dpkg -i /pkgtest/annabella-next.deb >/tmp/upgrade.out 2>&1
cat /tmp/upgrade.out
check upgrade-installed sh -c 'dpkg-query -W -f="\${Version}" annabella | grep -q "+next1"'
check upgrade-says-it-waits grep -q 'keeps running' /tmp/upgrade.out
check upgrade-same-pid sh -c "[ \"\$(systemctl show -P MainPID annabellad)\" = $pid0 ]"
check upgrade-not-restarted sh -c '[ "$(systemctl show -P NRestarts annabellad)" = 0 ]'
check upgrade-old-program-runs sh -c "readlink /proc/$pid0/exe | grep -q deleted"
nf3_read() { tr '\n' ' ' </var/lib/annabella/game.pgn | grep -q '2\. Nf3 {\[%clk'; }
check upgrade-game-goes-on wait_for 30 nf3_read
check upgrade-logged-wait sh -c 'journalctl -u annabellad -o cat | grep -q "takes over once this game"'
new_program_runs() {
	[ "$(readlink /proc/$pid0/exe)" = /usr/bin/annabellad ] && [ "$(prop ActiveState)" = active ]
}
check upgrade-takes-over-after-approval wait_for 30 new_program_runs
check upgrade-same-pid-after sh -c "[ \"\$(systemctl show -P MainPID annabellad)\" = $pid0 ]"
archived_whole() {
	f=$(ls /var/lib/annabella/games/game-0001*.pgn 2>/dev/null | head -1)
	[ -n "$f" ] && movetext "$f" | grep -q '2\. Nf3 .*1-0'
}
check upgrade-game-archived archived_whole
systemctl stop annabellad

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
# Real time (the unit's CPUSchedulingPolicy=): every thread of the daemon at fifo 10, its
# memory locked, a thread that would run 3 s without waiting stopped; the watchdog below
# still works.
all_fifo() {
	for t in /proc/"$pid1"/task/*; do
		chrt -p "${t##*/}" | grep -q 'SCHED_FIFO' || return 1
		chrt -p "${t##*/}" | grep -q 'priority: 10' || return 1
	done
}
check realtime-threads all_fifo
if [ "$mlock_ok" = yes ]; then
	check realtime-memory-locked sh -c "awk '/^VmLck/ { exit !(\$2 > 0) }' /proc/$pid1/status"
fi
check realtime-bounded sh -c "grep -q 'Max realtime timeout *3000000 *3000000' /proc/$pid1/limits"
grep -E '^Vm(Size|Lck|RSS)' /proc/"$pid1"/status
grep -E 'locked memory|realtime' /proc/"$pid1"/limits
grep -E 'Seccomp|NoNewPrivs|Cap' /proc/"$pid1"/status
journalctl -u annabellad -p warning -o cat --no-pager | tail -5
[ "$pid1" -gt 1 ] && kill -STOP "$pid1"
restarted() { [ "$(prop NRestarts)" -ge 1 ] && [ "$(prop ActiveState)" = active ]; }
check watchdog-restarts wait_for 30 restarted
check watchdog-new-pid sh -c "[ \"\$(systemctl show -P MainPID annabellad)\" != $pid1 ]"
journalctl -u annabellad --no-pager | tail -20

# The web page (docs/web.md "The web page for the assistant and the arbiter"): installed, off by
# default; enabled with [web] listen, it serves the page and the game's status from the daemon's
# control socket as its own user.
check web-not-enabled sh -c '[ "$(systemctl is-enabled annabella-web)" = disabled ]'
check web-not-running sh -c '[ "$(systemctl show -P ActiveState annabella-web)" = inactive ]'
printf '[web]\nlisten = 127.0.0.1:8080\n' >/etc/annabella/annabella.conf.d/70-web.conf
systemctl start annabella-web
# Over TLS, with the certificate made at install (the key root's alone), which curl trusts
# alone; annabella status shows its fingerprint.
check web-key-root-only sh -c '[ "$(stat -c %a:%U /etc/annabella/web.key)" = 600:root ]'
check web-status-fingerprint sh -c 'annabella status | grep -q "^Web page: certificate SHA-256 "'
http_get() { # PATH: the response of the page's server
	curl -s --cacert /etc/annabella/web.crt --resolve localhost:8080:127.0.0.1 \
		"https://localhost:8080$1"
}
page_up() { http_get / | grep -q 'annabella'; }
check web-serves-page wait_for 10 page_up
status_up() { http_get /api/status | grep -q '"ok":true'; }
check web-reads-status wait_for 10 status_up
check web-own-user sh -c '[ "$(ps -o user= -p "$(systemctl show -P MainPID annabella-web)")" != root ]'
webscore=$(systemd-analyze security annabella-web --no-pager | sed -n 's/.*Overall exposure level for annabella-web.service: \([0-9.]*\).*/\1/p')
echo "web-score $webscore" >>"$out/results"
systemctl stop annabella-web
rm /etc/annabella/annabella.conf.d/70-web.conf

# The hardening, as systemd judges the running unit.
systemd-analyze security annabellad --no-pager | tail -3
score=$(systemd-analyze security annabellad --no-pager | sed -n 's/.*Overall exposure level for annabellad.service: \([0-9.]*\).*/\1/p')
echo "score $score" >>"$out/results"
check security-under-2 awk -v s="$score" 'BEGIN { exit !(s != "" && s < 2.0) }'
systemctl stop annabellad

# Purge: it says what it keeps (the games) and keeps it.
dpkg --purge annabella >/tmp/purge.out 2>&1
cat /tmp/purge.out
check purge-says-games-kept grep -q 'games in /var/lib/annabella are kept' /tmp/purge.out
check purge-keeps-games sh -c 'ls /var/lib/annabella/games/*.pgn >/dev/null'
check purge-removes-conffile test ! -e /etc/annabella/annabella.conf
# Installed again without the sim drop-in: the container has no GPIO chip, which the
# install says plainly; it still succeeds, with the service enabled.
rm -rf /etc/systemd/system/annabellad.service.d
systemctl daemon-reload
dpkg -i /pkgtest/annabella.deb >/tmp/nogpio.out 2>&1
rc=$?
cat /tmp/nogpio.out
check no-gpio-install-succeeds [ $rc -eq 0 ]
check no-gpio-says-why grep -q 'no GPIO chip' /tmp/nogpio.out
check no-gpio-names-error grep -q "cannot open chip 'gpiochip0'" /tmp/nogpio.out
check no-gpio-enabled sh -c '[ "$(systemctl is-enabled annabellad)" = enabled ]'
echo done >>"$out/results"
systemctl poweroff

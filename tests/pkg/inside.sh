#!/bin/sh
# Runs in the booted Debian 12 or 13 container (tests/pkg/run.sh, tests/trixie/run.sh):
# installs the package, starts the service with the sim board, reloads it, upgrades it in
# the middle of a game, stalls it for the watchdog, checks the hardening score, purges it,
# installs it again on a machine without a GPIO chip, and upgrades from 0.9.0 as a club that
# edited the shipped configuration would (README.Debian).  Writes "ok NAME" / "FAIL NAME" lines to
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
cp /pkgtest/game.script /pkgtest/stall.script /usr/share/annabella-test/
printf '[game]\nevent = Drop-in Open\n[log]\nlevel = info\n' \
	>/etc/annabella/annabella.conf.d/60-club.conf
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
	test -f /usr/share/doc/annabella/examples/shift-pi.conf &&
	test -f /usr/share/doc/annabella/examples/shift-hat-pi.conf'
check readme-debian test -f /usr/share/doc/annabella/README.Debian.gz
check conffile sh -c 'dpkg-query -W -f="\${Conffiles}" annabella | grep -q /etc/annabella/annabella.conf'
check version sh -c '/usr/bin/annabellad --version | grep -q "^annabellad "'
check cli-version sh -c 'annabella --version | grep -q "^annabella "'
check config-group sh -c 'stat -c "%U %G %a" /etc/annabella/annabella.conf | grep -qx "root annabella 640"'
check man sh -c 'test -f /usr/share/man/man8/annabellad.8.gz && test -f /usr/share/man/man5/annabella.conf.5.gz'
# The unit's documentation is there under the names it gives.
docs_there() {
	for d in $(systemctl show -P Documentation annabellad); do
		case $d in
		file:*) test -f "${d#file:}" || return 1 ;;
		man:*)
			page=${d#man:}
			section=${page#*(}
			section=${section%)}
			test -f "/usr/share/man/man$section/${page%(*}.$section.gz" || return 1
			;;
		esac
	done
}
check unit-documentation-there docs_there

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

# The PINs (README "Security model"): their hashes in the PIN file, root's alone, which the
# daemon and the page get as credentials; a member of the group annabella (the control
# socket's: an assistant) reads neither a PIN nor its hash, in the configuration or anywhere
# the group reaches.  The device key of the journal's chain: the daemon's user's alone.
pin=$(annabella pin --set arbiter)
check pin-set sh -c "echo '$pin' | grep -qxE '[0-9]{6}'"
check pin-file-root-only sh -c 'stat -c "%U %G %a" /etc/annabella/pins | grep -qx "root root 600"'
useradd -M -N -G annabella pkg-assistant
check pin-not-for-the-group sh -c "! runuser -u pkg-assistant -- grep -rqsI -e pbkdf2 \
	/etc/annabella /var/lib/annabella /run/annabella &&
	! runuser -u pkg-assistant -- grep -rqs -e '$pin' /etc/annabella"
check pin-not-in-the-config sh -c '! grep -rqs -e pbkdf2 /etc/annabella/annabella.conf \
	/etc/annabella/annabella.conf.d'
check credential-unit sh -c 'systemctl cat annabellad | grep -qx "LoadCredential=pins:/etc/annabella/pins"'

# The package started it; start again to see READY (Type=notify: start returns at READY).
systemctl stop annabellad
check start systemctl start annabellad
check active sh -c '[ "$(systemctl show -P ActiveState annabellad)" = active ]'
check ready-status sh -c 'systemctl show -P StatusText annabellad | grep -q "^game-"'
check runtime-dir sh -c 'stat -c "%U %G %a" /run/annabella | grep -qx "annabella annabella 750"'
# A reload rereads the safe settings, with the shell's kill: this tree has no procps, whose
# /bin/kill the unit named.
check no-procps-here sh -c '! test -e /bin/kill && ! test -e /usr/bin/kill'
reloaded() { journalctl -u annabellad -o cat | grep -q 'SIGHUP: reloaded'; }
check reload systemctl reload annabellad
check reload-reread wait_for 10 reloaded
check reload-same-pid sh -c '[ "$(systemctl show -P NRestarts annabellad)" = 0 ]'
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
check device-key-own sh -c 'stat -c "%U %a" /var/lib/annabella-key/device-key | grep -qx "annabella 600"'
check device-key-not-for-the-group sh -c '! runuser -u pkg-assistant -- cat \
	/var/lib/annabella-key/device-key'
check verify-keyed sh -c 'annabella verify /var/lib/annabella | grep -q "every keyed line checked"'

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

# The fair-play state (docs/fairplay.md): a file of the installed package changed under it is
# found by dpkg's own checksums, by annabella seal at once and by the daemon at a tournament
# game's start: journaled, named in the scoresheet's FairPlay tag and in verify's report; the
# file put back, seal verifies the files again.
seal_files() { annabella seal 2>/dev/null | grep -E "^(ok|WRONG) +files "; }
check seal-files-verified sh -c "annabella seal 2>/dev/null | grep -Eq '^ok +files +package files verified'"
changed=/usr/share/man/man1/annabella.1.gz
cp -p "$changed" /tmp/changed.saved
printf 'x' >>"$changed"
seal_files
check seal-file-changed sh -c "annabella seal 2>/dev/null | grep -E '^WRONG +files ' | grep -q '$changed'"
printf '[game]\nmode = tournament\n[fairplay]\nwatch = yes\n' \
	>/etc/annabella/annabella.conf.d/70-tournament.conf
sed 's|game.script|stall.script|' /etc/systemd/system/annabellad.service.d/sim.conf \
	>/etc/systemd/system/annabellad.service.d/sim-fairplay.conf
systemctl daemon-reload
rm -rf /var/lib/annabella/*
systemctl start annabellad
fairplay_journaled() { grep ' fairplay yes ' /var/lib/annabella/journal 2>/dev/null | grep -q "$changed"; }
check fairplay-file-journaled wait_for 20 fairplay_journaled
fairplay_tagged() { grep '^\[FairPlay "not sealed at the start:' /var/lib/annabella/game.pgn 2>/dev/null |
	grep -q "package file changed: $changed"; }
check fairplay-file-tagged wait_for 20 fairplay_tagged
systemctl stop annabellad
annabella verify /var/lib/annabella >/tmp/verify-fairplay.out 2>&1
grep '^fair play' /tmp/verify-fairplay.out
check fairplay-file-verify grep -q "^fair play .*package file changed: $changed" /tmp/verify-fairplay.out
cp -p /tmp/changed.saved "$changed"
check seal-files-verified-again sh -c "annabella seal 2>/dev/null | grep -Eq '^ok +files +package files verified'"
rm /etc/annabella/annabella.conf.d/70-tournament.conf \
	/etc/systemd/system/annabellad.service.d/sim-fairplay.conf
systemctl daemon-reload
rm -rf /var/lib/annabella/*

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
# result is approved.  The board is a live script (a named pipe the daemon reads as this test
# writes it), so each step comes when the test is ready for it, however slow the machine:
# two moves, the upgrade, a third move, the arbiter's result, the players' approval.
board=/usr/share/annabella-test/upgrade.board
mkfifo -m 0644 "$board"
exec 3<>"$board"
printf 'player white\ntime-control 600+5\n\n' >&3
cat >/etc/systemd/system/annabellad.service.d/sim.conf <<UNIT
[Service]
ExecStart=
ExecStart=/usr/bin/annabellad --config /etc/annabella/annabella.conf --board sim:$board --audio wav
Restart=on-failure
UNIT
systemctl daemon-reload
systemctl reset-failed annabellad
rm -rf /var/lib/annabella/*
check upgrade-game-start systemctl start annabellad
pid0=$(prop MainPID)
printf '%s\n' '+300 press opponent-clock' '+300 lift e2' '+200 place e4' '+300 press player-clock' \
	'+300 lift e7' '+200 place e5' '+300 press opponent-clock' >&3
movetext_has() { movetext /var/lib/annabella/game.pgn | grep -q "$1"; }
check upgrade-game-on wait_for 20 movetext_has '1\. e4 e5'
# systemctl status shows the game as it goes on.
status_says() { prop StatusText | grep -q "$1"; }
check status-follows-game wait_for 10 status_says 'move 2, White to move'
dpkg -i /pkgtest/annabella-next.deb >/tmp/upgrade.out 2>&1
cat /tmp/upgrade.out
check upgrade-installed sh -c 'dpkg-query -W -f="\${Version}" annabella | grep -q "+next1"'
check upgrade-says-it-waits grep -q 'keeps running' /tmp/upgrade.out
check upgrade-same-pid sh -c "[ \"\$(systemctl show -P MainPID annabellad)\" = $pid0 ]"
check upgrade-not-restarted sh -c '[ "$(systemctl show -P NRestarts annabellad)" = 0 ]'
# The new unit file is the one systemd has (no "changed on disk" warning), without a restart.
unit_reloaded() {
	[ "$(prop NeedDaemonReload)" = no ] && systemctl cat annabellad | grep -q "^# .*+next1"
}
check upgrade-unit-reloaded unit_reloaded
check upgrade-status-says-it-waits wait_for 10 status_says 'a new version waits'
check upgrade-old-program-runs sh -c "readlink /proc/$pid0/exe | grep -q deleted"
printf '%s\n' '+300 lift g1' '+200 place f3' '+300 press player-clock' >&3
nf3_read() { tr '\n' ' ' </var/lib/annabella/game.pgn | grep -q '2\. Nf3 {\[%clk'; }
check upgrade-game-goes-on wait_for 30 nf3_read
check upgrade-logged-wait sh -c 'journalctl -u annabellad -o cat | grep -q "takes over once this game"'
# The result given, not yet approved: still the old program (it looks every two seconds).
printf '%s\n' '+300 control arbiter result 1-0 adjudication' >&3
result_given() { grep -q '^\[Result "1-0"\]' /var/lib/annabella/game.pgn; }
check upgrade-result-given wait_for 20 result_given
sleep 2.5
check upgrade-waits-for-approval sh -c "readlink /proc/$pid0/exe | grep -q deleted"
printf '%s\n' '+300 control assistant approve' >&3
# The new program, in the same process, reads the live script afresh: its header ends with a
# blank line, given once it runs.
taken_over() { [ "$(readlink /proc/$pid0/exe)" = /usr/bin/annabellad ]; }
wait_for 30 taken_over
printf '\n' >&3
new_program_runs() { taken_over && [ "$(prop ActiveState)" = active ]; }
check upgrade-takes-over-after-approval wait_for 30 new_program_runs
check upgrade-same-pid-after sh -c "[ \"\$(systemctl show -P MainPID annabellad)\" = $pid0 ]"
archived_whole() {
	f=$(ls /var/lib/annabella/games/game-0001*.pgn 2>/dev/null | head -1)
	[ -n "$f" ] && movetext "$f" | grep -q '2\. Nf3 .*1-0'
}
check upgrade-game-archived archived_whole
systemctl stop annabellad
exec 3>&-

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
# The arbiter's PIN through the page: the page checks it against the hash of its credential,
# the daemon against its own; a wrong one is refused.
http_post() { # PIN BODY: the page's response, its status code last
	curl -s --cacert /etc/annabella/web.crt --resolve localhost:8080:127.0.0.1 \
		-H "X-PIN: $1" --data-binary "$2" -w ' %{http_code}' https://localhost:8080/api/command
}
pin_right() { http_post "$pin" status | grep -q '"ok":true.* 200$'; }
pin_wrong() { http_post 000000 status | grep -q ' 403$'; }
check web-pin-right pin_right
check web-pin-wrong pin_wrong
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
doc_named_there() {
	doc=$(grep -o '/usr/share/doc/annabella/[^ )]*' /tmp/nogpio.out | head -1)
	[ -n "$doc" ] && test -f "$doc"
}
check no-gpio-names-readme-there doc_named_there

# Coming from 0.9.0 (README.Debian): its README said to edit the shipped annabella.conf.  The
# club moves its setting into a drop-in, installs the new version (apt, as the README says),
# takes the package's annabella.conf when dpkg asks, and is never asked again.
dpkg --purge annabella >/dev/null 2>&1
rm -rf /etc/annabella /var/lib/annabella/*
dpkg -i /pkgtest/annabella-0.9.0.deb >/tmp/old.out 2>&1
check old-installed sh -c 'dpkg-query -W -f="\${Version}" annabella | grep -qx 0.9.0'
sed -i 's/^event = ?$/event = Old Club Open/' /etc/annabella/annabella.conf
printf '[game]\nevent = Old Club Open\n' >/etc/annabella/annabella.conf.d/60-club.conf
new_version=$(dpkg-deb -f /pkgtest/annabella.deb Version)
echo Y | apt-get install -y /pkgtest/annabella.deb >/tmp/from-old.out 2>&1
cat /tmp/from-old.out
check from-0.9.0-upgraded sh -c "dpkg-query -W -f='\${Version}' annabella | grep -qxF '$new_version'"
check from-0.9.0-not-newest-already sh -c '! grep -q "already the newest version" /tmp/from-old.out'
check from-0.9.0-asked grep -q "Configuration file '/etc/annabella/annabella.conf'" /tmp/from-old.out
check from-0.9.0-took-packages-file shipped_unchanged
annabellad --config /etc/annabella/annabella.conf --board sim:/usr/share/annabella-test/game.script \
	--time virtual --audio none --control none --state /tmp/from-old-state >/tmp/from-old-run.out 2>&1
check from-0.9.0-drop-in-read grep -q '^\[Event "Old Club Open"\]' /tmp/from-old-state/game.pgn
dpkg -i /pkgtest/annabella-next.deb </dev/null >/tmp/after.out 2>&1
rc=$?
cat /tmp/after.out
check from-0.9.0-never-asked-again sh -c "[ $rc -eq 0 ] && ! grep -q 'Configuration file' /tmp/after.out"
echo done >>"$out/results"
systemctl poweroff

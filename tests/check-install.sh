#!/usr/bin/env bash
# make install into a DESTDIR: the programs (and their --version), the service with its
# ExecStart pointed at the installed daemon and the configuration as its only setting, the
# users and groups (systemd-sysusers, dry run on that root), the udev rule, the
# configuration kept if present; the unit's exposure (systemd-analyze security) under 2.0.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
dir=$(cd "$tests/.." && pwd)
begin install
make -s -C "$dir" install BUILD="$build" DESTDIR="$work/root" PREFIX=/usr >"$work/out" 2>&1
check $? "make install failed: $(tail -3 "$work/out")"
for f in usr/bin/annabellad usr/bin/annabella usr/lib/systemd/system/annabellad.service \
	usr/lib/sysusers.d/annabella.conf usr/lib/udev/rules.d/60-annabella-gpio.rules \
	etc/annabella/annabella.conf etc/annabella/relay.conf; do
	[ -f "$work/root/$f" ]
	check $? "$f not installed"
done
"$work/root/usr/bin/annabellad" --version | grep -qE '^annabellad [0-9]+\.[0-9]+\.[0-9]+$'
check $? "annabellad --version"
grep -qx 'ExecStart=/usr/bin/annabellad --config /etc/annabella/annabella.conf' \
	"$work/root/usr/lib/systemd/system/annabellad.service"
check $? "the unit's ExecStart"
[ "$(stat -c %a "$work/root/etc/annabella/annabella.conf")" = 640 ]
check $? "the configuration is not 0640"
# A configuration already there is kept.
echo "# mine" >>"$work/root/etc/annabella/annabella.conf"
make -s -C "$dir" install BUILD="$build" DESTDIR="$work/root" PREFIX=/usr >/dev/null 2>&1
grep -q '# mine' "$work/root/etc/annabella/annabella.conf"
check $? "make install replaced an existing configuration"
if command -v systemd-sysusers >/dev/null; then
	out=$(systemd-sysusers --dry-run --root="$work/root" 2>&1)
	grep -q "Creating user 'annabella'" <<<"$out" && grep -q "Creating group 'gpio'" <<<"$out"
	check $? "sysusers does not make the user and the gpio group: $out"
fi
# The networked helpers' units (README "Setup: two commands"): installed, not enabled by make
# install.
for u in annabella-web annabella-broadcast annabella-relay; do
	[ -f "$work/root/usr/lib/systemd/system/$u.service" ]
	check $? "$u.service not installed"
	grep -q '^ExecStart=/usr/bin/annabella ' "$work/root/usr/lib/systemd/system/$u.service"
	check $? "$u.service's ExecStart"
done
exposure() { # UNIT MAX: the unit's exposure (systemd-analyze security) under MAX
	local score
	score=$(systemd-analyze security --offline=yes --root="$work/root" "$1" 2>&1 |
		sed -n "s/.*Overall exposure level for $1: \([0-9.]*\).*/\1/p")
	echo "install: systemd-analyze security $1: $score"
	awk -v s="$score" -v m="$2" 'BEGIN { exit !(s != "" && s < m) }'
	check $? "$1's exposure is $score (want under $2)"
}
if command -v systemd-analyze >/dev/null; then
	exposure annabellad.service 2.0
	# A network server: it needs AF_INET, so its exposure is higher than the daemon's.
	exposure annabella-web.service 2.5
	exposure annabella-broadcast.service 2.5
	exposure annabella-relay.service 2.5
fi
summary

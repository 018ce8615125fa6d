#!/bin/sh
# Runs in the booted fresh Debian 12 tree (tests/fresh/run.sh), as root: makes the user
# newcomer (group sudo, without a password prompt, since nobody is at a terminal; home 0700),
# who clones the repository into that home and runs make demo, then make check, as README
# "Setup: two commands" says.  Writes "ok NAME" / "FAIL NAME" lines and each step's time to
# /pkgtest/out/results, the logs to /pkgtest/out/, then powers off.
out=/pkgtest/out
exec >"$out/log" 2>&1
set -x
ok() { echo "ok $1" >>"$out/results"; }
fail() { echo "FAIL $1" >>"$out/results"; }
step() { # NAME COMMAND: as the newcomer, in the clone; its log $out/NAME.log, its time
	name=$1
	start=$(date +%s)
	if su - newcomer -c "cd annabella && $2" >"$out/$name.log" 2>&1; then
		ok "$name"
	else
		fail "$name"
		tail -40 "$out/$name.log"
	fi
	echo "time $name $(($(date +%s) - start)) s" >>"$out/results"
}

update-ca-certificates
adduser --disabled-password --gecos Newcomer newcomer
adduser newcomer sudo
echo 'newcomer ALL=(ALL:ALL) NOPASSWD: ALL' >/etc/sudoers.d/newcomer
chmod 0440 /etc/sudoers.d/newcomer
chmod 0700 /home/newcomer
if su - newcomer -c 'git clone -q /pkgtest/annabella.bundle annabella'; then
	ok clone
	step demo 'make demo'
	step check 'make check'
	# What each check said of itself, for the report.
	grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed$|^FAILED: ' "$out/check.log" \
		>"$out/summaries" || true
else
	fail clone
fi
echo done >>"$out/results"
systemctl poweroff

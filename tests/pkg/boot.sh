#!/usr/bin/env bash
# tests/pkg/boot.sh ROOT PAYLOAD SCRIPT TIMEOUT NAME: boots ROOT (a Debian tree, changed in
# place: pass a copy) with systemd under systemd-nspawn, without network, PAYLOAD bound at
# /pkgtest; a unit of its own runs /pkgtest/SCRIPT once the system is up, which writes
# "ok NAME" / "FAIL NAME" lines and "done" to PAYLOAD/out/results and powers off.  Prints the
# results with NAME: before them and a last line "NAME: N passed, N failed"; exit 0 when all
# passed.  A foreign architecture's tree boots under qemu-user (binfmt_misc).  With
# BOOT_NETWORK=host the container shares this machine's network (make fresh-check installs
# packages from Debian's archive).
set -euo pipefail
root=$1
payload=$2
script=$3
timeout=$4
name=$5
mkdir -p "$payload/out"
rm -f "$payload/out/results"
cat >"$root/etc/systemd/system/annabella-pkgtest.service" <<UNIT
[Unit]
Description=annabella package test
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/bin/sh /pkgtest/$script
[Install]
WantedBy=multi-user.target
UNIT
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf ../annabella-pkgtest.service \
	"$root/etc/systemd/system/multi-user.target.wants/annabella-pkgtest.service"
echo annabella-pkgtest >"$root/etc/hostname"
# As an installed system has it: localhost and the host's own name resolve (sudo asks for
# it); a minbase tree has no /etc/hosts.
[ -e "$root/etc/hosts" ] ||
	printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
grep -q annabella-pkgtest "$root/etc/hosts" ||
	printf '127.0.1.1\tannabella-pkgtest\n' >>"$root/etc/hosts"

start=$(date +%s)
network=--private-network
[ "${BOOT_NETWORK:-}" = host ] && network=--resolv-conf=copy-host
timeout "$timeout" systemd-nspawn --quiet --boot "$network" --register=no --keep-unit \
	-D "$root" -M "annabella-$name" --bind="$payload:/pkgtest" \
	>"$payload/console.log" 2>&1 || true
echo "$name: the container ran $(($(date +%s) - start)) s"

results=$payload/out/results
if [ ! -f "$results" ] || ! grep -qx done "$results"; then
	tail -30 "$payload/console.log" >&2
	[ -f "$payload/out/log" ] && tail -40 "$payload/out/log" >&2
	echo "$name: the test in the container did not finish" >&2
	echo "$name: $(grep -c "^ok" "$results" 2>/dev/null || true) passed, 1 failed"
	exit 1
fi
grep -v '^done$' "$results" | sed "s/^/$name: /"
failed=$(grep -c '^FAIL' "$results" || true)
if [ "$failed" -gt 0 ]; then
	tail -60 "$payload/out/log" >&2
fi
echo "$name: $(grep -c '^ok' "$results") passed, $failed failed"
[ "$failed" -eq 0 ]

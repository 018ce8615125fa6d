#!/usr/bin/env bash
# The Debian package, installed into a clean Debian 12 tree booted with systemd under
# systemd-nspawn: user and groups, conffile, the service reaching active with READY and
# playing a sim game (a drop-in selects the sim board), a bad config not retried, the
# watchdog restarting a stalled daemon, `systemd-analyze security` under 2.0.
# The tree is debootstrapped once from Debian's archive and cached in
# ~/.cache/annabella-nspawn (ANNABELLA_NSPAWN_CACHE); each run boots a fresh copy.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
cache=${ANNABELLA_NSPAWN_CACHE:-$HOME/.cache/annabella-nspawn}
# What the package depends on, so dpkg -i needs no network in the container.
# The tree's name follows its package list, so a longer list makes a new tree.
include=systemd,systemd-sysv,dbus,udev,libgpiod2,libespeak-ng1,espeak-ng-data,libasound2,libinih1,libbrlapi0.8,libreadline8,libmicrohttpd12,libmosquitto1
base=$cache/bookworm-$(printf '%s' "$include" | cksum | cut -d' ' -f1)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

for tool in systemd-nspawn debootstrap dpkg-buildpackage; do
	command -v "$tool" >/dev/null || { echo "pkgtest: $tool missing (make deps)" >&2; exit 1; }
done
if [ ! -d "$base" ]; then
	echo "pkgtest: debootstrap bookworm into $base (once)"
	mkdir -p "$cache"
	rm -rf "$base.tmp"
	debootstrap --variant=minbase --include="$include" bookworm "$base.tmp" "$mirror" \
		>"$cache/debootstrap.log" 2>&1 || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
	mv "$base.tmp" "$base"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-pkgtest.XXXXXX")
[ -n "${PKGTEST_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
"$dir/build.sh" "$work/deb"
mkdir -p "$work/payload/out"
cp "$(ls "$work"/deb/annabella_*.deb | grep -v dbgsym)" "$work/payload/annabella.deb"
cp "$dir/inside.sh" "$dir/stall.script" "$dir/../vm/game.script" "$work/payload/"

cp -a "$base" "$work/root"
cat >"$work/root/etc/systemd/system/annabella-pkgtest.service" <<'UNIT'
[Unit]
Description=annabella package test
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/bin/sh /pkgtest/inside.sh
[Install]
WantedBy=multi-user.target
UNIT
ln -s ../annabella-pkgtest.service \
	"$work/root/etc/systemd/system/multi-user.target.wants/annabella-pkgtest.service"
echo annabella-pkgtest >"$work/root/etc/hostname"

start=$(date +%s)
timeout 150 systemd-nspawn --quiet --boot --private-network --register=no --keep-unit \
	-D "$work/root" -M annabella-pkgtest --bind="$work/payload:/pkgtest" \
	>"$work/console.log" 2>&1 || true
echo "pkgtest: container ran $(($(date +%s) - start)) s"

results=$work/payload/out/results
if [ ! -f "$results" ] || ! grep -qx done "$results"; then
	tail -30 "$work/console.log" >&2
	[ -f "$work/payload/out/log" ] && tail -40 "$work/payload/out/log" >&2
	echo "pkgtest: the test in the container did not finish" >&2
	exit 1
fi
grep -v '^done$' "$results" | sed 's/^/pkgtest: /'
if grep -q '^FAIL' "$results"; then
	tail -60 "$work/payload/out/log" >&2
	echo "pkgtest: FAILED" >&2
	exit 1
fi
echo "pkgtest: $(grep -c '^ok' "$results") passed, 0 failed"

#!/usr/bin/env bash
# The Debian package, installed into a clean Debian 12 tree booted with systemd under
# systemd-nspawn (tests/pkg/inside.sh): user and groups, conffile and drop-ins, the service
# reaching active with READY and playing a sim game (a drop-in selects the sim board), an
# upgrade in the middle of a game, a bad config not retried, the watchdog restarting a
# stalled daemon, `systemd-analyze security` under 2.0, purge, an install without a GPIO chip.
# The tree is debootstrapped once from Debian's archive and cached in
# ~/.cache/annabella-nspawn (ANNABELLA_NSPAWN_CACHE); each run boots a fresh copy.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
cache=${ANNABELLA_NSPAWN_CACHE:-$HOME/.cache/annabella-nspawn}
# What the package depends on, so dpkg -i needs no network in the container.
# The tree's name follows its package list, so a longer list makes a new tree.
include=systemd,systemd-sysv,dbus,udev,libgpiod2,libespeak-ng1,espeak-ng-data,libopus0,libogg0,libasound2,libinih1,libbrlapi0.8,libreadline8,libmicrohttpd12,libmosquitto1,libcurl4,libgnutls30,curl
# And what the package suggests for a clearer German voice (docs/speech.md "Voices"): mbrola from
# contrib and one German voice from non-free, in the tree's own sources (the machine's stay
# as they are), so the unit's sandbox is tried with an MBROLA voice.
include=$include,mbrola,mbrola-de7
components=main,contrib,non-free
base=$cache/bookworm-$(printf '%s %s' "$include" "$components" | cksum | cut -d' ' -f1)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

for tool in systemd-nspawn debootstrap dpkg-buildpackage; do
	command -v "$tool" >/dev/null || { echo "pkgtest: $tool missing (make deps)" >&2; exit 1; }
done
if [ ! -d "$base" ]; then
	echo "pkgtest: debootstrap bookworm into $base (once)"
	mkdir -p "$cache"
	rm -rf "$base.tmp"
	debootstrap --variant=minbase --components="$components" --include="$include" bookworm \
		"$base.tmp" "$mirror" \
		>"$cache/debootstrap.log" 2>&1 || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
	mv "$base.tmp" "$base"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-pkgtest.XXXXXX")
[ -n "${PKGTEST_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
"$dir/../../tools/pkg/build.sh" "$work/deb"
mkdir -p "$work/payload/out"
deb=$(ls "$work"/deb/annabella_*.deb | grep -v dbgsym)
cp "$deb" "$work/payload/annabella.deb"
"$dir/next-version.sh" "$deb" "$work/payload/annabella-next.deb"
cp "$dir/inside.sh" "$dir/stall.script" "$dir/upgrade.script" "$dir/../vm/game.script" \
	"$work/payload/"
cp -a "$base" "$work/root"
"$dir/boot.sh" "$work/root" "$work/payload" inside.sh 240 pkgtest

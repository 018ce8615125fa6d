#!/usr/bin/env bash
# The Debian package, installed into a clean Debian 12 tree booted with systemd under
# systemd-nspawn (tests/pkg/inside.sh): user and groups, conffile and drop-ins, the service
# reaching active with READY and playing a sim game (a drop-in selects the sim board), its
# status following the game, a reload, an upgrade in the middle of a game, a bad config not
# retried, the watchdog restarting a stalled daemon, `systemd-analyze security` under 2.0,
# purge, an install without a GPIO chip, and a club's upgrade from 0.9.0 (README.Debian).
# The tree (the package's dependencies, as the built package names them, and systemd) is
# made once with mmdebstrap and cached in ~/.cache/annabella-nspawn (ANNABELLA_NSPAWN_CACHE);
# each run boots a fresh copy.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
. "$dir/trees.sh"
cache=${ANNABELLA_NSPAWN_CACHE:-$HOME/.cache/annabella-nspawn}

trees_need pkgtest pkgtest systemd-nspawn mmdebstrap dpkg-buildpackage

work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-pkgtest.XXXXXX")
[ -n "${PKGTEST_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
"$dir/../../tools/pkg/build.sh" "$work/deb"
deb=$(ls "$work"/deb/annabella_*.deb | grep -v dbgsym)
version=$(dpkg-deb -f "$deb" Version)

# Besides: curl for the web page's TLS check, and what the package suggests for a clearer
# German voice (docs/speech.md "Voices"), mbrola from contrib and one German voice from
# non-free, in the tree's own sources (the machine's stay as they are), so the unit's
# sandbox is tried with an MBROLA voice.
include="systemd systemd-sysv dbus udev curl mbrola mbrola-de7 $(deb_depends "$deb")"
components=main,contrib,non-free
base=$cache/bookworm-$(tree_key "$include" "$components")
tree_once pkgtest "$base" minbase "$include" --components="$components"

mkdir -p "$work/payload/out"
cp "$deb" "$work/payload/annabella.deb"
"$dir/repack.sh" "$deb" "$work/payload/annabella-next.deb" "$version+next1" --changed
gzip -dc "$dir/annabella-0.9.0.conf.gz" >"$work/annabella-0.9.0.conf"
"$dir/repack.sh" "$deb" "$work/payload/annabella-0.9.0.deb" 0.9.0 \
	--conffile "$work/annabella-0.9.0.conf"
cp "$dir/inside.sh" "$dir/stall.script" "$dir/../vm/game.script" "$work/payload/"
cp -a "$base" "$work/root"
"$dir/boot.sh" "$work/root" "$work/payload" inside.sh 300 pkgtest

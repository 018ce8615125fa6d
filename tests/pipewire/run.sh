#!/usr/bin/env bash
# make pipewire-check BUILD: the daemon's sound where PipeWire owns the sound (Raspberry Pi
# OS with desktop, Debian with a desktop): in a Debian 12 tree with Debian's pipewire,
# pipewire-alsa (ALSA's "default" and "pipewire" devices go to PipeWire) and wireplumber,
# run under systemd-nspawn, since installing pipewire-alsa here would change this machine's
# ALSA default for everyone.  tests/pipewire/inside.sh: a desktop user's PipeWire with a sink
# of its own and no sound card; the daemon run by that user with public-device =
# pipewire and private-device = default speaks both channels into it (recorded from the
# sink's monitor: sound, not silence), and run by another user (as the service's user
# annabella is) cannot open either device, says so, and plays the game all the same.
# The tree (those packages and the libraries the daemon is linked with, found with ldd and
# dpkg -S) is made once with mmdebstrap and cached in ~/.cache/annabella-pipewire
# (ANNABELLA_PIPEWIRE_CACHE).  Last line: "pipewire: N passed, N failed".
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/pkg/trees.sh"
cache=${ANNABELLA_PIPEWIRE_CACHE:-$HOME/.cache/annabella-pipewire}
trees_need pipewire pipewire-check systemd-nspawn mmdebstrap
libs=$(for p in $(ldd "$build/annabellad" | awk '/=>/ { print $3 }'); do
	dpkg -S "$p" 2>/dev/null || dpkg -S "/usr$p" 2>/dev/null || dpkg -S "$(realpath "$p")"
done | cut -d: -f1 | sort -u | tr '\n' ' ')
include="pipewire pipewire-alsa pipewire-bin wireplumber dbus espeak-ng-data $libs"
root=$cache/bookworm-$(tree_key "$include")
tree_once pipewire "$root" minbase "$include"
work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-pipewire.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/test"
cp "$build/annabellad" "$src/tests/pipewire/inside.sh" "$work/test/"
chmod 755 "$work/test"
systemd-nspawn -q --register=no --keep-unit --private-network -D "$root" --volatile=overlay \
	--bind="$work/test:/test" /bin/bash /test/inside.sh >"$work/log" 2>&1 || true
grep '^pipewire: ' "$work/log" || { tail -30 "$work/log"; echo "pipewire: 0 passed, 1 failed"; exit 1; }
grep -q '^pipewire: [0-9]* passed, 0 failed$' "$work/log" || { sed -n '/^+/p' "$work/log" | tail -40 >&2; exit 1; }

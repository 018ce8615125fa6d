#!/usr/bin/env bash
# make fresh-check: `make demo` and `make check` as a newcomer runs them (README "Setup: two
# commands"), so that a dependency only the developer's machine has is found before a user
# finds it: a fresh Debian 12 tree (its required and important packages, as an installed
# system has them, with sudo, git and make; made once with mmdebstrap and cached in
# ~/.cache/annabella-fresh, ANNABELLA_FRESH_CACHE), booted with systemd under systemd-nspawn
# with this machine's network; a user in the group sudo with a home only they can enter
# (0700) clones the repository's committed HEAD there and runs both as themselves
# (tests/fresh/inside.sh).  Every run starts from a fresh copy of the tree, so make deps
# installs everything from Debian's archive each time.  Prints each step's result and time;
# the last line is "fresh: N passed, N failed".  FRESH_TIMEOUT (seconds, 10800) bounds the
# run; FRESH_KEEP=1 keeps the work directory (the logs are in its payload/out).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/pkg/trees.sh"
cache=${ANNABELLA_FRESH_CACHE:-$HOME/.cache/annabella-fresh}

trees_need fresh fresh-check systemd-nspawn mmdebstrap git
include="systemd-sysv dbus sudo git make ca-certificates"
root=$cache/bookworm-$(tree_key "important" "$include")
tree_once fresh "$root" important "$include"

work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-fresh.XXXXXX")
[ -n "${FRESH_KEEP:-}" ] && echo "fresh: work directory $work" || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/payload/out"
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
	echo "fresh: the tree has uncommitted changes; the newcomer clones the committed HEAD" \
		"($(git -C "$src" rev-parse --short HEAD))"
fi
git -C "$src" bundle create "$work/payload/annabella.bundle" HEAD 2>/dev/null
cp "$src/tests/fresh/inside.sh" "$work/payload/"
cp -a "$root" "$work/root"
# The network's own certificate authorities (a proxy's, which this machine trusts for HTTPS)
# are the network's, not the developer's: a fresh machine here has them too.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	cp /usr/local/share/ca-certificates/*.crt "$work/root/usr/local/share/ca-certificates/"
fi
BOOT_NETWORK=host "$src/tests/pkg/boot.sh" "$work/root" "$work/payload" inside.sh \
	"${FRESH_TIMEOUT:-10800}" fresh

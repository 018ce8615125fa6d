#!/usr/bin/env bash
# Builds the Debian package from a copy of the source tree: OUT/annabella_VERSION_ARCH.deb,
# then lintian at its default level (errors and warnings fail).  Usage: build.sh OUT
# [DPKG-BUILDPACKAGE OPTIONS...]
set -euo pipefail
out=$(realpath -m "$1")
shift
src=$(cd "$(dirname "$0")/../.." && pwd)
# ANNABELLA_PKG_WORK: a fixed directory to build in (emptied first), so that the compiler's
# commands are the same from build to build (make trixie-check's ccache).
if [ -n "${ANNABELLA_PKG_WORK:-}" ]; then
	work=$ANNABELLA_PKG_WORK
	rm -rf "$work"
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-pkg.XXXXXX")
fi
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/annabella" "$out"
# The files of the tree, without build products (git when there is one, else a copy).
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" ls-files -co --exclude-standard -z | tar -C "$src" --null -cf - -T - |
		tar -C "$work/annabella" -xf -
else
	tar -C "$src" --exclude='./build*' -cf - . | tar -C "$work/annabella" -xf -
fi
(cd "$work/annabella" && dpkg-buildpackage -us -uc -b "$@") >"$work/build.log" 2>&1 || {
	tail -40 "$work/build.log" >&2
	echo "pkg: dpkg-buildpackage failed" >&2
	exit 1
}
cp "$work"/*.deb "$out"/
deb=$(ls "$out"/annabella_*.deb | grep -v dbgsym | tail -1)
if command -v lintian >/dev/null; then
	if lintian --fail-on error,warning "$work"/*.changes >"$work/lintian.log" 2>&1; then
		echo "pkg: lintian clean"
	else
		grep -v 'running with root privileges' "$work/lintian.log" >&2
		echo "pkg: lintian failed" >&2
		exit 1
	fi
fi
echo "pkg: built $deb"

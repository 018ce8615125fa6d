#!/usr/bin/env bash
# tests/pkg/next-version.sh DEB OUT: OUT is DEB as the next version would be (its version
# with "+next1", its program files changed by a byte at their end), for the upgrade tests.
set -euo pipefail
deb=$(realpath "$1")
out=$(realpath -m "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -R "$deb" "$work/pkg"
version=$(dpkg-deb -f "$deb" Version)
sed -i "s/^Version: .*/Version: $version+next1/" "$work/pkg/DEBIAN/control"
for p in "$work"/pkg/usr/bin/*; do
	printf '\0' >>"$p"
done
# The md5sums follow the changed files.
(cd "$work/pkg" && find . -path ./DEBIAN -prune -o -type f -printf '%P\n' | sort |
	xargs md5sum) >"$work/pkg/DEBIAN/md5sums"
dpkg-deb --root-owner-group -b "$work/pkg" "$out" >/dev/null

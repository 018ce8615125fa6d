#!/usr/bin/env bash
# tests/pkg/repack.sh DEB OUT VERSION [--changed] [--conffile FILE]: OUT is DEB as another
# version would be, for the upgrade tests: its Version field VERSION; with --changed, its
# files as a new version's differ (each program a byte longer at its end, the daemon's unit
# a comment line longer, so systemd sees a changed unit file); with --conffile, FILE as its
# /etc/annabella/annabella.conf (an older version's shipped file).
set -euo pipefail
deb=$(realpath "$1")
out=$(realpath -m "$2")
version=$3
shift 3
changed=""
conffile=""
while [ $# -gt 0 ]; do
	case $1 in
	--changed) changed=1 ;;
	--conffile)
		conffile=$(realpath "$2")
		shift
		;;
	*)
		echo "repack: unknown option $1" >&2
		exit 2
		;;
	esac
	shift
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -R "$deb" "$work/pkg"
sed -i "s/^Version: .*/Version: $version/" "$work/pkg/DEBIAN/control"
if [ -n "$changed" ]; then
	for p in "$work"/pkg/usr/bin/*; do
		printf '\0' >>"$p"
	done
	unit=$(find "$work/pkg" -path '*/systemd/system/annabellad.service')
	echo "# $version" >>"$unit"
fi
[ -z "$conffile" ] || cp "$conffile" "$work/pkg/etc/annabella/annabella.conf"
# The md5sums follow the changed files.
(cd "$work/pkg" && find . -path ./DEBIAN -prune -o -type f -printf '%P\n' | sort |
	xargs md5sum) >"$work/pkg/DEBIAN/md5sums"
dpkg-deb --root-owner-group -b "$work/pkg" "$out" >/dev/null

#!/usr/bin/env bash
# tools/cross/sysroot.sh ARCH DIR PACKAGE...: the target's libraries for a cross build
# (make CROSS=...), from Debian's archive, unpacked into DIR/root.
#
# The packages are resolved and fetched by an apt of their own (DIR/apt: its own lists,
# cache and an empty status, the machine's sources), then unpacked with dpkg-deb -x: nothing
# is installed on the build machine, so the target's libraries need not be co-installable
# with the machine's own (Multi-Arch: same packages must have the same version in every
# architecture, which a machine with security updates applied and a target index a day
# behind cannot meet), and no root is needed.  Quick when DIR/root already holds the same
# list of packages.
set -euo pipefail
arch=$1
dir=$2
shift 2
want="$arch $*"
if [ -f "$dir/root.stamp" ] && [ "$(cat "$dir/root.stamp")" = "$want" ] && [ -d "$dir/root" ]; then
	exit 0
fi
echo "sysroot: $arch: fetching $* and what they need into $dir"
mkdir -p "$dir/apt/state/lists/partial" "$dir/apt/cache/archives/partial"
: >"$dir/apt/state/status"
apt=(apt-get -q -o "Dir::State=$dir/apt/state" -o "Dir::State::status=$dir/apt/state/status"
	-o "Dir::Cache=$dir/apt/cache" -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
	-o "APT::Install-Recommends=false")
# As root, apt would hand the downloads to its user _apt, who cannot write into DIR.
[ "$(id -u)" -ne 0 ] || apt+=(-o "APT::Sandbox::User=root")
log="$dir/apt.log"
# An index that fails (a mirror mid-sync) leaves the older one or the release's own: the
# sysroot is then behind on updates, which the build does not mind; a missing main index is
# an error below.
if ! "${apt[@]}" update >"$log" 2>&1; then
	grep -E '^(E|W):' "$log" | sed 's/^/sysroot: /' >&2 || true
fi
if ! ls "$dir"/apt/state/lists/*_dists_*_main_binary-"$arch"_Packages* >/dev/null 2>&1; then
	echo "sysroot: no package index for $arch (see $log)" >&2
	exit 1
fi
rm -f "$dir"/apt/cache/archives/*.deb
if ! "${apt[@]}" install -y --download-only "$@" >>"$log" 2>&1; then
	tail -20 "$log" >&2
	echo "sysroot: apt-get could not fetch the packages for $arch (see $log)" >&2
	exit 1
fi
rm -rf "$dir/root" "$dir/root.stamp"
mkdir -p "$dir/root"
for deb in "$dir"/apt/cache/archives/*.deb; do
	dpkg-deb -x "$deb" "$dir/root"
done
# Absolute symbolic links (libfoo.so -> /lib/TRIPLET/libfoo.so.1) would lead out of the
# sysroot: point them at the file inside it.
find "$dir/root" -type l -lname '/*' | while read -r link; do
	target=$(readlink "$link")
	ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$dir/root$target")" "$link"
done
echo "$want" >"$dir/root.stamp"
echo "sysroot: $arch: $(ls "$dir"/apt/cache/archives/*.deb | wc -l) packages in $dir/root"

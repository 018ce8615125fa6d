#!/usr/bin/env bash
# The VM test again with libgpiod 2.x, on Debian 12, which ships 1.6: the libgpiod3 and
# libgpiod-dev packages from Debian's bookworm-backports, fetched with a private apt state
# (the system's packages and sources are not touched) and unpacked into a cache directory;
# the daemon built against them into BUILD_DIR (rpath to that library); then
# tests/vm/run.sh BUILD_DIR.
#
#   tests/vm/gpiod2.sh BUILD_DIR
#
# Prints "gpiod2: skipped (REASON)" and exits 0 when the packages cannot be had or the
# system's libgpiod is 2.x already (Raspberry Pi OS trixie: `make vmtest` ran that).
set -euo pipefail
build=$(realpath -m "${1:?usage: gpiod2.sh BUILD_DIR}")
src=$(cd "$(dirname "$0")/../.." && pwd)
cache=${ANNABELLA_VM_CACHE:-$HOME/.cache/annabella-vm}/gpiod2
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
skip() {
	echo "gpiod2: skipped ($*)"
	exit 0
}

if pkg-config --atleast-version=2.0 libgpiod 2>/dev/null; then
	skip "the system's libgpiod is 2.x: the first VM run used it"
fi
root=$cache/root
if [ ! -f "$root/usr/lib/$multiarch/pkgconfig/libgpiod.pc" ]; then
	apt=$cache/apt
	rm -rf "$apt" "$root"
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$root"
	echo "deb $mirror bookworm-backports main" >"$apt/sources.list"
	opts=(-o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts=/dev/null
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache::archives="$apt/archives"
		-o Dir::State::status=/dev/null -o APT::Sandbox::User=root)
	apt-get "${opts[@]}" -qq update >"$cache/apt.log" 2>&1 || skip "no bookworm-backports"
	version=$(apt-cache "${opts[@]}" show libgpiod-dev 2>/dev/null |
		sed -n 's/^Version: \(2\..*\)/\1/p' | head -1)
	[ -n "$version" ] || skip "no libgpiod-dev 2.x in bookworm-backports"
	(cd "$apt/archives" && apt-get "${opts[@]}" -qq download "libgpiod-dev=$version" \
		"libgpiod3=$version") >>"$cache/apt.log" 2>&1 || skip "cannot download libgpiod $version"
	for deb in "$apt"/archives/*.deb; do dpkg-deb -x "$deb" "$root"; done
	# The .pc file names /usr: point it at the unpacked tree.
	sed -i "s|^prefix=.*|prefix=$root/usr|" "$root/usr/lib/$multiarch/pkgconfig/libgpiod.pc"
	rm -rf "$apt"
fi
export PKG_CONFIG_PATH=$root/usr/lib/$multiarch/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
version=$(pkg-config --modversion libgpiod)
pkg-config --atleast-version=2.0 libgpiod || skip "libgpiod $version is not 2.x"
make -C "$src" --no-print-directory -j2 BUILD="$build" \
	LDFLAGS="-Wl,-rpath,$root/usr/lib/$multiarch" "$build/annabellad" >/dev/null
ldd "$build/annabellad" | grep -q "$root/usr/lib/$multiarch/libgpiod.so.3" ||
	{ echo "gpiod2: $build/annabellad is not linked against $root" >&2; exit 1; }
echo "gpiod2: libgpiod $version ($arch)"
exec "$src/tests/vm/run.sh" "$build"

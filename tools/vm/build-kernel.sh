#!/usr/bin/env bash
# Build (once) a small x86_64 Linux kernel with the GPIO simulator for the VM test, from
# Debian's linux-source package: `make tinyconfig` plus tools/vm/config.fragment.
#
#   tools/vm/build-kernel.sh            prints the path of the bzImage as its last line
#
# The modules the test loads (i2c-stub.ko) are kept next to the image as IMAGE.modules/.
#
# The bzImage is cached under $ANNABELLA_VM_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/annabella-vm/), keyed by the kernel source version and the
# config fragment: a second run with the same inputs only prints the path.
# Environment: KERNEL_SOURCE_PKG (default linux-source-6.1), JOBS (default: nproc).
# Build dependencies are installed with apt-get when missing (needs root or sudo).
# Exit status: 0 built or cached; 3 impossible here (no package manager, no root, no source);
# anything else: the build failed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/config.fragment
pkg=${KERNEL_SOURCE_PKG:-linux-source-6.1}
cache=${ANNABELLA_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/annabella-vm}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

say() { echo "build-kernel: $*" >&2; }
impossible() {
	say "$*"
	exit 3
}

# ------------------------------------------------------------------ dependencies
deps=(build-essential bc bison flex libelf-dev libssl-dev xz-utils "$pkg")

missing_packages() {
	local p
	for p in "${deps[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			echo "$p"
	done
}

install_deps() {
	local missing sudo=
	command -v dpkg-query >/dev/null || impossible "no dpkg: install ${deps[*]} by hand"
	mapfile -t missing < <(missing_packages)
	((${#missing[@]})) || return 0
	if ((EUID != 0)); then
		if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
			sudo=sudo
		else
			impossible "missing ${missing[*]} and not root"
		fi
	fi
	command -v apt-get >/dev/null || impossible "missing ${missing[*]} and no apt-get"
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
		# The package lists may be stale or absent: refresh them once and retry.
		$sudo apt-get update >&2 || impossible "apt-get update failed"
		$sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
			impossible "cannot install ${missing[*]}"
	fi
}

install_deps

version=$(dpkg-query -W -f='${Version}' "$pkg")
tarball=$(dpkg-query -L "$pkg" | grep -E '/usr/src/linux-source-[^/]*\.tar\.(xz|bz2|gz)$' | head -n1)
[[ -n $tarball && -r $tarball ]] || impossible "no source tarball in $pkg"

# The key: source version, fragment, and this script's kernel-side steps.
key=$( {
	echo "$pkg $version"
	cat "$fragment"
	echo "tinyconfig x86_64 bzImage modules v2"
} | sha256sum | cut -c1-16)
image=$cache/bzImage-$version-$key
modules=$image.modules

mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9

if [[ -s $image && -d $modules ]]; then
	say "cached: $image"
	echo "$image"
	exit 0
fi

# ------------------------------------------------------------------ source
src=$cache/src-$version
if [[ ! -f $src/.unpacked ]]; then
	say "unpacking $tarball"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	touch "$src.tmp/.unpacked"
	mv "$src.tmp" "$src"
fi

# ------------------------------------------------------------------ configure and build
out=$cache/build-$key
rm -rf "$out"
mkdir -p "$out"
kmake() { make -C "$src" O="$out" ARCH=x86_64 "$@"; }

start=$(date +%s)
say "configuring in $out"
kmake tinyconfig >"$out/config.log" 2>&1
(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config "$fragment") \
	>>"$out/config.log" 2>&1
kmake olddefconfig >>"$out/config.log" 2>&1

# Every option the fragment asks for must have survived the dependency resolution.
bad=0
while IFS= read -r line; do
	if [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
		if grep -q "^${BASH_REMATCH[1]}=" "$out/.config"; then
			say "option not taken: $line (have: $(grep "^${BASH_REMATCH[1]}=" "$out/.config"))"
			bad=1
		fi
		continue
	fi
	[[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]] || continue
	if ! grep -qxF "$line" "$out/.config"; then
		say "option not taken: $line (have: $(grep -E "^(# )?${BASH_REMATCH[1]}[= ]" "$out/.config" || echo unset))"
		bad=1
	fi
done <"$fragment"
((bad == 0)) || {
	say "configuration failed, see $out/config.log"
	exit 1
}

say "building bzImage and modules with $jobs jobs (log: $out/build.log)"
if ! kmake -j"$jobs" bzImage modules >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	say "kernel build failed, see $out/build.log"
	exit 1
fi
cp "$out/arch/x86/boot/bzImage" "$image.tmp"
cp "$out/.config" "$image.config"
rm -rf "$modules" "$modules.tmp"
mkdir -p "$modules.tmp"
find "$out" -name '*.ko' -exec cp {} "$modules.tmp/" \;
mv "$modules.tmp" "$modules"
mv "$image.tmp" "$image"
say "built $image in $(($(date +%s) - start)) s"
# The object tree is only needed to rebuild; the bzImage and its .config are kept.
rm -rf "$out"
echo "$image"

#!/usr/bin/env bash
# make trixie-check: the project on Debian 13 (trixie), which Raspberry Pi OS is built on,
# for amd64 and arm64.
#  1. In a Debian 13 amd64 build tree: the build with -Werror and no warning, the unit tests,
#     the golden replays, the amd64 package and the arm64 package (a cross build,
#     dpkg-buildpackage -a arm64), each lintian clean (tests/trixie/build-inside.sh).
#  2. The amd64 package installed into a Debian 13 tree booted with systemd under
#     systemd-nspawn -b: tests/pkg/inside.sh, as make pkgtest does on Debian 12 (READY with a
#     sim board through a drop-in, configuration drop-ins, an upgrade mid-game, the
#     watchdog, the sandbox, purge, an install without a GPIO chip).
#  3. The arm64 package installed into an arm64 Debian 13 tree booted the same way under
#     qemu-user-static (binfmt_misc): READY, and the demo game played through the service
#     with the same scoresheet as on amd64 (tests/trixie/inside-demo.sh).  Debian 12's qemu
#     (7.2) cannot run Debian 13's systemd (every unit fails with "Failed to spawn executor:
#     Invalid argument"; systemd issue 31219): for that boot the kernel is given Debian 13's
#     qemu-user (10.0, from the archive, cached) as binfmt_misc entry annabella-aarch64, the
#     machine's own qemu-aarch64 entry is switched off, and both are put back at the end.
# The trees are debootstrapped once from Debian's archive and cached in
# ~/.cache/annabella-trixie (ANNABELLA_TRIXIE_CACHE), each named after its package list;
# every run works on fresh copies.  TRIXIE_ARCHES (default "amd64 arm64") chooses which
# packages are installed and booted.  Last line: "trixie: N passed, N failed".
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
pkg=$src/tests/pkg
cache=${ANNABELLA_TRIXIE_CACHE:-$HOME/.cache/annabella-trixie}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
t0=$(date +%s)
say() { echo "trixie: $* ($(($(date +%s) - t0)) s)"; }

boot=systemd,systemd-sysv,dbus,udev
# What the package depends on in Debian 13, so dpkg -i needs no network in the container.
runtime=libgpiod3,libespeak-ng1,espeak-ng-data,libopus0,libogg0,libasound2t64,libinih1,libbrlapi0.8,libreadline8t64,libmicrohttpd12t64,libmosquitto1,libcurl4t64
libs="libgpiod-dev libespeak-ng-dev libopus-dev libogg-dev libasound2-dev libinih-dev libbrlapi-dev
libreadline-dev libmicrohttpd-dev libmosquitto-dev libcurl4-openssl-dev"
# The build, the unit tests (espeak-ng itself: the process engine) and the golden replays; the
# arm64 package through multiarch, with the target's pkgconf for its pkg-config.
dev="build-essential pkg-config debhelper fakeroot lintian dpkg-dev systemd-dev espeak-ng-data
espeak-ng libcmocka-dev python3 crossbuild-essential-arm64 pkgconf:arm64 $libs
$(printf '%s:arm64 ' $libs)"
key() { printf '%s' "$*" | cksum | cut -d' ' -f1; }

for tool in systemd-nspawn debootstrap; do
	command -v "$tool" >/dev/null || { echo "trixie: $tool missing (make trixie-check installs it)" >&2; exit 1; }
done
[ -x /usr/bin/qemu-aarch64-static ] || { echo "trixie: qemu-user-static missing" >&2; exit 1; }
mkdir -p "$cache"

# debootstrap NAME ARCH INCLUDE: $cache/NAME, once.  A foreign architecture's second stage
# runs under qemu-user, whose interpreter stays in the tree for booting it later.
bootstrap() {
	local name=$1 arch=$2 include=$3 tmp=$cache/$1.tmp log=$cache/$1.log
	[ -d "$cache/$name" ] && return 0
	say "debootstrap $arch into $cache/$name (once)"
	rm -rf "$tmp"
	if [ "$arch" = amd64 ]; then
		debootstrap --variant=minbase --include="$include" trixie "$tmp" "$mirror" >"$log" 2>&1
	else
		debootstrap --foreign --arch="$arch" --variant=minbase --include="$include" trixie \
			"$tmp" "$mirror" >"$log" 2>&1 &&
			install -D -m 0755 /usr/bin/qemu-aarch64-static \
				"$tmp/usr/libexec/qemu-binfmt/aarch64-binfmt-P" &&
			chroot "$tmp" /debootstrap/debootstrap --second-stage >>"$log" 2>&1
	fi || {
		tail -20 "$log" >&2
		echo "trixie: debootstrap $name failed (see $log)" >&2
		exit 1
	}
	mv "$tmp" "$cache/$name"
}

devroot=dev-amd64-$(key "$dev")
amd64root=run-amd64-$(key "$boot,$runtime")
arm64root=run-arm64-$(key "$boot,$runtime")
arches=${TRIXIE_ARCHES:-amd64 arm64}
case " $arches " in *" amd64 "*) bootstrap "$amd64root" amd64 "$boot,$runtime" ;; esac
case " $arches " in *" arm64 "*) bootstrap "$arm64root" arm64 "$boot,$runtime" ;; esac
if [ ! -d "$cache/$devroot" ]; then
	bootstrap "$devroot.base" amd64 ca-certificates
	say "the build tree's packages into $cache/$devroot (once)"
	rm -rf "$cache/$devroot.tmp"
	cp -a "$cache/$devroot.base" "$cache/$devroot.tmp"
	# shellcheck disable=SC2086
	systemd-nspawn -q --register=no --keep-unit -D "$cache/$devroot.tmp" /bin/sh -c "
		set -e
		export DEBIAN_FRONTEND=noninteractive
		dpkg --add-architecture arm64
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends $(echo $dev)
		apt-get clean" >"$cache/$devroot.log" 2>&1 || {
		tail -20 "$cache/$devroot.log" >&2
		echo "trixie: the build tree's packages failed (see $cache/$devroot.log)" >&2
		exit 1
	}
	mv "$cache/$devroot.tmp" "$cache/$devroot"
	rm -rf "$cache/$devroot.base"
fi
say "trees ready"

work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-trixie.XXXXXX")
[ -n "${TRIXIE_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/out"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" ls-files -co --exclude-standard -z | tar -C "$src" --null -cf - -T - |
		tar -C "$work/src" -xf -
else
	tar -C "$src" --exclude='./build*' -cf - . | tar -C "$work/src" -xf -
fi

# 1. Build, tests and packages, in a throwaway layer over the build tree.
systemd-nspawn -q --register=no --keep-unit -D "$cache/$devroot" --volatile=overlay \
	--bind-ro="$work/src:/src-ro" --bind="$work/out:/out" \
	/bin/bash -c 'cp -a /src-ro /src && /src/tests/trixie/build-inside.sh' \
	>"$work/build-console.log" 2>&1 || true
if [ ! -f "$work/out/results" ]; then
	tail -20 "$work/build-console.log" >&2
	echo "trixie: the build in the container did not run" >&2
	echo "trixie: 0 passed, 1 failed"
	exit 1
fi
sed 's/^/trixie: build: /' "$work/out/results"
sed 's/^/trixie: /' "$work/out/summary" 2>/dev/null || true
if grep -q 'FAIL build-without-warnings' "$work/out/results"; then
	head -20 "$work/out/warnings.log" >&2
fi
for f in build unit regress package-amd64 package-arm64 demo; do
	grep -q "^FAIL $f\$" "$work/out/results" && tail -30 "$work/out/$f.log" >&2
done
passed=$(grep -c '^ok' "$work/out/results" || true)
failed=$(grep -c '^FAIL' "$work/out/results" || true)
say "built and tested"

# Debian 13's qemu-user for the arm64 boot, unpacked from the archive once.
qemu10=$cache/qemu-user/usr/bin/qemu-aarch64
binfmt=/proc/sys/fs/binfmt_misc
qemu_entry_was=""
restore_binfmt() {
	[ -e "$binfmt/annabella-aarch64" ] && echo -1 >"$binfmt/annabella-aarch64"
	[ "$qemu_entry_was" = enabled ] && echo 1 >"$binfmt/qemu-aarch64"
	qemu_entry_was=""
}
use_qemu10() {
	if [ ! -x "$qemu10" ]; then
		rm -rf "$cache/qemu-user" "$cache/qemu-user.tmp"
		mkdir -p "$cache/qemu-user.tmp"
		systemd-nspawn -q --register=no --keep-unit -D "$cache/$devroot" --volatile=overlay \
			--bind="$cache/qemu-user.tmp:/out" /bin/sh -c \
			'cd /out && apt-get update -qq && apt-get download -qq qemu-user' \
			>"$cache/qemu-user.log" 2>&1 &&
			dpkg-deb -x "$cache"/qemu-user.tmp/qemu-user_*.deb "$cache/qemu-user" || {
			tail -5 "$cache/qemu-user.log" >&2
			echo "trixie: cannot fetch Debian 13's qemu-user" >&2
			return 1
		}
		rm -rf "$cache/qemu-user.tmp"
	fi
	[ -e "$binfmt/status" ] || mount -t binfmt_misc binfmt_misc "$binfmt"
	[ -e "$binfmt/annabella-aarch64" ] && echo -1 >"$binfmt/annabella-aarch64"
	# The ELF header of an arm64 program, as Debian's qemu-user-binfmt registers it.
	printf ':annabella-aarch64:M::%s:%s:%s:POCF\n' \
		'\x7f\x45\x4c\x46\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00' \
		'\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff' \
		"$qemu10" >"$binfmt/register" || return 1
	# The kernel takes the first entry that matches: the machine's own must stand aside.
	if [ -e "$binfmt/qemu-aarch64" ] && head -1 "$binfmt/qemu-aarch64" | grep -qx enabled; then
		qemu_entry_was=enabled
		echo 0 >"$binfmt/qemu-aarch64"
	fi
}

# 2. and 3. Installed and booted.
install_test() { # ARCH ROOT SCRIPT TIMEOUT FILES...
	local arch=$1 root=$2 script=$3 timeout=$4 deb
	shift 4
	deb=$(ls "$work"/out/"$arch"/annabella_*_"$arch".deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then
		echo "trixie: no $arch package to install"
		failed=$((failed + 1))
		return
	fi
	mkdir -p "$work/payload-$arch/out"
	cp "$deb" "$work/payload-$arch/annabella.deb"
	cp "$@" "$work/payload-$arch/"
	[ "$arch" = amd64 ] && "$pkg/next-version.sh" "$deb" "$work/payload-$arch/annabella-next.deb"
	rm -rf "$work/root-$arch"
	cp -a "$cache/$root" "$work/root-$arch"
	"$pkg/boot.sh" "$work/root-$arch" "$work/payload-$arch" "$script" "$timeout" \
		"trixie-$arch" | tee "$work/boot-$arch.log" | grep -v ' passed, .* failed$' || true
	passed=$((passed + $(grep -c "^trixie-$arch: ok" "$work/boot-$arch.log" || true)))
	failed=$((failed + $(grep -c "^trixie-$arch: FAIL" "$work/boot-$arch.log" || true)))
	grep -q "did not finish" "$work/boot-$arch.log" && failed=$((failed + 1))
	say "$arch package installed and booted"
}
case " $arches " in *" amd64 "*)
	install_test amd64 "$amd64root" inside.sh 300 "$pkg/inside.sh" "$pkg/stall.script" \
		"$pkg/upgrade.script" "$src/tests/vm/game.script"
	;;
esac
case " $arches " in *" arm64 "*)
	trap 'restore_binfmt; [ -n "${TRIXIE_KEEP:-}" ] || rm -rf "$work"' EXIT
	if use_qemu10; then
		install_test arm64 "$arm64root" inside-demo.sh 1500 \
			"$src/tests/trixie/inside-demo.sh" "$work/out/demo.script" "$work/out/demo.conf" \
			"$work/out/demo-expected.pgn"
	else
		failed=$((failed + 1))
	fi
	restore_binfmt
	;;
esac
say "done"
echo "trixie: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

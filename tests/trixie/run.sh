#!/usr/bin/env bash
# make trixie-check: the project on Debian 13 (trixie), which Raspberry Pi OS is built on,
# for amd64 and arm64.
#  1. In a Debian 13 amd64 build tree: the build with -Werror and no warning, the unit tests,
#     the golden replays, the amd64 package and the arm64 package (a cross build,
#     dpkg-buildpackage -a arm64), each lintian clean, and the demo
#     (tests/trixie/build-inside.sh).  The tree holds what debian/control's Build-Depends
#     names, for amd64 and for arm64 (apt-get build-dep reads the file itself), and the
#     Makefile's DEB_UNIT and DEB_PACKAGE (make print-VAR): the lists the project keeps, so
#     the tree cannot miss what they name.
#  2. The amd64 package installed into a Debian 13 tree booted with systemd under
#     systemd-nspawn -b: tests/pkg/inside.sh, as make pkgtest does on Debian 12 (READY with a
#     sim board through a drop-in, its status, a reload, configuration drop-ins, an upgrade
#     mid-game, the watchdog, the sandbox, purge, an install without a GPIO chip, an upgrade
#     from 0.9.0).
#  3. The arm64 package installed into an arm64 Debian 13 tree booted the same way under
#     qemu-user: READY, and the demo game played through the service with the same
#     scoresheet as on amd64 (tests/trixie/inside-demo.sh).  Debian 12's qemu (7.2) cannot
#     run Debian 13's systemd (every unit fails with "Failed to spawn executor: Invalid
#     argument"; systemd issue 31219), so Debian 13's qemu-user (10.0, static, from the
#     archive, cached) is given to the kernel as binfmt_misc entry annabella-aarch64 for the
#     arm64 tree's making and its boot; the machine's own qemu-aarch64 entry, if enabled,
#     stands aside meanwhile, and both are put back at the end.
# Each boot starts as soon as its package is built, beside the rest of the build; the build's
# compiler goes through ccache, kept in the cache.  The trees are made with mmdebstrap
# (tests/pkg/trees.sh: apt resolves and fetches on this machine, so no Perl runs under
# emulation) once and cached in ~/.cache/annabella-trixie (ANNABELLA_TRIXIE_CACHE), each
# named after what it holds (the boot trees: the built package's dependencies); every run
# works on fresh copies or a throwaway layer.  TRIXIE_ARCHES (default "amd64 arm64") chooses which packages are
# installed and booted; TRIXIE_KEEP=1 keeps the work directory.
#
# Every stage is reported, "trixie: ok NAME", "trixie: FAIL NAME" or "trixie: not run NAME:
# WHY" (one that could not run because one before it failed), with the time each part took;
# the last line is always "trixie: N passed, N failed, N not run", whatever happened.
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
pkg=$src/tests/pkg
. "$pkg/trees.sh"
cache=${ANNABELLA_TRIXIE_CACHE:-$HOME/.cache/annabella-trixie}
arches=${TRIXIE_ARCHES:-amd64 arm64}
t0=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/annabella-trixie.XXXXXX") || exit 1
results=$work/results
: >"$results"

say() { echo "trixie: $* ($(($(date +%s) - t0)) s)"; }
res() { echo "$*" >>"$results"; }
notrun() { # WHY NAME...
	local why=$1 name
	shift
	for name in "$@"; do res NOTRUN "$name: $why"; done
}
wants() { [[ " $arches " == *" $1 "* ]]; } # ARCH: chosen by TRIXIE_ARCHES
timed() { # NAME COMMAND...: the command, its time noted
	local start=$SECONDS status
	"${@:2}"
	status=$?
	echo "$1 $((SECONDS - start)) s" >>"$work/times"
	return $status
}

# binfmt_misc: Debian 13's qemu for arm64 while the arm64 tree is made and booted.
binfmt=/proc/sys/fs/binfmt_misc
qemu10=$cache/qemu-user/usr/bin/qemu-aarch64
qemu_entry_was=""
restore_binfmt() {
	[ -e "$binfmt/annabella-aarch64" ] && echo -1 >"$binfmt/annabella-aarch64"
	[ "$qemu_entry_was" = enabled ] && echo 1 >"$binfmt/qemu-aarch64"
	qemu_entry_was=""
}

finish() {
	local passed failed notrun_count stage
	restore_binfmt
	# Whatever stopped the script: every stage it did not reach is said.
	for stage in ${expected:-}; do
		grep -Eq "^(ok|FAIL|NOTRUN) $stage(:| |\$)" "$results" ||
			res NOTRUN "$stage: the script stopped before it"
	done
	sed -e 's/^ok /trixie: ok /' -e 's/^FAIL /trixie: FAIL /' \
		-e 's/^NOTRUN /trixie: not run /' "$results"
	[ -f "$work/summary" ] && sed 's/^/trixie: /' "$work/summary"
	[ -f "$work/times" ] && echo "trixie: times: $(paste -sd, "$work/times" | sed 's/,/, /g')"
	passed=$(grep -c '^ok ' "$results")
	failed=$(grep -c '^FAIL ' "$results")
	notrun_count=$(grep -c '^NOTRUN ' "$results")
	say "done"
	echo "trixie: $passed passed, $failed failed, $notrun_count not run"
	[ -n "${TRIXIE_KEEP:-}" ] && echo "trixie: kept $work" || rm -rf "$work"
	[ "$failed" -eq 0 ] && [ "$notrun_count" -eq 0 ] && [ "$passed" -gt 0 ]
	exit
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

inside_stages=$(bash "$src/tests/trixie/build-inside.sh" --list)
boot_stages=""
wants amd64 && boot_stages="tree-amd64 boot-amd64"
wants arm64 && boot_stages="$boot_stages qemu-user tree-arm64 boot-arm64"
expected="tree-build build-container $inside_stages $boot_stages"
missing=""
for tool in systemd-nspawn mmdebstrap dpkg-deb make; do
	command -v "$tool" >/dev/null || missing="$missing $tool"
done
[ "$(id -u)" -eq 0 ] || missing="$missing root"
if [ -n "$missing" ]; then
	res FAIL "tools: missing$missing (make trixie-check installs them; run it as root)"
	# shellcheck disable=SC2086
	notrun "no tools" tree-build build-container $inside_stages $boot_stages
	exit 1
fi
mkdir -p "$cache"

# ------------------------------------------------------------------ 1. the build tree
unit=$(make -s --no-print-directory -C "$src" print-DEB_UNIT print-DEB_PACKAGE | tr '\n' ' ')
build_depends=$(sed -n '/^Build-Depends:/,/^[^ ]/p' "$src/debian/control")
devroot=$cache/dev-$(tree_key "mmdebstrap 4" "$build_depends" "$unit")
if [ ! -d "$devroot" ]; then
	say "the build tree into $devroot (once)"
	mkdir -p "$work/control/debian"
	cp "$src/debian/control" "$work/control/debian/"
	# shellcheck disable=SC2016
	# Without the libraries' manual pages (section 3): an arm64 -dev package may carry one
	# that differs from amd64's (libpsl-dev's libpsl.3.gz in Debian 13), which dpkg then
	# refuses to install beside it.  The rest stays as installed (test_fairplay checks bash's
	# files against dpkg's sums).
	timed tree-build tree_make "$devroot" "$cache/dev.log" trixie amd64,arm64 apt \
		"$unit crossbuild-essential-arm64 ccache" \
		--dpkgopt='path-exclude=/usr/share/man/man3/*' \
		--customize-hook="mkdir -p \"\$1/tmp/annabella/debian\"" \
		--customize-hook="copy-in $work/control/debian/control /tmp/annabella/debian" \
		--customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q /tmp/annabella' \
		--customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q -a arm64 /tmp/annabella' \
		--customize-hook='chroot "$1" update-ccache-symlinks' \
		--customize-hook='rm -rf "$1/tmp/annabella"'
fi
if [ -d "$devroot" ]; then
	res ok tree-build
else
	res FAIL "tree-build (see $cache/dev.log)"
	# shellcheck disable=SC2086
	notrun "no build tree" build-container $inside_stages $boot_stages
	exit 1
fi
say "build tree ready"

mkdir -p "$work/src" "$work/out" "$cache/ccache"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" ls-files -co --exclude-standard -z | tar -C "$src" --null -cf - -T - |
		tar -C "$work/src" -xf -
else
	tar -C "$src" --exclude='./build*' -cf - . | tar -C "$work/src" -xf -
fi
# ------------------------------------------------------------------ 2. and 3. booted
# The boot tree for ARCH, with what DEB depends on (the names are the same for both
# architectures, so the amd64 package's serve for an early start of the arm64 tree); its
# path in $work/tree-ARCH, its result in $work/results-tree-ARCH.
tree_arch() { # ARCH DEB
	local arch=$1 deb=$2 include root out
	out=$work/results-tree-$arch
	include="systemd systemd-sysv dbus udev $(deb_depends "$deb")"
	# The amd64 test (tests/pkg/inside.sh) fetches the web page over TLS with curl.
	[ "$arch" = amd64 ] && include="$include curl"
	root=$cache/run-$arch-$(tree_key "mmdebstrap 1" "$include")
	if [ ! -d "$root" ]; then
		say "the $arch boot tree into $root (once)"
		timed "tree-$arch" tree_make "$root" "$cache/run-$arch.log" trixie "$arch" minbase \
			"$include"
	fi
	if [ -d "$root" ]; then
		echo "ok tree-$arch" >"$out"
		echo "$root" >"$work/tree-$arch"
	else
		echo "FAIL tree-$arch (see $cache/run-$arch.log)" >"$out"
		rm -f "$work/tree-$arch"
	fi
}

# The ARCH package installed and booted (tests/pkg/boot.sh) in a copy of its tree; its
# results in $work/results-boot-ARCH.
boot_arch() { # ARCH SCRIPT TIMEOUT FILES...
	local arch=$1 script=$2 timeout=$3 deb root out
	shift 3
	out=$work/results-boot-$arch
	deb=$(ls "$work"/out/"$arch"/annabella_*_"$arch".deb 2>/dev/null | head -1)
	tree_arch "$arch" "$deb"
	if [ ! -f "$work/tree-$arch" ]; then
		echo "NOTRUN boot-$arch: no boot tree" >"$out"
		return
	fi
	root=$(cat "$work/tree-$arch")
	mkdir -p "$work/payload-$arch/out"
	cp "$deb" "$work/payload-$arch/annabella.deb"
	cp "$@" "$work/payload-$arch/"
	if [ "$arch" = amd64 ]; then
		"$pkg/repack.sh" "$deb" "$work/payload-$arch/annabella-next.deb" \
			"$(dpkg-deb -f "$deb" Version)+next1" --changed
		gzip -dc "$pkg/annabella-0.9.0.conf.gz" >"$work/annabella-0.9.0.conf"
		"$pkg/repack.sh" "$deb" "$work/payload-$arch/annabella-0.9.0.deb" 0.9.0 \
			--conffile "$work/annabella-0.9.0.conf"
	fi
	rm -rf "$work/root-$arch"
	cp -a "$root" "$work/root-$arch"
	timed "boot-$arch" "$pkg/boot.sh" "$work/root-$arch" "$work/payload-$arch" "$script" \
		"$timeout" "trixie-$arch" >"$work/boot-$arch.log" 2>&1
	grep -v ' passed, .* failed$' "$work/boot-$arch.log" | grep -v "^trixie-$arch: \(ok\|FAIL\) " >&2
	if grep -q "did not finish" "$work/boot-$arch.log"; then
		echo "FAIL boot-$arch: the test in the container did not finish" >"$out"
	else
		echo "ok boot-$arch" >"$out"
	fi
	sed -n "s/^trixie-$arch: ok /ok $arch: /p; s/^trixie-$arch: FAIL /FAIL $arch: /p" \
		"$work/boot-$arch.log" >>"$out"
	rm -rf "$work/root-$arch"
	say "$arch package installed and booted"
}

# Debian 13's qemu-user, unpacked from the archive once; registered for the kernel.
use_qemu10() {
	if [ ! -x "$qemu10" ]; then
		rm -rf "$cache/qemu-user" "$cache/qemu-user.tmp"
		mkdir -p "$cache/qemu-user.tmp"
		systemd-nspawn -q --register=no --keep-unit -D "$devroot" --volatile=overlay \
			--bind="$cache/qemu-user.tmp:/out" /bin/sh -c \
			'cd /out && apt-get update -qq && apt-get download -qq qemu-user' \
			>"$cache/qemu-user.log" 2>&1 &&
			dpkg-deb -x "$cache"/qemu-user.tmp/qemu-user_*.deb "$cache/qemu-user" || {
			tail -5 "$cache/qemu-user.log" >&2
			return 1
		}
		rm -rf "$cache/qemu-user.tmp"
	fi
	[ -e "$binfmt/status" ] || mount -t binfmt_misc binfmt_misc "$binfmt" || return 1
	[ -e "$binfmt/annabella-aarch64" ] && echo -1 >"$binfmt/annabella-aarch64"
	# The ELF header of an arm64 program, as Debian's qemu-user-binfmt registers it; F: the
	# interpreter is opened now, so the trees need no copy of it.
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

# Debian 13's qemu for the arm64 tree and boot, before the build: it is ready when they are.
qemu_ok=""
if wants arm64; then
	if timed qemu-user use_qemu10; then
		res ok qemu-user
		qemu_ok=1
	else
		res "FAIL qemu-user: cannot fetch or register Debian 13's qemu-user (see $cache/qemu-user.log)"
		notrun "no qemu-user" tree-arm64 boot-arm64
	fi
fi

# ------------------------------------------------------------------ 1. built, 2. and 3. booted
# The build, tests and packages run in a throwaway layer over the build tree; each boot
# starts as soon as what it needs is built (build-inside.sh marks each package and the demo
# done), beside the rest of the build.
timed build-and-packages systemd-nspawn -q --register=no --keep-unit -D "$devroot" \
	--volatile=overlay --bind-ro="$work/src:/src-ro" --bind="$work/out:/out" \
	--bind="$cache/ccache:/ccache" \
	/bin/bash -c 'cp -a /src-ro /src && /src/tests/trixie/build-inside.sh' \
	>"$work/build-console.log" 2>&1 &
build_job=$!
amd64_job=""
arm64_tree_job=""
arm64_job=""
start_arm64() {
	boot_arch arm64 inside-demo.sh 1500 "$src/tests/trixie/inside-demo.sh" \
		"$work/out/demo.script" "$work/out/demo.conf" "$work/out/demo-expected.pgn"
}
amd64_deb() { ls "$work"/out/amd64/annabella_*_amd64.deb 2>/dev/null | head -1; }
while :; do
	building=""
	kill -0 "$build_job" 2>/dev/null && building=1
	if [ -f "$work/out/package-amd64.done" ]; then
		if wants amd64 && [ -z "$amd64_job" ]; then
			boot_arch amd64 inside.sh 420 "$pkg/inside.sh" "$pkg/stall.script" \
				"$src/tests/vm/game.script" &
			amd64_job=$!
		fi
		if [ -n "$qemu_ok" ] && [ -z "$arm64_tree_job" ]; then
			tree_arch arm64 "$(amd64_deb)" &
			arm64_tree_job=$!
		fi
	fi
	if [ -n "$qemu_ok" ] && [ -z "$arm64_job" ] && [ -f "$work/out/package-arm64.done" ] &&
		[ -f "$work/out/demo.done" ] && { [ -z "$arm64_tree_job" ] || ! kill -0 "$arm64_tree_job" 2>/dev/null; }; then
		start_arm64 &
		arm64_job=$!
	fi
	[ -n "$building" ] || break
	sleep 2
done
wait "$build_job"
if grep -qx done "$work/out/results" 2>/dev/null; then
	res ok build-container
	grep -v '^done$' "$work/out/results" >>"$results"
	cp "$work/out/summary" "$work/summary" 2>/dev/null
	sed 's/^/  /' "$work/out/times" >>"$work/times"
	grep -q '^FAIL build-without-warnings' "$work/out/results" && head -20 "$work/out/warnings.log" >&2
	for f in build unit regress package-amd64 package-arm64 demo; do
		grep -q "^FAIL $f\$" "$work/out/results" || continue
		# The unit tests' failures (cmocka's lines), else the log's end.
		{ [ "$f" = unit ] && grep -E '^FAILED|\[  (ERROR|FAILED) |\[   LINE' "$work/out/$f.log"; } >&2 ||
			tail -40 "$work/out/$f.log" >&2
	done
else
	tail -20 "$work/build-console.log" >&2
	res FAIL "build-container: the build in the container did not finish"
	# The stages it reported, and the rest as not run.
	[ -f "$work/out/results" ] && grep -v '^done$' "$work/out/results" >>"$results"
	for s in $inside_stages; do
		grep -Eq "^(ok|FAIL|NOTRUN) $s( |:|\$)" "$results" || notrun "the build container stopped" "$s"
	done
fi
say "built and tested"
# The boots that could not start: why.
if wants amd64 && [ -z "$amd64_job" ]; then
	notrun "no amd64 package" tree-amd64 boot-amd64
fi
if [ -n "$qemu_ok" ] && [ -z "$arm64_job" ]; then
	[ -n "$arm64_tree_job" ] && wait "$arm64_tree_job"
	[ -n "$arm64_tree_job" ] || notrun "no package to take the dependencies from" tree-arm64
	if [ ! -f "$work/out/package-arm64.done" ]; then
		notrun "no arm64 package" boot-arm64
	elif [ ! -f "$work/out/demo.done" ]; then
		notrun "no demo game from the build" boot-arm64
	else
		start_arm64
	fi
fi
for job in $amd64_job $arm64_tree_job $arm64_job; do wait "$job"; done
for f in tree-amd64 boot-amd64 tree-arm64 boot-arm64; do
	[ -f "$work/results-$f" ] && cat "$work/results-$f" >>"$results"
done
exit 0

#!/usr/bin/env bash
# tools/cross/binfmt.sh QEMU_ARCH...: the kernel runs those architectures' programs through
# qemu-user-static (binfmt_misc), so the tests and scripts can start them as they are.
set -euo pipefail
dir=/proc/sys/fs/binfmt_misc
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# A container may not have binfmt_misc mounted (update-binfmts mounts it where it can).
if [ ! -e $dir/status ]; then
	$sudo mount -t binfmt_misc binfmt_misc $dir 2>/dev/null || true
fi
for a in "$@"; do
	if [ ! -e "$dir/qemu-$a" ]; then
		$sudo update-binfmts --enable "qemu-$a" >/dev/null 2>&1 || true
	fi
	if ! grep -q '^enabled' "$dir/qemu-$a" 2>/dev/null; then
		echo "binfmt: qemu-$a is not registered with binfmt_misc: the kernel cannot run" \
			"its programs (mount binfmt_misc on $dir, then update-binfmts --enable qemu-$a)" >&2
		exit 1
	fi
done

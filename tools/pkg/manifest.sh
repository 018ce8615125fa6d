#!/usr/bin/env bash
# tools/pkg/manifest.sh [--update]: what the Debian package is made of, one SHA-256 per file:
# the programs' sources (the C files of the Makefile's LAYERS, the web pages' files and
# their generator, and the Makefile's part above its "packages" line, which builds and
# installs), configs/ (the configuration, the units, the udev rule, the examples), the man
# pages, debian/ but for its changelog and this manifest, and the files that
# debian/annabella.docs and .examples name.  A change to any of them changes what the
# package installs, so it needs a new version: tests/check-package.sh compares them with the
# manifest kept for the version in debian/changelog.
#
# Prints "SHA256  PATH" lines, in byte order of PATH.  With --update, writes them under the
# changelog's version to debian/installed.sha256 (after giving the package a new version:
# the changelog entry, the Makefile's VERSION).  Works in a clean checkout and in a tree
# without git alike: the files are found on disk, leaving out what a package build in the
# tree leaves in debian/.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
cd "$src"
manifest=debian/installed.sha256
export LC_ALL=C

version() { sed -n '1s/^annabella (\([^)]*\)).*/\1/p' debian/changelog; }

inputs() {
	local layers
	layers=$(sed -n 's/^LAYERS := //p' Makefile)
	[ -n "$layers" ] || {
		echo "manifest: no LAYERS line in the Makefile" >&2
		exit 1
	}
	# shellcheck disable=SC2086
	find $layers -type f -name '*.[ch]'
	find web configs man -type f
	echo tools/gen-assets.sh
	find debian -type f -not -path 'debian/.debhelper/*' -not -path 'debian/annabella/*' \
		-not -path 'debian/tmp/*' -not -name files -not -name '*.substvars' \
		-not -name '*.debhelper' -not -name '*.debhelper.log' \
		-not -name debhelper-build-stamp -not -name changelog \
		-not -path "$manifest"
	grep -hv '^[[:space:]]*\(#\|$\)' debian/annabella.docs debian/annabella.examples
}

list() {
	local f
	while read -r f; do
		[ -f "$f" ] || {
			echo "manifest: $f, named in debian/, is missing" >&2
			exit 1
		}
		sha256sum "$f"
	done < <(inputs | sed 's|^\./||' | sort -u)
	# The Makefile's build and install part (its tests' targets below do not go in).
	printf '%s  %s\n' "$(sed '/^# -* packages$/q' Makefile | sha256sum | cut -d' ' -f1)" \
		'Makefile (above its packages line)'
}

case "${1:-}" in
"") list ;;
--update)
	v=$(version)
	[ -n "$v" ] || {
		echo "manifest: no version in debian/changelog's first line" >&2
		exit 1
	}
	# Made outside debian/, which it lists, then put in place whole.
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	{
		echo "# What package version $v is made of (tools/pkg/manifest.sh --update);"
		echo "# tests/check-package.sh fails when these files change and the version does not."
		echo "version $v"
		list
	} >"$tmp"
	cat "$tmp" >"$manifest"
	echo "manifest: $manifest written for version $v"
	;;
*)
	echo "usage: tools/pkg/manifest.sh [--update]" >&2
	exit 2
	;;
esac

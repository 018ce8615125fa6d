# shellcheck shell=bash
# Debian trees for the package's tests (tests/pkg/run.sh, tests/trixie/run.sh,
# tests/fresh/run.sh), sourced: each made once with mmdebstrap (apt resolves and fetches on
# this machine; only the packages' own scripts run in the tree, under qemu-user for another
# architecture) and cached under a name that follows what it holds, so a longer list makes
# a new tree and an unchanged one is taken as it is.

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

tree_key() { printf '%s' "$*" | cksum | cut -d' ' -f1; } # WORDS...: a name's number for them

# tree_make DIR LOG SUITE ARCH VARIANT INCLUDE [MMDEBSTRAP OPTION...]: DIR made once (in
# DIR.tmp, renamed when complete; the others named as DIR but for the number after its last
# "-" are removed then); 0, or 1 with the log's end on stderr.  INCLUDE: packages, comma- or
# space-separated.
tree_make() {
	local dir=$1 log=$2 suite=$3 arch=$4 variant=$5 include=$6
	shift 6
	[ -d "$dir" ] && return 0
	rm -rf "$dir.tmp"
	mkdir -p "$(dirname "$dir")"
	if mmdebstrap --variant="$variant" --architectures="$arch" \
		--include="$(echo "$include" | tr ' \n' ',,' | sed 's/,,*/,/g; s/^,//; s/,$//')" \
		"$@" "$suite" "$dir.tmp" "$mirror" >"$log" 2>&1; then
		mv "$dir.tmp" "$dir"
		# The trees of the same kind made for other lists are no longer used.
		find "$(dirname "$dir")" -maxdepth 1 -type d -name "${dir##*/}" -prune -o -type d \
			-name "$(basename "${dir%-*}")-[0-9]*" -print0 | xargs -0r rm -rf
		return 0
	fi
	tail -20 "$log" >&2
	rm -rf "$dir.tmp"
	return 1
}

# deb_depends DEB...: the packages they depend on (Depends and Pre-Depends), one a line,
# without versions, the first of each set of alternatives: what a tree needs so that dpkg -i
# needs no network.
deb_depends() {
	local deb
	for deb in "$@"; do
		dpkg-deb -f "$deb" Depends Pre-Depends | sed 's/^[A-Za-z-]*: //' | tr ',' '\n' |
			sed 's/|.*//; s/(.*)//; s/:any//; s/[[:space:]]//g' | grep .
	done | sort -u
}

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
# "-" and made more than a week before are removed then); 0, or 1 with the log's end on
# stderr.  INCLUDE: packages, comma- or
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
		# The trees of the same kind made for other lists more than a week ago: another
		# checkout may still use a newer one.
		find "$(dirname "$dir")" -maxdepth 1 -type d -name "${dir##*/}" -prune -o -type d \
			-name "$(basename "${dir%-*}")-[0-9]*" -mtime +7 -print0 | xargs -0r rm -rf
		return 0
	fi
	tail -20 "$log" >&2
	rm -rf "$dir.tmp"
	return 1
}

# trees_need NAME TARGET TOOL...: each tool there and root (systemd-nspawn), else said as
# NAME and exit 1.
trees_need() {
	local name=$1 target=$2 tool
	shift 2
	for tool in "$@"; do
		command -v "$tool" >/dev/null ||
			{ echo "$name: $tool missing (make $target installs it)" >&2; exit 1; }
	done
	[ "$(id -u)" -eq 0 ] || { echo "$name: systemd-nspawn needs root" >&2; exit 1; }
}

# tree_once NAME DIR VARIANT INCLUDE [MMDEBSTRAP OPTION...]: an amd64 Debian 12 tree in DIR,
# made if it is not there (said as NAME, its log DIR/../mmdebstrap.log); exit 1 if it cannot
# be made.
tree_once() {
	local name=$1 dir=$2 variant=$3 include=$4 log
	shift 4
	log=$(dirname "$dir")/mmdebstrap.log
	[ -d "$dir" ] && return 0
	echo "$name: a Debian 12 tree into $dir (once)"
	tree_make "$dir" "$log" bookworm amd64 "$variant" "$include" "$@" ||
		{ echo "$name: mmdebstrap failed (see $log)" >&2; exit 1; }
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

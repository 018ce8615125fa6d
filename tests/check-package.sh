#!/usr/bin/env bash
# The package's version follows what it installs, and make's lists follow debian/control:
# - the Makefile's VERSION is debian/changelog's, each changelog entry newer than the one
#   below it and saying what changed (a line "  * ...");
# - what the package is made of (tools/pkg/manifest.sh: the programs' sources, configs/,
#   the man pages, debian/, the documents) is what debian/installed.sha256 recorded for
#   this version: a changed file with the same version fails (apt would keep the installed
#   package as "already the newest version"); a new version without the manifest updated
#   fails too, so the next change is found;
# - every package debian/control's Build-Depends names is in what make package installs
#   (DEB_RUNTIME, DEB_PACKAGE, SYSTEMD_PC_PKG), so make package on a fresh machine builds.
# No build, no git and no network needed: a source tarball checks the same.
set -u
build=${1:-build}
. "$(dirname "$0")/lib.sh"
begin package
src=$(cd "$tests/.." && pwd)
cd "$src" || give_up "cannot enter $src"
manifest=debian/installed.sha256

# ------------------------------------------------------------------ the version
version=$(sed -n '1s/^annabella (\([^)]*\)) .*/\1/p' debian/changelog)
make_version=$(sed -n 's/^VERSION := //p' Makefile)
[ -n "$version" ] && [ "$version" = "$make_version" ]
check $? "the Makefile's VERSION ($make_version) is not debian/changelog's ($version)"

# Each entry: its version, then at least one "  * " line before its trailer.
awk '
	/^annabella \(/ { if (name && !items) { print name; bad = 1 } name = $2; items = 0; next }
	/^  \* / { items++ }
	/^ -- / { if (!items) { print name; bad = 1 } name = "" }
	END { exit bad }' debian/changelog >"$work/empty"
check $? "changelog entries that say nothing: $(tr '\n' ' ' <"$work/empty")"
prev=""
order=0
for v in $(sed -n 's/^annabella (\([^)]*\)).*/\1/p' debian/changelog); do
	if [ -n "$prev" ] && ! dpkg --compare-versions "$prev" gt "$v"; then
		bad "debian/changelog: $prev is not newer than $v below it"
		order=1
	fi
	prev=$v
done
[ "$order" = 0 ] && ok

# ------------------------------------------------------------------ the manifest
if [ ! -f "$manifest" ]; then
	bad "$manifest is missing (tools/pkg/manifest.sh --update writes it)"
else
	recorded=$(sed -n 's/^version //p' "$manifest")
	grep -v '^#\|^version ' "$manifest" | sort >"$work/recorded"
	tools/pkg/manifest.sh | sort >"$work/now" || bad "tools/pkg/manifest.sh failed"
	# The files that differ: changed, added or gone.
	changed=$(diff "$work/recorded" "$work/now" | sed -n 's/^[<>] [0-9a-f]*  //p' | sort -u |
		tr '\n' ' ')
	if [ -z "$changed" ] && [ "$recorded" = "$version" ]; then
		ok
	elif [ -z "$changed" ]; then
		bad "$manifest was written for $recorded, the version is $version:" \
			"tools/pkg/manifest.sh --update"
	elif [ "$recorded" = "$version" ]; then
		bad "what the package installs changed since $version was recorded, but not the" \
			"version: $changed- give the package a new version (a debian/changelog entry" \
			"saying what changed for a club, the Makefile's VERSION), then" \
			"tools/pkg/manifest.sh --update"
	else
		bad "version $version is new, but $manifest still describes $recorded" \
			"(changed: $changed): tools/pkg/manifest.sh --update"
	fi
fi

# ------------------------------------------------------------------ Build-Depends
have=" $(make -s --no-print-directory print-DEB_RUNTIME print-DEB_PACKAGE \
	print-SYSTEMD_PC_PKG 2>/dev/null | tr '\n' ' ') "
[ "$have" != "  " ] || give_up "make print-DEB_RUNTIME printed nothing"
# The field's clauses, one a line: alternatives, versions, architectures and profiles as
# written.
sed -n '/^Build-Depends:/,/^[^ ]/p' debian/control | sed '$!b; /^[^ ]/d' |
	sed 's/^Build-Depends://' | tr '\n' ' ' | tr ',' '\n' >"$work/clauses"
echo >>"$work/clauses"
missing=""
while read -r clause; do
	[ -n "$clause" ] || continue
	found=""
	for alt in $(echo "$clause" | sed 's/([^)]*)//g; s/\[[^]]*\]//g; s/<[^>]*>//g' | tr '|' ' '); do
		case $alt in debhelper-compat | dh-sequence-*) alt=debhelper ;; esac
		[[ "$have" == *" $alt "* ]] && found=$alt
	done
	[ -n "$found" ] || missing="$missing [$clause]"
done <"$work/clauses"
[ "$(grep -c . "$work/clauses")" -ge 10 ] || bad "read only $(grep -c . "$work/clauses") Build-Depends"
[ -z "$missing" ]
check $? "Build-Depends that make package does not install (add them to the Makefile's" \
	"DEB_RUNTIME or DEB_PACKAGE):$missing"
summary

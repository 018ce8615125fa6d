#!/usr/bin/env bash
# The layers of the README's "Layout", as includes: a file in a folder may include only the
# folders its layer stands on.  Prints every include that breaks a layer as FILE:LINE and
# exits 1.
#   base <- all; chess -> base; game -> chess, base; referee -> game, chess, base;
#   host -> game, chess, base (the machine measured: daemon and cli only);
#   gpio -> base; clockface -> base; voice, braille -> chess, base;
#   control -> referee, game, chess, base;
#   config -> gpio, clockface, voice, braille, referee, game, chess, base;
#   store -> voice, braille, referee, game, chess, base;
#   daemon -> store, config, control, gpio, clockface, voice, braille, referee, game, chess, base;
#   net -> config, control, referee, game, chess, base;  cli -> every folder but daemon.
# An include is checked for the file it reaches, however it is written: "game/game.h",
# <game/game.h> (the build's -I. finds our folders for both), "../game/game.h" or
# "game/../daemon/loop.h" (resolved from the including file's folder first, as the compiler
# does), or a header of the same folder without one.  An include the check cannot read
# (#include MACRO), one that leaves the tree, or one of our files outside the layer folders
# (tests/, build products) is refused too; so is a header of ours that has the path of a
# system header (net/if.h), which would hide it from every file built with -I.
# Usage: lint-layers.sh [FILE...]   (paths from the top of a tree; default: every .c and .h
# of the layer folders of this tree)
#        lint-layers.sh --folders   (the layer folders, one line, as the Makefile's LAYERS)
set -u
declare -A allowed=(
	[base]="base"
	[chess]="chess base"
	[game]="game chess base"
	[referee]="referee game chess base"
	[host]="host game chess base"
	[gpio]="gpio base"
	[clockface]="clockface base"
	[voice]="voice chess base"
	[braille]="braille chess base"
	[control]="control referee game chess base"
	[config]="config gpio clockface voice braille referee game chess base"
	[store]="store voice braille referee game chess base"
	[daemon]="daemon store config control gpio clockface voice braille host referee game chess base"
	[net]="net config control referee game chess base"
	[cli]="cli net store config control gpio clockface voice braille host referee game chess base"
)
folders="base chess game referee host control gpio clockface voice braille config store daemon net cli"
if [ "${1:-}" = --folders ]; then
	echo "$folders"
	exit 0
fi
if [ $# -eq 0 ]; then
	cd "$(dirname "$0")/.." || exit 2
	# shellcheck disable=SC2086
	set -- $(find $folders -name '*.[ch]' | sort)
fi

# The path p (relative to the top of the tree) with its "." and ".." parts taken out, into
# $resolved; 1 when it leaves the tree.
normalize() {
	local IFS=/ part
	local -a out=()
	for part in $1; do
		case $part in
		'' | .) ;;
		..)
			[ ${#out[@]} -gt 0 ] || return 1
			unset 'out[${#out[@]}-1]'
			;;
		*) out+=("$part") ;;
		esac
	done
	resolved="${out[*]}"
	return 0
}

system_dirs=(/usr/include)
multiarch=$(${CC:-cc} -print-multiarch 2>/dev/null)
[ -n "$multiarch" ] && system_dirs+=("/usr/include/$multiarch")

bad=0
refuse() { # FILE LINE MESSAGE
	echo "$1:$2: $3 (README: Layout)"
	bad=1
}

for f in "$@"; do
	layer=${f%%/*}
	[ -n "${allowed[$layer]+x}" ] || continue
	dir=${f%/*}
	case $f in
	*.h)
		for sd in "${system_dirs[@]}"; do
			if [ -e "$sd/$f" ]; then
				refuse "$f" 1 "$f has the path of the system's <$f> and would hide it"
				break
			fi
		done
		;;
	esac
	while IFS= read -r hit; do
		line=${hit%%:*}
		text=${hit#*:}
		if [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]*)\" ]]; then
			quoted=1
		elif [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<([^\>]*)\> ]]; then
			quoted=0
		else
			refuse "$f" "$line" "an include the layer check cannot read"
			continue
		fi
		path=${BASH_REMATCH[1]}
		target=
		# A quoted include is looked for beside the including file first, then (as an
		# angle include) from the top of the tree, where -I. points.
		if [ $quoted -eq 1 ]; then
			if ! normalize "$dir/$path"; then
				refuse "$f" "$line" "\"$path\" leaves the tree"
				continue
			fi
			if [ -e "$resolved" ]; then
				target=$resolved
			elif [ "${path#.}" != "$path" ]; then
				# Written from here ("./x.h", "../x/y.h"): that is where it points.
				target=$resolved
			fi
		fi
		if [ -z "$target" ]; then
			if ! normalize "$path"; then
				# <../x.h> from the top reaches outside the tree: none of ours.
				[ $quoted -eq 1 ] && refuse "$f" "$line" "\"$path\" leaves the tree"
				continue
			fi
			if [ -e "$resolved" ] || { [ $quoted -eq 1 ] && [ -n "${allowed[${resolved%%/*}]+x}" ]; }; then
				target=$resolved
			else
				continue # a system header (<stdio.h>, <net/if.h>)
			fi
		fi
		dep=${target%%/*}
		if [ "$dep" = "$target" ] || [ -z "${allowed[$dep]+x}" ]; then
			refuse "$f" "$line" "$layer/ may not include $target: not in a layer folder"
			continue
		fi
		ok=0
		for a in ${allowed[$layer]}; do
			[ "$dep" = "$a" ] && ok=1
		done
		[ $ok -eq 1 ] || refuse "$f" "$line" "$layer/ may not include $dep/ ($target)"
	done < <(grep -n -E '^[[:space:]]*#[[:space:]]*include' "$f")
done
exit $bad
